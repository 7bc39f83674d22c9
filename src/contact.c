// Contact manifolds in 3D: the normal and depth of the penetration query,
// then the supporting features of both shapes clipped against each other.
//
// Method (as in rigid-body engines: the reference/incident face clipping of
// Box2D and Bullet, the face-on-face pass of Jolt):
//  1. n (unit, A to B) and the signed distance sd from the penetration
//     query (query.c), whose GJK walk stops once the shapes are proved
//     apart by more than the speculative distance: no points then.
//  2. The supporting feature of A's core along n and of B's core along −n
//     (contact_feature.c):
//     a polygon (box face, hull face, triangle, cylinder cap or cone base as
//     a regular octagon), a segment (segment or capsule core, cylinder or
//     cone side line) or one point (everything else).
//  3. The reference feature is a polygon whose plane normal lies within
//     GJK_CONTACT_FLAT of ±n (A's unless B's is clearly better aligned),
//     or, when neither has one, a segment perpendicular to n (a segment or
//     capsule core, a cylinder or cone side, or the supporting edge of a
//     polygon that lies on an edge) when the other feature is a parallel
//     segment too. The other feature is the incident one.
//     Without a reference feature the manifold is the query's one point.
//  4. The incident feature is clipped against the side planes of the
//     reference feature (Sutherland–Hodgman); every clipped point p is moved
//     along n onto the reference plane, which gives its separation.
//     Points farther apart than the speculative distance are dropped.
//  5. More than GJK_MAX_CONTACT_POINTS points are reduced: the deepest, the
//     farthest from it, the one spanning the largest triangle with both, the
//     one adding the largest area to that triangle.
//
// Rounded shapes: the features are those of the cores; points are moved out
// by each shape's rounding radius along ±n (see support.h).
#include <string.h>

#include "contact_feature.h"

/// A's face stays the reference while B's is not better aligned with n by
/// more than this (in cosine: B's face about 2.6° closer when A's is off by
/// that much, and any face within GJK_CONTACT_FLAT of the other's direction).
#define GJK_CONTACT_PREFER_A GJK_R(0.001)
/// Room of the clipped polygon: clipping a convex polygon by one plane adds
/// at most one vertex.
#define GJK_CONTACT_MAX_CLIP (2 * GJK_CONTACT_MAX_FEATURE + 2)

/// A candidate contact point: on the reference core (q) and on the
/// incident core (p), with p = q + s·m (m the direction from the reference
/// shape to the incident one) and its point code.
typedef struct contact_candidate {
    gjk_vec3 p, q;
    gjk_real s;
    uint32_t code;
} contact_candidate;

/// A side plane of the reference feature: dot(normal, p) ≤ offset inside.
typedef struct contact_plane {
    gjk_vec3 normal;
    gjk_real offset;
} contact_plane;

/// One clipped vertex: the point, its code, and the label of the clipped
/// polygon's edge that starts at it (an incident edge k < F, or F + j for
/// side plane j, F = GJK_CONTACT_MAX_FEATURE).
typedef struct clip_vertex {
    gjk_vec3 p;
    uint32_t code;
    uint32_t label;
} clip_vertex;

/// Point code of the crossing of side plane j with the edge labelled `label`:
/// unique per (j, label) since an edge crosses a plane once, and above the
/// codes 1 + k of the incident vertices (at most 1 + F + 2F² < 2^16).
static uint32_t crossing_code(int j, uint32_t label) {
    const uint32_t f = GJK_CONTACT_MAX_FEATURE;
    return 1u + f + (uint32_t)j * 2u * f + label;
}

/// Sutherland–Hodgman: clips the polygon in[0..n) by the side planes;
/// returns the new count (in `in`, which has room for GJK_CONTACT_MAX_CLIP).
static int clip_polygon(clip_vertex *in, int n, const contact_plane *planes, int plane_count) {
    clip_vertex out[GJK_CONTACT_MAX_CLIP];
    for (int j = 0; j < plane_count && n > 0; ++j) {
        int m = 0;
        for (int i = 0; i < n; ++i) {
            const clip_vertex *a = &in[i];
            const clip_vertex *b = &in[(i + 1) % n];
            gjk_real da = gjk_dot(planes[j].normal, a->p) - planes[j].offset;
            gjk_real db = gjk_dot(planes[j].normal, b->p) - planes[j].offset;
            bool ina = da <= 0, inb = db <= 0;
            if (ina && m < GJK_CONTACT_MAX_CLIP) {
                out[m++] = *a;
            }
            if (ina != inb && m < GJK_CONTACT_MAX_CLIP) {
                // The crossing point; da and db have opposite signs so the
                // fraction lies in [0, 1].
                gjk_real t = da / (da - db);
                clip_vertex c;
                c.p = gjk_add(a->p, gjk_scale(t, gjk_sub(b->p, a->p)));
                c.code = crossing_code(j, a->label);
                // Entering: the rest of a's edge follows; leaving: the
                // plane's line follows.
                c.label = ina ? (uint32_t)GJK_CONTACT_MAX_FEATURE + (uint32_t)j : a->label;
                out[m++] = c;
            }
        }
        n = m;
        memcpy(in, out, (size_t)m * sizeof out[0]);
    }
    return n;
}

/// The reference frame of a manifold: the reference feature's plane (through
/// which incident points are projected along m) and its side planes.
typedef struct contact_reference {
    bool segment;    ///< A segment (origin, axis), else a polygon (normal, offset).
    gjk_vec3 normal; ///< Unit, dot(normal, m) > 0.
    gjk_real offset;
    gjk_vec3 origin, axis;
    contact_plane side[GJK_CONTACT_MAX_FEATURE];
    int side_count;
} contact_reference;

/// Sets up the reference of a polygon feature. Its side planes contain m,
/// the direction of projection: a clipped point p then projects along m to
/// a point q inside the face, and since the face's normal is within
/// GJK_CONTACT_FLAT of m, q is where the line through p along m leaves the
/// reference shape, so s is the exact gap along m at that line (and never
/// below the signed distance: B moved by the depth along n clears A).
static void reference_polygon(contact_reference *r, const gjk_contact_feature *f, gjk_vec3 m) {
    // Orientation of the vertex order about m (Newell's normal), about the
    // first vertex: from world coordinates the products are |world|² where
    // the face's area is size², and rounding flipped the sign (review: a
    // 1 cm cube resting on a box 1 km out, float, got one point).
    gjk_vec3 newell = gjk_v3_zero();
    for (int k = 1; k + 1 < f->count; ++k) {
        gjk_vec3 a = gjk_sub(f->v[k], f->v[0]), b = gjk_sub(f->v[k + 1], f->v[0]);
        newell = gjk_add(newell, gjk_cross(a, b));
    }
    gjk_real sign = gjk_dot(newell, m) < 0 ? -1 : 1;
    r->segment = false;
    r->origin = r->axis = gjk_v3_zero(); // unused
    r->normal = f->normal;
    r->offset = gjk_dot(f->normal, f->v[0]);
    r->side_count = f->count;
    for (int k = 0; k < f->count; ++k) {
        gjk_vec3 a = f->v[k], b = f->v[(k + 1) % f->count];
        // For counter-clockwise order about m, (b − a) × m points out of
        // the polygon. Unit, so that offsets are distances (a zero-length
        // edge gives a zero normal: a plane that cuts nothing).
        gjk_vec3 sn = gjk_normalize(gjk_scale(sign, gjk_cross(gjk_sub(b, a), m)));
        r->side[k].normal = sn;
        r->side[k].offset = gjk_dot(sn, a);
    }
}

/// Sets up the reference of a segment feature a–b: the slab between the
/// planes perpendicular to it at its ends. Clipped points pair with their
/// closest points on the segment.
static void reference_segment(contact_reference *r, const gjk_contact_feature *f) {
    gjk_vec3 e = gjk_normalize(gjk_sub(f->v[1], f->v[0]));
    r->segment = true;
    r->normal = gjk_v3(0, 0, 1); // unused
    r->offset = 0;
    r->origin = f->v[0];
    r->axis = e;
    r->side_count = 2;
    r->side[0].normal = gjk_neg(e);
    r->side[0].offset = -gjk_dot(e, f->v[0]);
    r->side[1].normal = e;
    r->side[1].offset = gjk_dot(e, f->v[1]);
}

/// Clips the incident feature by the reference and projects each clipped
/// point along m onto the reference plane. Returns the candidate count.
static int clip_incident(const contact_reference *r, const gjk_contact_feature *inc, gjk_vec3 m,
                         contact_candidate *out) {
    clip_vertex poly[GJK_CONTACT_MAX_CLIP];
    int n = 0;
    if (inc->count == 2) {
        // A segment: clip its parameter interval.
        gjk_vec3 a = inc->v[0], b = inc->v[1];
        gjk_real t0 = 0, t1 = 1;
        uint32_t c0 = 1, c1 = 2;
        for (int j = 0; j < r->side_count; ++j) {
            gjk_real da = gjk_dot(r->side[j].normal, a) - r->side[j].offset;
            gjk_real db = gjk_dot(r->side[j].normal, b) - r->side[j].offset;
            if (da > 0 && db > 0) {
                return 0;
            }
            if (da > 0 || db > 0) {
                gjk_real t = da / (da - db);
                if (da > 0) {
                    if (t > t0) {
                        t0 = t;
                        c0 = crossing_code(j, 0);
                    }
                } else if (t < t1) {
                    t1 = t;
                    c1 = crossing_code(j, 0);
                }
            }
        }
        if (t0 > t1) {
            return 0;
        }
        gjk_vec3 e = gjk_sub(b, a);
        poly[0].p = gjk_add(a, gjk_scale(t0, e));
        poly[0].code = c0;
        poly[1].p = gjk_add(a, gjk_scale(t1, e));
        poly[1].code = c1;
        n = 2;
    } else if (inc->count == 1) {
        for (int j = 0; j < r->side_count; ++j) {
            if (gjk_dot(r->side[j].normal, inc->v[0]) > r->side[j].offset) {
                return 0;
            }
        }
        poly[0].p = inc->v[0];
        poly[0].code = 1;
        n = 1;
    } else {
        for (int k = 0; k < inc->count; ++k) {
            poly[k].p = inc->v[k];
            poly[k].code = 1u + (uint32_t)k;
            poly[k].label = (uint32_t)k;
        }
        n = clip_polygon(poly, inc->count, r->side, r->side_count);
    }
    gjk_real den = gjk_dot(r->normal, m);
    for (int k = 0; k < n; ++k) {
        gjk_vec3 p = poly[k].p;
        if (r->segment) {
            out[k].q = gjk_mul_add(r->origin, gjk_dot(gjk_sub(p, r->origin), r->axis), r->axis);
            out[k].s = gjk_dot(gjk_sub(p, out[k].q), m);
        } else {
            gjk_real s = (gjk_dot(r->normal, p) - r->offset) / den;
            out[k].q = gjk_sub(p, gjk_scale(s, m));
            out[k].s = s;
        }
        out[k].p = p;
        out[k].code = poly[k].code;
    }
    return n;
}

/// How far from the point c of the core feature f along the unit d the
/// rounded feature f ⊕ rB reaches: the largest t with c + t d within r of
/// f. That set is the union of the balls about f's vertices, the cylinders
/// about its edges and (a polygon) the slab over it, and the line leaves
/// the union where it leaves the last of them; a piece the line leaves
/// through a part that another piece covers (a cylinder through its end
/// disc, inside the ball there; the slab through its side, inside that
/// edge's cylinder) is passed over. At least r (the ball about c), and
/// exactly r where c is f's support point along d (then no point of f lies
/// beyond c along d).
///
/// A rounded shape's point moved from its core by r along the normal lies
/// inside the shape by r (1 − cos φ) where the core's feature is tilted by
/// φ from the normal, with its separation overstated as much (review: a
/// capsule turned 3° on a box, 6.9e-4 inside); this is the point on the
/// surface along the normal, whose separation is the gap there.
static gjk_real rounded_reach(const gjk_contact_feature *f, gjk_vec3 c, gjk_vec3 d, gjk_real r, gjk_real tol) {
    // In units of r about c (x = (v − c)/r; the answer times r), so that
    // the answer scales with the shapes: no square of a length at the
    // shapes' scale, which is subnormal below about 2^-511. Only the ratio
    // of the feature's size to r matters, and where its square overflows a
    // piece is passed over (NaN and ∞ fail every test), never finite and
    // wrong.
    gjk_vec3 x[GJK_CONTACT_MAX_FEATURE];
    gjk_real inv = 1 / r, eps = tol * inv, t = 1;
    for (int k = 0; k < f->count; ++k) {
        x[k] = gjk_scale(inv, gjk_sub(f->v[k], c));
        // The ball about x: |t d − x| = 1, t = x·d + √(1 − |x⊥|²).
        gjk_real xd = gjk_dot(x[k], d);
        gjk_real h2 = 1 - gjk_length_sq(gjk_mul_add(x[k], -xd, d));
        if (h2 >= 0) {
            t = gjk_max(t, gjk_sqrt(h2) + xd);
        }
    }
    int edges = f->count == 2 ? 1 : f->count >= 3 ? f->count : 0;
    for (int k = 0; k < edges; ++k) {
        // The infinite cylinder about a–b: |(t d − a)⊥| = 1 across its axis e.
        gjk_vec3 a = x[k], e = gjk_sub(x[k + 1 == f->count ? 0 : k + 1], a);
        gjk_real len = gjk_length(e);
        if (!(len > 0)) {
            continue;
        }
        e = gjk_scale(1 / len, e);
        gjk_vec3 w = gjk_neg(a);
        gjk_vec3 wp = gjk_mul_add(w, -gjk_dot(w, e), e), dp = gjk_mul_add(d, -gjk_dot(d, e), e);
        gjk_real qa = gjk_length_sq(dp), qb = gjk_dot(wp, dp), qc = gjk_length_sq(wp) - 1;
        gjk_real disc = qb * qb - qa * qc;
        if (!(qa > GJK_REAL_EPSILON) || !(disc >= 0)) {
            continue; // along the axis: the end balls decide
        }
        gjk_real te = (gjk_sqrt(disc) - qb) / qa;
        gjk_real along = gjk_dot(gjk_mul_add(w, te, d), e);
        if (along >= -eps && along <= len + eps) {
            t = gjk_max(t, te);
        }
    }
    if (f->count >= 3) {
        // The slab over the polygon: t |d·n| = 1 with the foot of t d on the
        // polygon's plane inside it.
        gjk_real dn = gjk_abs(gjk_dot(d, f->normal));
        if (dn > 0 && dn * t < 1) {
            gjk_real ts = 1 / dn;
            gjk_vec3 foot = gjk_scale(ts, gjk_mul_add(d, -gjk_dot(d, f->normal), f->normal));
            // Inside: on the same side of every edge (either winding).
            int pos = 0, neg = 0;
            for (int k = 0; k < f->count; ++k) {
                gjk_vec3 a = x[k], e = gjk_sub(x[k + 1 == f->count ? 0 : k + 1], a);
                gjk_real side = gjk_dot(gjk_cross(e, gjk_sub(foot, a)), f->normal);
                gjk_real slack = eps * gjk_length(e);
                pos += side > -slack;
                neg += side < slack;
            }
            if (pos == f->count || neg == f->count) {
                t = gjk_max(t, ts);
            }
        }
    }
    return t * r;
}

/// Whether candidate value v (code cv) beats the best so far b (code cb)
/// in a search for the largest: by more than eps, or within eps with the
/// lower point code. Codes depend only on the features' topology, so a tie
/// (an octagonal patch's eight corners at one depth) is settled the same
/// way while the values move by less than eps, and the ids with it.
static bool beats(gjk_real v, uint32_t cv, gjk_real b, uint32_t cb, gjk_real eps) {
    return v > b + eps || (v >= b - eps && cv < cb);
}

/// Keeps at most GJK_MAX_CONTACT_POINTS of c[0..n): the deepest, the
/// farthest from it, the one spanning the largest triangle with both, the
/// one adding the largest area to that triangle (outside one of its edges;
/// or, with none outside, the farthest from the three). Near-ties (within
/// tol of a length, tol times the base's length of an area) go to the lower
/// code (beats): chosen by rounding, a cube on a cube turned 30° about the
/// normal (eight corners at one depth) changed all four kept ids under a
/// tilt of 1e-9 rad (review).
/// Areas are measured in the plane perpendicular to `normal`; returns the
/// count, the kept points moved to the front.
static int reduce(contact_candidate *c, int n, gjk_vec3 normal, gjk_real tol) {
    if (n <= GJK_MAX_CONTACT_POINTS) {
        return n;
    }
    int pick[4];
    pick[0] = 0;
    for (int k = 1; k < n; ++k) {
        if (beats(-c[k].s, c[k].code, -c[pick[0]].s, c[pick[0]].code, tol)) {
            pick[0] = k;
        }
    }
    gjk_vec3 p0 = c[pick[0]].p;
    pick[1] = -1;
    gjk_real best = -1;
    for (int k = 0; k < n; ++k) {
        gjk_real d = gjk_length(gjk_sub(c[k].p, p0));
        if (k != pick[0] && (pick[1] < 0 || beats(d, c[k].code, best, c[pick[1]].code, tol))) {
            best = d;
            pick[1] = k;
        }
    }
    gjk_vec3 e = gjk_sub(c[pick[1]].p, p0);
    gjk_real area_tol = tol * gjk_length(e);
    gjk_real best_area = -1, area3 = 0;
    pick[2] = -1;
    for (int k = 0; k < n; ++k) {
        if (k == pick[0] || k == pick[1]) {
            continue;
        }
        gjk_real a = gjk_dot(gjk_cross(e, gjk_sub(c[k].p, p0)), normal);
        if (pick[2] < 0 || beats(gjk_abs(a), c[k].code, best_area, c[pick[2]].code, area_tol)) {
            best_area = gjk_abs(a);
            area3 = a;
            pick[2] = k;
        }
    }
    // The fourth: the largest area outside one of the triangle's edges,
    // taken in the triangle's own turning sense. (Outside the first edge
    // only, it was a corner 9.2e-4 from a kept one where the patch's far
    // corner lay beyond another edge: four points covering 53% of a
    // six-sided patch, review.)
    gjk_real turn = area3 < 0 ? -1 : 1;
    const gjk_vec3 tri[3] = {p0, c[pick[1]].p, c[pick[2]].p};
    pick[3] = -1;
    best_area = 0;
    for (int k = 0; k < n; ++k) {
        if (k == pick[0] || k == pick[1] || k == pick[2]) {
            continue;
        }
        gjk_real a = -GJK_REAL_MAX;
        for (int j = 0; j < 3; ++j) {
            gjk_vec3 from = tri[j], to = tri[j == 2 ? 0 : j + 1];
            a = gjk_max(a, -turn * gjk_dot(gjk_cross(gjk_sub(to, from), gjk_sub(c[k].p, from)), normal));
        }
        if (a > area_tol && (pick[3] < 0 || beats(a, c[k].code, best_area, c[pick[3]].code, area_tol))) {
            best_area = a;
            pick[3] = k;
        }
    }
    if (pick[3] < 0) {
        // Nothing on the other side: the point farthest from the triangle's
        // vertices.
        best = -1;
        for (int k = 0; k < n; ++k) {
            if (k == pick[0] || k == pick[1] || k == pick[2]) {
                continue;
            }
            gjk_real d = gjk_sqrt(gjk_min(gjk_length_sq(gjk_sub(c[k].p, p0)),
                                          gjk_min(gjk_length_sq(gjk_sub(c[k].p, c[pick[1]].p)),
                                                  gjk_length_sq(gjk_sub(c[k].p, c[pick[2]].p)))));
            if (pick[3] < 0 || beats(d, c[k].code, best, c[pick[3]].code, tol)) {
                best = d;
                pick[3] = k;
            }
        }
    }
    contact_candidate kept[4];
    int m = 0;
    for (int k = 0; k < 4; ++k) {
        if (pick[k] >= 0) {
            kept[m++] = c[pick[k]];
        }
    }
    memcpy(c, kept, (size_t)m * sizeof kept[0]);
    return m;
}

/// The manifold of an error: status, every number zero.
static gjk_manifold manifold_error(gjk_status status) {
    gjk_manifold m;
    memset(&m, 0, sizeof m);
    m.status = status;
    return m;
}

/// The id of a clipped point: bit 31 set when B holds the reference
/// feature, bits 24–30 the reference feature, bits 16–23 the incident
/// feature (both modulo their range), bits 0–15 the point code (1 + vertex
/// index of an incident vertex, or a side-plane crossing). Within one
/// manifold the codes differ; the single-point fallback has id 0.
static uint32_t contact_id(bool ref_b, uint32_t ref_index, uint32_t inc_index, uint32_t code) {
    return (ref_b ? 0x80000000u : 0u) | ((ref_index & 0x7Fu) << 24) | ((inc_index & 0xFFu) << 16) |
           (code & 0xFFFFu);
}

gjk_manifold gjk_contact(const gjk_contact_input *input, gjk_simplex_cache *cache) {
    if (input == NULL || !gjk_is_valid_real(input->speculative_distance) || input->speculative_distance < 0 ||
        input->shape_a == NULL || input->shape_b == NULL || !gjk_options_valid(&input->options)) {
        return manifold_error(GJK_INVALID_INPUT);
    }
    gjk_real spec = input->speculative_distance;
    gjk_query_input q;
    q.shape_a = input->shape_a;
    q.transform_a = input->transform_a;
    q.shape_b = input->shape_b;
    q.transform_b = input->transform_b;
    q.options = input->options;
    q.options.max_distance = 0;

    // 1. The normal and signed distance: one penetration query, whose GJK
    // walk stops early once the shapes are proved farther apart than spec;
    // shapes whose bounding balls show that already are done first.
    if (gjk_balls_apart(&q, spec)) {
        gjk_cache_clear(cache);
        return manifold_error(GJK_SEPARATED);
    }
    gjk_penetration_output pen = gjk_penetration_bounded(&q, cache, spec);
    if (pen.status == GJK_INVALID_INPUT) {
        return manifold_error(GJK_INVALID_INPUT);
    }
    gjk_status status = pen.status;
    gjk_vec3 n = pen.normal, wa = pen.point_a, wb = pen.point_b;
    gjk_real sd = pen.signed_distance;
    if (sd > spec && status != GJK_TOUCHING) {
        // Apart beyond the speculative distance (or not converged there).
        // Touching shapes, apart by no more than the tolerance, keep their
        // points and the queries' status: read from sd alone, a ball 1e-12
        // clear of a box (every query: touching) was SEPARATED without
        // points at a speculative distance of 0 (program audit).
        return manifold_error(status == GJK_NOT_CONVERGED ? status : GJK_SEPARATED);
    }

    gjk_manifold out;
    memset(&out, 0, sizeof out);
    out.status = status;
    out.normal = n;

    // 2. Supporting features (world frame, the poses as the queries
    // normalise them: the penetration query above has checked them).
    gjk_transform xa, xb;
    (void)gjk_transform_unit(&input->transform_a, &xa);
    (void)gjk_transform_unit(&input->transform_b, &xb);
    gjk_contact_feature fa, fb;
    gjk_contact_feature_world(&fa, input->shape_a, xa, n);
    gjk_contact_feature_world(&fb, input->shape_b, xb, gjk_neg(n));

    // 3. The reference feature.
    gjk_real align_a = fa.count >= 3 ? gjk_dot(fa.normal, n) : -1;
    gjk_real align_b = fb.count >= 3 ? -gjk_dot(fb.normal, n) : -1;
    int ref = 0; // 1: A, 2: B, 0: none
    if (align_a >= GJK_CONTACT_FLAT || align_b >= GJK_CONTACT_FLAT) {
        // A keeps the reference unless B's face is clearly better aligned:
        // two faces nearly parallel to each other would otherwise swap roles
        // (and ids) from frame to frame as the normal wobbles between them.
        ref = align_a >= GJK_CONTACT_FLAT && align_a + GJK_CONTACT_PREFER_A >= align_b ? 1 : 2;
    } else {
        // Edge on edge: a polygon that is not flat along n may still touch
        // by an edge perpendicular to n (a box or hull lying on an edge);
        // two parallel edges or segments give two points.
        gjk_real rel = gjk_options_tolerance(&input->options);
        gjk_real size = gjk_max(gjk_shape_size(input->shape_a), gjk_shape_size(input->shape_b));
        if (fa.count >= 3) {
            gjk_contact_polygon_to_edge(&fa, input->shape_a, xa, n, 16 * rel * size);
        }
        if (fb.count >= 3) {
            gjk_contact_polygon_to_edge(&fb, input->shape_b, xb, gjk_neg(n), 16 * rel * size);
        }
        if (fa.count == 2 && fb.count == 2) {
            gjk_vec3 ea = gjk_normalize(gjk_sub(fa.v[1], fa.v[0]));
            gjk_vec3 eb = gjk_normalize(gjk_sub(fb.v[1], fb.v[0]));
            if (gjk_abs(gjk_dot(ea, eb)) >= GJK_CONTACT_FLAT) {
                ref = 1;
            }
        }
    }

    contact_candidate cand[GJK_CONTACT_MAX_CLIP + 1];
    int count = 0;
    const gjk_contact_feature *fr = ref == 2 ? &fb : &fa;
    const gjk_contact_feature *fi = ref == 2 ? &fa : &fb;
    gjk_vec3 m = ref == 2 ? gjk_neg(n) : n;
    gjk_real radii = fa.radius + fb.radius;
    gjk_real tol = 0, clip_tol = 0;
    if (ref != 0) {
        // The tolerance: the query's at the features' own extents (each
        // about its first vertex, not their distance apart, which large
        // margins make large), plus the rounding of their world
        // coordinates. (Taken from the world coordinates
        // alone, it grew with the distance from the world's origin: a cube
        // of half 1e-3 resting on a box at x = 1e6 had its side planes
        // widened by 1.6e-3, review.)
        gjk_real extent = 0, world = 0;
        for (int k = 0; k < fr->count + fi->count; ++k) {
            bool on_ref = k < fr->count;
            gjk_vec3 v = on_ref ? fr->v[k] : fi->v[k - fr->count];
            extent = gjk_max(extent, gjk_max_abs(gjk_sub(v, on_ref ? fr->v[0] : fi->v[0])));
            world = gjk_max(world, gjk_max_abs(v));
        }
        // The clip itself (widened side planes, coincident points, ties,
        // the rounded surfaces' slack) works on the cores: the radii stay
        // out of its tolerance, which at a sharp corner (angle θ) reaches
        // clip_tol / sin(θ/2) beyond it (with margins of 448 and 210, a
        // point 4e-6 off a triangle's 2.3° corner: second review). The
        // separations compared with the query's answer carry the radii.
        gjk_real rel = gjk_options_tolerance(&input->options);
        clip_tol = 16 * rel * extent + 16 * GJK_REAL_EPSILON * world;
        tol = clip_tol + 16 * rel * radii;
        contact_reference r;
        if (fr->count >= 3) {
            reference_polygon(&r, fr, m);
        } else {
            reference_segment(&r, fr);
        }
        // The side planes move out by the tolerance: an incident vertex on
        // a side plane (equal boxes stacked exactly) stays a vertex, rather
        // than turning into two crossings, and its id, as rounding moves it.
        for (int j = 0; j < r.side_count; ++j) {
            r.side[j].offset += clip_tol;
        }
        // 4. Clip, project, keep the points within the speculative distance
        // (plus the touching tolerance, so that resting contacts stay), and
        // one of points that coincide within the tolerance (the deeper).
        int n_clip = clip_incident(&r, fi, m, cand);
        for (int k = 0; k < n_clip; ++k) {
            if (!(cand[k].s - radii <= spec + tol)) {
                continue;
            }
            int same = -1;
            for (int j = 0; j < count && same < 0; ++j) {
                if (gjk_max_abs(gjk_sub(cand[j].p, cand[k].p)) <= clip_tol) {
                    same = j;
                }
            }
            if (same < 0) {
                cand[count++] = cand[k];
            } else if (cand[k].s < cand[same].s) {
                cand[same] = cand[k];
            }
        }
        // The query's deepest point must not be lost: when the clipped
        // points all lie shallower than sd by more than the tolerance (a
        // face that does not hold the deepest vertex, a cap's octagon or a
        // large hull face's 32 vertices missing the deepest rim point), the
        // witness pair joins them. (With a slack of 1e-3 of the size, a
        // cylinder tilted 0.5° on its cap reported its deepest point 6.6e-4
        // short of the depth: review.)
        if (count > 0) {
            gjk_real min_s = GJK_REAL_MAX;
            for (int k = 0; k < count; ++k) {
                min_s = gjk_min(min_s, cand[k].s - radii);
            }
            if (min_s > sd + tol) {
                contact_candidate w;
                // In the reference-to-incident orientation, on the cores.
                gjk_vec3 pa = gjk_mul_add(wa, -fa.radius, n), pb = gjk_mul_add(wb, fb.radius, n);
                w.q = ref == 2 ? pb : pa;
                w.p = ref == 2 ? pa : pb;
                w.s = sd + radii;
                w.code = 0;
                cand[count++] = w;
            }
        }
    }
    if (count == 0) {
        // 6. One point: the query's witnesses.
        out.point_count = 1;
        out.points[0].point_a = wa;
        out.points[0].point_b = wb;
        out.points[0].separation = sd;
        out.points[0].id = 0;
    } else {
        // 5. At most GJK_MAX_CONTACT_POINTS.
        count = reduce(cand, count, n, clip_tol);
        for (int k = 0; k < count; ++k) {
            gjk_vec3 core_x = cand[k].q, core_y = cand[k].p;
            // Rounding: the reference point moves out along m, the incident
            // one back along m, each onto its rounded surface (the query's
            // witness pair, support points along ±m, by the radii).
            gjk_real tx = fr->radius, ty = fi->radius;
            if (cand[k].code != 0) {
                tx = fr->radius > 0 ? rounded_reach(fr, core_x, m, fr->radius, clip_tol) : 0;
                ty = fi->radius > 0 ? rounded_reach(fi, core_y, gjk_neg(m), fi->radius, clip_tol) : 0;
            }
            gjk_vec3 px = gjk_mul_add(core_x, tx, m);
            gjk_vec3 py = gjk_mul_add(core_y, -ty, m);
            gjk_contact_point *cp = &out.points[k];
            cp->point_a = ref == 2 ? py : px;
            cp->point_b = ref == 2 ? px : py;
            cp->separation = cand[k].s - tx - ty;
            cp->id = cand[k].code == 0 ? 0u : contact_id(ref == 2, fr->index, fi->index, cand[k].code);
        }
        out.point_count = count;
    }
    // Never an infinity or NaN: finite inputs can still overflow.
    if (!gjk_is_valid_vec3(out.normal)) {
        return manifold_error(GJK_INVALID_INPUT);
    }
    for (int k = 0; k < out.point_count; ++k) {
        if (!gjk_is_valid_vec3(out.points[k].point_a) || !gjk_is_valid_vec3(out.points[k].point_b) ||
            !gjk_is_valid_real(out.points[k].separation)) {
            return manifold_error(GJK_INVALID_INPUT);
        }
    }
    return out;
}

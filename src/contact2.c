// Contact manifolds in 2D: the twin of contact.c with edges for faces.
//
// The normal n and signed distance come from the penetration query
// (stopping early beyond the speculative distance). The supporting
// feature of each core is an edge (box, triangle and polygon edges, the
// segment of a segment or capsule) or one point (everything else). The
// reference edge is the one whose outward normal lies within
// GJK2_CONTACT_FLAT of ±n (A's unless B's is clearly better aligned); the
// incident feature is clipped to the strip swept by the reference edge along n and
// projected along n onto the reference line, which gives each point's
// separation. Clipping a segment keeps at most two points, so no reduction
// is needed. Without a reference edge the manifold is the query's one point.
#include <string.h>

#include "internal2.h"

/// Cosine of the largest angle between an edge normal and n for the edge to
/// serve as reference (about 3.6 degrees), as in 3D.
#define GJK2_CONTACT_FLAT GJK_R(0.998)
/// Its sine: the largest |e·d| / |e| of a segment core taken as an edge.
#define GJK2_CONTACT_FLAT_SIN GJK_R(0.0632)

/// A supporting feature of one core, in the world frame.
typedef struct contact2_feature {
    int count;        ///< 1 point, 2 edge.
    gjk_vec2 v[2];
    gjk_vec2 normal;  ///< Edge: unit outward normal; point: zero.
    uint32_t index;   ///< Which feature of the shape, for the ids.
    gjk_real radius;  ///< The shape's rounding radius.
} contact2_feature;

static void feature2_point(contact2_feature *f, gjk_vec2 p) {
    f->count = 1;
    f->v[0] = f->v[1] = p;
    f->normal = gjk_v2(0, 0);
    f->index = 0;
}

/// The edge of the convex hull of `v` (any points, any order) whose outward
/// normal is the most aligned with d, found by one gift-wrapping step either
/// way from the supporting vertex (O(n)); a single point when the points
/// coincide. An edge is named by its first vertex (counter-clockwise).
static void feature2_hull(contact2_feature *f, const gjk_vec2 *v, int count, gjk_vec2 d) {
    int iv = 0;
    for (int i = 1; i < count; ++i) {
        if (gjk_dot2(v[i], d) > gjk_dot2(v[iv], d)) {
            iv = i;
        }
    }
    // next: every point lies left of iv → next (or on it, nearer); prev:
    // every point lies right of iv → prev.
    int next = -1, prev = -1;
    for (int i = 0; i < count; ++i) {
        gjk_vec2 e = gjk_sub2(v[i], v[iv]);
        if (!(gjk_length_sq2(e) > 0)) {
            continue;
        }
        if (next < 0) {
            next = prev = i;
            continue;
        }
        gjk_vec2 en = gjk_sub2(v[next], v[iv]), ep = gjk_sub2(v[prev], v[iv]);
        gjk_real cn = gjk_cross2(en, e), cp = gjk_cross2(ep, e);
        if (cn < 0 || (cn == 0 && gjk_length_sq2(e) > gjk_length_sq2(en))) {
            next = i;
        }
        if (cp > 0 || (cp == 0 && gjk_length_sq2(e) > gjk_length_sq2(ep))) {
            prev = i;
        }
    }
    if (next < 0) {
        feature2_point(f, v[iv]);
        return;
    }
    // Outward normals of the counter-clockwise edges iv → next and
    // prev → iv: the right-hand perpendiculars (e.y, −e.x).
    gjk_vec2 e1 = gjk_sub2(v[next], v[iv]), e0 = gjk_sub2(v[iv], v[prev]);
    gjk_vec2 n1 = gjk_normalize2(gjk_v2(e1.y, -e1.x)), n0 = gjk_normalize2(gjk_v2(e0.y, -e0.x));
    bool use_next = gjk_dot2(n1, d) >= gjk_dot2(n0, d);
    int i0 = use_next ? iv : prev, i1 = use_next ? next : iv;
    f->count = 2;
    f->v[0] = v[i0];
    f->v[1] = v[i1];
    f->normal = use_next ? n1 : n0;
    f->index = (uint32_t)i0; // a counter-clockwise edge is named by its first vertex
}

/// A segment core a–b: the segment, with the normal of its side facing d,
/// when it is nearly perpendicular to d (within GJK2_CONTACT_FLAT_SIN);
/// else its supporting end point (ids 1 and 2), as in 3D. (Taken as an
/// edge at any angle, a capsule tilted 30° on a box gave its upper end a
/// point moved back by the radius along the normal, 0.034 inside it:
/// review.)
static void feature2_segment(contact2_feature *f, gjk_vec2 a, gjk_vec2 b, gjk_vec2 d) {
    gjk_vec2 e = gjk_sub2(b, a);
    if (!(gjk_length_sq2(e) > 0)) {
        feature2_point(f, a);
        return;
    }
    gjk_real along = gjk_dot2(e, d);
    if (gjk_abs(along) > GJK2_CONTACT_FLAT_SIN * gjk_length2(e)) {
        feature2_point(f, along > 0 ? b : a);
        f->index = along > 0 ? 2u : 1u;
        return;
    }
    gjk_vec2 n = gjk_normalize2(gjk_v2(e.y, -e.x));
    bool back = gjk_dot2(n, d) < 0;
    f->count = 2;
    f->v[0] = a;
    f->v[1] = b;
    f->normal = back ? gjk_neg2(n) : n;
    f->index = back ? 1u : 0u;
}

/// The supporting feature of the core of s along d (local frame, unit).
static void feature2_local(contact2_feature *f, const gjk2_shape *s, gjk_vec2 d) {
    switch (s->type) {
    case GJK2_SHAPE_SEGMENT: feature2_segment(f, s->segment.a, s->segment.b, d); return;
    case GJK2_SHAPE_CAPSULE: feature2_segment(f, s->capsule.a, s->capsule.b, d); return;
    case GJK2_SHAPE_TRIANGLE: {
        gjk_vec2 v[3] = {s->triangle.a, s->triangle.b, s->triangle.c};
        feature2_hull(f, v, 3, d);
        return;
    }
    case GJK2_SHAPE_BOX: {
        gjk_vec2 h = s->box.half_extents;
        gjk_vec2 v[4] = {gjk_v2(-h.x, -h.y), gjk_v2(h.x, -h.y), gjk_v2(h.x, h.y), gjk_v2(-h.x, h.y)};
        feature2_hull(f, v, 4, d);
        return;
    }
    case GJK2_SHAPE_POLYGON: feature2_hull(f, s->polygon.vertices, s->polygon.count, d); return;
    default: break;
    }
    // Circles, ellipses, points, custom shapes: the support point.
    feature2_point(f, gjk2_core_support(s, d));
}

/// The feature of s at transform x along the world direction d (unit).
static void feature2_world(contact2_feature *f, const gjk2_shape *s, gjk_transform2 x, gjk_vec2 d) {
    feature2_local(f, s, gjk_rot2_inv_apply(x.rotation, d));
    for (int k = 0; k < 2; ++k) {
        f->v[k] = gjk_transform2_point(x, f->v[k]);
    }
    f->normal = gjk_rot2_apply(x.rotation, f->normal);
    f->radius = gjk2_core_radius(s);
}

/// How far from the point c of the core feature f along the unit d the
/// rounded feature f ⊕ rB reaches (contact.c's rounded_reach in 2D): the
/// balls about its ends, and for an edge the band over it, |(x − c)·n| ≤ r
/// with x's foot within the edge. At least r.
static gjk_real rounded_reach2(const contact2_feature *f, gjk_vec2 c, gjk_vec2 d, gjk_real r, gjk_real tol) {
    // In units of r about c, as in 3D.
    gjk_vec2 x[2];
    gjk_real inv = 1 / r, t = 1;
    for (int k = 0; k < f->count; ++k) {
        x[k] = gjk_scale2(inv, gjk_sub2(f->v[k], c));
        gjk_real xd = gjk_dot2(x[k], d);
        gjk_real h2 = 1 - gjk_length_sq2(gjk_mul_add2(x[k], -xd, d));
        if (h2 >= 0) {
            t = gjk_max(t, gjk_sqrt(h2) + xd);
        }
    }
    if (f->count == 2) {
        gjk_vec2 e = gjk_sub2(x[1], x[0]);
        gjk_real len = gjk_length2(e);
        gjk_real dn = len > 0 ? gjk_abs(gjk_cross2(e, d)) / len : 0; // |d·n|
        if (dn > 0 && dn * t < 1) {
            gjk_real ts = 1 / dn;
            gjk_real along = gjk_dot2(gjk_sub2(gjk_scale2(ts, d), x[0]), e) / len;
            if (along >= -tol * inv && along <= len + tol * inv) {
                t = ts;
            }
        }
    }
    return t * r;
}

static gjk2_manifold manifold2_error(gjk_status status) {
    gjk2_manifold m;
    memset(&m, 0, sizeof m);
    m.status = status;
    return m;
}

/// A candidate: p on the incident core, q on the reference core,
/// p = q + s·m.
typedef struct contact2_candidate {
    gjk_vec2 p, q;
    gjk_real s;
    uint32_t code;
} contact2_candidate;

/// The id of a clipped point, laid out as in 3D: bit 31 set when B holds
/// the reference edge, bits 24–30 the reference edge, bits 16–23 the
/// incident feature (both modulo their range), bits 0–15 the point code
/// (1 + end point index, or 17 + 32 j for the crossing of side line j). The
/// single-point fallback has id 0.
static uint32_t contact2_id(bool ref_b, uint32_t ref_index, uint32_t inc_index, uint32_t code) {
    return (ref_b ? 0x80000000u : 0u) | ((ref_index & 0x7Fu) << 24) | ((inc_index & 0xFFu) << 16) |
           (code & 0xFFFFu);
}

gjk2_manifold gjk2_contact(const gjk2_contact_input *input, gjk2_simplex_cache *cache) {
    if (input == NULL || !gjk_is_valid_real(input->speculative_distance) || input->speculative_distance < 0 ||
        input->shape_a == NULL || input->shape_b == NULL || !gjk_options_valid(&input->options)) {
        return manifold2_error(GJK_INVALID_INPUT);
    }
    gjk_real spec = input->speculative_distance;
    gjk2_query_input q;
    q.shape_a = input->shape_a;
    q.transform_a = input->transform_a;
    q.shape_b = input->shape_b;
    q.transform_b = input->transform_b;
    q.options = input->options;
    q.options.max_distance = 0;

    // One penetration query, whose GJK walk stops early once the shapes
    // are proved farther apart than spec.
    gjk2_penetration_output pen = gjk2_penetration_bounded(&q, cache, spec);
    if (pen.status == GJK_INVALID_INPUT) {
        return manifold2_error(GJK_INVALID_INPUT);
    }
    gjk_status status = pen.status;
    gjk_vec2 n = pen.normal, wa = pen.point_a, wb = pen.point_b;
    gjk_real sd = pen.signed_distance;
    if (sd > spec && status != GJK_TOUCHING) {
        // (Touching shapes keep their points, as in 3D.)
        return manifold2_error(status == GJK_NOT_CONVERGED ? status : GJK_SEPARATED);
    }

    gjk2_manifold out;
    memset(&out, 0, sizeof out);
    out.status = status;
    out.normal = n;

    // The poses as the queries normalise them (the penetration query above
    // has checked them).
    gjk_transform2 xa, xb;
    (void)gjk2_transform_unit(&input->transform_a, &xa);
    (void)gjk2_transform_unit(&input->transform_b, &xb);
    contact2_feature fa, fb;
    feature2_world(&fa, input->shape_a, xa, n);
    feature2_world(&fb, input->shape_b, xb, gjk_neg2(n));

    gjk_real align_a = fa.count == 2 ? gjk_dot2(fa.normal, n) : -1;
    gjk_real align_b = fb.count == 2 ? -gjk_dot2(fb.normal, n) : -1;
    int ref = 0;
    if (align_a >= GJK2_CONTACT_FLAT || align_b >= GJK2_CONTACT_FLAT) {
        // A keeps the reference unless B's edge is clearly better aligned
        // (as in 3D: nearly parallel edges would swap roles and ids).
        ref = align_a >= GJK2_CONTACT_FLAT && align_a + GJK_R(0.001) >= align_b ? 1 : 2;
    }
    const contact2_feature *fr = ref == 2 ? &fb : &fa;
    const contact2_feature *fi = ref == 2 ? &fa : &fb;
    gjk_vec2 m = ref == 2 ? gjk_neg2(n) : n;
    gjk_real radii = fa.radius + fb.radius, tol = 0, clip_tol = 0;
    contact2_candidate cand[3];
    int count = 0;
    if (ref != 0) {
        // The strip of the reference edge swept along m: u ⊥ m, oriented
        // from v[0] to v[1]; inside when u·r0 ≤ u·p ≤ u·r1.
        gjk_vec2 u = gjk_perp2(m);
        gjk_vec2 r0 = fr->v[0], r1 = fr->v[1];
        if (gjk_dot2(gjk_sub2(r1, r0), u) < 0) {
            u = gjk_neg2(u);
        }
        gjk_vec2 a = fi->v[0], b = fi->v[1];
        // The tolerances, as in 3D: the clip's at the features' own extents
        // plus the rounding of their world coordinates; the separations'
        // with the radii too.
        gjk_real rel = gjk_options_tolerance(&input->options);
        gjk_real extent = gjk_max(gjk2_max_abs(gjk_sub2(r1, r0)), gjk2_max_abs(gjk_sub2(b, a)));
        gjk_real world = gjk_max(gjk_max(gjk2_max_abs(r0), gjk2_max_abs(r1)), gjk_max(gjk2_max_abs(a), gjk2_max_abs(b)));
        clip_tol = 16 * rel * extent + 16 * GJK_REAL_EPSILON * world;
        tol = clip_tol + 16 * rel * radii;
        // The strip widened by the tolerance: an incident end on its border
        // stays an end point (and keeps its id) as rounding moves it.
        gjk_real lo = gjk_dot2(u, r0) - clip_tol, hi = gjk_dot2(u, r1) + clip_tol;
        // Clip the incident segment (or point): its parameter interval.
        gjk_real ua = gjk_dot2(u, a), ub = gjk_dot2(u, b);
        gjk_real t0 = 0, t1 = fi->count == 2 ? 1 : 0;
        uint32_t c0 = 1, c1 = fi->count == 2 ? 2 : 1;
        bool empty = false;
        // Side 0: u·p ≥ lo; side 1: u·p ≤ hi.
        for (int j = 0; j < 2 && !empty; ++j) {
            gjk_real da = j == 0 ? lo - ua : ua - hi; // > 0: outside
            gjk_real db = j == 0 ? lo - ub : ub - hi;
            if (fi->count == 1) {
                empty = da > 0;
                continue;
            }
            if (da > 0 && db > 0) {
                empty = true;
            } else if (da > 0 || db > 0) {
                gjk_real t = da / (da - db);
                if (da > 0 && t > t0) {
                    t0 = t;
                    c0 = 17u + 32u * (uint32_t)j;
                } else if (db > 0 && t < t1) {
                    t1 = t;
                    c1 = 17u + 32u * (uint32_t)j;
                }
            }
        }
        if (!empty && t0 <= t1) {
            gjk_real den = gjk_dot2(fr->normal, m);
            gjk_real off = gjk_dot2(fr->normal, r0);
            int np = fi->count == 2 ? 2 : 1;
            gjk_real ts[2] = {t0, t1};
            uint32_t cs[2] = {c0, c1};
            for (int k = 0; k < np; ++k) {
                gjk_vec2 p = gjk_add2(a, gjk_scale2(ts[k], gjk_sub2(b, a)));
                gjk_real s = (gjk_dot2(fr->normal, p) - off) / den;
                if (s - radii <= spec + tol) {
                    cand[count].p = p;
                    cand[count].q = gjk_sub2(p, gjk_scale2(s, m));
                    cand[count].s = s;
                    cand[count].code = cs[k];
                    ++count;
                }
            }
            if (count == 2 && (cand[0].code == cand[1].code ||
                               gjk_max(gjk_abs(cand[0].p.x - cand[1].p.x), gjk_abs(cand[0].p.y - cand[1].p.y)) <= clip_tol)) {
                // The two ends coincide: keep the deeper.
                if (cand[1].s < cand[0].s) {
                    cand[0] = cand[1];
                }
                count = 1;
            }
            if (count > 0) {
                // Keep the query's deepest point (see contact.c).
                gjk_real min_s = gjk_min(cand[0].s, count > 1 ? cand[1].s : cand[0].s) - radii;
                if (min_s > sd + tol) {
                    // Add the witness pair, in place of the shallower point
                    // when there are two already.
                    int k = count;
                    if (count == 2) {
                        k = cand[0].s > cand[1].s ? 0 : 1;
                    } else {
                        ++count;
                    }
                    gjk_vec2 pa = gjk_mul_add2(wa, -fa.radius, n), pb = gjk_mul_add2(wb, fb.radius, n);
                    cand[k].q = ref == 2 ? pb : pa;
                    cand[k].p = ref == 2 ? pa : pb;
                    cand[k].s = sd + radii;
                    cand[k].code = 0;
                }
            }
        }
    }
    if (count == 0) {
        out.point_count = 1;
        out.points[0].point_a = wa;
        out.points[0].point_b = wb;
        out.points[0].separation = sd;
        out.points[0].id = 0;
    } else {
        for (int k = 0; k < count; ++k) {
            // Each point onto its rounded surface along m (as in 3D; the
            // query's witness pair by the radii).
            gjk_real tx = fr->radius, ty = fi->radius;
            if (cand[k].code != 0) {
                tx = fr->radius > 0 ? rounded_reach2(fr, cand[k].q, m, fr->radius, clip_tol) : 0;
                ty = fi->radius > 0 ? rounded_reach2(fi, cand[k].p, gjk_neg2(m), fi->radius, clip_tol) : 0;
            }
            gjk_vec2 px = gjk_mul_add2(cand[k].q, tx, m);
            gjk_vec2 py = gjk_mul_add2(cand[k].p, -ty, m);
            gjk2_contact_point *cp = &out.points[k];
            cp->point_a = ref == 2 ? py : px;
            cp->point_b = ref == 2 ? px : py;
            cp->separation = cand[k].s - tx - ty;
            cp->id = cand[k].code == 0 ? 0u : contact2_id(ref == 2, fr->index, fi->index, cand[k].code);
        }
        out.point_count = count;
    }
    if (!gjk_is_valid_vec2(out.normal)) {
        return manifold2_error(GJK_INVALID_INPUT);
    }
    for (int k = 0; k < out.point_count; ++k) {
        if (!gjk_is_valid_vec2(out.points[k].point_a) || !gjk_is_valid_vec2(out.points[k].point_b) ||
            !gjk_is_valid_real(out.points[k].separation)) {
            return manifold2_error(GJK_INVALID_INPUT);
        }
    }
    return out;
}

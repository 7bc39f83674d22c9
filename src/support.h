// Support functions of the shapes' cores, in their local frames.
//
// A shape is split into a core and a rounding radius: a sphere is a point
// core with its radius, a capsule a segment core with its radius, and every
// shape adds its margin to the radius. GJK and EPA run on the cores; the
// radius is added back exactly at the end, because the signed distance of
// two rounded shapes is the signed distance of their cores minus the sum of
// the radii (the Minkowski sum with a ball moves every boundary point out by
// the radius along its normal).
#ifndef GJK_SUPPORT_H
#define GJK_SUPPORT_H

#include "gjk/gjk.h"

#define GJK_R(x) ((gjk_real)(x))

// GJK_OUTLINE: a function defined in a private header that each file
// including it compiles as its own out-of-line copy (static, never inlined;
// no warning where a file does not call it).
#if defined(__GNUC__) || defined(__clang__)
#define GJK_NOINLINE __attribute__((noinline))
#define GJK_INLINE inline __attribute__((always_inline))
#define GJK_OUTLINE static __attribute__((noinline, unused))
#else
#define GJK_NOINLINE
#define GJK_INLINE inline
#define GJK_OUTLINE static
#endif

/// The rounding radius of a shape: its margin plus a sphere's or capsule's radius.
static inline gjk_real gjk_core_radius(const gjk_shape *s) {
    switch (s->type) {
    case GJK_SHAPE_SPHERE: return s->margin + s->sphere.radius;
    case GJK_SHAPE_CAPSULE: return s->margin + s->capsule.radius;
    default: return s->margin;
    }
}

static inline gjk_vec3 gjk_support_segment(gjk_vec3 a, gjk_vec3 b, gjk_vec3 d) {
    return gjk_dot(b, d) > gjk_dot(a, d) ? b : a;
}

/// The index of the point of v[0..count) farthest along d, the first of
/// equals: a loop.
static inline int gjk_support_index(const gjk_vec3 *v, int count, gjk_vec3 d) {
    int best = 0;
    gjk_real best_dot = gjk_dot(v[0], d);
    for (int i = 1; i < count; ++i) {
        gjk_real t = gjk_dot(v[i], d);
        if (t > best_dot) {
            best_dot = t;
            best = i;
        }
    }
    return best;
}

#if !GJK_USE_FLOAT && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define GJK_HAVE_AVX2_SCAN 1
#else
#define GJK_HAVE_AVX2_SCAN 0
#endif

/// The index of a point farthest along d among `count` points laid out in
/// coordinate blocks (all x, all y, all z, each `stride` long, stride a
/// multiple of 8, the tail padded with copies of point 0), the first of
/// equals as gjk_support_points: a loop (scan.c).
int gjk_scan_portable(const gjk_real *scan, int stride, int count, gjk_vec3 d);

#if GJK_HAVE_AVX2_SCAN
/// The same answer, eight points per step with AVX2 (scan.c); only where
/// the hull's scan_kind is 1 (the CPU has AVX2).
int gjk_scan_avx2(const gjk_real *scan, int stride, int count, gjk_vec3 d);
#endif

/// Polytopes without a hull (the caller's points, as given) of at least this
/// many points are scanned by gjk_scan_points_wide where it is built, smaller
/// ones by the loop inline. The loop takes 16 instructions a point, the
/// wide scan 5.5 and about 60 more a call (callgrind), but the walk waits
/// on each support point, so the wide scan's latency decides below 16:
/// timed (distance between random clouds 1.2 to 2 apart, 100 pairs, the
/// least of 8 runs' best of 30 rounds of 2000 queries), 8 points 620 ns a
/// query by the loop against 668 wide, 12 734 against 762, 16 807 against
/// 797, 24 888 against 867, 32 1024 against 970, 64 1482 against 1208.
#define GJK_SCAN_WIDE_MIN_POINTS 16

#if GJK_HAVE_AVX2_SCAN
/// gjk_support_index's answer, bit for bit (the first of the largest
/// (x dx + y dy) + z dz), four points per step with AVX2 where the CPU has
/// it (scan.c; the CPU asked each call, since the points are the caller's).
int gjk_scan_points_wide(const gjk_vec3 *v, int count, gjk_vec3 d);
#endif

/// The point of v[0..count) farthest along d (the first of equals).
static inline gjk_vec3 gjk_support_points(const gjk_vec3 *v, int count, gjk_vec3 d) {
#if GJK_HAVE_AVX2_SCAN
    if (count >= GJK_SCAN_WIDE_MIN_POINTS) {
        return v[gjk_scan_points_wide(v, count, d)];
    }
#endif
    return v[gjk_support_index(v, count, d)];
}

/// gjk_scan_portable or gjk_scan_avx2, the routine chosen when the hull was
/// built (a branch every call takes the same way).
static GJK_INLINE int gjk_hull_scan_points(const gjk_hull *h, const gjk_real *scan, int stride, int count,
                                           gjk_vec3 d) {
#if GJK_HAVE_AVX2_SCAN
    if (h->scan_kind == 1) {
        return gjk_scan_avx2(scan, stride, count, d);
    }
#else
    (void)h;
#endif
    return gjk_scan_portable(scan, stride, count, d);
}

/// The index of a vertex of the hull farthest along d (the first of equals).
static GJK_INLINE int gjk_hull_scan(const gjk_hull *h, gjk_vec3 d) {
    return gjk_hull_scan_points(h, h->scan, h->scan_stride, h->vertex_count, d);
}

/// The most directions in a hull's start sample (hull.c), where hill
/// climbing begins when it has no better hint. Here rather than in hull.c
/// so that the tests can check the sample's size against it.
#define GJK_HULL_START_MAX 64

/// Hulls with fewer vertices than this are scanned (vectorised, scan.c);
/// larger ones climb. Measured with callgrind on distance queries between
/// two hulls of points on an ellipsoid (instructions per query, AVX2 scan):
/// the scan wins at 64 vertices (−8%), climbing at 128 (−10%), 256 (−33%).
#define GJK_HULL_CLIMB_MIN 96

/// One step of hill climbing over the hull's vertex graph: the neighbour of
/// vertex cur farthest along d if it is strictly farther than *best (which
/// it then receives), else −1.
static inline int gjk_hull_step(const gjk_hull *h, gjk_vec3 d, int cur, gjk_real *best) {
    const gjk_vec3 *v = h->vertices;
    const int *nb = h->neighbors;
    int next = -1;
    for (int k = h->neighbor_first[cur], e = h->neighbor_first[cur + 1]; k < e; ++k) {
        gjk_real t = gjk_dot(v[nb[k]], d);
        if (t > *best) {
            *best = t;
            next = nb[k];
        }
    }
    return next;
}

/// Hill climbing from vertex cur, where d·v is `best` (rounded as gjk_dot
/// rounds it): step while a neighbour is farther along d. On a convex
/// polytope a vertex with no farther neighbour is a support point: its edge
/// cone contains the whole polytope (within the rounding of d·v, which
/// gjk_hull_level settles where it matters). Each step strictly increases
/// d·v, so no vertex is visited twice and the walk ends.
static inline int gjk_hull_climb(const gjk_hull *h, gjk_vec3 d, int cur, gjk_real best) {
    for (int next; (next = gjk_hull_step(h, d, cur, &best)) >= 0;) {
        cur = next;
    }
    return cur;
}

/// The best vertex of the hull's start sample along d (the support points of
/// directions spread over the sphere, scanned eight at a time).
static inline int gjk_hull_start(const gjk_hull *h, gjk_vec3 d) {
    return h->start_vertex[gjk_hull_scan_points(h, h->start_scan, h->start_stride, h->start_count, d)];
}

/// The end of a climb at vertex cur, where no neighbour came out farther
/// along d. On a hull with coplanar faces (gjk_hull.coplanar) that is not
/// enough:
/// - across a flat face along a d nearly normal to it, a step gains only
///   d's tilt times the edge, below the rounding of v·d computed per vertex,
///   and the climb stopped on the face's rim as if on top, up to the tilt
///   times the face's width short (review: 4.4e-4 on a float hull of 10,355
///   points with a flat cap; test_climb_on_flat_cap). A neighbour w whose
///   w·d comes within the rounding of v·d (each carries up to 4ε R|d|₁, R
///   the hull's radius) may be truly farther: its gain (w − v)·d is read from
///   the edge, in double whatever gjk_real is (each difference, product
///   and sum rounds within 2⁻⁵³ of its result, so the gain carries at most
///   about 4 × 2⁻⁵³ Σ|(w − v)ᵢ dᵢ|; computed in float, that bound hid the
///   second-order gains along a tilted cap's far rim, review), and the climb
///   steps to the largest gain above 8 × 2⁻⁵³ times that sum, so each step
///   truly rises;
/// - a vertex inside a face normal to d has every neighbour level with it,
///   on the top face or the bottom one, and a warm climb from a hint on the
///   bottom answered the hint, up to the whole hull short (review, float
///   boxes sampled on their faces). There the start sample (gjk_hull_start)
///   tells: a sample vertex above by more than the rounding restarts the
///   climb from it.
/// The hull's vertex count bounds the steps. Elsewhere the surface turns
/// between faces by more than the merging tolerance, far above the
/// rounding, and cur is the answer.
static GJK_NOINLINE int gjk_hull_level_edges(const gjk_hull *h, gjk_vec3 d, int cur) {
    const gjk_vec3 *v = h->vertices;
    const int *nb = h->neighbors;
    const gjk_real slack = 8 * GJK_REAL_EPSILON * h->radius * (gjk_abs(d.x) + gjk_abs(d.y) + gjk_abs(d.z));
    const double dx = (double)d.x, dy = (double)d.y, dz = (double)d.z;
    for (int steps = h->vertex_count; steps > 0; --steps) {
        const gjk_vec3 c = v[cur];
        const gjk_real vd = gjk_dot(c, d), low = vd - slack;
        double best = 0;
        int next = -1;
        bool below = false;
        for (int k = h->neighbor_first[cur], e = h->neighbor_first[cur + 1]; k < e; ++k) {
            gjk_vec3 w = v[nb[k]];
            if (gjk_dot(w, d) >= low) {
                double px = ((double)w.x - (double)c.x) * dx, py = ((double)w.y - (double)c.y) * dy;
                double pz = ((double)w.z - (double)c.z) * dz;
                double g = px + py + pz, bound = 8 * 0x1p-53 * (fabs(px) + fabs(py) + fabs(pz));
                if (g > bound && g > best) {
                    best = g;
                    next = nb[k];
                }
            } else {
                below = true;
            }
        }
        if (next < 0 && !below) {
            int s = gjk_hull_start(h, d);
            gjk_real t = gjk_dot(v[s], d);
            if (t > vd + slack) {
                next = gjk_hull_climb(h, d, s, t);
            }
        }
        if (next < 0) {
            break;
        }
        cur = next;
    }
    return cur;
}

/// gjk_hull_level_edges where the hull has coplanar faces; else cur.
static GJK_INLINE int gjk_hull_level(const gjk_hull *h, gjk_vec3 d, int cur) {
    return h->coplanar ? gjk_hull_level_edges(h, d, cur) : cur;
}

/// Where a hill climb on a hull begins (gjk_support_hull): *cur and its
/// d·v *best; true when *cur is the answer already (a warm hint with no
/// farther neighbour). *hint is a start vertex (out of range: none). Cold,
/// the climb starts from the better of the hint and the start sample's
/// best. With hint_first (a warm start: the hint is likely the answer
/// already) the hint's neighbours are looked at first, and the sample is
/// scanned only when one of them is farther, i.e. when d has moved, maybe
/// far. Measured with callgrind on the bench's rows at ±1e-3, each order
/// against the other: on cold queries between hulls of 512 to 16384
/// vertices the cold order runs 1.3-2.5% fewer instructions, on warm ones
/// the warm order 14-16%. The climb starts from d·v as computed here: the
/// choice of the vertex already needs it, and recomputing it would put a
/// load and a dot product on the climb's critical path.
static GJK_INLINE bool gjk_hull_climb_start(const gjk_hull *h, gjk_vec3 d, int hint, bool hint_first, int *cur,
                                            gjk_real *best) {
    const gjk_vec3 *v = h->vertices;
    bool valid = hint >= 0 && hint < h->vertex_count;
    if (valid && hint_first) {
        gjk_real b = gjk_dot(v[hint], d);
        int next = gjk_hull_step(h, d, hint, &b);
        *cur = hint;
        if (next < 0) {
            return true; // the hint is the answer already
        }
        // Restart from the sample's best when it beats the first step.
        int s = gjk_hull_start(h, d);
        gjk_real t = gjk_dot(v[s], d);
        *cur = t > b ? s : next;
        *best = t > b ? t : b;
        return false;
    }
    int s = gjk_hull_start(h, d);
    gjk_real b = gjk_dot(v[s], d);
    if (valid) {
        gjk_real t = gjk_dot(v[hint], d);
        *cur = b >= t ? s : hint;
        *best = b >= t ? b : t;
    } else {
        *cur = s;
        *best = b;
    }
    return false;
}

/// Support of a hull by hill climbing (gjk_hull_climb) from where
/// gjk_hull_climb_start puts it. *hint is a start vertex (out of range:
/// none) and receives the answer, so that the next call along a nearby
/// direction starts next to it.
static inline gjk_vec3 gjk_support_hull(const gjk_hull *h, gjk_vec3 d, int *hint, bool hint_first) {
    int cur;
    gjk_real best;
    if (!gjk_hull_climb_start(h, d, *hint, hint_first, &cur, &best)) {
        cur = gjk_hull_climb(h, d, cur, best);
    }
    cur = gjk_hull_level(h, d, cur);
    *hint = cur;
    return h->vertices[cur];
}

/// gjk_support_hull on two hulls at once (A along da, B along db), with the
/// two climbs interleaved step by step: each step is a chain of dependent
/// loads (the vertex's neighbours, then their coordinates) whose latency,
/// not its instructions, sets its time, and a step of one climb can run
/// while the other waits. The same vertices as two calls.
static inline void gjk_support_hull_pair(const gjk_hull *ha, gjk_vec3 da, int *hint_a, const gjk_hull *hb,
                                         gjk_vec3 db, int *hint_b, bool hint_first) {
    int ca, cb;
    gjk_real best_a, best_b;
    bool done_a = gjk_hull_climb_start(ha, da, *hint_a, hint_first, &ca, &best_a);
    bool done_b = gjk_hull_climb_start(hb, db, *hint_b, hint_first, &cb, &best_b);
    while (!done_a && !done_b) {
        int na = gjk_hull_step(ha, da, ca, &best_a);
        int nb = gjk_hull_step(hb, db, cb, &best_b);
        done_a = na < 0;
        done_b = nb < 0;
        ca = done_a ? ca : na;
        cb = done_b ? cb : nb;
    }
    if (!done_a) {
        ca = gjk_hull_climb(ha, da, ca, best_a);
    }
    if (!done_b) {
        cb = gjk_hull_climb(hb, db, cb, best_b);
    }
    *hint_a = gjk_hull_level(ha, da, ca);
    *hint_b = gjk_hull_level(hb, db, cb);
}

/// Whether a hull's support points climb (at least GJK_HULL_CLIMB_MIN
/// vertices); smaller hulls are scanned.
static inline bool gjk_hull_climbed(const gjk_hull *h) { return h->vertex_count >= GJK_HULL_CLIMB_MIN; }

/// Whether the shape is a hull polytope whose support points climb.
static inline bool gjk_hull_climbs(const gjk_shape *s) {
    return s->type == GJK_SHAPE_POLYTOPE && s->polytope.hull != NULL && gjk_hull_climbed(s->polytope.hull);
}

/// |(d_x, d_y)|, the length of d's part normal to the z axis (a cylinder's
/// or cone's), with *d first rescaled to unit length when that square is
/// outside the normal range: it would underflow to zero (or overflow) for
/// tiny (huge) d, and the rim point be lost. A d along the axis takes this
/// path too, and keeps a zero horizontal part. (A part still too small
/// beside d_z, its square subnormal, gives a length with few digits: see
/// gjk_axial_rim.)
static GJK_INLINE gjk_real gjk_axial_length(gjk_vec3 *d) {
    gjk_real rho2 = d->x * d->x + d->y * d->y;
    if (!(rho2 > GJK_SQUARE_MIN && rho2 < GJK_SQUARE_MAX)) {
        *d = gjk_normalize(*d);
        rho2 = d->x * d->x + d->y * d->y;
    }
    return gjk_sqrt(rho2);
}

/// The rim point r·(d_x, d_y)/|(d_x, d_y)| at height z where that part's
/// square is below the normal range even after gjk_axial_length (below
/// 1e-140 of |d|): the part scaled by its largest component first. From
/// the subnormal square, a cone's rim point along (−2e-161, −2e-161, −1)
/// came out 1.4e-4 outside the rim (fuzz seed 1057, f75), and r over a
/// subnormal length overflows (f75b). Out of line: rare, and inline it
/// slowed the walk's loop, where the support functions are inlined.
static GJK_NOINLINE gjk_vec3 gjk_axial_rim(gjk_vec3 d, gjk_real r, gjk_real z) {
    gjk_real m = gjk_max(gjk_abs(d.x), gjk_abs(d.y));
    gjk_real x = d.x / m, y = d.y / m, l = gjk_sqrt(x * x + y * y);
    return gjk_v3(r * (x / l), r * (y / l), z);
}

/// The point of the core of `s` farthest along `d` (local frame). `d` need
/// not be unit; a zero `d` gives some point of the core. `hint` (may be
/// NULL) receives the index of a hull's vertex; it is also the start of a
/// large hull's hill climbing, tried before the hull's start sample with
/// hint_first (gjk_support_hull).
static GJK_INLINE gjk_vec3 gjk_core_support_hint(const gjk_shape *s, gjk_vec3 d, int *hint, bool hint_first) {
    switch (s->type) {
    case GJK_SHAPE_POINT:
    case GJK_SHAPE_SPHERE:
        return gjk_v3_zero();
    case GJK_SHAPE_SEGMENT:
        return gjk_support_segment(s->segment.a, s->segment.b, d);
    case GJK_SHAPE_CAPSULE:
        return gjk_support_segment(s->capsule.a, s->capsule.b, d);
    case GJK_SHAPE_TRIANGLE: {
        gjk_vec3 p = gjk_support_segment(s->triangle.a, s->triangle.b, d);
        return gjk_dot(s->triangle.c, d) > gjk_dot(p, d) ? s->triangle.c : p;
    }
    case GJK_SHAPE_BOX: {
        // ±h with d's signs (−h where d < 0): bit operations rather than
        // branches, whose outcome the processor could not predict from one
        // call to the next. Adding +0 turns −0 into +0, so a zero component
        // takes +h, as the comparison d < 0 would.
        gjk_vec3 h = s->box.half_extents;
        return gjk_v3(gjk_copysign(h.x, d.x + 0), gjk_copysign(h.y, d.y + 0), gjk_copysign(h.z, d.z + 0));
    }
    case GJK_SHAPE_CYLINDER: {
        gjk_real r = s->cylinder.radius, h = s->cylinder.half_height;
        gjk_real rho = gjk_axial_length(&d);
        gjk_real z = d.z < 0 ? -h : h;
        if (rho > 0) {
            if (!(rho * rho > GJK_SQUARE_MIN)) {
                return gjk_axial_rim(d, r, z);
            }
            gjk_real k = r / rho;
            return gjk_v3(k * d.x, k * d.y, z);
        }
        return gjk_v3(0, 0, z);
    }
    case GJK_SHAPE_CONE: {
        // Candidates: the apex (0, 0, h) and the base rim point along d's
        // horizontal part, at z = −h. Compare d·apex = h d_z with
        // d·rim = r |d_xy| − h d_z.
        gjk_real r = s->cone.radius, h = s->cone.half_height;
        gjk_real rho = gjk_axial_length(&d);
        if (h * d.z >= r * rho - h * d.z) {
            return gjk_v3(0, 0, h);
        }
        if (rho > 0) {
            if (!(rho * rho > GJK_SQUARE_MIN)) {
                return gjk_axial_rim(d, r, -h);
            }
            gjk_real k = r / rho;
            return gjk_v3(k * d.x, k * d.y, -h);
        }
        return gjk_v3(0, 0, -h);
    }
    case GJK_SHAPE_ELLIPSOID: {
        // The ellipsoid is the unit sphere scaled by diag(r); its support is
        // diag(r) u with u = diag(r) d / |diag(r) d|. diag(r) d carries the
        // radii on top of d, itself often quadratic in the coordinates (a
        // triangle's normal): its square left the normal range at sizes
        // of 1e-55 and 1e+55 in double, 1e-6 and 1e+9 in float (answers
        // off by half the size), and gjk_normalize rescales it then (a
        // zero diag(r) d gives the centre).
        gjk_vec3 r = s->ellipsoid.radii;
        gjk_vec3 u = gjk_normalize(gjk_v3(r.x * d.x, r.y * d.y, r.z * d.z));
        return gjk_v3(r.x * u.x, r.y * u.y, r.z * u.z);
    }
    case GJK_SHAPE_POLYTOPE:
        if (s->polytope.hull != NULL) {
            const gjk_hull *h = s->polytope.hull;
            int local = -1, *at = hint != NULL ? hint : &local;
            if (!gjk_hull_climbed(h)) {
                *at = gjk_hull_scan(h, d);
                return h->vertices[*at];
            }
            return gjk_support_hull(h, d, at, hint_first);
        }
        return gjk_support_points(s->polytope.vertices, s->polytope.count, d);
    case GJK_SHAPE_CUSTOM:
        return s->custom.support(s->custom.user_data, d);
    default:
        return gjk_v3_zero();
    }
}

/// The vertex `id` of the shape's core when the shape is a hull polytope
/// (gjk_make_hull) and id is one of its vertices, else NULL: where a cached
/// support point is rebuilt from the vertex it had (any id is safe).
static inline const gjk_vec3 *gjk_hull_vertex(const gjk_shape *s, int id) {
    if (s->type != GJK_SHAPE_POLYTOPE || s->polytope.hull == NULL || id < 0 || id >= s->polytope.hull->vertex_count) {
        return NULL;
    }
    return &s->polytope.hull->vertices[id];
}

/// gjk_core_support_hint without a hint.
static inline gjk_vec3 gjk_core_support(const gjk_shape *s, gjk_vec3 d) {
    return gjk_core_support_hint(s, d, NULL, false);
}

/// The support point of the rounded shape (core and rounding radius) along
/// a unit direction u, for a shape already checked: gjk_shape_support
/// without its checks and its normalisation.
static inline gjk_vec3 gjk_rounded_support_unit(const gjk_shape *s, gjk_vec3 u) {
    gjk_vec3 p = gjk_core_support(s, u);
    gjk_real r = gjk_core_radius(s);
    return r > 0 ? gjk_mul_add(p, r, u) : p;
}

#endif // GJK_SUPPORT_H

// Support functions of the 2D shapes' cores, in their local frames: the 2D
// twin of support.h.
//
// A shape is split into a core and a rounding radius: a circle is a point
// core with its radius, a capsule a segment core with its radius, and every
// shape adds its margin to the radius. GJK and EPA run on the cores; the
// radius is added back exactly at the end (the signed distance of two
// rounded shapes is the signed distance of their cores minus the sum of the
// radii).
#ifndef GJK_SUPPORT2_H
#define GJK_SUPPORT2_H

#include "gjk/gjk2d.h"
#include "support.h"

/// The rounding radius of a shape: its margin plus a circle's or capsule's radius.
static inline gjk_real gjk2_core_radius(const gjk2_shape *s) {
    switch (s->type) {
    case GJK2_SHAPE_CIRCLE: return s->margin + s->circle.radius;
    case GJK2_SHAPE_CAPSULE: return s->margin + s->capsule.radius;
    default: return s->margin;
    }
}

static inline gjk_vec2 gjk2_support_segment(gjk_vec2 a, gjk_vec2 b, gjk_vec2 d) {
    return gjk_dot2(b, d) > gjk_dot2(a, d) ? b : a;
}

/// The index of the vertex farthest along d (the first of equals) among
/// v[0], v[step], v[2 step], ... below count: step 1 is gjk2_support_points'
/// scan, a larger one gjk2_support_climb's start sample.
static inline int gjk2_support_index(const gjk_vec2 *v, int count, int step, gjk_vec2 d) {
    int best = 0;
    gjk_real best_dot = gjk_dot2(v[0], d);
    for (int i = step; i < count; i += step) {
        // Selects rather than a branch: which vertex wins is unpredictable.
        gjk_real t = gjk_dot2(v[i], d);
        bool better = t > best_dot;
        best = better ? i : best;
        best_dot = better ? t : best_dot;
    }
    return best;
}

/// Polygons of at least this many vertices are scanned by gjk2_scan_wide
/// (scan.c: four vertices per step with AVX2 where the CPU has it), smaller
/// ones by the loop inline. Timed, as the 3D scan (support.h,
/// GJK_SCAN_WIDE_MIN_POINTS): distance between random n-gons (gjk2_make_
/// polygon) 1e-3 apart, 200 pairs, 8-gons 448 ns a query by the loop
/// against 481 wide, 16-gons 685 against 661, 32-gons 1015 against 899.
/// (Fewer instructions from 8 on, 2-3% a query on 8-gons; and with the
/// wide scan's (dx, dy, dx, dy) built as a vector, which went through
/// memory, two 8-byte stores read back by one 16-byte load that store
/// forwarding cannot serve, the 8-gons took 595 ns.)
#define GJK2_SCAN_WIDE_MIN_VERTICES 16

#if GJK_HAVE_AVX2_SCAN
/// gjk2_support_index(v, count, 1, d), the same index (the first vertex of
/// largest d·v, each d·v rounded as x dx + y dy), four vertices per step
/// where the CPU has AVX2 (scan.c).
int gjk2_scan_wide(const gjk_vec2 *v, int count, gjk_vec2 d);
#endif

/// The index of the vertex of v[0..count) farthest along d (the first of equals).
static inline int gjk2_scan(const gjk_vec2 *v, int count, gjk_vec2 d) {
#if GJK_HAVE_AVX2_SCAN
    if (count >= GJK2_SCAN_WIDE_MIN_VERTICES) {
        return gjk2_scan_wide(v, count, d);
    }
#endif
    return gjk2_support_index(v, count, 1, d);
}

/// The vertex of v[0..count) farthest along d.
static inline gjk_vec2 gjk2_support_points(const gjk_vec2 *v, int count, gjk_vec2 d) {
    return v[gjk2_scan(v, count, d)];
}

/// Convex polygons of at least this many vertices climb from a hint
/// (gjk2_support_climb); smaller ones scan. Measured on two n-gons'
/// distance (bench, 1000 pairs near contact): n = 8 the same to 5% faster,
/// n = 16 9% faster, n = 64 38% faster, before the end's certificate
/// (gjk2_climb_certified), which added 5% instructions (16-gons fell behind
/// the scan when the climb was inlined or this check kept the pair's
/// support from being inlined: the climb is out of line, the support
/// always inlined). Counted in instructions since (callgrind, 2000 pairs
/// of convex n-gons on ellipses per band, five bands, distance), the scan
/// costs less below 12: a climb and its certificate run about 120
/// instructions, a scan of 8 vertices about 50. Scanning, 8-gons ran
/// 1983-2898 a query (2095-3153 climbing), 10-gons 2145-3318 (2175-3471);
/// 12-gons even (2316-3594 scanning, 2262-3634 climbing); 16-gons
/// 2686-4389 scanning against 2455-4055. With the wide scan
/// (gjk2_scan_wide) the climb still wins from 12: convex 16-gons 584 ns a
/// distance query climbing against 638 scanning wide (timed as
/// GJK2_SCAN_WIDE_MIN_VERTICES), though scanning takes 10% fewer
/// instructions there.
#define GJK2_CLIMB_MIN_VERTICES 12

/// The support of a convex polygon (gjk2_make_convex_polygon: counter-
/// clockwise, every turn left or straight within rounding) by climbing
/// from vertex *hint, the last support vertex, to a neighbour farther along
/// d while there is one; *hint receives the answer. Successive directions
/// of a walk turn little, so the climb takes a few steps where the scan
/// reads every vertex. Without a hint, polygons of 32 vertices or more
/// start from the best of eight vertices spread over the polygon (every
/// count/8-th; 64-gons: 8527 -> 7350 instructions a distance query);
/// smaller ones scan.
///
/// Along a convex polygon the values v·d rise from the lowest vertex to the
/// highest and fall back (level runs only at either end, edges normal to
/// d), so a vertex above both neighbours is the highest. The climb moves on
/// v·d computed per vertex; its end is taken only on a certificate read
/// from the edges: both neighbours strictly below the vertex by (w − v)·d,
/// whose sign is right however short the edge (the difference of nearby
/// points is exact), where v·d and w·d computed apart carry ε|v||d| each
/// and a vertex a few units in the last place from a higher neighbour can
/// come out above it (review: the climb stopped there, an 8-gon's distance
/// 2.4e-3 off); and the vertex facing d: cross(d, next − prev) > 0, which
/// holds at the top (counter-clockwise, the polygon runs against d's left
/// there) and fails at the bottom, where a turn within rounding of straight
/// (the convexity check allows it) can put the middle of a level run above
/// both neighbours. At the top such a run is normal to d within rounding,
/// so any of its vertices is the support within the rounding of the run's
/// length. Anything else (a tie, repeated points, a NaN, a false top)
/// scans every vertex.
/// The climb's certificate (gjk2_support_climb): vi above both neighbours
/// by the edges and facing d. Out of line: inlined, the compiler carried
/// the three vertices through the climb's loops in registers, and 64-gons
/// ran 13% more instructions a query.
static GJK_NOINLINE bool gjk2_climb_certified(gjk_vec2 vp, gjk_vec2 vi, gjk_vec2 vn, gjk_vec2 d) {
    // ints combined with &, not bools: no branches (clang flags & on bools).
    int below_next = gjk_dot2(gjk_sub2(vn, vi), d) < 0, below_prev = gjk_dot2(gjk_sub2(vp, vi), d) < 0;
    int facing = gjk_cross2(d, gjk_sub2(vn, vp)) > 0;
    return below_next & below_prev & facing;
}

/// The climb's scan, where it has no start or its end is not certified:
/// out of line and reached by a tail call, so that the climb saves no
/// registers for it (called from the climb's body, it cost 64-gons 1-3%
/// more instructions a query).
static GJK_NOINLINE gjk_vec2 gjk2_climb_scan(const gjk_vec2 *v, int count, gjk_vec2 d, int *hint) {
    int i = gjk2_scan(v, count, d);
    *hint = i;
    return v[i];
}

static GJK_NOINLINE gjk_vec2 gjk2_support_climb(const gjk_vec2 *v, int count, gjk_vec2 d, int *hint) {
    int i = *hint;
    if (!(i >= 0 && i < count) && count >= 32) {
        i = gjk2_support_index(v, count, count / 8, d); // no hint: the best of 8 spread evenly
    }
    if (i >= 0 && i < count) {
        int prev = i == 0 ? count - 1 : i - 1, next = i + 1 == count ? 0 : i + 1;
        gjk_real best = gjk_dot2(v[i], d), tn = gjk_dot2(v[next], d), tp = gjk_dot2(v[prev], d);
        if (tn > best) {
            do { // forward: the values strictly rise, so the climb ends
                prev = i;
                i = next, best = tn;
                next = i + 1 == count ? 0 : i + 1;
                tn = gjk_dot2(v[next], d);
            } while (tn > best);
        } else if (tp > best) {
            do { // backward
                next = i;
                i = prev, best = tp;
                prev = i == 0 ? count - 1 : i - 1;
                tp = gjk_dot2(v[prev], d);
            } while (tp > best);
        }
        if (gjk2_climb_certified(v[prev], v[i], v[next], d)) {
            *hint = i;
            return v[i];
        }
    }
    return gjk2_climb_scan(v, count, d, hint);
}

/// The point of the core of `s` farthest along `d` (local frame), with a
/// hint for convex polygons (gjk2_support_climb; NULL: none). `d` need not
/// be unit; a zero `d` gives some point of the core.
static GJK_INLINE gjk_vec2 gjk2_core_support_hint(const gjk2_shape *s, gjk_vec2 d, int *hint) {
    switch (s->type) {
    case GJK2_SHAPE_POINT:
    case GJK2_SHAPE_CIRCLE:
        return gjk_v2(0, 0);
    case GJK2_SHAPE_SEGMENT:
        return gjk2_support_segment(s->segment.a, s->segment.b, d);
    case GJK2_SHAPE_CAPSULE:
        return gjk2_support_segment(s->capsule.a, s->capsule.b, d);
    case GJK2_SHAPE_TRIANGLE: {
        gjk_vec2 p = gjk2_support_segment(s->triangle.a, s->triangle.b, d);
        return gjk_dot2(s->triangle.c, d) > gjk_dot2(p, d) ? s->triangle.c : p;
    }
    case GJK2_SHAPE_BOX: {
        // ±h with d's signs, as the 3D box (support.h): bit operations, and
        // +0 added so that −0 takes +h as d < 0 would.
        gjk_vec2 h = s->box.half_extents;
        return gjk_v2(gjk_copysign(h.x, d.x + 0), gjk_copysign(h.y, d.y + 0));
    }
    case GJK2_SHAPE_ELLIPSE: {
        // The ellipse is the unit circle scaled by diag(r); its support is
        // diag(r) u with u = diag(r) d / |diag(r) d|, normalised with the
        // range check, as the ellipsoid's (support.h).
        gjk_vec2 r = s->ellipse.radii;
        gjk_vec2 u = gjk_normalize2(gjk_v2(r.x * d.x, r.y * d.y));
        return gjk_v2(r.x * u.x, r.y * u.y);
    }
    case GJK2_SHAPE_POLYGON:
        if (hint != NULL && s->polygon.convex && s->polygon.count >= GJK2_CLIMB_MIN_VERTICES) {
            return gjk2_support_climb(s->polygon.vertices, s->polygon.count, d, hint);
        }
        return gjk2_support_points(s->polygon.vertices, s->polygon.count, d);
    case GJK2_SHAPE_CUSTOM:
        return s->custom.support(s->custom.user_data, d);
    default:
        return gjk_v2(0, 0);
    }
}

/// gjk2_core_support_hint without a hint.
static inline gjk_vec2 gjk2_core_support(const gjk2_shape *s, gjk_vec2 d) { return gjk2_core_support_hint(s, d, NULL); }

#endif // GJK_SUPPORT2_H

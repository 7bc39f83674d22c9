// 2D geometry utilities: convexity of an ordered polygon, the convex hull of
// a point cloud (Andrew's monotone chain), the Minkowski sum of two convex
// polygons (merging edges by angle) and the brute-force Minkowski difference
// hull. No allocation: the hull is built in the caller's output array, with
// a heap sort (no recursion, no libc).
#include <limits.h>

#include "internal2.h"

// ---- Convexity ----------------------------------------------------------

static bool valid_points(const gjk_vec2 *p, int count) {
    for (int i = 0; i < count; ++i) {
        if (!gjk_is_valid_vec2(p[i])) {
            return false;
        }
    }
    return true;
}

static bool same_point(gjk_vec2 a, gjk_vec2 b) { return a.x == b.x && a.y == b.y; }

/// a times 2^−shift (exact, but for underflow).
static gjk_vec2 shifted(gjk_vec2 a, int shift) {
    return shift != 0 ? gjk_v2(gjk_ldexp(a.x, -shift), gjk_ldexp(a.y, -shift)) : a;
}

/// Point i times 2^−shift.
static gjk_vec2 point_at(const gjk_vec2 *p, int i, int shift) { return shifted(p[i], shift); }

/// a scaled by a power of two near 1 when it is huge or tiny: the sign of a
/// cross product does not change when each side is scaled on its own.
static gjk_vec2 unit_scaled(gjk_vec2 a) { return shifted(a, gjk_range_shift(gjk2_max_abs(a))); }

/// The index of the first point after i (cyclically) that differs from
/// point i; i itself when all points are equal.
static int next_distinct(const gjk_vec2 *p, int count, int i) {
    int j = i;
    for (int k = 1; k < count; ++k) {
        j = j + 1 < count ? j + 1 : 0;
        if (!same_point(p[j], p[i])) {
            return j;
        }
    }
    return i;
}

/// gjk2_polygon_convexity, or with `hull_policy` the tolerance policy of
/// gjk2_convex_hull, which keeps every vertex where its chain turns left by
/// a computed cross product, however thin the result: then only an area
/// clearly of the wrong sign is clockwise, no area is too small (points
/// that are all equal excepted), and a turn within rounding of a reversal
/// is not a spike (a thin triangle turns by almost π at both ends of its
/// long side, and the computed sign of such a turn is rounding).
static gjk2_convexity_output convexity(const gjk_vec2 *points, int count, bool hull_policy) {
    gjk2_convexity_output out = {GJK2_DEGENERATE, 0};
    if (points == NULL || count < 1 || !valid_points(points, count)) {
        return out;
    }
    // Huge or tiny coordinates are scaled by a power of two near 1 (exact):
    // the areas and their noise are products of two coordinates, which
    // overflow, or underflow to 0 (a triangle of subnormal size read as
    // "clockwise", and gjk2_minkowski_sum refused its hull).
    gjk_real pmax = 0;
    for (int i = 0; i < count; ++i) {
        pmax = gjk_max(pmax, gjk2_max_abs(points[i]));
    }
    int shift = gjk_range_shift(pmax);
    pmax = gjk_ldexp(pmax, -shift);
    // Twice the signed area, relative to the first point, and the scale of
    // the coordinates (for a relative zero test).
    gjk_vec2 o = point_at(points, 0, shift);
    gjk_real area2 = 0, scale = 0;
    for (int i = 0; i < count; ++i) {
        gjk_vec2 a = gjk_sub2(point_at(points, i, shift), o);
        gjk_vec2 b = gjk_sub2(point_at(points, i + 1 < count ? i + 1 : 0, shift), o);
        area2 += gjk_cross2(a, b);
        scale = gjk_max(scale, gjk2_max_abs(a));
    }
    // Each cross product carries a rounding error of about ε·scale²: an area
    // below the sum of those errors is a rounding-level zero.
    gjk_real area_noise = 4 * GJK_REAL_EPSILON * (gjk_real)count * scale * scale;
    if (hull_policy) {
        if (!(scale > 0) || !(area2 > -area_noise)) {
            return out; // one point, or clearly clockwise
        }
        out.orientation = 1;
    } else {
        if (!(gjk_abs(area2) > area_noise)) {
            return out; // fewer than 3 distinct points, all collinear, or zero area
        }
        out.orientation = area2 > 0 ? 1 : -1;
    }
    out.convexity = GJK2_CONVEX;
    // Walk the edges between consecutive distinct points, starting at a
    // point that differs from its predecessor. Every turn must go the way of
    // the area (a turn within rounding of zero is collinear; a reversal is a
    // spike) and the turning angles must add up to one full turn: a star
    // polygon turns one way but winds around more than once.
    int start = -1;
    for (int i = 0; i < count && start < 0; ++i) {
        if (!same_point(points[i], points[i == 0 ? count - 1 : i - 1])) {
            start = i;
        }
    }
    if (start < 0) { // unreachable: a nonzero area needs distinct points
        out.convexity = GJK2_DEGENERATE;
        out.orientation = 0;
        return out;
    }
    int cur = next_distinct(points, count, start);
    gjk_vec2 prev_edge = gjk_sub2(point_at(points, cur, shift), point_at(points, start, shift));
    gjk_real turning = 0;
    for (int guard = 0; guard <= count; ++guard) {
        int nxt = next_distinct(points, count, cur);
        gjk_vec2 e = gjk_sub2(point_at(points, nxt, shift), point_at(points, cur, shift));
        gjk_real c = gjk_cross2(prev_edge, e), d = gjk_dot2(prev_edge, e);
        gjk_real le0 = gjk_length2(prev_edge), le1 = gjk_length2(e);
        gjk_real noise = 4 * GJK_REAL_EPSILON * le0 * le1;
        if (hull_policy) {
            // The edges themselves carry the rounding of their subtraction,
            // ε·|point| each (pmax: the largest coordinate): a turn the hull
            // computed from other differences may come out the other way
            // here by up to that times the other edge.
            noise += 4 * GJK_REAL_EPSILON * pmax * (le0 + le1);
        }
        if (gjk_abs(c) <= noise) {
            if (d < 0 && !hull_policy) {
                out.convexity = GJK2_CONCAVE; // the boundary doubles back
            }
        } else if ((c > 0 ? 1 : -1) != out.orientation) {
            out.convexity = GJK2_CONCAVE;
        }
        turning += (gjk_real)atan2(c, d);
        prev_edge = e;
        if (cur == start) {
            break;
        }
        cur = nxt;
    }
    const gjk_real pi = GJK_R(3.14159265358979323846);
    if (out.convexity == GJK2_CONVEX && gjk_abs(turning) > 3 * pi) {
        out.convexity = GJK2_CONCAVE; // winds around more than once
    }
    return out;
}

gjk2_convexity_output gjk2_polygon_convexity(const gjk_vec2 *points, int count) {
    return convexity(points, count, false);
}

// ---- Convex hull --------------------------------------------------------

/// x·y as a mantissa product and an exponent: x·y = *m · 2^(return value),
/// with *m in [0.25, 1) in magnitude (0 when either factor is 0). No
/// underflow or overflow, whatever the factors.
static int split_product(gjk_real x, gjk_real y, gjk_real *m) {
    int ex, ey;
    gjk_real mx = gjk_frexp(x, &ex), my = gjk_frexp(y, &ey);
    *m = mx * my;
    return ex + ey;
}

/// Twice the signed area of (o, a, b): positive for a left turn. The hull
/// reads only its sign. A product of two nonzero coordinates below the
/// smallest normal number has lost digits to underflow (a side of 5e-324
/// against one of 0.125 gave the product 0, a straight turn, and the hull
/// dropped a vertex 0.09 off its line: fuzz finding f21). The two products
/// are then compared as mantissa products at their exponents, which is as
/// exact as the plain difference is in the normal range (scaling each side
/// to unit size instead flushed a tiny component of the longer side to 0:
/// fuzz finding f25). Products in range are used as they are, so that
/// collinear points still give an exact 0.
static gjk_real turn(gjk_vec2 o, gjk_vec2 a, gjk_vec2 b) {
    gjk_vec2 u = gjk_sub2(a, o), v = gjk_sub2(b, o);
    gjk_real p1 = u.x * v.y, p2 = u.y * v.x;
    if ((gjk_abs(p1) < GJK_REAL_MIN_NORMAL && u.x != 0 && v.y != 0) ||
        (gjk_abs(p2) < GJK_REAL_MIN_NORMAL && u.y != 0 && v.x != 0)) {
        gjk_real m1, m2;
        int e1 = split_product(u.x, v.y, &m1), e2 = split_product(u.y, v.x, &m2);
        if (m1 == 0 || m2 == 0) {
            return m1 - m2; // one product is 0: the other's sign
        }
        int e = e1 > e2 ? e1 : e2;
        return gjk_ldexp(m1, e1 - e) - gjk_ldexp(m2, e2 - e);
    }
    return p1 - p2;
}

/// Point order of the hull: by y, then by x (the first point is the
/// lowest-leftmost).
static bool before(gjk_vec2 a, gjk_vec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

/// Restores the heap below `root` (a max-heap under `before`, or a min-heap
/// when `descending`).
static void sift_down(gjk_vec2 *p, int root, int n, bool descending) {
    for (;;) {
        int child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && (descending ? before(p[child + 1], p[child]) : before(p[child], p[child + 1]))) {
            ++child;
        }
        if (!(descending ? before(p[child], p[root]) : before(p[root], p[child]))) {
            return;
        }
        gjk_vec2 t = p[root];
        p[root] = p[child];
        p[child] = t;
        root = child;
    }
}

/// Heap sort of p[0..n) by (y, x), ascending or descending: O(n log n), in
/// place, no recursion.
static void sort_points(gjk_vec2 *p, int n, bool descending) {
    for (int i = n / 2 - 1; i >= 0; --i) {
        sift_down(p, i, n, descending);
    }
    for (int end = n - 1; end > 0; --end) {
        gjk_vec2 t = p[0];
        p[0] = p[end];
        p[end] = t;
        sift_down(p, 0, end, descending);
    }
}


int gjk2_convex_hull(const gjk_vec2 *points, int count, gjk_vec2 *out) {
    if (points == NULL || out == NULL || count < 1 || !valid_points(points, count)) {
        return -1;
    }
    // L, the first point in (y, x) order, and H, the last.
    int lo = 0, hi = 0;
    for (int i = 1; i < count; ++i) {
        if (before(points[i], points[lo])) {
            lo = i;
        }
        if (before(points[hi], points[i])) {
            hi = i;
        }
    }
    gjk_vec2 L = points[lo], H = points[hi];
    out[0] = L;
    if (same_point(L, H)) {
        return 1;
    }
    // Andrew's monotone chain builds the chain from L to H on the right of
    // the line L → H from the points sorted upward, and the chain back on
    // its left from the points sorted downward. Splitting the points by that
    // line first lets both chains be built in `out` alone: it is laid out as
    // L, right points (ascending), H, left points (descending), and one
    // stack pass over that sequence, which is the boundary walked
    // counter-clockwise, keeps the hull. Points on the line are not hull
    // vertices; neither are duplicates.
    int nr = 0, nl = 0;
    for (int i = 0; i < count; ++i) {
        if (turn(L, H, points[i]) < 0) {
            out[1 + nr++] = points[i];
        }
    }
    out[1 + nr] = H;
    for (int i = 0; i < count; ++i) {
        if (turn(L, H, points[i]) > 0) {
            out[2 + nr + nl++] = points[i];
        }
    }
    sort_points(out + 1, nr, false);
    sort_points(out + 2 + nr, nl, true);
    int total = 2 + nr + nl;
    // The stack lives in out[0..k) and never overtakes the reading position
    // i, so the pass is in place. While building the second chain the stack
    // keeps H and everything before it.
    int k = 0, base = 2;
    for (int i = 0; i < total; ++i) {
        gjk_vec2 q = out[i];
        while (k >= base && !(turn(out[k - 2], out[k - 1], q) > 0)) {
            --k;
        }
        out[k++] = q;
        if (i == 1 + nr) {
            base = k + 1; // H is pushed: the first chain is complete
        }
    }
    // Close the loop at L.
    while (k >= base && !(turn(out[k - 2], out[k - 1], L) > 0)) {
        --k;
    }
    return k;
}

// ---- Minkowski sum and difference ---------------------------------------

/// Index of the lowest-leftmost point.
static int lowest_point(const gjk_vec2 *p, int n) {
    int best = 0;
    for (int i = 1; i < n; ++i) {
        if (before(p[i], p[best])) {
            best = i;
        }
    }
    return best;
}

/// A usable input polygon: finite points, and convex counter-clockwise when
/// it has three or more (a point or a segment needs no order).
static bool convex_ccw(const gjk_vec2 *p, int n) {
    if (p == NULL || n < 1 || !valid_points(p, n)) {
        return false;
    }
    if (n < 3) {
        return true;
    }
    // Any positive area: gjk2_convex_hull keeps every point where its chain
    // turns left by a computed cross product > 0, so a thin hull (a triangle
    // of height 1e-17 on a unit base) has an area that gjk2_polygon_convexity
    // calls a rounding-level zero. The merge needs only the edges in
    // counter-clockwise angular order, which such a polygon has; its turns
    // are still checked (none clearly the wrong way, one winding).
    gjk2_convexity_output c = convexity(p, n, true);
    return c.convexity == GJK2_CONVEX && c.orientation > 0;
}

int gjk2_minkowski_sum(const gjk_vec2 *p, int n, const gjk_vec2 *q, int m, gjk_vec2 *out) {
    if (out == NULL || !convex_ccw(p, n) || !convex_ccw(q, m) || n > INT_MAX - m) {
        return -1;
    }
    // Start both at their lowest-leftmost vertex: from there the edges of a
    // counter-clockwise convex polygon turn through [0, 2π) in order, and
    // the sum's edges are both lists merged by angle. Two edges are compared
    // by their cross product (the angles of the two current edges differ by
    // less than π); parallel edges advance together.
    int i0 = lowest_point(p, n), j0 = lowest_point(q, m);
    int i = 0, j = 0, k = 0;
    while (i < n || j < m) {
        int ia = (i0 + i) % n, ib = (ia + 1) % n;
        int ja = (j0 + j) % m, jb = (ja + 1) % m;
        gjk_vec2 s = gjk_add2(p[ia], q[ja]);
        if (!gjk_is_valid_vec2(s)) {
            return -1; // finite inputs whose sum overflowed
        }
        if (k == 0 || !same_point(s, out[k - 1])) {
            out[k++] = s;
        }
        gjk_vec2 ep = gjk_sub2(p[ib], p[ia]), eq = gjk_sub2(q[jb], q[ja]);
        bool zp = ep.x == 0 && ep.y == 0, zq = eq.x == 0 && eq.y == 0;
        bool step_p, step_q;
        if (i >= n || j >= m || zp || zq) {
            // One list is used up, or an edge has no length (a duplicate
            // vertex, or a single point): step past it alone.
            step_p = i < n && (j >= m || zp);
            step_q = !step_p;
        } else {
            // ep × eq: its sign, from edges scaled near 1 (their products
            // overflowed above 1e154, and underflowed to 0 on subnormal
            // hulls), and turn's exact comparison where a product of
            // unequal components still underflows.
            gjk_real c = turn(gjk_v2(0, 0), unit_scaled(ep), unit_scaled(eq));
            if (!gjk_is_valid_real(c) || !gjk_is_valid_vec2(ep) || !gjk_is_valid_vec2(eq)) {
                return -1; // finite inputs whose edges or cross product overflowed
            }
            step_p = c >= 0;
            step_q = c <= 0;
        }
        i += step_p ? 1 : 0;
        j += step_q ? 1 : 0;
    }
    if (k > 1 && same_point(out[k - 1], out[0])) {
        --k;
    }
    return k;
}

int gjk2_minkowski_difference_hull(const gjk_vec2 *p, int n, const gjk_vec2 *q, int m, gjk_vec2 *scratch,
                                   gjk_vec2 *out) {
    if (p == NULL || q == NULL || scratch == NULL || out == NULL || n < 1 || m < 1 || n > INT_MAX / m) {
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < m; ++j) {
            scratch[i * m + j] = gjk_sub2(p[i], q[j]);
        }
    }
    return gjk2_convex_hull(scratch, n * m, out);
}

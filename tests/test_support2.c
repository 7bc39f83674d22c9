// Unit tests of the 2D convex polygon's climbing support (src/support2.h,
// gjk2_support_climb): from every hint it finds a vertex as far along the
// direction as the scan of every vertex does, on regular and ragged convex
// polygons, with level runs, repeated points, a run at the bottom that
// rounding bends outward (the trap the climb's test of which way the vertex
// faces is there for) and vertices a few units in the last place apart
// (the trap of comparing v·d computed apart).
#include <math.h>

#include "internal2.h"
#include "test_util.h"

/// The climb from `hint` along d: its answer is a vertex of v, *hint names
/// it, and it lies as far along d as the scan's within the rounding of the
/// dot products (8ε |v| |d|).
static void check_climb(const gjk_vec2 *v, int n, gjk_vec2 d, int hint) {
    int h = hint;
    gjk_vec2 c = gjk2_support_climb(v, n, d, &h);
    gjk_vec2 s = gjk2_support_points(v, n, d);
    ENSURE(h >= 0 && h < n);
    if (h >= 0 && h < n) {
        ENSURE(v[h].x == c.x && v[h].y == c.y);
    }
    double reach = 0;
    for (int i = 0; i < n; ++i) {
        reach = fmax(reach, hypot((double)v[i].x, (double)v[i].y));
    }
    double slack = 8 * (double)GJK_REAL_EPSILON * reach * hypot((double)d.x, (double)d.y);
    ENSURE_NEAR(gjk_dot2(c, d), gjk_dot2(s, d), slack);
}

/// Convex polygons of 3 to 1000 vertices on ellipses, turned and moved off
/// the origin, against random directions from every hint (and from none,
/// and from indices out of range).
static void test_climb_matches_scan(void) {
    static gjk_vec2 v[1000];
    const int sizes[] = {3, 8, 9, 16, 33, 64, 1000};
    rng r = {0x5eed2dULL};
    for (int k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); ++k) {
        int n = sizes[k];
        double ax = rng_range(&r, 0.5, 2), ay = rng_range(&r, 0.01, 2), turn = rng_range(&r, 0, 6.283);
        double cx = rng_range(&r, -3, 3), cy = rng_range(&r, -3, 3);
        for (int i = 0; i < n; ++i) {
            // Ragged spacing: angles ordered but unevenly apart.
            double a = 6.283185307179586 * (i + 0.8 * rng_unit(&r)) / n;
            double x = ax * cos(a), y = ay * sin(a);
            v[i] = gjk_v2((gjk_real)(cx + x * cos(turn) - y * sin(turn)), (gjk_real)(cy + x * sin(turn) + y * cos(turn)));
        }
        ENSURE(gjk2_make_convex_polygon(v, n).polygon.convex == 1);
        for (int t = 0; t < 200; ++t) {
            double a = rng_range(&r, 0, 6.283185307179586), len = exp(rng_range(&r, -5, 5));
            gjk_vec2 d = gjk_v2((gjk_real)(len * cos(a)), (gjk_real)(len * sin(a)));
            int hints[] = {-1, n, n + 7, rng_int(&r, n), rng_int(&r, n)};
            for (int h = 0; h < 5; ++h) {
                check_climb(v, n, d, hints[h]);
            }
            if (n <= 64) {
                for (int h = 0; h < n; ++h) {
                    check_climb(v, n, d, h);
                }
            }
        }
    }
}

/// Level runs and repeated points: a square with points along its sides
/// and some repeated, against the axis directions (whole sides level) and
/// others, from every hint.
static void test_climb_level_runs(void) {
    const gjk_vec2 v[] = {
        {-1, -1}, {-0.5, -1}, {0, -1}, {0, -1}, {0.5, -1}, {1, -1},   // bottom, one repeated
        {1, -0.5}, {1, 0}, {1, 0.5}, {1, 1}, {1, 1},                   // right, a repeated corner
        {0.5, 1}, {0, 1}, {-0.5, 1}, {-1, 1},                          // top
        {-1, 0.5}, {-1, 0}, {-1, 0}, {-1, -0.5},                       // left
    };
    const int n = (int)(sizeof v / sizeof v[0]);
    ENSURE(gjk2_make_convex_polygon(v, n).polygon.convex == 1);
    const gjk_vec2 dirs[] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {0.3, -2}, {(gjk_real)1e-9, 1}};
    for (int k = 0; k < (int)(sizeof dirs / sizeof dirs[0]); ++k) {
        for (int h = -1; h < n; ++h) {
            check_climb(v, n, dirs[k], h);
        }
    }
}

/// The bottom run's middle vertex raised by one unit in the last place: a
/// turn within rounding of straight, so the polygon is convex as
/// gjk2_make_convex_polygon counts it, and that vertex lies above both its
/// neighbours along +y. From it, the climb must not stop there (it faces
/// down): the top is 2 higher.
static void test_climb_rounding_trap(void) {
    const gjk_real bump = next_real((gjk_real)-1, (gjk_real)0);
    const gjk_vec2 v[] = {{-1, -1}, {-0.5, -1}, {0, bump}, {0.5, -1}, {1, -1}, {1, 1}, {-1, 1}};
    const int n = (int)(sizeof v / sizeof v[0]);
    ENSURE(bump > -1);
    ENSURE(gjk2_make_convex_polygon(v, n).polygon.convex == 1);
    int h = 2;
    gjk_vec2 c = gjk2_support_climb(v, n, gjk_v2(0, 1), &h);
    ENSURE(c.y == 1);
    ENSURE(h == 5 || h == 6);
    for (int k = -1; k < n; ++k) {
        check_climb(v, n, gjk_v2(0, 1), k);
        check_climb(v, n, gjk_v2(0, -1), k);
    }
}

/// Two vertices a few units in the last place apart (a hull keeps them):
/// the edge between them rises along d by 1.7e-16, but v·d of each,
/// computed apart, carries about 1e-15 of rounding and put the lower vertex
/// above its neighbour, where the climb stopped 0.02 below the top (review
/// of the climb: an 8-gon's distance 2.4e-3 off). In double: the climb
/// reads the edges.
static void test_climb_short_edge(void) {
#if !GJK_USE_FLOAT
    const gjk_vec2 v[8] = {{-0x1.654a08b4b5b2p+2, -0x1.b574bcf7227d2p+1}, {-0x1.28334d33796ddp+2, 0x1.03a914ae5c3cdp+0},
                           {-0x1.5098573ea2cddp+2, 0x1.17a747cc7f219p+0}, {-0x1.acca3e46f3ef2p+2, 0x1.4828a080ba556p-1},
                           {-0x1.e7a2130c6000bp+2, -0x1.742ce9eec80bcp-1}, {-0x1.e9a8999e68638p+2, -0x1.6e1cc1922e6ebp+0},
                           {-0x1.b9bbf898f94ffp+2, -0x1.69fad7a880992p+1}, {-0x1.b9bbf898f94fcp+2, -0x1.69fad7a880995p+1}};
    const gjk_vec2 d = {-0x1.9498ea97aecdap-2, -0x1.d656e9d14d1a7p-1};
    ENSURE(gjk2_make_convex_polygon(v, 8).polygon.convex == 1);
    for (int h = -1; h < 8; ++h) {
        check_climb(v, 8, d, h);
    }
    // The same kind of 8-gon through gjk2_distance: as the plain polygon.
    const gjk_vec2 w[8] = {{-0x1.5bf7695ec9bfap-3, -0x1.4d6e6758aea88p+0}, {-0x1.a5832ff1461bfp-3, -0x1.799cab916bc01p+0},
                           {-0x1.a5832ff1461cp-3, -0x1.799cab916bc02p+0},  {-0x1.b07140aea8d34p-3, -0x1.84e4ae3bba5a1p+0},
                           {-0x1.bf29dfbbc5812p-3, -0x1.ac966da824618p+0}, {0x1.3ac797f64f542p-2, -0x1.4df9943d7a80ep+1},
                           {0x1.4e25ecc15efa8p-2, -0x1.4ed676a66d624p+1},  {0x1.c234f66ecfa0fp-2, -0x1.520a2dc5f16e6p+1}};
    gjk2_shape a = gjk2_make_convex_polygon(w, 8), plain = gjk2_make_polygon(w, 8), b = gjk2_make_circle(0x1.cf311f0d898cp-5);
    ENSURE(a.polygon.convex == 1);
    gjk2_query_input in = {0};
    in.transform_a.rotation = (gjk_rot2){-0x1.68cefbc7bc29dp-1, 0x1.6b43c007c1189p-1};
    in.transform_a.position = gjk_v2(-0x1.58b654e422dd2p-1, -0x1.64cc83365e246p-1);
    in.transform_b.rotation = (gjk_rot2){1, 0};
    in.transform_b.position = gjk_v2(0x1.46a8df4787142p+1, -0x1.0d0424f9a2ed8p+1);
    in.shape_a = &a;
    in.shape_b = &b;
    gjk2_distance_output dc = gjk2_distance(&in, NULL);
    in.shape_a = &plain;
    gjk2_distance_output dp = gjk2_distance(&in, NULL);
    ENSURE(dc.status == GJK_SEPARATED && dp.status == GJK_SEPARATED);
    ENSURE_NEAR(dc.distance, dp.distance, 1e-12);
    // An 8-gon scans (below GJK2_CLIMB_MIN_VERTICES): the same 8-gon with a
    // point bulging out of each of its four longest edges (by 1% of the
    // edge), the short edge kept, climbs through gjk2_distance, from no
    // hint and then warm from its own cache.
    gjk_vec2 w12[12];
    int n12 = 0;
    for (int i = 0; i < 8; ++i) {
        gjk_vec2 p = w[i], q = w[(i + 1) % 8];
        w12[n12++] = p;
        int longer = 0; // edges longer than this one
        for (int j = 0; j < 8; ++j) {
            longer += gjk_length2(gjk_sub2(w[(j + 1) % 8], w[j])) > gjk_length2(gjk_sub2(q, p));
        }
        if (longer < 4) {
            gjk_vec2 e = gjk_sub2(q, p); // counter-clockwise: outward is (e.y, −e.x)
            w12[n12++] = gjk_add2(gjk_scale2(0.5, gjk_add2(p, q)), gjk_v2(0.01 * e.y, -0.01 * e.x));
        }
    }
    ENSURE(n12 == 12 && n12 >= GJK2_CLIMB_MIN_VERTICES);
    gjk2_shape a12 = gjk2_make_convex_polygon(w12, n12), plain12 = gjk2_make_polygon(w12, n12);
    ENSURE(a12.polygon.convex == 1);
    in.shape_a = &plain12;
    dp = gjk2_distance(&in, NULL);
    in.shape_a = &a12;
    gjk2_simplex_cache cache = {0};
    for (int k = 0; k < 2; ++k) {
        dc = gjk2_distance(&in, &cache);
        ENSURE(dc.status == GJK_SEPARATED && dp.status == GJK_SEPARATED);
        ENSURE_NEAR(dc.distance, dp.distance, 1e-12);
    }
#endif
}

/// A non-finite direction: the scan's answer (no loop, a vertex).
static void test_climb_nan_direction(void) {
    const gjk_vec2 v[] = {{0, 0}, {1, 0}, {2, 1}, {1, 2}, {0, 2}, {-1, 1}, {-1, 0.5}, {-0.5, 0.2}};
    const int n = (int)(sizeof v / sizeof v[0]);
    for (int k = -1; k < n; ++k) {
        int h = k;
        gjk_vec2 c = gjk2_support_climb(v, n, gjk_v2((gjk_real)NAN, 1), &h);
        ENSURE(h >= 0 && h < n);
        ENSURE(gjk_is_valid_vec2(c));
    }
}

/// The wide scan (scan.c: AVX2 where the CPU has it) answers the index the
/// loop answers, bit for bit: the first vertex of largest d·v. Random
/// points (no order), counts 4 to 41 (every remainder mod 4), ties made on
/// purpose (repeated points, a square's sides along the direction, ±0),
/// huge and tiny coordinates, NaN and zero directions, and huge ones whose
/// products overflow (NaN d·v where inf meets −inf).
static void test_wide_scan_matches_loop(void) {
#if GJK_HAVE_AVX2_SCAN
    static gjk_vec2 v[41];
    rng r = {0x2d5ca7ULL};
    int checked = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        int n = 4 + trial % 38;
        double scale = exp(rng_range(&r, -300, 300));
        int kind = trial % 5;
        for (int i = 0; i < n; ++i) {
            if (kind == 1) {
                // Few distinct points, repeated: ties between copies.
                int c = rng_int(&r, 3);
                v[i] = gjk_v2((gjk_real)(scale * (c - 1)), (gjk_real)(scale * (c == 2)));
            } else if (kind == 2) {
                // Grid points: many equal d·v along the axes and diagonals.
                v[i] = gjk_v2((gjk_real)(rng_int(&r, 3) - 1), (gjk_real)(rng_int(&r, 3) - 1));
            } else {
                v[i] = gjk_v2((gjk_real)(scale * rng_range(&r, -1, 1)), (gjk_real)(scale * rng_range(&r, -1, 1)));
                if (kind == 4 && rng_int(&r, 8) == 0) {
                    // A coordinate ±inf or NaN: products inf, −inf or NaN.
                    const double odd[3] = {HUGE_VAL, -HUGE_VAL, NAN};
                    v[i].x = (gjk_real)odd[rng_int(&r, 3)];
                }
            }
        }
        if (kind == 3 && n <= 9) {
            // Point 0 at −inf along +x, the rest at −DBL_MAX: the lanes must
            // start below every number (a start at −DBL_MAX answers 0).
            v[0] = gjk_v2((gjk_real)-HUGE_VAL, 0);
            for (int i = 1; i < n; ++i) {
                v[i] = gjk_v2(-GJK_REAL_MAX, 0);
            }
        }
        gjk_vec2 dirs[] = {
            gjk_v2((gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1)),
            gjk_v2(1, 0), gjk_v2(0, -1), gjk_v2(1, 1), gjk_v2((gjk_real)-0.0, 1), gjk_v2(0, 0),
            gjk_v2((gjk_real)NAN, 1), gjk_v2(1, (gjk_real)NAN),
            gjk_v2((gjk_real)(1e-300 * rng_range(&r, -1, 1)), (gjk_real)(1e-300 * rng_range(&r, -1, 1))),
            // Products that overflow: inf − inf makes NaN d·v for some points.
            gjk_v2((gjk_real)1e250, (gjk_real)1e250), gjk_v2((gjk_real)-1e250, (gjk_real)1e250),
        };
        for (int k = 0; k < (int)(sizeof dirs / sizeof dirs[0]); ++k) {
            int wide = gjk2_scan_wide(v, n, dirs[k]), loop = gjk2_support_index(v, n, 1, dirs[k]);
            ENSURE(wide == loop);
            if (wide != loop) {
                printf("  n %d, kind %d, d (%g, %g): wide %d, loop %d\n", n, kind, (double)dirs[k].x,
                       (double)dirs[k].y, wide, loop);
                return;
            }
            ++checked;
        }
    }
    ENSURE(checked == 4000 * 11);
#endif
}

int main(void) {
    RUN_TEST(test_wide_scan_matches_loop);
    RUN_TEST(test_climb_matches_scan);
    RUN_TEST(test_climb_level_runs);
    RUN_TEST(test_climb_rounding_trap);
    RUN_TEST(test_climb_short_edge);
    RUN_TEST(test_climb_nan_direction);
    return TEST_SUMMARY();
}

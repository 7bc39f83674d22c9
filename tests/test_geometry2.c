// Tests of the 2D geometry utilities: polygon convexity on hand-made cases,
// the convex hull against a brute-force O(n³) hull, the Minkowski sum
// against the hull of every pairwise sum, and the Minkowski difference hull
// against brute force. Random sets use integer coordinates, so every
// orientation test is exact in double and in float and the answers can be
// compared point for point.
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "gjk/gjk2d.h"
#include "test_macros.h"

#define MAX_PTS 64

// xorshift64*: the tests' own generator, fixed seed.
static uint64_t rng_state = 0x2d2d5eed1234abcdULL;
static uint64_t rng_next(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}
static int rng_int(int n) { return (int)(rng_next() % (uint64_t)n); }
static double rng_unit(void) { return (double)(rng_next() >> 11) * 0x1.0p-53; }

static gjk_vec2 v2(double x, double y) { return gjk_v2((gjk_real)x, (gjk_real)y); }
static int same(gjk_vec2 a, gjk_vec2 b) { return a.x == b.x && a.y == b.y; }
/// Twice the signed area of (o, a, b), in double (exact for small integers).
static double turn(gjk_vec2 o, gjk_vec2 a, gjk_vec2 b) {
    return ((double)a.x - (double)o.x) * ((double)b.y - (double)o.y) -
           ((double)a.y - (double)o.y) * ((double)b.x - (double)o.x);
}
static int lower_left(gjk_vec2 a, gjk_vec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

// ---------------------------------------------------------------------------
// Convexity.

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void expect_convexity(const gjk_vec2 *p, int n, gjk2_convexity c, int orientation, const char *what) {
    gjk2_convexity_output o = gjk2_polygon_convexity(p, n);
    if (o.convexity != c || o.orientation != orientation) {
        fprintf(stderr, "convexity of %s: got (%d, %+d), expected (%d, %+d)\n", what, (int)o.convexity, o.orientation,
                (int)c, orientation);
        ++test_failures;
    }
}

static void test_convexity_cases(void) {
    const gjk_vec2 square[] = {v2(0, 0), v2(3, 0), v2(3, 3), v2(0, 3)};
    const gjk_vec2 square_cw[] = {v2(0, 0), v2(0, 3), v2(3, 3), v2(3, 0)};
    const gjk_vec2 arrow[] = {v2(0, 0), v2(4, 2), v2(0, 4), v2(1, 2)};  // a dart: concave at (1, 2)
    const gjk_vec2 ell[] = {v2(0, 0), v2(2, 0), v2(2, 1), v2(1, 1), v2(1, 2), v2(0, 2)};
    const gjk_vec2 ell_cw[] = {v2(0, 2), v2(1, 2), v2(1, 1), v2(2, 1), v2(2, 0), v2(0, 0)};
    // Pentagram: turns one way but winds around twice.
    gjk_vec2 star[5];
    for (int i = 0; i < 5; ++i) {
        double a = 2 * 3.14159265358979323846 * (2 * i) / 5;
        star[i] = v2(10 * cos(a), 10 * sin(a));
    }
    const gjk_vec2 collinear_edges[] = {v2(0, 0), v2(1, 0), v2(2, 0), v2(2, 1), v2(2, 2), v2(1, 2), v2(0, 2), v2(0, 1)};
    const gjk_vec2 duplicates[] = {v2(0, 0), v2(0, 0), v2(3, 0), v2(3, 3), v2(3, 3), v2(3, 3), v2(0, 3), v2(0, 0)};
    const gjk_vec2 worked_triangle[] = {v2(3, 3), v2(5, 3), v2(3, 5), v2(3, 5)};
    const gjk_vec2 spike[] = {v2(0, 0), v2(2, 0), v2(2, 1), v2(3, 1), v2(2, 1), v2(2, 2), v2(0, 2)};
    const gjk_vec2 back_and_forth[] = {v2(0, 0), v2(2, 0), v2(4, 0), v2(2, 0)};
    const gjk_vec2 line[] = {v2(0, 0), v2(1, 1), v2(2, 2), v2(5, 5)};
    const gjk_vec2 two[] = {v2(1, 1), v2(2, 5)};
    const gjk_vec2 one[] = {v2(1, 1)};
    const gjk_vec2 same3[] = {v2(1, 1), v2(1, 1), v2(1, 1)};
    const gjk_vec2 bowtie[] = {v2(0, 0), v2(2, 2), v2(2, 0), v2(0, 2)}; // zero signed area
    const gjk_vec2 bowtie_uneven[] = {v2(0, 0), v2(3, 3), v2(3, 0), v2(0, 1)};
    const gjk_vec2 tiny_far[] = {v2(1e4, 1e4), v2(1e4 + 1e-3, 1e4), v2(1e4 + 1e-3, 1e4 + 1e-3), v2(1e4, 1e4 + 1e-3)};
    const gjk_vec2 bad[] = {v2(0, 0), v2(1, 0), v2(NAN, 1)};

    expect_convexity(square, N_OF(square), GJK2_CONVEX, 1, "CCW square");
    expect_convexity(square_cw, N_OF(square_cw), GJK2_CONVEX, -1, "CW square");
    expect_convexity(arrow, N_OF(arrow), GJK2_CONCAVE, 1, "dart");
    expect_convexity(ell, N_OF(ell), GJK2_CONCAVE, 1, "L shape");
    expect_convexity(ell_cw, N_OF(ell_cw), GJK2_CONCAVE, -1, "L shape, clockwise");
    expect_convexity(star, 5, GJK2_CONCAVE, 1, "pentagram");
    expect_convexity(collinear_edges, N_OF(collinear_edges), GJK2_CONVEX, 1, "square with collinear points");
    expect_convexity(duplicates, N_OF(duplicates), GJK2_CONVEX, 1, "square with duplicates");
    expect_convexity(worked_triangle, N_OF(worked_triangle), GJK2_CONVEX, 1, "triangle, last vertex repeated");
    expect_convexity(spike, N_OF(spike), GJK2_CONCAVE, 1, "square with a spike");
    expect_convexity(tiny_far, N_OF(tiny_far), GJK2_CONVEX, 1, "small square far from the origin");
    expect_convexity(bowtie_uneven, N_OF(bowtie_uneven), GJK2_CONCAVE, -1, "self-intersecting quadrilateral");
    expect_convexity(back_and_forth, N_OF(back_and_forth), GJK2_DEGENERATE, 0, "collinear back and forth");
    expect_convexity(line, N_OF(line), GJK2_DEGENERATE, 0, "collinear points");
    expect_convexity(two, 2, GJK2_DEGENERATE, 0, "two points");
    expect_convexity(one, 1, GJK2_DEGENERATE, 0, "one point");
    expect_convexity(same3, 3, GJK2_DEGENERATE, 0, "one point thrice");
    expect_convexity(bowtie, N_OF(bowtie), GJK2_DEGENERATE, 0, "symmetric bow tie (zero area)");
    expect_convexity(bad, N_OF(bad), GJK2_DEGENERATE, 0, "a NaN point");
    expect_convexity(NULL, 4, GJK2_DEGENERATE, 0, "NULL");
    expect_convexity(square, 0, GJK2_DEGENERATE, 0, "count 0");
    expect_convexity(square, -3, GJK2_DEGENERATE, 0, "count < 0");

    // Every rotation of the start point and both directions give the same answer.
    for (int s = 0; s < 8; ++s) {
        gjk_vec2 rot[8], rev[8];
        for (int i = 0; i < 8; ++i) {
            rot[i] = collinear_edges[(i + s) % 8];
            rev[i] = collinear_edges[(8 + s - i) % 8];
        }
        expect_convexity(rot, 8, GJK2_CONVEX, 1, "rotated start");
        expect_convexity(rev, 8, GJK2_CONVEX, -1, "reversed");
    }
}

// ---------------------------------------------------------------------------
// Brute-force hull: p_i is a hull vertex iff some edge (p_i, p_j) has every
// point strictly on its left or on the closed segment; the answer is the
// set of distinct such p_i.

static int brute_hull(const gjk_vec2 *p, int n, gjk_vec2 *out) {
    int k = 0;
    for (int i = 0; i < n; ++i) {
        int is_vertex = 0;
        for (int j = 0; j < n && !is_vertex; ++j) {
            if (same(p[i], p[j])) {
                continue;
            }
            int ok = 1;
            for (int m = 0; m < n && ok; ++m) {
                double t = turn(p[i], p[j], p[m]);
                if (t < 0) {
                    ok = 0;
                } else if (t == 0) {
                    // On the line: must lie within the segment [p_i, p_j].
                    double dx = (double)p[j].x - (double)p[i].x, dy = (double)p[j].y - (double)p[i].y;
                    double s = ((double)p[m].x - (double)p[i].x) * dx + ((double)p[m].y - (double)p[i].y) * dy;
                    if (s < 0 || s > dx * dx + dy * dy) {
                        ok = 0;
                    }
                }
            }
            is_vertex = ok;
        }
        if (is_vertex) {
            int dup = 0;
            for (int m = 0; m < k; ++m) dup |= same(out[m], p[i]);
            if (!dup) out[k++] = p[i];
        }
    }
    if (k == 0 && n > 0) { // all points equal
        out[k++] = p[0];
    }
    return k;
}

/// Checks a hull answer: the vertices of the brute-force hull, each once,
/// counter-clockwise with strict left turns, starting at the lowest-leftmost.
static int check_hull(const gjk_vec2 *pts, int n, const gjk_vec2 *hull, int h, const char *what) {
    gjk_vec2 ref[MAX_PTS * MAX_PTS];
    int r = brute_hull(pts, n, ref);
    int bad = 0;
    if (h != r) {
        fprintf(stderr, "%s: hull has %d vertices, brute force %d\n", what, h, r);
        bad = 1;
    }
    for (int i = 0; i < h && !bad; ++i) {
        int found = 0;
        for (int j = 0; j < r; ++j) found |= same(hull[i], ref[j]);
        if (!found) {
            fprintf(stderr, "%s: hull vertex %d (%g, %g) is not a brute-force vertex\n", what, i, (double)hull[i].x,
                    (double)hull[i].y);
            bad = 1;
        }
        if (lower_left(hull[i], hull[0])) {
            fprintf(stderr, "%s: the hull does not start at its lowest-leftmost vertex\n", what);
            bad = 1;
        }
        if (h >= 3 && !(turn(hull[i], hull[(i + 1) % h], hull[(i + 2) % h]) > 0)) {
            fprintf(stderr, "%s: no strict left turn at hull vertex %d\n", what, (i + 1) % h);
            bad = 1;
        }
    }
    if (bad) ++test_failures;
    return !bad;
}

static void random_lattice_set(gjk_vec2 *p, int n, int range) {
    int kind = rng_int(4);
    for (int i = 0; i < n; ++i) {
        int x = rng_int(2 * range + 1) - range, y = rng_int(2 * range + 1) - range;
        if (kind == 1) { // on a few lines: many collinear points
            int line = rng_int(3);
            if (line == 0) y = x;
            else if (line == 1) y = range / 2;
            else x = -y / 2 * 2;
        } else if (kind == 2) { // near a circle
            double a = 6.283185307179586 * rng_unit();
            x = (int)lround(range * cos(a)), y = (int)lround(range * sin(a));
        }
        p[i] = v2(x, y);
    }
    if (rng_int(3) == 0) { // duplicates (one draw per declarator: argument order is unspecified)
        int copies = 1 + rng_int(n);
        for (int k = 0; k < copies; ++k) {
            int from = rng_int(n), to = rng_int(n);
            p[to] = p[from];
        }
    }
}

static void test_hull_random(void) {
    int sets = 0, total_vertices = 0;
    for (int t = 0; t < 3000; ++t) {
        gjk_vec2 p[MAX_PTS], out[MAX_PTS];
        int n = 1 + rng_int(t < 200 ? 6 : MAX_PTS);
        int range = 1 + rng_int(t % 3 == 0 ? 3 : 200);
        random_lattice_set(p, n, range);
        int h = gjk2_convex_hull(p, n, out);
        char what[64];
        snprintf(what, sizeof what, "hull of random set %d (%d points)", t, n);
        if (!check_hull(p, n, out, h, what)) {
            break;
        }
        if (h >= 3) { // a hull is a convex polygon, counter-clockwise; reversed, clockwise
            gjk_vec2 rev[MAX_PTS];
            for (int i = 0; i < h; ++i) rev[i] = out[h - 1 - i];
            gjk2_convexity_output c = gjk2_polygon_convexity(out, h), r = gjk2_polygon_convexity(rev, h);
            ENSURE(c.convexity == GJK2_CONVEX && c.orientation == 1);
            ENSURE(r.convexity == GJK2_CONVEX && r.orientation == -1);
            if (h >= 4) {
                // Move one vertex inside, halfway from its neighbours' chord
                // to the centroid of the other vertices: a simple polygon
                // with one reflex vertex.
                gjk_vec2 dent[MAX_PTS];
                memcpy(dent, out, sizeof(gjk_vec2) * (size_t)h);
                int k = rng_int(h);
                gjk_vec2 a = out[(k + h - 1) % h], b = out[(k + 1) % h], cen = gjk_v2(0, 0);
                for (int i = 0; i < h; ++i) {
                    if (i != k) cen = gjk_add2(cen, out[i]);
                }
                cen = gjk_scale2((gjk_real)(1.0 / (h - 1)), cen);
                gjk_vec2 mid = gjk_scale2((gjk_real)0.5, gjk_add2(a, b));
                dent[k] = gjk_scale2((gjk_real)0.5, gjk_add2(mid, cen));
                gjk2_convexity_output d = gjk2_polygon_convexity(dent, h);
                ENSURE(d.convexity == GJK2_CONCAVE && d.orientation == 1);
            }
        }
        ++sets;
        total_vertices += h;
    }
    printf("  hull: %d random lattice sets agree with the brute-force hull (%d hull vertices in all)\n", sets,
           total_vertices);

    // Non-lattice points: every point inside the hull (within rounding),
    // every hull vertex an input point, strict left turns.
    for (int t = 0; t < 500; ++t) {
        gjk_vec2 p[MAX_PTS], out[MAX_PTS];
        int n = 3 + rng_int(MAX_PTS - 3);
        double sc = exp(log(1e-3) + rng_unit() * log(1e7)), off = rng_unit() < 0.5 ? 0 : 1e4 * rng_unit();
        for (int i = 0; i < n; ++i) {
            double x = off + sc * (2 * rng_unit() - 1), y = off + sc * (2 * rng_unit() - 1);
            p[i] = v2(x, y);
        }
        int h = gjk2_convex_hull(p, n, out);
        ENSURE(h >= 3 && h <= n);
        for (int i = 0; i < h; ++i) {
            int found = 0;
            for (int j = 0; j < n; ++j) found |= same(out[i], p[j]);
            ENSURE(found);
            ENSURE(turn(out[i], out[(i + 1) % h], out[(i + 2) % h]) > 0);
        }
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < h; ++i) {
                gjk_vec2 a = out[i], b = out[(i + 1) % h];
                double len = hypot((double)b.x - (double)a.x, (double)b.y - (double)a.y);
                ENSURE(turn(a, b, p[j]) / len >= -8 * GJK_REAL_EPSILON * (fabs(off) + sc));
            }
        }
    }
}

static void test_hull_cases(void) {
    gjk_vec2 out[16];
    const gjk_vec2 one[] = {v2(2, 3)};
    ENSURE(gjk2_convex_hull(one, 1, out) == 1 && same(out[0], one[0]));
    const gjk_vec2 same4[] = {v2(2, 3), v2(2, 3), v2(2, 3), v2(2, 3)};
    ENSURE(gjk2_convex_hull(same4, 4, out) == 1 && same(out[0], same4[0]));
    const gjk_vec2 line[] = {v2(4, 4), v2(1, 1), v2(3, 3), v2(-2, -2), v2(1, 1)};
    ENSURE(gjk2_convex_hull(line, 5, out) == 2 && same(out[0], v2(-2, -2)) && same(out[1], v2(4, 4)));
    const gjk_vec2 horizontal[] = {v2(4, 1), v2(1, 1), v2(3, 1), v2(-2, 1)};
    ENSURE(gjk2_convex_hull(horizontal, 4, out) == 2 && same(out[0], v2(-2, 1)) && same(out[1], v2(4, 1)));
    // A square with edge midpoints, its centre and duplicates: the 4 corners,
    // counter-clockwise from the lowest-leftmost.
    const gjk_vec2 sq[] = {v2(1, 1), v2(0, 2), v2(2, 2), v2(2, 0), v2(0, 0), v2(1, 0), v2(2, 1), v2(0, 1),
                           v2(1, 2), v2(2, 2), v2(0, 0)};
    int h = gjk2_convex_hull(sq, N_OF(sq), out);
    ENSURE(h == 4);
    if (h == 4) {
        ENSURE(same(out[0], v2(0, 0)) && same(out[1], v2(2, 0)) && same(out[2], v2(2, 2)) && same(out[3], v2(0, 2)));
    }
    // The worked example's triangle with its last vertex repeated.
    const gjk_vec2 tri[] = {v2(3, 3), v2(5, 3), v2(3, 5), v2(3, 5)};
    ENSURE(gjk2_convex_hull(tri, 4, out) == 3);
    // Fuzz finding f21: sides of subnormal length against sides of 0.125.
    // The products of their coordinates underflow to 0, which read as a
    // straight turn and dropped (0.125, -t). Its hull, by hand, is the five
    // points below, counter-clockwise from the lowest-leftmost.
#if GJK_USE_FLOAT
    const double t = 0x1p-149; // the smallest subnormal
#else
    const double t = 0x1p-1074;
#endif
    const gjk_vec2 f21[] = {v2(-1, 0.5),  v2(-t, -t),       v2(-t, 0.125), v2(-t, 2),
                            v2(0, 0),     v2(0.125, -t),    v2(0.125, 0.125)};
    const gjk_vec2 f21_hull[] = {v2(-t, -t), v2(0.125, -t), v2(0.125, 0.125), v2(-t, 2), v2(-1, 0.5)};
    h = gjk2_convex_hull(f21, N_OF(f21), out);
    ENSURE(h == 5);
    for (int i = 0; i < 5 && h == 5; ++i) {
        ENSURE(same(out[i], f21_hull[i]));
    }
    // The same square-with-a-subnormal-corner under the eight symmetries of
    // the axes (both products of the turn, both orders of the points): the
    // corners (-s, -s), (c, -s), (c, c), (-s, c) and the inner point (0, 0).
    const double cs[3] = {0.125, 0x1p-20, 0.75};
    for (int ci = 0; ci < 3; ++ci) {
        for (int sym = 0; sym < 8; ++sym) {
            const double c = cs[ci];
            const double pts[5][2] = {{-t, -t}, {c, -t}, {c, c}, {-t, c}, {0, 0}};
            gjk_vec2 in[5];
            for (int i = 0; i < 5; ++i) {
                double x = pts[i][0], y = pts[i][1];
                if (sym & 4) {
                    double tmp = x;
                    x = y;
                    y = tmp;
                }
                in[i] = v2(sym & 1 ? -x : x, sym & 2 ? -y : y);
            }
            h = gjk2_convex_hull(in, 5, out);
            ENSURE(h == 4);
            for (int i = 0; i < 4; ++i) {
                int found = 0;
                for (int j = 0; j < h; ++j) found |= same(out[j], in[i]);
                ENSURE(found);
            }
        }
    }
    // Fuzz finding f25: (-5.5, 0) followed by (-5.1875, -t) is a left turn
    // of 5.5·t, below the smallest normal; scaling each side to unit size
    // flushed -t/8 to 0, a straight turn, and the hull lost (-5.5, 0).
    const gjk_vec2 f25[] = {v2(-5.5, -5.5), v2(-5.1875, -t), v2(-t, -t), v2(-t, 0),     v2(-0.5, -5.4375), v2(0.75, -5.5),
                            v2(-3.1875, 0), v2(0, 0),        v2(-4.8125, -5.5), v2(-1, 0), v2(-5.5, 0)};
    const gjk_vec2 f25_hull[] = {v2(-5.5, -5.5), v2(0.75, -5.5), v2(0, 0), v2(-5.5, 0)};
    h = gjk2_convex_hull(f25, N_OF(f25), out);
    ENSURE(h == 4);
    for (int i = 0; i < 4 && h == 4; ++i) {
        ENSURE(same(out[i], f25_hull[i]));
    }
    // Products that are small but still normal numbers keep every digit
    // and take the plain path: three exactly collinear points (double, near
    // 1e-141) and a point strictly inside a triangle (float, near 1e-15)
    // are not hull vertices. (An earlier form of the f21 fix rescaled
    // below 1e-280 / 1e-30 with rounding, and kept both.)
#if GJK_USE_FLOAT
    const gjk_vec2 small[] = {gjk_v2(-0x1.b67fa2p-51f, -0x1.ab92dp-53f), gjk_v2(0x1.0dbcbp-51f, -0x1.a1f998p-52f),
                              gjk_v2(0x1.1a4a96p-50f, -0x1.f6fb0ap-52f), gjk_v2(0, 0x1p-48f)};
#else
    const gjk_vec2 small[] = {gjk_v2(0x1.2p-469, -0x1p-471), gjk_v2(-0x1.4p-470, -0x1.ap-467),
                              gjk_v2(-0x1.08p-467, -0x1.3p-465), gjk_v2(0x1p-460, 0)};
#endif
    ENSURE(gjk2_convex_hull(small, 4, out) == 3);
    // Errors before anything is read.
    ENSURE(gjk2_convex_hull(NULL, 3, out) == -1);
    ENSURE(gjk2_convex_hull(sq, 0, out) == -1);
    ENSURE(gjk2_convex_hull(sq, -1, out) == -1);
    ENSURE(gjk2_convex_hull(sq, 3, NULL) == -1);
    const gjk_vec2 bad[] = {v2(0, 0), v2(INFINITY, 1), v2(1, 1)};
    ENSURE(gjk2_convex_hull(bad, 3, out) == -1);
}

// ---------------------------------------------------------------------------
// Minkowski sum and difference.

/// A random convex polygon as gjk2_convex_hull returns it (1 to n vertices).
static int random_convex(gjk_vec2 *out, int max_n) {
    gjk_vec2 p[MAX_PTS];
    int n = 1 + rng_int(max_n);
    int range = 1 + rng_int(rng_int(4) == 0 ? 2 : 100);
    random_lattice_set(p, n, range);
    int cx = rng_int(201) - 100, cy = rng_int(201) - 100;
    for (int i = 0; i < n; ++i) p[i] = v2((double)p[i].x + cx, (double)p[i].y + cy);
    return gjk2_convex_hull(p, n, out);
}

static void test_minkowski_sum(void) {
    int pairs = 0, vertices = 0;
    for (int t = 0; t < 3000; ++t) {
        gjk_vec2 p[MAX_PTS], q[MAX_PTS], out[2 * MAX_PTS], sums[MAX_PTS * MAX_PTS], ref[MAX_PTS * MAX_PTS];
        int n = random_convex(p, t < 300 ? 3 : 40), m = random_convex(q, t < 300 ? 3 : 40);
        // Sometimes start the input at another vertex (still counter-clockwise).
        if (n > 2 && rng_int(2)) {
            gjk_vec2 tmp[MAX_PTS];
            int s = rng_int(n);
            for (int i = 0; i < n; ++i) tmp[i] = p[(i + s) % n];
            memcpy(p, tmp, sizeof(gjk_vec2) * (size_t)n);
        }
        int k = gjk2_minkowski_sum(p, n, q, m, out);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < m; ++j) sums[i * m + j] = gjk_add2(p[i], q[j]);
        int r = gjk2_convex_hull(sums, n * m, ref);
        int ok = k == r && k <= n + m;
        for (int i = 0; ok && i < k; ++i) ok = same(out[i], ref[i]);
        if (!ok) {
            fprintf(stderr, "Minkowski sum %d: %d + %d vertices gave %d, hull of the sums %d\n", t, n, m, k, r);
            for (int i = 0; i < k; ++i) fprintf(stderr, "  sum %d: (%g, %g)\n", i, (double)out[i].x, (double)out[i].y);
            for (int i = 0; i < r; ++i) fprintf(stderr, "  ref %d: (%g, %g)\n", i, (double)ref[i].x, (double)ref[i].y);
            ++test_failures;
            break;
        }
        ++pairs;
        vertices += k;
    }
    printf("  Minkowski sum: %d random pairs equal the hull of all pairwise sums (%d vertices in all)\n", pairs,
           vertices);

    gjk_vec2 out[16];
    const gjk_vec2 sq[] = {v2(0, 0), v2(1, 0), v2(1, 1), v2(0, 1)};
    const gjk_vec2 sq_cw[] = {v2(0, 0), v2(0, 1), v2(1, 1), v2(1, 0)};
    const gjk_vec2 dart[] = {v2(0, 0), v2(4, 2), v2(0, 4), v2(1, 2)};
    const gjk_vec2 pt[] = {v2(5, 7)};
    const gjk_vec2 seg[] = {v2(0, 0), v2(2, 1)};
    // Point + square: a translate.
    ENSURE(gjk2_minkowski_sum(pt, 1, sq, 4, out) == 4 && same(out[0], v2(5, 7)) && same(out[2], v2(6, 8)));
    // Segment + square: a hexagon.
    ENSURE(gjk2_minkowski_sum(seg, 2, sq, 4, out) == 6);
    // Parallel segments: a longer segment.
    const gjk_vec2 seg2[] = {v2(0, 0), v2(4, 2)};
    ENSURE(gjk2_minkowski_sum(seg, 2, seg2, 2, out) == 2 && same(out[1], v2(6, 3)));
    // Square + square: the doubled square, 4 vertices (parallel edges merge).
    ENSURE(gjk2_minkowski_sum(sq, 4, sq, 4, out) == 4 && same(out[2], v2(2, 2)));
    // Bad input.
    ENSURE(gjk2_minkowski_sum(NULL, 4, sq, 4, out) == -1);
    ENSURE(gjk2_minkowski_sum(sq, 4, NULL, 4, out) == -1);
    ENSURE(gjk2_minkowski_sum(sq, 0, sq, 4, out) == -1);
    ENSURE(gjk2_minkowski_sum(sq, 4, sq, 0, out) == -1);
    ENSURE(gjk2_minkowski_sum(sq, 4, sq, 4, NULL) == -1);
    ENSURE(gjk2_minkowski_sum(sq_cw, 4, sq, 4, out) == -1);
    ENSURE(gjk2_minkowski_sum(sq, 4, dart, 4, out) == -1);
    const gjk_vec2 bad[] = {v2(0, 0), v2(NAN, 0)};
    ENSURE(gjk2_minkowski_sum(bad, 2, sq, 4, out) == -1);
    const gjk_vec2 huge[] = {v2(0, 0), v2(GJK_REAL_MAX, 0)};
    ENSURE(gjk2_minkowski_sum(huge, 2, huge, 2, out) == -1); // the sum overflows
}

static void test_minkowski_difference(void) {
    int pairs = 0;
    for (int t = 0; t < 600; ++t) {
        gjk_vec2 p[MAX_PTS], q[MAX_PTS], scratch[24 * 24], out[24 * 24], diffs[24 * 24];
        int n = 1 + rng_int(t < 100 ? 4 : 24), m = 1 + rng_int(t < 100 ? 4 : 24);
        random_lattice_set(p, n, 1 + rng_int(50));
        random_lattice_set(q, m, 1 + rng_int(50));
        int k = gjk2_minkowski_difference_hull(p, n, q, m, scratch, out);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < m; ++j) diffs[i * m + j] = gjk_sub2(p[i], q[j]);
        char what[64];
        snprintf(what, sizeof what, "difference hull %d (%d × %d points)", t, n, m);
        if (!check_hull(diffs, n * m, out, k, what)) {
            break;
        }
        // The same polygon as the sum of hull(P) and hull(−Q).
        gjk_vec2 hp[MAX_PTS], hq[MAX_PTS], negq[MAX_PTS], sum[2 * MAX_PTS];
        for (int j = 0; j < m; ++j) negq[j] = gjk_neg2(q[j]);
        int a = gjk2_convex_hull(p, n, hp), b = gjk2_convex_hull(negq, m, hq);
        int s = gjk2_minkowski_sum(hp, a, hq, b, sum);
        int ok = s == k;
        for (int i = 0; ok && i < k; ++i) ok = same(sum[i], out[i]);
        ENSURE(ok);
        ++pairs;
    }
    printf("  Minkowski difference: %d random pairs agree with the brute-force hull and the sum\n", pairs);
    gjk_vec2 scratch[16], out[16];
    const gjk_vec2 sq[] = {v2(0, 0), v2(1, 0), v2(1, 1), v2(0, 1)};
    ENSURE(gjk2_minkowski_difference_hull(NULL, 4, sq, 4, scratch, out) == -1);
    ENSURE(gjk2_minkowski_difference_hull(sq, 4, NULL, 4, scratch, out) == -1);
    ENSURE(gjk2_minkowski_difference_hull(sq, 0, sq, 4, scratch, out) == -1);
    ENSURE(gjk2_minkowski_difference_hull(sq, 4, sq, -2, scratch, out) == -1);
    ENSURE(gjk2_minkowski_difference_hull(sq, 4, sq, 4, NULL, out) == -1);
    ENSURE(gjk2_minkowski_difference_hull(sq, 4, sq, 4, scratch, NULL) == -1);
    ENSURE(gjk2_minkowski_difference_hull(sq, 4, sq, 4, scratch, out) == 4 && same(out[0], v2(-1, -1)));
}

/// The ends of the number range (fuzz finding f27): a triangle of subnormal
/// size, (−t, −t), (0, 0), (−t, 0) with t the smallest subnormal, is the
/// hull gjk2_convex_hull returns, but its area and edge cross products
/// underflowed to 0: gjk2_polygon_convexity called it degenerate, and
/// gjk2_minkowski_sum rejected it (−1); above 1e154 the cross products
/// overflowed, with the same answers. Checks: f27's pair; random pairs of
/// convex polygons scaled by powers of two from the bottom of the subnormal
/// range to the top of the normal one give the sum scaled, vertex for
/// vertex, and the same convexity.
static void test_range_ends(void) {
    const gjk_real t = (gjk_real)(GJK_USE_FLOAT ? 1.40129846e-45 : 4.9406564584124654e-324);
    const gjk_vec2 tri[3] = {v2(-t, -t), v2(0, 0), v2(-t, 0)}, dot[1] = {v2(-t, -t)};
    gjk_vec2 out[16];
    gjk2_convexity_output c = gjk2_polygon_convexity(tri, 3);
    ENSURE(c.convexity == GJK2_CONVEX && c.orientation == 1);
    ENSURE(gjk2_minkowski_sum(dot, 1, tri, 3, out) == 3 && same(out[0], v2(-2 * t, -2 * t)));
    ENSURE(gjk2_minkowski_sum(tri, 3, tri, 3, out) == 3);
#if GJK_USE_FLOAT
    const int exps[] = {-140, -126, -100, 60, 100, 118};
#else
    const int exps[] = {-1068, -1060, -1022, -1000, 600, 1000, 1015};
#endif
    int pairs = 0;
    for (int trial = 0; trial < 200; ++trial) {
        gjk_vec2 p[MAX_PTS], q[MAX_PTS], ref[2 * MAX_PTS];
        int n = random_convex(p, 3 + trial % 12), m = random_convex(q, 3 + (trial / 12) % 12);
        int r = gjk2_minkowski_sum(p, n, q, m, ref);
        gjk2_convexity_output cp = gjk2_polygon_convexity(p, n);
        for (int e = 0; e < N_OF(exps); ++e) {
            gjk_vec2 ps[MAX_PTS], qs[MAX_PTS], sum[2 * MAX_PTS];
            for (int i = 0; i < n; ++i) ps[i] = v2(ldexp((double)p[i].x, exps[e]), ldexp((double)p[i].y, exps[e]));
            for (int j = 0; j < m; ++j) qs[j] = v2(ldexp((double)q[j].x, exps[e]), ldexp((double)q[j].y, exps[e]));
            int k = gjk2_minkowski_sum(ps, n, qs, m, sum);
            int ok = k == r;
            for (int i = 0; ok && i < k; ++i) {
                ok = same(sum[i], v2(ldexp((double)ref[i].x, exps[e]), ldexp((double)ref[i].y, exps[e])));
            }
            gjk2_convexity_output cs = gjk2_polygon_convexity(ps, n);
            ok = ok && cs.convexity == cp.convexity && cs.orientation == cp.orientation;
            if (!ok) {
                fprintf(stderr, "range ends: pair %d at 2^%d: sum of %d + %d vertices gave %d (%d at size 1), convexity %d/%d (%d/%d)\n",
                        trial, exps[e], n, m, k, r, (int)cs.convexity, cs.orientation, (int)cp.convexity, cp.orientation);
                ++test_failures;
            }
        }
        ++pairs;
    }
    printf("  range ends: %d random pairs, sums and convexity the same scaled by 2^%d to 2^%d\n", pairs, exps[0],
           exps[N_OF(exps) - 1]);
}

int main(void) {
    clock_t start = clock();
    RUN_TEST(test_convexity_cases);
    RUN_TEST(test_hull_cases);
    RUN_TEST(test_hull_random);
    RUN_TEST(test_minkowski_sum);
    RUN_TEST(test_minkowski_difference);
    RUN_TEST(test_range_ends);
    printf("test_geometry2 (%s): %.2f s\n", GJK_USE_FLOAT ? "float" : "double",
           (double)(clock() - start) / CLOCKS_PER_SEC);
    return TEST_SUMMARY();
}

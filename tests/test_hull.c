// Hulls (src/hull.c) and hill-climbing support: structure of simple hulls
// known exactly, random clouds against libqhull's vertex set, the support
// of a hull shape against a linear scan, and queries on hull shapes against
// the same queries on plain polytopes.
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exact.h"
#include "qhull_reference.h"
#include "support.h"
#include "test_macros.h"
#include "test_util.h"

#if GJK_USE_FLOAT
#define HULL_TOL 1e-4
#else
#define HULL_TOL 1e-10
#endif

/// A point uniform in the cube [−1, 1]³ (coordinates drawn x, y, z in order).
static gjk_vec3 rng_cube(rng *r) {
    gjk_real x = (gjk_real)rng_range(r, -1, 1), y = (gjk_real)rng_range(r, -1, 1);
    return gjk_v3(x, y, (gjk_real)rng_range(r, -1, 1));
}

/// A rotation from four coordinates uniform in [−1, 1], normalised (drawn in
/// the order the compiler evaluates the arguments, as the tests always did).
static gjk_quat rng_rotation(rng *r) {
    return gjk_quat_normalize(gjk_quat_make((gjk_real)rng_range(r, -1, 1), (gjk_real)rng_range(r, -1, 1),
                                            (gjk_real)rng_range(r, -1, 1), (gjk_real)rng_range(r, -1, 1)));
}

/// The hulls of two point sets; false (nothing left allocated) when either
/// fails, which is a failed check.
static bool make_hull_pair(const gjk_vec3 *pa, int na, const gjk_vec3 *pb, int nb, gjk_hull **ha, gjk_hull **hb) {
    *ha = gjk_hull_create(pa, na, NULL);
    *hb = gjk_hull_create(pb, nb, NULL);
    ENSURE(*ha != NULL && *hb != NULL);
    if (*ha == NULL || *hb == NULL) {
        gjk_hull_destroy(*ha);
        gjk_hull_destroy(*hb);
        return false;
    }
    return true;
}

/// Whether vertex v of the hull is a corner of one of its faces: not within
/// tol of the segment between its two neighbours in every face it is in
/// (a point on an edge of the hull, or in no face).
static bool is_corner(const gjk_hull *h, int v, double tol) {
    for (int f = 0; f < h->face_count; ++f) {
        int s = h->face_first[f], e = h->face_first[f + 1];
        for (int k = s; k < e; ++k) {
            if (h->face_indices[k] != v) {
                continue;
            }
            gjk_vec3 a = h->vertices[h->face_indices[k == s ? e - 1 : k - 1]];
            gjk_vec3 c = h->vertices[h->face_indices[k + 1 < e ? k + 1 : s]];
            gjk_vec3 ac = gjk_sub(c, a), av = gjk_sub(h->vertices[v], a);
            double len = (double)gjk_length(ac), t = (double)gjk_dot(av, ac) / (len * len);
            double off = (double)gjk_length(gjk_cross(ac, av)) / len;
            if (!(len > 0) || off > tol || t <= 0 || t >= 1) {
                return true;
            }
        }
    }
    return false;
}

/// How far the points reach beyond the hull's vertices along d (unit): the
/// largest (p − o)·d over the points less the largest over the vertices (o,
/// a point near the cloud, keeps the products of a cloud far from its
/// origin exact).
static double reach_beyond(const gjk_hull *h, const gjk_vec3 *pts, int n, gjk_vec3 d, double o) {
    double hp = -INFINITY, hv = -INFINITY;
    for (int i = 0; i < n; ++i) {
        hp = fmax(hp, ((double)pts[i].x - o) * d.x + ((double)pts[i].y - o) * d.y + ((double)pts[i].z - o) * d.z);
    }
    for (int v = 0; v < h->vertex_count; ++v) {
        const gjk_vec3 q = h->vertices[v];
        hv = fmax(hv, ((double)q.x - o) * d.x + ((double)q.y - o) * d.y + ((double)q.z - o) * d.z);
    }
    return hp - hv;
}

/// Structural checks every hull must pass: faces are closed loops whose
/// vertices lie on their planes, every input point lies below every plane,
/// every edge has its twin, adjacency lists match the face edges; and the
/// vertices reach as far as the points along the 26 directions of a cube's
/// faces, edges and corners and (up to 1024 points) toward each point from
/// the vertices' centroid. (The face planes alone do not see a point
/// missing from a flat hull's polygon.)
static void check_hull(const gjk_hull *h, const gjk_vec3 *pts, int n, double size) {
    double tol = HULL_TOL * size;
    ENSURE(h->vertex_count >= 3);
    double worst = 0;
    for (int k = 0; k < 27; ++k) {
        gjk_vec3 d = gjk_v3((gjk_real)(k % 3 - 1), (gjk_real)(k / 3 % 3 - 1), (gjk_real)(k / 9 - 1));
        if (k != 13) {
            worst = fmax(worst, reach_beyond(h, pts, n, gjk_normalize(d), 0));
        }
    }
    gjk_vec3 centroid = gjk_v3_zero();
    for (int v = 0; v < h->vertex_count; ++v) {
        centroid = gjk_add(centroid, gjk_scale(1 / (gjk_real)h->vertex_count, h->vertices[v]));
    }
    for (int i = 0; i < n && n <= 1024; ++i) {
        gjk_vec3 d = gjk_sub(pts[i], centroid);
        if (gjk_length_sq(d) > 0) {
            worst = fmax(worst, reach_beyond(h, pts, n, gjk_normalize(d), 0));
        }
    }
    if (worst > tol) {
        fprintf(stderr, "  the points reach %g beyond the hull's vertices (tolerance %g)\n", worst, tol);
    }
    ENSURE(worst <= tol);
    // Every vertex is extreme (hull.h): a corner of a face, not a point on
    // an edge.
    int on_edges = 0;
    for (int v = 0; v < h->vertex_count; ++v) {
        on_edges += !is_corner(h, v, 1e-3 * tol);
    }
    if (on_edges != 0) {
        fprintf(stderr, "  %d of %d vertices lie on the hull's edges\n", on_edges, h->vertex_count);
    }
    ENSURE(on_edges == 0);
    for (int f = 0; f < h->face_count; ++f) {
        int s = h->face_first[f], e = h->face_first[f + 1];
        ENSURE(e - s >= 3);
        ENSURE_NEAR(gjk_length(h->face_normals[f]), 1, 1e-6);
        for (int k = s; k < e; ++k) {
            ENSURE(h->face_indices[k] >= 0 && h->face_indices[k] < h->vertex_count);
            ENSURE_NEAR(gjk_dot(h->face_normals[f], h->vertices[h->face_indices[k]]), h->face_offsets[f], tol);
        }
        for (int i = 0; i < n; ++i) {
            ENSURE(gjk_dot(h->face_normals[f], pts[i]) - h->face_offsets[f] <= tol);
        }
        if (!h->flat) {
            // Every edge u → w appears reversed in exactly one other face.
            for (int k = s; k < e; ++k) {
                int u = h->face_indices[k], w = h->face_indices[k + 1 < e ? k + 1 : s];
                int twins = 0;
                for (int g = 0; g < h->face_count; ++g) {
                    int gs = h->face_first[g], ge = h->face_first[g + 1];
                    for (int m = gs; m < ge; ++m) {
                        if (h->face_indices[m] == w && h->face_indices[m + 1 < ge ? m + 1 : gs] == u) {
                            ++twins;
                        }
                    }
                }
                ENSURE(twins == 1);
            }
        }
    }
    // Every hull vertex is an input point; every vertex has ≥ 2 neighbours.
    for (int v = 0; v < h->vertex_count; ++v) {
        int found = 0;
        for (int i = 0; i < n && !found; ++i) {
            found = h->vertices[v].x == pts[i].x && h->vertices[v].y == pts[i].y && h->vertices[v].z == pts[i].z;
        }
        ENSURE(found);
        ENSURE(h->neighbor_first[v + 1] - h->neighbor_first[v] >= 2);
    }
    ENSURE(h->radius > 0);
}

static void test_cube_with_inner_and_face_points(void) {
    gjk_vec3 pts[64];
    int n = 0;
    for (int i = 0; i < 8; ++i) {
        pts[n++] = gjk_v3(i & 1 ? 2 : -2, i & 2 ? 3 : -3, i & 4 ? 1 : -1);
    }
    pts[n++] = gjk_v3(0, 0, 0);
    pts[n++] = gjk_v3(2, 0, 0);       // face centre
    pts[n++] = gjk_v3(0, 3, 0.5);     // on a face
    pts[n++] = gjk_v3(2, 3, 0);       // on an edge
    pts[n++] = gjk_v3(-2, -3, -1);    // duplicate corner
    pts[n++] = gjk_v3(1, -1, 0.25);
    gjk_hull_error err = GJK_HULL_FAILED;
    gjk_hull *h = gjk_hull_create(pts, n, &err);
    ENSURE(h != NULL && err == GJK_HULL_OK);
    if (h == NULL) {
        return;
    }
    check_hull(h, pts, n, 3);
    ENSURE(!h->flat);
    ENSURE(h->vertex_count == 8);
    ENSURE(h->face_count == 6);
    int axis_hits[6] = {0, 0, 0, 0, 0, 0};
    for (int f = 0; f < h->face_count; ++f) {
        ENSURE(h->face_first[f + 1] - h->face_first[f] == 4);
        gjk_vec3 nrm = h->face_normals[f];
        const double half[3] = {2, 3, 1};
        const double c[3] = {nrm.x, nrm.y, nrm.z};
        for (int a = 0; a < 3; ++a) {
            if (fabs(fabs(c[a]) - 1) < 1e-6) {
                axis_hits[2 * a + (c[a] > 0)]++;
                ENSURE_NEAR(h->face_offsets[f], half[a], HULL_TOL);
            }
        }
    }
    for (int k = 0; k < 6; ++k) {
        ENSURE(axis_hits[k] == 1);
    }
    // Each corner's neighbours: its three edges' other ends (the corners
    // that differ from it in one coordinate), and at most the two diagonals
    // of its faces' triangulation (those that differ in two).
    for (int v = 0; v < 8; ++v) {
        int edges = 0, diagonals = 0;
        for (int k = h->neighbor_first[v]; k < h->neighbor_first[v + 1]; ++k) {
            gjk_vec3 a = h->vertices[v], b = h->vertices[h->neighbors[k]];
            int differ = (a.x != b.x) + (a.y != b.y) + (a.z != b.z);
            edges += differ == 1;
            diagonals += differ == 2;
            ENSURE(differ == 1 || differ == 2);
        }
        ENSURE(edges == 3 && diagonals <= 3);
    }
    ENSURE_NEAR(h->radius, sqrt(14.0), HULL_TOL);
    gjk_hull_destroy(h);
}

/// The same cloud scaled by powers of two gives the same hull, its normals
/// equal and its offsets scaled, from the bottom of the exponent range to
/// the top: a cloud and a flat one (its points in a plane). The
/// construction's heights are products of coordinates, which underflowed
/// below about 1e-160 (GJK_HULL_DEGENERATE) and overflowed above 1e150;
/// it now runs on the points scaled near 1.
static void test_hull_scale_free(void) {
    rng r = {31};
    enum { N = 300 };
    static gjk_vec3 cloud[N], flat[N], scaled[N];
    for (int i = 0; i < N; ++i) {
        gjk_vec3 p = gjk_normalize(rng_cube(&r));
        cloud[i] = i % 5 == 0 ? gjk_scale((gjk_real)0.5, p) : gjk_v3(p.x, (gjk_real)0.75 * p.y, (gjk_real)0.5 * p.z);
        flat[i] = gjk_v3(p.x, p.y - p.x, (gjk_real)0.25 * (p.x + p.y));
    }
#if GJK_USE_FLOAT
    const int ks[] = {-120, -60, 60, 120};
#else
    const int ks[] = {-1000, -600, -300, 300, 600, 1000, 1023}; // 2^1023: the sum of coordinates overflows
#endif
    for (int which = 0; which < 2; ++which) {
        const gjk_vec3 *src = which ? flat : cloud;
        gjk_hull *h1 = gjk_hull_create(src, N, NULL);
        ENSURE(h1 != NULL && h1->flat == (which == 1));
        for (int m = 0; h1 != NULL && m < (int)(sizeof ks / sizeof ks[0]); ++m) {
            for (int i = 0; i < N; ++i) {
                scaled[i] = gjk_v3((gjk_real)ldexp(src[i].x, ks[m]), (gjk_real)ldexp(src[i].y, ks[m]),
                                   (gjk_real)ldexp(src[i].z, ks[m]));
            }
            gjk_hull_error err = GJK_HULL_OK;
            gjk_hull *h = gjk_hull_create(scaled, N, &err);
            if (h == NULL) {
                printf("  2^%d: no hull (error %d)\n", ks[m], (int)err);
            }
            ENSURE(h != NULL);
            if (h == NULL) {
                continue;
            }
            ENSURE(h->vertex_count == h1->vertex_count && h->face_count == h1->face_count);
            int same = h->vertex_count == h1->vertex_count && h->face_count == h1->face_count;
            for (int f = 0; same && f < h->face_count; ++f) {
                gjk_vec3 a = h->face_normals[f], b = h1->face_normals[f];
                same = a.x == b.x && a.y == b.y && a.z == b.z &&
                       h->face_offsets[f] == (gjk_real)ldexp(h1->face_offsets[f], ks[m]);
            }
            ENSURE(same);
            gjk_hull_destroy(h);
        }
        gjk_hull_destroy(h1);
    }
}

/// The hull of a flat cloud of about unit size checked (check_hull): 1
/// when built, 0 when refused as a line within the resolution (any other
/// failure fails the check).
static int check_flat_cloud(const gjk_vec3 *cloud, int n) {
    gjk_hull_error err;
    gjk_hull *h = gjk_hull_create(cloud, n, &err);
    if (h == NULL) {
        ENSURE(err == GJK_HULL_DEGENERATE);
        return 0;
    }
    check_hull(h, cloud, n, 1);
    gjk_hull_destroy(h);
    return 1;
}

static void test_flat_sliver_keeps_ends(void) {
    // Needle review: seven points along x (from -0.41 to 0.572), within
    // 1.2e-12 of a line, so that their hull is a flat sliver polygon. Its
    // vertex at the +x end (0.5723) lay within the resolution of the line
    // through its neighbours (the sliver's sides), and the flat hull dropped
    // it, though it lies 1.6e-3 beyond the segment that replaced it: the
    // hull's support along +x fell short of the points by that much.
#if !GJK_USE_FLOAT
    gjk_hull_error err;
    gjk_hull *h;
    static const gjk_vec3 pts[7] = {{-0x1.a85a00fdac5b1p-2, -0x1.3074a03c016fap-3, -0x1.75c9513d45fdap-6},
                                    {0x1.250a6a990732p-1, -0x1.3074a03c01f3p-3, -0x1.75c9513d3cffcp-6},
                                    {-0x1.dbd9fab2187b4p-3, -0x1.3074a03c02115p-3, -0x1.75c9513d3b87fp-6},
                                    {-0x1.55e39d6d8636dp-2, -0x1.3074a03c04d0ep-3, -0x1.75c9513d78b4cp-6},
                                    {0x1.51ab9f880c69ep-4, -0x1.3074a03c015cp-3, -0x1.75c9513d48261p-6},
                                    {0x1.23d1851a35eebp-1, -0x1.3074a03c01751p-3, -0x1.75c9513d5eb4ep-6},
                                    {0x1.760a408553678p-3, -0x1.3074a03c0242cp-3, -0x1.75c9513d39665p-6}};
    h = gjk_hull_create(pts, 7, &err);
    ENSURE(h != NULL);
    if (h != NULL) {
        check_hull(h, pts, 7, 1);
        gjk_shape s = gjk_make_hull(h);
        ENSURE(gjk_shape_support(&s, gjk_v3(1, 0, 0)).x == pts[1].x);
        ENSURE(gjk_shape_support(&s, gjk_v3(-1, 0, 0)).x == pts[0].x);
        gjk_hull_destroy(h);
    }
#endif
    // Flat slivers in general: points along a line in a random plane, a
    // few resolutions wide (1e-12 of the size in double, 4e-6 in float),
    // with two near-ties at each end, 1e-3 apart along the line.
    rng r = {71};
    const double res = GJK_USE_FLOAT ? 4e-6 : 1e-12;
    int built = 0;
    for (int trial = 0; trial < 400; ++trial) {
        gjk_vec3 cloud[12];
        gjk_quat q = rng_rotation(&r);
        double w = res * rng_range(&r, 1, 4);
        int n = 5 + trial % 8;
        for (int i = 0; i < n; ++i) {
            double x = i < 4 ? (i % 2 == 0 ? -1 : 1) * (1 - (i < 2 ? 0 : 1e-3)) : rng_range(&r, -0.9, 0.9);
            double y = w * rng_range(&r, -1, 1);
            cloud[i] = gjk_quat_rotate(q, gjk_v3((gjk_real)x, (gjk_real)y, 0));
        }
        built += check_flat_cloud(cloud, n);
    }
    printf("  %d of 400 slivers built (the rest a line within the resolution)\n", built);
    ENSURE(built > 100);
}

static void test_flat_no_vertex_on_edge(void) {
    // fuzz/findings f69: ten coplanar points. Keeping the sliver's tip T
    // (pts[6]) left the vertex beside it (pts[5]) 9.5e-14 from the segment
    // between its neighbours, 0.07 of the resolution: a vertex on an edge.
    // It cannot simply go (a point dropped beside it would then lie 1.05
    // resolutions out): that point is the vertex instead.
#if !GJK_USE_FLOAT
    gjk_hull_error err;
    gjk_hull *h;
    static const gjk_vec3 pts[10] = {{-0x1.292476eec2beap-3, -0x1.3fe622fc5599ap-2, 0x1.df3900e843681p-1},
                                     {-0x1.851b834d210fdp-4, -0x1.a2e8383b14b41p-3, 0x1.39c545e285117p-1},
                                     {0x1.baa009786b17ap-6, 0x1.dc85fe25cdea7p-5, -0x1.64ed2d12528aep-3},
                                     {0x1.0657d6444a885p-3, 0x1.1a6f3ed7d0472p-2, -0x1.a7196db173e3ap-1},
                                     {0x1.0e843138459dbp-3, 0x1.233bd7ca97144p-2, -0x1.b447eb0aefbdp-1},
                                     {0x1.29cc9d3d04ad4p-3, 0x1.409b29f99b61ep-2, -0x1.e04830bc2ebd2p-1},
                                     {0x1.29e69b9939dbp-3, 0x1.40b725f4e6aeap-2, -0x1.e0721cb17d1fap-1},
                                     {0x1.d7683df13be73p-4, 0x1.fb827d19826e6p-3, -0x1.7c22ca095968cp-1},
                                     {0x1.0e1327bb77e8dp-6, 0x1.22c22622c2157p-5, -0x1.b3919d800597bp-4},
                                     {-0x1.04fb0ec226553p-3, -0x1.18f7c14999e6bp-2, 0x1.a4e6ed669db07p-1}};
    h = gjk_hull_create(pts, 10, &err);
    ENSURE(h != NULL);
    if (h != NULL) {
        ENSURE(h->flat);
        check_hull(h, pts, 10, 1);
        gjk_hull_destroy(h);
    }
    // Its review's case: pts2[7] stayed 0.68 resolutions (1.585e-12 here,
    // 1e-12 of the half extents' sum) from its neighbours' segment; the
    // farthest point between them could not take its place (a segment of
    // its reached 1.004 resolutions) and the second farthest, pts2[9], can.
    static const gjk_vec3 pts2[15] = {
        {0x1.e67e91e6334fp-2, -0x1.ac9ceb8f98f52p-1, 0x1.159a1d40e5bcp-2},
        {-0x1.e67e91e6334fp-2, 0x1.ac9ceb8f98f52p-1, -0x1.159a1d40e5bcp-2},
        {-0x1.0439939c3186ap-2, 0x1.ca874a20e1a28p-2, -0x1.28fa4022d9e6fp-3},
        {-0x1.60213c7793fdp-2, 0x1.363c105318afdp-1, -0x1.91dcd1704379dp-3},
        {-0x1.87790d91e190fp-10, 0x1.58e591fc2354cp-9, -0x1.bec31e6a03a7dp-11},
        {-0x1.c436d065ce387p-5, 0x1.8e6946156051fp-4, -0x1.020a84b0ac2d1p-5},
        {0x1.48e71a4030e7p-2, -0x1.21c5617b90fb1p-1, 0x1.775ae338ce6e1p-3},
        {0x1.d829ee5b78ca4p-2, -0x1.9ffcc3714f16fp-1, 0x1.0d6cb9f49fad5p-2},
        {0x1.40bded65c5341p-5, -0x1.1a94c4bd73633p-4, 0x1.6e0aa64b6667fp-6},
        {0x1.b04ae1772f54fp-2, -0x1.7cdc1cf39fab1p-1, 0x1.ed58d19b77bd5p-3},
        {0x1.e13463e68a36fp-2, -0x1.a7f3db2cd11b2p-1, 0x1.12956570bf21fp-2},
        {-0x1.6b38fa28efed6p-4, 0x1.4001f12b557ffp-3, -0x1.9e85a09cb1433p-5},
        {0x1.b437a5abe3959p-2, -0x1.805155f9bd533p-1, 0x1.f1d37e14584f1p-3},
        {-0x1.77f244f02e6b8p-2, 0x1.4b37b1534eb1cp-1, -0x1.ad0af5d1caf76p-3},
        {0x1.3b749bd6c61b4p-2, -0x1.15ec769147506p-1, 0x1.6802323da1f9cp-3}};
    h = gjk_hull_create(pts2, 15, &err);
    ENSURE(h != NULL);
    if (h != NULL) {
        ENSURE(h->flat);
        check_hull(h, pts2, 15, 1);
        for (int v = 0; v < h->vertex_count; ++v) {
            ENSURE(is_corner(h, v, 1.585e-12));
        }
        gjk_hull_destroy(h);
    }
#endif
    // Flat clouds whose greedy drop left vertices on edges (a flat hull
    // review's families, where it found them): a fan of points on an arc
    // a millionth of a radian wide or less, with one point across the
    // circle; and ellipses a few resolutions thin.
    rng r = {69};
    const double res = GJK_USE_FLOAT ? 4e-6 : 1e-12;
    int built = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        gjk_vec3 cloud[34];
        gjk_quat q = rng_rotation(&r);
        int n = 5 + rng_int(&r, 30);
        bool fan = trial % 2 == 0;
        for (int i = 0; i < n; ++i) {
            double x, y;
            if (fan) {
                double a = rng_range(&r, -1, 1) * 1e-6 * pow(10, rng_range(&r, -3, 3));
                x = i == 0 ? 1 : -cos(a);
                y = i == 0 ? 0 : sin(a) * rng_range(&r, 0.5, 1.5);
            } else {
                double a = rng_range(&r, 0, 6.283);
                x = cos(a);
                y = res * rng_range(&r, 0.1, 5) * sin(a);
            }
            cloud[i] = gjk_quat_rotate(q, gjk_v3((gjk_real)x, (gjk_real)y, 0));
        }
        built += check_flat_cloud(cloud, n);
    }
    printf("  %d of 1000 flat clouds built (the rest a line within the resolution)\n", built);
    ENSURE(built > 300);
}

static void test_flat_and_degenerate(void) {
    // A hexagon in a tilted plane with interior and duplicate points.
    gjk_vec3 pts[16];
    gjk_quat q = gjk_quat_from_axis_angle(gjk_normalize(gjk_v3(1, 2, 3)), (gjk_real)0.7);
    int n = 0;
    for (int k = 0; k < 6; ++k) {
        double a = k * 3.14159265358979323846 / 3;
        pts[n++] = gjk_quat_rotate(q, gjk_v3((gjk_real)cos(a), (gjk_real)sin(a), 0));
    }
    pts[n++] = gjk_quat_rotate(q, gjk_v3((gjk_real)0.1, (gjk_real)0.2, 0));
    pts[n++] = pts[2];
    gjk_hull_error err;
    gjk_hull *h = gjk_hull_create(pts, n, &err);
    ENSURE(h != NULL);
    if (h != NULL) {
        ENSURE(h->flat);
        ENSURE(h->vertex_count == 6);
        ENSURE(h->face_count == 2);
        ENSURE_VEC_NEAR(h->face_normals[0], gjk_neg(h->face_normals[1]), 1e-6);
        check_hull(h, pts, n, 1);
        gjk_hull_destroy(h);
    }
    gjk_vec3 line[3] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
    ENSURE(gjk_hull_create(line, 3, &err) == NULL && err == GJK_HULL_DEGENERATE);
    ENSURE(gjk_hull_create(line, 1, &err) == NULL && err == GJK_HULL_DEGENERATE);
    ENSURE(gjk_hull_create(NULL, 3, &err) == NULL && err == GJK_HULL_INVALID_INPUT);
    ENSURE(gjk_hull_create(line, 0, &err) == NULL && err == GJK_HULL_INVALID_INPUT);
    gjk_vec3 bad[4] = {{0, 0, 0}, {1, 0, 0}, {0, (gjk_real)NAN, 0}, {0, 0, 1}};
    ENSURE(gjk_hull_create(bad, 4, &err) == NULL && err == GJK_HULL_INVALID_INPUT);
    bad[2].y = (gjk_real)INFINITY;
    ENSURE(gjk_hull_create(bad, 4, &err) == NULL && err == GJK_HULL_INVALID_INPUT);
    gjk_hull_destroy(NULL);
}

/// The hull's vertex set equals libqhull's, up to points within the
/// tolerance of the surface (either side may keep or drop those): every
/// qhull vertex is one of ours or lies on our surface, and every vertex of
/// ours is one of qhull's or lies on its surface.
static void check_against_qhull(const gjk_hull *h, const gjk_vec3 *pts, int n, double size) {
    double *dpts = malloc((size_t)(3 * n) * sizeof *dpts);
    ENSURE(dpts != NULL);
    if (dpts == NULL) {
        return;
    }
    for (int i = 0; i < n; ++i) {
        dpts[3 * i] = pts[i].x;
        dpts[3 * i + 1] = pts[i].y;
        dpts[3 * i + 2] = pts[i].z;
    }
    const double tol = HULL_TOL * size;
    hull ref;
    if (hull_build(&ref, dpts, n) == 0) {
        int missing = 0, extra = 0;
        for (int k = 0; k < ref.nv; ++k) {
            gjk_vec3 p = pts[ref.vid[k]];
            int found = 0;
            for (int v = 0; v < h->vertex_count && !found; ++v) {
                found = h->vertices[v].x == p.x && h->vertices[v].y == p.y && h->vertices[v].z == p.z;
            }
            if (!found) {
                double worst = -1e300;
                for (int f = 0; f < h->face_count; ++f) {
                    worst = fmax(worst, gjk_dot(h->face_normals[f], p) - h->face_offsets[f]);
                }
                ENSURE(fabs(worst) <= tol);
                ++missing;
            }
        }
        for (int v = 0; v < h->vertex_count; ++v) {
            gjk_vec3 p = h->vertices[v];
            int found = 0;
            for (int k = 0; k < ref.nv && !found; ++k) {
                const gjk_vec3 q = pts[ref.vid[k]];
                found = q.x == p.x && q.y == p.y && q.z == p.z;
            }
            if (!found) {
                d3 dp = {p.x, p.y, p.z};
                ENSURE(fabs(hull_sdist(&ref, dp)) <= tol);
                ++extra;
            }
        }
        ENSURE(h->vertex_count - extra + missing == ref.nv);
        hull_free(&ref);
    }
    free(dpts);
}

/// Random clouds: the hull's vertex set equals libqhull's.
static void test_random_clouds_against_qhull(void) {
    rng r = {42};
    enum { MAXN = 600 };
    static gjk_vec3 pts[MAXN];
    for (int trial = 0; trial < 40; ++trial) {
        int n = 4 + rng_int(&r, MAXN - 4);
        int on_sphere = trial % 2;
        double scale = pow(10, rng_range(&r, -3, 3));
        gjk_vec3 centre = gjk_v3((gjk_real)rng_range(&r, -5, 5), (gjk_real)rng_range(&r, -5, 5),
                                 (gjk_real)rng_range(&r, -5, 5));
        for (int i = 0; i < n; ++i) {
            gjk_vec3 p = rng_cube(&r);
            if (on_sphere) {
                p = gjk_normalize(p);
            }
            pts[i] = gjk_add(gjk_scale((gjk_real)scale, centre), gjk_scale((gjk_real)scale, p));
        }
        gjk_hull_error err;
        gjk_hull *h = gjk_hull_create(pts, n, &err);
        ENSURE(h != NULL);
        if (h == NULL) {
            fprintf(stderr, "trial %d: n = %d, error %d\n", trial, n, (int)err);
            continue;
        }
        double size = scale * 10;
        check_hull(h, pts, n, size);
        check_against_qhull(h, pts, n, size);
        gjk_hull_destroy(h);
    }
}

/// Clouds on circles about one axis (a finely cut cylinder's rims and
/// rings, wide and flat or tall and thin, some with points inside): each
/// rim point sees a cone of hundreds of faces, and the points of the faces
/// it removes are filed among them by a climb around the cone (hull.c,
/// file_from), or by the scan of every new face where the climb finds none
/// they lie above. The vertex set must be libqhull's and every ring point
/// (all extreme: a chord's sagitta is far above the tolerance) a vertex.
static void test_rings_against_qhull(void) {
    rng r = {61};
    enum { MAXN = 5 * 700 + 200 }; // rings × points a ring + inside
    static gjk_vec3 pts[MAXN];
    for (int trial = 0; trial < 8; ++trial) {
        int rings = 2 + trial % 4, per = 300 + rng_int(&r, 400), inside = trial % 3 == 2 ? 200 : 0;
        double radius = trial % 2 ? 3 : 1, height = trial % 2 ? 0.2 : 2;
        int n = 0;
        for (int k = 0; k < rings; ++k) {
            double z = height * (k / (double)(rings - 1) - 0.5);
            for (int i = 0; i < per; ++i) {
                double t = 6.283185307179586 * (i + rng_range(&r, 0, 0.5)) / per;
                pts[n++] = gjk_v3((gjk_real)(radius * cos(t)), (gjk_real)(radius * sin(t)), (gjk_real)z);
            }
        }
        int rim = n;
        for (int i = 0; i < inside; ++i) {
            pts[n++] = gjk_v3((gjk_real)rng_range(&r, -0.5, 0.5), (gjk_real)rng_range(&r, -0.5, 0.5),
                              (gjk_real)(height * rng_range(&r, -0.4, 0.4)));
        }
        gjk_hull *h = gjk_hull_create(pts, n, NULL);
        ENSURE(h != NULL);
        if (h == NULL) {
            continue;
        }
        double size = 2 * radius + height;
        check_hull(h, pts, n, size);
        check_against_qhull(h, pts, n, size);
        // Every ring point is extreme: it stands out of the hull of the
        // others by about a chord's sagitta, R (pi / per)^2 / 2, 2e-6 to 3e-5
        // of the size, far above double's resolution (1e-12 of the size) and
        // not always above float's (4e-6), where such points may be dropped.
#if !GJK_USE_FLOAT
        ENSURE(h->vertex_count == rim);
#else
        (void)rim;
#endif
        gjk_hull_destroy(h);
    }
}

/// det[b − a, c − a, d − a] of grid points, rounded in long double (64-bit
/// mantissa on x86, 53 elsewhere), and a bound on its rounding error.
static long double rounded_orient(const double a[3], const double b[3], const double c[3], const double d[3],
                                  long double *bound) {
    long double u[3], v[3], w[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = (long double)b[k] - a[k];
        v[k] = (long double)c[k] - a[k];
        w[k] = (long double)d[k] - a[k];
    }
    long double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    long double perm = 0;
    for (int k = 0; k < 3; ++k) {
        perm += (fabsl(u[(k + 1) % 3] * v[(k + 2) % 3]) + fabsl(u[(k + 2) % 3] * v[(k + 1) % 3])) * fabsl(w[k]);
    }
    *bound = 16 * LDBL_EPSILON * perm;
    return n[0] * w[0] + n[1] * w[1] + n[2] * w[2];
}

/// The hull construction's exact orientation (src/exact.c) on grid points
/// up to 2^50: signs known by construction (points on a plane plus a small
/// integer offset, whose determinant is N·e exactly), extreme coordinates,
/// and random points where a long double evaluation is sure of the sign;
/// the cross product against its exact value. A double evaluation gets the
/// near-plane signs wrong (counted, to show the cases are hard).
static void test_exact_orientation(void) {
    rng r = {77};
    const double M = GJK_GRID_MAX;
    // The corners of the grid: det = (2^51)^3, and its sign under swaps.
    const double a[3] = {-M, -M, -M}, b[3] = {M, -M, -M}, c[3] = {-M, M, -M}, d[3] = {-M, -M, M};
    ENSURE(gjk_exact_orient(a, b, c, d) == 1);
    ENSURE(gjk_exact_orient(a, c, b, d) == -1);
    ENSURE(gjk_exact_orient(a, b, c, a) == 0);
    double n[3];
    gjk_exact_cross(a, b, c, n);
    ENSURE(n[0] == 0 && n[1] == 0 && n[2] == 0x1p102);
    int double_wrong = 0, checked = 0;
    for (int it = 0; it < 200000; ++it) {
        double p[4][3];
        double m = it % 2 == 0 ? 0x1p46 : (it % 4 == 1 ? 0x1p20 : 100);
        for (int i = 0; i < 3; ++i) {
            for (int k = 0; k < 3; ++k) {
                p[i][k] = rint(rng_range(&r, -m, m));
            }
        }
        // d = a + s (b − a) + t (c − a) + e: on the plane but for e, so that
        // det = ((b − a) × (c − a))·e, here by long double, exact when the
        // product's terms fit its mantissa (checked through `bound`).
        int s = rng_int(&r, 5) - 2, t = rng_int(&r, 5) - 2;
        int emax = it % 3 == 0 ? 0 : (it % 3 == 1 ? 2 : 1 << 20);
        double e[3];
        for (int k = 0; k < 3; ++k) {
            e[k] = emax == 0 ? 0 : (double)(rng_int(&r, 2 * emax + 1) - emax);
            p[3][k] = p[0][k] + s * (p[1][k] - p[0][k]) + t * (p[2][k] - p[0][k]) + e[k];
        }
        long double bound;
        long double det = rounded_orient(p[0], p[1], p[2], p[3], &bound);
        gjk_exact_cross(p[0], p[1], p[2], n);
        long double ne = (long double)n[0] * e[0] + (long double)n[1] * e[1] + (long double)n[2] * e[2];
        int want;
        if (emax == 0) {
            want = 0;
        } else if (fabsl(det) > bound) {
            want = det > 0 ? 1 : -1;
        } else if (m <= 100 || fabsl(ne) > 64 * LDBL_EPSILON * (fabsl(n[0]) + fabsl(n[1]) + fabsl(n[2])) * emax) {
            // Small coordinates: det fits a double exactly; otherwise
            // N·e, from N rounded, where its sign is sure.
            want = ne > 0 ? 1 : (ne < 0 ? -1 : 0);
        } else {
            continue;
        }
        ++checked;
        int got = gjk_exact_orient(p[0], p[1], p[2], p[3]);
        ENSURE(got == want);
        if (got != want && checked < 5) {
            printf("  it %d: got %d, want %d\n", it, got, want);
        }
        // The plain double determinant, for comparison.
        double u[3], v[3], w[3];
        for (int k = 0; k < 3; ++k) {
            u[k] = p[1][k] - p[0][k];
            v[k] = p[2][k] - p[0][k];
            w[k] = p[3][k] - p[0][k];
        }
        double dd = (u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] +
                    (u[0] * v[1] - u[1] * v[0]) * w[2];
        double_wrong += (dd > 0 ? 1 : (dd < 0 ? -1 : 0)) != want;
        // The cross product: exact up to its rounding to double.
        long double nx = (long double)u[1] * v[2] - (long double)u[2] * v[1];
        if (m <= 0x1p20) {
            ENSURE(n[0] == (double)nx);
        }
    }
    ENSURE(checked > 150000);
    printf("  %d orientations checked; a double determinant got %d of them wrong\n", checked, double_wrong);
}

/// The construction's cross product (gjk_grid_cross, Kahan's determinant by
/// fma) against the exact one rounded (gjk_exact_cross, 128-bit integers):
/// each within 2u of the exact component, so within 4u of each other, and
/// zero exactly together, on triangles fat and nearly collinear (c on the
/// line through a and b but for a small integer offset) up to the grid's
/// bounds.
static void test_grid_cross(void) {
    rng r = {78};
    const double M = GJK_GRID_MAX;
    const double a[3] = {-M, -M, -M}, b[3] = {M, -M, -M}, c[3] = {-M, M, -M};
    double n[3];
    gjk_grid_cross(a, b, c, n);
    ENSURE(n[0] == 0 && n[1] == 0 && n[2] == 0x1p102);
    int zeros = 0, worst_units = 0;
    double worst = 0;
    for (int it = 0; it < 200000; ++it) {
        double p[3][3];
        double m = it % 2 == 0 ? M : (it % 4 == 1 ? 0x1p26 : 1000);
        for (int i = 0; i < 2; ++i) {
            for (int k = 0; k < 3; ++k) {
                p[i][k] = rint(rng_range(&r, -m, m));
            }
        }
        // c = a + t (b − a) + e, t a small integer (the grid's points stay
        // within the bounds when a and b lie within half of them).
        int t = rng_int(&r, 3) - 1, emax = it % 3 == 0 ? 0 : (it % 3 == 1 ? 1 : 1 << 20);
        for (int k = 0; k < 3; ++k) {
            double e = emax == 0 ? 0 : (double)(rng_int(&r, 2 * emax + 1) - emax);
            double ck = p[0][k] + t * (p[1][k] - p[0][k]) + e;
            p[2][k] = fmin(fmax(ck, -M), M);
        }
        double g[3], x[3];
        gjk_grid_cross(p[0], p[1], p[2], g);
        gjk_exact_cross(p[0], p[1], p[2], x);
        for (int k = 0; k < 3; ++k) {
            ENSURE((g[k] == 0) == (x[k] == 0));
            zeros += x[k] == 0;
            double off = fabs(g[k] - x[k]);
            ENSURE(off <= 4 * 0x1p-53 * fabs(x[k]));
            if (x[k] != 0) {
                worst = fmax(worst, off / fabs(x[k]));
            }
            worst_units += g[k] != x[k];
        }
    }
    ENSURE(zeros > 10000);
    printf("  %d zero components; %d differ from the exact rounding, by at most %.2g of themselves\n", zeros,
           worst_units, worst);
}

/// Clouds with many coplanar points, which the construction failed on when
/// its visibility tests were rounded (GJK_HULL_FAILED: 12 in 100 spheres
/// cut by planes in double, 15 in 100 turned box grids in float): every one
/// builds, passes the structural checks, and has libqhull's vertices.
static void test_coplanar_clouds(void) {
    rng r = {2024};
    enum { MAXN = 1500 };
    static gjk_vec3 pts[MAXN];
    for (int trial = 0; trial < 24; ++trial) {
        int n = 0;
        double scale = pow(10, rng_range(&r, -2, 2));
        gjk_quat q = rng_rotation(&r);
        if (trial % 2 == 0) {
            // A sphere cut by 1 to 5 planes: points pushed onto the planes
            // they lie beyond, several times over (corners of two cuts).
            int nc = 1 + rng_int(&r, 5);
            gjk_vec3 cn[5];
            double co[5];
            for (int k = 0; k < nc; ++k) {
                cn[k] = gjk_normalize(rng_cube(&r));
                co[k] = rng_range(&r, 0.3, 0.95);
            }
            n = 300 + rng_int(&r, MAXN - 300);
            for (int i = 0; i < n; ++i) {
                gjk_vec3 p = gjk_normalize(rng_cube(&r));
                for (int pass = 0; pass < 6; ++pass) {
                    for (int k = 0; k < nc; ++k) {
                        gjk_real h = gjk_dot(p, cn[k]) - (gjk_real)co[k];
                        if (h > 0) {
                            p = gjk_sub(p, gjk_scale(h, cn[k]));
                        }
                    }
                }
                pts[i] = gjk_scale((gjk_real)scale, p);
            }
        } else {
            // A box of random proportions sampled on a g × g grid over
            // each face, turned.
            int g = 4 + rng_int(&r, 12);
            gjk_vec3 he = gjk_v3((gjk_real)rng_range(&r, 0.1, 2), (gjk_real)rng_range(&r, 0.1, 2),
                                 (gjk_real)rng_range(&r, 0.1, 2));
            for (int i = 0; i <= g; ++i) {
                for (int j = 0; j <= g; ++j) {
                    gjk_real a = (gjk_real)(-1 + 2.0 * i / g), b = (gjk_real)(-1 + 2.0 * j / g);
                    const gjk_vec3 f[6] = {{1, a, b}, {-1, a, b}, {a, 1, b}, {a, -1, b}, {a, b, 1}, {a, b, -1}};
                    for (int k = 0; k < 6 && n < MAXN; ++k) {
                        pts[n++] = gjk_quat_rotate(q, gjk_v3(f[k].x * he.x, f[k].y * he.y, f[k].z * he.z));
                    }
                }
            }
            for (int i = 0; i < n; ++i) {
                pts[i] = gjk_scale((gjk_real)scale, pts[i]);
            }
        }
        gjk_hull_error err = GJK_HULL_OK;
        gjk_hull *h = gjk_hull_create(pts, n, &err);
        ENSURE(h != NULL);
        if (h == NULL) {
            printf("  trial %d: n = %d, error %d\n", trial, n, (int)err);
            continue;
        }
        double size = 4 * scale;
        check_hull(h, pts, n, size);
        check_against_qhull(h, pts, n, size);
        gjk_hull_destroy(h);
    }
}

/// Thin slabs, 1e-12 to 1e-10 of their size thick (points on both faces of
/// a turned square, a third between): the faces of the construction's
/// first tetrahedron lie nearly in the slab's plane, and points far beyond
/// their edges came out within the construction's tolerance of every
/// plane and were dropped (a review's finding: vertices up to 0.13 of the
/// size beyond the hull). Every direction's support among the hull's
/// vertices must be the cloud's.
static void test_thin_slab(void) {
    rng r = {1012};
    enum { N = 300 };
    static gjk_vec3 pts[N];
    double worst = 0;
    for (int trial = 0; trial < 30; ++trial) {
        double th = pow(10, rng_range(&r, -12, -10));
        gjk_quat q = rng_rotation(&r);
        for (int i = 0; i < N; ++i) {
            double z = i % 3 == 0 ? rng_range(&r, -th, th) : (i % 3 == 1 ? th : -th);
            pts[i] = gjk_quat_rotate(q, gjk_v3((gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1), (gjk_real)z));
        }
        gjk_hull *h = gjk_hull_create(pts, N, NULL);
        ENSURE(h != NULL);
        if (h == NULL) {
            continue;
        }
        for (int k = 0; k < 200; ++k) {
            gjk_vec3 d = gjk_normalize(rng_cube(&r));
            double want = -1e300, got = -1e300;
            for (int i = 0; i < N; ++i) {
                want = fmax(want, gjk_dot(pts[i], d));
            }
            for (int v = 0; v < h->vertex_count; ++v) {
                got = fmax(got, gjk_dot(h->vertices[v], d));
            }
            worst = fmax(worst, want - got);
        }
        gjk_hull_destroy(h);
    }
    ENSURE(worst <= HULL_TOL);
    printf("  support of the hull's vertices within %.2g of the cloud's\n", worst);
}

/// A sphere whose centre lies near the axis of a cylinder hull (252 rim
/// points a cap, so 252 side strips nearly as near each other): EPA must
/// refine all the strips before it can decide, and 41 of 2500 such queries
/// on cylinder hulls ended not converged, up to 3e-5 of the size off.
/// The hull's faces now answer (point_shape.c): converged, the depth
/// libqhull's (the nearest facet plane of the hull), either way round.
static void test_sphere_near_cylinder_hull_axis(void) {
    enum { RIM = 252 };
    static gjk_vec3 pts[2 * RIM];
    static double dpts[6 * RIM];
    for (int i = 0; i < RIM; ++i) {
        double t = 2 * 3.14159265358979323846 * i / RIM;
        for (int k = 0; k < 2; ++k) {
            pts[2 * i + k] = gjk_v3((gjk_real)(1.5 * cos(t)), (gjk_real)(1.5 * sin(t)), (gjk_real)(k ? 2 : -2));
        }
    }
    for (int i = 0; i < 2 * RIM; ++i) {
        dpts[3 * i] = pts[i].x;
        dpts[3 * i + 1] = pts[i].y;
        dpts[3 * i + 2] = pts[i].z;
    }
    gjk_hull *h = gjk_hull_create(pts, 2 * RIM, NULL);
    hull ref;
    ENSURE(h != NULL);
    if (h == NULL || hull_build(&ref, dpts, 2 * RIM) != 0) {
        gjk_hull_destroy(h);
        return;
    }
    gjk_shape cyl = gjk_make_hull(h);
    rng r = {252};
    int not_converged = 0;
    double worst = 0;
    for (int q = 0; q < 200; ++q) {
        double e = pow(10, rng_range(&r, -7, -1));
        d3 c = {e * rng_range(&r, -1, 1), e * rng_range(&r, -1, 1), rng_range(&r, -1, 1)};
        gjk_shape ball = gjk_make_sphere((gjk_real)rng_range(&r, 0, 0.5));
        double want = hull_sdist(&ref, c) - ball.sphere.radius;
        for (int swap = 0; swap < 2; ++swap) {
            gjk_query_input in;
            memset(&in, 0, sizeof in);
            gjk_transform tc = gjk_transform_make(gjk_v3((gjk_real)c.x, (gjk_real)c.y, (gjk_real)c.z), gjk_quat_identity());
            in.shape_a = swap ? &ball : &cyl;
            in.shape_b = swap ? &cyl : &ball;
            in.transform_a = swap ? tc : gjk_transform_identity();
            in.transform_b = swap ? gjk_transform_identity() : tc;
            gjk_penetration_output o = gjk_penetration(&in, NULL);
            not_converged += o.status == GJK_NOT_CONVERGED;
            ENSURE(o.status == GJK_PENETRATING);
            worst = fmax(worst, fabs(o.signed_distance - want));
            // Moving B by the depth along the normal leaves the centre on
            // the nearest face's plane plus the radius: a separating motion.
            gjk_vec3 moved = gjk_v3((gjk_real)c.x, (gjk_real)c.y, (gjk_real)c.z);
            moved = gjk_add(moved, gjk_scale((swap ? 1 : -1) * o.signed_distance, o.normal));
            d3 m = {moved.x, moved.y, moved.z};
            ENSURE_NEAR(hull_sdist(&ref, m), ball.sphere.radius, HULL_TOL * 4);
        }
    }
    ENSURE(worst <= HULL_TOL * 4);
    printf("  %d not converged; signed distance within %.2g of libqhull's\n", not_converged, worst);
    hull_free(&ref);
    gjk_hull_destroy(h);
}

/// Hill climbing finds a support point as far along d as the linear scan,
/// from any start vertex (the hint), for hulls above the climbing threshold.
static void test_support_matches_scan(void) {
    rng r = {7};
    enum { N = 2048 };
    static gjk_vec3 pts[N];
    for (int i = 0; i < N; ++i) {
        gjk_vec3 p = gjk_normalize(rng_cube(&r));
        pts[i] = gjk_v3(3 * p.x, p.y, (gjk_real)0.5 * p.z);
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL);
    if (h == NULL) {
        return;
    }
    ENSURE(h->vertex_count == N); // points on an ellipsoid are all extreme
    gjk_shape climb = gjk_make_hull(h);
    gjk_shape scan = gjk_make_polytope(pts, N);
    ENSURE(gjk_shape_validate(&climb) == GJK_SEPARATED);
    for (int k = 0; k < 2000; ++k) {
        gjk_vec3 d = rng_cube(&r);
        gjk_vec3 a = gjk_shape_support(&climb, d), b = gjk_shape_support(&scan, d);
        ENSURE_NEAR(gjk_dot(a, d), gjk_dot(b, d), HULL_TOL * 3);
    }
    // The hinted climb, from every kind of hint and in both orders (the
    // start sample first, cold; the hint first, warm): as far along d as
    // the scan, the hint receives the answer's index, and a hint that is
    // the answer already is returned as it is.
    for (int k = 0; k < 2000; ++k) {
        gjk_vec3 d = rng_cube(&r);
        gjk_real far = gjk_dot(gjk_shape_support(&scan, d), d);
        int start = k % 7 == 0 ? -1 : (k % 7 == 1 ? N + 3 : (int)rng_range(&r, 0, N - 1));
        for (int order = 0; order < 2; ++order) {
            int hint = start;
            gjk_vec3 a = gjk_support_hull(h, d, &hint, order == 1);
            ENSURE_NEAR(gjk_dot(a, d), far, HULL_TOL * 3);
            ENSURE(hint >= 0 && hint < N && h->vertices[hint].x == a.x && h->vertices[hint].y == a.y);
            int again = hint;
            gjk_vec3 b = gjk_support_hull(h, d, &again, order == 1);
            ENSURE(again == hint && b.x == a.x && b.y == a.y && b.z == a.z);
        }
    }
    // Two climbs interleaved (gjk_support_hull_pair) end where the two
    // climbs alone do, hints and orders as above, on this hull and a
    // second one (a sphere's points, another vertex graph).
    gjk_vec3 round_pts[500];
    for (int i = 0; i < 500; ++i) {
        round_pts[i] = gjk_normalize(rng_cube(&r));
    }
    gjk_hull *g = gjk_hull_create(round_pts, 500, NULL);
    ENSURE(g != NULL && g->vertex_count >= GJK_HULL_CLIMB_MIN);
    for (int k = 0; g != NULL && k < 2000; ++k) {
        gjk_vec3 da = rng_cube(&r), db = rng_cube(&r);
        int start_a = k % 5 == 0 ? -1 : (int)rng_range(&r, 0, N - 1);
        int start_b = k % 7 == 0 ? -1 : (int)rng_range(&r, 0, g->vertex_count - 1);
        for (int order = 0; order < 2; ++order) {
            int ha = start_a, hb = start_b, alone_a = start_a, alone_b = start_b;
            gjk_support_hull_pair(h, da, &ha, g, db, &hb, order == 1);
            gjk_support_hull(h, da, &alone_a, order == 1);
            gjk_support_hull(g, db, &alone_b, order == 1);
            ENSURE(ha == alone_a && hb == alone_b);
        }
    }
    gjk_hull_destroy(g);
    // A shape that claims a hull whose vertices it does not hold is invalid.
    gjk_shape forged = climb;
    forged.polytope.count = 5;
    ENSURE(gjk_shape_validate(&forged) == GJK_INVALID_INPUT);
    gjk_hull_destroy(h);
}

/// Hill climbing on a cylinder of random points on its two rims: from
/// random hints, in both orders, as far along d as the scan. The adjacency
/// came from the merged polygon faces before, and in float (merging within
/// 4e-6 of the size) a rim point that the rounding put nearly on the chord
/// of its neighbours was a polygon corner with only those two neighbours,
/// no edge across the side: a climb along a d square to that chord stopped
/// there, up to the height short (fuzz/findings f54; with this cloud, 19
/// of 40,000 climbs in float). The triangles' edges are the adjacency now.
static void test_climb_on_rims(void) {
    rng r = {16};
    enum { N = 800 };
    static gjk_vec3 pts[N];
    for (int i = 0; i < N; ++i) {
        double t = rng_range(&r, 0, 6.283185307179586);
        pts[i] = gjk_v3((gjk_real)cos(t), (gjk_real)sin(t), (gjk_real)(i % 2 ? 0.5 : -0.5));
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL && h->vertex_count >= GJK_HULL_CLIMB_MIN);
    if (h == NULL) {
        return;
    }
    int short_climbs = 0;
    for (int k = 0; k < 20000; ++k) {
        gjk_vec3 d = gjk_normalize(rng_cube(&r));
        gjk_real far = gjk_dot(h->vertices[0], d);
        for (int v = 1; v < h->vertex_count; ++v) {
            far = gjk_max(far, gjk_dot(h->vertices[v], d));
        }
        int start = (int)rng_range(&r, 0, h->vertex_count - 1);
        for (int order = 0; order < 2; ++order) {
            int hint = start;
            gjk_vec3 a = gjk_support_hull(h, d, &hint, order == 1);
            short_climbs += (double)(far - gjk_dot(a, d)) > HULL_TOL;
        }
    }
    ENSURE(short_climbs == 0);
    gjk_hull_destroy(h);
}

/// Review finding: the 27 points of the grid {−1, 0, 1}³, in one order,
/// built a hull of 10 vertices: two edge midpoints added before the corners
/// at their edge's ends stayed vertices, with straight corners in both their
/// faces (hull.h: the vertices are extreme points). Every order of the grid
/// tried must give the cube's 8 corners and 6 square faces.
static void test_grid_edge_points(void) {
    static const signed char order[27][3] = {
        {1, -1, 1}, {-1, -1, 0}, {1, 0, 0}, {0, 0, 1}, {1, 1, 0}, {-1, -1, -1}, {1, 1, -1}, {1, 0, -1}, {0, -1, 1},
        {0, 1, -1}, {-1, 0, -1}, {0, 1, 0}, {-1, 0, 0}, {1, -1, -1}, {0, 0, 0}, {0, 0, -1}, {1, 1, 1}, {-1, 1, 0},
        {0, 1, 1}, {-1, 1, 1}, {0, -1, -1}, {0, -1, 0}, {-1, 0, 1}, {1, -1, 0}, {-1, 1, -1}, {-1, -1, 1}, {1, 0, 1}};
    gjk_vec3 pts[27];
    rng r = {27};
    int bad = 0;
    for (int trial = 0; trial < 300; ++trial) {
        for (int i = 0; i < 27; ++i) {
            pts[i] = gjk_v3(order[i][0], order[i][1], order[i][2]);
        }
        for (int i = 26; trial > 0 && i > 0; --i) { // trial 0: the review's order
            int j = rng_int(&r, i + 1);
            gjk_vec3 t = pts[i];
            pts[i] = pts[j], pts[j] = t;
        }
        gjk_hull *h = gjk_hull_create(pts, 27, NULL);
        ENSURE(h != NULL);
        if (h == NULL) {
            return;
        }
        bool corners = h->vertex_count == 8 && h->face_count == 6;
        for (int v = 0; v < h->vertex_count; ++v) {
            corners = corners && fabs((double)h->vertices[v].x) == 1 && fabs((double)h->vertices[v].y) == 1 &&
                      fabs((double)h->vertices[v].z) == 1;
        }
        if (!corners && bad++ == 0) {
            fprintf(stderr, "  order %d: %d vertices, %d faces\n", trial, h->vertex_count, h->face_count);
        }
        gjk_hull_destroy(h);
    }
    ENSURE(bad == 0);
}

/// Review finding: a frustum whose rim and side edges are sampled at even
/// steps (then turned): a sample on a rim edge added before the edge's end
/// stayed a vertex, joined to its collinear neighbours by a triangle of
/// area 1e-22 (the hull's radius² is 1.7e-5), and along a direction square
/// to that edge the climb stopped there: the rising side lay beyond the
/// sliver, not joined to it. gjk_shape_support came out 0.9% of the radius
/// short (double). The points are the review's; the samples on the edges
/// are no longer vertices (check_hull).
static void test_climb_past_edge_samples(void) {
    static const double P[97][3] = {
        {0x1.bdde52d6bd493p-10,0x1.501c5a8ddc5b2p-9,0x1.15720e5bc1b56p-9},
        {0x1.1ae3eedeb2713p-9,0x1.706ace9b1086ap-9,0x1.0b19b22fa8fecp-9},
        {-0x1.5dd560d67187ap-9,-0x1.d051edc368d4dp-13,0x1.94d0a2896e049p-9},
        {-0x1.21e09b631dbafp-9,0x1.a4aa987ecf19p-16,0x1.8a78465d554ep-9},
        {-0x1.1df6f48a4fa13p-9,-0x1.16c1c4d276428p-10,0x1.ae567e417bd8cp-9},
        {0x1.818689f101a5ap-9,0x1.83c61647ba302p-10,0x1.3ce5974483f62p-9},
        {0x1.83eb8a72598b5p-9,0x1.7aee76ac77ee4p-10,0x1.3cf7cd72ef276p-9},
        {-0x1.0d33f100e859ep-9,-0x1.54a72211460fep-10,0x1.aed5f9866a311p-9},
        {-0x1.2a94cc3481816p-10,-0x1.a6daa3b8eac48p-11,0x1.9a25412e38c3fp-9},
        {0x1.b25db105fb483p-9,0x1.843c8745a611fp-11,0x1.29936c41822bep-9},
        {0x1.b47a31ec5077p-9,0x1.72d0e1947a10dp-11,0x1.28363d829650dp-9},
        {-0x1.487bc63fc5fafp-12,-0x1.5434a2e19bbp-10,0x1.799bf024702aap-9},
        {0x1.2e54cab5b0d41p-13,-0x1.1397bac73358ep-10,0x1.6f4393f857741p-9},
        {0x1.3b68487abb676p-11,-0x1.a5f5a55996041p-11,0x1.64eb37cc3ebd7p-9},
        {0x1.8f073facc3f1bp-11,-0x1.2efc019495fa8p-10,0x1.4e6b0358cebc1p-9},
        {0x1.3f6d2abd09923p-10,-0x1.dcbe32f45b473p-11,0x1.4412a72cb6057p-9},
        {0x1.5394e5b8802efp-9,-0x1.64430957a4f5bp-13,0x1.250992a86be1bp-9},
        {0x1.29c401d2beb42p-9,-0x1.86c3320107afp-11,0x1.11dd4cefa9da5p-9},
        {0x1.dda2522cba1ap-9,-0x1.8ae0b14ad29f2p-18,0x1.e5a870d6bf6d1p-10},
        {-0x1.690aae9525da9p-10,-0x1.67b7605ce8475p-9,0x1.615c8b5364665p-9},
        {-0x1.6651099a8c538p-10,-0x1.6b4a53cfed47p-9,0x1.5e18e856593d9p-9},
        {0x1.23b7dd9eefa0ep-11,-0x1.0a3b12a649975p-9,0x1.1756bcc091f44p-9},
        {0x1.81af049cc702ep-10,-0x1.933c5517c280dp-10,0x1.02a604686087p-9},
        {0x1.74b5d2a85ee77p-9,-0x1.a2cb399112f7ap-11,0x1.c739dfc82cc65p-10},
        {0x1.b0aa981bb2b3fp-9,-0x1.2191695c4249dp-11,0x1.b289276ffb593p-10},
        {0x1.87d9f8135368cp-13,-0x1.4d35c90decb02p-9,0x1.f04f44e19239bp-10},
        {0x1.f823cb1bd39b9p-9,-0x1.2b08a2912d516p-11,0x1.4ac9822006d03p-10},
        {-0x1.2fa9f42206d33p-10,-0x1.bb71b9a50f025p-9,0x1.0228ed85fab26p-9},
        {-0x1.2e3ede3885b74p-10,-0x1.be1b70ee902bfp-9,0x1.fbe85745eb924p-10},
        {0x1.b027b7fc8f0e3p-10,-0x1.20def7b09a32fp-9,0x1.e355dc8517854p-11},
        {0x1.1408a1719b53ap-9,-0x1.009083a366077p-9,0x1.b9f46bd4b4ab1p-11},
        {0x1.c7e6f1cb96b97p-9,-0x1.3f4a4ef7930a2p-10,0x1.3dd019c38c1bdp-11},
        {0x1.01eddb9f75431p-8,-0x1.fd5acdba55663p-11,0x1.146ea91329417p-11},
        {-0x1.1f585301a6657p-10,-0x1.e749b44bb47a8p-9,0x1.510fd44b4f599p-10},
        {-0x1.1f5a9633be592p-10,-0x1.e8d06064ff90cp-9,0x1.477ab0488306fp-10},
        {-0x1.4f01c3577cd7bp-11,-0x1.d330a108d9011p-9,0x1.df6bf7b976abep-11},
        {0x1.8be5bac4bf2f2p-9,-0x1.a17a013e6f4a9p-10,0x1.28c0e46cbfb1bp-12},
        {0x1.c7da803812fbbp-9,-0x1.60dd192406f3cp-10,0x1.abfc0617f3f9p-13},
        {0x1.01e7a2d5b3642p-8,-0x1.204031099e9cbp-10,0x1.0676435668902p-13},
        {-0x1.27719253d5af1p-10,-0x1.fd6c9d338468ap-9,0x1.2fbc8205e4e1bp-11},
        {-0x1.5f100eda5c2bbp-11,-0x1.dd1e2926503d4p-9,0x1.065b115582076p-11},
        {0x1.fa0e0609c749fp-9,-0x1.38434156f6103p-10,-0x1.367f39be03b26p-11},
        {0x1.f9565071aa54dp-9,-0x1.38c84159432f9p-10,-0x1.4a60b643f8d7fp-11},
        {0x1.f89e9ad98d5f9p-9,-0x1.394d415b904efp-10,-0x1.5e4232c9edff1p-11},
        {-0x1.373b2d6652c0dp-10,-0x1.00240ea0164acp-8,0x1.5430a11170f7p-13},
        {0x1.983e14019ad68p-10,-0x1.3e7164f0f390ap-9,-0x1.4678f7bbe9c21p-12},
        {0x1.ee681bbd0ae2bp-9,-0x1.32d3dfba146aap-10,-0x1.114a5b798fc44p-10},
        {0x1.94b86b4abdbbdp-14,-0x1.9b16a1df23743p-9,-0x1.fd7d82b6d6ec8p-12},
        {0x1.386d9e9af8ecfp-9,-0x1.f31cbb3a3d35dp-10,-0x1.cda5f4cd59ba4p-11},
        {0x1.b0572981a0864p-9,-0x1.71e2eb056c87fp-10,-0x1.10346b170fb77p-10},
        {0x1.ec4beef4f452fp-9,-0x1.314602eb0430fp-10,-0x1.24e5236f4124fp-10},
        {-0x1.56a95b38b6fb9p-10,-0x1.f8ec0ee955963p-9,-0x1.76ab86404a6d1p-12},
        {-0x1.5966c64bdaffbp-10,-0x1.f7e4bf34dccb4p-9,-0x1.9c7dbe2436a25p-12},
        {-0x1.5ee19c7223076p-10,-0x1.f5d61fcbeb358p-9,-0x1.e8222dec0f0c7p-12},
        {-0x1.3604c77813ca8p-16,-0x1.8fc6351df2bccp-9,-0x1.cec2f4c0fe9a8p-11},
        {0x1.dd3a220bae3d6p-9,-0x1.1aa52968a2c2p-10,-0x1.8ce73d220ab74p-10},
        {0x1.3a928a418ddb9p-12,-0x1.5d5ac23d9a7fcp-9,-0x1.5e0b9d211d46dp-10},
        {0x1.8d1c5aee16201p-11,-0x1.3d0c4e3066544p-9,-0x1.72bc55794eb41p-10},
        {0x1.b9dbfe68ff0edp-9,-0x1.9c91bfedd53e3p-11,-0x1.1c324daee85c8p-9},
        {0x1.b7f4064bd4b1fp-9,-0x1.93a692a42e219p-11,-0x1.2047db3aa6385p-9},
        {-0x1.baf0db8bdeebcp-10,-0x1.c60dd5e7df9f8p-9,-0x1.6522e5c2a8774p-10},
        {-0x1.430750a537529p-10,-0x1.a5bf61daab74p-9,-0x1.79d39e1ad9e47p-10},
        {-0x1.3e5a96f3fa5efp-9,-0x1.38074c8f87feap-9,-0x1.2889b0ee404c4p-9},
        {-0x1.40d0cf904e9f9p-9,-0x1.340cb77e2faf3p-9,-0x1.2a614c1718b5ap-9},
        {0x1.6179000e44aefp-9,0x1.772c6aafc5263p-13,-0x1.911f9f071615ep-9},
        {0x1.52b3ac644b2b5p-9,0x1.7a92289871782p-12,-0x1.9c2d41fc288e5p-9},
        {-0x1.4347082ca2e03p-9,-0x1.3012226cd75fbp-9,-0x1.2c38e73ff11f1p-9},
        {-0x1.075242b94f138p-9,-0x1.0fc3ae5fa3343p-9,-0x1.3691436c09d5ap-9},
        {-0x1.cd2a91ee7914bp-10,-0x1.81fe7aa7c0f71p-10,-0x1.4d90c5381c9efp-9},
        {-0x1.55410707d17b7p-10,-0x1.4161928d58a01p-10,-0x1.57e9216435559p-9},
        {0x1.27b99ac25504p-14,-0x1.fe2b68f87e6d2p-12,-0x1.76f235e87f796p-9},
        {0x1.f221c546c3b53p-10,0x1.05d18c5703813p-11,-0x1.a053a698e253cp-9},
        {0x1.3505a816b5a74p-9,0x1.870b5c8bd42edp-11,-0x1.aaac02c4fb0a6p-9},
        {-0x1.12e4ca273769cp-10,-0x1.40e10ba093ea1p-11,-0x1.670714a39f9f7p-9},
        {0x1.1a3f0113aee38p-9,0x1.23d9d2e8906b9p-10,-0x1.af7199d84c9dcp-9},
        {-0x1.9308e4e2d03e2p-9,-0x1.41356d81dab18p-10,-0x1.3a6fa33dd25ccp-9},
        {-0x1.57141f6f7c716p-9,-0x1.00988567725a7p-10,-0x1.44c7ff69eb135p-9},
        {-0x1.c08f967c44c81p-9,0x1.e9b3c5c7a0129p-11,-0x1.3246a651b5527p-10},
        {-0x1.a179015deb2b7p-10,0x1.f74d834d7164fp-10,-0x1.850987b27b073p-10},
        {-0x1.ad38f3bcb9a08p-10,0x1.160307ae5e8c5p-9,-0x1.247e8223fb8a8p-10},
        {-0x1.354f68d612075p-10,0x1.36517bbb92b7cp-9,-0x1.392f3a7c2cf7cp-10},
        {-0x1.15f14c230b52bp-12,0x1.76ee63d5fb0ecp-9,-0x1.6290ab2c8fd21p-10},
        {-0x1.01b998c8beb2dp-8,0x1.fdc0b1678081bp-11,-0x1.09b968dc5a609p-11},
        {-0x1.01d02b279e7f5p-8,0x1.02877bad97baap-10,-0x1.edfeaf102544ep-12},
        {0x1.1e5f255cbcd01p-10,0x1.ebf1005bb8af4p-9,-0x1.39a374e59987fp-10},
        {-0x1.0125c17b87197p-8,0x1.2bed3fd25dbc7p-10,0x1.536366b0a2da5p-14},
        {-0x1.8a61f8106699ap-9,0x1.ad2710072e6a5p-10,-0x1.42b3a4558acaap-14},
        {-0x1.ad074f6cd667ap-10,0x1.377ee42b33b7ap-9,-0x1.48f58d37b3d17p-12},
        {-0x1.351dc4862ece5p-10,0x1.57cd583867e32p-9,-0x1.9bb86e9879867p-12},
        {-0x1.00e04a082bfefp-8,0x1.2d1797f33f329p-10,0x1.f244b97309233p-14},
        {-0x1.a116c7992dda6p-10,0x1.3de7c8e00bc0bp-9,0x1.afd8597b95ee8p-14},
        {-0x1.292d3cb286411p-10,0x1.5e363ced3fec3p-9,0x1.93334fe1fc6d2p-16},
        {-0x1.62876397bd4fep-11,0x1.7e84b0fa7417bp-9,-0x1.cc7d63152f6e6p-15},
        {0x1.2e6279cebfbd2p-10,0x1.ffbe812f44c58p-9,-0x1.849b31e5bcc19p-12},
        {0x1.41ef97d06abbp-10,0x1.ff08b5713f8fap-9,0x1.7729561a27005p-15},
        {-0x1.e79ba16e3b269p-9,0x1.2a89b7d78ca2cp-10,0x1.46354e8b8bb18p-10},
        {-0x1.e66466eae13b4p-9,0x1.291df884d4c65p-10,0x1.4fdcdf70f2397p-10},
    };
    gjk_vec3 pts[97];
    for (int i = 0; i < 97; ++i) {
        pts[i] = gjk_v3((gjk_real)P[i][0], (gjk_real)P[i][1], (gjk_real)P[i][2]);
    }
    gjk_hull *h = gjk_hull_create(pts, 97, NULL);
    ENSURE(h != NULL);
    if (h == NULL) {
        return;
    }
    check_hull(h, pts, 97, (double)h->radius);
    // The review's direction, then directions square to random chords of
    // the cloud (among them the sampled rims' edges), each climbed from a
    // random vertex (the hull has fewer vertices than GJK_HULL_CLIMB_MIN
    // once the samples on its edges are gone, and queries would scan it).
    int short_supports = 0;
    double worst = 0;
    rng r = {97};
    for (int k = -1; k < 4000; ++k) {
        gjk_vec3 d = gjk_v3((gjk_real)0x1.cd264dd028796p-2, (gjk_real)-0x1.b8bc5cd8ac4b6p-1, (gjk_real)-0x1.405552047095p-4);
        if (k >= 0) {
            gjk_vec3 e = gjk_sub(pts[rng_int(&r, 97)], pts[rng_int(&r, 97)]);
            if (!(gjk_length(e) > 0)) {
                continue;
            }
            d = gjk_normalize(gjk_cross(e, rng_cube(&r)));
        }
        double far = -1e300;
        for (int i = 0; i < 97; ++i) {
            far = fmax(far, (double)gjk_dot(pts[i], d));
        }
        int hint = rng_int(&r, h->vertex_count);
        double gap = far - (double)gjk_dot(gjk_support_hull(h, d, &hint, k % 2 == 0), d);
        worst = fmax(worst, gap);
        short_supports += gap > HULL_TOL * (double)h->radius;
    }
    if (short_supports != 0) {
        fprintf(stderr, "  %d supports short, by up to %.3g of the radius\n", short_supports, worst / (double)h->radius);
    }
    ENSURE(short_supports == 0);
    gjk_hull_destroy(h);
}

/// Review of the edge points' removal: in its first form a vertex went
/// when it lay within the input's resolution of its neighbours' chord
/// (4e-6 of the size in float, or 4 units in the last place of the
/// coordinates, which far from the origin is more), and on a curve the
/// points went in chains: a float sphere of 1000 points 3e3 from its
/// origin kept 888 and fell short of its points by 2.8 resolutions. Every
/// input point must lie within the resolution of the hull's vertices along
/// every direction (a check of the vertices, which the face planes, fitted
/// to what is left, do not make).
static void test_curved_points_kept(void) {
    enum { N = 1000 };
    static gjk_vec3 pts[N];
    rng r = {9};
    const double off = 3e3;
    for (int i = 0; i < N; ++i) {
        gjk_vec3 u = gjk_normalize(rng_cube(&r));
        pts[i] = gjk_v3((gjk_real)(off + (double)u.x), (gjk_real)(off + (double)u.y), (gjk_real)(off + (double)u.z));
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL);
    if (h == NULL) {
        return;
    }
    // The resolution as gjk_hull_create takes it: its relative tolerance of
    // the size (here the sum of the half extents, about 3), at least 4 units
    // in the last place of the largest coordinates (their sum, about 9e3).
    double eps = fmax((GJK_USE_FLOAT ? 4e-6 : 1e-12) * 3, 4 * (double)GJK_REAL_EPSILON * 3 * (off + 1));
    double worst = 0;
    for (int k = 0; k < 4000; ++k) {
        gjk_vec3 d = gjk_normalize(rng_cube(&r));
        worst = fmax(worst, reach_beyond(h, pts, N, d, off) / eps);
    }
    if (!(worst <= 1)) {
        fprintf(stderr, "  %d of %d points kept, the rest up to %.3g resolutions outside\n", h->vertex_count, N, worst);
    }
    ENSURE(worst <= 1);
    gjk_hull_destroy(h);
}

/// Hill climbing across a flat cap along a d nearly normal to it: from a
/// rim vertex, each step along the rim gains d's tilt times the spacing
/// (here down to 1e-9), which v·d computed per vertex (rounded to ε|v||d|)
/// does not see in float, where the climb stopped on the rim as if on top,
/// up to the tilt times the cap's width short (review: 4.4e-4 on a float
/// hull of 10,355 points; here 752 of 8000 climbs, up to 1.2e-4). The
/// answer must be as far along d as the farthest vertex within the rounding
/// of one dot product.
static void test_climb_on_flat_cap(void) {
    rng r = {17};
    enum { N = 4000 };
    static gjk_vec3 pts[N];
    for (int i = 0; i < N; ++i) {
        double t = 6.283185307179586 * (i / 2) / (N / 2);
        pts[i] = gjk_v3((gjk_real)cos(t), (gjk_real)sin(t), (gjk_real)(i % 2 ? 0.5 : -0.5));
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL && h->vertex_count == N);
    if (h == NULL) {
        return;
    }
    int short_climbs = 0;
    double worst = 0;
    for (int k = 0; k < 4000; ++k) {
        double tilt = pow(10, rng_range(&r, -6, -4)), az = rng_range(&r, 0, 6.283185307179586);
        double up = k % 2 ? 1 : -1;
        gjk_vec3 d = gjk_v3((gjk_real)(tilt * cos(az)), (gjk_real)(tilt * sin(az)), (gjk_real)up);
        double far = -1e300;
        for (int v = 0; v < h->vertex_count; ++v) {
            gjk_vec3 p = h->vertices[v];
            far = fmax(far, (double)p.x * d.x + (double)p.y * d.y + (double)p.z * d.z);
        }
        int start = (int)rng_range(&r, 0, h->vertex_count - 1);
        for (int order = 0; order < 2; ++order) {
            int hint = start;
            gjk_vec3 a = gjk_support_hull(h, d, &hint, order == 1);
            double gap = far - ((double)a.x * d.x + (double)a.y * d.y + (double)a.z * d.z);
            worst = fmax(worst, gap);
            short_climbs += gap > 4 * GJK_REAL_EPSILON;
        }
    }
    if (short_climbs != 0) {
        printf("  climbs short of the flat cap's support: %d of 8000, worst %.3g\n", short_climbs, worst);
    }
    ENSURE(short_climbs == 0);
    gjk_hull_destroy(h);
}

enum { GRID = 12 };

/// A box of half extents (1.5, 0.75, 0.4) sampled on a GRID × GRID grid over
/// each face, turned by q (normalised here): 6 (GRID + 1)² points into pts.
static int grid_box(gjk_quat q, gjk_vec3 *pts) {
    q = gjk_quat_normalize(q);
    int n = 0;
    for (int i = 0; i <= GRID; ++i) {
        for (int j = 0; j <= GRID; ++j) {
            for (int f = 0; f < 6; ++f) {
                double a = -1 + 2.0 * i / GRID, b = -1 + 2.0 * j / GRID, s = f % 2 ? 1 : -1;
                double c[3] = {f < 2 ? s : a, f < 2 ? a : f < 4 ? s : b, f < 4 ? b : s};
                gjk_vec3 p = gjk_v3((gjk_real)(1.5 * c[0]), (gjk_real)(0.75 * c[1]), (gjk_real)(0.4 * c[2]));
                pts[n++] = gjk_quat_rotate(q, p);
            }
        }
    }
    return n;
}

/// Hill climbing along a face's normal from a vertex inside the opposite
/// face: a box sampled on a grid over its faces and turned, so that in float
/// the grid points, rounded off their faces, stay vertices of merged faces.
/// Every neighbour of such a vertex is level with it along d (within the
/// rounding), as on the top face, and the warm order (the hint's neighbours
/// first) answered the hint itself, the whole box short (review: 28 of 2400
/// climbs on such hulls, up to 0.88 of the size). Every face normal, from
/// every vertex, both orders, within 8ε of the farthest vertex.
static void test_climb_from_opposite_face(void) {
    static gjk_vec3 pts[6 * (GRID + 1) * (GRID + 1)];
    int n = grid_box(gjk_quat_make((gjk_real)0.8, (gjk_real)0.4, (gjk_real)-0.5, (gjk_real)0.2), pts);
    gjk_hull *h = gjk_hull_create(pts, n, NULL);
    ENSURE(h != NULL);
    if (h == NULL) {
        return;
    }
    // Turned the other way, quickhull left edges 2e-8 concave beside sliver
    // faces in float, below the points' own rounding, and the hull failed
    // (GJK_HULL_FAILED); its convexity check allows that rounding now.
    static gjk_vec3 other[6 * (GRID + 1) * (GRID + 1)];
    int n2 = grid_box(gjk_quat_make((gjk_real)0.8, (gjk_real)0.3, (gjk_real)-0.5, (gjk_real)0.2), other);
    gjk_hull *h2 = gjk_hull_create(other, n2, NULL);
    ENSURE(h2 != NULL);
    gjk_hull_destroy(h2);
    int short_climbs = 0;
    double worst = 0;
    for (int f = 0; f < h->face_count; ++f) {
        gjk_vec3 d = h->face_normals[f];
        double far = -1e300;
        for (int v = 0; v < h->vertex_count; ++v) {
            far = fmax(far, (double)h->vertices[v].x * d.x + (double)h->vertices[v].y * d.y + (double)h->vertices[v].z * d.z);
        }
        for (int start = 0; start < h->vertex_count; ++start) {
            for (int order = 0; order < 2; ++order) {
                int hint = start;
                gjk_vec3 a = gjk_support_hull(h, d, &hint, order == 1);
                double gap = far - ((double)a.x * d.x + (double)a.y * d.y + (double)a.z * d.z);
                worst = fmax(worst, gap);
                short_climbs += gap > 8 * GJK_REAL_EPSILON * 1.5;
            }
        }
    }
    if (short_climbs != 0) {
        printf("  %d vertices, %d faces: %d climbs short, worst %.3g\n", h->vertex_count, h->face_count, short_climbs,
               worst);
    }
    ENSURE(short_climbs == 0);
    gjk_hull_destroy(h);
}

/// Small hulls are scanned (vectorised where the machine allows): the
/// support point equals the plain linear scan's exactly, for both scan
/// Edge directions (gjk_hull.edge_directions, the separating axes of small
/// hulls): a box's three and a triangular prism's four, unit and along the
/// edges; none for a flat hull, a hull of more than
/// GJK_HULL_SAT_MAX_VERTICES vertices, or (double) a face merged from
/// triangles bent beyond rounding.
static void test_edge_directions(void) {
    gjk_vec3 box[8], prism[6];
    for (int k = 0; k < 8; ++k) {
        box[k] = gjk_v3(k & 1 ? 2 : -2, k & 2 ? 1 : -1, k & 4 ? (gjk_real)0.5 : (gjk_real)-0.5);
    }
    for (int k = 0; k < 3; ++k) {
        gjk_real a = (gjk_real)(2.0943951023931957 * k);
        prism[2 * k] = gjk_v3((gjk_real)cos((double)a), (gjk_real)sin((double)a), 1);
        prism[2 * k + 1] = gjk_v3((gjk_real)cos((double)a), (gjk_real)sin((double)a), -1);
    }
    gjk_hull *hb = gjk_hull_create(box, 8, NULL), *hp = gjk_hull_create(prism, 6, NULL);
    ENSURE(hb != NULL && hp != NULL);
    if (hb != NULL && hp != NULL) {
        ENSURE(hb->edge_direction_count == 3 && hp->edge_direction_count == 4);
        int along[3] = {0, 0, 0};
        for (int j = 0; j < hb->edge_direction_count; ++j) {
            gjk_vec3 d = hb->edge_directions[j];
            ENSURE_NEAR(gjk_length(d), 1, 1e-6);
            along[0] += gjk_abs(d.x) == 1, along[1] += gjk_abs(d.y) == 1, along[2] += gjk_abs(d.z) == 1;
        }
        ENSURE(along[0] == 1 && along[1] == 1 && along[2] == 1);
        int vertical = 0;
        for (int j = 0; j < hp->edge_direction_count; ++j) {
            vertical += gjk_abs(hp->edge_directions[j].z) == 1;
            ENSURE(gjk_abs(hp->edge_directions[j].z) == 1 || gjk_abs(hp->edge_directions[j].z) < 1e-6);
        }
        ENSURE(vertical == 1);
    }
    gjk_hull_destroy(hb);
    gjk_hull_destroy(hp);
    // Flat: a square.
    gjk_vec3 square[4] = {gjk_v3(0, 0, 0), gjk_v3(1, 0, 0), gjk_v3(1, 1, 0), gjk_v3(0, 1, 0)};
    gjk_hull *hf = gjk_hull_create(square, 4, NULL);
    ENSURE(hf != NULL && hf->flat && hf->edge_direction_count == 0 && hf->edge_directions == NULL);
    gjk_hull_destroy(hf);
    // More vertices than kept: a prism of 9 sides (18 vertices).
    gjk_vec3 nine[18];
    for (int k = 0; k < 9; ++k) {
        gjk_real a = (gjk_real)(0.69813170079773180 * k);
        nine[2 * k] = gjk_v3((gjk_real)cos((double)a), (gjk_real)sin((double)a), 1);
        nine[2 * k + 1] = gjk_v3((gjk_real)cos((double)a), (gjk_real)sin((double)a), -1);
    }
    gjk_hull *hn = gjk_hull_create(nine, 18, NULL);
    ENSURE(hn != NULL && hn->vertex_count == 18 && hn->edge_direction_count == 0);
    gjk_hull_destroy(hn);
#if !GJK_USE_FLOAT
    // Unit directions at the ends of the range: edges of 2^512 (whose
    // squares overflow: a zero direction once absorbed the others) and of
    // 2^-524 (whose squares are subnormal).
    for (int e = 0; e < 2; ++e) {
        gjk_vec3 scaled[8];
        for (int k = 0; k < 8; ++k) {
            scaled[k] = gjk_scale((gjk_real)ldexp(1, e == 0 ? 511 : -525), box[k]);
        }
        gjk_hull *hs = gjk_hull_create(scaled, 8, NULL);
        ENSURE(hs != NULL && hs->edge_direction_count == 3);
        for (int j = 0; hs != NULL && j < hs->edge_direction_count; ++j) {
            ENSURE(gjk_length(hs->edge_directions[j]) == 1);
        }
        gjk_hull_destroy(hs);
    }
    // A corner lifted 4e-13: the construction merges the top face (within
    // 1e-12 of the size), which is then bent beyond 64 units of rounding.
    gjk_vec3 bent[8];
    memcpy(bent, box, sizeof bent);
    bent[7].z += (gjk_real)4e-13;
    gjk_hull *hc = gjk_hull_create(bent, 8, NULL);
    ENSURE(hc != NULL && hc->face_count == 6 && hc->edge_direction_count == 0);
    gjk_hull_destroy(hc);
#endif
}

/// The template points of a small hull kind, scaled by s per axis: a
/// tetrahedron, an octahedron, a triangular prism, a hexagonal prism, a box
/// and a heptagonal prism (4, 6, 6, 12, 8 and 14 vertices; 6, 6, 4, 4, 3
/// and 8 edge directions: two heptagonal prisms fill the 64 edge axes).
static int small_hull_points(int kind, d3 s, gjk_vec3 *v) {
    int n = 0;
    if (kind == 0) {
        const double t[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
        for (int k = 0; k < 4; ++k) v[n++] = gjk_v3((gjk_real)(s.x * t[k][0]), (gjk_real)(s.y * t[k][1]), (gjk_real)(s.z * t[k][2]));
    } else if (kind == 1) {
        for (int k = 0; k < 6; ++k) {
            double c = k & 1 ? -1 : 1;
            v[n++] = gjk_v3((gjk_real)(k / 2 == 0 ? c * s.x : 0), (gjk_real)(k / 2 == 1 ? c * s.y : 0), (gjk_real)(k / 2 == 2 ? c * s.z : 0));
        }
    } else if (kind == 2 || kind == 3 || kind == 5) {
        int sides = kind == 2 ? 3 : kind == 3 ? 6 : 7;
        for (int k = 0; k < sides; ++k) {
            double a = 6.283185307179586 * k / sides;
            v[n++] = gjk_v3((gjk_real)(s.x * cos(a)), (gjk_real)(s.y * sin(a)), (gjk_real)s.z);
            v[n++] = gjk_v3((gjk_real)(s.x * cos(a)), (gjk_real)(s.y * sin(a)), (gjk_real)-s.z);
        }
    } else {
        for (int k = 0; k < 8; ++k) v[n++] = gjk_v3((gjk_real)(k & 1 ? s.x : -s.x), (gjk_real)(k & 2 ? s.y : -s.y), (gjk_real)(k & 4 ? s.z : -s.z));
    }
    return n;
}

/// Two small hulls (src/sat_hull.c: their separating axes answer
/// gjk_intersect and, once GJK finds the cores overlapping,
/// gjk_penetration's depth) against the exact reference: libqhull's hull of
/// the differences of their rotated vertices, less the margins. Each pair
/// is placed at a target signed distance along a random direction (the
/// offset bisected on the reference). Checks: the status against the
/// reference's sign beyond the tolerance, the depth, the unit normal, the
/// witness points depth·normal apart and on the rounded hulls; and (double)
/// that the axes answered most overlapping pairs without EPA, so that the
/// test fails if the path silently stopped being taken.
static void test_small_hulls_against_reference(void) {
    rng r = {0x5a7ULL};
    static const double targets[] = {-0.3, -0.1, -1e-3, -1e-6, 1e-6, 1e-3, 0.1};
    int checked = 0, overlapping = 0, by_axes = 0, failures = test_failures;
    for (int k = 0; k < 300 && test_failures == failures; ++k) {
        gjk_vec3 va[16], vb[16];
        int ka = rng_int(&r, 6), kb = rng_int(&r, 6);
        int na = small_hull_points(ka, rng_box(&r, 0.3, 1.5), va), nb = small_hull_points(kb, rng_box(&r, 0.3, 1.5), vb);
        gjk_real ma = rng_chance(&r, 0.5) ? 0 : (gjk_real)rng_range(&r, 0, 0.1);
        gjk_real mb = rng_chance(&r, 0.5) ? 0 : (gjk_real)rng_range(&r, 0, 0.1);
        gjk_quat qa = rng_quat(&r), qb = rng_quat(&r);
        d3 pa = rng_chance(&r, 0.3) ? rng_box(&r, -100, 100) : d3_make(0, 0, 0);
        gjk_hull *ha = gjk_hull_create(va, na, NULL), *hb = gjk_hull_create(vb, nb, NULL);
        ENSURE(ha != NULL && hb != NULL);
        if (ha == NULL || hb == NULL) {
            gjk_hull_destroy(ha);
            gjk_hull_destroy(hb);
            return;
        }
        ENSURE(ha->edge_direction_count > 0 && hb->edge_direction_count > 0);
        // The references: D0 (the rotated cores' differences), and each
        // hull where it lies, for the witness points.
        dmat Ra = dmat_of_quat(qa), Rb = dmat_of_quat(qb);
        double diff[3 * 256], wa[3 * 16], wb[3 * 16];
        for (int i = 0; i < na; ++i) {
            d3 x = dmat_mul(&Ra, d3_of(va[i]));
            for (int j = 0; j < nb; ++j) {
                d3 d = d3_sub(x, dmat_mul(&Rb, d3_of(vb[j])));
                diff[3 * (i * nb + j)] = d.x, diff[3 * (i * nb + j) + 1] = d.y, diff[3 * (i * nb + j) + 2] = d.z;
            }
        }
        hull D, HA, HB;
        ENSURE(hull_build(&D, diff, na * nb) == 0);
        double size = 0;
        for (int i = 0; i < na; ++i) size = fmax(size, d3_len(d3_of(va[i])) + (double)ma);
        for (int j = 0; j < nb; ++j) size = fmax(size, d3_len(d3_of(vb[j])) + (double)mb);
        double tol = 2 * TEST_REL_TOL * size;
        d3 u = d3_unit(rng_dir3(&r, 0.1));
        gjk_shape A = gjk_with_margin(gjk_make_hull(ha), ma), B = gjk_with_margin(gjk_make_hull(hb), mb);
        for (int ti = 0; ti < (int)(sizeof targets / sizeof targets[0]); ++ti) {
            double target = targets[ti] * size, lo = 0, hi = 8 * size + 1;
            for (int it = 0; it < 200; ++it) {
                double mid = 0.5 * (lo + hi);
                if (hull_sdist(&D, d3_scale(mid, u)) - (double)ma - (double)mb < target) lo = mid;
                else hi = mid;
            }
            gjk_transform ta = gjk_transform_make(to_real3(pa), qa);
            gjk_transform tb = gjk_transform_make(to_real3(d3_add(pa, d3_scale(0.5 * (lo + hi), u))), qb);
            d3 ca = d3_of(ta.position), cb = d3_of(tb.position);
            double ref = hull_sdist(&D, d3_sub(cb, ca)) - (double)ma - (double)mb;
            for (int i = 0; i < na; ++i) {
                d3 x = d3_add(dmat_mul(&Ra, d3_of(va[i])), ca);
                wa[3 * i] = x.x, wa[3 * i + 1] = x.y, wa[3 * i + 2] = x.z;
            }
            for (int j = 0; j < nb; ++j) {
                d3 x = d3_add(dmat_mul(&Rb, d3_of(vb[j])), cb);
                wb[3 * j] = x.x, wb[3 * j + 1] = x.y, wb[3 * j + 2] = x.z;
            }
            ENSURE(hull_build(&HA, wa, na) == 0 && hull_build(&HB, wb, nb) == 0);
            gjk_query_input q;
            memset(&q, 0, sizeof q);
            q.shape_a = &A, q.transform_a = ta, q.shape_b = &B, q.transform_b = tb;
            gjk_intersect_output io = gjk_intersect(&q);
            gjk_penetration_output po = gjk_penetration(&q, NULL);
            ++checked;
            // The same pair as if built where AVX2 is missing (scan_kind 0:
            // the portable projections and scans): the same answer, bit
            // for bit (both round (x·ux + y·uy) + z·uz, no fused steps).
            gjk_hull portable_a = *ha, portable_b = *hb;
            portable_a.scan_kind = portable_b.scan_kind = 0;
            gjk_shape PA = gjk_with_margin(gjk_make_hull(&portable_a), ma), PB = gjk_with_margin(gjk_make_hull(&portable_b), mb);
            gjk_query_input pq = q;
            pq.shape_a = &PA, pq.shape_b = &PB;
            gjk_intersect_output pio = gjk_intersect(&pq);
            gjk_penetration_output ppo = gjk_penetration(&pq, NULL);
            ENSURE(pio.status == io.status && pio.iterations == io.iterations);
            ENSURE(ppo.status == po.status && ppo.signed_distance == po.signed_distance &&
                   ppo.epa_iterations == po.epa_iterations && gjk_max_abs(gjk_sub(ppo.normal, po.normal)) == 0 &&
                   gjk_max_abs(gjk_sub(ppo.point_a, po.point_a)) == 0 &&
                   gjk_max_abs(gjk_sub(ppo.point_b, po.point_b)) == 0);
            if (ref > tol) {
                ENSURE(io.status == GJK_SEPARATED && po.status == GJK_SEPARATED);
            } else if (ref < -tol) {
                ENSURE(io.status == GJK_PENETRATING && po.status == GJK_PENETRATING);
            }
            double pt_tol = tol + 8 * GJK_REAL_EPSILON * (d3_max_abs(pa) + 4 * size);
            ENSURE_NEAR(po.signed_distance, ref, tol);
            ENSURE_NEAR(d3_len(d3_of(po.normal)), 1, 1e-6);
            d3 n = d3_unit(d3_of(po.normal)), a = d3_of(po.point_a), b = d3_of(po.point_b);
            ENSURE(d3_len(d3_sub(d3_sub(b, a), d3_scale((double)po.signed_distance, n))) <= pt_tol);
            ENSURE_NEAR(hull_sdist(&HA, a) - (double)ma, 0, pt_tol);
            ENSURE_NEAR(hull_sdist(&HB, b) - (double)mb, 0, pt_tol);
            if (ref + (double)ma + (double)mb < -tol) {
                ++overlapping;
                by_axes += po.epa_iterations == 0;
            }
            hull_free(&HA);
            hull_free(&HB);
            if (test_failures > failures) {
                printf("  pair %d (kinds %d, %d) target %g: ref %.17g, penetration %s %.17g (EPA %d), intersect %s\n", k,
                       ka, kb, targets[ti], ref, gjk_status_name(po.status), (double)po.signed_distance,
                       po.epa_iterations, gjk_status_name(io.status));
                break;
            }
        }
        hull_free(&D);
        gjk_hull_destroy(ha);
        gjk_hull_destroy(hb);
    }
    printf("    %d poses, %d with the cores overlapping, %d of those answered by the axes\n", checked, overlapping,
           by_axes);
    ENSURE(checked == 300 * 7 && overlapping > 600);
#if !GJK_USE_FLOAT // float's tolerance is below the hulls' faces model (2^17 ε): EPA answers
    ENSURE(by_axes >= overlapping * 8 / 10);
#endif
}

/// routines, including ties (a box's faces, directions along the axes).
static void test_small_hull_scan_is_exact(void) {
    rng r = {5};
    for (int n = 4; n <= 95; n += 7) {
        gjk_vec3 pts[96];
        for (int i = 0; i < n; ++i) {
            pts[i] = gjk_normalize(rng_cube(&r));
        }
        if (n == 11) { // a box and its centre: ties along the axes
            for (int i = 0; i < 8; ++i) {
                pts[i] = gjk_v3(i & 1 ? 1 : -1, i & 2 ? 2 : -2, i & 4 ? 3 : -3);
            }
            pts[8] = pts[9] = pts[10] = gjk_v3(0, 0, 0);
        }
        gjk_hull *h = gjk_hull_create(pts, n, NULL);
        ENSURE(h != NULL);
        if (h == NULL) {
            continue;
        }
        gjk_hull portable = *h;
        portable.scan_kind = 0;
        gjk_shape fast = gjk_make_hull(h), slow = gjk_make_hull(&portable);
        gjk_shape plain = gjk_make_polytope(h->vertices, h->vertex_count);
        for (int k = 0; k < 300; ++k) {
            gjk_vec3 d = k < 6 ? gjk_v3(k == 0 ? 1 : 0, k == 1 ? 1 : 0, k == 2 ? -1 : (k > 2 ? 1 : 0))
                               : rng_cube(&r);
            gjk_vec3 p = gjk_shape_support(&plain, d), a = gjk_shape_support(&fast, d), b = gjk_shape_support(&slow, d);
            ENSURE(a.x == p.x && a.y == p.y && a.z == p.z);
            ENSURE(b.x == p.x && b.y == p.y && b.z == p.z);
        }
        gjk_hull_destroy(h);
    }
}

/// The wide scan of a polytope's own points (scan.c: AVX2 where the CPU has
/// it) answers the index the loop answers, bit for bit: the first point of
/// largest d·v. Random points, counts 4 to 41 (every remainder mod 4), ties
/// made on purpose (repeated points, a grid, ±0), huge and tiny
/// coordinates, NaN and zero directions, and huge ones whose products
/// overflow (NaN d·v where inf meets −inf).
static void test_wide_point_scan_matches_loop(void) {
#if GJK_HAVE_AVX2_SCAN
    static gjk_vec3 v[41];
    rng r = {0x3d5ca7ULL};
    int checked = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        int n = 4 + trial % 38, kind = trial % 5;
        double scale = exp(-300 + 600 * rng_unit(&r));
        for (int i = 0; i < n; ++i) {
            if (kind == 1) {
                int c = (int)(3 * rng_unit(&r));
                v[i] = gjk_v3((gjk_real)(scale * (c - 1)), (gjk_real)(scale * (c == 2)), 0);
            } else if (kind == 2) {
                v[i] = gjk_v3((gjk_real)(int)(3 * rng_unit(&r)) - 1, (gjk_real)(int)(3 * rng_unit(&r)) - 1,
                              (gjk_real)(int)(3 * rng_unit(&r)) - 1);
            } else {
                v[i] = gjk_scale((gjk_real)scale, rng_cube(&r));
                if (kind == 4 && rng_unit(&r) < 0.125) {
                    // A coordinate ±inf or NaN: products inf, −inf or NaN.
                    const double odd[3] = {HUGE_VAL, -HUGE_VAL, NAN};
                    v[i].y = (gjk_real)odd[(int)(3 * rng_unit(&r))];
                }
            }
        }
        if (kind == 3 && n <= 9) {
            // Point 0 at −inf along +x, the rest at −DBL_MAX: the lanes must
            // start below every number (a start at −DBL_MAX answers 0).
            v[0] = gjk_v3((gjk_real)-HUGE_VAL, 0, 0);
            for (int i = 1; i < n; ++i) {
                v[i] = gjk_v3(-GJK_REAL_MAX, 0, 0);
            }
        }
        gjk_vec3 dirs[] = {
            rng_cube(&r), gjk_v3(1, 0, 0), gjk_v3(0, -1, 0), gjk_v3(0, 0, 1), gjk_v3(1, 1, 1),
            gjk_v3((gjk_real)-0.0, 0, 1), gjk_v3(0, 0, 0), gjk_v3((gjk_real)NAN, 1, 0), gjk_v3(1, 0, (gjk_real)NAN),
            gjk_scale((gjk_real)1e-300, rng_cube(&r)), gjk_v3((gjk_real)1e250, (gjk_real)1e250, (gjk_real)-1e250),
            gjk_v3((gjk_real)-1e250, (gjk_real)1e250, (gjk_real)1e250),
        };
        for (int k = 0; k < (int)(sizeof dirs / sizeof dirs[0]); ++k) {
            int wide = gjk_scan_points_wide(v, n, dirs[k]), loop = gjk_support_index(v, n, dirs[k]);
            ENSURE(wide == loop);
            if (wide != loop) {
                printf("  n %d, kind %d, direction %d: wide %d, loop %d\n", n, kind, k, wide, loop);
                return;
            }
            ++checked;
        }
    }
    ENSURE(checked == 4000 * 12);
#endif
}

/// EPA on a segment 1.7e-4 deep in a hull with flat caps (points on a
/// cylinder's rims and caps; the pose found by a search over 48,000 float
/// frames). In float, rounding left a vertex of EPA's polytope outside its
/// nearest face, whose support point was that vertex: every iteration drew
/// the same face and point again until the 250 ran out (not converged).
/// EPA now stops on a repeated support point and answers the least overlap
/// seen (1.827e-4 in float), whose depth must match the exact one (libqhull's
/// hull of the Minkowski difference: 1.698e-4) within the float tolerance of
/// these tests.
static void test_epa_repeated_support(void) {
    enum { N = 100 };
    gjk_vec3 pts[N];
    unsigned long long state = 1;
    double u[3];
    for (int i = 0; i < N; ++i) {
        for (int k = 0; k < (i % 3 == 2 ? 3 : 1); ++k) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            u[k] = (double)(state >> 11) * (1.0 / 9007199254740992.0);
        }
        double t = 6.283185307179586 * u[0], r = i % 3 == 2 ? sqrt(u[1]) : 1;
        double z = i % 3 == 2 ? (u[2] < 0.5 ? 0.5 : -0.5) : (i % 2 ? 0.5 : -0.5);
        pts[i] = gjk_v3((gjk_real)(r * cos(t)), (gjk_real)(r * sin(t)), (gjk_real)z);
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL && h->coplanar);
    if (h == NULL) {
        return;
    }
    gjk_shape a = gjk_make_hull(h);
    gjk_vec3 s0 = gjk_v3((gjk_real)-0.6, (gjk_real)-0.3, (gjk_real)0.2), s1 = gjk_v3((gjk_real)0.5, (gjk_real)0.1, (gjk_real)-0.3);
    gjk_shape b = gjk_make_segment(s0, s1);
    gjk_query_input in = {0};
    in.shape_a = &a;
    in.shape_b = &b;
    in.transform_a = gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_make((gjk_real)0x1.89f35ap-1, (gjk_real)-0x1.8ea838p-2,
                                                                        (gjk_real)0x1.0046e2p-1, (gjk_real)0x1.39a8c2p-4));
    in.transform_b = gjk_transform_make(
        gjk_v3((gjk_real)0x1.24acb6p+0, (gjk_real)-0x1.99e402p-2, (gjk_real)-0x1.298a84p-3),
        gjk_quat_make((gjk_real)-0x1.484f1cp-1, (gjk_real)-0x1.dc9524p-5, (gjk_real)-0x1.1706b2p-1, (gjk_real)0x1.12fb0cp-1));
    gjk_penetration_output o = gjk_penetration(&in, NULL);
    // The reference: the hull of the vertices of A minus the ends of B, in
    // world coordinates, in double.
    gjk_transform ta = gjk_transform_make(in.transform_a.position, gjk_quat_normalize(in.transform_a.rotation));
    gjk_transform tb = gjk_transform_make(in.transform_b.position, gjk_quat_normalize(in.transform_b.rotation));
    static double diff[3 * 2 * N];
    int nd = 0;
    for (int i = 0; i < h->vertex_count; ++i) {
        d3 pa = d3_of(gjk_transform_point(ta, h->vertices[i]));
        for (int e = 0; e < 2; ++e) {
            d3 pb = d3_of(gjk_transform_point(tb, e ? s1 : s0));
            diff[3 * nd] = pa.x - pb.x, diff[3 * nd + 1] = pa.y - pb.y, diff[3 * nd + 2] = pa.z - pb.z;
            ++nd;
        }
    }
    hull ref;
    ENSURE(hull_build(&ref, diff, nd) == 0);
    double depth = -hull_sdist(&ref, d3_make(0, 0, 0));
    hull_free(&ref);
    if (o.status != GJK_PENETRATING || o.epa_iterations > 20) {
        printf("  status %d after %d EPA iterations, depth %.9g (exact %.9g)\n", o.status, o.epa_iterations,
               (double)o.depth, depth);
    }
    ENSURE(o.status == GJK_PENETRATING && o.epa_iterations <= 20);
    ENSURE_NEAR(o.depth, depth, HULL_TOL);
    gjk_hull_destroy(h);
}

/// Queries on hull shapes equal the same queries on plain polytopes of the
/// input points, apart and overlapping, with and without warm caches.
static void test_queries_match_plain_polytopes(void) {
    rng r = {99};
    enum { N = 300 };
    static gjk_vec3 pa[N], pb[N];
    for (int i = 0; i < N; ++i) {
        pa[i] = gjk_normalize(rng_cube(&r));
        pb[i] = gjk_v3((gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -0.5, 0.5),
                       (gjk_real)rng_range(&r, -2, 2));
    }
    gjk_hull *ha, *hb;
    if (!make_hull_pair(pa, N, pb, N, &ha, &hb)) {
        return;
    }
    gjk_shape ca = gjk_make_hull(ha), cb = gjk_with_margin(gjk_make_hull(hb), (gjk_real)0.05);
    gjk_shape sa = gjk_make_polytope(pa, N), sb = gjk_with_margin(gjk_make_polytope(pb, N), (gjk_real)0.05);
    gjk_simplex_cache cache = {0};
    for (int k = 0; k < 300; ++k) {
        gjk_vec3 pos = gjk_v3((gjk_real)rng_range(&r, -4, 4), (gjk_real)rng_range(&r, -4, 4),
                              (gjk_real)rng_range(&r, -4, 4));
        gjk_quat q = rng_rotation(&r);
        gjk_query_input in = {&ca, gjk_transform_identity(), &cb, gjk_transform_make(pos, q), {0}};
        gjk_penetration_output c = gjk_penetration(&in, k % 2 ? &cache : NULL);
        in.shape_a = &sa;
        in.shape_b = &sb;
        gjk_penetration_output s = gjk_penetration(&in, NULL);
        ENSURE(c.status == s.status || fabs(s.signed_distance) < 1e-6);
        ENSURE_NEAR(c.signed_distance, s.signed_distance, 1e3 * HULL_TOL + (GJK_USE_FLOAT ? 1e-3 : 0));
    }
    gjk_hull_destroy(ha);
    gjk_hull_destroy(hb);
}

/// A large cloud builds, and hill climbing from every hint agrees with the
/// scan; points on a sphere are all extreme.
static void test_large_sphere_cloud(void) {
    rng r = {2024};
    enum { N = 16384 };
    gjk_vec3 *pts = malloc(N * sizeof *pts);
    if (pts == NULL) {
        ENSURE(0);
        return;
    }
    for (int i = 0; i < N; ++i) {
        pts[i] = gjk_normalize(rng_cube(&r));
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL);
    if (h != NULL) {
#if !GJK_USE_FLOAT
        // In double no two neighbouring triangles are coplanar within 1e-12;
        // in float, faces coplanar within the input's resolution (4e-6 of
        // the size) are merged by design, and points that close to the hull
        // may be dropped.
        ENSURE(h->vertex_count == N);
        ENSURE(h->face_first[h->face_count] == 3 * h->face_count);
#endif
        gjk_shape climb = gjk_make_hull(h), scan = gjk_make_polytope(pts, N);
        for (int k = 0; k < 500; ++k) {
            gjk_vec3 d = rng_cube(&r);
            ENSURE_NEAR(gjk_dot(gjk_shape_support(&climb, d), d), gjk_dot(gjk_shape_support(&scan, d), d),
                        HULL_TOL * 3);
        }
        gjk_hull_destroy(h);
    }
    free(pts);
}

/// The start sample where hill climbing begins: its size grows with the
/// vertex count (8 to 64, blocks padded to a multiple of 8), every entry is
/// a vertex, the block layout holds that vertex's coordinates, and each
/// entry is the vertex farthest along its direction, so the sample's best
/// point along any d is a vertex far out along d.
static void test_start_sample(void) {
    rng r = {11};
    static gjk_vec3 pts[16384];
    int last = 0;
    static const int sizes[] = {100, 400, 1600, 16384};
    for (int z = 0; z < 4; ++z) {
        int n = sizes[z];
        for (int i = 0; i < n; ++i) {
            pts[i] = gjk_normalize(rng_cube(&r));
        }
        gjk_hull *h = gjk_hull_create(pts, n, NULL);
        ENSURE(h != NULL);
        if (h == NULL) {
            continue;
        }
        ENSURE(h->start_count >= 8 && h->start_count <= GJK_HULL_START_MAX && h->start_count % 8 == 0);
        ENSURE(h->start_count >= last); // more vertices, no smaller sample
        last = h->start_count;
        ENSURE(h->start_stride >= h->start_count && h->start_stride % 8 == 0);
        for (int k = 0; k < h->start_stride; ++k) {
            int v = h->start_vertex[k < h->start_count ? k : 0];
            ENSURE(v >= 0 && v < h->vertex_count);
            if (v < 0 || v >= h->vertex_count) {
                break;
            }
            gjk_vec3 p = h->vertices[v];
            ENSURE(h->start_scan[k] == p.x && h->start_scan[h->start_stride + k] == p.y &&
                   h->start_scan[2 * h->start_stride + k] == p.z);
        }
        // Points on a sphere: the sample spreads over it, so along any
        // direction its best point is within 60° of the support point.
        for (int k = 0; k < 200; ++k) {
            gjk_vec3 d = gjk_normalize(rng_cube(&r));
            gjk_real best = -2;
            for (int j = 0; j < h->start_count; ++j) {
                best = gjk_max(best, gjk_dot(h->vertices[h->start_vertex[j]], d));
            }
            ENSURE(best > (gjk_real)0.5);
        }
        gjk_hull_destroy(h);
    }
    ENSURE(last == GJK_HULL_START_MAX);
}

/// The simplex a walk reports to its trace at its first iteration.
typedef struct first_simplex {
    bool seen;
    int count;
    gjk_vec3 point[4];
} first_simplex;

static void record_first_simplex(void *data, const gjk_trace_event *ev) {
    first_simplex *fs = data;
    if (!fs->seen && ev->phase == GJK_TRACE_GJK) {
        fs->seen = true;
        fs->count = ev->simplex_count;
        for (int m = 0; m < ev->simplex_count; ++m) {
            fs->point[m] = ev->simplex[m];
        }
    }
}

/// True when w is a − (b + pos) for a = A's vertex ia or one of its
/// neighbours and b = B's vertex ib or one of its neighbours, one of them
/// the vertex itself (the points a warm walk starts from after a one-point
/// cache: the cached pair, or a pair beside it).
static bool beside_pair(const gjk_hull *ha, int ia, const gjk_hull *hb, int ib, gjk_vec3 pos, gjk_vec3 w) {
    for (int k = ha->neighbor_first[ia] - 1; k < ha->neighbor_first[ia + 1]; ++k) {
        int a = k < ha->neighbor_first[ia] ? ia : ha->neighbors[k];
        for (int l = hb->neighbor_first[ib] - 1; l < hb->neighbor_first[ib + 1]; ++l) {
            int b = l < hb->neighbor_first[ib] ? ib : hb->neighbors[l];
            gjk_vec3 p = gjk_sub(ha->vertices[a], gjk_add(hb->vertices[b], pos));
            if ((a == ia || b == ib) && p.x == w.x && p.y == w.y && p.z == w.z) {
                return true;
            }
        }
    }
    return false;
}

/// Warm starts from a cache's hull vertices (rebuilt as they are, not by a
/// support search): along a path of small motions warm answers equal cold
/// ones in fewer iterations, for a climbed and a scanned hull; caches of
/// random vertex indices and directions change nothing but iterations; and a
/// cached vertex pair that touches exactly still gives the true normal (the
/// rebuilt point's direction bounds nothing).
static void test_cached_vertices(void) {
    rng r = {31};
    enum { N = 400, M = 40 };
    static gjk_vec3 pa[N], pb[M];
    for (int i = 0; i < N; ++i) {
        gjk_vec3 u = gjk_normalize(rng_cube(&r));
        pa[i] = gjk_v3(u.x, (gjk_real)0.7 * u.y, (gjk_real)0.5 * u.z);
    }
    for (int i = 0; i < M; ++i) {
        pb[i] = gjk_normalize(rng_cube(&r));
    }
    gjk_hull *ha, *hb;
    if (!make_hull_pair(pa, N, pb, M, &ha, &hb)) {
        return;
    }
    ENSURE(ha->vertex_count >= GJK_HULL_CLIMB_MIN && hb->vertex_count < GJK_HULL_CLIMB_MIN);
    gjk_shape A = gjk_make_hull(ha), B = gjk_make_hull(hb);
    const double tol = 1e4 * HULL_TOL;
    for (int pass = 0; pass < 2; ++pass) { // B against A, then A against A
        const gjk_shape *sb = pass == 0 ? &B : &A;
        gjk_simplex_cache cd = {0}, cp = {0};
        int cold_it = 0, warm_it = 0, near = 0;
        for (int f = 0; f < 400; ++f) {
            double t = 0.004 * f;
            gjk_quat qb = gjk_quat_normalize(gjk_quat_make((gjk_real)cos(t), (gjk_real)(0.3 * sin(t)),
                                                           (gjk_real)(0.2 * sin(2 * t)), (gjk_real)0.1));
            gjk_vec3 pos = gjk_v3((gjk_real)(1.55 + 0.6 * sin(3 * t)), (gjk_real)(0.2 * cos(t)), (gjk_real)0.1);
            gjk_query_input in = {&A, gjk_transform_identity(), sb, gjk_transform_make(pos, qb), {0}};
            gjk_distance_output dc = gjk_distance(&in, NULL), dw = gjk_distance(&in, &cd);
            ENSURE(dw.status == dc.status);
            ENSURE_NEAR(dw.distance, dc.distance, tol);
            gjk_penetration_output pc = gjk_penetration(&in, NULL), pw = gjk_penetration(&in, &cp);
            ENSURE(pw.status == pc.status || fabs(pc.signed_distance) < tol);
            ENSURE_NEAR(pw.signed_distance, pc.signed_distance, tol);
            ENSURE(gjk_dot(pw.normal, pc.normal) > 1 - 1e3 * tol || fabs(pc.signed_distance) < tol);
            cold_it += dc.iterations;
            warm_it += dw.iterations;
            near += fabs(pc.signed_distance) < 0.1;
        }
        printf("    pass %d: %d distance iterations cold, %d warm, %d frames within 0.1\n", pass, cold_it, warm_it,
               near);
        ENSURE(near > 50);
        ENSURE(2 * warm_it < cold_it);
    }
    // Only a hull's own vertices are taken from a cache.
    ENSURE(gjk_hull_vertex(&A, 0) == &ha->vertices[0]);
    ENSURE(gjk_hull_vertex(&A, ha->vertex_count - 1) == &ha->vertices[ha->vertex_count - 1]);
    ENSURE(gjk_hull_vertex(&A, ha->vertex_count) == NULL && gjk_hull_vertex(&A, -1) == NULL);
    ENSURE(gjk_hull_vertex(&A, INT_MIN) == NULL && gjk_hull_vertex(&A, INT_MAX) == NULL);
    gjk_shape plain = gjk_make_polytope(pa, N), box = gjk_make_box(gjk_v3(1, 1, 1));
    ENSURE(gjk_hull_vertex(&plain, 0) == NULL && gjk_hull_vertex(&box, 0) == NULL);
    // A one-point cache is rebuilt from its vertices as they are, whatever
    // its direction: the walk starts from a − b of the cached vertex pair,
    // here one that no support search along the stored direction would
    // give, or (A climbs: warm_neighbours in gjk.c) from pairs of it and
    // the vertices beside it, nearer the origin.
    {
        int ia = 0, ib = 0;
        for (int v = 0; v < ha->vertex_count; ++v) {
            ia = ha->vertices[v].x < ha->vertices[ia].x ? v : ia; // A's leftmost
        }
        for (int v = 0; v < hb->vertex_count; ++v) {
            ib = hb->vertices[v].x > hb->vertices[ib].x ? v : ib; // B's rightmost
        }
        gjk_vec3 pos = gjk_v3(3, 0, 0);
        gjk_simplex_cache g = {0};
        g.count = 1;
        g.direction[0] = gjk_v3(1, 0, 0); // the support along it: A's rightmost minus B's leftmost
        g.vertex_a[0] = ia;
        g.vertex_b[0] = ib;
        first_simplex fs = {0};
        gjk_query_input in = {&A, gjk_transform_identity(), &B, gjk_transform_make(pos, gjk_quat_identity()), {0}};
        in.options.trace = record_first_simplex;
        in.options.trace_data = &fs;
        gjk_distance_output d = gjk_distance(&in, &g);
        ENSURE(d.status == GJK_SEPARATED);
        ENSURE(fs.seen && fs.count >= 1);
        for (int m = 0; m < fs.count; ++m) {
            ENSURE(beside_pair(ha, ia, hb, ib, pos, fs.point[m]));
        }
    }
    // Caches of random indices (some out of range) and directions, at
    // poses from deep overlap to apart: every query that can start from a
    // cache (the starting bound and early stops included) agrees with its
    // cold twin.
    for (int k = 0; k < 600; ++k) {
        gjk_simplex_cache g;
        g.count = 1 + k % 4;
        for (int m = 0; m < 4; ++m) {
            g.direction[m] = rng_cube(&r);
            g.vertex_a[m] = (int)rng_range(&r, -5, N + 5);
            g.vertex_b[m] = (int)rng_range(&r, -5, M + 5);
        }
        gjk_vec3 pos = gjk_v3((gjk_real)rng_range(&r, 0, 2.2), (gjk_real)rng_range(&r, -0.5, 0.5),
                              (gjk_real)rng_range(&r, -0.5, 0.5));
        gjk_query_input in = {&A, gjk_transform_identity(), &B, gjk_transform_make(pos, gjk_quat_identity()), {0}};
        gjk_simplex_cache g2 = g, g3 = g, g4 = g;
        gjk_distance_output dc = gjk_distance(&in, NULL), dw = gjk_distance(&in, &g);
        ENSURE(dw.status == dc.status);
        ENSURE_NEAR(dw.distance, dc.distance, tol);
        gjk_penetration_output pc = gjk_penetration(&in, NULL), pw = gjk_penetration(&in, &g2);
        ENSURE(pw.status == pc.status || fabs(pc.signed_distance) < tol);
        ENSURE_NEAR(pw.signed_distance, pc.signed_distance, tol);
        gjk_intersect_output ic = gjk_intersect(&in), iw = gjk_intersect_cached(&in, &g3);
        ENSURE(iw.intersect == ic.intersect || fabs(pc.signed_distance) < tol);
        // Beyond max_distance the answer is a bound, so only the status and
        // the distances within it are compared.
        in.options.max_distance = (gjk_real)0.05;
        gjk_distance_output bc = gjk_distance(&in, NULL), bw = gjk_distance(&in, &g4);
        ENSURE(bw.status == bc.status || fabs(pc.signed_distance) < tol);
        ENSURE(bw.status == GJK_SEPARATED || pc.signed_distance < 0.05 + tol);
        if (pc.signed_distance < 0.05 - tol) {
            ENSURE_NEAR(bw.distance, dc.distance, tol);
        }
    }
    gjk_hull_destroy(ha);
    gjk_hull_destroy(hb);

    // Two unit cubes face to face, touching exactly along x; the cache's one
    // entry is a corner pair that coincides, with a direction along y.
    gjk_vec3 corners[8];
    for (int i = 0; i < 8; ++i) {
        corners[i] = gjk_v3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
    }
    gjk_hull *cube = gjk_hull_create(corners, 8, NULL);
    ENSURE(cube != NULL);
    if (cube == NULL) {
        return;
    }
    int ia = -1, ib = -1;
    for (int v = 0; v < cube->vertex_count; ++v) {
        gjk_vec3 p = cube->vertices[v];
        if (p.x == 1 && p.y == 1 && p.z == 1) {
            ia = v;
        }
        if (p.x == -1 && p.y == 1 && p.z == 1) {
            ib = v;
        }
    }
    ENSURE(ia >= 0 && ib >= 0);
    gjk_shape C = gjk_make_hull(cube);
    gjk_query_input in = {&C, gjk_transform_identity(), &C, gjk_transform_make(gjk_v3(2, 0, 0), gjk_quat_identity()),
                          {0}};
    gjk_simplex_cache g = {0};
    g.count = 1;
    g.direction[0] = gjk_v3(0, 1, 0);
    g.vertex_a[0] = ia;
    g.vertex_b[0] = ib;
    gjk_penetration_output p = gjk_penetration(&in, &g);
    ENSURE(p.status == GJK_TOUCHING);
    ENSURE_NEAR(p.signed_distance, 0, 1e-9);
    ENSURE_NEAR(p.normal.x, 1, 1e-9);
    gjk_hull_destroy(cube);
}

/// The first warm query after shapes met from afar. A pose slid along the
/// separating direction from far away keeps the closest point of D at one
/// of its vertices or edges, and a cold walk ends at that one point or
/// segment; moved sideways by about the distance, the pair touches on a
/// face beside it. The warm walk steps from the cached pair over the vertices beside it
/// before its first support point (gjk.c, warm_neighbours): the same answer
/// as the cold walk's, in at most two support points on average, where the
/// walk from the cached points alone took 5.8 (3000 points on an ellipsoid).
static void test_warm_from_vertex_contact(void) {
    rng r = {77};
    enum { N = 3000, PAIRS = 100 };
    static gjk_vec3 pts[N];
    for (int i = 0; i < N; ++i) {
        gjk_vec3 u = gjk_normalize(rng_cube(&r));
        pts[i] = gjk_v3(u.x, (gjk_real)0.8 * u.y, (gjk_real)0.6 * u.z);
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL && h->vertex_count >= GJK_HULL_CLIMB_MIN);
    if (h == NULL) {
        return;
    }
    gjk_shape S = gjk_make_hull(h);
    const double tol = 1e4 * HULL_TOL, gap = 1e-3;
    int vertex_caches = 0, warm_it = 0, cold_it = 0;
    for (int k = 0; k < PAIRS; ++k) {
        gjk_quat qa = rng_rotation(&r);
        gjk_quat qb = rng_rotation(&r);
        gjk_query_input in = {&S, gjk_transform_make(gjk_v3_zero(), qa), &S,
                              gjk_transform_make(gjk_scale(3, gjk_normalize(rng_cube(&r))), qb), {0}};
        for (int slide = 0; slide < 3; ++slide) { // to `gap` along the normal
            gjk_distance_output d = gjk_distance(&in, NULL);
            in.transform_b.position = gjk_mul_add(in.transform_b.position, (gjk_real)gap - d.distance, d.normal);
        }
        gjk_simplex_cache cache = {0};
        gjk_distance_output d0 = gjk_distance(&in, &cache);
        ENSURE_NEAR(d0.distance, gap, tol);
        vertex_caches += cache.count <= 2;
        // Sideways by the distance, and a turn of 1e-3 rad about z.
        gjk_vec3 side = gjk_normalize(gjk_cross(d0.normal, gjk_normalize(rng_cube(&r))));
        in.transform_b.position = gjk_mul_add(in.transform_b.position, (gjk_real)gap, side);
        in.transform_b.rotation = gjk_quat_normalize(gjk_quat_mul(gjk_quat_make((gjk_real)cos(5e-4), 0, 0,
                                                                                (gjk_real)sin(5e-4)), qb));
        gjk_distance_output dc = gjk_distance(&in, NULL), dw = gjk_distance(&in, &cache);
        ENSURE(dw.status == dc.status);
        ENSURE_NEAR(dw.distance, dc.distance, tol);
        ENSURE(gjk_dot(dw.normal, dc.normal) > 1 - tol);
        warm_it += dw.iterations;
        cold_it += dc.iterations;
    }
    printf("    %d of %d cold walks ended at a vertex or an edge of D; first warm frame %d iterations, cold %d\n",
           vertex_caches, PAIRS, warm_it, cold_it);
    ENSURE(vertex_caches > PAIRS / 2);
    ENSURE(warm_it <= 2 * PAIRS);
    gjk_hull_destroy(h);
}

/// Caches whose points are support points, not cached hull vertices (a
/// vertex id that is none of A's, B no hull; or a zero direction, which
/// makes the cache ignored), on a climbing hull A against a box whose
/// corner lies on a vertex of A beside A's support vertex along the cached
/// direction: the warm walk's steps over A's neighbours reach that vertex,
/// and a stepped point once kept its base's flag of bounding D along that
/// direction, so that EPA answered "touching" (signed distance 0) for shapes
/// 0.025 deep, cold "penetrating" (review of the steps). Warm answers must
/// be cold ones.
static void test_warm_steps_bound_nothing(void) {
    enum { N = 200 };
    static gjk_vec3 pts[N];
    // A Fibonacci sphere, coordinates on a grid of 2^-20 (sums exact).
    for (int i = 0; i < N; ++i) {
        double z = 1 - (2.0 * i + 1) / N, r = sqrt(1 - z * z), t = 2.399963229728653 * i;
        pts[i] = gjk_v3((gjk_real)ldexp(round(ldexp(r * cos(t), 20)), -20),
                        (gjk_real)ldexp(round(ldexp(r * sin(t), 20)), -20), (gjk_real)ldexp(round(ldexp(z, 20)), -20));
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL && h->vertex_count >= GJK_HULL_CLIMB_MIN);
    if (h == NULL) {
        return;
    }
    gjk_shape A = gjk_make_hull(h), box = gjk_make_box(gjk_v3(1, 1, 1));
    gjk_vec3 d = gjk_normalize(gjk_v3(1, (gjk_real)1e-3, (gjk_real)2e-3));
    int s = 0;
    for (int v = 1; v < h->vertex_count; ++v) {
        s = gjk_dot(h->vertices[v], d) > gjk_dot(h->vertices[s], d) ? v : s;
    }
    int cases = 0;
    for (int k = h->neighbor_first[s]; k < h->neighbor_first[s + 1]; ++k) {
        gjk_vec3 p = h->vertices[h->neighbors[k]];
        if (!(p.y <= h->vertices[s].y && p.z <= h->vertices[s].z)) {
            continue;
        }
        // B's corner along −d is (−1, −1, −1): on that vertex.
        gjk_query_input in = {&A, gjk_transform_identity(), &box,
                              gjk_transform_make(gjk_add(p, gjk_v3(1, 1, 1)), gjk_quat_identity()), {0}};
        for (int variant = 0; variant < 2; ++variant) {
            gjk_simplex_cache c = {0};
            c.count = 1;
            c.direction[0] = variant == 0 ? d : gjk_v3_zero(); // a vertex id none of A's, or ignored
            c.vertex_a[0] = -1;
            gjk_simplex_cache c1 = c, c2 = c, c3 = c;
            gjk_penetration_output pc = gjk_penetration(&in, NULL), pw = gjk_penetration(&in, &c1);
            gjk_distance_output dc = gjk_distance(&in, NULL), dw = gjk_distance(&in, &c2);
            gjk_intersect_output ic = gjk_intersect(&in), iw = gjk_intersect_cached(&in, &c3);
            ENSURE(pc.status == GJK_PENETRATING);
            ENSURE(pw.status == pc.status);
            ENSURE_NEAR(pw.signed_distance, pc.signed_distance, 1e3 * HULL_TOL);
            ENSURE(dw.status == dc.status && iw.status == ic.status);
            ++cases;
        }
    }
    ENSURE(cases >= 2);
    gjk_hull_destroy(h);
}

/// How far the hull's support falls short of the points' own, over 2000
/// random directions (long double, each point as given).
static double hull_shortfall(const gjk_hull *h, const gjk_vec3 *p, int n, rng *r) {
    double worst = 0;
    for (int k = 0; k < 2000; ++k) {
        d3 d = rng_dir3(r, 0.1);
        long double best = -INFINITY, hb = -INFINITY;
        for (int i = 0; i < n; ++i) {
            best = fmaxl(best, (long double)p[i].x * d.x + (long double)p[i].y * d.y + (long double)p[i].z * d.z);
        }
        for (int i = 0; i < h->vertex_count; ++i) {
            const gjk_vec3 v = h->vertices[i];
            hb = fmaxl(hb, (long double)v.x * d.x + (long double)v.y * d.y + (long double)v.z * d.z);
        }
        worst = fmax(worst, (double)((best - hb) / d3_len(d)));
    }
    return worst;
}

/// Review finding: the hull's tolerances followed the coordinates as given,
/// not the cloud's extent. 200 points on a sphere of radius 1e-3 at
/// x = 1e8 (each extreme by 7.8e-6, against the coordinates' own rounding
/// of 1.5e-8) kept 47 vertices, and the hull fell 9.5e-5 short of the
/// points. In float, a sphere of radius 0.1 at x = 1e3 (50 points). Now
/// centred on its bounding box, a cloud keeps every point beyond four
/// units in the last place of its coordinates; the hull's support is the
/// points' within that. And 5000 points on an ellipse so placed: the 2D
/// chain dropped points within eps of each edge, drops that added up past
/// it (in float, centred, still 5 times that).
static void test_clouds_off_origin(void) {
    rng r = {0x0ff5e7ULL};
    const double off = GJK_USE_FLOAT ? 1e3 : 1e8, rad = GJK_USE_FLOAT ? 0.1 : 1e-3;
    const int n = GJK_USE_FLOAT ? 50 : 200;
    gjk_vec3 *p = malloc(5000 * sizeof *p);
    ENSURE(p != NULL);
    if (p == NULL) {
        return;
    }
    case_begin("a small sphere far from its origin keeps every point");
    for (int i = 0; i < n; ++i) { // a Fibonacci lattice: every point extreme
        double z = 1 - (2 * i + 1) / (double)n, s = sqrt(1 - z * z), t = 2.39996322972865332 * i;
        p[i] = gjk_v3((gjk_real)(off + rad * s * cos(t)), (gjk_real)(rad * s * sin(t)), (gjk_real)(rad * z));
    }
    gjk_hull_error e;
    gjk_hull *h = gjk_hull_create(p, n, &e);
    ENSURE(h != NULL);
    if (h != NULL) {
        ENSURE(h->vertex_count == n);
        double floor = 4 * GJK_REAL_EPSILON * (off + 2 * rad);
        ENSURE(hull_shortfall(h, p, n, &r) <= floor);
        // The face planes hold the vertices where they lie.
        for (int f = 0; f < h->face_count; ++f) {
            for (int k = h->face_first[f]; k < h->face_first[f + 1]; ++k) {
                gjk_vec3 v = h->vertices[h->face_indices[k]];
                ENSURE_NEAR((double)gjk_dot(h->face_normals[f], v), (double)h->face_offsets[f], 4 * floor);
            }
        }
        gjk_hull_destroy(h);
    }
    case_end();
    case_begin("5000 points on an ellipse far from its origin: the hull's support is the points'");
    for (int i = 0; i < 5000; ++i) {
        double t = rng_range(&r, 0, 2 * 3.14159265358979323846);
        p[i] = gjk_v3((gjk_real)(off + rad * cos(t)), (gjk_real)(0.6 * rad * sin(t)), (gjk_real)(-0.5 * off));
    }
    h = gjk_hull_create(p, 5000, &e);
    ENSURE(h != NULL && h->flat);
    if (h != NULL) {
        double eps = GJK_USE_FLOAT ? 4e-6 : 1e-12; // of the centred size
        double floor = fmax(eps * 1.6 * rad, 4 * GJK_REAL_EPSILON * (1.5 * off + 1.6 * rad));
        ENSURE(hull_shortfall(h, p, 5000, &r) <= floor);
        gjk_hull_destroy(h);
    }
    case_end();
    free(p);
}

int main(void) {
    g_qhull_err = tmpfile();
    RUN_TEST(test_cube_with_inner_and_face_points);
    RUN_TEST(test_flat_and_degenerate);
    RUN_TEST(test_hull_scale_free);
    RUN_TEST(test_random_clouds_against_qhull);
    RUN_TEST(test_rings_against_qhull);
    RUN_TEST(test_exact_orientation);
    RUN_TEST(test_grid_cross);
    RUN_TEST(test_coplanar_clouds);
    RUN_TEST(test_thin_slab);
    RUN_TEST(test_sphere_near_cylinder_hull_axis);
    RUN_TEST(test_support_matches_scan);
    RUN_TEST(test_climb_on_rims);
    RUN_TEST(test_grid_edge_points);
    RUN_TEST(test_climb_past_edge_samples);
    RUN_TEST(test_curved_points_kept);
    RUN_TEST(test_climb_on_flat_cap);
    RUN_TEST(test_climb_from_opposite_face);
    RUN_TEST(test_start_sample);
    RUN_TEST(test_edge_directions);
    RUN_TEST(test_small_hulls_against_reference);
    RUN_TEST(test_small_hull_scan_is_exact);
    RUN_TEST(test_wide_point_scan_matches_loop);
    RUN_TEST(test_epa_repeated_support);
    RUN_TEST(test_queries_match_plain_polytopes);
    RUN_TEST(test_large_sphere_cloud);
    RUN_TEST(test_cached_vertices);
    RUN_TEST(test_warm_from_vertex_contact);
    RUN_TEST(test_warm_steps_bound_nothing);
    RUN_TEST(test_clouds_off_origin);
    RUN_TEST(test_flat_sliver_keeps_ends);
    RUN_TEST(test_flat_no_vertex_on_edge);
    return TEST_SUMMARY();
}

// The parts of the simulation: mass properties of every shape type (against
// independent integrals), the sweep-and-prune broad phase (against all
// pairs), and determinism of whole runs.
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "sim_scene.h"
#include "sim_test_util.h"
#include "simulate.h"

#if GJK_USE_FLOAT
#define MASS_TOL 1e-5
#else
#define MASS_TOL 1e-9
#endif

/// A solid whose cross-section at height z is the ellipse of semi-axes
/// (a(z), b(z)) centred on the z axis, for z in [lo, hi].
typedef void (*section_fn)(double z, const double *p, double *a, double *b);

/// Mass properties of such a solid at density 1 by Simpson's rule over z:
/// each slice contributes dV = π·a·b·dz, ∫x² dA = π·a³·b/4, ∫y² dA = π·a·b³/4.
static sim_mass slices(section_fn f, const double *p, double lo, double hi) {
    const int n = 200000; // even
    double h = (hi - lo) / n, v = 0, mz = 0, xx = 0, yy = 0, zz = 0;
    for (int i = 0; i <= n; ++i) {
        double z = lo + i * h, a, b;
        f(z, p, &a, &b);
        double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        double area = 3.14159265358979323846 * a * b;
        v += w * area;
        mz += w * area * z;
        xx += w * area * a * a / 4;
        yy += w * area * b * b / 4;
        zz += w * area * z * z;
    }
    v *= h / 3;
    mz *= h / 3;
    xx *= h / 3;
    yy *= h / 3;
    zz *= h / 3;
    sim_mass m;
    m.volume = m.mass = v;
    m.com = sv3(0, 0, mz / v);
    double zc2 = zz - v * m.com.z * m.com.z; // ∫(z − zc)² about the centre
    m.inertia = sm_diag(yy + zc2, xx + zc2, xx + yy);
    return m;
}

static void sphere_section(double z, const double *p, double *a, double *b) {
    double r2 = p[0] * p[0] - z * z;
    *a = *b = r2 > 0 ? sqrt(r2) : 0;
}
static void ellipsoid_section(double z, const double *p, double *a, double *b) {
    double t = 1 - z * z / (p[2] * p[2]);
    t = t > 0 ? sqrt(t) : 0;
    *a = p[0] * t;
    *b = p[1] * t;
}
static void cylinder_section(double z, const double *p, double *a, double *b) {
    (void)z;
    *a = *b = p[0];
}
static void cone_section(double z, const double *p, double *a, double *b) {
    *a = *b = p[0] * (p[1] - z) / (2 * p[1]); // radius p[0] at z = −h, 0 at +h
}
static void capsule_section(double z, const double *p, double *a, double *b) {
    double d = fabs(z) - p[1] / 2, r2 = p[0] * p[0] - (d > 0 ? d * d : 0);
    *a = *b = r2 > 0 ? sqrt(r2) : 0;
}

static void expect_mass(const char *what, const gjk_shape *shape, double density, sim_mass ref, double tol) {
    sim_mass m;
    const char *why = sim_mass_properties(shape, density, &m);
    ENSURE(why == NULL);
    if (why != NULL) {
        fprintf(stderr, "%s: %s\n", what, why);
        return;
    }
    double scale = ref.inertia.m[0][0] + ref.inertia.m[1][1] + ref.inertia.m[2][2];
    double err_i = 0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double e = fabs(m.inertia.m[i][j] - ref.inertia.m[i][j]) / scale;
            err_i = e > err_i ? e : err_i;
        }
    }
    double err_m = fabs(m.mass - ref.mass) / ref.mass;
    double size = cbrt(ref.volume);
    double err_c = sv_length(sv_sub(m.com, ref.com)) / size;
    printf("  %-28s mass %.6g (rel. error %.1e), centre error %.1e, inertia error %.1e\n", what, m.mass, err_m, err_c,
           err_i);
    ENSURE(err_m < tol);
    ENSURE(err_c < tol);
    ENSURE(err_i < tol);
}

static sim_mass scaled(sim_mass m, double density) {
    m.mass *= density;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            m.inertia.m[i][j] *= density;
        }
    }
    return m;
}

static void test_mass_round_shapes(void) {
    // Against slice integrals (independent of the closed forms); Simpson's
    // rule on the square-root ends converges like n^−1.5, hence 1e-6.
    double rho = 750;
    double ps[1] = {0.75};
    gjk_shape sphere = gjk_make_sphere(0.75);
    expect_mass("sphere", &sphere, rho, scaled(slices(sphere_section, ps, -0.75, 0.75), rho), 1e-6);
    gjk_shape rounded = gjk_with_margin(gjk_make_sphere(0.5), 0.25);
    expect_mass("sphere with margin", &rounded, rho, scaled(slices(sphere_section, ps, -0.75, 0.75), rho), 1e-6);
    double pe[3] = {0.5, 0.75, 1.25};
    gjk_shape ell = gjk_make_ellipsoid(gjk_v3(0.5, 0.75, 1.25));
    expect_mass("ellipsoid", &ell, rho, scaled(slices(ellipsoid_section, pe, -1.25, 1.25), rho), 1e-6);
    double pc[1] = {0.5};
    gjk_shape cyl = gjk_make_cylinder(0.5, 0.75);
    expect_mass("cylinder", &cyl, rho, scaled(slices(cylinder_section, pc, -0.75, 0.75), rho), 1e-6);
    double pk[2] = {0.5, 0.75};
    gjk_shape cone = gjk_make_cone(0.5, 0.75);
    expect_mass("cone", &cone, rho, scaled(slices(cone_section, pk, -0.75, 0.75), rho), 1e-6);
    double pcap[2] = {0.25, 1.5};
    gjk_shape cap = gjk_make_capsule(gjk_v3(0, 0, -0.75), gjk_v3(0, 0, 0.75), 0.25);
    sim_mass cref = scaled(slices(capsule_section, pcap, -1.0, 1.0), rho);
    expect_mass("capsule along z", &cap, rho, cref, 1e-6);
    // The same capsule along another axis and off the origin: the inertia
    // turns with it (R·I·Rᵀ), the centre is the segment's midpoint.
    sim_quat q = axis_angle(sv3(1, 2, 3), 0.7);
    sim_vec3 a = sq_rotate(q, sv3(0, 0, -0.75)), b = sq_rotate(q, sv3(0, 0, 0.75)), off = sv3(0.5, -0.25, 1);
    gjk_shape cap2 = gjk_make_capsule(sv_to_gjk(sv_add(a, off)), sv_to_gjk(sv_add(b, off)), 0.25);
    sim_mat3 r = sm_from_quat(q);
    sim_mass cref2 = cref;
    cref2.inertia = sm_rotate_tensor(&r, &cref.inertia);
    cref2.com = off;
    expect_mass("capsule, turned and moved", &cap2, rho, cref2, 1e-5);
}

static void test_mass_polytopes(void) {
    double rho = 1200;
    // A box as a hull: the same as the closed form, to rounding.
    gjk_vec3 corners[8];
    for (int k = 0; k < 8; ++k) {
        corners[k] = gjk_v3(k & 1 ? 0.5f : -0.5f, k & 2 ? 0.75f : -0.75f, k & 4 ? 0.25f : -0.25f);
    }
    gjk_hull *hull = gjk_hull_create(corners, 8, NULL);
    ENSURE(hull != NULL);
    gjk_shape box = gjk_make_box(gjk_v3(0.5, 0.75, 0.25));
    sim_mass ref;
    ENSURE(sim_mass_properties(&box, rho, &ref) == NULL);
    double m = rho * 8 * 0.5 * 0.75 * 0.25;
    ENSURE_NEAR(ref.mass, m, 1e-12 * m);
    ENSURE_NEAR(ref.inertia.m[0][0], m * (0.75 * 0.75 + 0.25 * 0.25) / 3, 1e-12 * m);
    if (hull != NULL) {
        gjk_shape h = gjk_make_hull(hull);
        expect_mass("box as a hull", &h, rho, ref, MASS_TOL);
        gjk_hull_destroy(hull);
    }
    // The box turned and moved: centre at the translation, inertia R·I·Rᵀ.
    sim_quat q = axis_angle(sv3(-1, 0.5, 2), 1.1);
    sim_vec3 t = sv3(2, -1, 0.5);
    for (int k = 0; k < 8; ++k) {
        corners[k] = sv_to_gjk(sv_add(sq_rotate(q, sv_from_gjk(corners[k])), t));
    }
    hull = gjk_hull_create(corners, 8, NULL);
    ENSURE(hull != NULL);
    if (hull != NULL) {
        gjk_shape h = gjk_make_hull(hull);
        sim_mat3 r = sm_from_quat(q);
        sim_mass moved = ref;
        moved.com = sv_from_gjk(sv_to_gjk(t));
        moved.inertia = sm_rotate_tensor(&r, &ref.inertia);
        expect_mass("box hull, turned and moved", &h, rho, moved, 1e-6);
        gjk_hull_destroy(hull);
    }
    // A tetrahedron: volume |det|/6, centre the mean of the corners, and
    // the inertia from the covariance of a uniform tetrahedron,
    // C = V/20·(Σ vᵢvᵢᵀ + (Σvᵢ)(Σvᵢ)ᵀ) about the origin (Tonon 2004).
    gjk_vec3 tet[4] = {{0, 0, 0}, {1, 0, 0}, {0.25f, 1, 0}, {0.5f, 0.25f, 0.75f}};
    hull = gjk_hull_create(tet, 4, NULL);
    ENSURE(hull != NULL);
    if (hull != NULL) {
        sim_vec3 v[4], sum = sv3(0, 0, 0);
        for (int k = 0; k < 4; ++k) {
            v[k] = sv_from_gjk(tet[k]);
            sum = sv_add(sum, v[k]);
        }
        double vol = fabs(sv_dot(sv_sub(v[1], v[0]), sv_cross(sv_sub(v[2], v[0]), sv_sub(v[3], v[0])))) / 6;
        sim_mass tm;
        tm.volume = vol;
        tm.mass = rho * vol;
        tm.com = sv_scale(0.25, sum);
        double cov[3][3];
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                double s = sv_get(sum, i) * sv_get(sum, j);
                for (int k = 0; k < 4; ++k) {
                    s += sv_get(v[k], i) * sv_get(v[k], j);
                }
                cov[i][j] = vol / 20 * s - vol * sv_get(tm.com, i) * sv_get(tm.com, j);
            }
        }
        double tr = cov[0][0] + cov[1][1] + cov[2][2];
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                tm.inertia.m[i][j] = rho * ((i == j ? tr : 0) - cov[i][j]);
            }
        }
        gjk_shape h = gjk_make_hull(hull);
        expect_mass("tetrahedron", &h, rho, tm, MASS_TOL);
        gjk_hull_destroy(hull);
    }
    // A prism on a regular 512-gon tends to the cylinder: the polygon's
    // area is (n/2)·r²·sin(2π/n), within 3e-5 of π r².
    enum { N = 512 };
    static gjk_vec3 prism[2 * N];
    for (int k = 0; k < N; ++k) {
        double a = 6.283185307179586 * k / N;
        prism[2 * k] = gjk_v3((gjk_real)(0.5 * cos(a)), (gjk_real)(0.5 * sin(a)), -0.75f);
        prism[2 * k + 1] = gjk_v3((gjk_real)(0.5 * cos(a)), (gjk_real)(0.5 * sin(a)), 0.75f);
    }
    hull = gjk_hull_create(prism, 2 * N, NULL);
    ENSURE(hull != NULL);
    if (hull != NULL) {
        gjk_shape h = gjk_make_hull(hull), cyl = gjk_make_cylinder(0.5, 0.75);
        sim_mass cm;
        ENSURE(sim_mass_properties(&cyl, rho, &cm) == NULL);
        expect_mass("512-gon prism vs cylinder", &h, rho, cm, 1e-4);
        gjk_hull_destroy(hull);
    }
}

static void test_mass_refusals(void) {
    sim_mass m;
    gjk_shape flat[3] = {gjk_make_point(), gjk_make_segment(gjk_v3(0, 0, 0), gjk_v3(1, 0, 0)),
                         gjk_make_triangle(gjk_v3(0, 0, 0), gjk_v3(1, 0, 0), gjk_v3(0, 1, 0))};
    for (int i = 0; i < 3; ++i) {
        ENSURE(sim_mass_properties(&flat[i], 1000, &m) != NULL);
    }
    gjk_shape rounded_box = gjk_with_margin(gjk_make_box(gjk_v3(1, 1, 1)), 0.1f);
    ENSURE(sim_mass_properties(&rounded_box, 1000, &m) != NULL);
    gjk_vec3 square[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    gjk_hull *hull = gjk_hull_create(square, 4, NULL);
    if (hull != NULL) {
        gjk_shape h = gjk_make_hull(hull);
        ENSURE(sim_mass_properties(&h, 1000, &m) != NULL); // flat
        gjk_hull_destroy(hull);
    }
    // The world refuses such a body unless it is static.
    sim_world *w = sim_world_create(NULL);
    sim_body_def d = body_def(flat[2], sv3(0, 0, 0), false);
    char error[256];
    ENSURE(sim_world_add_body(w, &d, error, sizeof error) < 0);
    d.is_static = true;
    ENSURE(sim_world_add_body(w, &d, error, sizeof error) == 0);
    sim_world_destroy(w);
}

/// Every pair of boxes that overlap, by testing all pairs.
static int brute_pairs(const sim_aabb *b, const bool *st, int n, sim_pair *out) {
    int k = 0;
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            if (st[i] && st[j]) {
                continue;
            }
            if (b[i].lo.x <= b[j].hi.x && b[j].lo.x <= b[i].hi.x && b[i].lo.y <= b[j].hi.y && b[j].lo.y <= b[i].hi.y &&
                b[i].lo.z <= b[j].hi.z && b[j].lo.z <= b[i].hi.z) {
                out[k].a = i;
                out[k].b = j;
                ++k;
            }
        }
    }
    return k;
}

static void test_broadphase(void) {
    enum { N = 600 };
    static sim_aabb boxes[N];
    static bool st[N];
    static sim_pair ref[N * N / 2];
    unsigned long long seed = 3;
    sim_broadphase bp;
    memset(&bp, 0, sizeof bp);
    int mismatches = 0, total = 0;
    for (int i = 0; i < N; ++i) {
        sim_vec3 c = sv3(rnd(&seed, 0, 20), rnd(&seed, 0, 6), rnd(&seed, 0, 6));
        sim_vec3 e = sv3(rnd(&seed, 0.05, 0.6), rnd(&seed, 0.05, 0.6), rnd(&seed, 0.05, 0.6));
        boxes[i].lo = sv_sub(c, e);
        boxes[i].hi = sv_add(c, e);
        st[i] = i % 17 == 0;
    }
    // A long static box across everything, and two boxes that only touch.
    boxes[0].lo = sv3(-1, -1, -1);
    boxes[0].hi = sv3(21, 7, 0.1);
    boxes[1].lo = sv3(30, 0, 0);
    boxes[1].hi = sv3(31, 1, 1);
    boxes[2].lo = sv3(31, 1, 1);
    boxes[2].hi = sv3(32, 2, 2);
    for (int round = 0; round < 20; ++round) {
        ENSURE(sim_broadphase_update(&bp, boxes, st, N));
        int n = brute_pairs(boxes, st, N, ref);
        total += n;
        if (n != bp.pair_count || memcmp(ref, bp.pairs, (size_t)n * sizeof *ref) != 0) {
            ++mismatches;
        }
        // Move every dynamic box a little (and some a lot) for the next round.
        for (int i = 3; i < N; ++i) {
            if (st[i]) {
                continue;
            }
            double s = i % 50 == 0 ? 3 : 0.2;
            sim_vec3 d = sv3(rnd(&seed, -s, s), rnd(&seed, -s, s), rnd(&seed, -s, s));
            boxes[i].lo = sv_add(boxes[i].lo, d);
            boxes[i].hi = sv_add(boxes[i].hi, d);
        }
    }
    printf("  broad phase: 20 rounds of %d boxes, %d pairs in all, %d rounds differing from all-pairs\n", N, total,
           mismatches);
    ENSURE(mismatches == 0);
    ENSURE(total > 0);
    sim_broadphase_free(&bp);
}

/// The states of `steps` steps of the built-in scene, as the program writes them.
static char *run_states(int steps, size_t *size) {
    sim_scene s;
    char error[512];
    if (!sim_scene_parse(gjk_sim_scene, &s, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        return NULL;
    }
    sim_world *w = sim_scene_world(&s, error, sizeof error);
    char *text = NULL;
    FILE *f = open_memstream(&text, size);
    char **ids = malloc((size_t)s.body_count * sizeof *ids);
    for (int i = 0; i < s.body_count; ++i) {
        ids[i] = s.bodies[i].id;
    }
    for (int k = 1; k <= steps; ++k) {
        sim_world_step(w);
        sim_write_states_line(f, w, ids, k, s.settings.dt);
    }
    fclose(f);
    free(ids);
    sim_world_destroy(w);
    sim_scene_free(&s);
    return text;
}

static void test_determinism(void) {
    size_t na = 0, nb = 0;
    char *a = run_states(240, &na);
    char *b = run_states(240, &nb);
    ENSURE(a != NULL && b != NULL);
    ENSURE(na > 0 && na == nb);
    ENSURE(a != NULL && b != NULL && na == nb && memcmp(a, b, na) == 0);
    printf("  determinism: two runs of 240 steps of the built-in scene, %zu bytes of states each, %s\n", na,
           a != NULL && b != NULL && na == nb && memcmp(a, b, na) == 0 ? "identical" : "DIFFERENT");
    free(a);
    free(b);
}

int main(void) {
    RUN_TEST(test_mass_round_shapes);
    RUN_TEST(test_mass_polytopes);
    RUN_TEST(test_mass_refusals);
    RUN_TEST(test_broadphase);
    RUN_TEST(test_determinism);
    return TEST_SUMMARY();
}

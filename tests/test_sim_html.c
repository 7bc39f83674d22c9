// The simulation's animation page (tools/sim_html.c): the meshes drawn for
// every shape type (closed, outward, convex, on the shape's surface), the
// page's contents (no external resource, every body and frame present),
// write errors, invalid runs and the page size of a large run.
//
// With a file argument it also writes the demonstration page that
// tests/html/html_test.sh opens in a headless browser:
//   test_sim_html PAGE [--large | --empty | --script-error | --hidden-canvas]
// --large writes the run of 200 bodies over 600 frames, --empty a run
// without bodies (a blank canvas), --script-error a page with an error
// injected after the player and --hidden-canvas one whose canvas a style
// hides: the browser test must reject the last three. It prints the expected
// "frames=F bodies=B contacts=C".
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_html.h"
#include "test_macros.h"

#if GJK_USE_FLOAT
#define MESH_TOL 2e-5
#else
#define MESH_TOL 1e-9
#endif

static gjk_vec3 v3(double x, double y, double z) { return gjk_v3((gjk_real)x, (gjk_real)y, (gjk_real)z); }

/// A custom shape: the octahedron |x| + |y| + |z| ≤ r (support: the vertex
/// on the axis of the largest |d_i|), r in user_data.
static gjk_vec3 octahedron_support(const void *user_data, gjk_vec3 d) {
    double r = *(const double *)user_data;
    double a[3] = {fabs((double)d.x), fabs((double)d.y), fabs((double)d.z)};
    int k = a[0] >= a[1] && a[0] >= a[2] ? 0 : a[1] >= a[2] ? 1 : 2;
    double s = (k == 0 ? (double)d.x : k == 1 ? (double)d.y : (double)d.z) < 0 ? -r : r;
    return v3(k == 0 ? s : 0, k == 1 ? s : 0, k == 2 ? s : 0);
}
static const double octahedron_radius = 0.45;

static const gjk_vec3 *cloud(void) {
    static gjk_vec3 pts[40];
    // Points on a squashed sphere plus interior ones (the hull drops them).
    for (int i = 0; i < 40; ++i) {
        double t = 2.399963 * i, z = 1 - (2 * i + 1) / 40.0, r = sqrt(1 - z * z);
        double s = i % 5 == 4 ? 0.5 : 1; // every fifth point inside
        pts[i] = v3(0.45 * s * r * cos(t), 0.3 * s * r * sin(t), 0.35 * s * z);
    }
    return pts;
}

/// The hull of cloud(), built on first use, destroyed at the end of main.
static gjk_hull *cloud_hull;

typedef struct named_shape {
    const char *id;
    gjk_shape shape;
    sim_html_mesh_kind kind;
} named_shape;

/// Every shape type, plain and rounded.
static int make_shapes(named_shape *s) {
    int n = 0;
    s[n++] = (named_shape){"point", gjk_make_point(), SIM_HTML_POINT};
    s[n++] = (named_shape){"point+margin", gjk_with_margin(gjk_make_point(), (gjk_real)0.25), SIM_HTML_SOLID};
    s[n++] = (named_shape){"segment", gjk_make_segment(v3(-0.4, 0, 0), v3(0.4, 0.1, 0.2)), SIM_HTML_LINE};
    s[n++] = (named_shape){"segment+margin", gjk_with_margin(gjk_make_segment(v3(-0.3, 0, 0), v3(0.3, 0, 0)), (gjk_real)0.15),
                           SIM_HTML_SOLID};
    s[n++] = (named_shape){"triangle", gjk_make_triangle(v3(-0.4, -0.3, 0), v3(0.4, -0.3, 0), v3(0, 0.4, 0.1)),
                           SIM_HTML_FLAT};
    s[n++] = (named_shape){"triangle+margin",
                           gjk_with_margin(gjk_make_triangle(v3(-0.4, -0.3, 0), v3(0.4, -0.3, 0), v3(0, 0.4, 0)),
                                           (gjk_real)0.08),
                           SIM_HTML_SOLID};
    s[n++] = (named_shape){"box", gjk_make_box(v3(0.4, 0.3, 0.2)), SIM_HTML_SOLID};
    s[n++] = (named_shape){"box+margin", gjk_with_margin(gjk_make_box(v3(0.3, 0.2, 0.15)), (gjk_real)0.1), SIM_HTML_SOLID};
    s[n++] = (named_shape){"sphere", gjk_make_sphere((gjk_real)0.4), SIM_HTML_SOLID};
    s[n++] = (named_shape){"capsule", gjk_make_capsule(v3(0, 0, -0.3), v3(0, 0, 0.3), (gjk_real)0.2), SIM_HTML_SOLID};
    s[n++] = (named_shape){"cylinder", gjk_make_cylinder((gjk_real)0.3, (gjk_real)0.35), SIM_HTML_SOLID};
    s[n++] = (named_shape){"cylinder+margin", gjk_with_margin(gjk_make_cylinder((gjk_real)0.25, (gjk_real)0.3), (gjk_real)0.05),
                           SIM_HTML_SOLID};
    s[n++] = (named_shape){"cone", gjk_make_cone((gjk_real)0.35, (gjk_real)0.4), SIM_HTML_SOLID};
    s[n++] = (named_shape){"cone+margin", gjk_with_margin(gjk_make_cone((gjk_real)0.3, (gjk_real)0.35), (gjk_real)0.05),
                           SIM_HTML_SOLID};
    s[n++] = (named_shape){"ellipsoid", gjk_make_ellipsoid(v3(0.45, 0.3, 0.2)), SIM_HTML_SOLID};
    s[n++] = (named_shape){"ellipsoid+margin", gjk_with_margin(gjk_make_ellipsoid(v3(0.35, 0.25, 0.15)), (gjk_real)0.05),
                           SIM_HTML_SOLID};
    s[n++] = (named_shape){"polytope", gjk_make_polytope(cloud(), 40), SIM_HTML_SOLID};
    if (!cloud_hull) cloud_hull = gjk_hull_create(cloud(), 40, NULL);
    if (cloud_hull) s[n++] = (named_shape){"polytope on a hull", gjk_make_hull(cloud_hull), SIM_HTML_SOLID};
    s[n++] = (named_shape){"polytope+margin", gjk_with_margin(gjk_make_polytope(cloud(), 40), (gjk_real)0.06), SIM_HTML_SOLID};
    s[n++] = (named_shape){"custom", gjk_make_custom(octahedron_support, &octahedron_radius, (gjk_real)octahedron_radius),
                           SIM_HTML_SOLID};
    s[n++] = (named_shape){"custom+margin",
                           gjk_with_margin(gjk_make_custom(octahedron_support, &octahedron_radius, (gjk_real)octahedron_radius),
                                           (gjk_real)0.05),
                           SIM_HTML_SOLID};
    return n;
}

/// h(d) = max over the shape of d·x (support function), d unit.
static double support_value(const gjk_shape *s, const double *d) {
    gjk_vec3 p = gjk_shape_support(s, v3(d[0], d[1], d[2]));
    return d[0] * (double)p.x + d[1] * (double)p.y + d[2] * (double)p.z;
}

static void check_mesh(const named_shape *ns) {
    sim_html_mesh m;
    int before = test_failures;
    ENSURE(sim_html_mesh_build(&ns->shape, &m) == 0);
    ENSURE(m.kind == ns->kind);
    // Size of the shape: the largest support value over the axes.
    double size = 0;
    for (int k = 0; k < 6; ++k) {
        double d[3] = {0, 0, 0};
        d[k / 2] = k % 2 ? -1 : 1;
        size = fmax(size, support_value(&ns->shape, d));
    }
    double tol = MESH_TOL * size;
    // Every vertex lies in the shape: d·v ≤ h(d) over many directions d.
    for (int j = 0; j < 200; ++j) {
        double z = 1 - (2 * j + 1) / 200.0, r = sqrt(1 - z * z), d[3] = {r * cos(2.4 * j), r * sin(2.4 * j), z};
        double h = support_value(&ns->shape, d), worst = -INFINITY;
        for (int v = 0; v < m.vertex_count; ++v)
            worst = fmax(worst, d[0] * m.vertices[3 * v] + d[1] * m.vertices[3 * v + 1] + d[2] * m.vertices[3 * v + 2]);
        if (!(worst <= h + tol)) {
            fprintf(stderr, "%s: a vertex lies %g outside along direction %d\n", ns->id, worst - h, j);
            ++test_failures;
            break;
        }
    }
    if (ns->kind == SIM_HTML_POINT) ENSURE(m.vertex_count == 1 && m.triangle_count == 0);
    if (ns->kind == SIM_HTML_LINE) ENSURE(m.vertex_count == 2 && m.triangle_count == 0);
    if (ns->kind == SIM_HTML_FLAT) ENSURE(m.triangle_count >= 1);
    if (ns->kind == SIM_HTML_SOLID) {
        ENSURE(m.triangle_count >= 4);
        // Closed: each directed edge a→b has exactly one reverse b→a.
        int open = 0;
        for (int t = 0; t < m.triangle_count; ++t)
            for (int e = 0; e < 3; ++e) {
                int a = m.triangles[3 * t + e], b = m.triangles[3 * t + (e + 1) % 3], rev = 0;
                for (int u = 0; u < m.triangle_count; ++u)
                    for (int g = 0; g < 3; ++g)
                        rev += m.triangles[3 * u + g] == b && m.triangles[3 * u + (g + 1) % 3] == a;
                open += rev != 1;
            }
        if (open) fprintf(stderr, "%s: %d edges without exactly one reverse\n", ns->id, open);
        ENSURE(open == 0);
        // Outward and convex: every vertex on the inner side of every face's
        // plane; each face close to a supporting plane of the shape (the
        // sag of a chord of the tessellation, a few per cent of the size).
        double volume = 0, worst_out = 0, worst_gap = 0;
        for (int t = 0; t < m.triangle_count; ++t) {
            const double *a = m.vertices + 3 * m.triangles[3 * t], *b = m.vertices + 3 * m.triangles[3 * t + 1],
                         *c = m.vertices + 3 * m.triangles[3 * t + 2];
            double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
            volume += (a[0] * n[0] + a[1] * n[1] + a[2] * n[2]) / 6;
            double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            ENSURE(len > 0);
            for (int k = 0; k < 3; ++k) n[k] /= len;
            double off = n[0] * a[0] + n[1] * a[1] + n[2] * a[2];
            for (int v = 0; v < m.vertex_count; ++v) {
                const double *x = m.vertices + 3 * v;
                worst_out = fmax(worst_out, n[0] * x[0] + n[1] * x[1] + n[2] * x[2] - off);
            }
            worst_gap = fmax(worst_gap, support_value(&ns->shape, n) - off);
        }
        ENSURE(volume > 0);
        if (!(worst_out <= 1e3 * tol)) fprintf(stderr, "%s: not convex by %g\n", ns->id, worst_out);
        ENSURE(worst_out <= 1e3 * tol);
        if (!(worst_gap <= 0.05 * size)) fprintf(stderr, "%s: a face lies %g inside the shape\n", ns->id, worst_gap);
        ENSURE(worst_gap <= 0.05 * size);
    }
    if (test_failures != before) fprintf(stderr, "mesh of %s failed\n", ns->id);
    sim_html_mesh_free(&m);
}

static void test_meshes(void) {
    named_shape s[32];
    int n = make_shapes(s);
    for (int i = 0; i < n; ++i) check_mesh(&s[i]);
    // Exact cases: the box is its 12 triangles with the exact volume; a
    // tessellated sphere lies inside the sphere with most of its volume.
    sim_html_mesh m;
    ENSURE(sim_html_mesh_build(&s[6].shape, &m) == 0);
    ENSURE(m.vertex_count == 8 && m.triangle_count == 12);
    sim_html_mesh_free(&m);
    // A polytope on a hull is drawn with the hull's faces: for a box's
    // corners, six quads of two triangles each.
    gjk_vec3 corners[8];
    for (int i = 0; i < 8; ++i) corners[i] = v3(i & 1 ? 0.3 : -0.3, i & 2 ? 0.2 : -0.2, i & 4 ? 0.25 : -0.25);
    gjk_hull *box_hull = gjk_hull_create(corners, 8, NULL);
    ENSURE(box_hull != NULL);
    if (box_hull) {
        ENSURE(box_hull->face_count == 6);
        named_shape hs = {"polytope on a box hull", gjk_make_hull(box_hull), SIM_HTML_SOLID};
        check_mesh(&hs);
        ENSURE(sim_html_mesh_build(&hs.shape, &m) == 0);
        ENSURE(m.vertex_count == 8 && m.triangle_count == 12);
        sim_html_mesh_free(&m);
        gjk_hull_destroy(box_hull);
    }
    // Invalid shapes are drawn as a marker, never fail.
    gjk_shape bad = gjk_make_sphere((gjk_real)-1);
    ENSURE(sim_html_mesh_build(&bad, &m) == 0 && m.kind == SIM_HTML_POINT);
    sim_html_mesh_free(&m);
    // Degenerate clouds: coplanar points draw flat, collinear ones a line.
    gjk_vec3 flat[5] = {v3(0, 0, 0), v3(1, 0, 0), v3(1, 1, 0), v3(0, 1, 0), v3(0.5, 0.5, 0)};
    gjk_shape fs = gjk_make_polytope(flat, 5);
    ENSURE(sim_html_mesh_build(&fs, &m) == 0 && m.kind == SIM_HTML_FLAT && m.triangle_count == 2 && m.vertex_count == 4);
    sim_html_mesh_free(&m);
    gjk_vec3 line[3] = {v3(0, 0, 0), v3(1, 1, 1), v3(2, 2, 2)};
    gjk_shape ls = gjk_make_polytope(line, 3);
    ENSURE(sim_html_mesh_build(&ls, &m) == 0 && m.kind == SIM_HTML_LINE);
    sim_html_mesh_free(&m);
}

/// The demonstration run: every shape over a static ground, turning and
/// bobbing over `frames` frames, one to three contacts a frame.
typedef struct demo_run {
    sim_html_body bodies[40];
    gjk_transform *poses;
    int *contact_first;
    sim_html_contact *contacts;
    sim_html_run run;
} demo_run;

static void demo_make(demo_run *d, int frames, bool empty) {
    named_shape s[32];
    int n = make_shapes(s), nb = 0;
    if (!empty) {
        d->bodies[nb++] = (sim_html_body){"ground", gjk_make_box(v3(3.2, 2.4, 0.1)), true};
        for (int i = 0; i < n; ++i) d->bodies[nb++] = (sim_html_body){s[i].id, s[i].shape, false};
    }
    d->poses = malloc(sizeof *d->poses * (size_t)(frames * (nb ? nb : 1)));
    d->contact_first = malloc(sizeof *d->contact_first * (size_t)(frames + 1));
    d->contacts = malloc(sizeof *d->contacts * (size_t)(3 * frames));
    int c = 0;
    for (int f = 0; f < frames; ++f) {
        d->contact_first[f] = c;
        for (int b = 0; b < nb; ++b) {
            gjk_transform *t = &d->poses[f * nb + b];
            if (b == 0) {
                *t = gjk_transform_make(v3(0, 0, -0.1), gjk_quat_identity());
                continue;
            }
            int i = b - 1;
            double x = -2.4 + 1.2 * (i % 5), y = -1.5 + 1.0 * (i / 5), z = 0.6 + 0.3 * cos(0.2 * f + i);
            *t = gjk_transform_make(v3(x, y, z), gjk_quat_from_axis_angle(v3(0.3, 1, 0.5), (gjk_real)(0.08 * f + i)));
        }
        if (nb)
            for (int k = 0; k <= f % 3; ++k)
                d->contacts[c++] = (sim_html_contact){v3(-2.4 + 1.2 * k, -1.5, 0), v3(0, 0, 1)};
    }
    d->contact_first[frames] = c;
    d->run = (sim_html_run){nb, d->bodies, frames, 1.0 / 30, d->poses, d->contact_first, d->contacts};
}

static void demo_free(demo_run *d) {
    free(d->poses);
    free(d->contact_first);
    free(d->contacts);
}

/// The whole file as a string (NULL on failure).
static char *slurp(FILE *f, long *size) {
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    rewind(f);
    char *s = malloc((size_t)*size + 1);
    if (s && fread(s, 1, (size_t)*size, f) == (size_t)*size) s[*size] = 0;
    else free(s), s = NULL;
    return s;
}

static int count_of(const char *s, const char *what) {
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what)) ++n;
    return n;
}

/// The "up" the page guesses for a run.
static int page_up(const sim_html_run *run) {
    FILE *f = tmpfile();
    int up = -1;
    long size;
    if (!f || sim_html_write(f, run) != 0) return -2;
    char *s = slurp(f, &size);
    fclose(f);
    const char *at = s ? strstr(s, "\"up\":") : NULL;
    if (!at || sscanf(at, "\"up\":%d", &up) != 1) up = -3;
    free(s);
    return up;
}

/// The up axis: from a ground slab toward the moving bodies, else against
/// a clear fall, else +z.
static void test_up(void) {
    sim_html_body two[2] = {{"ground", gjk_make_box(v3(10, 0.5, 10)), true}, {"ball", gjk_make_sphere(1), false}};
    gjk_transform poses[4];
    sim_html_run run = {2, two, 2, 0.1, poses, NULL, NULL};
    for (int sign = -1; sign <= 1; sign += 2) {
        for (int f = 0; f < 2; ++f) {
            poses[2 * f] = gjk_transform_make(v3(0, 0, 0), gjk_quat_identity());
            poses[2 * f + 1] = gjk_transform_make(v3(0, sign * (3 - f), 0), gjk_quat_identity());
        }
        ENSURE(page_up(&run) == (sign > 0 ? 2 : 3)); // +y, −y
    }
    // A ground turned by 90° about z: its thin axis is x.
    two[0].shape = gjk_make_box(v3(10, 0.5, 10));
    for (int f = 0; f < 2; ++f) {
        poses[2 * f] = gjk_transform_make(v3(0, 0, 0), gjk_quat_from_axis_angle(v3(0, 0, 1), (gjk_real)1.5707963267948966));
        poses[2 * f + 1] = gjk_transform_make(v3(4, 1, 0), gjk_quat_identity());
    }
    ENSURE(page_up(&run) == 0);
    // No ground: the bodies fell along −x; a fall not clearly along one axis
    // leaves +z.
    run.body_count = 1;
    run.bodies = two + 1;
    poses[0] = gjk_transform_make(v3(0, 0, 0), gjk_quat_identity());
    poses[1] = gjk_transform_make(v3(-5, 1, 0), gjk_quat_identity());
    ENSURE(page_up(&run) == 0); // +x, against the fall along −x
    poses[1] = gjk_transform_make(v3(-5, 4, 0), gjk_quat_identity());
    ENSURE(page_up(&run) == 4);
}

static void test_page(void) {
    demo_run d;
    demo_make(&d, 30, false);
    FILE *f = tmpfile();
    ENSURE(f != NULL);
    if (!f) return;
    ENSURE(sim_html_write(f, &d.run) == 0);
    long size;
    char *s = slurp(f, &size);
    fclose(f);
    ENSURE(s != NULL);
    if (s) {
        ENSURE(strncmp(s, "<!DOCTYPE html>", 15) == 0);
        ENSURE(strstr(s, "</html>") != NULL);
        // Self-contained: nothing fetched from anywhere.
        const char *external[] = {"http:", "https:", "src=", "href=", "@import", "url(", "<link", "<img", "<iframe",
                                  "fetch(", "XMLHttpRequest", "import("};
        for (size_t i = 0; i < sizeof external / sizeof *external; ++i) {
            if (strstr(s, external[i])) fprintf(stderr, "page contains %s\n", external[i]);
            ENSURE(strstr(s, external[i]) == NULL);
        }
        ENSURE(strstr(s, "<canvas") != NULL);
        ENSURE(strstr(s, "\"frames\":30,") != NULL);
        // One entry per body with its id; the static ground stores one pose.
        ENSURE(count_of(s, "{\"id\":") == d.run.body_count);
        ENSURE(strstr(s, "{\"id\":\"ground\",\"mesh\":0,\"static\":1,\"fixed\":1,\"pose\":0}") != NULL);
        ENSURE(strstr(s, "{\"id\":\"point\",\"mesh\":1,\"static\":0,\"fixed\":0,\"pose\":1}") != NULL);
        ENSURE(strstr(s, "\"contact_counts\":[1,2,3,1,2,3,") != NULL);
        // The player's script is all there, as in its source file.
        FILE *js = fopen(SIM_HTML_PLAYER_JS, "rb");
        ENSURE(js != NULL);
        if (js) {
            long js_size;
            char *player = slurp(js, &js_size);
            fclose(js);
            ENSURE(player && js_size > 1000 && strstr(s, player) != NULL);
            free(player);
        }
        printf("demonstration page (%d bodies, 30 frames): %ld bytes\n", d.run.body_count, size);
    }
    free(s);

    // Ids that would close the script are escaped.
    sim_html_body tricky = {"</script><b>\"x\"\\", gjk_make_sphere(1), false};
    gjk_transform pose = gjk_transform_identity();
    sim_html_run one = {1, &tricky, 1, 0.01, &pose, NULL, NULL};
    f = tmpfile();
    ENSURE(f && sim_html_write(f, &one) == 0);
    if (f) {
        s = slurp(f, &size);
        fclose(f);
        ENSURE(s && count_of(s, "</script>") == 3); // error hook, data, player
        ENSURE(s && strstr(s, "\"\\u003c/script\\u003e\\u003cb\\u003e\\\"x\\\"\\\\\"") != NULL);
        free(s);
    }

    // The camera frames the first frame, not the whole run: a body that
    // falls a kilometre away does not take the view with it, and a huge
    // static ground does not either.
    {
        sim_html_body three[3] = {{"ground", gjk_make_box(v3(500, 500, 0.5)), true},
                                  {"stays", gjk_make_sphere(1), false},
                                  {"falls", gjk_make_box(v3(1, 1, 1)), false}};
        gjk_transform poses[30];
        for (int fr = 0; fr < 10; ++fr) {
            poses[3 * fr] = gjk_transform_make(v3(0, 0, -0.5), gjk_quat_identity());
            poses[3 * fr + 1] = gjk_transform_make(v3(-2, 0, 1), gjk_quat_identity());
            poses[3 * fr + 2] = gjk_transform_make(v3(2, 0, 1 - 100.0 * fr * fr / 9), gjk_quat_identity());
        }
        sim_html_run fall = {3, three, 10, 0.1, poses, NULL, NULL};
        f = tmpfile();
        ENSURE(f && sim_html_write(f, &fall) == 0);
        if (f) {
            s = slurp(f, &size);
            fclose(f);
            double view[4] = {0, 0, 0, 0};
            const char *at = s ? strstr(s, "\"view\":[") : NULL;
            ENSURE(at && sscanf(at, "\"view\":[%lf,%lf,%lf,%lf]", &view[0], &view[1], &view[2], &view[3]) == 4);
            // The two bodies at frame 0 span x in [-3, 3], z in [0, 2]: the
            // sphere around that box has radius sqrt(3² + 1² + 1²).
            ENSURE_NEAR(view[0], 0, 1e-6);
            ENSURE_NEAR(view[2], 1, 1e-6);
            ENSURE_NEAR(view[3], sqrt(11.0), 1e-6);
            ENSURE(s && strstr(s, "\"up\":4,") != NULL); // +z: the moving bodies fell along −z
            free(s);
        }
    }

    // A write error is reported.
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        ENSURE(sim_html_write(full, &d.run) == -1);
        fclose(full);
    }
    // Inconsistent runs are refused.
    sim_html_run bad = d.run;
    bad.body_count = -1;
    ENSURE(sim_html_write(stdout, &bad) == -1);
    bad = d.run;
    bad.poses = NULL;
    ENSURE(sim_html_write(stdout, &bad) == -1);
    bad = d.run;
    int decreasing[31];
    memcpy(decreasing, d.contact_first, sizeof decreasing);
    decreasing[5] = decreasing[4] - 1;
    bad.contact_first = decreasing;
    ENSURE(sim_html_write(stdout, &bad) == -1);
    ENSURE(sim_html_write(NULL, &d.run) == -1);
    demo_free(&d);
}

/// A large run: 200 bodies (spheres, boxes, capsules) over 600 frames, 50
/// contacts a frame.
enum { LARGE_BODIES = 200, LARGE_FRAMES = 600, LARGE_CONTACTS = 50 };
typedef struct large_run {
    sim_html_body *bodies;
    gjk_transform *poses;
    int *first;
    sim_html_contact *contacts;
    sim_html_run run;
} large_run;

static bool large_make(large_run *l) {
    enum { NB = LARGE_BODIES, NF = LARGE_FRAMES, NC = LARGE_CONTACTS };
    l->bodies = malloc(sizeof *l->bodies * NB);
    l->poses = malloc(sizeof *l->poses * NB * NF);
    l->first = malloc(sizeof *l->first * (NF + 1));
    l->contacts = malloc(sizeof *l->contacts * NF * NC);
    if (!l->bodies || !l->poses || !l->first || !l->contacts) return false;
    for (int b = 0; b < NB; ++b) {
        gjk_shape s = b % 3 == 0 ? gjk_make_sphere((gjk_real)0.3)
                      : b % 3 == 1 ? gjk_make_box(v3(0.2, 0.3, 0.25))
                                   : gjk_make_capsule(v3(0, 0, -0.2), v3(0, 0, 0.2), (gjk_real)0.15);
        l->bodies[b] = (sim_html_body){"body", s, false};
    }
    for (int f = 0; f < NF; ++f)
        for (int b = 0; b < NB; ++b)
            l->poses[f * NB + b] = gjk_transform_make(v3(b % 20, b / 20, 10 - 0.01 * f),
                                                      gjk_quat_from_axis_angle(v3(0, 0, 1), (gjk_real)(0.01 * f * b)));
    for (int f = 0; f <= NF; ++f) l->first[f] = NC * f;
    for (int i = 0; i < NF * NC; ++i) l->contacts[i] = (sim_html_contact){v3(i % 20, i % 10, 0), v3(0, 0, 1)};
    l->run = (sim_html_run){NB, l->bodies, NF, 1.0 / 60, l->poses, l->first, l->contacts};
    return true;
}

static void large_free(large_run *l) { free(l->bodies), free(l->poses), free(l->first), free(l->contacts); }

/// The large run's page must stay a few megabytes (a pose is 14 bytes, 18.7
/// characters of base64; a contact 12 bytes, 16 characters).
static void test_size(void) {
    large_run l;
    bool made = large_make(&l);
    ENSURE(made);
    FILE *f = made ? tmpfile() : NULL;
    ENSURE(f && sim_html_write(f, &l.run) == 0);
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fclose(f);
        printf("200 bodies x 600 frames, 50 contacts a frame: %ld bytes\n", size);
        // 120000 poses x 18.67 + 30000 contacts x 16 = 2.72 MB of data.
        ENSURE(size < 3000000);
        ENSURE(size > 2700000);
    }
    large_free(&l);
}

int main(int argc, char **argv) {
    if (argc >= 2) {
        bool empty = argc > 2 && strcmp(argv[2], "--empty") == 0;
        bool broken = argc > 2 && strcmp(argv[2], "--script-error") == 0;
        bool hidden = argc > 2 && strcmp(argv[2], "--hidden-canvas") == 0;
        if (argc > 2 && strcmp(argv[2], "--large") == 0) {
            large_run l;
            FILE *f = fopen(argv[1], "w");
            int rc = f && large_make(&l) ? sim_html_write(f, &l.run) : -1;
            if (f && fclose(f)) rc = -1;
            printf("frames=%d bodies=%d contacts=%d\n", LARGE_FRAMES, LARGE_BODIES, LARGE_FRAMES * LARGE_CONTACTS);
            large_free(&l);
            return rc ? 1 : 0;
        }
        demo_run d;
        demo_make(&d, 30, empty);
        FILE *f = fopen(argv[1], "w");
        int rc = f ? sim_html_write(f, &d.run) : -1;
        if (f && broken) fputs("<script>gjkNoSuchFunction();</script>\n", f);
        if (f && hidden) fputs("<style>#view{visibility:hidden}</style>\n", f);
        if (f && fclose(f)) rc = -1;
        printf("frames=%d bodies=%d contacts=%d\n", d.run.frame_count, d.run.body_count,
               d.run.contact_first[d.run.frame_count]);
        demo_free(&d);
        gjk_hull_destroy(cloud_hull);
        return rc ? 1 : 0;
    }
    named_shape s[32];
    make_shapes(s);
    ENSURE(cloud_hull != NULL); // every shape type includes a polytope on a hull
    RUN_TEST(test_meshes);
    RUN_TEST(test_page);
    RUN_TEST(test_up);
    RUN_TEST(test_size);
    gjk_hull_destroy(cloud_hull);
    return TEST_SUMMARY();
}

// Trace pictures. Everything is drawn in a 2D view: 2D scenes directly, 3D
// scenes as an orthographic projection onto a plane that contains the
// answer's normal (so the separation or overlap along it is visible).
//
// Outlines of convex bodies are exact projections: the outline of a convex
// body seen along an axis is the set of its support points for directions in
// the view plane, so each outline is the convex hull of the support points
// in 720 directions of that plane (plus every vertex difference when both
// shapes are bare polytopes: the brute-force Minkowski difference).
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gjk/gjk2d.h"

void trace_record(void *data, const gjk_trace_event *event) {
    trace_log *log = data;
    if (log->out_of_memory) {
        return;
    }
    if (log->count == log->capacity) {
        int cap = log->capacity ? 2 * log->capacity : 32;
        trace_frame *grown = realloc(log->frames, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            log->out_of_memory = true;
            return;
        }
        log->frames = grown;
        log->capacity = cap;
    }
    trace_frame *f = &log->frames[log->count];
    memset(f, 0, sizeof *f);
    f->event = *event;
    if (event->vertex_count > 0) {
        f->vertices = malloc((size_t)event->vertex_count * sizeof *f->vertices);
        f->faces = malloc((size_t)(event->face_count > 0 ? event->face_count : 1) * sizeof *f->faces);
        if (f->vertices == NULL || f->faces == NULL) {
            free(f->vertices);
            free(f->faces);
            log->out_of_memory = true;
            return;
        }
        memcpy(f->vertices, event->vertices, (size_t)event->vertex_count * sizeof *f->vertices);
        if (event->face_count > 0) { // 2D EPA events list vertices only (faces NULL)
            memcpy(f->faces, event->faces, (size_t)event->face_count * sizeof *f->faces);
        }
    }
    f->event.vertices = f->vertices;
    f->event.faces = (const int(*)[3])f->faces;
    ++log->count;
}

void trace_log_free(trace_log *log) {
    for (int i = 0; i < log->count; ++i) {
        free(log->frames[i].vertices);
        free(log->frames[i].faces);
    }
    free(log->frames);
    memset(log, 0, sizeof *log);
}

// ---- the view --------------------------------------------------------------

typedef struct view {
    int dim;
    gjk_vec3 e1, e2; ///< 3D: orthonormal basis of the view plane.
} view;

static void project(const view *v, gjk_vec3 p, double *x, double *y) {
    if (v->dim == 2) {
        *x = (double)p.x, *y = (double)p.y;
    } else {
        *x = (double)gjk_dot(p, v->e1), *y = (double)gjk_dot(p, v->e2);
    }
}

static view make_view(int dim, const query_result *r) {
    view v = {dim, gjk_v3(1, 0, 0), gjk_v3(0, 1, 0)};
    if (dim == 3) {
        // The answer's normal points up the page; the horizontal axis is the
        // world axis (x, else y) least aligned with it. Without a normal: a
        // side view, z up.
        gjk_vec3 n = gjk_v3((gjk_real)r->normal[0], (gjk_real)r->normal[1], (gjk_real)r->normal[2]);
        gjk_vec3 up = r->has_normal && gjk_length_sq(n) > 0 ? gjk_normalize(n) : gjk_v3(0, 0, 1);
        gjk_vec3 side = gjk_abs(up.x) < (gjk_real)0.9 ? gjk_v3(1, 0, 0) : gjk_v3(0, 1, 0);
        v.e1 = gjk_normalize(gjk_sub(side, gjk_scale(gjk_dot(side, up), up)));
        v.e2 = up;
    }
    return v;
}

/// The world direction of angle t in the view plane.
static gjk_vec3 view_direction(const view *v, double t) {
    gjk_real c = (gjk_real)cos(t), s = (gjk_real)sin(t);
    if (v->dim == 2) {
        return gjk_v3(c, s, 0);
    }
    return gjk_add(gjk_scale(c, v->e1), gjk_scale(s, v->e2));
}

/// The shape without its rounding (the core GJK runs on).
static gjk_shape core3(gjk_shape s) {
    s.margin = 0;
    if (s.type == GJK_SHAPE_SPHERE) {
        s.sphere.radius = 0;
    } else if (s.type == GJK_SHAPE_CAPSULE) {
        s.capsule.radius = 0;
    }
    return s;
}
static gjk2_shape core2(gjk2_shape s) {
    s.margin = 0;
    if (s.type == GJK2_SHAPE_CIRCLE) {
        s.circle.radius = 0;
    } else if (s.type == GJK2_SHAPE_CAPSULE) {
        s.capsule.radius = 0;
    }
    return s;
}

/// World support point of a scene shape at its pose.
static gjk_vec3 world_support(int dim, const scene_shape *sh, const scene_pose *pose, gjk_vec3 d, bool core) {
    if (dim == 2) {
        gjk2_shape s = core ? core2(sh->shape2) : sh->shape2;
        gjk_transform2 t = pose->transform2;
        gjk_vec2 p = gjk2_shape_support(&s, gjk_rot2_inv_apply(t.rotation, gjk_v2(d.x, d.y)));
        p = gjk_transform2_point(t, p);
        return gjk_v3(p.x, p.y, 0);
    }
    gjk_shape s = core ? core3(sh->shape) : sh->shape;
    gjk_transform t = pose->transform;
    t.rotation = gjk_quat_normalize(t.rotation);
    return gjk_transform_point(t, gjk_shape_support(&s, gjk_quat_inv_rotate(t.rotation, d)));
}

enum { OUTLINE_SAMPLES = 720 };

/// A convex outline in view coordinates.
typedef struct outline {
    gjk_vec2 *p;
    int n;
} outline;

static outline hull_of(gjk_vec2 *pts, int n) {
    outline o = {malloc((size_t)(n > 0 ? n : 1) * sizeof(gjk_vec2)), 0};
    if (o.p != NULL && n > 0) {
        o.n = gjk2_convex_hull(pts, n, o.p);
        if (o.n < 0) {
            o.n = 0;
        }
    }
    return o;
}

/// Outline of one shape (b == NULL) or of the difference a − b.
static outline make_outline(const view *v, const scene_shape *a, const scene_pose *pa, const scene_shape *b,
                            const scene_pose *pb, bool core) {
    int dim = v->dim;
    int extra = 0;
    bool bare_a = dim == 3 ? a->shape.type == GJK_SHAPE_POLYTOPE && a->shape.margin == 0
                           : a->shape2.type == GJK2_SHAPE_POLYGON && a->shape2.margin == 0;
    bool bare_b = b == NULL || (dim == 3 ? b->shape.type == GJK_SHAPE_POLYTOPE && b->shape.margin == 0
                                         : b->shape2.type == GJK2_SHAPE_POLYGON && b->shape2.margin == 0);
    long pairs = b ? (long)a->vertex_count * b->vertex_count : a->vertex_count;
    bool brute = bare_a && bare_b && pairs <= 200000;
    if (brute) {
        extra = (int)pairs;
    }
    gjk_vec2 *pts = malloc((size_t)(OUTLINE_SAMPLES + extra) * sizeof *pts);
    if (pts == NULL) {
        outline none = {NULL, 0};
        return none;
    }
    int n = 0;
    for (int k = 0; k < OUTLINE_SAMPLES; ++k) {
        gjk_vec3 d = view_direction(v, 2 * 3.14159265358979323846 * k / OUTLINE_SAMPLES);
        gjk_vec3 p = world_support(dim, a, pa, d, core);
        if (b != NULL) {
            p = gjk_sub(p, world_support(dim, b, pb, gjk_neg(d), core));
        }
        double x, y;
        project(v, p, &x, &y);
        pts[n++] = gjk_v2((gjk_real)x, (gjk_real)y);
    }
    if (brute) {
        // Every vertex (difference) in world coordinates.
        for (int i = 0; i < a->vertex_count; ++i) {
            gjk_vec3 pa_w = dim == 3 ? gjk_transform_point(pa->transform, a->vertices[i])
                                     : gjk_v3(gjk_transform2_point(pa->transform2, a->vertices2[i]).x,
                                              gjk_transform2_point(pa->transform2, a->vertices2[i]).y, 0);
            for (int j = 0; j < (b ? b->vertex_count : 1); ++j) {
                gjk_vec3 p = pa_w;
                if (b != NULL) {
                    gjk_vec3 pb_w = dim == 3 ? gjk_transform_point(pb->transform, b->vertices[j])
                                             : gjk_v3(gjk_transform2_point(pb->transform2, b->vertices2[j]).x,
                                                      gjk_transform2_point(pb->transform2, b->vertices2[j]).y, 0);
                    p = gjk_sub(p, pb_w);
                }
                double x, y;
                project(v, p, &x, &y);
                pts[n++] = gjk_v2((gjk_real)x, (gjk_real)y);
            }
        }
    }
    outline o = hull_of(pts, n);
    free(pts);
    return o;
}

// ---- SVG drawing --------------------------------------------------------

enum { PANEL = 360, MARGIN = 28 };

/// Maps view coordinates into a panel.
typedef struct frame_map {
    double cx, cy, scale; ///< centre of the data box and pixels per unit
    double ox, oy;        ///< panel origin on the page
} frame_map;

static double sx(const frame_map *m, double x) { return m->ox + PANEL / 2.0 + (x - m->cx) * m->scale; }
static double sy(const frame_map *m, double y) { return m->oy + PANEL / 2.0 + 10 - (y - m->cy) * m->scale; }

typedef struct box2 {
    double x0, y0, x1, y1;
} box2;

static void box_add(box2 *b, double x, double y) {
    if (!isfinite(x) || !isfinite(y)) {
        return;
    }
    b->x0 = fmin(b->x0, x), b->y0 = fmin(b->y0, y), b->x1 = fmax(b->x1, x), b->y1 = fmax(b->y1, y);
}

static frame_map map_for(box2 b, double ox, double oy) {
    frame_map m;
    double w = b.x1 - b.x0, h = b.y1 - b.y0;
    double span = fmax(w, h);
    if (!(span > 0)) {
        span = 1;
    }
    m.cx = (b.x0 + b.x1) / 2, m.cy = (b.y0 + b.y1) / 2;
    m.scale = (PANEL - 2.0 * MARGIN) / (span * 1.1);
    m.ox = ox, m.oy = oy;
    return m;
}

static void svg_polygon(FILE *f, const frame_map *m, const outline *o, const char *style) {
    if (o->n <= 0) {
        return;
    }
    fputs("<polygon points=\"", f);
    for (int i = 0; i < o->n; ++i) {
        fprintf(f, "%s%.2f,%.2f", i ? " " : "", sx(m, (double)o->p[i].x), sy(m, (double)o->p[i].y));
    }
    fprintf(f, "\" %s/>\n", style);
}

static void svg_point(FILE *f, const frame_map *m, const view *v, gjk_vec3 p, const char *color, double r) {
    double x, y;
    project(v, p, &x, &y);
    fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" fill=\"%s\"/>\n", sx(m, x), sy(m, y), r, color);
}

static void svg_line(FILE *f, const frame_map *m, const view *v, gjk_vec3 a, gjk_vec3 b, const char *style) {
    double x0, y0, x1, y1;
    project(v, a, &x0, &y0);
    project(v, b, &x1, &y1);
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" %s/>\n", sx(m, x0), sy(m, y0), sx(m, x1),
            sy(m, y1), style);
}

/// An arrow of fixed on-screen length from p along direction d.
static void svg_arrow(FILE *f, const frame_map *m, const view *v, gjk_vec3 p, gjk_vec3 d, const char *color) {
    double x0, y0, dx, dy;
    project(v, p, &x0, &y0);
    project(v, d, &dx, &dy);
    double len = hypot(dx, dy);
    if (!(len > 0)) {
        return;
    }
    double X0 = sx(m, x0), Y0 = sy(m, y0);
    double ux = dx / len, uy = -dy / len; // screen y points down
    double X1 = X0 + 40 * ux, Y1 = Y0 + 40 * uy;
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2\"/>\n", X0, Y0, X1,
            Y1, color);
    fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" fill=\"%s\"/>\n", X1, Y1, X1 - 9 * ux + 4 * uy,
            Y1 - 9 * uy - 4 * ux, X1 - 9 * ux - 4 * uy, Y1 - 9 * uy + 4 * ux, color);
}

static void svg_text(FILE *f, double x, double y, const char *text, int size) {
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"%d\">", x, y, size);
    for (const char *p = text; *p; ++p) {
        if (*p == '<') {
            fputs("&lt;", f);
        } else if (*p == '&') {
            fputs("&amp;", f);
        } else if (*p == '>') {
            fputs("&gt;", f);
        } else {
            fputc(*p, f);
        }
    }
    fputs("</text>\n", f);
}

static void svg_origin(FILE *f, const frame_map *m) {
    double X = sx(m, 0), Y = sy(m, 0);
    fprintf(f, "<path d=\"M%.2f %.2fh12M%.2f %.2fv12\" stroke=\"#000\" stroke-width=\"1.5\"/>\n", X - 6, Y, X, Y - 6);
}

static void panel_frame(FILE *f, double ox, double oy, const char *title) {
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#bbb\"/>\n", ox, oy,
            PANEL, PANEL + 20);
    svg_text(f, ox + 8, oy + 18, title, 11);
}

/// Everything the panels share.
typedef struct picture {
    const scene *s;
    const scene_query *q;
    const query_result *r;
    const trace_log *log;
    view v;
    outline a, b, d, d_core;
    bool show_core;
    frame_map world_map, diff_map;
} picture;

static void draw_overview(FILE *f, const picture *P, double ox, double oy) {
    frame_map m = P->world_map;
    m.ox = ox, m.oy = oy;
    char title[256];
    snprintf(title, sizeof title, "%s: %s, %s", P->q->id, P->q->op_name, P->r->status);
    panel_frame(f, ox, oy, title);
    svg_polygon(f, &m, &P->a, "fill=\"#3a7bd5\" fill-opacity=\"0.25\" stroke=\"#3a7bd5\" stroke-width=\"1.5\"");
    svg_polygon(f, &m, &P->b, "fill=\"#f28e2b\" fill-opacity=\"0.25\" stroke=\"#f28e2b\" stroke-width=\"1.5\"");
    const query_result *r = P->r;
    if (r->has_points) {
        gjk_vec3 pa = gjk_v3((gjk_real)r->point_a[0], (gjk_real)r->point_a[1], (gjk_real)r->point_a[2]);
        gjk_vec3 pb = gjk_v3((gjk_real)r->point_b[0], (gjk_real)r->point_b[1], (gjk_real)r->point_b[2]);
        svg_line(f, &m, &P->v, pa, pb, "stroke=\"#333\" stroke-dasharray=\"4 3\"");
        svg_point(f, &m, &P->v, pa, "#1f4e99", 4);
        svg_point(f, &m, &P->v, pb, "#b35900", 4);
        if (r->has_normal) {
            gjk_vec3 n = gjk_v3((gjk_real)r->normal[0], (gjk_real)r->normal[1], (gjk_real)r->normal[2]);
            svg_arrow(f, &m, &P->v, pa, n, "#c00");
        }
    }
    char line[256];
    if (r->has_depth) {
        snprintf(line, sizeof line, "A blue, B orange; depth %.6g; normal A to B in red", r->depth);
    } else if (r->has_distance) {
        snprintf(line, sizeof line, "A blue, B orange; distance %.6g between the dots", r->distance);
    } else {
        snprintf(line, sizeof line, "A blue, B orange; intersect: %s", r->intersect ? "yes" : "no");
    }
    svg_text(f, ox + 8, oy + PANEL + 14, line, 11);
}

static void draw_step(FILE *f, const picture *P, const trace_frame *fr, int index, double ox, double oy) {
    const gjk_trace_event *e = &fr->event;
    frame_map m = P->diff_map;
    m.ox = ox, m.oy = oy;
    const char *phase = e->phase == GJK_TRACE_GJK ? "gjk" : "epa";
    fprintf(f, "<g class=\"frame\" id=\"frame-%d\" data-phase=\"%s\" data-iteration=\"%d\">\n", index, phase,
            e->iteration);
    char title[160];
    snprintf(title, sizeof title, "%s %d: A − B, red: nearest point and search, black: support",
             e->phase == GJK_TRACE_GJK ? "GJK" : "EPA", e->iteration);
    panel_frame(f, ox, oy, title);
    svg_polygon(f, &m, &P->d, "fill=\"#8e6bbf\" fill-opacity=\"0.15\" stroke=\"#8e6bbf\"");
    if (P->show_core) {
        svg_polygon(f, &m, &P->d_core, "fill=\"none\" stroke=\"#8e6bbf\" stroke-dasharray=\"5 4\"");
    }
    svg_origin(f, &m);
    if (e->phase == GJK_TRACE_GJK) {
        for (int i = 0; i < e->simplex_count; ++i) {
            for (int j = i + 1; j < e->simplex_count; ++j) {
                svg_line(f, &m, &P->v, e->simplex[i], e->simplex[j], "stroke=\"#2a9d8f\" stroke-width=\"2\"");
            }
        }
        for (int i = 0; i < e->simplex_count; ++i) {
            svg_point(f, &m, &P->v, e->simplex[i], "#2a9d8f", 3.5);
        }
    } else {
        for (int k = 0; k < e->face_count; ++k) {
            for (int i = 0; i < 3; ++i) {
                svg_line(f, &m, &P->v, e->vertices[e->faces[k][i]], e->vertices[e->faces[k][(i + 1) % 3]],
                         "stroke=\"#2a9d8f\" stroke-opacity=\"0.6\"");
            }
        }
    }
    svg_point(f, &m, &P->v, e->closest, "#e63946", 3.5);
    svg_arrow(f, &m, &P->v, e->closest, e->direction, "#e63946");
    svg_point(f, &m, &P->v, e->support, "#111", 4);
    char line[160];
    snprintf(line, sizeof line, "%s bounds [%.6g, %.6g]", e->phase == GJK_TRACE_GJK ? "distance" : "depth",
             (double)e->lower, (double)e->upper);
    svg_text(f, ox + 8, oy + PANEL + 14, line, 11);
    fputs("</g>\n", f);
}

static void outline_bounds(box2 *b, const outline *o) {
    for (int i = 0; i < o->n; ++i) {
        box_add(b, (double)o->p[i].x, (double)o->p[i].y);
    }
}

bool trace_write(FILE *f, const scene *s, const scene_query *q, const query_result *r, const trace_log *log,
                 bool html) {
    picture P;
    memset(&P, 0, sizeof P);
    P.s = s, P.q = q, P.r = r, P.log = log;
    P.v = make_view(s->dim, r);
    P.a = make_outline(&P.v, q->a, &q->pose_a, NULL, NULL, false);
    P.b = make_outline(&P.v, q->b, &q->pose_b, NULL, NULL, false);
    P.d = make_outline(&P.v, q->a, &q->pose_a, q->b, &q->pose_b, false);
    P.d_core = make_outline(&P.v, q->a, &q->pose_a, q->b, &q->pose_b, true);
    P.show_core = s->dim == 3 ? (q->a->shape.margin > 0 || q->b->shape.margin > 0 || q->a->shape.type == GJK_SHAPE_SPHERE ||
                                 q->b->shape.type == GJK_SHAPE_SPHERE || q->a->shape.type == GJK_SHAPE_CAPSULE ||
                                 q->b->shape.type == GJK_SHAPE_CAPSULE)
                              : (q->a->shape2.margin > 0 || q->b->shape2.margin > 0 ||
                                 q->a->shape2.type == GJK2_SHAPE_CIRCLE || q->b->shape2.type == GJK2_SHAPE_CIRCLE ||
                                 q->a->shape2.type == GJK2_SHAPE_CAPSULE || q->b->shape2.type == GJK2_SHAPE_CAPSULE);
    box2 wb = {1e300, 1e300, -1e300, -1e300}, db = wb;
    outline_bounds(&wb, &P.a);
    outline_bounds(&wb, &P.b);
    outline_bounds(&db, &P.d);
    box_add(&db, 0, 0);
    P.world_map = map_for(wb, 0, 0);
    P.diff_map = map_for(db, 0, 0);

    int panels = 1 + log->count;
    int cols = html ? 2 : 3;
    int rows = html ? 1 : (panels + cols - 1) / cols;
    int width = cols * (PANEL + 10) + 10, height = rows * (PANEL + 30) + 10;
    if (html) {
        // Polyglot markup: a browser reads it as HTML, and it is also
        // well-formed XML, which the tests check.
        fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/><title>gjk trace</title>\n"
              "<style>body{font-family:sans-serif;margin:16px}button{font-size:15px;margin-right:6px}"
              "#info{margin-left:10px}</style></head><body>\n",
              f);
        fprintf(f, "<h3>gjk trace: query \"%s\" (%s)</h3>\n", q->id, q->op_name);
        fputs("<div><button id=\"prev\">&#9664; prev</button><button id=\"next\">next &#9654;</button>"
              "<button id=\"play\">play</button><input id=\"step\" type=\"range\" min=\"1\" value=\"1\"/>"
              "<span id=\"info\"></span></div>\n",
              f);
    }
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#f6f6f6\"/>\n",
            width, height, width, height);
    draw_overview(f, &P, 10, 10);
    for (int i = 0; i < log->count; ++i) {
        int k = i + 1;
        double ox = html ? 10 + (PANEL + 10) : 10 + (k % cols) * (PANEL + 10);
        double oy = html ? 10 : 10 + (k / cols) * (PANEL + 30);
        draw_step(f, &P, &log->frames[i], i + 1, ox, oy);
    }
    if (log->count == 0) {
        svg_text(f, 10 + PANEL + 20, 40, "no iterations: answered before the first step", 13);
    }
    fputs("</svg>\n", f);
    if (html) {
        fprintf(f,
                "<script>//<![CDATA[\n(function(){var frames=document.querySelectorAll('g.frame');var n=frames.length;"
                "var s=document.getElementById('step');s.max=Math.max(n,1);var cur=1,timer=null;"
                "function show(k){cur=Math.min(Math.max(k,1),Math.max(n,1));for(var i=0;i<n;i++)"
                "frames[i].style.display=(i+1===cur)?'':'none';s.value=cur;"
                "document.getElementById('info').textContent=n?('frame '+cur+' of '+n+' ('+"
                "frames[cur-1].getAttribute('data-phase').toUpperCase()+' iteration '+"
                "frames[cur-1].getAttribute('data-iteration')+')'):'no iterations';}"
                "document.getElementById('prev').onclick=function(){show(cur-1);};"
                "document.getElementById('next').onclick=function(){show(cur+1);};"
                "s.oninput=function(){show(+s.value);};"
                "document.getElementById('play').onclick=function(){if(timer){clearInterval(timer);timer=null;return;}"
                "timer=setInterval(function(){if(cur>=n){clearInterval(timer);timer=null;}else show(cur+1);},700);};"
                "show(1);})();\n//]]></script>\n</body></html>\n");
    }
    free(P.a.p);
    free(P.b.p);
    free(P.d.p);
    free(P.d_core.p);
    return !ferror(f);
}

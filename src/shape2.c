// 2D shape constructors, validation and the public support function: the
// twin of shape.c.
#include <string.h>

#include "internal2.h"

static gjk2_shape shape_of(gjk2_shape_type type) {
    gjk2_shape s;
    // Zero every byte so that unused union members compare and copy cleanly.
    memset(&s, 0, sizeof s);
    s.type = type;
    return s;
}

gjk2_shape gjk2_make_point(void) { return shape_of(GJK2_SHAPE_POINT); }

gjk2_shape gjk2_make_segment(gjk_vec2 a, gjk_vec2 b) {
    gjk2_shape s = shape_of(GJK2_SHAPE_SEGMENT);
    s.segment.a = a;
    s.segment.b = b;
    return s;
}

gjk2_shape gjk2_make_triangle(gjk_vec2 a, gjk_vec2 b, gjk_vec2 c) {
    gjk2_shape s = shape_of(GJK2_SHAPE_TRIANGLE);
    s.triangle.a = a;
    s.triangle.b = b;
    s.triangle.c = c;
    return s;
}

gjk2_shape gjk2_make_box(gjk_vec2 half_extents) {
    gjk2_shape s = shape_of(GJK2_SHAPE_BOX);
    s.box.half_extents = half_extents;
    return s;
}

gjk2_shape gjk2_make_circle(gjk_real radius) {
    gjk2_shape s = shape_of(GJK2_SHAPE_CIRCLE);
    s.circle.radius = radius;
    return s;
}

gjk2_shape gjk2_make_ellipse(gjk_vec2 radii) {
    gjk2_shape s = shape_of(GJK2_SHAPE_ELLIPSE);
    s.ellipse.radii = radii;
    return s;
}

gjk2_shape gjk2_make_capsule(gjk_vec2 a, gjk_vec2 b, gjk_real radius) {
    gjk2_shape s = shape_of(GJK2_SHAPE_CAPSULE);
    s.capsule.a = a;
    s.capsule.b = b;
    s.capsule.radius = radius;
    return s;
}

gjk2_shape gjk2_make_polygon(const gjk_vec2 *vertices, int count) {
    gjk2_shape s = shape_of(GJK2_SHAPE_POLYGON);
    s.polygon.vertices = vertices;
    s.polygon.count = count;
    return s;
}

gjk2_shape gjk2_make_convex_polygon(const gjk_vec2 *vertices, int count) {
    gjk2_shape s = gjk2_make_polygon(vertices, count);
    if (count >= 3) {
        gjk2_convexity_output c = gjk2_polygon_convexity(vertices, count);
        s.polygon.convex = c.convexity == GJK2_CONVEX && c.orientation > 0;
    }
    return s;
}

gjk2_shape gjk2_make_custom(gjk2_support_fn support, const void *user_data, gjk_real radius) {
    gjk2_shape s = shape_of(GJK2_SHAPE_CUSTOM);
    s.custom.support = support;
    s.custom.user_data = user_data;
    s.custom.radius = radius;
    return s;
}

gjk2_shape gjk2_with_margin(gjk2_shape shape, gjk_real margin) {
    shape.margin = margin;
    return shape;
}

// The checks below answer 1 or 0 as int, not bool: they are combined with &
// rather than && so that no branch is taken, which clang flags on bool
// operands (-Wbitwise-instead-of-logical).

/// x finite and ≥ 0, in one combined test (NaN fails both comparisons,
/// +inf the upper bound).
static int nonneg(gjk_real x) { return (x >= 0) & (x <= GJK_REAL_MAX); }

static int nonneg_vec2(gjk_vec2 v) { return nonneg(v.x) & nonneg(v.y); }

/// Both points finite, in one test: each x − x is 0 for finite x and NaN
/// otherwise, and a NaN survives the sum.
static int finite_pair(gjk_vec2 a, gjk_vec2 b) {
    gjk_real z = (a.x - a.x) + (a.y - a.y) + (b.x - b.x) + (b.y - b.y);
    return z == z;
}

bool gjk2_shape_check(const gjk2_shape *s, bool every_vertex) {
    if (s == NULL || !nonneg(s->margin)) {
        return false;
    }
    switch (s->type) {
    case GJK2_SHAPE_POINT: return true;
    case GJK2_SHAPE_SEGMENT: return finite_pair(s->segment.a, s->segment.b);
    case GJK2_SHAPE_TRIANGLE: return finite_pair(s->triangle.a, s->triangle.b) & (int)gjk_is_valid_vec2(s->triangle.c);
    case GJK2_SHAPE_BOX: return nonneg_vec2(s->box.half_extents);
    case GJK2_SHAPE_CIRCLE: return nonneg(s->circle.radius);
    case GJK2_SHAPE_ELLIPSE: return nonneg_vec2(s->ellipse.radii);
    case GJK2_SHAPE_CAPSULE:
        return finite_pair(s->capsule.a, s->capsule.b) & nonneg(s->capsule.radius);
    case GJK2_SHAPE_POLYGON:
        if (s->polygon.vertices == NULL || s->polygon.count <= 0) {
            return false;
        }
    {
        // A NaN vertex would never win a support comparison and so would
        // go unnoticed: the queries read every vertex once (only the
        // public support function skips this), but for a convex polygon,
        // whose points gjk2_make_convex_polygon found finite (and which
        // must stay unchanged: gjk2d.h): two 16-gons' distance query, 5203
        // -> 5007 instructions. One test at the end: each x − x is 0 for
        // finite x and NaN otherwise, and a NaN survives the sum.
        // Two vertices a step, in two sums (independent chains).
        const gjk_vec2 *v = s->polygon.vertices;
        int n = every_vertex && !s->polygon.convex ? s->polygon.count : 1;
        gjk_real z0 = 0, z1 = 0;
        int i = 0;
        for (; i + 1 < n; i += 2) {
            z0 += (v[i].x - v[i].x) + (v[i].y - v[i].y);
            z1 += (v[i + 1].x - v[i + 1].x) + (v[i + 1].y - v[i + 1].y);
        }
        if (i < n) {
            z0 += (v[i].x - v[i].x) + (v[i].y - v[i].y);
        }
        gjk_real z = z0 + z1;
        return z == z;
    }
    case GJK2_SHAPE_CUSTOM: return (s->custom.support != NULL) & nonneg(s->custom.radius);
    default: return false;
    }
}

gjk_status gjk2_shape_validate(const gjk2_shape *shape) {
    return gjk2_shape_check(shape, true) ? GJK_SEPARATED : GJK_INVALID_INPUT;
}

gjk_real gjk2_shape_size(const gjk2_shape *s) {
    switch (s->type) {
    case GJK2_SHAPE_SEGMENT: return gjk_max(gjk2_max_abs(s->segment.a), gjk2_max_abs(s->segment.b));
    case GJK2_SHAPE_CAPSULE: return gjk_max(gjk2_max_abs(s->capsule.a), gjk2_max_abs(s->capsule.b));
    case GJK2_SHAPE_TRIANGLE:
        return gjk_max(gjk2_max_abs(s->triangle.a), gjk_max(gjk2_max_abs(s->triangle.b), gjk2_max_abs(s->triangle.c)));
    case GJK2_SHAPE_BOX: return gjk2_max_abs(s->box.half_extents);
    case GJK2_SHAPE_ELLIPSE: return gjk2_max_abs(s->ellipse.radii);
    case GJK2_SHAPE_POLYGON: return gjk2_max_abs(s->polygon.vertices[0]);
    case GJK2_SHAPE_CUSTOM: return s->custom.radius;
    default: return 0;
    }
}

/// max(|a|, |b|), but NaN or infinite when a or b is: a non-finite support
/// point must make the bound non-finite (the caller's check), and a plain
/// comparison would drop a NaN.
static gjk_real abs_max(gjk_real a, gjk_real b) {
    if (!gjk_is_valid_real(a) || !gjk_is_valid_real(b)) {
        return a + b;
    }
    return gjk_max(gjk_abs(a), gjk_abs(b));
}

gjk_real gjk2_shape_core_bound(const gjk2_shape *s) {
    gjk_real r = 0;
    switch (s->type) {
    case GJK2_SHAPE_SEGMENT: r = gjk_max(gjk_length2(s->segment.a), gjk_length2(s->segment.b)); break;
    case GJK2_SHAPE_CAPSULE: r = gjk_max(gjk_length2(s->capsule.a), gjk_length2(s->capsule.b)); break;
    case GJK2_SHAPE_TRIANGLE:
        r = gjk_max(gjk_length2(s->triangle.a), gjk_max(gjk_length2(s->triangle.b), gjk_length2(s->triangle.c)));
        break;
    case GJK2_SHAPE_BOX: r = gjk_length2(s->box.half_extents); break;
    case GJK2_SHAPE_ELLIPSE: r = gjk2_max_abs(s->ellipse.radii); break;
    case GJK2_SHAPE_POLYGON:
        // The largest squared length, then one square root: the same number
        // (the square root is correctly rounded and never decreasing).
        for (int i = 0; i < s->polygon.count; ++i) {
            r = gjk_max(r, gjk_length_sq2(s->polygon.vertices[i]));
        }
        r = gjk_sqrt(r);
        break;
    case GJK2_SHAPE_CUSTOM: {
        // The radius hint only sets the tolerance scale, so it is not
        // trusted here: a convex shape lies in the box of its four axis
        // supports.
        const void *u = s->custom.user_data;
        gjk_real x = abs_max(s->custom.support(u, gjk_v2(1, 0)).x, s->custom.support(u, gjk_v2(-1, 0)).x);
        gjk_real y = abs_max(s->custom.support(u, gjk_v2(0, 1)).y, s->custom.support(u, gjk_v2(0, -1)).y);
        r = gjk_length2(gjk_v2(x, y));
        break;
    }
    default: break; // a point or a circle: the core is the origin
    }
    return r;
}

gjk_real gjk2_shape_bound(const gjk2_shape *s) { return gjk2_shape_core_bound(s) + gjk2_core_radius(s); }

gjk_vec2 gjk2_shape_support(const gjk2_shape *shape, gjk_vec2 direction) {
    if (!gjk2_shape_check(shape, false) || !gjk_is_valid_vec2(direction)) {
        return gjk_v2(0, 0);
    }
    bool zero = direction.x == 0 && direction.y == 0; // as gjk_shape_support
    gjk_vec2 d = zero ? gjk_v2(1, 0) : direction;
    gjk_vec2 p = gjk2_core_support(shape, d);
    gjk_real r = gjk2_core_radius(shape);
    if (r > 0 && !zero) {
        p = gjk_mul_add2(p, r, gjk_normalize2(direction));
    }
    return p;
}

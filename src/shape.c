// Shape constructors, validation and the public support function.
#include <string.h>

#include "internal.h"

static gjk_shape shape_of(gjk_shape_type type) {
    gjk_shape s;
    // Zero every byte so that unused union members compare and copy cleanly.
    memset(&s, 0, sizeof s);
    s.type = type;
    return s;
}

gjk_shape gjk_make_point(void) { return shape_of(GJK_SHAPE_POINT); }

gjk_shape gjk_make_segment(gjk_vec3 a, gjk_vec3 b) {
    gjk_shape s = shape_of(GJK_SHAPE_SEGMENT);
    s.segment.a = a;
    s.segment.b = b;
    return s;
}

gjk_shape gjk_make_triangle(gjk_vec3 a, gjk_vec3 b, gjk_vec3 c) {
    gjk_shape s = shape_of(GJK_SHAPE_TRIANGLE);
    s.triangle.a = a;
    s.triangle.b = b;
    s.triangle.c = c;
    return s;
}

gjk_shape gjk_make_box(gjk_vec3 half_extents) {
    gjk_shape s = shape_of(GJK_SHAPE_BOX);
    s.box.half_extents = half_extents;
    return s;
}

gjk_shape gjk_make_sphere(gjk_real radius) {
    gjk_shape s = shape_of(GJK_SHAPE_SPHERE);
    s.sphere.radius = radius;
    return s;
}

gjk_shape gjk_make_capsule(gjk_vec3 a, gjk_vec3 b, gjk_real radius) {
    gjk_shape s = shape_of(GJK_SHAPE_CAPSULE);
    s.capsule.a = a;
    s.capsule.b = b;
    s.capsule.radius = radius;
    return s;
}

gjk_shape gjk_make_cylinder(gjk_real radius, gjk_real half_height) {
    gjk_shape s = shape_of(GJK_SHAPE_CYLINDER);
    s.cylinder.radius = radius;
    s.cylinder.half_height = half_height;
    return s;
}

gjk_shape gjk_make_cone(gjk_real radius, gjk_real half_height) {
    gjk_shape s = shape_of(GJK_SHAPE_CONE);
    s.cone.radius = radius;
    s.cone.half_height = half_height;
    return s;
}

gjk_shape gjk_make_ellipsoid(gjk_vec3 radii) {
    gjk_shape s = shape_of(GJK_SHAPE_ELLIPSOID);
    s.ellipsoid.radii = radii;
    return s;
}

gjk_shape gjk_make_polytope(const gjk_vec3 *vertices, int count) {
    gjk_shape s = shape_of(GJK_SHAPE_POLYTOPE);
    s.polytope.vertices = vertices;
    s.polytope.count = count;
    return s;
}

gjk_shape gjk_make_hull(const gjk_hull *hull) {
    gjk_shape s = shape_of(GJK_SHAPE_POLYTOPE);
    if (hull != NULL) {
        s.polytope.vertices = hull->vertices;
        s.polytope.count = hull->vertex_count;
        s.polytope.hull = hull;
    }
    return s;
}

gjk_shape gjk_make_custom(gjk_support_fn support, const void *user_data, gjk_real radius) {
    gjk_shape s = shape_of(GJK_SHAPE_CUSTOM);
    s.custom.support = support;
    s.custom.user_data = user_data;
    s.custom.radius = radius;
    return s;
}

gjk_shape gjk_with_margin(gjk_shape shape, gjk_real margin) {
    shape.margin = margin;
    return shape;
}

/// Finite and ≥ 0 (NaN fails both comparisons, +inf the second).
static bool nonneg(gjk_real x) { return x >= 0 && x <= GJK_REAL_MAX; }

static bool nonneg_vec3(gjk_vec3 v) { return gjk_min(v.x, gjk_min(v.y, v.z)) >= 0 && gjk_is_valid_vec3(v); }

bool gjk_shape_check(const gjk_shape *s, bool every_vertex) {
    if (s == NULL || !nonneg(s->margin)) {
        return false;
    }
    switch (s->type) {
    case GJK_SHAPE_POINT: return true;
    case GJK_SHAPE_SEGMENT: return gjk_is_valid_vec3(s->segment.a) && gjk_is_valid_vec3(s->segment.b);
    case GJK_SHAPE_TRIANGLE:
        return gjk_is_valid_vec3(s->triangle.a) && gjk_is_valid_vec3(s->triangle.b) &&
               gjk_is_valid_vec3(s->triangle.c);
    case GJK_SHAPE_BOX: return nonneg_vec3(s->box.half_extents);
    case GJK_SHAPE_SPHERE: return nonneg(s->sphere.radius);
    case GJK_SHAPE_CAPSULE:
        return gjk_is_valid_vec3(s->capsule.a) && gjk_is_valid_vec3(s->capsule.b) && nonneg(s->capsule.radius);
    case GJK_SHAPE_CYLINDER: return nonneg(s->cylinder.radius) && nonneg(s->cylinder.half_height);
    case GJK_SHAPE_CONE: return nonneg(s->cone.radius) && nonneg(s->cone.half_height);
    case GJK_SHAPE_ELLIPSOID: return nonneg_vec3(s->ellipsoid.radii);
    case GJK_SHAPE_POLYTOPE:
        if (s->polytope.vertices == NULL || s->polytope.count <= 0) {
            return false;
        }
        if (s->polytope.hull != NULL) {
            // Validated when the hull was built; the shape must be the one
            // gjk_make_hull made (hill climbing reads the hull's arrays).
            return s->polytope.hull->vertices == s->polytope.vertices &&
                   s->polytope.hull->vertex_count == s->polytope.count;
        }
        // A NaN vertex would never win a support comparison and so would
        // go unnoticed: the queries read every vertex once. (Only the
        // public support function skips this.)
        for (int i = 0; i < (every_vertex ? s->polytope.count : 1); ++i) {
            if (!gjk_is_valid_vec3(s->polytope.vertices[i])) {
                return false;
            }
        }
        return true;
    case GJK_SHAPE_CUSTOM: return s->custom.support != NULL && nonneg(s->custom.radius);
    default: return false;
    }
}

gjk_status gjk_shape_validate(const gjk_shape *shape) {
    return gjk_shape_check(shape, true) ? GJK_SEPARATED : GJK_INVALID_INPUT;
}

gjk_real gjk_shape_size(const gjk_shape *s) {
    switch (s->type) {
    case GJK_SHAPE_SEGMENT: return gjk_max(gjk_max_abs(s->segment.a), gjk_max_abs(s->segment.b));
    case GJK_SHAPE_CAPSULE: return gjk_max(gjk_max_abs(s->capsule.a), gjk_max_abs(s->capsule.b));
    case GJK_SHAPE_TRIANGLE:
        return gjk_max(gjk_max_abs(s->triangle.a), gjk_max(gjk_max_abs(s->triangle.b), gjk_max_abs(s->triangle.c)));
    case GJK_SHAPE_BOX: return gjk_max_abs(s->box.half_extents);
    case GJK_SHAPE_CYLINDER: return gjk_max(s->cylinder.radius, s->cylinder.half_height);
    case GJK_SHAPE_CONE: return gjk_max(s->cone.radius, s->cone.half_height);
    case GJK_SHAPE_ELLIPSOID: return gjk_max_abs(s->ellipsoid.radii);
    case GJK_SHAPE_POLYTOPE: return gjk_max_abs(s->polytope.vertices[0]);
    case GJK_SHAPE_CUSTOM: return s->custom.radius;
    default: return 0;
    }
}

gjk_real gjk_shape_core_bound(const gjk_shape *s) {
    gjk_real r = 0;
    switch (s->type) {
    case GJK_SHAPE_SEGMENT: r = gjk_max(gjk_length(s->segment.a), gjk_length(s->segment.b)); break;
    case GJK_SHAPE_CAPSULE: r = gjk_max(gjk_length(s->capsule.a), gjk_length(s->capsule.b)); break;
    case GJK_SHAPE_TRIANGLE:
        r = gjk_max(gjk_length(s->triangle.a), gjk_max(gjk_length(s->triangle.b), gjk_length(s->triangle.c)));
        break;
    case GJK_SHAPE_BOX: r = gjk_length(s->box.half_extents); break;
    case GJK_SHAPE_CYLINDER:
        r = gjk_sqrt(s->cylinder.radius * s->cylinder.radius + s->cylinder.half_height * s->cylinder.half_height);
        break;
    case GJK_SHAPE_CONE: // the base rim is the farthest from the centre (apex at h ≤ it)
        r = gjk_sqrt(s->cone.radius * s->cone.radius + s->cone.half_height * s->cone.half_height);
        break;
    case GJK_SHAPE_ELLIPSOID: r = gjk_max_abs(s->ellipsoid.radii); break;
    case GJK_SHAPE_POLYTOPE:
        if (s->polytope.hull != NULL) {
            r = s->polytope.hull->radius;
            break;
        }
        for (int i = 0; i < s->polytope.count; ++i) {
            r = gjk_max(r, gjk_length(s->polytope.vertices[i]));
        }
        break;
    case GJK_SHAPE_CUSTOM: {
        // The radius hint only sets the tolerance scale, so it is not
        // trusted here: a convex shape lies in the box of its six axis
        // supports.
        const void *u = s->custom.user_data;
        gjk_real x = gjk_max(gjk_abs(s->custom.support(u, gjk_v3(1, 0, 0)).x),
                             gjk_abs(s->custom.support(u, gjk_v3(-1, 0, 0)).x));
        gjk_real y = gjk_max(gjk_abs(s->custom.support(u, gjk_v3(0, 1, 0)).y),
                             gjk_abs(s->custom.support(u, gjk_v3(0, -1, 0)).y));
        gjk_real z = gjk_max(gjk_abs(s->custom.support(u, gjk_v3(0, 0, 1)).z),
                             gjk_abs(s->custom.support(u, gjk_v3(0, 0, -1)).z));
        r = gjk_length(gjk_v3(x, y, z));
        break;
    }
    default: break; // a point or a sphere: the core is the origin
    }
    return r;
}

gjk_real gjk_shape_bound(const gjk_shape *s) { return gjk_shape_core_bound(s) + gjk_core_radius(s); }

gjk_vec3 gjk_shape_support(const gjk_shape *shape, gjk_vec3 direction) {
    if (!gjk_shape_check(shape, false) || !gjk_is_valid_vec3(direction)) {
        return gjk_v3_zero();
    }
    // Zero when every component is (|d|² may underflow to zero without).
    bool zero = direction.x == 0 && direction.y == 0 && direction.z == 0;
    gjk_vec3 d = zero ? gjk_v3(1, 0, 0) : direction;
    gjk_vec3 p = gjk_core_support(shape, d);
    gjk_real r = gjk_core_radius(shape);
    if (r > 0 && !zero) {
        p = gjk_mul_add(p, r, gjk_normalize(direction));
    }
    return p;
}

const char *gjk_status_name(gjk_status status) {
    switch (status) {
    case GJK_SEPARATED: return "separated";
    case GJK_TOUCHING: return "touching";
    case GJK_PENETRATING: return "penetrating";
    case GJK_HIT: return "hit";
    case GJK_MISS: return "miss";
    case GJK_INITIALLY_OVERLAPPING: return "initially overlapping";
    case GJK_INVALID_INPUT: return "invalid input";
    case GJK_NOT_CONVERGED: return "not converged";
    default: return "unknown";
    }
}

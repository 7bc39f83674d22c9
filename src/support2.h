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

static inline gjk_vec2 gjk2_support_points(const gjk_vec2 *v, int count, gjk_vec2 d) {
    int best = 0;
    gjk_real best_dot = gjk_dot2(v[0], d);
    for (int i = 1; i < count; ++i) {
        // Selects rather than a branch: which vertex wins is unpredictable.
        gjk_real t = gjk_dot2(v[i], d);
        bool better = t > best_dot;
        best = better ? i : best;
        best_dot = better ? t : best_dot;
    }
    return v[best];
}

/// The point of the core of `s` farthest along `d` (local frame). `d` need
/// not be unit; a zero `d` gives some point of the core.
static inline gjk_vec2 gjk2_core_support(const gjk2_shape *s, gjk_vec2 d) {
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
        return gjk2_support_points(s->polygon.vertices, s->polygon.count, d);
    case GJK2_SHAPE_CUSTOM:
        return s->custom.support(s->custom.user_data, d);
    default:
        return gjk_v2(0, 0);
    }
}

#endif // GJK_SUPPORT2_H

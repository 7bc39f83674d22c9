// The axis-aligned bounding box of a posed 2D shape: the twin of aabb.c.
// With the pose x ↦ R x + p, R = [c −s; s c], the bound along world axis i
// is p_i plus the core's support value along row i of R, plus the rounding
// radius. Closed forms: a box's half extents are (|c| h_x + |s| h_y,
// |s| h_x + |c| h_y), an ellipse's |(c r_x, −s r_y)| and |(s r_x, c r_y)|.
#include "internal2.h"

#include "support2.h"

/// |v| without overflow or underflow of the squares (see aabb.c).
static gjk_real safe_length2(gjk_vec2 v) {
    gjk_real m = gjk2_max_abs(v);
    if (!(m > 0)) {
        return 0;
    }
    int k = gjk_shift_outside(m, 1, 1);
    gjk_vec2 u = gjk_scale2(gjk_ldexp(1, -k), v);
    return gjk_ldexp(gjk_sqrt(gjk_dot2(u, u)), k);
}

/// Points whose coordinates reach this are rotated at half their size
/// (exactly) and the bounds scaled back (see aabb.c).
#define AABB2_HALF_ABOVE (GJK_REAL_MAX / 2)

/// The least and greatest coordinates of R x over the points x.
static void points_bounds2(gjk_rot2 R, const gjk_vec2 *x, int count, gjk_vec2 *lo, gjk_vec2 *hi) {
    gjk_real m = 0;
    for (int k = 0; k < count; ++k) {
        m = gjk_max(m, gjk2_max_abs(x[k]));
    }
    gjk_real down = m >= AABB2_HALF_ABOVE ? GJK_R(0.5) : 1;
    gjk_vec2 q = gjk_rot2_apply(R, gjk_scale2(down, x[0]));
    *lo = *hi = q;
    for (int k = 1; k < count; ++k) {
        q = gjk_rot2_apply(R, gjk_scale2(down, x[k]));
        *lo = gjk_v2(gjk_min(lo->x, q.x), gjk_min(lo->y, q.y));
        *hi = gjk_v2(gjk_max(hi->x, q.x), gjk_max(hi->y, q.y));
    }
    *lo = gjk_scale2(1 / down, *lo); // (an overflow here is the box's own)
    *hi = gjk_scale2(1 / down, *hi);
}

/// row · x, at half of x where its coordinates are huge (row is unit).
static gjk_real dot_unscaled2(gjk_vec2 row, gjk_vec2 x) {
    return gjk2_max_abs(x) >= AABB2_HALF_ABOVE ? 2 * gjk_dot2(row, gjk_scale2(GJK_R(0.5), x)) : gjk_dot2(row, x);
}

/// The core's bounds (no radius, no translation) by its support function
/// along the rows of R and their opposites: convex polygons (climbing from
/// the last support vertex from 12 vertices, scanning below) and custom shapes.
static void support_bounds2(const gjk2_shape *s, gjk_rot2 R, gjk_vec2 *lo, gjk_vec2 *hi) {
    // Row i of R is Rᵀe_i.
    const gjk_vec2 row[2] = {gjk_v2(R.c, -R.s), gjk_v2(R.s, R.c)};
    gjk_real l[2], h[2];
    int hint = -1;
    for (int i = 0; i < 2; ++i) {
        gjk_real up = dot_unscaled2(row[i], gjk2_core_support_hint(s, row[i], &hint));
        gjk_real down = dot_unscaled2(row[i], gjk2_core_support_hint(s, gjk_neg2(row[i]), &hint));
        // In order even for a user function that is not a support function
        // (see aabb.c).
        l[i] = gjk_min(down, up);
        h[i] = gjk_max(down, up);
    }
    *lo = gjk_v2(l[0], l[1]);
    *hi = gjk_v2(h[0], h[1]);
}

gjk2_aabb_output gjk2_shape_aabb(const gjk2_shape *shape, gjk_transform2 transform) {
    gjk2_aabb_output out = {GJK_INVALID_INPUT, {0, 0}, {0, 0}};
    gjk_transform2 t;
    if (!gjk2_shape_check(shape, true) || !gjk2_transform_unit(&transform, &t)) {
        return out;
    }
    const gjk2_shape *s = shape;
    gjk_rot2 R = t.rotation;
    gjk_real c = R.c, sn = R.s, ac = gjk_abs(c), as = gjk_abs(sn);
    gjk_vec2 lo = gjk_v2(0, 0), hi = gjk_v2(0, 0);
    switch (s->type) {
    case GJK2_SHAPE_POINT:
    case GJK2_SHAPE_CIRCLE: break; // the centre; the radius is in the core radius
    case GJK2_SHAPE_SEGMENT:
    case GJK2_SHAPE_CAPSULE:
    case GJK2_SHAPE_TRIANGLE: {
        gjk_vec2 x[3];
        int n = 2;
        if (s->type == GJK2_SHAPE_TRIANGLE) {
            x[0] = s->triangle.a, x[1] = s->triangle.b, x[2] = s->triangle.c;
            n = 3;
        } else {
            x[0] = s->type == GJK2_SHAPE_SEGMENT ? s->segment.a : s->capsule.a;
            x[1] = s->type == GJK2_SHAPE_SEGMENT ? s->segment.b : s->capsule.b;
        }
        points_bounds2(R, x, n, &lo, &hi);
        break;
    }
    case GJK2_SHAPE_BOX: {
        gjk_vec2 h = s->box.half_extents;
        hi = gjk_v2(ac * h.x + as * h.y, as * h.x + ac * h.y);
        lo = gjk_neg2(hi);
        break;
    }
    case GJK2_SHAPE_ELLIPSE: {
        gjk_vec2 r = s->ellipse.radii;
        hi = gjk_v2(safe_length2(gjk_v2(c * r.x, sn * r.y)), safe_length2(gjk_v2(sn * r.x, c * r.y)));
        lo = gjk_neg2(hi);
        break;
    }
    case GJK2_SHAPE_POLYGON:
        if (s->polygon.convex) {
            support_bounds2(s, R, &lo, &hi); // climbs
        } else {
            points_bounds2(R, s->polygon.vertices, s->polygon.count, &lo, &hi);
        }
        break;
    case GJK2_SHAPE_CUSTOM: support_bounds2(s, R, &lo, &hi); break;
    default: return out; // (gjk2_shape_check refused it)
    }
    // The position first, then the radius (see aabb.c).
    gjk_real r = gjk2_core_radius(s);
    lo = gjk_add2(t.position, lo);
    hi = gjk_add2(t.position, hi);
    lo = gjk_v2(lo.x - r, lo.y - r);
    hi = gjk_v2(hi.x + r, hi.y + r);
    // A custom support point that is not finite, or bounds that overflow.
    if (!gjk_is_valid_vec2(lo) || !gjk_is_valid_vec2(hi)) {
        return out;
    }
    out.status = GJK_SEPARATED;
    out.lower = lo;
    out.upper = hi;
    return out;
}

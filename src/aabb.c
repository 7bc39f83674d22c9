// The axis-aligned bounding box of a posed shape: what a broad phase keeps
// for each body.
//
// The box's bound along world axis e_i is the shape's support value there:
// with the pose x ↦ R x + p, the greatest i-th coordinate of the shape is
//     upper_i = p_i + max over the core's points x of (Rᵀe_i)·x + margin,
// the core's support function along row i of R (and lower_i the same
// against −Rᵀe_i). Most cores have it in closed form, as their half extents
// about a centre c (world: p + R c):
//     box (half extents h):         Σ_j |R_ij| h_j
//     ellipsoid (radii r):          |(R_i0 r_0, R_i1 r_1, R_i2 r_2)|
//     disc of radius ρ, normal Re_z: ρ √(R_i0² + R_i1²)  (ρ √(1 − R_i2²))
// so a cylinder is its axis segment plus the disc's extent, and a cone the
// larger of its apex and its base rim on each side. Segments, capsules,
// triangles and vertex clouds take their points' least and greatest
// coordinates; hulls (gjk_make_hull) climb to their six supports, and a
// custom shape's support function is asked along the six directions.
#include "internal.h"

#include "support.h"

/// |v| without overflow or underflow of the squares: scaled by a power of
/// two near its largest component first (exactly; the reciprocal of a
/// subnormal component overflowed, and an ellipsoid with a radius of
/// 2.6e-315 was called invalid: fuzz finding).
static gjk_real safe_length(gjk_vec3 v) {
    gjk_real m = gjk_max_abs(v);
    if (!(m > 0)) {
        return 0;
    }
    int k = gjk_shift_outside(m, 1, 1);
    gjk_vec3 u = gjk_scale(gjk_ldexp(1, -k), v);
    return gjk_ldexp(gjk_sqrt(gjk_dot(u, u)), k);
}

/// Points whose coordinates reach this are rotated a quarter of their size
/// (exactly) and the bounds scaled back: R x's sums of three terms could
/// overflow although each coordinate of R x fits (review: a segment with
/// coordinates 1.5e308 at some rotations was called invalid).
#define AABB_QUARTER_ABOVE (GJK_REAL_MAX / 4)

/// The least and greatest coordinates of R x over the points x.
static void points_bounds(gjk_mat3 R, const gjk_vec3 *x, int count, gjk_vec3 *lo, gjk_vec3 *hi) {
    gjk_real m = 0;
    for (int k = 0; k < count; ++k) {
        m = gjk_max(m, gjk_max_abs(x[k]));
    }
    gjk_real down = m >= AABB_QUARTER_ABOVE ? GJK_R(0.25) : 1;
    gjk_vec3 q = gjk_mat3_mul(R, gjk_scale(down, x[0]));
    *lo = *hi = q;
    for (int k = 1; k < count; ++k) {
        q = gjk_mat3_mul(R, gjk_scale(down, x[k]));
        *lo = gjk_v3(gjk_min(lo->x, q.x), gjk_min(lo->y, q.y), gjk_min(lo->z, q.z));
        *hi = gjk_v3(gjk_max(hi->x, q.x), gjk_max(hi->y, q.y), gjk_max(hi->z, q.z));
    }
    *lo = gjk_scale(1 / down, *lo); // (an overflow here is the box's own)
    *hi = gjk_scale(1 / down, *hi);
}

/// row · x, with x a quarter of its size where its coordinates are huge
/// (see AABB_QUARTER_ABOVE; row is a unit vector).
static gjk_real dot_unscaled(gjk_vec3 row, gjk_vec3 x) {
    return gjk_max_abs(x) >= AABB_QUARTER_ABOVE ? 4 * gjk_dot(row, gjk_scale(GJK_R(0.25), x)) : gjk_dot(row, x);
}

/// Each component's magnitude.
static gjk_vec3 abs3(gjk_vec3 v) { return gjk_v3(gjk_abs(v.x), gjk_abs(v.y), gjk_abs(v.z)); }

/// The points of a segment's, a capsule's or a triangle's core into x;
/// returns how many.
static int core_points(const gjk_shape *s, gjk_vec3 x[3]) {
    if (s->type == GJK_SHAPE_TRIANGLE) {
        x[0] = s->triangle.a, x[1] = s->triangle.b, x[2] = s->triangle.c;
        return 3;
    }
    x[0] = s->type == GJK_SHAPE_SEGMENT ? s->segment.a : s->capsule.a;
    x[1] = s->type == GJK_SHAPE_SEGMENT ? s->segment.b : s->capsule.b;
    return 2;
}

/// The core's bounds (no margin, no translation) by its support function
/// along the rows of R and their opposites: hulls (climbing from the last
/// support vertex) and custom shapes.
static void support_bounds(const gjk_shape *s, gjk_mat3 R, gjk_vec3 *lo, gjk_vec3 *hi) {
    // Row i of R is Rᵀe_i.
    const gjk_vec3 row[3] = {gjk_v3(R.cx.x, R.cy.x, R.cz.x), gjk_v3(R.cx.y, R.cy.y, R.cz.y),
                             gjk_v3(R.cx.z, R.cy.z, R.cz.z)};
    gjk_real l[3], h[3];
    int hint = -1;
    for (int i = 0; i < 3; ++i) {
        gjk_real up = dot_unscaled(row[i], gjk_core_support_hint(s, row[i], &hint, false));
        gjk_real down = dot_unscaled(row[i], gjk_core_support_hint(s, gjk_neg(row[i]), &hint, false));
        // The same as (down, up) for a true support function; for a user
        // function that is not one, still a box in order that holds the
        // points it gave.
        l[i] = gjk_min(down, up);
        h[i] = gjk_max(down, up);
    }
    *lo = gjk_v3(l[0], l[1], l[2]);
    *hi = gjk_v3(h[0], h[1], h[2]);
}

gjk_aabb_output gjk_shape_aabb(const gjk_shape *shape, gjk_transform transform) {
    gjk_aabb_output out = {GJK_INVALID_INPUT, {0, 0, 0}, {0, 0, 0}};
    gjk_transform t;
    if (!gjk_shape_check(shape, true) || !gjk_transform_unit(&transform, &t)) {
        return out;
    }
    gjk_mat3 R = gjk_mat3_from_quat(t.rotation); // columns R e_x, R e_y, R e_z
    gjk_vec3 lo = gjk_v3_zero(), hi = gjk_v3_zero();
    const gjk_shape *s = shape;
    switch (s->type) {
    case GJK_SHAPE_POINT:
    case GJK_SHAPE_SPHERE: break; // the centre; the radius is in the core radius
    case GJK_SHAPE_SEGMENT:
    case GJK_SHAPE_CAPSULE:
    case GJK_SHAPE_TRIANGLE: {
        gjk_vec3 x[3];
        int n = core_points(s, x);
        points_bounds(R, x, n, &lo, &hi);
        break;
    }
    case GJK_SHAPE_BOX: {
        gjk_vec3 h = s->box.half_extents;
        hi = gjk_add(gjk_add(gjk_scale(h.x, abs3(R.cx)), gjk_scale(h.y, abs3(R.cy))), gjk_scale(h.z, abs3(R.cz)));
        lo = gjk_neg(hi);
        break;
    }
    case GJK_SHAPE_ELLIPSOID: {
        gjk_vec3 r = s->ellipsoid.radii;
        hi = gjk_v3(safe_length(gjk_v3(R.cx.x * r.x, R.cy.x * r.y, R.cz.x * r.z)),
                    safe_length(gjk_v3(R.cx.y * r.x, R.cy.y * r.y, R.cz.y * r.z)),
                    safe_length(gjk_v3(R.cx.z * r.x, R.cy.z * r.y, R.cz.z * r.z)));
        lo = gjk_neg(hi);
        break;
    }
    case GJK_SHAPE_CYLINDER:
    case GJK_SHAPE_CONE: {
        bool cone = s->type == GJK_SHAPE_CONE;
        gjk_real r = cone ? s->cone.radius : s->cylinder.radius;
        gjk_real hh = cone ? s->cone.half_height : s->cylinder.half_height;
        // The discs' extents along each axis (their normal is R e_z).
        gjk_vec3 disc = gjk_scale(r, gjk_v3(gjk_sqrt(R.cx.x * R.cx.x + R.cy.x * R.cy.x),
                                            gjk_sqrt(R.cx.y * R.cx.y + R.cy.y * R.cy.y),
                                            gjk_sqrt(R.cx.z * R.cx.z + R.cy.z * R.cy.z)));
        gjk_vec3 top = gjk_scale(hh, R.cz); // the top disc's centre (the cone's apex)
        if (cone) {
            // The apex, and the base rim about −top.
            gjk_vec3 base = gjk_neg(top);
            lo = gjk_v3(gjk_min(top.x, base.x - disc.x), gjk_min(top.y, base.y - disc.y),
                        gjk_min(top.z, base.z - disc.z));
            hi = gjk_v3(gjk_max(top.x, base.x + disc.x), gjk_max(top.y, base.y + disc.y),
                        gjk_max(top.z, base.z + disc.z));
        } else {
            hi = gjk_add(gjk_scale(hh, abs3(R.cz)), disc);
            lo = gjk_neg(hi);
        }
        break;
    }
    case GJK_SHAPE_POLYTOPE:
        if (s->polytope.hull != NULL) {
            support_bounds(s, R, &lo, &hi);
        } else {
            points_bounds(R, s->polytope.vertices, s->polytope.count, &lo, &hi);
        }
        break;
    case GJK_SHAPE_CUSTOM: support_bounds(s, R, &lo, &hi); break;
    default: return out; // (gjk_shape_check refused it)
    }
    // The position first, then the radius: the core's bounds and the
    // position may nearly cancel where the radius alone would overflow
    // the core's bound (review: a segment near −1.7e308 placed at
    // +1.7e308 with a margin of 1e307 was called invalid).
    gjk_real r = gjk_core_radius(s);
    gjk_vec3 rr = gjk_v3(r, r, r);
    lo = gjk_sub(gjk_add(t.position, lo), rr);
    hi = gjk_add(gjk_add(t.position, hi), rr);
    // A custom support point that is not finite, or bounds that overflow.
    if (!gjk_is_valid_vec3(lo) || !gjk_is_valid_vec3(hi)) {
        return out;
    }
    out.status = GJK_SEPARATED;
    out.lower = lo;
    out.upper = hi;
    return out;
}

// Setting up a pair of 2D shapes for a query: input checks and B's pose in
// A's frame. The twin of pair.c.
#include "internal2.h"

bool gjk2_transform_valid(gjk_transform2 t) {
    if (!gjk_is_valid_vec2(t.position) || !gjk_is_valid_real(t.rotation.c) || !gjk_is_valid_real(t.rotation.s)) {
        return false;
    }
    // Any finite (c, s) that is not zero is a rotation once normalised.
    return t.rotation.c != 0 || t.rotation.s != 0;
}

gjk_rot2 gjk2_rot2_normalize_slow(gjk_rot2 r) {
    gjk_real m = gjk_max(gjk_abs(r.c), gjk_abs(r.s));
    gjk_real c = r.c / m, s = r.s / m;
    gjk_real k = 1 / gjk_sqrt(c * c + s * s);
    gjk_rot2 u = {k * c, k * s};
    return u;
}

bool gjk2_pair_init(gjk2_pair *p, const gjk2_shape *a, const gjk_transform2 *transform_a, const gjk2_shape *b,
                    const gjk_transform2 *transform_b, const gjk_options *o, gjk_transform2 *xa) {
    // Rotations are normalised, so a (cos, sin) pair that is only nearly
    // unit still describes a rotation.
    gjk_transform2 ta, tb;
    if (!gjk2_shape_check(a, true) || !gjk2_shape_check(b, true) || !gjk2_transform_unit(transform_a, &ta) ||
        !gjk2_transform_unit(transform_b, &tb)) {
        return false;
    }
    p->a = a;
    p->b = b;
    p->rot_b = gjk_rot2_inv_mul(ta.rotation, tb.rotation);
    p->pos_b = gjk_rot2_inv_apply(ta.rotation, gjk_sub2(tb.position, ta.position));
    p->radius = gjk2_core_radius(a) + gjk2_core_radius(b);
    p->rel_tol = gjk_options_tolerance(o);
    p->scale = gjk_max(gjk2_shape_size(a), gjk2_shape_size(b));
    if ((a->type == GJK2_SHAPE_CUSTOM && !(a->custom.radius > 0)) ||
        (b->type == GJK2_SHAPE_CUSTOM && !(b->custom.radius > 0))) {
        // A user's shape of unknown size: the points of A − B seen near a
        // vertex can be far smaller than the rounding of B's pose in A's
        // frame, which the frames' offset bounds (as in 3D: pair.c).
        p->scale = gjk_max(p->scale, gjk2_max_abs(p->pos_b));
    }
    p->bad_support = false;
    p->hint_a = p->hint_b = -1;
    p->rot_a = ta.rotation;
    p->trace = o->trace;
    p->trace_data = o->trace_data;
    // Finite inputs whose sum overflowed: one combined test.
    gjk_real z = (p->radius - p->radius) + (p->scale - p->scale) + (p->pos_b.x - p->pos_b.x) +
                 (p->pos_b.y - p->pos_b.y);
    if (!(z == z)) {
        return false;
    }
    *xa = ta;
    return true;
}

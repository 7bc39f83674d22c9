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

/// (c, s) scaled to unit length ((c, s) finite and not zero, checked by the
/// caller). Divided by the larger first, so tiny or huge pairs neither
/// underflow nor overflow when squared.
static gjk_rot2 rot2_normalize(gjk_rot2 r) {
    gjk_real m = gjk_max(gjk_abs(r.c), gjk_abs(r.s));
    gjk_real c = r.c / m, s = r.s / m;
    gjk_real k = 1 / gjk_sqrt(c * c + s * s);
    gjk_rot2 u = {k * c, k * s};
    return u;
}

bool gjk2_pair_init(gjk2_pair *p, const gjk2_shape *a, gjk_transform2 transform_a, const gjk2_shape *b,
                    gjk_transform2 transform_b, const gjk_options *o, gjk_transform2 *xa) {
    if (!gjk2_shape_check(a, true) || !gjk2_shape_check(b, true) || !gjk2_transform_valid(transform_a) ||
        !gjk2_transform_valid(transform_b)) {
        return false;
    }
    // Rotations are normalised, so a (cos, sin) pair that is only nearly
    // unit still describes a rotation.
    gjk_transform2 ta = {transform_a.position, rot2_normalize(transform_a.rotation)};
    gjk_transform2 tb = {transform_b.position, rot2_normalize(transform_b.rotation)};
    gjk_transform2 rel = gjk_transform2_inv_mul(ta, tb);
    p->a = a;
    p->b = b;
    p->rot_b = rel.rotation;
    p->pos_b = rel.position;
    p->radius = gjk2_core_radius(a) + gjk2_core_radius(b);
    p->rel_tol = o->tolerance > 0 ? o->tolerance : GJK_DEFAULT_TOLERANCE;
    p->scale = gjk_max(gjk2_shape_size(a), gjk2_shape_size(b));
    p->bad_support = false;
    p->rot_a = ta.rotation;
    p->trace = o->trace;
    p->trace_data = o->trace_data;
    if (!gjk_is_valid_real(p->radius) || !gjk_is_valid_real(p->scale) || !gjk_is_valid_vec2(p->pos_b)) {
        return false; // finite inputs whose sum overflowed
    }
    *xa = ta;
    return true;
}

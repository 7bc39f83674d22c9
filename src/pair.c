// Setting up a pair of shapes for a query: input checks and B's pose in A's
// frame.
#include "internal.h"

bool gjk_transform_valid_slow(gjk_transform t) {
    gjk_quat q = t.rotation;
    return gjk_is_valid_vec3(t.position) && gjk_is_valid_quat(q) && (q.w != 0 || q.x != 0 || q.y != 0 || q.z != 0);
}

bool gjk_pair_init(gjk_pair *p, const gjk_shape *a, const gjk_transform *transform_a, const gjk_shape *b,
                   const gjk_transform *transform_b, const gjk_options *o, gjk_transform *xa) {
    // Rotations are normalised, so a quaternion that is only nearly unit
    // still describes a rotation.
    gjk_transform ta, tb;
    if (!gjk_shape_check(a, true) || !gjk_shape_check(b, true) || !gjk_transform_unit(transform_a, &ta) ||
        !gjk_transform_unit(transform_b, &tb)) {
        return false;
    }
    gjk_transform rel = gjk_transform_inv_mul(ta, tb);
    p->a = a;
    p->b = b;
    p->rot_b = gjk_mat3_from_quat(rel.rotation);
    p->pos_b = rel.position;
    p->radius = gjk_core_radius(a) + gjk_core_radius(b);
    p->rel_tol = gjk_options_tolerance(o);
    p->scale = gjk_max(gjk_shape_size(a), gjk_shape_size(b));
    p->bad_support = false;
    if (o->trace != NULL) { // only traces report points in world orientation
        p->rot_a = gjk_mat3_from_quat(ta.rotation);
    }
    p->trace = o->trace;
    p->trace_data = o->trace_data;
    p->hint_a = p->hint_b = -1;
    p->warm = false;
    p->climb_both = gjk_hull_climbs(a) && gjk_hull_climbs(b);
    if (!gjk_is_valid_real(p->radius) || !gjk_is_valid_real(p->scale) || !gjk_is_valid_vec3(p->pos_b)) {
        return false; // finite inputs whose sum overflowed
    }
    *xa = ta;
    return true;
}

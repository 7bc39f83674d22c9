// Setting up a pair of shapes for a query: input checks and B's pose in A's
// frame.
#include "internal.h"

bool gjk_transform_valid_slow(gjk_transform t) {
    gjk_quat q = t.rotation;
    return gjk_is_valid_vec3(t.position) && gjk_is_valid_quat(q) && (q.w != 0 || q.x != 0 || q.y != 0 || q.z != 0);
}

/// gjk_shape_check of two boxes with these margins and half extents, in one
/// test: every number finite and ≥ 0 (NaN fails every comparison, +inf the
/// bound on the margins, and each x − x is NaN for an infinite x).
static GJK_INLINE bool boxes_valid(gjk_real ma, gjk_vec3 ha, gjk_real mb, gjk_vec3 hb) {
    gjk_real z = (ha.x - ha.x) + (ha.y - ha.y) + (ha.z - ha.z) + (hb.x - hb.x) + (hb.y - hb.y) + (hb.z - hb.z);
    return (ma >= 0) & (ma <= GJK_REAL_MAX) & (mb >= 0) & (mb <= GJK_REAL_MAX) &
           (ha.x >= 0) & (ha.y >= 0) & (ha.z >= 0) & (hb.x >= 0) & (hb.y >= 0) & (hb.z >= 0) & (z == z);
}

bool gjk_pair_init(gjk_pair *p, const gjk_shape *a, const gjk_transform *transform_a, const gjk_shape *b,
                   const gjk_transform *transform_b, const gjk_options *o, gjk_transform *xa) {
    gjk_transform tb;
    gjk_real scale;
    if (a != NULL && b != NULL && a->type == GJK_SHAPE_BOX && b->type == GJK_SHAPE_BOX) {
        // Two boxes (the commonest pair, whose setup is a large part of
        // its query): gjk_shape_check and gjk_shape_size inline, the
        // checks combined in one test.
        gjk_vec3 ha = a->box.half_extents, hb = b->box.half_extents;
        if (!boxes_valid(a->margin, ha, b->margin, hb)) {
            return false;
        }
        scale = gjk_max(gjk_max_abs(ha), gjk_max_abs(hb));
    } else {
        if (!gjk_shape_check(a, true) || !gjk_shape_check(b, true)) {
            return false;
        }
        scale = gjk_max(gjk_shape_size(a), gjk_shape_size(b));
    }
    // Rotations are normalised, so a quaternion that is only nearly unit
    // still describes a rotation. A's goes straight to *xa (which callers
    // read only after a success).
    if (!gjk_transform_unit(transform_a, xa) || !gjk_transform_unit(transform_b, &tb)) {
        return false;
    }
    gjk_transform ta = *xa;
    gjk_transform rel = gjk_transform_inv_mul(ta, tb);
    p->a = a;
    p->b = b;
    p->rot_b = gjk_mat3_from_quat(rel.rotation);
    p->pos_b = rel.position;
    p->radius = gjk_core_radius(a) + gjk_core_radius(b);
    p->rel_tol = gjk_options_tolerance(o);
    if ((a->type == GJK_SHAPE_CUSTOM && !(a->custom.radius > 0)) ||
        (b->type == GJK_SHAPE_CUSTOM && !(b->custom.radius > 0))) {
        // A user's shape of unknown size (radius 0): its tolerance came from
        // the points of A − B seen alone, which near a vertex can be far
        // smaller than the rounding of B's pose in A's frame; the frames'
        // offset bounds that (2D review: a rounded point 3.6e-9 from a
        // custom polygon's vertex, float, came out penetrating where the
        // same polygon given by its vertices was touching).
        scale = gjk_max(scale, gjk_max_abs(rel.position));
    }
    p->scale = scale;
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
    return true;
}

// A contact manifold: a crate resting on the ground, turned a little about
// the vertical, sunk by 0.01. Four points (the crate's bottom corners), one
// normal, and ids that a solver uses to carry impulses from frame to frame.
#include <stdio.h>

#include "gjk/gjk.h"

int main(void) {
    gjk_shape ground = gjk_make_box(gjk_v3(10, 10, 1));
    gjk_shape crate = gjk_make_box(gjk_v3(0.5, 0.5, 0.5));
    gjk_transform crate_pose = gjk_transform_make(gjk_v3(0, 0, 1.49), gjk_quat_from_axis_angle(gjk_v3(0, 0, 1), 0.3));
    gjk_simplex_cache pair_cache = {0}; // one per pair, kept across frames

    gjk_contact_input in = {.shape_a = &ground, .transform_a = gjk_transform_identity(),
                            .shape_b = &crate,  .transform_b = crate_pose, .speculative_distance = 0.02};
    gjk_manifold m = gjk_contact(&in, &pair_cache);
    printf("%s, normal (%g %g %g), %d points\n", gjk_status_name(m.status), (double)m.normal.x, (double)m.normal.y,
           (double)m.normal.z, m.point_count);
    for (int i = 0; i < m.point_count; ++i) {
        const gjk_contact_point *c = &m.points[i];
        printf("  id %08x: on A (%.3f %.3f %.3f), on B (%.3f %.3f %.3f), separation %.3f\n", (unsigned)c->id,
               (double)c->point_a.x, (double)c->point_a.y, (double)c->point_a.z, (double)c->point_b.x,
               (double)c->point_b.y, (double)c->point_b.z, (double)c->separation);
    }
    return m.status == GJK_PENETRATING && m.point_count == 4 ? 0 : 1;
}

#include <stdio.h>
#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
// Time of impact forwards options.max_distance ("Distance query only") to its inner distance queries: their early
// exit returns a lower bound, which the advancement takes for the distance.
int main(void) {
    for (int k = 0; k < 2; ++k) {
        gjk_shape a = gjk_make_box(gjk_v3(1, 1, 1)), b = gjk_make_sphere(0.5);
        gjk_toi_input in = {.shape_a = &a, .sweep_a = {gjk_transform_identity(), gjk_transform_identity()},
                            .shape_b = &b,
                            .sweep_b = {gjk_transform_make(gjk_v3(5, 0, 0), gjk_quat_identity()),
                                        gjk_transform_make(gjk_v3(4, 0, 0), gjk_quat_identity())},
                            .target_separation = 3};
        in.options.max_distance = k ? 1 : 0; // B starts 3.5 away and ends 2.5 away: contact at t = 0.5
        gjk_cast_output o = gjk_time_of_impact(&in);
        gjk2_shape a2 = gjk2_make_box(gjk_v2(1, 1)), b2 = gjk2_make_circle(0.5);
        gjk2_toi_input in2 = {.shape_a = &a2, .sweep_a = {gjk_transform2_identity(), gjk_transform2_identity()},
                              .shape_b = &b2,
                              .sweep_b = {gjk_transform2_make(gjk_v2(5, 0), 0), gjk_transform2_make(gjk_v2(4, 0), 0)},
                              .target_separation = 3};
        in2.options.max_distance = k ? 1 : 0;
        gjk2_cast_output o2 = gjk2_time_of_impact(&in2);
        printf("max_distance %d: 3D %s t=%g | 2D %s t=%g\n", k, gjk_status_name(o.status), o.t,
               gjk_status_name(o2.status), o2.t);
    }
    return 0;
}

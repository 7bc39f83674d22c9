#include <stdio.h>
#include <time.h>
#include "gjk/gjk.h"
// A box flies in from x = 1e10 onto a point at rest. With a small tolerance the conservative-advancement step
// underflows the resolution of t; t stops moving and the loop runs to options.max_iterations.
int main(void) {
    int caps[] = {0, 100000, 1000000};
    for (int k = 0; k < 3; ++k) {
        gjk_shape a = gjk_make_box(gjk_v3(1, 1, 5.5)), b = gjk_make_point();
        gjk_toi_input in = {.shape_a = &a,
                            .sweep_a = {gjk_transform_make(gjk_v3(1e10, 2.25, -4.875), gjk_quat_make(0, 1, 0, 0)),
                                        gjk_transform_identity()},
                            .shape_b = &b,
                            .sweep_b = {gjk_transform_make(gjk_v3(-2.3125, -4.875, -5.5), gjk_quat_identity()),
                                        gjk_transform_identity()}};
        in.options.tolerance = 1e-11;
        in.options.max_iterations = caps[k];
        clock_t c0 = clock();
        gjk_cast_output o = gjk_time_of_impact(&in);
        printf("cap %d: %s t=%.17g iterations %d (%.2f s)\n", caps[k], gjk_status_name(o.status), o.t, o.iterations,
               (double)(clock() - c0) / CLOCKS_PER_SEC);
    }
    return 0;
}

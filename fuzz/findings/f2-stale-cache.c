#include <stdio.h>
#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
int main(void) {
    // 3D: a cache from a big box, reused for a small box (the doc: "A stale cache costs iterations, never correctness";
    // header: "A cache whose content does not fit the shapes is ignored safely").
    gjk_shape big = gjk_make_box(gjk_v3(3, 3, 3)), small = gjk_make_box(gjk_v3(1, 1, 1)), ball = gjk_make_sphere(0.5);
    gjk_query_input in = {.shape_a = &big, .transform_a = gjk_transform_identity(), .shape_b = &ball,
                          .transform_b = gjk_transform_make(gjk_v3(5, 0, 0), gjk_quat_identity())};
    gjk_simplex_cache cache = {0};
    gjk_distance_output d = gjk_distance(&in, &cache);
    printf("3D big box: status %s distance %g (cache count %d)\n", gjk_status_name(d.status), d.distance, cache.count);
    in.shape_a = &small;
    gjk_distance_output fresh = gjk_distance(&in, NULL);
    gjk_distance_output warm = gjk_distance(&in, &cache);
    printf("3D small box: no cache %s %.17g, stale cache %s %.17g\n", gjk_status_name(fresh.status), fresh.distance,
           gjk_status_name(warm.status), warm.distance);
    gjk_simplex_cache c2 = {0};
    in.shape_a = &big; gjk_penetration(&in, &c2); in.shape_a = &small;
    gjk_penetration_output p = gjk_penetration(&in, &c2);
    printf("3D small box penetration with stale cache: %s %.17g\n", gjk_status_name(p.status), p.signed_distance);

    gjk2_shape big2 = gjk2_make_box(gjk_v2(3, 3)), small2 = gjk2_make_box(gjk_v2(1, 1)), disc = gjk2_make_circle(0.5);
    gjk2_query_input in2 = {.shape_a = &big2, .transform_a = gjk_transform2_identity(), .shape_b = &disc,
                            .transform_b = gjk_transform2_make(gjk_v2(5, 0), 0)};
    gjk2_simplex_cache cache2 = {0};
    gjk2_distance(&in2, &cache2);
    in2.shape_a = &small2;
    gjk2_distance_output f2 = gjk2_distance(&in2, NULL), w2 = gjk2_distance(&in2, &cache2);
    printf("2D small box: no cache %s %.17g, stale cache %s %.17g\n", gjk_status_name(f2.status), f2.distance,
           gjk_status_name(w2.status), w2.distance);
    return 0;
}

// A cache holding a finite but huge direction (as a stale or uninitialised cache may) makes a valid,
// well-conditioned query fail with GJK_INVALID_INPUT. The header: "a cache with a bad count or a non-finite or
// zero direction is ignored"; "a stale cache ... costs iterations, never correctness". The direction reaches
// the support functions unscaled; the ellipsoid's support overflows and the query's overflow backstop
// reports invalid input.
#include <stdio.h>
#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
int main(void) {
    gjk_shape a = gjk_make_cone(1, 1), b = gjk_make_ellipsoid(gjk_v3(1, 5.5, 0.5));
    gjk_query_input in = {.shape_a = &a, .transform_a = gjk_transform_identity(), .shape_b = &b,
                          .transform_b = gjk_transform_make(gjk_v3(0, 0, 2.25), gjk_quat_identity())};
    gjk_simplex_cache cache = {2, {{-5.5, 0.5, 0}, {0, -1.7976931348623157e308, 0.1875}}};
    gjk_simplex_cache c2 = cache;
    gjk_distance_output d0 = gjk_distance(&in, NULL), d1 = gjk_distance(&in, &cache);
    gjk_penetration_output p1 = gjk_penetration(&in, &c2);
    printf("3D: no cache %s %g | huge cache direction: distance %s, penetration %s\n", gjk_status_name(d0.status),
           d0.distance, gjk_status_name(d1.status), gjk_status_name(p1.status));
    gjk2_shape a2 = gjk2_make_box(gjk_v2(1, 1)), b2 = gjk2_make_ellipse(gjk_v2(1, 5.5));
    gjk2_query_input in2 = {.shape_a = &a2, .transform_a = gjk_transform2_identity(), .shape_b = &b2,
                            .transform_b = gjk_transform2_make(gjk_v2(0, 7), 0)};
    gjk2_simplex_cache cache2 = {2, {{-5.5, 0.5}, {1e308, -1.7976931348623157e308}}};
    gjk2_distance_output e0 = gjk2_distance(&in2, NULL), e1 = gjk2_distance(&in2, &cache2);
    printf("2D: no cache %s %g | huge cache direction: %s\n", gjk_status_name(e0.status), e0.distance,
           gjk_status_name(e1.status));
    return 0;
}

// With a subnormal polygon vertex (-4.8e-310, 0) touching a point at the origin, gjk2_penetration with a warm
// cache answers touching with the normal (-1, 4.8e-310), pointing into A (the support gap along it is -5.5);
// without the cache the normal is (1, -4.8e-310). Without the subnormal coordinates both give (0.707, -0.707).
#include <stdio.h>
#include "gjk/gjk2d.h"
int main(void) {
    gjk_vec2 v[5] = {{-4.7991056840719252e-310, 0}, {-5.5, -5.5}, {-5.5, -5}, {0, 1}, {0, 1.0206407629923908e-202}};
    gjk2_shape a = gjk2_make_polygon(v, 5), b = gjk2_make_point();
    gjk2_query_input in = {.shape_a = &a, .transform_a = gjk_transform2_identity(), .shape_b = &b,
                           .transform_b = gjk_transform2_identity()};
    gjk2_simplex_cache cache = {0};
    gjk2_penetration_output p0 = gjk2_penetration(&in, NULL);
    gjk2_distance_output d1 = gjk2_distance(&in, &cache);
    gjk2_penetration_output p1 = gjk2_penetration(&in, &cache);
    printf("no cache: %s sd %g n (%g, %g) | distance %s (cache %d: (%g, %g) ...) | warm: %s sd %g n (%g, %g)\n",
           gjk_status_name(p0.status), p0.signed_distance, p0.normal.x, p0.normal.y, gjk_status_name(d1.status), cache.count,
           cache.direction[0].x, cache.direction[0].y, gjk_status_name(p1.status), p1.signed_distance, p1.normal.x, p1.normal.y);
    // The same without the subnormal coordinates.
    gjk_vec2 w[5] = {{0, 0}, {-5.5, -5.5}, {-5.5, -5}, {0, 1}, {0, 0}};
    a = gjk2_make_polygon(w, 5);
    gjk2_simplex_cache c2 = {0};
    gjk2_distance(&in, &c2);
    gjk2_penetration_output q1 = gjk2_penetration(&in, &c2), q0 = gjk2_penetration(&in, NULL);
    printf("without subnormals: no cache %s n (%g, %g) | warm %s n (%g, %g)\n", gjk_status_name(q0.status), q0.normal.x,
           q0.normal.y, gjk_status_name(q1.status), q1.normal.x, q1.normal.y);
    return 0;
}

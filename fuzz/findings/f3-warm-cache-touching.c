#include <math.h>
#include <stdio.h>
#include "gjk/gjk2d.h"
// Custom 2D shape: the box [-5.5, 5.5] x [-5, 5] plus the segment [-2.5625, 2.5625] x {0}, centred at (-5.5, -1.6875)
// in its local frame: the rectangle [-13.5625, 2.5625] x [-6.6875, 3.3125]. Size not given (radius 0).
static gjk_vec2 support(const void *data, gjk_vec2 d) {
    (void)data;
    double m = fabs(d.x) > fabs(d.y) ? fabs(d.x) : fabs(d.y);
    double x = d.x / m, y = d.y / m;
    double px = -5.5 + (x < 0 ? -5.5 : 5.5), py = -1.6875 + (y < 0 ? -5 : 5);
    double rx = 2.5625 * x, rl = fabs(rx);
    if (rl > 0) px += 2.5625 * rx / rl;
    return gjk_v2(px, py);
}
int main(void) {
    for (int it = 0; it <= 2; ++it) {
        gjk2_shape a = gjk2_make_custom(support, NULL, 0), b = gjk2_make_point();
        // B (a point) lies at (0, 2.25) in A's frame: inside A, 1.0625 below its top edge.
        gjk2_query_input in = {.shape_a = &a, .transform_a = gjk_transform2_make(gjk_v2(-5.5, -5.5), 0), .shape_b = &b,
                               .transform_b = gjk_transform2_make(gjk_v2(-5.5, -3.25), 0)};
        in.options.max_iterations = it;
        gjk2_simplex_cache cache = {0};
        gjk2_distance_output d1 = gjk2_distance(&in, &cache);
        gjk2_distance_output d2 = gjk2_distance(&in, &cache);
        gjk2_penetration_output p = gjk2_penetration(&in, NULL);
        printf("max_iterations %d: first %s %g (cache %d) | warm %s distance %g normal (%g, %g) | penetration %s %g\n",
               it, gjk_status_name(d1.status), d1.distance, cache.count, gjk_status_name(d2.status), d2.distance,
               d2.normal.x, d2.normal.y, gjk_status_name(p.status), p.signed_distance);
    }
    return 0;
}

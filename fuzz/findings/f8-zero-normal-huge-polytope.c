// A polytope with a vertex at 1e160 (finite input) and a margin: gjk_penetration answers "touching" (its
// tolerance scale is 1e160) with a zero normal, and gjk_raycast reports "initially overlapping" with a zero
// normal. The normal's squared length overflows, gjk_normalize returns the zero vector, and the finite-output
// backstop (f24fb75) does not catch a zero vector.
#include <stdio.h>
#include "gjk/gjk.h"
int main(void) {
    gjk_vec3 v[3] = {{1e160, -5.0625, -5.5}, {-5.5, -5.5, 0}, {0, -5.5, 0}};
    gjk_shape a = gjk_with_margin(gjk_make_polytope(v, 3), 5.5);
    gjk_transform ta = gjk_transform_make(gjk_v3(0.5625, 0.6875, 1.75), gjk_quat_make(-0.91192613097069863, -0.0, 0.40327211255430401, -0.075910044716104283));
    gjk_raycast_input in = {.shape = &a, .transform = ta, .origin = {0, 0, 0}, .direction = {0, 0, 0}, .max_t = 0};
    gjk_cast_output o = gjk_raycast(&in);
    printf("raycast: %s hit %d t %g normal (%g, %g, %g)\n", gjk_status_name(o.status), o.hit, o.t, o.normal.x, o.normal.y, o.normal.z);
    gjk_shape pt = gjk_make_point();
    gjk_query_input q = {.shape_a = &a, .transform_a = ta, .shape_b = &pt, .transform_b = gjk_transform_identity()};
    gjk_penetration_output p = gjk_penetration(&q, NULL);
    printf("penetration: %s sd %g normal (%g, %g, %g)\n", gjk_status_name(p.status), p.signed_distance, p.normal.x, p.normal.y, p.normal.z);
    gjk_distance_output d = gjk_distance(&q, NULL);
    printf("distance: %s %g\n", gjk_status_name(d.status), d.distance);
    return 0;
}

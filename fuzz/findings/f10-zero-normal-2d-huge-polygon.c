// After 5a4d68b: a polygon with one vertex at (-5.5, 4.4e194) (finite, valid input) and a point at the origin:
// gjk2_penetration answers "touching" with a zero normal (an answer's normal must be unit). The same scene in 3D
// (the polygon as a flat polytope) gives a unit normal.
#include <math.h>
#include <stdio.h>
#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
int main(void) {
    gjk_vec2 v[21] = {{-5.5, -5.5}, {-5.5, -5.5}, {-5.5, -5.5}, {-5.5, -5.5}, {-5.5, -5.5}, {-5.5, -5.5}, {-5.5, -4.125}, {1.0000000000000001e-15, -5.5}, {-5.5, -5.5}, {-5.5, -5.5}, {-5.5, 4.3856460474588789e+194}, {0, 10}, {-3, 0}, {0, 0}, {-0.375, -5.5}, {-1, 0}, {-5.5, 0}, {1, 2}, {-1, 0.5}, {0, 0}, {0, 0}};
    gjk2_shape a = gjk2_make_polygon(v, 21), b = gjk2_make_point();
    gjk2_query_input in = {.shape_a = &a, .transform_a = gjk_transform2_identity(), .shape_b = &b,
                           .transform_b = gjk_transform2_identity()};
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    printf("2D penetration: %s sd %g normal (%g, %g)\n", gjk_status_name(p.status), p.signed_distance, p.normal.x, p.normal.y);
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    printf("2D distance: %s %g normal (%g, %g)\n", gjk_status_name(d.status), d.distance, d.normal.x, d.normal.y);
    gjk_vec3 w[21];
    for (int i = 0; i < 21; ++i) w[i] = gjk_v3(v[i].x, v[i].y, 0);
    gjk_shape a3 = gjk_make_polytope(w, 21), b3 = gjk_make_point();
    gjk_query_input in3 = {.shape_a = &a3, .transform_a = gjk_transform_identity(), .shape_b = &b3,
                           .transform_b = gjk_transform_identity()};
    gjk_penetration_output p3 = gjk_penetration(&in3, NULL);
    printf("3D penetration: %s sd %g normal (%g, %g, %g)\n", gjk_status_name(p3.status), p3.signed_distance, p3.normal.x, p3.normal.y, p3.normal.z);
    return 0;
}

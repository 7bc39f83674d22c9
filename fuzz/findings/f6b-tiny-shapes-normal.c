#include <math.h>
#include <stdio.h>
#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
// Shapes and offsets around 1e-160 (valid input; rotations are the identity). Vectors of that length have
// subnormal squared lengths, so a normal normalised through x*x + y*y comes out not unit.
int main(void) {
    gjk_vec2 t = {1e-160, 1e-160};
    gjk2_shape a = gjk2_with_margin(gjk2_make_triangle(t, t, t), 1e-160), b = gjk2_with_margin(gjk2_make_triangle(t, t, t), 1e-160);
    gjk2_query_input in = {.shape_a = &a, .transform_a = gjk_transform2_make(gjk_v2(1e-160, 0), 0), .shape_b = &b,
                           .transform_b = gjk_transform2_identity()};
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    printf("2D distance: %s normal (%.17g, %.17g), |n| - 1 = %.3g\n", gjk_status_name(d.status), d.normal.x, d.normal.y,
           hypot(d.normal.x, d.normal.y) - 1);
    printf("2D penetration: %s |n| - 1 = %.3g\n", gjk_status_name(p.status), hypot(p.normal.x, p.normal.y) - 1);
    gjk_shape a3 = gjk_with_margin(gjk_make_point(), 1e-160), b3 = gjk_with_margin(gjk_make_point(), 1e-160);
    double worst = 0;
    for (int i = 0; i < 27; ++i) {
        gjk_query_input in3 = {.shape_a = &a3, .transform_a = gjk_transform_identity(), .shape_b = &b3,
                               .transform_b = gjk_transform_make(gjk_v3(1e-160 * (i % 3 - 1), 1e-160 * ((i / 3) % 3 - 1), 3e-161 * (i / 9 - 1)), gjk_quat_identity())};
        gjk_penetration_output p3 = gjk_penetration(&in3, NULL);
        double e = fabs(sqrt(p3.normal.x * p3.normal.x + p3.normal.y * p3.normal.y + p3.normal.z * p3.normal.z) - 1);
        worst = e > worst ? e : worst;
    }
    printf("3D penetration of two balls of radius 1e-160, 27 offsets: worst | |n| - 1 | = %.3g\n", worst);
    return 0;
}

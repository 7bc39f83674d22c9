#include <math.h>
#include <stdio.h>
#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
// A rotation whose components are tiny but not zero (valid input: only a zero rotation is invalid). The queries
// normalise it through c*c + s*s, which is denormal (about 2e-320, a few significant bits): the rotation used is
// not unit, and neither is the normal returned.
int main(void) {
    gjk_rot2 r = {1e-160, 1e-160};
    gjk2_shape a = gjk2_make_box(gjk_v2(1, 1)), b = gjk2_make_circle(0.5);
    gjk2_query_input in = {.shape_a = &a, .transform_a = {{0, 0}, r}, .shape_b = &b, .transform_b = {{0.5, 0.25}, r}};
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    printf("2D: %s |normal| - 1 = %.3g\n", gjk_status_name(p.status), hypot(p.normal.x, p.normal.y) - 1);
    gjk_shape a3 = gjk_make_box(gjk_v3(1, 1, 1)), b3 = gjk_make_sphere(0.5);
    gjk_quat q = {1e-160, 1e-160, 0, 0};
    gjk_query_input in3 = {.shape_a = &a3, .transform_a = {{0, 0, 0}, q}, .shape_b = &b3,
                           .transform_b = {{0.5, 0.25, 0.125}, gjk_quat_identity()}};
    gjk_penetration_output p3 = gjk_penetration(&in3, NULL);
    double worst = 0;
    for (int i = 0; i < 64; ++i) {
        in3.transform_b.position = gjk_v3(0.3 * (i % 4) - 0.4, 0.25 * ((i / 4) % 4) - 0.4, 0.2 * (i / 16) - 0.3);
        p3 = gjk_penetration(&in3, NULL);
        double e = fabs(sqrt(p3.normal.x * p3.normal.x + p3.normal.y * p3.normal.y + p3.normal.z * p3.normal.z) - 1);
        worst = e > worst ? e : worst;
    }
    printf("3D: worst | |normal| - 1 | over 64 poses = %.3g\n", worst);
    gjk_quat q2 = {1e-170, 0, 0, 0}; // nonzero, but its square underflows: rejected as a "zero quaternion"
    in3.transform_a.rotation = q2;
    printf("3D, w = 1e-170: %s\n", gjk_status_name(gjk_penetration(&in3, NULL).status));
    return 0;
}

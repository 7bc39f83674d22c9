// The README's custom-shape example: a square plate given by its support
// function, rounded by a margin, against a built-in sphere.
#include <stdio.h>

#include "gjk/gjk.h"

static gjk_vec3 square_support(const void *data, gjk_vec3 d) {
    const gjk_real *half = data; // the shape's parameters
    return gjk_v3(d.x < 0 ? -*half : *half, d.y < 0 ? -*half : *half, 0);
}

int main(void) {
    gjk_real half = 0.5;
    gjk_shape plate = gjk_with_margin(gjk_make_custom(square_support, &half, 0.71), 0.1);
    gjk_shape ball = gjk_make_sphere(0.25);
    gjk_query_input in = {
        .shape_a = &plate,
        .transform_a = gjk_transform_identity(),
        .shape_b = &ball,
        .transform_b = gjk_transform_make(gjk_v3(0.2, 0.1, 1), gjk_quat_identity()),
    };
    gjk_distance_output d = gjk_distance(&in, NULL);
    // The plate's top is at z = 0.1 (margin), the ball's bottom at 1 − 0.25.
    printf("%s: distance %g (expected 0.65)\n", gjk_status_name(d.status), (double)d.distance);
    gjk_real err = d.distance - (gjk_real)0.65;
    return d.status == GJK_SEPARATED && err < (gjk_real)1e-5 && err > (gjk_real)-1e-5 ? 0 : 1;
}

// 2D EPA calls a support function with a zero direction (the header: the direction "is never zero"). A polygon of
// 30 points, one of them at (-0.625, 1e300) (an edge length overflows in edge_line, src/epa2.c: see f10), against a custom shape that is the single point
// (-1, 0.5): gjk2_intersect runs EPA (src/epa2.c, main loop), which asks the custom support along (0, 0).
#include <stdio.h>
#include <stdlib.h>
#include "gjk/gjk2d.h"
static gjk_vec2 dot_support(const void *data, gjk_vec2 d) {
    (void)data;
    if (d.x == 0 && d.y == 0) {
        printf("support called with a zero direction\n");
    }
    return gjk_v2(-1, 0.5);
}
int main(void) {
    gjk_vec2 v[30] = {{-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-2.1926269531249999e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -1.255126953125e+24}, {-1.255126953125e+24, -5.5}, {0, 0}, {-5.5, 2.5}, {0, -1}, {3.7517089843750002e-22, 1.25}, {5.3125, 545288085937500}, {0, -4.875}, {-0.625, 1.0000000000000001e+300}, {3.6875, 551538085937500}, {1, 0}, {10, -3}, {0, 0}, {0, 0}, {-5.5, -1}, {0, -5.5}};
    gjk2_shape a = gjk2_make_polygon(v, 30), b = gjk2_make_custom(dot_support, NULL, 0);
    gjk2_query_input in = {.shape_a = &a, .transform_a = gjk_transform2_identity(), .shape_b = &b,
                           .transform_b = gjk_transform2_identity()};
    gjk2_intersect_output i = gjk2_intersect(&in);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    printf("intersect %s; penetration %s sd %g normal (%g, %g)\n", gjk_status_name(i.status),
           gjk_status_name(p.status), p.signed_distance, p.normal.x, p.normal.y);
    return 0;
}

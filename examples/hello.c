// The README's example: distance and penetration between a box and a sphere.
#include <stdio.h>

#include "gjk/gjk.h"

int main(void) {
    gjk_shape box = gjk_make_box(gjk_v3(1, 1, 1));
    gjk_shape ball = gjk_make_sphere(0.5);
    gjk_query_input in = {
        .shape_a = &box,
        .transform_a = gjk_transform_identity(),
        .shape_b = &ball,
        .transform_b = gjk_transform_make(gjk_v3(2.5, 0, 0), gjk_quat_identity()),
    };
    gjk_distance_output d = gjk_distance(&in, NULL);
    printf("%s: distance %g, closest points (%g %g %g) and (%g %g %g)\n", gjk_status_name(d.status),
           (double)d.distance, (double)d.point_a.x, (double)d.point_a.y, (double)d.point_a.z,
           (double)d.point_b.x, (double)d.point_b.y, (double)d.point_b.z);

    in.transform_b.position = gjk_v3(1.2, 0, 0); // now they overlap by 0.3
    gjk_penetration_output p = gjk_penetration(&in, NULL);
    printf("%s: depth %g along (%g %g %g)\n", gjk_status_name(p.status), (double)p.depth, (double)p.normal.x,
           (double)p.normal.y, (double)p.normal.z);
    return d.status == GJK_SEPARATED && p.status == GJK_PENETRATING ? 0 : 1;
}

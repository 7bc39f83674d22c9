// The 2D twin of hello.c: distance and penetration between a box and a circle,
// then a box and a convex polygon.
#include <stdio.h>

#include "gjk/gjk2d.h"

int main(void) {
    gjk2_shape box = gjk2_make_box(gjk_v2(1, 1));
    gjk2_shape disc = gjk2_make_circle(0.5);
    gjk2_query_input in = {
        .shape_a = &box,
        .transform_a = gjk_transform2_identity(),
        .shape_b = &disc,
        .transform_b = gjk_transform2_make(gjk_v2(2.5, 0), 0),
    };
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    printf("%s: distance %g, closest points (%g %g) and (%g %g)\n", gjk_status_name(d.status), (double)d.distance,
           (double)d.point_a.x, (double)d.point_a.y, (double)d.point_b.x, (double)d.point_b.y);

    in.transform_b.position = gjk_v2(1.2, 0); // now they overlap by 0.3
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    printf("%s: depth %g along (%g %g)\n", gjk_status_name(p.status), (double)p.depth, (double)p.normal.x,
           (double)p.normal.y);

    // A convex polygon given counter-clockwise, checked once here: its pairs
    // are answered by the edges' separating axes where that is clear.
    static const gjk_vec2 hexagon[] = {{1, 0}, {0.5, 0.866}, {-0.5, 0.866}, {-1, 0}, {-0.5, -0.866}, {0.5, -0.866}};
    gjk2_shape hex = gjk2_make_convex_polygon(hexagon, 6);
    in.shape_b = &hex;
    in.transform_b = gjk_transform2_make(gjk_v2(1.8, 0.3), 0.2);
    gjk2_penetration_output h = gjk2_penetration(&in, NULL);
    printf("%s: depth %g along (%g %g)\n", gjk_status_name(h.status), (double)h.depth, (double)h.normal.x,
           (double)h.normal.y);
    return d.status == GJK_SEPARATED && p.status == GJK_PENETRATING && h.status == GJK_PENETRATING ? 0 : 1;
}

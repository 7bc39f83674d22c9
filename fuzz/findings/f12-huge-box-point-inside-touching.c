// At 8079630: a point inside a box (or cone) whose size is above about 1.2e77 = DBL_MAX^(1/4) (finite, valid
// input; below the 1.3e154 where squares overflow): gjk_penetration answers "touching", signed distance 0, zero
// normal, although the point lies about 1e77 deep. The 4x4 cofactors of the tetrahedron in the signed-volumes
// sub-algorithm are quartic in the coordinates and overflow; the overflow backstop (f24fb75) only catches
// non-finite outputs. gjk_raycast from inside then reports a zero normal too (the fuzzer's case: a cone of
// radius 6.2e147). Sizes 1e70 and 1e75 are answered right.
#include <stdio.h>
#include "gjk/gjk.h"
int main(void) {
    gjk_shape pt = gjk_make_point();
    double sizes[] = {1e70, 1e75, 1e77, 1e78, 1e80, 1e100, 1e150};
    for (int i = 0; i < 7; ++i) {
        gjk_shape box = gjk_make_box(gjk_v3(sizes[i], sizes[i], sizes[i]));
        gjk_query_input q = {.shape_a = &box, .transform_a = gjk_transform_make(gjk_v3(0, 0.5, -5.5), gjk_quat_identity()),
                             .shape_b = &pt, .transform_b = gjk_transform_identity()};
        gjk_penetration_output p = gjk_penetration(&q, NULL);
        gjk_intersect_output it = gjk_intersect(&q);
        gjk_raycast_input r = {.shape = &box, .transform = q.transform_a, .origin = {0, 0, 0}, .direction = {1, 0, 0}, .max_t = 1};
        gjk_cast_output c = gjk_raycast(&r);
        printf("box %-6g: penetration %-11s sd %-11g normal (%g, %g, %g) | intersect %-11s | raycast %s normal (%g, %g, %g)\n",
               sizes[i], gjk_status_name(p.status), p.signed_distance, p.normal.x, p.normal.y, p.normal.z,
               gjk_status_name(it.status), gjk_status_name(c.status), c.normal.x, c.normal.y, c.normal.z);
    }
    return 0;
}

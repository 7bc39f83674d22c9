// At 8079630: a polytope with a vertex at its origin and a point B at the same place (touching). gjk_penetration
// with a warm cache (filled by gjk_distance on the same pair) answers "touching" with a normal along which A
// reaches 3.38 beyond B: translating B by depth * normal (0) is fine, but the normal is not a direction of
// contact (the support gap along it is -3.38, not 0). Without the cache the normal is a valid one.
#include <stdio.h>
#include "gjk/gjk.h"
static double gap(const gjk_shape *a, gjk_vec3 n) { // how far B (the origin) lies beyond A along n
    gjk_vec3 p = gjk_shape_support(a, n);
    return -(p.x * n.x + p.y * n.y + p.z * n.z);
}
int main(void) {
    gjk_vec3 v[10] = {{0, 0, 0}, {1, 3, 0.75}, {0, 2, 0}, {0, 0, -5.5}, {-5.3125, -5.25, 0}, {0, 0, -4.875},
                      {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    gjk_shape a = gjk_make_polytope(v, 10), b = gjk_make_point();
    gjk_query_input in = {.shape_a = &a, .transform_a = gjk_transform_identity(), .shape_b = &b,
                          .transform_b = gjk_transform_identity()};
    gjk_penetration_output p0 = gjk_penetration(&in, NULL);
    gjk_simplex_cache cache = {0};
    gjk_distance_output d = gjk_distance(&in, &cache);
    gjk_penetration_output p1 = gjk_penetration(&in, &cache);
    printf("no cache: %s sd %g normal (%g, %g, %g), gap along it %g\n", gjk_status_name(p0.status), p0.signed_distance,
           p0.normal.x, p0.normal.y, p0.normal.z, gap(&a, p0.normal));
    printf("distance: %s %g (cache count %d)\n", gjk_status_name(d.status), d.distance, cache.count);
    printf("warm cache: %s sd %g normal (%g, %g, %g), gap along it %g\n", gjk_status_name(p1.status), p1.signed_distance,
           p1.normal.x, p1.normal.y, p1.normal.z, gap(&a, p1.normal));
    return 0;
}

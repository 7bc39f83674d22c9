#include <stdio.h>
#include "gjk/gjk2d.h"
// gjk2_minkowski_sum never returns: a counter-clockwise triangle and a segment (both as gjk2_convex_hull gives
// them) with finite coordinates, whose edge cross product overflows to inf - inf = NaN. With c = NaN both
// `step_p = c >= 0` and `step_q = c <= 0` are false: neither index advances.
int main(void) {
    gjk_vec2 p[3] = {{-1e30, -1e30}, {-1, -1e30}, {0, 10}};
    gjk_vec2 q[2] = {{-2.5e284, -2.5e284}, {0, 5}};
    gjk_vec2 out[5];
    printf("calling gjk2_minkowski_sum...\n");
    fflush(stdout);
    printf("returned %d\n", gjk2_minkowski_sum(p, 3, q, 2, out));
    return 0;
}

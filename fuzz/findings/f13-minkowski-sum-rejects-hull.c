// gjk2_minkowski_sum takes "two convex polygons given counter-clockwise (as gjk2_convex_hull returns them)", but
// rejects (returns -1) a thin triangle that gjk2_convex_hull returns: the hull keeps every strict turn, while the
// sum checks its input with gjk2_polygon_convexity, which calls an area below 4 eps n scale^2 degenerate.
#include <stdio.h>
#include "gjk/gjk2d.h"
int main(void) {
    gjk_vec2 a[3] = {{-2.7609863281249997e-24, -2.7609863281249997e-24}, {-2.7609863281249997e-24, 1.1401367187499998e-25},
                     {-3.5625, -2.7609863281249997e-24}};
    gjk_vec2 b[3] = {{-2.7609863281249997e-24, -5.5}, {-5.5, -5.5}, {-5.5, -5.4375}};
    gjk_vec2 ha[3], hb[3], out[6];
    int na = gjk2_convex_hull(a, 3, ha), nb = gjk2_convex_hull(b, 3, hb);
    gjk2_convexity_output c = gjk2_polygon_convexity(ha, na);
    printf("hull of a: %d points, convexity %d (0 convex, 2 degenerate); hull of b: %d points\n", na, (int)c.convexity, nb);
    printf("gjk2_minkowski_sum(hull a, hull b) = %d\n", gjk2_minkowski_sum(ha, na, hb, nb, out));
    gjk_vec2 thin[3] = {{0, 0}, {1, 0}, {0.5, 1e-17}}, h[3];
    int n = gjk2_convex_hull(thin, 3, h);
    printf("hull of (0,0) (1,0) (0.5,1e-17): %d points; its sum with hull b: %d\n", n, gjk2_minkowski_sum(h, n, hb, nb, out));
    return 0;
}

// Fixed (drop_edge_vertices, hull_pack.c); found by the review of a587008: ten coplanar points whose flat hull, after
// keep_flat_corners keeps the sliver's tip T (dropped before, 3.4e-4 beyond
// the segment that replaced it), also keeps the vertex A next to it, which
// now lies 9.5e-14 (0.07 of the resolution) from the segment between its
// neighbours: a vertex on an edge, not a corner (hull.h promises corners).
// The drop's greedy rule kept A as the last of a run it could not drop
// against the line to T, and A is never checked against its final
// neighbours. Prints each vertex's distance from its neighbours' segment.
#include <math.h>
#include <stdio.h>
#include "gjk/gjk.h"
#include "gjk/hull.h"
int main(void) {
    static const gjk_vec3 p[10] = {
        {-0x1.292476eec2beap-3, -0x1.3fe622fc5599ap-2, 0x1.df3900e843681p-1},
        {-0x1.851b834d210fdp-4, -0x1.a2e8383b14b41p-3, 0x1.39c545e285117p-1},
        {0x1.baa009786b17ap-6, 0x1.dc85fe25cdea7p-5, -0x1.64ed2d12528aep-3},
        {0x1.0657d6444a885p-3, 0x1.1a6f3ed7d0472p-2, -0x1.a7196db173e3ap-1},
        {0x1.0e843138459dbp-3, 0x1.233bd7ca97144p-2, -0x1.b447eb0aefbdp-1},
        {0x1.29cc9d3d04ad4p-3, 0x1.409b29f99b61ep-2, -0x1.e04830bc2ebd2p-1}, // A
        {0x1.29e69b9939dbp-3, 0x1.40b725f4e6aeap-2, -0x1.e0721cb17d1fap-1},  // T, the tip
        {0x1.d7683df13be73p-4, 0x1.fb827d19826e6p-3, -0x1.7c22ca095968cp-1},
        {0x1.0e1327bb77e8dp-6, 0x1.22c22622c2157p-5, -0x1.b3919d800597bp-4},
        {-0x1.04fb0ec226553p-3, -0x1.18f7c14999e6bp-2, 0x1.a4e6ed669db07p-1}};
    gjk_hull_error err;
    gjk_hull *h = gjk_hull_create(p, 10, &err);
    if (h == NULL) {
        printf("no hull (error %d)\n", (int)err);
        return 1;
    }
    int n = h->face_first[1] - h->face_first[0]; // a flat hull: face 0 is the polygon
    for (int k = 0; k < n; ++k) {
        gjk_vec3 a = h->vertices[h->face_indices[(k + n - 1) % n]], v = h->vertices[h->face_indices[k]];
        gjk_vec3 c = h->vertices[h->face_indices[(k + 1) % n]];
        gjk_vec3 ac = gjk_sub(c, a), av = gjk_sub(v, a);
        double t = (double)gjk_dot(av, ac) / (double)gjk_dot(ac, ac);
        double off = (double)gjk_length(gjk_cross(ac, av)) / (double)gjk_length(ac);
        printf("vertex %d: %.3g from its neighbours' line, at %.5f along it\n", k, off, t);
    }
    gjk_hull_destroy(h);
    return 0;
}

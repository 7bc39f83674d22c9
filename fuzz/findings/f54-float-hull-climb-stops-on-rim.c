// f54 (found by review, not by the fuzzer; see README.md): climbs from random hints on float hulls
// of points on two rims or a rim and an apex stop short of the scan. Uses the internal
// header: cc -Isrc -Iinclude -Ibuild-float/include FILE.c build-float/libgjk.a -lm
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
typedef gjk_real R;
static unsigned long long rs = 88172645463325252ull;
static double u(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (double)(rs >> 11) / 9007199254740992.0; }
static gjk_vec3 runit(void) { gjk_vec3 v; do { v = gjk_v3((R)(2*u()-1), (R)(2*u()-1), (R)(2*u()-1)); } while (gjk_length_sq(v) < 0.01f); return gjk_normalize(v); }
int main(void) {
    for (int kind = 0; kind < 8; ++kind) for (int n = 200; n <= 3200; n *= 4) {
        gjk_vec3 *p = malloc(sizeof(gjk_vec3) * (size_t)(n + 2)); int m = 0;
        for (int i = 0; i < n; ++i) {
            gjk_vec3 q = runit(); double sc = 1;
            switch (kind) {
            case 0: p[m++] = q; break;
            case 1: p[m++] = gjk_v3(q.x, (R)(0.8*q.y), (R)(0.6*q.z)); break;
            case 2: p[m++] = gjk_v3(q.x, (R)(0.05*q.y), (R)(0.05*q.z)); break;
            case 3: { double t = u()*6.283185307179586; p[m++] = gjk_v3((R)cos(t), (R)sin(t), (R)(i%2 ? 0.5 : -0.5)); break; }
            case 4: { double t = 6.283185307179586*i/n; p[m++] = gjk_v3((R)cos(t), (R)sin(t), 0); break; }
            case 5: { double t = u()*6.283185307179586; p[m++] = gjk_v3((R)cos(t), (R)sin(t), -0.5f); if (i == 0) p[m++] = gjk_v3(0,0,0.5f); break; }
            case 6: { gjk_vec3 c = gjk_v3((R)(2*u()-1), (R)(2*u()-1), (R)(2*u()-1)); p[m++] = gjk_v3(c.x, c.y, (R)(c.z*0.3 + 0.7*(c.x*c.x+c.y*c.y))); break; }
            default: { double t = 6.283185307179586*i/n; p[m++] = gjk_v3((R)cos(t), (R)sin(t), (R)(0.001*cos(7*t))); break; }
            }
            (void)sc;
        }
        gjk_hull *h = gjk_hull_create(p, m, NULL);
        free(p);
        if (!h) { printf("kind %d n %d: no hull\n", kind, n); continue; }
        int bad = 0; double worst = 0;
        for (int k = 0; k < 200000; ++k) {
            gjk_vec3 d = runit();
            int hint = (int)(u() * h->vertex_count);
            gjk_vec3 s = gjk_support_hull(h, d, &hint, true);
            gjk_real best = gjk_dot(h->vertices[0], d);
            for (int v = 1; v < h->vertex_count; ++v) best = gjk_max(best, gjk_dot(h->vertices[v], d));
            double short_by = (double)(best - gjk_dot(s, d));
            if (short_by > 0) { ++bad; if (short_by > worst) worst = short_by; }
            if (k >= 20000 && h->vertex_count > 2000) break;
        }
        printf("kind %d n %d verts %d faces %d: climbs from a random hint short %d, worst %.3g\n", kind, n, h->vertex_count, h->face_count, bad, worst);
        gjk_hull_destroy(h);
    }
}

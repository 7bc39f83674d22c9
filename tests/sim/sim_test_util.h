// Helpers of the simulation tests: worlds of boxes, spheres and walls.
#ifndef GJK_SIM_TEST_UTIL_H
#define GJK_SIM_TEST_UTIL_H

#include <math.h>
#include <string.h>

#include "sim.h"
#include "test_macros.h"

static inline sim_body_def body_def(gjk_shape shape, sim_vec3 position, bool is_static) {
    sim_body_def d;
    memset(&d, 0, sizeof d);
    d.shape = shape;
    d.position = position;
    d.rotation = sq_make(1, 0, 0, 0);
    d.density = 1000;
    d.is_static = is_static;
    d.friction = 0.5;
    return d;
}

static inline int add_body(sim_world *w, const sim_body_def *d) {
    char error[256];
    int i = sim_world_add_body(w, d, error, sizeof error);
    if (i < 0) {
        fprintf(stderr, "add_body: %s\n", error);
        ++test_failures;
    }
    return i;
}

/// A static ground box whose top face is the plane z = 0.
static inline int add_ground(sim_world *w, double half, double friction, double restitution) {
    sim_body_def d = body_def(gjk_make_box(gjk_v3((gjk_real)half, (gjk_real)half, 1)), sv3(0, 0, -1), true);
    d.friction = friction;
    d.restitution = restitution;
    return add_body(w, &d);
}

static inline sim_quat axis_angle(sim_vec3 axis, double angle) {
    sim_vec3 u = sv_normalize(axis);
    double s = sin(angle / 2);
    return sq_make(cos(angle / 2), s * u.x, s * u.y, s * u.z);
}

/// A tiny deterministic generator (xorshift64*), uniform in [lo, hi).
static inline double rnd(unsigned long long *state, double lo, double hi) {
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return lo + (hi - lo) * (double)((x * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

#endif // GJK_SIM_TEST_UTIL_H

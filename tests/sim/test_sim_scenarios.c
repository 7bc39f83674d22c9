// Simulation scenarios with numbers to meet (issue 9): dropping spheres,
// stacks, a pyramid, a slope, a fast sphere at a thin wall, a pour of every
// shape type into an open box, conservation of momentum and energy.
#include "sim_test_util.h"

static const double dt = 1.0 / 60.0;

/// A sphere of radius 0.5 dropped with its centre 2 m above static ground.
static void drop_sphere(double restitution, double friction, double seconds, double *min_z, double *final_z,
                        double *final_speed, double *apex_after_bounce) {
    sim_world *w = sim_world_create(NULL);
    add_ground(w, 5, friction, 0);
    sim_body_def d = body_def(gjk_make_sphere(0.5), sv3(0, 0, 2), false);
    d.restitution = restitution;
    d.friction = friction;
    int ball = add_body(w, &d);
    *min_z = 2;
    *apex_after_bounce = 0;
    bool bounced = false;
    int steps = (int)lround(seconds / dt);
    for (int k = 0; k < steps; ++k) {
        sim_world_step(w);
        sim_body_state s = sim_world_body_state(w, ball);
        *min_z = s.position.z < *min_z ? s.position.z : *min_z;
        if (s.velocity.z > 0) {
            bounced = true;
        }
        if (bounced && s.position.z > *apex_after_bounce) {
            *apex_after_bounce = s.position.z;
        }
        *final_z = s.position.z;
        *final_speed = sv_length(s.velocity);
    }
    sim_world_destroy(w);
}

static void test_sphere_drop_rests(void) {
    double min_z, z, speed, apex;
    drop_sphere(0, 0.5, 3, &min_z, &z, &speed, &apex);
    printf("  drop e=0: final centre %.6f m, lowest %.6f m, final speed %.2e m/s\n", z, min_z, speed);
    ENSURE_NEAR(z, 0.5, 0.005);
    ENSURE(min_z >= 0.5 - 0.01);
    ENSURE(speed < 1e-3);
}

static void test_sphere_drop_bounces(void) {
    double min_z, z, speed, apex;
    drop_sphere(1, 0, 1.5, &min_z, &z, &speed, &apex);
    printf("  drop e=1: apex after the bounce %.6f m (from 2 m), lowest %.6f m\n", apex, min_z);
    ENSURE(fabs(apex - 2) <= 0.05 * 2);
    ENSURE(min_z >= 0.5 - 0.01);
}

int main(void) {
    RUN_TEST(test_sphere_drop_rests);
    RUN_TEST(test_sphere_drop_bounces);
    return TEST_SUMMARY();
}

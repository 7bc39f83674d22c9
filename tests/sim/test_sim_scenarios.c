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

/// A column of `n` unit boxes on the ground, each resting on the one below.
static void test_stack(void) {
    const int n = 10;
    sim_world *w = sim_world_create(NULL);
    add_ground(w, 5, 0.5, 0);
    int top = -1;
    for (int i = 0; i < n; ++i) {
        sim_body_def d = body_def(gjk_make_box(gjk_v3(0.5, 0.5, 0.5)), sv3(0, 0, 0.5 + i), false);
        top = add_body(w, &d);
    }
    sim_vec3 start = sim_world_body_state(w, top).position;
    double drift = 0, dz = 0;
    for (int k = 0; k < (int)lround(20 / dt); ++k) {
        sim_world_step(w);
        sim_vec3 p = sim_world_body_state(w, top).position;
        double side = hypot(p.x - start.x, p.y - start.y);
        drift = side > drift ? side : drift;
        dz = fabs(p.z - start.z) > dz ? fabs(p.z - start.z) : dz;
    }
    printf("  stack of %d: top box drifted %.2e m sideways, height changed by %.2e m at most\n", n, drift, dz);
    ENSURE(drift < 0.02);
    ENSURE(dz < 0.01);
    sim_world_destroy(w);
}

/// A pyramid of unit boxes with a base of `base` boxes, in one plane.
static void test_pyramid(void) {
    const int base = 10;
    sim_world *w = sim_world_create(NULL);
    add_ground(w, 10, 0.5, 0);
    sim_vec3 start[64];
    int ids[64], count = 0;
    for (int row = 0; row < base; ++row) {
        for (int i = 0; i < base - row; ++i) {
            double x = (i - 0.5 * (base - row - 1)) * 1.05;
            sim_body_def d = body_def(gjk_make_box(gjk_v3(0.5, 0.5, 0.5)), sv3(x, 0, 0.5 + row), false);
            ids[count] = add_body(w, &d);
            start[count] = d.position;
            ++count;
        }
    }
    double worst = 0;
    for (int k = 0; k < (int)lround(10 / dt); ++k) {
        sim_world_step(w);
    }
    for (int i = 0; i < count; ++i) {
        double m = sv_length(sv_sub(sim_world_body_state(w, ids[i]).position, start[i]));
        worst = m > worst ? m : worst;
    }
    printf("  pyramid of %d boxes (base %d): the farthest moved %.2e m in 10 s\n", count, base, worst);
    ENSURE(worst < 0.01);
    sim_world_destroy(w);
}

/// A unit box on a static slope of 30 degrees, for two frictions: with
/// μ = 0.7 > tan 30° it stays, with μ = 0.2 it slides down at
/// g·(sin 30° − μ·cos 30°).
static void slope(double friction, double seconds, double *moved, double *expected) {
    const double angle = 30 * 3.14159265358979323846 / 180;
    sim_world *w = sim_world_create(NULL);
    sim_quat tilt = axis_angle(sv3(0, 1, 0), -angle); // the +x end goes up
    sim_vec3 up = sq_rotate(tilt, sv3(0, 0, 1));
    sim_body_def sd = body_def(gjk_make_box(gjk_v3(20, 3, 1)), sv_scale(-1, up), true);
    sd.rotation = tilt;
    sd.friction = friction;
    add_body(w, &sd);
    sim_body_def d = body_def(gjk_make_box(gjk_v3(0.5, 0.5, 0.5)), sv_scale(0.5, up), false);
    d.rotation = tilt;
    d.friction = friction;
    int box = add_body(w, &d);
    for (int k = 0; k < (int)lround(seconds / dt); ++k) {
        sim_world_step(w);
    }
    sim_vec3 down = sq_rotate(tilt, sv3(-1, 0, 0));
    *moved = sv_dot(sv_sub(sim_world_body_state(w, box).position, d.position), down);
    double a = 9.81 * (sin(angle) - friction * cos(angle));
    *expected = a > 0 ? 0.5 * a * seconds * seconds : 0;
    sim_world_destroy(w);
}

static void test_slope(void) {
    double moved, expected;
    slope(0.7, 3, &moved, &expected);
    printf("  slope 30°, μ = 0.7: moved %.2e m down the slope in 3 s\n", moved);
    ENSURE(fabs(moved) < 0.005);
    slope(0.2, 1, &moved, &expected);
    printf("  slope 30°, μ = 0.2: slid %.4f m in 1 s (Coulomb: %.4f m)\n", moved, expected);
    ENSURE(fabs(moved - expected) < 0.02 * expected);
}

/// A sphere of radius 5 cm at 100 m/s toward a static wall 2 cm thick
/// (the plane x = 0, 4 m by 4 m), aimed at points of the wall from several
/// directions and distances: it never passes through.
static void test_fast_sphere_wall(void) {
    int passed = 0, runs = 0;
    double deepest = -1;
    unsigned long long seed = 7;
    for (int k = 0; k < 24; ++k) {
        sim_settings s = sim_settings_default();
        s.gravity = sv3(0, 0, 0);
        sim_world *w = sim_world_create(&s);
        sim_body_def wall = body_def(gjk_make_box(gjk_v3(0.01, 2, 2)), sv3(0, 0, 0), true);
        wall.friction = k % 2 ? 0.5 : 0;
        add_body(w, &wall);
        // Aim at a point of the wall's face from up to 60° off its normal,
        // starting 0.5 m to 4 m away.
        sim_vec3 target = sv3(-0.01, rnd(&seed, -1.5, 1.5), rnd(&seed, -1.5, 1.5));
        double polar = rnd(&seed, 0, 1.05), azimuth = rnd(&seed, 0, 6.283185307179586);
        sim_vec3 dir = sv3(cos(polar), sin(polar) * cos(azimuth), sin(polar) * sin(azimuth));
        double dist = rnd(&seed, 0.5, 4);
        sim_body_def d = body_def(gjk_make_sphere(0.05), sv_sub(target, sv_scale(dist, dir)), false);
        d.velocity = sv_scale(100, dir);
        d.friction = wall.friction;
        int ball = add_body(w, &d);
        for (int step = 0; step < 60; ++step) {
            sim_world_step(w);
            double x = sim_world_body_state(w, ball).position.x;
            // How far the centre got beyond where it touches the wall.
            double beyond = x - (-0.01 - 0.05);
            deepest = beyond > deepest ? beyond : deepest;
            if (x > 0) {
                printf("    run %d passed at step %d: aimed at (%.3f %.3f %.3f) from %.3f m along (%.3f %.3f %.3f)\n", k,
                       step, target.x, target.y, target.z, dist, dir.x, dir.y, dir.z);
                ++passed;
                break;
            }
        }
        ++runs;
        sim_world_destroy(w);
    }
    printf("  fast sphere: %d of %d runs passed the wall; the centre came at most %.2e m past touching\n", passed,
           runs, deepest);
    ENSURE(passed == 0);
    ENSURE(deepest < 0.005);
}

int main(void) {
    RUN_TEST(test_sphere_drop_rests);
    RUN_TEST(test_sphere_drop_bounces);
    RUN_TEST(test_stack);
    RUN_TEST(test_pyramid);
    RUN_TEST(test_slope);
    RUN_TEST(test_fast_sphere_wall);
    return TEST_SUMMARY();
}

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

/// Two unit boxes stacked on static ground, the top one `ratio` times
/// denser: after 20 s both at rest. The contacts with static bodies were
/// twice as stiff as the others even where that passed the soft step's
/// stable range (240 Hz at 600 substeps a second): under a heavy top the
/// lower box rocked on the ground, the top at up to 6 cm/s at 10 times the
/// density and 0.28 m/s at 100 times (docs/simulation.md).
static void test_heavy_on_light(void) {
    const double ratios[2] = {10, 100};
    const double limits[2] = {1e-3, 0.05}; // m/s over the last 5 s
    for (int r = 0; r < 2; ++r) {
        sim_world *w = sim_world_create(NULL);
        add_ground(w, 5, 0.5, 0);
        sim_body_def d = body_def(gjk_make_box(gjk_v3(0.5, 0.5, 0.5)), sv3(0, 0, 0.5), false);
        int low = add_body(w, &d);
        d = body_def(gjk_make_box(gjk_v3(0.5, 0.5, 0.5)), sv3(0, 0, 1.5), false);
        d.density *= ratios[r];
        int top = add_body(w, &d);
        double fastest = 0;
        int steps = (int)lround(20 / dt);
        for (int k = 0; k < steps; ++k) {
            sim_world_step(w);
            if (k >= steps - (int)lround(5 / dt)) {
                double vl = sv_length(sim_world_body_state(w, low).velocity);
                double vt = sv_length(sim_world_body_state(w, top).velocity);
                fastest = fmax(fastest, fmax(vl, vt));
            }
        }
        printf("  top %g times denser: fastest box over the last 5 s %.2e m/s\n", ratios[r], fastest);
        ENSURE(fastest < limits[r]);
        sim_world_destroy(w);
    }
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

/// A body's mechanical energy: kinetic (translation and rotation) and
/// potential in gravity g.
static double body_energy(const sim_world *w, int i, sim_vec3 g) {
    sim_mass m = sim_world_body_mass(w, i);
    sim_body_state s = sim_world_body_state(w, i);
    sim_vec3 x = sv_add(s.position, sq_rotate(s.rotation, m.com));
    sim_mat3 r = sm_from_quat(s.rotation);
    sim_mat3 inertia = sm_rotate_tensor(&r, &m.inertia);
    sim_vec3 iw = sm_mul_vec(&inertia, s.angular_velocity);
    return 0.5 * m.mass * sv_dot(s.velocity, s.velocity) + 0.5 * sv_dot(iw, s.angular_velocity) -
           m.mass * sv_dot(g, x);
}

/// Thin capsules and cylinders (radius 0.01, length 0.6) thrown at 20 m/s
/// at a static wall 2 cm thick, tilted 45° to 65° and spinning, bouncing
/// (restitution 0.5): a body's mechanical energy never above its start
/// (1% allowed). With the effective masses taken once a step, a body that
/// turned within the step took impulses of its old mass along its new
/// lever arms, and 83 of 216 such throws reached 1e20 m/s (solver.c,
/// update_geometry; some of that gain came from the rotation's sweeps too,
/// which test_tumbling_thin_capsule guards).
static void test_thin_bouncing_throws(void) {
    int runs = 0, gained = 0;
    double worst = 0;
    for (int shape = 0; shape < 2; ++shape) {
        for (int a = 0; a < 3; ++a) {
            for (int spin = 0; spin < 2; ++spin) {
                for (int axis = 0; axis < 2; ++axis) {
                    for (int off = 0; off < 2; ++off) {
                        sim_world *w = sim_world_create(NULL);
                        add_ground(w, 5, 0.5, 0);
                        sim_body_def wall = body_def(gjk_make_box(gjk_v3(0.01, 2, 2)), sv3(1, 0, 2), true);
                        add_body(w, &wall);
                        gjk_shape thin = shape == 0 ? gjk_make_capsule(gjk_v3(0, 0, -0.3), gjk_v3(0, 0, 0.3), 0.01)
                                                    : gjk_make_cylinder(0.01, 0.3);
                        sim_body_def d = body_def(thin, sv3(0, off ? 0.3 : -0.3, 1), false);
                        double angle = (45 + 10 * a) * 3.14159265358979323846 / 180;
                        d.rotation = axis_angle(axis ? sv3(1, 0, 0) : sv3(0, 1, 0), angle);
                        d.velocity = sv3(20, 0, 0);
                        double rate = spin ? 50 : 20;
                        d.angular_velocity = sv3(0, rate, rate / 2);
                        d.restitution = 0.5;
                        int b = add_body(w, &d);
                        sim_vec3 g = sim_settings_default().gravity;
                        double e0 = body_energy(w, b, g), most = e0;
                        for (int step = 0; step < 60; ++step) {
                            sim_world_step(w);
                            double e = body_energy(w, b, g);
                            most = e > most || !(e == e) ? e : most;
                        }
                        gained += !(most <= 1.01 * e0);
                        worst = fmax(worst, most / e0);
                        ++runs;
                        sim_world_destroy(w);
                    }
                }
            }
        }
    }
    printf("  thin bouncing throws: %d of %d gained energy; the most, %.4g of the start\n", gained, runs, worst);
    ENSURE(gained == 0);
}

/// Thin bodies (capsules, cylinders, a plate, a needle prism, a rod) thrown
/// spinning at 50 to 1000 rad/s and 5 to 100 m/s at the ground, a wall or
/// a heavy box, with restitution 0, 0.5 or 1, friction 0, 0.5 or 1 and
/// densities 1 to 1000 at random: a body's mechanical energy never above
/// its start (1% allowed). Before, 24 of these 300 gained more than that,
/// 7 at least doubled, the worst 29 times (in the review's 3000 such
/// throws a needle sunk in the ground while spinning at 8000 rad/s left
/// it with 13 times its energy): warm starts on lever arms that
/// had turned away (warm_start), a friction clamp that raised the energy
/// on a thin body (solve_disc) and restitution at points whose closing
/// speeds and lever arms disagreed (apply_restitution).
static void test_spinning_thin_throws(void) {
    static const gjk_vec3 needle[6] = {{0.01, 0, -0.4}, {-0.005, 0.0087, -0.4}, {-0.005, -0.0087, -0.4},
                                       {0.01, 0, 0.4},  {-0.005, 0.0087, 0.4},  {-0.005, -0.0087, 0.4}};
    gjk_hull *prism = gjk_hull_create(needle, 6, NULL);
    ENSURE(prism != NULL);
    if (prism == NULL) {
        return;
    }
    const gjk_shape shapes[5] = {gjk_make_capsule(gjk_v3(0, 0, -0.3), gjk_v3(0, 0, 0.3), 0.01),
                                 gjk_make_cylinder(0.01, 0.3), gjk_make_box(gjk_v3(0.3, 0.2, 0.003)),
                                 gjk_make_hull(prism), gjk_make_box(gjk_v3(0.4, 0.005, 0.005))};
    const double restitutions[3] = {0, 0.5, 1}, spins[3] = {50, 300, 1000}, speeds[3] = {5, 20, 100};
    const double frictions[3] = {0, 0.5, 1}, densities[3] = {1000, 10, 1};
    unsigned long long seed = 17;
    int gained = 0, doubled = 0, runs = 300;
    double worst = 1;
    for (int run = 0; run < runs; ++run) {
        int target = (int)rnd(&seed, 0, 3); // the ground, a wall, a heavy box on the ground
        double e = restitutions[(int)rnd(&seed, 0, 3)], mu = frictions[(int)rnd(&seed, 0, 3)];
        sim_world *w = sim_world_create(NULL);
        add_ground(w, 20, mu, e);
        int ids[2], count = 0;
        if (target == 1) {
            sim_body_def wall = body_def(gjk_make_box(gjk_v3(0.01, 3, 3)), sv3(1.5, 0, 3), true);
            wall.restitution = e;
            wall.friction = mu;
            add_body(w, &wall);
        } else if (target == 2) {
            sim_body_def heavy = body_def(gjk_make_box(gjk_v3(0.5, 0.5, 0.5)), sv3(1.5, 0, 0.5), false);
            heavy.density = 5000;
            heavy.restitution = e;
            heavy.friction = mu;
            ids[count++] = add_body(w, &heavy);
        }
        sim_body_def d = body_def(shapes[run % 5], sv3(0, rnd(&seed, -0.2, 0.2), rnd(&seed, 0.3, 1.0)), false);
        d.rotation = axis_angle(sv3(rnd(&seed, -1, 1), rnd(&seed, -1, 1), rnd(&seed, -1, 1)), rnd(&seed, 0, 3.1));
        sim_vec3 toward = target == 0 ? sv3(rnd(&seed, -0.5, 0.5), rnd(&seed, -0.5, 0.5), -1)
                                      : sv3(1, rnd(&seed, -0.2, 0.2), rnd(&seed, -0.3, 0.1));
        d.velocity = sv_scale(speeds[(int)rnd(&seed, 0, 3)], sv_normalize(toward));
        sim_vec3 axis = sv_normalize(sv3(rnd(&seed, -1, 1), rnd(&seed, -1, 1), rnd(&seed, -1, 1)));
        d.angular_velocity = sv_scale(spins[(int)rnd(&seed, 0, 3)], axis);
        d.density = densities[(int)rnd(&seed, 0, 3)];
        d.restitution = e;
        d.friction = mu;
        ids[count++] = add_body(w, &d);
        sim_vec3 g = sim_settings_default().gravity;
        double e0 = 0, most;
        for (int i = 0; i < count; ++i) {
            e0 += body_energy(w, ids[i], g);
        }
        most = e0;
        for (int step = 0; step < 90; ++step) {
            sim_world_step(w);
            double en = 0;
            for (int i = 0; i < count; ++i) {
                en += body_energy(w, ids[i], g);
            }
            most = en > most || !(en == en) ? en : most;
        }
        gained += !(most <= 1.01 * e0);
        doubled += !(most <= 2 * e0);
        worst = fmax(worst, most / e0);
        sim_world_destroy(w);
    }
    gjk_hull_destroy(prism);
    printf("  spinning thin throws: %d of %d gained more than 1%% of their energy, %d doubled; the most, %.4g of "
           "the start\n",
           gained, runs, doubled, worst);
    ENSURE(gained == 0);
}

/// The restitution cap (solver.c, apply_restitution) keeps ordinary bounces
/// whole. A ball of radius 0.1 falling past a static wall (gravity on,
/// frictionless) at (1, 0, −10) m/s leaves it at −e times its speed across
/// it; two falling balls meeting head-on at ±3 m/s leave at ∓3·e; two
/// equal boxes meeting face to face at 3 m/s without gravity swap their
/// speeds and neither turns. Measured on the cap's first form (review):
/// the ball at e = 0.9 left the wall at 0 m/s (the pair's energy at the
/// step's start, before gravity's g·dt, was the cap), the falling balls at
/// ±2.31 for ±2.7, and one box spun at 0.08 rad/s (the cap taken after each
/// sweep).
static void test_restitution_keeps_bounces(void) {
    for (int k = 0; k < 3; ++k) {
        double e = k == 0 ? 0.5 : k == 1 ? 0.9 : 1.0;
        sim_world *w = sim_world_create(NULL);
        sim_body_def wall = body_def(gjk_make_box(gjk_v3(0.05, 5, 20)), sv3(1, 0, 0), true);
        wall.restitution = e;
        wall.friction = 0;
        add_body(w, &wall);
        sim_body_def ball = body_def(gjk_make_sphere(0.1), sv3(0, 0, 10), false);
        ball.restitution = e;
        ball.friction = 0;
        ball.velocity = sv3(1, 0, -10);
        int b = add_body(w, &ball);
        for (int step = 0; step < 60; ++step) {
            sim_world_step(w);
        }
        ENSURE_NEAR(sim_world_body_state(w, b).velocity.x, -e, 1e-9);
        sim_world_destroy(w);
    }
    for (int k = 0; k < 2; ++k) {
        double e = k == 0 ? 0.9 : 1.0;
        sim_world *w = sim_world_create(NULL);
        sim_body_def a = body_def(gjk_make_sphere(0.1), sv3(-0.5, 0, 10), false);
        sim_body_def c = body_def(gjk_make_sphere(0.1), sv3(0.5, 0, 10), false);
        a.restitution = c.restitution = e;
        a.velocity = sv3(3, 0, -10);
        c.velocity = sv3(-3, 0, -10);
        int ia = add_body(w, &a), ic = add_body(w, &c);
        for (int step = 0; step < 30; ++step) {
            sim_world_step(w);
        }
        ENSURE_NEAR(sim_world_body_state(w, ia).velocity.x, -3 * e, 1e-9);
        ENSURE_NEAR(sim_world_body_state(w, ic).velocity.x, 3 * e, 1e-9);
        sim_world_destroy(w);
    }
    sim_settings set = sim_settings_default();
    set.gravity = sv3(0, 0, 0);
    sim_world *w = sim_world_create(&set);
    sim_body_def a = body_def(gjk_make_box(gjk_v3(0.1, 0.1, 0.1)), sv3(-0.5, 0, 0), false);
    sim_body_def c = body_def(gjk_make_box(gjk_v3(0.1, 0.1, 0.1)), sv3(0.5, 0, 0), false);
    a.restitution = c.restitution = 1;
    a.friction = c.friction = 0.3;
    a.velocity = sv3(3, 0, 0);
    int ia = add_body(w, &a), ic = add_body(w, &c);
    for (int step = 0; step < 60; ++step) {
        sim_world_step(w);
    }
    sim_body_state sa = sim_world_body_state(w, ia), sc = sim_world_body_state(w, ic);
    ENSURE_NEAR(sa.velocity.x, 0, 1e-9);
    ENSURE_NEAR(sc.velocity.x, 3, 1e-9);
    ENSURE(sv_length(sa.angular_velocity) < 1e-9 && sv_length(sc.angular_velocity) < 1e-9);
    printf("  elastic boxes head-on: %.3g and %.3g m/s after, turning at %.2g and %.2g rad/s\n",
           sa.velocity.x, sc.velocity.x, sv_length(sa.angular_velocity), sv_length(sc.angular_velocity));
    sim_world_destroy(w);
}

/// A world with the default settings but no gravity (NULL when out of memory).
static sim_world *weightless_world(void) {
    sim_settings set = sim_settings_default();
    set.gravity = sv3(0, 0, 0);
    return sim_world_create(&set);
}

/// Total linear momentum, angular momentum about the origin and kinetic
/// energy of the dynamic bodies; `scale` gets Σ|m·v| and Σ(|m·x × v| + |I·ω|),
/// the sizes the conservation errors are measured against.
static void momenta(const sim_world *w, sim_vec3 *P, sim_vec3 *L, double *E, double *p_scale, double *l_scale) {
    *P = sv3(0, 0, 0);
    *L = sv3(0, 0, 0);
    *E = 0;
    *p_scale = 0;
    *l_scale = 0;
    for (int i = 0; i < sim_world_body_count(w); ++i) {
        sim_mass m = sim_world_body_mass(w, i);
        if (m.mass == 0) {
            continue;
        }
        sim_body_state s = sim_world_body_state(w, i);
        sim_vec3 x = sv_add(s.position, sq_rotate(s.rotation, m.com));
        sim_mat3 r = sm_from_quat(s.rotation);
        sim_mat3 inertia = sm_rotate_tensor(&r, &m.inertia);
        sim_vec3 iw = sm_mul_vec(&inertia, s.angular_velocity);
        sim_vec3 mv = sv_scale(m.mass, s.velocity);
        *P = sv_add(*P, mv);
        *L = sv_add(*L, sv_add(sv_cross(x, mv), iw));
        *E += 0.5 * sv_dot(mv, s.velocity) + 0.5 * sv_dot(iw, s.angular_velocity);
        *p_scale += sv_length(mv);
        *l_scale += sv_length(sv_cross(x, mv)) + sv_length(iw);
    }
}

/// Pairs of bodies of several shapes thrown at each other with spin and an
/// offset, without gravity or friction: each pair far from the others, so
/// that every collision is between two bodies.
static void conservation(double restitution, double *dp, double *dl, double *de, int *contacts_seen) {
    sim_world *w = weightless_world();
    gjk_shape shapes[5] = {gjk_make_sphere(0.5), gjk_make_sphere(0.3), gjk_make_box(gjk_v3(0.4, 0.3, 0.2)),
                           gjk_make_capsule(gjk_v3(-0.3, 0, 0), gjk_v3(0.3, 0, 0), 0.2),
                           gjk_make_ellipsoid(gjk_v3(0.5, 0.3, 0.25))};
    unsigned long long seed = 11;
    for (int i = 0; i < 10; ++i) {
        sim_vec3 centre = sv3(10.0 * i, 0, 0);
        sim_vec3 dir = sv_normalize(sv3(rnd(&seed, -1, 1), rnd(&seed, -1, 1), rnd(&seed, -1, 1)));
        sim_vec3 side = sv_normalize(sv_cross(dir, sv3(0.3, 0.5, 1)));
        double offset = rnd(&seed, -0.3, 0.3);
        for (int j = 0; j < 2; ++j) {
            double sign = j ? 1 : -1;
            sim_body_def d = body_def(shapes[(i + 3 * j) % 5],
                                      sv_add(centre, sv_add(sv_scale(1.5 * sign, dir), sv_scale(offset * sign, side))),
                                      false);
            d.rotation = axis_angle(sv3(rnd(&seed, -1, 1), rnd(&seed, -1, 1), 1), rnd(&seed, 0, 3));
            d.velocity = sv_scale(-sign * rnd(&seed, 1, 3), dir);
            d.angular_velocity = sv3(rnd(&seed, -2, 2), rnd(&seed, -2, 2), rnd(&seed, -2, 2));
            d.friction = 0;
            d.restitution = restitution;
            d.density = rnd(&seed, 500, 2000);
            add_body(w, &d);
        }
    }
    sim_vec3 P0, L0, P, L, v0[20];
    double E0, E, ps, ls, ps0, ls0;
    momenta(w, &P0, &L0, &E0, &ps0, &ls0);
    for (int i = 0; i < 20; ++i) {
        v0[i] = sim_world_body_state(w, i).velocity;
    }
    *dp = *dl = 0;
    *contacts_seen = 0;
    for (int k = 0; k < 120; ++k) {
        sim_world_step(w);
        momenta(w, &P, &L, &E, &ps, &ls);
        double ep = sv_length(sv_sub(P, P0)) / ps0, el = sv_length(sv_sub(L, L0)) / ls0;
        *dp = ep > *dp ? ep : *dp;
        *dl = el > *dl ? el : *dl;
    }
    *de = (E0 - E) / E0;
    // Every body took part in a collision: its velocity changed.
    for (int i = 0; i < sim_world_body_count(w); ++i) {
        if (sv_length(sv_sub(sim_world_body_state(w, i).velocity, v0[i])) < 0.1) {
            *contacts_seen = -1 - i;
        }
    }
    sim_world_destroy(w);
}

static void test_conservation(void) {
    double dp, dl, de;
    int seen;
    conservation(0, &dp, &dl, &de, &seen);
    printf("  no gravity, e = 0: every body collided: %s; momentum drift %.2e, angular momentum drift %.2e (relative), "
           "kinetic energy lost %.1f%%\n", seen == 0 ? "yes" : "no", dp, dl, 100 * de);
    ENSURE(seen == 0);
    ENSURE(dp < 1e-9);
    ENSURE(dl < 1e-9);
    conservation(1, &dp, &dl, &de, &seen);
    printf("  no gravity, e = 1: every body collided: %s; momentum drift %.2e, angular momentum drift %.2e, "
           "kinetic energy lost %.3f%%\n", seen == 0 ? "yes" : "no", dp, dl, 100 * de);
    ENSURE(seen == 0);
    ENSURE(dp < 1e-9);
    ENSURE(dl < 1e-9);
    ENSURE(de < 0.01);
}

/// Two ellipsoids spawned deep in each other, at a pose where the contact
/// query's EPA stops at its cap (GJK_NOT_CONVERGED with the manifold of its
/// best answer, 0.65 deep): the world dropped such a manifold as an error,
/// and the bodies had no contact. It now keeps it, and pushes them apart.
static void test_deep_ellipsoids_not_converged(void) {
    sim_world *w = weightless_world();
    ENSURE(w != NULL);
    if (w == NULL) {
        return;
    }
    sim_vec3 dir = sv3(0.42410639110958454, 0.85280609986180722, -0.30472204557349813);
    sim_body_def da = body_def(gjk_make_ellipsoid(gjk_v3(0.5, 0.4, 0.3)), sv3(0, 0, 0), true);
    da.rotation = sq_make(0.63832317372375458, -0.11914160238853233, -0.070139405067431423, 0.75725112632753011);
    sim_body_def db = body_def(gjk_make_ellipsoid(gjk_v3(0.6, 0.45, 0.35)), sv_scale(0.30241703912728324, dir), false);
    db.rotation = sq_make(0.75326726208300743, 0.42150795823359494, 0.49128018141752772, -0.11646139431621581);
    add_body(w, &da);
    add_body(w, &db);
    // The query the world makes, for the record.
    gjk_contact_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &da.shape;
    in.transform_a = gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_make(da.rotation.w, da.rotation.x, da.rotation.y, da.rotation.z));
    in.shape_b = &db.shape;
    in.transform_b = gjk_transform_make(gjk_v3((gjk_real)db.position.x, (gjk_real)db.position.y, (gjk_real)db.position.z),
                                        gjk_quat_make(db.rotation.w, db.rotation.x, db.rotation.y, db.rotation.z));
    gjk_manifold m = gjk_contact(&in, NULL);
    printf("  deep ellipsoids: contact query %s, %d point(s), separation %.3f\n", gjk_status_name(m.status), m.point_count,
           m.point_count > 0 ? (double)m.points[0].separation : 0.0);
    ENSURE(m.point_count > 0);
    ENSURE(sim_world_step(w));
    ENSURE(sim_world_contact_count(w) > 0);
    double d0 = 0.30241703912728324;
    for (int k = 0; k < 60; ++k) {
        sim_world_step(w);
    }
    sim_body_state sb = sim_world_body_state(w, 1);
    printf("  deep ellipsoids, no gravity: centres %.3f apart after 61 steps (from %.3f)\n", sv_length(sb.position), d0);
    ENSURE(sv_length(sb.position) > d0 + 0.3);
    sim_world_destroy(w);
}

/// A thin capsule (radius 0.01, half length 0.3) tumbling freely at
/// ω = (300, 0, 30) rad/s, its long axis along z: over a second its energy
/// never more than 1e-4 above its start. The implicit midpoint rule's
/// sweeps diverge there (h·|L|/I_min far above 1, though |ω|·h is 0.5): the
/// energy jumped from 2.72 J to 24.4 J in the first step and settled 16%
/// above (review); such substeps now turn by the old ω (solver.c).
static void test_tumbling_thin_capsule(void) {
    sim_world *w = weightless_world();
    sim_body_def d = body_def(gjk_make_capsule(gjk_v3(0, 0, -0.3), gjk_v3(0, 0, 0.3), 0.01), sv3(0, 0, 1), false);
    d.angular_velocity = sv3(300, 0, 30);
    int b = add_body(w, &d);
    double e0 = body_energy(w, b, sv3(0, 0, 0)), most = e0;
    for (int step = 0; step < 60; ++step) {
        sim_world_step(w);
        double e = body_energy(w, b, sv3(0, 0, 0));
        most = e > most || !(e == e) ? e : most;
    }
    printf("  tumbling thin capsule: energy at most %.6g of the start\n", most / e0);
    ENSURE(most <= e0 * (1 + 1e-4));
    sim_world_destroy(w);
}

/// A free capsule (radius 0.01, 0.6 long) spinning fast about its axis and
/// slowly about another: angular momentum kept, and kinetic energy never
/// gained. Turned in one implicit-midpoint substep, a turn of 1.7 to 5 rad
/// (1000 to 3000 rad/s) lost 93% of the energy or gained 55%, and a capsule
/// that struck a free wall and picked up such a spin stopped the run with a
/// state no longer finite (simulator review). The energy may still fall
/// where the fixed point is slow (a thin body about its axis): only a gain
/// fails here.
static void test_fast_spin_energy(void) {
    const double spins[] = {100, 1000, 3000};
    for (int k = 0; k < 3; ++k) {
        sim_world *w = weightless_world();
        ENSURE(w != NULL);
        if (w == NULL) {
            return;
        }
        sim_body_def d = body_def(gjk_make_capsule(gjk_v3(-0.3, 0, 0), gjk_v3(0.3, 0, 0), 0.01), sv3(0, 0, 0), false);
        d.angular_velocity = sv3(spins[k], 5, 0);
        add_body(w, &d);
        sim_vec3 P0, L0, P, L;
        double E0, E, ps, ls, e_max = 0, e_min = 1, l_drift = 0;
        momenta(w, &P0, &L0, &E0, &ps, &ls);
        for (int step = 0; step < 600; ++step) {
            ENSURE(sim_world_step(w));
            momenta(w, &P, &L, &E, &ps, &ls);
            e_max = fmax(e_max, E / E0);
            e_min = fmin(e_min, E / E0);
            l_drift = fmax(l_drift, sv_length(sv_sub(L, L0)) / sv_length(L0));
        }
        printf("  spin %g rad/s: energy %.6f to %.6f of the start, angular momentum drift %.1e\n", spins[k], e_min,
               e_max, l_drift);
        ENSURE(e_max <= 1 + 1e-6);
        ENSURE(l_drift < 1e-9);
        sim_world_destroy(w);
    }
}

int main(void) {
    RUN_TEST(test_sphere_drop_rests);
    RUN_TEST(test_sphere_drop_bounces);
    RUN_TEST(test_stack);
    RUN_TEST(test_heavy_on_light);
    RUN_TEST(test_pyramid);
    RUN_TEST(test_slope);
    RUN_TEST(test_fast_sphere_wall);
    RUN_TEST(test_thin_bouncing_throws);
    RUN_TEST(test_spinning_thin_throws);
    RUN_TEST(test_restitution_keeps_bounces);
    RUN_TEST(test_conservation);
    RUN_TEST(test_deep_ellipsoids_not_converged);
    RUN_TEST(test_fast_spin_energy);
    RUN_TEST(test_tumbling_thin_capsule);
    return TEST_SUMMARY();
}

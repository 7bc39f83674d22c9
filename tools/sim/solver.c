#define _POSIX_C_SOURCE 199309L
// The world's solver: one step's substeps on the current contacts
// (sequential impulses with soft position correction, the bodies' motion,
// restitution); the step itself is described in world.c.
#include <math.h>

#include "world_internal.h"

static inline sim_vec3 point_velocity(const body *b, sim_vec3 r) { return sv_add(b->v, sv_cross(b->w, r)); }

static inline double effective_mass(const body *A, const body *B, sim_vec3 ra, sim_vec3 rb, sim_vec3 d) {
    sim_vec3 rad = sv_cross(ra, d), rbd = sv_cross(rb, d);
    double k = A->inv_mass + B->inv_mass + sv_dot(rad, sm_mul_vec(&A->inv_inertia_world, rad)) +
               sv_dot(rbd, sm_mul_vec(&B->inv_inertia_world, rbd));
    return k > 0 ? 1 / k : 0;
}

/// The impulse P at the point ra from A's centre and rb from B's: −P on A, +P on B.
static inline void apply(body *A, body *B, sim_vec3 ra, sim_vec3 rb, sim_vec3 P) {
    if (!A->is_static) {
        A->v = sv_mul_add(A->v, -A->inv_mass, P);
        A->w = sv_sub(A->w, sm_mul_vec(&A->inv_inertia_world, sv_cross(ra, P)));
    }
    if (!B->is_static) {
        B->v = sv_mul_add(B->v, B->inv_mass, P);
        B->w = sv_add(B->w, sm_mul_vec(&B->inv_inertia_world, sv_cross(rb, P)));
    }
}

/// The relative normal speed at point p (B's point minus A's, along n).
static inline double normal_speed(const body *A, const body *B, const contact *c, const cpoint *p) {
    return sv_dot(sv_sub(B->v, A->v), c->n) + sv_dot(B->w, p->rbn) - sv_dot(A->w, p->ran);
}

/// A normal impulse of size l at point p (from the precomputed turns).
static inline void apply_normal(body *A, body *B, const contact *c, const cpoint *p, double l) {
    A->v = sv_mul_add(A->v, -A->inv_mass * l, c->n);
    A->w = sv_mul_add(A->w, -l, p->wa);
    B->v = sv_mul_add(B->v, B->inv_mass * l, c->n);
    B->w = sv_mul_add(B->w, l, p->wb);
}

/// An angular impulse L: −L on A, +L on B.
static inline void apply_twist(body *A, body *B, sim_vec3 L) {
    if (!A->is_static) {
        A->w = sv_sub(A->w, sm_mul_vec(&A->inv_inertia_world, L));
    }
    if (!B->is_static) {
        B->w = sv_add(B->w, sm_mul_vec(&B->inv_inertia_world, L));
    }
}

/// A soft contact: a spring of `hertz` with damping ratio `zeta`, integrated
/// implicitly over the substep h (Catto, "Solver2D", 2024, as in Box2D v3):
/// with ω = 2π·hertz, a1 = 2ζ + hω, a2 = hω·a1, a3 = 1/(1 + a2), the
/// impulse is −m·mass_scale·(vn + bias_rate·C) − impulse_scale·λ.
typedef struct softness {
    double bias_rate, mass_scale, impulse_scale;
} softness;

static softness make_softness(double hertz, double zeta, double h) {
    softness s = {0, 1, 0};
    if (hertz > 0) {
        double omega = 2 * 3.14159265358979323846 * hertz;
        double a1 = 2 * zeta + h * omega;
        double a2 = h * omega * a1;
        double a3 = 1 / (1 + a2);
        s.bias_rate = omega / a1;
        s.mass_scale = a2 * a3;
        s.impulse_scale = a3;
    }
    return s;
}

/// A body's kinetic energy, ½·m·v² + ½·ωᵀ·I·ω (zero for a static body).
static double kinetic_energy(const body *b) {
    if (b->is_static) {
        return 0;
    }
    sim_mat3 rt = sm_transpose(&b->rot);
    sim_vec3 local = sm_mul_vec(&rt, b->w);
    return 0.5 * (sv_dot(b->v, b->v) / b->inv_mass + sv_dot(local, sm_mul_vec(&b->inertia_local, local)));
}

/// Anchors of each point in both bodies and the closing speed, and each
/// body's kinetic energy (apply_restitution), once a step.
static void prepare_step(sim_world *w) {
    for (int i = 0; i < w->count; ++i) {
        w->bodies[i].energy_start = kinetic_energy(&w->bodies[i]);
    }
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        sim_vec3 center = sv3(0, 0, 0);
        c->swept = 0;
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            center = sv_add(center, p->point);
            // Against a static body the impulses act at the moving body's
            // surface point, else midway between the two surface points.
            p->anchor = A->is_static ? p->point_b : B->is_static ? p->point_a : p->point;
            p->separation_now = p->separation;
            sim_vec3 ra = sv_sub(p->anchor, A->x), rb = sv_sub(p->anchor, B->x);
            p->vn0 = sv_dot(sv_sub(point_velocity(B, rb), point_velocity(A, ra)), c->n);
            p->max_lambda_n = 0;
        }
        center = sv_scale(1.0 / c->count, center);
        c->twist_radius = 0;
        for (int j = 0; j < c->count; ++j) {
            c->twist_radius += sv_length(sv_sub(c->p[j].point, center)) / c->count;
        }
        double size = sim_contact_size(A, B);
        c->rolling_limit = w->s.rolling_resistance * c->friction * size;
    }
}

/// Lever arms, turned lever arms and effective masses at the start of a
/// substep, after its motion and before restitution. The masses go with
/// the turned lever arms (I⁻¹(r × n) at the current world inertia): once
/// a step, as before, a thin body that turned within the step took
/// impulses of its old effective mass along its new lever arms, a gain far
/// above 2 that sequential impulses and the restitution sweeps amplified
/// (a capsule of radius 0.01 and length 0.6 thrown spinning at a wall at
/// 20 m/s with restitution 0.5 reached 1e20 m/s in 83 of 216 throws; test
/// test_thin_bouncing_throws).
/// The point
/// where a contact's impulses act moves with the bodies' translation since
/// the step's start (with the moving body against a static one, by the mean
/// of the two otherwise) but does not turn with them: a spinning ball still
/// touches the wall at the same side. Both bodies take every impulse at one
/// and the same world point, so the impulses change neither the linear nor
/// the angular momentum of the pair.
static void update_geometry(sim_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        if (c->count == 0) {
            continue;
        }
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        sim_vec3 move = contact_move(A, B);
        sim_vec3 center = sv3(0, 0, 0);
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            sim_vec3 pt = sv_add(p->anchor, move);
            center = sv_add(center, pt);
            p->ra = sv_sub(pt, A->x);
            p->rb = sv_sub(pt, B->x);
            p->ran = sv_cross(p->ra, c->n);
            p->rbn = sv_cross(p->rb, c->n);
            p->wa = A->is_static ? sv3(0, 0, 0) : sm_mul_vec(&A->inv_inertia_world, p->ran);
            p->wb = B->is_static ? sv3(0, 0, 0) : sm_mul_vec(&B->inv_inertia_world, p->rbn);
            p->mass_n = effective_mass(A, B, p->ra, p->rb, c->n);
        }
        center = sv_scale(1.0 / c->count, center);
        c->ra = sv_sub(center, A->x);
        c->rb = sv_sub(center, B->x);
        // K = J·M⁻¹·Jᵀ for the two tangent rows: the diagonal and the
        // coupling through the bodies' rotation.
        sim_vec3 a1 = sv_cross(c->ra, c->t1), a2 = sv_cross(c->ra, c->t2);
        sim_vec3 b1 = sv_cross(c->rb, c->t1), b2 = sv_cross(c->rb, c->t2);
        sim_vec3 ia1 = sm_mul_vec(&A->inv_inertia_world, a1), ib1 = sm_mul_vec(&B->inv_inertia_world, b1);
        sim_vec3 ia2 = sm_mul_vec(&A->inv_inertia_world, a2), ib2 = sm_mul_vec(&B->inv_inertia_world, b2);
        double im = A->inv_mass + B->inv_mass;
        c->k11 = im + sv_dot(a1, ia1) + sv_dot(b1, ib1);
        c->k22 = im + sv_dot(a2, ia2) + sv_dot(b2, ib2);
        c->k12 = sv_dot(a1, ia2) + sv_dot(b1, ib2);
        double kt = sv_dot(c->n, sm_mul_vec(&A->inv_inertia_world, c->n)) +
                    sv_dot(c->n, sm_mul_vec(&B->inv_inertia_world, c->n));
        c->mass_twist = kt > 0 ? 1 / kt : 0;
        // The angular block for rolling resistance: tᵢ·(I_A⁻¹ + I_B⁻¹)·tⱼ.
        sim_vec3 ja1 = sm_mul_vec(&A->inv_inertia_world, c->t1), jb1 = sm_mul_vec(&B->inv_inertia_world, c->t1);
        sim_vec3 ja2 = sm_mul_vec(&A->inv_inertia_world, c->t2), jb2 = sm_mul_vec(&B->inv_inertia_world, c->t2);
        c->r11 = sv_dot(c->t1, sv_add(ja1, jb1));
        c->r22 = sv_dot(c->t2, sv_add(ja2, jb2));
        c->r12 = sv_dot(c->t1, sv_add(ja2, jb2));
    }
}

/// The most a body may turn within a substep (radians), about an axis
/// across the contact normal, for its contacts' impulses to carry over to
/// the next (warm_fits); less for a pair that bounces.
#define SIM_WARM_TURN 0.5
#define SIM_WARM_TURN_BOUNCING 0.3

/// Whether a contact's accumulated impulses still fit at the substep's
/// start: they belong to lever arms that a body turning across the normal
/// (|ω × n|) turns away from, and, on a pair that bounces (which keeps the
/// step's manifold while the others are found again, sim_refresh_turning),
/// to features the points may have left. They fit while no body turns
/// across the normal more than SIM_WARM_TURN within the substep
/// (SIM_WARM_TURN_BOUNCING on a bouncing pair), and, on a bouncing pair,
/// no point's normal speed carries it farther than the pad (sim_pad). A
/// spin about the normal (a top, a turntable) moves no point along it.
static bool warm_fits(const sim_world *w, const contact *c, double h) {
    const body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
    double most = (c->restitution > 0 ? SIM_WARM_TURN_BOUNCING : SIM_WARM_TURN) / h; // (rad/s)
    sim_vec3 ta = sv_cross(A->w, c->n), tb = sv_cross(B->w, c->n);
    if (sv_dot(ta, ta) > most * most || sv_dot(tb, tb) > most * most) {
        return false;
    }
    if (c->restitution > 0) {
        double fastest = sim_pad(w, sim_contact_size(A, B)) / h;
        for (int j = 0; j < c->count; ++j) {
            if (fabs(normal_speed(A, B, c, &c->p[j])) > fastest) {
                return false;
            }
        }
    }
    return true;
}

/// Applies each contact's accumulated impulses of the substep before, when
/// they still fit (warm_fits); otherwise the pair starts the substep from
/// none: one sweep cannot take back impulses that no longer fit
/// (simulator review: a thin prism spinning at 8000 rad/s, sunk in the
/// ground, warm-started on four points, went from 324 J to 65 kJ and left
/// the sweep at 1.4 kJ; 41 of 3000 random throws of thin bodies more than
/// doubled their energy). Measured alternatives: dropping them wherever
/// the surfaces turn farther than the pad made bodies landing in the pour
/// test sink 1.8 to 4.3 cm at worst over seeds 1 to 11 (0.6 to 1.0 cm
/// kept), and on bouncing pairs alone made rolling cylinders and capsules
/// with restitution veer (5 to 25 cm in 2 s, against 1 to 3 mm: review);
/// the normal speeds' test on every pair let the pour sink up to 3.2 cm;
/// the turn's test on |ω| rather than |ω × n| made spinning tops wobble;
/// no turn's test on pairs that do not bounce let a needle spinning at
/// 1000 rad/s thrown at a heavy box go from 1570 J to 34 kJ (review).
static void warm_start(sim_world *w, double h) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        if (!warm_fits(w, c, h)) {
            for (int j = 0; j < c->count; ++j) {
                c->p[j].lambda_n = 0;
            }
            c->lambda_t1 = c->lambda_t2 = c->lambda_twist = c->lambda_r1 = c->lambda_r2 = 0;
            continue;
        }
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            apply_normal(A, B, c, p, p->lambda_n);
        }
        apply(A, B, c->ra, c->rb, sv_add(sv_scale(c->lambda_t1, c->t1), sv_scale(c->lambda_t2, c->t2)));
        apply_twist(A, B, sv_scale(c->lambda_twist, c->n));
        apply_twist(A, B, sv_add(sv_scale(c->lambda_r1, c->t1), sv_scale(c->lambda_r2, c->t2)));
    }
}

/// Scales (l1, l2) onto the disc of radius `limit` when outside it; true
/// when it was.
static bool clamp_disc(double limit, double *l1, double *l2) {
    double ll = *l1 * *l1 + *l2 * *l2;
    if (!(ll > limit * limit)) {
        return false;
    }
    double l = sqrt(ll);
    double f = l > 0 ? limit / l : 0;
    *l1 *= f;
    *l2 *= f;
    return true;
}

/// Two coupled rows (the 2×2 block k11, k12, k22 of an effective-mass
/// matrix, the relative speeds v1, v2 along them) solved together onto the
/// accumulated impulses *l1, *l2, the pair then clamped to the disc of
/// radius `limit` (friction's circular cone; rolling resistance's bound).
/// The kinetic energy never rises: it is a convex quadratic in the
/// impulses whose least value is the unclamped solution, but scaling that
/// onto the disc is not the nearest point in K's metric, and where K is
/// far from round (a thin body's turning) the scaled point could lie
/// higher than the start (simulator review: a rod of 0.8 × 0.01 × 0.01 m
/// spinning at 1000 rad/s on the ground went from 13 J to 88 J in a relax
/// sweep). A clamped step is cut back to the least energy on the segment
/// from the old impulse, itself clamped first (the limit follows Σλn, which
/// may have shrunk), to the clamped one: both ends lie in the disc.
static void solve_disc(double k11, double k12, double k22, double v1, double v2, double limit, double *l1, double *l2) {
    double o1 = *l1, o2 = *l2;
    if (clamp_disc(limit, &o1, &o2)) {
        // The speeds after that clamp.
        v1 += k11 * (o1 - *l1) + k12 * (o2 - *l2);
        v2 += k12 * (o1 - *l1) + k22 * (o2 - *l2);
    }
    double n1 = o1, n2 = o2;
    double det = k11 * k22 - k12 * k12;
    if (det > 0) {
        n1 -= (k22 * v1 - k12 * v2) / det;
        n2 -= (k11 * v2 - k12 * v1) / det;
    }
    if (clamp_disc(limit, &n1, &n2)) {
        // Along d = n − o the energy changes by t·(d·v) + ½·t²·(dᵀ·K·d).
        double d1 = n1 - o1, d2 = n2 - o2;
        double dv = d1 * v1 + d2 * v2, dkd = k11 * d1 * d1 + 2 * k12 * d1 * d2 + k22 * d2 * d2;
        double t = dkd > 0 ? -dv / dkd : dv < 0 ? 1 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        n1 = o1 + t * d1;
        n2 = o2 + t * d2;
    }
    *l1 = n1;
    *l2 = n2;
}

/// One sweep over the contacts. With `use_bias`, penetration beyond the
/// slop is pushed out softly (at most max_push_velocity); without it (the
/// relax sweep), touching points are rigid and the push velocity is taken
/// out of the bodies again. Points still apart may close their gap within
/// the substep, no more (speculative contacts).
static void solve(sim_world *w, double h, bool use_bias, softness soft, softness soft_static) {
    double slop = w->s.linear_slop, max_push = w->s.max_push_velocity;
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        softness sf = A->is_static || B->is_static ? soft_static : soft;
        double total = 0;
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            double s = p->separation_now;
            double bias = 0, mass_scale = 1, impulse_scale = 0;
            if (s > 0) {
                bias = s / h;
            } else if (use_bias) {
                double cpos = s + slop < 0 ? s + slop : 0;
                bias = sf.bias_rate * cpos > -max_push ? sf.bias_rate * cpos : -max_push;
                mass_scale = sf.mass_scale;
                impulse_scale = sf.impulse_scale;
            }
            double vn = normal_speed(A, B, c, p);
            double impulse = -p->mass_n * mass_scale * (vn + bias) - impulse_scale * p->lambda_n;
            double ln = p->lambda_n + impulse;
            ln = ln > 0 ? ln : 0;
            apply_normal(A, B, c, p, ln - p->lambda_n);
            p->lambda_n = ln;
            p->max_lambda_n = ln > p->max_lambda_n ? ln : p->max_lambda_n;
            total += ln;
        }
        if (total == 0 && c->lambda_t1 == 0 && c->lambda_t2 == 0 && c->lambda_twist == 0 && c->lambda_r1 == 0 &&
            c->lambda_r2 == 0) {
            continue; // not pressed (a speculative contact still apart): no friction to apply or take back
        }
        // Friction at the centre: the two tangent rows solved together (the
        // 2×2 block of the effective-mass matrix; solving them apart
        // overshoots when rotation couples them), the pair clamped to the
        // disc of radius μ·Σλn (Coulomb's cone); then the twist.
        sim_vec3 dv = sv_sub(point_velocity(B, c->rb), point_velocity(A, c->ra));
        double l1 = c->lambda_t1, l2 = c->lambda_t2;
        solve_disc(c->k11, c->k12, c->k22, sv_dot(dv, c->t1), sv_dot(dv, c->t2), c->friction * total, &l1, &l2);
        apply(A, B, c->ra, c->rb, sv_add(sv_scale(l1 - c->lambda_t1, c->t1), sv_scale(l2 - c->lambda_t2, c->t2)));
        c->lambda_t1 = l1;
        c->lambda_t2 = l2;
        // Twist: the points' spread (μ·r̄·Σλn), and at least the rolling
        // resistance, so that a ball touching at one point stops spinning.
        double twist_arm = c->twist_radius > c->rolling_limit / (c->friction > 0 ? c->friction : 1)
                               ? c->twist_radius
                               : c->rolling_limit / (c->friction > 0 ? c->friction : 1);
        if (twist_arm > 0) {
            double wn = sv_dot(sv_sub(B->w, A->w), c->n);
            double lt = c->lambda_twist - c->mass_twist * wn;
            double tl = c->friction * twist_arm * total;
            lt = lt > tl ? tl : lt < -tl ? -tl : lt;
            apply_twist(A, B, sv_scale(lt - c->lambda_twist, c->n));
            c->lambda_twist = lt;
        }
        if (c->rolling_limit > 0) {
            sim_vec3 dw = sv_sub(B->w, A->w);
            double m1 = c->lambda_r1, m2 = c->lambda_r2;
            solve_disc(c->r11, c->r12, c->r22, sv_dot(dw, c->t1), sv_dot(dw, c->t2), c->rolling_limit * total, &m1,
                       &m2);
            apply_twist(A, B, sv_add(sv_scale(m1 - c->lambda_r1, c->t1), sv_scale(m2 - c->lambda_r2, c->t2)));
            c->lambda_r1 = m1;
            c->lambda_r2 = m2;
        }
    }
}

/// The least s in [0, 1] at which e0 + a·s + b·s² reaches `cap` (e0 ≤ cap,
/// e0 + a + b above it): how much of an impulse whose energy change is
/// a·s + b·s² at scale s stays within the cap.
static double energy_scale(double e0, double a, double b, double cap) {
    double room = cap - e0, s = 0;
    if (b > 0) {
        // The positive root of b·s² + a·s − room, as 2·room / (a + √(a² +
        // 4·b·room)): no cancellation when a > 0 and b·room is small.
        double root = sqrt(a * a + 4 * b * room), q = a + root;
        s = q > 0 ? 2 * room / q : (root - a) / (2 * b);
    } else if (a > 0) {
        s = room / a;
    }
    return s < 0 ? 0 : s > 1 ? 1 : s;
}

/// A restitution sweep: points that closed faster than the threshold and
/// were pushed apart bounce, their normal speed becoming −e times the
/// closing speed at the step's start. p->bounce gathers the impulse each
/// point takes (apply_restitution). True when a point took one.
static bool restitution_sweep(sim_world *w) {
    double threshold = w->s.restitution_threshold;
    bool bounced = false;
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        if (c->restitution == 0) {
            continue;
        }
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            if (p->vn0 > -threshold || p->max_lambda_n == 0) {
                continue;
            }
            double vn = normal_speed(A, B, c, p);
            double ln = p->lambda_n - p->mass_n * (vn + c->restitution * p->vn0);
            ln = ln > 0 ? ln : 0;
            apply_normal(A, B, c, p, ln - p->lambda_n);
            p->bounce += ln - p->lambda_n;
            bounced = bounced || ln != p->lambda_n;
            p->lambda_n = ln;
        }
    }
    return bounced;
}

/// The root of body i's group (union-find with path halving).
static int group_root(sim_world *w, int i) {
    while (w->bodies[i].group != i) {
        w->bodies[i].group = w->bodies[w->bodies[i].group].group;
        i = w->bodies[i].group;
    }
    return i;
}

/// Restitution for the step: its sweeps, then a cap on the energy they give
/// back. The closing speeds are the step start's and the lever arms the
/// end's, and where the bodies turned within the step, or several points
/// bounce at once, they disagree (simulator review: 90 of 3000 random
/// throws of thin bodies, nearly all elastic, gained more than 1%, up to 6
/// times). So the bodies that bounce together (joined by contacts that
/// bounced, static bodies left out) keep no more kinetic energy than the
/// larger of what they had at the step's start plus gravity's work on
/// their motion in the step, m·g·(x − x0), and what they had before
/// restitution; beyond, all their bounce impulses Δ are scaled back
/// together to where the energy meets that cap. At scale
/// s the energy is E_pre + a·s + b·s², with a = Σ Δ·vn_pre (the impulses'
/// work at the speeds before) and b = ½·Σ over the bodies of (|P|²/m +
/// L·I⁻¹·L), P and L a body's linear and angular bounce impulse. (Capped
/// one contact at a time instead, the two impulses of a body bouncing off
/// a wall and the ground at once, which fight each other, could not be
/// scaled back; capped after each sweep, a head-on elastic hit of two boxes
/// left one spinning; capped by the energy at the step's start without
/// gravity's work, a ball falling past a wall bounced off with none of its
/// speed; with the free-flight energy ½·m·|v + g·dt|² instead of that
/// work, a heavy box resting on the ground lent 67 J a step to a light
/// capsule bouncing off it, which gained 55%: reviews.)
static void apply_restitution(sim_world *w, int sweeps) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        const body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            c->p[j].bounce = 0;
            c->p[j].vn_pre = c->restitution > 0 ? normal_speed(A, B, c, &c->p[j]) : 0;
        }
    }
    bool bounced = false;
    for (int it = 0; it < sweeps; ++it) {
        bounced = restitution_sweep(w) || bounced;
    }
    if (!bounced) {
        return; // nothing to cap
    }
    for (int i = 0; i < w->count; ++i) {
        body *b = &w->bodies[i];
        b->group = i;
        b->bounce_p = b->bounce_l = b->bounce_iw = sv3(0, 0, 0);
        b->group_cap = b->group_now = b->group_work = b->group_curv = 0;
        b->bounce_scale = 1;
    }
    // The groups, and each body's bounce impulses.
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        double sum = 0;
        bool any = false;
        for (int j = 0; j < c->count; ++j) {
            const cpoint *p = &c->p[j];
            sum += p->bounce;
            any = any || p->bounce != 0;
            A->bounce_l = sv_mul_add(A->bounce_l, -p->bounce, p->ran);
            A->bounce_iw = sv_mul_add(A->bounce_iw, -p->bounce, p->wa);
            B->bounce_l = sv_mul_add(B->bounce_l, p->bounce, p->rbn);
            B->bounce_iw = sv_mul_add(B->bounce_iw, p->bounce, p->wb);
        }
        if (!any) {
            continue;
        }
        A->bounce_p = sv_mul_add(A->bounce_p, -sum, c->n);
        B->bounce_p = sv_mul_add(B->bounce_p, sum, c->n);
        if (!A->is_static && !B->is_static) {
            int ra = group_root(w, c->a), rb = group_root(w, c->b);
            w->bodies[ra > rb ? ra : rb].group = ra < rb ? ra : rb;
        }
    }
    // Each group's sums at its root: the cap, the energy now, the work a
    // and the curvature b.
    for (int i = 0; i < w->count; ++i) {
        body *b = &w->bodies[i];
        if (b->is_static || (b->bounce_p.x == 0 && b->bounce_p.y == 0 && b->bounce_p.z == 0 &&
                             b->bounce_l.x == 0 && b->bounce_l.y == 0 && b->bounce_l.z == 0)) {
            continue;
        }
        body *r = &w->bodies[group_root(w, i)];
        r->group_cap += b->energy_start + sv_dot(w->s.gravity, sv_sub(b->x, b->x0)) / b->inv_mass;
        r->group_now += kinetic_energy(b);
        r->group_curv += 0.5 * (sv_dot(b->bounce_p, b->bounce_p) * b->inv_mass + sv_dot(b->bounce_l, b->bounce_iw));
    }
    for (int k = 0; k < w->contact_count; ++k) {
        const contact *c = &w->contacts[k];
        int i = w->bodies[c->a].is_static ? c->b : c->a;
        body *r = &w->bodies[group_root(w, i)];
        for (int j = 0; j < c->count; ++j) {
            r->group_work += c->p[j].bounce * c->p[j].vn_pre;
        }
    }
    // The scale of each group's impulses.
    for (int i = 0; i < w->count; ++i) {
        body *r = &w->bodies[i];
        if (r->group != i) {
            continue;
        }
        double pre = r->group_now - r->group_work - r->group_curv;
        double cap = r->group_cap > pre ? r->group_cap : pre;
        if (r->group_now > cap) {
            r->bounce_scale = energy_scale(pre, r->group_work, r->group_curv, cap);
        }
    }
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        double s = w->bodies[group_root(w, A->is_static ? c->b : c->a)].bounce_scale;
        if (s == 1) {
            continue;
        }
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            apply_normal(A, B, c, p, (s - 1) * p->bounce);
            p->lambda_n += (s - 1) * p->bounce;
        }
    }
}

/// The rotation by angle |ω|·h about ω, applied to q: exp(ω h / 2) ⊗ q,
/// then renormalised.
static sim_quat rotate_by(sim_quat q, sim_vec3 omega, double h) {
    double len = sv_length(omega);
    double a = len * h;
    if (!(a > 0)) {
        return sq_normalize(q);
    }
    double s = sin(0.5 * a) / len;
    sim_quat r = sq_make(cos(0.5 * a), s * omega.x, s * omega.y, s * omega.z);
    return sq_normalize(sq_mul(r, q));
}

/// Advances each point's separation by its normal speed over the substep
/// (to first order in the motion: the bodies' translation and the turning of
/// the lever arms).
static void advance_separations(sim_world *w, double h) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        const body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            p->separation_now += h * normal_speed(A, B, c, p);
        }
    }
}

static void integrate_positions(sim_world *w, double h) {
    for (int i = 0; i < w->count; ++i) {
        body *b = &w->bodies[i];
        if (b->is_static) {
            continue;
        }
        b->x = sv_mul_add(b->x, h, b->v);
        // Angular momentum about the centre of mass is what a free body
        // keeps, so it is held fixed over the substep and the rotation is
        // found by the implicit midpoint rule: turn by h·ω(q½), where ω(q) is
        // I(q)⁻¹·L and q½ the midpoint of the old and new rotations (a few
        // fixed-point sweeps). The explicit rule, turning by the old ω, gains
        // energy: a capsule would spin up about its long axis. ω is then
        // recomputed from L and the new inertia.
        //
        // The sweeps converge when the turn h·|ω| is well below a radian;
        // a faster spin is turned in parts of at most half a radian each
        // (a free capsule at 1000 rad/s, 1.7 rad a substep, lost 93% of its
        // energy and at 3000 gained up to 55%: simulator review).
        sim_mat3 inertia_world = sm_rotate_tensor(&b->rot, &b->inertia_local);
        sim_vec3 L = sm_mul_vec(&inertia_world, b->w);
        double turn = sv_length(b->w) * h;
        int parts = turn > 0.5 ? (turn < 32 ? (int)ceil(turn / 0.5) : 64) : 1;
        double hp = h / parts;
        sim_quat q1 = b->q;
        sim_vec3 omega = b->w;
        for (int part = 0; part < parts; ++part) {
            sim_quat q0 = q1;
            q1 = rotate_by(q0, omega, hp);
            for (int it = 0; it < 3; ++it) {
                sim_quat mid = sq_normalize(sq_make(q0.w + q1.w, q0.x + q1.x, q0.y + q1.y, q0.z + q1.z));
                sim_mat3 r = sm_from_quat(mid), rt = sm_transpose(&r);
                sim_vec3 local = sm_mul_vec(&b->inv_inertia_local, sm_mul_vec(&rt, L)); // I⁻¹(q½)·L = R·I⁻¹·Rᵀ·L
                omega = sm_mul_vec(&r, local);
                sim_quat next = rotate_by(q0, omega, hp);
                double change = fabs(next.w - q1.w) + fabs(next.x - q1.x) + fabs(next.y - q1.y) + fabs(next.z - q1.z);
                q1 = next;
                if (change < 1e-15) {
                    break; // converged (at once for a body that barely turns)
                }
            }
        }
        // The sweeps converge only while h·|L|/I_min is small, not |ω|·h
        // (a thin body's spin about its long axis answers a small tilt by
        // |L|·δθ/I_axis): where they did not, the turn can come out with
        // more energy than the body had (a capsule of radius 0.01 at
        // ω = (300, 0, 30) rad/s went from 2.72 J to 24.4 J in a step and
        // settled 16% above: review). A substep that gains more than 1e-6
        // of the energy (the converged rule's own drift stays far below)
        // turns by the old ω instead, about its own axis, which keeps
        // ½ ωᵀIω exactly and |L|, but turns L about ω: the body tumbles
        // wrong rather than faster.
        sim_quat q_old = b->q;
        sim_vec3 w_old = b->w;
        b->q = q1;
        sim_update_inertia(b);
        b->w = sm_mul_vec(&b->inv_inertia_world, L);
        if (sv_dot(L, b->w) > sv_dot(L, w_old) * (1 + 1e-6)) {
            b->q = rotate_by(q_old, w_old, h);
            sim_update_inertia(b);
            b->w = w_old;
        }
    }
}

void sim_solve_step(sim_world *w) {
    int n = w->s.iterations > 0 ? w->s.iterations : 1;
    double h = w->s.dt / n;
    // Contact stiffness: at most a fifth of the substep rate (Box2D v3 caps
    // it at a quarter); contacts with static bodies twice as stiff, within
    // the same cap (at the defaults both are the cap, 120 Hz). (Uncapped,
    // at the defaults 240 Hz against 600 substeps a second, a light box
    // under a heavy one rocked on the ground: the top at up to 6 cm/s
    // after 20 s at 10 times the density, test test_heavy_on_light.)
    double cap = 0.2 / h;
    double hertz = w->s.contact_hertz < cap ? w->s.contact_hertz : cap;
    softness soft = make_softness(hertz, w->s.contact_damping_ratio, h);
    softness soft_static = make_softness(2 * hertz < cap ? 2 * hertz : cap, w->s.contact_damping_ratio, h);
    // Closing speeds for restitution are taken before gravity acts in this
    // step, so that a bounce returns the speed the body arrived with.
    for (int i = 0; i < w->count; ++i) {
        w->bodies[i].x0 = w->bodies[i].x;
    }
    prepare_step(w);
    for (int sub = 0; sub < n; ++sub) {
        for (int i = 0; i < w->count; ++i) {
            body *b = &w->bodies[i];
            if (!b->is_static) {
                b->v = sv_mul_add(b->v, h, w->s.gravity);
            }
        }
        if (sub > 0) {
            sim_refresh_turning(w, h);
        }
        update_geometry(w);
        warm_start(w, h);
        solve(w, h, true, soft, soft_static);
        advance_separations(w, h);
        integrate_positions(w, h);
        update_geometry(w);
        solve(w, h, false, soft, soft_static);
    }
    update_geometry(w);
    apply_restitution(w, n);
}

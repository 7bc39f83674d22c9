// Time of impact of two moving shapes by conservative advancement.
//
// At time t the distance query gives the gap d and the unit normal n from A
// to B. The supporting planes of A and B normal to n are d apart. Over the
// rest of the step a point of A moves along n no faster than
// v_A·n + ω_A ρ_A (linear velocity, plus angular speed times the shape's
// extent about its origin, the centre of rotation), and a point of B no
// faster than −v_B·n + ω_B ρ_B toward A (tighter: ρ |n × ω|, since a spin
// about n moves no point along n). So the gap along this fixed n cannot
// close faster than μ = (v_A − v_B)·n + ρ_A |n × ω_A| + ρ_B |n × ω_B|, the shapes
// cannot come within `target` before t + (d − target)/μ, and if μ ≤ 0 they
// never do. Each step lands at or before the first contact: no tunnelling.
// Where it is longer, a step certified by a second-order bound on the gap
// along n (or along n turning with A, with B, or so that two edges do not
// tilt) is taken instead (second_order_step).
// ρ is the core's extent, without the rounding radius: a rounded shape's
// support point along n is its core's plus r n, and a turn moves r n along
// n by (ω × r n)·n = 0, so a ball (a point core) turning about its centre
// adds nothing (counted with the radius, a spinning ball passing 1e-4
// clear crawled past its closest approach to the step cap: review). A
// solid of revolution counts only the turn that tips its axis (below).
// (Mirtich 1996; Zhang, Redon, Lee, Kim, "Continuous collision detection
// for articulated models using Taylor models and temporal culling", 2007.)
#include <string.h>

#include "internal.h"

/// A sweep's start rotation *q0 (unit) and its turn q1·q0* along the
/// shorter arc (w ≥ 0): one decision for the poses (gjk_sweep_at) and for
/// the rotation the bounds of the steps read (sweep_rotation), so that they
/// turn the same way, also at a half turn (review: two tests of the arc,
/// the same products summed in two expressions, agree only where the
/// compiler fuses neither).
static gjk_quat sweep_turn(const gjk_sweep *sweep, gjk_quat *q0) {
    *q0 = gjk_quat_normalize(sweep->start.rotation);
    gjk_quat qr = gjk_quat_mul(gjk_quat_normalize(sweep->end.rotation), gjk_quat_conj(*q0));
    return qr.w < 0 ? gjk_quat_make(-qr.w, -qr.x, -qr.y, -qr.z) : qr;
}

gjk_transform gjk_sweep_at(const gjk_sweep *sweep, gjk_real t) {
    if (sweep == NULL) {
        return gjk_transform_identity();
    }
    // The turn qr, by the fraction t of its angle, after q0.
    gjk_quat q0;
    gjk_quat qr = sweep_turn(sweep, &q0);
    gjk_vec3 u = gjk_v3(qr.x, qr.y, qr.z);
    gjk_real s = gjk_length(u);
    gjk_quat q = q0;
    if (s > 0) {
        gjk_real angle = 2 * (gjk_real)atan2(s, qr.w);
        q = gjk_quat_normalize(gjk_quat_mul(gjk_quat_from_axis_angle(gjk_scale(1 / s, u), angle * t), q0));
    }
    gjk_vec3 p = gjk_add(sweep->start.position, gjk_scale(t, gjk_sub(sweep->end.position, sweep->start.position)));
    return gjk_transform_make(p, q);
}

/// The angular displacement of a sweep over the step: the rotation vector
/// (axis times angle, world frame, angle in [0, π]). The sweep turns about
/// this fixed world axis at a constant rate.
static gjk_vec3 sweep_rotation(const gjk_sweep *sweep) {
    gjk_quat q0;
    gjk_quat qr = sweep_turn(sweep, &q0);
    gjk_vec3 u = gjk_v3(qr.x, qr.y, qr.z);
    gjk_real s = gjk_length(u);
    if (!(s > 0)) {
        return gjk_v3_zero();
    }
    // atan2 keeps small angles exact, where acos of a dot product near 1
    // would round them to nothing.
    gjk_real angle = 2 * (gjk_real)atan2(s, qr.w);
    return gjk_scale(angle / s, u);
}

static bool sweep_valid(const gjk_sweep *s) { return gjk_transform_valid(&s->start) && gjk_transform_valid(&s->end); }

/// A shape's core as a solid of revolution: about the line along `axis`
/// (local frame, not unit) at distance *offset from the origin, rounded up.
/// A segment's or capsule's line, a cylinder's or cone's z and an
/// ellipsoid's axis whose other two radii are equal (offset 0). False for
/// every other shape (a point core's spin costs nothing already: its bound
/// ρ is 0), and for a segment of no length.
static bool revolution_axis(const gjk_shape *s, gjk_vec3 *axis, gjk_real *offset) {
    gjk_vec3 a, b;
    *offset = 0;
    switch (s->type) {
    case GJK_SHAPE_SEGMENT: a = s->segment.a, b = s->segment.b; break;
    case GJK_SHAPE_CAPSULE: a = s->capsule.a, b = s->capsule.b; break;
    case GJK_SHAPE_CYLINDER:
    case GJK_SHAPE_CONE: *axis = gjk_v3(0, 0, 1); return true;
    case GJK_SHAPE_ELLIPSOID: {
        gjk_vec3 r = s->ellipsoid.radii;
        *axis = r.x == r.y ? gjk_v3(0, 0, 1) : r.y == r.z ? gjk_v3(1, 0, 0) : gjk_v3(0, 1, 0);
        return r.x == r.y || r.y == r.z || r.x == r.z;
    }
    default: return false;
    }
    *axis = gjk_sub(b, a);
    gjk_real ee = gjk_length_sq(*axis);
    if (!(ee > GJK_SQUARE_MIN && ee < GJK_SQUARE_MAX)) {
        return false;
    }
    // The line's point nearest the origin carries the rounding of the
    // projection, a few ε of the ends' coordinates (a capsule 1e-4 long
    // pointing at its origin from 1 away, in float, had a line 4e-4 off
    // it: review).
    gjk_vec3 c = gjk_mul_add(a, -gjk_dot(a, *axis) / ee, *axis);
    *offset = gjk_length(c) + 32 * GJK_REAL_EPSILON * (gjk_max_abs(a) + gjk_max_abs(b));
    return true;
}

/// The bound on how fast a turning shape's points move along n, for a
/// solid of revolution (revolution_axis) about a line at distance D from
/// its origin along â, turning by w (world, over the step): its core is
/// the part K0 about the parallel line through the origin moved by c
/// (|c| = D). K0 is the same set however it turns about â, so its turn may
/// be taken as the one that only tips â, w' = w − (w·â)â, which carries â
/// as w does (â turns about w, so |w'| = |w × â| is constant over the
/// step), and its points (within ρ + D of the origin) move along n no
/// faster than (ρ + D)|w × â|; c adds D |n × w|. The rate, as
/// (tip, offset) = (|w × â|, D), D rounded up; tip the largest finite
/// number for a shape with no such axis.
typedef struct revolution_rate {
    gjk_real tip, offset;
} revolution_rate;

static revolution_rate revolution_of(const gjk_shape *s, const gjk_sweep *sweep, gjk_vec3 w) {
    revolution_rate r = {GJK_REAL_MAX, 0};
    gjk_vec3 axis;
    if (revolution_axis(s, &axis, &r.offset)) {
        gjk_vec3 aw = gjk_normalize(gjk_quat_rotate(gjk_quat_normalize(sweep->start.rotation), axis));
        r.tip = gjk_length(gjk_cross(w, aw));
    }
    return r;
}

/// How fast the points of a turning core (bound ρ about its origin) move
/// along n: ρ |n × w| (a spin about n moves none along it), or for a solid
/// of revolution D |n × w| + (ρ + D) |w × â| where that is less.
static gjk_real turn_rate(gjk_real rho, gjk_vec3 n, gjk_vec3 w, revolution_rate r) {
    gjk_real nw = gjk_length(gjk_cross(n, w));
    return gjk_min(rho * nw, r.offset * nw + (rho + r.offset) * r.tip);
}

/// How far B lies beyond A along the unit n at q's poses: the gap between
/// their supporting planes normal to n (the distance, for the normal of a
/// distance query).
static gjk_real support_gap(const gjk_query_input *q, gjk_vec3 n) {
    gjk_quat ra = q->transform_a.rotation, rb = q->transform_b.rotation; // unit: gjk_sweep_at's
    gjk_vec3 pa = gjk_quat_rotate(ra, gjk_shape_support(q->shape_a, gjk_quat_inv_rotate(ra, n)));
    gjk_vec3 pb = gjk_quat_rotate(rb, gjk_shape_support(q->shape_b, gjk_quat_inv_rotate(rb, gjk_neg(n))));
    return gjk_dot(n, gjk_sub(gjk_add(q->transform_b.position, pb), gjk_add(q->transform_a.position, pa)));
}

/// The height of a shape's core along u (world, any length) at rotation r:
/// the largest p·u over the core's points p, offsets from its origin
/// (world). *point gets the p that gives it.
static gjk_real core_height(const gjk_shape *s, gjk_quat r, gjk_vec3 u, gjk_vec3 *point) {
    gjk_vec3 ul = gjk_quat_inv_rotate(r, u);
    gjk_vec3 p = gjk_core_support(s, ul);
    *point = gjk_quat_rotate(r, p);
    return gjk_dot(p, ul);
}

/// What a second-order step from t needs (second_order_step): the poses at
/// t, the unit normal n, the cores' heights h_A(n), h_B(−n) and the support
/// points (world offsets) that give them, the gap budget, the motion.
typedef struct step_state {
    const gjk_query_input *q;
    gjk_vec3 n, pa, pb, dc, dv, wa, wb;
    gjk_real ha, hb, core_a, core_b, budget, rest;
} step_state;

/// How long from t the gap along a direction that starts at n and turns
/// with W (world, over the step: 0, one shape's turn, or the one that tilts
/// neither of two edges; any W is sound) stays above the
/// target, at most `rest`; 0 where none is certified. A second, safe step:
/// the first-order bound μ counts every point of a turning core at its
/// largest speed along n, but only the support point moves the gap: near a
/// closest approach the gap's true rate is near 0 while μ stays ρ|n × ω|,
/// and through a pass d apart the steps crawl at d/μ; near a contact whose
/// closing rate is small against μ each step gains only that fraction of
/// the gap (review: 0.14% of random turning sweeps in double ran out of
/// steps, nearly all of them contacts).
///
/// With n(s) = n turned by W s, a core point x (offset from its origin,
/// turning by ω) has height f = x·n(s), f' = x·(n × δ), δ = ω − W, and
/// f'' = (ω × x)·(n × δ) + x·((W × n) × δ), at most
/// c = ρ|δ|(|ω| + |W × n|) in size (for W = 0, ρ|ω||n × ω|: n stays, and
/// |n × δ| with it). So f(s) ≤ x·(n + s n × δ) + c s²/2, and over the core
/// h(s) ≤ h_t(n + s n × δ) + c s²/2, h_t its height function at t. The
/// origins' offset e = n(s)·(c_B − c_A)(s) has e' = (W × n)·Δc + n·Δv and
/// |e''| ≤ |W||W × n|(|Δc| + s|Δv|) + 2|W × n||Δv|. So the gap along n(s)
/// is at least g − L(s) − C s²/2, where L(s) = −e'(0) s
/// + [h_A(n + s m_A) − h_A(n)] + [h_B(−n + s m_B) − h_B(−n)] with
/// m_A = n × δ_A, m_B = δ_B × n, and C the sum of the three bounds. L is
/// convex (a height function is, along a line of directions) and L(0) = 0,
/// so for s ≤ p, L(s) ≤ s L(p)/p: one probe at p bounds the gap over [0, p]
/// by g − r s − C s²/2, r = L(p)/p, and it stays above target up to the root
/// of r s + C s²/2 = g − target (or p, if that lies beyond). The probe is
/// the root for the rate of the support points at t (the true rate for
/// smooth cores), so the bound follows the gap to first order: near a
/// contact each step leaves an error of the order of its square, through
/// a closest approach d apart the steps are about √(2d/C) long, not d/μ.
/// Turning n with a shape keeps that shape's height fixed (δ = 0): a face
/// tilting with its shape raises a corner along a fixed n at first order,
/// which the distance, whose normal tilts along, does not see. The
/// distance is at least the gap along any unit direction, so the step
/// lands at or before the first contact.
static gjk_real second_order_step(const step_state *st, gjk_vec3 w) {
    gjk_vec3 n = st->n, da = gjk_sub(st->wa, w), db = gjk_sub(st->wb, w);
    gjk_vec3 wn = gjk_cross(w, n), ma = gjk_cross(n, da), mb = gjk_cross(db, n);
    bool fixed = w.x == 0 && w.y == 0 && w.z == 0;
    gjk_real wn_len = gjk_length(wn), dv = gjk_length(st->dv);
    gjk_real ca = gjk_length(st->wa) * (fixed ? gjk_length(ma) : gjk_length(da)) + wn_len * gjk_length(da);
    gjk_real cb = gjk_length(st->wb) * (fixed ? gjk_length(mb) : gjk_length(db)) + wn_len * gjk_length(db);
    gjk_real c = st->core_a * ca + st->core_b * cb + gjk_length(w) * wn_len * (gjk_length(st->dc) + st->rest * dv) +
                 2 * wn_len * dv;
    gjk_real e1 = gjk_dot(wn, st->dc) + gjk_dot(n, st->dv);
    gjk_step_search se = {0, c, st->budget, st->rest, 0, 0};
    se.r = -e1 + gjk_dot(st->pa, ma) + gjk_dot(st->pb, mb); // the rate at t of these support points
    const gjk_query_input *q = st->q;
    for (int probe = 0; probe < 3 && gjk_step_probe(&se); ++probe) {
        gjk_vec3 unused;
        gjk_real rise_a = core_height(q->shape_a, q->transform_a.rotation, gjk_mul_add(n, se.p, ma), &unused) - st->ha;
        gjk_vec3 ub = gjk_mul_add(gjk_neg(n), se.p, mb);
        gjk_real rise_b = core_height(q->shape_b, q->transform_b.rotation, ub, &unused) - st->hb;
        if (gjk_step_take(&se, -e1 * se.p + rise_a + rise_b)) {
            break;
        }
    }
    return se.safe;
}

/// The longest of the second-order steps with n fixed, turning with A and
/// turning with B. (Heights and the gap carry roundings of a few ε of the
/// coordinates, `slack`, taken off the budget.)
static gjk_real second_order_ahead(const gjk_query_input *q, gjk_vec3 n, gjk_real d, gjk_real target,
                                   gjk_real core_a, gjk_real core_b, gjk_vec3 va, gjk_vec3 vb, gjk_vec3 wa,
                                   gjk_vec3 wb, gjk_vec3 witness_a, gjk_vec3 witness_b, gjk_real rest,
                                   gjk_real slack) {
    if (!(gjk_length_sq(wa) > 0) && !(gjk_length_sq(wb) > 0)) {
        return 0; // no turn: μ is exact already
    }
    step_state st;
    st.q = q;
    st.n = n;
    st.ha = core_height(q->shape_a, q->transform_a.rotation, n, &st.pa);
    st.hb = core_height(q->shape_b, q->transform_b.rotation, gjk_neg(n), &st.pb);
    st.dc = gjk_sub(q->transform_b.position, q->transform_a.position);
    st.dv = gjk_sub(vb, va);
    st.wa = wa;
    st.wb = wb;
    st.core_a = core_a;
    st.core_b = core_b;
    st.rest = rest;
    gjk_real gap = gjk_dot(n, st.dc) - st.ha - st.hb - gjk_core_radius(q->shape_a) - gjk_core_radius(q->shape_b);
    st.budget = gjk_min(gap, d) - target - slack;
    if (!(st.budget > 0)) {
        return 0;
    }
    gjk_real ahead = 0;
    if (gjk_length_sq(gjk_cross(n, wa)) > 0 || gjk_length_sq(gjk_cross(n, wb)) > 0) {
        ahead = second_order_step(&st, gjk_v3_zero()); // else μ is exact already
    }
    if (ahead < rest && gjk_length_sq(wa) > 0) {
        ahead = gjk_max(ahead, second_order_step(&st, wa));
    }
    if (ahead < rest && gjk_length_sq(wb) > 0) {
        ahead = gjk_max(ahead, second_order_step(&st, wb));
    }
    // Two edges: the witness points lie on them away from the support
    // points, along e_A and e_B. A turn W tilts neither, at first order,
    // where (e_A × n)·W = (e_A × n)·ω_A and (e_B × n)·W = (e_B × n)·ω_B:
    // W in the plane of u_A = e_A × n and u_B = e_B × n (unit, both across n).
    gjk_vec3 ea = gjk_sub(gjk_sub(witness_a, q->transform_a.position), st.pa);
    gjk_vec3 eb = gjk_sub(gjk_sub(witness_b, q->transform_b.position), st.pb);
    ea = gjk_mul_add(ea, -gjk_dot(ea, n), n);
    eb = gjk_mul_add(eb, -gjk_dot(eb, n), n);
    if (ahead < rest && gjk_length(ea) > 1e-3 * core_a && gjk_length(eb) > 1e-3 * core_b) {
        gjk_vec3 ua = gjk_normalize(gjk_cross(ea, n)), ub = gjk_normalize(gjk_cross(eb, n));
        gjk_real c = gjk_dot(ua, ub), det = 1 - c * c, a = gjk_dot(ua, wa), b = gjk_dot(ub, wb);
        if (det > (gjk_real)0.01) {
            gjk_vec3 w = gjk_add(gjk_scale((a - c * b) / det, ua), gjk_scale((b - c * a) / det, ub));
            ahead = gjk_max(ahead, second_order_step(&st, w));
        }
    }
    return ahead;
}

/// The answer at a contact found at time t (poses already in q): the
/// penetration query gives the normal and point, and tells an overlap at the
/// start (gjk_cast_start_status: not converged only where gjk_intersect is
/// not either, and then no hit). A later contact whose penetration query
/// did not converge (EPA capped by options.max_epa_iterations) takes the
/// distance query's normal and point (d, at the same poses) where that one
/// knows its direction; else it has none: not converged, safe up to t, as
/// in gjk_shapecast. (Reported as a hit with the capped EPA's normal, 0.6
/// rad off, along which two cylinders overlapped by 1.46: fuzz seed 1048.)
static gjk_cast_output toi_contact(const gjk_query_input *q, const gjk_distance_output *d, gjk_real t, int iter,
                                   gjk_cast_output out) {
    gjk_penetration_output pen = gjk_penetration(q, NULL);
    bool known = gjk_length_sq(d->normal) > 0; // unit or zero
    out.status = iter == 0                                   ? gjk_cast_start_status(q, pen.status)
                 : pen.status != GJK_NOT_CONVERGED || known ? GJK_HIT
                                                            : GJK_NOT_CONVERGED;
    out.hit = out.status != GJK_NOT_CONVERGED;
    out.t = t;
    out.point = pen.point_a;
    out.normal = pen.normal;
    if (iter > 0 && pen.status == GJK_NOT_CONVERGED) {
        out.point = known ? d->point_a : gjk_v3_zero();
        out.normal = known ? d->normal : gjk_v3_zero();
    }
    if (pen.status == GJK_INVALID_INPUT || out.status == GJK_INVALID_INPUT) {
        memset(&out, 0, sizeof out);
        out.status = GJK_INVALID_INPUT;
    }
    return out;
}

static gjk_cast_output gjk_time_of_impact_run(const gjk_toi_input *in) {
    gjk_cast_output out;
    memset(&out, 0, sizeof out);
    out.status = GJK_INVALID_INPUT;
    if (in == NULL || !gjk_options_valid(&in->options) || !gjk_shape_check(in->shape_a, true) ||
        !gjk_shape_check(in->shape_b, true) || !sweep_valid(&in->sweep_a) || !sweep_valid(&in->sweep_b) ||
        !gjk_is_valid_real(in->target_separation) || in->target_separation < 0) {
        return out;
    }
    // The extents with rounding set the tolerance's scale; the cores' bound
    // the spin (each computed once: a custom shape's is six support calls).
    gjk_real core_a = gjk_shape_core_bound(in->shape_a), core_b = gjk_shape_core_bound(in->shape_b);
    gjk_real rho_a = core_a + gjk_core_radius(in->shape_a), rho_b = core_b + gjk_core_radius(in->shape_b);
    gjk_vec3 va = gjk_sub(in->sweep_a.end.position, in->sweep_a.start.position);
    gjk_vec3 vb = gjk_sub(in->sweep_b.end.position, in->sweep_b.start.position);
    gjk_vec3 wa = sweep_rotation(&in->sweep_a), wb = sweep_rotation(&in->sweep_b);
    if (!gjk_is_valid_real(rho_a + rho_b) || !gjk_is_valid_vec3(gjk_sub(va, vb)) ||
        !gjk_is_valid_vec3(gjk_add(wa, wb))) {
        return out;
    }
    revolution_rate rev_a = revolution_of(in->shape_a, &in->sweep_a, wa);
    revolution_rate rev_b = revolution_of(in->shape_b, &in->sweep_b, wb);
    gjk_real rel_tol = gjk_options_tolerance(&in->options);
    int cap = in->options.max_iterations > 0 ? in->options.max_iterations : GJK_DEFAULT_MAX_TOI_ITERATIONS;
    gjk_real target = in->target_separation;
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = in->shape_a;
    q.shape_b = in->shape_b;
    q.options = in->options;
    q.options.trace = NULL;
    q.options.max_iterations = 0; // the cap is on advancement steps, not on each query
    q.options.max_distance = 0;   // the distances must be exact, not lower bounds
    gjk_simplex_cache cache;
    memset(&cache, 0, sizeof cache);
    gjk_real t = 0;
    bool cold = false; // this step's query was asked again without the cache
    for (int iter = 0;; ++iter) {
        q.transform_a = gjk_sweep_at(&in->sweep_a, t);
        q.transform_b = gjk_sweep_at(&in->sweep_b, t);
        gjk_distance_output d = gjk_distance(&q, &cache);
        if (d.status == GJK_INVALID_INPUT) {
            memset(&out, 0, sizeof out);
            out.status = GJK_INVALID_INPUT;
            return out;
        }
        out.iterations = iter;
        if (d.status == GJK_NOT_CONVERGED) {
            // The distance is not known (curved shapes with a tight
            // tolerance can reach the walk's cap): neither a contact nor a
            // safe step can be claimed. Safe up to t.
            out.status = GJK_NOT_CONVERGED;
            out.t = t;
            return out;
        }
        gjk_real tol = rel_tol * (rho_a + rho_b + d.distance);
        if (d.status != GJK_SEPARATED || d.distance <= target + tol) {
            return toi_contact(&q, &d, t, iter, out);
        }
        // The step trusts the normal: along it the shapes must lie d apart,
        // up to the walk's tolerance. Near contact at a tight tolerance a
        // warm walk once reversed it (1.6e-13 from touching, tolerance
        // 1e-14: the closing speed along it came out negative and a sliding
        // cone and ellipsoid missed, f43); a cold query answers then, and a
        // normal that still does not separate them leaves t safe but not
        // the contact found.
        // (The slack: 64 tolerances, or 64 roundings at the coordinates'
        // size where the tolerance is below them.)
        gjk_real scale = rho_a + rho_b + d.distance + gjk_max_abs(q.transform_a.position) +
                         gjk_max_abs(q.transform_b.position);
        gjk_real slack = 64 * (tol + GJK_REAL_EPSILON * scale);
        if (support_gap(&q, d.normal) < d.distance - slack) {
            if (cold) {
                out.status = GJK_NOT_CONVERGED;
                out.t = t;
                return out;
            }
            memset(&cache, 0, sizeof cache); // the same step again, cold
            cold = true;
            --iter;
            continue;
        }
        cold = false;
        // A point p (from the centre of rotation) moves along n at
        // (ω × p)·n = p·(n × ω) ≤ ρ |n × ω|: spin about n itself costs
        // nothing; nor does a solid of revolution's spin about its own axis
        // (turn_rate: a log rolling on its axis, or a wheel; review: a
        // capsule spinning 1 rad in place 1e-3 above the ground reached the
        // cap).
        gjk_real mu = gjk_dot(gjk_sub(va, vb), d.normal) + turn_rate(core_a, d.normal, wa, rev_a) +
                      turn_rate(core_b, d.normal, wb, rev_b);
        if (!(mu > 0)) {
            out.status = GJK_MISS;
            return out;
        }
        gjk_real next = t + (d.distance - target) / mu;
        if (next <= 1) {
            gjk_real rest = 1 - t;
            gjk_real ahead = second_order_ahead(&q, d.normal, d.distance, target, core_a, core_b, va, vb, wa, wb,
                                               d.point_a, d.point_b, rest, 16 * GJK_REAL_EPSILON * scale);
            next = ahead >= rest ? 2 : gjk_max(next, t + ahead);
        }
        if (!(next <= 1)) {
            out.status = GJK_MISS;
            out.t = 0;
            return out;
        }
        if (!(next > t)) {
            // The safe step is below the resolution of t: the contact lies
            // within one unit of rounding of t.
            return toi_contact(&q, &d, t, iter, out);
        }
        t = next;
        if (iter + 1 >= cap) {
            // Safe up to t, but not converged to the contact.
            out.status = GJK_NOT_CONVERGED;
            out.t = t;
            out.iterations = iter + 1;
            return out;
        }
    }
}

gjk_cast_output gjk_time_of_impact(const gjk_toi_input *in) {
    return gjk_cast_finite(gjk_time_of_impact_run(in));
}

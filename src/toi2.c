// Time of impact of two moving 2D shapes by conservative advancement: the
// twin of toi.c.
//
// At time t the distance query gives the gap d and the unit normal n from A
// to B. The supporting lines of A and B normal to n are d apart. Over the
// rest of the step a point of A moves along n no faster than
// v_A·n + |ω_A| ρ_A (linear velocity, plus angular speed times the shape's
// extent about its origin, the centre of rotation), and a point of B no
// faster than −v_B·n + |ω_B| ρ_B toward A. So the gap along this fixed n
// cannot close faster than μ = (v_A − v_B)·n + |ω_A| ρ_A + |ω_B| ρ_B, the
// shapes cannot come within `target` before t + (d − target)/μ, and if
// μ ≤ 0 they never do. Each step lands at or before the first contact: no
// tunnelling. In 2D a sweep's angle turns at a constant rate ω, the wrapped
// difference of its end and start angles (the shorter arc), and ω is always
// normal to n, so the 3D bound ρ |n × ω| is ρ |ω| here. ρ is the core's
// extent, without the rounding radius (as in toi.c: a turn moves no
// rounding along n).
#include <string.h>

#include "internal2.h"

/// Whether the shape's core is a disc about its origin (an ellipse of
/// equal radii), which no turn about the origin changes.
static bool disc(const gjk2_shape *s) { return s->type == GJK2_SHAPE_ELLIPSE && s->ellipse.radii.x == s->ellipse.radii.y; }

/// The angle turned from r0 to r1 along the shorter arc, in (−π, π]
/// (r0, r1 non-zero, not necessarily unit).
static gjk_real sweep_turn(gjk_rot2 r0, gjk_rot2 r1) {
    // The relative rotation r0⁻¹·r1 (scaled by |r0||r1|, which atan2 ignores).
    gjk_rot2 rel = gjk_rot2_inv_mul(r0, r1);
    double pi = 3.14159265358979323846;
    double a = atan2((double)rel.s, (double)rel.c);
    if (a <= -pi) {
        a += 2 * pi; // atan2(−0, −1) = −π: the half turn is +π
    }
    return (gjk_real)a;
}

gjk_transform2 gjk2_sweep_at(const gjk2_sweep *sweep, gjk_real t) {
    if (sweep == NULL) {
        return gjk_transform2_identity();
    }
    gjk_rot2 r0 = sweep->start.rotation;
    gjk_real a0 = (gjk_real)atan2((double)r0.s, (double)r0.c);
    gjk_real angle = a0 + t * sweep_turn(r0, sweep->end.rotation);
    gjk_vec2 p0 = sweep->start.position;
    gjk_transform2 out = {gjk_mul_add2(p0, t, gjk_sub2(sweep->end.position, p0)), gjk_rot2_make(angle)};
    return out;
}

static bool sweep_valid(const gjk2_sweep *s) {
    return gjk2_transform_valid(s->start) && gjk2_transform_valid(s->end);
}

static gjk2_cast_output invalid_output(void) {
    gjk2_cast_output out;
    memset(&out, 0, sizeof out);
    out.status = GJK_INVALID_INPUT;
    return out;
}

/// How far B lies beyond A along the unit n at q's poses (toi.c's
/// support_gap in the plane).
static gjk_real support_gap2(const gjk2_query_input *q, gjk_vec2 n) {
    gjk_rot2 ra = q->transform_a.rotation, rb = q->transform_b.rotation;
    gjk_vec2 pa = gjk_rot2_apply(ra, gjk2_shape_support(q->shape_a, gjk_rot2_inv_apply(ra, n)));
    gjk_vec2 pb = gjk_rot2_apply(rb, gjk2_shape_support(q->shape_b, gjk_rot2_inv_apply(rb, gjk_neg2(n))));
    return gjk_dot2(n, gjk_sub2(gjk_add2(q->transform_b.position, pb), gjk_add2(q->transform_a.position, pa)));
}

/// What a second-order step from t needs (toi.c's step_state in the
/// plane): the poses at t, the unit normal n, the cores' heights h_A(n),
/// h_B(−n) and their support points (world offsets from the origins), the
/// gap budget, the motion (ω signed, counter-clockwise).
typedef struct step_state2 {
    const gjk2_query_input *q;
    gjk_vec2 n, pa, pb, dc, dv;
    gjk_real wa, wb, ha, hb, core_a, core_b, budget, rest;
} step_state2;

/// The height of a core along u (world, any length) at rotation r.
static gjk_real core_height2(const gjk2_shape *s, gjk_rot2 r, gjk_vec2 u) {
    gjk_vec2 ul = gjk_rot2_inv_apply(r, u);
    return gjk_dot2(gjk2_core_support(s, ul), ul);
}

/// toi.c's second_order_step in the plane: how long from t the gap along a
/// direction n(s) that starts at n and turns at the rate W (0, ω_A or ω_B)
/// stays above the target, at most `rest`; 0 where none is certified. With
/// J the quarter turn, a core point x turning at ω has height
/// f = x·n(s) with f' = δ (J x)·n, δ = ω − W, and f'' = −δ² x·n, at most
/// ρδ² in size: its height is at most x·(n + s m) + ρδ² s²/2, with
/// m_A = −δ_A J n for A, and m_B = δ_B J n for B, whose height is taken
/// along −n. The origins' offset e = n(s)·(Δc + sΔv) has
/// e' = W (J n)·Δc + n·Δv at t and |e''| ≤ W²(|Δc| + s|Δv|) + 2|W||Δv|.
/// So the gap is at least g − L(s) − C s²/2, L convex with L(0) = 0, and
/// one probe at p bounds it over [0, p] (toi.c). (In 2D two edges never
/// meet crossed: a vertex against an edge keeps the edge's shape still
/// with W = its ω.)
static gjk_real second_order_step2(const step_state2 *st, gjk_real w) {
    gjk_vec2 n = st->n, jn = gjk_perp2(n);
    gjk_real da = st->wa - w, db = st->wb - w, dv = gjk_length2(st->dv);
    gjk_vec2 ma = gjk_scale2(-da, jn), mb = gjk_scale2(db, jn);
    gjk_real c = st->core_a * da * da + st->core_b * db * db + w * w * (gjk_length2(st->dc) + st->rest * dv) +
                 2 * gjk_abs(w) * dv;
    gjk_real e1 = w * gjk_dot2(jn, st->dc) + gjk_dot2(n, st->dv);
    gjk_step_search se = {0, c, st->budget, st->rest, 0, 0};
    se.r = -e1 + gjk_dot2(st->pa, ma) + gjk_dot2(st->pb, mb); // the rate at t of these support points
    const gjk2_query_input *q = st->q;
    for (int probe = 0; probe < 3 && gjk_step_probe(&se); ++probe) {
        gjk_real rise_a = core_height2(q->shape_a, q->transform_a.rotation, gjk_mul_add2(n, se.p, ma)) - st->ha;
        gjk_vec2 ub = gjk_mul_add2(gjk_neg2(n), se.p, mb);
        gjk_real rise_b = core_height2(q->shape_b, q->transform_b.rotation, ub) - st->hb;
        if (gjk_step_take(&se, -e1 * se.p + rise_a + rise_b)) {
            break;
        }
    }
    return se.safe;
}

/// The longest of the second-order steps with n fixed, turning with A and
/// turning with B (the gap's roundings, `slack`, taken off the budget).
static gjk_real second_order_ahead2(const gjk2_query_input *q, gjk_vec2 n, gjk_real d, gjk_real target,
                                    gjk_real core_a, gjk_real core_b, gjk_vec2 va, gjk_vec2 vb, gjk_real wa,
                                    gjk_real wb, gjk_real rest, gjk_real slack) {
    if (wa == 0 && wb == 0) {
        return 0; // no turn: μ is exact already
    }
    step_state2 st;
    st.q = q;
    st.n = n;
    gjk_rot2 ra = q->transform_a.rotation, rb = q->transform_b.rotation;
    st.pa = gjk_rot2_apply(ra, gjk2_core_support(q->shape_a, gjk_rot2_inv_apply(ra, n)));
    st.pb = gjk_rot2_apply(rb, gjk2_core_support(q->shape_b, gjk_rot2_inv_apply(rb, gjk_neg2(n))));
    st.ha = gjk_dot2(st.pa, n);
    st.hb = -gjk_dot2(st.pb, n);
    st.dc = gjk_sub2(q->transform_b.position, q->transform_a.position);
    st.dv = gjk_sub2(vb, va);
    st.wa = wa;
    st.wb = wb;
    st.core_a = core_a;
    st.core_b = core_b;
    st.rest = rest;
    gjk_real gap = gjk_dot2(n, st.dc) - st.ha - st.hb - gjk2_core_radius(q->shape_a) - gjk2_core_radius(q->shape_b);
    st.budget = gjk_min(gap, d) - target - slack;
    if (!(st.budget > 0)) {
        return 0;
    }
    gjk_real ahead = second_order_step2(&st, 0);
    if (ahead < rest && wa != 0) {
        ahead = gjk_max(ahead, second_order_step2(&st, wa));
    }
    if (ahead < rest && wb != 0) {
        ahead = gjk_max(ahead, second_order_step2(&st, wb));
    }
    return ahead;
}

/// The answer at a contact found at time t (poses already in q): the
/// penetration query gives the normal and point, and tells an overlap at the
/// start (as in 3D).
static gjk2_cast_output toi_contact(const gjk2_query_input *q, const gjk2_distance_output *d, gjk_real t, int iter,
                                    gjk2_cast_output out) {
    gjk2_penetration_output pen = gjk2_penetration(q, NULL);
    if (pen.status == GJK_INVALID_INPUT) {
        return invalid_output();
    }
    // A later contact whose penetration query did not converge takes the
    // distance query's normal and point where that one knows its
    // direction; else not converged, safe up to t (see toi.c).
    bool known = gjk_length_sq2(d->normal) > 0; // unit or zero
    out.status = iter == 0                                   ? gjk2_cast_start_status(q, pen.status)
                 : pen.status != GJK_NOT_CONVERGED || known ? GJK_HIT
                                                            : GJK_NOT_CONVERGED;
    if (out.status == GJK_INVALID_INPUT) {
        return invalid_output();
    }
    out.hit = out.status != GJK_NOT_CONVERGED;
    out.t = t;
    out.point = pen.point_a;
    out.normal = pen.normal;
    if (iter > 0 && pen.status == GJK_NOT_CONVERGED) {
        out.point = known ? d->point_a : gjk_v2(0, 0);
        out.normal = known ? d->normal : gjk_v2(0, 0);
    }
    return out;
}

static gjk2_cast_output gjk2_time_of_impact_run(const gjk2_toi_input *in) {
    gjk2_cast_output out = invalid_output();
    if (in == NULL || !gjk_options_valid(&in->options) || !gjk2_shape_check(in->shape_a, true) ||
        !gjk2_shape_check(in->shape_b, true) || !sweep_valid(&in->sweep_a) || !sweep_valid(&in->sweep_b) ||
        !gjk_is_valid_real(in->target_separation) || in->target_separation < 0) {
        return out;
    }
    // The extents with rounding set the tolerance's scale; the cores' bound
    // the spin (each computed once: a custom shape's is four support calls).
    gjk_real core_a = gjk2_shape_core_bound(in->shape_a), core_b = gjk2_shape_core_bound(in->shape_b);
    gjk_real rho_a = core_a + gjk2_core_radius(in->shape_a), rho_b = core_b + gjk2_core_radius(in->shape_b);
    gjk_vec2 va = gjk_sub2(in->sweep_a.end.position, in->sweep_a.start.position);
    gjk_vec2 vb = gjk_sub2(in->sweep_b.end.position, in->sweep_b.start.position);
    gjk_real wa = sweep_turn(in->sweep_a.start.rotation, in->sweep_a.end.rotation);
    gjk_real wb = sweep_turn(in->sweep_b.start.rotation, in->sweep_b.end.rotation);
    // A disc about its centre (an ellipse of equal radii) is the same set
    // however it turns: its turn costs nothing (review: one spinning 1 rad
    // in place 1e-3 above the ground reached the cap).
    wa = disc(in->shape_a) ? 0 : wa;
    wb = disc(in->shape_b) ? 0 : wb;
    gjk_real spin = gjk_abs(wa) * core_a + gjk_abs(wb) * core_b;
    if (!gjk_is_valid_real(rho_a) || !gjk_is_valid_real(rho_b) || !gjk_is_valid_real(spin) ||
        !gjk_is_valid_vec2(gjk_sub2(va, vb))) {
        return out;
    }
    gjk_real rel_tol = gjk_options_tolerance(&in->options);
    int cap = in->options.max_iterations > 0 ? in->options.max_iterations : GJK_DEFAULT_MAX_TOI_ITERATIONS;
    gjk_real target = in->target_separation;
    gjk2_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = in->shape_a;
    q.shape_b = in->shape_b;
    q.options = in->options;
    q.options.trace = NULL;
    q.options.max_iterations = 0; // the cap is on advancement steps, not on each query
    q.options.max_distance = 0;   // the distances must be exact, not lower bounds
    gjk2_simplex_cache cache;
    memset(&cache, 0, sizeof cache);
    gjk_real t = 0;
    bool cold = false; // this step's query was asked again without the cache
    for (int iter = 0;; ++iter) {
        q.transform_a = gjk2_sweep_at(&in->sweep_a, t);
        q.transform_b = gjk2_sweep_at(&in->sweep_b, t);
        gjk2_distance_output d = gjk2_distance(&q, &cache);
        if (d.status == GJK_INVALID_INPUT) {
            return invalid_output();
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
        // up to 64 tolerances or roundings (as in 3D, toi.c, where a warm
        // walk near contact reversed it: f43); else a cold query answers,
        // and a normal that still does not separate them leaves t safe but
        // not the contact found.
        gjk_real scale = rho_a + rho_b + d.distance + gjk_max(gjk_abs(q.transform_a.position.x),
                                                               gjk_abs(q.transform_a.position.y)) +
                         gjk2_max_abs(q.transform_b.position);
        gjk_real slack = 64 * (tol + GJK_REAL_EPSILON * scale);
        if (support_gap2(&q, d.normal) < d.distance - slack) {
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
        gjk_real mu = gjk_dot2(gjk_sub2(va, vb), d.normal) + spin;
        if (!(mu > 0)) {
            out.status = GJK_MISS;
            return out;
        }
        gjk_real next = t + (d.distance - target) / mu;
        if (next <= 1) {
            // The second-order step where it is longer (toi.c): near a
            // contact or a close pass μ crawls (a square turning in place,
            // its corner coming slowly down to the ground, reached the cap).
            gjk_real rest = 1 - t;
            gjk_real ahead = second_order_ahead2(&q, d.normal, d.distance, target, core_a, core_b, va, vb, wa, wb,
                                                 rest, 16 * GJK_REAL_EPSILON * scale);
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

gjk2_cast_output gjk2_time_of_impact(const gjk2_toi_input *in) {
    return gjk2_cast_finite(gjk2_time_of_impact_run(in));
}

// EPA's ball certificate (tried by the run in epa.c): the depth of two
// overlapping ellipsoids proved by a ball inside each.
//
// EPA proves its lower bound with faces: near the answer its polytope must
// be refined until each face sags below D's boundary by less than the
// tolerance, about √(8 tol / κ) across on a surface of curvature κ, and
// where the depth varies little with the direction (deep poses, nearly
// round ellipsoids) a whole region of faces lies nearly as near: 72 EPA
// iterations on average over random deep poses of two ellipsoids (radii
// 0.2 to 1, centres within 0.87), 128 for radii 0.6 to 1, of which 4% ran
// out of their 250 iterations. The bound here needs no polytope.
//
// The lower bound. If the ball of radius r_a about c_a lies in A's core
// and that of radius r_b about c_b in B's, the cores overlap at least as
// deep as the balls: r_a + r_b − |c_a − c_b| (moving B by less than that
// leaves the balls overlapping). Both radii are the closed forms' depths
// of the centres (gjk_point_core, the ellipsoid's closed form).
//
// The upper bound, and where the balls go. D's support point w along a
// unit direction n is p_a − p_b, with p_a A's support point along n and
// p_b B's against it; w·n bounds the depth above. At the answer's normal,
// w = depth·n. The balls that make the bound tight touch the cores at p_a
// and p_b from inside: centres c_a = p_a − r_a n and c_b = p_b + r_b n.
// (A ball of radius r touching an ellipsoid from inside at p fits where r
// is below the least radius of curvature there, and the ellipsoid is not
// thinner than 2r across: on nearly round shapes, up to about their size.)
// With ρ = r_a + r_b and w = U n + t (U = w·n, t across n), the bound is
//     ρ − |w − ρ n| = ρ − √((ρ − U)² + |t|²) ≈ U − |t|² / (2 (ρ − U)),
// within the tolerance of U once t is small and the balls overlap by more
// than U. Where the balls fit (each touches its core only at its point:
// the closed form's depth is the radius) the bound is as good as the
// direction.
//
// The direction: the least of w·n over the unit directions, where w ∥ n.
// From EPA's best upper bound so far, secant steps (secant.c: the support
// map modelled as affine on the last three directions) solve w(n) = λ n,
// λ > 0; they converge superlinearly on a smooth D, 3 to 5 steps from 8 or
// 16 EPA iterations in the poses above.
//
// The radii: ρ a little above U (by 4|t|²/tol, so that t costs a quarter
// of the tolerance at most, or 1e-6 of U), split in halves at first. A
// ball that does not fit (depth below its radius) meets its core's
// boundary at the closed form's nearest point q: the ball touching the core
// at p with q on its rim has radius |p − q|² / (2 n·(p − q)), an upper
// bound on the largest that fits; that ball's radius is taken at 0.98 of it,
// and the other ball gets the rest of ρ. Two crossing needles fit no pair
// of balls (their depth is the length of the other's cross-section, not
// a thickness): the certificate then fails and EPA goes on as before.
//
// The eroded polytope, for poses deeper than two balls fit (nearly round
// ellipsoids whose centres nearly coincide: the depth is then about the
// sum of their least radii). An ellipsoid of radii a ≥ b ≥ c is the sum of
// a smaller convex body and the ball of its least radius of curvature,
// c²/a, so D is D' plus the ball of ρ, the sum of the two, and EPA's
// vertices moved in by ρ along their directions are points of D', which
// is less curved: its faces sag below it by a part (R − ρ)/R of what they
// sag below D (eroded_lower). Tried alone from 128 EPA iterations, with
// the balls at the end. Random deep poses of radii 0.6 to 1, centres
// within 0.87 (1000, callgrind): the balls alone took EPA's iterations
// from 129.4 to 32.6 on average and the instructions from 362M to 119M,
// not converged 39 → 26; with this bound 19, +3.5% instructions. Radii
// 0.2 to 1: 73.0 → 36.3 iterations, 172M → 100M instructions (+1% of it
// for this bound), not converged 1 → 0.
//
// Both work in the polytope's units (its points times 2^−shift), which
// keeps their squares in range at any size.
//
// The answer is the upper bound: its depth U, its normal n and its
// support points (on the cores), which differ by depth·n + t, |t| within
// the tolerance; converged, as the lower bound holds it within the
// tolerance.
#include "epa_hull.h"

/// Secant steps of the direction's refinement.
#define GJK_BALL_STEPS 8

/// The tilt of the two directions beside EPA's best normal that start the
/// secant ring, in radians (from 1e-4 to 1e-1 the steps needed were the same).
#define GJK_BALL_TILT GJK_R(1e-2)

/// The gap between EPA's upper bound and the eroded polytope's lower bound
/// (eroded_lower), in tolerances, above which a try without the balls
/// stops before it refines the direction.
#define GJK_BALL_ERODED_GAP 64

/// Rounds of the split of ρ between the balls.
#define GJK_BALL_FITS 8

/// The refinement's best probe: the one whose support point w lies nearest
/// its own unit direction n (least |t|; near the answer the overlaps w·n
/// differ by less than their rounding, and the least of them may be any),
/// with its overlap and point.
typedef struct ball_upper {
    gjk_real overlap;
    gjk_real across; ///< |t|²: w's part across n, squared
    gjk_vec3 n;
    gjk_support_point w;
} ball_upper;

/// Asks D's support along the unit direction u, adds it to the ring (as −w:
/// the secant solve finds w(u) = −λ u, and the depth's direction has
/// w(u) = λ u) and keeps it when it is the best (ball_upper). False on a
/// support point that is not finite (pair->bad_support set). w in the
/// polytope's units (w·2^−shift).
static bool ball_probe(gjk_pair *pair, const gjk_epa_polytope *P, gjk_vec3 u, gjk_secant_ring *ring,
                       ball_upper *best) {
    gjk_support_point w = gjk_pair_support(pair, u);
    if (pair->bad_support) {
        return false;
    }
    w.w = gjk_scale(P->down, w.w);
    gjk_secant_push(ring, u, gjk_neg(w.w));
    gjk_real overlap = gjk_dot(w.w, u);
    gjk_real across = gjk_length_sq(gjk_sub(w.w, gjk_scale(overlap, u)));
    if (across < best->across) {
        best->overlap = overlap;
        best->across = across;
        best->n = u;
        best->w = w;
    }
    return true;
}

/// The ball of radius r touching one core from inside at its point p, whose
/// outward normal there is `out`: its centre *c = p − r·out and the closed
/// form's depth *d of it (the radius of the ball about *c inside the core;
/// r where the ball fits). Returns the radius of the ball to try next: r
/// where it fits, else 0.98 of the largest that could (through the closed
/// form's nearest point q); 0 when the centre lies outside the core. The
/// points are A's frame's, the lengths r, slack, *d and the answer the
/// polytope's units (times `down`, 2^−shift).
static gjk_real ball_fit(const gjk_pair *pair, bool b_side, gjk_vec3 p, gjk_vec3 out, gjk_real r, gjk_real slack,
                         gjk_real down, gjk_vec3 *c, gjk_real *d) {
    gjk_vec3 q, u;
    *c = gjk_sub(p, gjk_scale(r / down, out));
    if (!gjk_pair_point_inside(pair, b_side, *c, d, &q, &u)) {
        *d = 0;
        return 0;
    }
    *d *= down;
    if (*d >= r - slack) {
        return r; // (fits, to the closed form's rounding)
    }
    gjk_vec3 pq = gjk_scale(down, gjk_sub(p, q));
    gjk_real along = 2 * gjk_dot(out, pq);
    return along > 0 ? GJK_R(0.98) * gjk_length_sq(pq) / along : 0;
}

/// The least principal radius of curvature of an ellipsoid core, c²/a (a
/// the largest radius, c the least: at the ends of the longest axis), a
/// little less for rounding. By Blaschke's rolling theorem the ball of that
/// radius touching the core from inside at any boundary point lies inside.
static gjk_real rolling_radius(const gjk_shape *s) {
    gjk_vec3 r = s->ellipsoid.radii;
    gjk_real lo = gjk_min(r.x, gjk_min(r.y, r.z)), hi = gjk_max(r.x, gjk_max(r.y, r.z));
    return lo * (lo / hi) * (1 - 1024 * GJK_REAL_EPSILON);
}

/// A lower bound on the depth from EPA's polytope with each vertex moved
/// inward by the cores' rolling radii (ρ = ρ_a + ρ_b): the ball of radius ρ_a
/// touching A's core from inside at its support point p along a unit u
/// lies in it, and so p − ρ_a u lies in A's core eroded by ρ_a (A'), whose
/// sum with that ball is A's core; likewise B. D is then D' plus the ball of
/// radius ρ, D' = A' − B', and each vertex w (D's support point along u)
/// moved to w − ρ u is a point of D'. Where every face of the moved
/// polytope still has the origin behind it (each face's plane distance
/// positive), it encloses the origin (seen from the origin every face
/// turns the same way, so their projections cover the sphere), and the
/// ball of its least plane distance about the origin lies in D': the depth
/// is at least ρ plus that distance. A face of the moved polytope sags
/// below D' by about (R − ρ)/R of what it sags below D (R: D's radius of
/// curvature there), and on nearly round ellipsoids that is a small part.
/// −GJK_REAL_MAX where a vertex has no direction or a face has the origin
/// ahead of it; the scan stops at a face whose bound is below `floor`
/// (returning that bound).
static gjk_real eroded_lower(const gjk_pair *pair, const gjk_epa_polytope *P, gjk_real floor) {
    // In units of the points' size (2^e, exactly): a face's plane distance
    // is cubic in the coordinates over a quadratic, and their squares would
    // leave the range at sizes the polytope keeps unscaled (1e55: every
    // face's square overflowed, and the bound with them).
    int e;
    (void)gjk_frexp(P->down * pair->scale, &e);
    gjk_real unit = gjk_ldexp(1, -e);
    gjk_real rho = (rolling_radius(pair->a) + rolling_radius(pair->b)) * P->down;
    gjk_vec3 c[GJK_EPA_MAX_VERTICES];
    for (int m = 0; m < P->vertex_count; ++m) {
        const gjk_support_point *v = &P->vert[m];
        gjk_vec3 u = gjk_normalize(v->d);
        if (!v->bounds || !gjk_is_valid_vec3(u)) {
            return -GJK_REAL_MAX;
        }
        c[m] = gjk_scale(unit, gjk_sub(v->w, gjk_scale(rho, u)));
    }
    // The least of dist²/|m|² (dist > 0), and the floor's square below ρ.
    gjk_real least = GJK_REAL_MAX, stop = (floor - rho) * unit;
    stop = stop > 0 ? stop * stop : 0;
    for (int f = 0; f < P->face_count; ++f) {
        if (!gjk_epa_face_alive(P, f)) {
            continue;
        }
        const gjk_epa_face *F = &P->face[f];
        gjk_vec3 c0 = c[F->v[0]];
        gjk_vec3 m = gjk_cross(gjk_sub(c[F->v[1]], c0), gjk_sub(c[F->v[2]], c0));
        gjk_real len2 = gjk_length_sq(m), dist = gjk_dot(m, c0);
        if (!(dist > 0) || !(len2 > 0)) {
            return -GJK_REAL_MAX;
        }
        least = gjk_min(least, dist * dist / len2);
        if (least < stop) {
            break;
        }
    }
    return least < GJK_REAL_MAX ? rho + gjk_sqrt(least) / unit : -GJK_REAL_MAX;
}

bool gjk_epa_ball_certificate(gjk_pair *pair, const gjk_epa_polytope *P, const gjk_epa_upper *upper, gjk_real tol,
                              bool balls, bool eroded_too, gjk_epa_result *out) {
    // The eroded polytope's bound: without the balls, the direction is
    // refined only where it comes near EPA's upper bound.
    gjk_real eroded = -GJK_REAL_MAX;
    if (eroded_too) {
        gjk_real floor = upper->overlap - GJK_BALL_ERODED_GAP * tol;
        eroded = eroded_lower(pair, P, floor);
        if (!balls && !(eroded >= floor)) {
            return false;
        }
    }
    gjk_secant_ring ring;
    ring.count = 0;
    ball_upper best;
    gjk_vec3 n0 = upper->n;
    best.overlap = upper->overlap;
    best.across = gjk_length_sq(gjk_sub(upper->w.w, gjk_scale(best.overlap, n0)));
    best.n = n0;
    best.w = upper->w;
    gjk_secant_push(&ring, n0, gjk_neg(upper->w.w));
    gjk_vec3 e1 = gjk_epa_perpendicular(n0), e2 = gjk_cross(n0, e1);
    if (!ball_probe(pair, P, gjk_normalize(gjk_mul_add(n0, GJK_BALL_TILT, e1)), &ring, &best) ||
        !ball_probe(pair, P, gjk_normalize(gjk_mul_add(n0, GJK_BALL_TILT, e2)), &ring, &best)) {
        return false;
    }
    // Until w lies along n within a quarter of the tolerance (the secant
    // steps converge superlinearly: the last step is the one that matters).
    for (int k = 0; k < GJK_BALL_STEPS && best.overlap > 0 && best.across > tol * tol / 16; ++k) {
        gjk_vec3 u;
        if (!gjk_secant_direction(&ring, best.overlap, &u)) {
            break; // converged to rounding (the ring's points coincide), or a flat D
        }
        u = gjk_normalize(u);
        if (!gjk_is_valid_vec3(u) || !ball_probe(pair, P, u, &ring, &best)) {
            return false;
        }
    }
    gjk_real U = best.overlap;
    gjk_vec3 n = best.n, t = gjk_sub(best.w.w, gjk_scale(U, n));
    gjk_real t2 = gjk_length_sq(t);
    if (!(U > 0) || !(t2 <= tol * tol)) {
        return false;
    }
    gjk_real rho = U + gjk_max(4 * t2 / tol, GJK_R(1e-6) * U);
    gjk_real ra = rho / 2, rb = rho - ra, da = 0, db = 0;
    gjk_vec3 ca = gjk_v3_zero(), cb = gjk_v3_zero();
    for (int round = 0; balls && round < GJK_BALL_FITS; ++round) {
        gjk_real fa = ball_fit(pair, false, best.w.a, n, ra, tol / 16, P->down, &ca, &da);
        gjk_real fb = ball_fit(pair, true, best.w.b, gjk_neg(n), rb, tol / 16, P->down, &cb, &db);
        if ((fa == ra && fb == rb) || (fa < ra && fb < rb)) {
            break; // both fit, or neither: no split helps
        }
        if (fa < ra) {
            ra = fa, rb = rho - fa;
        } else {
            rb = fb, ra = rho - fb;
        }
    }
    gjk_real lower = gjk_max(da + db - gjk_length(gjk_scale(P->down, gjk_sub(ca, cb))), eroded);
    if (!(lower > 0) || !(U - lower <= tol)) {
        return false;
    }
    out->converged = true;
    out->depth = U;
    out->normal = n;
    out->point_a = best.w.a;
    out->point_b = best.w.b;
    return true;
}

// EPA's halo steps (curved D), taken by the run in epa.c.
//
// On a curved D, EPA converges only linearly: each support point along the
// nearest face's normal lands beside the closest point x* of D's boundary,
// not on it, and the faces around x* shrink by a fixed factor an
// iteration, and so does their sag below the surface (the gap between the
// face's distance and the support bound; 0.58 an iteration on a traced
// pose): two ellipsoids 1e-3 deep took 28 iterations on average to the
// default tolerance. A halo step puts three support points around x*
// instead, close enough that the triangle they make sags below the surface
// by less than the tolerance: the next nearest face is then that triangle,
// and the next support point closes the gap. Two ellipsoids (radii 1, 0.6,
// 0.4 and 0.8, 0.5, 0.3) in 60 random poses: 20.5 → 7.9 iterations 1e-5
// deep, 28.2 → 15.5 at 1e-3, 32.7 → 21.9 at 1e-2, 34.7 → 31.0 at 3e-2, the
// answers as close to a reference at 1e-13 as before (within 1.5
// tolerances); an ellipsoid against a cylinder 21.4 → 15.4 at 1e-3
// (docs/design.md, "Halo steps").
//
// Where x* lies: each vertex w_i of the nearest face is D's support point
// along its unit direction u_i, and to first order the support point moves
// linearly with the direction (x(u) ≈ x(u_0) + R (u − u_0), R the radii of
// curvature of D). On the face's affine patch, W(λ) = Σ λ_i w_i and
// U(λ) = Σ λ_i u_i (Σ λ_i = 1), the closest point satisfies W ∥ U (the
// support point lies along its own direction from the origin, at the
// depth): W × U = 0, solved by Gauss–Newton from the barycentric
// coordinates of the origin's foot on the face. (The foot itself puts W
// along the face's normal, not along U: off by about depth/R times the
// face's tilt; 1e-2-deep ellipsoids took 27.1 iterations from the foot,
// 21.9 from the solve. A sphere's patch gives x* exactly.) n = U(λ)/|U(λ)|.
// How close: a triangle of size s sags by about κ s²/8. The face's own sag
// is its gap g, at a size α (the spread of its directions u_i, in
// radians, times R), so a halo of angular radius
//     δ = α √(tol / (4 g))
// sags by about tol/4. Its three directions are n tilted by δ toward three
// directions 120° apart; their support points are added to the polytope
// like any other (the face that sees each most is removed first), each
// counting as an iteration; one that no face sees beyond the tolerance is
// dropped. A halo whose triangle misses the foot (n farther off than δ)
// only adds three true points of D near x*: the iterations go on.
//
// When: once per run, when the gap has fallen below 0.3 √(tol · size)
// (about 3e-6 of the size at the default tolerance, where the faces are
// small enough for the patch's model) but not below 64 tol (within a few
// tolerances of touching EPA ends in 3 to 5 iterations, and the halo's
// three calls cost more: a review, 4.6 → 5.5 iterations 1e-9 deep), while
// the nearest face lies within 1/64 of the size (the pair's scale: the
// largest coordinate of D's points seen): at depths of 0.1 to 0.5 of the
// size many faces far from x* lie nearly as near (the depth varies little
// with the direction there), all of which EPA must refine, and the halo
// cost 2 to 11 iterations more (the ellipsoid pairs above, 60 poses each).
// Only where a core is an ellipsoid, and every ellipsoid core is round
// within a factor 32 of its radii: between cones, cylinders, boxes and
// hulls, whose D is flat or ruled in places, it saved little or cost (a
// cone and a box 1e-3 deep: 7.5 iterations before, 9.2 with it), and on an
// ellipsoid of radii 1, 1, 1e-3, or 1, 1e-3, 1e-3, one angular radius does
// not fit both curvatures (the review: 13.5 → 16.1 iterations against a
// box 1e-7 deep; a cigar of 1, 0.05, 0.05 gains, 27.1 → 16.9 at 1e-3).
#include "epa_hull.h"

/// The direction n of the closest point on the affine patch of face F
/// (above) and the angular spread *alpha of F's directions;
/// false where the patch gives none (a vertex that is no bound, a singular
/// step, or a solution far outside the face).
static bool halo_centre(const gjk_epa_polytope *P, const gjk_epa_face *F, gjk_vec3 *n, gjk_real *alpha) {
    const gjk_support_point *p[3] = {&P->vert[F->v[0]], &P->vert[F->v[1]], &P->vert[F->v[2]]};
    if (!p[0]->bounds || !p[1]->bounds || !p[2]->bounds || !(gjk_length_sq(p[0]->d) > 0) ||
        !(gjk_length_sq(p[1]->d) > 0) || !(gjk_length_sq(p[2]->d) > 0)) {
        return false;
    }
    gjk_vec3 x = gjk_scale(F->dist, F->n);
    gjk_real lam[3];
    (void)gjk_triangle_closest(gjk_sub(p[0]->w, x), gjk_sub(p[1]->w, x), gjk_sub(p[2]->w, x), lam);
    gjk_vec3 u0 = gjk_normalize(p[0]->d), u1 = gjk_normalize(p[1]->d), u2 = gjk_normalize(p[2]->d);
    gjk_vec3 dw1 = gjk_sub(p[1]->w, p[0]->w), dw2 = gjk_sub(p[2]->w, p[0]->w);
    gjk_vec3 du1 = gjk_sub(u1, u0), du2 = gjk_sub(u2, u0);
    gjk_real l1 = lam[1], l2 = lam[2];
    for (int it = 0; it < 3; ++it) {
        // r = W × U and its derivatives along λ1 and λ2; the step solves
        // the normal equations of J δ = −r (r has rank 2: r ⊥ U).
        gjk_vec3 W = gjk_add(p[0]->w, gjk_add(gjk_scale(l1, dw1), gjk_scale(l2, dw2)));
        gjk_vec3 U = gjk_add(u0, gjk_add(gjk_scale(l1, du1), gjk_scale(l2, du2)));
        gjk_vec3 r = gjk_cross(W, U);
        gjk_vec3 j1 = gjk_add(gjk_cross(dw1, U), gjk_cross(W, du1));
        gjk_vec3 j2 = gjk_add(gjk_cross(dw2, U), gjk_cross(W, du2));
        gjk_real a11 = gjk_dot(j1, j1), a12 = gjk_dot(j1, j2), a22 = gjk_dot(j2, j2);
        gjk_real b1 = -gjk_dot(j1, r), b2 = -gjk_dot(j2, r);
        gjk_real det = a11 * a22 - a12 * a12;
        if (!(det > 0)) {
            return false;
        }
        l1 += (b1 * a22 - b2 * a12) / det;
        l2 += (a11 * b2 - a12 * b1) / det;
    }
    gjk_real l0 = 1 - l1 - l2;
    gjk_vec3 U = gjk_add(gjk_scale(l0, u0), gjk_add(gjk_scale(l1, u1), gjk_scale(l2, u2)));
    // U = 0 solves W × U = 0 too (opposite directions: a review's direct
    // calls on such faces got n = 0): a mean of unit directions that spread
    // little has a length near 1.
    if (!(l0 > -1 && l1 > -1 && l2 > -1) || !(gjk_length_sq(U) > GJK_R(0.25))) {
        return false; // (NaN included)
    }
    *n = gjk_normalize(U);
    *alpha = gjk_max(gjk_max(gjk_length(gjk_sub(u0, *n)), gjk_length(gjk_sub(u1, *n))), gjk_length(gjk_sub(u2, *n)));
    return gjk_is_valid_vec3(*n) && *alpha > 0;
}

/// A halo step around the nearest face F (a copy: EPA's step may have
/// recycled its slot) whose support bound was `gap` above it: at most
/// `budget` support calls; returns how many it made.
static int halo_step(gjk_pair *pair, gjk_epa_polytope *P, const gjk_epa_face *F, gjk_real gap, gjk_real tol,
                     int budget, gjk_epa_step *S, gjk_epa_upper *upper, int iteration) {
    gjk_vec3 n;
    gjk_real alpha;
    if (!halo_centre(P, F, &n, &alpha)) {
        return 0;
    }
    gjk_real delta = gjk_min(alpha * gjk_sqrt(tol / (4 * gap)), alpha / 2);
    gjk_vec3 e1 = gjk_epa_perpendicular(n), e2 = gjk_cross(n, e1);
    static const gjk_real c3[3] = {1, -0.5, -0.5};
    static const gjk_real s3[3] = {0, GJK_R(0.86602540378443865), GJK_R(-0.86602540378443865)}; // √3/2
    int used = 0;
    for (int k = 0; k < 3 && used < budget && P->vertex_count < GJK_EPA_MAX_VERTICES; ++k) {
        gjk_vec3 d = gjk_normalize(gjk_add(n, gjk_scale(delta, gjk_add(gjk_scale(c3[k], e1), gjk_scale(s3[k], e2)))));
        gjk_support_point w = gjk_pair_support(pair, d);
        w.w = gjk_scale(P->down, w.w);
        ++used;
        if (pair->bad_support) {
            return used;
        }
        gjk_epa_upper_take(upper, gjk_dot(w.w, d), d, &w);
        if (pair->trace != NULL) {
            gjk_epa_trace(pair, P, F->n, F->dist, d, iteration + used, w.w);
        }
        (void)gjk_epa_add_point(P, w, gjk_epa_tolerance(pair, P), S);
    }
    return used;
}

/// Commits EPA's step adding vertex wi (planned from the nearest face
/// `best`), then takes the halo step around that face; returns the halo's
/// support calls. Out of line (in this file): the loop of every other pair
/// stays as it was (inline, it cost 44 instructions a query on hull
/// penetration).
int gjk_epa_halo_commit(gjk_pair *pair, gjk_epa_polytope *P, int best, int wi, gjk_real gap, gjk_real tol, int budget,
                        gjk_epa_step *S, gjk_epa_upper *upper, int iteration) {
    gjk_epa_face near = P->face[best]; // (the step recycles its slot)
    gjk_epa_commit_step(P, wi, S);
    return halo_step(pair, P, &near, gap, tol, budget, S, upper, iteration);
}

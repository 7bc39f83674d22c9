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
// The inner ellipsoid, for poses deeper than two balls fit (nearly round
// ellipsoids whose centres nearly coincide: the depth is then about the
// sum of their least radii, and the balls touching at the witness points
// are too small). D is the set of m_a y_a − m_b y_b + c over unit balls of
// y_a, y_b (m_a, m_b the ellipsoids' axes scaled by their radii, c the
// centres' offset); keeping only y_b = −R y_a, for a rotation R, leaves the
// ellipsoid E = (m_a + m_b R)·ball + c, inside D. Its support along n is
// |(m_a + m_b R)ᵀ n| ≤ |m_aᵀ n| + |m_bᵀ n|, D's, with equality where R maps
// m_aᵀn's direction to m_bᵀn's: E then touches D along n, and one angle θ
// (R's turn about that direction) is left. The depth of the origin in E,
// from its axes (the eigenvectors of M Mᵀ, Jacobi) and the ellipsoid's
// closed form, bounds D's below; over θ (a scan of 16 angles, then golden
// sections) it reached the depth to rounding in every nearly concentric
// pose tried and in 14 of 16 random deep ones (a prototype in long double).
// (The inner approximations of a sum of ellipsoids by ellipsoids:
// Kurzhanski and Vályi, "Ellipsoidal Calculus for Estimation and Control",
// 1997.) It costs about 46 closed forms; tried only where the balls fail.
// Like the polytope's points, it works in units of the pair's size, where
// M Mᵀ's squares stay in range (at 2^±300, which EPA does not scale, they
// overflowed and underflowed, and the bound with them).
//
// The answer is the upper bound: its depth U, its normal n and its
// support points (on the cores), which differ by depth·n + t, |t| within
// the tolerance; converged, as the lower bound holds it within the
// tolerance.
#include "epa_hull.h"
#include "secant.h"

#include <float.h>

/// Secant steps of the direction's refinement.
#define GJK_BALL_STEPS 8

/// The tilt of the two directions beside EPA's best normal that start the
/// secant ring, in radians (from 1e-4 to 1e-1 the steps needed were the same).
#define GJK_BALL_TILT GJK_R(1e-2)

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
/// form's nearest point q); 0 when the centre lies outside the core (*d
/// then −GJK_REAL_MAX, failing the bound). The
/// points are A's frame's, the lengths r, slack, *d and the answer the
/// polytope's units (times `down`, 2^−shift).
static gjk_real ball_fit(const gjk_pair *pair, bool b_side, gjk_vec3 p, gjk_vec3 out, gjk_real r, gjk_real slack,
                         gjk_real down, gjk_vec3 *c, gjk_real *d) {
    gjk_vec3 q, u;
    *c = gjk_sub(p, gjk_scale(r / down, out));
    if (!gjk_pair_point_inside(pair, b_side, *c, d, &q, &u)) {
        // Outside the core: no ball about *c (a review: as a ball of radius
        // 0 the centre had counted as a point of the core, up to 3e12
        // tolerances above the depth, though never within the tolerance of
        // the upper bound).
        *d = -GJK_REAL_MAX;
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

/// The eigenvalues (ascending not promised) and unit eigenvectors (the
/// columns of v) of the symmetric 3×3 matrix a, by cyclic Jacobi
/// rotations (Golub and Van Loan, "Matrix Computations", §8.5); a is
/// overwritten, its diagonal the eigenvalues and its off-diagonal what is
/// left of it (the eigenvalues lie within its norm of the diagonal). In
/// double in either build (see inner_depth).
static void jacobi3(double a[3][3], double v[3][3]) {
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            v[i][j] = i == j ? 1 : 0;
        }
    }
    for (int sweep = 0; sweep < 16; ++sweep) {
        double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if (!(off > DBL_EPSILON * DBL_EPSILON * diag)) {
            return;
        }
        for (int p = 0; p < 2; ++p) {
            for (int q = p + 1; q < 3; ++q) {
                if (a[p][q] == 0) {
                    continue;
                }
                double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; ++k) { // columns p, q of a·J
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) { // rows p, q of Jᵀ·(a·J)
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; ++k) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
        }
    }
}

/// The two ellipsoid cores as D's parts, in the polytope's units: D is the
/// set of m_a·y_a − m_b·y_b + c over |y_a|, |y_b| ≤ 1 (A's frame: m_a
/// = diag(radii of A), m_b = rot_b·diag(radii of B), c = −pos_b), and the
/// frames about n that inner_depth turns.
typedef struct inner_pair {
    gjk_real ma[3][3], mb[3][3];
    gjk_vec3 c;
    gjk_vec3 u, a1, a2; ///< m_aᵀn and a frame about it (unit)
    gjk_vec3 w, b1, b2; ///< m_bᵀn and a frame about it (unit)
} inner_pair;

/// The depth of the origin in the ellipsoid E(θ) = {(m_a + m_b R)·y + c :
/// |y| ≤ 1}, R the rotation taking u to w turned by θ about u: E lies in
/// D (it is the part of D with y_b = −R y_a), and touches D along n, where
/// m_aᵀn and R ᵀm_bᵀn point the same way, so that its support there is
/// D's. Its principal axes are the eigenvectors of M Mᵀ and its radii the
/// roots of the eigenvalues; the ellipsoid's closed form gives the depth.
/// −GJK_REAL_MAX where the origin lies outside, E is flat, or the closed
/// form fails.
static gjk_real inner_depth(const inner_pair *ip, gjk_real theta) {
    double ct = cos((double)theta), st = sin((double)theta);
    // R = w uᵀ + f1 a1ᵀ + f2 a2ᵀ, f1 and f2 the frame about w turned by θ.
    const double w[3] = {ip->w.x, ip->w.y, ip->w.z}, u[3] = {ip->u.x, ip->u.y, ip->u.z};
    const double h1[3] = {ip->a1.x, ip->a1.y, ip->a1.z}, h2[3] = {ip->a2.x, ip->a2.y, ip->a2.z};
    const double b1[3] = {ip->b1.x, ip->b1.y, ip->b1.z}, b2[3] = {ip->b2.x, ip->b2.y, ip->b2.z};
    double g1[3], g2[3], m[3][3], s[3][3], v[3][3];
    for (int k = 0; k < 3; ++k) {
        g1[k] = ct * b1[k] + st * b2[k];
        g2[k] = ct * b2[k] - st * b1[k];
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double r = 0; // (m_b R)[i][j]
            for (int k = 0; k < 3; ++k) {
                r += (double)ip->mb[i][k] * (w[k] * u[j] + g1[k] * h1[j] + g2[k] * h2[j]);
            }
            m[i][j] = (double)ip->ma[i][j] + r;
        }
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            s[i][j] = m[i][0] * m[j][0] + m[i][1] * m[j][1] + m[i][2] * m[j][2];
        }
    }
    jacobi3(s, v);
    // A bound from an ellipsoid a little inside E, not one a little outside
    // (a review: from the eigenvalues as they came, E's least radius came
    // out up to 5e-5 of the size too large in float, 3.1e-9 in double on
    // discs 1e-6 thick). M Mᵀ is V (Λ + F) Vᵀ, F what Jacobi left off the
    // diagonal, so V (Λ − δ) Vᵀ lies below it for δ ≥ |F|: the ellipsoid of
    // those eigenvalues is inside E. δ adds the rounding of M Mᵀ and of the
    // rotations, and the radii are taken a little down into gjk_real.
    double trace = s[0][0] + s[1][1] + s[2][2];
    double delta = sqrt(s[0][1] * s[0][1] + s[0][2] * s[0][2] + s[1][2] * s[1][2]) + 64 * DBL_EPSILON * trace;
    double radius[3], big = 0;
    for (int i = 0; i < 3; ++i) {
        double lam = s[i][i] - delta;
        if (!(lam > 0)) {
            return -GJK_REAL_MAX; // flat
        }
        radius[i] = sqrt(lam) * (1 - 4 * (double)GJK_REAL_EPSILON);
        big = radius[i] > big ? radius[i] : big;
    }
    const double c[3] = {ip->c.x, ip->c.y, ip->c.z};
    double p[3];
    for (int i = 0; i < 3; ++i) {
        p[i] = -(v[0][i] * c[0] + v[1][i] * c[1] + v[2][i] * c[2]);
    }
    gjk_shape e = gjk_make_ellipsoid(gjk_v3((gjk_real)radius[0], (gjk_real)radius[1], (gjk_real)radius[2]));
    gjk_vec3 pr = gjk_v3((gjk_real)p[0], (gjk_real)p[1], (gjk_real)p[2]);
    gjk_point_answer ans;
    if (!gjk_point_core_at(&e, pr, &ans) || !(ans.sd < 0)) {
        return -GJK_REAL_MAX;
    }
    // Less the point's rounding into gjk_real and the closed form's own.
    return -ans.sd - 2 * GJK_REAL_EPSILON * (gjk_length(pr) + (gjk_real)big);
}

/// Angles of inner_lower's first scan over the turn, and golden-section
/// steps about the best of them.
#define GJK_BALL_INNER_SCAN 16
#define GJK_BALL_INNER_STEPS 28

/// A lower bound on the depth from the largest ellipsoid E(θ) inside D that
/// touches it along the unit n (inner_depth), over the turn θ: a scan of
/// GJK_BALL_INNER_SCAN angles, then golden sections about the best. At the
/// answer's normal the best E contains the ball of the depth about the
/// origin in the poses tried (nearly concentric ellipsoids: 12 of 12, deep
/// random ones 14 of 16), where no two balls fit.
static gjk_real inner_lower(const gjk_pair *pair, const gjk_epa_polytope *P, gjk_vec3 n) {
    // In units of the points' size (2^e, exactly): M Mᵀ and Jacobi's
    // squares of it are quartic in the lengths (at 2^±300, which EPA does
    // not scale, they overflowed and underflowed, and the bound with them).
    int e;
    (void)gjk_frexp(P->down * pair->scale, &e);
    gjk_real unit = gjk_ldexp(1, -e), down = P->down * unit;
    inner_pair ip;
    gjk_vec3 ra = gjk_scale(down, pair->a->ellipsoid.radii), rb = gjk_scale(down, pair->b->ellipsoid.radii);
    const gjk_real ra3[3] = {ra.x, ra.y, ra.z}, rb3[3] = {rb.x, rb.y, rb.z};
    const gjk_vec3 rot[3] = {pair->rot_b.cx, pair->rot_b.cy, pair->rot_b.cz};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            gjk_real rij = i == 0 ? rot[j].x : i == 1 ? rot[j].y : rot[j].z; // rot_b[i][j]
            ip.ma[i][j] = i == j ? ra3[i] : 0;
            ip.mb[i][j] = rij * rb3[j];
        }
    }
    ip.c = gjk_scale(-down, pair->pos_b);
    ip.u = gjk_normalize(gjk_v3(ra.x * n.x, ra.y * n.y, ra.z * n.z));
    ip.w = gjk_normalize(gjk_v3(ip.mb[0][0] * n.x + ip.mb[1][0] * n.y + ip.mb[2][0] * n.z,
                                ip.mb[0][1] * n.x + ip.mb[1][1] * n.y + ip.mb[2][1] * n.z,
                                ip.mb[0][2] * n.x + ip.mb[1][2] * n.y + ip.mb[2][2] * n.z));
    if (!gjk_is_valid_vec3(ip.u) || !gjk_is_valid_vec3(ip.w)) {
        return -GJK_REAL_MAX;
    }
    gjk_orthonormal_basis(ip.u, &ip.a1, &ip.a2);
    gjk_orthonormal_basis(ip.w, &ip.b1, &ip.b2);
    const gjk_real two_pi = GJK_R(6.283185307179586476925);
    gjk_real best = -GJK_REAL_MAX, at = 0;
    for (int k = 0; k < GJK_BALL_INNER_SCAN; ++k) {
        gjk_real th = two_pi * (gjk_real)k / GJK_BALL_INNER_SCAN, d = inner_depth(&ip, th);
        if (d > best) {
            best = d, at = th;
        }
    }
    if (!(best > -GJK_REAL_MAX)) {
        return -GJK_REAL_MAX;
    }
    const gjk_real g = GJK_R(0.61803398874989484820);
    gjk_real lo = at - two_pi / GJK_BALL_INNER_SCAN, hi = at + two_pi / GJK_BALL_INNER_SCAN;
    gjk_real x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    gjk_real f1 = inner_depth(&ip, x1), f2 = inner_depth(&ip, x2);
    for (int k = 0; k < GJK_BALL_INNER_STEPS; ++k) {
        if (f1 < f2) {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = inner_depth(&ip, x2);
        } else {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = inner_depth(&ip, x1);
        }
    }
    return gjk_max(best, gjk_max(f1, f2)) / unit;
}

bool gjk_epa_ball_certificate(gjk_pair *pair, const gjk_epa_polytope *P, const gjk_epa_upper *upper, gjk_real tol,
                              gjk_epa_result *out) {
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
    for (int round = 0; round < GJK_BALL_FITS; ++round) {
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
    gjk_real lower = da + db - gjk_length(gjk_scale(P->down, gjk_sub(ca, cb)));
    if (!(U - lower <= tol)) {
        lower = gjk_max(lower, inner_lower(pair, P, n)); // deeper than two balls fit
    }
    // A lower bound beyond the upper by more than their rounding proves
    // that one of them is not what it claims: no answer from either.
    if (!(lower > 0) || !(U - lower <= tol) || !(lower - U <= 64 * GJK_REAL_EPSILON * P->down * pair->scale)) {
        return false;
    }
    out->converged = true;
    out->depth = U;
    out->normal = n;
    out->point_a = best.w.a;
    out->point_b = best.w.b;
    return true;
}

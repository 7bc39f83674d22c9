// The secant step of the GJK walks and casts (gjk.c, "Secant steps"): the
// direction whose support point D's support map, modelled as affine on the
// directions of the last three support calls, puts along it.
//
// With e_i = u_i − u0 and m_i = w_i − w0, the model is
//     s_D(u0 + a e1 + b e2) ≈ w0 + a m1 + b m2
// (s_D is 0-homogeneous: the point depends on the direction, not its
// length, so the unnormalised u0 + a e1 + b e2 serves). The closest point of
// D is its own support point against its direction: s_D(u) = −λ u, λ > 0
// the distance. So
//     a (m1 + λ e1) + b (m2 + λ e2) + λ u0 = −w0,
// three equations, bilinear in λ and (a, b); with λ in the e terms fixed at
// an estimate they are linear, and Cramer's rule solves them. The second
// solve puts the first one's λ in. The points are divided by the estimate
// (|v|) first, so that the system is of the order of one at any scale.
#include "secant.h"

bool gjk_secant_direction(const gjk_secant_ring *h, gjk_real lam, gjk_vec3 *u) {
    // A point repeated for another direction: the support map is flat there
    // (a vertex, an edge along the turn), and no affine model fits it.
    if (gjk_same_point(h->w[0], h->w[1]) || gjk_same_point(h->w[0], h->w[2]) || gjk_same_point(h->w[1], h->w[2])) {
        return false;
    }
    gjk_real inv = 1 / lam;
    gjk_vec3 u0 = h->u[0], e1 = gjk_sub(h->u[1], u0), e2 = gjk_sub(h->u[2], u0);
    gjk_vec3 r = gjk_scale(-inv, h->w[0]); // −w0
    gjk_vec3 m1 = gjk_scale(inv, gjk_sub(h->w[1], h->w[0])), m2 = gjk_scale(inv, gjk_sub(h->w[2], h->w[0]));
    gjk_real l = 1, a = 0, b = 0;
    for (int rep = 0; rep < 2; ++rep) {
        gjk_vec3 c1 = gjk_mul_add(m1, l, e1), c2 = gjk_mul_add(m2, l, e2);
        gjk_vec3 x23 = gjk_cross(c2, u0);
        gjk_real det = gjk_dot(c1, x23);
        gjk_real size = gjk_length(c1) * gjk_length(c2);
        if (!(gjk_abs(det) > 64 * GJK_REAL_EPSILON * size)) {
            return false;
        }
        gjk_real id = 1 / det;
        a = gjk_dot(r, x23) * id;
        b = gjk_dot(c1, gjk_cross(r, u0)) * id;
        l = gjk_dot(c1, gjk_cross(c2, r)) * id;
        if (!(l > 0)) {
            return false;
        }
    }
    gjk_vec3 n = gjk_mul_add(gjk_mul_add(u0, a, e1), b, e2);
    if (!gjk_is_valid_vec3(n) || !(gjk_length_sq(n) > 0)) {
        return false;
    }
    *u = n;
    return true;
}

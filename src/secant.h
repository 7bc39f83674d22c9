// The secant steps of the GJK walks (gjk.c, "Secant steps"; gjk2.c in 2D),
// the casts (cast.c) and EPA's ball certificate (epa_ball.c): which cores
// they serve, the history of support calls they model, the direction they
// solve for (secant.c) and the rules that decide when a step may be one.
#ifndef GJK_SECANT_H
#define GJK_SECANT_H

#include "internal.h"

/// True when the shape's core is curved somewhere, as far as its type
/// tells: an ellipsoid, a cylinder or a cone (their sides), or a user shape
/// (taken as curved). Walks on pairs with one take secant steps; casts
/// only between smooth cores (gjk_core_smooth).
static inline bool gjk_core_curved(const gjk_shape *shape) {
    return shape->type == GJK_SHAPE_ELLIPSOID || shape->type == GJK_SHAPE_CYLINDER ||
           shape->type == GJK_SHAPE_CONE || shape->type == GJK_SHAPE_CUSTOM;
}

/// True when the shape's core is a point or an ellipsoid: its support
/// point moves smoothly with the direction (or not at all).
static inline bool gjk_core_smooth(const gjk_shape *shape) {
    return shape->type == GJK_SHAPE_ELLIPSOID || shape->type == GJK_SHAPE_SPHERE || shape->type == GJK_SHAPE_POINT;
}

/// The secant steps' history: the unit directions u of the last three
/// support calls and their points w = s_D(u) (oldest first).
typedef struct gjk_secant_ring {
    gjk_vec3 u[3], w[3];
    int count;
} gjk_secant_ring;

/// Appends a support call's unit direction and point, dropping the oldest.
static GJK_INLINE void gjk_secant_push(gjk_secant_ring *h, gjk_vec3 u, gjk_vec3 w) {
    if (h->count == 3) {
        h->u[0] = h->u[1], h->w[0] = h->w[1];
        h->u[1] = h->u[2], h->w[1] = h->w[2];
        h->count = 2;
    }
    h->u[h->count] = u, h->w[h->count] = w;
    ++h->count;
}

/// The secant direction (secant.c): with the support map modelled as affine on the
/// three directions of the ring, w(u0 + a e1 + b e2) ≈ w0 + a m1 + b m2
/// (e_i = u_i − u0, m_i = w_i − w0), the direction u whose modelled point
/// lies along −u, w(u) = −λ u with λ > 0 (the closest point of D is its own
/// support point against its direction). With λ fixed in the e terms at
/// the estimate lam (|v|), a(m1 + λe1) + b(m2 + λe2) + λ u0 = −w0 is linear
/// in (a, b, λ); solved twice, the second time with the first λ. The
/// points are divided by lam first: the system is then of the order of one.
/// False when a point repeats (the support map is flat there), the system
/// is singular or λ comes out non-positive.
bool gjk_secant_direction(const gjk_secant_ring *h, gjk_real lam, gjk_vec3 *u);

/// Secant steps that miss (no progress, or the duality gap not halved)
/// before a walk (or cast) goes on with plain steps only.
#define GJK_SECANT_MISSES 3

/// Below this duality gap, relative to the points' scale, the walk takes
/// plain steps only: the secant model's differences are then mostly
/// rounding, and at a tolerance near it (1e-14 in double) its steps led a
/// stalled walk to a normal that a time of impact could not trust
/// (test_toi_sliver_contact, f34's cone and ellipsoid, missed at 256 ε).
/// In float the default tolerance (2e-6) is 16 ε: the bar is lower there.
#if GJK_USE_FLOAT
#define GJK_SECANT_ROUNDING (8 * GJK_REAL_EPSILON)
#else
#define GJK_SECANT_ROUNDING (4096 * GJK_REAL_EPSILON)
#endif

/// The rules of a walk's secant steps (gjk.c, "Secant steps"), shared by the
/// 3D and 2D walks: which steps may be secant steps, and which were misses.
typedef struct gjk_secant_rules {
    gjk_real best_gap; ///< The least duality gap seen, which a secant step must halve.
    int misses;        ///< Secant steps that missed.
    bool plain_next;   ///< A plain step is owed.
    bool known;        ///< No user shape on either side (it may be a polytope).
    bool creeping;     ///< The last plain step did not halve the least gap.
    bool plain_before; ///< The last step was plain.
} gjk_secant_rules;

static inline gjk_secant_rules gjk_secant_rules_start(bool known) {
    gjk_secant_rules r = {GJK_REAL_MAX, 0, false, known, false, false};
    return r;
}

/// Whether this step may be a secant step (the model then decides), with
/// the walk's |v|, its best lower bound and the points' scale; ring_full:
/// the model has its points. Steps wait for a bound that proves the cores
/// apart, for a walk that creeps when a user shape takes part, and stop
/// after the misses or near rounding. The caller records the choice in
/// plain_before.
static inline bool gjk_secant_may(gjk_secant_rules *r, gjk_real vlen, gjk_real lower, gjk_real scale,
                                  bool ring_full) {
    gjk_real gap = gjk_min(r->best_gap, vlen - lower);
    if (r->plain_before) {
        r->creeping = gap > GJK_R(0.5) * r->best_gap;
    }
    r->best_gap = gap;
    bool may = !r->plain_next && (r->known || r->creeping) && ring_full && r->misses < GJK_SECANT_MISSES &&
               lower > 0 && gap > GJK_SECANT_ROUNDING * scale;
    r->plain_next = false;
    return may;
}

/// Records a secant step that brought the simplex nearer, to |v_new| with
/// the best lower bound `lower`: a miss unless it halved the least gap;
/// `within`: its own bound came within the tolerance. Either way the next
/// step is plain.
static inline void gjk_secant_kept(gjk_secant_rules *r, gjk_real vlen_new, gjk_real lower, bool within) {
    bool missed = vlen_new - lower > GJK_R(0.5) * r->best_gap;
    r->misses += missed;
    r->plain_next = missed || within;
}

/// Records a secant step that brought no progress: a miss, and the next
/// step is plain.
static inline void gjk_secant_missed(gjk_secant_rules *r) {
    ++r->misses;
    r->plain_next = true;
}

#endif

// The public queries: input checks, the pair in A's frame, the GJK walk and
// EPA on the cores, the radii added back, and the answer in world frame.
#include <string.h>

#include "internal.h"

/// The shape's type as a bit; a type out of range (not a shape: the general
/// path reports it) as bit 31, which no closed form's mask holds. (Wrapped
/// onto the bits, type 32 read as a point and two balls' path answered it:
/// review finding.)
static GJK_INLINE unsigned type_bit(const gjk_shape *s) {
    unsigned t = (unsigned)s->type;
    return t < GJK_SHAPE_TYPE_COUNT ? 1u << t : 1u << 31;
}

enum {
    POINT_BITS = 1u << GJK_SHAPE_POINT | 1u << GJK_SHAPE_SPHERE,
    SEGMENT_BITS = POINT_BITS | 1u << GJK_SHAPE_SEGMENT | 1u << GJK_SHAPE_CAPSULE,
    SOLID_BITS = 1u << GJK_SHAPE_BOX | 1u << GJK_SHAPE_CYLINDER | 1u << GJK_SHAPE_CONE | 1u << GJK_SHAPE_ELLIPSOID |
                 1u << GJK_SHAPE_TRIANGLE,
};

/// The two shapes' type bits (type_bit), one word that chooses which
/// closed form may apply (closed_form, ball_pair_of), so that most pairs go
/// on after one test; 0 when the input or a shape is NULL, and for a traced
/// query, which skips the closed forms (as in 2D) so that its events show
/// GJK and EPA.
static GJK_INLINE unsigned closed_bits(const gjk_query_input *in) {
    if (in == NULL || in->options.trace != NULL || in->shape_a == NULL || in->shape_b == NULL) {
        return 0;
    }
    return type_bit(in->shape_a) | type_bit(in->shape_b);
}

/// The closed forms (closed_form.c, point_shape.c) for the pair whose
/// closed_bits are ab: true when one answers. Both types are among the
/// segments when no bit is outside them, and one is a point and the other
/// a solid when both kinds have a bit.
static GJK_INLINE bool closed_form(const gjk_query_input *in, unsigned ab, gjk_closed_answer *sa) {
    if (ab != 0 && !(ab & ~SEGMENT_BITS)) {
        return gjk_segment_closed_form(in, sa);
    }
    if ((ab & POINT_BITS) && (ab & SOLID_BITS)) {
        return gjk_point_closed_form(in, sa);
    }
    return false;
}

/// Two point cores (points and spheres, rounded or not): everything follows
/// from the centres' offset, which the queries answer from directly,
/// without the closed forms' general answer or a pair.
typedef struct ball_pair {
    gjk_vec3 pa, pb; ///< The centres (world).
    gjk_vec3 off;    ///< pb − pa.
    gjk_vec3 n;      ///< off / |off|: unit, from A to B.
    gjk_real core;   ///< |off|.
    gjk_real ra, rb; ///< The radii, margins included.
    gjk_real tol;    ///< The pair's absolute tolerance.
} ball_pair;

/// True with *b filled when both shapes are points or spheres (ab: the
/// pair's closed_bits), the input is valid, the centres are farther apart
/// than the tolerance and |off|² is in the normal range. False with nothing
/// decided otherwise: invalid input, which the general path reports;
/// centres within the tolerance, where EPA finds a normal; and offsets
/// whose square over- or underflows, which the segment closed form solves
/// scaled. The checks are those of gjk_shape_check, gjk_options_valid and
/// gjk_transform_valid, with the radii's sum finite as gjk_pair_init
/// requires (through the tolerance). Two spheres' distance query runs about
/// 290 instructions here, where it ran 490 through gjk_segment_closed_form.
static GJK_INLINE bool ball_pair_of(const gjk_query_input *in, unsigned ab, ball_pair *b) {
    if (ab == 0 || (ab & ~POINT_BITS)) {
        return false;
    }
    const gjk_shape *sa = in->shape_a, *sb = in->shape_b;
    gjk_real qa = sa->type == GJK_SHAPE_SPHERE ? sa->sphere.radius : 0;
    gjk_real qb = sb->type == GJK_SHAPE_SPHERE ? sb->sphere.radius : 0;
    b->ra = sa->margin + qa;
    b->rb = sb->margin + qb;
    // A NaN fails these; an infinite margin or radius, or radii whose sum
    // overflows, make the tolerance below infinite, and no offset is then
    // farther apart than it.
    bool valid = (sa->margin >= 0) & (qa >= 0) & (sb->margin >= 0) & (qb >= 0) & gjk_options_valid(&in->options);
    if (!valid || !gjk_transform_valid(&in->transform_a) || !gjk_transform_valid(&in->transform_b)) {
        return false;
    }
    b->pa = in->transform_a.position;
    b->pb = in->transform_b.position;
    b->off = gjk_sub(b->pb, b->pa);
    gjk_real oo = gjk_length_sq(b->off);
    gjk_real rel = gjk_options_tolerance(&in->options);
    b->tol = rel * (gjk_max_abs(b->off) + b->ra + b->rb);
    b->core = gjk_sqrt(oo);
    if (!(oo > GJK_SQUARE_MIN && oo < GJK_SQUARE_MAX && b->core > b->tol)) {
        return false;
    }
    b->n = gjk_scale(1 / b->core, b->off);
    return true;
}

/// Checks the input and sets up the pair (pair.c).
static bool pair_setup(const gjk_query_input *in, gjk_pair *p, gjk_transform *xa) {
    if (in == NULL || !gjk_options_valid(&in->options)) {
        return false;
    }
    return gjk_pair_init(p, in->shape_a, &in->transform_a, in->shape_b, &in->transform_b, &in->options, xa);
}

/// Whether a query starts from the cache: a count of 1 to 4 (others are
/// ignored).
static bool starts_warm(const gjk_simplex_cache *cache) {
    return cache != NULL && cache->count >= 1 && cache->count <= 4;
}

/// The input of the cold run after a warm one that used `used` GJK and
/// `epa_used` EPA iterations: the caps less those, so that the two runs
/// together stay within them. False when a cap is spent.
static bool cold_input(const gjk_query_input *in, int used, int epa_used, gjk_query_input *cold) {
    const gjk_options *o = &in->options;
    *cold = *in;
    cold->options.max_iterations = (o->max_iterations > 0 ? o->max_iterations : GJK_DEFAULT_MAX_ITERATIONS) - used;
    cold->options.max_epa_iterations =
        (o->max_epa_iterations > 0 ? o->max_epa_iterations : GJK_DEFAULT_MAX_EPA_ITERATIONS) - epa_used;
    return cold->options.max_iterations > 0 && cold->options.max_epa_iterations > 0;
}

static void walk_setup(const gjk_query_input *in, gjk_pair *p, const gjk_simplex_cache *cache,
                       gjk_walk *w) {
    w->simplex.count = 0;
    w->stop_beyond = 0;
    w->stop_within = 0;
    w->stop_widen = false;
    w->max_iterations = in->options.max_iterations > 0 ? in->options.max_iterations : GJK_DEFAULT_MAX_ITERATIONS;
    if (starts_warm(cache)) {
        // Rebuild the cached simplex: the support points of the current
        // shapes along the stored directions, except that a hull's point is
        // the vertex it had, taken as it is. A support search would find
        // that vertex again only while d stays inside its normal cone, and
        // the directions of a face's vertices lie on their cones' edges: on
        // a finely divided hull a small turn moves them all to neighbours,
        // and the walk pays iterations to come back (measured on 16384
        // vertices near contact: 2.6 iterations a frame against 1.7, 42%
        // more instructions). The points always lie in D, whatever the
        // cache holds, so a stale or foreign cache only costs iterations.
        p->warm = true;
        for (int m = 0; m < cache->count; ++m) {
            // Unit length: a huge or tiny stored direction must not overflow
            // or underflow inside a support function.
            gjk_vec3 d = gjk_normalize(cache->direction[m]);
            if (!gjk_is_valid_vec3(d) || !(gjk_length_sq(d) > 0)) {
                // Ignored: the walk starts cold, as without a cache.
                w->simplex.count = 0;
                p->warm = false;
                p->hint_a = p->hint_b = -1;
                return;
            }
            // The vertices this direction gave last time (checked where
            // they are used).
            p->hint_a = cache->vertex_a[m];
            p->hint_b = cache->vertex_b[m];
            w->simplex.v[m] = gjk_pair_point(p, d, true);
        }
        w->simplex.count = cache->count;
    }
}

static void cache_store(const gjk_simplex *s, gjk_simplex_cache *cache) {
    if (cache == NULL) {
        return;
    }
    cache->count = s->count;
    for (int m = 0; m < s->count; ++m) {
        cache->direction[m] = s->v[m].d;
        cache->vertex_a[m] = s->v[m].ia;
        cache->vertex_b[m] = s->v[m].ib;
    }
}

static gjk_status classify(gjk_real signed_distance, gjk_real tol) {
    if (signed_distance > tol) {
        return GJK_SEPARATED;
    }
    return signed_distance < -tol ? GJK_PENETRATING : GJK_TOUCHING;
}

/// The origin's least depth below the face planes of a tetrahedron that
/// the walk found around it: a lower bound of the depth, since the
/// tetrahedron lies in D. Each face's side is taken from the vertex
/// opposite it, so that an origin outside a face counts as negative: the
/// solve's "inside" comes from the signs of sub-volumes, which rounding
/// can get wrong on a flat tetrahedron (in float, a warm walk between a
/// cylinder and a triangle 2.4e-6 apart ended at a tetrahedron whose face
/// planes passed 2.4e-6 on the far side of the origin, and the distance
/// query answered "penetrating" at once, where gjk_penetration said
/// "touching"). A face with no area, or its opposite vertex on its
/// plane, proves nothing: 0.
static gjk_real tetra_inner_distance(const gjk_simplex *s) {
    gjk_real best = GJK_REAL_MAX;
    for (int m = 0; m < 4; ++m) {
        gjk_vec3 a = s->v[(m + 1) & 3].w, b = s->v[(m + 2) & 3].w, c = s->v[(m + 3) & 3].w;
        gjk_vec3 n = gjk_cross(gjk_sub(b, a), gjk_sub(c, a));
        gjk_real nn = gjk_length_sq(n);
        // |n|² is quartic in the coordinates: it overflows (underflows) at
        // huge (tiny) sizes, where gjk_normalize scales n first (0 for a
        // face with no area).
        n = nn > GJK_SQUARE_MIN && nn < GJK_SQUARE_MAX ? gjk_scale(1 / gjk_sqrt(nn), n) : gjk_normalize(n);
        gjk_real side = gjk_dot(n, gjk_sub(s->v[m].w, a)), d = gjk_dot(n, a);
        // Inside: the origin on the opposite vertex's side, −side·(n·a) ≥ 0.
        best = gjk_min(best, side < 0 ? d : side > 0 ? -d : 0);
    }
    return best;
}

/// The distance from the origin to the nearest point of a tetrahedron's
/// faces: the cores are at most that far apart (the faces' points are
/// points of D), whatever the solve said of the origin's side.
static gjk_real tetra_face_distance(const gjk_simplex *s) {
    gjk_real best = GJK_REAL_MAX, lambda[3];
    for (int m = 0; m < 4; ++m) {
        gjk_vec3 q = gjk_triangle_closest(s->v[(m + 1) & 3].w, s->v[(m + 2) & 3].w, s->v[(m + 3) & 3].w, lambda);
        best = gjk_min(best, gjk_length(q));
    }
    return best;
}

/// The cores overlap or touch (the walk ended in GJK_WALK_OVERLAP). Decides
/// touching or penetrating, running EPA only when the cheap bounds cannot
/// tell. Returns the status; fills *epa and sets *ran_epa when EPA ran.
static gjk_status resolve_overlap(const gjk_query_input *in, gjk_pair *p, const gjk_walk *w, gjk_epa_result *epa,
                                  bool *ran_epa) {
    *ran_epa = false;
    gjk_real tol = gjk_pair_tolerance(p);
    // A tetrahedron around the origin after a positive bound (by no more
    // than the bound's rounding, or gjk.c's walk ends the cores apart: see
    // gjk_walk_bound_excludes_origin) met rounding, not an overlap: its depth below
    // the faces is no bound, and EPA's nearest face none either; in float
    // two cylinders 7e-7 apart were answered "penetrating" here and
    // "touching" by gjk_penetration. The depth is then bounded by the
    // nearest of its faces' points instead (points of D: the cores are at
    // most that far apart), which still proves rounded shapes deep (review
    // finding: a capsule 0.3 into a cylinder at a tolerance of 1e-12,
    // float, went to EPA and came out not converged). Without a
    // tetrahedron, −|v| bounds the depth whatever the bound. After a
    // positive bound EPA runs to the end, as in gjk_penetration: its
    // nearest face, from a polytope that rounding closed around the
    // origin, is no bound either (an ellipsoid and a cone 7e-7 apart, in
    // float, stopped as "deeper").
    bool false_enclosure = w->simplex.count == 4 && w->lower > 0;
    gjk_real core_depth_lb = w->simplex.count < 4 ? -gjk_sqrt(gjk_length_sq(w->v))
                             : false_enclosure    ? -tetra_face_distance(&w->simplex)
                                                  : tetra_inner_distance(&w->simplex);
    if (core_depth_lb + p->radius > tol) {
        return GJK_PENETRATING;
    }
    int max_epa = in->options.max_epa_iterations > 0 ? in->options.max_epa_iterations : GJK_DEFAULT_MAX_EPA_ITERATIONS;
    // Only the classification is wanted: EPA may stop once the core depth
    // is proved beyond tol − R (then the rounded shapes penetrate).
    if (!gjk_epa_run(p, &w->simplex, max_epa, w->lower > 0 ? 0 : tol - p->radius, epa)) {
        return GJK_INVALID_INPUT;
    }
    *ran_epa = true;
    if (epa->deeper) {
        return GJK_PENETRATING;
    }
    gjk_status st = classify(-epa->depth - p->radius, gjk_pair_tolerance(p));
    return epa->converged ? st : GJK_NOT_CONVERGED;
}

/// Whether the support along q, v̂'s part square to the walk's last segment
/// (u along v̂), bounds the distance worse than along u by more than the
/// tolerance: then q is the worse normal. Two support calls.
static GJK_NOINLINE bool square_refuted(gjk_pair *p, gjk_vec3 u, gjk_vec3 q) {
    return gjk_pair_bound_along(p, q) < gjk_pair_bound_along(p, u) - gjk_pair_tolerance(p);
}

/// The unit normal from A to B of a walk that ended with the cores apart:
/// the walk's own when it set one (a bound's direction), else −v̂, or the
/// simplex triangle's normal when v lies inside it (accurate even when the
/// cores are very close, see gjk_simplex_direction).
static gjk_vec3 apart_normal(gjk_pair *p, const gjk_walk *w) {
    if ((w->normal.x != 0) | (w->normal.y != 0) | (w->normal.z != 0)) {
        return w->normal; // the walk's own (an early stop's bound, walk_end.c)
    }
    gjk_vec3 d = gjk_simplex_direction(&w->simplex, w->v);
    if (w->simplex.count == 2) {
        // The closest point inside a segment: v is square to it but for
        // its rounding, about ε·|p| absolute, which tilts v̂ along the
        // segment by ε·|p| / |v|. A point 4e-11 from a cone's side (size
        // 11; the segment along a generator) got a normal 3e-6 rad off,
        // along which the apex reached 4.8e-5 across (fuzz/findings f59).
        // The part of v̂ square to the segment keeps its turn about the
        // segment (second order on a ruled side) but not the tilt.
        // Where the tilt could move the gap by more than the tolerance at
        // the pair's scale, the support along both directions picks the
        // better: a segment need not be an edge of D. On a flat D (a point
        // 8e-6 off a flat hull's edge, float) the walk came within the
        // tolerance on a diagonal 1° from the edge, and the normal square
        // to it let the edge's far end reach 0.077 past the point, while
        // along v̂ the gap was the distance (fuzz/findings f72).
        gjk_vec3 e = gjk_normalize(gjk_sub(w->simplex.v[1].w, w->simplex.v[0].w));
        gjk_vec3 u = gjk_normalize(d);
        gjk_real tilt = gjk_dot(u, e);
        gjk_vec3 q = gjk_sub(u, gjk_scale(tilt, e));
        if (gjk_length_sq(q) > GJK_R(0.25) &&
            !(gjk_abs(tilt) * p->scale > gjk_pair_tolerance(p) && square_refuted(p, u, q))) {
            d = q;
        }
    }
    return gjk_neg(gjk_normalize(d));
}

/// The absolute tolerance of two boxes at the whole pair's scale (the walk's
/// grows to about this as it sees points): their separating axes (sat.c)
/// answer beyond eight of it from touching. The boxes' extent is bounded by
/// 2 × their largest half extents (p->scale), not by |h| (gjk_shape_bound),
/// whose square underflows for boxes below 1e-154. (The relative tolerance
/// is at least GJK_MIN_TOLERANCE: a tolerance below the rounding would let
/// the axes and GJK (gjk_distance) disagree on the status.)
static gjk_real box_box_tolerance(const gjk_pair *p) {
    gjk_real size = gjk_max_abs(p->pos_b) + 4 * p->scale + p->radius;
    return p->rel_tol * size;
}

/// A box core as sat.c sees one: a box, or a segment's or capsule's core as
/// a box whose two other half extents are zero, centred at the segment's
/// middle c with its z axis along it (Q, right-handed) in the shape's frame.
typedef struct box_view {
    const gjk_shape *box; ///< The shape itself, or `made`.
    gjk_shape made;
    gjk_vec3 c;
    gjk_mat3 Q;
} box_view;

/// The box view of a segment or capsule core a–b.
static void segment_view(gjk_vec3 a, gjk_vec3 b, box_view *v) {
    gjk_vec3 z;
    gjk_real half = gjk_segment_axis(a, b, &v->c, &z);
    if (!(gjk_length_sq(z) > 0)) {
        z = gjk_v3(0, 0, 1); // a point: any frame
    }
    gjk_vec3 x, y;
    gjk_orthonormal_basis(z, &x, &y);
    v->Q = gjk_mat3_make(x, y, z);
    v->made = gjk_make_box(gjk_v3(0, 0, half));
    v->box = &v->made;
}

/// The pair of the two shapes' box views: p itself for two boxes; for a box
/// and a segment or capsule, *q in the views' frames, the segment's view in
/// *v (*moved_a: A's is the segment's). NULL when a shape has no view, both
/// are segments or capsules (which have a closed form), or the query is
/// traced (it goes on to GJK and EPA, as with the closed forms).
static GJK_INLINE const gjk_pair *box_pair_view(const gjk_query_input *in, const gjk_pair *p, gjk_pair *q,
                                                box_view *v, bool *moved_a) {
    const unsigned box = 1u << GJK_SHAPE_BOX, seg = 1u << GJK_SHAPE_SEGMENT | 1u << GJK_SHAPE_CAPSULE;
    unsigned ta = type_bit(p->a), tb = type_bit(p->b);
    *moved_a = false;
    if (in->options.trace != NULL || (ta | tb) & ~(box | seg) || (ta != box && tb != box)) {
        return NULL;
    }
    if (ta == tb) {
        return p; // two boxes
    }
    const gjk_shape *s = ta == box ? p->b : p->a;
    segment_view(s->type == GJK_SHAPE_SEGMENT ? s->segment.a : s->capsule.a,
                 s->type == GJK_SHAPE_SEGMENT ? s->segment.b : s->capsule.b, v);
    *q = *p;
    if (ta == box) {
        // B's view in A's frame.
        q->b = v->box;
        q->pos_b = gjk_add(p->pos_b, gjk_mat3_mul(p->rot_b, v->c));
        q->rot_b = gjk_mat3_make(gjk_mat3_mul(p->rot_b, v->Q.cx), gjk_mat3_mul(p->rot_b, v->Q.cy),
                                 gjk_mat3_mul(p->rot_b, v->Q.cz));
    } else {
        // B in A's view's frame.
        q->a = v->box;
        q->pos_b = gjk_mat3_tmul(v->Q, gjk_sub(p->pos_b, v->c));
        q->rot_b = gjk_mat3_tmul_mat3(v->Q, p->rot_b);
        *moved_a = true;
    }
    return q;
}

/// Two boxes, or a box and a segment or capsule (a box of zero width, see
/// box_view), answered by their separating axes (sat.c): the signed
/// distance, normal and witness points of the cores in A's frame beyond
/// the band of touching that gjk_intersect leaves to GJK (so that the
/// queries agree on the status); with `common` and the cores overlapping,
/// box->a = box->b is a point of both (else false). *tol: the tolerance to
/// classify the answer with.
static GJK_INLINE bool box_box(const gjk_query_input *in, const gjk_pair *p, bool common, gjk_box_answer *box,
                               gjk_real *tol) {
    box_view v;
    gjk_pair q;
    bool moved_a;
    const gjk_pair *bp = box_pair_view(in, p, &q, &v, &moved_a);
    if (bp == NULL) {
        return false;
    }
    *tol = box_box_tolerance(bp);
    if (!gjk_box_box_signed(bp, *tol, 8 * *tol, box) ||
        (common && box->distance < 0 && !gjk_box_box_common(bp, box, *tol, &box->a))) {
        return false;
    }
    if (common && box->distance < 0) {
        box->b = box->a;
    }
    if (moved_a) {
        box->a = gjk_add(gjk_mat3_mul(v.Q, box->a), v.c);
        box->b = gjk_add(gjk_mat3_mul(v.Q, box->b), v.c);
        box->normal = gjk_mat3_mul(v.Q, box->normal);
    }
    return true;
}

/// Two solids of revolution with parallel axes (gjk_axial_signed), answered
/// in the plane of their axes beyond the band of touching that
/// gjk_intersect and gjk_distance leave to GJK (as two boxes are, with the
/// same tolerance at the whole pair's scale). An untraced query only.
static GJK_INLINE bool axial_pair(const gjk_query_input *in, const gjk_pair *p, gjk_box_answer *out, int *iterations,
                                  int *epa_iterations) {
    const unsigned axial = 1u << GJK_SHAPE_CYLINDER | 1u << GJK_SHAPE_CONE | 1u << GJK_SHAPE_CAPSULE |
                           1u << GJK_SHAPE_SEGMENT | 1u << GJK_SHAPE_ELLIPSOID;
    if (in->options.trace != NULL || !(type_bit(p->a) & axial) || !(type_bit(p->b) & axial)) {
        return false;
    }
    gjk_real tol = box_box_tolerance(p);
    return gjk_axial_signed(p, &in->options, tol, 8 * tol, out, iterations, epa_iterations);
}

/// The radius of a ball about the shape's origin that holds the shape,
/// rounding included (gjk_shape_bound), or −1 where that costs more than it
/// can save: a user shape (six support calls) or a polytope without hull (a
/// scan). Boxes and hulls inline.
static GJK_INLINE gjk_real ball_of(const gjk_shape *s) {
    switch (s->type) {
    case GJK_SHAPE_BOX: return gjk_length(s->box.half_extents) + s->margin;
    case GJK_SHAPE_POLYTOPE: return s->polytope.hull != NULL ? s->polytope.hull->radius + s->margin : -1;
    case GJK_SHAPE_CUSTOM: return -1;
    default: return gjk_shape_bound(s);
    }
}

/// gjk_balls_apart, inline in gjk_intersect (the call costs a tenth of what
/// near box pairs pay for the test).
static GJK_INLINE bool balls_apart(const gjk_query_input *in, gjk_real beyond) {
    if (in == NULL || in->shape_a == NULL || in->shape_b == NULL || in->options.trace != NULL) {
        return false; // left to the full path: it reports NULLs, and a trace shows the walk
    }
    const gjk_shape *a = in->shape_a, *b = in->shape_b;
    gjk_real ra = ball_of(a), rb = ball_of(b);
    if (!(ra >= 0) || !(rb >= 0)) {
        return false;
    }
    gjk_real reach = ra + rb + beyond;
    gjk_real apart2 = gjk_length_sq(gjk_sub(in->transform_b.position, in->transform_a.position));
    gjk_real apart = gjk_sqrt(apart2);
    gjk_real rel = gjk_options_tolerance(&in->options);
    // Never true when either length is infinite or NaN; none beyond the
    // range where the full path answers (it reports far larger offsets as
    // invalid input: the queries agree on those too), nor below the range
    // where squares keep their digits: there the lengths (unscaled) can be
    // 1e-12 off, far above the margin (two ellipsoids 2e-157 in size that
    // overlap by 1e-12 of it came out apart).
    return apart2 <= GJK_SQUARE_MAX && apart2 >= GJK_SQUARE_MIN &&
           apart - reach > rel * (apart + 2 * reach) &&
           gjk_options_valid(&in->options) && gjk_transform_valid(&in->transform_a) &&
           gjk_transform_valid(&in->transform_b) && gjk_shape_check(a, true) && gjk_shape_check(b, true);
}

bool gjk_balls_apart(const gjk_query_input *in, gjk_real beyond) { return balls_apart(in, beyond); }

/// The answer from the bounding balls alone (ball_of) of a distance or
/// penetration query whose options.max_distance (> 0) they prove exceeded
/// (balls_apart): the gap between the balls, a lower bound on the
/// distance; the direction between the shapes' origins; and the shapes'
/// support points along it, which lie at least the gap apart along it
/// (each shape lies in its ball). A far pair costs no pose setup and no
/// walk, as in gjk_intersect. False where the balls do not prove it.
typedef struct balls_answer {
    gjk_real gap;
    gjk_vec3 normal, point_a, point_b;
} balls_answer;

static GJK_INLINE bool balls_beyond(const gjk_query_input *in, balls_answer *out) {
    if (in == NULL || !(in->options.max_distance > 0) || !balls_apart(in, in->options.max_distance)) {
        return false;
    }
    gjk_vec3 off = gjk_sub(in->transform_b.position, in->transform_a.position);
    gjk_real apart = gjk_length(off); // in the normal range (balls_apart)
    out->normal = gjk_scale(1 / apart, off);
    out->gap = apart - ball_of(in->shape_a) - ball_of(in->shape_b);
    gjk_transform ta, tb; // valid (balls_apart): unit rotations
    gjk_transform_unit(&in->transform_a, &ta);
    gjk_transform_unit(&in->transform_b, &tb);
    // (Unit directions: the normal turned by unit quaternions. The shapes
    // were checked by balls_apart.)
    gjk_vec3 sa = gjk_rounded_support_unit(in->shape_a, gjk_quat_inv_rotate(ta.rotation, out->normal));
    gjk_vec3 sb = gjk_rounded_support_unit(in->shape_b, gjk_quat_inv_rotate(tb.rotation, gjk_neg(out->normal)));
    out->point_a = gjk_add(ta.position, gjk_quat_rotate(ta.rotation, sa));
    out->point_b = gjk_add(tb.position, gjk_quat_rotate(tb.rotation, sb));
    return true;
}

/// gjk_distance's answer from the balls alone (balls_beyond), into *out.
static GJK_NOINLINE bool far_distance(const gjk_query_input *in, gjk_simplex_cache *cache, gjk_distance_output *out) {
    balls_answer far;
    if (!balls_beyond(in, &far)) {
        return false;
    }
    gjk_cache_clear(cache);
    *out = (gjk_distance_output){GJK_SEPARATED, far.gap, far.point_a, far.point_b, far.normal, 0};
    return true;
}

/// gjk_penetration's answer from the balls alone (balls_beyond), into *out.
static GJK_NOINLINE bool far_penetration(const gjk_query_input *in, gjk_simplex_cache *cache,
                                         gjk_penetration_output *out) {
    balls_answer far;
    if (!balls_beyond(in, &far)) {
        return false;
    }
    gjk_cache_clear(cache);
    *out = (gjk_penetration_output){GJK_SEPARATED, far.gap, 0, far.point_a, far.point_b, far.normal, 0, 0};
    return true;
}

/// gjk_intersect and gjk_intersect_cached (cache may be NULL).
static gjk_intersect_output intersect_run(const gjk_query_input *input, gjk_simplex_cache *cache, int *epa_used) {
    gjk_intersect_output out = {GJK_INVALID_INPUT, false, 0};
    unsigned ab = closed_bits(input);
    ball_pair b;
    if (ball_pair_of(input, ab, &b)) {
        gjk_cache_clear(cache);
        out.status = classify(b.core - b.ra - b.rb, b.tol);
        out.intersect = out.status != GJK_SEPARATED;
        return out;
    }
    gjk_closed_answer sa;
    if (closed_form(input, ab, &sa)) {
        gjk_cache_clear(cache);
        out.status = classify(sa.core - sa.ra - sa.rb, sa.tol);
        out.intersect = out.status != GJK_SEPARATED;
        return out;
    }
    if (balls_apart(input, 0)) {
        gjk_cache_clear(cache);
        out.status = GJK_SEPARATED;
        return out;
    }
    gjk_pair p;
    gjk_transform xa;
    if (!pair_setup(input, &p, &xa)) {
        return out;
    }
    box_view v;
    gjk_pair q;
    bool moved_a;
    const gjk_pair *bp = box_pair_view(input, &p, &q, &v, &moved_a);
    if (bp != NULL) {
        // Two boxes (or a box and a segment or capsule): their 15 separating
        // axes decide every pair not within a band of touching, eight times
        // the tolerance at the whole pair's scale (above any tolerance the
        // walk would reach); GJK decides the rest. No simplex: a cache
        // starts the next query fresh.
        gjk_status st = GJK_INVALID_INPUT;
        gjk_real tol = box_box_tolerance(bp);
        bool decided = gjk_box_box_decide(bp, 8 * tol, &st);
        if (!decided && bp->radius > 0) {
            // Rounded boxes whose cores are apart, which the axes' lower
            // bound leaves open: the distance of gjk_distance's path.
            gjk_box_answer box;
            decided = gjk_box_box_signed(bp, tol, 8 * tol, &box);
            st = decided ? classify(box.distance - bp->radius, tol) : st;
        }
        if (decided) {
            gjk_cache_clear(cache);
            out.status = st;
            out.intersect = st != GJK_SEPARATED;
            return out;
        }
    } else if (input->options.trace == NULL && gjk_hull_hull_usable(&p, GJK_HULL_SAT_MAX_EDGE_AXES)) {
        // Two small hulls: their separating axes, as two boxes'.
        gjk_status st = GJK_INVALID_INPUT;
        if (gjk_hull_hull_decide(&p, 8 * gjk_hull_hull_tolerance(&p), &st)) {
            gjk_cache_clear(cache);
            out.status = st;
            out.intersect = st != GJK_SEPARATED;
            return out;
        }
    }
    gjk_walk w;
    walk_setup(input, &p, cache, &w);
    // Stop as soon as the core distance is proved beyond or within the sum
    // of the radii by more than the tolerance (at the scale seen by then).
    w.stop_beyond = p.radius;
    w.stop_within = p.radius;
    w.stop_widen = true;
    gjk_walk_end end = gjk_walk_run(&p, &w);
    out.iterations = w.iterations;
    if (end != GJK_WALK_BAD_SUPPORT) {
        // The final simplex: a separating direction's points, or a
        // tetrahedron around the origin, which the next frame rebuilds.
        cache_store(&w.simplex, cache);
    }
    switch (end) {
    case GJK_WALK_APART: out.status = GJK_SEPARATED; break;
    case GJK_WALK_WITHIN: out.status = GJK_PENETRATING; break;
    case GJK_WALK_CONVERGED:
        out.status = classify(gjk_length(w.v) - p.radius, gjk_pair_tolerance(&p));
        break;
    case GJK_WALK_OVERLAP: {
        gjk_epa_result epa;
        bool ran;
        out.status = resolve_overlap(input, &p, &w, &epa, &ran);
        *epa_used = ran ? epa.iterations : 0;
        if (out.status == GJK_NOT_CONVERGED) {
            out.intersect = true;
            return out;
        }
        if (out.status == GJK_INVALID_INPUT) {
            out.iterations = 0;
            return out;
        }
        break;
    }
    case GJK_WALK_MAX_ITER:
        out.status = GJK_NOT_CONVERGED;
        out.intersect = gjk_length(w.v) <= p.radius;
        return out;
    default: out.status = GJK_INVALID_INPUT; out.iterations = 0; return out;
    }
    out.intersect = out.status == GJK_TOUCHING || out.status == GJK_PENETRATING;
    return out;
}

gjk_intersect_output gjk_intersect(const gjk_query_input *input) {
    int epa_used = 0;
    return intersect_run(input, NULL, &epa_used);
}

/// gjk_intersect_cached's cold run (see distance_cold).
static GJK_NOINLINE void intersect_cold(const gjk_query_input *input, gjk_simplex_cache *cache,
                                        gjk_intersect_output *out, int epa_used) {
    gjk_query_input cold;
    if (cold_input(input, out->iterations, epa_used, &cold)) {
        int iterations = out->iterations;
        gjk_cache_clear(cache);
        *out = intersect_run(&cold, cache, &epa_used);
        if (out->status != GJK_INVALID_INPUT) { // which zeroes every number
            out->iterations += iterations;
        }
    }
}

gjk_intersect_output gjk_intersect_cached(const gjk_query_input *input, gjk_simplex_cache *cache) {
    bool warm = starts_warm(cache);
    int epa_used = 0;
    gjk_intersect_output out = intersect_run(input, cache, &epa_used);
    if (out.status == GJK_NOT_CONVERGED && warm) {
        intersect_cold(input, cache, &out, epa_used); // run again from cold (see gjk_distance)
    }
    return out;
}

/// The rounded witness points of a separated-cores answer: the core points
/// moved by their radii along n (unit, from A to B).
static void rounded_witness(const gjk_pair *p, gjk_vec3 core_a, gjk_vec3 core_b, gjk_vec3 n, gjk_vec3 *pa,
                            gjk_vec3 *pb) {
    gjk_real ra = gjk_core_radius(p->a), rb = gjk_core_radius(p->b);
    *pa = gjk_mul_add(core_a, ra, n);
    *pb = gjk_mul_add(core_b, -rb, n);
}

/// The last line of defence of the contract: finite inputs whose
/// computation overflowed (coordinates near the largest double) give
/// GJK_INVALID_INPUT with every number zero rather than an infinity.
/// (One combined test, as in query2.c: each x − x is 0 for a finite x and
/// NaN otherwise, and a NaN survives the sum.)
static void finite_distance(gjk_distance_output *o) {
    gjk_vec3 s = gjk_add(gjk_add(gjk_sub(o->point_a, o->point_a), gjk_sub(o->point_b, o->point_b)),
                         gjk_sub(o->normal, o->normal));
    gjk_real z = (o->distance - o->distance) + s.x + s.y + s.z;
    if (!(z == z)) {
        memset(o, 0, sizeof *o);
        o->status = GJK_INVALID_INPUT;
    }
}

static void finite_penetration(gjk_penetration_output *o) {
    gjk_vec3 s = gjk_add(gjk_add(gjk_sub(o->point_a, o->point_a), gjk_sub(o->point_b, o->point_b)),
                         gjk_sub(o->normal, o->normal));
    gjk_real z = (o->signed_distance - o->signed_distance) + (o->depth - o->depth) + s.x + s.y + s.z;
    if (!(z == z)) {
        memset(o, 0, sizeof *o);
        o->status = GJK_INVALID_INPUT;
    }
}

/// gjk_distance's GJK walk (and EPA's classification when the cores
/// touch): out's status and iterations, the cores' witness points *ca, *cb,
/// the normal *n (A's frame) and the rounded shapes' distance *dist (0 when
/// they overlap). False with out cleared when the input proved invalid.
static bool distance_walk(const gjk_query_input *input, gjk_pair *p, gjk_simplex_cache *cache,
                          gjk_distance_output *out, gjk_vec3 *ca, gjk_vec3 *cb, gjk_vec3 *n, gjk_real *dist,
                          int *epa_used) {
    gjk_walk w;
    walk_setup(input, p, cache, &w);
    if (input->options.max_distance > 0) {
        w.stop_beyond = input->options.max_distance + p->radius;
    }
    gjk_walk_end end = gjk_walk_run(p, &w);
    if (end == GJK_WALK_BAD_SUPPORT) {
        return false;
    }
    out->iterations = w.iterations;
    cache_store(&w.simplex, cache);
    gjk_walk_witness(&w, ca, cb);
    *n = gjk_v3_zero();
    if (end == GJK_WALK_OVERLAP) {
        gjk_epa_result epa;
        bool ran;
        out->status = resolve_overlap(input, p, &w, &epa, &ran);
        *epa_used = ran ? epa.iterations : 0;
        if (out->status == GJK_INVALID_INPUT) {
            memset(out, 0, sizeof *out);
            out->status = GJK_INVALID_INPUT;
            return false;
        }
        if (ran && out->status == GJK_TOUCHING) {
            *n = epa.normal;
        }
        *dist = 0;
    } else {
        // The cores are apart by |v| (> tol): n is known exactly.
        *n = apart_normal(p, &w);
        *dist = end == GJK_WALK_APART ? w.lower - p->radius : gjk_length(w.v) - p->radius;
        out->status = end == GJK_WALK_MAX_ITER ? GJK_NOT_CONVERGED : classify(*dist, gjk_pair_tolerance(p));
        if (end == GJK_WALK_APART) {
            out->status = GJK_SEPARATED;
        }
    }
    return true;
}

/// The answer to invalid input: GJK_INVALID_INPUT with every number zero.
static GJK_NOINLINE void distance_invalid(gjk_distance_output *out) {
    memset(out, 0, sizeof *out);
    out->status = GJK_INVALID_INPUT;
}

static void distance_run(const gjk_query_input *input, gjk_simplex_cache *cache, gjk_distance_output *out,
                         int *epa_used) {
    // Every field is written below on success (iterations by the walk, or
    // 0 for the boxes' axes); a failure answers distance_invalid.
    gjk_pair p;
    gjk_transform xa;
    if (!pair_setup(input, &p, &xa)) {
        distance_invalid(out);
        return;
    }
    gjk_vec3 ca, cb, pa, pb, n;
    gjk_real dist, box_tol;
    gjk_box_answer box;
    if (box_box(input, &p, true, &box, &box_tol)) {
        // Two boxes beyond the band: the axes' answer. Overlapping cores
        // give one common point (both witnesses) and no normal, as GJK's.
        gjk_cache_clear(cache);
        ca = box.a;
        cb = box.b;
        n = box.distance >= 0 ? box.normal : gjk_v3_zero();
        dist = box.distance - p.radius;
        out->status = classify(dist, box_tol);
        out->iterations = 0;
    } else if (!distance_walk(input, &p, cache, out, &ca, &cb, &n, &dist, epa_used)) {
        distance_invalid(out);
        return;
    }
    if (dist > 0) {
        rounded_witness(&p, ca, cb, n, &pa, &pb);
        out->distance = dist;
    } else {
        // Overlap: one common point. With rounded shapes it lies on the
        // segment between the core points, within each radius of its core.
        gjk_real t = p.radius > 0 ? gjk_core_radius(p.a) / p.radius : GJK_R(0.5);
        pa = pb = gjk_add(ca, gjk_scale(t, gjk_sub(cb, ca)));
        out->distance = 0;
    }
    out->point_a = gjk_transform_point(xa, pa);
    out->point_b = gjk_transform_point(xa, pb);
    out->normal = gjk_quat_rotate(xa.rotation, n);
    return;
}

/// Fills the penetration answer (world) from the cores' witness points ca,
/// cb and the unit normal n (A's frame) and the signed distance sd of the
/// rounded shapes, classified with tol.
static void penetration_answer(const gjk_pair *p, gjk_transform xa, gjk_vec3 ca, gjk_vec3 cb, gjk_vec3 n,
                               gjk_real sd, gjk_real tol, gjk_penetration_output *out) {
    gjk_vec3 pa, pb;
    rounded_witness(p, ca, cb, n, &pa, &pb);
    out->status = classify(sd, tol);
    out->signed_distance = sd;
    out->depth = sd < 0 ? -sd : 0;
    out->point_a = gjk_transform_point(xa, pa);
    out->point_b = gjk_transform_point(xa, pb);
    out->normal = gjk_quat_rotate(xa.rotation, n);
}

/// The penetration query; with max_distance > 0 the walk may stop once the
/// shapes are proved farther apart than that (GJK_SEPARATED with a lower
/// bound on the distance, as gjk_distance's options.max_distance).
static void penetration_run(const gjk_query_input *input, gjk_simplex_cache *cache, gjk_real max_distance,
                            gjk_penetration_output *out) {
    memset(out, 0, sizeof *out);
    out->status = GJK_INVALID_INPUT;
    gjk_pair p;
    gjk_transform xa;
    if (!pair_setup(input, &p, &xa)) {
        return;
    }
    gjk_box_answer box;
    gjk_real box_tol;
    if (box_box(input, &p, false, &box, &box_tol)) {
        gjk_cache_clear(cache);
        penetration_answer(&p, xa, box.a, box.b, box.normal, box.distance - p.radius, box_tol, out);
        return;
    }
    int axial_iterations, axial_epa_iterations;
    if (axial_pair(input, &p, &box, &axial_iterations, &axial_epa_iterations)) {
        gjk_cache_clear(cache);
        penetration_answer(&p, xa, box.a, box.b, box.normal, box.distance - p.radius, gjk_pair_tolerance(&p), out);
        out->iterations = axial_iterations;
        out->epa_iterations = axial_epa_iterations;
        return;
    }
    gjk_vec3 ca, cb, n;
    gjk_real sd, core;
    gjk_walk w;
    walk_setup(input, &p, cache, &w);
    if (max_distance > 0) {
        w.stop_beyond = max_distance + p.radius;
    }
    gjk_walk_end end = gjk_walk_run(&p, &w);
    if (end == GJK_WALK_BAD_SUPPORT) {
        return;
    }
    cache_store(&w.simplex, cache);

    bool converged = end != GJK_WALK_MAX_ITER;
    if (end == GJK_WALK_OVERLAP && input->options.trace == NULL &&
        gjk_hull_hull_usable(&p, GJK_HULL_MAX_EDGE_DIRECTIONS * GJK_HULL_MAX_EDGE_DIRECTIONS)) {
        // Two small hulls overlapping beyond the band: their separating
        // axes give the depth, in place of EPA. (Before the walk they
        // cost pairs apart more than they save: GJK answers those.)
        box_tol = gjk_hull_hull_tolerance(&p);
        if (gjk_hull_hull_signed(&p, box_tol, 8 * box_tol, &box)) {
            penetration_answer(&p, xa, box.a, box.b, box.normal, box.distance - p.radius, box_tol, out);
            out->iterations = w.iterations;
            return;
        }
    }
    if (end == GJK_WALK_OVERLAP) {
        int max_epa = input->options.max_epa_iterations > 0 ? input->options.max_epa_iterations
                                                             : GJK_DEFAULT_MAX_EPA_ITERATIONS;
        gjk_epa_result epa;
        if (!gjk_epa_run(&p, &w.simplex, max_epa, 0, &epa)) {
            return;
        }
        out->epa_iterations = epa.iterations;
        converged = epa.converged;
        ca = epa.point_a;
        cb = epa.point_b;
        n = epa.normal;
        sd = 0 - (epa.depth + p.radius); // 0 − x: never −0
    } else {
        gjk_walk_witness(&w, &ca, &cb);
        core = gjk_length(w.v);
        n = apart_normal(&p, &w);
        // Stopped early: the lower bound, proved beyond max_distance.
        sd = end == GJK_WALK_APART ? w.lower - p.radius : core - p.radius;
    }
    penetration_answer(&p, xa, ca, cb, n, sd, gjk_pair_tolerance(&p), out);
    if (!converged) {
        out->status = GJK_NOT_CONVERGED;
    }
    if (end == GJK_WALK_APART) {
        out->status = GJK_SEPARATED;
    }
    out->iterations = w.iterations;
}

// A warm start is a head start, not a different question: a warm query
// that ends not converged runs again from cold, within what its caps have
// left (rare; the cold walk is the one the tests measure). From a cache
// built at an overlapping pose, a walk 1e-3 later whose shapes touch can
// end at a tetrahedron that encloses the origin only by rounding, and EPA,
// meeting a new face that leaves the origin outside, cannot step: in
// float, 9 of 78,800 poses of 14 shapes were answered not converged, up to
// 2.8 deep, warm, and touching, cold.
//
// The outputs are written in place (the caller's return slot) rather than
// returned through each layer: a tiny query's time is mostly such copies.

/// gjk_distance's cold run after a warm one that ended not converged
/// (*out) having used `epa_used` EPA iterations: *out becomes the cold
/// run's answer, the iterations of both added. Out of line: rare.
static GJK_NOINLINE void distance_cold(const gjk_query_input *input, gjk_simplex_cache *cache,
                                       gjk_distance_output *out, int epa_used) {
    gjk_query_input cold;
    if (cold_input(input, out->iterations, epa_used, &cold)) {
        int iterations = out->iterations;
        gjk_cache_clear(cache);
        distance_run(&cold, cache, out, &epa_used);
        if (out->status != GJK_INVALID_INPUT) { // which zeroes every number
            out->iterations += iterations;
        }
    }
}

/// gjk_distance's answer from a closed form (closed_form).
static void closed_distance(const gjk_closed_answer *sa, gjk_simplex_cache *cache, gjk_distance_output *out) {
    gjk_cache_clear(cache);
    gjk_real dist = sa->core - sa->ra - sa->rb;
    out->status = classify(dist, sa->tol);
    // A point core inside the other core, penetrating: no normal, as the
    // general path and gjk.h have it (gjk_penetration gives the direction).
    out->normal = sa->core > 0 || out->status != GJK_PENETRATING ? sa->n : gjk_v3_zero();
    out->iterations = 0;
    if (dist > 0) {
        out->distance = dist;
        out->point_a = gjk_add(sa->origin, gjk_mul_add(sa->ca, sa->ra, sa->n));
        out->point_b = gjk_add(sa->origin, gjk_mul_add(sa->cb, -sa->rb, sa->n));
    } else {
        // One common point: between the core points, within each radius
        // (ra + rb ≥ core > 0), or the point core inside the other core.
        gjk_real t = sa->core > 0 ? sa->ra / (sa->ra + sa->rb) : sa->inner_t;
        out->distance = 0;
        out->point_a = out->point_b = gjk_add(sa->origin, gjk_add(sa->ca, gjk_scale(t, gjk_sub(sa->cb, sa->ca))));
    }
}

/// gjk_distance's answer for two balls (ball_pair_of).
static GJK_INLINE void ball_distance(const ball_pair *b, gjk_simplex_cache *cache, gjk_distance_output *out) {
    gjk_cache_clear(cache);
    gjk_real dist = b->core - b->ra - b->rb;
    out->status = classify(dist, b->tol);
    out->normal = b->n;
    out->iterations = 0;
    if (dist > 0) {
        out->distance = dist;
        out->point_a = gjk_mul_add(b->pa, b->ra, b->n);
        out->point_b = gjk_mul_add(b->pb, -b->rb, b->n);
    } else {
        // One common point, between the centres within each radius
        // (ra + rb ≥ |off| > 0).
        out->distance = 0;
        out->point_a = out->point_b = gjk_mul_add(b->pa, b->ra / (b->ra + b->rb), b->off);
    }
}

gjk_distance_output gjk_distance(const gjk_query_input *input, gjk_simplex_cache *cache) {
    gjk_distance_output out;
    unsigned ab = closed_bits(input);
    ball_pair b;
    gjk_closed_answer sa;
    if (ball_pair_of(input, ab, &b)) {
        ball_distance(&b, cache, &out);
    } else if (closed_form(input, ab, &sa)) {
        closed_distance(&sa, cache, &out);
    } else if (input != NULL && input->options.max_distance > 0 && far_distance(input, cache, &out)) {
        // answered from the bounding balls
    } else {
        bool warm = starts_warm(cache);
        int epa_used = 0; // EPA's iterations, where it classified an overlap
        distance_run(input, cache, &out, &epa_used);
        if (out.status == GJK_NOT_CONVERGED && warm) {
            distance_cold(input, cache, &out, epa_used);
        }
    }
    finite_distance(&out);
    return out;
}

/// penetration_query's cold run (see distance_cold).
static GJK_NOINLINE void penetration_cold(const gjk_query_input *input, gjk_simplex_cache *cache,
                                          gjk_real max_distance, gjk_penetration_output *out) {
    gjk_query_input cold;
    if (cold_input(input, out->iterations, out->epa_iterations, &cold)) {
        int iterations = out->iterations, epa_iterations = out->epa_iterations;
        gjk_cache_clear(cache);
        penetration_run(&cold, cache, max_distance, out);
        // An invalid answer (the cold run met a support point that is not
        // finite, which the warm one had not asked for) keeps every number
        // zero, the iterations too (fuzz seed 950: 3 and 252 were added).
        if (out->status != GJK_INVALID_INPUT) {
            out->iterations += iterations;
            out->epa_iterations += epa_iterations;
        }
    }
}

/// gjk_penetration's answer from a closed form (closed_form).
static void closed_penetration(const gjk_closed_answer *sa, gjk_simplex_cache *cache, gjk_penetration_output *out) {
    gjk_cache_clear(cache);
    gjk_real sd = sa->core - sa->ra - sa->rb;
    out->status = classify(sd, sa->tol);
    out->signed_distance = sd;
    out->depth = sd < 0 ? -sd : 0;
    out->point_a = gjk_add(sa->origin, gjk_mul_add(sa->ca, sa->ra, sa->n));
    out->point_b = gjk_add(sa->origin, gjk_mul_add(sa->cb, -sa->rb, sa->n));
    out->normal = sa->n;
    out->iterations = out->epa_iterations = 0;
}

/// gjk_penetration's answer for two balls (ball_pair_of).
static GJK_INLINE void ball_penetration(const ball_pair *b, gjk_simplex_cache *cache, gjk_penetration_output *out) {
    gjk_cache_clear(cache);
    gjk_real sd = b->core - b->ra - b->rb;
    out->status = classify(sd, b->tol);
    out->signed_distance = sd;
    out->depth = sd < 0 ? -sd : 0;
    out->point_a = gjk_mul_add(b->pa, b->ra, b->n);
    out->point_b = gjk_mul_add(b->pb, -b->rb, b->n);
    out->normal = b->n;
    out->iterations = out->epa_iterations = 0;
}

/// gjk_penetration and gjk_penetration_bounded: run again from cold when
/// warm and not converged (see gjk_distance).
static gjk_penetration_output penetration_query(const gjk_query_input *input, gjk_simplex_cache *cache,
                                                gjk_real max_distance) {
    gjk_penetration_output out;
    unsigned ab = closed_bits(input);
    ball_pair b;
    gjk_closed_answer sa;
    if (ball_pair_of(input, ab, &b)) {
        ball_penetration(&b, cache, &out);
    } else if (closed_form(input, ab, &sa)) {
        closed_penetration(&sa, cache, &out);
    } else if (max_distance > 0 && input != NULL && input->options.max_distance == max_distance &&
               far_penetration(input, cache, &out)) { // (not gjk_contact's call: it has its own balls)
        // answered from the bounding balls
    } else {
        bool warm = starts_warm(cache);
        penetration_run(input, cache, max_distance, &out);
        if (out.status == GJK_NOT_CONVERGED && warm) {
            penetration_cold(input, cache, max_distance, &out);
        }
    }
    finite_penetration(&out);
    return out;
}

gjk_penetration_output gjk_penetration(const gjk_query_input *input, gjk_simplex_cache *cache) {
    // (A NULL input, or an invalid max_distance, is reported by the query.)
    return penetration_query(input, cache, input != NULL ? input->options.max_distance : 0);
}

gjk_penetration_output gjk_penetration_bounded(const gjk_query_input *input, gjk_simplex_cache *cache,
                                               gjk_real max_distance) {
    return penetration_query(input, cache, max_distance);
}

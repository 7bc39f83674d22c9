// The public 2D queries: input checks, the pair in A's frame, the GJK walk
// and EPA on the cores, the radii added back, and the answer in world frame.
// The twin of query.c, with the same statuses, touching band and cache.
#include <string.h>

#include "internal2.h"

/// Two point cores (points and circles, rounded or not): everything follows
/// from the centres' offset, which the queries answer from directly (the
/// twin of query.c's ball_pair).
typedef struct ball_pair2 {
    gjk_vec2 pa, pb; ///< The centres (world).
    gjk_vec2 off;    ///< pb − pa.
    gjk_vec2 n;      ///< off / |off|: unit, from A to B.
    gjk_real core;   ///< |off|.
    gjk_real ra, rb; ///< The radii, margins included.
    gjk_real tol;    ///< The pair's absolute tolerance.
} ball_pair2;

enum {
    POINT_BITS2 = 1u << GJK2_SHAPE_POINT | 1u << GJK2_SHAPE_CIRCLE,
    SEGMENT_BITS2 = POINT_BITS2 | 1u << GJK2_SHAPE_SEGMENT | 1u << GJK2_SHAPE_CAPSULE,
};

/// The shape's type as a bit; a type out of range (not a shape: the general
/// path reports it) as bit 31, which no closed form's mask holds.
static GJK_INLINE unsigned type_bit2(const gjk2_shape *s) {
    unsigned t = (unsigned)s->type;
    return t < GJK2_SHAPE_TYPE_COUNT ? 1u << t : 1u << 31;
}

/// The two shapes' types as bits (type_bit2), one word that chooses which
/// closed form may apply (ball_pair_of, closed_form), so that most pairs go
/// on after one test; 0 when the input or a shape is NULL, and for a traced
/// query, whose events show the walk.
static GJK_INLINE unsigned closed_bits(const gjk2_query_input *in) {
    if (in == NULL || in->options.trace != NULL || in->shape_a == NULL || in->shape_b == NULL) {
        return 0;
    }
    return type_bit2(in->shape_a) | type_bit2(in->shape_b);
}

/// gjk2_segment_closed_form for the pair whose closed_bits are ab, called
/// only when both types are among the segments'.
static GJK_INLINE bool closed_form(const gjk2_query_input *in, unsigned ab, gjk2_segment_answer *sa) {
    return ab != 0 && !(ab & ~SEGMENT_BITS2) && gjk2_segment_closed_form(in, sa);
}

/// True with *b filled when both shapes are points or circles (ab: the
/// pair's closed_bits), the input is valid, the centres are farther apart
/// than the tolerance and |off|² is in the normal range; false with nothing
/// decided otherwise (invalid input, which the general path reports;
/// centres within the tolerance, left to EPA; offsets whose square over- or
/// underflows, which the segment closed form solves scaled). The checks are
/// gjk2_segment_closed_form's, the radii's sum finite through the tolerance
/// (see query.c's ball_pair_of).
static GJK_INLINE bool ball_pair_of(const gjk2_query_input *in, unsigned ab, ball_pair2 *b) {
    if (ab == 0 || (ab & ~POINT_BITS2)) {
        return false;
    }
    const gjk2_shape *sa = in->shape_a, *sb = in->shape_b;
    bool ca = sa->type == GJK2_SHAPE_CIRCLE, cb = sb->type == GJK2_SHAPE_CIRCLE;
    gjk_real qa = ca ? sa->circle.radius : 0, qb = cb ? sb->circle.radius : 0;
    b->ra = sa->margin + qa;
    b->rb = sb->margin + qb;
    bool valid = (sa->margin >= 0) & (qa >= 0) & (sb->margin >= 0) & (qb >= 0) & gjk_options_valid(&in->options);
    if (!valid || !gjk2_transform_check(&in->transform_a) || !gjk2_transform_check(&in->transform_b)) {
        return false;
    }
    b->pa = in->transform_a.position;
    b->pb = in->transform_b.position;
    b->off = gjk_sub2(b->pb, b->pa);
    gjk_real oo = gjk_length_sq2(b->off);
    gjk_real rel = gjk_options_tolerance(&in->options);
    b->tol = rel * (gjk2_max_abs(b->off) + b->ra + b->rb);
    b->core = gjk_sqrt(oo);
    if (!(oo > GJK_SQUARE_MIN && oo < GJK_SQUARE_MAX && b->core > b->tol)) {
        return false;
    }
    b->n = gjk_scale2(1 / b->core, b->off);
    return true;
}

/// Checks the input and sets up the pair (pair2.c).
static bool pair_setup(const gjk2_query_input *in, gjk2_pair *p, gjk_transform2 *xa) {
    if (in == NULL || !gjk_options_valid(&in->options)) {
        return false;
    }
    return gjk2_pair_init(p, in->shape_a, &in->transform_a, in->shape_b, &in->transform_b, &in->options, xa);
}

static void walk_setup(const gjk2_query_input *in, gjk2_pair *p, const gjk2_simplex_cache *cache,
                       gjk2_walk *w) {
    w->simplex.count = 0;
    w->stop_beyond = 0;
    w->stop_within = 0;
    w->stop_widen = false;
    w->max_iterations = in->options.max_iterations > 0 ? in->options.max_iterations : GJK_DEFAULT_MAX_ITERATIONS;
    if (cache != NULL && cache->count >= 1 && cache->count <= 3) {
        // Rebuild the cached simplex from the stored support directions (see
        // query.c): the points always lie in D, so a stale cache only costs
        // iterations.
        for (int m = 0; m < cache->count; ++m) {
            // Unit length: a huge or tiny stored direction must not overflow
            // or underflow inside a support function.
            gjk_vec2 d = gjk_normalize2(cache->direction[m]);
            if (!gjk_is_valid_vec2(d) || !(gjk_length_sq2(d) > 0)) {
                w->simplex.count = 0;
                return;
            }
            // The vertices it gave last time, where the search starts
            // (gjk2_support_climb checks them).
            p->hint_a = cache->vertex_a[m];
            p->hint_b = cache->vertex_b[m];
            w->simplex.v[m] = gjk2_pair_support(p, d);
        }
        w->simplex.count = cache->count;
    }
}

static void cache_store(const gjk2_simplex *s, gjk2_simplex_cache *cache) {
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

/// Distance from the origin to the nearest edge line of a triangle that
/// encloses it: a lower bound of the depth, since the triangle lies in D.
static gjk_real triangle_inner_distance(const gjk2_simplex *s) {
    gjk_real best = GJK_REAL_MAX;
    for (int m = 0; m < 3; ++m) {
        gjk_vec2 a = s->v[m].w, b = s->v[m == 2 ? 0 : m + 1].w;
        gjk_vec2 e = gjk_sub2(b, a);
        gjk_real len = gjk_length2(e);
        gjk_real d = len > 0 ? gjk_abs(gjk_cross2(e, a)) / len : 0;
        best = gjk_min(best, d);
    }
    return best;
}

/// The cores overlap or touch (the walk ended in GJK_WALK_OVERLAP). Decides
/// touching or penetrating, running EPA only when the cheap bounds cannot
/// tell. Returns the status; fills *epa and sets *ran_epa when EPA ran.
static gjk_status resolve_overlap(const gjk2_query_input *in, gjk2_pair *p, const gjk2_walk *w,
                                  gjk2_epa_result *epa, bool *ran_epa) {
    *ran_epa = false;
    gjk_real tol = gjk2_pair_tolerance(p);
    gjk_real core_depth_lb = w->simplex.count == 3 ? triangle_inner_distance(&w->simplex) : -gjk_length2(w->v);
    if (core_depth_lb + p->radius > tol) {
        return GJK_PENETRATING;
    }
    int max_epa = in->options.max_epa_iterations > 0 ? in->options.max_epa_iterations : GJK_DEFAULT_MAX_EPA_ITERATIONS;
    // Only the classification is wanted: EPA may stop once the core depth
    // is proved beyond tol − R (then the rounded shapes penetrate).
    if (!gjk2_epa_run(p, &w->simplex, max_epa, tol - p->radius, epa)) {
        return GJK_INVALID_INPUT;
    }
    *ran_epa = true;
    if (epa->deeper) {
        return GJK_PENETRATING;
    }
    gjk_status st = classify(-epa->depth - p->radius, gjk2_pair_tolerance(p));
    return epa->converged ? st : GJK_NOT_CONVERGED;
}

/// The unit normal from A to B of a walk that ended with the cores apart:
/// the walk's own when it set one, else −v̂, or the simplex segment's
/// perpendicular when v lies inside it (accurate even when the cores are
/// very close, see gjk2_simplex_direction).
static gjk_vec2 apart_normal(const gjk2_walk *w) {
    if ((w->normal.x != 0) | (w->normal.y != 0)) {
        return w->normal; // stopped by a bound: its own direction (or vertex_normal's)
    }
    return gjk_neg2(gjk_normalize2(gjk2_simplex_direction(&w->simplex, w->v)));
}

/// The absolute tolerance of two boxes at the whole pair's scale (the walk's
/// grows to about this as it sees points): their separating axes (sat2.c)
/// answer beyond eight of it from touching, above any tolerance the walk
/// would reach, so that the queries agree on the status. The extent: 2 ×
/// the largest half extents (p.scale), not |h|, whose square underflows for
/// boxes below 1e-154. (The relative tolerance is at least
/// GJK_MIN_TOLERANCE: a tolerance below the rounding would let the axes and
/// GJK disagree.)
static gjk_real box_box_tolerance(const gjk2_pair *p) {
    gjk_real size = gjk2_max_abs(p->pos_b) + 4 * p->scale + p->radius;
    return p->rel_tol * size;
}

/// A box core as sat2.c sees one: a box, or a segment's or capsule's core
/// as a box of zero width, centred at the segment's middle c with its x
/// axis along it (rotation r) in the shape's frame (as in query.c).
typedef struct box_view2 {
    const gjk2_shape *box; ///< The shape itself, or `made`.
    gjk2_shape made;
    gjk_vec2 c;
    gjk_rot2 r;
} box_view2;

/// The box view of a segment or capsule core a–b.
static void segment_view(gjk_vec2 a, gjk_vec2 b, box_view2 *v) {
    gjk_vec2 e = gjk_sub2(b, a), x = gjk_normalize2(e);
    if (!(gjk_length_sq2(x) > 0)) {
        x = gjk_v2(1, 0); // a point: any frame
    }
    v->r.c = x.x;
    v->r.s = x.y;
    v->c = gjk_add2(a, gjk_scale2(GJK_R(0.5), e));
    v->made = gjk2_make_box(gjk_v2(GJK_R(0.5) * gjk_dot2(x, e), 0));
    v->box = &v->made;
}

/// The pair of the two shapes' box views: p itself for two boxes; for a box
/// and a segment or capsule, *q in the views' frames, the segment's view in
/// *v (*moved_a: A's is the segment's). NULL when a shape has no view, both
/// are segments or capsules (which have a closed form), or the query is
/// traced (it goes on to GJK and EPA, as with the closed forms).
static GJK_INLINE const gjk2_pair *box_pair_view(const gjk2_query_input *in, const gjk2_pair *p, gjk2_pair *q,
                                                 box_view2 *v, bool *moved_a) {
    const gjk2_shape_type box = GJK2_SHAPE_BOX;
    gjk2_shape_type ta = p->a->type, tb = p->b->type;
    *moved_a = false;
    if (in->options.trace != NULL || (ta != box && tb != box)) {
        return NULL;
    }
    if (ta == tb) {
        return p; // two boxes
    }
    const gjk2_shape *s = ta == box ? p->b : p->a;
    if (s->type != GJK2_SHAPE_SEGMENT && s->type != GJK2_SHAPE_CAPSULE) {
        return NULL;
    }
    segment_view(s->type == GJK2_SHAPE_SEGMENT ? s->segment.a : s->capsule.a,
                 s->type == GJK2_SHAPE_SEGMENT ? s->segment.b : s->capsule.b, v);
    *q = *p;
    if (ta == box) {
        // B's view in A's frame.
        q->b = v->box;
        q->pos_b = gjk_add2(p->pos_b, gjk_rot2_apply(p->rot_b, v->c));
        q->rot_b = gjk_rot2_mul(p->rot_b, v->r);
    } else {
        // B in A's view's frame.
        q->a = v->box;
        q->pos_b = gjk_rot2_inv_apply(v->r, gjk_sub2(p->pos_b, v->c));
        q->rot_b = gjk_rot2_inv_mul(v->r, p->rot_b);
        *moved_a = true;
    }
    return q;
}

/// Two boxes, or a box and a segment or capsule, answered by their
/// separating axes (sat2.c) beyond the band of touching, in A's frame; with
/// `common` and the cores overlapping, box->a = box->b is a point of both
/// (else false). *tol: the tolerance to classify the answer with.
static GJK_INLINE bool box_box(const gjk2_query_input *in, const gjk2_pair *p, bool common, gjk2_box_answer *box,
                               gjk_real *tol) {
    box_view2 v;
    gjk2_pair q;
    bool moved_a;
    const gjk2_pair *bp = box_pair_view(in, p, &q, &v, &moved_a);
    if (bp == NULL) {
        return false;
    }
    *tol = box_box_tolerance(bp);
    if (!gjk2_box_box_signed(bp, *tol, 8 * *tol, box) ||
        (common && box->distance < 0 && !gjk2_box_box_common(bp, box, *tol, &box->a))) {
        return false;
    }
    if (common && box->distance < 0) {
        box->b = box->a;
    }
    if (moved_a) {
        box->a = gjk_add2(gjk_rot2_apply(v.r, box->a), v.c);
        box->b = gjk_add2(gjk_rot2_apply(v.r, box->b), v.c);
        box->normal = gjk_rot2_apply(v.r, box->normal);
    }
    return true;
}

/// The most vertices of two polygons that sat_polygon2.c answers: it tries
/// every edge of each against every vertex of the other (O(n m), two edges
/// a step with SSE2, four with AVX2), where GJK's few support scans touch
/// each vertex a few times. The figures below were measured with the merge of edges by angle
/// that came before (a step per edge, most of whose time went on the branch
/// that picks the next, a coin toss to the processor); the present form
/// measured faster or even on every bench row (two 8-gons and two 16-gons,
/// the largest pair it takes: sat_polygon2.c), and the limit stayed.
/// Measured on polygons of points on an
/// ellipse (the bench's), against GJK and EPA: two 8-gons overlapping by
/// 1e-3, penetration 2.3x and intersect 1.7x faster, apart by 0.1 1.15x;
/// two 12-gons or larger apart, slower (1.3-2x). Larger polygons' penetration
/// by the axes only where they showed the cores overlapping (GJK's when an
/// edge showed them apart) was 1.2-1.4x faster overlapping and as much
/// slower apart: every merge starts with a scan of both polygons. Since
/// GJK's supports climb (support2.h), two 16-gons measured (the bench's
/// seven bands, time): penetration by the axes 0.75x the time (overlapping
/// 684 -> 393 ns, 1e-3 apart 574 -> 430, but 1 apart 278 -> 319, the
/// views' scan before the balls' test), intersect 0.76x (1e-3 apart 480 ->
/// 190 ns, 1 apart 105 -> 64 by the balls alone, but 0.1 apart 103 -> 177
/// and overlapping by 0.1 300 -> 400): intersect and penetration take the
/// axes up to 32 vertices in all. Distance does not: the walk, which stops
/// at the first support point within the tolerance, ran fewer instructions
/// than the merge, which visits every edge (callgrind, 2000 pairs of convex
/// polygons on ellipses per band), apart: two triangles 1946-2774 ->
/// 1860-2159 a query, 8-gons 2520-4515 -> 2284-3186, a 4-gon and a 12-gon
/// 2579-5008 -> 2343-3514; overlapping, about even (triangles 2169 -> 2375,
/// 8-gons 3615 -> 2879-3216, the 4-gon and 12-gon 3731 -> 2972-3387). Those
/// pairs were slid along their separating direction, as the bench's are;
/// with B placed along a random direction instead (review), near contact
/// the walk cost more (8-gons 1e-3 apart 3437 -> 4281), the gain starting
/// about a tenth of the size apart.
#define GJK2_SAT_MAX_VERTICES 32

/// Largest and smallest pair sizes (|t| + both extents) for sat_polygon2.c,
/// whose edges' squared lengths must neither overflow nor lose digits to
/// underflow at the tolerance's scale; beyond, the general path scales.
#if GJK_USE_FLOAT
#define GJK2_SAT_SIZE_MIN 1e-6f
#define GJK2_SAT_SIZE_MAX 1e13f
#else
#define GJK2_SAT_SIZE_MIN 1e-100
#define GJK2_SAT_SIZE_MAX 1e130
#endif

/// What polygon_views found.
typedef enum polygon_case {
    POLYGON_NONE,  ///< No views, or not for the axes: the general path.
    POLYGON_AXES,  ///< Views for the axes.
    POLYGON_BALLS, ///< Views whose bounding circles lie beyond the band apart.
} polygon_case;

/// The polygon views of a pair with a convex polygon (gjk2_make_convex_polygon)
/// against a shape that has one (sat_polygon2.c), of max_vertices in all,
/// and the absolute tolerance at the whole pair's scale, as
/// box_box_tolerance: at least what the walk's grows to (the points of D
/// lie within |t| + both extents in each coordinate of A's frame, B's
/// times √2), so that the band of 8 of it lies beyond it. POLYGON_NONE
/// otherwise, or for a traced query (it goes on to GJK and EPA); the pairs
/// of boxes, segments and capsules have box_box and the closed forms.
/// POLYGON_BALLS when the circles about both frames' origins through the
/// farthest vertices (radii added) are apart beyond the band: the shapes
/// are, and a GJK walk so far apart ends in two or three iterations, where
/// the axes would take every edge (two 8-gons 1 apart: 232 ns by GJK, 278
/// by the axes).
static GJK_INLINE polygon_case polygon_views(const gjk2_query_input *in, const gjk2_pair *p, gjk2_polygon_view *va,
                                             gjk2_polygon_view *vb, gjk_real *tol, int max_vertices) {
    bool convex_a = p->a->type == GJK2_SHAPE_POLYGON && p->a->polygon.convex;
    bool convex_b = p->b->type == GJK2_SHAPE_POLYGON && p->b->polygon.convex;
    if (!(convex_a || convex_b) || in->options.trace != NULL || !gjk2_polygon_view_of(p->a, va) ||
        !gjk2_polygon_view_of(p->b, vb) || va->n + vb->n > max_vertices) {
        return POLYGON_NONE;
    }
    gjk2_polygon_view_measure(va);
    gjk2_polygon_view_measure(vb);
    gjk_real size = gjk2_max_abs(p->pos_b) + 2 * (va->extent + vb->extent) + p->radius;
    *tol = p->rel_tol * size;
    if (!(size > GJK2_SAT_SIZE_MIN && size < GJK2_SAT_SIZE_MAX)) {
        return POLYGON_NONE;
    }
    gjk_real gap = gjk_length2(p->pos_b) - (va->reach + vb->reach + p->radius);
    return gap > 8 * *tol ? POLYGON_BALLS : POLYGON_AXES;
}

/// A convex polygon against a shape with a polygon view, answered by their
/// edges' separating axes (sat_polygon2.c) beyond the band of touching, in
/// A's frame, for gjk2_penetration (overlapping cores: their depth; with
/// max_distance > 0, apart beyond it: a lower bound, as the walk's early
/// stop). *tol: the tolerance to classify the answer with.
static GJK_INLINE bool polygon_axes(const gjk2_query_input *in, const gjk2_pair *p, gjk_real max_distance,
                                    gjk2_box_answer *ans, gjk_real *tol) {
    gjk2_polygon_view va, vb;
    return polygon_views(in, p, &va, &vb, tol, GJK2_SAT_MAX_VERTICES) == POLYGON_AXES &&
           gjk2_polygon_signed(p, &va, &vb, *tol, 8 * *tol, max_distance, ans);
}

/// What first_support found.
typedef enum first_case {
    FIRST_NONE,   ///< Not taken: no convex polygon, a cached simplex, or a trace.
    FIRST_TAKEN,  ///< The walk's first point, whose plane does not show the cores apart.
    FIRST_APART,  ///< The walk's first point, whose plane shows the cores apart.
} first_case;

/// For gjk2_penetration of a convex polygon's pair whose cache is absent or
/// empty (count 0; any other count skips this),
/// before the edges' axes: the walk's first support point (along the
/// origins' offset, as gjk2_walk_run takes it) into *first. When its
/// supporting plane shows the cores apart, the walk answers from that
/// point, for less than the axes cost, which visit every edge; otherwise
/// the axes are tried and the walk, if they leave the pair to it, starts
/// from the point. Measured (callgrind, 2000 pairs of convex n-gons on
/// ellipses per band, the seven bands), apart: two triangles 2146-2966 ->
/// 1923-2118 instructions a query, 8-gons 2720-4705 -> 2347-3268, 16-gons
/// 3432-7560 -> 2820-5726; overlapping, the point is lost: triangles 2354
/// -> 2529, 8-gons 3800 -> 4105, 16-gons 6110 -> 6695. Those pairs were
/// slid along their separating direction, as the bench's are; with B
/// placed along a random direction (review), near contact the first point
/// seldom shows the cores apart (33 of 2000 8-gon pairs 1e-3 apart) and is
/// lost there too (8-gons 3467 -> 3829), the gain starting 0.1 to 0.3 of
/// the size apart.
static GJK_INLINE first_case first_support(const gjk2_query_input *in, gjk2_pair *p, const gjk2_simplex_cache *cache,
                                           gjk2_support_point *first) {
    bool convex = (p->a->type == GJK2_SHAPE_POLYGON && p->a->polygon.convex) ||
                  (p->b->type == GJK2_SHAPE_POLYGON && p->b->polygon.convex);
    if (!convex || in->options.trace != NULL || (cache != NULL && cache->count != 0)) {
        return FIRST_NONE;
    }
    gjk_vec2 d = gjk2_pair_start_direction(p);
    *first = gjk2_pair_support(p, d);
    return gjk_dot2(d, first->w) < 0 ? FIRST_APART : FIRST_TAKEN;
}

/// An answer without a simplex (a closed form, two boxes' axes): a cache
/// starts the next query fresh.
static void cache_clear(gjk2_simplex_cache *cache) {
    if (cache != NULL) {
        cache->count = 0;
    }
}

gjk2_intersect_output gjk2_intersect(const gjk2_query_input *input) {
    gjk2_intersect_output out = {GJK_INVALID_INPUT, false, 0};
    unsigned ab = closed_bits(input);
    ball_pair2 b;
    if (ball_pair_of(input, ab, &b)) {
        out.status = classify(b.core - b.ra - b.rb, b.tol);
        out.intersect = out.status != GJK_SEPARATED;
        return out;
    }
    gjk2_segment_answer sa;
    if (closed_form(input, ab, &sa)) {
        out.status = classify(sa.core - sa.ra - sa.rb, sa.tol);
        out.intersect = out.status != GJK_SEPARATED;
        return out;
    }
    gjk2_pair p;
    gjk_transform2 xa;
    if (!pair_setup(input, &p, &xa)) {
        return out;
    }
    box_view2 v;
    gjk2_pair q;
    bool moved_a;
    const gjk2_pair *bp = box_pair_view(input, &p, &q, &v, &moved_a);
    if (bp != NULL) {
        // Two boxes (or a box and a segment or capsule): their four
        // separating axes decide every pair not within the band of
        // touching; GJK decides the rest.
        gjk_status st = GJK_INVALID_INPUT;
        gjk_real tol = box_box_tolerance(bp);
        bool decided = gjk2_box_box_decide(bp, 8 * tol, &st);
        if (!decided && bp->radius > 0) {
            // Rounded boxes whose cores are apart, which the axes' lower
            // bound leaves open: the distance of gjk2_distance's path.
            gjk2_box_answer box;
            decided = gjk2_box_box_signed(bp, tol, 8 * tol, &box);
            st = decided ? classify(box.distance - bp->radius, tol) : st;
        }
        if (decided) {
            out.status = st;
            out.intersect = st != GJK_SEPARATED;
            return out;
        }
    }
    gjk2_polygon_view va, vb;
    gjk_real tol;
    polygon_case pc = bp == NULL ? polygon_views(input, &p, &va, &vb, &tol, GJK2_SAT_MAX_VERTICES) : POLYGON_NONE;
    if (pc == POLYGON_BALLS) {
        out.status = GJK_SEPARATED;
        return out;
    }
    if (pc == POLYGON_AXES) {
        // A convex polygon: the same, by its edges and the other's.
        gjk_status st = GJK_INVALID_INPUT;
        bool decided = gjk2_polygon_decide(&p, &va, &vb, 8 * tol, &st);
        if (!decided && p.radius > 0) {
            gjk2_box_answer ans;
            decided = gjk2_polygon_signed(&p, &va, &vb, tol, 8 * tol, 0, &ans);
            st = decided ? classify(ans.distance - p.radius, tol) : st;
        }
        if (decided) {
            out.status = st;
            out.intersect = st != GJK_SEPARATED;
            return out;
        }
    }
    gjk2_walk w;
    walk_setup(input, &p, NULL, &w);
    // Stop as soon as the core distance is proved beyond or within the sum
    // of the radii by more than the tolerance (at the scale seen by then).
    w.stop_beyond = p.radius;
    w.stop_within = p.radius;
    w.stop_widen = true;
    gjk_walk_end end = gjk2_walk_run(&p, &w);
    out.iterations = w.iterations;
    switch (end) {
    case GJK_WALK_APART: out.status = GJK_SEPARATED; break;
    case GJK_WALK_WITHIN: out.status = GJK_PENETRATING; break;
    case GJK_WALK_CONVERGED:
        out.status = classify(gjk_length2(w.v) - p.radius, gjk2_pair_tolerance(&p));
        break;
    case GJK_WALK_OVERLAP: {
        gjk2_epa_result epa;
        bool ran;
        out.status = resolve_overlap(input, &p, &w, &epa, &ran);
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
        out.intersect = gjk_length2(w.v) <= p.radius;
        return out;
    default: out.status = GJK_INVALID_INPUT; out.iterations = 0; return out;
    }
    out.intersect = out.status == GJK_TOUCHING || out.status == GJK_PENETRATING;
    return out;
}

/// The rounded witness points of a separated-cores answer: the core points
/// moved by their radii along n (unit, from A to B).
static void rounded_witness(const gjk2_pair *p, gjk_vec2 core_a, gjk_vec2 core_b, gjk_vec2 n, gjk_vec2 *pa,
                            gjk_vec2 *pb) {
    gjk_real ra = gjk2_core_radius(p->a), rb = gjk2_core_radius(p->b);
    *pa = gjk_mul_add2(core_a, ra, n);
    *pb = gjk_mul_add2(core_b, -rb, n);
}

/// The last line of defence of the contract: finite inputs whose
/// computation overflowed (coordinates near the largest double) give
/// GJK_INVALID_INPUT with every number zero rather than an infinity.
/// (One combined test: each x − x is 0 for finite x and NaN otherwise.)
static void finite_distance(gjk2_distance_output *o) {
    gjk_real z = (o->distance - o->distance) + (o->point_a.x - o->point_a.x) + (o->point_a.y - o->point_a.y) +
                 (o->point_b.x - o->point_b.x) + (o->point_b.y - o->point_b.y) + (o->normal.x - o->normal.x) +
                 (o->normal.y - o->normal.y);
    if (!(z == z)) {
        memset(o, 0, sizeof *o);
        o->status = GJK_INVALID_INPUT;
    }
}

static void finite_penetration(gjk2_penetration_output *o) {
    gjk_real z = (o->signed_distance - o->signed_distance) + (o->depth - o->depth) + (o->point_a.x - o->point_a.x) +
                 (o->point_a.y - o->point_a.y) + (o->point_b.x - o->point_b.x) + (o->point_b.y - o->point_b.y) +
                 (o->normal.x - o->normal.x) + (o->normal.y - o->normal.y);
    if (!(z == z)) {
        memset(o, 0, sizeof *o);
        o->status = GJK_INVALID_INPUT;
    }
}

/// The answer of a closed form: the core points moved by their radii along
/// the normal, in world frame.
static void closed_form_distance(const gjk2_segment_answer *sa, gjk2_distance_output *out) {
    gjk_real dist = sa->core - sa->ra - sa->rb;
    out->status = classify(dist, sa->tol);
    out->normal = sa->n;
    out->iterations = 0;
    if (dist > 0) {
        out->distance = dist;
        out->point_a = gjk_add2(sa->origin, gjk_mul_add2(sa->ca, sa->ra, sa->n));
        out->point_b = gjk_add2(sa->origin, gjk_mul_add2(sa->cb, -sa->rb, sa->n));
    } else {
        // One common point between the core points, within each radius.
        gjk_real t = sa->ra / (sa->ra + sa->rb); // ra + rb ≥ core > 0
        out->distance = 0;
        out->point_a = out->point_b = gjk_add2(sa->origin, gjk_add2(sa->ca, gjk_scale2(t, gjk_sub2(sa->cb, sa->ca))));
    }
}

/// gjk2_penetration's answer from a closed form.
static void closed_penetration(const gjk2_segment_answer *sa, gjk2_penetration_output *out) {
    gjk_real sd = sa->core - sa->ra - sa->rb;
    out->status = classify(sd, sa->tol);
    out->signed_distance = sd;
    out->depth = sd < 0 ? -sd : 0;
    out->point_a = gjk_add2(sa->origin, gjk_mul_add2(sa->ca, sa->ra, sa->n));
    out->point_b = gjk_add2(sa->origin, gjk_mul_add2(sa->cb, -sa->rb, sa->n));
    out->normal = sa->n;
    out->iterations = out->epa_iterations = 0;
}

/// gjk2_distance's GJK walk (and EPA's classification when the cores
/// touch): out's status and iterations, the cores' witness points *ca, *cb,
/// the normal *n (A's frame) and the rounded shapes' distance *dist (0 when
/// they overlap). False with out cleared when the input proved invalid.
static bool distance_walk(const gjk2_query_input *input, gjk2_pair *p, gjk2_simplex_cache *cache,
                          gjk2_distance_output *out, gjk_vec2 *ca, gjk_vec2 *cb, gjk_vec2 *n, gjk_real *dist) {
    gjk2_walk w;
    walk_setup(input, p, cache, &w);
    if (input->options.max_distance > 0) {
        w.stop_beyond = input->options.max_distance + p->radius;
    }
    gjk_walk_end end = gjk2_walk_run(p, &w);
    if (end == GJK_WALK_BAD_SUPPORT) {
        return false;
    }
    out->iterations = w.iterations;
    cache_store(&w.simplex, cache);
    gjk2_simplex_witness(&w.simplex, ca, cb);
    *n = gjk_v2(0, 0);
    if (end == GJK_WALK_OVERLAP) {
        gjk2_epa_result epa;
        bool ran;
        out->status = resolve_overlap(input, p, &w, &epa, &ran);
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
        *n = apart_normal(&w);
        *dist = end == GJK_WALK_APART ? w.lower - p->radius : gjk_length2(w.v) - p->radius;
        out->status = end == GJK_WALK_MAX_ITER ? GJK_NOT_CONVERGED : classify(*dist, gjk2_pair_tolerance(p));
        if (end == GJK_WALK_APART) {
            out->status = GJK_SEPARATED;
        }
    }
    return true;
}

static void distance_run(const gjk2_query_input *input, gjk2_simplex_cache *cache, gjk2_distance_output *out) {
    memset(out, 0, sizeof *out);
    out->status = GJK_INVALID_INPUT;
    gjk2_pair p;
    gjk_transform2 xa;
    if (!pair_setup(input, &p, &xa)) {
        return;
    }
    gjk_vec2 ca, cb, pa, pb, n;
    gjk_real dist, box_tol;
    gjk2_box_answer box;
    if (box_box(input, &p, true, &box, &box_tol)) {
        // Two boxes (or a box and a segment or capsule) beyond the band: the
        // axes' answer. Overlapping cores give one common point (both
        // witnesses) and no normal, as GJK's. (Convex polygons take the
        // walk: see GJK2_SAT_MAX_VERTICES.)
        cache_clear(cache);
        ca = box.a;
        cb = box.b;
        n = box.distance >= 0 ? box.normal : gjk_v2(0, 0);
        dist = box.distance - p.radius;
        out->status = classify(dist, box_tol);
    } else if (!distance_walk(input, &p, cache, out, &ca, &cb, &n, &dist)) {
        return;
    }
    if (dist > 0) {
        rounded_witness(&p, ca, cb, n, &pa, &pb);
        out->distance = dist;
    } else {
        // Overlap: one common point. With rounded shapes it lies on the
        // segment between the core points, within each radius of its core.
        gjk_real t = p.radius > 0 ? gjk2_core_radius(p.a) / p.radius : GJK_R(0.5);
        pa = pb = gjk_add2(ca, gjk_scale2(t, gjk_sub2(cb, ca)));
        out->distance = 0;
    }
    out->point_a = gjk_transform2_point(xa, pa);
    out->point_b = gjk_transform2_point(xa, pb);
    out->normal = gjk_rot2_apply(xa.rotation, n);
}

/// Fills the penetration answer (world) from the cores' witness points ca,
/// cb and the unit normal n (A's frame) and the signed distance sd of the
/// rounded shapes, classified with tol.
static void penetration_answer(const gjk2_pair *p, gjk_transform2 xa, gjk_vec2 ca, gjk_vec2 cb, gjk_vec2 n,
                               gjk_real sd, gjk_real tol, gjk2_penetration_output *out) {
    gjk_vec2 pa, pb;
    rounded_witness(p, ca, cb, n, &pa, &pb);
    out->status = classify(sd, tol);
    out->signed_distance = sd;
    out->depth = sd < 0 ? -sd : 0;
    out->point_a = gjk_transform2_point(xa, pa);
    out->point_b = gjk_transform2_point(xa, pb);
    out->normal = gjk_rot2_apply(xa.rotation, n);
}

/// The penetration query; with max_distance > 0 the walk may stop once the
/// shapes are proved farther apart than that (GJK_SEPARATED with a lower
/// bound on the distance, as gjk_distance's options.max_distance).
static void penetration_run(const gjk2_query_input *input, gjk2_simplex_cache *cache, gjk_real max_distance,
                            gjk2_penetration_output *out) {
    memset(out, 0, sizeof *out);
    out->status = GJK_INVALID_INPUT;
    gjk2_pair p;
    gjk_transform2 xa;
    if (!pair_setup(input, &p, &xa)) {
        return;
    }
    gjk2_box_answer box;
    gjk_real box_tol;
    gjk2_support_point first;
    first_case fc = first_support(input, &p, cache, &first);
    if (box_box(input, &p, false, &box, &box_tol) ||
        (fc != FIRST_APART && polygon_axes(input, &p, max_distance, &box, &box_tol))) {
        cache_clear(cache);
        penetration_answer(&p, xa, box.a, box.b, box.normal, box.distance - p.radius, box_tol, out);
        return;
    }
    gjk2_walk w;
    walk_setup(input, &p, cache, &w);
    if (fc != FIRST_NONE) {
        w.simplex.v[0] = first; // the walk's own first point (cache empty)
        w.simplex.count = 1;
    }
    if (max_distance > 0) {
        w.stop_beyond = max_distance + p.radius;
    }
    gjk_walk_end end = gjk2_walk_run(&p, &w);
    if (end == GJK_WALK_BAD_SUPPORT) {
        return;
    }
    cache_store(&w.simplex, cache);

    gjk_vec2 ca, cb, n;
    gjk_real sd;
    bool converged = end != GJK_WALK_MAX_ITER;
    if (end == GJK_WALK_OVERLAP) {
        int max_epa = input->options.max_epa_iterations > 0 ? input->options.max_epa_iterations
                                                             : GJK_DEFAULT_MAX_EPA_ITERATIONS;
        gjk2_epa_result epa;
        if (!gjk2_epa_run(&p, &w.simplex, max_epa, 0, &epa)) {
            return;
        }
        out->epa_iterations = epa.iterations;
        converged = epa.converged;
        ca = epa.point_a;
        cb = epa.point_b;
        n = epa.normal;
        sd = 0 - (epa.depth + p.radius); // 0 − x: never −0
    } else {
        gjk2_simplex_witness(&w.simplex, &ca, &cb);
        gjk_real core = gjk_length2(w.v);
        n = apart_normal(&w);
        // Stopped early: the lower bound, proved beyond max_distance.
        sd = end == GJK_WALK_APART ? w.lower - p.radius : core - p.radius;
    }
    penetration_answer(&p, xa, ca, cb, n, sd, gjk2_pair_tolerance(&p), out);
    if (!converged) {
        out->status = GJK_NOT_CONVERGED;
    }
    if (end == GJK_WALK_APART) {
        out->status = GJK_SEPARATED;
    }
    out->iterations = w.iterations;
}

// The outputs are written in place (the caller's return slot) rather than
// returned through each layer: a tiny query's time is mostly such copies.
gjk2_distance_output gjk2_distance(const gjk2_query_input *input, gjk2_simplex_cache *cache) {
    gjk2_distance_output out;
    unsigned ab = closed_bits(input);
    ball_pair2 b;
    gjk2_segment_answer sa;
    if (ball_pair_of(input, ab, &b)) {
        cache_clear(cache);
        gjk_real dist = b.core - b.ra - b.rb;
        out.status = classify(dist, b.tol);
        out.normal = b.n;
        out.iterations = 0;
        if (dist > 0) {
            out.distance = dist;
            out.point_a = gjk_mul_add2(b.pa, b.ra, b.n);
            out.point_b = gjk_mul_add2(b.pb, -b.rb, b.n);
        } else {
            // One common point, between the centres within each radius
            // (ra + rb ≥ |off| > 0).
            out.distance = 0;
            out.point_a = out.point_b = gjk_mul_add2(b.pa, b.ra / (b.ra + b.rb), b.off);
        }
    } else if (closed_form(input, ab, &sa)) {
        cache_clear(cache);
        closed_form_distance(&sa, &out);
    } else {
        distance_run(input, cache, &out);
    }
    finite_distance(&out);
    return out;
}

/// gjk2_penetration and gjk2_penetration_bounded.
static gjk2_penetration_output penetration_query(const gjk2_query_input *input, gjk2_simplex_cache *cache,
                                                 gjk_real max_distance) {
    gjk2_penetration_output out;
    unsigned ab = closed_bits(input);
    ball_pair2 b;
    gjk2_segment_answer sa;
    if (ball_pair_of(input, ab, &b)) {
        cache_clear(cache);
        gjk_real sd = b.core - b.ra - b.rb;
        out.status = classify(sd, b.tol);
        out.signed_distance = sd;
        out.depth = sd < 0 ? -sd : 0;
        out.point_a = gjk_mul_add2(b.pa, b.ra, b.n);
        out.point_b = gjk_mul_add2(b.pb, -b.rb, b.n);
        out.normal = b.n;
        out.iterations = out.epa_iterations = 0;
    } else if (closed_form(input, ab, &sa)) {
        cache_clear(cache);
        closed_penetration(&sa, &out);
    } else {
        penetration_run(input, cache, max_distance, &out);
    }
    finite_penetration(&out);
    return out;
}

gjk2_penetration_output gjk2_penetration(const gjk2_query_input *input, gjk2_simplex_cache *cache) {
    // (A NULL input, or an invalid max_distance, is reported by the query.)
    return penetration_query(input, cache, input != NULL ? input->options.max_distance : 0);
}

gjk2_penetration_output gjk2_penetration_bounded(const gjk2_query_input *input, gjk2_simplex_cache *cache,
                                               gjk_real max_distance) {
    return penetration_query(input, cache, max_distance);
}

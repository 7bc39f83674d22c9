// The ends of a GJK walk where rounding has a say (the walk itself is in
// gjk.c). Near contact, or on slivers and needles, a step can bring no
// progress while the duality gap is still above the tolerance, a
// tetrahedron can enclose the origin that the walk's bound excludes, or the
// simplex can come within the tolerance of the origin with no certificate
// of its normal. Each such end is decided here, with the support calls
// that check its normal: a face of D through a stalled segment
// (stalled_segment_face), the direction square to the segment
// (square_step), a needle's triangle solved in its own frame
// (needle_nearer), the simplex kept at the least |v| (gjk_walk_nearer_of),
// and the bounds that make a stall an answer (gjk_walk_stalled_end). Rare
// steps, each found by a fuzz finding or a review (the comments say which):
// kept out of the loop, whose common steps they would slow.

#include "walk_end.h"

/// The end of a walk that stalls on a segment a–b (its new point w brought
/// no progress, or was a or b again) with its duality gap still above the
/// tolerance. Near contact v̂ is turned by about ε·|p| / |v| (v = a + t·(b − a)
/// cancels): a point 1e-10 below the base of a cone of radius 5.5 got a
/// normal 1.8e-6 off and a gap along it of −1.3e-5 (fuzz findings f29 and,
/// with w = b, f33). D's feature there is often a face through a–b: the
/// normal n̂ of a triangle a, b, c is made of vertex differences and does
/// not depend on |v|. A candidate c is taken when v lies along n̂ within
/// the tolerance, and checked by one support call q along −n̂, which bounds
/// D's distance along n̂ by n̂·q; the best bound wins if it beats v̂'s own,
/// `lower` (it is also the gap along the normal that a user measures), and
/// the first within the tolerance of |v| ends the search. The candidates:
/// w; after a checked plane, its q; after a degenerate or leaning
/// triangle, a probe, the support point along −v̂ tipped by 2^-8 toward
/// ±û (û ⊥ a–b and v), which on a face through a–b is that face's vertex
/// farthest to that side. Six support calls at most. c joins the simplex
/// with weight 0 (the closest point and the witnesses do not change) and
/// the triangle gives the normal (gjk_simplex_direction). Rare: on that
/// stall only. True when a plane proved the distance within the tolerance.
static GJK_NOINLINE bool stalled_segment_face(gjk_pair *pair, gjk_simplex *s, const gjk_support_point *w, gjk_vec3 v,
                                              gjk_real vlen, gjk_real lower, gjk_real tol) {
    gjk_vec3 a = s->v[0].w, e = gjk_sub(s->v[1].w, a);
    gjk_vec3 vhat = gjk_scale(1 / vlen, v);
    gjk_vec3 tip = gjk_scale(GJK_R(1.0) / 256, gjk_normalize(gjk_cross(e, v)));
    gjk_support_point c = *w, best = *w;
    gjk_real best_lower = lower;
    bool found = false;
    int probes = 0;
    for (int calls = 0; calls < 6;) {
        gjk_vec3 n = gjk_normalize(gjk_cross(e, gjk_sub(c.w, a)));
        gjk_real nv = gjk_dot(n, v);
        if (nv < 0) {
            n = gjk_neg(n), nv = -nv;
        }
        // v must lie along n within the tolerance, as the witnesses (which
        // v gives) must: a plane through the segment that merely passes
        // within the tolerance of v may lean by √(2·tol/|v|), and near a
        // cylinder's rim, with tolerance 1e-14, its normal was 4.5e-4 off
        // and point_b − point_a missed distance·normal by 500 tolerances.
        gjk_support_point q;
        if (nv > 0 && gjk_length(gjk_sub(v, gjk_scale(nv, n))) <= tol) {
            q = gjk_pair_support(pair, gjk_neg(n));
            ++calls;
            if (pair->bad_support) {
                break;
            }
            gjk_real bound = gjk_dot(n, q.w);
            if (bound > best_lower) {
                best_lower = bound, best = c, found = true;
            }
            if (vlen - bound <= tol) {
                break;
            }
            if (!gjk_simplex_has(s, q.w)) {
                c = q;
                continue;
            }
        }
        // A degenerate triangle (n = 0: c on the line a–b), one that leans,
        // or a plane whose check came back to a or b: the next probe.
        if (probes == 2) {
            break;
        }
        gjk_vec3 side = probes++ == 0 ? tip : gjk_neg(tip);
        c = gjk_pair_support(pair, gjk_sub(side, vhat));
        ++calls;
        if (pair->bad_support) {
            break;
        }
    }
    pair->bad_support = false; // a refused point: the answer stands without this check
    if (found) {
        s->v[2] = best;
        s->lambda[2] = 0;
        s->count = 3;
    }
    return found && vlen - best_lower <= tol;
}

gjk_real gjk_pair_bound_along(gjk_pair *pair, gjk_vec3 d) {
    gjk_real dl = gjk_length(d);
    if (!(dl > 0)) {
        return -GJK_REAL_MAX;
    }
    gjk_support_point q = gjk_pair_support(pair, gjk_neg(d));
    gjk_real b = pair->bad_support ? -GJK_REAL_MAX : gjk_dot(d, q.w) / dl;
    pair->bad_support = false;
    return b;
}

/// The bound on the cores' distance along the normal the queries report at
/// v (the simplex's direction: a triangle's own normal, not v̂, where v is
/// tiny), from one support call (gjk_pair_bound_along).
static gjk_real normal_bound(gjk_pair *pair, const gjk_walk *walk, gjk_vec3 v) {
    return gjk_pair_bound_along(pair, gjk_simplex_direction(&walk->simplex, v));
}

/// The lower bound on the cores' distance that a support point w gives
/// along its own direction d: D lies behind the plane through w normal to
/// d, so the origin is at least −d̂·w from it. −MAX when the point bounds
/// nothing (one rebuilt from a cache's hull vertex) or |d|² is out of
/// range. (The walk's start computes the same bound in line: through this
/// function there, 18 more instructions a query between ellipsoids, from
/// the code's layout.)
static GJK_INLINE gjk_real support_bound(const gjk_support_point *p) {
    gjk_real dd = gjk_length_sq(p->d);
    if (!(p->bounds && dd > GJK_SQUARE_MIN && dd < GJK_SQUARE_MAX)) {
        return -GJK_REAL_MAX;
    }
    return -gjk_dot(p->d, p->w) / gjk_sqrt(dd);
}

/// Whether a walk whose bound proved the cores apart (walk->lower > 0) may
/// end at v along the normal the queries will report (the simplex's
/// direction): one support call against it must bound the distance along
/// it within the tolerance of |v|, so that it is a normal of the answer.
/// Else the walk ends as an overlap and EPA decides. Asked where a simplex
/// came within the tolerance of the origin, which would end as touching
/// without a certificate of its normal: a point 1.7e-304 from a triangle's
/// vertex had v along the offset, which no face of the triangle faces (its
/// gap along v̂ −1.25; fuzz seed 938). Rare: only at such ends.
static GJK_NOINLINE bool normal_holds(gjk_pair *pair, const gjk_walk *walk, gjk_vec3 v, gjk_real tol) {
    return walk->lower > 0 && normal_bound(pair, walk, v) >= gjk_length(v) - tol;
}

/// The best bound's direction as the normal of a stalled end at p, whose
/// simplex direction bounds the distance only by `along`, short of |p|:
/// the gap along that direction is the bound walk->lower, and the witness
/// points stay the simplex's, |p| apart along −p̂ (from A to B, as l̂), so
/// the direction costs their offset, |p|·|l̂ + p̂|, as well. It is taken
/// (into walk->normal, and true) where its two errors together are less
/// than the gap the simplex's direction falls short by. (Taken whenever
/// that gap fell short, a custom shape 4.15 from a point stalled with the
/// two 1.5e-5 rad apart, and the witness points missed distance × normal
/// by 6.3e-5: fuzz seed 1059.)
static bool bound_normal(gjk_walk *walk, gjk_vec3 p, gjk_real along) {
    gjk_real plen = gjk_length(p);
    if (!(along < walk->lower) || !(gjk_length_sq(walk->lower_dir) > 0)) {
        return false;
    }
    gjk_vec3 l = gjk_normalize(walk->lower_dir), ph = gjk_normalize(p);
    if (!((plen - walk->lower) + plen * gjk_length(gjk_add(l, ph)) < plen - along)) {
        return false;
    }
    walk->normal = l;
    return true;
}

/// The end of a walk that stalled with its gap above the tolerance, at the
/// simplex's closest point v: v made accurate (gjk_simplex_polish: on a
/// sliver triangle Σ λ p can be off by far more than the tolerance), and
/// the cores taken to touch when that comes within the tolerance. A point
/// 1e-11 from a sliver whose plane passed 4.6e-15 from the origin had a
/// warm walk stall as "apart" by 1.3e-11 with the tolerance at 5e-14, its
/// normal the wrong way round (a time of impact missed its contact, f34).
gjk_walk_end gjk_walk_stalled_end(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, gjk_vec3 w) {
    // A polished point nearer than the walk's lower bound contradicts the
    // proof: v stays as the walk found it (f37, tolerance 5.6e-92: the
    // polish gave 0 where the cores were proved apart).
    gjk_vec3 p = gjk_simplex_polish(&walk->simplex, v);
    if (!(gjk_length(p) >= walk->lower)) {
        p = v;
    }
    walk->polished = (p.x != v.x) | (p.y != v.y) | (p.z != v.z);
    walk->v = p;
    gjk_real tol = gjk_pair_tolerance(pair);
    if (walk->lower > tol) {
        // Proved apart: no overlap, whatever rounding suggests. The normal
        // the queries report, the simplex's direction, stands where one
        // support call bounds the distance along it within the tolerance
        // of |p|; else the best bound's direction may serve, along which
        // the gap is that bound. (A warm float walk between a cone and a
        // user polytope 7.8e-6 apart stalled after 29 steps, and the
        // simplex's direction was 60° off: the shapes overlapped by 1.65
        // along it; review of 13c34cd.) The witness points stay the
        // simplex's, |p| apart along −p̂ (from A to B, as l̂), so that
        // direction costs their offset, |p|·|l̂ + p̂|, as well: it is taken where
        // its two errors together are less than the gap the simplex's
        // direction falls short by. (Taken whenever that gap fell short,
        // a custom shape 4.15 from a point stalled with the two 1.5e-5 rad
        // apart, and the witness points missed distance × normal by
        // 6.3e-5: fuzz seed 1059.)
        gjk_real along = normal_bound(pair, walk, p);
        if (along < gjk_length(p) - tol) {
            (void)bound_normal(walk, p, along);
        }
        return GJK_WALK_CONVERGED;
    }
    // The last support point w and a triangle may also enclose the origin,
    // which the tetrahedron's solve can miss on a sliver: a warm walk 1e-13
    // inside an ellipsoid met by a cone (tolerance 5e-14) stalled so and
    // answered "apart by 1e-13" with the normal reversed (f35).
    if (gjk_length(p) <= tol || gjk_simplex_encloses(&walk->simplex, w)) {
        // Within the tolerance of the origin after a bound proved the
        // cores apart (by less than the tolerance): they touch, as at the
        // top of the walk's loop, where the normal holds (normal_holds);
        // EPA would start from a polytope that may not enclose the origin.
        return gjk_length(p) <= tol && normal_holds(pair, walk, p, tol) ? GJK_WALK_CONVERGED : GJK_WALK_OVERLAP;
    }
    // Not proved apart, |p| beyond the tolerance: the stall is taken as
    // rounding (within eight margins of the bound, or on a support point
    // the simplex has already: gjk_walk_no_progress), but the normal the queries
    // will report must not be plainly wrong: one support call along it
    // must bound the distance within those margins of |p|, plus the
    // accuracy of normals on curved surfaces, √(2·tolerance) of the size
    // (README, "Tolerances"), so that only gross failures go: there the
    // best bound's direction serves where that bound is within the slack,
    // and EPA decides where it is not. (With the margins alone, at a
    // tolerance of 1e-14 ten of 60,000 random pairs about 1e-12 apart
    // whose normals fell 1e-12 to 1e-11 short came out touching, and five
    // about 1e-12 deep called apart came out penetrating.) (On a segment
    // the queries report the direction square to it instead where that
    // bounds better: query.c, apart_normal.) A needle ellipsoid 1.1e-13
    // thick against an ellipsoid (tolerance 1e-14) stalled on a triangle
    // of two points near the origin and one 12 away, its bound at 0, and
    // the answer was "apart by 2.6e-13" along a normal reversed (B's point
    // 2.6e-13 inside A): the shapes overlapped by 5.74 along it (fuzz seed
    // 1079).
    if (walk->simplex.count != 2) {
        gjk_real along = normal_bound(pair, walk, p);
        gjk_real slack = 8 * gjk_pair_apart_margin(pair, 0) + gjk_sqrt(2 * pair->rel_tol) * (pair->scale + pair->radius);
        if (!(along >= gjk_length(p) - slack) && !bound_normal(walk, p, along)) {
            return GJK_WALK_OVERLAP;
        }
    }
    return GJK_WALK_CONVERGED;
}

/// The end of a stalled walk: the simplex s with closest point v, or the
/// one kept at the walk's least |v| (`start`, when a stall began there) if
/// that is nearer by more than `margin` (the bounds' rounding), copied
/// into s. Returns the closest point of the simplex chosen. (Keeping the
/// current one where gjk_walk_stalled_end would polish it to within the tolerance
/// made 88 of 873,600 float poses touching that the kept simplex answers
/// separated by up to 8e-6, 2.3 tolerances; but some of those walks, their
/// cores apart, then ended as overlaps, and EPA answered not converged,
/// 1.9 deep: not taken.)
gjk_vec3 gjk_walk_nearer_of(gjk_simplex *s, const gjk_simplex *start, gjk_vec3 v, gjk_real margin) {
    if (start->count == 0) {
        return v;
    }
    gjk_vec3 u = gjk_v3(0, 0, 0);
    for (int m = 0; m < start->count; ++m) {
        u = gjk_mul_add(u, start->lambda[m], start->v[m].w);
    }
    if (!(gjk_length(u) + margin < gjk_length(v))) {
        return v;
    }
    *s = *start;
    return u;
}


/// The end of a walk whose plain step made a tetrahedron around the origin
/// that the walk's bound contradicts (gjk_walk_bound_excludes_origin; a secant
/// step's is a miss): its new point, last (the solve keeps the order; a
/// walk's first tetrahedron, from a cache, comes before any bound), is
/// dropped, and the walk ends as stalled, from the triangle before it or
/// the simplex kept at the least |v| (gjk_walk_nearer_of). The bound proves the
/// cores apart beyond the tolerance (the margin is at least the
/// tolerance), so the answer is "separated" at that |v|, its normal the
/// best-bounded of the simplex's direction and the tetrahedron's points'
/// directions (walk->normal when it is one of these). (Solving each
/// face with the new point on its own instead, and walking on from the
/// nearest that the bound allows, was tried: on 78,800 poses of 14 shapes,
/// in float and in double at a tolerance of 1e-12, its walks wandered near
/// contact and more normals came out worse than before the change than
/// better; ending here, more came out better. Ending a secant step's so
/// too, rather than missing it, turned one warm float normal 1.2e-3 off.)
static GJK_NOINLINE gjk_walk_end excluded_enclosure_end(gjk_pair *pair, gjk_walk *walk, const gjk_simplex *start) {
    gjk_simplex *s = &walk->simplex, tetra = *s;
    s->count = 3;
    gjk_vec3 v = gjk_simplex_solve(s);
    // Converged: gjk_walk_stalled_end's bound above the tolerance (the margin is at
    // least the tolerance).
    gjk_walk_end end = gjk_walk_stalled_end(pair, walk, gjk_walk_nearer_of(s, start, v, gjk_pair_apart_margin(pair, 0)), tetra.v[3].w);
    // The normal: the simplex's direction where it holds within the
    // tolerance of |v| (normal_bound), else the direction, of those that
    // found the tetrahedron's points, whose bound is the best, where that
    // beats it (review finding: a box and a cylinder 1.95e-6 apart, float,
    // warm, were answered apart along the simplex's direction with the gap
    // −4.6e-5 along it, 25 tolerances). The status stays "apart": the
    // bound proves it, and gjk_intersect says so too.
    gjk_real dir_bound = normal_bound(pair, walk, walk->v);
    if (dir_bound >= gjk_length(walk->v) - gjk_pair_tolerance(pair)) {
        return end;
    }
    for (int m = 0; m < 4; ++m) {
        gjk_real b = support_bound(&tetra.v[m]);
        if (b > dir_bound) {
            dir_bound = b;
            walk->normal = gjk_normalize(tetra.v[m].d);
        }
    }
    return end;
}

/// The end of a walk whose simplex reached the origin: a tetrahedron around
/// it, or a closest point v within the tolerance. A tetrahedron that the
/// bound excludes is rounding: the walk ends as stalled
/// (excluded_enclosure_end). Within the tolerance of the origin after a
/// bound proved the cores apart, they touch, where the normal the queries
/// report holds (normal_holds); else EPA decides. (Where it does not
/// hold, EPA may meet a polytope that does not enclose the origin.) Out of
/// the loop: rare, and its code there slowed the common steps.
gjk_walk_end gjk_walk_origin_reached(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, gjk_real tol,
                                                const gjk_simplex *start) {
    if (walk->simplex.count == 4) {
        return gjk_walk_bound_excludes_origin(pair, walk) ? excluded_enclosure_end(pair, walk, start) : GJK_WALK_OVERLAP;
    }
    return normal_holds(pair, walk, v, tol) ? GJK_WALK_CONVERGED : GJK_WALK_OVERLAP;
}

/// The triangle s->v[0..2] solved in its own frame (gjk_simplex_needle_solve)
/// and taken, its closest point into *v_new, where that is nearer than
/// `below`; else s is left as it was. (The walk's stalls on needles, f68.)
static bool needle_nearer(gjk_simplex *s, gjk_real below, gjk_vec3 *v_new) {
    gjk_simplex before = *s;
    gjk_vec3 foot;
    if (gjk_simplex_needle_solve(s, &foot) && gjk_length(foot) < below) {
        *v_new = foot;
        return true;
    }
    *s = before;
    return false;
}

/// A segment's stall taken again along v's part square to the segment. On a
/// segment much longer than |v|, v = a + t·e carries ε·|e| of rounding along
/// e, which turns its direction by ε·|e|/|v|; where D's face beyond the
/// segment leans by less than that, the support point along the turned
/// direction is the segment's own end again and the walk stopped, apart by
/// |v| with nothing to prove it: two unit cylinders whose caps overlapped
/// by 2.2e-8, their axes 3.2e-8 rad apart, came out apart by 4.7e-9 (55
/// tolerances; curved-shapes review). Square to e the direction keeps only
/// the rounding of v across e. True when its support point is new and the
/// simplex with it came nearer (*v_new; the walk goes on), else false, the
/// simplex perhaps changed (gjk_walk_no_progress puts back its own). Asked by
/// gjk_walk_no_progress when no face proved the distance (stalled_segment_face
/// first: below a cone's base, taken first, the walk went on and its normal
/// came out up to 1.3e-5 off where the face gives it exactly), with need 0
/// where w was the segment's own end and the tolerance where it was new (a
/// needle's far end, past the segment's end on its line, found by v̂
/// turned along the needle: f68). Where the signed-area solve of the
/// triangle with the new point comes no nearer by the tolerance, its own
/// frame's solve is asked too (gjk_simplex_needle_solve).
///
/// `need`: how much nearer than |v| the new simplex must come (0: at all).
///
/// With tip ≠ 0, u leans by tip times its length along ê (and the search
/// direction −u the other way): along v (or square to e), the support
/// point is a tie along an edge of D parallel to the segment, and rounding
/// picks its end; the lean picks the other. A float quad and triangle
/// 1.8e-6 apart, edge over face, stalled on a segment 1.25e-4 away along
/// such an edge, whose far end came back every time and whose near end
/// (past the origin's foot) never did: apart by 1.25e-4, 68 times the
/// distance (hull review, test_float_stall_along_parallel_edge).
static GJK_NOINLINE bool square_step(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, gjk_real vlen, gjk_real tip,
                                     gjk_real need, gjk_vec3 *v_new) {
    gjk_simplex *s = &walk->simplex;
    gjk_vec3 e = gjk_sub(s->v[1].w, s->v[0].w);
    gjk_real ee = gjk_length_sq(e);
    if (!(ee > GJK_SQUARE_MIN && ee < GJK_SQUARE_MAX)) {
        return false;
    }
    gjk_vec3 u = gjk_mul_add(v, -gjk_dot(v, e) / ee, e);
    gjk_real uu = gjk_length_sq(u);
    if (!(uu > GJK_SQUARE_MIN && uu < GJK_SQUARE_MAX)) {
        return false;
    }
    if (tip != 0) {
        // û + tip·ê, scaled by |u|.
        u = gjk_mul_add(u, tip * gjk_sqrt(uu / ee), e);
        uu = gjk_length_sq(u);
    }
    gjk_support_point q = gjk_pair_support(pair, gjk_neg(u));
    if (pair->bad_support) {
        pair->bad_support = false; // a refused point: the stall's answer stands
        return false;
    }
    gjk_real bound = gjk_dot(u, q.w) / gjk_sqrt(uu);
    walk->lower_dir = bound > walk->lower ? q.d : walk->lower_dir;
    walk->lower = gjk_max(bound, walk->lower);
    if (gjk_simplex_has(s, q.w)) {
        return false;
    }
    gjk_real below = gjk_max(vlen - need, 0), tol = gjk_pair_tolerance(pair);
    gjk_simplex segment = *s;
    bool added = gjk_simplex_try_add(s, &q, vlen * vlen, v_new, NULL);
    if (added && gjk_length(*v_new) < vlen - tol) {
        return true;
    }
    // The triangle with q may be a needle, whose signed-area solve slid its
    // foot along it and came back no nearer than the segment (or nearer by
    // rounding): its own frame's solve, taken where it comes nearer by more
    // than the tolerance (fuzz/findings f68: a needle 2.1e-9 thick lying on
    // a hull's vertex, 2e-10 deep, stalled on its edge "apart by 2.95e-9").
    gjk_simplex tried = *s;
    *s = segment;
    s->v[2] = q;
    if (needle_nearer(s, vlen - tol, v_new)) {
        return true;
    }
    *s = tried;
    return added && gjk_length_sq(*v_new) < below * below;
}

/// A plain step that brought no progress: converged (the gap within the
/// tolerance), or w is a point of the simplex again, or its simplex came
/// out no nearer, and rounding has taken over. Returns true with the
/// walk's end in *end, or false, the step taken as a stall, with the new
/// closest point in *v_new (and the simplex before it in *start when
/// `keep`: the walk is at its least |v|). Kept out of the walk's loop.
///
/// When the gap is still above the tolerance, a segment's normal may come
/// from a face (stalled_segment_face, which keeps v along it within the
/// tolerance), and only where v̂'s rounding, ε·L/|v| over a lever L, can
/// exceed the tolerance: elsewhere v̂ is exact enough and the search would
/// only cost support calls (on a curved user shape 4.2 away it once parted
/// the normal from the witnesses by 7e-5, f31). The end is a stall
/// (gjk_walk_stalled_end, from the kept simplex when that is nearer),
/// unless the walk is far from its answer (eight tolerances, and never
/// less than eight times the bounds' rounding: a stall within a few is
/// rounding) and no face proved it: then the new point is taken all the
/// same, as a stall. A point far to the side of a segment that lies
/// nearly along D's face tilts the triangle's plane by little and brings
/// it nearer by less than the rounding, yet that plane's normal is the
/// next direction: in float a cylinder and a box 2.4e-6 apart stalled so
/// on a segment 8.3e-4 away (its new point 1.4 to the side and 9e-4 past
/// the origin), and the answer was 8.3e-4. Where the gap is over half of
/// |v| the triangle is kept with w at weight 0 (the closest point and the
/// witnesses stay), as the solve itself may drop w: from a segment 7.4e-5
/// from the origin, a cone's point 1 to the side improved |v|² by 1e-17 of
/// itself. Nearer the answer the solve decides: near a box's edge at a
/// tolerance of 1e-14 the kept triangle's later steps turned the normal by
/// 80 tolerances. (After a face search the simplex is the triangle of its
/// best plane, with v unchanged: its normal serves.)
///
/// Needles (f68): the triangle of a segment and w, or the stalled
/// triangle itself, may be a needle's, whose signed areas slid its point
/// along it; before the stall is taken, that triangle is solved in its own
/// frame (gjk_simplex_needle_solve), and the walk goes on from its answer
/// where that is nearer by more than the tolerance (any such point is a
/// point of D, so |v| stays an upper bound).
bool gjk_walk_no_progress(gjk_pair *pair, gjk_walk *walk, const gjk_support_point *p, gjk_vec3 v,
                                     gjk_real vlen, gjk_real lower, gjk_real tol, gjk_simplex *start, bool keep,
                                     gjk_vec3 *v_new, gjk_walk_end *end) {
    gjk_simplex *s = &walk->simplex;
    gjk_real gap = vlen - lower;
    bool repeated = gjk_simplex_has(s, p->w); // (before a face search changes s)
    bool stalled = gap > tol, proved = false;
    gjk_real margin = gjk_pair_apart_margin(pair, 0);
    gjk_real L = pair->scale;
    if (stalled && s->count == 2 && vlen * tol < 16 * GJK_REAL_EPSILON * L * L) {
        gjk_simplex segment = *s;
        if (!repeated) {
            // The triangle with w in its own frame (gjk_simplex_needle_solve):
            // a needle's signed areas may have sent the walk back here.
            s->v[2] = *p;
            if (needle_nearer(s, vlen - tol, v_new)) {
                if (keep) {
                    *start = segment;
                }
                return false;
            }
        }
        proved = stalled_segment_face(pair, s, p, v, vlen, lower, tol);
        if (!proved) {
            // The direction square to the segment (where w was new, taken
            // only if it brings |v| down by more than the tolerance); then,
            // far from the answer (eight tolerances), that direction leaning
            // away from w's side along the segment, taken if it brings |v|
            // down by more than the tolerance (by less, rounding: a float
            // quad and box 1.53 apart went on so, |v| the same to 9 digits,
            // and the normal came out turned by 26 tolerances of gap, review).
            gjk_simplex searched = *s;
            gjk_vec3 e = gjk_sub(segment.v[1].w, segment.v[0].w);
            gjk_real side = gjk_dot(gjk_sub(p->w, v), e) > 0 ? 1 : -1; // w's, along e
            *s = segment;
            if (square_step(pair, walk, v, vlen, 0, repeated ? 0 : tol, v_new)) {
                return false;
            }
            *s = segment;
            if (gap > 8 * margin && square_step(pair, walk, v, vlen, side / 256, tol, v_new)) {
                return false;
            }
            *s = searched;
        }
    }
    if (stalled && s->count == 3 && vlen * tol < 16 * GJK_REAL_EPSILON * L * L) {
        // The triangle's own point may be a needle's signed areas' (see
        // gjk_simplex_needle_solve): its own frame's, where nearer. (Where
        // the segment's search runs too: near enough that rounding of the
        // order of ε·L²/|v| can exceed the tolerance.)
        gjk_simplex triangle = *s;
        if (needle_nearer(s, vlen - tol, v_new)) {
            if (keep) {
                *start = triangle;
            }
            return false;
        }
    }
    if (!stalled || proved || gap <= 8 * margin || repeated) {
        *end = stalled ? gjk_walk_stalled_end(pair, walk, proved ? v : gjk_walk_nearer_of(s, start, v, margin), p->w) : GJK_WALK_CONVERGED;
        return true;
    }
    if (keep) {
        *start = *s;
    }
    if (s->count == 2 && gap > GJK_R(0.5) * vlen) {
        s->v[2] = *p;
        s->lambda[2] = 0;
        s->count = 3;
        *v_new = v;
    } else if (s->count == 3) {
        *v_new = v;
    } else {
        gjk_simplex_try_add(s, p, GJK_REAL_MAX, v_new, NULL);
    }
    return false;
}


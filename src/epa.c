// The Expanding Polytope Algorithm: the penetration depth of two overlapping
// cores.
//
// The depth is the distance from the origin to the boundary of D = A − B
// (the origin lies inside D). EPA keeps a convex polytope inside D that
// contains the origin, takes its face nearest to the origin, and asks D for
// its support point w along that face's normal n. The face's distance is a
// lower bound of the depth and w·n an upper bound; when they meet within
// the tolerance the face is the answer. Otherwise w is added: the faces that
// see w are removed, and the hole's rim (the horizon) is joined to w.
// (van den Bergen, "Proximity queries and penetration depth computation on 3D
// game objects", GDC 2001, and his book "Collision Detection in
// Interactive 3D Environments", 2003.)
//
// Everything lives in fixed-size arrays on the stack. This file holds the
// run and its answer; the polytope and its expansion step are in
// epa_hull.c (faces linked to their neighbours, the visible region found by
// a flood fill, each step's new faces checked before it is committed), the
// starting polytope in epa_start.c, and the halo steps on curved D in
// epa_halo.c. A step that fails its checks is undone and the current
// nearest face is returned (or, where that leaves EPA short of its
// tolerance, not converged with the best upper bound on the depth).
#include "epa_hull.h"

/// The exponent by which EPA scales D's points (w·2^−shift): that of the
/// largest of the pair's size and the simplex's coordinates, when it is
/// huge or tiny (gjk_range_shift), else 0. A face's normal and area are
/// quadratic in the coordinates: gjk_epa_face_plane's slow path normalises
/// a cross product that is still finite, but across the largest numbers the edges
/// themselves overflow (an ellipsoid of radius 1.8e308 left EPA with no
/// direction at all, boxes of size 2^510 with no face of any area, which
/// read as touching). Scaled near 1 they do not, and scaling by a power of
/// two is exact, so ordinary sizes are solved as before and the others as
/// their scaled copies.
static int choose_shift(const gjk_pair *pair, const gjk_simplex *s) {
    gjk_real m = pair->scale;
    for (int i = 0; i < s->count; ++i) {
        m = gjk_max(m, gjk_max_abs(s->v[i].w));
    }
    int shift = gjk_range_shift(m);
    if (shift < 0) {
        // Scaling up: the points seen so far may be far smaller than those
        // EPA is yet to meet (a flat polytope of thickness 2^−520 and width
        // 1, whose first vertex, all a polytope's size counts, is on the
        // thin side: its unit points, scaled by 2^520, overflowed, and a
        // point inside got the normal along its width). Bounded by the
        // pair's whole extent (rare: only tiny pairs come here).
        m = gjk_max(m, gjk_max_abs(pair->pos_b) + gjk_shape_bound(pair->a) + gjk_shape_bound(pair->b));
        shift = gjk_range_shift(m);
    }
    return shift;
}

/// w·2^−shift, exactly (but for underflow).
static gjk_vec3 shifted(gjk_vec3 w, int shift) {
    return gjk_v3(gjk_ldexp(w.x, -shift), gjk_ldexp(w.y, -shift), gjk_ldexp(w.z, -shift));
}

/// The witness points of a point x of the polytope's boundary on (or, by
/// rounding, beside) face `first`: the barycentric coordinates of x on the
/// face whose plane holds x (within tol) and whose triangle comes nearest
/// to it give points of A and B with point_a − point_b = x. On a flat facet
/// of D split into coplanar triangles (or a polytope dented by rounding) x
/// may lie in a neighbour of `first`.
static void witness_at(const gjk_epa_polytope *P, int first, gjk_vec3 x, gjk_real tol, gjk_vec3 *pa, gjk_vec3 *pb) {
    gjk_real best_miss = GJK_REAL_MAX;
    gjk_real lam[3], pick_lam[3] = {1, 0, 0};
    int pick = first;
    // `first` itself first: where x lies inside its triangle (every
    // barycentric coordinate positive), no other face of the convex
    // polytope holds x, and the scan of the others is skipped (it was a
    // twentieth of a penetration query between two hulls of 8 vertices).
    {
        const gjk_epa_face *F = &P->face[first];
        (void)gjk_triangle_closest(gjk_sub(P->vert[F->v[0]].w, x), gjk_sub(P->vert[F->v[1]].w, x),
                                   gjk_sub(P->vert[F->v[2]].w, x), lam);
        if (lam[0] > 0 && lam[1] > 0 && lam[2] > 0) {
            best_miss = 0;
            pick_lam[0] = lam[0], pick_lam[1] = lam[1], pick_lam[2] = lam[2];
        }
    }
    // The faces whose planes pass within tol of x; when none of their
    // triangles comes within tol of it, every face: the nearest "face" may
    // be a sliver of three nearly collinear points on a curved rim (a
    // cylinder with a margin and a point inside, as deep below its top as
    // inside its side), whose plane, fixed by their sagitta, lies 2.3e-8 to
    // 1e-5 nearer than the flat top, and whose triangle is far from the
    // foot x of the origin on that plane: the witnesses came out up to 3.9
    // across the normal (1111 of 6000 such answers). The triangle of the
    // polytope nearest x then gives them, off x by that plane's offset.
    for (int pass = 0; pass < 2 && best_miss > tol; ++pass) {
        gjk_real band = pass == 0 ? tol : GJK_REAL_MAX;
        for (int f = 0; f < P->face_count; ++f) {
            const gjk_epa_face *F = &P->face[f];
            if (!gjk_epa_face_alive(P, f) || (f != first && gjk_abs(gjk_dot(F->n, x) - F->dist) > band)) {
                continue;
            }
            // The triangle's point nearest x: its point nearest the origin
            // once moved by −x.
            gjk_vec3 c = gjk_triangle_closest(gjk_sub(P->vert[F->v[0]].w, x), gjk_sub(P->vert[F->v[1]].w, x),
                                              gjk_sub(P->vert[F->v[2]].w, x), lam);
            gjk_real miss = gjk_length(c);
            if (miss < best_miss) {
                best_miss = miss;
                pick = f;
                pick_lam[0] = lam[0], pick_lam[1] = lam[1], pick_lam[2] = lam[2];
            }
        }
    }
    const gjk_epa_face *F = &P->face[pick];
    const gjk_support_point *a = &P->vert[F->v[0]], *b = &P->vert[F->v[1]], *c = &P->vert[F->v[2]];
    *pa = gjk_add(gjk_add(gjk_scale(pick_lam[0], a->a), gjk_scale(pick_lam[1], b->a)), gjk_scale(pick_lam[2], c->a));
    *pb = gjk_add(gjk_add(gjk_scale(pick_lam[0], a->b), gjk_scale(pick_lam[1], b->b)), gjk_scale(pick_lam[2], c->b));
}

/// Fills *out from the nearest face `best`: its normal and distance, and the
/// witness points of the origin's foot on its plane (witness_at).
static void face_result(const gjk_epa_polytope *P, int best, gjk_real tol, gjk_epa_result *out) {
    const gjk_epa_face *B = &P->face[best];
    witness_at(P, best, gjk_scale(B->dist, B->n), tol, &out->point_a, &out->point_b);
    out->normal = B->n;
    out->depth = B->dist > 0 ? B->dist : 0;
}

/// The witness points of an answer converged by its bounds (gjk_epa_run):
/// those of the point t·n where the ray from the origin along the normal n
/// leaves the polytope (t = dist_f / n_f·n, least over the faces f facing
/// n). The polytope lies in D and encloses the origin, so t lies between the
/// nearest face's distance and D's support along n: within the bounds' gap
/// of the depth (the tolerance; 1e3 of it after a stall, see gjk_epa_run),
/// and point_a − point_b = t·n as gjk.h promises. The support
/// points along n would not do: they differ by depth·n plus a part across
/// n, which is large where D is flat across n (a cylinder's side: any point
/// of a vertical line of its rim).
static void ray_witness(const gjk_epa_polytope *P, gjk_vec3 n, gjk_real tol, gjk_epa_result *out) {
    int hit = -1;
    gjk_real best = GJK_REAL_MAX;
    for (int f = 0; f < P->face_count; ++f) {
        const gjk_epa_face *F = &P->face[f];
        gjk_real c = gjk_dot(F->n, n);
        if (gjk_epa_face_alive(P, f) && c > 0 && F->dist / c < best) {
            best = F->dist / c;
            hit = f;
        }
    }
    if (hit >= 0) {
        witness_at(P, hit, gjk_scale(best, n), tol, &out->point_a, &out->point_b);
    }
}

/// Whether `shape` has a solid core with a closed form for a point inside
/// (gjk_point_core): a box, cylinder, cone or ellipsoid.
static bool solid_closed_core(const gjk_shape *shape) {
    return shape->type == GJK_SHAPE_BOX || shape->type == GJK_SHAPE_CYLINDER || shape->type == GJK_SHAPE_CONE ||
           shape->type == GJK_SHAPE_ELLIPSOID;
}

/// The deepest point found so far of one core inside the other: its depth,
/// the witness pair (a on A, b on B), the normal from A to B, and whether
/// the point is A's (a; b its nearest point on B's boundary) or B's.
typedef struct point_best {
    gjk_real depth;
    gjk_vec3 a, b, n;
    bool of_a;
} point_best;

/// Takes p (A's frame; a point of A's core when b_side, else of B's) as
/// the best when it lies deeper in the other core.
static void point_try(const gjk_pair *pair, bool b_side, gjk_vec3 p, point_best *pb) {
    gjk_real depth;
    gjk_vec3 q, u;
    if (gjk_pair_point_inside(pair, b_side, p, &depth, &q, &u) && depth > pb->depth) {
        pb->depth = depth;
        // A's point inside B: B moves against B's normal at q; B's point
        // inside A: along A's normal at q.
        pb->a = b_side ? p : q;
        pb->b = b_side ? q : p;
        pb->n = b_side ? gjk_neg(u) : u;
        pb->of_a = b_side;
    }
}

/// D's least support (overlap) over the point's normal pb->n turned about
/// the axis of the cylinder or cone it lies in by 45° to 315°, and that
/// direction in *n; GJK_REAL_MAX for other cores, or a normal along the
/// axis. A point on the axis (or within rounding of it) lies as deep along
/// every such turn, and the closed form's pick among them is rounding's:
/// where the rest of the point's shape lies ahead of the point along it
/// the point's own bound fails, though it holds along another turn (a
/// segment's end on a cone's axis converged one way round and not the
/// other, a review). Seven support calls.
static gjk_real turned_bound(gjk_pair *pair, const point_best *pb, gjk_vec3 *n) {
    const gjk_shape *solid = pb->of_a ? pair->b : pair->a;
    if (solid->type != GJK_SHAPE_CYLINDER && solid->type != GJK_SHAPE_CONE) {
        return GJK_REAL_MAX;
    }
    gjk_vec3 axis = pb->of_a ? gjk_mat3_mul(pair->rot_b, gjk_v3(0, 0, 1)) : gjk_v3(0, 0, 1);
    gjk_vec3 along = gjk_scale(gjk_dot(axis, pb->n), axis), across = gjk_sub(pb->n, along);
    if (!(gjk_max_abs(across) > GJK_R(1e-3))) {
        return GJK_REAL_MAX;
    }
    gjk_vec3 side = gjk_cross(axis, across); // across turned by 90°, as long
    const gjk_real h = GJK_R(0.70710678118654752440);
    const gjk_real c[7] = {h, 0, -h, -1, -h, 0, h}, s[7] = {h, 1, h, 0, -h, -1, -h};
    gjk_real best = GJK_REAL_MAX;
    for (int k = 0; k < 7; ++k) {
        gjk_vec3 d = gjk_add(along, gjk_add(gjk_scale(c[k], across), gjk_scale(s[k], side)));
        gjk_support_point w = gjk_pair_support(pair, d);
        if (pair->bad_support) {
            return GJK_REAL_MAX;
        }
        gjk_real overlap = gjk_dot(w.w, d);
        if (overlap < best) {
            best = overlap;
            *n = d;
        }
    }
    return best;
}

/// A lower bound on the depth from a point of one core inside the other,
/// for a run that stopped between its bounds (B's points inside A's core
/// where in_a, A's inside B's where in_b). D = A − B contains p − B for
/// every point p of A's core, so the origin lies at least as deep in D as in
/// p − B, where its depth is p's depth in B; likewise A − q for q in B,
/// with q's depth in A. The points of A and B that EPA's vertices are made
/// of are such points. Where D's nearest boundary is the image of one
/// point of a core, that point's depth is the depth itself: a polytope's
/// corner deep inside a cylinder or a cone near its axis, where the depth
/// is reached along a whole arc of directions, which EPA's chords refine
/// too slowly (it ran out of vertices). (Not where the corner's normal cone
/// misses the direction of its own depth: the depth, the least overlap over
/// the directions, then exceeds every point's, by up to the corner's
/// distance from the axis.) With D's support along the point's own normal,
/// or `upper` (EPA's best upper bound, scaled by P->down), within the
/// tolerance of it, the answer is proved, and *out converged: 2 with the
/// point's own answer where its normal's bound holds (its witnesses the
/// point and the nearest boundary point of the other core), else 1 with the
/// upper bound's depth and normal standing and the witnesses set from the
/// point (below). 0 otherwise, *out untouched; on a support point that is
/// not finite, with pair->bad_support set.
static int point_certificate(gjk_pair *pair, const gjk_epa_polytope *P, gjk_real upper, gjk_real tol, bool in_a,
                             bool in_b, gjk_epa_result *out) {
    bool a_solid = in_a && solid_closed_core(pair->a), b_solid = in_b && solid_closed_core(pair->b);
    if (!a_solid && !b_solid) {
        return 0;
    }
    point_best pb = {0, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, false};
    for (int m = 0; m < P->vertex_count; ++m) {
        // (A vertex of a polytope is the point of many of EPA's vertices in
        // a row: each is looked at once a row.)
        const gjk_support_point *v = &P->vert[m], *prev = &P->vert[m > 0 ? m - 1 : 0];
        if (b_solid && (m == 0 || !gjk_same_point(v->a, prev->a))) {
            point_try(pair, true, v->a, &pb);
        }
        if (a_solid && (m == 0 || !gjk_same_point(v->b, prev->b))) {
            point_try(pair, false, v->b, &pb);
        }
    }
    if (!(pb.depth > 0)) {
        return 0;
    }
    gjk_real lower = pb.depth * P->down; // the scale of EPA's bounds
    gjk_support_point w = gjk_pair_support(pair, pb.n);
    if (pair->bad_support) {
        return 0;
    }
    if (gjk_dot(w.w, pb.n) * P->down - lower <= tol) {
        out->converged = true;
        out->depth = lower;
        out->normal = pb.n;
        out->point_a = pb.a;
        out->point_b = pb.b;
        return 2;
    }
    gjk_vec3 turned;
    gjk_real turned_overlap = turned_bound(pair, &pb, &turned) * P->down;
    if (pair->bad_support) {
        return 0;
    }
    if (turned_overlap < upper && turned_overlap - lower <= tol) {
        out->depth = upper = turned_overlap;
        out->normal = turned;
    }
    if (upper - lower <= tol) {
        // The upper bound's depth and normal n, proved. Its witnesses come
        // from the point, not from the polytope, whose faces along n can lie
        // far inside D (chords of a rim EPA never refined there: a segment
        // from a cylinder's centre came out with a point 1.2e-4 inside A
        // for a depth of 1, fuzz finding f78): the point and the point
        // moved by its depth along n (against n for A's point), which lies
        // in the other core, as the ball of that radius about the point
        // does. Their offset misses the depth by upper − lower ≤ tol, and
        // each lies within that of its core's supporting plane along n
        // (D's support along n, upper, is A's support less B's).
        out->converged = true;
        gjk_vec3 step = gjk_scale(pb.depth, out->normal);
        out->point_a = pb.of_a ? pb.a : gjk_add(pb.b, step);
        out->point_b = pb.of_a ? gjk_sub(pb.a, step) : pb.b;
        return 1;
    }
    return 0;
}

/// Reports one EPA iteration to the trace callback, with the polytope in
/// world orientation: the nearest face's plane (unit normal fn, distance
/// fd), the direction n searched (fn, or a halo step's) and its support
/// point w. Kept out of line so its arrays live on the stack only while
/// tracing.
GJK_NOINLINE void gjk_epa_trace(const gjk_pair *pair, const gjk_epa_polytope *P, gjk_vec3 fn, gjk_real fd, gjk_vec3 n,
                                int iteration, gjk_vec3 w) {
    gjk_vec3 verts[GJK_EPA_MAX_VERTICES];
    int faces[GJK_EPA_MAX_FACES][3];
    int nf = 0;
    for (int m = 0; m < P->vertex_count; ++m) {
        verts[m] = gjk_mat3_mul(pair->rot_a, shifted(P->vert[m].w, -P->shift));
    }
    for (int f = 0; f < P->face_count; ++f) {
        if (gjk_epa_face_alive(P, f)) {
            faces[nf][0] = P->face[f].v[0], faces[nf][1] = P->face[f].v[1], faces[nf][2] = P->face[f].v[2];
            ++nf;
        }
    }
    gjk_trace_event ev = {0};
    ev.phase = GJK_TRACE_EPA;
    ev.iteration = iteration;
    gjk_real lower = gjk_ldexp(fd, P->shift), upper = gjk_ldexp(gjk_dot(w, n), P->shift);
    ev.closest = gjk_mat3_mul(pair->rot_a, gjk_scale(lower, fn));
    ev.direction = gjk_mat3_mul(pair->rot_a, n);
    ev.support = gjk_mat3_mul(pair->rot_a, shifted(w, -P->shift));
    ev.lower = lower;
    ev.upper = upper;
    ev.vertex_count = P->vertex_count;
    ev.vertices = verts;
    ev.face_count = nf;
    ev.faces = (const int(*)[3])faces;
    pair->trace(pair->trace_data, &ev);
}

/// How EPA's loop ended, beyond its last nearest face.
typedef struct epa_loop_end {
    bool stalled;       ///< Ended with no consistent step.
    gjk_real lower_max; ///< The nearest face's greatest distance seen.
    int certify_at;     ///< The next iteration to try point_certificate at (see certify_early).
    bool certify_in_a;  ///< Whether certify_early looks at B's points inside A's core,
    bool certify_in_b;  ///< and at A's inside B's.
    bool certify_ball;  ///< Whether certify_early is still to try the ball certificate (once a run).
    int certified;      ///< point_certificate's answer (3: the ball certificate's) where certify_early stopped the loop, else 0,
    gjk_epa_result certificate; ///< and the result it proved.
} epa_loop_end;

/// Whether the shape's core has corners (vertices, an apex, a segment's
/// ends) that can lie deep inside another core near its axis.
static bool cornered_core(const gjk_shape *shape) {
    switch (shape->type) {
    case GJK_SHAPE_POINT:
    case GJK_SHAPE_SEGMENT:
    case GJK_SHAPE_TRIANGLE:
    case GJK_SHAPE_BOX:
    case GJK_SHAPE_SPHERE:
    case GJK_SHAPE_CAPSULE:
    case GJK_SHAPE_CONE:
    case GJK_SHAPE_POLYTOPE: return true;
    default: return false;
    }
}

/// Whether the shape's core is a solid of revolution or an ellipsoid, whose
/// depth at a point near its centre or axis can be reached along a whole
/// arc of directions.
static bool curved_solid_core(const gjk_shape *shape) {
    return shape->type == GJK_SHAPE_CYLINDER || shape->type == GJK_SHAPE_CONE || shape->type == GJK_SHAPE_ELLIPSOID;
}

/// The first iteration at which a run tries point_certificate before its
/// end (then at twice as many, and so on), and the points it looks at: a
/// corner of one core (cornered_core) inside a curved solid core
/// (curved_solid_core). Where the corner lies deep inside near the axis,
/// the depth is reached along a whole arc and EPA runs to its cap, while
/// the corner proves the answer from the first iterations (a segment from a
/// cylinder's centre: 250 iterations, 100 µs, where the certificate holds
/// after 4). From 32 iterations: on random deep poses of polytopes, boxes,
/// triangles, segments and cones against cylinders, cones and ellipsoids
/// (callgrind), the tries cost more than they saved from 8 (+4.6% of the
/// instructions) and from 16 (+0.1%), and saved 2.0% from 32. Never for
/// other pairs (two ellipsoids, whose points prove little, two hulls, or a
/// corner inside a box, whose depth EPA finds).
#define GJK_EPA_CERTIFY_FIRST 32

/// Never (an iteration count no run reaches: see certify_early).
#define GJK_EPA_CERTIFY_NEVER (1 << 30)

/// The iteration at which a run of two ellipsoids (ball_pair) tries the
/// ball certificate (epa_ball.c), once before its end (and again at the
/// end, should EPA run out of iterations). A try costs about 5,000 to
/// 10,000 instructions (three to eight support calls and secant steps, two
/// to four closed forms). On the bench's ellipsoid penetration rows
/// (callgrind, instructions a query, before: 38083 at 1e-5 deep, 44477 at
/// 1e-3, 84522 at 0.1): tried at 16 iterations 38082, 46429, 45981; at 8,
/// 39372, 40100, 27012; at 4, 41697, 27452, 21120. Shallow runs go to
/// GJK_EPA_BALL_SHALLOW instead: with that, 38126, 27458, 21126.
#define GJK_EPA_BALL_FIRST 4

/// The iteration at which a run whose overlap is below 2^−12 of the pair's
/// size at GJK_EPA_BALL_FIRST tries the ball certificate instead: its halo
/// step (epa_halo.c) closes it in a few iterations more.
#define GJK_EPA_BALL_SHALLOW 16

/// Whether the pair takes the ball certificate: two ellipsoid cores.
/// Their D is smooth and strictly convex, as the certificate's secant steps
/// want. Where a core is a box, cylinder or cone the depth's direction is
/// mostly a face's normal or lies along a cylinder's or cone's side, where
/// the support map jumps: in random deep poses of every pair of them (1000
/// each) no run was certified, and EPA's iterations were the same.
static bool ball_pair(const gjk_pair *pair) {
    return pair->a->type == GJK_SHAPE_ELLIPSOID && pair->b->type == GJK_SHAPE_ELLIPSOID;
}

static void certify_plan(const gjk_pair *pair, epa_loop_end *end) {
    end->certify_in_a = cornered_core(pair->b) && curved_solid_core(pair->a);
    end->certify_in_b = cornered_core(pair->a) && curved_solid_core(pair->b);
    end->certify_ball = ball_pair(pair);
    end->certify_at = end->certify_ball                     ? GJK_EPA_BALL_FIRST
                      : end->certify_in_a || end->certify_in_b ? GJK_EPA_CERTIFY_FIRST
                                                               : GJK_EPA_CERTIFY_NEVER;
}

/// At end->certify_at iterations or more (a halo step takes several at
/// once): whether point_certificate holds already, on a copy of *out
/// holding the upper bound's answer as at the run's end; the run then
/// stops, and its end takes end->certificate. The next try is at twice the
/// iterations.
static GJK_NOINLINE bool certify_early(gjk_pair *pair, const gjk_epa_polytope *P, const gjk_epa_upper *upper,
                                       const gjk_epa_result *out, epa_loop_end *end) {
    end->certify_at = out->iterations < (1 << 20) ? 2 * out->iterations : GJK_EPA_CERTIFY_NEVER;
    gjk_epa_result *c = &end->certificate;
    *c = *out;
    if (end->certify_ball) {
        if (out->iterations < GJK_EPA_BALL_SHALLOW && upper->overlap < P->down * pair->scale * GJK_R(0x1p-12)) {
            end->certify_at = GJK_EPA_BALL_SHALLOW; // shallow: the halo step's to close
            return false;
        }
        end->certify_ball = false;
        end->certify_at = GJK_EPA_CERTIFY_NEVER; // (the end tries again)
        if (gjk_epa_ball_certificate(pair, P, upper, gjk_epa_tolerance(pair, P), c)) {
            end->certified = 3;
            return true;
        }
        return pair->bad_support;
    }
    c->depth = upper->overlap > 0 ? upper->overlap : 0;
    c->normal = upper->n;
    end->certified = point_certificate(pair, P, upper->overlap, gjk_epa_tolerance(pair, P), end->certify_in_a,
                                       end->certify_in_b, c);
    return end->certified != 0 || pair->bad_support;
}

/// EPA's iterations from the starting polytope; returns the last nearest
/// face (on a bad support point, with pair->bad_support set). Written once
/// and compiled with and without the halo step (halo_on), so that the loop
/// of pairs without an ellipsoid holds no trace of it (in the one loop, the
/// halo's test cost hull penetration 55 instructions a query).
static GJK_INLINE int epa_loop(gjk_pair *pair, gjk_epa_polytope *P, gjk_epa_step *S, int max_iterations,
                               gjk_real stop_depth, gjk_epa_result *out, gjk_epa_upper *upper, epa_loop_end *end,
                               const bool halo_on) {
    int best = -1;
    bool halo = halo_on; // a halo step is still to come
    gjk_real last_dist = -GJK_REAL_MAX; // the nearest face's distance at the iteration before
    int stop_at = (max_iterations < end->certify_at ? max_iterations : end->certify_at); // the cap, or a try of certify_early
    for (;;) {
        best = gjk_epa_nearest_face(P);
        gjk_epa_face *F = &P->face[best];
        end->lower_max = gjk_max(end->lower_max, F->dist);
        if (stop_depth > 0 && F->dist > stop_depth) {
            out->deeper = true; // the caller only asked whether the depth exceeds stop_depth
            break;
        }
        if (out->iterations >= stop_at || P->vertex_count >= GJK_EPA_MAX_VERTICES) {
            if (out->iterations >= max_iterations || P->vertex_count >= GJK_EPA_MAX_VERTICES ||
                certify_early(pair, P, upper, out, end)) {
                break; // not converged (but maybe a point proves the answer, or a bad support point)
            }
            stop_at = (max_iterations < end->certify_at ? max_iterations : end->certify_at);
        }
        ++out->iterations;
        gjk_support_point w = gjk_pair_support(pair, F->n); // (epa_support, inline: a call here cost 4%)
        w.w = gjk_scale(P->down, w.w);
        if (pair->bad_support) {
            return best;
        }
        gjk_real tol = gjk_epa_tolerance(pair, P);
        gjk_real overlap = gjk_dot(w.w, F->n);
        gjk_real gap = overlap - F->dist;
        gjk_epa_upper_take(upper, overlap, F->n, &w);
        if (pair->trace != NULL) {
            gjk_epa_trace(pair, P, F->n, F->dist, F->n, out->iterations, w.w);
        }
        if (gap <= tol) {
            out->converged = true;
            break;
        }
        // A support point that is a vertex already, outside the nearest
        // face by more than the tolerance, means rounding has broken the
        // polytope (a vertex lies outside a face's plane), and adding it
        // again changes nothing real: in float a segment about 1e-4 deep in
        // a hull's flat face drew the same face and support point at every
        // iteration, another alternated between two faces and their two
        // support points, each until its 250 iterations ran out. Looked for
        // only when the nearest face is no farther than the one before (in
        // a step that progresses it usually is farther). The faces are then
        // not to be trusted: the bounds decide, as for a stall on a face
        // nearer than an earlier one (below). (Taking the face instead, one
        // such end reported a depth of 2.6e-5 along a normal the shapes
        // overlap 4.1e-5 along; the least overlap is a separating motion.)
        if (F->dist <= last_dist && gjk_epa_has_vertex(P, w.w)) {
            end->stalled = true;
            break;
        }
        last_dist = F->dist;
        int wi = P->vertex_count;
        P->vert[wi] = w;
        S->face_of_start[wi] = -1;
        // Faces that w lies on (within rounding) may go either way; when the
        // plain test breaks the polytope, the faces w is within tolerance of
        // go too, or else stay.
        if (!gjk_epa_plan_step(P, best, wi, 0, tol, S) && !gjk_epa_plan_step(P, best, wi, -tol, tol, S) &&
            !gjk_epa_plan_step(P, best, wi, tol, tol, S)) {
            // No consistent step: w lies, within rounding, on the polytope.
            // Unless the nearest face came out nearer than an earlier one
            // (the faces' distances only grow, but for rounding): then the
            // faces are not to be trusted, and the best upper bound is the
            // answer (below). In float, two cones 0.1 deep got a face
            // 1.4e-4 nearer than the one before, whose support point
            // stalled, and that face was the answer.
            out->converged = gap <= GJK_R(1e3) * tol && F->dist >= end->lower_max - tol;
            end->stalled = true;
            break;
        }
        if (halo && gjk_epa_halo_due(pair, P, F, gap, tol)) {
            halo = false; // once a run
            int budget = max_iterations - out->iterations;
            out->iterations += gjk_epa_halo_commit(pair, P, best, wi, gap, tol, budget, S, upper, out->iterations);
            if (pair->bad_support) {
                return best;
            }
        } else {
            gjk_epa_commit_step(P, wi, S);
        }
    }
    return best;
}

bool gjk_epa_run(gjk_pair *pair, const gjk_simplex *simplex, int max_iterations, gjk_real stop_depth,
                 gjk_epa_result *out) {
    gjk_epa_polytope P;
    gjk_epa_step S;
    out->iterations = 0;
    out->converged = false;
    out->deeper = false;
    // The best upper bound seen: the support point with the least overlap
    // w·n along a face normal n. Moving B by that overlap along n always
    // separates the shapes, so it is the answer to keep if EPA must stop early.
    gjk_epa_upper upper = {GJK_REAL_MAX, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, -1, -1, true}, {1, 0, 0}};
    P.shift = choose_shift(pair, simplex);
    P.down = P.shift != 0 ? gjk_ldexp(1, -P.shift) : 1;
    stop_depth *= P.down;
    int pending;
    if (!gjk_epa_initial_polytope(pair, simplex, &P, out, &pending)) {
        return !pair->bad_support;
    }
    if (pair->bad_support) {
        return false;
    }
    for (int m = 0; m <= P.vertex_count; ++m) { // and each vertex as it comes
        S.face_of_start[m] = -1;
    }
    if (pending >= 0) {
        // The lower apex of a double pyramid that was not convex, added to
        // the tetrahedron above the triangle (face 3, its base, sees it).
        // Should rounding leave no consistent step, the loop's first step
        // along the base's normal adds the lower side instead.
        gjk_real tol = gjk_epa_tolerance(pair, &P);
        if (gjk_epa_plan_step(&P, 3, pending, 0, tol, &S) || gjk_epa_plan_step(&P, 3, pending, tol, tol, &S)) {
            gjk_epa_commit_step(&P, pending, &S);
        }
    }

    epa_loop_end end;
    end.stalled = false;
    end.lower_max = -GJK_REAL_MAX;
    end.certified = 0;
    certify_plan(pair, &end);
    int best = gjk_epa_halo_pair(pair) ? epa_loop(pair, &P, &S, max_iterations, stop_depth, out, &upper, &end, true)
                                       : epa_loop(pair, &P, &S, max_iterations, stop_depth, out, &upper, &end, false);
    if (pair->bad_support) {
        return false;
    }
    gjk_real tol = gjk_epa_tolerance(pair, &P);
    if (out->deeper) {
        // Only whether the depth exceeds stop_depth was asked: the nearest
        // face's distance, a lower bound, without the witness points, whose
        // search (witness_at) was a quarter of such a call's instructions.
        out->normal = P.face[best].n;
        out->depth = P.face[best].dist;
        out->point_a = out->point_b = gjk_v3_zero();
    } else {
        face_result(&P, best, tol, out);
    }
    if (!out->converged && !out->deeper && upper.overlap < GJK_REAL_MAX) {
        // Stopped between the bounds: report the upper bound, whose normal
        // and support points are a valid separating motion. The depth lies
        // between the nearest face's distance and it: when they are within
        // the tolerance, that is the answer, though no single face's
        // support point closed its own gap (deep poses of two ellipsoids,
        // whose depth varies little over a wide range of directions, could
        // run out of iterations that way).
        // A stall (no consistent step) is allowed the 1e3 tolerances its
        // own gap is: at a tie of a flat top and a curved side, slivers of
        // nearly collinear rim points (whose planes their sagitta fixes)
        // left EPA between bounds 2.5e-7 apart, 360 tolerances, and 16 of
        // 6000 points in rounded cylinders came out not converged.
        // The lower bound is the nearest face's greatest distance seen:
        // the same but where rounding broke the polytope and a face came
        // out nearer than an earlier one (in float, two cones 0.1 deep
        // fell from 0.09797 to 0.0731 after their upper bound had come
        // within 4e-6, and were reported not converged).
        // (Unless that distance is beyond the upper bound: then rounding
        // has made no face a bound, and the nearest one stands, as before;
        // at a tolerance of 1e-14 thousands of poses would have been
        // called converged with the gap negative.)
        gjk_real lower = end.lower_max <= upper.overlap + tol ? end.lower_max : P.face[best].dist;
        out->converged = upper.overlap - lower <= (end.stalled ? GJK_R(1e3) : 1) * tol;
        out->depth = upper.overlap > 0 ? upper.overlap : 0;
        out->normal = upper.n;
        out->point_a = upper.w.a;
        out->point_b = upper.w.b;
        // 2: the answer of a point of one core inside the other; 3: the ball
        // certificate's (two ellipsoids). After an early stop, the answer
        // that stopped it (certify_early), not the scan and support calls
        // again.
        int certified = 0;
        if (!out->converged && end.certified != 0) {
            certified = end.certified;
            *out = end.certificate; // (no iteration since it was taken)
        } else if (!out->converged) {
            certified = point_certificate(pair, &P, upper.overlap, tol, true, true, out);
            if (!out->converged && !pair->bad_support && ball_pair(pair) &&
                gjk_epa_ball_certificate(pair, &P, &upper, tol, out)) {
                certified = 3;
            }
        }
        if (pair->bad_support) {
            return false;
        }
        if (out->converged && certified == 0) {
            ray_witness(&P, upper.n, tol, out);
        }
    }
    if (P.shift != 0) {
        out->depth = gjk_ldexp(out->depth, P.shift);
    }
    if (!out->converged && !out->deeper) {
        // A point core inside a hull: where many faces lie nearly as near
        // (a point near a cylinder's axis, whose side strips are all about
        // as far), EPA refines them all before it can decide, and ran out
        // of iterations (cylinder hulls of 252 to 1500 rim points, centres
        // near the axis: 41 of 2500 queries not converged, off by up to
        // 3e-5 of the size). The hull's face planes give the answer
        // exactly.
        (void)gjk_point_hull_depth(pair, out);
    }
    return true;
}

// Convex polygons in the plane by separating axes: a convex polygon
// (gjk2_make_convex_polygon) against another, a box, a triangle or a
// segment (a capsule's core), answered from the edges' normals without GJK
// or EPA when the answer is clear of touching. The general form of sat2.c,
// whose four axes of two boxes have closed forms.
//
// The edges of D = A − B are those of A and of −B (the Minkowski sum merges
// them by angle), so over the outward normals of both polygons' edges the
// largest separation
//     s = max over edges (r0, r1) of one, n outward, of
//         min over vertices x of the other of n · (x − r0)
// is −(the depth) when the cores overlap: the origin's nearest edge of D,
// whose foot lies on that edge, as every interior point's nearest edge line
// of a convex polygon does (the reference and incident edges of Box2D's
// b2CollidePolygons). When the cores are apart, s is a lower bound on their
// distance, reached when the nearest point of D lies on an edge of D: a
// vertex (or edge) of one polygon against an edge of the other. Two vertices
// nearest leave it below the distance, and the general path answers.
//
// The other polygon's vertex farthest along −n (its support) moves
// counter-clockwise as the reference edges' normals turn counter-clockwise,
// so both polygons' edges, merged by angle as the Minkowski sum is built,
// meet their supports in turn: O(n + m) for all the axes (the rotating
// calipers of Toussaint, "Solving geometric problems with the rotating
// calipers", 1983), not the O(n m) of trying every vertex against every
// edge. Only the largest is then tried against every vertex, which
// confirms it (see both_axes).
//
// With a contact margin (a penetration query's options.max_distance), the
// merge starts as gjk2_intersect's does, where a separating axis is
// likeliest, and stops at the first confirmed axis past the margin: a
// lower bound, as the walk's early stop gives.
//
// The witness pair, as in sat2.c: the reference edge against the incident
// vertex, or the incident edge when a neighbour of the vertex rises along n
// by at most tol / 8, clipped to the reference edge's extent widened by tol;
// the middle of what remains is the incident point, its projection on the
// reference edge the reference point.
#include "internal2.h"

bool gjk2_polygon_view_of(const gjk2_shape *s, gjk2_polygon_view *view) {
    switch (s->type) {
    case GJK2_SHAPE_POLYGON:
        if (!s->polygon.convex) {
            return false;
        }
        view->v = s->polygon.vertices;
        view->n = s->polygon.count;
        return true;
    case GJK2_SHAPE_BOX: {
        gjk_real x = s->box.half_extents.x, y = s->box.half_extents.y;
        view->own[0] = gjk_v2(-x, -y);
        view->own[1] = gjk_v2(x, -y);
        view->own[2] = gjk_v2(x, y);
        view->own[3] = gjk_v2(-x, y);
        view->n = 4;
        break;
    }
    case GJK2_SHAPE_TRIANGLE: {
        // Counter-clockwise; a triangle too thin for the sign of its area
        // to be sure (within the rounding of the cross product) has none.
        gjk_vec2 a = s->triangle.a, b = s->triangle.b, c = s->triangle.c;
        gjk_vec2 e1 = gjk_sub2(b, a), e2 = gjk_sub2(c, a);
        gjk_real area2 = gjk_cross2(e1, e2);
        gjk_real m = gjk_max(gjk2_max_abs(e1), gjk2_max_abs(e2));
        if (!(gjk_abs(area2) > 16 * GJK_REAL_EPSILON * m * m)) {
            return false;
        }
        view->own[0] = a;
        view->own[1] = area2 > 0 ? b : c;
        view->own[2] = area2 > 0 ? c : b;
        view->n = 3;
        break;
    }
    case GJK2_SHAPE_SEGMENT:
    case GJK2_SHAPE_CAPSULE: {
        // A polygon of two vertices: its edges a→b and b→a, with the two
        // normals ±perp of a segment (a point has none, and is left to the
        // general path).
        gjk_vec2 a = s->type == GJK2_SHAPE_SEGMENT ? s->segment.a : s->capsule.a;
        gjk_vec2 b = s->type == GJK2_SHAPE_SEGMENT ? s->segment.b : s->capsule.b;
        if (a.x == b.x && a.y == b.y) {
            return false;
        }
        view->own[0] = a;
        view->own[1] = b;
        view->n = 2;
        break;
    }
    default: return false;
    }
    view->v = view->own;
    return true;
}

void gjk2_polygon_view_measure(gjk2_polygon_view *view) {
    gjk_real extent = 0, reach2 = 0;
    for (int i = 0; i < view->n; ++i) {
        gjk_vec2 v = view->v[i];
        extent = gjk_max(extent, gjk2_max_abs(v));
        reach2 = gjk_max(reach2, gjk_length_sq2(v));
    }
    view->extent = extent;
    view->reach = gjk_sqrt(reach2);
}

/// The largest separation over both polygons' edges, and where.
typedef struct axis_best {
    gjk_real s; ///< The separation; −GJK_REAL_MAX before any edge.
    bool on_b;  ///< The reference edge is B's (else A's).
    int edge;   ///< The reference edge: its polygon's vertices edge, edge + 1.
    int vertex; ///< The other polygon's vertex farthest along −n.
} axis_best;

/// The frame the merge runs in: A's, or with `turned` A's turned by q, so
/// that its first edges' normals lie where a separating axis is likeliest
/// (see both_axes). A's vertex a becomes q a, and −B's −(q R b + q t).
typedef struct merge_frame {
    bool turned;
    gjk_rot2 q, qr;
    gjk_vec2 qt;
} merge_frame;

/// A's vertex i in the merge's frame.
static GJK_INLINE gjk_vec2 a_at(const merge_frame *f, const gjk2_polygon_view *a, int i) {
    return f->turned ? gjk_rot2_apply(f->q, a->v[i]) : a->v[i];
}

/// The vertex of −B (B's vertex j) in the merge's frame.
static GJK_INLINE gjk_vec2 minus_b(const merge_frame *f, const gjk2_polygon_view *b, int j) {
    return gjk_neg2(gjk_add2(gjk_rot2_apply(f->qr, b->v[j]), f->qt));
}

/// A's edge i → k in the merge's frame: the difference in A's own frame,
/// turned (see both_axes).
static GJK_INLINE gjk_vec2 a_edge(const merge_frame *f, const gjk2_polygon_view *a, int i, int k) {
    gjk_vec2 e = gjk_sub2(a->v[k], a->v[i]);
    return f->turned ? gjk_rot2_apply(f->q, e) : e;
}

/// −B's edge j → k in the merge's frame: the difference in B's own frame,
/// turned.
static GJK_INLINE gjk_vec2 c_edge(const merge_frame *f, const gjk2_polygon_view *b, int j, int k) {
    return gjk_neg2(gjk_rot2_apply(f->qr, gjk_sub2(b->v[k], b->v[j])));
}

/// Whether a's angle from +x, in [0, 2π), is below b's: by half turn, then
/// by the sign of the cross product (exact within a half turn).
static GJK_INLINE bool turns_before(gjk_vec2 a, gjk_vec2 b) {
    bool ha = a.y < 0 || (a.y == 0 && a.x < 0), hb = b.y < 0 || (b.y == 0 && b.x < 0);
    return ha != hb ? hb : gjk_cross2(a, b) > 0;
}

/// Whether a lies below b, or level with it and to its left: the lowest
/// such vertex of a counter-clockwise polygon starts its edges' angles at 0.
static GJK_INLINE bool lower_left(gjk_vec2 a, gjk_vec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

/// The lowest vertex (then the leftmost) of A, or with `of_b` of −B, in
/// the merge's frame: its index, and where it lies in *at.
static GJK_INLINE int lowest_vertex(const merge_frame *f, const gjk2_polygon_view *v, bool of_b, gjk_vec2 *at) {
    int low = 0;
    gjk_vec2 lowest = of_b ? minus_b(f, v, 0) : a_at(f, v, 0);
    for (int k = 1; k < v->n; ++k) {
        gjk_vec2 x = of_b ? minus_b(f, v, k) : a_at(f, v, k);
        if (lower_left(x, lowest)) {
            low = k;
            lowest = x;
        }
    }
    *at = lowest;
    return low;
}

/// The map of the incident polygon's frame into the reference polygon's,
/// x_ref = r x + t: B's pose in A's frame when A is the reference, its
/// inverse when B is.
static void inc_to_ref(const gjk2_pair *p, bool on_b, gjk_rot2 *r, gjk_vec2 *t) {
    if (!on_b) {
        *r = p->rot_b;
        *t = p->pos_b;
    } else {
        r->c = p->rot_b.c;
        r->s = -p->rot_b.s;
        *t = gjk_neg2(gjk_rot2_inv_apply(p->rot_b, p->pos_b));
    }
}

/// The reference edge of out (its polygon's vertices edge, edge + 1) and
/// its unit outward normal, in its polygon's frame; false for an edge of
/// no length.
static bool ref_edge(const gjk2_polygon_view *ref, int edge, gjk_vec2 *r0, gjk_vec2 *r1, gjk_vec2 *n) {
    *r0 = ref->v[edge];
    *r1 = ref->v[edge + 1 == ref->n ? 0 : edge + 1];
    gjk_vec2 e = gjk_sub2(*r1, *r0);
    *n = gjk_normalize2(gjk_v2(e.y, -e.x)); // scaled first: a tiny edge's square underflows
    return n->x != 0 || n->y != 0;
}

/// out's separation tried against every vertex of the other polygon, in
/// the polygons' own frames: true, with out's separation and incident
/// vertex replaced by the true ones, when the merged value is no more than
/// `slack` above it (see both_axes).
static bool confirm(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b, gjk_real slack,
                    axis_best *out) {
    const gjk2_polygon_view *ref = out->on_b ? b : a, *inc = out->on_b ? a : b;
    gjk_vec2 r0, r1, n, t;
    gjk_rot2 r;
    if (!ref_edge(ref, out->edge, &r0, &r1, &n)) {
        return false;
    }
    inc_to_ref(p, out->on_b, &r, &t);
    gjk_vec2 m = gjk_rot2_inv_apply(r, n); // n in inc's frame
    gjk_real lo = GJK_REAL_MAX;
    int arg = 0;
    for (int k = 0; k < inc->n; ++k) {
        gjk_real v = gjk_dot2(m, inc->v[k]);
        arg = v < lo ? k : arg;
        lo = gjk_min(lo, v);
    }
    gjk_real sep = lo + gjk_dot2(n, gjk_sub2(t, r0));
    if (!(sep >= out->s - slack)) {
        return false;
    }
    out->s = sep;
    out->vertex = arg;
    return true;
}

/// The edges of D = A ⊕ C, C = −B, merged by angle from both polygons'
/// lowest vertices (the Minkowski sum's merge): at D's vertex P = a_i + c_j
/// the next edge e is A's (e_i) or C's (−R(b_{j+1} − b_j)), whichever turns
/// first, and the origin's separation from its line is cross(e, P) / |e|
/// (the outward normal is (e.y, −e.x)). A's edge i has B's vertex j as its
/// incident vertex, B's edge j A's vertex i. Stops early once a separation
/// exceeds `stop`. False on overflow, when neither polygon has an edge, or
/// when `confirm` finds the chosen edge's separation overestimated by more
/// than `slack`.
///
/// The merge pairs each edge with one vertex, which gives the separation
/// only when the edges come in their true order of angle; any other vertex
/// gives more. An edge whose angle is within rounding of its neighbour's
/// (a short edge, a collinear point just inside the line) can come out of
/// order, and the edges after it meet the wrong vertices: overestimates,
/// which made a deep overlap "separated" (review of this change). So the
/// largest is confirmed by trying every vertex of the other polygon
/// against its edge: if it holds, it is the largest of the true
/// separations too, as none of them exceeds its merged value by more than
/// the rounding of a dot product at the pair's size. That needs each
/// edge's direction right whatever its length: edges are differences in
/// their polygon's own frame, turned after, not differences of turned
/// vertices, whose rounding pointed an edge shorter than it (a capsule's
/// core of 1e-17 at a needle's tip) anywhere, or made it zero, and an
/// underestimate let a pair 3e5 tolerances apart be "penetrating" (second
/// review). Equal points, and only they, give an edge of no length.
///
/// The first normals merged are those of the lowest vertices' edges. With
/// `turn` (a constant at each call, so that the inlined copy without it
/// reads A's vertices as they are), the frame is turned for them to start
/// 45° clockwise of B's direction from A: there D's edges face the origin
/// when the cores are apart, and an early stop comes in a few steps (two
/// 8-gons 1 apart: 1660 → 1410 instructions a query; a full merge pays
/// about 200 for the turn). Where rounding puts a lowest vertex's first
/// edge just below the level, the edge is merged last: an order the
/// confirmation covers, as above. (Selecting instead of branching on which
/// edge comes next measured slower: 8-gons 1.3-1.8x, 64-gons 1.5x.)
static GJK_INLINE bool both_axes(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b,
                                 gjk_real stop, gjk_real slack, bool turn, axis_best *out) {
    const int n = a->n, m = b->n;
    merge_frame f = {turn, {1, 0}, p->rot_b, p->pos_b};
    if (turn) {
        // The start normal r = t̂ turned by −45°; q turns r to (0, −1).
        gjk_vec2 r = gjk_normalize2(gjk_v2(p->pos_b.x + p->pos_b.y, p->pos_b.y - p->pos_b.x));
        if (!(gjk_length_sq2(r) > 0)) {
            r = gjk_v2(0, -1);
        }
        f.q.c = -r.y;
        f.q.s = -r.x;
        f.qr = gjk_rot2_mul(f.q, p->rot_b);
        f.qt = gjk_rot2_apply(f.q, p->pos_b);
    }
    gjk_vec2 ai, cj;
    int i = lowest_vertex(&f, a, false, &ai), j = lowest_vertex(&f, b, true, &cj);
    out->s = -GJK_REAL_MAX;
    out->on_b = false;
    out->edge = out->vertex = 0;
    int ia = i + 1 == n ? 0 : i + 1, jb = j + 1 == m ? 0 : j + 1;
    gjk_vec2 ea = a_edge(&f, a, i, ia), ec = c_edge(&f, b, j, jb);
    for (int left_a = n, left_b = m; left_a > 0 || left_b > 0;) {
        // A repeated vertex's edge has no angle: it is taken at once (and
        // adds no axis), so that it holds back neither polygon's edges.
        bool zero_a = left_a > 0 && ea.x == 0 && ea.y == 0, zero_c = left_b > 0 && ec.x == 0 && ec.y == 0;
        bool take_a = zero_a || (!zero_c && (left_b == 0 || (left_a > 0 && turns_before(ea, ec))));
        gjk_vec2 e = take_a ? ea : ec;
        gjk_real ee = gjk_dot2(e, e);
        if (e.x != 0 || e.y != 0) {
            // An edge far shorter than the pair (1e-170 in double) squares
            // to nothing: its direction scaled first, or its axis, maybe the
            // only one that separates, would be lost (an underestimate).
            gjk_vec2 pt = gjk_add2(ai, cj);
            gjk_real sep = ee >= GJK_SQUARE_MIN ? gjk_cross2(e, pt) / gjk_sqrt(ee) : gjk_cross2(gjk_normalize2(e), pt);
            if (!gjk_is_valid_real(sep)) {
                return false;
            }
            if (sep > out->s) {
                out->s = sep;
                out->on_b = !take_a;
                out->edge = take_a ? i : j;
                out->vertex = take_a ? j : i;
                if (sep > stop) {
                    return confirm(p, a, b, slack, out);
                }
            }
        }
        if (take_a) {
            --left_a;
            i = ia;
            ia = ia + 1 == n ? 0 : ia + 1;
            ai = a_at(&f, a, i);
            ea = a_edge(&f, a, i, ia);
        } else {
            --left_b;
            j = jb;
            jb = jb + 1 == m ? 0 : jb + 1;
            cj = minus_b(&f, b, j);
            ec = c_edge(&f, b, j, jb);
        }
    }
    return out->s > -GJK_REAL_MAX && confirm(p, a, b, slack, out);
}

bool gjk2_polygon_decide(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b,
                         gjk_real band, gjk_status *status) {
    axis_best best;
    if (!both_axes(p, a, b, p->radius + band, band / 64, true, &best)) {
        return false;
    }
    gjk_real sd = best.s - p->radius;
    if (sd > band) {
        *status = GJK_SEPARATED; // (a lower bound when apart)
        return true;
    }
    if (best.s < 0 && sd < -band) {
        *status = GJK_PENETRATING; // best is −(the depth of the cores)
        return true;
    }
    return false;
}

/// The witness pair of reference edge r0–r1 (unit outward normal n, ref's
/// frame) against inc's vertex j at separation s: *on_ref on the edge,
/// *on_inc on inc's feature (both in ref's frame). False when the clipped
/// feature is empty or the pair is not s·n apart within 2 tol.
static bool edge_witness(gjk_vec2 r0, gjk_vec2 r1, gjk_vec2 n, gjk_real s, const gjk2_polygon_view *inc, int j,
                         gjk_rot2 r, gjk_vec2 t, gjk_real tol, gjk_vec2 *on_ref, gjk_vec2 *on_inc) {
    const int m = inc->n;
    gjk_vec2 f0 = gjk_add2(gjk_rot2_apply(r, inc->v[j]), t);
    // The incident edge: the neighbour that rises least along n, if it
    // rises by at most tol / 8.
    gjk_vec2 prev = gjk_add2(gjk_rot2_apply(r, inc->v[j == 0 ? m - 1 : j - 1]), t);
    gjk_vec2 next = gjk_add2(gjk_rot2_apply(r, inc->v[j + 1 == m ? 0 : j + 1]), t);
    gjk_real rise_p = gjk_dot2(n, gjk_sub2(prev, f0)), rise_n = gjk_dot2(n, gjk_sub2(next, f0));
    gjk_vec2 f1 = rise_p <= rise_n ? prev : next;
    if (!(gjk_min(rise_p, rise_n) <= tol / 8)) {
        f1 = f0;
    }
    // Clip f0 + τ (f1 − f0), τ ∈ [0, 1], to the edge's extent along its
    // direction u, widened by tol.
    gjk_vec2 e = gjk_sub2(r1, r0);
    gjk_vec2 u = gjk_perp2(n); // the edge's direction (n is its outward normal)
    gjk_real len = gjk_dot2(u, e);
    gjk_real u0 = gjk_dot2(u, gjk_sub2(f0, r0)), du = gjk_dot2(u, gjk_sub2(f1, f0));
    gjk_real lo = 0, hi = 1;
    if (du != 0) {
        gjk_real t1 = (-tol - u0) / du, t2 = (len + tol - u0) / du;
        lo = gjk_max(lo, gjk_min(t1, t2));
        hi = gjk_min(hi, gjk_max(t1, t2));
    } else if (!(u0 >= -tol && u0 <= len + tol)) {
        return false;
    }
    if (!(lo <= hi)) {
        return false;
    }
    *on_inc = gjk_mul_add2(f0, GJK_R(0.5) * (lo + hi), gjk_sub2(f1, f0));
    gjk_real along = gjk_min(gjk_max(gjk_dot2(u, gjk_sub2(*on_inc, r0)), 0), len);
    *on_ref = gjk_mul_add2(r0, along, u);
    // The certificate, as in sat2.c: the pair is s·n apart, each coordinate
    // within twice the tolerance.
    gjk_vec2 off = gjk_sub2(gjk_sub2(*on_inc, *on_ref), gjk_scale2(s, n));
    return gjk2_max_abs(off) <= 2 * tol;
}

bool gjk2_polygon_signed(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b, gjk_real tol,
                         gjk_real band, gjk_real beyond, gjk2_box_answer *out) {
    axis_best best;
    // With beyond, the merge starts where a separating axis is likeliest
    // and stops at the first (confirmed) one past it: the answer is then
    // that axis's separation, a lower bound on the distance.
    bool early = beyond > 0;
    if (!both_axes(p, a, b, early ? p->radius + beyond + band : GJK_REAL_MAX, band / 64, early, &best)) {
        return false;
    }
    // Overlapping cores: best is −(their depth). Apart: the pair below
    // proves it their distance. Either way the rounded shapes' signed
    // distance must be beyond ±band.
    gjk_real sd = best.s - p->radius;
    if (!(sd > band || sd < -band)) {
        return false;
    }
    // The flatness test and the clip need a tolerance above the rounding.
    gjk_real size = gjk2_max_abs(p->pos_b) + a->extent + b->extent;
    tol = gjk_max(tol, 64 * GJK_REAL_EPSILON * size);
    // The pair in the reference polygon's frame, then in A's: as it is when
    // the edge is A's, by x_A = R x_B + t when it is B's, whose outward
    // normal points from B to A.
    const gjk2_polygon_view *ref = best.on_b ? b : a, *inc = best.on_b ? a : b;
    gjk_vec2 r0, r1, n, t, on_ref, on_inc;
    gjk_rot2 r;
    inc_to_ref(p, best.on_b, &r, &t);
    if (!ref_edge(ref, best.edge, &r0, &r1, &n)) {
        return false;
    }
    if (early && best.s - p->radius > beyond + band) {
        // Apart beyond `beyond`: the incident vertex, and the point of the
        // reference edge nearest to it (both on their polygons), at least
        // the separation apart along n.
        on_inc = gjk_add2(gjk_rot2_apply(r, inc->v[best.vertex]), t);
        gjk_vec2 e = gjk_sub2(r1, r0), u = gjk_perp2(n);
        gjk_real along = gjk_min(gjk_max(gjk_dot2(u, gjk_sub2(on_inc, r0)), 0), gjk_dot2(u, e));
        on_ref = gjk_mul_add2(r0, along, u);
    } else if (!edge_witness(r0, r1, n, best.s, inc, best.vertex, r, t, tol, &on_ref, &on_inc)) {
        return false;
    }
    gjk_vec2 pa = best.on_b ? on_inc : on_ref;
    gjk_vec2 pb = best.on_b ? on_ref : on_inc;
    if (best.on_b) {
        pa = gjk_add2(gjk_rot2_apply(p->rot_b, pa), p->pos_b);
        pb = gjk_add2(gjk_rot2_apply(p->rot_b, pb), p->pos_b);
        n = gjk_neg2(gjk_rot2_apply(p->rot_b, n));
    }
    out->a = pa;
    out->b = pb;
    out->normal = n;
    out->distance = best.s;
    return true;
}

// The Expanding Polytope Algorithm in 2D: the penetration depth of two
// overlapping cores. The twin of epa.c, where the polytope is a convex
// polygon and its faces are edges.
//
// The depth is the distance from the origin to the boundary of D = A − B
// (the origin lies inside D). EPA keeps a convex polygon inside D that
// contains the origin, takes its edge nearest to the origin, and asks D for
// its support point w along that edge's outward normal n. The edge's
// distance is a lower bound of the depth and w·n an upper bound; when they
// meet within the tolerance the edge is the answer. Otherwise w is inserted
// between the edge's endpoints. For polygons D is a polygon whose vertices
// are support points, so the answer is exact up to rounding.
//
// Everything lives in fixed-size arrays on the stack: the vertices are
// appended to an array of 256 and linked into a counter-clockwise ring.
// When every vertex lies on D's boundary, w sees only the nearest edge; a
// warm-started simplex may hold points inside D, and then w may also see
// neighbouring edges: their shared vertices are unlinked, so the ring stays
// convex. Before a step is committed the two new edges are checked (length,
// origin inside); a step that fails ends EPA with the current nearest edge.
#include "internal2.h"

enum { EPA2_MAX_VERTICES = 256 };

typedef struct epa2_polygon {
    gjk2_support_point vert[EPA2_MAX_VERTICES];
    int next[EPA2_MAX_VERTICES]; ///< Counter-clockwise successor.
    int prev[EPA2_MAX_VERTICES];
    gjk_vec2 n[EPA2_MAX_VERTICES];    ///< n[v]: outward unit normal of edge v → next[v].
    gjk_real dist[EPA2_MAX_VERTICES]; ///< Signed distance of that edge's line from the origin.
    bool alive[EPA2_MAX_VERTICES];    ///< In the ring.
    int vertex_count;                 ///< Slots used (alive or not).
    int live_count;                   ///< Vertices in the ring.
    int shift; ///< The points' w are stored as w·2^−shift (see epa.c's choose_shift); a and b are not.
    gjk_real down; ///< 2^−shift.
} epa2_polygon;

/// The exponent by which EPA scales D's points: as in epa.c, so that
/// edges across the largest numbers do not overflow.
static int choose_shift(const gjk2_pair *pair, const gjk2_simplex *s) {
    gjk_real m = pair->scale;
    for (int i = 0; i < s->count; ++i) {
        m = gjk_max(m, gjk2_max_abs(s->v[i].w));
    }
    return gjk_range_shift(m);
}

/// w·2^−shift, exactly (but for underflow).
static gjk_vec2 shifted(gjk_vec2 w, int shift) { return gjk_v2(gjk_ldexp(w.x, -shift), gjk_ldexp(w.y, -shift)); }

/// D's support point along d, its w in the polygon's units.
static gjk2_support_point epa_support(gjk2_pair *pair, const epa2_polygon *P, gjk_vec2 d) {
    gjk2_support_point p = gjk2_pair_support(pair, d);
    p.w = gjk_scale2(P->down, p.w);
    return p;
}

/// The pair's tolerance (it grows with the points seen) in the polygon's units.
static gjk_real epa_tolerance(const gjk2_pair *pair, const epa2_polygon *P) {
    return P->down * gjk2_pair_tolerance(pair);
}

/// Outward normal and distance of edge a → b of a counter-clockwise
/// polygon; false when the edge has no length at the working precision (or
/// its difference overflowed).
static bool edge_line(gjk_vec2 a, gjk_vec2 b, gjk_vec2 *n, gjk_real *dist) {
    gjk_vec2 e = gjk_sub2(b, a);
    gjk_real ref = gjk_max(gjk2_max_abs(a), gjk2_max_abs(b));
    // The length by the largest component m first (as gjk_normalize2): e·e
    // overflows above √GJK_REAL_MAX and loses its digits in the subnormal
    // range, e/m does neither. |e| = m·|e/m| with |e/m| in [1, √2].
    gjk_real m = gjk2_max_abs(e);
    if (!(m > 0) || !(m <= GJK_REAL_MAX)) {
        return false;
    }
    gjk_vec2 u = gjk_v2(e.x / m, e.y / m);
    gjk_real lu = gjk_length2(u);
    if (!(m > GJK_REAL_EPSILON * ref / lu)) { // |e| ≤ ε·ref: no length at this precision
        return false;
    }
    // The right-hand perpendicular points out of a counter-clockwise polygon.
    *n = gjk_v2(u.y / lu, -u.x / lu);
    *dist = (gjk_dot2(*n, a) + gjk_dot2(*n, b)) / 2;
    return true;
}

/// A degenerate outcome: D has no area around the origin (or the initial
/// polygon could not be built), so the cores only touch. Depth 0 along `n`.
static void touching_result(const gjk2_simplex *s, gjk_vec2 n, gjk2_epa_result *out) {
    gjk_vec2 pa, pb;
    gjk2_simplex_witness(s, &pa, &pb);
    out->converged = true;
    out->depth = 0;
    out->normal = n;
    out->point_a = pa;
    out->point_b = pb;
}

/// Links points pts[0..count) (counter-clockwise, count ≤ 4) into the ring,
/// dropping vertices that do not turn left, and sets the edges. False when
/// fewer than three vertices remain or an edge has no length.
static bool build_ring(epa2_polygon *P, const gjk2_support_point *pts, int count) {
    gjk2_support_point v[4];
    int k = count;
    for (int m = 0; m < count; ++m) {
        v[m] = pts[m];
    }
    // Drop reflex and collinear vertices; the hull of four points needs at
    // most two passes, the bound only guards against rounding.
    for (int pass = 0; pass < 4 && k >= 3; ++pass) {
        bool dropped = false;
        for (int m = 0; m < k && k >= 3; ++m) {
            gjk_vec2 a = v[(m + k - 1) % k].w, b = v[m].w, c = v[(m + 1) % k].w;
            if (!(gjk_cross2(gjk_sub2(b, a), gjk_sub2(c, b)) > 0)) {
                for (int j = m; j + 1 < k; ++j) {
                    v[j] = v[j + 1];
                }
                --k;
                dropped = true;
                break;
            }
        }
        if (!dropped) {
            break;
        }
    }
    if (k < 3) {
        return false;
    }
    for (int m = 0; m < k; ++m) {
        P->vert[m] = v[m];
        P->next[m] = (m + 1) % k;
        P->prev[m] = (m + k - 1) % k;
        P->alive[m] = true;
        if (!edge_line(v[m].w, v[(m + 1) % k].w, &P->n[m], &P->dist[m])) {
            return false;
        }
    }
    P->vertex_count = k;
    P->live_count = k;
    return true;
}

/// Grows the final GJK simplex (the origin lies in it or within tolerance
/// of it) into a polygon with area that encloses the origin. Returns false
/// with *out filled when D turns out to be flat around the origin: then the
/// cores only touch, and the GJK simplex gives the witnesses.
///
/// The tolerance is read again after each support call: the pair's length
/// scale grows with the points seen, and a walk that ended on its first
/// point (a warm start whose support point is the origin) has seen nothing
/// else, so the tolerance on entry may be 0.
static bool initial_polygon(gjk2_pair *pair, const gjk2_simplex *s, epa2_polygon *P, gjk2_epa_result *out) {
    gjk2_simplex g = *s;
    for (int m = 0; m < g.count; ++m) {
        g.v[m].w = gjk_scale2(P->down, g.v[m].w);
    }

    if (g.count == 3) {
        // A triangle enclosing the origin: orient it counter-clockwise.
        gjk_vec2 p0 = g.v[0].w;
        gjk_real area = gjk_cross2(gjk_sub2(g.v[1].w, p0), gjk_sub2(g.v[2].w, p0));
        gjk2_support_point tri[3] = {g.v[0], g.v[1], g.v[2]};
        if (area < 0) {
            tri[1] = g.v[2];
            tri[2] = g.v[1];
        }
        if (area != 0 && build_ring(P, tri, 3)) {
            return true;
        }
        // Too thin for its orientation to be known: its longest edge passes
        // within rounding of the origin; go on with it as a segment.
        int drop = 0;
        gjk_real longest = -1;
        for (int m = 0; m < 3; ++m) {
            gjk_real len = gjk_length_sq2(gjk_sub2(g.v[(m + 2) % 3].w, g.v[(m + 1) % 3].w));
            if (len > longest) {
                longest = len;
                drop = m;
            }
        }
        g.v[drop] = g.v[2];
        g.count = 2;
    }
    if (g.count == 1) {
        // One point w within tolerance of the origin. It is D's support point
        // along its direction d, so D lies behind the line through w normal
        // to d: D reaches w·d/|d| ≤ |w| ≤ tolerance beyond the origin along d.
        // The cores touch, and d is an outward normal of D there (from A to
        // B). This is exact; a polygon grown around w would have the origin
        // on its boundary and only rounding to tell the sides apart.
        gjk_vec2 n = gjk_normalize2(g.v[0].d);
        if (gjk_length_sq2(n) > 0) {
            touching_result(s, n, out);
            return false;
        }
        // No direction recorded: find a second point of D away from the first.
        static const gjk_real dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int k = 0; k < 4 && g.count == 1; ++k) {
            gjk2_support_point p = epa_support(pair, P, gjk_v2(dirs[k][0], dirs[k][1]));
            if (gjk_length2(gjk_sub2(p.w, g.v[0].w)) > epa_tolerance(pair, P)) {
                g.v[1] = p;
                g.count = 2;
            }
        }
        if (g.count == 1) { // D is a single point: no direction is better than another
            touching_result(s, gjk_v2(1, 0), out);
            return false;
        }
    }
    // A segment through (or within tolerance of) the origin: add the support
    // points on both sides of its line to make a quadrilateral.
    gjk_vec2 n = gjk_normalize2(gjk_perp2(gjk_sub2(g.v[1].w, g.v[0].w))); // left of v0 → v1
    if (!(gjk_length_sq2(n) > 0)) { // two equal points: D is flat around them
        touching_result(s, gjk_v2(1, 0), out);
        return false;
    }
    gjk2_support_point up = epa_support(pair, P, n);
    gjk2_support_point down = epa_support(pair, P, gjk_neg2(n));
    gjk_real h_up = gjk_dot2(gjk_sub2(up.w, g.v[0].w), n);
    gjk_real h_down = gjk_dot2(gjk_sub2(down.w, g.v[0].w), n);
    gjk_real tol = epa_tolerance(pair, P);
    if (!(h_up > tol) || !(h_down < -tol)) {
        // D lies on one side of the segment's line, which passes through the
        // origin (or D is the segment): the cores touch, and the empty side
        // is the normal (the outward normal of D points from A to B).
        touching_result(s, !(h_up > tol) ? n : gjk_neg2(n), out);
        return false;
    }
    gjk2_support_point quad[4] = {g.v[0], down, g.v[1], up};
    if (build_ring(P, quad, 4)) {
        return true;
    }
    // A degenerate quadrilateral: take the side along which D reaches less
    // far beyond the line through the origin.
    touching_result(s, h_up <= -h_down ? n : gjk_neg2(n), out);
    return false;
}

/// Fills *out from the nearest edge `best`: its normal and distance, and the
/// origin's foot point p on its line, with the matching points of A and B.
/// The foot lies in the nearest edge unless D has a flat side split into
/// collinear edges (or rounding dented the polygon): then it lies in an edge
/// whose line also holds p, and that edge's barycentric coordinates give the
/// witness points.
static void edge_result(const epa2_polygon *P, int best, gjk_real tol, gjk2_epa_result *out) {
    gjk_vec2 foot = gjk_scale2(P->dist[best], P->n[best]);
    gjk_real best_miss = GJK_REAL_MAX;
    gjk_real lam[2], pick_lam[2] = {1, 0};
    int pick = best;
    // The edge `best` itself first: where the foot lies inside it, no other
    // edge holds it, and the scan is skipped (as in 3D, epa.c witness_at).
    (void)gjk2_segment_closest(P->vert[best].w, P->vert[P->next[best]].w, lam);
    if (lam[0] > 0 && lam[1] > 0) {
        best_miss = 0;
        pick_lam[0] = lam[0], pick_lam[1] = lam[1];
    }
    for (int f = 0; best_miss > 0 && f < P->vertex_count; ++f) {
        if (!P->alive[f] || (f != best && gjk_abs(gjk_dot2(P->n[f], foot) - P->dist[f]) > tol)) {
            continue;
        }
        gjk_vec2 c = gjk2_segment_closest(P->vert[f].w, P->vert[P->next[f]].w, lam);
        gjk_real miss = gjk_length2(gjk_sub2(c, foot));
        if (miss < best_miss) {
            best_miss = miss;
            pick = f;
            pick_lam[0] = lam[0], pick_lam[1] = lam[1];
        }
    }
    const gjk2_support_point *a = &P->vert[pick], *b = &P->vert[P->next[pick]];
    out->point_a = gjk_add2(gjk_scale2(pick_lam[0], a->a), gjk_scale2(pick_lam[1], b->a));
    out->point_b = gjk_add2(gjk_scale2(pick_lam[0], a->b), gjk_scale2(pick_lam[1], b->b));
    out->normal = P->n[best];
    out->depth = P->dist[best] > 0 ? P->dist[best] : 0;
}

/// The chain of edges that w sees (lies strictly beyond), grown from edge
/// `best` both ways: the edges starting at *left through the vertex before
/// *right; returns the vertices strictly between them (the ones that w
/// replaces).
static GJK_INLINE int visible_chain(const epa2_polygon *P, int best, gjk_vec2 w, int *left, int *right) {
    int l = best, r = P->next[best], removed = 0;
    for (int k = 0; k < P->live_count; ++k) {
        int pl = P->prev[l];
        if (pl == r || !(gjk_dot2(P->n[pl], gjk_sub2(w, P->vert[pl].w)) > 0)) {
            break;
        }
        l = pl;
        ++removed;
    }
    for (int k = 0; k < P->live_count; ++k) {
        int nr = P->next[r];
        if (nr == l || !(gjk_dot2(P->n[r], gjk_sub2(w, P->vert[r].w)) > 0)) {
            break;
        }
        r = nr;
        ++removed;
    }
    *left = l;
    *right = r;
    return removed;
}

/// Inserts w after vertex `best` (between the endpoints of the nearest
/// edge). Neighbouring edges that w also sees (w strictly beyond their line)
/// are replaced with it, so the ring stays convex. The two new edges must
/// have length and keep the origin inside (within tol); otherwise nothing
/// changes and false is returned.
static GJK_INLINE bool insert_vertex(epa2_polygon *P, int best, gjk2_support_point w, gjk_real tol) {
    int left, right;
    int removed = visible_chain(P, best, w.w, &left, &right);
    // At least three vertices stay.
    if (P->live_count - removed + 1 < 3) {
        return false;
    }
    gjk_vec2 n0, n1;
    gjk_real d0, d1;
    if (!edge_line(P->vert[left].w, w.w, &n0, &d0) || !edge_line(w.w, P->vert[right].w, &n1, &d1) || d0 < -tol ||
        d1 < -tol) {
        return false;
    }
    for (int v = P->next[left]; v != right; v = P->next[v]) {
        P->alive[v] = false;
    }
    int wi = P->vertex_count++;
    P->vert[wi] = w;
    P->alive[wi] = true;
    P->next[left] = wi, P->prev[wi] = left;
    P->next[wi] = right, P->prev[right] = wi;
    P->n[left] = n0, P->dist[left] = d0;
    P->n[wi] = n1, P->dist[wi] = d1;
    P->live_count += 1 - removed;
    return true;
}

/// Reports one EPA iteration to the trace callback: the polygon's vertices
/// in counter-clockwise order (world orientation, z = 0) and no faces. Kept
/// out of line so its array lives on the stack only while tracing.
static GJK_NOINLINE void trace_iteration(const gjk2_pair *pair, const epa2_polygon *P, int best, int iteration,
                                         gjk_vec2 w) {
    gjk_vec3 verts[EPA2_MAX_VERTICES];
    int nv = 0;
    int v = best;
    do {
        verts[nv++] = gjk2_trace_point(pair, shifted(P->vert[v].w, -P->shift));
        v = P->next[v];
    } while (v != best && nv < P->live_count);
    gjk_trace_event ev = {0};
    ev.phase = GJK_TRACE_EPA;
    ev.iteration = iteration;
    gjk_real lower = gjk_ldexp(P->dist[best], P->shift), upper = gjk_ldexp(gjk_dot2(w, P->n[best]), P->shift);
    ev.closest = gjk2_trace_point(pair, gjk_scale2(lower, P->n[best]));
    ev.direction = gjk2_trace_point(pair, P->n[best]);
    ev.support = gjk2_trace_point(pair, shifted(w, -P->shift));
    ev.lower = lower;
    ev.upper = upper;
    ev.vertex_count = nv;
    ev.vertices = verts;
    ev.face_count = 0;
    ev.faces = NULL;
    pair->trace(pair->trace_data, &ev);
}

/// The running upper bound on the depth (see epa_hull.h's gjk_epa_upper): the least
/// overlap w·n seen along a unit direction n, with its support point.
typedef struct epa2_upper {
    gjk_real overlap;
    gjk2_support_point w;
    gjk_vec2 n;
} epa2_upper;

/// Takes w (D's support point along the unit n, overlap = w·n) where it
/// bounds the depth better.
static void upper_take(epa2_upper *u, gjk_real overlap, gjk_vec2 n, const gjk2_support_point *w) {
    if (overlap < u->overlap) {
        u->overlap = overlap;
        u->w = *w;
        u->n = n;
    }
}

/// Whether the edges that see w beyond tol all lie in the run of edges
/// around `top` that see it at all (the run insert_vertex replaces): else
/// rounding has made them two runs, and inserting w would dent the polygon
/// (epa_hull.c's gjk_epa_add_point).
static bool sees_one_run(const epa2_polygon *P, int top, gjk_vec2 w, gjk_real tol) {
    bool in_run[EPA2_MAX_VERTICES] = {false};
    int left, right;
    (void)visible_chain(P, top, w, &left, &right);
    for (int v = left; v != right; v = P->next[v]) {
        in_run[v] = true;
    }
    for (int v = 0; v < P->vertex_count; ++v) {
        if (P->alive[v] && !in_run[v] && gjk_dot2(P->n[v], w) - P->dist[v] > tol) {
            return false;
        }
    }
    return true;
}

/// Halo steps on a curved D (epa_halo.c), in the plane: the
/// closest point's direction n on the affine patch of the nearest edge
/// v0 → v1 (before w split it: W(λ) = w0 + λ(w1 − w0), U(λ) alike from the
/// unit directions, W × U = 0, a quadratic in λ: three Newton steps from
/// the origin's foot), then two support points along n turned by ±δ,
/// δ = α √(tol / (4 gap)) (α the
/// spread of the edge's directions), so that the edge between them sags
/// below the surface by about tol/4. Each is inserted through the edge that
/// sees it most; one that none sees beyond tol is dropped. Returns the
/// support calls made (at most `budget`).
static int halo_step(gjk2_pair *pair, epa2_polygon *P, int v0, int v1, gjk_real gap, gjk_real tol, int budget,
                     epa2_upper *upper) {
    const gjk2_support_point *p0 = &P->vert[v0], *p1 = &P->vert[v1];
    if (!(gjk_length_sq2(p0->d) > 0) || !(gjk_length_sq2(p1->d) > 0)) {
        return 0;
    }
    gjk_vec2 u0 = gjk_normalize2(p0->d), u1 = gjk_normalize2(p1->d);
    gjk_vec2 dw = gjk_sub2(p1->w, p0->w), du = gjk_sub2(u1, u0);
    gjk_real dd = gjk_dot2(dw, dw);
    if (!(dd > 0)) {
        return 0;
    }
    gjk_real c0 = gjk_cross2(p0->w, u0), c1 = gjk_cross2(dw, u0) + gjk_cross2(p0->w, du), c2 = gjk_cross2(dw, du);
    gjk_real l = -gjk_dot2(p0->w, dw) / dd;
    for (int it = 0; it < 3; ++it) {
        gjk_real f = c0 + l * (c1 + l * c2), df = c1 + 2 * l * c2;
        if (!(gjk_abs(df) > 0)) {
            return 0;
        }
        l -= f / df;
    }
    gjk_vec2 U = gjk_mul_add2(u0, l, du);
    if (!(l > -1 && l < 2) || !(gjk_length_sq2(U) > GJK_R(0.25))) {
        return 0; // (NaN included; U = 0 is a root too, see epa.c)
    }
    gjk_vec2 n = gjk_normalize2(U);
    gjk_real alpha = gjk_max(gjk_length2(gjk_sub2(u0, n)), gjk_length2(gjk_sub2(u1, n)));
    if (!(alpha > 0) || !gjk_is_valid_vec2(n)) {
        return 0;
    }
    gjk_real delta = gjk_min(alpha * gjk_sqrt(tol / (4 * gap)), alpha / 2);
    int used = 0;
    for (int k = 0; k < 2 && used < budget && P->vertex_count < EPA2_MAX_VERTICES; ++k) {
        gjk_vec2 d = gjk_normalize2(gjk_mul_add2(n, k == 0 ? delta : -delta, gjk_perp2(n)));
        gjk2_support_point w = gjk2_pair_support(pair, d);
        w.w = gjk_scale2(P->down, w.w);
        ++used;
        if (pair->bad_support) {
            return used;
        }
        upper_take(upper, gjk_dot2(w.w, d), d, &w);
        int top = -1;
        gjk_real height = tol;
        for (int v = 0; v < P->vertex_count; ++v) {
            gjk_real h = P->alive[v] ? gjk_dot2(P->n[v], w.w) - P->dist[v] : -GJK_REAL_MAX;
            if (h > height) {
                height = h;
                top = v;
            }
        }
        if (top >= 0 && sees_one_run(P, top, w.w, tol)) {
            (void)insert_vertex(P, top, w, tol);
        }
    }
    return used;
}

/// An ellipse core whose radii are within a factor 32 of each other (see
/// epa.c, round_ellipsoid).
static bool round_ellipse(const gjk2_shape *s) {
    gjk_vec2 r = s->ellipse.radii;
    return gjk_max(r.x, r.y) <= 32 * gjk_min(r.x, r.y);
}

/// Whether EPA takes a halo step on this pair: a core is an ellipse, and
/// every ellipse core is round enough.
static bool halo_pair(const gjk2_pair *pair) {
    bool ea = pair->a->type == GJK2_SHAPE_ELLIPSE, eb = pair->b->type == GJK2_SHAPE_ELLIPSE;
    return (ea || eb) && (!ea || round_ellipse(pair->a)) && (!eb || round_ellipse(pair->b));
}

/// Whether the halo step is due after the nearest edge, `dist` from the
/// origin, got a support point `gap` above it: the gates of epa.c's
/// halo_due.
static bool halo_due(const gjk2_pair *pair, const epa2_polygon *P, gjk_real dist, gjk_real gap, gjk_real tol) {
    gjk_real size = P->down * pair->scale;
    return dist < size / 64 && gap > 64 * tol && gap < GJK_R(0.3) * gjk_sqrt(tol * size);
}

/// Inserts w after vertex `best` (insert_vertex), then takes the halo step
/// around that edge; false, with no halo, where the insertion fails.
/// *calls receives the halo's support calls. Out of line: the loop of
/// every other pair stays as it was.
static GJK_NOINLINE bool halo_insert(gjk2_pair *pair, epa2_polygon *P, int best, gjk2_support_point w, gjk_real gap,
                                     gjk_real tol, int budget, epa2_upper *upper, int *calls) {
    int best_next = P->next[best]; // (the edge's end: slots are never reused)
    if (!insert_vertex(P, best, w, tol)) {
        return false;
    }
    *calls = halo_step(pair, P, best, best_next, gap, tol, budget, upper);
    return true;
}

/// The depth of the point p (A's frame) inside B's ellipse core (b_side) or
/// A's: true with *depth > 0, the ellipse's nearest point *q and its outward
/// unit normal *u there (A's frame). The ellipse is the section z = 0 of the
/// ellipsoid whose third radius is its larger one, and the 3D closed form
/// answers (gjk_point_core, point_shape.c): for a point in that plane the
/// third coordinate's term drops out of the equation of the nearest point,
/// and the third axis is never the only least one, so the nearest point of
/// the ellipsoid is the ellipse's. False outside, or where the closed form
/// declines (a radius too small beside the size).
static bool ellipse_depth(const gjk2_pair *pair, bool b_side, gjk_vec2 p, gjk_real *depth, gjk_vec2 *q, gjk_vec2 *u) {
    gjk_vec2 r = (b_side ? pair->b : pair->a)->ellipse.radii;
    gjk_vec2 local = b_side ? gjk_rot2_inv_apply(pair->rot_b, gjk_sub2(p, pair->pos_b)) : p;
    gjk_shape e = gjk_make_ellipsoid(gjk_v3(r.x, r.y, gjk_max(r.x, r.y)));
    gjk_real m = gjk2_max_abs(local) + gjk_max(r.x, r.y);
    int k = gjk_point_core_shift(&e, m);
    gjk_real down = k != 0 ? gjk_ldexp(1, -k) : 1;
    gjk_point_answer ans;
    if (!gjk_is_valid_real(m) || !gjk_point_core(&e, gjk_v3(down * local.x, down * local.y, 0), m, k, &ans) ||
        !(ans.sd < 0)) {
        return false;
    }
    *depth = -ans.sd;
    gjk_vec2 lq = gjk_v2(ans.q.x, ans.q.y), lu = gjk_v2(ans.u.x, ans.u.y);
    *q = b_side ? gjk_add2(gjk_rot2_apply(pair->rot_b, lq), pair->pos_b) : lq;
    *u = b_side ? gjk_rot2_apply(pair->rot_b, lu) : lu;
    return true;
}

/// (x/r_x)² + (y/r_y)² for the point p (A's frame) in B's ellipse core
/// (b_side) or A's: below 1 inside (NaN or infinite for a zero radius, and
/// never below 1 then).
static gjk_real ellipse_level(const gjk2_pair *pair, bool b_side, gjk_vec2 p) {
    gjk_vec2 r = (b_side ? pair->b : pair->a)->ellipse.radii;
    gjk_vec2 local = b_side ? gjk_rot2_inv_apply(pair->rot_b, gjk_sub2(p, pair->pos_b)) : p;
    gjk_real x = local.x / r.x, y = local.y / r.y;
    return x * x + y * y;
}

/// The deepest point found so far of one core inside the other's ellipse
/// (see epa.c's point_best).
typedef struct point_best {
    gjk_real depth;
    gjk_vec2 a, b, n;
    bool of_a; ///< The point is A's (b its nearest point on B), else B's.
} point_best;

/// Takes p (A's frame; a point of A's core when b_side, else of B's) as
/// the best when it lies deeper in the other core's ellipse.
static void point_try(const gjk2_pair *pair, bool b_side, gjk_vec2 p, point_best *pb) {
    gjk_real depth;
    gjk_vec2 q, u;
    if (ellipse_depth(pair, b_side, p, &depth, &q, &u) && depth > pb->depth) {
        pb->depth = depth;
        pb->a = b_side ? p : q;
        pb->b = b_side ? q : p;
        pb->n = b_side ? gjk_neg2(u) : u;
        pb->of_a = b_side;
    }
}

/// The 2D twin of epa.c's point_certificate, for a corner of one core (any
/// but an ellipse or a user shape) deep inside an ellipse near its centre:
/// the depth is reached along a whole arc of directions where the ellipse
/// is nearly round, and EPA, refining chords of it, ran its 250 iterations
/// and answered not converged (a triangle's corner at the centre of an
/// ellipse of radii 1 and 0.999999: every pose; 1e-3 from it: 41%). D holds
/// the corner minus the ellipse, so the corner's depth in the ellipse
/// (ellipse_depth) bounds the depth from below; D's support along the
/// corner's own normal, or `upper` (EPA's best upper bound, scaled by
/// P->down), within the tolerance of it proves the answer: 2 with the
/// corner's own (its normal, the corner and its nearest point of the
/// ellipse), 1 with the upper bound's depth and normal (out->normal) and
/// the corner and the corner moved by its depth along that normal as the
/// witnesses (within the gap of the bounds of the supporting planes: see
/// epa.c). 0 otherwise, *out untouched; on a support point that is not
/// finite, with pair->bad_support set. B's points are looked at inside A's
/// ellipse where in_a, A's inside B's where in_b.
static int point_certificate(gjk2_pair *pair, const epa2_polygon *P, gjk_real upper, gjk_real tol, bool in_a,
                             bool in_b, gjk2_epa_result *out) {
    // Every point EPA met is one of A's and one of B's. The closed form is
    // asked for the one nearest the ellipse's centre by its level
    // (x/r_x)² + (y/r_y)², below 1 inside: on a nearly round ellipse, where
    // the certificate is needed, the deepest (asked for every point, a run
    // of 32 iterations in a polygon against an ellipse cost 6.5% more
    // instructions than without any try).
    int pick_a = -1, pick_b = -1;
    gjk_real level_a = 1, level_b = 1;
    for (int v = 0; v < P->vertex_count; ++v) {
        if (in_b) {
            gjk_real l = ellipse_level(pair, true, P->vert[v].a);
            pick_b = l < level_b ? v : pick_b;
            level_b = gjk_min(l, level_b);
        }
        if (in_a) {
            gjk_real l = ellipse_level(pair, false, P->vert[v].b);
            pick_a = l < level_a ? v : pick_a;
            level_a = gjk_min(l, level_a);
        }
    }
    point_best pb = {0, {0, 0}, {0, 0}, {0, 0}, false};
    if (pick_b >= 0) {
        point_try(pair, true, P->vert[pick_b].a, &pb);
    }
    if (pick_a >= 0) {
        point_try(pair, false, P->vert[pick_a].b, &pb);
    }
    if (!(pb.depth > 0)) {
        return 0;
    }
    gjk_real lower = pb.depth * P->down; // the scale of EPA's bounds
    gjk2_support_point w = gjk2_pair_support(pair, pb.n);
    if (pair->bad_support) {
        return 0;
    }
    if (gjk_dot2(w.w, pb.n) * P->down - lower <= tol) {
        out->converged = true;
        out->depth = lower;
        out->normal = pb.n;
        out->point_a = pb.a;
        out->point_b = pb.b;
        return 2;
    }
    if (upper - lower <= tol) {
        out->converged = true;
        gjk_vec2 step = gjk_scale2(pb.depth, out->normal);
        out->point_a = pb.of_a ? pb.a : gjk_add2(pb.b, step);
        out->point_b = pb.of_a ? gjk_sub2(pb.a, step) : pb.b;
        return 1;
    }
    return 0;
}

/// The first iteration at which a run tries point_certificate before its
/// end, then twice as many, and so on (as epa.c's GJK_EPA_CERTIFY_FIRST).
#define EPA2_CERTIFY_FIRST 32

/// Never (an iteration count no run reaches).
#define EPA2_CERTIFY_NEVER (1 << 30)

/// When and where a run tries point_certificate: a corner of one core (any
/// core but an ellipse or a user shape's) in the other's ellipse.
typedef struct certify_plan {
    int at;
    bool in_a, in_b;
    int certified;                ///< point_certificate's answer where certify_early stopped the loop, else 0,
    gjk2_epa_result certificate; ///< and the result it proved.
} certify_plan;

static bool cornered(const gjk2_shape *s) { return s->type != GJK2_SHAPE_ELLIPSE && s->type != GJK2_SHAPE_CUSTOM; }

static certify_plan plan_of(const gjk2_pair *pair) {
    certify_plan c;
    c.in_a = pair->a->type == GJK2_SHAPE_ELLIPSE && cornered(pair->b);
    c.in_b = pair->b->type == GJK2_SHAPE_ELLIPSE && cornered(pair->a);
    c.at = c.in_a || c.in_b ? EPA2_CERTIFY_FIRST : EPA2_CERTIFY_NEVER;
    c.certified = 0;
    return c;
}

/// At c->at iterations or more: whether point_certificate holds already,
/// on a copy of *out holding the upper bound's answer as at the run's end;
/// the run then stops, and its end takes c->certificate.
static GJK_NOINLINE bool certify_early(gjk2_pair *pair, const epa2_polygon *P, const epa2_upper *upper,
                                       const gjk2_epa_result *out, certify_plan *c) {
    c->at = out->iterations < (1 << 20) ? 2 * out->iterations : EPA2_CERTIFY_NEVER;
    gjk2_epa_result *r = &c->certificate;
    *r = *out;
    r->depth = upper->overlap > 0 ? upper->overlap : 0;
    r->normal = upper->n;
    c->certified = point_certificate(pair, P, upper->overlap, epa_tolerance(pair, P), c->in_a, c->in_b, r);
    return c->certified != 0 || pair->bad_support;
}

#if defined(__GNUC__) || defined(__clang__)
#define EPA2_LOOP static inline __attribute__((always_inline))
#else
#define EPA2_LOOP static inline
#endif

/// EPA's iterations from the initial polygon; returns the last nearest
/// edge (on a bad support point, with pair->bad_support set). Written once
/// and compiled with and without the halo step (halo_on), so that the loop
/// of pairs without an ellipse holds no trace of it: with the halo in the
/// one loop, 2d-poly64 penetration took 10,118 to 12,708 instructions a
/// query across its bands (10,042 to 12,451 before the halo), and 10,093
/// to 12,563 this way, insert_vertex and visible_chain forced inline (with
/// a second caller each, the compiler had stopped inlining them).
EPA2_LOOP int epa2_loop(gjk2_pair *pair, epa2_polygon *P, int max_iterations, gjk_real stop_depth,
                        gjk2_epa_result *out, epa2_upper *upper, certify_plan *certify, const bool halo_on) {
    int best = -1;
    bool halo = halo_on; // a halo step is still to come
    int stop_at = max_iterations < certify->at ? max_iterations : certify->at; // the cap, or a try of certify_early
    for (;;) {
        // The nearest edge in the ring.
        best = -1;
        gjk_real best_dist = GJK_REAL_MAX;
        for (int v = 0; v < P->vertex_count; ++v) {
            if (P->alive[v] && (best < 0 || P->dist[v] < best_dist)) {
                best_dist = P->dist[v];
                best = v;
            }
        }
        if (stop_depth > 0 && best_dist > stop_depth) {
            out->deeper = true; // the caller only asked whether the depth exceeds stop_depth
            break;
        }
        if (out->iterations >= stop_at || P->vertex_count >= EPA2_MAX_VERTICES) {
            if (out->iterations >= max_iterations || P->vertex_count >= EPA2_MAX_VERTICES ||
                certify_early(pair, P, upper, out, certify)) {
                break; // not converged (but maybe a point proves the answer, or a bad support point)
            }
            stop_at = max_iterations < certify->at ? max_iterations : certify->at;
        }
        ++out->iterations;
        gjk2_support_point w = gjk2_pair_support(pair, P->n[best]); // (epa_support, inline: a call here cost 4%)
        w.w = gjk_scale2(P->down, w.w);
        if (pair->bad_support) {
            return best;
        }
        gjk_real tol = epa_tolerance(pair, P);
        gjk_real overlap = gjk_dot2(w.w, P->n[best]);
        gjk_real gap = overlap - P->dist[best];
        upper_take(upper, overlap, P->n[best], &w);
        if (pair->trace != NULL) {
            trace_iteration(pair, P, best, out->iterations, w.w);
        }
        if (gap <= tol) {
            out->converged = true;
            break;
        }
        bool inserted;
        if (halo && halo_due(pair, P, P->dist[best], gap, tol)) {
            halo = false; // once a run
            int calls = 0;
            inserted = halo_insert(pair, P, best, w, gap, tol, max_iterations - out->iterations, upper, &calls);
            out->iterations += calls;
            if (pair->bad_support) {
                return best;
            }
        } else {
            inserted = insert_vertex(P, best, w, tol);
        }
        if (!inserted) {
            // No consistent step: w lies, within rounding, on the polygon.
            out->converged = gap <= GJK_R(1e3) * tol;
            break;
        }
    }
    return best;
}

bool gjk2_epa_run(gjk2_pair *pair, const gjk2_simplex *simplex, int max_iterations, gjk_real stop_depth,
                  gjk2_epa_result *out) {
    epa2_polygon P;
    out->iterations = 0;
    out->converged = false;
    out->deeper = false;
    // The best upper bound seen (see epa.c): the answer to keep if EPA must
    // stop early, since moving B by it along its normal separates the shapes.
    epa2_upper upper = {GJK_REAL_MAX, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, -1, -1}, {1, 0}};
    P.shift = choose_shift(pair, simplex);
    P.down = P.shift != 0 ? gjk_ldexp(1, -P.shift) : 1;
    stop_depth *= P.down;
    if (!initial_polygon(pair, simplex, &P, out)) {
        return !pair->bad_support;
    }
    if (pair->bad_support) {
        return false;
    }

    certify_plan certify = plan_of(pair);
    int best = halo_pair(pair) ? epa2_loop(pair, &P, max_iterations, stop_depth, out, &upper, &certify, true)
                               : epa2_loop(pair, &P, max_iterations, stop_depth, out, &upper, &certify, false);
    if (pair->bad_support) {
        return false;
    }
    edge_result(&P, best, epa_tolerance(pair, &P), out);
    if (!out->converged && !out->deeper && upper.overlap < GJK_REAL_MAX) {
        out->depth = upper.overlap > 0 ? upper.overlap : 0;
        out->normal = upper.n;
        out->point_a = upper.w.a;
        out->point_b = upper.w.b;
        if (certify.certified != 0) {
            *out = certify.certificate; // an early stop's answer (no iteration since it was taken)
        } else if (certify.in_a || certify.in_b) {
            (void)point_certificate(pair, &P, upper.overlap, epa_tolerance(pair, &P), certify.in_a, certify.in_b, out);
            if (pair->bad_support) {
                return false;
            }
        }
    }
    if (P.shift != 0) {
        out->depth = gjk_ldexp(out->depth, P.shift);
    }
    return true;
}

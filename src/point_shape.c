// Closed forms for a point core against a box, cylinder, cone, ellipsoid or
// triangle core: a sphere or a point (rounded or not) against one of those
// shapes (rounded or not). The signed distance sd of the point p to the
// other core C (positive outside, minus the depth inside), the point q of
// C's boundary nearest p and C's outward unit normal u at q give every
// query: the signed distance of the shapes is sd minus the two radii
// (support.h), and the normal from A to B is −u when A holds the point, u
// when B does.
//
// GJK and EPA reach these answers by iteration, and inside a cylinder, cone
// or ellipsoid EPA refines a polytope over the curved side: a sphere against
// a cylinder in random overlapping poses needed 30 EPA iterations on average
// and 12 of 1487 came out not converged (many more with the axes lined up).
// Here they are exact to rounding (the ellipsoid's to the rounding of a
// root found by Newton's method, see ellipsoid_point).
//
// Each core in its local frame (z its axis), p = (x, y, z):
// - box of half extents h. Outside, q = clamp(p, −h, h) and u is along
//   p − q, whose components are exactly 0 along the axes where p lies within
//   the box: u lies in the normal cone of q's face, edge or corner whatever
//   the rounding. Inside, the nearest face.
// - cylinder and cone: the same in p's meridian half-plane, coordinates
//   (ρ, z) with ρ = |(x, y)| and the radial unit e = (x, y)/ρ (on the axis,
//   where every radial direction is as near, e = (1, 0)). A cylinder's
//   section is the rectangle [0, r] × [−h, h]. A cone's is the triangle with
//   its apex at (0, h) and its base from (0, −h) to the rim (r, −h); its side
//   line has the outward normal (2h, r)/√(4h² + r²).
// - ellipsoid: the root of the equation of the nearest point (see
//   ellipsoid_point); triangle: Ericson's regions (see triangle_point).
// - Inside a convex region bounded by planes (and the cone's side, a plane
//   in each meridian) the nearest boundary point is the foot on the nearest
//   of them: the feet never fall beyond a corner of the section, whose
//   corners are all acute or right. Outside, the nearest point lies in the
//   region of the section's edge or corner that p is in (Ericson §5.1).
#include "internal.h"

/// Outside: q given, u along p − q (d), which the caller guarantees lies in
/// q's normal cone. sd = u·d is exact for d of any size (gjk_normalize
/// scales tiny and huge vectors), where |d| would underflow.
static void outside(gjk_vec3 d, gjk_vec3 q, gjk_vec3 fallback, gjk_point_answer *a) {
    a->q = q;
    a->u = gjk_normalize(d);
    if (!(gjk_length_sq(a->u) > 0)) {
        a->u = fallback; // d rounded to zero: p is on the boundary
    }
    a->sd = gjk_dot(a->u, d);
}

static void box_point(gjk_vec3 h, gjk_vec3 p, gjk_point_answer *a) {
    gjk_vec3 q = gjk_v3(gjk_min(gjk_max(p.x, -h.x), h.x), gjk_min(gjk_max(p.y, -h.y), h.y),
                        gjk_min(gjk_max(p.z, -h.z), h.z));
    gjk_vec3 d = gjk_sub(p, q);
    if (d.x != 0 || d.y != 0 || d.z != 0) {
        outside(d, q, gjk_v3(1, 0, 0), a);
        return;
    }
    // Inside: the face with the least gap (ties to the lower axis), on the
    // side p is on (+ for p on the mid-plane).
    gjk_real g[3] = {h.x - gjk_abs(p.x), h.y - gjk_abs(p.y), h.z - gjk_abs(p.z)};
    gjk_real c[3] = {p.x, p.y, p.z}, e[3] = {h.x, h.y, h.z};
    int k = g[1] < g[0] ? 1 : 0;
    k = g[2] < g[k] ? 2 : k;
    gjk_real s = c[k] < 0 ? -1 : 1;
    gjk_real uc[3] = {0, 0, 0};
    uc[k] = s;
    c[k] = s * e[k];
    a->sd = -g[k];
    a->u = gjk_v3(uc[0], uc[1], uc[2]);
    a->q = gjk_v3(c[0], c[1], c[2]);
}

/// ρ = |(x, y)| and the radial unit e (z = 0) of p, without underflow.
static gjk_real radial(gjk_vec3 p, gjk_vec3 *e) {
    gjk_vec3 flat = gjk_v3(p.x, p.y, 0);
    *e = gjk_normalize(flat);
    if (!(gjk_length_sq(*e) > 0)) {
        *e = gjk_v3(1, 0, 0); // on the axis
        return 0;
    }
    return gjk_dot(*e, flat);
}

/// The 3D vector of meridian coordinates (a along e, b along z).
static gjk_vec3 meridian(gjk_vec3 e, gjk_real a, gjk_real b) { return gjk_v3(a * e.x, a * e.y, b); }

static void cylinder_point(gjk_real r, gjk_real h, gjk_vec3 p, gjk_point_answer *a) {
    gjk_vec3 e;
    gjk_real rho = radial(p, &e);
    gjk_real side = rho - r, cap = gjk_abs(p.z) - h, s = p.z < 0 ? -1 : 1;
    if (side > 0 || cap > 0) {
        // Side, cap or rim: the parts of p − q along e and z, each zero
        // where p is within the section along it.
        gjk_real dr = gjk_max(side, 0), dz = gjk_max(cap, 0);
        outside(meridian(e, dr, s * dz), meridian(e, gjk_min(rho, r), gjk_min(gjk_max(p.z, -h), h)),
                meridian(e, 1, 0), a);
        return;
    }
    if (side >= cap) { // the side is nearer (or as near)
        a->sd = side;
        a->u = e;
        a->q = meridian(e, r, p.z);
    } else {
        a->sd = cap;
        a->u = gjk_v3(0, 0, s);
        a->q = gjk_v3(p.x, p.y, s * h);
    }
}

/// False for a cone of zero radius and height (a point: the general path).
///
/// Every test and offset is measured from the corner it concerns, the rim
/// (r, −h) or the apex (0, h), so that a region's test and its p − q agree
/// in sign however small they are. Measured from the far end, a point
/// 1e-17 off the apex of a small cone read as beyond the apex with p − q
/// radial, outside the apex's normal cone (f39); a point 1e-16 outside the
/// side just above the rim read as inside the side, and the rim's p − q, at
/// the rounding level, pointed anywhere (the review of f39's fix: 145 of
/// 100000 spheres centred on a rim).
static bool cone_point(gjk_real r, gjk_real h, gjk_vec3 p, gjk_point_answer *a) {
    // The side's outward unit normal (2h, r)/√(4h² + r²) and the direction
    // along it from the rim to the apex, (−r, 2h)/√(4h² + r²), with no
    // square of r or h (a cone 1e-162 wide).
    gjk_vec3 sn = gjk_normalize(gjk_v3(2 * h, r, 0));
    if (!(gjk_length_sq(sn) > 0)) {
        return false;
    }
    gjk_vec3 e;
    gjk_real rho = radial(p, &e), z = p.z;
    gjk_real nr = sn.x, nz = sn.y, tr = -nz, tz = nr;
    gjk_real at_rim = (rho - r) * tr + (z + h) * tz, at_apex = rho * tr + (z - h) * tz; // along the side
    // Signed distance to the side line from its nearer end, and to the base.
    gjk_real side = at_rim < -at_apex ? (rho - r) * nr + (z + h) * nz : rho * nr + (z - h) * nz;
    gjk_real base = -h - z;
    gjk_vec3 un = meridian(e, nr, nz);
    // The last two tests hold whenever the first two do, but for a cone of
    // zero radius (a segment) or zero height (a disk).
    bool on_side = side > 0 && at_rim > 0 && at_apex < 0;
    if (!on_side && side <= 0 && base <= 0 && z <= h && rho <= r) {
        on_side = side >= base; // inside: the nearer of the side and the base
    } else if (!on_side && !(base > 0 && rho <= r)) {
        if (at_apex >= 0) { // the apex
            outside(meridian(e, rho, z - h), gjk_v3(0, 0, h), un, a);
            return true;
        }
        // The rim, whose normal cone lies between the base's −z (where
        // ρ = r) and the side's normal (at_rim = 0): p − q within rounding
        // of either edge takes that edge's normal.
        if (at_rim <= 0 && rho - r >= 0) {
            outside(meridian(e, rho - r, z + h), meridian(e, r, -h), un, a);
            return true;
        }
        on_side = at_rim > 0;
    }
    if (on_side) {
        a->sd = side;
        a->u = un;
        a->q = gjk_sub(p, gjk_scale(side, un));
    } else {
        a->sd = base;
        a->u = gjk_v3(0, 0, -1);
        a->q = gjk_v3(p.x, p.y, -h);
    }
    return true;
}

/// One term per axis of an ellipsoid's equation of the nearest point (see
/// ellipsoid_point): F(σ) = Σ (c_i / (σ + d_i))² − 1 and
/// G(σ) = Σ (c_i / (σ + d_i))² / (σ + d_i) = −F'(σ)/2, over the axes with
/// c_i > 0.
static gjk_real ellipsoid_f(const gjk_real c[3], const gjk_real d[3], gjk_real sigma, gjk_real *g) {
    gjk_real f = -1, gg = 0;
    for (int i = 0; i < 3; ++i) {
        if (c[i] > 0) {
            gjk_real r = c[i] / (sigma + d[i]);
            f += r * r;
            gg += r * r / (sigma + d[i]);
        }
    }
    *g = gg;
    return f;
}

/// The nearest point of the ellipsoid of radii a to p, inside or outside,
/// for p and a scaled near 1 (m, their size, in [1/2, 1)). False when the
/// least radius is too small for the squares below (the general path).
///
/// The nearest point x of the surface Σ x_i²/a_i² = 1 has the outward normal
/// x_i/a_i² parallel to p − x (Lagrange): x_i = a_i² p_i / (a_i² + t). With
/// σ = t + a_k², a_k the least radius, c_i = a_i |p_i| and d_i = a_i² − a_k²
/// the surface equation is F(σ) = Σ (c_i / (σ + d_i))² − 1 = 0, and the
/// nearest point is its root on σ > 0 (Eberly, "Distance from a point to an
/// ellipse, an ellipsoid, or a hyperellipsoid", 2013, solves the same
/// equation in t; in σ a point near the plane p_k = 0 keeps its σ, and so
/// x_k, to full relative precision, where σ = t + a_k² cancelled). The
/// iteration is Newton's on ψ(σ) = (F(σ) + 1)^(−1/2) = 1: ψ is a power mean
/// of exponent −2 of the linear (σ + d_i)/c_i, so it is concave and
/// increasing, Newton's steps from the left of the root stay on the left
/// and converge, and with one term ψ is linear (one step), where Newton on F
/// itself crept away from a pole by half its distance a step. When p_k = 0 (each
/// least axis) F has no pole at 0, and if F(0) ≤ 0 there is no root: the
/// nearest point leaves the plane, at σ = 0, with x_k = a_k √(−F(0)) (the
/// centre's nearest point is a pole of the least axis).
static bool ellipsoid_point(gjk_vec3 radii, gjk_vec3 p, gjk_real m, gjk_point_answer *ans) {
#if GJK_USE_FLOAT
    const gjk_real least = 1e-12f;
#else
    const gjk_real least = 1e-60;
#endif
    gjk_real a[3] = {radii.x, radii.y, radii.z}, y[3] = {p.x, p.y, p.z};
    gjk_real ak = gjk_min(a[0], gjk_min(a[1], a[2]));
    if (!(ak >= least * m)) {
        return false;
    }
    // A coordinate below ε²·m is taken as 0: it moves the answer by less
    // than rounding does, and σ stays in the normal range.
    gjk_real flush = m * GJK_REAL_EPSILON * GJK_REAL_EPSILON;
    gjk_real c[3], d[3], lo = 0;
    bool pole = false;
    for (int i = 0; i < 3; ++i) {
        c[i] = gjk_abs(y[i]) > flush ? a[i] * gjk_abs(y[i]) : 0;
        d[i] = (a[i] - ak) * (a[i] + ak); // exactly 0 on a least axis
        if (c[i] > 0) {
            lo = gjk_max(lo, c[i] - d[i]); // where term i alone is 1: F(lo) ≥ 0
            pole = pole || d[i] == 0;
        }
    }
    gjk_real g, f = ellipsoid_f(c, d, lo, &g), n[3];
    if (!pole && lo == 0 && f <= 0) { // (lo > 0: the root lies beyond it, whatever F(lo) rounds to)
        // Off the plane of the least axis, at σ = 0.
        int k = a[0] == ak ? 0 : (a[1] == ak ? 1 : 2);
        for (int i = 0; i < 3; ++i) {
            n[i] = c[i] > 0 ? c[i] / (a[i] * d[i]) : 0; // x_i / a_i²
        }
        n[k] = gjk_sqrt(-f) / ak;
    } else {
        gjk_real hi = gjk_max(gjk_length(gjk_v3(c[0], c[1], c[2])), lo); // F(hi) ≤ 0
        int it = 0;
        for (; it < 100; ++it) {
            // Newton on ψ = (F + 1)^(−1/2) = 1 (below): from lo, the step
            // (F + 1)(√(F + 1) − 1)/G.
            gjk_real s1 = f + 1, next = lo + s1 * (gjk_sqrt(s1) - 1) / g;
            if (!(next > lo)) {
                break; // converged to rounding
            }
            if (!(next < hi)) {
                lo = hi; // the root lies between, within rounding
                break;
            }
            lo = next;
            f = ellipsoid_f(c, d, lo, &g);
        }
        if (it == 100) {
            return false;
        }
        for (int i = 0; i < 3; ++i) {
            n[i] = c[i] > 0 ? gjk_abs(y[i]) / (lo + d[i]) : 0;
        }
    }
    // The outward normal with p's signs; the signed distance along it, and
    // the foot: exact for that normal, whatever the root's rounding.
    gjk_vec3 u = gjk_normalize(gjk_v3(y[0] < 0 ? -n[0] : n[0], y[1] < 0 ? -n[1] : n[1], y[2] < 0 ? -n[2] : n[2]));
    ans->u = u;
    ans->sd = gjk_dot(u, p) - gjk_length(gjk_v3(a[0] * u.x, a[1] * u.y, a[2] * u.z));
    ans->q = gjk_sub(p, gjk_scale(ans->sd, u));
    return gjk_length_sq(u) > 0;
}

/// The nearest point of the triangle a, b, c to p, for p and the triangle
/// of size m in [2^−60, 2^60] ([1/4, 4] in float): the Voronoi region of p
/// among the vertices, edges and face (Ericson §5.1.5; his d1..d6 and the
/// barycentric va, vb, vc, quartic in the size). False for a sliver, whose
/// regions those quartics cannot tell apart, or a triangle too small for
/// them (the general path).
/// The core is flat, so sd ≥ 0, and p − q must lie in the normal cone of
/// q's feature however small it is: a vertex's offset is p − vertex, whose
/// dot products with the edges are the very region tests; an edge's is
/// made exactly perpendicular to the edge, and loses an inward part that
/// rounding left in the plane; on the face, the face's normal.
static bool triangle_point(gjk_vec3 a, gjk_vec3 b, gjk_vec3 c, gjk_vec3 p, gjk_real m, gjk_point_answer *ans) {
#if GJK_USE_FLOAT
    const gjk_real least = 1e-6f;
#else
    const gjk_real least = 1e-30;
#endif
    gjk_vec3 ab = gjk_sub(b, a), ac = gjk_sub(c, a), n = gjk_cross(ab, ac);
    // The regions' tests va, vb, vc sum to |n|², with errors of about
    // ε·|ab|²·|ac|²: a sliver whose |n|² is not well above that goes to the
    // general path (in float, slivers 1e-4 thin were answered 3e-4 off).
    gjk_real ab2 = gjk_length_sq(ab), ac2 = gjk_length_sq(ac);
    if (!(gjk_max(ab2, ac2) >= (least * m) * (least * m)) || !(gjk_length_sq(n) > 16 * GJK_REAL_EPSILON * ab2 * ac2)) {
        return false;
    }
    n = gjk_normalize(n);
    gjk_vec3 ap = gjk_sub(p, a), bp = gjk_sub(p, b), cp = gjk_sub(p, c);
    gjk_real d1 = gjk_dot(ab, ap), d2 = gjk_dot(ac, ap), d3 = gjk_dot(ab, bp), d4 = gjk_dot(ac, bp);
    gjk_real d5 = gjk_dot(ab, cp), d6 = gjk_dot(ac, cp);
    gjk_real vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    gjk_vec3 q, d, along; // the nearest point, p − q, and an edge's direction
    bool edge = false, reversed = false; // an edge, and one taken against the order a, b, c
    if (d1 <= 0 && d2 <= 0) {
        q = a, d = ap;
    } else if (d3 >= 0 && d4 <= d3) {
        q = b, d = bp;
    } else if (d6 >= 0 && d5 <= d6) {
        q = c, d = cp;
    } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        q = gjk_mul_add(a, d1 / (d1 - d3), ab), along = ab, edge = true;
    } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        q = gjk_mul_add(a, d2 / (d2 - d6), ac), along = ac, edge = reversed = true;
    } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        q = gjk_mul_add(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), gjk_sub(c, b)), along = gjk_sub(c, b), edge = true;
    } else {
        // The face: the distance to its plane, along its normal.
        gjk_real h = gjk_dot(n, ap);
        ans->u = h < 0 ? gjk_neg(n) : n;
        ans->sd = gjk_abs(h);
        ans->q = gjk_sub(p, gjk_scale(h, n));
        return true;
    }
    if (edge) {
        // p − q in the edge's own frame: o in the plane and away from the
        // triangle (t × n for an edge taken in the order a, b, c, which n =
        // ab × ac turns counter-clockwise), and n. Its part along the edge
        // and any part into the triangle, rounding's, are left out, so the
        // offset lies in the edge's normal cone however small it is (from
        // p − q itself, a point on an edge took rounding's 1e-33 for its
        // normal; orienting o by the centroid failed on an edge 1e-16 long).
        gjk_vec3 t = gjk_normalize(along), o = gjk_cross(t, n);
        o = reversed ? gjk_neg(o) : o;
        d = gjk_sub(p, q);
        d = gjk_add(gjk_scale(gjk_max(gjk_dot(d, o), 0), o), gjk_scale(gjk_dot(d, n), n));
    }
    // An offset below ε² of the size is taken as 0 (p on the triangle,
    // along the face's normal, which every feature's cone holds): near a
    // vertex at the origin its parts were subnormal, their products with
    // the edges kept a few bits, and the normal came out 0.02 off a vertex's
    // cone (fuzz, f42).
    if (gjk_max_abs(d) <= m * GJK_REAL_EPSILON * GJK_REAL_EPSILON) {
        d = gjk_v3_zero();
    }
    outside(d, q, n, ans);
    return true;
}

int gjk_point_core_shift(const gjk_shape *shape, gjk_real m) {
    // Coordinates far from 1 would take squares out of the normal range:
    // the point and the shape are then solved multiplied by 2^−k, exactly,
    // and the answer scaled back (as closed_form.c does).
    // (An ellipsoid's always, by the exponent of m clamped as
    // gjk_shift_outside does: its iteration wants them near 1; a triangle's
    // outside [2^−60, 2^60], [1/4, 4] in float, for its quartics.)
#if GJK_USE_FLOAT
    const gjk_real tri_lo = 0.25f, tri_hi = 4;
#else
    const gjk_real tri_lo = 0x1p-60, tri_hi = 0x1p60;
#endif
    return shape->type == GJK_SHAPE_ELLIPSOID  ? gjk_shift_outside(m, 1, 1)
           : shape->type == GJK_SHAPE_TRIANGLE ? gjk_shift_outside(m, tri_lo, tri_hi)
                                               : gjk_range_shift(m);
}

bool gjk_point_core(const gjk_shape *shape, gjk_vec3 p, gjk_real m, int k, gjk_point_answer *out) {
    gjk_real down = k != 0 ? gjk_ldexp(1, -k) : 1, up = k != 0 ? gjk_ldexp(1, k) : 1;
    gjk_point_answer pa;
    switch (shape->type) {
    case GJK_SHAPE_BOX: box_point(gjk_scale(down, shape->box.half_extents), p, &pa); break;
    case GJK_SHAPE_CYLINDER:
        cylinder_point(down * shape->cylinder.radius, down * shape->cylinder.half_height, p, &pa);
        break;
    case GJK_SHAPE_CONE:
        if (!cone_point(down * shape->cone.radius, down * shape->cone.half_height, p, &pa)) {
            return false;
        }
        break;
    case GJK_SHAPE_ELLIPSOID:
        if (!ellipsoid_point(gjk_scale(down, shape->ellipsoid.radii), p, down * m, &pa)) {
            return false;
        }
        break;
    case GJK_SHAPE_TRIANGLE:
        if (!triangle_point(gjk_scale(down, shape->triangle.a), gjk_scale(down, shape->triangle.b),
                            gjk_scale(down, shape->triangle.c), p, down * m, &pa)) {
            return false;
        }
        break;
    default: return false;
    }
    out->sd = pa.sd * up;
    out->q = gjk_scale(up, pa.q);
    out->u = pa.u;
    return true;
}

/// True for the shapes whose core is a point.
static bool point_core(const gjk_shape *s) { return s->type == GJK_SHAPE_POINT || s->type == GJK_SHAPE_SPHERE; }

bool gjk_point_closed_form(const gjk_query_input *in, gjk_closed_answer *s) {
    bool a_point = point_core(in->shape_a);
    const gjk_shape *shape = a_point ? in->shape_b : in->shape_a;
    if (!(a_point || point_core(in->shape_b)) ||
        !(shape->type == GJK_SHAPE_BOX || shape->type == GJK_SHAPE_CYLINDER || shape->type == GJK_SHAPE_CONE ||
          shape->type == GJK_SHAPE_ELLIPSOID || shape->type == GJK_SHAPE_TRIANGLE)) {
        return false;
    }
    // Anything invalid goes the general way, which reports it.
    // (The point's rotation is only checked: a point core has no direction.)
    const gjk_transform *tp = a_point ? &in->transform_a : &in->transform_b;
    const gjk_transform *ts = a_point ? &in->transform_b : &in->transform_a;
    gjk_scaled_rotation rs; // validated
    if (!gjk_options_valid(&in->options) || !gjk_shape_check(in->shape_a, false) ||
        !gjk_shape_check(in->shape_b, false) || !gjk_transform_valid(tp) || !gjk_scaled_rotation_of(ts, &rs)) {
        return false;
    }
    // The point relative to the shape: one difference of world positions,
    // as in the general path, then in the shape's frame.
    gjk_vec3 off = gjk_sub(tp->position, ts->position);
    gjk_real m = gjk_max_abs(off) + gjk_shape_size(shape);
    int k = gjk_point_core_shift(shape, m);
    gjk_point_answer pa;
    if (!gjk_point_core(shape, gjk_inv_rotate_scaled(rs, gjk_scale(k != 0 ? gjk_ldexp(1, -k) : 1, off)), m, k, &pa)) {
        return false;
    }
    // In the world's orientation about the shape's position.
    gjk_vec3 q = gjk_rotate_scaled(rs, pa.q), u = gjk_rotate_scaled(rs, pa.u);
    s->origin = ts->position;
    s->ra = gjk_core_radius(in->shape_a);
    s->rb = gjk_core_radius(in->shape_b);
    s->core = pa.sd;
    s->ca = a_point ? off : q;
    s->cb = a_point ? q : off;
    s->n = a_point ? gjk_neg(u) : u;
    gjk_real rel = gjk_options_tolerance(&in->options);
    s->tol = rel * (m + s->ra + s->rb);
    s->inner_t = a_point ? 0 : 1; // the point core, when it lies inside the other core
    return gjk_is_valid_real(s->tol) && gjk_is_valid_real(s->ra + s->rb);
}

/// The face of hull h whose plane the point c lies least below (or most
/// above): its index, and c's height n·c − offset above it in *s.
static int highest_face(const gjk_hull *h, gjk_vec3 c, gjk_real *s) {
    int best = 0;
    gjk_real hb = gjk_dot(h->face_normals[0], c) - h->face_offsets[0];
    for (int f = 1; f < h->face_count; ++f) {
        gjk_real t = gjk_dot(h->face_normals[f], c) - h->face_offsets[f];
        if (t > hb) {
            hb = t;
            best = f;
        }
    }
    *s = hb;
    return best;
}

bool gjk_point_hull_depth(const gjk_pair *p, gjk_epa_result *out) {
    const gjk_shape *a = p->a, *b = p->b;
    bool a_hull = a->type == GJK_SHAPE_POLYTOPE && a->polytope.hull != NULL && point_core(b);
    bool b_hull = b->type == GJK_SHAPE_POLYTOPE && b->polytope.hull != NULL && point_core(a);
    if (!a_hull && !b_hull) {
        return false;
    }
    const gjk_hull *h = a_hull ? a->polytope.hull : b->polytope.hull;
    if (h->flat || h->face_count < 4) {
        return false; // no inside: a point in the plane lies on it
    }
    // The point core (at its shape's origin) in the hull's frame.
    gjk_vec3 c = a_hull ? p->pos_b : gjk_mat3_tmul(p->rot_b, gjk_neg(p->pos_b));
    gjk_real s;
    int f = highest_face(h, c, &s);
    if (!(s <= gjk_pair_tolerance(p))) {
        return false; // outside after all (or not finite): leave EPA's answer
    }
    gjk_vec3 nf = h->face_normals[f];
    gjk_real depth = s < 0 ? -s : 0;
    if (a_hull) {
        // B's point leaves A through face f: along its normal.
        out->normal = nf;
        out->point_b = c;
        out->point_a = gjk_add(c, gjk_scale(depth, nf));
    } else {
        // A's point leaves B through face f: B moves against its normal.
        gjk_vec3 m = gjk_mat3_mul(p->rot_b, nf);
        out->normal = gjk_neg(m);
        out->point_a = gjk_v3_zero();
        out->point_b = gjk_scale(depth, m);
    }
    out->depth = depth;
    out->converged = true;
    return true;
}

bool gjk_point_core_at(const gjk_shape *shape, gjk_vec3 local, gjk_point_answer *ans) {
    gjk_real m = gjk_max_abs(local) + gjk_shape_size(shape);
    int k = gjk_point_core_shift(shape, m);
    return gjk_is_valid_real(m) && gjk_point_core(shape, gjk_scale(k != 0 ? gjk_ldexp(1, -k) : 1, local), m, k, ans);
}

bool gjk_pair_point_inside(const gjk_pair *pair, bool b_side, gjk_vec3 p, gjk_real *depth, gjk_vec3 *q, gjk_vec3 *u) {
    const gjk_shape *shape = b_side ? pair->b : pair->a;
    gjk_vec3 local = b_side ? gjk_mat3_tmul(pair->rot_b, gjk_sub(p, pair->pos_b)) : p;
    gjk_point_answer ans;
    if (!gjk_point_core_at(shape, local, &ans) || !(ans.sd < 0)) {
        return false;
    }
    *depth = -ans.sd;
    *q = b_side ? gjk_add(gjk_mat3_mul(pair->rot_b, ans.q), pair->pos_b) : ans.q;
    *u = b_side ? gjk_mat3_mul(pair->rot_b, ans.u) : ans.u;
    return true;
}

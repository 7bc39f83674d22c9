// Two solids of revolution with parallel axes: gjk_penetration's answer in
// the plane of the two axes, by the 2D queries.
//
// Cylinders, cones, capsules, segments and ellipsoids with two equal radii
// are each symmetric about an axis. A core symmetric about the line through
// c with unit direction a has the support function
//     h(n) = n·c + g(n·a, |n − (n·a) a|),
// g the support function of its section by a plane through the axis (a 2D
// shape symmetric about the axis, so that g is even in its second argument).
// Let A's and B's axes be parallel (direction a), and c = c_B − c_A have the
// part ρ ê across a (ρ ≥ 0, ê a unit vector ⊥ a) and z along it. The
// signed distance of the cores is
//     max over unit n of  n·c − g_A(n_a, |n_r|) − g_B(−n_a, |n_r|),
// with n_a = n·a, n_r = n − n_a a. For given n_a and |n_r| only
// n·c = n_a z + |n_r| ρ cos φ depends on n_r's direction (φ its angle to
// ê), and it is largest at φ = 0: the best n lies in the plane of a and ê,
// the plane of both axes. In that plane (x along ê, y along a) the
// maximum is the 2D signed distance of the sections, A's at the origin
// and B's at (ρ, z), turned half a turn when B's axis points along −a.
// The 2D witness points lie in the sections, so in the solids.
//
// Where the cores overlap deeply along their common axis, every direction
// across it gives the same depth (two coaxial cylinders: the sum of the
// radii): a continuum of least-depth directions, which EPA's polytope cannot
// narrow down within its vertices, and gjk_penetration ended "not
// converged" on up to 40% of such poses (cones and capsules). In 2D the
// continuum is two directions, ±ê.
//
// Axes parallel only within rounding (angle θ): turning one shape about its
// axis point c by θ moves each of its core's points by at most θ times
// their largest distance from c (`reach`), and so every support value and
// the signed distance by at most that. The plane's answer is taken when that
// bound, for the shape with the smaller reach, is at most a quarter of the
// tolerance; other pairs go to GJK and EPA.
#include "gjk/gjk2d.h"
#include "internal.h"

/// A shape's axis of revolution (its own frame) and its core's section.
typedef struct axial_view {
    gjk_vec3 c, u;      ///< A point of the axis and its unit direction.
    gjk2_shape section; ///< The core's section: x across the axis, y along u from c.
    gjk_real reach;     ///< At least the largest distance of the core's points from c.
    bool any_axis;      ///< An ellipsoid with three equal radii: every line through c.
} axial_view;

/// The ellipsoid's view: the axis along the radius that differs from the
/// two equal ones. False when all three differ.
static bool ellipsoid_view(gjk_vec3 r, axial_view *v) {
    v->reach = gjk_max_abs(r);
    v->any_axis = r.x == r.y && r.y == r.z;
    if (v->any_axis) {
        v->section = gjk2_make_circle(r.x); // a point and its radius: the 2D closed forms take it
    } else if (r.x == r.y) {
        v->section = gjk2_make_ellipse(gjk_v2(r.x, r.z)); // u = z
    } else if (r.x == r.z) {
        v->u = gjk_v3(0, 1, 0);
        v->section = gjk2_make_ellipse(gjk_v2(r.x, r.y));
    } else if (r.y == r.z) {
        v->u = gjk_v3(1, 0, 0);
        v->section = gjk2_make_ellipse(gjk_v2(r.y, r.x));
    } else {
        return false;
    }
    return true;
}

/// The view of a shape that has one; false for every other shape, and for
/// a segment or capsule of zero length (a point or ball: other paths).
static bool axial_view_of(const gjk_shape *s, axial_view *v) {
    v->c = gjk_v3_zero();
    v->u = gjk_v3(0, 0, 1);
    v->any_axis = false;
    switch (s->type) {
    case GJK_SHAPE_CYLINDER: {
        gjk_real r = s->cylinder.radius, h = s->cylinder.half_height;
        v->section = gjk2_make_box(gjk_v2(r, h));
        v->reach = r + h;
        return true;
    }
    case GJK_SHAPE_CONE: {
        gjk_real r = s->cone.radius, h = s->cone.half_height;
        v->section = gjk2_make_triangle(gjk_v2(-r, -h), gjk_v2(r, -h), gjk_v2(0, h));
        v->reach = r + h;
        return true;
    }
    case GJK_SHAPE_SEGMENT:
    case GJK_SHAPE_CAPSULE: {
        gjk_vec3 a = s->type == GJK_SHAPE_SEGMENT ? s->segment.a : s->capsule.a;
        gjk_vec3 b = s->type == GJK_SHAPE_SEGMENT ? s->segment.b : s->capsule.b;
        gjk_real half = gjk_segment_axis(a, b, &v->c, &v->u);
        if (!(half > 0)) {
            return false;
        }
        v->section = gjk2_make_segment(gjk_v2(0, -half), gjk_v2(0, half));
        v->reach = half;
        return true;
    }
    case GJK_SHAPE_ELLIPSOID: return ellipsoid_view(s->ellipsoid.radii, v);
    default: return false;
    }
}

/// The plane's vector v (x along e, y along the axis) in A's frame.
static gjk_vec3 in_plane(gjk_vec2 v, gjk_vec3 e, gjk_vec3 axis) { return gjk_mul_add(gjk_scale(v.x, e), v.y, axis); }

bool gjk_axial_signed(const gjk_pair *p, const gjk_options *o, gjk_real tol, gjk_real band, gjk_box_answer *out,
                      int *iterations, int *epa_iterations) {
    axial_view va, vb;
    if (!axial_view_of(p->a, &va) || !axial_view_of(p->b, &vb)) {
        return false;
    }
    // Both axes in A's frame; a ball-shaped side takes the other's axis (two
    // of them: B's z; concentric, every direction gives the least depth, a
    // whole sphere of them for EPA).
    gjk_vec3 ua = va.u, ub = gjk_mat3_mul(p->rot_b, vb.u);
    gjk_vec3 ca = va.c, cb = gjk_add(p->pos_b, gjk_mat3_mul(p->rot_b, vb.c));
    ua = va.any_axis ? ub : ua;
    ub = vb.any_axis ? ua : ub;
    gjk_real cosine = gjk_dot(ua, ub), sine = gjk_length(gjk_cross(ua, ub));
    gjk_real turn = cosine < 0 ? GJK_R(-1) : GJK_R(1);
    // θ ≤ (π/2) sin θ for θ up to a quarter turn; the shape turned is the
    // one with the smaller reach, and its axis takes the other's direction.
    bool turn_a = va.reach < vb.reach;
    if (!(GJK_R(1.6) * sine * gjk_min(va.reach, vb.reach) <= tol / 4)) {
        return false;
    }
    gjk_vec3 axis = turn_a ? gjk_scale(turn, ub) : ua;
    // B's axis point from A's: z along the axis, ρ ê across it. The part
    // across is taken off the axis twice: once, it keeps a part along the
    // axis at the rounding of the offset, ε|off|, which is all of it when
    // B's axis point lies on A's axis; twice, that part is ε of what is
    // left, plus ε²|off|, and more where the axis is unit only within its
    // rounding (two coaxial cones, one turned half a turn by a quaternion
    // with w = −6.6e-268: 1.9e-29 of an offset of 5.5 was left, all along
    // the axis, so that ê was the axis itself and the normal came out along
    // it, 63° off: fuzz finding f53). So ê is taken where what is left is
    // above 16ε²|off| and points across the axis within 16ε, which only a
    // part across it of more than about ε|off| does; otherwise any ê, at
    // an error of at most that part.
    gjk_vec3 off = gjk_sub(cb, ca);
    gjk_real z = gjk_dot(off, axis);
    gjk_vec3 across = gjk_mul_add(off, -z, axis);
    across = gjk_mul_add(across, -gjk_dot(across, axis), axis);
    gjk_vec3 e = gjk_normalize(across), f;
    gjk_real rho = gjk_dot(across, e);
    if (!(rho > 16 * GJK_REAL_EPSILON * GJK_REAL_EPSILON * gjk_max_abs(off)) ||
        !(gjk_abs(gjk_dot(e, axis)) <= 16 * GJK_REAL_EPSILON)) {
        gjk_orthonormal_basis(axis, &e, &f);
        rho = 0;
    }
    gjk2_query_input in;
    in.shape_a = &va.section;
    in.transform_a = gjk_transform2_identity();
    in.shape_b = &vb.section;
    in.transform_b.position = gjk_v2(rho, z);
    in.transform_b.rotation.c = turn, in.transform_b.rotation.s = 0;
    in.options = *o;
    in.options.trace = NULL;
    in.options.max_distance = 0; // the answer, not a bound: the 3D query reads it as exact
    gjk2_penetration_output r = gjk2_penetration(&in, NULL);
    if (r.status != GJK_SEPARATED && r.status != GJK_TOUCHING && r.status != GJK_PENETRATING) {
        return false; // not converged (or no answer): GJK and EPA's
    }
    gjk_real sd = r.signed_distance - p->radius;
    if (!(sd > band || sd < -band)) {
        return false; // near touching: the walk's, as gjk_distance's and gjk_intersect's
    }
    out->distance = r.signed_distance;
    out->normal = gjk_normalize(in_plane(r.normal, e, axis));
    out->a = gjk_add(ca, in_plane(r.point_a, e, axis));
    out->b = gjk_add(ca, in_plane(r.point_b, e, axis));
    *iterations = r.iterations;
    *epa_iterations = r.epa_iterations;
    return true;
}

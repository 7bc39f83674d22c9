// Mass properties of the library's shapes, and their world bounds.
//
// Closed forms (uniform density ρ, h a half height, inertia about the centre
// of mass):
//   sphere r:     m = ρ·4/3·π·r³, I = 2/5·m·r²
//   box a, b, c (half extents): m = ρ·8abc, Ixx = m·(b² + c²)/3, ...
//   ellipsoid a, b, c: m = ρ·4/3·π·abc, Ixx = m·(b² + c²)/5, ...
//   cylinder r, h: m = ρ·π·r²·2h, Izz = m·r²/2, Ixx = m·(3r² + (2h)²)/12
//   cone r, h (height H = 2h, base at −h): m = ρ·π·r²·H/3, centre of mass H/4
//     above the base (z = −h/2), Izz = 3/10·m·r², Ixx = m·(3/20·r² + 3/80·H²)
//   capsule (segment of length L along u, radius r): a cylinder m_c = ρπr²L
//     and a ball m_s = ρ·4/3·πr³ split in two hemispheres; about the axis
//     I = m_c·r²/2 + m_s·2/5·r²; across it I = m_c·(L²/12 + r²/4) +
//     m_s·(2/5·r² + L²/4 + 3/8·L·r) (each hemisphere's centroid is 3r/8 from
//     its flat face; parallel axis theorem).
// Polytopes: exact integrals over the hull's faces, each face a fan of
// triangles, each triangle with the origin a signed tetrahedron (Tonon 2004,
// "Explicit exact formulas for the 3-D tetrahedron inertia tensor"): for the
// tetrahedron (0, a, b, c) with A = [a b c] the second moment ∫x·xᵀ dV is
// det(A)/120 · A·(J + Id)·Aᵀ, J the matrix of ones; the volume det(A)/6 and
// the first moment det(A)/24 · (a + b + c). Summed over the faces of a
// closed surface the signed pieces give the solid's exact integrals.
#include <stdio.h>

#include "sim.h"

static const double pi = 3.14159265358979323846;

static sim_mat3 axis_inertia(sim_vec3 u, double along, double across) {
    // across·(Id − u uᵀ) + along·u uᵀ
    double c[3] = {u.x, u.y, u.z};
    sim_mat3 m;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            m.m[i][j] = (along - across) * c[i] * c[j] + (i == j ? across : 0);
        }
    }
    return m;
}

static const char *hull_mass(const gjk_hull *hull, double density, sim_mass *out) {
    if (hull->flat) {
        return "a flat hull has no volume";
    }
    double vol = 0;
    sim_vec3 first = sv3(0, 0, 0);
    double second[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    // Integrate about a point inside (the mean vertex), so that the pieces
    // stay small when the hull lies far from its frame's origin.
    sim_vec3 o = sv3(0, 0, 0);
    for (int v = 0; v < hull->vertex_count; ++v) {
        o = sv_add(o, sv_from_gjk(hull->vertices[v]));
    }
    o = sv_scale(1.0 / hull->vertex_count, o);
    for (int f = 0; f < hull->face_count; ++f) {
        int first_index = hull->face_first[f], end = hull->face_first[f + 1];
        sim_vec3 a = sv_sub(sv_from_gjk(hull->vertices[hull->face_indices[first_index]]), o);
        for (int k = first_index + 1; k + 1 < end; ++k) {
            sim_vec3 b = sv_sub(sv_from_gjk(hull->vertices[hull->face_indices[k]]), o);
            sim_vec3 c = sv_sub(sv_from_gjk(hull->vertices[hull->face_indices[k + 1]]), o);
            double det = sv_dot(a, sv_cross(b, c));
            vol += det / 6;
            first = sv_mul_add(first, det / 24, sv_add(a, sv_add(b, c)));
            // A·(J + Id)·Aᵀ = s·sᵀ + a·aᵀ + b·bᵀ + c·cᵀ with s = a + b + c.
            sim_vec3 s = sv_add(a, sv_add(b, c));
            double sv[3] = {s.x, s.y, s.z}, av[3] = {a.x, a.y, a.z}, bv[3] = {b.x, b.y, b.z}, cv[3] = {c.x, c.y, c.z};
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j) {
                    second[i][j] += det / 120 * (sv[i] * sv[j] + av[i] * av[j] + bv[i] * bv[j] + cv[i] * cv[j]);
                }
            }
        }
    }
    if (!(vol > 0) || !isfinite(vol)) {
        return "the hull has no volume";
    }
    sim_vec3 c = sv_scale(1 / vol, first);
    double cv[3] = {c.x, c.y, c.z};
    double cov[3][3];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            cov[i][j] = second[i][j] - vol * cv[i] * cv[j]; // about the centre of mass
        }
    }
    double tr = cov[0][0] + cov[1][1] + cov[2][2];
    out->volume = vol;
    out->mass = density * vol;
    out->com = sv_add(o, c);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            out->inertia.m[i][j] = density * ((i == j ? tr : 0) - cov[i][j]);
        }
    }
    return NULL;
}

const char *sim_mass_properties(const gjk_shape *shape, double density, sim_mass *out) {
    out->volume = 0;
    out->mass = 0;
    out->com = sv3(0, 0, 0);
    out->inertia = sm_zero();
    double margin = (double)shape->margin;
    if (margin != 0 && shape->type != GJK_SHAPE_SPHERE && shape->type != GJK_SHAPE_CAPSULE) {
        return "only a sphere or capsule may carry a margin on a dynamic body (other rounded shapes have no "
               "mass properties here)";
    }
    double v = 0, m;
    switch (shape->type) {
    case GJK_SHAPE_SPHERE: {
        double r = (double)shape->sphere.radius + margin;
        v = 4.0 / 3.0 * pi * r * r * r;
        m = density * v;
        out->inertia = sm_diag(0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r);
        break;
    }
    case GJK_SHAPE_BOX: {
        sim_vec3 e = sv_from_gjk(shape->box.half_extents);
        v = 8 * e.x * e.y * e.z;
        m = density * v;
        out->inertia = sm_diag(m * (e.y * e.y + e.z * e.z) / 3, m * (e.x * e.x + e.z * e.z) / 3,
                               m * (e.x * e.x + e.y * e.y) / 3);
        break;
    }
    case GJK_SHAPE_ELLIPSOID: {
        sim_vec3 e = sv_from_gjk(shape->ellipsoid.radii);
        v = 4.0 / 3.0 * pi * e.x * e.y * e.z;
        m = density * v;
        out->inertia = sm_diag(m * (e.y * e.y + e.z * e.z) / 5, m * (e.x * e.x + e.z * e.z) / 5,
                               m * (e.x * e.x + e.y * e.y) / 5);
        break;
    }
    case GJK_SHAPE_CYLINDER: {
        double r = (double)shape->cylinder.radius, h = (double)shape->cylinder.half_height;
        v = pi * r * r * 2 * h;
        m = density * v;
        double across = m * (3 * r * r + 4 * h * h) / 12;
        out->inertia = sm_diag(across, across, m * r * r / 2);
        break;
    }
    case GJK_SHAPE_CONE: {
        double r = (double)shape->cone.radius, h = (double)shape->cone.half_height, H = 2 * h;
        v = pi * r * r * H / 3;
        m = density * v;
        double across = m * (3.0 / 20.0 * r * r + 3.0 / 80.0 * H * H);
        out->inertia = sm_diag(across, across, 0.3 * m * r * r);
        out->com = sv3(0, 0, -h / 2);
        break;
    }
    case GJK_SHAPE_CAPSULE: {
        sim_vec3 a = sv_from_gjk(shape->capsule.a), b = sv_from_gjk(shape->capsule.b);
        double r = (double)shape->capsule.radius + margin;
        sim_vec3 d = sv_sub(b, a);
        double L = sv_length(d);
        double vc = pi * r * r * L, vs = 4.0 / 3.0 * pi * r * r * r;
        v = vc + vs;
        m = density * v;
        double mc = density * vc, ms = density * vs;
        double along = mc * r * r / 2 + ms * 0.4 * r * r;
        double across = mc * (L * L / 12 + r * r / 4) + ms * (0.4 * r * r + L * L / 4 + 0.375 * L * r);
        out->inertia = L > 0 ? axis_inertia(sv_scale(1 / L, d), along, across) : sm_diag(along, along, along);
        out->com = sv_scale(0.5, sv_add(a, b));
        break;
    }
    case GJK_SHAPE_POLYTOPE:
        if (shape->polytope.hull == NULL) {
            return "a polytope needs its hull (gjk_make_hull) for mass properties";
        }
        return hull_mass(shape->polytope.hull, density, out);
    case GJK_SHAPE_POINT:
        return "a point has no volume";
    case GJK_SHAPE_SEGMENT:
        return "a segment has no volume";
    case GJK_SHAPE_TRIANGLE:
        return "a triangle has no volume";
    default:
        return "this shape type has no mass properties";
    }
    if (!(v > 0)) {
        return "the shape has no volume";
    }
    if (!isfinite(v)) {
        return "the shape's volume is beyond the numbers' range";
    }
    out->volume = v;
    out->mass = m;
    return NULL;
}

sim_aabb sim_shape_bounds(const gjk_shape *shape, sim_vec3 position, sim_quat rotation) {
    // The library's box: each bound the shape's support value along a world
    // axis (the shapes were validated when the world was made).
    gjk_aabb_output b = gjk_shape_aabb(shape, gjk_transform_make(sv_to_gjk(position), sq_to_gjk(rotation)));
    sim_aabb box = {sv_from_gjk(b.lower), sv_from_gjk(b.upper)};
    return box;
}

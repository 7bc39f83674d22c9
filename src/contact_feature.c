// The supporting features of the shapes' cores for the contact manifolds
// (contact.c, step 2): the feature of a core farthest along a direction, as
// a polygon with its outward normal, a segment or one point, and the ids
// that name it (which face, edge or end of the shape).
#include "contact_feature.h"

/// Octagon of unit rim directions: cylinder caps and cone bases.
static const gjk_real octagon[8][2] = {
    {1, 0}, {GJK_R(0.70710678118654752), GJK_R(0.70710678118654752)}, {0, 1},
    {GJK_R(-0.70710678118654752), GJK_R(0.70710678118654752)}, {-1, 0},
    {GJK_R(-0.70710678118654752), GJK_R(-0.70710678118654752)}, {0, -1},
    {GJK_R(0.70710678118654752), GJK_R(-0.70710678118654752)},
};

static void feature_point(gjk_contact_feature *f, gjk_vec3 p, uint32_t index) {
    f->count = 1;
    f->v[0] = p;
    f->normal = gjk_v3_zero();
    f->index = index;
}

static void feature_segment(gjk_contact_feature *f, gjk_vec3 a, gjk_vec3 b, uint32_t index) {
    f->count = 2;
    f->v[0] = a;
    f->v[1] = b;
    f->normal = gjk_v3_zero();
    f->index = index;
}

/// A segment core a–b: the segment when it is nearly perpendicular to d,
/// else its supporting end point (ids 1 and 2).
static void feature_of_segment(gjk_contact_feature *f, gjk_vec3 a, gjk_vec3 b, gjk_vec3 d) {
    gjk_vec3 e = gjk_sub(b, a);
    gjk_real len = gjk_length(e);
    if (len > 0 && gjk_abs(gjk_dot(e, d)) <= GJK_CONTACT_FLAT_SIN * len) {
        feature_segment(f, a, b, 0);
    } else if (gjk_dot(e, d) > 0) {
        feature_point(f, b, 2);
    } else {
        feature_point(f, a, 1);
    }
}

/// True when the hull is usable by polytope `s`: arrays present, indices in
/// range of the polytope's vertices, normals finite.
static bool hull_usable(const gjk_shape *s) {
    const gjk_hull *h = s->polytope.hull;
    if (h == NULL || h->face_count < 1 || h->face_first == NULL || h->face_indices == NULL ||
        h->face_normals == NULL || h->vertex_count != s->polytope.count) {
        return false;
    }
    return true;
}

/// A hull polytope: the face whose normal is most aligned with d (a scan
/// over the faces), with at most GJK_CONTACT_MAX_FEATURE of its vertices.
/// Returns false when the hull's data are out of range.
static bool feature_of_hull(gjk_contact_feature *f, const gjk_shape *s, gjk_vec3 d) {
    const gjk_hull *h = s->polytope.hull;
    int best = -1;
    gjk_real best_dot = -GJK_REAL_MAX;
    for (int i = 0; i < h->face_count; ++i) {
        gjk_real t = gjk_dot(h->face_normals[i], d);
        if (t > best_dot) {
            best_dot = t;
            best = i;
        }
    }
    if (best < 0) {
        return false;
    }
    int first = h->face_first[best], last = h->face_first[best + 1];
    int n = last - first;
    if (first < 0 || n < 3) {
        return false;
    }
    int kept = n < GJK_CONTACT_MAX_FEATURE ? n : GJK_CONTACT_MAX_FEATURE;
    for (int k = 0; k < kept; ++k) {
        // Every vertex, or kept of them evenly spread (in order).
        int vi = h->face_indices[first + (int)((long long)k * n / kept)];
        if (vi < 0 || vi >= s->polytope.count) {
            return false;
        }
        f->v[k] = s->polytope.vertices[vi];
    }
    gjk_vec3 nf = h->face_normals[best];
    gjk_real len = gjk_length(nf);
    if (!gjk_is_valid_vec3(nf) || !(len > 0)) {
        return false;
    }
    f->count = kept;
    f->normal = gjk_scale(1 / len, nf);
    f->index = (uint32_t)best;
    return true;
}

/// The supporting feature of the core of `s` along d (local frame, unit),
/// in the local frame. Polygons come with their outward normal.
static void feature_local(gjk_contact_feature *f, const gjk_shape *s, gjk_vec3 d) {
    switch (s->type) {
    case GJK_SHAPE_SEGMENT: feature_of_segment(f, s->segment.a, s->segment.b, d); return;
    case GJK_SHAPE_CAPSULE: feature_of_segment(f, s->capsule.a, s->capsule.b, d); return;
    case GJK_SHAPE_TRIANGLE: {
        gjk_vec3 nt = gjk_cross(gjk_sub(s->triangle.b, s->triangle.a), gjk_sub(s->triangle.c, s->triangle.a));
        gjk_real len = gjk_length(nt);
        if (!(len > 0)) {
            break; // degenerate: one point
        }
        nt = gjk_scale(1 / len, nt);
        bool back = gjk_dot(nt, d) < 0;
        f->count = 3;
        f->v[0] = s->triangle.a;
        f->v[1] = s->triangle.b;
        f->v[2] = s->triangle.c;
        f->normal = back ? gjk_neg(nt) : nt;
        f->index = back ? 1u : 0u;
        return;
    }
    case GJK_SHAPE_BOX: {
        // The face most aligned with d: the axis of largest |d_i|.
        gjk_real c[3] = {d.x, d.y, d.z};
        gjk_real h[3] = {s->box.half_extents.x, s->box.half_extents.y, s->box.half_extents.z};
        int i = 0;
        for (int k = 1; k < 3; ++k) {
            if (gjk_abs(c[k]) > gjk_abs(c[i])) {
                i = k;
            }
        }
        int j = (i + 1) % 3, k = (i + 2) % 3;
        gjk_real sign = c[i] < 0 ? -1 : 1;
        uint32_t index = (uint32_t)(2 * i + (sign > 0 ? 1 : 0));
        if (h[j] == 0 || h[k] == 0) {
            // A face with no area (a plate seen edge-on, a needle, a point):
            // its segment or point. As a polygon its zero-length edges would
            // have no side planes, and an incident feature would go
            // unclipped along them (fuzz: a capsule's whole core was
            // projected onto a point box, 0.12 deep where the depth was
            // 0.0095).
            gjk_real p0[3], p1[3];
            p0[i] = p1[i] = sign * h[i];
            p0[j] = h[j], p1[j] = -h[j];
            p0[k] = h[k], p1[k] = -h[k];
            gjk_vec3 a = gjk_v3(p0[0], p0[1], p0[2]), b = gjk_v3(p1[0], p1[1], p1[2]);
            if (h[j] == 0 && h[k] == 0) {
                feature_point(f, a, index);
            } else {
                feature_segment(f, a, b, index);
            }
            return;
        }
        // Corners (±h_j, ±h_k) in order around axis i.
        static const gjk_real cj[4] = {1, -1, -1, 1}, ck[4] = {1, 1, -1, -1};
        for (int m = 0; m < 4; ++m) {
            gjk_real p[3];
            p[i] = sign * h[i];
            p[j] = cj[m] * h[j];
            p[k] = ck[m] * h[k];
            f->v[m] = gjk_v3(p[0], p[1], p[2]);
        }
        gjk_real nn[3] = {0, 0, 0};
        nn[i] = sign;
        f->count = 4;
        f->normal = gjk_v3(nn[0], nn[1], nn[2]);
        f->index = index;
        return;
    }
    case GJK_SHAPE_CYLINDER:
    case GJK_SHAPE_CONE: {
        bool cyl = s->type == GJK_SHAPE_CYLINDER;
        gjk_real r = cyl ? s->cylinder.radius : s->cone.radius;
        gjk_real hh = cyl ? s->cylinder.half_height : s->cone.half_height;
        gjk_real rho = gjk_sqrt(d.x * d.x + d.y * d.y);
        // A flat disc (cylinder caps, cone base) facing d: a regular octagon
        // inscribed in the rim (exact radius at its vertices).
        bool top = cyl && d.z >= GJK_CONTACT_FLAT;
        bool bottom = d.z <= -GJK_CONTACT_FLAT;
        if (top || bottom) {
            gjk_real z = top ? hh : -hh;
            for (int m = 0; m < 8; ++m) {
                f->v[m] = gjk_v3(r * octagon[m][0], r * octagon[m][1], z);
            }
            f->count = 8;
            f->normal = gjk_v3(0, 0, top ? 1 : -1);
            f->index = top ? 0u : 1u;
            if (r > 0) {
                return;
            }
            break;
        }
        if (rho > 0 && r > 0) {
            gjk_real cx = d.x / rho, cy = d.y / rho;
            gjk_vec3 rim_lo = gjk_v3(r * cx, r * cy, -hh);
            gjk_vec3 rim_hi = cyl ? gjk_v3(r * cx, r * cy, hh) : gjk_v3(0, 0, hh);
            // The side line's outward normal: (cx, cy, 0) for a cylinder,
            // ∝ (2h cx, 2h cy, r) for a cone (perpendicular to the line from
            // (r cx, r cy, −h) to the apex (0, 0, h)).
            gjk_vec3 ns = cyl ? gjk_v3(cx, cy, 0) : gjk_normalize(gjk_v3(2 * hh * cx, 2 * hh * cy, r));
            if (gjk_dot(ns, d) >= GJK_CONTACT_FLAT) {
                feature_segment(f, rim_lo, rim_hi, 2);
                return;
            }
        }
        break;
    }
    case GJK_SHAPE_POLYTOPE:
        if (hull_usable(s) && feature_of_hull(f, s, d)) {
            return;
        }
        break;
    default: break;
    }
    // Curved shapes, points, polytopes without a hull: the support point.
    feature_point(f, gjk_core_support(s, d), 0);
}

void gjk_contact_feature_world(gjk_contact_feature *f, const gjk_shape *s, gjk_transform x, gjk_vec3 d) {
    feature_local(f, s, gjk_quat_inv_rotate(x.rotation, d));
    for (int k = 0; k < f->count; ++k) {
        f->v[k] = gjk_transform_point(x, f->v[k]);
    }
    f->normal = gjk_quat_rotate(x.rotation, f->normal);
    f->radius = gjk_core_radius(s);
}

void gjk_contact_polygon_to_edge(gjk_contact_feature *f, const gjk_shape *s, gjk_transform x, gjk_vec3 d,
                                 gjk_real tol) {
    gjk_vec3 top = gjk_transform_point(x, gjk_core_support(s, gjk_quat_inv_rotate(x.rotation, d)));
    gjk_real h = gjk_dot(top, d);
    int best = -1;
    gjk_real best_low = -GJK_REAL_MAX;
    for (int k = 0; k < f->count; ++k) {
        gjk_vec3 a = f->v[k], b = f->v[(k + 1) % f->count];
        gjk_vec3 e = gjk_sub(b, a);
        gjk_real len = gjk_length(e);
        gjk_real da = gjk_dot(a, d), db = gjk_dot(b, d);
        gjk_real low = gjk_min(da, db);
        if (len > 0 && gjk_abs(db - da) <= GJK_CONTACT_FLAT_SIN * len &&
            low >= h - GJK_CONTACT_FLAT_SIN * len - tol && low > best_low) {
            best_low = low;
            best = k;
        }
    }
    if (best >= 0) {
        gjk_vec3 a = f->v[best], b = f->v[(best + 1) % f->count];
        // Named by the face and its edge, apart from the faces' own names.
        feature_segment(f, a, b, 0x40u | ((f->index * (uint32_t)GJK_CONTACT_MAX_FEATURE + (uint32_t)best) & 0x3Fu));
    }
}

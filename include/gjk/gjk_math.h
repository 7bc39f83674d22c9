// gjk — small inline vector, quaternion, matrix and rigid-transform helpers.
//
// Every type here is a plain value: pass it by value, initialise it with a
// designated initialiser or one of the gjk_*_make helpers. Nothing here
// allocates, prints or checks; the queries check their inputs with
// gjk_is_valid_* at the API boundary.
#ifndef GJK_MATH_H
#define GJK_MATH_H

#include <math.h>
#include <stdbool.h>

#include "gjk/gjk_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A 3D vector or point.
typedef struct gjk_vec3 {
    gjk_real x, y, z;
} gjk_vec3;

/// A rotation as a unit quaternion w + xi + yj + zk.
typedef struct gjk_quat {
    gjk_real w, x, y, z;
} gjk_quat;

/// A 3x3 matrix stored as three columns. For a rotation the columns are the
/// images of the x, y and z axes.
typedef struct gjk_mat3 {
    gjk_vec3 cx, cy, cz;
} gjk_mat3;

/// A rigid transform: a rotation followed by a translation. It maps a point
/// p of a shape's local frame to the world as q·p·q* + position.
typedef struct gjk_transform {
    gjk_vec3 position;
    gjk_quat rotation;
} gjk_transform;

#if GJK_USE_FLOAT
#define GJK_REAL_EPSILON 1.1920929e-7f
#define GJK_REAL_MAX 3.40282347e+38f
#define gjk_sqrt sqrtf
#define gjk_copysign copysignf
#define gjk_fabs fabsf
#define GJK_SQUARE_MIN 1e-30f
#define GJK_SQUARE_MAX 1e30f
#else
/// Machine epsilon of gjk_real.
#define GJK_REAL_EPSILON 2.2204460492503131e-16
/// Largest finite gjk_real.
#define GJK_REAL_MAX 1.7976931348623157e+308
/// Square root in gjk_real.
#define gjk_sqrt sqrt
/// |x| with the sign of y (bit operations, no branch).
#define gjk_copysign copysign
/// |x| (clears the sign bit).
#define gjk_fabs fabs
/// Squared lengths between these are far from underflow and overflow: the
/// normalise functions then skip their scaling step.
#define GJK_SQUARE_MIN 1e-280
#define GJK_SQUARE_MAX 1e280
#endif

/// True when x is neither NaN nor infinite.
static inline bool gjk_is_valid_real(gjk_real x) {
    // x - x is 0 for finite x and NaN for NaN or ±inf; NaN compares unequal.
    return (x - x) == (x - x);
}

/// |x|.
static inline gjk_real gjk_abs(gjk_real x) { return gjk_fabs(x); } // the sign bit cleared: no branch
/// The smaller of a and b.
static inline gjk_real gjk_min(gjk_real a, gjk_real b) { return a < b ? a : b; }
/// The larger of a and b.
static inline gjk_real gjk_max(gjk_real a, gjk_real b) { return a > b ? a : b; }

/// Makes a vector.
static inline gjk_vec3 gjk_v3(gjk_real x, gjk_real y, gjk_real z) {
    gjk_vec3 v = {x, y, z};
    return v;
}
/// The zero vector.
static inline gjk_vec3 gjk_v3_zero(void) { return gjk_v3(0, 0, 0); }
/// a + b.
static inline gjk_vec3 gjk_add(gjk_vec3 a, gjk_vec3 b) { return gjk_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
/// a − b.
static inline gjk_vec3 gjk_sub(gjk_vec3 a, gjk_vec3 b) { return gjk_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
/// −a.
static inline gjk_vec3 gjk_neg(gjk_vec3 a) { return gjk_v3(-a.x, -a.y, -a.z); }
/// s·a.
static inline gjk_vec3 gjk_scale(gjk_real s, gjk_vec3 a) { return gjk_v3(s * a.x, s * a.y, s * a.z); }
/// a + s·b.
static inline gjk_vec3 gjk_mul_add(gjk_vec3 a, gjk_real s, gjk_vec3 b) {
    return gjk_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
/// a · b.
static inline gjk_real gjk_dot(gjk_vec3 a, gjk_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/// a × b.
static inline gjk_vec3 gjk_cross(gjk_vec3 a, gjk_vec3 b) {
    return gjk_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/// |a|².
static inline gjk_real gjk_length_sq(gjk_vec3 a) { return gjk_dot(a, a); }
/// |a|.
static inline gjk_real gjk_length(gjk_vec3 a) { return gjk_sqrt(gjk_dot(a, a)); }
/// |a − b|.
static inline gjk_real gjk_distance_between(gjk_vec3 a, gjk_vec3 b) { return gjk_length(gjk_sub(a, b)); }
/// a / |a|, or the zero vector when |a| is zero (or a is not finite). The
/// vector is first divided by its largest component, so that tiny or huge
/// finite vectors neither underflow nor overflow when squared.
static inline gjk_vec3 gjk_normalize(gjk_vec3 a) {
    // Fast path: a squared length well inside the normal range is exact
    // enough (relative rounding only) and needs no scaling.
    gjk_real s2 = a.x * a.x + a.y * a.y + a.z * a.z;
    if (s2 > GJK_SQUARE_MIN && s2 < GJK_SQUARE_MAX) {
        return gjk_scale(1 / gjk_sqrt(s2), a);
    }
    gjk_real m = gjk_max(gjk_abs(a.x), gjk_max(gjk_abs(a.y), gjk_abs(a.z)));
    if (!(m > 0) || !(m <= GJK_REAL_MAX)) {
        return gjk_v3(0, 0, 0);
    }
    a = gjk_v3(a.x / m, a.y / m, a.z / m);
    return gjk_scale(1 / gjk_sqrt(a.x * a.x + a.y * a.y + a.z * a.z), a);
}
/// True when every component is finite.
static inline bool gjk_is_valid_vec3(gjk_vec3 a) {
    // One test instead of three: each x − x is 0 when x is finite and NaN
    // otherwise, and a NaN survives the sum.
    gjk_real z = (a.x - a.x) + (a.y - a.y) + (a.z - a.z);
    return z == z;
}
/// The component-wise largest |a_i|.
static inline gjk_real gjk_max_abs(gjk_vec3 a) {
    return gjk_max(gjk_abs(a.x), gjk_max(gjk_abs(a.y), gjk_abs(a.z)));
}

/// Makes a quaternion from its scalar part w and vector part (x, y, z).
static inline gjk_quat gjk_quat_make(gjk_real w, gjk_real x, gjk_real y, gjk_real z) {
    gjk_quat q = {w, x, y, z};
    return q;
}
/// The identity rotation.
static inline gjk_quat gjk_quat_identity(void) { return gjk_quat_make(1, 0, 0, 0); }
/// True when every component is finite.
static inline bool gjk_is_valid_quat(gjk_quat q) {
    gjk_real z = (q.w - q.w) + (q.x - q.x) + (q.y - q.y) + (q.z - q.z); // as gjk_is_valid_vec3
    return z == z;
}
/// q / |q|; the identity when q is zero (or not finite).
static inline gjk_quat gjk_quat_normalize(gjk_quat q) {
    gjk_real s2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (s2 > GJK_SQUARE_MIN && s2 < GJK_SQUARE_MAX) {
        gjk_real k = 1 / gjk_sqrt(s2);
        return gjk_quat_make(k * q.w, k * q.x, k * q.y, k * q.z);
    }
    // Divide by the largest component first, so that tiny or huge (but
    // finite) components neither underflow nor overflow when squared.
    gjk_real m = gjk_max(gjk_max(gjk_abs(q.w), gjk_abs(q.x)), gjk_max(gjk_abs(q.y), gjk_abs(q.z)));
    if (!(m > 0) || !(m <= GJK_REAL_MAX)) {
        return gjk_quat_identity();
    }
    q = gjk_quat_make(q.w / m, q.x / m, q.y / m, q.z / m);
    gjk_real s = 1 / gjk_sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    return gjk_quat_make(s * q.w, s * q.x, s * q.y, s * q.z);
}
/// The rotation of `angle` radians about the unit vector `axis`.
static inline gjk_quat gjk_quat_from_axis_angle(gjk_vec3 axis, gjk_real angle) {
    gjk_real h = (gjk_real)0.5 * angle;
    gjk_real s = (gjk_real)sin(h);
    return gjk_quat_make((gjk_real)cos(h), s * axis.x, s * axis.y, s * axis.z);
}
/// The conjugate, which is the inverse of a unit quaternion.
static inline gjk_quat gjk_quat_conj(gjk_quat q) { return gjk_quat_make(q.w, -q.x, -q.y, -q.z); }
/// The product a·b: rotate by b, then by a.
static inline gjk_quat gjk_quat_mul(gjk_quat a, gjk_quat b) {
    return gjk_quat_make(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                         a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                         a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                         a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}
/// Rotates v by the unit quaternion q: q·v·q*.
static inline gjk_vec3 gjk_quat_rotate(gjk_quat q, gjk_vec3 v) {
    // v' = v + 2w(u × v) + 2u × (u × v), u the vector part (Rodrigues form).
    gjk_vec3 u = gjk_v3(q.x, q.y, q.z);
    gjk_vec3 t = gjk_scale(2, gjk_cross(u, v));
    return gjk_add(gjk_mul_add(v, q.w, t), gjk_cross(u, t));
}
/// Rotates v by the inverse of the unit quaternion q.
static inline gjk_vec3 gjk_quat_inv_rotate(gjk_quat q, gjk_vec3 v) { return gjk_quat_rotate(gjk_quat_conj(q), v); }

/// Makes a matrix from its three columns.
static inline gjk_mat3 gjk_mat3_make(gjk_vec3 cx, gjk_vec3 cy, gjk_vec3 cz) {
    gjk_mat3 m = {cx, cy, cz};
    return m;
}
/// The rotation matrix of a unit quaternion.
static inline gjk_mat3 gjk_mat3_from_quat(gjk_quat q) {
    gjk_real xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    gjk_real xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    gjk_real wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    return gjk_mat3_make(gjk_v3(1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)),
                         gjk_v3(2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)),
                         gjk_v3(2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)));
}
/// The unit quaternion of a rotation matrix (Shepperd's method: take the
/// largest of the four diagonal combinations to avoid cancellation).
static inline gjk_quat gjk_quat_from_mat3(gjk_mat3 m) {
    gjk_real trace = m.cx.x + m.cy.y + m.cz.z;
    gjk_quat q;
    if (trace > 0) {
        gjk_real s = gjk_sqrt(trace + 1) * 2; // s = 4w
        q = gjk_quat_make(s / 4, (m.cy.z - m.cz.y) / s, (m.cz.x - m.cx.z) / s, (m.cx.y - m.cy.x) / s);
    } else if (m.cx.x > m.cy.y && m.cx.x > m.cz.z) {
        gjk_real s = gjk_sqrt(1 + m.cx.x - m.cy.y - m.cz.z) * 2; // s = 4x
        q = gjk_quat_make((m.cy.z - m.cz.y) / s, s / 4, (m.cy.x + m.cx.y) / s, (m.cz.x + m.cx.z) / s);
    } else if (m.cy.y > m.cz.z) {
        gjk_real s = gjk_sqrt(1 + m.cy.y - m.cx.x - m.cz.z) * 2; // s = 4y
        q = gjk_quat_make((m.cz.x - m.cx.z) / s, (m.cy.x + m.cx.y) / s, s / 4, (m.cz.y + m.cy.z) / s);
    } else {
        gjk_real s = gjk_sqrt(1 + m.cz.z - m.cx.x - m.cy.y) * 2; // s = 4z
        q = gjk_quat_make((m.cx.y - m.cy.x) / s, (m.cz.x + m.cx.z) / s, (m.cz.y + m.cy.z) / s, s / 4);
    }
    return gjk_quat_normalize(q);
}
/// m·v.
static inline gjk_vec3 gjk_mat3_mul(gjk_mat3 m, gjk_vec3 v) {
    return gjk_v3(m.cx.x * v.x + m.cy.x * v.y + m.cz.x * v.z, m.cx.y * v.x + m.cy.y * v.y + m.cz.y * v.z,
                  m.cx.z * v.x + m.cy.z * v.y + m.cz.z * v.z);
}
/// mᵀ·v (the inverse rotation for a rotation matrix).
static inline gjk_vec3 gjk_mat3_tmul(gjk_mat3 m, gjk_vec3 v) {
    return gjk_v3(gjk_dot(m.cx, v), gjk_dot(m.cy, v), gjk_dot(m.cz, v));
}
/// aᵀ·b.
static inline gjk_mat3 gjk_mat3_tmul_mat3(gjk_mat3 a, gjk_mat3 b) {
    return gjk_mat3_make(gjk_mat3_tmul(a, b.cx), gjk_mat3_tmul(a, b.cy), gjk_mat3_tmul(a, b.cz));
}

/// The identity transform.
static inline gjk_transform gjk_transform_identity(void) {
    gjk_transform t = {{0, 0, 0}, {1, 0, 0, 0}};
    return t;
}
/// A transform from a position and a unit quaternion.
static inline gjk_transform gjk_transform_make(gjk_vec3 position, gjk_quat rotation) {
    gjk_transform t = {position, rotation};
    return t;
}
/// A transform from a position and a rotation matrix (orthonormal columns).
static inline gjk_transform gjk_transform_from_mat3(gjk_vec3 position, gjk_mat3 rotation) {
    return gjk_transform_make(position, gjk_quat_from_mat3(rotation));
}
/// Maps a local point to the world.
static inline gjk_vec3 gjk_transform_point(gjk_transform t, gjk_vec3 p) {
    return gjk_add(gjk_quat_rotate(t.rotation, p), t.position);
}
/// Maps a world point into the transform's local frame.
static inline gjk_vec3 gjk_inv_transform_point(gjk_transform t, gjk_vec3 p) {
    return gjk_quat_inv_rotate(t.rotation, gjk_sub(p, t.position));
}
/// The composition a·b: first b, then a.
static inline gjk_transform gjk_transform_mul(gjk_transform a, gjk_transform b) {
    return gjk_transform_make(gjk_transform_point(a, b.position), gjk_quat_mul(a.rotation, b.rotation));
}
/// a⁻¹·b: b expressed in a's local frame.
static inline gjk_transform gjk_transform_inv_mul(gjk_transform a, gjk_transform b) {
    return gjk_transform_make(gjk_inv_transform_point(a, b.position),
                              gjk_quat_mul(gjk_quat_conj(a.rotation), b.rotation));
}

/// A 2D vector or point.
typedef struct gjk_vec2 {
    gjk_real x, y;
} gjk_vec2;

/// A 2D rotation stored as the cosine and sine of its angle.
typedef struct gjk_rot2 {
    gjk_real c, s;
} gjk_rot2;

/// A 2D rigid transform: rotation, then translation.
typedef struct gjk_transform2 {
    gjk_vec2 position;
    gjk_rot2 rotation;
} gjk_transform2;

/// Makes a 2D vector.
static inline gjk_vec2 gjk_v2(gjk_real x, gjk_real y) {
    gjk_vec2 v = {x, y};
    return v;
}
/// a + b.
static inline gjk_vec2 gjk_add2(gjk_vec2 a, gjk_vec2 b) { return gjk_v2(a.x + b.x, a.y + b.y); }
/// a − b.
static inline gjk_vec2 gjk_sub2(gjk_vec2 a, gjk_vec2 b) { return gjk_v2(a.x - b.x, a.y - b.y); }
/// −a.
static inline gjk_vec2 gjk_neg2(gjk_vec2 a) { return gjk_v2(-a.x, -a.y); }
/// s·a.
static inline gjk_vec2 gjk_scale2(gjk_real s, gjk_vec2 a) { return gjk_v2(s * a.x, s * a.y); }
/// a + s·b.
static inline gjk_vec2 gjk_mul_add2(gjk_vec2 a, gjk_real s, gjk_vec2 b) { return gjk_v2(a.x + s * b.x, a.y + s * b.y); }
/// a · b.
static inline gjk_real gjk_dot2(gjk_vec2 a, gjk_vec2 b) { return a.x * b.x + a.y * b.y; }
/// The z component of a × b.
static inline gjk_real gjk_cross2(gjk_vec2 a, gjk_vec2 b) { return a.x * b.y - a.y * b.x; }
/// a turned by +90°.
static inline gjk_vec2 gjk_perp2(gjk_vec2 a) { return gjk_v2(-a.y, a.x); }
/// |a|².
static inline gjk_real gjk_length_sq2(gjk_vec2 a) { return gjk_dot2(a, a); }
/// |a|.
static inline gjk_real gjk_length2(gjk_vec2 a) { return gjk_sqrt(gjk_dot2(a, a)); }
/// a / |a|, or zero when |a| is zero (or a is not finite); scaled first
/// as gjk_normalize.
static inline gjk_vec2 gjk_normalize2(gjk_vec2 a) {
    gjk_real s2 = a.x * a.x + a.y * a.y;
    if (s2 > GJK_SQUARE_MIN && s2 < GJK_SQUARE_MAX) {
        return gjk_scale2(1 / gjk_sqrt(s2), a);
    }
    gjk_real m = gjk_max(gjk_abs(a.x), gjk_abs(a.y));
    if (!(m > 0) || !(m <= GJK_REAL_MAX)) {
        return gjk_v2(0, 0);
    }
    a = gjk_v2(a.x / m, a.y / m);
    return gjk_scale2(1 / gjk_sqrt(a.x * a.x + a.y * a.y), a);
}
/// True when both components are finite.
static inline bool gjk_is_valid_vec2(gjk_vec2 a) {
    gjk_real z = (a.x - a.x) + (a.y - a.y); // as gjk_is_valid_vec3
    return z == z;
}

/// The rotation by `angle` radians (counter-clockwise).
static inline gjk_rot2 gjk_rot2_make(gjk_real angle) {
    gjk_rot2 r = {(gjk_real)cos(angle), (gjk_real)sin(angle)};
    return r;
}
/// The identity rotation.
static inline gjk_rot2 gjk_rot2_identity(void) {
    gjk_rot2 r = {1, 0};
    return r;
}
/// Rotates v by r.
static inline gjk_vec2 gjk_rot2_apply(gjk_rot2 r, gjk_vec2 v) { return gjk_v2(r.c * v.x - r.s * v.y, r.s * v.x + r.c * v.y); }
/// Rotates v by the inverse of r.
static inline gjk_vec2 gjk_rot2_inv_apply(gjk_rot2 r, gjk_vec2 v) { return gjk_v2(r.c * v.x + r.s * v.y, -r.s * v.x + r.c * v.y); }
/// The composition a·b: first b, then a.
static inline gjk_rot2 gjk_rot2_mul(gjk_rot2 a, gjk_rot2 b) {
    gjk_rot2 r = {a.c * b.c - a.s * b.s, a.s * b.c + a.c * b.s};
    return r;
}
/// a⁻¹·b.
static inline gjk_rot2 gjk_rot2_inv_mul(gjk_rot2 a, gjk_rot2 b) {
    gjk_rot2 r = {a.c * b.c + a.s * b.s, a.c * b.s - a.s * b.c};
    return r;
}
/// A 2D transform from a position and an angle in radians.
static inline gjk_transform2 gjk_transform2_make(gjk_vec2 position, gjk_real angle) {
    gjk_transform2 t = {position, gjk_rot2_make(angle)};
    return t;
}
/// The identity 2D transform.
static inline gjk_transform2 gjk_transform2_identity(void) {
    gjk_transform2 t = {{0, 0}, {1, 0}};
    return t;
}
/// Maps a local point to the world.
static inline gjk_vec2 gjk_transform2_point(gjk_transform2 t, gjk_vec2 p) {
    return gjk_add2(gjk_rot2_apply(t.rotation, p), t.position);
}
/// Maps a world point into the transform's local frame.
static inline gjk_vec2 gjk_inv_transform2_point(gjk_transform2 t, gjk_vec2 p) {
    return gjk_rot2_inv_apply(t.rotation, gjk_sub2(p, t.position));
}
/// a⁻¹·b: b expressed in a's local frame.
static inline gjk_transform2 gjk_transform2_inv_mul(gjk_transform2 a, gjk_transform2 b) {
    gjk_transform2 t = {gjk_inv_transform2_point(a, b.position), gjk_rot2_inv_mul(a.rotation, b.rotation)};
    return t;
}

#ifdef __cplusplus
}
#endif

#endif // GJK_MATH_H

// Double-precision vectors, quaternions and matrices for the simulation.
//
// The simulation keeps its state (positions, rotations, velocities, masses,
// impulses) in double whatever gjk_real is: the library answers the
// geometric questions in gjk_real, and the dynamics stay in double so that
// momentum is conserved to double rounding in every build.
#ifndef GJK_SIM_MATH_H
#define GJK_SIM_MATH_H

#include <math.h>

#include "gjk/gjk.h"

typedef struct sim_vec3 {
    double x, y, z;
} sim_vec3;

typedef struct sim_quat {
    double w, x, y, z;
} sim_quat;

/// A 3x3 matrix, row-major: m[row][column].
typedef struct sim_mat3 {
    double m[3][3];
} sim_mat3;

static inline sim_vec3 sv3(double x, double y, double z) {
    sim_vec3 v = {x, y, z};
    return v;
}
static inline sim_vec3 sv_add(sim_vec3 a, sim_vec3 b) { return sv3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline sim_vec3 sv_sub(sim_vec3 a, sim_vec3 b) { return sv3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline sim_vec3 sv_scale(double s, sim_vec3 a) { return sv3(s * a.x, s * a.y, s * a.z); }
static inline sim_vec3 sv_mul_add(sim_vec3 a, double s, sim_vec3 b) {
    return sv3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
static inline sim_vec3 sv_neg(sim_vec3 a) { return sv3(-a.x, -a.y, -a.z); }
static inline double sv_dot(sim_vec3 a, sim_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline sim_vec3 sv_cross(sim_vec3 a, sim_vec3 b) {
    return sv3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double sv_length(sim_vec3 a) { return sqrt(sv_dot(a, a)); }
static inline sim_vec3 sv_normalize(sim_vec3 a) {
    double l = sv_length(a);
    return l > 0 ? sv_scale(1 / l, a) : sv3(0, 0, 0);
}
static inline bool sv_is_finite(sim_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline double sv_get(sim_vec3 a, int i) { return i == 0 ? a.x : i == 1 ? a.y : a.z; }

static inline sim_vec3 sv_from_gjk(gjk_vec3 v) { return sv3((double)v.x, (double)v.y, (double)v.z); }
static inline gjk_vec3 sv_to_gjk(sim_vec3 v) { return gjk_v3((gjk_real)v.x, (gjk_real)v.y, (gjk_real)v.z); }

static inline sim_quat sq_make(double w, double x, double y, double z) {
    sim_quat q = {w, x, y, z};
    return q;
}
static inline sim_quat sq_mul(sim_quat a, sim_quat b) {
    return sq_make(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}
static inline sim_quat sq_normalize(sim_quat q) {
    double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(n > 0) || !isfinite(n)) {
        return sq_make(1, 0, 0, 0);
    }
    return sq_make(q.w / n, q.x / n, q.y / n, q.z / n);
}
/// Rotates v by the unit quaternion q.
static inline sim_vec3 sq_rotate(sim_quat q, sim_vec3 v) {
    sim_vec3 u = sv3(q.x, q.y, q.z);
    sim_vec3 t = sv_scale(2, sv_cross(u, v));
    return sv_add(sv_mul_add(v, q.w, t), sv_cross(u, t));
}
static inline sim_vec3 sq_inv_rotate(sim_quat q, sim_vec3 v) { return sq_rotate(sq_make(q.w, -q.x, -q.y, -q.z), v); }
static inline sim_quat sq_from_gjk(gjk_quat q) { return sq_make((double)q.w, (double)q.x, (double)q.y, (double)q.z); }
static inline gjk_quat sq_to_gjk(sim_quat q) {
    return gjk_quat_make((gjk_real)q.w, (gjk_real)q.x, (gjk_real)q.y, (gjk_real)q.z);
}

static inline sim_mat3 sm_zero(void) {
    sim_mat3 m = {{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    return m;
}
static inline sim_mat3 sm_diag(double a, double b, double c) {
    sim_mat3 m = {{{a, 0, 0}, {0, b, 0}, {0, 0, c}}};
    return m;
}
static inline sim_vec3 sm_mul_vec(const sim_mat3 *m, sim_vec3 v) {
    return sv3(m->m[0][0] * v.x + m->m[0][1] * v.y + m->m[0][2] * v.z,
               m->m[1][0] * v.x + m->m[1][1] * v.y + m->m[1][2] * v.z,
               m->m[2][0] * v.x + m->m[2][1] * v.y + m->m[2][2] * v.z);
}
static inline sim_mat3 sm_mul(const sim_mat3 *a, const sim_mat3 *b) {
    sim_mat3 r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
        }
    }
    return r;
}
static inline sim_mat3 sm_transpose(const sim_mat3 *a) {
    sim_mat3 r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            r.m[i][j] = a->m[j][i];
        }
    }
    return r;
}
/// The rotation matrix of a unit quaternion.
static inline sim_mat3 sm_from_quat(sim_quat q) {
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    sim_mat3 r = {{{1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)},
                   {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)},
                   {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)}}};
    return r;
}
/// R·A·Rᵀ: a body-frame tensor expressed in the world.
static inline sim_mat3 sm_rotate_tensor(const sim_mat3 *r, const sim_mat3 *a) {
    sim_mat3 ra = sm_mul(r, a);
    sim_mat3 rt = sm_transpose(r);
    return sm_mul(&ra, &rt);
}
static inline double sm_det(const sim_mat3 *a) {
    const double(*m)[3] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
/// The inverse (adjugate over determinant); the zero matrix when singular.
static inline sim_mat3 sm_inverse(const sim_mat3 *a) {
    const double(*m)[3] = a->m;
    double d = sm_det(a);
    if (d == 0 || !isfinite(d)) {
        return sm_zero();
    }
    double s = 1 / d;
    sim_mat3 r = {{{(m[1][1] * m[2][2] - m[1][2] * m[2][1]) * s, (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * s,
                    (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * s},
                   {(m[1][2] * m[2][0] - m[1][0] * m[2][2]) * s, (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * s,
                    (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * s},
                   {(m[1][0] * m[2][1] - m[1][1] * m[2][0]) * s, (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * s,
                    (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * s}}};
    return r;
}

#endif // GJK_SIM_MATH_H

// Tests of the inline helpers of gjk_math.h: vector algebra, quaternions,
// rotation matrices, rigid transforms and the finiteness predicates; and of
// the factor that makes the queries' rotations unit (internal.h).
#include <math.h>
#include <string.h>

#define TEST_XORSHIFT64_SEED 0x2545F4914F6CDD1Dull
#include "internal2.h"
#include "test_util.h"

/// Absolute tolerance for quantities of size `size`.
#define TOL(size) ((double)TEST_REL_TOL * (double)(size))

// ---- deterministic random numbers (xorshift64, seeded above): test_util.h ----

static gjk_real quat_norm(gjk_quat q) { return gjk_sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z); }

static gjk_real quat_dot(gjk_quat a, gjk_quat b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }

/// Two unit quaternions describe the same rotation when they are equal up to sign.
static void ensure_same_rotation(gjk_quat a, gjk_quat b) {
    ENSURE_NEAR(gjk_abs(quat_dot(a, b)), 1, TOL(4));
    gjk_vec3 v = gjk_v3(0.3, -0.7, 0.5);
    ENSURE_VEC_NEAR(gjk_quat_rotate(a, v), gjk_quat_rotate(b, v), TOL(4));
}

static void ensure_mat_near(gjk_mat3 a, gjk_mat3 b, double tol) {
    ENSURE_VEC_NEAR(a.cx, b.cx, tol);
    ENSURE_VEC_NEAR(a.cy, b.cy, tol);
    ENSURE_VEC_NEAR(a.cz, b.cz, tol);
}

static gjk_real det3(gjk_mat3 m) { return gjk_dot(m.cx, gjk_cross(m.cy, m.cz)); }

// ---- tests ----

static void test_scalar_helpers(void) {
    ENSURE(gjk_abs(-2.5) == (gjk_real)2.5);
    ENSURE(gjk_abs(3) == 3);
    ENSURE(gjk_abs(0) == 0);
    ENSURE(gjk_min(1, 2) == 1);
    ENSURE(gjk_min(-1, -2) == -2);
    ENSURE(gjk_max(1, 2) == 2);
    ENSURE(gjk_max(-1, -2) == -1);
    ENSURE(gjk_sqrt((gjk_real)16) == 4);
    ENSURE(GJK_REAL_EPSILON > 0 && (gjk_real)1 + GJK_REAL_EPSILON > 1);
    ENSURE((gjk_real)1 + GJK_REAL_EPSILON / 4 == 1);
}

static void test_vector_basics(void) {
    gjk_vec3 a = gjk_v3(1, 2, 3), b = gjk_v3(4, -5, 6);
    ENSURE(a.x == 1 && a.y == 2 && a.z == 3);
    gjk_vec3 z = gjk_v3_zero();
    ENSURE(z.x == 0 && z.y == 0 && z.z == 0);
    ENSURE_VEC_NEAR(gjk_add(a, b), gjk_v3(5, -3, 9), 0);
    ENSURE_VEC_NEAR(gjk_sub(a, b), gjk_v3(-3, 7, -3), 0);
    ENSURE_VEC_NEAR(gjk_neg(a), gjk_v3(-1, -2, -3), 0);
    ENSURE_VEC_NEAR(gjk_scale(2, a), gjk_v3(2, 4, 6), 0);
    ENSURE_VEC_NEAR(gjk_mul_add(a, 2, b), gjk_v3(9, -8, 15), 0);
    // 1*4 + 2*(-5) + 3*6 = 12.
    ENSURE(gjk_dot(a, b) == 12);
    ENSURE(gjk_length_sq(a) == 14);
    // |(3, 4, 12)| = 13 exactly.
    ENSURE_NEAR(gjk_length(gjk_v3(3, 4, 12)), 13, TOL(13));
    ENSURE_NEAR(gjk_distance_between(gjk_v3(1, 1, 1), gjk_v3(4, 5, 13)), 13, TOL(13));
    ENSURE(gjk_max_abs(gjk_v3(-7, 3, 5)) == 7);
    ENSURE(gjk_max_abs(gjk_v3(1, -2, 0.5)) == 2);
    ENSURE(gjk_max_abs(gjk_v3(0, 0, -9)) == 9);
}

static void test_cross(void) {
    gjk_vec3 ex = gjk_v3(1, 0, 0), ey = gjk_v3(0, 1, 0), ez = gjk_v3(0, 0, 1);
    // Right-handed basis.
    ENSURE_VEC_NEAR(gjk_cross(ex, ey), ez, 0);
    ENSURE_VEC_NEAR(gjk_cross(ey, ez), ex, 0);
    ENSURE_VEC_NEAR(gjk_cross(ez, ex), ey, 0);
    ENSURE_VEC_NEAR(gjk_cross(ey, ex), gjk_neg(ez), 0);
    // (1,2,3) x (4,-5,6) = (2*6 - 3*(-5), 3*4 - 1*6, 1*(-5) - 2*4) = (27, 6, -13).
    ENSURE_VEC_NEAR(gjk_cross(gjk_v3(1, 2, 3), gjk_v3(4, -5, 6)), gjk_v3(27, 6, -13), 0);
    ENSURE_VEC_NEAR(gjk_cross(gjk_v3(1, 2, 3), gjk_v3(2, 4, 6)), gjk_v3_zero(), 0);
    for (int i = 0; i < 200; ++i) {
        gjk_vec3 a = rnd_vec(-3, 3), b = rnd_vec(-3, 3);
        gjk_vec3 c = gjk_cross(a, b);
        gjk_real la = gjk_length(a), lb = gjk_length(b);
        // Orthogonal to both factors.
        ENSURE_NEAR(gjk_dot(c, a), 0, TOL(la * la * lb));
        ENSURE_NEAR(gjk_dot(c, b), 0, TOL(la * lb * lb));
        // Anti-commutative (exactly: the same products, negated).
        ENSURE_VEC_NEAR(gjk_cross(b, a), gjk_neg(c), 0);
        // Lagrange's identity |a x b|^2 + (a.b)^2 = |a|^2 |b|^2.
        gjk_real ab = gjk_dot(a, b);
        ENSURE_NEAR(gjk_length_sq(c) + ab * ab, la * la * lb * lb, TOL(la * la * lb * lb));
    }
}

static void test_normalize(void) {
    gjk_vec3 n = gjk_normalize(gjk_v3(3, 4, 12));
    ENSURE_VEC_NEAR(n, gjk_v3(3.0 / 13, 4.0 / 13, 12.0 / 13), TOL(1));
    // The zero vector normalises to the zero vector, not NaN.
    gjk_vec3 z = gjk_normalize(gjk_v3_zero());
    ENSURE(z.x == 0 && z.y == 0 && z.z == 0);
    ENSURE(gjk_is_valid_vec3(z));
    gjk_vec3 nz = gjk_normalize(gjk_v3(-0.0, 0, -0.0));
    ENSURE(nz.x == 0 && nz.y == 0 && nz.z == 0);
    // Axis vectors, large and small (but not underflowing) vectors.
    ENSURE_VEC_NEAR(gjk_normalize(gjk_v3(0, -5, 0)), gjk_v3(0, -1, 0), TOL(1));
    ENSURE_VEC_NEAR(gjk_normalize(gjk_v3(1e12, 0, 0)), gjk_v3(1, 0, 0), TOL(1));
    ENSURE_VEC_NEAR(gjk_normalize(gjk_v3(0, 0, 1e-12)), gjk_v3(0, 0, 1), TOL(1));
    for (int i = 0; i < 200; ++i) {
        gjk_vec3 v = rnd_vec(-10, 10);
        gjk_vec3 u = gjk_normalize(v);
        ENSURE_NEAR(gjk_length(u), 1, TOL(1));
        // Same direction: u is parallel to v and points the same way.
        ENSURE_NEAR(gjk_length(gjk_cross(u, v)), 0, TOL(gjk_length(v)));
        ENSURE(gjk_dot(u, v) > 0);
    }
}

static void test_quat_basics(void) {
    gjk_quat id = gjk_quat_identity();
    ENSURE(id.w == 1 && id.x == 0 && id.y == 0 && id.z == 0);
    gjk_quat q = gjk_quat_make(1, 2, 3, 4);
    ENSURE(q.w == 1 && q.x == 2 && q.y == 3 && q.z == 4);
    gjk_quat c = gjk_quat_conj(q);
    ENSURE(c.w == 1 && c.x == -2 && c.y == -3 && c.z == -4);
    // Normalisation: |(0, 3, 4, 0)| = 5.
    gjk_quat n = gjk_quat_normalize(gjk_quat_make(0, 3, 4, 0));
    ENSURE_NEAR(n.w, 0, TOL(1));
    ENSURE_NEAR(n.x, 0.6, TOL(1));
    ENSURE_NEAR(n.y, 0.8, TOL(1));
    ENSURE_NEAR(n.z, 0, TOL(1));
    n = gjk_quat_normalize(gjk_quat_make(2, 0, 0, 0));
    ENSURE_NEAR(n.w, 1, TOL(1));
    // The zero quaternion normalises to the identity.
    n = gjk_quat_normalize(gjk_quat_make(0, 0, 0, 0));
    ENSURE(n.w == 1 && n.x == 0 && n.y == 0 && n.z == 0);
    // Validity predicate.
    ENSURE(gjk_is_valid_quat(q));
    ENSURE(!gjk_is_valid_quat(gjk_quat_make((gjk_real)NAN, 0, 0, 0)));
    ENSURE(!gjk_is_valid_quat(gjk_quat_make(1, (gjk_real)INFINITY, 0, 0)));
    ENSURE(!gjk_is_valid_quat(gjk_quat_make(1, 0, -(gjk_real)INFINITY, 0)));
    ENSURE(!gjk_is_valid_quat(gjk_quat_make(1, 0, 0, (gjk_real)NAN)));
}

static void test_quat_axis_angle(void) {
    const gjk_real pi = (gjk_real)3.14159265358979323846;
    // 90 degrees about z maps x to y and y to -x.
    gjk_quat qz = gjk_quat_from_axis_angle(gjk_v3(0, 0, 1), pi / 2);
    ENSURE_NEAR(quat_norm(qz), 1, TOL(1));
    ENSURE_VEC_NEAR(gjk_quat_rotate(qz, gjk_v3(1, 0, 0)), gjk_v3(0, 1, 0), TOL(1));
    ENSURE_VEC_NEAR(gjk_quat_rotate(qz, gjk_v3(0, 1, 0)), gjk_v3(-1, 0, 0), TOL(1));
    ENSURE_VEC_NEAR(gjk_quat_rotate(qz, gjk_v3(0, 0, 2)), gjk_v3(0, 0, 2), TOL(2));
    // 90 degrees about x maps y to z; about y maps z to x.
    gjk_quat qx = gjk_quat_from_axis_angle(gjk_v3(1, 0, 0), pi / 2);
    ENSURE_VEC_NEAR(gjk_quat_rotate(qx, gjk_v3(0, 1, 0)), gjk_v3(0, 0, 1), TOL(1));
    gjk_quat qy = gjk_quat_from_axis_angle(gjk_v3(0, 1, 0), pi / 2);
    ENSURE_VEC_NEAR(gjk_quat_rotate(qy, gjk_v3(0, 0, 1)), gjk_v3(1, 0, 0), TOL(1));
    // 120 degrees about (1,1,1)/sqrt(3) permutes the axes cyclically.
    gjk_quat q3 = gjk_quat_from_axis_angle(gjk_normalize(gjk_v3(1, 1, 1)), 2 * pi / 3);
    ENSURE_VEC_NEAR(gjk_quat_rotate(q3, gjk_v3(1, 0, 0)), gjk_v3(0, 1, 0), TOL(1));
    ENSURE_VEC_NEAR(gjk_quat_rotate(q3, gjk_v3(0, 1, 0)), gjk_v3(0, 0, 1), TOL(1));
    ENSURE_VEC_NEAR(gjk_quat_rotate(q3, gjk_v3(0, 0, 1)), gjk_v3(1, 0, 0), TOL(1));
    // 180 degrees about x negates y and z.
    gjk_quat qpi = gjk_quat_from_axis_angle(gjk_v3(1, 0, 0), pi);
    ENSURE_VEC_NEAR(gjk_quat_rotate(qpi, gjk_v3(1, 2, 3)), gjk_v3(1, -2, -3), TOL(4));
}

static void test_quat_rotate_matches_matrix(void) {
    for (int i = 0; i < 500; ++i) {
        gjk_quat q = rnd_quat();
        gjk_mat3 m = gjk_mat3_from_quat(q);
        gjk_vec3 v = rnd_vec(-5, 5);
        gjk_real lv = gjk_length(v);
        gjk_vec3 r = gjk_quat_rotate(q, v);
        ENSURE_VEC_NEAR(r, gjk_mat3_mul(m, v), TOL(lv));
        // The columns are the images of the axes.
        ENSURE_VEC_NEAR(m.cx, gjk_quat_rotate(q, gjk_v3(1, 0, 0)), TOL(1));
        ENSURE_VEC_NEAR(m.cy, gjk_quat_rotate(q, gjk_v3(0, 1, 0)), TOL(1));
        ENSURE_VEC_NEAR(m.cz, gjk_quat_rotate(q, gjk_v3(0, 0, 1)), TOL(1));
        // A rotation: orthonormal columns, determinant +1, length preserved.
        gjk_mat3 mtm = gjk_mat3_tmul_mat3(m, m);
        ensure_mat_near(mtm, gjk_mat3_make(gjk_v3(1, 0, 0), gjk_v3(0, 1, 0), gjk_v3(0, 0, 1)), TOL(2));
        ENSURE_NEAR(det3(m), 1, TOL(4));
        ENSURE_NEAR(gjk_length(r), lv, TOL(lv));
        // Inverse rotations.
        ENSURE_VEC_NEAR(gjk_quat_inv_rotate(q, r), v, TOL(lv));
        ENSURE_VEC_NEAR(gjk_mat3_tmul(m, gjk_mat3_mul(m, v)), v, TOL(lv));
        ENSURE_VEC_NEAR(gjk_quat_inv_rotate(q, v), gjk_mat3_tmul(m, v), TOL(lv));
        // q and -q are the same rotation.
        gjk_quat nq = gjk_quat_make(-q.w, -q.x, -q.y, -q.z);
        ENSURE_VEC_NEAR(gjk_quat_rotate(nq, v), r, TOL(lv));
    }
}

static void test_mat3_helpers(void) {
    // A general (non-rotation) matrix with columns (1,2,3), (4,5,6), (7,8,10).
    gjk_mat3 m = gjk_mat3_make(gjk_v3(1, 2, 3), gjk_v3(4, 5, 6), gjk_v3(7, 8, 10));
    // m (1, -1, 2) = (1,2,3) - (4,5,6) + 2 (7,8,10) = (11, 13, 17).
    ENSURE_VEC_NEAR(gjk_mat3_mul(m, gjk_v3(1, -1, 2)), gjk_v3(11, 13, 17), 0);
    // m^T (1, -1, 2) = (1-2+6, 4-5+12, 7-8+20) = (5, 11, 19).
    ENSURE_VEC_NEAR(gjk_mat3_tmul(m, gjk_v3(1, -1, 2)), gjk_v3(5, 11, 19), 0);
    // m^T m: entry (i, j) = column i . column j.
    gjk_mat3 p = gjk_mat3_tmul_mat3(m, m);
    ENSURE_VEC_NEAR(p.cx, gjk_v3(14, 32, 53), 0);
    ENSURE_VEC_NEAR(p.cy, gjk_v3(32, 77, 128), 0);
    ENSURE_VEC_NEAR(p.cz, gjk_v3(53, 128, 213), 0);
}

/// Round trip quaternion -> matrix -> quaternion.
static void check_quat_round_trip(gjk_quat q) {
    gjk_mat3 m = gjk_mat3_from_quat(q);
    gjk_quat q2 = gjk_quat_from_mat3(m);
    ENSURE(gjk_is_valid_quat(q2));
    ENSURE_NEAR(quat_norm(q2), 1, TOL(2));
    ensure_same_rotation(q, q2);
    ensure_mat_near(gjk_mat3_from_quat(q2), m, TOL(4));
}

static void test_quat_from_mat3(void) {
    const gjk_real pi = (gjk_real)3.14159265358979323846;
    // Identity.
    gjk_quat q = gjk_quat_from_mat3(gjk_mat3_make(gjk_v3(1, 0, 0), gjk_v3(0, 1, 0), gjk_v3(0, 0, 1)));
    ENSURE_NEAR(gjk_abs(q.w), 1, TOL(1));
    // 180-degree turns about x, y and z: trace -1, the branches for the
    // largest diagonal element. The exact quaternions are (0, 1, 0, 0), etc.
    gjk_mat3 rx = gjk_mat3_make(gjk_v3(1, 0, 0), gjk_v3(0, -1, 0), gjk_v3(0, 0, -1));
    gjk_mat3 ry = gjk_mat3_make(gjk_v3(-1, 0, 0), gjk_v3(0, 1, 0), gjk_v3(0, 0, -1));
    gjk_mat3 rz = gjk_mat3_make(gjk_v3(-1, 0, 0), gjk_v3(0, -1, 0), gjk_v3(0, 0, 1));
    q = gjk_quat_from_mat3(rx);
    ENSURE_NEAR(gjk_abs(q.x), 1, TOL(1));
    ENSURE_NEAR(q.w, 0, TOL(1));
    ensure_mat_near(gjk_mat3_from_quat(q), rx, TOL(2));
    q = gjk_quat_from_mat3(ry);
    ENSURE_NEAR(gjk_abs(q.y), 1, TOL(1));
    ensure_mat_near(gjk_mat3_from_quat(q), ry, TOL(2));
    q = gjk_quat_from_mat3(rz);
    ENSURE_NEAR(gjk_abs(q.z), 1, TOL(1));
    ensure_mat_near(gjk_mat3_from_quat(q), rz, TOL(2));
    // 180 degrees about the diagonal (1,1,0)/sqrt(2): x and y swap, z negates.
    gjk_mat3 rxy = gjk_mat3_make(gjk_v3(0, 1, 0), gjk_v3(1, 0, 0), gjk_v3(0, 0, -1));
    q = gjk_quat_from_mat3(rxy);
    ensure_same_rotation(q, gjk_quat_from_axis_angle(gjk_normalize(gjk_v3(1, 1, 0)), pi));
    ensure_mat_near(gjk_mat3_from_quat(q), rxy, TOL(2));
    // Rotations with trace < 0 (angle above 120 degrees) about the axes,
    // diagonals and random axes, including angles close to 180 degrees.
    const gjk_vec3 axes[] = {gjk_v3(1, 0, 0), gjk_v3(0, 1, 0), gjk_v3(0, 0, 1), gjk_v3(-1, 0, 0),
                             gjk_v3(0, 0, -1), gjk_normalize(gjk_v3(1, 1, 1)), gjk_normalize(gjk_v3(1, -2, 0.5))};
    const gjk_real angles[] = {pi, (gjk_real)0.9999 * pi, (gjk_real)0.75 * pi, (gjk_real)0.7 * pi,
                               (gjk_real)1.3 * pi, -pi, (gjk_real)0.5 * pi, (gjk_real)0.1};
    for (size_t i = 0; i < sizeof axes / sizeof axes[0]; ++i) {
        for (size_t j = 0; j < sizeof angles / sizeof angles[0]; ++j) {
            check_quat_round_trip(gjk_quat_from_axis_angle(axes[i], angles[j]));
        }
    }
    int negative_trace = 0;
    for (int i = 0; i < 1000; ++i) {
        gjk_quat r = rnd_quat();
        gjk_mat3 m = gjk_mat3_from_quat(r);
        if (m.cx.x + m.cy.y + m.cz.z < 0) {
            ++negative_trace;
        }
        check_quat_round_trip(r);
    }
    // About 1/3 of uniform random rotations have trace < 0 (angle > 120 deg);
    // make sure that branch was exercised.
    ENSURE(negative_trace > 100);
    for (int i = 0; i < 300; ++i) {
        // Random axis, angle in (150, 180] degrees: trace well below 0.
        gjk_real angle = pi * rnd(0.83, 1.0);
        check_quat_round_trip(gjk_quat_from_axis_angle(rnd_unit_vec(), angle));
    }
    // gjk_transform_from_mat3 uses the same conversion.
    gjk_quat r = rnd_quat();
    gjk_transform t = gjk_transform_from_mat3(gjk_v3(1, 2, 3), gjk_mat3_from_quat(r));
    ENSURE_VEC_NEAR(t.position, gjk_v3(1, 2, 3), 0);
    ensure_same_rotation(t.rotation, r);
}

static void test_quat_mul(void) {
    const gjk_real pi = (gjk_real)3.14159265358979323846;
    // Two 45-degree turns about z make a 90-degree turn.
    gjk_quat q45 = gjk_quat_from_axis_angle(gjk_v3(0, 0, 1), pi / 4);
    ensure_same_rotation(gjk_quat_mul(q45, q45), gjk_quat_from_axis_angle(gjk_v3(0, 0, 1), pi / 2));
    // Order: mul(a, b) rotates by b first. 90 deg about x then 90 deg about
    // z maps y -> z -> z; the other order maps y -> -x -> -x.
    gjk_quat qx = gjk_quat_from_axis_angle(gjk_v3(1, 0, 0), pi / 2);
    gjk_quat qz = gjk_quat_from_axis_angle(gjk_v3(0, 0, 1), pi / 2);
    ENSURE_VEC_NEAR(gjk_quat_rotate(gjk_quat_mul(qz, qx), gjk_v3(0, 1, 0)), gjk_v3(0, 0, 1), TOL(1));
    ENSURE_VEC_NEAR(gjk_quat_rotate(gjk_quat_mul(qx, qz), gjk_v3(0, 1, 0)), gjk_v3(-1, 0, 0), TOL(1));
    for (int i = 0; i < 500; ++i) {
        gjk_quat a = rnd_quat(), b = rnd_quat();
        gjk_vec3 v = rnd_vec(-4, 4);
        gjk_real lv = gjk_length(v);
        gjk_quat ab = gjk_quat_mul(a, b);
        ENSURE_NEAR(quat_norm(ab), 1, TOL(2));
        ENSURE_VEC_NEAR(gjk_quat_rotate(ab, v), gjk_quat_rotate(a, gjk_quat_rotate(b, v)), TOL(lv * 2));
        // Matrix of the product is the product of the matrices.
        gjk_mat3 ma = gjk_mat3_from_quat(a), mb = gjk_mat3_from_quat(b);
        ENSURE_VEC_NEAR(gjk_mat3_mul(gjk_mat3_from_quat(ab), v), gjk_mat3_mul(ma, gjk_mat3_mul(mb, v)), TOL(lv * 2));
        // q q* = identity; identity is neutral.
        gjk_quat e = gjk_quat_mul(a, gjk_quat_conj(a));
        ENSURE_NEAR(e.w, 1, TOL(2));
        ENSURE_NEAR(e.x, 0, TOL(2));
        ENSURE_NEAR(e.y, 0, TOL(2));
        ENSURE_NEAR(e.z, 0, TOL(2));
        gjk_quat ia = gjk_quat_mul(gjk_quat_identity(), a), ai = gjk_quat_mul(a, gjk_quat_identity());
        ENSURE(ia.w == a.w && ia.x == a.x && ia.y == a.y && ia.z == a.z);
        ENSURE(ai.w == a.w && ai.x == a.x && ai.y == a.y && ai.z == a.z);
        // Associativity.
        gjk_quat c = rnd_quat();
        gjk_quat l = gjk_quat_mul(gjk_quat_mul(a, b), c), r = gjk_quat_mul(a, gjk_quat_mul(b, c));
        ENSURE_NEAR(l.w, r.w, TOL(4));
        ENSURE_NEAR(l.x, r.x, TOL(4));
        ENSURE_NEAR(l.y, r.y, TOL(4));
        ENSURE_NEAR(l.z, r.z, TOL(4));
    }
}

static gjk_transform rnd_transform(void) { return gjk_transform_make(rnd_vec(-10, 10), rnd_quat()); }

static void test_transforms(void) {
    const gjk_real pi = (gjk_real)3.14159265358979323846;
    // Identity does nothing.
    gjk_transform id = gjk_transform_identity();
    ENSURE_VEC_NEAR(gjk_transform_point(id, gjk_v3(1, -2, 3)), gjk_v3(1, -2, 3), 0);
    ENSURE_VEC_NEAR(gjk_inv_transform_point(id, gjk_v3(1, -2, 3)), gjk_v3(1, -2, 3), 0);
    // Rotate first, then translate: 90 deg about z then +(10, 0, 0).
    gjk_transform t = gjk_transform_make(gjk_v3(10, 0, 0), gjk_quat_from_axis_angle(gjk_v3(0, 0, 1), pi / 2));
    ENSURE_VEC_NEAR(gjk_transform_point(t, gjk_v3(1, 0, 0)), gjk_v3(10, 1, 0), TOL(10));
    ENSURE_VEC_NEAR(gjk_inv_transform_point(t, gjk_v3(10, 1, 0)), gjk_v3(1, 0, 0), TOL(10));
    ENSURE_VEC_NEAR(gjk_transform_point(t, gjk_v3(0, 2, 5)), gjk_v3(8, 0, 5), TOL(10));

    for (int i = 0; i < 500; ++i) {
        gjk_transform a = rnd_transform(), b = rnd_transform();
        gjk_vec3 p = rnd_vec(-10, 10);
        const double size = 40; // |positions| + |p| bound
        // Point round trips.
        ENSURE_VEC_NEAR(gjk_inv_transform_point(a, gjk_transform_point(a, p)), p, TOL(size));
        ENSURE_VEC_NEAR(gjk_transform_point(a, gjk_inv_transform_point(a, p)), p, TOL(size));
        // transform_mul(a, b): first b, then a.
        gjk_transform ab = gjk_transform_mul(a, b);
        ENSURE_VEC_NEAR(gjk_transform_point(ab, p), gjk_transform_point(a, gjk_transform_point(b, p)), TOL(size));
        // transform_inv_mul(a, b) = a^-1 b: b expressed in a's frame.
        gjk_transform aib = gjk_transform_inv_mul(a, b);
        ENSURE_VEC_NEAR(gjk_transform_point(aib, p), gjk_inv_transform_point(a, gjk_transform_point(b, p)), TOL(size));
        // a^-1 (a b) = b and a (a^-1 b) = b.
        gjk_transform back = gjk_transform_inv_mul(a, ab);
        ENSURE_VEC_NEAR(back.position, b.position, TOL(size));
        ensure_same_rotation(back.rotation, b.rotation);
        gjk_transform fwd = gjk_transform_mul(a, aib);
        ENSURE_VEC_NEAR(fwd.position, b.position, TOL(size));
        ensure_same_rotation(fwd.rotation, b.rotation);
        // a^-1 a = identity.
        gjk_transform e = gjk_transform_inv_mul(a, a);
        ENSURE_VEC_NEAR(e.position, gjk_v3_zero(), TOL(size));
        ensure_same_rotation(e.rotation, gjk_quat_identity());
        // Rigid: distances are preserved.
        gjk_vec3 p2 = rnd_vec(-10, 10);
        ENSURE_NEAR(gjk_distance_between(gjk_transform_point(a, p), gjk_transform_point(a, p2)),
                    gjk_distance_between(p, p2), TOL(size));
    }
}

static void test_is_valid(void) {
    volatile gjk_real big = GJK_REAL_MAX;
    gjk_real overflow = big * 2; // +inf at run time
    gjk_real nan = (gjk_real)NAN;
    gjk_real inf = (gjk_real)INFINITY;
    ENSURE(!gjk_is_valid_real(nan));
    ENSURE(!gjk_is_valid_real(-nan));
    ENSURE(!gjk_is_valid_real(inf));
    ENSURE(!gjk_is_valid_real(-inf));
    ENSURE(!gjk_is_valid_real(overflow));
    ENSURE(!gjk_is_valid_real(inf - inf));
    ENSURE(gjk_is_valid_real(0));
    ENSURE(gjk_is_valid_real(-0.0));
    ENSURE(gjk_is_valid_real(1));
    ENSURE(gjk_is_valid_real(-12345.678));
    ENSURE(gjk_is_valid_real(GJK_REAL_MAX));
    ENSURE(gjk_is_valid_real(-GJK_REAL_MAX));
    ENSURE(gjk_is_valid_real(GJK_REAL_EPSILON));
    volatile gjk_real tiny = GJK_REAL_EPSILON;
    gjk_real subnormal = tiny;
    for (int i = 0; i < 2000 && subnormal / 2 > 0; ++i) {
        subnormal /= 2;
    }
    ENSURE(subnormal > 0);
    ENSURE(gjk_is_valid_real(subnormal));

    ENSURE(gjk_is_valid_vec3(gjk_v3(1, 2, 3)));
    ENSURE(!gjk_is_valid_vec3(gjk_v3(nan, 2, 3)));
    ENSURE(!gjk_is_valid_vec3(gjk_v3(1, nan, 3)));
    ENSURE(!gjk_is_valid_vec3(gjk_v3(1, 2, nan)));
    ENSURE(!gjk_is_valid_vec3(gjk_v3(inf, 2, 3)));
    ENSURE(!gjk_is_valid_vec3(gjk_v3(1, -inf, 3)));
    ENSURE(!gjk_is_valid_vec3(gjk_v3(1, 2, inf)));
    ENSURE(gjk_is_valid_quat(gjk_quat_identity()));
    ENSURE(!gjk_is_valid_quat(gjk_quat_make(nan, nan, nan, nan)));
}

/// The library's sign decisions in twice the working precision (simplex.c,
/// sv_3d_encloses) and the hull construction's normals (exact.c,
/// gjk_grid_cross) take a product's rounding error from fma(a, b, −a·b),
/// exact only where fma fuses: (1 + 2^−k)² = 1 + 2^(1−k) + 2^−2k, whose last
/// term the product rounds away and a fused fma returns. A libm whose fma
/// multiplies and adds apart returns 0 here.
static void test_fma_fuses(void) {
#if GJK_USE_FLOAT
    volatile float a = 1 + 0x1p-12f;
    float p = a * a;
    ENSURE(p == 1 + 0x1p-11f);
    ENSURE(fmaf(a, a, -p) == 0x1p-24f);
#endif
    // In double whatever gjk_real is: the hull construction's normals
    // (Kahan's determinant, exact.c) take fma in double in both builds.
    volatile double b = 1 + 0x1p-30;
    double q = b * b;
    ENSURE(q == 1 + 0x1p-29);
    ENSURE(fma(b, b, -q) == 0x1p-60);
}

/// gjk_inv_sqrt_rotation(s2), 1/√s2 by a Newton step near 1 in double: as
/// exact as a square root and a division (within one ulp of 1/√s2 in long
/// double) for s2 from 1 ± 1 ulp to 1 ± 2^-10 (log-spaced: the step's
/// window ends at 2^-30, and a window up to 2^-20 would be 1e-13 off there)
/// and across the window's edge; and the rotations it makes unit, in 2D
/// and 3D, unit within two ulps.
static void test_rotation_unit_factor(void) {
    const double ulp = (double)GJK_REAL_EPSILON;
    double worst = 0;
    for (int e = 0; e <= 600; ++e) {
        double x = ldexp(1.0, -52 + e * 42 / 600) * (1 + (e % 7) / 8.0); // 2^-52 .. 2^-10
        for (int sign = -1; sign <= 1; sign += 2) {
            gjk_real s2 = (gjk_real)(1 + sign * x);
            long double want = 1.0L / sqrtl((long double)s2);
            double err = (double)fabsl(((long double)gjk_inv_sqrt_rotation(s2) - want) / want);
            worst = fmax(worst, err);
        }
    }
    for (int k = -8; k <= 8; ++k) { // around the edge of the window
        gjk_real s2 = (gjk_real)(1 + ldexp(1.0, -30) + k * ldexp(1.0, -52));
        long double want = 1.0L / sqrtl((long double)s2);
        worst = fmax(worst, (double)fabsl(((long double)gjk_inv_sqrt_rotation(s2) - want) / want));
    }
    ENSURE(gjk_inv_sqrt_rotation(1) == 1);
    ENSURE(worst <= ulp);
    for (int k = 0; k < 1000; ++k) {
        double a = rnd_unit() * 6.283185307179586;
        gjk_transform2 t2 = {gjk_v2(0, 0), {(gjk_real)cos(a), (gjk_real)sin(a)}}, u2 = {gjk_v2(0, 0), {1, 0}};
        ENSURE(gjk2_transform_unit(&t2, &u2));
        double n2 = (double)u2.rotation.c * u2.rotation.c + (double)u2.rotation.s * u2.rotation.s;
        ENSURE(fabs(n2 - 1) <= 4 * ulp);
        gjk_transform t3 = {gjk_v3(0, 0, 0), gjk_quat_from_axis_angle(gjk_normalize(gjk_v3(1, 2, 3)), (gjk_real)a)}, u3;
        ENSURE(gjk_transform_unit(&t3, &u3));
        gjk_quat q = u3.rotation;
        double n3 = (double)q.w * q.w + (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z;
        ENSURE(fabs(n3 - 1) <= 4 * ulp);
    }
}

int main(void) {
    RUN_TEST(test_rotation_unit_factor);
    RUN_TEST(test_scalar_helpers);
    RUN_TEST(test_vector_basics);
    RUN_TEST(test_cross);
    RUN_TEST(test_normalize);
    RUN_TEST(test_quat_basics);
    RUN_TEST(test_quat_axis_angle);
    RUN_TEST(test_quat_rotate_matches_matrix);
    RUN_TEST(test_mat3_helpers);
    RUN_TEST(test_quat_from_mat3);
    RUN_TEST(test_quat_mul);
    RUN_TEST(test_transforms);
    RUN_TEST(test_is_valid);
    RUN_TEST(test_fma_fuses);
    return TEST_SUMMARY();
}

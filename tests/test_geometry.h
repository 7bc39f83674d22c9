// Geometry checks shared by the tests: measures of an answer taken from the
// shapes' own support functions, independent of the queries.
#ifndef GJK_TEST_GEOMETRY_H
#define GJK_TEST_GEOMETRY_H

#include "gjk/gjk.h"

/// max over the shape of n·x (world), from its support function.
static inline double shape_height(const gjk_shape *s, gjk_transform tf, gjk_vec3 n) {
    gjk_vec3 p = gjk_transform_point(tf, gjk_shape_support(s, gjk_quat_inv_rotate(tf.rotation, n)));
    return (double)p.x * n.x + (double)p.y * n.y + (double)p.z * n.z;
}

/// The gap between A and B along n (from A to B): min over B of n·x minus
/// max over A of n·x. For every unit n it is at most the signed distance, and
/// it equals the signed distance exactly when n is a contact normal (the
/// plane of normal n through the contact separates the shapes). A wrong
/// normal shows as an overlap along n of about (angle error)·(size).
static inline double gap_along(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb,
                               gjk_vec3 n) {
    return -shape_height(b, tb, gjk_neg(n)) - shape_height(a, ta, n);
}

#endif

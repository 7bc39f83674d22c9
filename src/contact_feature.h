// Private to the contact manifolds (contact.c): the supporting features of
// the shapes' cores that contact.c clips against each other, found by
// contact_feature.c.
#ifndef GJK_CONTACT_FEATURE_H
#define GJK_CONTACT_FEATURE_H

#include <stdint.h>

#include "internal.h"

/// Cosine of the largest angle between a face normal and n for the face to
/// serve as reference (about 3.6 degrees); its sine bounds |e·n| for a
/// segment taken as perpendicular to n.
#define GJK_CONTACT_FLAT GJK_R(0.998)
#define GJK_CONTACT_FLAT_SIN GJK_R(0.0632)
/// Most vertices of a feature polygon. A hull face with more vertices is
/// represented by an evenly spread subset of them (a polygon inside the
/// face: its points still lie on the face, and a deepest vertex left out is
/// restored by the query's witness pair).
#define GJK_CONTACT_MAX_FEATURE 32
/// A supporting feature of one shape's core, in the world frame.
typedef struct gjk_contact_feature {
    int count;          ///< 1 point, 2 segment, ≥ 3 polygon (in order around its normal, either way).
    gjk_vec3 v[GJK_CONTACT_MAX_FEATURE];
    gjk_vec3 normal;    ///< Polygon: unit outward normal; segment, point: zero.
    uint32_t index;     ///< Which feature of the shape, for the ids.
    gjk_real radius;    ///< The shape's rounding radius.
} gjk_contact_feature;

/// The supporting feature of the core of shape s at transform x along the
/// world direction d (unit), in the world frame: a polygon (box face, hull
/// face, triangle, cylinder cap or cone base as a regular octagon inscribed
/// in the rim), a segment (segment or capsule core, cylinder or cone side
/// line) or one point (everything else, and the degenerate cases).
void gjk_contact_feature_world(gjk_contact_feature *f, const gjk_shape *s, gjk_transform x, gjk_vec3 d);

/// Turns a polygon feature that is not flat along d into its supporting
/// edge when that edge is perpendicular to d (within GJK_CONTACT_FLAT_SIN)
/// and both its ends are support points of the shape (within that slope and
/// `tol`): a box or hull lying on an edge. Otherwise leaves it as it is.
void gjk_contact_polygon_to_edge(gjk_contact_feature *f, const gjk_shape *s, gjk_transform x, gjk_vec3 d,
                                 gjk_real tol);

#endif // GJK_CONTACT_FEATURE_H

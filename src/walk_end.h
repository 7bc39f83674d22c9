// The ends of a GJK walk (gjk.c) where rounding has a say: a step that
// brought no progress, a stall, a simplex that reached the origin. Kept out
// of the walk's loop, which calls them only on those steps (walk_end.c).
#ifndef GJK_WALK_END_H
#define GJK_WALK_END_H

#include "internal.h"

/// True when the walk's lower bound proves the origin outside D by more
/// than the bounds' rounding: a tetrahedron of D's points around the origin
/// is then rounding, not an overlap. In float, a cylinder and a box 1e-5
/// apart (2.3 tolerances) were proved apart by 7e-6, and then a plain
/// step's tetrahedron, solved from points of size 1 with |v| near 1e-5,
/// enclosed the origin: the distance query answered "penetrating" (15 of
/// 700,000 float poses near contact, apart by 4e-6 to 1e-5; two of them
/// gjk_penetration answered not converged, 0.5 and 0.8 deep, as EPA
/// started from that tetrahedron).
static GJK_INLINE bool gjk_walk_bound_excludes_origin(const gjk_pair *pair, const gjk_walk *walk) {
    return walk->lower > gjk_pair_apart_margin(pair, 0);
}

/// The end of a walk that stalled with its gap above the tolerance, at the
/// simplex's closest point v, w the last support point: converged (apart
/// or touching) or an overlap for EPA to decide.
gjk_walk_end gjk_walk_stalled_end(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, gjk_vec3 w);

/// The closest point of the simplex s (closest point v) or of the one kept
/// at the walk's least |v| (`start`), whichever is nearer by more than
/// `margin`; the chosen simplex is left in s.
gjk_vec3 gjk_walk_nearer_of(gjk_simplex *s, const gjk_simplex *start, gjk_vec3 v, gjk_real margin);

/// The end of a walk whose simplex reached the origin: a tetrahedron around
/// it, or a closest point v within the tolerance tol.
gjk_walk_end gjk_walk_origin_reached(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, gjk_real tol,
                                     const gjk_simplex *start);

/// A plain step with support point p that brought no progress: true with
/// the walk's end in *end, or false with the step taken as a stall and the
/// new closest point in *v_new (the simplex before it kept in *start when
/// `keep`).
bool gjk_walk_no_progress(gjk_pair *pair, gjk_walk *walk, const gjk_support_point *p, gjk_vec3 v, gjk_real vlen,
                          gjk_real lower, gjk_real tol, gjk_simplex *start, bool keep, gjk_vec3 *v_new,
                          gjk_walk_end *end);

#endif

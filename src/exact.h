// Exact orientation of points on an integer grid, for the hull construction
// (hull.c). The construction snaps its points to a grid of 2^-50 of the
// cloud's size, so that every "which side of this triangle" decision is
// exact and the incremental hull stays convex whatever the rounding
// (hull.c's header says why that matters).
#ifndef GJK_EXACT_H
#define GJK_EXACT_H

/// The largest coordinate magnitude the exact functions accept: 2^50.
/// Differences are then at most 2^51 (exact in a double), a cross
/// product's component below 2^103 (inside 128 bits) and the orientation
/// determinant below 2^156 (inside 192 bits).
#define GJK_GRID_MAX 0x1p50

/// The sign (−1, 0 or 1) of ((b − a) × (c − a))·(d − a), computed exactly,
/// for points whose coordinates are integers of magnitude at most
/// GJK_GRID_MAX held in doubles. Positive when d lies on the side of the
/// plane through a, b, c that the right-hand normal of a → b → c points to.
int gjk_exact_orient(const double a[3], const double b[3], const double c[3], const double d[3]);

/// (b − a) × (c − a), computed exactly and then rounded to double (each
/// component within 2 units in the last place), for such points. Zero
/// exactly when a, b and c are collinear.
void gjk_exact_cross(const double a[3], const double b[3], const double c[3], double out[3]);
/// (b − a) × (c − a) for such points, each component within 2u of its
/// exact value (u = 2^−53: within 2 units in the last place, as
/// gjk_exact_cross) and zero exactly when that is zero, by Kahan's 2×2
/// determinant with fma: about a tenth of gjk_exact_cross's work (its
/// 128-bit products were a quarter of a hull's construction), which the
/// tests keep as its reference.
void gjk_grid_cross(const double a[3], const double b[3], const double c[3], double out[3]);

#endif // GJK_EXACT_H

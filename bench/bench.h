// The benchmark's common types: shapes as plain data every library can read,
// poses, and the adapter each library (ours and the peers) implements.
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bench_kind {
    BENCH_POLY = 0, // convex hull of a point cloud (every point is a hull vertex)
    BENCH_BOX,      // box primitive, half extents ext[]
    BENCH_SPHERE,   // sphere, radius
    BENCH_CAPSULE,  // capsule along local z from -half_len to +half_len, radius
    BENCH_ELLIPSOID, // ellipsoid, semi-axes ext[]
    // 2D shapes, in the xy plane of their frame:
    BENCH_POLY2,    // convex hull of a point cloud (n × xy in verts; every point a hull vertex)
    BENCH_CIRCLE,   // circle, radius
    BENCH_CAPSULE2  // capsule along local x from -half_len to +half_len, radius
} bench_kind;

// 2 for the 2D kinds, 3 for the others.
static inline int bench_kind_dim(bench_kind k) { return k >= BENCH_POLY2 ? 2 : 3; }

// One shape, as data. For BENCH_POLY the hull's triangles are given too
// (outward, counter-clockwise seen from outside) for libraries that need
// faces; libraries that build their own hull take the points.
typedef struct bench_shape {
    bench_kind kind;
    int n;               // POLY, POLY2: number of points
    const double *verts; // POLY: n × xyz; POLY2: n × xy
    int nfaces;          // POLY: hull triangles
    const int *faces;    // POLY: nfaces × 3 indices
    double ext[3];       // BOX: half extents; ELLIPSOID: semi-axes
    double radius;       // SPHERE, CAPSULE
    double half_len;     // CAPSULE
} bench_shape;

// A rigid pose: position, unit quaternion (w, x, y, z) and the same rotation
// as a row-major matrix. A 2D pose is a rotation about z (so R[0] and R[3]
// are the cosine and sine of its angle) and p[2] = 0.
typedef struct bench_pose {
    double p[3];
    double q[4];
    double R[9];
} bench_pose;

enum { BENCH_Q_INTERSECT = 0, BENCH_Q_DISTANCE = 1, BENCH_Q_PENETRATION = 2, BENCH_Q_COUNT = 3 };

// Room for one library's own form of a pose (precomputed before timing so no
// library pays for converting ours).
#define BENCH_POSE_BYTES 256

// What a library does with one workload (shape A and shape B).
//   setup:     prepares its shapes (hulls, models); returns a context, or NULL
//              with the reason in `why` when it cannot take these shapes.
//   has_query: 0 when the library has no such query for these shapes (reason
//              in `why`); ctx is what setup returned.
//   make_pose: its own form of pose `which` (0: A, 1: B) into `out`.
//   query:     one query. Returns, by query:
//                intersect: 1 or 0;
//                distance: the distance (a library that answers a signed
//                  distance is clamped at 0 by the caller);
//                penetration: the signed distance; +INFINITY when the library
//                  only says "separated" without a distance.
//              *iterations: the iterations used, or -1 when not exposed.
typedef struct bench_lib {
    const char *name;
    const char *missing; // NULL when available, else why not
    void *(*setup)(const bench_shape *a, const bench_shape *b, char *why, size_t why_size);
    void (*teardown)(void *ctx);
    int (*has_query)(void *ctx, int query, char *why, size_t why_size);
    void (*make_pose)(void *ctx, int which, const bench_pose *pose, void *out);
    double (*query)(void *ctx, int query, const void *pose_a, const void *pose_b, int *iterations);
    const char *version;
    int dims; // BENCH_DIM3 | BENCH_DIM2: the workloads it takes (0 means 3D only);
              // | BENCH_VARIANT: gjk with other options, shown in its own
              // section of RESULTS.md rather than as a peer (with a
              // dimension bit: the 3D default applies only to 0)
} bench_lib;

enum { BENCH_DIM3 = 1, BENCH_DIM2 = 2, BENCH_VARIANT = 4 };

// The libraries, each in its own file. A peer that was not found at
// configure time is a stub whose `missing` says why.
extern const bench_lib bench_lib_gjk;
extern const bench_lib bench_lib_gjk_tol;
extern const bench_lib bench_lib_gjk_margin;
extern const bench_lib bench_lib_ccd;
extern const bench_lib bench_lib_ccd_mpr;
extern const bench_lib bench_lib_coal;
extern const bench_lib bench_lib_fcl;
extern const bench_lib bench_lib_mujoco;
extern const bench_lib bench_lib_bullet;
extern const bench_lib bench_lib_bullet_pd;
extern const bench_lib bench_lib_box2d;
extern const bench_lib bench_lib_chipmunk;

// MuJoCo's version string (its bench_lib has none at compile time), and the
// C++ compiler's version ("" without C++ peers).
const char *bench_mujoco_version(void);
const char *bench_cxx_version(void);

// Convex hull of a point cloud with libqhull: writes up to max_faces
// triangles (outward, CCW) into faces; returns their count, or -1.
int bench_hull(const double *points, int n, int *faces, int max_faces);
// The signed distance of each of the nx points x to the convex hull of the n
// points (negative inside); 0 on success.
int bench_hull_signed_distance(const double *points, int n, const double *x, int nx, double *out);

#ifdef __cplusplus
}
#endif

#endif

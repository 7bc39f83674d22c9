// gjk's own shapes from the benchmark's shape data (bench/lib_gjk.c), shared
// by the gjk adapter and by the rows only gjk has (warm starts, batches).
#ifndef BENCH_GJK_H
#define BENCH_GJK_H

#include "bench.h"
#include "gjk/gjk.h"
#include "gjk/gjk2d.h"

// A 3D shape; polytopes are built once as hulls (*hull receives it, NULL
// otherwise; the caller frees it with gjk_hull_destroy).
gjk_shape bench_gjk_shape(const bench_shape *s, gjk_hull **hull);

// A 2D shape; polygons point at a vertex array that *store receives (NULL
// otherwise; the caller frees it).
gjk2_shape bench_gjk2_shape(const bench_shape *s, gjk_vec2 **store);

// A pose as gjk's transform: 3D from the quaternion, 2D from the rotation
// matrix's first column (cosine, sine).
gjk_transform bench_gjk_transform(const bench_pose *p);
gjk_transform2 bench_gjk2_transform(const bench_pose *p);

#endif

// Batch calls (src/batch.c), 3D and 2D: every answer equals the single-pair query's,
// bit for bit, on 1, 2 and 7 threads (more threads than pairs included);
// bad arrays and counts, and arrays that overlap, are rejected before
// anything is read.
#include <stdlib.h>
#include <string.h>

#include "gjk/batch.h"
#include "test_macros.h"
#include "test_util.h"

/// Pairs per test batch: enough for 7 threads of GJK_BATCH_MIN_PAIRS_PER_THREAD.
enum { N = 7 * GJK_BATCH_MIN_PAIRS_PER_THREAD + 13 };

static int same_vec(gjk_vec3 a, gjk_vec3 b) { return memcmp(&a, &b, sizeof a) == 0; }
static int same_real(gjk_real a, gjk_real b) { return memcmp(&a, &b, sizeof a) == 0; }

/// Field by field (struct padding is not part of an answer), bit for bit.
static int same_answers(gjk_intersect_output a, gjk_intersect_output b, gjk_distance_output c, gjk_distance_output d,
                        gjk_penetration_output e, gjk_penetration_output f) {
    return a.status == b.status && a.intersect == b.intersect && a.iterations == b.iterations &&
           c.status == d.status && same_real(c.distance, d.distance) && same_vec(c.point_a, d.point_a) &&
           same_vec(c.point_b, d.point_b) && same_vec(c.normal, d.normal) && c.iterations == d.iterations &&
           e.status == f.status && same_real(e.signed_distance, f.signed_distance) && same_real(e.depth, f.depth) &&
           same_vec(e.point_a, f.point_a) && same_vec(e.point_b, f.point_b) && same_vec(e.normal, f.normal) &&
           e.iterations == f.iterations && e.epa_iterations == f.epa_iterations;
}

static void test_batch_matches_single_queries(void) {
    rng r = {77};
    static gjk_vec3 verts[40];
    for (int i = 0; i < 40; ++i) {
        verts[i] = gjk_v3((gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1));
    }
    gjk_shape shapes[4] = {gjk_make_box(gjk_v3(1, (gjk_real)0.5, (gjk_real)0.25)), gjk_make_sphere((gjk_real)0.7),
                           gjk_make_polytope(verts, 40), gjk_make_capsule(gjk_v3(0, 0, -1), gjk_v3(0, 0, 1), (gjk_real)0.3)};
    gjk_query_input *in = calloc(N, sizeof *in);
    gjk_intersect_output *oi = calloc(N, sizeof *oi);
    gjk_distance_output *od = calloc(N, sizeof *od);
    gjk_penetration_output *op = calloc(N, sizeof *op);
    ENSURE(in && oi && od && op);
    if (!(in && oi && od && op)) {
        return;
    }
    for (int i = 0; i < N; ++i) {
        in[i].shape_a = &shapes[rng_int(&r, 4)];
        in[i].shape_b = &shapes[rng_int(&r, 4)];
        in[i].transform_a = gjk_transform_identity();
        in[i].transform_b = gjk_transform_make(
            gjk_v3((gjk_real)rng_range(&r, -3, 3), (gjk_real)rng_range(&r, -3, 3), (gjk_real)rng_range(&r, -3, 3)),
            gjk_quat_normalize(gjk_quat_make((gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1),
                                             (gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1))));
    }
    in[17].shape_b = NULL; // one invalid pair: its own status, the rest answered
    const int threads[3] = {1, 2, 7};
    for (int t = 0; t < 3; ++t) {
        memset(oi, 0xff, N * sizeof *oi);
        memset(od, 0xff, N * sizeof *od);
        memset(op, 0xff, N * sizeof *op);
        ENSURE(gjk_batch_intersect(in, oi, N, threads[t]) == GJK_SEPARATED);
        ENSURE(gjk_batch_distance(in, od, N, threads[t]) == GJK_SEPARATED);
        ENSURE(gjk_batch_penetration(in, op, N, threads[t]) == GJK_SEPARATED);
        int same = 0;
        for (int i = 0; i < N; ++i) {
            gjk_intersect_output si = gjk_intersect(&in[i]);
            gjk_distance_output sd = gjk_distance(&in[i], NULL);
            gjk_penetration_output sp = gjk_penetration(&in[i], NULL);
            same += same_answers(si, oi[i], sd, od[i], sp, op[i]);
        }
        ENSURE(same == N);
        ENSURE(od[17].status == GJK_INVALID_INPUT);
    }
    gjk_query_input two[2] = {in[0], in[1]};
    ENSURE(gjk_batch_distance(two, od, 2, 64) == GJK_SEPARATED); // more threads than pairs
    free(in);
    free(oi);
    free(od);
    free(op);
}

static int same_vec2(gjk_vec2 a, gjk_vec2 b) { return memcmp(&a, &b, sizeof a) == 0; }

/// The 2D twins of same_answers.
static int same_answers2(gjk2_intersect_output a, gjk2_intersect_output b, gjk2_distance_output c,
                         gjk2_distance_output d, gjk2_penetration_output e, gjk2_penetration_output f) {
    return a.status == b.status && a.intersect == b.intersect && a.iterations == b.iterations &&
           c.status == d.status && same_real(c.distance, d.distance) && same_vec2(c.point_a, d.point_a) &&
           same_vec2(c.point_b, d.point_b) && same_vec2(c.normal, d.normal) && c.iterations == d.iterations &&
           e.status == f.status && same_real(e.signed_distance, f.signed_distance) && same_real(e.depth, f.depth) &&
           same_vec2(e.point_a, f.point_a) && same_vec2(e.point_b, f.point_b) && same_vec2(e.normal, f.normal) &&
           e.iterations == f.iterations && e.epa_iterations == f.epa_iterations;
}

/// The 2D batches against gjk2_intersect, gjk2_distance and gjk2_penetration.
static void test_batch2_matches_single_queries(void) {
    rng r = {78};
    static gjk_vec2 cloud[30], ring[24];
    for (int i = 0; i < 30; ++i) {
        cloud[i] = gjk_v2((gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1));
    }
    for (int i = 0; i < 24; ++i) {
        double t = 6.283185307179586 * i / 24;
        ring[i] = gjk_v2((gjk_real)(0.8 * cos(t)), (gjk_real)(0.5 * sin(t)));
    }
    gjk2_shape shapes[5] = {gjk2_make_box(gjk_v2(1, (gjk_real)0.5)), gjk2_make_circle((gjk_real)0.7),
                            gjk2_make_polygon(cloud, 30), gjk2_make_convex_polygon(ring, 24),
                            gjk2_make_capsule(gjk_v2(0, -1), gjk_v2(0, 1), (gjk_real)0.3)};
    gjk2_query_input *in = calloc(N, sizeof *in);
    gjk2_intersect_output *oi = calloc(N, sizeof *oi);
    gjk2_distance_output *od = calloc(N, sizeof *od);
    gjk2_penetration_output *op = calloc(N, sizeof *op);
    ENSURE(in && oi && od && op);
    if (!(in && oi && od && op)) {
        return;
    }
    for (int i = 0; i < N; ++i) {
        in[i].shape_a = &shapes[rng_int(&r, 5)];
        in[i].shape_b = &shapes[rng_int(&r, 5)];
        in[i].transform_a = gjk_transform2_make(gjk_v2(0, 0), (gjk_real)rng_range(&r, -3, 3));
        in[i].transform_b = gjk_transform2_make(gjk_v2((gjk_real)rng_range(&r, -3, 3), (gjk_real)rng_range(&r, -3, 3)),
                                                (gjk_real)rng_range(&r, -3, 3));
    }
    in[11].shape_a = NULL; // one invalid pair: its own status, the rest answered
    const int threads[3] = {1, 2, 7};
    for (int t = 0; t < 3; ++t) {
        memset(oi, 0xff, N * sizeof *oi);
        memset(od, 0xff, N * sizeof *od);
        memset(op, 0xff, N * sizeof *op);
        ENSURE(gjk2_batch_intersect(in, oi, N, threads[t]) == GJK_SEPARATED);
        ENSURE(gjk2_batch_distance(in, od, N, threads[t]) == GJK_SEPARATED);
        ENSURE(gjk2_batch_penetration(in, op, N, threads[t]) == GJK_SEPARATED);
        int same = 0;
        for (int i = 0; i < N; ++i) {
            gjk2_intersect_output si = gjk2_intersect(&in[i]);
            gjk2_distance_output sd = gjk2_distance(&in[i], NULL);
            gjk2_penetration_output sp = gjk2_penetration(&in[i], NULL);
            same += same_answers2(si, oi[i], sd, od[i], sp, op[i]);
        }
        ENSURE(same == N);
        ENSURE(od[11].status == GJK_INVALID_INPUT && oi[11].status == GJK_INVALID_INPUT &&
               op[11].status == GJK_INVALID_INPUT);
    }
    free(in);
    free(oi);
    free(od);
    free(op);
}

static void test_batch_rejects_bad_arrays(void) {
    gjk_query_input in[1];
    memset(in, 0, sizeof in);
    gjk_distance_output out[1];
    ENSURE(gjk_batch_distance(NULL, out, 1, 1) == GJK_INVALID_INPUT);
    ENSURE(gjk_batch_distance(in, NULL, 1, 1) == GJK_INVALID_INPUT);
    ENSURE(gjk_batch_distance(in, out, 0, 1) == GJK_INVALID_INPUT);
    ENSURE(gjk_batch_distance(in, out, -5, 2) == GJK_INVALID_INPUT);
    ENSURE(gjk_batch_intersect(NULL, NULL, 3, 2) == GJK_INVALID_INPUT);
    ENSURE(gjk_batch_penetration(in, NULL, 1, 2) == GJK_INVALID_INPUT);
    gjk2_query_input in2[1];
    memset(in2, 0, sizeof in2);
    gjk2_distance_output out2[1];
    ENSURE(gjk2_batch_distance(NULL, out2, 1, 1) == GJK_INVALID_INPUT);
    ENSURE(gjk2_batch_distance(in2, NULL, 1, 1) == GJK_INVALID_INPUT);
    ENSURE(gjk2_batch_distance(in2, out2, 0, 1) == GJK_INVALID_INPUT);
    ENSURE(gjk2_batch_intersect(NULL, NULL, 3, 2) == GJK_INVALID_INPUT);
    ENSURE(gjk2_batch_penetration(in2, NULL, 1, 2) == GJK_INVALID_INPUT);
}

/// Review finding: outputs written over the inputs (an in-place call)
/// crashed on 2 threads or more, a slice writing over inputs another had
/// yet to read. Overlapping arrays are invalid input, rejected before
/// anything is read or written; arrays that only touch are fine.
static void test_batch_rejects_overlap(void) {
    enum { M = 600 };
    static _Alignas(16) unsigned char buf[M * sizeof(gjk_query_input) + M * sizeof(gjk_penetration_output)];
    gjk_query_input *in = (gjk_query_input *)(void *)buf;
    memset(buf, 0x5a, sizeof buf);
    unsigned char before[sizeof buf];
    memcpy(before, buf, sizeof buf);
    // In place, and the outputs starting in the middle or just before.
    ENSURE(gjk_batch_distance(in, (gjk_distance_output *)(void *)buf, M, 4) == GJK_INVALID_INPUT);
    ENSURE(gjk_batch_penetration(in, (gjk_penetration_output *)(void *)(buf + 100 * sizeof(gjk_query_input)), M, 2) ==
           GJK_INVALID_INPUT);
    ENSURE(gjk_batch_intersect(in + 1, (gjk_intersect_output *)(void *)buf, M - 1, 2) == GJK_INVALID_INPUT);
    ENSURE(gjk2_batch_distance((gjk2_query_input *)(void *)buf, (gjk2_distance_output *)(void *)(buf + 8), M, 3) ==
           GJK_INVALID_INPUT);
    ENSURE(memcmp(buf, before, sizeof buf) == 0);
    // Right after the inputs: answered (every pair invalid, all zero).
    memset(buf, 0, sizeof buf);
    gjk_penetration_output *out = (gjk_penetration_output *)(void *)(buf + M * sizeof(gjk_query_input));
    ENSURE(gjk_batch_penetration(in, out, M, 3) == GJK_SEPARATED);
    ENSURE(out[0].status == GJK_INVALID_INPUT && out[M - 1].status == GJK_INVALID_INPUT);
}

int main(void) {
    RUN_TEST(test_batch_matches_single_queries);
    RUN_TEST(test_batch2_matches_single_queries);
    RUN_TEST(test_batch_rejects_bad_arrays);
    RUN_TEST(test_batch_rejects_overlap);
    return TEST_SUMMARY();
}

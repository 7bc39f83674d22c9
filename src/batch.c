// Batches of independent pairs split over threads. The pairs are cut into
// one contiguous slice per thread (static partition: the pairs of a batch
// cost about the same); thread 0 is the caller. C11 threads, where the C
// library has them; otherwise (or when a thread cannot be started) the
// caller answers the slices itself.
#include "gjk/batch.h"

#include <stdint.h>

#if !defined(__STDC_NO_THREADS__)
#include <threads.h>
#define GJK_HAVE_THREADS 1
#else
#define GJK_HAVE_THREADS 0
#endif

typedef enum batch_kind {
    BATCH_INTERSECT,
    BATCH_DISTANCE,
    BATCH_PENETRATION,
    BATCH2_INTERSECT,
    BATCH2_DISTANCE,
    BATCH2_PENETRATION,
} batch_kind;

typedef struct batch_slice {
    batch_kind kind;
    const void *inputs; ///< gjk_query_input, or gjk2_query_input for the BATCH2 kinds.
    void *outputs;
    int begin, end;
} batch_slice;

static int run_slice(void *arg) {
    const batch_slice *s = arg;
    const gjk_query_input *in3 = s->inputs;
    const gjk2_query_input *in2 = s->inputs;
    for (int i = s->begin; i < s->end; ++i) {
        switch (s->kind) {
        case BATCH_INTERSECT: ((gjk_intersect_output *)s->outputs)[i] = gjk_intersect(&in3[i]); break;
        case BATCH_DISTANCE: ((gjk_distance_output *)s->outputs)[i] = gjk_distance(&in3[i], NULL); break;
        case BATCH_PENETRATION: ((gjk_penetration_output *)s->outputs)[i] = gjk_penetration(&in3[i], NULL); break;
        case BATCH2_INTERSECT: ((gjk2_intersect_output *)s->outputs)[i] = gjk2_intersect(&in2[i]); break;
        case BATCH2_DISTANCE: ((gjk2_distance_output *)s->outputs)[i] = gjk2_distance(&in2[i], NULL); break;
        default: ((gjk2_penetration_output *)s->outputs)[i] = gjk2_penetration(&in2[i], NULL); break;
        }
    }
    return 0;
}

/// Whether the byte ranges of the inputs and the outputs (count elements of
/// in_size and out_size bytes) overlap: a slice would then write over inputs
/// another has yet to read (a review's in-place batch crashed on 2 threads
/// or more).
static bool arrays_overlap(const void *inputs, size_t in_size, const void *outputs, size_t out_size, int count) {
    uintmax_t i0 = (uintptr_t)inputs, o0 = (uintptr_t)outputs, n = (uintmax_t)count;
    return i0 < o0 + n * out_size && o0 < i0 + n * in_size;
}

/// The batch of `kind` on count pairs; in_size and out_size are the sizes of
/// one input and one output (the public functions' element types).
static gjk_status run_batch(batch_kind kind, const void *inputs, size_t in_size, void *outputs, size_t out_size,
                            int count, int threads) {
    if (inputs == NULL || outputs == NULL || count < 1 || arrays_overlap(inputs, in_size, outputs, out_size, count)) {
        return GJK_INVALID_INPUT;
    }
    int t = threads < 1 ? 1 : (threads > GJK_BATCH_MAX_THREADS ? GJK_BATCH_MAX_THREADS : threads);
    int most = (int)(((long long)count + GJK_BATCH_MIN_PAIRS_PER_THREAD - 1) / GJK_BATCH_MIN_PAIRS_PER_THREAD);
    if (t > most) {
        t = most;
    }
    batch_slice slice[GJK_BATCH_MAX_THREADS];
    for (int k = 0; k < t; ++k) {
        slice[k].kind = kind;
        slice[k].inputs = inputs;
        slice[k].outputs = outputs;
        slice[k].begin = (int)((long long)count * k / t);
        slice[k].end = (int)((long long)count * (k + 1) / t);
    }
#if GJK_HAVE_THREADS
    thrd_t thread[GJK_BATCH_MAX_THREADS];
    bool started[GJK_BATCH_MAX_THREADS];
    for (int k = 1; k < t; ++k) {
        started[k] = thrd_create(&thread[k], run_slice, &slice[k]) == thrd_success;
    }
    run_slice(&slice[0]);
    for (int k = 1; k < t; ++k) {
        if (started[k]) {
            thrd_join(thread[k], NULL);
        } else {
            run_slice(&slice[k]);
        }
    }
#else
    for (int k = 0; k < t; ++k) {
        run_slice(&slice[k]);
    }
#endif
    return GJK_SEPARATED;
}

gjk_status gjk_batch_intersect(const gjk_query_input *inputs, gjk_intersect_output *outputs, int count, int threads) {
    return run_batch(BATCH_INTERSECT, inputs, sizeof *inputs, outputs, sizeof *outputs, count, threads);
}

gjk_status gjk_batch_distance(const gjk_query_input *inputs, gjk_distance_output *outputs, int count, int threads) {
    return run_batch(BATCH_DISTANCE, inputs, sizeof *inputs, outputs, sizeof *outputs, count, threads);
}

gjk_status gjk_batch_penetration(const gjk_query_input *inputs, gjk_penetration_output *outputs, int count,
                                 int threads) {
    return run_batch(BATCH_PENETRATION, inputs, sizeof *inputs, outputs, sizeof *outputs, count, threads);
}

gjk_status gjk2_batch_intersect(const gjk2_query_input *inputs, gjk2_intersect_output *outputs, int count,
                                int threads) {
    return run_batch(BATCH2_INTERSECT, inputs, sizeof *inputs, outputs, sizeof *outputs, count, threads);
}

gjk_status gjk2_batch_distance(const gjk2_query_input *inputs, gjk2_distance_output *outputs, int count, int threads) {
    return run_batch(BATCH2_DISTANCE, inputs, sizeof *inputs, outputs, sizeof *outputs, count, threads);
}

gjk_status gjk2_batch_penetration(const gjk2_query_input *inputs, gjk2_penetration_output *outputs, int count,
                                  int threads) {
    return run_batch(BATCH2_PENETRATION, inputs, sizeof *inputs, outputs, sizeof *outputs, count, threads);
}

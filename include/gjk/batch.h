// gjk — many pairs in one call, in 3D (gjk_batch_*) and 2D (gjk2_batch_*).
//
// For users with many independent pairs per frame (a broad phase's output):
// arrays of inputs in, arrays of answers out, the work split over threads.
// Each answer is exactly what the single-pair query returns for its input.
#ifndef GJK_BATCH_H
#define GJK_BATCH_H

#include "gjk/gjk.h"
#include "gjk/gjk2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most threads one batch call uses.
#define GJK_BATCH_MAX_THREADS 64

/// Fewest pairs per thread: a call starts at most one thread per this many
/// pairs, since starting one costs about as much as answering a few hundred
/// simple pairs (a review measured 8 pairs on 2 threads 15-40x slower than
/// on one).
#define GJK_BATCH_MIN_PAIRS_PER_THREAD 256

/// gjk_intersect on inputs[0..count) into outputs[0..count), on `threads`
/// threads (≤ 1: the calling thread only; capped at GJK_BATCH_MAX_THREADS
/// and at one per GJK_BATCH_MIN_PAIRS_PER_THREAD pairs).
/// Returns GJK_SEPARATED when every pair was answered (each output has its
/// own status), or GJK_INVALID_INPUT, before anything is read, when an array
/// is NULL, count < 1 or the two arrays overlap. Threads are started for
/// the call and joined before it returns (C11 threads, with the C library's
/// default stack size; a query needs about 100 KB of stack at most); where
/// they cannot be started the calling thread does the rest. Custom support
/// functions and trace callbacks are then called from several threads at
/// once: they must allow that (a trace that appends to one buffer wants
/// threads ≤ 1). No allocation by the library itself.
GJK_API gjk_status gjk_batch_intersect(const gjk_query_input *inputs, gjk_intersect_output *outputs, int count,
                                       int threads);

/// gjk_distance on each input (no caches), as gjk_batch_intersect.
GJK_API gjk_status gjk_batch_distance(const gjk_query_input *inputs, gjk_distance_output *outputs, int count,
                                      int threads);

/// gjk_penetration on each input (no caches), as gjk_batch_intersect.
GJK_API gjk_status gjk_batch_penetration(const gjk_query_input *inputs, gjk_penetration_output *outputs, int count,
                                         int threads);

/// gjk2_intersect on each 2D input, as gjk_batch_intersect.
GJK_API gjk_status gjk2_batch_intersect(const gjk2_query_input *inputs, gjk2_intersect_output *outputs, int count,
                                        int threads);

/// gjk2_distance on each 2D input (no caches), as gjk_batch_intersect.
GJK_API gjk_status gjk2_batch_distance(const gjk2_query_input *inputs, gjk2_distance_output *outputs, int count,
                                       int threads);

/// gjk2_penetration on each 2D input (no caches), as gjk_batch_intersect.
GJK_API gjk_status gjk2_batch_penetration(const gjk2_query_input *inputs, gjk2_penetration_output *outputs, int count,
                                          int threads);

#ifdef __cplusplus
}
#endif

#endif // GJK_BATCH_H

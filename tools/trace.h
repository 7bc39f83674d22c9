// Pictures of a query's run: the library's trace hook records every GJK and
// EPA iteration; the recording becomes an SVG (all frames side by side) or a
// self-contained HTML page (one frame at a time, with a step control).
#ifndef GJK_TOOL_TRACE_H
#define GJK_TOOL_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "run.h"
#include "scene.h"

/// One recorded iteration, deep-copied out of the callback.
typedef struct trace_frame {
    gjk_trace_event event;
    gjk_vec3 *vertices; ///< EPA polytope, owned.
    int (*faces)[3];    ///< EPA faces, owned.
} trace_frame;

/// A recording: pass trace_record and a trace_log as the options' trace hook.
typedef struct trace_log {
    trace_frame *frames;
    int count, capacity;
    bool out_of_memory;
} trace_log;

/// The trace callback (user data: a trace_log).
void trace_record(void *log, const gjk_trace_event *event);

/// Frees the recording.
void trace_log_free(trace_log *log);

/// Writes the picture of query `q` (answered by `r`, recorded in `log`) as
/// SVG, or as an HTML page when `html` is true. Returns false on a write error.
bool trace_write(FILE *out, const scene *s, const scene_query *q, const query_result *r, const trace_log *log,
                 bool html);

#endif // GJK_TOOL_TRACE_H

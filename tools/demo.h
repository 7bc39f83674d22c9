// `gjk demo`: the built-in scenes.
#ifndef GJK_TOOL_DEMO_H
#define GJK_TOOL_DEMO_H

#include <stdio.h>

#include "scene.h"

/// Runs the built-in scenes: a table on standard output and two trace pages
/// written into `dir`. Returns the exit status.
int run_demo(const char *dir);

/// Draws query `q` into `out_path` (SVG, or HTML for .html); also writes its
/// JSON line to `json_out` when not NULL. Returns an exit status (main.c).
int trace_query_to_file(const scene *s, const scene_query *q, const char *out_path, FILE *json_out);

/// The embedded scene texts (generated from tools/scenes/ at build time).
extern const char gjk_demo_scene_3d[];
extern const char gjk_demo_scene_2d[];

#endif // GJK_TOOL_DEMO_H

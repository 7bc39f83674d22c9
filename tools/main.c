// The gjk program: scene files in, JSON lines out, pictures of the runs.
//
//   gjk query SCENE               one JSON object per query, in order
//   gjk trace SCENE --id ID -o FILE   a picture of one query's run (.svg or .html)
//   gjk demo [--out DIR]          the built-in scenes as a table, and two traces
//   gjk simulate [SCENE] [--steps N] [--states FILE] [--html FILE]
//                                 a rigid-body simulation (tools/sim/)
//
// Exit status: 0 when every query was answered, 1 when some query line is an
// error, 2 when the scene could not be read at all (or the command is wrong).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "run.h"
#include "scene.h"
#include "simulate.h"
#include "trace.h"

static int usage(FILE *f, int status) {
    fputs("usage: gjk query SCENE              answer every query of SCENE (a path, or - for stdin)\n"
          "       gjk trace SCENE --id ID -o FILE  draw the run of one query (FILE ending in .html: a page\n"
          "                                    with a step control; otherwise SVG)\n"
          "       gjk demo [--out DIR]         the built-in 2D and 3D scenes as a table, plus two traces\n"
          "       gjk simulate [SCENE] [--steps N] [--states FILE] [--html FILE]\n"
          "                                    a rigid-body simulation of SCENE (none: a built-in one)\n"
          "       gjk --version\n",
          f);
    return status;
}

/// Reads and parses a scene; prints the reason and returns false on failure.
static bool load(const char *path, scene *s) {
    char error[512] = "";
    char *text = scene_read_file(path, error, sizeof error);
    if (text == NULL) {
        fprintf(stderr, "gjk: %s\n", error);
        return false;
    }
    bool ok = scene_parse(text, s, error, sizeof error);
    free(text);
    if (!ok) {
        fprintf(stderr, "gjk: %s: %s\n", strcmp(path, "-") == 0 ? "<stdin>" : path, error);
    }
    return ok;
}

static int cmd_query(const char *path) {
    scene s;
    if (!load(path, &s)) {
        return 2;
    }
    int status = 0;
    gjk_options options;
    memset(&options, 0, sizeof options);
    for (int i = 0; i < s.query_count; ++i) {
        query_result r;
        run_query(&s, &s.queries[i], &options, &r);
        write_json_line(stdout, &s.queries[i], &r);
        if (r.error != NULL) {
            status = 1;
        }
        query_result_free(&r);
    }
    scene_free(&s);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gjk: cannot write the answers\n");
        return 2;
    }
    return status;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int trace_query_to_file(const scene *s, const scene_query *q, const char *out_path, FILE *json_out) {
    gjk_options options;
    memset(&options, 0, sizeof options);
    trace_log log;
    memset(&log, 0, sizeof log);
    options.trace = trace_record;
    options.trace_data = &log;
    query_result r;
    run_query(s, q, &options, &r);
    if (json_out != NULL) {
        write_json_line(json_out, q, &r);
    }
    int status = 0;
    if (q->error != NULL || r.rejected) {
        fprintf(stderr, "gjk: cannot draw query \"%s\": %s\n", q->id, r.error ? r.error : "bad query");
        status = 1;
    } else if (q->op != SCENE_OP_INTERSECT && q->op != SCENE_OP_DISTANCE && q->op != SCENE_OP_PENETRATION) {
        fprintf(stderr, "gjk: cannot draw query \"%s\": traces show intersect, distance and penetration runs\n",
                q->id);
        status = 1;
    } else if (log.out_of_memory) {
        fprintf(stderr, "gjk: out of memory while recording the trace\n");
        status = 2;
    } else {
        FILE *f = fopen(out_path, "w");
        if (f == NULL || !trace_write(f, s, q, &r, &log, ends_with(out_path, ".html") || ends_with(out_path, ".htm"))) {
            fprintf(stderr, "gjk: cannot write %s\n", out_path);
            status = 2;
        }
        if (f != NULL && fclose(f) != 0 && status == 0) {
            fprintf(stderr, "gjk: cannot write %s\n", out_path);
            status = 2;
        }
        if (status == 0 && r.error != NULL) {
            status = 1; // drawn, but the query's line is an error (a cap reached), as `gjk query` reports it
        }
    }
    query_result_free(&r);
    trace_log_free(&log);
    return status;
}

static int cmd_trace(int argc, char **argv) {
    const char *path = NULL, *id = NULL, *out = NULL;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--id") == 0 && i + 1 < argc) {
            id = argv[++i];
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (path == NULL && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
            path = argv[i];
        } else {
            return usage(stderr, 2);
        }
    }
    if (path == NULL || id == NULL || out == NULL) {
        return usage(stderr, 2);
    }
    scene s;
    if (!load(path, &s)) {
        return 2;
    }
    const scene_query *q = scene_find_query(&s, id);
    int status;
    if (q == NULL) {
        fprintf(stderr, "gjk: no query with id \"%s\"\n", id);
        status = 2;
    } else {
        status = trace_query_to_file(&s, q, out, stdout);
        if (status == 0) {
            fprintf(stderr, "gjk: wrote %s\n", out);
        }
    }
    scene_free(&s);
    return status;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        return usage(stderr, 2);
    }
    if (strcmp(argv[1], "query") == 0) {
        return argc == 3 ? cmd_query(argv[2]) : usage(stderr, 2);
    }
    if (strcmp(argv[1], "trace") == 0) {
        return cmd_trace(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "demo") == 0) {
        const char *dir = ".";
        if (argc == 4 && strcmp(argv[2], "--out") == 0) {
            dir = argv[3];
        } else if (argc != 2) {
            return usage(stderr, 2);
        }
        return run_demo(dir);
    }
    if (strcmp(argv[1], "simulate") == 0) {
        return sim_command(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gjk %s (%s)\n", GJK_VERSION_STRING, GJK_USE_FLOAT ? "float" : "double");
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        return usage(stdout, 0);
    }
    return usage(stderr, 2);
}

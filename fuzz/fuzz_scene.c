// libFuzzer harness for the scene reader and the query runner of the gjk
// program (tools/scene.c, tools/run.c): the bytes are a scene text. Every
// query of a scene that parses is run and its JSON line written to memory,
// where it is read back with cJSON and checked against docs/scene-format.md:
// one JSON object with "id" (the query's id), "op" and a documented "status";
// "error" exactly when the status is "error"; no null (a non-finite number
// printed by the writer). Nothing may crash or leak (ASan's leak checker).
#define _POSIX_C_SOURCE 200809L

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "scene.h"

static const char *g_line = ""; // the line being checked, printed on a violation
static bool g_huge;             // the scene holds a number whose square overflows

/// True when every '&'-separated part of `item` occurs in `text`.
static bool all_parts_in(const char *text, char *item) {
    for (char *part = item; part != NULL;) {
        char *amp = strchr(part, '&');
        if (amp != NULL) {
            *amp = '\0';
        }
        if (strstr(text, part) == NULL) {
            return false;
        }
        part = amp ? amp + 1 : NULL;
    }
    return true;
}

/// GJK_FUZZ_IGNORE="text|text|...": violations whose message holds one of
/// the texts are not reported (to explore past known findings).
static bool ignored(const char *what) {
    const char *list = getenv("GJK_FUZZ_IGNORE");
    if (list == NULL || list[0] == '\0') {
        return false;
    }
    char full[512];
    snprintf(full, sizeof full, "%s%s", what, g_huge ? " [huge input]" : "");
    while (*list) {
        const char *bar = strchr(list, '|');
        size_t n = bar ? (size_t)(bar - list) : strlen(list);
        char item[512];
        if (n > 0 && n < sizeof item) {
            memcpy(item, list, n);
            item[n] = '\0';
            if (all_parts_in(full, item)) {
                return true;
            }
        }
        list += n + (bar ? 1 : 0);
    }
    return false;
}

static void violation(const char *what, int line) {
    if (ignored(what)) {
        return;
    }
    fprintf(stderr, "\n*** gjk scene contract violation: %s%s (fuzz_scene.c:%d)\n    line: %s\n", what,
            g_huge ? " [huge input]" : "", line, g_line);
    fflush(stderr);
    __builtin_trap();
}

#define REQUIRE(cond, what)                                                                                         \
    do {                                                                                                            \
        if (!(cond)) {                                                                                              \
            violation(what, __LINE__);                                                                              \
        }                                                                                                           \
    } while (0)

static bool has_null(const cJSON *item) {
    if (cJSON_IsNull(item)) {
        return true;
    }
    const cJSON *child;
    cJSON_ArrayForEach(child, item) {
        if (has_null(child)) {
            return true;
        }
    }
    return false;
}

/// True when the JSON holds a finite number above 1e153 (its square overflows).
static bool has_huge(const cJSON *item) {
    if (cJSON_IsNumber(item) && item->valuedouble - item->valuedouble == 0 &&
        (item->valuedouble > 1e153 || item->valuedouble < -1e153)) {
        return true;
    }
    const cJSON *child;
    cJSON_ArrayForEach(child, item) {
        if (has_huge(child)) {
            return true;
        }
    }
    return false;
}

static bool one_of(const char *s, const char *const *list) {
    for (; *list != NULL; ++list) {
        if (strcmp(s, *list) == 0) {
            return true;
        }
    }
    return false;
}

static void check_line(const scene_query *q, const query_result *r, const char *line, size_t len) {
    g_line = line;
    static const char *const statuses[] = {"separated", "touching", "penetrating", "hit", "miss", "ok", "error", NULL};
    REQUIRE(r->status != NULL && one_of(r->status, statuses), "an undocumented status");
    REQUIRE((r->error != NULL) == (strcmp(r->status, "error") == 0), "\"error\" present exactly when status is error");
    REQUIRE(len > 0 && line[len - 1] == '\n' && memchr(line, '\n', len) == line + len - 1,
            "not exactly one line");
    cJSON *root = cJSON_Parse(line);
    REQUIRE(root != NULL && cJSON_IsObject(root), "the line is not a JSON object");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(root, "id");
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(root, "op");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(root, "status");
    REQUIRE(cJSON_IsString(id) && strcmp(id->valuestring, q->id) == 0, "\"id\" is not the query's id");
    REQUIRE(cJSON_IsString(op), "\"op\" missing");
    REQUIRE(cJSON_IsString(status) && strcmp(status->valuestring, r->status) == 0, "\"status\" differs");
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
    REQUIRE((error != NULL) == (r->error != NULL), "\"error\" field mismatch");
    REQUIRE(!has_null(root), "a null in the line (a non-finite number)");
    if (r->error == NULL) {
        const cJSON *iterations = cJSON_GetObjectItemCaseSensitive(root, "iterations");
        REQUIRE(iterations == NULL || (cJSON_IsNumber(iterations) && iterations->valuedouble >= 0),
                "negative iterations");
        const cJSON *distance = cJSON_GetObjectItemCaseSensitive(root, "distance");
        REQUIRE(distance == NULL || (cJSON_IsNumber(distance) && distance->valuedouble >= 0), "negative distance");
        const cJSON *depth = cJSON_GetObjectItemCaseSensitive(root, "depth");
        REQUIRE(depth == NULL || (cJSON_IsNumber(depth) && depth->valuedouble >= 0), "negative depth");
        REQUIRE((strcmp(r->status, "ok") == 0) == (q->op == SCENE_OP_AABB), "status ok exactly for a bounding box");
        if (r->has_bounds) {
            for (int i = 0; i < r->dim; ++i) {
                REQUIRE(r->lower[i] <= r->upper[i], "a bounding box with lower above upper");
            }
        }
        const cJSON *points = cJSON_GetObjectItemCaseSensitive(root, "points");
        REQUIRE((points != NULL) == (q->op == SCENE_OP_CONTACT), "\"points\" present exactly for a contact");
        REQUIRE(points == NULL || (cJSON_IsArray(points) && cJSON_GetArraySize(points) == r->point_count &&
                                   r->point_count <= (r->dim == 3 ? GJK_MAX_CONTACT_POINTS : GJK2_MAX_CONTACT_POINTS)),
                "\"points\" not an array of the manifold's points");
    }
    cJSON_Delete(root);
    g_line = "";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    scene s;
    char error[512];
    error[0] = '\0';
    if (!scene_parse(text, &s, error, sizeof error)) {
        REQUIRE(error[0] != '\0' && memchr(error, '\0', sizeof error) != NULL, "a failed parse without a message");
        REQUIRE(s.shapes == NULL && s.queries == NULL, "a failed parse left memory in the scene");
        free(text);
        return 0;
    }
    REQUIRE(s.dim == 2 || s.dim == 3, "dim is neither 2 nor 3");
    cJSON *whole = cJSON_Parse(text);
    g_huge = whole != NULL && has_huge(whole);
    cJSON_Delete(whole);
    gjk_options options;
    memset(&options, 0, sizeof options);
    for (int i = 0; i < s.query_count; ++i) {
        const scene_query *q = &s.queries[i];
        REQUIRE(q->id != NULL, "a query without an id");
        REQUIRE((q->error != NULL) || (q->a != NULL && (!scene_op_has_b(q->op) || q->b != NULL)),
                "a query without an error lacks its shapes");
        query_result r;
        run_query(&s, q, &options, &r);
        char *line = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&line, &len);
        if (out == NULL) {
            query_result_free(&r);
            continue;
        }
        write_json_line(out, q, &r);
        fclose(out);
        check_line(q, &r, line, len);
        free(line);
        query_result_free(&r);
    }
    (void)scene_find_query(&s, "x");
    scene_free(&s);
    free(text);
    return 0;
}

// Compares two JSON Lines files: the same lines, the same keys in the same
// order, equal strings and booleans, and numbers equal within a relative
// tolerance (argument 3). Keys named in argument 4 (comma-separated,
// optional) are skipped: their values may differ. Exit 0 when they match; otherwise prints the first
// difference and exits 1.
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double tol;
static const char *ignored = "";

static int is_ignored(const char *key) {
    size_t n = strlen(key);
    for (const char *p = ignored; (p = strstr(p, key)) != NULL; p += n) {
        if ((p == ignored || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) {
            return 1;
        }
    }
    return 0;
}

static int same(const cJSON *a, const cJSON *b, const char *path, int line) {
    if ((a->type & 0xFF) != (b->type & 0xFF)) {
        fprintf(stderr, "line %d: %s: different JSON types\n", line, path);
        return 0;
    }
    if (cJSON_IsNumber(a)) {
        double x = a->valuedouble, y = b->valuedouble;
        double scale = fmax(1.0, fmax(fabs(x), fabs(y)));
        if (!(fabs(x - y) <= tol * scale)) {
            fprintf(stderr, "line %d: %s: %.17g vs %.17g\n", line, path, x, y);
            return 0;
        }
        return 1;
    }
    if (cJSON_IsString(a)) {
        if (strcmp(a->valuestring, b->valuestring) != 0) {
            fprintf(stderr, "line %d: %s: \"%s\" vs \"%s\"\n", line, path, a->valuestring, b->valuestring);
            return 0;
        }
        return 1;
    }
    if (cJSON_IsArray(a) || cJSON_IsObject(a)) {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next) {
            char sub[512];
            if (cJSON_IsObject(a)) {
                if (strcmp(x->string, y->string) != 0) {
                    fprintf(stderr, "line %d: %s: key \"%s\" vs \"%s\"\n", line, path, x->string, y->string);
                    return 0;
                }
                snprintf(sub, sizeof sub, "%s.%s", path, x->string);
                if (is_ignored(x->string)) {
                    continue;
                }
            } else {
                snprintf(sub, sizeof sub, "%s[]", path);
            }
            if (!same(x, y, sub, line)) {
                return 0;
            }
        }
        if (x || y) {
            fprintf(stderr, "line %d: %s: different lengths\n", line, path);
            return 0;
        }
        return 1;
    }
    return cJSON_Compare(a, b, 1);
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: jsonl_compare EXPECTED ACTUAL REL_TOL [IGNORED_KEYS]\n");
        return 2;
    }
    tol = atof(argv[3]);
    if (argc == 5) {
        ignored = argv[4];
    }
    FILE *fa = fopen(argv[1], "r"), *fb = fopen(argv[2], "r");
    if (!fa || !fb) {
        fprintf(stderr, "jsonl_compare: cannot open input\n");
        return 2;
    }
    char la[65536], lb[65536];
    int line = 0, ok = 1;
    for (;;) {
        char *ra = fgets(la, sizeof la, fa), *rb = fgets(lb, sizeof lb, fb);
        ++line;
        if (!ra || !rb) {
            if (ra || rb) {
                fprintf(stderr, "line %d: one file has more lines\n", line);
                ok = 0;
            }
            break;
        }
        cJSON *a = cJSON_Parse(la), *b = cJSON_Parse(lb);
        if (!a || !b) {
            fprintf(stderr, "line %d: not JSON (%s)\n", line, a ? "actual" : "expected");
            ok = 0;
        } else if (!same(a, b, "$", line)) {
            ok = 0;
        }
        cJSON_Delete(a);
        cJSON_Delete(b);
        if (!ok) {
            break;
        }
    }
    fclose(fa);
    fclose(fb);
    return ok ? 0 : 1;
}

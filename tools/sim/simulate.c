// `gjk simulate`: steps a simulation scene, writes the states as JSON lines
// and (optionally) an animation page.
#define _XOPEN_SOURCE 700 // realpath
#include "simulate.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_html.h"
#include "sim_scene.h"

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', f);
            fputc(*p, f);
        } else if (*p < 0x20) {
            fprintf(f, "\\u%04x", *p);
        } else {
            fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void json_number(FILE *f, double x) {
    if (isfinite(x)) {
        fprintf(f, "%.17g", x == 0 ? 0.0 : x); // no "-0"
    } else {
        fputs("null", f);
    }
}

static void json_vec(FILE *f, sim_vec3 v) {
    fputc('[', f);
    json_number(f, v.x);
    fputc(',', f);
    json_number(f, v.y);
    fputc(',', f);
    json_number(f, v.z);
    fputc(']', f);
}

void sim_write_states_line(FILE *f, const sim_world *w, char *const *ids, int step, double dt) {
    fprintf(f, "{\"step\":%d,\"t\":", step);
    json_number(f, step * dt);
    fputs(",\"bodies\":[", f);
    int n = sim_world_body_count(w);
    for (int i = 0; i < n; ++i) {
        sim_body_state s = sim_world_body_state(w, i);
        fputs(i ? ",{\"id\":" : "{\"id\":", f);
        json_string(f, ids[i]);
        fputs(",\"position\":", f);
        json_vec(f, s.position);
        fputs(",\"rotation\":[", f);
        json_number(f, s.rotation.w);
        fputc(',', f);
        json_number(f, s.rotation.x);
        fputc(',', f);
        json_number(f, s.rotation.y);
        fputc(',', f);
        json_number(f, s.rotation.z);
        fputs("],\"velocity\":", f);
        json_vec(f, s.velocity);
        fputs(",\"angular_velocity\":", f);
        json_vec(f, s.angular_velocity);
        fputc('}', f);
    }
    fprintf(f, "],\"contacts\":%d,\"max_penetration\":", sim_world_contact_count(w));
    json_number(f, sim_world_max_penetration(w));
    fputs("}\n", f);
}

/// The frames of the animation page, recorded as the simulation runs: every
/// `stride`-th step, so that a page holds at most about 120000 poses (a few
/// MB) and 1200 frames.
typedef struct recorder {
    int body_count, stride, frame_count, frame_capacity;
    gjk_transform *poses;
    int *contact_first;
    sim_html_contact *contacts;
    int contact_count, contact_capacity;
    sim_contact_info *scratch;
    int scratch_capacity;
    bool failed;
} recorder;

static void record(recorder *r, const sim_world *w) {
    if (r->failed || r->frame_count == r->frame_capacity) {
        return;
    }
    int n = r->body_count;
    for (int i = 0; i < n; ++i) {
        r->poses[(size_t)r->frame_count * n + i] = sim_world_body_transform(w, i);
    }
    int c = sim_world_contacts(w, r->scratch, r->scratch_capacity);
    if (c > r->scratch_capacity) {
        sim_contact_info *grown = realloc(r->scratch, (size_t)c * sizeof *grown);
        if (grown == NULL) {
            r->failed = true;
            return;
        }
        r->scratch = grown;
        r->scratch_capacity = c;
        c = sim_world_contacts(w, r->scratch, r->scratch_capacity);
    }
    if (r->contact_count + c > r->contact_capacity) {
        int cap = r->contact_capacity ? r->contact_capacity : 1024;
        while (cap < r->contact_count + c) {
            cap *= 2;
        }
        sim_html_contact *grown = realloc(r->contacts, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            r->failed = true;
            return;
        }
        r->contacts = grown;
        r->contact_capacity = cap;
    }
    r->contact_first[r->frame_count] = r->contact_count;
    for (int k = 0; k < c; ++k) {
        r->contacts[r->contact_count].point = sv_to_gjk(r->scratch[k].point);
        r->contacts[r->contact_count].normal = sv_to_gjk(r->scratch[k].normal);
        ++r->contact_count;
    }
    ++r->frame_count;
    r->contact_first[r->frame_count] = r->contact_count;
}

static bool recorder_init(recorder *r, int body_count, int steps) {
    memset(r, 0, sizeof *r);
    r->body_count = body_count;
    int frames_max = body_count > 0 ? 120000 / body_count : 1200;
    frames_max = frames_max < 1200 ? frames_max : 1200;
    frames_max = frames_max > 2 ? frames_max : 2;
    r->stride = steps / (frames_max - 1) + 1;
    r->frame_capacity = steps / r->stride + 1;
    r->poses = malloc(((size_t)r->frame_capacity * body_count + 1) * sizeof *r->poses);
    r->contact_first = malloc(((size_t)r->frame_capacity + 1) * sizeof *r->contact_first);
    r->failed = r->poses == NULL || r->contact_first == NULL;
    if (!r->failed) {
        r->contact_first[0] = 0;
    }
    return !r->failed;
}

static void recorder_free(recorder *r) {
    free(r->poses);
    free(r->contact_first);
    free(r->contacts);
    free(r->scratch);
}

/// Writes the page; returns an exit status.
static int write_page(const char *path, const recorder *r, const sim_scene *s) {
    sim_html_body *bodies = calloc((size_t)s->body_count + 1, sizeof *bodies);
    if (bodies == NULL || r->failed) {
        fprintf(stderr, "gjk: out of memory while recording the animation\n");
        free(bodies);
        return 2;
    }
    for (int i = 0; i < s->body_count; ++i) {
        bodies[i].id = s->bodies[i].id;
        bodies[i].shape = s->bodies[i].def.shape;
        bodies[i].is_static = s->bodies[i].def.is_static;
    }
    sim_html_run run;
    run.body_count = s->body_count;
    run.bodies = bodies;
    run.frame_count = r->frame_count;
    run.dt = r->stride * s->settings.dt;
    run.poses = r->poses;
    run.contact_first = r->contact_first;
    run.contacts = r->contacts;
    FILE *f = fopen(path, "w");
    int status = 0;
    if (f == NULL || sim_html_write(f, &run) != 0) {
        status = 2;
    }
    if (f != NULL && fclose(f) != 0) {
        status = 2;
    }
    free(bodies);
    if (status != 0) {
        fprintf(stderr, "gjk: cannot write %s\n", path);
        return status;
    }
    char *full = realpath(path, NULL);
    printf("wrote %s: an animation of the run (%d frames, one every %d steps; open it in a browser)\n",
           full ? full : path, r->frame_count, r->stride);
    free(full);
    return 0;
}

static int usage(void) {
    fputs("usage: gjk simulate [SCENE] [--steps N] [--states FILE] [--html FILE]\n"
          "       SCENE: a simulation scene (a path, or - for stdin); none: the built-in scene\n"
          "       --steps N      steps to run (default: the scene's world.steps, 600)\n"
          "       --states FILE  one JSON line per step (- for standard output)\n"
          "       --html FILE    an animation page of the run\n",
          stderr);
    return 2;
}

int sim_command(int argc, char **argv) {
    const char *path = NULL, *states_path = NULL, *html_path = NULL;
    long steps_arg = -1;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            char *end = NULL;
            steps_arg = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || steps_arg < 0 || steps_arg > 100000000) {
                fprintf(stderr, "gjk: --steps: expected a whole number from 0 to 100000000, got \"%s\"\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--states") == 0 && i + 1 < argc) {
            states_path = argv[++i];
        } else if (strcmp(argv[i], "--html") == 0 && i + 1 < argc) {
            html_path = argv[++i];
        } else if (path == NULL && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
            path = argv[i];
        } else {
            return usage();
        }
    }
    char error[1024] = "";
    char *text = NULL;
    if (path != NULL) {
        text = scene_read_file(path, error, sizeof error);
        if (text == NULL) {
            fprintf(stderr, "gjk: %s\n", error);
            return 2;
        }
    }
    sim_scene s;
    bool ok = sim_scene_parse(text ? text : gjk_sim_scene, &s, error, sizeof error);
    free(text);
    const char *label = path == NULL ? "built-in scene" : strcmp(path, "-") == 0 ? "<stdin>" : path;
    if (!ok) {
        fprintf(stderr, "gjk: %s: %s\n", label, error);
        return 2;
    }
    sim_world *w = sim_scene_world(&s, error, sizeof error);
    if (w == NULL) {
        fprintf(stderr, "gjk: %s: %s\n", label, error);
        sim_scene_free(&s);
        return 2;
    }
    int steps = steps_arg >= 0 ? (int)steps_arg : s.steps;
    char **ids = malloc(((size_t)s.body_count + 1) * sizeof *ids);
    FILE *states = NULL;
    int status = 0;
    if (ids == NULL) {
        fprintf(stderr, "gjk: out of memory\n");
        status = 2;
    } else {
        for (int i = 0; i < s.body_count; ++i) {
            ids[i] = s.bodies[i].id;
        }
    }
    if (status == 0 && states_path != NULL) {
        states = strcmp(states_path, "-") == 0 ? stdout : fopen(states_path, "w");
        if (states == NULL) {
            fprintf(stderr, "gjk: cannot write %s\n", states_path);
            status = 2;
        }
    }
    // The page's path is checked before the run (opened to append, which
    // neither truncates nor moves what is there), so that an unwritable one
    // is told at once; a file this check created is removed again if the
    // run fails. The page itself is written after the run.
    bool page_created = false;
    if (status == 0 && html_path != NULL) {
        page_created = access(html_path, F_OK) != 0;
        FILE *page = fopen(html_path, "a");
        if (page == NULL || fclose(page) != 0) {
            fprintf(stderr, "gjk: cannot write %s\n", html_path);
            status = 2;
            page_created = false;
        }
    }
    recorder rec;
    bool recording = false;
    if (status == 0 && html_path != NULL) {
        recording = recorder_init(&rec, s.body_count, steps);
        if (!recording) {
            fprintf(stderr, "gjk: out of memory for the animation\n");
            recorder_free(&rec);
            status = 2;
        } else {
            record(&rec, w);
        }
    }
    double deepest = 0;
    int done = 0;
    for (int k = 1; status == 0 && k <= steps; ++k) {
        if (!sim_world_step(w)) {
            fprintf(stderr, "gjk: step %d: %s\n", k, sim_world_error(w));
            status = 2;
            break;
        }
        done = k;
        double pen = sim_world_max_penetration(w);
        deepest = pen > deepest ? pen : deepest;
        if (states != NULL) {
            sim_write_states_line(states, w, ids, k, s.settings.dt);
        }
        if (recording && k % rec.stride == 0) {
            record(&rec, w);
        }
    }
    if (states != NULL && states != stdout) {
        if (ferror(states) | fclose(states)) {
            fprintf(stderr, "gjk: cannot write %s\n", states_path);
            status = 2;
        }
    } else if (states == stdout && (fflush(stdout) != 0 || ferror(stdout))) {
        status = 2;
    }
    if (status == 0) {
        FILE *report = states == stdout ? stderr : stdout;
        fprintf(report, "gjk simulate: %s: %d bodies, %d steps of %.6g s (%.6g s); at the end %d contacts, "
                        "deepest penetration %.3g m (%.3g m over the run)\n",
                label, s.body_count, done, s.settings.dt, done * s.settings.dt, sim_world_contact_count(w),
                sim_world_max_penetration(w), deepest);
        if (states_path != NULL && states != stdout) {
            fprintf(report, "wrote %s: one JSON line per step\n", states_path);
        }
    }
    if (recording && status == 0) {
        status = write_page(html_path, &rec, &s);
    } else if (page_created) {
        remove(html_path); // the run failed: the empty file of the check goes
    }
    if (recording) {
        recorder_free(&rec);
    }
    free(ids);
    sim_world_destroy(w);
    sim_scene_free(&s);
    return status;
}

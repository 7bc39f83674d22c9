// Sweep and prune over axis-aligned boxes (see sim.h).
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static double lo_on(const sim_aabb *b, int axis) { return axis == 0 ? b->lo.x : axis == 1 ? b->lo.y : b->lo.z; }
static double hi_on(const sim_aabb *b, int axis) { return axis == 0 ? b->hi.x : axis == 1 ? b->hi.y : b->hi.z; }

static bool overlap(const sim_aabb *a, const sim_aabb *b) {
    return a->lo.x <= b->hi.x && b->lo.x <= a->hi.x && a->lo.y <= b->hi.y && b->lo.y <= a->hi.y &&
           a->lo.z <= b->hi.z && b->lo.z <= a->hi.z;
}

static int compare_pairs(const void *pa, const void *pb) {
    const sim_pair *a = pa, *b = pb;
    if (a->a != b->a) {
        return a->a < b->a ? -1 : 1;
    }
    return a->b < b->b ? -1 : a->b > b->b;
}

static bool push_pair(sim_broadphase *bp, int a, int b) {
    if (bp->pair_count == bp->pair_capacity) {
        int cap = bp->pair_capacity ? 2 * bp->pair_capacity : 256;
        sim_pair *p = realloc(bp->pairs, (size_t)cap * sizeof *p);
        if (p == NULL) {
            return false;
        }
        bp->pairs = p;
        bp->pair_capacity = cap;
    }
    bp->pairs[bp->pair_count].a = a < b ? a : b;
    bp->pairs[bp->pair_count].b = a < b ? b : a;
    ++bp->pair_count;
    return true;
}

bool sim_broadphase_update(sim_broadphase *bp, const sim_aabb *boxes, const bool *is_static, int n) {
    bp->pair_count = 0;
    if (n > bp->capacity) {
        int *o = realloc(bp->order, (size_t)n * sizeof *o);
        if (o == NULL) {
            return false;
        }
        bp->order = o;
        bp->capacity = n;
    }
    if (n != bp->count) {
        for (int i = 0; i < n; ++i) {
            bp->order[i] = i;
        }
        bp->count = n;
    }
    if (n == 0) {
        return true;
    }
    // Sweep along the axis on which the box centres spread most (their
    // variance), so that as few boxes as possible overlap along it.
    double s[3] = {0, 0, 0}, s2[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < 3; ++k) {
            double c = 0.5 * (lo_on(&boxes[i], k) + hi_on(&boxes[i], k));
            s[k] += c;
            s2[k] += c * c;
        }
    }
    int axis = 0;
    double best = -1;
    for (int k = 0; k < 3; ++k) {
        double var = s2[k] - s[k] * s[k] / n;
        if (var > best) {
            best = var;
            axis = k;
        }
    }
    bp->axis = axis;
    // Insertion sort by the lower bound (stable, and linear when the order
    // barely changed since the last step). Ties are kept in index order so
    // the result depends on the boxes only.
    int *order = bp->order;
    for (int i = 1; i < n; ++i) {
        int id = order[i];
        double key = lo_on(&boxes[id], axis);
        int j = i - 1;
        while (j >= 0 && (lo_on(&boxes[order[j]], axis) > key ||
                          (lo_on(&boxes[order[j]], axis) == key && order[j] > id))) {
            order[j + 1] = order[j];
            --j;
        }
        order[j + 1] = id;
    }
    for (int i = 0; i < n; ++i) {
        int a = order[i];
        double hi = hi_on(&boxes[a], axis);
        bool sa = is_static != NULL && is_static[a];
        for (int j = i + 1; j < n; ++j) {
            int b = order[j];
            if (lo_on(&boxes[b], axis) > hi) {
                break;
            }
            if (sa && is_static[b]) {
                continue;
            }
            if (overlap(&boxes[a], &boxes[b]) && !push_pair(bp, a, b)) {
                return false;
            }
        }
    }
    if (bp->pair_count > 1) {
        qsort(bp->pairs, (size_t)bp->pair_count, sizeof *bp->pairs, compare_pairs);
    }
    return true;
}

void sim_broadphase_free(sim_broadphase *bp) {
    free(bp->order);
    free(bp->pairs);
    memset(bp, 0, sizeof *bp);
}

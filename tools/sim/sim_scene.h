// Simulation scenes: the query scene's `shapes` and POSE, plus `world` and
// `bodies` (docs/scene-format.md, "Simulation").
#ifndef GJK_SIM_SCENE_H
#define GJK_SIM_SCENE_H

#include <stdbool.h>
#include <stddef.h>

#include "scene.h"
#include "sim.h"

typedef struct sim_scene_body {
    char *id;
    const scene_shape *shape;
    sim_body_def def;
} sim_scene_body;

typedef struct sim_scene {
    scene base;
    sim_settings settings;
    int steps;
    int body_count;
    sim_scene_body *bodies;
    /// One hull per shape of `base` (NULL unless a body uses that polytope).
    gjk_hull **hulls;
} sim_scene;

/// Parses a simulation scene. Any problem is fatal here (a simulation needs
/// all of its bodies): false with a message naming the body and the field.
bool sim_scene_parse(const char *text, sim_scene *out, char *error, size_t error_size);

/// A world holding the scene's bodies in order; NULL with a message on failure.
sim_world *sim_scene_world(const sim_scene *s, char *error, size_t error_size);

void sim_scene_free(sim_scene *s);

#endif // GJK_SIM_SCENE_H

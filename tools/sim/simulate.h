// `gjk simulate`: run a simulation scene (or the built-in one).
#ifndef GJK_SIMULATE_H
#define GJK_SIMULATE_H

#include <stdio.h>

#include "sim.h"

/// `gjk simulate [SCENE] [--steps N] [--states FILE] [--html FILE]`:
/// argv holds the arguments after "simulate". Returns the exit status.
int sim_command(int argc, char **argv);

/// Writes one JSON line of the world's state after step `step`.
void sim_write_states_line(FILE *f, const sim_world *w, char *const *ids, int step, double dt);

/// The built-in simulation scene (tools/scenes/simulation.json, embedded).
extern const char gjk_sim_scene[];

#endif // GJK_SIMULATE_H

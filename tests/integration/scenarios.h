/* scenarios.h - the scenarios of dl-it-app (scenarios.def). */
#ifndef DL_IT_SCENARIOS_H
#define DL_IT_SCENARIOS_H

#include "host.h"

/* A scenario prints its results on stdout and exits non-zero (through
 * it_fail) on any OpenCL error.  argv holds the words after its name. */
#define SCENARIO(name, what) void scn_##name(it_cl *cl, int argc, char **argv);
#define SCENARIO_BARE        SCENARIO
#include "scenarios.def"
#undef SCENARIO_BARE
#undef SCENARIO

#endif

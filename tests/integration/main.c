/* main.c - dl-it-app SCENARIO [args]: runs one scenario of scenarios.def. */
#include "scenarios.h"

#include <stdio.h>
#include <string.h>

typedef struct scenario {
    const char *name, *what;
    void (*run)(it_cl *cl, int argc, char **argv);
    int bare; /* no OpenCL setup before it */
} scenario;

static const scenario scenarios[] = {
#define SCENARIO(name, what)      {#name, what, scn_##name, 0},
#define SCENARIO_BARE(name, what) {#name, what, scn_##name, 1},
#include "scenarios.def"
#undef SCENARIO_BARE
#undef SCENARIO
};

int main(int argc, char **argv)
{
    size_t count = sizeof scenarios / sizeof scenarios[0];
    for (size_t i = 0; argc >= 2 && i < count; i++) {
        if (strcmp(argv[1], scenarios[i].name) != 0)
            continue;
        if (scenarios[i].bare) {
            scenarios[i].run(NULL, argc - 2, argv + 2);
            return 0;
        }
        it_cl cl;
        it_cl_open(&cl);
        scenarios[i].run(&cl, argc - 2, argv + 2);
        it_cl_close(&cl);
        return 0;
    }
    fprintf(stderr, "usage: %s SCENARIO [args]\nscenarios:\n", argv[0]);
    for (size_t i = 0; i < count; i++)
        fprintf(stderr, "  %-13s %s\n", scenarios[i].name, scenarios[i].what);
    return 2;
}

/* rt_renumber_tune.c - a renumbering's costs for the tuner
 * (rt_renumber_tune.h).  Reading the structure and planning pi run off
 * the program's path (a non-blocking read, a thread of its own) and are
 * not counted; the uploads, the kernels' build and the permutations on
 * the device are. */
#include "rt_renumber_tune.h"

/* Without a calibration: the permutation moves elements along cycles,
 * at random, slower than a copy (rt_permute_tune.c's guess). */
#define PERMUTE_BYTES_PER_NS 4.0

dl_tuner_prediction rt_renumber_prediction(const rt_renum_costs *c)
{
    double moved = (double)(c->moved ? c->moved : c->n);
    /* One vertex array permuted: its moved elements read and written. */
    double one = 2.0 * moved * (double)c->elem;
    dl_tuner_prediction p = {0};
    p.first_ns =
        c->build_ns + ((double)c->copy_bytes + (double)c->nvertex * one) /
                          PERMUTE_BYTES_PER_NS;
    p.conversion_ns = 2.0 * one / PERMUTE_BYTES_PER_NS;
    p.past_horizon = 1;
    p.transactions_before = c->before;
    p.transactions_after = c->after;
    return p;
}

/* rt_permute_tune.c - the permutation's up-front cost for the tuner
 * (rt_permute_tune.h).  Planning pi runs on a thread of its own, off the
 * program's path, and is not counted; building the permutation's kernels,
 * uploading its maps and moving the data on the device are, and so are
 * the restores that host accesses cause (one round trip counted). */
#include "rt_permute_tune.h"

/* Without a calibration: the permutation moves elements along cycles,
 * at random, slower than a copy (the gathers' guess, rt_reorder_tune.c). */
#define PERMUTE_BYTES_PER_NS 4.0

dl_tuner_prediction rt_remap_prediction(const rt_remap_costs *c)
{
    double rate = c->bytes_per_ns > 0 ? c->bytes_per_ns : PERMUTE_BYTES_PER_NS;
    double moved = (double)(c->moved ? c->moved : c->n);
    /* pi and pi^-1, and both plans' order tables. */
    double upload = 2.0 * (double)c->n * 4.0 + 2.0 * moved * 4.0;
    /* One way: A's moved elements read and written; P read, its values
     * mapped through pi (4 bytes each at random) and written. */
    double one_way = 2.0 * moved * (double)c->elem +
                     (double)c->count * (2.0 * c->index_bytes + 4.0);
    dl_tuner_prediction p = {0};
    p.first_ns = c->build_ns + upload / rate;
    p.conversion_ns = 2.0 * one_way / rate;
    p.past_horizon = 1;
    p.transactions_before = c->before;
    p.transactions_after = c->after;
    return p;
}

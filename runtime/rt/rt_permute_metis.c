/* rt_permute_metis.c - the METIS the permutation layout plans with
 * (rt_permute.h): loaded at run time from DL_METIS_LIBRARY (the shim does
 * not link libmetis: it must load where METIS is not installed), once
 * per process, by the first planning thread that asks; never under the
 * runtime's lock, and never in a process that plans no permutation.
 * Where it cannot be loaded (or dlayout was built without metis.h) that
 * is said once at info level, and permutations are planned in
 * first-touch order only. */
#include "rt_permute.h"

#include <pthread.h>

static pthread_mutex_t metis_lock = PTHREAD_MUTEX_INITIALIZER;
static int tried;
static dl_metis_api *metis; /* kept to the end: the process's */

const dl_metis_api *rt_permute_metis(void)
{
    pthread_mutex_lock(&metis_lock);
    if (!tried) {
        tried = 1;
        const char *library = dl_rt.controls.metis_library;
        if (dl_metis_open(library, &metis) == DL_SUCCESS)
            DL_LOG_DEBUG("METIS loaded from %s", library);
        else
            DL_LOG_INFO("METIS's order is unavailable (%s): permutations "
                        "are planned in first-touch order only",
                        dl_last_error());
    }
    const dl_metis_api *m = metis;
    pthread_mutex_unlock(&metis_lock);
    return m;
}

/* shim.c - starting the shim on the first intercepted call. */
#include "shim.h"

#include <pthread.h>

int dl_shim_state = DL_SHIM_UNSTARTED;
cl_icd_dispatch dl_shim_real;

static pthread_once_t start_once = PTHREAD_ONCE_INIT;

static void start(void)
{
    dl_shim_find_real(&dl_shim_real);
    dl_rt_mode mode = dl_rt_init(&dl_shim_real);
    int state = mode != DL_RT_ACTIVE ? DL_SHIM_PASSTHROUGH
                : dl_rt_timed()      ? DL_SHIM_TIMED
                                     : DL_SHIM_ACTIVE;
    __atomic_store_n(&dl_shim_state, state, __ATOMIC_RELEASE);
}

int dl_shim_start(void)
{
    pthread_once(&start_once, start);
    return __atomic_load_n(&dl_shim_state, __ATOMIC_ACQUIRE);
}

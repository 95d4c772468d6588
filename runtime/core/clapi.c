/* clapi.c - the table of OpenCL entry points libdlayout calls. */
#include "clapi.h"

#include <pthread.h>

cl_icd_dispatch dl_cl;

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static int installed;

static void fill_default(void)
{
    if (__atomic_load_n(&installed, __ATOMIC_ACQUIRE))
        return;
    dl_cl_fill_linked(&dl_cl);
    dl_cl_check_blocking(&dl_cl);
}

void dl_cl_init_default(void)
{
    pthread_once(&default_once, fill_default);
}

void dl_cl_install(const cl_icd_dispatch *real)
{
    cl_icd_dispatch table = *real;
    dl_cl_check_blocking(&table);
    dl_cl = table;
    __atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
}

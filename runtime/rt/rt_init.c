/* rt_init.c - starting the interposition runtime once per process: the
 * real entry points, the DL_* controls, the log and the exit stats. */
#define _GNU_SOURCE /* secure_getenv */
#include "internal.h"
#include "cache_dir.h"
#include "clock.h"
#include "rt_hg.h"
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

rt_state dl_rt = {.lock = PTHREAD_MUTEX_INITIALIZER};
int rt_hg_active;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static const cl_icd_dispatch *init_real;

void rt_hg_publish(const void *obj)
{
#ifdef ANNOTATE_HAPPENS_BEFORE
    ANNOTATE_HAPPENS_BEFORE(obj);
#else
    (void)obj;
#endif
}

void rt_hg_acquire(const void *obj)
{
#ifdef ANNOTATE_HAPPENS_AFTER
    ANNOTATE_HAPPENS_AFTER(obj);
#else
    (void)obj;
#endif
}

/* Whether helgrind or DRD watches this process: valgrind preloads the
 * tool's library into its client. */
static int under_thread_checker(void)
{
#ifdef RUNNING_ON_VALGRIND
    const char *preload = secure_getenv("LD_PRELOAD");
    return RUNNING_ON_VALGRIND && preload &&
           (strstr(preload, "vgpreload_helgrind") ||
            strstr(preload, "vgpreload_drd"));
#else
    return 0;
#endif
}

/* DL_BINARY_DIR: "off" (the default) keeps nothing; a directory is
 * filled as programs are built (one that cannot be used is named in a
 * warning, once, and the cache is off); "auto" is the per-user cache,
 * filled only at exit and within a small budget (engine.c).  Not the default:
 * storing makes POCL compile at exit, which aborted a test process inside LLVM
 * twice under load, and a program must never fail at exit because of us. */
static void set_binary_cache(const char *setting)
{
    static char dir[4096];
    if (!setting || !*setting || strcmp(setting, "off") == 0) {
        dl_engine_set_binary_cache(NULL, 0);
        return;
    }
    if (strcmp(setting, "auto") != 0) {
        const char *why = dl_engine_binary_dir_unusable(setting);
        if (why)
            DL_LOG_WARN("DL_BINARY_DIR=%s cannot be used (%s): marshal "
                        "programs are built from source and not kept",
                        setting, why);
        dl_engine_set_binary_cache(why ? NULL : setting, 0);
        return;
    }
    if (dl_cache_path(dir, sizeof dir, "binaries") != DL_SUCCESS) {
        dl_engine_set_binary_cache(NULL, 0); /* nowhere to keep them */
        return;
    }
    dl_engine_set_binary_cache(dir, 1);
}

static void start_runtime(void)
{
    /* Written once here, read by every fast path afterwards. */
    RT_HG_UNTRACKED(&rt_hg_active, sizeof rt_hg_active);
    rt_hg_active = under_thread_checker();
    /* Atomics, read by the lock-free fast paths (rt_hg.h). */
    RT_HG_UNTRACKED(&dl_rt.annotated, sizeof dl_rt.annotated);
    RT_HG_UNTRACKED(&dl_rt.transformed, sizeof dl_rt.transformed);
    RT_HG_UNTRACKED(&dl_rt.untracked_subs, sizeof dl_rt.untracked_subs);
    RT_HG_UNTRACKED(&dl_rt.stats, sizeof dl_rt.stats);
    RT_HG_UNTRACKED(&dl_rt.programs, sizeof dl_rt.programs);
    RT_HG_UNTRACKED(&dl_rt.kernels, sizeof dl_rt.kernels);
    RT_HG_UNTRACKED(&dl_rt.buffers, sizeof dl_rt.buffers);
    RT_HG_UNTRACKED(&dl_rt.destroyed, sizeof dl_rt.destroyed);
    if (init_real)
        dl_cl_install(init_real);
    else
        dl_cl_init_default(); /* standalone: the linked libOpenCL */
    rt_self_init();
    /* A setuid or setgid program (the ICD loader loads the layer into
     * it): its environment is not to be trusted, so dlayout reads no DL_*
     * variable, writes no file (dump, log, binaries, calibration, stats)
     * and forwards every call, silently. */
    if (getauxval(AT_SECURE)) {
        dl_controls_defaults(&dl_rt.controls);
        dl_rt.mode = DL_RT_PASSTHROUGH;
        return;
    }
    /* Invalid values are reported by dl_controls_load; the defaults are
     * then used, so the status needs no handling here. */
    (void)dl_controls_load(&dl_rt.controls);
    if (dl_rt.controls.stats || dl_rt.controls.coalescing)
        rt_stats_register();
    if (dl_rt.controls.disable || !dl_cl.clEnqueueNDRangeKernel ||
        !dl_cl.clCreateProgramWithSource) {
        if (!dl_rt.controls.disable)
            DL_LOG_ERROR("the real OpenCL entry points are missing; "
                         "dlayout stays a pass-through");
        dl_rt.mode = DL_RT_PASSTHROUGH;
        return;
    }
    set_binary_cache(dl_rt.controls.binary_dir);
    dl_tuner_config tuner_cfg;
    dl_tuner_config_defaults(&tuner_cfg);
    tuner_cfg.policy = (dl_policy)dl_rt.controls.policy;
    dl_rt.tuner = dl_tuner_create(&tuner_cfg); /* NULL: as "always" */
    dl_rt.mode = DL_RT_ACTIVE;
    if (dl_rt.controls.stats)
        rt_self_start();
    char policy[16];
    dl_controls_value_text(&dl_rt.controls, "DL_POLICY", policy, sizeof policy);
    DL_LOG_INFO("runtime active (DL_POLICY=%s)", policy);
}

/* The start-up is dlayout's own time too (self_ms): the first
 * intercepted call waits for it, outside the timed entries. */
static void init_runtime(void)
{
    uint64_t start = dl_now_ns();
    start_runtime();
    RT_ADD(dl_rt.stats.self_ns, dl_now_ns() - start);
}

dl_rt_mode dl_rt_init(const cl_icd_dispatch *real)
{
    init_real = real; /* read only by the one init_runtime() call */
    pthread_once(&init_once, init_runtime);
    return dl_rt.mode;
}

dl_controls *dl_rt_controls(void)
{
    return &dl_rt.controls;
}

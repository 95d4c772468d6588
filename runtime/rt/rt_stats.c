/* rt_stats.c - the counters and the one `dlayout-stats:` line printed at
 * exit with DL_STATS (after the DL_COALESCING report, if any).
 * marshal_enqueue_ms is host time spent enqueueing conversions (plans and
 * their first compilation included), not the device's time converting:
 * dlayout adds no synchronisation just to time the device.  dlayout's own
 * cost: self_ms (host time inside the intercepted calls less the
 * program's forwarded commands, rt_self.c), of it tuner_wait_ms (the
 * tuner waiting for launch times: the device runs the program's own
 * kernels meanwhile), thread_cpu_ms (CPU time of its planning threads
 * that ended and of its counting thread's finished jobs) and device_ms (the
 * conversions the tuner's probes timed: only those, with the events they
 * have anyway). */
#include "rt_indirect.h"
#include "rt_internal.h"
#include "rt_memo.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

void dl_rt_get_stats(rt_stats *out)
{
#define RT_GET(f) out->f = RT_LOAD(dl_rt.stats.f);
    RT_GET(programs_annotated)
    RT_GET(kernels_planned)
    RT_GET(kernels_transformed)
    RT_GET(launches)
    RT_GET(marshals)
    RT_GET(unmarshals)
    RT_GET(bytes_marshaled)
    RT_GET(marshal_ns)
    RT_GET(declined)
    RT_GET(plain_launches)
    RT_GET(reorders)
    RT_GET(reorder_hits)
    RT_GET(reorder_invalidations)
    RT_GET(chunked_launches)
    RT_GET(overlapped_gathers)
    RT_GET(partial_launches)
    RT_GET(permutations_applied)
    RT_GET(permutations_restored)
    RT_GET(irregular_plans)
    RT_GET(trip_plans)
    RT_GET(trip_launches)
    RT_GET(self_ns)
    RT_GET(thread_cpu_ns)
#undef RT_GET
    /* The memos' launches not yet retired into the counters.  Only the
     * mutex: rt_lock() would also invalidate every memo. */
    pthread_mutex_lock(&dl_rt.lock);
    rt_kernel *k;
    for (size_t i = 0; i < rt_map_cap(&dl_rt.kernels); i++)
        if ((k = rt_map_at(&dl_rt.kernels, i)))
            rt_memo_count(&k->memo, out);
    pthread_mutex_unlock(&dl_rt.lock);
    out->decided_transform = out->decided_plain = 0;
    out->device_ns = out->tuner_wait_ns = 0;
    if (dl_rt.tuner) {
        dl_tuner_counts(dl_rt.tuner, &out->decided_transform,
                        &out->decided_plain);
        dl_tuner_own_times(dl_rt.tuner, &out->device_ns, &out->tuner_wait_ns);
    }
}

int dl_rt_format_stats(const rt_stats *s, char *buf, size_t size)
{
    return snprintf(
        buf, size,
        "dlayout-stats: programs_annotated=%llu kernels_planned=%llu "
        "kernels_transformed=%llu launches=%llu marshals=%llu "
        "unmarshals=%llu bytes_marshaled=%llu marshal_enqueue_ms=%.3f "
        "declined=%llu plain_launches=%llu decided_transform=%llu "
        "decided_plain=%llu reorders=%llu reorder_hits=%llu "
        "reorder_invalidations=%llu chunked_launches=%llu "
        "overlapped_gathers=%llu partial_launches=%llu "
        "permutations_applied=%llu permutations_restored=%llu "
        "irregular_plans=%llu trip_plans=%llu trip_launches=%llu "
        "self_ms=%.3f tuner_wait_ms=%.3f thread_cpu_ms=%.3f device_ms=%.3f",
        (unsigned long long)s->programs_annotated,
        (unsigned long long)s->kernels_planned,
        (unsigned long long)s->kernels_transformed,
        (unsigned long long)s->launches, (unsigned long long)s->marshals,
        (unsigned long long)s->unmarshals,
        (unsigned long long)s->bytes_marshaled, (double)s->marshal_ns / 1e6,
        (unsigned long long)s->declined, (unsigned long long)s->plain_launches,
        (unsigned long long)s->decided_transform,
        (unsigned long long)s->decided_plain, (unsigned long long)s->reorders,
        (unsigned long long)s->reorder_hits,
        (unsigned long long)s->reorder_invalidations,
        (unsigned long long)s->chunked_launches,
        (unsigned long long)s->overlapped_gathers,
        (unsigned long long)s->partial_launches,
        (unsigned long long)s->permutations_applied,
        (unsigned long long)s->permutations_restored,
        (unsigned long long)s->irregular_plans,
        (unsigned long long)s->trip_plans, (unsigned long long)s->trip_launches,
        (double)s->self_ns / 1e6, (double)s->tuner_wait_ns / 1e6,
        (double)s->thread_cpu_ns / 1e6, (double)s->device_ns / 1e6);
}

void rt_stats_ran_transformed(rt_kernel *k)
{
    rt_program *p = k->prog;
    if (!p || !p->ran || p->ran[k->annot_index])
        return;
    p->ran[k->annot_index] = 1;
    RT_ADD(dl_rt.stats.kernels_transformed, 1);
}

/* The CPU time of this thread added to thread_cpu_ns so far. */
static __thread uint64_t thread_counted_ns;

void rt_stats_thread_done(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return;
    uint64_t ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    RT_ADD(dl_rt.stats.thread_cpu_ns, ns - thread_counted_ns);
    thread_counted_ns = ns;
}

static int printed;
/* The process that started the runtime: a fork() child inherits the exit
 * handler (and the layer's destructor) but its exit must print nothing. */
static pid_t owner;

void rt_stats_register(void)
{
    owner = getpid();
    atexit(dl_rt_print_stats);
}

void dl_rt_print_stats(void)
{
    if (getpid() != owner || __atomic_exchange_n(&printed, 1, __ATOMIC_ACQ_REL))
        return;
    if (dl_rt.controls.coalescing)
        rt_indirect_report(stderr);
    if (!dl_rt.controls.stats)
        return;
    rt_stats s;
    char line[640];
    dl_rt_get_stats(&s);
    dl_rt_format_stats(&s, line, sizeof line);
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

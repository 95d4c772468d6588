/* rt_self.c - dlayout's own host time, for DL_STATS's self_ms: the wall
 * time spent inside the intercepted entry points less the real calls
 * that carry out the program's own command (the forward).
 *
 * Only with DL_STATS: the shim then calls dl_rt_timed_<name>, which times
 * dl_rt_<name>, and the runtime forwards through rt_fwd, whose entries
 * then time the real call on the calling thread.  Without DL_STATS the
 * shim calls dl_rt_<name> directly and rt_fwd is a copy of dl_cl, so the
 * default path reads no clock and costs no instruction more: a table,
 * not a pointer to one (a launch the memo serves calls the entry it chose
 * when the memo was made: rt_memo_enqueue gives the timed one).
 *
 * What counts as the forward: the program's command as dlayout runs it
 * (the launch, transformed or in chunks, included), and the wait a
 * blocking access implies (access_end).  Everything else inside the entry
 * is dlayout's: its lookups, plans, builds, conversions enqueued, and any
 * wait on its own lock. */
#include "rt_internal.h"

#include "clock.h"

cl_icd_dispatch rt_fwd;

static int timed; /* written once, by rt_self_start */

/* Nanoseconds this thread spent in forwarded real calls. */
static __thread uint64_t forwarded_ns;

static void self_add(uint64_t start, uint64_t forwarded_before)
{
    uint64_t spent = dl_now_ns() - start;
    uint64_t forwarded = forwarded_ns - forwarded_before;
    RT_ADD(dl_rt.stats.self_ns, spent > forwarded ? spent - forwarded : 0);
}

/* Per entry: the timed forward (fwd_<name>) and the timed entry. */
#define RT_ENTRY(ret, name, params, args)                                      \
    static ret fwd_##name params                                               \
    {                                                                          \
        uint64_t start_ = dl_now_ns();                                         \
        ret r_ = dl_cl.name args;                                              \
        forwarded_ns += dl_now_ns() - start_;                                  \
        return r_;                                                             \
    }                                                                          \
    ret dl_rt_timed_##name params                                              \
    {                                                                          \
        uint64_t before_ = forwarded_ns, start_ = dl_now_ns();                 \
        ret r_ = dl_rt_##name args;                                            \
        self_add(start_, before_);                                             \
        return r_;                                                             \
    }
#include "rt_timed_entries.inc"
#undef RT_ENTRY

/* The wait of a blocking access (access_end), not an entry itself. */
static cl_int fwd_wait(cl_uint num_events, const cl_event *event_list)
{
    uint64_t start = dl_now_ns();
    cl_int err = dl_cl.clWaitForEvents(num_events, event_list);
    forwarded_ns += dl_now_ns() - start;
    return err;
}

void rt_self_init(void)
{
    rt_fwd = dl_cl;
}

void rt_self_start(void)
{
#define RT_ENTRY(ret, name, params, args)                                      \
    if (rt_fwd.name)                                                           \
        rt_fwd.name = fwd_##name;
#include "rt_timed_entries.inc"
#undef RT_ENTRY
    if (rt_fwd.clWaitForEvents)
        rt_fwd.clWaitForEvents = fwd_wait;
    timed = 1;
}

int dl_rt_timed(void)
{
    return timed;
}

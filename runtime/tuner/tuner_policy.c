/* tuner_policy.c - the per-pattern state machine of tuner.h.
 *
 * Times are compared by their minimum over the probe (robust against a
 * busy machine), then followed by a moving average while the decision
 * holds, so that a kernel whose data changes can still be shut down. */
#include "tuner.h"
#include "tuner_predict.h"
#include "hash.h"
#include "clock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* DEFERRED: plain, because no probe could pay yet (probe_cannot_pay). */
enum state { NEW, PLAIN_PROBE, TRANSFORM_PROBE, TRANSFORM, PLAIN, DEFERRED };

#define TUNER_BUCKETS     256u
#define TUNER_MAX_ENTRIES 4096u
#define TUNER_NAME_MAX    64u
#define TUNER_WHY_MAX     320u /* a decision's reason, in words */

typedef struct dl_tuner_entry dl_tuner_entry;
struct dl_tuner_entry {
    dl_tuner_entry *next; /* in the bucket */
    const void *kernel, *prev;
    uint64_t signature;
    uint64_t id; /* the ticket reports name it by */
    char name[TUNER_NAME_MAX];
    enum state state;
    uint64_t launches;
    int deferred; /* counted as decided plain when first deferred */
    unsigned plain_asked, trans_asked; /* measured launches requested */
    unsigned plain_n, trans_n;         /* reports received            */
    double plain_ns, trans_ns;         /* min during the probe, then avg */
    /* Conversions.  The first one of a probe is the one-off marshal;
     * later ones recur (e.g. the host read the data back in between).
     * Their cost per launch = how often a launch converts (a moving
     * average over about ten launches, from dl_tuner_note_conversion)
     * times how long one takes (the timed ones, from probes). */
    int first_conv_seen, first_note_seen;
    double first_conv_ns;
    double conv_ns_sum; /* timed conversions after the first */
    unsigned conv_n;
    double conv_rate;        /* moving sum of launches that convert */
    double rate_weight;      /* the same sum if every launch did    */
    uint64_t trans_launches; /* transformed launches so far        */
    uint64_t next_monitor;   /* trans_launches of the next measured one */
};

/* Per kernel, over all its patterns: the probe budget. */
typedef struct kernel_info {
    struct kernel_info *next;
    const void *kernel;
    const void *prev; /* the other kernel launched last before it */
    unsigned probes;
    int last; /* -1 none, 0 plain, 1 transform */
} kernel_info;

struct dl_tuner {
    dl_tuner_config cfg;
    pthread_mutex_t lock;
    pthread_cond_t reported; /* a kernel time arrived */
    uint64_t reports;        /* kernel times received, all patterns     */
    uint64_t longest_ns;     /* the longest of them                     */
    int wait_failed;         /* a probe's times never came: stop waiting */
    dl_tuner_entry *buckets[TUNER_BUCKETS];
    kernel_info *kernels;
    unsigned nentries;
    const void *last_kernel;
    uint64_t next_id;
    uint64_t decided_transform, decided_plain;
    uint64_t conversion_ns; /* every conversion time reported */
    uint64_t wait_ns;       /* spent in wait_for */
};

void dl_tuner_config_defaults(dl_tuner_config *c)
{
    memset(c, 0, sizeof *c);
    c->policy = DL_POLICY_AUTO;
    /* Two: the first launch of each variant may include the device
     * compiler's work (POCL compiles at the first enqueue), and the
     * comparison takes each variant's fastest sample. */
    c->plain_samples = 2;
    c->probe_samples = 2;
    /* Right after the plain samples: the probe waits for the first one's
     * time only (plain_timed), while the second runs. */
    c->probe_after = 3;
    c->max_probes = 4;
    c->horizon = 16;
    c->margin = 0.02;
    c->keen_speedup = 1.3;
    c->monitor_every = 16;
    c->skip_below = 0; /* see tuner.h */
    /* A tenth: a saving of fewer transactions rarely covers a gather that
     * moves every element the kernel reads. */
    c->min_saving = 0.10;
}

dl_tuner *dl_tuner_create(const dl_tuner_config *config)
{
    dl_tuner *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cfg = *config;
    if (t->cfg.probe_samples == 0)
        t->cfg.probe_samples = 1;
    if (t->cfg.plain_samples == 0)
        t->cfg.plain_samples = 1;
    if (t->cfg.monitor_every == 0)
        t->cfg.monitor_every = 1;
    pthread_mutex_init(&t->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&t->reported, &attr);
    pthread_condattr_destroy(&attr);
    return t;
}

void dl_tuner_destroy(dl_tuner *t)
{
    if (!t)
        return;
    for (unsigned b = 0; b < TUNER_BUCKETS; b++)
        for (dl_tuner_entry *e = t->buckets[b], *n; e; e = n) {
            n = e->next;
            free(e);
        }
    for (kernel_info *k = t->kernels, *n; k; k = n) {
        n = k->next;
        free(k);
    }
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->reported);
    free(t);
}

uint64_t dl_tuner_signature(uint64_t hash, uint64_t value)
{
    /* The hash of the value's 8 bytes, least significant first. */
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(value >> (8 * i));
    return dl_hash(hash ? hash : DL_HASH_SEED, bytes, sizeof bytes);
}

uint64_t dl_tuner_now(const dl_tuner *t)
{
    if (t && t->cfg.clock)
        return t->cfg.clock(t->cfg.clock_user);
    return dl_now_ns();
}

static unsigned bucket_of(const void *kernel, uint64_t sig, const void *prev)
{
    uint64_t h = dl_tuner_signature(0, (uint64_t)(uintptr_t)kernel);
    h = dl_tuner_signature(h, sig);
    h = dl_tuner_signature(h, (uint64_t)(uintptr_t)prev);
    return (unsigned)(h % TUNER_BUCKETS);
}

static kernel_info *kernel_info_get(dl_tuner *t, const void *kernel)
{
    for (kernel_info *k = t->kernels; k; k = k->next)
        if (k->kernel == kernel)
            return k;
    kernel_info *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->kernel = kernel;
    k->last = -1;
    k->next = t->kernels;
    t->kernels = k;
    return k;
}

static dl_tuner_entry *entry_get(dl_tuner *t, const dl_tuner_launch *l,
                                 const void *prev)
{
    unsigned b = bucket_of(l->kernel, l->signature, prev);
    for (dl_tuner_entry *e = t->buckets[b]; e; e = e->next)
        if (e->kernel == l->kernel && e->signature == l->signature &&
            e->prev == prev)
            return e;
    if (t->nentries >= TUNER_MAX_ENTRIES)
        return NULL;
    dl_tuner_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->kernel = l->kernel;
    e->prev = prev;
    e->signature = l->signature;
    e->id = ++t->next_id;
    snprintf(e->name, sizeof e->name, "%s", l->name ? l->name : "?");
    e->next = t->buckets[b];
    t->buckets[b] = e;
    t->nentries++;
    return e;
}

static void decide(dl_tuner *t, dl_tuner_entry *e, int transform,
                   const char *why)
{
    kernel_info *k = kernel_info_get(t, e->kernel);
    if (k)
        k->last = transform;
    e->state = transform ? TRANSFORM : PLAIN;
    e->next_monitor = e->trans_launches + t->cfg.monitor_every;
    if (transform)
        t->decided_transform++;
    else
        t->decided_plain++;
    DL_LOG_INFO("tuner: kernel '%s' runs %s: %s", e->name,
                transform ? "transformed" : "plain", why);
}

/* Whether the prediction expects the conversion to pay back within two
 * launches: then the probe starts right after the plain samples. */
static int keen(const dl_tuner *t, const dl_tuner_prediction *p)
{
    if (!p || p->speedup < t->cfg.keen_speedup)
        return 0;
    if (p->conversion_ns <= 0 || p->plain_ns <= 0)
        return 1;
    double saving = p->plain_ns * (1.0 - 1.0 / p->speedup);
    return p->conversion_ns <= 2.0 * saving;
}

/* A transformed launch is chosen: the moving average (weight 0.9 per
 * launch) moves on, the first transformed launch not counted (its
 * marshal is the one-off). */
static void age_conversions(dl_tuner_entry *e)
{
    if (e->trans_launches == 0)
        return;
    e->conv_rate *= 0.9;
    e->rate_weight = 0.9 * e->rate_weight + 0.1;
}

static double recurring_per_launch(const dl_tuner_entry *e)
{
    if (e->rate_weight <= 0)
        return 0;
    double each = e->conv_n ? e->conv_ns_sum / e->conv_n : e->first_conv_ns;
    return e->conv_rate / e->rate_weight * each;
}

/* The end of a probe: keep the transformation if its measured saving,
 * less the conversions every launch pays, is worth more than the margin.
 * The one-off conversion is not weighed here: the probe's marshal is
 * spent, and the restore is owed either way (now, to run plain, or at
 * the next host access).  Whether it could pay was asked before the
 * probe (probe_cannot_pay); a marshal that cost more than predicted
 * (POCL compiling its programs on a first run: 0.7 s where LBM saves
 * 49 ms per step) must not throw the measured saving away. */
static void judge_probe(dl_tuner *t, dl_tuner_entry *e)
{
    double gain = e->plain_ns - e->trans_ns - recurring_per_launch(e);
    char why[TUNER_WHY_MAX];
    snprintf(why, sizeof why,
             "a launch took %.3f ms as written and %.3f ms transformed, "
             "plus %.3f ms of conversions per launch (the first conversion "
             "took %.3f ms)",
             e->plain_ns / 1e6, e->trans_ns / 1e6,
             recurring_per_launch(e) / 1e6, e->first_conv_ns / 1e6);
    decide(t, e, gain > t->cfg.margin * e->plain_ns, why);
}

/* While transformed: shut down when the saving no longer covers the
 * conversions each launch pays (e.g. the host now reads every result). */
static int shut_down(dl_tuner *t, dl_tuner_entry *e)
{
    if (e->trans_launches < 2 * t->cfg.probe_samples + 2)
        return 0;
    double gain = e->plain_ns - e->trans_ns - recurring_per_launch(e);
    if (gain > t->cfg.margin * e->plain_ns)
        return 0;
    char why[TUNER_WHY_MAX];
    snprintf(why, sizeof why,
             "switching back: a launch takes %.3f ms transformed plus %.3f "
             "ms of conversions, no longer less than the %.3f ms it takes "
             "as written",
             e->trans_ns / 1e6, recurring_per_launch(e) / 1e6,
             e->plain_ns / 1e6);
    decide(t, e, 0, why);
    return 1;
}

/* Whether a probe cannot pay even if the transformed kernel saved all it
 * can (the whole plain time, or the share the analyser's transactions
 * predict): the plain time measured, times that share, times the launches
 * it could save on (tuner_predict.c), is below what the probe costs up
 * front (the variant's build, the conversions or gathers and their
 * programs).  Unknown plain times (not reported yet: long or queued
 * kernels) probe. */
static int probe_cannot_pay(const dl_tuner *t, const dl_tuner_entry *e,
                            const dl_tuner_prediction *p, char *why,
                            size_t size)
{
    if (!p || e->plain_n == 0)
        return 0;
    double upfront = dl_tuner_upfront_ns(p, e->plain_ns);
    double launches = dl_tuner_payback_launches(p, t->cfg.horizon, e->launches);
    double share = dl_tuner_saving_share(p);
    double bound = e->plain_ns * share * launches;
    int cannot = upfront > 0 && bound < upfront;
    char span[64], saved[96] = "";
    if (p->past_horizon)
        snprintf(span, sizeof span, "half the %llu launches so far take",
                 (unsigned long long)(e->launches ? e->launches - 1 : 0));
    else
        snprintf(span, sizeof span, "the next %.0f launches take", launches);
    if (share < 1)
        snprintf(saved, sizeof saved,
                 ", of which the predicted saving (%.1f%%) is %.3f ms",
                 100.0 * share, bound / 1e6);
    if (cannot == (e->state != DEFERRED)) /* the caller logs `why` */
        snprintf(why, size,
                 "%s the transformed kernel %s: %s %.3f ms as written "
                 "(%.3f ms each)%s, %s than the %.3f ms trying it costs first "
                 "(its builds %.3f ms, the conversions %.3f ms)",
                 cannot ? "not trying" : "trying", cannot ? "yet" : "now", span,
                 e->plain_ns * launches / 1e6, e->plain_ns / 1e6, saved,
                 cannot ? "less" : "more", upfront / 1e6, p->first_ns / 1e6,
                 (upfront - p->first_ns) / 1e6);
    return cannot;
}

/* Plain before any probe, in state `to` (DEFERRED: until a probe can
 * pay; PLAIN: for good).  A pattern deferred before was counted as
 * decided plain then: not again, and said again at info level only when
 * it ends for good (a deferral that a refreshed prediction renews, after
 * the host waited for plain times, is said at debug level). */
static void plain_unprobed(dl_tuner *t, dl_tuner_entry *e, enum state to,
                           const char *why)
{
    if (!e->deferred)
        decide(t, e, 0, why);
    else if (to == PLAIN)
        DL_LOG_INFO("tuner: kernel '%s' runs plain: %s", e->name, why);
    else
        DL_LOG_DEBUG("tuner: kernel '%s' runs plain: %s", e->name, why);
    e->deferred |= to == DEFERRED;
    e->state = to;
}

/* Before any probe: a predicted transaction saving too low to try decides
 * plain for good (paper 002's shut-down, without paying for a probe),
 * said once at info level. */
static int saving_too_low(dl_tuner *t, dl_tuner_entry *e,
                          const dl_tuner_prediction *p)
{
    char why[TUNER_WHY_MAX];
    if (e->state != NEW && e->state != PLAIN_PROBE && e->state != DEFERRED)
        return 0;
    if (!dl_tuner_saving_too_low(p, t->cfg.min_saving, why, sizeof why))
        return 0;
    plain_unprobed(t, e, PLAIN, why);
    return 1;
}

/* Before a probe: copies stale at so many launches that their gathers
 * eat the saving (a loop that rewrites the vector it reads) put the
 * probe off, said once at info level; a loop that stops rewriting it
 * lowers the share and is probed later. */
static int regathers_outweigh(dl_tuner *t, dl_tuner_entry *e,
                              const dl_tuner_prediction *p)
{
    char why[TUNER_WHY_MAX];
    if (!dl_tuner_regathers_outweigh(p, e->plain_n ? e->plain_ns : 0, why,
                                     sizeof why))
        return 0;
    plain_unprobed(t, e, DEFERRED, why);
    return 1;
}

static dl_tuner_entry *entry_by_ticket(dl_tuner *t, uint64_t ticket);

static int probe_reported(const dl_tuner *t, const dl_tuner_entry *e)
{
    return e->trans_n >= t->cfg.probe_samples &&
           e->plain_n >= t->cfg.plain_samples;
}

/* A program that enqueues all its launches at once (LBM's 100 steps,
 * SpMV's iterations) would otherwise run every one of them in the probe:
 * the probe's times arrive when its kernels complete, after the last
 * launch was chosen.  So the launch after the probe waits for them (the
 * device is busy with the queued launches meanwhile; only the host stops
 * running ahead), and so does the launch that would start a probe that
 * must build the activated variant, for the first plain time.  It waits
 * as long as times keep arriving: it gives up after a silence of
 * PROBE_SILENCE_NS, or three times the longest kernel
 * (measured, or predicted) if that is longer, e.g. when the kernels wait
 * for a user event this thread sets later, or a driver runs nothing
 * before clFlush; the probe then goes on as before and this tuner never
 * waits again.  With an injected clock (the unit tests' simulations)
 * nothing waits.  Returns the entry again (it may have been forgotten
 * meanwhile: NULL). */
#define PROBE_SILENCE_NS 1000000000ull

static void deadline_after(struct timespec *ts, uint64_t ns)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    ns += (uint64_t)ts->tv_nsec;
    ts->tv_sec += (time_t)(ns / 1000000000ull);
    ts->tv_nsec = (long)(ns % 1000000000ull);
}

static int plain_timed(const dl_tuner *t, const dl_tuner_entry *e)
{
    (void)t;
    return e->plain_n >= 1;
}

/* Whether the prediction, with the analyser's count if it arrived since
 * `p` was taken (the launch waits for plain times meanwhile:
 * dl_tuner_wake), declines the pattern without a probe, whatever the
 * plain times say: then the wait for them ends, since no probe will need
 * them. */
static int prediction_declines(const dl_tuner *t, const dl_tuner_entry *e,
                               const dl_tuner_prediction *p)
{
    char why[TUNER_WHY_MAX];
    if (!p)
        return 0;
    dl_tuner_prediction fresh = *p;
    if (p->refresh)
        p->refresh(&fresh);
    return dl_tuner_saving_too_low(&fresh, t->cfg.min_saving, why,
                                   sizeof why) ||
           dl_tuner_regathers_outweigh(&fresh, e->plain_n ? e->plain_ns : 0,
                                       why, sizeof why);
}

/* Waits until `done(e)` (see above), or for plain times (`plain`) until
 * the prediction declines; wait_for times it. */
static dl_tuner_entry *
wait_reports(dl_tuner *t, dl_tuner_entry *e, const dl_tuner_prediction *p,
             int (*done)(const dl_tuner *, const dl_tuner_entry *), int plain)
{
    uint64_t id = e->id, seen = t->reports;
    uint64_t silence = PROBE_SILENCE_NS;
    if (p && p->plain_ns > 0 && 3.0 * p->plain_ns > (double)silence)
        silence = (uint64_t)(3.0 * p->plain_ns);
    struct timespec until;
    deadline_after(&until, silence);
    for (;;) {
        int rc = pthread_cond_timedwait(&t->reported, &t->lock, &until);
        e = entry_by_ticket(t, id);
        if (!e || done(t, e) || (plain && prediction_declines(t, e, p)))
            return e;
        if (t->reports != seen) { /* progress: wait on */
            seen = t->reports;
            if (3 * t->longest_ns > silence)
                silence = 3 * t->longest_ns;
            deadline_after(&until, silence);
        } else if (rc != 0) { /* timed out */
            t->wait_failed = 1;
            DL_LOG_INFO("tuner: kernel '%s': no launch time came back "
                        "within %llu ms; later tries no longer wait for one",
                        e->name, (unsigned long long)(silence / 1000000ull));
            return e;
        }
    }
}

static dl_tuner_entry *
wait_for(dl_tuner *t, dl_tuner_entry *e, const dl_tuner_prediction *p,
         int (*done)(const dl_tuner *, const dl_tuner_entry *), int plain)
{
    if (t->cfg.clock || t->wait_failed || done(t, e) ||
        (plain && prediction_declines(t, e, p)))
        return e;
    uint64_t start = dl_now_ns();
    e = wait_reports(t, e, p, done, plain);
    t->wait_ns += dl_now_ns() - start;
    return e;
}

static int plain_all_timed(const dl_tuner *t, const dl_tuner_entry *e)
{
    return e->plain_n >= t->cfg.plain_samples;
}

/* Before a probe that must build: the first plain time, and unless that
 * one already says the probe cannot pay, all of them.  The first may hold
 * the device compiler's work (POCL compiles a kernel at its first
 * enqueue: 136 ms against 2-8 ms for a launch of a short program here),
 * so it can only tell that a probe cannot pay; the fastest sample says
 * whether it can. */
static dl_tuner_entry *wait_for_plain(dl_tuner *t, dl_tuner_entry *e,
                                      const dl_tuner_prediction *p, char *why,
                                      size_t size)
{
    e = wait_for(t, e, p, plain_timed, 1);
    if (e && !probe_cannot_pay(t, e, p, why, size))
        e = wait_for(t, e, p, plain_all_timed, 1);
    return e;
}

/* How many launches of a decided pattern the runtime's memo may run
 * without asking.  Transformed: monitor_every - 1, so that every
 * monitor_every-th launch is measured.  Plain: nothing is watched, so
 * asking again only costs (the slow path, ~1 us, against a 1 us kernel
 * of a 100,000-launch loop): UNSEEN_PLAIN.  Deferred: up to the launch
 * from which a probe could pay at the current prediction
 * (dl_tuner_launch_that_pays), within
 * the same bound, which also bounds how late a prediction that has
 * dropped meanwhile (programs built since) is noticed. */
#define UNSEEN_PLAIN 4096u

static unsigned unseen_budget(const dl_tuner *t, const dl_tuner_entry *e,
                              const dl_tuner_prediction *p)
{
    unsigned monitor = t->cfg.monitor_every - 1;
    if (e->state == TRANSFORM)
        return monitor;
    if (e->state != DEFERRED)
        return UNSEEN_PLAIN;
    if (!p || e->plain_ns <= 0)
        return monitor;
    /* The next ask comes after `unseen` served launches and one more. */
    double needed = dl_tuner_launch_that_pays(
                        p, dl_tuner_upfront_ns(p, e->plain_ns), e->plain_ns) -
                    (double)e->launches - 1.0;
    if (needed <= (double)monitor)
        return monitor;
    return needed >= (double)UNSEEN_PLAIN ? UNSEEN_PLAIN : (unsigned)needed;
}

static dl_tuner_choice choose_locked(dl_tuner *t, const dl_tuner_launch *l)
{
    dl_tuner_choice plain = {0, 0, 0, 0};
    kernel_info *k = kernel_info_get(t, l->kernel);
    /* The sequence is the last *other* kernel before this one, so that a
     * loop of one kernel is one pattern from its first launch on. */
    if (k && t->last_kernel != l->kernel)
        k->prev = t->last_kernel;
    t->last_kernel = l->kernel;
    dl_tuner_entry *e = k ? entry_get(t, l, k->prev) : NULL;
    if (!e || !k) {
        /* No room to learn: follow the kernel's last decision. */
        plain.transform = k && k->last == 1;
        return plain;
    }
    dl_tuner_choice c = {0, 0, e->id, 0};
    const dl_tuner_prediction *p = l->prediction;
    dl_tuner_prediction fresh;
    e->launches += 1 + (uint64_t)l->served;
    if (e->state == TRANSFORM) /* the served launches ran transformed */
        for (unsigned i = 0; i < l->served; i++) {
            age_conversions(e);
            e->trans_launches++;
        }
    if (e->state == NEW && p && p->plain_reason)
        plain_unprobed(t, e, PLAIN, p->plain_reason);
    if (!saving_too_low(t, e, p) && e->state == NEW) {
        if (p && p->speedup > 0 && p->speedup < t->cfg.skip_below)
            decide(t, e, 0, "the calibration predicts no gain");
        else if (k->probes >= t->cfg.max_probes && k->last >= 0)
            decide(t, e, k->last,
                   "tried transformed as often as allowed; as last decided");
        else
            e->state = PLAIN_PROBE;
    }
    char why[TUNER_WHY_MAX];
    if (e->state == DEFERRED && !regathers_outweigh(t, e, p) &&
        !probe_cannot_pay(t, e, p, why, sizeof why)) {
        DL_LOG_INFO("tuner: kernel '%s': %s", e->name, why);
        e->state = PLAIN_PROBE; /* due: the probe starts now */
    }
    switch (e->state) {
    case PLAIN_PROBE:
        if (e->plain_asked >= t->cfg.plain_samples &&
            (e->launches >= t->cfg.probe_after || keen(t, p)) &&
            k->probes >= t->cfg.max_probes) {
            decide(t, e, k->last == 1, "tried transformed as often as allowed");
            break;
        }
        int due = e->plain_asked >= t->cfg.plain_samples &&
                  (e->launches >= t->cfg.probe_after || keen(t, p));
        /* A probe that must build the variant first waits for a plain
         * time, which says whether it can pay: the first one, so that the
         * second plain launch, queued, keeps the device busy while the
         * host builds (the judge waits for both, probe_reported). */
        if (due && p && p->first_ns > 0 &&
            !(e = wait_for_plain(t, e, p, why, sizeof why)))
            return c;                 /* the kernel was released meanwhile */
        if (due && p && p->refresh) { /* counted while it waited? */
            fresh = *p;
            p->refresh(&fresh);
            p = &fresh;
            if (saving_too_low(t, e, p))
                break;
        }
        if (due && regathers_outweigh(t, e, p))
            break;
        if (due && probe_cannot_pay(t, e, p, why, sizeof why)) {
            plain_unprobed(t, e, DEFERRED, why);
            break;
        }
        if (due) {
            k->probes++;
            e->state = TRANSFORM_PROBE;
        } else {
            c.measure = e->plain_asked < t->cfg.plain_samples;
            e->plain_asked += (unsigned)c.measure;
            return c;
        }
        /* fall through */
    case TRANSFORM_PROBE:
        if (e->trans_asked >= t->cfg.probe_samples &&
            e->plain_asked >= t->cfg.plain_samples &&
            !(e = wait_for(t, e, p, probe_reported, 0)))
            return c; /* the kernel was released meanwhile */
        if (probe_reported(t, e)) {
            judge_probe(t, e);
            break;
        }
        c.transform = 1;
        c.measure = e->trans_asked < t->cfg.probe_samples;
        e->trans_asked += (unsigned)c.measure;
        age_conversions(e);
        e->trans_launches++;
        return c;
    default:
        break;
    }
    /* Decided: the runtime may run the next launches without asking. */
    c.unseen = unseen_budget(t, e, p);
    if (e->state == TRANSFORM && !shut_down(t, e)) {
        c.transform = 1;
        /* Every monitor_every-th launch, served ones included. */
        c.measure = e->trans_launches >= e->next_monitor;
        if (c.measure)
            e->next_monitor = e->trans_launches + t->cfg.monitor_every;
        age_conversions(e);
        e->trans_launches++;
        return c;
    }
    return c; /* PLAIN: stays plain until the pattern changes */
}

dl_tuner_choice dl_tuner_choose(dl_tuner *t, const dl_tuner_launch *l)
{
    dl_tuner_choice c = {0, 0, 0, 0};
    if (t->cfg.policy == DL_POLICY_ALWAYS) {
        c.transform = 1;
        return c;
    }
    if (t->cfg.policy == DL_POLICY_NEVER)
        return c;
    pthread_mutex_lock(&t->lock);
    c = choose_locked(t, l);
    pthread_mutex_unlock(&t->lock);
    return c;
}

/* Reports name entries by ticket, so that one arriving late (from an
 * event callback) after dl_tuner_forget finds nothing instead of freed
 * memory.  Reports are rare (measured launches, conversions). */
static dl_tuner_entry *entry_by_ticket(dl_tuner *t, uint64_t ticket)
{
    for (unsigned b = 0; ticket && b < TUNER_BUCKETS; b++)
        for (dl_tuner_entry *e = t->buckets[b]; e; e = e->next)
            if (e->id == ticket)
                return e;
    return NULL;
}

void dl_tuner_report_kernel(dl_tuner *t, uint64_t ticket, int transformed,
                            uint64_t ns)
{
    pthread_mutex_lock(&t->lock);
    dl_tuner_entry *e = entry_by_ticket(t, ticket);
    if (!e) {
        pthread_mutex_unlock(&t->lock);
        return;
    }
    DL_LOG_DEBUG("tuner: kernel '%s' %s launch timed at %.3f ms", e->name,
                 transformed ? "transformed" : "plain", (double)ns / 1e6);
    unsigned *n = transformed ? &e->trans_n : &e->plain_n;
    double *v = transformed ? &e->trans_ns : &e->plain_ns;
    int probing = e->state == PLAIN_PROBE || e->state == TRANSFORM_PROBE;
    if (*n == 0 || (probing && (double)ns < *v))
        *v = (double)ns;
    else if (!probing)
        *v = 0.75 * *v + 0.25 * (double)ns; /* follow drift */
    (*n)++;
    t->reports++;
    if (ns > t->longest_ns)
        t->longest_ns = ns;
    pthread_cond_broadcast(&t->reported);
    pthread_mutex_unlock(&t->lock);
}

unsigned dl_tuner_measured(dl_tuner *t, uint64_t ticket, int transformed,
                           double *ns)
{
    pthread_mutex_lock(&t->lock);
    dl_tuner_entry *e = entry_by_ticket(t, ticket);
    unsigned n = !e ? 0 : transformed ? e->trans_n : e->plain_n;
    *ns = !n ? 0 : transformed ? e->trans_ns : e->plain_ns;
    pthread_mutex_unlock(&t->lock);
    return n;
}

void dl_tuner_report_conversion(dl_tuner *t, uint64_t ticket, uint64_t ns)
{
    pthread_mutex_lock(&t->lock);
    t->conversion_ns += ns;
    dl_tuner_entry *e = entry_by_ticket(t, ticket);
    if (e && !e->first_conv_seen) {
        e->first_conv_seen = 1;
        e->first_conv_ns = (double)ns;
    } else if (e) {
        e->conv_ns_sum += (double)ns;
        e->conv_n++;
    }
    pthread_mutex_unlock(&t->lock);
}

void dl_tuner_note_conversion(dl_tuner *t, uint64_t ticket)
{
    pthread_mutex_lock(&t->lock);
    dl_tuner_entry *e = entry_by_ticket(t, ticket);
    if (e && !e->first_note_seen)
        e->first_note_seen = 1; /* the one-off marshal */
    else if (e)
        e->conv_rate += 0.1;
    pthread_mutex_unlock(&t->lock);
}

void dl_tuner_forget(dl_tuner *t, const void *kernel)
{
    pthread_mutex_lock(&t->lock);
    for (unsigned b = 0; b < TUNER_BUCKETS; b++)
        for (dl_tuner_entry **pe = &t->buckets[b]; *pe;) {
            dl_tuner_entry *e = *pe;
            if (e->kernel == kernel || e->prev == kernel) {
                *pe = e->next;
                free(e);
                t->nentries--;
            } else {
                pe = &e->next;
            }
        }
    for (kernel_info **pk = &t->kernels; *pk;) {
        kernel_info *k = *pk;
        if (k->kernel == kernel) {
            *pk = k->next;
            free(k);
        } else {
            pk = &k->next;
        }
    }
    if (t->last_kernel == kernel)
        t->last_kernel = NULL;
    for (kernel_info *k = t->kernels; k; k = k->next)
        if (k->prev == kernel)
            k->prev = NULL;
    pthread_mutex_unlock(&t->lock);
}

void dl_tuner_counts(const dl_tuner *t, uint64_t *decided_transform,
                     uint64_t *decided_plain)
{
    pthread_mutex_lock((pthread_mutex_t *)&t->lock);
    if (decided_transform)
        *decided_transform = t->decided_transform;
    if (decided_plain)
        *decided_plain = t->decided_plain;
    pthread_mutex_unlock((pthread_mutex_t *)&t->lock);
}

void dl_tuner_wake(dl_tuner *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->lock);
    pthread_cond_broadcast(&t->reported);
    pthread_mutex_unlock(&t->lock);
}

void dl_tuner_own_times(const dl_tuner *t, uint64_t *conversion_ns,
                        uint64_t *wait_ns)
{
    pthread_mutex_lock((pthread_mutex_t *)&t->lock);
    *conversion_ns = t->conversion_ns;
    *wait_ns = t->wait_ns;
    pthread_mutex_unlock((pthread_mutex_t *)&t->lock);
}

double dl_tuner_plain_spent(dl_tuner *t, const void *kernel)
{
    double spent = 0;
    pthread_mutex_lock(&t->lock);
    for (unsigned b = 0; b < TUNER_BUCKETS; b++)
        for (const dl_tuner_entry *e = t->buckets[b]; e; e = e->next)
            if (e->kernel == kernel && e->plain_n)
                spent += (double)e->launches * e->plain_ns;
    pthread_mutex_unlock(&t->lock);
    return spent;
}

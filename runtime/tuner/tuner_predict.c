/* tuner_predict.c - a launch's prediction before a probe (tuner_predict.h).
 *
 * A quarter of the launches so far: the past as the guess of the future,
 * with a real gain a fraction of the plain time, so that a long loop of a
 * short kernel is probed in the end.  Where the up-front cost is a few
 * plain launches (a gather with its builds: a 2M-row SpMV pays ~0.12 s
 * against 80 ms launches), the horizon of 16 would probe any program at
 * its third launch, and one that ends there pays it all; so such a
 * prediction asks that the launches run before the probe, each at the
 * predicted saving, already cover it twice (renting until the rent paid
 * equals the price, then buying, costs at most twice the best choice made
 * knowing the future; the margin covers the estimates' error). */
#include "tuner_predict.h"

#include <stdio.h>

#define PAST_LAUNCHES_SHARE 4.0 /* a quarter of the launches so far */
/* With past_horizon, the launches so far must save this many times the
 * cost up front: its estimates are off by up to 2x on a loaded machine
 * (the gather program: 19 ms predicted from the calibration, 46-50 ms
 * built here), and a program that ends right after the probe gets back
 * only that launch's saving. */
#define PAST_MARGIN 2.0

double dl_tuner_saving_share(const dl_tuner_prediction *p)
{
    if (!p || p->transactions_before <= 0)
        return 1.0;
    double share = 1.0 - p->transactions_after / p->transactions_before;
    return share < 0 ? 0 : share > 1 ? 1 : share;
}

int dl_tuner_saving_too_low(const dl_tuner_prediction *p, double min_saving,
                            char *why, size_t size)
{
    if (!p || p->transactions_before <= 0)
        return 0;
    double share = dl_tuner_saving_share(p);
    if (share >= min_saving)
        return 0;
    snprintf(why, size,
             "not reorganising: the coalescing analyser predicts %.2f memory "
             "transactions per warp-access as written and %.2f reorganised "
             "(%.1f%% fewer), less than the %.0f%% worth trying; no probe",
             p->transactions_before, p->transactions_after, 100.0 * share,
             100.0 * min_saving);
    return 1;
}

/* One gather of every copy: what conversion_ns says, at least the
 * share of a plain launch the gathers redo (conversion_rereads). */
static double gather_ns(const dl_tuner_prediction *p, double plain_ns)
{
    double reread = plain_ns * dl_tuner_saving_share(p);
    return p->conversion_rereads && reread > p->conversion_ns
               ? reread
               : p->conversion_ns;
}

int dl_tuner_regathers_outweigh(const dl_tuner_prediction *p, double plain_ns,
                                char *why, size_t size)
{
    if (!p || p->regather_share <= 0)
        return 0;
    const char *what = p->regathered ? p->regathered : "an array it reads";
    if (plain_ns <= 0) { /* the gather costs at least the saving */
        if (!p->conversion_rereads || p->regather_share < 1.0)
            return 0;
        snprintf(why, size,
                 "not reorganising: %s is rewritten before every launch, "
                 "so its copy would be gathered again each time, redoing "
                 "the reads the reorganised kernel saves; no probe",
                 what);
        return 1;
    }
    double saving = plain_ns * dl_tuner_saving_share(p);
    double gather = gather_ns(p, plain_ns);
    if (saving > p->regather_share * gather)
        return 0;
    char often[64] = "every launch";
    if (p->regather_share < 0.995)
        snprintf(often, sizeof often, "%.0f%% of the launches",
                 100.0 * p->regather_share);
    snprintf(why, size,
             "not reorganising: %s is rewritten before %s, so its copy "
             "would be gathered again each time (about %.1f ms) against a "
             "saving of %.1f ms; no probe",
             what, often, gather / 1e6, saving / 1e6);
    return 1;
}

double dl_tuner_upfront_ns(const dl_tuner_prediction *p, double plain_ns)
{
    if (!p)
        return 0;
    return p->first_ns + gather_ns(p, plain_ns);
}

double dl_tuner_payback_launches(const dl_tuner_prediction *p, double horizon,
                                 uint64_t launches)
{
    if (p && p->past_horizon)
        return launches ? (double)(launches - 1) / PAST_MARGIN : 0;
    double past = (double)launches / PAST_LAUNCHES_SHARE;
    return past > horizon ? past : horizon;
}

double dl_tuner_launch_that_pays(const dl_tuner_prediction *p,
                                 double upfront_ns, double plain_ns)
{
    double each = plain_ns * dl_tuner_saving_share(p);
    if (upfront_ns <= 0 || plain_ns <= 0)
        return 0;
    if (each <= 0)
        return 1e30; /* never */
    if (p && p->past_horizon)
        return PAST_MARGIN * upfront_ns / each + 1.0;
    return PAST_LAUNCHES_SHARE * upfront_ns / each;
}

/* tuner_keep.c - what the runtime tells the user about a calibration it
 * measures, and how it keeps it (docs/tuning.md, "Device calibration").
 *
 * A first run spends seconds calibrating: one line says so (as POCL does
 * for its compiler cache), unless DL_CALIBRATION_NOTICE=0.  A result
 * that cannot be cached would be measured again by every run: said once.
 * A noisy one (another program loading the machine) is said, cached and
 * measured again by the next run, up to DL_CALIB_NOISY_TRIES in a row, so
 * that noise is not cached for good and a busy machine does not pay a
 * calibration every run. */
#include "tuner_calib.h"

#include "controls.h"
#include "error.h"
#include "log.h"

#include <stdlib.h>

int dl_calib_notice_enabled(void)
{
    dl_controls c;
    dl_controls_defaults(&c);
    /* An invalid value keeps the default; dl_controls_load reported it. */
    (void)dl_controls_set(&c, "DL_CALIBRATION_NOTICE",
                          getenv("DL_CALIBRATION_NOTICE"));
    int on = c.calibration_notice;
    dl_controls_free(&c);
    return on;
}

void dl_calib_announce(const char *device, const char *path, int again)
{
    if (!dl_calib_notice_enabled())
        return;
    DL_LOG_WARN("calibrating the OpenCL device '%s' %s (a few seconds; "
                "cached in %s; DL_CALIBRATION_NOTICE=0 silences this)",
                device,
                again ? "again, its cached calibration being noisy" : "once",
                path ? path : "no file: no cache directory");
}

double dl_calib_spread(const double *ns, unsigned n)
{
    double lo = 0, second = 0;
    for (unsigned i = 0; i < n; i++) {
        if (lo == 0 || ns[i] < lo) {
            second = lo;
            lo = ns[i];
        } else if (second == 0 || ns[i] < second) {
            second = ns[i];
        }
    }
    return lo > 0 && second > 0 ? (second - lo) / lo : 0;
}

int dl_calib_is_noisy(const dl_calibration *c)
{
    return c->spread > DL_CALIB_NOISY_SPREAD;
}

int dl_calib_remeasure(const dl_calibration *cached)
{
    return dl_calib_is_noisy(cached) &&
           cached->noisy_runs < DL_CALIB_NOISY_TRIES;
}

void dl_calib_settle(const dl_calibration *cached, dl_calibration *fresh)
{
    if (!dl_calib_is_noisy(fresh)) {
        fresh->noisy_runs = 0;
        return;
    }
    unsigned runs = (cached ? cached->noisy_runs : 0) + 1;
    if (cached && cached->spread < fresh->spread)
        *fresh = *cached;
    fresh->noisy_runs = runs;
}

static void warn_noisy(const dl_calibration *c, int cached)
{
    if (c->noisy_runs < DL_CALIB_NOISY_TRIES || !cached)
        DL_LOG_WARN("the calibration of '%s' is noisy (repeated measurements "
                    "differ by up to %.0f%%: is another program loading the "
                    "machine?); %s, measured again by the next run",
                    c->device, c->spread * 100,
                    cached ? "cached for now" : "not cached");
    else
        DL_LOG_WARN("the calibration of '%s' is noisy (repeated measurements "
                    "differ by up to %.0f%%), %u times in a row: the least "
                    "noisy is cached for good (delete the file or run "
                    "dl-bench calibrate on a quiet machine to measure again)",
                    c->device, c->spread * 100, c->noisy_runs);
}

/* Said once per process: every run that measures again says it again. */
static int warned_unwritable;

dl_status dl_calib_keep(const char *path, const dl_calibration *c)
{
    dl_status st =
        path ? dl_calib_save(path, c)
             : dl_fail(DL_UNSUPPORTED, "no cache directory: neither "
                                       "XDG_CACHE_HOME nor HOME is set");
    if (dl_calib_is_noisy(c))
        warn_noisy(c, st == DL_SUCCESS);
    if (st != DL_SUCCESS &&
        !__atomic_exchange_n(&warned_unwritable, 1, __ATOMIC_RELAXED))
        DL_LOG_WARN("cannot cache the calibration of '%s' (%s): every run "
                    "calibrates again, %.1f s each",
                    c->device, dl_last_error(), c->measure_ms / 1e3);
    return st;
}

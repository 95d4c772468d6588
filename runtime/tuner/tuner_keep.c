/* tuner_keep.c - what the runtime tells the user about a calibration it
 * measures, and whether it keeps it (docs/tuning.md, "Device
 * calibration").
 *
 * A first run spends seconds calibrating: one line says so (as POCL does
 * for its compiler cache), unless DL_CALIBRATION_NOTICE=0.  A result
 * that cannot be cached would be measured again by every run, and a
 * noisy one (another program loading the machine) would be cached for
 * good: each is said once, and a noisy result is used by this process
 * only. */
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

void dl_calib_announce(const char *device, const char *path)
{
    if (!dl_calib_notice_enabled())
        return;
    DL_LOG_WARN("calibrating the OpenCL device '%s' once (a few seconds; "
                "cached in %s; DL_CALIBRATION_NOTICE=0 silences this)",
                device, path ? path : "no file: no cache directory");
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

/* Said once per process: every run that measures again says it again. */
static int warned_unwritable;

dl_status dl_calib_keep(const char *path, const dl_calibration *c)
{
    if (dl_calib_is_noisy(c)) {
        DL_LOG_WARN("the calibration of '%s' is noisy (repeated measurements "
                    "differ by up to %.0f%%: is another program loading the "
                    "machine?); used by this run, not cached, measured again "
                    "by the next one",
                    c->device, c->spread * 100);
        return dl_fail(DL_UNSUPPORTED, "a noisy calibration is not cached");
    }
    dl_status st = path ? dl_calib_save(path, c)
                        : dl_fail(DL_UNSUPPORTED,
                                  "no cache directory: neither "
                                  "XDG_CACHE_HOME nor HOME is set");
    if (st != DL_SUCCESS &&
        !__atomic_exchange_n(&warned_unwritable, 1, __ATOMIC_RELAXED))
        DL_LOG_WARN("cannot cache the calibration of '%s' (%s): every run "
                    "calibrates again, %.1f s each",
                    c->device, dl_last_error(), c->measure_ms / 1e3);
    return st;
}

/* calibrate.c - `dl-bench calibrate [--show] [--device N]`: measures the
 * device for the adaptive control (runtime/tuner/tuner_calib.h) with a progress
 * line, stores it in the per-user cache and prints it; --show prints the
 * cached calibration without measuring (docs/tuning.md). */
#include "bench.h"
#include "bench_cl.h"

#include "tuner_calib.h"

#include <stdlib.h>
#include <string.h>

void bench_calibrate_usage(FILE *out)
{
    fputs("usage: dl-bench calibrate [--show] [--device N]\n\n"
          "Measures the device's copy bandwidth, the access cost of AoS, DA\n"
          "and ASTA(T) records and the conversion throughput (about 1 s, or\n"
          "a few seconds while the kernels are first compiled), stores it in\n"
          "$XDG_CACHE_HOME/dlayout/ (~/.cache/dlayout/) for the runtime and\n"
          "prints it.  --show prints the stored calibration instead.\n",
          out);
}

static void progress(const char *step, unsigned done, unsigned total,
                     void *user)
{
    (void)user;
    fprintf(stderr, "\rcalibrating: %u/%u %-24s", done, total, step);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

static int show(const bench_cl *b, const char *path)
{
    dl_calibration *want = calloc(2, sizeof *want);
    if (!want)
        return BENCH_EXIT_FAIL;
    char name[DL_CALIB_TEXT_MAX] = "", driver[DL_CALIB_TEXT_MAX] = "";
    clGetDeviceInfo(b->device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(b->device, CL_DRIVER_VERSION, sizeof driver - 1, driver,
                    NULL);
    /* Any calibration of this device: the platform name may be spelt
     * differently by the library and the shim. */
    dl_status st = dl_calib_load(path, NULL, &want[1]);
    int rc = BENCH_EXIT_OK;
    if (st == DL_SUCCESS) {
        printf("# %s\n", path);
        dl_calib_print(stdout, &want[1]);
    } else {
        fprintf(stderr, "dl-bench calibrate: no calibration of '%s' "
                        "(driver %s): %s\n", name, driver, dl_last_error());
        rc = BENCH_EXIT_FAIL;
    }
    free(want);
    return rc;
}

int bench_calibrate_main(int argc, char **argv)
{
    bench_args a;
    bench_args_init(&a, "calibrate", argc, argv);
    int only_show = 0;
    size_t device = 0;
    for (const char *opt; (opt = bench_args_next(&a));) {
        if (strcmp(opt, "--show") == 0) {
            only_show = 1;
        } else if (strcmp(opt, "--device") == 0) {
            const char *v = bench_args_value(&a, opt);
            if (!v || !bench_parse_size(opt, v, &device))
                return BENCH_EXIT_USAGE;
        } else if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            bench_calibrate_usage(stdout);
            return BENCH_EXIT_OK;
        } else {
            fprintf(stderr, "dl-bench calibrate: unknown option '%s'\n\n",
                    opt);
            bench_calibrate_usage(stderr);
            return BENCH_EXIT_USAGE;
        }
    }
    bench_cl b;
    if (!bench_cl_open(&b, device))
        return BENCH_EXIT_FAIL;
    dl_calibration *c = calloc(1, sizeof *c);
    int rc = BENCH_EXIT_FAIL;
    char path[4096];
    if (!c)
        goto out;
    /* The identity (and so the file name) as the runtime computes it. */
    if (dl_calib_identity(b.device, c) != DL_SUCCESS ||
        dl_calib_path(c->key, path, sizeof path) != DL_SUCCESS) {
        fprintf(stderr, "dl-bench calibrate: %s\n", dl_last_error());
        goto out;
    }
    if (only_show) {
        rc = show(&b, path);
        goto out;
    }
    if (dl_calib_measure(b.context, b.device, b.queue, progress, NULL, c) !=
        DL_SUCCESS) {
        fprintf(stderr, "\ndl-bench calibrate: %s\n", dl_last_error());
        goto out;
    }
    if (dl_calib_save(path, c) != DL_SUCCESS)
        fprintf(stderr, "dl-bench calibrate: not stored: %s\n",
                dl_last_error());
    else
        printf("# %s\n", path);
    dl_calib_print(stdout, c);
    rc = BENCH_EXIT_OK;
out:
    free(c);
    bench_cl_close(&b);
    return rc;
}

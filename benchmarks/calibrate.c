/* calibrate.c - `dl-bench calibrate [--show] [--platform P] [--device N]`:
 * measures the device for the adaptive control
 * (runtime/tuner/tuner_calib.h) with a progress
 * line, stores it in the per-user cache and prints it; --show prints the
 * cached calibration without measuring (docs/tuning.md). */
#include "bench.h"
#include "bench_cl.h"

#include "tuner_calib.h"

#include <stdlib.h>
#include <string.h>

void bench_calibrate_usage(FILE *out)
{
    fputs("usage: dl-bench calibrate [--show] [--platform P] [--device N]\n\n"
          "Measures the device's copy bandwidth, the access cost of AoS, DA\n"
          "and ASTA(T) records and the conversion throughput (about 1 s, or\n"
          "a few seconds while the kernels are first compiled), stores it in\n"
          "$XDG_CACHE_HOME/dlayout/ (~/.cache/dlayout/) for the runtime and\n"
          "prints it.  --show prints the stored calibration instead.\n"
          "--platform P picks an OpenCL platform and --device N its device;\n"
          "without --platform, N indexes 'dl-bench devices' (default 0).\n"
          "--version prints the version.\n",
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
        fprintf(stderr,
                "dl-bench calibrate: no calibration of '%s' "
                "(driver %s): %s\n",
                name, driver, dl_last_error());
        rc = BENCH_EXIT_FAIL;
    }
    free(want);
    return rc;
}

enum { OPT_SHOW = 0x100 };

static const struct option options[] = {
    {"show", no_argument, NULL, OPT_SHOW},
    {"help", no_argument, NULL, 'h'},
    BENCH_COMMON_OPTIONS,
    {NULL, 0, NULL, 0},
};

/* -1 to go on, else an exit code.  argv[0] is the subcommand's name. */
static int parse(int argc, char **argv, int *only_show, device_choice *device)
{
    opterr = 0; /* our messages, with the usage */
    for (int code;
         (code = getopt_long(argc, argv, ":h", options, NULL)) != -1;) {
        if (code == OPT_SHOW) {
            *only_show = 1;
        } else if (code == BENCH_OPT_PLATFORM || code == BENCH_OPT_DEVICE) {
            if (!bench_device_option(code, optarg, device))
                return BENCH_EXIT_USAGE;
        } else if (code == 'h') {
            bench_calibrate_usage(stdout);
            return BENCH_EXIT_OK;
        } else if (code == BENCH_OPT_VERSION) {
            bench_print_version();
            return BENCH_EXIT_OK;
        } else {
            bench_option_error("calibrate", code, argv);
            fputc('\n', stderr);
            bench_calibrate_usage(stderr);
            return BENCH_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "dl-bench calibrate: unexpected argument '%s'\n",
                argv[optind]);
        return BENCH_EXIT_USAGE;
    }
    return -1;
}

int bench_calibrate_main(int argc, char **argv)
{
    int only_show = 0;
    device_choice device = {DEVICE_PICK_ALL_PLATFORMS, 0};
    int code = parse(argc, argv, &only_show, &device);
    if (code >= 0)
        return code;
    bench_cl b;
    if (!bench_cl_open_choice(&b, device))
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

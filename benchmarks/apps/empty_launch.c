/* empty_launch.c - dl-app-empty-launch: launches a near-empty kernel many
 * times (default 100,000), the per-launch cost that dlayout's shim adds
 * and the issue-6 acceptance bounds (dl-bench accept).
 *
 * The kernel only adds 1 to the first float of its buffer (work-item 0),
 * so the output proves every launch ran.  With --annotated its source
 * carries a `//DL:` annotation (docs/annotations.md) and an activated
 * variant, so that dlayout tracks the kernel and its buffer and its tuner
 * decides on every launch; without it dlayout only passes the calls on.
 * The source is embedded: there is no kernel file to find. */
#include "app_common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PROG    "dl-app-empty-launch"
#define RECORDS 1024 /* records of 4 floats */

/* Record 0, field 0 sits at offset 0 in every layout, so the activated
 * variant can use the same index. */
static const char kernel_annotated[] =
    "//DL: v1 aos: v[n][4] -> da\n"
    "__kernel void touch(__global float *v, int n)\n"
    "{\n"
    "    if (get_global_id(0) != 0 || n < 1)\n"
    "        return;\n"
    "#ifdef DL_ACTIVE_touch\n"
    "    v[0] += 1.0f; /* record 0, field 0: offset 0 in DA too */\n"
    "#else\n"
    "    v[0] += 1.0f;\n"
    "#endif\n"
    "}\n";

static const char kernel_plain[] =
    "__kernel void touch(__global float *v, int n)\n"
    "{\n"
    "    if (get_global_id(0) != 0 || n < 1)\n"
    "        return;\n"
    "    v[0] += 1.0f;\n"
    "}\n";

static void usage(FILE *out)
{
    fputs("usage: " PROG " [options]\n"
          "Launches a kernel that adds 1 to one float, N times in a row,\n"
          "then reads the buffer back.\n"
          "  --launches N  number of launches, 1..16777216 (default 100000)\n"
          "  --annotated   give the kernel a //DL: annotation (dlayout\n"
          "                tracks it); default: a plain kernel\n",
          out);
    app_common_usage(out);
}

typedef struct empty_opts {
    long launches;
    int annotated;
    app_common_opts common;
} empty_opts;

enum { OPT_LAUNCHES = APP_OPT_OWN, OPT_ANNOTATED };

static const struct option empty_options[] = {
    {"launches", required_argument, NULL, OPT_LAUNCHES},
    {"annotated", no_argument, NULL, OPT_ANNOTATED},
    {NULL, 0, NULL, 0},
};

static int empty_option(void *opts, int code, const char *name, const char *v)
{
    empty_opts *o = opts;
    if (code == OPT_ANNOTATED) {
        o->annotated = 1;
        return 1;
    }
    /* floats count exactly up to 2^24 */
    return app_parse_long(PROG, name, v, 1, 1L << 24, &o->launches);
}

static int parse(empty_opts *o, int argc, char **argv)
{
    return app_parse_options(PROG, argc, argv, empty_options, empty_option, o,
                             &o->common, usage);
}

static int build(app_cl *cl, const char *source)
{
    cl_int err;
    cl->program =
        clCreateProgramWithSource(cl->context, 1, &source, NULL, &err);
    if (!app_cl_ok(PROG, err, "clCreateProgramWithSource"))
        return 0;
    err = clBuildProgram(cl->program, 1, &cl->device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[2048] = "";
        clGetProgramBuildInfo(cl->program, cl->device, CL_PROGRAM_BUILD_LOG,
                              sizeof log - 1, log, NULL);
        fprintf(stderr, PROG ": build failed:\n%s\n", log);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    empty_opts o = {100000, 0, {0}};
    app_common_defaults(&o.common);
    if (!parse(&o, argc, argv)) {
        fprintf(stderr, "(" PROG " --help lists the options)\n");
        return APP_EXIT_USAGE;
    }
    const size_t bytes = RECORDS * 4 * sizeof(float);
    float *data = app_alloc(PROG, bytes, "records");
    int rc = APP_EXIT_FAIL;
    cl_mem buf = NULL;
    cl_kernel kernel = NULL;
    app_cl cl;
    memset(&cl, 0, sizeof cl);
    if (!data)
        goto out;
    for (size_t i = 0; i < RECORDS * 4; i++)
        data[i] = (float)(i % 97);

    if (!app_cl_open(&cl, PROG, &o.common) ||
        !build(&cl, o.annotated ? kernel_annotated : kernel_plain))
        goto out;
    cl_int err;
    kernel = clCreateKernel(cl.program, "touch", &err);
    if (!app_cl_ok(PROG, err, "clCreateKernel(touch)") ||
        !(buf = app_cl_buffer(&cl, CL_MEM_READ_WRITE, bytes, "records")))
        goto out;
    const int n = RECORDS;
    const size_t local = (size_t)o.common.local;
    const size_t global = app_round_up(64, local);

    const double t0 = app_now_ms();
    if (!app_cl_ok(PROG,
                   clEnqueueWriteBuffer(cl.queue, buf, CL_TRUE, 0, bytes, data,
                                        0, NULL, NULL),
                   "clEnqueueWriteBuffer") ||
        !app_cl_ok(PROG, clSetKernelArg(kernel, 0, sizeof buf, &buf),
                   "clSetKernelArg(0)") ||
        !app_cl_ok(PROG, clSetKernelArg(kernel, 1, sizeof n, &n),
                   "clSetKernelArg(1)"))
        goto out;
    for (long i = 0; i < o.launches; i++)
        if (!app_cl_ok(PROG,
                       clEnqueueNDRangeKernel(cl.queue, kernel, 1, NULL,
                                              &global, local ? &local : NULL, 0,
                                              NULL, NULL),
                       "clEnqueueNDRangeKernel(touch)"))
            goto out;
    if (!app_cl_ok(PROG,
                   clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, bytes, data,
                                       0, NULL, NULL),
                   "clEnqueueReadBuffer"))
        goto out;
    const double total_ms = app_now_ms() - t0;

    printf("empty_launch launches=%ld count=%.0f fnv1a64=%016llx\n", o.launches,
           (double)data[0], (unsigned long long)app_fnv1a64(data, bytes));
    fflush(stdout);
    if (!o.common.quiet)
        fprintf(stderr,
                PROG ": device=\"%s\" annotated=%d launches=%ld "
                     "us_per_launch=%.3f total_ms=%.3f\n",
                cl.device_name, o.annotated, o.launches,
                1e3 * total_ms / (double)o.launches, total_ms);
    if (data[0] != (float)o.launches) {
        fprintf(stderr, PROG ": count %.0f after %ld launches\n",
                (double)data[0], o.launches);
        goto out;
    }
    if (o.common.output && !app_write_file(PROG, o.common.output, data, bytes))
        goto out;
    rc = APP_EXIT_OK;

out:
    if (kernel)
        clReleaseKernel(kernel);
    if (buf)
        clReleaseMemObject(buf);
    app_cl_close(&cl);
    free(data);
    return rc;
}

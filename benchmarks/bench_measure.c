/* bench_measure.c - one marshaling measurement: upload random records,
 * convert in place (timed), check against dl_convert_host, and time a
 * plain copy of the same bytes interleaved with the conversions. */
#include "bench.h"
#include "bench_marshal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const side_names[] = {"aos", "da", "asta"};

const char *bench_side_name(bench_side side)
{
    return (unsigned)side < 3 ? side_names[side] : "?";
}

int bench_side_parse(const char *text, bench_side *side)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(text, side_names[i]) == 0) {
            *side = (bench_side)i;
            return 1;
        }
    return 0;
}

/* ---------------------------------------------------------------- output */

void bench_marshal_print_header(FILE *out)
{
    fputs("from,to,algo,count,struct,elem,tile,bytes,seconds,gbps,"
          "copy_gbps,ratio,verified,extra_bytes,seconds_min,seconds_max\n",
          out);
}

void bench_marshal_print_row(FILE *out, const bench_marshal_opts *o,
                             const bench_marshal_result *r)
{
    int asta = o->from == BENCH_ASTA || o->to == BENCH_ASTA;
    fprintf(out, "%s,%s,%s,%zu,%zu,%zu,%zu,%zu,", bench_side_name(o->from),
            bench_side_name(o->to), r->supported ? r->algo : "NA", o->count,
            o->nfields, o->elem, asta ? o->tile : 0,
            o->count * o->nfields * o->elem);
    if (!r->supported)
        fputs("NA,NA,NA,NA,NA,NA,NA,NA\n", out);
    else
        fprintf(out, "%.9f,%.6g,%.6g,%.6g,%d,%zu,%.9f,%.9f\n", r->seconds,
                r->gbps, r->copy_gbps, r->gbps / r->copy_gbps, r->verified,
                r->extra_bytes, r->seconds_min, r->seconds_max);
}

/* dl_plan_describe with commas turned into ';' so that the column needs
 * no quoting: "bs(T=16) -> oop(T=16;inverse)". */
static void algo_column(const char *desc, char *out, size_t room)
{
    size_t i = 0;
    for (; desc[i] && i + 1 < room; i++)
        out[i] =
            desc[i] == ',' || desc[i] == '"' || desc[i] == '\n' ? ';' : desc[i];
    out[i] = '\0';
}

/* -------------------------------------------------------------- the run */

static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i += 8) { /* splitmix64 */
        uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        memcpy(p + i, &z, n - i < 8 ? n - i : 8);
    }
}

typedef struct conversion {
    dl_plan *plan;
    cl_mem buffer;
} conversion;

static int enqueue_conversion(void *ctx, cl_command_queue q, cl_uint nwait,
                              const cl_event *wait, cl_event *last)
{
    conversion *c = ctx;
    dl_status st = dl_plan_enqueue(c->plan, q, c->buffer, nwait, wait, last);
    if (st == DL_SUCCESS)
        return 1;
    fprintf(stderr, "dl-bench: dl_plan_enqueue failed (%s): %s\n",
            dl_status_name(st), dl_last_error());
    return 0;
}

static dl_layout make_layout(bench_side s, const dl_record *rec,
                             const bench_marshal_opts *o)
{
    switch (s) {
    case BENCH_AOS:
        return dl_layout_aos(rec, o->count);
    case BENCH_DA:
        return dl_layout_da(rec, o->count);
    default:
        return dl_layout_asta(rec, o->count, o->tile);
    }
}

/* Everything a measurement allocates, released in one place. */
typedef struct run {
    bench_cl *cl;
    const bench_marshal_opts *o;
    size_t bytes;
    dl_record *rec;
    dl_plan *plan;
    cl_mem buf, scratch;
    unsigned char *input, *ref, *out;
    double *conv_s, *cbuf_s, *ckern_s;
} run;

static void run_free(run *r)
{
    free(r->input);
    free(r->ref);
    free(r->out);
    free(r->conv_s);
    free(r->cbuf_s);
    free(r->ckern_s);
    if (r->buf)
        clReleaseMemObject(r->buf);
    if (r->scratch)
        clReleaseMemObject(r->scratch);
    dl_plan_release(r->plan);
    dl_record_release(r->rec);
}

static int lib_fail(const char *what, dl_status st)
{
    fprintf(stderr, "dl-bench: %s failed (%s): %s\n", what, dl_status_name(st),
            dl_last_error());
    return BENCH_EXIT_FAIL;
}

#define TRY_DL(what, call)                                                     \
    do {                                                                       \
        dl_status st_ = (call);                                                \
        if (st_ != DL_SUCCESS)                                                 \
            return lib_fail(what, st_);                                        \
    } while (0)

/* Record, plan, host data and buffers.  Returns -1 when ready, else an
 * exit code. */
static int setup(run *r, dl_engine *engine, bench_marshal_result *res)
{
    const bench_marshal_opts *o = r->o;
    size_t bytes = r->bytes;
    if (bytes > r->cl->max_alloc) {
        fprintf(stderr,
                "dl-bench: %zu bytes exceed the device's largest "
                "allocation (%llu bytes)\n",
                bytes, (unsigned long long)r->cl->max_alloc);
        return BENCH_EXIT_FAIL;
    }
    if (!bench_copy_prepare(r->cl))
        return BENCH_EXIT_FAIL;
    TRY_DL("dl_record_create_uniform",
           dl_record_create_uniform((uint32_t)o->nfields, (uint32_t)o->elem,
                                    &r->rec));
    dl_layout from = make_layout(o->from, r->rec, o);
    dl_layout to = make_layout(o->to, r->rec, o);
    dl_status st = dl_plan_create(engine, &from, &to, o->algo, &r->plan);
    if (st == DL_UNSUPPORTED) {
        fprintf(stderr, "dl-bench: %s cannot do this conversion: %s\n",
                dl_algo_name(o->algo), dl_last_error());
        res->supported = 0;
        return BENCH_EXIT_NA;
    }
    if (st != DL_SUCCESS)
        return lib_fail("dl_plan_create", st);
    algo_column(dl_plan_describe(r->plan), res->algo, sizeof res->algo);
    res->extra_bytes = dl_plan_extra_bytes(r->plan);
    if (o->verbose)
        fprintf(stderr, "device: %s\nplan: %s\n", r->cl->name,
                dl_plan_describe(r->plan));

    r->input = malloc(bytes);
    r->ref = malloc(bytes);
    r->out = malloc(bytes);
    r->conv_s = calloc(o->reps, sizeof *r->conv_s);
    r->cbuf_s = calloc(o->reps, sizeof *r->cbuf_s);
    r->ckern_s = calloc(o->reps, sizeof *r->ckern_s);
    if (!r->input || !r->ref || !r->out || !r->conv_s || !r->cbuf_s ||
        !r->ckern_s) {
        fprintf(stderr, "dl-bench: out of host memory\n");
        return BENCH_EXIT_FAIL;
    }
    fill_random(r->input, bytes, 0x5eed0001u);
    memcpy(r->ref, r->input, bytes);
    TRY_DL("dl_convert_host", dl_convert_host(r->ref, bytes, &from, &to));

    cl_int err;
    r->buf =
        clCreateBuffer(r->cl->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!bench_cl_ok(err, "clCreateBuffer"))
        return BENCH_EXIT_FAIL;
    r->scratch =
        clCreateBuffer(r->cl->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!bench_cl_ok(err, "clCreateBuffer"))
        return BENCH_EXIT_FAIL;
    return -1;
}

/* Uploads the input (untimed), converts (timed), checks the result
 * against the reference, then times both copies.  rep -1 is the warm-up:
 * it pays first-touch page faults and lazy allocations, and runs under the
 * wall-clock timer with nothing gated, so that a failing enqueue cannot
 * leave commands waiting on the timer's gate. */
static int one_rep(run *r, long rep, int *verified)
{
    bench_cl *cl = r->cl;
    size_t bytes = r->bytes;
    conversion conv = {r->plan, r->buf};
    bench_copy copy = {cl, r->buf, r->scratch, bytes};
    double ts, tb, tk;
    bench_timer timer = rep < 0 ? BENCH_TIMER_WALL : r->o->timer;
    if (!bench_cl_ok(clEnqueueWriteBuffer(cl->queue, r->buf, CL_TRUE, 0, bytes,
                                          r->input, 0, NULL, NULL),
                     "clEnqueueWriteBuffer") ||
        !bench_cl_time(cl, timer, enqueue_conversion, &conv, &ts) ||
        !bench_cl_ok(clEnqueueReadBuffer(cl->queue, r->buf, CL_TRUE, 0, bytes,
                                         r->out, 0, NULL, NULL),
                     "clEnqueueReadBuffer"))
        return 0;
    if (memcmp(r->out, r->ref, bytes) != 0) {
        size_t i = 0;
        while (r->out[i] == r->ref[i])
            i++;
        if (*verified)
            fprintf(stderr,
                    "dl-bench: the result of conversion %ld (0 is "
                    "the warm-up) differs from the host reference "
                    "at byte %zu\n",
                    rep + 1, i);
        *verified = 0;
    }
    if (!bench_cl_time(cl, timer, bench_copy_buffer, &copy, &tb) ||
        !bench_cl_time(cl, timer, bench_copy_kernel, &copy, &tk))
        return 0;
    if (r->o->verbose)
        fprintf(stderr,
                "%s %ld: convert %.6f s  copy-buffer %.6f s  "
                "copy-kernel %.6f s\n",
                rep < 0 ? "warm-up" : "rep", rep < 0 ? 0 : rep, ts, tb, tk);
    if (rep >= 0) {
        r->conv_s[rep] = ts;
        r->cbuf_s[rep] = tb;
        r->ckern_s[rep] = tk;
    }
    return 1;
}

static int measure(run *r, bench_marshal_result *res)
{
    size_t reps = r->o->reps;
    double twice = 2.0 * (double)r->bytes;
    res->verified = 1;
    for (long rep = -1; rep < (long)reps; rep++)
        if (!one_rep(r, rep, &res->verified))
            return BENCH_EXIT_FAIL;
    res->seconds = bench_median(r->conv_s, reps); /* sorts conv_s */
    res->seconds_min = r->conv_s[0];
    res->seconds_max = r->conv_s[reps - 1];
    res->gbps = twice / res->seconds / 1e9;
    res->copy_buffer_gbps = twice / bench_median(r->cbuf_s, reps) / 1e9;
    res->copy_kernel_gbps = twice / bench_median(r->ckern_s, reps) / 1e9;
    res->copy_gbps = res->copy_buffer_gbps > res->copy_kernel_gbps
                         ? res->copy_buffer_gbps
                         : res->copy_kernel_gbps;
    if (r->o->verbose)
        fprintf(stderr,
                "copy baselines: clEnqueueCopyBuffer %.3f GB/s, "
                "copy kernel %.3f GB/s\n",
                res->copy_buffer_gbps, res->copy_kernel_gbps);
    return res->verified ? BENCH_EXIT_OK : BENCH_EXIT_UNVERIFIED;
}

int bench_marshal_measure(bench_cl *cl, dl_engine *engine,
                          const bench_marshal_opts *o,
                          bench_marshal_result *res)
{
    run r;
    memset(&r, 0, sizeof r);
    memset(res, 0, sizeof *res);
    if (o->reps == 0 || o->nfields == 0 || o->elem == 0 || o->count == 0) {
        fprintf(stderr, "dl-bench: empty measurement (reps, struct, elem "
                        "and count must be nonzero)\n");
        return BENCH_EXIT_FAIL;
    }
    r.cl = cl;
    r.o = o;
    r.bytes = res->bytes = o->count * o->nfields * o->elem;
    res->supported = 1;
    int code = setup(&r, engine, res);
    if (code < 0)
        code = measure(&r, res);
    run_free(&r);
    return code;
}

/* gather.c - A'[e] = A[P[e] + c] on the device (marshal_kernels/gather.cl):
 * the extent a reference's index range covers, partial duplication under a
 * memory budget, and the specialised gather launch. */
#include "gather.h"
#include "clapi.h"
#include "internal.h"

#include <stdint.h>

#define GATHER_LOCAL   256 /* GPUs: work-items per group (POCL: <= 1024) */
#define GATHER_CPU_RUN 256 /* CPUs: consecutive entries per work-item */

/* The field the reference reads: [offset, offset + bytes) of an element. */
typedef struct gather_field {
    size_t elem, offset, bytes;
} gather_field;

static dl_status check_field(const dl_coalesce_ref *ref, gather_field *f)
{
    DL_RETURN_ERROR_ON(!ref || ref->elem_bytes == 0, DL_INVALID_ARGUMENT,
                       "gather: no element size");
    f->elem = ref->elem_bytes;
    f->offset = ref->field_offset;
    f->bytes = ref->field_bytes ? ref->field_bytes : ref->elem_bytes;
    DL_RETURN_ERROR_ON(f->offset > f->elem || f->bytes > f->elem - f->offset,
                       DL_INVALID_ARGUMENT,
                       "gather: field of %zu bytes at %zu outside the "
                       "%zu-byte element",
                       f->bytes, f->offset, f->elem);
    return DL_SUCCESS;
}

/* One past the highest entry the first `threads` work-items read, capped
 * at p_count (saturating: an entry past size_t is past P too). */
static size_t range_end(const dl_coalesce_range *r, size_t threads,
                        size_t p_count)
{
    size_t a, b, e;
    if (__builtin_mul_overflow(threads - 1, r->t_stride, &a) ||
        __builtin_mul_overflow(r->steps - 1, r->j_stride, &b) ||
        __builtin_add_overflow(a, b, &e) ||
        __builtin_add_overflow(e, r->base, &e) || e >= p_count)
        return p_count;
    return e + 1;
}

static dl_status extent_for(const gather_field *f, const dl_coalesce_range *r,
                            size_t threads, size_t p_count,
                            dl_gather_extent *out)
{
    *out = (dl_gather_extent){.threads = threads};
    if (threads == 0 || r->steps == 0 || r->base >= p_count)
        return DL_SUCCESS;
    out->first = r->base;
    out->end = range_end(r, threads, p_count);
    DL_RETURN_ERROR_ON(__builtin_mul_overflow(out->end, f->elem, &out->bytes),
                       DL_INVALID_ARGUMENT,
                       "gather: %zu elements of %zu bytes do not fit size_t",
                       out->end, f->elem);
    return DL_SUCCESS;
}

dl_status dl_gather_extent_of(const dl_coalesce_ref *ref,
                              const dl_coalesce_range *range, size_t p_count,
                              dl_gather_extent *out)
{
    gather_field f = {0, 0, 0};
    DL_RETURN_ERROR_ON(!range || !out, DL_INVALID_ARGUMENT,
                       "gather: NULL argument");
    DL_RETURN_IF_FAIL(check_field(ref, &f));
    return extent_for(&f, range, range->threads, p_count, out);
}

/* A' bytes grow with the work-items covered: a binary search finds the
 * most that fit. */
dl_status dl_gather_fit(const dl_coalesce_ref *ref,
                        const dl_coalesce_range *range, size_t p_count,
                        size_t budget_bytes, dl_gather_extent *out)
{
    gather_field f = {0, 0, 0};
    DL_RETURN_ERROR_ON(!range || !out, DL_INVALID_ARGUMENT,
                       "gather: NULL argument");
    DL_RETURN_IF_FAIL(check_field(ref, &f));
    dl_gather_extent x;
    if (extent_for(&f, range, range->threads, p_count, &x) == DL_SUCCESS &&
        x.bytes <= budget_bytes) {
        *out = x;
        return DL_SUCCESS;
    }
    size_t lo = 0, hi = range->threads; /* lo fits, hi does not */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (extent_for(&f, range, mid, p_count, &x) == DL_SUCCESS &&
            x.bytes <= budget_bytes)
            lo = mid;
        else
            hi = mid;
    }
    return extent_for(&f, range, lo, p_count, out);
}

size_t dl_gather_budget_bytes(cl_device_id device, double fraction)
{
    cl_ulong mem = 0;
    dl_cl_init_default();
    if (!device || fraction <= 0.0 ||
        dl_cl.clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem,
                              &mem, NULL) != CL_SUCCESS)
        return 0;
    double bytes = (double)mem * (fraction < 1.0 ? fraction : 1.0);
    return bytes >= (double)SIZE_MAX ? SIZE_MAX : (size_t)bytes;
}

/* ------------------------------------------------------------- the launch */

/* The widest word (16, 8, 4, 2 or 1 bytes) that divides the element, the
 * field's offset and its size: whole words on both sides of the copy. */
static size_t word_bytes(const gather_field *f)
{
    size_t w = 16;
    while ((f->elem | f->offset | f->bytes) % w)
        w /= 2;
    return w;
}

/* The range as two dimensions (count, stride): the longer first, a
 * dimension that adds nothing as (1, 0), and no count past what reaches
 * entry base + reach (the last entry gathered), so that (count - 1) *
 * stride never overflows in the kernel.  Dense when the entries they reach
 * from `base` are every entry up to the highest. */
typedef struct gather_dims {
    cl_ulong n1, s1, n2, s2;
    int dense;
} gather_dims;

static gather_dims range_dims(const dl_coalesce_range *r, size_t reach)
{
    cl_ulong n[2] = {r->threads, r->steps}, s[2] = {r->t_stride, r->j_stride};
    for (int d = 0; d < 2; d++) {
        if (s[d] && n[d] > reach / s[d] + 1)
            n[d] = reach / s[d] + 1;
        if (n[d] <= 1 || s[d] == 0)
            n[d] = 1, s[d] = 0;
    }
    int big = n[0] >= n[1] ? 0 : 1;
    gather_dims g = {n[big], s[big], n[!big], s[!big], 0};
    if (g.s2 == 0)
        g.dense = g.s1 <= 1;
    else
        g.dense = (g.s1 == 1 && g.s2 <= g.n1) || (g.s2 == 1 && g.s1 <= g.n2);
    return g;
}

static dl_status gather_kernel(dl_engine *e, const gather_field *f,
                               unsigned index_bytes, int dense, size_t run,
                               cl_kernel *out)
{
    size_t w = word_bytes(f);
    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_define(&spec, "DL_W", "%zu", w);
    dl_spec_define(&spec, "DL_WORD", "%s", dl_spec_word_type((uint32_t)w));
    dl_spec_define(&spec, "DL_RW", "%zuu", f->bytes / w);
    dl_spec_define(&spec, "DL_UNIFORM", "1");
    dl_spec_define(&spec, "DL_ELEM_WORDS", "%zuUL", f->elem / w);
    dl_spec_define(&spec, "DL_FIELD_WORD", "%zuUL", f->offset / w);
    dl_spec_define(&spec, "DL_INDEX", "%s", index_bytes == 4 ? "int" : "long");
    dl_spec_define(&spec, "DL_DENSE", "%d", dense);
    dl_spec_define(&spec, "DL_RUN", "%zuUL", run);
    dl_status st = dl_engine_kernel(e, "gather.cl", &spec, "dl_gather", out);
    dl_spec_free(&spec);
    return st;
}

/* The entries v with 0 <= v + c < a_count, as [lo, hi] in 64 bits; lo > hi
 * when there are none. */
static void index_bounds(size_t a_count, long long c, cl_long *lo, cl_long *hi)
{
    __int128 l = -(__int128)c, h = (__int128)a_count - 1 - c;
    if (a_count == 0 || l > INT64_MAX || h < INT64_MIN) {
        *lo = 1;
        *hi = 0;
        return;
    }
    *lo = l < INT64_MIN ? INT64_MIN : (cl_long)l;
    *hi = h > INT64_MAX ? INT64_MAX : (cl_long)h;
}

static dl_status mem_size(cl_mem m, const char *what, size_t *out)
{
    DL_RETURN_ERROR_ON(!m, DL_INVALID_ARGUMENT, "gather: %s is NULL", what);
    cl_int err =
        dl_cl.clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof *out, out, NULL);
    DL_RETURN_ERROR_ON(err != CL_SUCCESS, DL_OPENCL_ERROR,
                       "gather: the size of %s (OpenCL error %d)", what,
                       (int)err);
    return DL_SUCCESS;
}

typedef struct gather_args {
    cl_mem a, p, a_prime;
    cl_ulong first, span;
    cl_long p_lo, p_hi, c;
    gather_dims dims;
    cl_ulong base;
} gather_args;

static dl_status set_args(cl_kernel k, const gather_args *g)
{
    const void *values[] = {&g->a,       &g->p,       &g->a_prime, &g->first,
                            &g->span,    &g->p_lo,    &g->p_hi,    &g->c,
                            &g->dims.n1, &g->dims.s1, &g->dims.n2, &g->dims.s2,
                            &g->base};
    const size_t sizes[] = {sizeof(cl_mem),
                            sizeof(cl_mem),
                            sizeof(cl_mem),
                            8,
                            8,
                            8,
                            8,
                            8,
                            8,
                            8,
                            8,
                            8,
                            8};
    for (cl_uint i = 0; i < sizeof sizes / sizeof *sizes; i++)
        DL_RETURN_IF_FAIL(dl_set_arg(k, i, sizes[i], values[i]));
    return DL_SUCCESS;
}

/* The arguments of one gather: the extent over P, A' checked to hold it,
 * the bounds of P's entries from |A|. */
static dl_status plan_gather(cl_mem a, cl_mem p, cl_mem a_prime,
                             const gather_field *f, long long c,
                             const dl_coalesce_range *range,
                             unsigned index_bytes, gather_args *g)
{
    size_t a_bytes, p_bytes, prime_bytes;
    DL_RETURN_IF_FAIL(mem_size(a, "A", &a_bytes));
    DL_RETURN_IF_FAIL(mem_size(p, "P", &p_bytes));
    DL_RETURN_IF_FAIL(mem_size(a_prime, "A'", &prime_bytes));
    dl_gather_extent x;
    DL_RETURN_IF_FAIL(
        extent_for(f, range, range->threads, p_bytes / index_bytes, &x));
    DL_RETURN_ERROR_ON(prime_bytes < x.bytes, DL_INVALID_ARGUMENT,
                       "gather: A' holds %zu bytes, the range needs %zu",
                       prime_bytes, x.bytes);
    *g = (gather_args){
        .a = a,
        .p = p,
        .a_prime = a_prime,
        .first = x.first,
        .span = x.end - x.first,
        .dims = range_dims(range, x.end > x.first ? x.end - x.first - 1 : 0),
        .c = c,
        .base = range->base};
    index_bounds(a_bytes / f->elem, c, &g->p_lo, &g->p_hi);
    return DL_SUCCESS;
}

dl_status dl_enqueue_gather(dl_engine *engine, cl_command_queue queue, cl_mem a,
                            cl_mem p, const dl_coalesce_ref *ref,
                            const dl_coalesce_range *range,
                            unsigned index_bytes, cl_mem a_prime,
                            cl_uint num_events, const cl_event *wait_list,
                            cl_event *event)
{
    DL_RETURN_ERROR_ON(!engine || !queue || !range, DL_INVALID_ARGUMENT,
                       "gather: NULL argument");
    DL_RETURN_ERROR_ON(
        index_bytes != 4 && index_bytes != 8, DL_INVALID_ARGUMENT,
        "gather: index entries of %u bytes (4 or 8)", index_bytes);
    DL_RETURN_ERROR_ON(num_events && !wait_list, DL_INVALID_ARGUMENT,
                       "gather: %u events but no wait list", num_events);
    gather_field f = {0, 0, 0};
    DL_RETURN_IF_FAIL(check_field(ref, &f));
    gather_args g;
    DL_RETURN_IF_FAIL(
        plan_gather(a, p, a_prime, &f, ref->offset, range, index_bytes, &g));

    dl_chain chain;
    dl_chain_begin(&chain, engine, queue, num_events, wait_list);
    if (g.span) {
        /* CPUs: a run of entries per work-item, groups of one (gather.cl). */
        size_t run = engine->local_is_global ? GATHER_CPU_RUN : 1;
        size_t local = run > 1 ? 1 : GATHER_LOCAL;
        size_t global = dl_div_up(dl_div_up(g.span, run), local) * local;
        cl_kernel k;
        DL_RETURN_IF_FAIL(
            gather_kernel(engine, &f, index_bytes, g.dims.dense, run, &k));
        dl_status st = set_args(k, &g);
        if (st == DL_SUCCESS)
            st = dl_chain_kernel(&chain, k, 1, &global, &local);
        dl_cl.clReleaseKernel(k);
        DL_RETURN_IF_FAIL(st);
    }
    return dl_chain_end(&chain, event);
}

/* scn_permute_shared.c - kernels/permute_shared.cl: `ratio` reads x and w
 * through col, `bump` writes x and reads w through it; each is launched
 * 100 times, 20 ms apart (the permutation is planned on a thread of its
 * own: the program cannot know when), then x and w are read (which
 * undoes the set), `ratio` launched again, `touch` uses w directly, and
 * `ratio` once more; then `ratio` on arrays of two sizes (declined).
 * Every launch's y, and x, w and col at the end, are printed: the
 * permuted set must leave them byte-identical. */
#include "scenarios.h"

#include <time.h>

#define SN 1000 /* elements of x and w, work-items */

typedef struct shared_state {
    it_cl *cl;
    cl_kernel ratio, bump;
    cl_mem x, w, col, y;
} shared_state;

static cl_mem shared_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

static void make_buffers(shared_state *s)
{
    static float x[SN], w[SN], y[SN];
    static cl_int col[SN];
    for (int i = 0; i < SN; i++) {
        x[i] = (float)(i % 17) * 0.5f - 2.0f;
        w[i] = 1.0f + (float)(i % 13) * 0.25f;
        col[i] = (cl_int)((i * 389) % SN);
    }
    s->x = shared_buffer(s->cl, sizeof x, x);
    s->w = shared_buffer(s->cl, sizeof w, w);
    s->col = shared_buffer(s->cl, sizeof col, col);
    s->y = shared_buffer(s->cl, sizeof y, y);
}

static void set_args(shared_state *s, cl_program program)
{
    const cl_int n = SN;
    s->ratio = it_kernel(program, "ratio");
    CHECK(clSetKernelArg(s->ratio, 0, sizeof s->x, &s->x));
    CHECK(clSetKernelArg(s->ratio, 1, sizeof s->w, &s->w));
    CHECK(clSetKernelArg(s->ratio, 2, sizeof s->col, &s->col));
    CHECK(clSetKernelArg(s->ratio, 3, sizeof s->y, &s->y));
    CHECK(clSetKernelArg(s->ratio, 4, sizeof n, &n));
    s->bump = it_kernel(program, "bump");
    CHECK(clSetKernelArg(s->bump, 0, sizeof s->x, &s->x));
    CHECK(clSetKernelArg(s->bump, 1, sizeof s->w, &s->w));
    CHECK(clSetKernelArg(s->bump, 2, sizeof s->col, &s->col));
    CHECK(clSetKernelArg(s->bump, 3, sizeof n, &n));
}

static void pause_20ms(void)
{
    struct timespec t = {0, 20 * 1000 * 1000};
    nanosleep(&t, NULL);
}

/* `ratio`, then y printed. */
static void ratio_print(shared_state *s, const char *label)
{
    it_run(s->cl->queue, s->ratio, SN);
    it_print_buffer(s->cl, s->y, SN * sizeof(float), label);
}

static void touch_w(shared_state *s, cl_program program)
{
    const cl_int n = SN;
    cl_kernel k = it_kernel(program, "touch");
    CHECK(clSetKernelArg(k, 0, sizeof s->w, &s->w));
    CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    it_run(s->cl->queue, k, SN);
    CHECK(clReleaseKernel(k));
}

/* `ratio` on x2 (SN elements) and a half-size w2 through col2 (values
 * below SN / 2): the arrays' element counts differ, so no pi of one
 * count serves both; the set is declined and `ratio` runs as written. */
static void mismatched(shared_state *s)
{
    static float x2[SN], w2[SN / 2];
    static cl_int col2[SN];
    for (int i = 0; i < SN; i++) {
        x2[i] = (float)(i % 7) - 1.5f;
        col2[i] = (cl_int)((i * 211) % (SN / 2));
    }
    for (int i = 0; i < SN / 2; i++)
        w2[i] = 2.0f + (float)(i % 5);
    cl_mem bx = shared_buffer(s->cl, sizeof x2, x2);
    cl_mem bw = shared_buffer(s->cl, sizeof w2, w2);
    cl_mem bc = shared_buffer(s->cl, sizeof col2, col2);
    CHECK(clSetKernelArg(s->ratio, 0, sizeof bx, &bx));
    CHECK(clSetKernelArg(s->ratio, 1, sizeof bw, &bw));
    CHECK(clSetKernelArg(s->ratio, 2, sizeof bc, &bc));
    for (int i = 0; i < 3; i++)
        ratio_print(s, "permute_shared: y, arrays of two sizes");
    cl_mem all[] = {bx, bw, bc};
    for (int i = 0; i < 3; i++)
        CHECK(clReleaseMemObject(all[i]));
}

void scn_permute_shared(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    shared_state s = {.cl = cl};
    cl_program program = it_build(cl, "permute_shared.cl", "");
    make_buffers(&s);
    set_args(&s, program);
    for (int i = 0; i < 100; i++) {
        ratio_print(&s, "permute_shared: y");
        pause_20ms();
    }
    for (int i = 0; i < 100; i++) {
        it_run(cl->queue, s.bump, SN);
        pause_20ms();
    }
    it_print_buffer(cl, s.x, SN * sizeof(float), "permute_shared: x read");
    it_print_buffer(cl, s.w, SN * sizeof(float), "permute_shared: w read");
    ratio_print(&s, "permute_shared: y after the reads");
    touch_w(&s, program);
    ratio_print(&s, "permute_shared: y after touch");
    it_print_buffer(cl, s.col, SN * sizeof(cl_int), "permute_shared: col");
    it_print_buffer(cl, s.w, SN * sizeof(float), "permute_shared: w");
    mismatched(&s);
    CHECK(clReleaseKernel(s.ratio));
    CHECK(clReleaseKernel(s.bump));
    cl_mem all[] = {s.x, s.w, s.col, s.y};
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseProgram(program));
}

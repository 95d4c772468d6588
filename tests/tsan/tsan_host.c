/* tsan_host.c - an ordinary multi-threaded OpenCL host (it knows nothing
 * of dlayout), built with -fsanitize=thread by run_tsan.py and run plainly
 * and under dl-run, so that ThreadSanitizer watches dlayout's lock-free
 * paths with the real protocols switched on.
 *
 *   dl-tsan-host          the program: prints deterministic digests
 *   dl-tsan-host racy     two threads set arguments of one kernel object
 *                         without the host's lock, which OpenCL forbids:
 *                         a race for the checker's self-test
 *
 * The program: WORKERS threads share a context and a program
 * (particles.cl).  Each has its own queue, kernels and buffers, and in
 * each round
 *   - binds a temporary buffer and the shared read-only buffer `ro` to
 *     its `advance` before its own buffer, and releases the temporary one
 *     at the end of the round (buffers tracked, then destroyed, while the
 *     other threads set arguments);
 *   - launches `advance` STEPS times with the same range (the launch
 *     memo), then `settle` (another layout) and the unannotated `census`
 *     (the original layout again), reads census' output without blocking
 *     and waits for it;
 *   - runs the unannotated `seed` on a buffer no annotated kernel ever
 *     sees, and reads it (a buffer dlayout does not know);
 *   - under the host's mutex, launches the shared `advance` kernel object
 *     on the shared buffer from its own queue and waits for it.
 * Worker 0 also launches `checksum` (an annotated kernel that only reads)
 * on the shared buffer `lookup` in each round.  Until the workers are
 * done, READERS more threads only read, blocking: one `ro` (a buffer
 * dlayout knows but never converts, read without its lock), one `lookup`
 * (converted by worker 0's launches and restored for these reads); and
 * one more keeps setting the arguments of kernels it never launches,
 * buffers and NULL in turn (argument records changing while other
 * threads drop buffers). */
#include "host.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    WORKERS = 4,
    READERS = 2,
    ROUNDS = 4,
    STEPS = 6,
    TURNS = 20 /* of the readers and the binder, at least */
};

typedef struct shared {
    it_cl *cl;
    cl_program program;
    pthread_barrier_t start;
    pthread_mutex_t lock; /* the host's: guards `advance` and `p` below */
    cl_kernel advance;
    cl_mem p;
    cl_mem ro; /* read-only for everyone: IT_RECORDS particles, seed 7 */
    particle *ro_init;
    cl_program sums;  /* checksum_source */
    cl_mem lookup;    /* read-only too, with the contents of `ro` */
    int workers_done; /* atomic */
} shared;

typedef struct worker {
    shared *sh;
    int index;
    size_t n;
    particle *result;
    cl_uint *census;
    particle *seeded;
    cl_uint *sums; /* worker 0: checksum's output */
    int ro_changed;
} worker;

/* An annotated kernel that only reads its records (in DA when dlayout
 * activates it: field o of record i at o * n + i * size). */
static const char *checksum_source =
    "struct particle { float x; int id; long mass; short tag; uchar flag; };\n"
    "//DL: v1 aos: p[n] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> da\n"
    "__kernel void checksum(__global struct particle *p,\n"
    "                       __global uint *out, int n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i >= (size_t)n)\n"
    "        return;\n"
    "#ifdef DL_ACTIVE_checksum\n"
    "    __global uchar *b = (__global uchar *)p;\n"
    "    size_t m = (size_t)n;\n"
    "    float x = *(__global float *)(b + i * 4);\n"
    "    int id = *(__global int *)(b + 4 * m + i * 4);\n"
    "    long mass = *(__global long *)(b + 8 * m + i * 8);\n"
    "    short tag = *(__global short *)(b + 16 * m + i * 2);\n"
    "    uchar flag = b[18 * m + i];\n"
    "#else\n"
    "    float x = p[i].x;\n"
    "    int id = p[i].id;\n"
    "    long mass = p[i].mass;\n"
    "    short tag = p[i].tag;\n"
    "    uchar flag = p[i].flag;\n"
    "#endif\n"
    "    out[i] = as_uint(x) ^ (uint)id ^ (uint)mass ^\n"
    "             ((uint)(ushort)tag << 8) ^ ((uint)flag << 24);\n"
    "}\n";

static cl_program build_source(const it_cl *cl, const char *source)
{
    cl_int err;
    cl_program program =
        clCreateProgramWithSource(cl->context, 1, &source, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(program, 1, &cl->device, NULL, NULL, NULL));
    return program;
}

static cl_mem new_buffer(const it_cl *cl, size_t size)
{
    cl_int err;
    cl_mem mem =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK(err);
    return mem;
}

static cl_command_queue new_queue(const shared *sh)
{
    cl_int err;
    cl_command_queue queue =
        clCreateCommandQueue(sh->cl->context, sh->cl->device, 0, &err);
    CHECK(err);
    return queue;
}

/* Room for one read of `ro` or `lookup`. */
static particle *new_scratch(void)
{
    particle *scratch = malloc(IT_RECORDS * sizeof *scratch);
    if (!scratch)
        it_fail("out of memory");
    return scratch;
}

static void set_mem(cl_kernel kernel, cl_uint index, cl_mem mem)
{
    CHECK(clSetKernelArg(kernel, index, sizeof mem, &mem));
}

static void set_int(cl_kernel kernel, cl_uint index, cl_int value)
{
    CHECK(clSetKernelArg(kernel, index, sizeof value, &value));
}

/* Reads `buf` (`ro` or `lookup`) blocking and says whether it still
 * holds its first bytes. */
static int intact(shared *sh, cl_mem buf, cl_command_queue queue,
                  particle *scratch)
{
    CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0,
                              IT_RECORDS * sizeof(particle), scratch, 0, NULL,
                              NULL));
    return memcmp(scratch, sh->ro_init, IT_RECORDS * sizeof(particle)) == 0;
}

/* One launch of the shared kernel on the shared buffer, under the host's
 * mutex, finished before the mutex is released. */
static void shared_step(shared *sh, cl_command_queue queue)
{
    pthread_mutex_lock(&sh->lock);
    it_set_advance_args(sh->advance, sh->p, IT_RECORDS, 0.5f);
    it_run(queue, sh->advance, it_round_up(IT_RECORDS));
    CHECK(clFinish(queue));
    pthread_mutex_unlock(&sh->lock);
}

static void round_of(worker *w, cl_command_queue queue, cl_kernel advance,
                     cl_kernel settle, cl_kernel census, cl_kernel seed,
                     cl_mem p, cl_mem out, cl_mem u, particle *scratch)
{
    shared *sh = w->sh;
    size_t n = w->n;
    cl_mem tmp = new_buffer(sh->cl, n * sizeof(particle));
    set_mem(advance, 0, tmp);
    set_mem(advance, 0, sh->ro);
    it_set_advance_args(advance, p, (cl_int)n, 0.25f * (float)(w->index + 1));
    for (int s = 0; s < STEPS; s++)
        it_run(queue, advance, it_round_up(n));
    set_mem(settle, 0, p);
    size_t global = n;
    CHECK(clEnqueueNDRangeKernel(queue, settle, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
    set_mem(census, 0, p);
    set_mem(census, 1, out);
    set_int(census, 2, (cl_int)n);
    it_run(queue, census, it_round_up(n));
    cl_event read;
    CHECK(clEnqueueReadBuffer(queue, out, CL_FALSE, 0, n * sizeof(cl_uint),
                              w->census, 0, NULL, &read));
    CHECK(clWaitForEvents(1, &read));
    CHECK(clReleaseEvent(read));
    set_mem(seed, 0, u);
    set_int(seed, 1, (cl_int)n);
    set_int(seed, 2, 1000 * w->index);
    it_run(queue, seed, it_round_up(n));
    CHECK(clEnqueueReadBuffer(queue, u, CL_TRUE, 0, n * sizeof(particle),
                              w->seeded, 0, NULL, NULL));
    if (!intact(sh, sh->ro, queue, scratch))
        w->ro_changed = 1;
    shared_step(sh, queue);
    CHECK(clReleaseMemObject(tmp));
}

/* Worker 0: checksums of `lookup`, which `checksum` wants in DA. */
static void checksum_round(worker *w, cl_command_queue queue,
                           cl_kernel checksum, cl_mem sums)
{
    set_mem(checksum, 0, w->sh->lookup);
    set_mem(checksum, 1, sums);
    set_int(checksum, 2, IT_RECORDS);
    for (int s = 0; s < STEPS; s++)
        it_run(queue, checksum, it_round_up(IT_RECORDS));
    CHECK(clEnqueueReadBuffer(queue, sums, CL_TRUE, 0,
                              IT_RECORDS * sizeof(cl_uint), w->sums, 0, NULL,
                              NULL));
}

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    cl_command_queue queue = new_queue(sh);
    cl_kernel advance = it_kernel(sh->program, "advance");
    cl_kernel settle = it_kernel(sh->program, "settle");
    cl_kernel census = it_kernel(sh->program, "census");
    cl_kernel seed = it_kernel(sh->program, "seed");
    cl_mem p = it_particle_buffer(sh->cl, 0, w->n, 30 + (uint32_t)w->index);
    cl_mem out = new_buffer(sh->cl, w->n * sizeof(cl_uint));
    cl_mem u = it_particle_buffer(sh->cl, 0, w->n, 50 + (uint32_t)w->index);
    particle *scratch = new_scratch();
    cl_kernel checksum = w->index ? NULL : it_kernel(sh->sums, "checksum");
    cl_mem sums = new_buffer(sh->cl, IT_RECORDS * sizeof(cl_uint));
    pthread_barrier_wait(&sh->start);
    for (int r = 0; r < ROUNDS; r++) {
        round_of(w, queue, advance, settle, census, seed, p, out, u, scratch);
        if (checksum)
            checksum_round(w, queue, checksum, sums);
    }
    CHECK(clEnqueueReadBuffer(queue, p, CL_TRUE, 0, w->n * sizeof(particle),
                              w->result, 0, NULL, NULL));
    free(scratch);
    if (checksum)
        CHECK(clReleaseKernel(checksum));
    CHECK(clReleaseMemObject(sums));
    CHECK(clReleaseMemObject(u));
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(seed));
    CHECK(clReleaseKernel(census));
    CHECK(clReleaseKernel(settle));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseCommandQueue(queue));
    return NULL;
}

/* The readers' and the binder's loops: TURNS turns at least, 1 ms apart,
 * and on until the workers are done. */
static int go_on(shared *sh, int turn)
{
    const struct timespec pause = {0, 1000000};
    if (turn > 0)
        nanosleep(&pause, NULL);
    return turn < TURNS ||
           !__atomic_load_n(&sh->workers_done, __ATOMIC_ACQUIRE);
}

static void *read_ro(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    cl_command_queue queue = new_queue(sh);
    particle *scratch = new_scratch();
    pthread_barrier_wait(&sh->start);
    cl_mem buf = w->index == WORKERS ? sh->ro : sh->lookup;
    for (int i = 0; go_on(sh, i); i++)
        if (!intact(sh, buf, queue, scratch))
            w->ro_changed = 1;
    free(scratch);
    CHECK(clReleaseCommandQueue(queue));
    return NULL;
}

static void *bind_args(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    cl_kernel advance = it_kernel(sh->program, "advance");
    cl_kernel census = it_kernel(sh->program, "census");
    cl_mem p = it_particle_buffer(sh->cl, 0, w->n, 60);
    cl_mem out = new_buffer(sh->cl, w->n * sizeof(cl_uint));
    pthread_barrier_wait(&sh->start);
    for (int i = 0; go_on(sh, i); i++) {
        CHECK(clSetKernelArg(advance, 0, sizeof(cl_mem), NULL));
        set_mem(advance, 0, p);
        CHECK(clSetKernelArg(census, 1, sizeof(cl_mem), NULL));
        set_mem(census, 1, out);
    }
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(census));
    CHECK(clReleaseKernel(advance));
    return NULL;
}

static void *set_unguarded(void *arg)
{
    shared *sh = arg;
    pthread_barrier_wait(&sh->start);
    it_set_advance_args(sh->advance, sh->p, IT_RECORDS, 0.5f);
    return NULL;
}

/* The self-test: the shared kernel's arguments set by two threads at
 * once, without the host's mutex. */
static void racy(shared *sh)
{
    pthread_t threads[2];
    pthread_barrier_init(&sh->start, NULL, 2);
    for (int t = 0; t < 2; t++)
        if (pthread_create(&threads[t], NULL, set_unguarded, sh) != 0)
            it_fail("pthread_create failed");
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&sh->start);
}

static void threads(shared *sh)
{
    enum { ALL = WORKERS + READERS + 1 };
    cl_uint *sums = malloc(IT_RECORDS * sizeof *sums);
    if (!sums)
        it_fail("out of memory");
    pthread_t threads[ALL];
    worker workers[ALL];
    void *(*role[ALL])(void *);
    for (int t = 0; t < ALL; t++)
        role[t] = t < WORKERS ? work : t < ALL - 1 ? read_ro : bind_args;
    pthread_barrier_init(&sh->start, NULL, ALL);
    for (int t = 0; t < ALL; t++) {
        size_t n = IT_RECORDS + 17 * (size_t)t;
        workers[t] = (worker){sh,
                              t,
                              n,
                              malloc(n * sizeof(particle)),
                              malloc(n * sizeof(cl_uint)),
                              malloc(n * sizeof(particle)),
                              sums,
                              0};
        if (!workers[t].result || !workers[t].census || !workers[t].seeded)
            it_fail("out of memory");
        if (pthread_create(&threads[t], NULL, role[t], &workers[t]) != 0)
            it_fail("pthread_create failed");
    }
    for (int t = 0; t < ALL; t++) {
        char label[64];
        if (t == WORKERS)
            __atomic_store_n(&sh->workers_done, 1, __ATOMIC_RELEASE);
        pthread_join(threads[t], NULL);
        worker *w = &workers[t];
        if (w->ro_changed)
            it_fail("thread %d saw the read-only buffer change", t);
        if (t < WORKERS) {
            snprintf(label, sizeof label, "thread %d: particles", t);
            it_print_digest(label, w->result, w->n * sizeof(particle));
            snprintf(label, sizeof label, "thread %d: census", t);
            it_print_digest(label, w->census, w->n * sizeof(cl_uint));
            snprintf(label, sizeof label, "thread %d: seeded", t);
            it_print_digest(label, w->seeded, w->n * sizeof(particle));
        }
        if (t == 0)
            it_print_digest("thread 0: checksums", w->sums,
                            IT_RECORDS * sizeof(cl_uint));
        free(w->result);
        free(w->census);
        free(w->seeded);
    }
    free(sums);
    pthread_barrier_destroy(&sh->start);
    it_print_buffer(sh->cl, sh->p, IT_RECORDS * sizeof(particle),
                    "shared particles");
}

int main(int argc, char **argv)
{
    int want_race = argc > 1 && strcmp(argv[1], "racy") == 0;
    if (argc > 1 && !want_race) {
        fprintf(stderr, "usage: %s [racy]\n", argv[0]);
        return 2;
    }
    it_cl cl;
    it_cl_open(&cl);
    shared sh = {.cl = &cl};
    pthread_mutex_init(&sh.lock, NULL);
    sh.program = it_build(&cl, "particles.cl", NULL);
    sh.advance = it_kernel(sh.program, "advance");
    sh.p = it_particle_buffer(&cl, 0, IT_RECORDS, 5);
    sh.ro = it_particle_buffer(&cl, 0, IT_RECORDS, 7);
    sh.sums = build_source(&cl, checksum_source);
    sh.lookup = it_particle_buffer(&cl, 0, IT_RECORDS, 7);
    sh.ro_init = malloc(IT_RECORDS * sizeof(particle));
    if (!sh.ro_init)
        it_fail("out of memory");
    it_particles_init(sh.ro_init, IT_RECORDS, 7);
    if (want_race)
        racy(&sh);
    else
        threads(&sh);
    free(sh.ro_init);
    CHECK(clReleaseMemObject(sh.lookup));
    CHECK(clReleaseProgram(sh.sums));
    CHECK(clReleaseMemObject(sh.ro));
    CHECK(clReleaseMemObject(sh.p));
    CHECK(clReleaseKernel(sh.advance));
    CHECK(clReleaseProgram(sh.program));
    pthread_mutex_destroy(&sh.lock);
    it_cl_close(&cl);
    return 0;
}

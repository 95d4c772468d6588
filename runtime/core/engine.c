/* engine.c - one engine per (context, device): device limits and the cache
 * of specialised marshal programs, so a repeated shape compiles nothing. */
#include "clapi.h"
#include "hash.h"
#include "clock.h"
#include "internal.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#include "log.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct dl_program_entry {
    char *key; /* source name, NUL, specialisation text */
    size_t key_len;
    cl_program program;
    dl_program_entry *next;
};

static void forget_pending(cl_program prog); /* below, binary cache */

dl_status dl_engine_create(cl_context context, cl_device_id device,
                           dl_engine **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "engine output is NULL");
    *out = NULL;
    DL_RETURN_ERROR_ON(!context, DL_INVALID_ARGUMENT, "context is NULL");
    DL_RETURN_ERROR_ON(!device, DL_INVALID_ARGUMENT, "device is NULL");

    dl_cl_init_default();
    dl_engine *e = calloc(1, sizeof *e);
    DL_RETURN_ERROR_ON(!e, DL_OUT_OF_MEMORY, "out of host memory");
    cl_device_type type = 0;
    cl_device_local_mem_type local_type = CL_LOCAL;
    cl_int err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                       sizeof e->max_wg, &e->max_wg, NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE,
                                    sizeof e->local_mem, &e->local_mem, NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                                    sizeof e->compute_units, &e->compute_units,
                                    NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type,
                                    NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_TYPE,
                                    sizeof local_type, &local_type, NULL);
    if (err != CL_SUCCESS) {
        free(e);
        return dl_fail(DL_OPENCL_ERROR,
                       "querying the device failed with OpenCL error %d "
                       "(is it a device of this context?)",
                       (int)err);
    }
    e->local_is_global = (type & CL_DEVICE_TYPE_CPU) || local_type != CL_LOCAL;
    if (e->compute_units == 0)
        e->compute_units = 1;
    err = dl_cl.clRetainContext(context);
    if (err != CL_SUCCESS) {
        free(e);
        return dl_fail(DL_OPENCL_ERROR, "clRetainContext failed (%d)",
                       (int)err);
    }
    e->context = context;
    e->device = device;
    pthread_mutex_init(&e->lock, NULL);
    *out = e;
    return DL_SUCCESS;
}

/* The engine's own resources; dl_engine_release (plan_cache.c) releases
 * its plans first. */
void dl_engine_free(dl_engine *e)
{
    for (dl_program_entry *p = e->programs, *next; p; p = next) {
        next = p->next;
        forget_pending(p->program);
        dl_cl.clReleaseProgram(p->program);
        free(p->key);
        free(p);
    }
    dl_cl.clReleaseContext(e->context);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

void dl_engine_get_stats(const dl_engine *e, dl_engine_stats *stats)
{
    if (!e || !stats)
        return;
    dl_engine *m = (dl_engine *)e;
    pthread_mutex_lock(&m->lock);
    *stats = e->stats;
    pthread_mutex_unlock(&m->lock);
}

void dl_engine_count_launch(dl_engine *e)
{
    __atomic_add_fetch(&e->stats.launches, 1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------- binaries across runs */

/* A clBuildProgram from source costs POCL ~50-70 ms even when its own
 * cache holds the result (it preprocesses the source to find the entry);
 * from a binary it costs ~1 ms.  So each built marshal program is kept in
 * binary_dir under a hash of everything that shaped it, and the file
 * repeats that whole text, so a hash collision can never load the wrong
 * program.  Files are written to a private name and renamed, so processes
 * sharing the directory never see half a file.
 *
 * Fetching a binary is what costs: POCL answers CL_PROGRAM_BINARIES by
 * compiling every kernel of the program once more for a dynamic local
 * size (the launches compiled them for their own sizes), ~150 ms per
 * program here, unless its own cache has that variant already.  So an
 * explicitly chosen directory is filled at once, but the default one
 * (deferred) is filled at exit: while the time spent storing stays
 * within STORE_BUDGET of the process's life, plus at most one program
 * that STORE_AFTER_RUNS runs (counted in a small ".seen" file) had to
 * build from source.  So a first run pays nothing noticeable, a long run
 * stores a program or two, and a short run that recurs stores one program
 * per run from its third run on (~0.15 s each, once). */
static const char *binary_dir;
static int binary_deferred;
static double binary_since_ms; /* when the cache was set: life so far */

#define STORE_BUDGET     0.01
#define STORE_GUESS_MS   150.0 /* cost of a store before one was timed */
#define STORE_AFTER_RUNS 3     /* a program this many runs built: recurs */

static double now_ms(void)
{
    return (double)dl_now_ns() * 1e-6;
}

void dl_engine_set_binary_cache(const char *dir, int deferred)
{
    binary_since_ms = now_ms();
    __atomic_store_n(&binary_deferred, deferred, __ATOMIC_RELEASE);
    __atomic_store_n(&binary_dir, dir && *dir ? dir : NULL, __ATOMIC_RELEASE);
}

void dl_engine_set_binary_dir(const char *dir)
{
    dl_engine_set_binary_cache(dir, 0);
}

#define BINARY_MAGIC  "dlayout-binary-2"
#define BUILD_OPTIONS "-cl-std=CL1.2"

typedef struct build_key {
    char *text; /* NUL-separated: magic, device, driver, options, sources */
    size_t len;
} build_key;

static void key_add(build_key *k, const char *part, size_t *room)
{
    size_t n = strlen(part) + 1;
    if (k->text && k->len + n <= *room)
        memcpy(k->text + k->len, part, n);
    k->len += n;
}

/* Returns 0 (and builds no key) when the device cannot be described. */
static int make_key(const dl_engine *e, const char *const texts[3],
                    build_key *k)
{
    char device[256] = "", driver[256] = "";
    if (dl_cl.clGetDeviceInfo(e->device, CL_DEVICE_NAME, sizeof device - 1,
                              device, NULL) != CL_SUCCESS ||
        dl_cl.clGetDeviceInfo(e->device, CL_DRIVER_VERSION, sizeof driver - 1,
                              driver, NULL) != CL_SUCCESS)
        return 0;
    const char *parts[] = {BINARY_MAGIC, device,   driver,  BUILD_OPTIONS,
                           texts[0],     texts[1], texts[2]};
    size_t room = 0;
    *k = (build_key){0};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        key_add(k, parts[i], &room);
    room = k->len;
    k->text = malloc(room);
    if (!k->text)
        return 0;
    k->len = 0;
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        key_add(k, parts[i], &room);
    return 1;
}

/* Two 64-bit FNV-1a hashes with different offsets name the file; 0 when
 * the path does not fit. */
static int key_path(const char *dir, const build_key *k, char *path,
                    size_t room)
{
    int n = snprintf(
        path, room, "%s/%016llx%016llx.clbin", dir,
        (unsigned long long)dl_hash(DL_HASH_SEED, k->text, k->len),
        (unsigned long long)dl_hash(0x84222325cbf29ce4ull, k->text, k->len));
    return n > 0 && (size_t)n < room;
}

/* Reads [key length | key | binary length | binary | hash of the binary];
 * NULL unless the key matches exactly and the binary is intact (a driver
 * may accept damaged bitcode, and run it).  A file that is there but
 * refused is named in a warning; the program is then built from source
 * and the file replaced. */
static unsigned char *read_binary(const char *path, const build_key *k,
                                  size_t *bin_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint64_t len = 0, sum = 0;
    unsigned char *bin = NULL;
    char *key = malloc(k->len);
    int ours = key && fread(&len, sizeof len, 1, f) == 1 && len == k->len &&
               fread(key, 1, k->len, f) == k->len &&
               !memcmp(key, k->text, k->len);
    int ok = ours && fread(&len, sizeof len, 1, f) == 1 && len > 0 &&
             len < ((uint64_t)1 << 32) && (bin = malloc(len)) &&
             fread(bin, 1, len, f) == len &&
             fread(&sum, sizeof sum, 1, f) == 1 && fgetc(f) == EOF &&
             sum == dl_hash(DL_HASH_SEED, bin, len);
    fclose(f);
    free(key);
    if (!ok) {
        DL_LOG_WARN("ignoring the cached marshal program %s: %s; building "
                    "it from source",
                    path, ours ? "damaged" : "not written for this program");
        free(bin);
        return NULL;
    }
    *bin_len = len;
    return bin;
}

static cl_program load_binary(const dl_engine *e, const char *path,
                              const build_key *k)
{
    if (!dl_cl.clCreateProgramWithBinary)
        return NULL;
    size_t len;
    unsigned char *bin = read_binary(path, k, &len);
    if (!bin)
        return NULL;
    const unsigned char *bins[1] = {bin};
    cl_int bin_status = CL_SUCCESS, err;
    cl_program prog = dl_cl.clCreateProgramWithBinary(
        e->context, 1, &e->device, &len, bins, &bin_status, &err);
    free(bin);
    if (err == CL_SUCCESS && bin_status == CL_SUCCESS &&
        dl_cl.clBuildProgram(prog, 1, &e->device, BUILD_OPTIONS, NULL, NULL) ==
            CL_SUCCESS)
        return prog;
    if (err == CL_SUCCESS)
        dl_cl.clReleaseProgram(prog);
    DL_LOG_WARN("ignoring the cached marshal program %s: the device refuses "
                "it; building it from source",
                path);
    return NULL;
}

/* mkdir -p, quietly: a failure shows when the file cannot be opened. */
static void make_dirs(const char *dir)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s", dir);
    if (n <= 0 || (size_t)n >= sizeof path)
        return;
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            (void)mkdir(path, 0700);
            *p = '/';
        }
    (void)mkdir(path, 0700);
}

const char *dl_engine_binary_dir_unusable(const char *dir)
{
    if (dir[0] != '/')
        return "not an absolute path";
    make_dirs(dir);
    struct stat st;
    if (stat(dir, &st) != 0)
        return "missing, and it cannot be made";
    if (!S_ISDIR(st.st_mode))
        return "not a directory";
    /* Writing is the test (root passes access() on read-only mounts). */
    char probe[4200];
    int n = snprintf(probe, sizeof probe, "%s/.dlayout-probe.XXXXXX", dir);
    if (n < 0 || (size_t)n >= sizeof probe)
        return "the path is too long";
    int fd = mkstemp(probe);
    if (fd < 0)
        return "not writable";
    close(fd);
    (void)remove(probe);
    return NULL;
}

/* Best effort: a program that cannot be stored is built again next run.
 * The file is opened first: fetching a binary from POCL costs a few
 * hundred ms, not worth it for a directory that cannot take it. */
static void store_binary(const char *dir, const char *path, cl_program prog,
                         const build_key *k)
{
    static unsigned long serial;
    char tmp[4096 + 64];
    snprintf(tmp, sizeof tmp, "%s.%ld.%lu.tmp", path, (long)getpid(),
             __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED));
    make_dirs(dir); /* usually there already */
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    size_t len = 0;
    unsigned char *bin = NULL;
    int ok = dl_cl.clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof len,
                                    &len, NULL) == CL_SUCCESS &&
             len > 0 && (bin = malloc(len)) &&
             dl_cl.clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin,
                                    NULL) == CL_SUCCESS;
    uint64_t key_len = k->len, bin_len = len;
    uint64_t sum = ok ? dl_hash(DL_HASH_SEED, bin, len) : 0;
    ok = ok && fwrite(&key_len, sizeof key_len, 1, f) == 1 &&
         fwrite(k->text, 1, k->len, f) == k->len &&
         fwrite(&bin_len, sizeof bin_len, 1, f) == 1 &&
         fwrite(bin, 1, len, f) == len && fwrite(&sum, sizeof sum, 1, f) == 1;
    if (fclose(f) != 0)
        ok = 0;
    if (!ok || rename(tmp, path) != 0)
        (void)remove(tmp);
    free(bin);
}

/* Programs built from source while the cache is deferred, newest first.
 * The engine owns each program: releasing it forgets the entry. */
typedef struct pending_store {
    cl_program program;
    char *dir, *path;
    build_key key;
    struct pending_store *next;
} pending_store;

static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static pending_store *pending;
static pid_t pending_pid;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static void free_pending(pending_store *p)
{
    free(p->key.text);
    free(p->dir);
    free(p->path);
    free(p);
}

static void store_pending_at_exit(void)
{
    /* A forked child inherits the list but not POCL's threads. */
    if (getpid() != pending_pid)
        return;
#ifdef RUNNING_ON_VALGRIND
    /* POCL's compiler crashed under valgrind (memcheck). */
    if (RUNNING_ON_VALGRIND)
        return;
#endif
    double budget = STORE_BUDGET * (now_ms() - binary_since_ms);
    (void)dl_engine_store_pending(budget);
}

/* Registered after the first build, so after the OpenCL implementation
 * has loaded: it runs before that implementation's own exit handlers. */
static void register_exit_store(void)
{
    pending_pid = getpid();
    atexit(store_pending_at_exit);
}

/* Takes ownership of the key; keeps nothing if out of memory. */
static void defer_store(const char *dir, const char *path, cl_program prog,
                        build_key *k)
{
    pending_store *p = calloc(1, sizeof *p);
    if (p) {
        p->dir = strdup(dir);
        p->path = strdup(path);
        p->key = *k;
        k->text = NULL;
    }
    if (!p || !p->dir || !p->path) {
        if (p)
            free_pending(p);
        return;
    }
    p->program = prog;
    pthread_once(&exit_once, register_exit_store);
    pthread_mutex_lock(&pending_lock);
    p->next = pending;
    pending = p;
    pthread_mutex_unlock(&pending_lock);
}

/* Before the engine releases `prog`: it will not be stored. */
static void forget_pending(cl_program prog)
{
    pthread_mutex_lock(&pending_lock);
    for (pending_store **pp = &pending; *pp;) {
        pending_store *p = *pp;
        if (p->program == prog) {
            *pp = p->next;
            free_pending(p);
        } else {
            pp = &p->next;
        }
    }
    pthread_mutex_unlock(&pending_lock);
}

/* Holds pending_lock throughout, so an engine released meanwhile waits
 * until its programs are no longer used here. */
/* How many earlier runs built the program of `path` from source: the
 * count in its ".seen" file, 0 if none or unreadable. */
static unsigned runs_seen(const char *path)
{
    char seen[4200];
    snprintf(seen, sizeof seen, "%s.seen", path);
    FILE *f = fopen(seen, "r");
    unsigned n = 0;
    if (f) {
        if (fscanf(f, "dlayout-seen %u", &n) != 1)
            n = 0;
        fclose(f);
    }
    return n;
}

static void set_runs_seen(const char *dir, const char *path, unsigned n)
{
    char seen[4200], tmp[4300];
    snprintf(seen, sizeof seen, "%s.seen", path);
    if (n == 0) {
        (void)remove(seen);
        return;
    }
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", seen, (long)getpid());
    make_dirs(dir);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    int ok = fprintf(f, "dlayout-seen %u\n", n) > 0;
    if (fclose(f) != 0 || !ok || rename(tmp, seen) != 0)
        (void)remove(tmp);
}

/* Holds pending_lock throughout, so an engine released meanwhile waits
 * until its programs are no longer used here. */
unsigned dl_engine_store_pending(double budget_ms)
{
    pthread_mutex_lock(&pending_lock);
    unsigned stored = 0, total = 0, extra = 0;
    double spent = 0.0, guess = STORE_GUESS_MS;
    for (pending_store *p = pending, *next; p; p = next) {
        next = p->next;
        total++;
        unsigned seen = runs_seen(p->path) + 1;
        int recurring = seen >= STORE_AFTER_RUNS && extra < 1;
        if (spent + guess <= budget_ms || recurring) {
            if (spent + guess > budget_ms)
                extra++;
            double t0 = now_ms();
            store_binary(p->dir, p->path, p->program, &p->key);
            guess = now_ms() - t0;
            spent += guess;
            stored++;
            seen = 0;
        }
        set_runs_seen(p->dir, p->path, seen);
        free_pending(p);
    }
    pending = NULL;
    pthread_mutex_unlock(&pending_lock);
    if (total)
        DL_LOG_INFO("binary cache: stored %u of %u marshal programs built "
                    "from source in %.0f ms (budget %.0f ms)",
                    stored, total, spent, budget_ms);
    return stored;
}

/* Compiles one specialised program (or loads it from binary_dir); on
 * failure the message carries the first lines of the build log. */
static dl_status build_program(dl_engine *e, const char *source,
                               const dl_spec *spec, cl_program *out)
{
    const char *common = dl_kernel_source("common.cl");
    const char *body = dl_kernel_source(source);
    DL_RETURN_ERROR_ON(!common || !body, DL_UNSUPPORTED,
                       "no embedded marshal kernel named %s", source);
    const char *texts[3] = {spec->text ? spec->text : "", common, body};
    const char *dir = __atomic_load_n(&binary_dir, __ATOMIC_ACQUIRE);
    build_key key = {0};
    char path[4096] = "";
    if (dir && make_key(e, texts, &key)) {
        if (!key_path(dir, &key, path, sizeof path)) {
            free(key.text);
            key.text = NULL; /* keep nothing for this program */
        }
        *out = key.text ? load_binary(e, path, &key) : NULL;
        if (*out) {
            free(key.text);
            e->programs_loaded++; /* under e->lock */
            return DL_SUCCESS;
        }
    }
    cl_int err;
    double t0 = now_ms();
    cl_program prog =
        dl_cl.clCreateProgramWithSource(e->context, 3, texts, NULL, &err);
    if (err != CL_SUCCESS)
        free(key.text);
    DL_RETURN_ON_CL(err, "clCreateProgramWithSource");
    err = dl_cl.clBuildProgram(prog, 1, &e->device, BUILD_OPTIONS, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[1024] = "";
        dl_cl.clGetProgramBuildInfo(prog, e->device, CL_PROGRAM_BUILD_LOG,
                                    sizeof log - 1, log, NULL);
        dl_cl.clReleaseProgram(prog);
        free(key.text);
        return dl_fail(DL_BUILD_ERROR, "building %s failed (%d): %.700s",
                       source, (int)err, log);
    }
    DL_LOG_DEBUG("built marshal program %s from source in %.1f ms", source,
                 now_ms() - t0);
    if (key.text && dl_cl.clGetProgramInfo &&
        __atomic_load_n(&binary_deferred, __ATOMIC_ACQUIRE)) {
        defer_store(dir, path, prog, &key); /* takes the key */
    } else if (key.text && dl_cl.clGetProgramInfo) {
        store_binary(dir, path, prog, &key);
    }
    free(key.text);
    *out = prog;
    return DL_SUCCESS;
}

dl_status dl_engine_kernel(dl_engine *e, const char *source,
                           const dl_spec *spec, const char *kernel_name,
                           cl_kernel *out)
{
    DL_RETURN_ERROR_ON(spec->failed, DL_OUT_OF_MEMORY,
                       "out of host memory while specialising %s", source);
    size_t name_len = strlen(source) + 1;
    size_t key_len = name_len + spec->len;
    char *key = malloc(key_len);
    DL_RETURN_ERROR_ON(!key, DL_OUT_OF_MEMORY, "out of host memory");
    memcpy(key, source, name_len);
    if (spec->len)
        memcpy(key + name_len, spec->text, spec->len);

    pthread_mutex_lock(&e->lock);
    dl_program_entry *p = e->programs;
    while (p && (p->key_len != key_len || memcmp(p->key, key, key_len)))
        p = p->next;
    dl_status st = DL_SUCCESS;
    if (!p) {
        cl_program prog;
        st = build_program(e, source, spec, &prog);
        if (st == DL_SUCCESS) {
            p = malloc(sizeof *p);
            if (!p) {
                dl_cl.clReleaseProgram(prog);
                st = dl_fail(DL_OUT_OF_MEMORY, "out of host memory");
            } else {
                *p = (dl_program_entry){key, key_len, prog, e->programs};
                e->programs = p;
                key = NULL;
                e->stats.programs_built++;
            }
        }
    }
    cl_program prog = p ? p->program : NULL;
    pthread_mutex_unlock(&e->lock);
    free(key);
    DL_RETURN_IF_FAIL(st);

    cl_int err;
    *out = dl_cl.clCreateKernel(prog, kernel_name, &err);
    DL_RETURN_ERROR_ON(err != CL_SUCCESS, DL_BUILD_ERROR,
                       "kernel %s missing from %s (OpenCL error %d)",
                       kernel_name, source, (int)err);
    return DL_SUCCESS;
}

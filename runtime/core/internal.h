/* internal.h - what the runtime's files share: the engine, specialisation
 * of marshal kernels, event chains and the algorithm interface. */
#ifndef DL_INTERNAL_H
#define DL_INTERNAL_H

#include "dlayout.h"
#include "error.h"
#include "record.h"

#include <pthread.h>

dl_status dl_layouts_compatible(const dl_layout *from, const dl_layout *to);
/* The two layouts as the conversion between them sees them: an offset DA
 * and its AoS partner as layouts of M' records (stride 0); DL_UNSUPPORTED
 * between an offset DA and anything but AoS or itself. */
dl_status dl_layouts_spanned(const dl_layout *from, const dl_layout *to,
                             dl_layout *from_out, dl_layout *to_out);

/* ------------------------------------------------------- specialisation */

/* A kernel specialisation: source text prepended to a marshal_kernels/
 * file (#defines and __constant tables).  Also the program-cache key. */
typedef struct dl_spec {
    char *text;
    size_t len, cap;
    int failed; /* out of memory while appending */
} dl_spec;

void dl_spec_init(dl_spec *spec);
void dl_spec_free(dl_spec *spec);
void dl_spec_define(dl_spec *spec, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The OpenCL C type of a moved word of w = 1, 2, 4, 8 or 16 bytes. */
const char *dl_spec_word_type(uint32_t w);
/* DL_WORD, DL_W, DL_RW, DL_UNIFORM and the unit tables of the record. */
void dl_spec_record(dl_spec *spec, const dl_record *rec);

/* ----------------------------------------------------------------- engine */

typedef struct dl_program_entry dl_program_entry;
typedef struct dl_plan_entry dl_plan_entry;

struct dl_engine {
    cl_context context;
    cl_device_id device;
    size_t max_wg;      /* CL_DEVICE_MAX_WORK_GROUP_SIZE            */
    cl_ulong local_mem; /* CL_DEVICE_LOCAL_MEM_SIZE                 */
    cl_uint compute_units;
    int local_is_global; /* CPU devices: __local is plain memory     */
    pthread_mutex_t lock;
    dl_program_entry *programs;
    dl_plan_entry *plans;
    dl_engine_stats stats;
    uint64_t programs_loaded; /* of stats.programs_built: from binary_dir */
};

/* Builds (or finds in the cache) marshal_kernels/<source> specialised with
 * `spec` and creates a fresh kernel object from it. */
dl_status dl_engine_kernel(dl_engine *engine, const char *source,
                           const dl_spec *spec, const char *kernel_name,
                           cl_kernel *out);
void dl_engine_count_launch(dl_engine *engine);
/* Keep built marshal programs as binaries in `dir` (created if missing)
 * and load them from there in later runs; NULL or "" keeps nothing.
 * `dir` must outlive every engine. */
void dl_engine_set_binary_dir(const char *dir);
/* The same, and with `deferred` store them only at exit, within a budget
 * (DL_BINARY_DIR=auto; docs/tuning.md). */
void dl_engine_set_binary_cache(const char *dir, int deferred);
/* Why `dir` cannot hold the binaries (relative, cannot be made, not a
 * directory, not writable), or NULL if it can; makes it if missing. */
const char *dl_engine_binary_dir_unusable(const char *dir);
/* Stores the deferred programs that fit budget_ms (plus one recurring
 * program); returns how many were stored. */
unsigned dl_engine_store_pending(double budget_ms);

/* Embedded kernel sources (generated from marshal_kernels/ at build). */
const char *dl_kernel_source(const char *name);

/* ------------------------------------------------------------ event chain */

/* Commands of one conversion run in order: the first waits on the caller's
 * list, each later one on the previous command's event. */
typedef struct dl_chain {
    dl_engine *engine;
    cl_command_queue queue;
    cl_uint num_wait;
    const cl_event *wait_list;
    cl_event last;
} dl_chain;

void dl_chain_begin(dl_chain *c, dl_engine *engine, cl_command_queue queue,
                    cl_uint num_wait, const cl_event *wait_list);
dl_status dl_chain_kernel(dl_chain *c, cl_kernel kernel, cl_uint dims,
                          const size_t *global, const size_t *local);
dl_status dl_chain_fill(dl_chain *c, cl_mem mem, size_t bytes);
dl_status dl_chain_copy(dl_chain *c, cl_mem src, cl_mem dst, size_t bytes);
/* Non-blocking: `src` must stay valid until the write has run. */
dl_status dl_chain_write(dl_chain *c, cl_mem dst, const void *src,
                         size_t bytes);
/* Hands the last event to *event (or a marker if nothing was enqueued). */
dl_status dl_chain_end(dl_chain *c, cl_event *event);

/* Tile steps: runs `tail` (arguments: buffer, count) as one work-group of
 * `local` items when the last, partial tile holds two or more records (a
 * one-record tile is the same in every layout). */
struct dl_step;
dl_status dl_chain_tail_tile(dl_chain *c, const struct dl_step *s,
                             cl_kernel tail, cl_mem buf, size_t local);

/* Sets kernel argument `index`; returns DL_OPENCL_ERROR with a message. */
dl_status dl_set_arg(cl_kernel k, cl_uint index, size_t size,
                     const void *value);

/* ------------------------------------------------------------ algorithms */

/* A step converts between two neighbouring layouts of the family:
 *   DL_STEP_TILES:  AoS <-> ASTA(T) inside every tile (and the tail tile);
 *   DL_STEP_CHUNKS: DA  <-> ASTA(T): T-record chunks move across the buffer.
 * `inverse` selects ASTA(T) -> AoS or ASTA(T) -> DA. */
typedef enum dl_step_kind {
    DL_STEP_TILES,
    DL_STEP_CHUNKS,
    DL_STEP_REGROUP /* DA(T1) <-> ASTA(T) inside every ASTA(T1) tile */
} dl_step_kind;

typedef struct dl_step_desc {
    const dl_record *rec;
    size_t count; /* M */
    size_t tile;  /* T, 1 < T < M */
    int inverse;
    size_t block; /* DL_STEP_REGROUP: T1, a multiple of T (or M); else 0 */
} dl_step_desc;

typedef struct dl_step dl_step;

typedef struct dl_algo_ops {
    const char *name; /* shown by dl_plan_describe */
    dl_algo algo;
    dl_step_kind kind;
    /* Nonzero if the algorithm can run this step on the engine's device. */
    int (*fits)(const dl_engine *engine, const dl_step_desc *desc);
    /* Builds kernels and fills step->kernels, step->extra_bytes, params. */
    dl_status (*prepare)(dl_engine *engine, dl_step *step);
    dl_status (*enqueue)(dl_step *step, dl_chain *chain, cl_mem buffer);
    /* Releases what prepare allocated beyond the kernels (may be NULL). */
    void (*release)(dl_step *step);
    /* Its program holds both directions (the kernel name picks one), so
     * a conversion and its inverse build it once between them. */
    int both_directions;
} dl_algo_ops;

#define DL_STEP_MAX_KERNELS 6

struct dl_step {
    const dl_algo_ops *ops;
    dl_step_desc desc;
    cl_kernel kernels[DL_STEP_MAX_KERNELS];
    size_t extra_bytes;
    size_t params[8]; /* algorithm-private launch geometry */
    void *priv;       /* algorithm-private state, freed by ops->release */
};

/* Implementations, one file each. */
extern const dl_algo_ops dl_algo_bs;              /* algo_bs.c       */
extern const dl_algo_ops dl_algo_pttwac_instance; /* algo_pttwac_instance.c */
extern const dl_algo_ops dl_algo_pttwac_tiles;    /* algo_pttwac_tiles.c */
extern const dl_algo_ops dl_algo_pipt;            /* algo_pipt.c     */
extern const dl_algo_ops dl_algo_oop_tiles;       /* algo_oop.c      */
extern const dl_algo_ops dl_algo_oop_chunks;      /* algo_oop.c      */
extern const dl_algo_ops dl_algo_staged_regroup;  /* algo_staged.c   */
extern const dl_algo_ops dl_algo_staged_cycles;   /* algo_staged_cycles.c */

/* DA <-> ASTA(tile) on CPUs (algo_staged_cycles.c, algo_staged.c):
 * chunks of at least DL_CYCLES_MIN_CHUNK_BYTES are moved by
 * dl_algo_staged_cycles directly (its leader bitmap, one bit per chunk, is
 * then at most 0.1% of the buffer); dl_staged_block gives T1 for the
 * staged route of shorter chunks, cycles(T1) plus a regroup, or 0.  T1 =
 * count: the regroup alone does it. */
#define DL_CYCLES_MIN_CHUNK_BYTES 128u
int dl_cycles_suits(const dl_engine *engine, const dl_record *rec, size_t count,
                    size_t tile);
size_t dl_staged_block(const dl_engine *engine, const dl_record *rec,
                       size_t count, size_t tile);
/* The ASTA(t) that automatic AoS <-> DA plans pass through on CPUs: tiles
 * of up to 64 KiB (bs's largest), so that the chunk step moves long runs;
 * 0: use the default. */
size_t dl_staged_aos_tile(const dl_engine *engine, const dl_record *rec,
                          size_t count);

/* How many marshal programs a first conversion from -> to would build
 * (plan_cache.c): 0 when the engine holds its plan.  With `reverse_counted`,
 * the conversion to -> from is counted as well, so steps whose program
 * holds both directions count there only. */
unsigned dl_plan_builds_needed(dl_engine *engine, const dl_layout *from,
                               const dl_layout *to, dl_algo algo,
                               int reverse_counted);
/* Makes and caches the plan of a conversion from -> to, building its
 * marshal programs, without enqueueing anything (plan_cache.c): callers
 * that must not build while they hold a lock plan first, before taking
 * it.  Nothing is kept once the cache is full. */
dl_status dl_plan_warm(dl_engine *engine, const dl_layout *from,
                       const dl_layout *to, dl_algo algo);
/* The same count for a plan not cached: a dry plan (plan.c). */
unsigned dl_plan_count_builds(dl_engine *engine, const dl_layout *from,
                              const dl_layout *to, dl_algo algo,
                              int reverse_counted);
/* Frees what the engine itself holds, its plans already released
 * (engine.c). */
void dl_engine_free(dl_engine *engine);

/* Round-up division. */
static inline size_t dl_div_up(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

#endif

/* rt_renumber.h - a graph loop's vertex index space renumbered
 * symmetrically (docs/irregular.md, "Renumbering a graph loop"): a kernel
 * that walks one CSR row per work-item, v = get_global_id(0), and reads
 * vertex arrays at v or at col[k] (rt_renumber_form.h proves it from its
 * source) runs unchanged on renumbered read-only copies of the row
 * pointer, the columns and the entry arrays (new row pi[v] is old row v,
 * its entries in their order, columns mapped through pi), with every
 * vertex array kept permuted in place, x'[pi[v]] = x[v].  A kernel that
 * writes next[v] then leaves next permuted too, so a loop that ping-pongs
 * its vectors pays the permutation once, not per iteration; each vertex
 * buffer is restored before any other use (host accesses, other
 * kernels: restore_one in rt_buffers.c), alone, by pi^-1's plan.
 *
 * pi is a locality order of the row graph (Reverse Cuthill-McKee or the
 * degree order, whichever the coalescing analyser predicts fewer cache
 * lines for), planned on a thread of its own from copies of rowptr, col
 * and the entry arrays read at a launch without any added wait
 * (rt_renumber_plan.c).  The copies stay cached while the versions of
 * the buffers they came from are unchanged. */
#ifndef DL_RT_RENUMBER_H
#define DL_RT_RENUMBER_H

#include "permute.h"
#include "rt_launch.h"
#include "rt_renumber_form.h"

typedef enum rt_renum_state {
    RT_RENUM_READING,   /* the structure is being read, or pi planned */
    RT_RENUM_READY,     /* planned: uploaded at the next launch */
    RT_RENUM_ON_DEVICE, /* the copies and plans on the device */
    RT_RENUM_DECLINED   /* not worth it, or it failed */
} rt_renum_state;

typedef struct rt_renum rt_renum;

/* Whether renumbering is considered for ak's launches: DL_IRREGULAR=
 * renumber, or auto under DL_POLICY=auto (the tuner keeps it only where
 * it measures faster; until it is planned, and where it is declined, the
 * other methods run as before). */
int rt_renumber_considered(const dl_annot_kernel *ak);

/* A launch of k, unlocked: renumbered once pi is planned, else as written
 * (starting the planning at the first).  Returns 1 with the real call's
 * status in *err, or 0 where renumbering does not apply (not considered,
 * the kernel or this launch does not qualify: the reason is logged
 * once): the caller launches as usual, restoring what needs it. */
int rt_renumber_launch(const launch_call *c, rt_kernel *k, cl_uint nwait,
                       const cl_event *wait, cl_event *event, cl_int *err);

/* Locked: whether b holds a vertex array kept permuted. */
static inline int rt_renumber_applied(const rt_buffer *b)
{
    return b->renum != NULL;
}

/* Locked: b back in the program's order, on `queue`, after `wait` and its
 * uses; `done` receives the event the next user must wait for. */
dl_status rt_renumber_restore(rt_buffer *b, cl_command_queue queue,
                              cl_uint nwait, const cl_event *wait,
                              rt_events *done);

/* Locked: b's entry goes (`gone`: OpenCL destroyed it, nothing to move),
 * or its context closes (restored first). */
void rt_renumber_forget(rt_buffer *b, int gone);

/* Locked: k's entry goes. */
void rt_renumber_kernel_forget(rt_kernel *k);

/* ----------------------------------------- between rt_renumber*.c only */

struct rt_renum {
    cl_mem rowptr, col, edge[RT_RENUM_MAX]; /* the program's, not held */
    uint64_t version[2 + RT_RENUM_MAX];     /* theirs at the read */
    uint32_t nedge;
    size_t edge_elem[RT_RENUM_MAX];
    size_t col_bytes, edge_bytes[RT_RENUM_MAX]; /* read */
    cl_context context;
    cl_device_id device;
    size_t n, elem; /* vertices; bytes of a vertex array's element */
    rt_renum_state state;
    int refs;    /* the kernel's, each permuted buffer's, the planner's */
    int forced;  /* DL_IRREGULAR=renumber: applied whatever it predicts */
    int applied; /* vertex buffers kept permuted by it */
    cl_command_queue queue; /* retained while reading and while applied */
    /* Read (rt_renumber_plan.c), freed once planned. */
    int32_t *host_rowptr, *host_col;
    void *host_edge[RT_RENUM_MAX];
    cl_event reads[2 + RT_RENUM_MAX];
    uint32_t nreads;
    /* Planned, read only once the state says READY; freed once on the
     * device. */
    int32_t *new_rowptr, *new_col;
    void *new_edge[RT_RENUM_MAX];
    size_t nnz;
    dl_perm_plan forward, back;
    /* What was chosen and why, for the log and the tuner. */
    const char *order;
    double before, after; /* transactions per warp-access of x[col[k]] */
    size_t extra;         /* device bytes it holds */
    uint64_t plan_ns, build_ns;
    /* On the device. */
    cl_mem dev_rowptr, dev_col, dev_edge[RT_RENUM_MAX];
    dl_perm_device dev_forward, dev_back;
};

/* rt_renumber_plan.c: enqueues the reads of the structure before a
 * launch, after its wait list (the kernel only reads the structure: it is
 * what the launch sees), and plans pi on a thread of its own when they
 * complete; the state becomes READY or DECLINED (locked). */
void rt_renumber_start_plan(rt_renum *r, cl_command_queue queue, cl_uint nwait,
                            const cl_event *wait);
/* Locked: one reference fewer; frees it at the last. */
void rt_renumber_unref(rt_renum *r);

/* rt_renumber_vertices.c (locked): the copies and plans on the device
 * (READY -> ON_DEVICE); and the n vertex buffers of a launch permuted by
 * r (restored first from another renumbering), 0 if one could not be
 * (a host access under way, a failure: the launch runs as written). */
dl_status rt_renumber_upload(rt_renum *r);
int rt_renumber_permute(rt_renum *r, const cl_mem *vertex, uint32_t n,
                        cl_command_queue queue, cl_uint nwait,
                        const cl_event *wait, rt_events *done);

#endif

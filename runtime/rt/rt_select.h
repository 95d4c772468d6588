/* rt_select.h - which method serves an annotated kernel's indirect
 * references at its launches (issue 20, docs/irregular.md "In the
 * runtime: the selector").  DL_IRREGULAR forces one; auto asks the
 * selector (runtime/irregular/selector.h) with what the runtime knows of
 * the reference it plans from.  Pure: the tests inject the facts. */
#ifndef DL_RT_SELECT_H
#define DL_RT_SELECT_H

#include "controls.h"
#include "selector.h"

/* What the runtime knows of one reference when its index buffer's
 * contents arrive.  Times are seconds; negative: not measured. */
typedef struct rt_select_facts {
    uint64_t tx_none, tx_duplication, tx_job_swap; /* the analyser's */
    size_t bytes_duplication; /* the reordered copy (all of P)       */
    size_t bytes_job_swap;    /* the job map: 4 bytes a work-item    */
    size_t bytes_remap;       /* pi, pi^-1 and the plans' tables     */
    size_t budget;            /* DL_GATHER_BUDGET in bytes           */
    int gather_form;          /* the redirected form is planned      */
    int jobswap_form;         /* dl-annotate wrote the job-swapped one */
    int a_written;            /* the kernel may write A              */
    int others_disturbed;     /* other arrays are indexed by the id  */
    /* The reference only goes through its index buffer (A[P[...]] and
     * nothing else: rt_permute_ref), so A may be kept permuted. */
    int remap_form;
    uint64_t tx_remap; /* with A permuted in P's first-touch order */
    /* Padding (rt_padding.h): the program's kernel on A'' and Q', where A
     * is read-only and read only as A[P[...]] (no offset), P used nowhere
     * else; else why not, in plain words. */
    int padding_form;
    const char *no_padding;
    uint64_t tx_padding;  /* the analyser on Q' as the redirected pattern */
    size_t bytes_padding; /* A'' and Q' (and E, on the device)         */
    /* Sharing (rt_sharing.h): dl-annotate's shared form on A_s and L,
     * where padding's conditions hold, the launch has a local size (or
     * dlayout chooses one) and the largest block fits the device's __local
     * memory; else why not. */
    int sharing_form;
    const char *no_sharing;
    uint64_t tx_sharing;  /* the segments the groups' blocks span: their
                             coalesced loads into __local memory */
    size_t bytes_sharing; /* A_s, its E, L and the two block arrays */
    double kernel_s[DL_METHOD_COUNT], reorg_s[DL_METHOD_COUNT];
    unsigned reuse;
} rt_select_facts;

/* Facts with nothing measured. */
void rt_select_facts_init(rt_select_facts *f);

/* Whether permuting pays on the predicted transactions (before, after:
 * per launch or per warp-access alike) for the device memory it takes:
 * they must drop by a fifth at least, within the budget. */
int rt_select_remap_wanted(double before, double after, size_t extra_bytes,
                           size_t budget_bytes);

/* The selector's input from the facts. */
void rt_select_input(const rt_select_facts *f, dl_selector_input *in);

/* How the kernel's launches run. */
typedef enum rt_irregular_path {
    RT_PATH_ASIS = 0, /* as without this choice: the reordering path
                         (rt_reorder.c, its tuner under DL_POLICY=auto)
                         where planned, else as written */
    RT_PATH_PLAIN,    /* as written */
    RT_PATH_JOB_SWAP, /* the job-swapped variant (rt_jobswap.c) */
    RT_PATH_REMAP,    /* on the permuted pair (rt_permute.c); under
                         DL_POLICY=auto once the tuner finds that its cost
                         up front pays back (rt_permute_tune.c) */
    RT_PATH_PADDING,  /* the program's kernel on A'' and Q' (rt_padding.c) */
    RT_PATH_SHARING   /* the shared form on A_s and L (rt_sharing.c) */
} rt_irregular_path;

/* "runs as written", "runs job-swapped", ..., for the log. */
const char *rt_select_path_words(rt_irregular_path path);

/* The path for `mode` and the facts; *sel gets the method and the
 * reason, in plain words, for the log. */
rt_irregular_path rt_select_path(dl_irregular_mode mode,
                                 const rt_select_facts *f, dl_selection *sel);

#endif

/* rt_select.c - the kernel's method for its indirect references
 * (rt_select.h): DL_IRREGULAR, or the selector on the facts. */
#include "rt_select.h"

#include <stdio.h>
#include <string.h>

void rt_select_facts_init(rt_select_facts *f)
{
    memset(f, 0, sizeof *f);
    for (int m = 0; m < DL_METHOD_COUNT; m++)
        f->kernel_s[m] = f->reorg_s[m] = -1;
}

/* Remapping: the transactions must drop by this share at least. */
#define RT_REMAP_MIN_GAIN 0.2

int rt_select_remap_wanted(double before, double after, size_t extra_bytes,
                           size_t budget_bytes)
{
    return extra_bytes <= budget_bytes && before > 0 &&
           after <= before * (1.0 - RT_REMAP_MIN_GAIN);
}

const char *rt_select_path_words(rt_irregular_path path)
{
    switch (path) {
    case RT_PATH_JOB_SWAP:
        return "runs job-swapped";
    case RT_PATH_PLAIN:
        return "runs as written";
    case RT_PATH_REMAP:
        return "runs permuted";
    case RT_PATH_PADDING:
        return "runs padded";
    case RT_PATH_SHARING:
        return "runs shared";
    default:
        return "keeps its path";
    }
}

void rt_select_input(const rt_select_facts *f, dl_selector_input *in)
{
    memset(in, 0, sizeof *in);
    for (int m = 0; m < DL_METHOD_COUNT; m++)
        in->method[m] =
            (dl_method_estimate){0, 0, 0, f->reorg_s[m], f->kernel_s[m], NULL};
    in->method[DL_METHOD_NONE].available = 1;
    in->method[DL_METHOD_NONE].transactions = f->tx_none;
    in->method[DL_METHOD_DUPLICATION].available = f->gather_form;
    in->method[DL_METHOD_DUPLICATION].transactions = f->tx_duplication;
    in->method[DL_METHOD_DUPLICATION].bytes = f->bytes_duplication;
    in->method[DL_METHOD_JOB_SWAP].available = f->jobswap_form;
    in->method[DL_METHOD_JOB_SWAP].transactions = f->tx_job_swap;
    in->method[DL_METHOD_JOB_SWAP].bytes = f->bytes_job_swap;
    /* Padding: the program's kernel on A'' and Q' (rt_padding.h), where
     * the reference allows; sharing: the shared form on A_s and L
     * (rt_sharing.h), where the launch allows it too.  Remapping is the
     * permutation layout's (rt_permute.h): where the reference allows it and it
     * drops the transactions enough to be worth its memory. */
    in->method[DL_METHOD_REMAP].available =
        f->remap_form &&
        rt_select_remap_wanted((double)f->tx_none, (double)f->tx_remap,
                               f->bytes_remap, f->budget);
    in->method[DL_METHOD_PADDING].available = f->padding_form;
    in->method[DL_METHOD_PADDING].transactions = f->tx_padding;
    in->method[DL_METHOD_PADDING].bytes = f->bytes_padding;
    in->method[DL_METHOD_SHARING].available = f->sharing_form;
    in->method[DL_METHOD_SHARING].why_not = f->no_sharing;
    in->method[DL_METHOD_SHARING].transactions = f->tx_sharing;
    in->method[DL_METHOD_SHARING].bytes = f->bytes_sharing;
    in->method[DL_METHOD_REMAP].transactions = f->tx_remap;
    in->method[DL_METHOD_REMAP].bytes = f->bytes_remap;
    in->budget_bytes = f->budget;
    in->a_written = f->a_written;
    in->others_disturbed = f->others_disturbed;
    in->reuse = f->reuse;
}

/* DL_IRREGULAR=padding or sharing: the copy's path where planned within
 * the budget, else as written with the reason. */
static rt_irregular_path forced_copy(int form, size_t bytes, size_t budget,
                                     const char *no, rt_irregular_path path,
                                     dl_selection *sel)
{
    int sharing = path == RT_PATH_SHARING;
    const char *name = sharing ? "sharing" : "padding";
    sel->method = DL_METHOD_NONE;
    if (form && bytes > budget)
        snprintf(sel->reason, sizeof sel->reason,
                 "DL_IRREGULAR=%s, but %s (%zu B) exceed DL_GATHER_BUDGET "
                 "(%zu B)",
                 name, sharing ? "A_s, E, L and the blocks" : "A'', Q' and E",
                 bytes, budget);
    else if (!form)
        snprintf(sel->reason, sizeof sel->reason,
                 "DL_IRREGULAR=%s, but %s does not apply: %s", name, name,
                 no ? no : "not planned");
    else {
        sel->method = sharing ? DL_METHOD_SHARING : DL_METHOD_PADDING;
        snprintf(sel->reason, sizeof sel->reason, "DL_IRREGULAR=%s", name);
        return path;
    }
    return RT_PATH_PLAIN;
}

static rt_irregular_path forced(dl_irregular_mode mode,
                                const rt_select_facts *f, dl_selection *sel)
{
    const char *why = "";
    rt_irregular_path path = RT_PATH_PLAIN;
    sel->method = DL_METHOD_NONE;
    if (mode == DL_IRREGULAR_NONE)
        why = "DL_IRREGULAR=none";
    else if (mode == DL_IRREGULAR_GATHER) {
        sel->method = DL_METHOD_DUPLICATION;
        path = RT_PATH_ASIS;
        why = "DL_IRREGULAR=gather";
    } else if (mode == DL_IRREGULAR_JOBSWAP && f->jobswap_form) {
        sel->method = DL_METHOD_JOB_SWAP;
        path = RT_PATH_JOB_SWAP;
        why = "DL_IRREGULAR=jobswap";
    } else if (mode == DL_IRREGULAR_JOBSWAP)
        why = "DL_IRREGULAR=jobswap, but the source has no job-swapped form "
              "(dl-annotate writes it only where jobs are independent; "
              "--explain says why not)";
    else if (mode == DL_IRREGULAR_REMAP && f->remap_form) {
        sel->method = DL_METHOD_REMAP;
        path = RT_PATH_REMAP;
        why = "DL_IRREGULAR=remap";
    } else if (mode == DL_IRREGULAR_REMAP)
        why = "DL_IRREGULAR=remap, but the permutation does not apply (no "
              "reference that only goes through its index buffer, or buffers "
              "that cannot be permuted together: DL_LOG=debug says which)";
    else if (mode == DL_IRREGULAR_RENUMBER)
        why = "DL_IRREGULAR=renumber, but the renumbering does not apply "
              "(DL_LOG=info said why)";
    else if (mode == DL_IRREGULAR_SHARING)
        return forced_copy(f->sharing_form, f->bytes_sharing, f->budget,
                           f->no_sharing, RT_PATH_SHARING, sel);
    else
        return forced_copy(f->padding_form, f->bytes_padding, f->budget,
                           f->no_padding, RT_PATH_PADDING, sel);
    snprintf(sel->reason, sizeof sel->reason, "%s", why);
    return path;
}

rt_irregular_path rt_select_path(dl_irregular_mode mode,
                                 const rt_select_facts *f, dl_selection *sel)
{
    if (mode != DL_IRREGULAR_AUTO)
        return forced(mode, f, sel);
    dl_selector_input in;
    rt_select_input(f, &in);
    dl_select_method(&in, sel);
    switch (sel->method) {
    case DL_METHOD_JOB_SWAP:
        return RT_PATH_JOB_SWAP;
    case DL_METHOD_DUPLICATION:
        return f->gather_form ? RT_PATH_ASIS : RT_PATH_PLAIN;
    case DL_METHOD_NONE:
        /* The reordering path's tuner measures what this predicts (and
         * DL_POLICY=always asks for it): left to it. */
        return RT_PATH_ASIS;
    case DL_METHOD_REMAP:
        return RT_PATH_REMAP;
    case DL_METHOD_PADDING:
        return RT_PATH_PADDING;
    case DL_METHOD_SHARING:
        return RT_PATH_SHARING;
    default:
        return RT_PATH_ASIS;
    }
}

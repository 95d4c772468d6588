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

void rt_select_input(const rt_select_facts *f, dl_selector_input *in)
{
    memset(in, 0, sizeof *in);
    for (int m = 0; m < DL_METHOD_COUNT; m++)
        in->method[m] =
            (dl_method_estimate){0, 0, 0, f->reorg_s[m], f->kernel_s[m]};
    in->method[DL_METHOD_NONE].available = 1;
    in->method[DL_METHOD_NONE].transactions = f->tx_none;
    in->method[DL_METHOD_DUPLICATION].available = f->gather_form;
    in->method[DL_METHOD_DUPLICATION].transactions = f->tx_duplication;
    in->method[DL_METHOD_DUPLICATION].bytes = f->bytes_duplication;
    in->method[DL_METHOD_JOB_SWAP].available = f->jobswap_form;
    in->method[DL_METHOD_JOB_SWAP].transactions = f->tx_job_swap;
    in->method[DL_METHOD_JOB_SWAP].bytes = f->bytes_job_swap;
    /* Padding and sharing are planned on the host only (padding.h,
     * sharing.h): no device form yet.  Remapping is the permutation
     * layout's, which says itself whether it wants the buffer. */
    in->method[DL_METHOD_REMAP].available = f->remap_wanted;
    in->method[DL_METHOD_REMAP].transactions = f->tx_remap;
    in->budget_bytes = f->budget;
    in->a_written = f->a_written;
    in->others_disturbed = f->others_disturbed;
    in->reuse = f->reuse;
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
    else
        why = "DL_IRREGULAR=padding, but padding is not built on the device "
              "yet";
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
    default: /* remap: the permutation layout applies itself */
        return RT_PATH_ASIS;
    }
}

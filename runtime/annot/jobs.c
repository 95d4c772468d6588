/* jobs.c - a kernel's jobs key (docs/annotations.md, "The jobs key"):
 * job gid's trip count as one element of an integer array argument, or
 * the difference of two (a CSR row's end minus its start), each at an
 * index affine in gid.  Its binding and its evaluation at a launch. */
#include "jobs.h"
#include "error.h"
#include "indirect.h"

dl_status dl_annot_resolve_jobs(const dl_annot_pending *p, dl_annot_kernel *k)
{
    DL_RETURN_ERROR_ON(p->error, DL_INVALID_ARGUMENT, "%s", p->error);
    DL_RETURN_ERROR_ON(k->njobs, DL_INVALID_ARGUMENT,
                       "kernel '%s' has a second jobs key (first on line %u)",
                       k->name, k->jobs_line);
    uint32_t n = p->rows_array[1] ? 2 : 1;
    for (uint32_t i = 0; i < n; i++) {
        dl_status status = dl_annot_bind_bound(
            k, p->rows_array[i], p->rows_index[i], NULL, &k->jobs[i]);
        if (status != DL_SUCCESS) {
            dl_annot_jobs_free(k);
            return status;
        }
    }
    k->njobs = n;
    k->jobs_line = p->line;
    return DL_SUCCESS;
}

void dl_annot_jobs_free(dl_annot_kernel *k)
{
    for (int i = 0; i < 2; i++) {
        dl_dims_free(k->jobs[i].index);
        k->jobs[i] = (dl_annot_bound){0};
    }
    k->njobs = 0;
}

dl_status dl_annot_jobs_eval(const dl_annot_kernel *k, const dl_dims_env *env,
                             dl_annot_macro_fn macro, void *user,
                             dl_annot_rows_range *out)
{
    DL_RETURN_ERROR_ON(!k || !k->njobs || !env || !out, DL_INVALID_ARGUMENT,
                       "no jobs key to evaluate");
    *out = (dl_annot_rows_range){{0, 0}, {0, 0}, 0};
    for (uint32_t i = 0; i < k->njobs; i++)
        DL_RETURN_IF_FAIL(dl_annot_bound_eval(&k->jobs[i], k->nparams, env,
                                              macro, user, &out->base[i],
                                              &out->stride[i]));
    return DL_SUCCESS;
}

/* irr_report.c - runs a workload of `dl-bench irregular` with every method
 * and prints its rows.  Duplication is irr_run's gather; the other methods
 * are planned on the host (irr_method.h), uploaded and run as variants.
 * The selector (selector.h) gets the GPU-class transactions, the memory
 * and the measured times of each, with the reuse of --iterations; its
 * choice is marked in the `selected` column and its reason logged. */
#include "irr_report.h"

#include "bench.h"
#include "gather.h"
#include "irr_count.h"
#include "irr_method.h"

#include <stdlib.h>
#include <string.h>

void irr_report_header(void)
{
    puts("workload,reference,method,class,W,S,accesses,tx,tx_none,fewer_pct,"
         "elem_bytes,a_bytes,extra_bytes,index_bytes,extra_frac,plain_ms,"
         "plan_ms,reorg_ms,kernel_ms,iterations,plain_n_ms,net_1_ms,"
         "net_n_ms,speedup_1,speedup_n,verified,selected,whole_ms,"
         "overlap_net_ms,reorg_hidden_ms");
}

/* The overlap columns, empty where the row has none: the reorganisation
 * hidden is the whole time less the overlapped one. */
static void print_overlap(const irr_mrow *m)
{
    if (m->whole > 0 && m->overlapped > 0)
        printf(",%.4f,%.4f,%.4f\n", 1e3 * m->whole, 1e3 * m->overlapped,
               1e3 * (m->whole - m->overlapped));
    else
        puts(",,,");
}

static void print_row(const irr_refrows *x, const irr_mrow *m, int k)
{
    double n = (double)x->iterations, a = (double)x->w->bufs[x->r->a].bytes;
    double none = (double)x->row[0].c[k].before, tx = (double)m->c[k].before;
    double net1 = m->reorg + m->kernel, netn = m->reorg + n * m->kernel;
    printf("%s,%s,%s,%s,%u,%u,%llu,%.0f,%.0f,%.1f,%zu,%.0f,%zu,%zu,%.3f,"
           "%.4f,%.4f,%.4f,%.4f,%zu,%.4f,%.4f,%.4f,%.3f,%.3f,%d,%d",
           x->w->name, x->r->label, dl_irregular_method_name(m->m),
           k ? "device" : "gpu", m->g[k].simd_width, m->g[k].segment_bytes,
           (unsigned long long)m->c[k].accesses, tx, none,
           none > 0 ? 100.0 * (1.0 - tx / none) : 0.0, x->r->ref.elem_bytes, a,
           m->data, m->index, a > 0 ? (double)m->data / a : 0.0, 1e3 * x->plain,
           1e3 * m->plan, 1e3 * m->reorg, 1e3 * m->kernel, x->iterations,
           1e3 * n * x->plain, 1e3 * net1, 1e3 * netn, x->plain / net1,
           n * x->plain / netn, m->verified, m->m == x->selected);
    print_overlap(m);
}

int irr_report_geometries(irr_device *d, const irr_ref *r, irr_mrow *m)
{
    m->g[0] = m->g[1] = dl_coalesce_geometry_gpu();
    return dl_coalesce_geometry_for_device(d->cl->device, r->ref.elem_bytes,
                                           &m->g[1]) == DL_SUCCESS;
}

/* none and duplication, from irr_run's measurements. */
static int base_rows(irr_device *d, irr_refrows *x, const irr_times *t)
{
    irr_mrow *none = &x->row[0], *dup = &x->row[1];
    *none = (irr_mrow){.m = DL_METHOD_NONE, .kernel = t->plain, .verified = 1};
    *dup = (irr_mrow){.m = DL_METHOD_DUPLICATION,
                      .reorg = t->reorg,
                      .kernel = t->redirect,
                      .verified = t->verified,
                      .whole = t->whole,
                      .overlapped = t->overlapped,
                      .data = x->w->bufs[x->r->a_prime].bytes};
    x->n = 2;
    if (!irr_report_geometries(d, x->r, none))
        return 0;
    for (int k = 0; k < 2; k++) {
        dl_coalesce_counts c;
        if (!irr_count(x->w, x->r, &none->g[k], &c))
            return 0;
        dup->g[k] = none->g[k];
        none->c[k] = (dl_coalesce_counts){c.accesses, c.before, c.before};
        dup->c[k] = (dl_coalesce_counts){c.accesses, c.after, c.after};
    }
    return 1;
}

/* One method's variant planned, run and counted: 1 added, 0 not
 * applicable (logged), -1 failed. */
static int method_row(irr_device *d, irr_refrows *x, dl_irregular_method m,
                      const irr_method_env *env)
{
    irr_variant v;
    irr_times t;
    irr_mrow *row = &x->row[x->n];
    int rc = irr_variant_build(x->w, m, env, &v) ? 1 : -1;
    if (rc > 0 && v.why) {
        fprintf(stderr, "dl-bench irregular: %s: no %s: %s\n", x->w->name,
                dl_irregular_method_name(m), v.why);
        rc = 0;
    }
    if (rc > 0 &&
        (!irr_run(d, &v.w, &t) || !irr_report_geometries(d, x->r, row)))
        rc = -1;
    for (int k = 0; rc > 0 && k < 2; k++)
        if (!irr_variant_count(&v, x->w, &row->g[k], &row->c[k]))
            rc = -1;
    if (rc > 0) {
        row->m = m;
        row->data = v.data_bytes;
        row->index = v.index_bytes;
        row->plan = v.plan_s;
        row->reorg = v.plan_s + t.reorg;
        row->kernel = t.redirect;
        row->verified = t.verified;
        x->n++;
    }
    if (rc < 0)
        fprintf(stderr, "dl-bench irregular: %s: %s failed: %s\n", x->w->name,
                dl_irregular_method_name(m), dl_last_error());
    irr_variant_free(&v);
    return rc;
}

/* Every kernel here indexes other buffers by the work-item id (val and y,
 * pos[i] and force, q and out): moving work-items disturbs them. */
static void select_method(irr_device *d, irr_refrows *x)
{
    dl_selector_input in = {.budget_bytes =
                                dl_gather_budget_bytes(d->cl->device, 0.25),
                            .a_written = x->a_written,
                            .others_disturbed = 1,
                            .reuse = (unsigned)x->iterations};
    for (int i = 0; i < x->n; i++) {
        const irr_mrow *m = &x->row[i];
        in.method[m->m] = (dl_method_estimate){
            1, m->c[0].before, m->data + m->index, m->reorg, m->kernel, NULL};
    }
    dl_selection s;
    dl_select_method(&in, &s);
    x->selected = s.method;
    fprintf(stderr, "dl-bench irregular: %s, %s: selected %s\n", x->w->name,
            x->r->label, s.reason);
}

static const dl_irregular_method others[] = {
    DL_METHOD_PADDING, DL_METHOD_SHARING, DL_METHOD_JOB_SWAP, DL_METHOD_REMAP};

static int report_ref(irr_device *d, irr_refrows *x, const irr_times *t,
                      const irr_method_env *env)
{
    if (!base_rows(d, x, t))
        return -1;
    int rc = 1;
    for (size_t i = 0; x->r == &x->w->refs[0] && i < 4 && rc > 0; i++)
        if (method_row(d, x, others[i], env) < 0)
            rc = -1;
    int printed = irr_report_rows(d, x);
    return rc < printed ? rc : printed;
}

int irr_report_rows(irr_device *d, irr_refrows *x)
{
    int rc = 1;
    select_method(d, x);
    for (int i = 0; i < x->n; i++) {
        for (int k = 0; k < 2; k++)
            print_row(x, &x->row[i], k);
        rc = !x->row[i].verified ? 0 : rc;
    }
    fflush(stdout);
    return rc;
}

int irr_report_workload(irr_device *d, irr_workload *w, size_t iterations,
                        uint64_t seed)
{
    irr_times t;
    irr_method_env env = {
        .group = d->group, .local_bytes = d->local_bytes, .seed = seed};
    int rc = irr_run(d, w, &t) ? 1 : -1;
    for (int i = 0; rc >= 0 && i < w->nrefs; i++) {
        irr_refrows x = {.w = w,
                         .r = &w->refs[i],
                         .plain = t.plain,
                         .iterations = iterations};
        int r = report_ref(d, &x, &t, &env);
        rc = r < rc ? r : rc;
    }
    if (rc == 0)
        fprintf(stderr,
                "dl-bench irregular: %s: a method's output differs "
                "from the plain one\n",
                w->name);
    irr_workload_free(w);
    return rc;
}

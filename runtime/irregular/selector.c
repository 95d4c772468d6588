/* selector.c - the decision table of selector.h (docs/irregular.md,
 * "Choosing a method"): rules that exclude methods, then the choice among
 * the rest by measured net time, else by predicted transactions. */
#include "selector.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const method_names[DL_METHOD_COUNT] = {
    "none", "duplication", "padding", "sharing", "remap", "job swap"};

/* Ties go to the method that reorganises least: no data moved, one
 * permutation in place, one gather, a sort and a gather, clustering and a
 * gather with __local loads. */
static const dl_irregular_method preference[DL_METHOD_COUNT - 1] = {
    DL_METHOD_JOB_SWAP, DL_METHOD_REMAP, DL_METHOD_DUPLICATION,
    DL_METHOD_PADDING, DL_METHOD_SHARING};

const char *dl_irregular_method_name(dl_irregular_method method)
{
    return (unsigned)method < DL_METHOD_COUNT ? method_names[method] : "?";
}

static int copies_data(dl_irregular_method m)
{
    return m == DL_METHOD_DUPLICATION || m == DL_METHOD_PADDING ||
           m == DL_METHOD_SHARING;
}

static int moves_work_items(dl_irregular_method m)
{
    return m == DL_METHOD_PADDING || m == DL_METHOD_JOB_SWAP;
}

/* Net seconds a launch with m takes, its reorganisation shared by the
 * launches it serves; negative when not measured. */
static double net_seconds(const dl_selector_input *in, dl_irregular_method m)
{
    const dl_method_estimate *e = &in->method[m];
    if (m == DL_METHOD_NONE)
        return e->kernel_s;
    if (e->reorg_s < 0 || e->kernel_s < 0)
        return -1;
    return e->kernel_s + e->reorg_s / (in->reuse ? in->reuse : 1);
}

static int measured(const dl_selector_input *in, dl_irregular_method m)
{
    return net_seconds(in, m) >= 0 && net_seconds(in, DL_METHOD_NONE) >= 0;
}

/* The first rule that excludes m, written into why; 0 when none does. */
static int excluded(const dl_selector_input *in, dl_irregular_method m,
                    char *why, size_t size)
{
    const dl_method_estimate *e = &in->method[m];
    const dl_method_estimate *none = &in->method[DL_METHOD_NONE];
    if (!e->available)
        snprintf(why, size, "%s", e->why_not ? e->why_not : "not planned");
    else if (in->a_written && copies_data(m))
        snprintf(why, size, "A is written, a copy would go stale");
    else if (in->others_disturbed && moves_work_items(m))
        snprintf(why, size,
                 "moves work-items, other references would "
                 "turn irregular");
    else if (e->bytes > in->budget_bytes)
        snprintf(why, size, "%zu B over the budget of %zu B", e->bytes,
                 in->budget_bytes);
    else if (e->transactions >= none->transactions)
        snprintf(why, size, "no fewer transactions (%llu, %llu as written)",
                 (unsigned long long)e->transactions,
                 (unsigned long long)none->transactions);
    else if (measured(in, m) &&
             net_seconds(in, m) >= net_seconds(in, DL_METHOD_NONE))
        snprintf(why, size,
                 "measured %.3g s a launch, not below %.3g s as "
                 "written",
                 net_seconds(in, m), net_seconds(in, DL_METHOD_NONE));
    else
        return 0;
    return 1;
}

/* Whether a beats b: by measured net time when `by_time`, else by
 * transactions then bytes (the preference order breaks the last ties). */
static int better(const dl_selector_input *in, dl_irregular_method a,
                  dl_irregular_method b, int by_time)
{
    if (by_time && net_seconds(in, a) != net_seconds(in, b))
        return net_seconds(in, a) < net_seconds(in, b);
    const dl_method_estimate *x = &in->method[a], *y = &in->method[b];
    if (x->transactions != y->transactions)
        return x->transactions < y->transactions;
    return x->bytes < y->bytes;
}

static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

/* The chosen method's line: why it won. */
static void explain_choice(const dl_selector_input *in, dl_irregular_method m,
                           int by_time, dl_selection *out)
{
    const dl_method_estimate *e = &in->method[m];
    const dl_method_estimate *none = &in->method[DL_METHOD_NONE];
    if (by_time)
        snprintf(out->reason, sizeof out->reason,
                 "%s: measured %.3g s a launch, reorganisation included, "
                 "against %.3g s as written",
                 dl_irregular_method_name(m), net_seconds(in, m),
                 net_seconds(in, DL_METHOD_NONE));
    else
        snprintf(
            out->reason, sizeof out->reason,
            "%s: fewest predicted transactions, %llu against %llu as "
            "written, %zu B of the %zu B budget",
            dl_irregular_method_name(m), (unsigned long long)e->transactions,
            (unsigned long long)none->transactions, e->bytes, in->budget_bytes);
}

void dl_select_method(const dl_selector_input *in, dl_selection *out)
{
    char why[DL_METHOD_COUNT][128];
    int ok[DL_METHOD_COUNT] = {0}, any_measured = 0;
    for (size_t k = 0; k < DL_METHOD_COUNT - 1; k++) {
        dl_irregular_method m = preference[k];
        ok[m] = !excluded(in, m, why[m], sizeof why[m]);
        any_measured |= ok[m] && measured(in, m);
    }
    dl_irregular_method best = DL_METHOD_NONE;
    for (size_t k = 0; k < DL_METHOD_COUNT - 1; k++) {
        dl_irregular_method m = preference[k];
        if (!ok[m] || (any_measured && !measured(in, m)))
            continue;
        if (best == DL_METHOD_NONE || better(in, m, best, any_measured))
            best = m;
    }
    out->method = best;
    out->reason[0] = '\0';
    if (best != DL_METHOD_NONE)
        explain_choice(in, best, any_measured, out);
    else
        append(out->reason, sizeof out->reason, "none:");
    const char *sep = best == DL_METHOD_NONE ? " " : "; not ";
    for (size_t k = 0; k < DL_METHOD_COUNT - 1; k++) {
        dl_irregular_method m = preference[k];
        if (ok[m])
            continue;
        append(out->reason, sizeof out->reason, "%s%s: %s", sep,
               dl_irregular_method_name(m), why[m]);
        sep = "; ";
    }
}

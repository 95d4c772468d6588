/* suite_marshal.c - parts 2-5 of `dl-bench suite`: the in-place
 * conversions of the DL paper (Tables 2 and 3, Figure 7), the full AoS<->DA
 * conversions and the sweeps that check issue 2's copy-ratio targets.
 * Every figure is one bench_marshal_measure (bench_measure.c): median of
 * the repetitions, each verified against dl_convert_host, with the copy
 * baseline interleaved. */
#include "suite.h"
#include "bench.h"
#include "bench_marshal.h"

#include <math.h>
#include <string.h>

/* The ELL shapes of the paper's Table 1: rows x max non-zeros per row. */
typedef struct shape {
    const char *name;
    size_t rows, cols;
} shape;

static const shape all_shapes[] = {
    {"bcsstk18", 11948, 40}, {"e40r000", 17281, 62},
    {"bcsstk31", 35588, 197}, {"bcsstk32", 44609, 215},
    {"s3dkq4m2", 90449, 59}, {"conf6", 49152, 39},
};
/* --quick: three of them (rows / 16), to keep the kernel builds few. */
static const shape quick_shapes[] = {
    {"bcsstk18", 11948, 40}, {"bcsstk31", 35588, 197}, {"conf6", 49152, 39},
};
#define NSHAPES (sizeof all_shapes / sizeof *all_shapes)
static const shape *ell_shapes = all_shapes;
static size_t nshapes = NSHAPES;
static const size_t fig_tiles[] = {16, 32, 64}; /* --quick: 32, 64 */
#define NFIGT 3

/* One measured (or NA, or unverified) figure. */
typedef struct figure {
    int code; /* BENCH_EXIT_OK, _NA, _UNVERIFIED, _FAIL */
    bench_marshal_opts o;
    bench_marshal_result r;
} figure;

#define SKIPPED (-1) /* not run in this mode (--quick) */

static int usable(const figure *f) { return f->code == BENCH_EXIT_OK; }

/* The worst extra-memory fraction of any in-place conversion measured. */
static double worst_extra = 0.0;
static char worst_extra_what[320];

static void csv_header(FILE *csv)
{
    fputs("shape,from,to,algo,count,struct,elem,tile,bytes,seconds,"
          "seconds_min,seconds_max,gbps,gbps_min,gbps_max,copy_gbps,ratio,"
          "verified,extra_bytes\n", csv);
}

static void csv_row(FILE *csv, const char *shape_name, const figure *f)
{
    const bench_marshal_opts *o = &f->o;
    const bench_marshal_result *r = &f->r;
    int asta = o->from == BENCH_ASTA || o->to == BENCH_ASTA;
    fprintf(csv, "%s,%s,%s,%s,%zu,%zu,%zu,%zu,%zu,", shape_name,
            bench_side_name(o->from), bench_side_name(o->to),
            f->code == BENCH_EXIT_NA ? "NA" : r->algo, o->count, o->nfields,
            o->elem, asta ? o->tile : 0, o->count * o->nfields * o->elem);
    if (f->code == BENCH_EXIT_NA)
        fputs("NA,NA,NA,NA,NA,NA,NA,NA,NA,NA\n", csv);
    else if (!usable(f)) /* never print an unverified number */
        fputs("NA,NA,NA,NA,NA,NA,NA,NA,0,NA\n", csv);
    else {
        double twice = 2.0 * (double)r->bytes;
        fprintf(csv, "%.9f,%.9f,%.9f,%.6g,%.6g,%.6g,%.6g,%.6g,1,%zu\n",
                r->seconds, r->seconds_min, r->seconds_max, r->gbps,
                twice / r->seconds_max / 1e9, twice / r->seconds_min / 1e9,
                r->copy_gbps, r->gbps / r->copy_gbps, r->extra_bytes);
    }
}

/* Runs one figure and writes its CSV row.  Returns 0 only on a runtime
 * failure (the suite stops then). */
static int run_figure(suite *s, FILE *csv, const char *shape_name,
                      bench_side from, bench_side to, size_t nfields,
                      size_t count, size_t tile, dl_algo algo, figure *f)
{
    memset(f, 0, sizeof *f);
    f->o = (bench_marshal_opts){.from = from, .to = to, .nfields = nfields,
                                .elem = 4, .tile = tile, .count = count,
                                .reps = s->reps, .algo = algo,
                                .timer = BENCH_TIMER_EVENT};
    suite_progress(s, "%s %s->%s %s T=%zu", shape_name,
                   bench_side_name(from), bench_side_name(to),
                   dl_algo_name(algo), tile);
    f->code = bench_marshal_measure(&s->cl, s->engine, &f->o, &f->r);
    if (f->code == BENCH_EXIT_FAIL) {
        fprintf(stderr, "dl-bench suite: %s %s->%s %s T=%zu failed\n",
                shape_name, bench_side_name(from), bench_side_name(to),
                dl_algo_name(algo), tile);
        return 0;
    }
    if (f->code == BENCH_EXIT_UNVERIFIED)
        s->unverified++;
    csv_row(csv, shape_name, f);
    if (usable(f) && algo != DL_ALGO_OOP) {
        double frac = (double)f->r.extra_bytes / (double)f->r.bytes;
        if (frac >= worst_extra) {
            worst_extra = frac;
            snprintf(worst_extra_what, sizeof worst_extra_what,
                     "%s %s->%s %s", shape_name, bench_side_name(from),
                     bench_side_name(to), f->r.algo);
        }
    }
    return 1;
}

/* "12.3 GB/s (0.41)" or "NA" or "unverified", for the report tables. */
static const char *cell(const figure *f, char *buf, size_t room)
{
    if (f->code == BENCH_EXIT_NA)
        snprintf(buf, room, "NA");
    else if (f->code == SKIPPED)
        snprintf(buf, room, "-");
    else if (!usable(f))
        snprintf(buf, room, "unverified");
    else
        snprintf(buf, room, "%.2f (%.2f)", f->r.gbps,
                 f->r.gbps / f->r.copy_gbps);
    return buf;
}

static size_t rows_of(const suite *s, const shape *sh)
{
    return s->quick ? sh->rows / 16 + 1 : sh->rows; /* +1: not a multiple */
}

/* ------------------------------------------------- part 2: Table 2 */

static int part_inplace(suite *s)
{
    s->part = 2;
    s->part_name = "in-place vs out-of-place";
    FILE *csv = suite_open(s, "inplace.csv");
    if (!csv)
        return 0;
    csv_header(csv);
    static const dl_algo algos[] = {DL_ALGO_OOP, DL_ALGO_BS, DL_ALGO_PTTWAC};
    static const char *const labels[] = {
        "AoS->ASTA out of place (through a temporary)",
        "AoS->ASTA barrier-sync (in place)", "AoS->ASTA PTTWAC (in place)"};
    figure f[3];
    size_t rows = s->quick ? 17281 / 16 : 17281;
    int ok = 1;
    for (int a = 0; a < 3 && ok; a++)
        ok = run_figure(s, csv, "e40r0000", BENCH_AOS, BENCH_ASTA, 64, rows,
                        16, algos[a], &f[a]);
    ok = suite_close(csv, "inplace.csv") && ok;
    FILE *r = s->report;
    fprintf(r, "\n## 2. In-place versus out-of-place (Table 2)\n\n"
               "e40r0000 in ELL: %zu rows x 64 columns of floats, "
               "AoS->ASTA(16). GB/s (ratio to the copy bandwidth measured "
               "with it). CSV: `inplace.csv`.\n\n"
               "| marshaling kernel | GB/s (ratio) | algorithm | extra "
               "device memory |\n|---|---|---|---|\n", rows);
    for (int a = 0; ok && a < 3; a++) {
        char b[64];
        fprintf(r, "| %s | %s | %s | %zu bytes |\n", labels[a],
                cell(&f[a], b, sizeof b),
                f[a].code == BENCH_EXIT_NA ? "NA" : f[a].r.algo,
                f[a].r.extra_bytes);
    }
    if (!ok)
        fputs("Failed to run (see stderr of the run).\n", r);
    return ok;
}

/* ---------------------------------------- parts 3 and 4: Table 3, Fig 7 */

/* fig[shape][algo][tile] for one conversion, two algorithms. */
typedef figure shape_grid[NSHAPES][2][NFIGT];

static int run_grid(suite *s, const char *csv_name, bench_side from,
                    const dl_algo algos[2], shape_grid grid)
{
    FILE *csv = suite_open(s, csv_name);
    if (!csv)
        return 0;
    csv_header(csv);
    int ok = 1;
    for (size_t i = 0; i < nshapes && ok; i++)
        for (int a = 0; a < 2 && ok; a++)
            for (int t = 0; t < NFIGT && ok; t++)
                if (s->quick && fig_tiles[t] == 16) /* fewer builds */
                    grid[i][a][t].code = SKIPPED;
                else
                    ok = run_figure(s, csv, ell_shapes[i].name, from,
                                    BENCH_ASTA, ell_shapes[i].cols,
                                    rows_of(s, &ell_shapes[i]), fig_tiles[t],
                                    algos[a], &grid[i][a][t]);
    return suite_close(csv, csv_name) && ok;
}

static void grid_table(suite *s, const char *names[2], shape_grid grid)
{
    FILE *r = s->report;
    fputs("| shape (rows x K) |", r);
    for (int a = 0; a < 2; a++)
        for (int t = NFIGT - 1; t >= 0; t--)
            fprintf(r, " %s T=%zu |", names[a], fig_tiles[t]);
    fputs("\n|---|", r);
    for (int c = 0; c < 2 * NFIGT; c++)
        fputs("---|", r);
    fputc('\n', r);
    for (size_t i = 0; i < nshapes; i++) {
        fprintf(r, "| %s (%zu x %zu) |", ell_shapes[i].name,
                rows_of(s, &ell_shapes[i]), ell_shapes[i].cols);
        for (int a = 0; a < 2; a++)
            for (int t = NFIGT - 1; t >= 0; t--) {
                char b[64];
                fprintf(r, " %s |", cell(&grid[i][a][t], b, sizeof b));
            }
        fputc('\n', r);
    }
}

/* max/min of GB/s across shapes for algorithm a and tile t; 0 if any
 * shape is missing. */
static double spread(shape_grid grid, int a, int t)
{
    double lo = INFINITY, hi = 0.0;
    for (size_t i = 0; i < nshapes; i++) {
        const figure *f = &grid[i][a][t];
        if (!usable(f))
            return 0.0;
        lo = fmin(lo, f->r.gbps);
        hi = fmax(hi, f->r.gbps);
    }
    return hi / lo;
}

static int write_plot_data(suite *s, shape_grid t3, shape_grid f7)
{
    FILE *d = suite_open(s, "marshal_plot.dat");
    if (!d)
        return 0;
    fputs("# shape bs16 bs32 bs64 pttwac16 pttwac32 pttwac64 pipt16 pipt32 "
          "pipt64 pttwac16 pttwac32 pttwac64 (GB/s)\n", d);
    for (size_t i = 0; i < nshapes; i++) {
        fputs(ell_shapes[i].name, d);
        for (int g = 0; g < 2; g++)
            for (int a = 0; a < 2; a++)
                for (int t = 0; t < NFIGT; t++) {
                    const figure *f = g ? &f7[i][a][t] : &t3[i][a][t];
                    if (usable(f))
                        fprintf(d, " %.4f", f->r.gbps);
                    else
                        fputs(" NaN", d);
                }
        fputc('\n', d);
    }
    return suite_close(d, "marshal_plot.dat");
}

static int part_grids(suite *s)
{
    static shape_grid t3, f7;
    memset(t3, 0, sizeof t3);
    memset(f7, 0, sizeof f7);
    static const dl_algo t3_algos[2] = {DL_ALGO_BS, DL_ALGO_PTTWAC};
    static const dl_algo f7_algos[2] = {DL_ALGO_PIPT, DL_ALGO_PTTWAC};
    static const char *t3_names[2] = {"BS", "PTTWAC"};
    static const char *f7_names[2] = {"P-IPT", "PTTWAC"};
    FILE *r = s->report;

    s->part = 3;
    s->part_name = "AoS->ASTA bs vs pttwac";
    int ok = run_grid(s, "aos_asta.csv", BENCH_AOS, t3_algos, t3);
    fputs("\n## 3. AoS->ASTA in place, BS versus PTTWAC (Table 3)\n\n"
          "The ELL shapes of the paper's Table 1 as tall arrays of floats "
          "(a record is one row of K slots). GB/s (ratio to copy); NA: the "
          "algorithm cannot do the shape on this device. CSV: "
          "`aos_asta.csv`.\n\n", r);
    if (!ok) {
        fputs("Failed to run (see stderr of the run).\n", r);
        return 0;
    }
    grid_table(s, t3_names, t3);

    s->part = 4;
    s->part_name = "DA->ASTA pipt vs pttwac";
    ok = run_grid(s, "da_asta.csv", BENCH_DA, f7_algos, f7);
    fputs("\n## 4. DA->ASTA in place, P-IPT versus PTTWAC (Figure 7)\n\n"
          "The same shapes, starting from the transposed ELL (DA). CSV: "
          "`da_asta.csv`.\n\n", r);
    if (!ok) {
        fputs("Failed to run (see stderr of the run).\n", r);
        return 0;
    }
    grid_table(s, f7_names, f7);
    fputs("\nSpread across shapes (max / min GB/s; the paper: PTTWAC within "
          "1.16x, P-IPT almost 5x):\n\n| tile | P-IPT | PTTWAC |\n"
          "|---|---|---|\n", r);
    double worst = 0.0;
    size_t worst_t = 0;
    for (int t = 0; t < NFIGT; t++) {
        if (f7[0][1][t].code == SKIPPED)
            continue;
        double p = spread(f7, 0, t), q = spread(f7, 1, t);
        fprintf(r, "| %zu | %s%.2fx | %s%.2fx |\n", fig_tiles[t],
                p > 0 ? "" : "n/a ", p, q > 0 ? "" : "n/a ", q);
        if (q == 0.0)
            worst = INFINITY;
        else if (q > worst && worst != INFINITY) {
            worst = q;
            worst_t = fig_tiles[t];
        }
    }
    if (worst == INFINITY)
        suite_target_add(s, "PTTWAC DA->ASTA spread across shapes", "<= 1.2x",
                         -1, "some shape not measured");
    else
        suite_target_add(s, "PTTWAC DA->ASTA spread across shapes", "<= 1.2x",
                         worst <= 1.2, "worst %.2fx (T=%zu)", worst, worst_t);

    /* Issue 2: DA->ASTA T=32 >= 0.3 of copy, from the PTTWAC column. */
    double lo = INFINITY, hi = 0.0;
    for (size_t i = 0; i < nshapes; i++)
        if (usable(&f7[i][1][1])) {
            double q = f7[i][1][1].r.gbps / f7[i][1][1].r.copy_gbps;
            lo = fmin(lo, q);
            hi = fmax(hi, q);
        }
    if (hi > 0)
        suite_target_add(s, "DA->ASTA, T=32 (PTTWAC, Table-1 shapes)",
                         ">= 0.3 of copy", lo >= 0.3, "%.3f .. %.3f", lo, hi);
    else
        suite_target_add(s, "DA->ASTA, T=32 (PTTWAC, Table-1 shapes)",
                         ">= 0.3 of copy", -1, "not measured");
    if (write_plot_data(s, t3, f7))
        suite_plot(s, "marshal.gp", "marshal.png",
                   "AoS->ASTA and DA->ASTA GB/s per shape");
    return 1;
}

/* ------------------------------------ part 5: full AoS<->DA and targets */

/* A sweep of one conversion pair over (S, T): records the ratio range and
 * writes one report line. */
typedef struct sweep {
    double lo, hi;
    size_t n, missing;
} sweep;

static void sweep_add(sweep *w, const figure *f)
{
    if (!usable(f)) {
        w->missing += f->code != BENCH_EXIT_NA;
        return;
    }
    double q = f->r.gbps / f->r.copy_gbps;
    if (w->n++ == 0)
        w->lo = w->hi = q;
    w->lo = fmin(w->lo, q);
    w->hi = fmax(w->hi, q);
}

static sweep sweep_merge(const sweep *a, const sweep *b)
{
    if (a->n == 0 || b->n == 0) {
        sweep m = a->n ? *a : *b;
        m.missing = a->missing + b->missing;
        return m;
    }
    return (sweep){fmin(a->lo, b->lo), fmax(a->hi, b->hi), a->n + b->n,
                   a->missing + b->missing};
}

static void sweep_target(suite *s, const char *name, const char *goal,
                         double need, const sweep *w)
{
    if (w->n == 0 || w->missing)
        suite_target_add(s, name, goal, -1, "%zu measured, %zu unverified",
                         w->n, w->missing);
    else
        suite_target_add(s, name, goal, w->lo >= need, "%.3f .. %.3f "
                         "(%zu figures)", w->lo, w->hi, w->n);
}

static int part_full(suite *s)
{
    s->part = 5;
    s->part_name = "full AoS<->DA and targets";
    FILE *csv = suite_open(s, "full.csv");
    if (!csv)
        return 0;
    csv_header(csv);
    FILE *r = s->report;
    size_t buf = s->quick ? (size_t)1 << 20 : (size_t)256 << 20;
    static const size_t full_s[] = {4, 8, 16};
    fprintf(r, "\n## 5. Full AoS<->DA, and the sweeps behind the targets\n\n"
               "Full conversions of %zu MiB buffers of floats (S fields per "
               "record), automatic algorithm. GB/s (ratio to copy). CSV: "
               "`full.csv` (also the target sweeps below).\n\n"
               "| S | records | AoS->DA | plan | DA->AoS | plan |\n"
               "|---|---|---|---|---|---|\n", buf >> 20);
    int ok = 1;
    sweep full_fwd = {0}, full_back = {0};
    for (size_t i = 0; i < 3 && ok; i++) {
        figure fwd, back;
        size_t count = buf / (full_s[i] * 4);
        ok = run_figure(s, csv, "full", BENCH_AOS, BENCH_DA, full_s[i], count,
                        0, DL_ALGO_AUTO, &fwd) &&
             run_figure(s, csv, "full", BENCH_DA, BENCH_AOS, full_s[i], count,
                        0, DL_ALGO_AUTO, &back);
        if (!ok)
            break;
        sweep_add(&full_fwd, &fwd);
        sweep_add(&full_back, &back);
        char b1[64], b2[64];
        fprintf(r, "| %zu | %zu | %s | %s | %s | %s |\n", full_s[i], count,
                cell(&fwd, b1, sizeof b1), usable(&fwd) ? fwd.r.algo : "",
                cell(&back, b2, sizeof b2), usable(&back) ? back.r.algo : "");
    }

    /* Issue 2: AoS->ASTA and back, S 2..20, T 4..64; DA->ASTA T >= 256. */
    static const size_t sweep_s[] = {2, 20, 5, 8}; /* --quick: first 2 */
    static const size_t sweep_t[] = {4, 64, 16};
    size_t ns = s->quick ? 2 : 4, nt = s->quick ? 2 : 3;
    size_t sweep_bytes = s->quick ? (size_t)256 << 10 : (size_t)64 << 20;
    sweep there = {0}, back = {0}, big = {0};
    for (size_t i = 0; i < ns && ok; i++)
        for (size_t t = 0; t < nt && ok; t++) {
            figure f;
            size_t count = sweep_bytes / (sweep_s[i] * 4) + 3;
            ok = run_figure(s, csv, "sweep", BENCH_AOS, BENCH_ASTA,
                            sweep_s[i], count, sweep_t[t], DL_ALGO_AUTO, &f);
            sweep_add(&there, &f);
            ok = ok && run_figure(s, csv, "sweep", BENCH_ASTA, BENCH_AOS,
                                  sweep_s[i], count, sweep_t[t], DL_ALGO_AUTO,
                                  &f);
            sweep_add(&back, &f);
        }
    for (size_t i = 0; i < nshapes && ok; i++) {
        figure f;
        ok = run_figure(s, csv, ell_shapes[i].name, BENCH_DA, BENCH_ASTA,
                        ell_shapes[i].cols, rows_of(s, &ell_shapes[i]), 256,
                        DL_ALGO_AUTO, &f);
        sweep_add(&big, &f);
    }
    ok = suite_close(csv, "full.csv") && ok;
    if (!ok) {
        fputs("\nFailed to run (see stderr of the run).\n", r);
        return 0;
    }
    fprintf(r, "\nTarget sweeps (ratio to copy, min .. max): AoS->ASTA "
               "%.3f .. %.3f and ASTA->AoS %.3f .. %.3f over S in {%s} x T in "
               "{%s} (%zu KiB buffers); DA->ASTA(256) %.3f .. %.3f over the "
               "shapes above.\n", there.lo, there.hi, back.lo, back.hi,
            s->quick ? "2, 20" : "2, 5, 8, 20", s->quick ? "4, 64" : "4, 16, 64",
            sweep_bytes >> 10, big.lo, big.hi);
    sweep both = sweep_merge(&there, &back);
    sweep_target(s, "AoS->ASTA and back, S 2..20, T 4..64", ">= 0.9 of copy",
                 0.9, &both);
    sweep_target(s, "DA->ASTA, T = 256 (Table-1 shapes)", ">= 0.6 of copy",
                 0.6, &big);
    sweep_target(s, "full AoS->DA, S 4, 8, 16", ">= 0.35 of copy", 0.35,
                 &full_fwd);
    sweep_target(s, "full DA->AoS, S 4, 8, 16 (no issue target)",
                 ">= 0.35 of copy", 0.35, &full_back);
    return 1;
}

int suite_marshal_run(suite *s)
{
    worst_extra = 0.0;
    ell_shapes = s->quick ? quick_shapes : all_shapes;
    nshapes = s->quick ? sizeof quick_shapes / sizeof *quick_shapes : NSHAPES;
    snprintf(worst_extra_what, sizeof worst_extra_what, "none");
    int ok = part_inplace(s);
    ok = ok && part_grids(s);
    ok = ok && part_full(s);
    suite_target_add(s, "extra device memory of in-place conversions",
                     "<= 0.1% of the buffer", ok ? worst_extra <= 0.001 : -1,
                     "worst %.4f%% (%s)", 100.0 * worst_extra,
                     worst_extra_what);
    return ok;
}

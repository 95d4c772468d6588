/* test_rt_programs.c - program sources and builds under the runtime:
 * activation macros, rejected annotations, a failing activated build,
 * DL_POLICY=never, DL_DUMP_DIR / DL_INJECT_DIR by content hash, the build
 * callback, clCreateKernelsInProgram and the stats line (its thread CPU
 * time included). */
#include "test_rt_common.h"

#include <dirent.h>
#include <pthread.h>
#include <time.h>

static int group_setup(void **state)
{
    return rt_setup(state);
}

static int group_teardown(void **state)
{
    return rt_teardown(state);
}

/* Runs kernel `name` of `p` once on n random records; `model` gives the
 * expected result. */
static void run_and_check(rt_fixture *fx, cl_program p, const char *name,
                          size_t n, void (*model)(uint32_t *, size_t))
{
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(p, name);
    rt_set_mem(k, 0, m);
    rt_run(fx->cl.queue, k, n);
    model(want, n);
    check_and_release(fx, k, m, want, n);
}

static void model_add5(uint32_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        f[2 * i] += 5u;
}

static void test_activated(void **state)
{
    rt_fixture *fx = *state;
    const char *src =
        RT_SRC_PROLOGUE RT_STEP_KERNEL("act", "asta(8)", "DL_TILE_act_f");
    RT_SNAP(s0);
    cl_program p = rt_build(fx, src);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, programs_annotated), 1);
    assert_int_equal(RT_DELTA(s1, s0, kernels_planned), 1);
    /* Planned is not transformed: only a launch of the variant counts. */
    assert_int_equal(RT_DELTA(s1, s0, kernels_transformed), 0);
    run_and_check(fx, p, "act", 29, model_step);
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, marshals), 1);
    assert_int_equal(RT_DELTA(s2, s1, unmarshals), 1);
    assert_int_equal(RT_DELTA(s2, s1, kernels_transformed), 1);
    run_and_check(fx, p, "act", 29, model_step); /* counted once */
    RT_SNAP(s3);
    assert_int_equal(RT_DELTA(s3, s2, kernels_transformed), 0);
    dl_rt_clReleaseProgram(p);
}

/* A rejected annotation: one warning naming the line, the kernel runs as
 * written, the other kernel of the program is still transformed. */
static void test_bad_annotation(void **state)
{
    rt_fixture *fx = *state;
    const char *src = RT_SRC_PROLOGUE
        "//DL: aos: nosuch[global_size(0)][2] -> asta(4)\n" /* line 2 */
        "__kernel void bad(__global uint *f) {\n"
        "  f[2 * get_global_id(0)] += 5u;\n"
        "}\n" RT_STEP_KERNEL("good", "asta(4)", "DL_TILE_good_f");
    rt_log_begin();
    RT_SNAP(s0);
    cl_program p = rt_build(fx, src);
    char *log = rt_log_end();
    RT_SNAP(s1);
    /* The program is named by its number and first line (it came from
     * no file), cut at 40 characters. */
    if (!strstr(log, " \"#define IDX(i, f, T, M) ((i) / (T) * (T)...\":2: ") ||
        !strstr(log, "warning: program ") || !strstr(log, "bad"))
        fail_msg("no warning naming line 2 of the program: '%s'", log);
    free(log);
    assert_int_equal(RT_DELTA(s1, s0, kernels_planned), 1);
    assert_int_equal(RT_DELTA(s1, s0, declined), 1);
    run_and_check(fx, p, "bad", 17, model_add5);
    run_and_check(fx, p, "good", 17, model_step);
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, marshals), 1);
    dl_rt_clReleaseProgram(p);
}

/* The activated build fails: the program runs as written, the
 * failure is logged, nothing is transformed, the output is right. */
static void test_activated_build_fails(void **state)
{
    rt_fixture *fx = *state;
    const char *src = "//DL: aos: f[global_size(0)][2] -> asta(4)\n"
                      "__kernel void broken(__global uint *f) {\n"
                      "#ifdef DL_ACTIVE_broken\n"
                      "  this is not OpenCL C;\n"
                      "#endif\n"
                      "  f[2 * get_global_id(0)] += 5u;\n"
                      "}\n";
    rt_log_begin();
    RT_SNAP(s0);
    cl_program p = rt_build(fx, src);
    char *log = rt_log_end();
    RT_SNAP(s1);
    if (!strstr(log, "activated build failed"))
        fail_msg("no build-failure warning: '%s'", log);
    /* at the source line of the error: the program's name, line 4 */
    if (!strstr(log, "\":4: the activated build failed"))
        fail_msg("the warning names no source line: '%s'", log);
    free(log);
    assert_int_equal(RT_DELTA(s1, s0, kernels_planned), 0);
    assert_int_equal(RT_DELTA(s1, s0, declined), 1);
    run_and_check(fx, p, "broken", 19, model_add5);
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, marshals), 0);
    dl_rt_clReleaseProgram(p);
}

/* Whether the activated variant of program `p` has been built. */
static int xform_built(cl_program p)
{
    rt_lock();
    rt_program *rp = rt_program_find(p);
    assert_non_null(rp);
    int built = rp->xform != NULL;
    rt_unlock();
    return built;
}

/* DL_POLICY=auto: the tuner's first two launches of a pattern run plain,
 * on the application's program (built as written); the activated variant
 * is built at the first transformed launch, not before. */
static void test_auto_builds_activated_on_demand(void **state)
{
    rt_fixture *fx = *state;
    const char *src =
        RT_SRC_PROLOGUE RT_STEP_KERNEL("lazy", "asta(4)", "DL_TILE_lazy_f");
    dl_rt_controls()->policy = DL_POLICY_AUTO;
    RT_SNAP(s0);
    cl_program p = rt_build(fx, src);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, kernels_planned), 1);
    assert_false(xform_built(p));
    const size_t n = 33;
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(p, "lazy");
    rt_set_mem(k, 0, m);
    for (int i = 0; i < 2; i++) {
        rt_run(fx->cl.queue, k, n);
        model_step(want, n);
    }
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, plain_launches), 2);
    assert_int_equal(RT_DELTA(s2, s1, marshals), 0);
    assert_false(xform_built(p));
    /* A transformed launch (forced) builds it and converts.  A kernel
     * object of its own: the first one's plain decision (its ASTA variant
     * has only the flat index, which a CPU device runs plain under auto)
     * went into its launch memo, and the policy never changes while a
     * program runs. */
    dl_rt_controls()->policy = DL_POLICY_ALWAYS;
    dl_rt_clReleaseKernel(k);
    k = rt_kernel_of(p, "lazy");
    rt_set_mem(k, 0, m);
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    RT_SNAP(s3);
    assert_int_equal(RT_DELTA(s3, s2, marshals), 1);
    assert_int_equal(RT_DELTA(s3, s2, plain_launches), 0);
    assert_true(xform_built(p));
    check_and_release(fx, k, m, want, n);
    dl_rt_clReleaseProgram(p);
}

/* DL_POLICY=auto, and the activated build fails at the first transformed
 * launch: one warning, the kernel is taken back off the transformed
 * ones, that launch and the later ones run as written. */
static void test_auto_activated_build_fails(void **state)
{
    rt_fixture *fx = *state;
    const char *src = "//DL: aos: f[global_size(0)][2] -> asta(4)\n"
                      "__kernel void broken2(__global uint *f) {\n"
                      "#ifdef DL_ACTIVE_broken2\n"
                      "  this is not OpenCL C;\n"
                      "#endif\n"
                      "  f[2 * get_global_id(0)] += 5u;\n"
                      "}\n";
    dl_rt_controls()->policy = DL_POLICY_AUTO;
    RT_SNAP(s0);
    cl_program p = rt_build(fx, src);
    dl_rt_controls()->policy = DL_POLICY_ALWAYS; /* the next launch */
    rt_log_begin();
    run_and_check(fx, p, "broken2", 21, model_add5);
    run_and_check(fx, p, "broken2", 22, model_add5);
    char *log = rt_log_end();
    RT_SNAP(s1);
    const char *first = strstr(log, "activated build failed");
    if (!first || strstr(first + 1, "activated build failed"))
        fail_msg("not one build-failure warning: '%s'", log);
    free(log);
    assert_int_equal(RT_DELTA(s1, s0, kernels_planned), 0);
    assert_int_equal(RT_DELTA(s1, s0, declined), 1);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 0);
    assert_false(xform_built(p));
    dl_rt_clReleaseProgram(p);
}

/* A kernel whose active branch carries dl-annotate's hint of the launch's
 * global range, and a guard that the hint lets the compiler drop: records
 * 48 and up never change. */
#define RT_BOUNDED_KERNEL(name)                                                \
    "//DL: aos: f[64][2] -> da\n"                                              \
    "__kernel void " name "(__global uint *f) {\n"                             \
    "#ifdef DL_ACTIVE_" name "\n"                                              \
    "#ifdef DL_GLOBAL_END_" name "\n"                                          \
    "  DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_" name ");\n"                       \
    "#endif\n"                                                                 \
    "  size_t i = get_global_id(0), ix = i, iy = 64 + i;\n"                    \
    "#else\n"                                                                  \
    "  size_t i = get_global_id(0), ix = 2 * i, iy = 2 * i + 1;\n"             \
    "#endif\n"                                                                 \
    "  if (i >= 48) return;\n"                                                 \
    "  uint x = f[ix], y = f[iy];\n"                                           \
    "  f[ix] = x * 3u + y;\n"                                                  \
    "  f[iy] = y ^ (x * 3u + y);\n"                                            \
    "}\n"

/* The build options of the variant that k runs transformed, and the
 * bound the runtime holds for it.  The caller frees the text. */
static char *xform_options(cl_kernel k, rt_global_end *bound)
{
    rt_lock();
    rt_kernel *rk = rt_kernel_find(k);
    assert_non_null(rk);
    assert_non_null(rk->xform);
    cl_kernel xform = rk->xform;
    *bound = rk->xform_bound;
    rt_unlock();
    cl_program prog = NULL;
    assert_int_equal(
        clGetKernelInfo(xform, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL),
        CL_SUCCESS);
    char *text = calloc(1, 4096);
    assert_non_null(text);
    cl_device_id dev = NULL;
    assert_int_equal(
        clGetProgramInfo(prog, CL_PROGRAM_DEVICES, sizeof dev, &dev, NULL),
        CL_SUCCESS);
    assert_int_equal(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS,
                                           4095, text, NULL),
                     CL_SUCCESS);
    return text;
}

static void model_step48(uint32_t *f, size_t n)
{
    model_step(f, n < 48 ? n : 48);
}

/* The variant built at the first transformed launch is specialised for
 * the range of that launch (DL_GLOBAL_END_<kernel>); smaller launches
 * share it, a wider one gets the variant built without a bound, and so
 * does every other kernel of the program. */
static void test_bounded_variant(void **state)
{
    rt_fixture *fx = *state;
    const char *src =
        "#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (get_global_id(0) >= "
        "(e0) || get_global_id(1) >= (e1) || get_global_id(2) >= (e2)) "
        "__builtin_unreachable()\n"
        "#define DLA_ASSUME_GLOBAL_END(e) "
        "DLA_ASSUME_GLOBAL_END_(e)\n" RT_BOUNDED_KERNEL("bounded")
            RT_BOUNDED_KERNEL("bounded2");
    dl_rt_controls()->policy = DL_POLICY_AUTO; /* built on demand */
    cl_program p = rt_build(fx, src);
    dl_rt_controls()->policy = DL_POLICY_ALWAYS;
    const size_t n = 64;
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(p, "bounded");
    rt_set_mem(k, 0, m);
    rt_run(fx->cl.queue, k, 40);
    model_step48(want, 40);
    rt_global_end bound;
    char *options = xform_options(k, &bound);
    assert_non_null(strstr(options, "-DDL_GLOBAL_END_bounded=40UL,1UL,1UL"));
    assert_true(bound.set);
    assert_int_equal(bound.end[0], 40);
    assert_int_equal(bound.end[1], 1);
    assert_int_equal(bound.end[2], 1);
    free(options);
    rt_lock();
    cl_kernel first = rt_kernel_find(k)->xform;
    rt_unlock();
    rt_run(fx->cl.queue, k, 30);
    model_step48(want, 30);
    rt_lock();
    assert_ptr_equal(rt_kernel_find(k)->xform, first);
    rt_unlock();
    /* Past the bound.  Had it run the variant built for 40 work-items,
     * the compiler could have dropped the guard of records 48 and up. */
    for (int i = 0; i < 2; i++) {
        rt_run(fx->cl.queue, k, 64);
        model_step48(want, 64);
        options = xform_options(k, &bound);
        assert_null(strstr(options, "DL_GLOBAL_END"));
        assert_false(bound.set);
        free(options);
    }
    rt_run(fx->cl.queue, k, 40);
    model_step48(want, 40);
    cl_kernel k2 = rt_kernel_of(p, "bounded2");
    rt_set_mem(k2, 0, m);
    rt_run(fx->cl.queue, k2, 20);
    model_step48(want, 20);
    options = xform_options(k2, &bound);
    assert_null(strstr(options, "DL_GLOBAL_END_bounded2"));
    assert_false(bound.set);
    free(options);
    dl_rt_clReleaseKernel(k2);
    check_and_release(fx, k, m, want, n);
    dl_rt_clReleaseProgram(p);
}

static void test_policy_never(void **state)
{
    rt_fixture *fx = *state;
    const char *src =
        RT_SRC_PROLOGUE RT_STEP_KERNEL("nev", "asta(4)", "DL_TILE_nev_f");
    dl_rt_controls()->policy = DL_POLICY_NEVER;
    RT_SNAP(s0);
    cl_program p = rt_build(fx, src);
    dl_rt_controls()->policy = DL_POLICY_ALWAYS;
    run_and_check(fx, p, "nev", 23, model_step);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, kernels_planned), 0);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 0);
    dl_rt_clReleaseProgram(p);
}

/* DL_TILE overrides the annotation's tile: the kernel is built with it
 * and the buffer is converted with it. */
static void test_tile_override(void **state)
{
    rt_fixture *fx = *state;
    const char *src = RT_SRC_PROLOGUE RT_STEP_KERNEL("tiled", "asta(auto)",
                                                     "DL_TILE_tiled_f");
    dl_rt_controls()->tile = 16;
    cl_program p = rt_build(fx, src);
    dl_rt_controls()->tile = DL_CONTROL_TILE_AUTO;
    const size_t n = 40;
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(p, "tiled");
    rt_set_mem(k, 0, m);
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    rt_expect_raw(fx, m, want, n, 16);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(m);
    dl_rt_clReleaseProgram(p);
    free(want);
}

static int notified;
static void CL_CALLBACK on_built(cl_program p, void *user)
{
    (void)p;
    notified += *(int *)user;
}

static void test_build_callback_and_create_all(void **state)
{
    rt_fixture *fx = *state;
    const char *src =
        RT_SRC_PROLOGUE RT_STEP_KERNEL("cb", "asta(4)", "DL_TILE_cb_f");
    cl_int err = CL_SUCCESS;
    cl_program p =
        dl_rt_clCreateProgramWithSource(fx->cl.context, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    int one = 1;
    notified = 0;
    assert_int_equal(dl_rt_clBuildProgram(p, 0, NULL, NULL, on_built, &one),
                     CL_SUCCESS);
    assert_int_equal(notified, 1);
    cl_kernel k = NULL;
    cl_uint nk = 0;
    assert_int_equal(dl_rt_clCreateKernelsInProgram(p, 1, &k, &nk), CL_SUCCESS);
    assert_int_equal(nk, 1);
    rt_lock();
    rt_kernel *rk = rt_kernel_find(k);
    int transformed = rk && rk->transformed;
    rt_unlock();
    assert_true(transformed);
    const size_t n = 12;
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    rt_set_mem(k, 0, m);
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    check_and_release(fx, k, m, want, n);
    dl_rt_clReleaseProgram(p);
}

/* DL_DUMP_DIR writes the source under its hash; DL_INJECT_DIR builds the
 * file of that name instead. */
static void test_dump_and_inject(void **state)
{
    rt_fixture *fx = *state;
    char dir[] = "/tmp/dl-rt-dump-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *src = "__kernel void dumped(__global uint *f) {\n"
                      "  f[2 * get_global_id(0)] += 1u;\n"
                      "}\n";
    dl_controls *ctl = dl_rt_controls();
    ctl->dump_dir = strdup(dir);
    cl_int err = CL_SUCCESS;
    cl_program p =
        dl_rt_clCreateProgramWithSource(fx->cl.context, 1, &src, NULL, &err);
    free(ctl->dump_dir);
    ctl->dump_dir = NULL;
    assert_int_equal(err, CL_SUCCESS);
    dl_rt_clReleaseProgram(p);
    DIR *d = opendir(dir);
    assert_non_null(d);
    char name[256] = "";
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            snprintf(name, sizeof name, "%s", e->d_name);
    closedir(d);
    assert_int_equal(strlen(name), 19); /* 16 hex digits + ".cl" */
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[512] = "";
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    assert_int_equal(len, strlen(src));
    assert_string_equal(text, src);

    /* Inject an annotated, rewritten version under the same name. */
    const char *rewritten =
        RT_SRC_PROLOGUE RT_STEP_KERNEL("dumped", "asta(4)", "DL_TILE_dumped_f");
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(rewritten, f);
    fclose(f);
    ctl->inject_dir = strdup(dir);
    RT_SNAP(s0);
    p = dl_rt_clCreateProgramWithSource(fx->cl.context, 1, &src, NULL, &err);
    free(ctl->inject_dir);
    ctl->inject_dir = NULL;
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(dl_rt_clBuildProgram(p, 0, NULL, "", NULL, NULL),
                     CL_SUCCESS);
    run_and_check(fx, p, "dumped", 21, model_step);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, programs_annotated), 1);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 1);
    dl_rt_clReleaseProgram(p);
    unlink(path);
    rmdir(dir);
}

/* Under DL_DUMP_DIR, messages name the dumped file, whose lines they
 * count. */
static void test_dump_names_messages(void **state)
{
    rt_fixture *fx = *state;
    char dir[] = "/tmp/dl-rt-dumpname-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *src = RT_SRC_PROLOGUE
        "//DL: aos: nosuch[global_size(0)][2] -> asta(4)\n" /* line 2 */
        "__kernel void bad(__global uint *f) {\n"
        "  f[2 * get_global_id(0)] += 5u;\n"
        "}\n";
    dl_controls *ctl = dl_rt_controls();
    ctl->dump_dir = strdup(dir);
    rt_log_begin();
    cl_int err = CL_SUCCESS;
    cl_program p =
        dl_rt_clCreateProgramWithSource(fx->cl.context, 1, &src, NULL, &err);
    char *log = rt_log_end();
    free(ctl->dump_dir);
    ctl->dump_dir = NULL;
    assert_int_equal(err, CL_SUCCESS);
    char want[128];
    snprintf(want, sizeof want, "warning: %s/", dir);
    const char *at = strstr(log, want);
    /* DIR/ + 16 hex digits + ".cl:2: " */
    if (!at || strncmp(at + strlen(want) + 16, ".cl:2: ", 7) != 0)
        fail_msg("the warning does not name the dumped file: '%s'", log);
    free(log);
    dl_rt_clReleaseProgram(p);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(dir);
}

/* Programs without annotations are not tracked at all. */
static void test_plain_program_untracked(void **state)
{
    rt_fixture *fx = *state;
    const char *src = "__kernel void add5(__global uint *f) {\n"
                      "  f[2 * get_global_id(0)] += 5u;\n"
                      "}\n";
    RT_SNAP(s0);
    cl_program p = rt_build(fx, src);
    rt_lock();
    int tracked = rt_program_find(p) != NULL;
    rt_unlock();
    assert_false(tracked);
    run_and_check(fx, p, "add5", 10, model_add5);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, programs_annotated), 0);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 0);
    dl_rt_clReleaseProgram(p);
}

/* The binary of a program built transformed is that of the program as
 * written: a program created from it runs on AoS data. */
static void test_binary_is_plain(void **state)
{
    rt_fixture *fx = *state;
    const char *src =
        RT_SRC_PROLOGUE RT_STEP_KERNEL("bin", "asta(4)", "DL_TILE_bin_f");
    cl_program p = rt_build(fx, src);
    size_t size = 0;
    assert_int_equal(
        clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
        CL_SUCCESS);
    assert_true(size > 0);
    unsigned char *bin = malloc(size);
    assert_non_null(bin);
    assert_int_equal(
        clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL),
        CL_SUCCESS);
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    const unsigned char *bins[1] = {bin};
    cl_program pb = clCreateProgramWithBinary(fx->cl.context, 1, &fx->cl.device,
                                              &size, bins, &status, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(
        dl_rt_clBuildProgram(pb, 1, &fx->cl.device, "", NULL, NULL),
        CL_SUCCESS);
    /* The source program's kernel transforms the buffer; the binary's
     * kernel must get it back in AoS and compute the same. */
    const size_t n = 27;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel ks = rt_kernel_of(p, "bin"), kb = rt_kernel_of(pb, "bin");
    rt_set_mem(ks, 0, m);
    rt_set_mem(kb, 0, m);
    rt_run(fx->cl.queue, ks, n);
    rt_run(fx->cl.queue, kb, n);
    rt_run(fx->cl.queue, ks, n);
    for (int i = 0; i < 3; i++)
        model_step(want, n);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    dl_rt_clReleaseKernel(ks);
    dl_rt_clReleaseKernel(kb);
    dl_rt_clReleaseMemObject(m);
    dl_rt_clReleaseProgram(pb);
    dl_rt_clReleaseProgram(p);
    free(bin);
    free(want);
    free(got);
}

static void test_stats_line(void **state)
{
    (void)state;
    rt_stats s = {.programs_annotated = 1,
                  .kernels_planned = 2,
                  .kernels_transformed = 1,
                  .launches = 3,
                  .marshals = 4,
                  .unmarshals = 5,
                  .bytes_marshaled = 6,
                  .marshal_ns = 7500000,
                  .declined = 8,
                  .plain_launches = 9,
                  .self_ns = 1250000,
                  .tuner_wait_ns = 1000000,
                  .thread_cpu_ns = 2000000,
                  .device_ns = 500000};
    char line[640];
    dl_rt_format_stats(&s, line, sizeof line);
    const char *want = "dlayout-stats: programs_annotated=1 "
                       "kernels_planned=2 kernels_transformed=1 launches=3 "
                       "marshals=4 unmarshals=5 bytes_marshaled=6 "
                       "marshal_enqueue_ms=7.500 declined=8";
    if (strncmp(line, want, strlen(want)) != 0)
        fail_msg("stats line '%s'", line);
    /* dlayout's own time ends the line (rt_self.c). */
    const char *own = " self_ms=1.250 tuner_wait_ms=1.000 thread_cpu_ms=2.000 "
                      "device_ms=0.500";
    size_t n = strlen(line), m = strlen(own);
    if (n < m || strcmp(line + n - m, own) != 0)
        fail_msg("stats line '%s'", line);
}

/* A thread of dlayout's adds the CPU time it used to thread_cpu_ms when
 * it ends (rt_stats_thread_done), once: a second call adds only what it
 * used since. */
static void *busy_thread(void *arg)
{
    volatile uint64_t *sink = arg;
    struct timespec ts, until;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &until);
    until.tv_nsec += 2000000; /* 2 ms of CPU */
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    do {
        for (int i = 0; i < 1000; i++)
            *sink += (uint64_t)i;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    } while (ts.tv_sec < until.tv_sec ||
             (ts.tv_sec == until.tv_sec && ts.tv_nsec < until.tv_nsec));
    rt_stats_thread_done();
    rt_stats s;
    dl_rt_get_stats(&s);
    sink[1] = s.thread_cpu_ns;
    rt_stats_thread_done();
    return NULL;
}

static void test_stats_thread_cpu(void **state)
{
    (void)state;
    RT_SNAP(before);
    uint64_t sink[2] = {0, 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, busy_thread, sink), 0);
    pthread_join(t, NULL);
    RT_SNAP(after);
    uint64_t first = sink[1] - before.thread_cpu_ns;
    assert_true(first >= 2000000);
    /* The second call added only the few instructions in between. */
    assert_true(after.thread_cpu_ns - sink[1] < first);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_activated),
        cmocka_unit_test(test_bad_annotation),
        cmocka_unit_test(test_activated_build_fails),
        cmocka_unit_test(test_auto_builds_activated_on_demand),
        cmocka_unit_test(test_auto_activated_build_fails),
        cmocka_unit_test(test_bounded_variant),
        cmocka_unit_test(test_policy_never),
        cmocka_unit_test(test_tile_override),
        cmocka_unit_test(test_build_callback_and_create_all),
        cmocka_unit_test(test_dump_and_inject),
        cmocka_unit_test(test_dump_names_messages),
        cmocka_unit_test(test_plain_program_untracked),
        cmocka_unit_test(test_binary_is_plain),
        cmocka_unit_test(test_stats_line),
        cmocka_unit_test(test_stats_thread_cpu),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

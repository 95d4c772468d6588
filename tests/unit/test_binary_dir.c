/* test_binary_dir.c - DL_BINARY_DIR: marshal programs kept as binaries
 * (runtime/core/engine.c).  A second engine must load them instead of building
 * from source, and every damaged, foreign or unusable directory must fall
 * back to a source build with a warning: in all cases the conversions stay
 * bit-exact.  The deferred mode (the default cache) stores nothing until
 * dl_engine_store_pending, and then only what fits its budget. */
#include "dl_test.h"
#include "internal.h"
#include "log.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];
static char log_path[300];

/* One engine, AoS -> DA of 100,000 records and back, checked against the
 * host reference: two programs on CPU devices, bs.cl and
 * staged_cycles.cl, each with both directions.  Returns how many of the
 * engine's programs were loaded from the directory (the rest were built
 * from source). */
static uint64_t convert_with(const dl_test_cl *cl, dl_engine *e);

static uint64_t convert_checked(const dl_test_cl *cl)
{
    dl_engine *e;
    assert_int_equal(dl_engine_create(cl->context, cl->device, &e), DL_SUCCESS);
    uint64_t loaded = convert_with(cl, e);
    dl_engine_release(e);
    return loaded;
}

/* The same on a given engine, kept. */
static uint64_t convert_with(const dl_test_cl *cl, dl_engine *e)
{
    dl_record *rec = dl_test_record(3);
    const size_t m = 100000;
    size_t bytes = m * dl_record_size(rec);
    unsigned char *in = malloc(bytes), *want = malloc(bytes);
    unsigned char *got = malloc(bytes);
    assert_true(in && want && got);
    dl_test_fill(in, bytes);
    memcpy(want, in, bytes);
    dl_layout aos = dl_layout_aos(rec, m), da = dl_layout_da(rec, m);
    assert_int_equal(dl_convert_host(want, bytes, &aos, &da), DL_SUCCESS);

    cl_mem buf = dl_test_buffer(cl, in, bytes);
    assert_int_equal(dl_enqueue_convert(e, cl->queue, buf, &aos, &da,
                                        DL_ALGO_AUTO, 0, NULL, NULL),
                     DL_SUCCESS);
    dl_test_read(cl, buf, got, bytes);
    assert_memory_equal(got, want, bytes);
    assert_int_equal(dl_enqueue_convert(e, cl->queue, buf, &da, &aos,
                                        DL_ALGO_AUTO, 0, NULL, NULL),
                     DL_SUCCESS);
    dl_test_read(cl, buf, got, bytes);
    assert_memory_equal(got, in, bytes);
    clReleaseMemObject(buf);
    dl_engine_stats st;
    dl_engine_get_stats(e, &st);
    assert_true(st.programs_built > 0);
    uint64_t loaded = e->programs_loaded;
    assert_true(loaded <= st.programs_built);
    dl_record_release(rec);
    free(in);
    free(want);
    free(got);
    return loaded;
}

/* Applies fn to every file of the directory whose name ends in `suffix`
 * ("" for all); returns how many. */
static int each_named(void (*fn)(const char *path), const char *suffix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        size_t len = strlen(ent->d_name), slen = strlen(suffix);
        if (ent->d_name[0] == '.' || len < slen ||
            strcmp(ent->d_name + len - slen, suffix) != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        if (fn)
            fn(path);
        n++;
    }
    closedir(d);
    return n;
}

/* The stored programs. */
static int each_file(void (*fn)(const char *path))
{
    return each_named(fn, ".clbin");
}

static void truncate_half(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size / 2), 0);
}

static void flip_middle_byte(const char *path)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, size / 2, SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

/* A file of another program under this name (what a hash collision or
 * a stray copy looks like): a byte of the key text is changed. */
static void change_key(const char *path)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 8 + 3, SEEK_SET); /* after the key length, inside the magic */
    int c = fgetc(f);
    fseek(f, 8 + 3, SEEK_SET);
    fputc(c ^ 0x20, f);
    fclose(f);
}

static void remove_file(const char *path)
{
    unlink(path);
}

/* Sends warnings to a fresh log file; log_says() reads it back. */
static void capture_log(void)
{
    unlink(log_path);
    assert_int_equal(dl_log_configure(DL_LOG_LEVEL_WARN, log_path), DL_SUCCESS);
}

static int log_says(const char *what)
{
    dl_log_close();
    FILE *f = fopen(log_path, "r");
    if (!f)
        return 0;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(log_path);
    return strstr(text, what) != NULL;
}

static int setup(void **state)
{
    static dl_test_cl cl;
    if (dl_test_cl_open(&cl) != 0)
        return -1;
    dl_test_seed("binary_dir");
    const char *base = getenv("XDG_CACHE_HOME");
    snprintf(dir, sizeof dir, "%s/dl-binary-test-%ld", base ? base : "/tmp",
             (long)getpid());
    mkdir(base ? base : "/tmp", 0700);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(log_path, sizeof log_path, "%s.log", dir);
    *state = &cl;
    return 0;
}

static int teardown(void **state)
{
    each_named(remove_file, "");
    rmdir(dir);
    dl_engine_set_binary_dir(NULL);
    dl_test_cl_close(*state);
    return 0;
}

static void test_store_then_load(void **state)
{
    dl_engine_set_binary_dir(dir);
    assert_int_equal(convert_checked(*state), 0); /* builds and stores */
    int stored = each_file(NULL);
    assert_true(stored > 0);
    assert_int_equal(convert_checked(*state), stored); /* loads them all */
    assert_int_equal(each_file(NULL), stored);
}

static void test_damaged_files_fall_back(void **state)
{
    dl_engine_set_binary_dir(dir);
    convert_checked(*state);
    assert_true(each_file(truncate_half) > 0);
    /* truncated: refused, rebuilt and stored again */
    assert_int_equal(convert_checked(*state), 0);
    assert_true(each_file(flip_middle_byte) > 0);
    /* corrupted: the checksum refuses them, with a warning */
    capture_log();
    assert_int_equal(convert_checked(*state), 0);
    assert_true(log_says("damaged"));
    /* and the rewritten files load */
    assert_int_equal(convert_checked(*state), each_file(NULL));
}

static void test_foreign_files_fall_back(void **state)
{
    dl_engine_set_binary_dir(dir);
    convert_checked(*state);
    int stored = each_file(change_key);
    assert_true(stored > 0);
    capture_log();
    assert_int_equal(convert_checked(*state), 0); /* refused, rebuilt */
    assert_true(log_says("not written for this program"));
    assert_int_equal(convert_checked(*state), stored); /* replaced */
}

/* The default cache: nothing is written while the program runs; the exit
 * store keeps only what fits its budget, and the rest is built again.  An
 * engine released before the exit takes its programs off the list. */
static void test_deferred_store(void **state)
{
    const dl_test_cl *cl = *state;
    each_named(remove_file, "");
    dl_engine_set_binary_cache(dir, 1);
    assert_int_equal(convert_checked(cl), 0); /* released: forgotten */
    assert_int_equal(dl_engine_store_pending(1e9), 0);
    assert_int_equal(each_file(NULL), 0);

    dl_engine *e;
    assert_int_equal(dl_engine_create(cl->context, cl->device, &e), DL_SUCCESS);
    assert_int_equal(convert_with(cl, e), 0);
    assert_int_equal(each_file(NULL), 0);              /* nothing yet */
    assert_int_equal(dl_engine_store_pending(0.0), 0); /* no budget */
    assert_int_equal(each_file(NULL), 0);
    assert_int_equal(dl_engine_store_pending(1e9), 0); /* list emptied */
    dl_engine_release(e);

    assert_int_equal(dl_engine_create(cl->context, cl->device, &e), DL_SUCCESS);
    assert_int_equal(convert_with(cl, e), 0); /* built, pending again */
    unsigned stored = dl_engine_store_pending(1e9);
    assert_true(stored > 0);
    assert_int_equal(each_file(NULL), (int)stored);
    dl_engine_release(e);
    assert_int_equal(convert_checked(cl), stored); /* loaded */
    /* a loaded program is not stored again */
    assert_int_equal(dl_engine_store_pending(1e9), 0);
}

/* A program that run after run is built from source is stored by its
 * third run even without budget, one program per run. */
static void test_recurring_program_stored(void **state)
{
    const dl_test_cl *cl = *state;
    each_named(remove_file, "");
    dl_engine_set_binary_cache(dir, 1);
    unsigned built = 0;
    for (int run = 1; run <= 3; run++) {
        dl_engine *e;
        assert_int_equal(dl_engine_create(cl->context, cl->device, &e),
                         DL_SUCCESS);
        assert_int_equal(convert_with(cl, e), 0);
        dl_engine_stats st;
        dl_engine_get_stats(e, &st);
        built = (unsigned)st.programs_built;
        assert_int_equal(dl_engine_store_pending(0.0), run == 3 ? 1 : 0);
        dl_engine_release(e);
        assert_int_equal(each_named(NULL, ".seen"),
                         run == 3 ? (int)built - 1 : (int)built);
    }
    assert_true(built > 1);
    assert_int_equal(each_file(NULL), 1);
    /* the next run loads that one and stores the next */
    dl_engine *e;
    assert_int_equal(dl_engine_create(cl->context, cl->device, &e), DL_SUCCESS);
    assert_int_equal(convert_with(cl, e), 1);
    assert_int_equal(dl_engine_store_pending(0.0), 1);
    dl_engine_release(e);
    assert_int_equal(each_file(NULL), 2);
    /* a damaged count is read as none */
    FILE *f = NULL;
    DIR *d = opendir(dir);
    struct dirent *ent;
    char path[512];
    while ((ent = readdir(d)))
        if (strstr(ent->d_name, ".seen")) {
            snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
            f = fopen(path, "w");
            fputs("garbage\n", f);
            fclose(f);
        }
    closedir(d);
    assert_int_equal(dl_engine_create(cl->context, cl->device, &e), DL_SUCCESS);
    assert_int_equal(convert_with(cl, e), 2);
    assert_int_equal(dl_engine_store_pending(0.0), 0); /* counts restart */
    dl_engine_release(e);
    assert_int_equal(each_file(NULL), 2);
}

/* A path below a regular file cannot be created, not even by root. */
static void test_unusable_directory(void **state)
{
    char regular[300], below[340];
    snprintf(regular, sizeof regular, "%s/not-a-directory", dir);
    snprintf(below, sizeof below, "%s/dlayout/binaries", regular);
    FILE *f = fopen(regular, "w");
    assert_non_null(f);
    fclose(f);
    dl_engine_set_binary_dir(below);
    assert_int_equal(convert_checked(*state), 0);
    assert_int_equal(convert_checked(*state), 0);
    dl_engine_set_binary_dir(regular);
    assert_int_equal(convert_checked(*state), 0);
    unlink(regular);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_then_load),
        cmocka_unit_test(test_damaged_files_fall_back),
        cmocka_unit_test(test_foreign_files_fall_back),
        cmocka_unit_test(test_deferred_store),
        cmocka_unit_test(test_recurring_program_stored),
        cmocka_unit_test(test_unusable_directory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

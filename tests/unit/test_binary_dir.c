/* test_binary_dir.c - DL_BINARY_DIR: marshal programs kept as binaries
 * (runtime/engine.c).  A second engine must load them instead of building
 * from source, and every damaged, foreign or unusable directory must fall
 * back to a source build: in all cases the conversions stay bit-exact. */
#include "dl_test.h"
#include "internal.h"

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

/* One engine, AoS -> DA of 1003 mixed records and back, checked against
 * the host reference; returns how many of the engine's programs were
 * loaded from the directory (the rest were built from source). */
static uint64_t convert_checked(const dl_test_cl *cl)
{
    dl_record *rec = dl_test_record(3);
    const size_t m = 1003;
    size_t bytes = m * dl_record_size(rec);
    unsigned char *in = malloc(bytes), *want = malloc(bytes);
    unsigned char *got = malloc(bytes);
    assert_true(in && want && got);
    dl_test_fill(in, bytes);
    memcpy(want, in, bytes);
    dl_layout aos = dl_layout_aos(rec, m), da = dl_layout_da(rec, m);
    assert_int_equal(dl_convert_host(want, bytes, &aos, &da), DL_SUCCESS);

    dl_engine *e;
    assert_int_equal(dl_engine_create(cl->context, cl->device, &e),
                     DL_SUCCESS);
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
    dl_engine_release(e);
    dl_record_release(rec);
    free(in);
    free(want);
    free(got);
    return loaded;
}

/* Applies fn to every file of the directory; returns how many. */
static int each_file(void (*fn)(const char *path))
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.')
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

static void remove_file(const char *path) { unlink(path); }

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
    *state = &cl;
    return 0;
}

static int teardown(void **state)
{
    each_file(remove_file);
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
    /* corrupted: the checksum refuses them */
    assert_int_equal(convert_checked(*state), 0);
    /* and the rewritten files load */
    assert_int_equal(convert_checked(*state), each_file(NULL));
}

static void test_unusable_directory(void **state)
{
    dl_engine_set_binary_dir("/nonexistent/dlayout/binaries");
    assert_int_equal(convert_checked(*state), 0);
    char regular[300];
    snprintf(regular, sizeof regular, "%s/not-a-directory", dir);
    FILE *f = fopen(regular, "w");
    assert_non_null(f);
    fclose(f);
    dl_engine_set_binary_dir(regular);
    assert_int_equal(convert_checked(*state), 0);
    unlink(regular);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_then_load),
        cmocka_unit_test(test_damaged_files_fall_back),
        cmocka_unit_test(test_unusable_directory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

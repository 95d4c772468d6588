/* test_tuner_calib.c - the calibration cache file (round trip, corrupt,
 * truncated and foreign files, the path rules) and the static choice of
 * the ASTA(T) family member from a calibration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tuner.h"
#include "tuner_calib.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/dl-test-calib-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A calibration shaped like POCL here: DA 2.4x faster than AoS at 19
 * words, ASTA slower, DA no better at 4 words. */
static void sample(dl_calibration *c)
{
    memset(c, 0, sizeof *c);
    dl_calib_set_identity(c, "Portable Computing Language", "cpu-x86-64",
                          "5.0+debian");
    c->copy_bytes_per_ns = 6.5;
    c->measure_ms = 1234.5;
    c->build_ms = 61.5;
    const dl_calib_access a[] = {
        {4, 1, 1.0},  {4, DL_CALIB_TILE_DA, 1.0},  {4, 4, 1.5},
        {4, 8, 1.4},  {19, 1, 4.8},  {19, DL_CALIB_TILE_DA, 2.0},
        {19, 4, 6.0}, {19, 8, 5.0},
    };
    memcpy(c->access, a, sizeof a);
    c->naccess = sizeof a / sizeof *a;
    c->convert[0] = (dl_calib_convert){DL_ALGO_AUTO, 19, DL_CALIB_TILE_DA,
                                       1.5, 4};
    c->convert[1] = (dl_calib_convert){DL_ALGO_BS, 8, 8, 3.0, 4};
    /* a record of mixed fields: 25x slower */
    c->convert[2] = (dl_calib_convert){DL_ALGO_AUTO, 6, 8, 0.12, 1};
    c->nconvert = 3;
}

static void path_in_dir(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/sub/dir/%s", dir, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void **state)
{
    (void)state;
    dl_calibration c, back;
    sample(&c);
    char path[400];
    path_in_dir(path, sizeof path, "cal.txt");
    assert_int_equal(dl_calib_save(path, &c), DL_SUCCESS);
    memset(&back, 0x5a, sizeof back);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_SUCCESS);
    assert_string_equal(back.platform, c.platform);
    assert_string_equal(back.device, c.device);
    assert_string_equal(back.driver, c.driver);
    assert_true(back.key == c.key);
    assert_int_equal(back.naccess, c.naccess);
    assert_int_equal(back.nconvert, c.nconvert);
    for (unsigned i = 0; i < c.naccess; i++) {
        assert_int_equal(back.access[i].words, c.access[i].words);
        assert_int_equal(back.access[i].tile, c.access[i].tile);
        assert_true(back.access[i].ns_per_record == c.access[i].ns_per_record);
    }
    assert_int_equal(back.convert[1].algo, DL_ALGO_BS);
    assert_int_equal(back.convert[2].min_field, 1);
    assert_int_equal(back.convert[0].tile, DL_CALIB_TILE_DA);
    assert_true(back.copy_bytes_per_ns == 6.5);
    assert_true(back.build_ms == 61.5);
    /* Without an expected identity any valid file loads. */
    assert_int_equal(dl_calib_load(path, NULL, &back), DL_SUCCESS);
}

static void test_missing_corrupt_truncated(void **state)
{
    (void)state;
    dl_calibration c, back;
    sample(&c);
    char path[400];
    path_in_dir(path, sizeof path, "none.txt");
    assert_int_equal(dl_calib_load(path, &c, &back), DL_UNSUPPORTED);

    path_in_dir(path, sizeof path, "cal.txt");
    assert_int_equal(dl_calib_save(path, &c), DL_SUCCESS);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);

    /* Garbage. */
    write_text(path, "\x7f" "ELF\x01\x02 binary junk\n");
    assert_int_equal(dl_calib_load(path, &c, &back), DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), ":1:"));
    /* Truncated: no "end". */
    char cut[8192];
    snprintf(cut, sizeof cut, "%.*s", (int)(strstr(text, "access") - text),
             text);
    write_text(path, cut);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_INVALID_ARGUMENT);
    /* A bad value on one line. */
    char bad[8192];
    snprintf(bad, sizeof bad, "%s", text);
    char *copy = strstr(bad, "\ncopy ");
    assert_non_null(copy);
    memcpy(copy + 6, "-1.0 ", 5);
    write_text(path, bad);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_INVALID_ARGUMENT);
    /* Another version: a later one is not ours, an older one is measured
     * again without a warning (DL_UNSUPPORTED, as a missing file). */
    snprintf(bad, sizeof bad, "%s", text);
    char *ver = strstr(bad, "version 2");
    assert_non_null(ver);
    ver[8] = '9';
    write_text(path, bad);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_INVALID_ARGUMENT);
    ver[8] = '1';
    write_text(path, bad);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_UNSUPPORTED);
    /* Saving again repairs it. */
    assert_int_equal(dl_calib_save(path, &c), DL_SUCCESS);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_SUCCESS);
}

static void test_foreign(void **state)
{
    (void)state;
    dl_calibration c, other, back;
    sample(&c);
    other = c;
    dl_calib_set_identity(&other, c.platform, c.device, "6.0+debian");
    assert_true(other.key != c.key);
    char path[400];
    path_in_dir(path, sizeof path, "cal.txt");
    assert_int_equal(dl_calib_save(path, &other), DL_SUCCESS);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_INCOMPATIBLE);
    /* A key line that does not match the names is foreign too. */
    other = c;
    other.key ^= 1;
    assert_int_equal(dl_calib_save(path, &other), DL_SUCCESS);
    assert_int_equal(dl_calib_load(path, NULL, &back), DL_INCOMPATIBLE);
}

static void test_path(void **state)
{
    (void)state;
    char buf[512];
    const char *old_xdg = getenv("XDG_CACHE_HOME");
    char *saved = old_xdg ? strdup(old_xdg) : NULL;
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    assert_int_equal(dl_calib_path(0xabcull, buf, sizeof buf), DL_SUCCESS);
    assert_string_equal(buf, "/x/cache/dlayout/calibration-0000000000000abc.txt");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/u", 1);
    assert_int_equal(dl_calib_path(0xabcull, buf, sizeof buf), DL_SUCCESS);
    assert_string_equal(buf,
                        "/home/u/.cache/dlayout/calibration-0000000000000abc.txt");
    assert_int_equal(dl_calib_path(1, buf, 10), DL_SIZE_OVERFLOW);
    if (saved)
        setenv("XDG_CACHE_HOME", saved, 1);
    free(saved);
    /* Names with line breaks cannot break the file format. */
    dl_calibration c;
    sample(&c);
    dl_calib_set_identity(&c, "plat\nform", "dev", "drv");
    assert_null(strchr(c.platform, '\n'));
}

/* Uniform records of S floats, many records, a long loop. */
static dl_tuner_kernel_info info(uint32_t words, double launches)
{
    return (dl_tuner_kernel_info){words * 4, words, NULL, 1u << 20, launches,
                                  0, 0, 0};
}

static void test_static_choice(void **state)
{
    (void)state;
    dl_calibration c;
    sample(&c);
    dl_tuner_static s;
    /* LBM-like: DA pays over a long loop. */
    dl_tuner_kernel_info k = info(19, 100);
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == DL_TILE_DA);
    assert_true(s.speedup > 2.3 && s.speedup < 2.5);
    assert_true(s.amortises);
    assert_true(s.conversion_ns > 0);
    /* Launched once: the conversion (two passes at 1.5 B/ns) costs more
     * than one launch saves, so leave it alone. */
    k = info(19, 1);
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == 1);
    assert_false(s.amortises);
    /* Nothing better than AoS at 4 words: leave alone, no gain predicted. */
    k = info(4, 100);
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == 1);
    assert_true(s.speedup < 1.02);
    dl_tuner_prediction p = dl_tuner_static_prediction(&s);
    assert_true(p.speedup < 1.02);
    /* Nearest size: 16 words behaves like 19. */
    k = info(16, 100);
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == DL_TILE_DA);
    /* DL_TILE overrides, and is predicted from the nearest tile. */
    k = info(19, 100);
    k.tile_override = 8;
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == 8);
    assert_true(s.speedup > 0.9 && s.speedup < 1.0);
    /* ASTA wins when the calibration says so. */
    c.access[7].ns_per_record = 1.0; /* 19 words, T = 8 */
    k = info(19, 100);
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == 8);
    /* An empty calibration predicts nothing and leaves it alone. */
    dl_calibration empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(dl_tuner_static_choice(&empty, &k, &s), DL_SUCCESS);
    assert_true(s.tile == 1 && s.speedup == 0);
    k.record_size = 0;
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_INVALID_ARGUMENT);
}

/* asta(auto) takes the cheapest measured ASTA tile at the nearest record
 * size: 8 at 4 and at 19 words (1.4 < 1.5, 5.0 < 6.0), none without
 * ASTA entries. */
/* Records with small fields convert at their own measured rate, to any
 * tile if only one was measured; records of floats at theirs.  Issue 17:
 * a 24-byte particle record (fields of 4, 4, 8, 2 and 1 bytes) took
 * 300 ms for 58 MB where the rate of floats predicted 4 ms, so a probe
 * looked cheap to a short program. */
static void test_convert_rate_by_field(void **state)
{
    (void)state;
    dl_calibration c;
    sample(&c);
    assert_true(dl_calib_convert_rate(&c, 19, DL_CALIB_TILE_DA, 4) == 1.5);
    assert_true(dl_calib_convert_rate(&c, 8, 8, 4) == 3.0);
    assert_true(dl_calib_convert_rate(&c, 6, 8, 1) == 0.12);
    assert_true(dl_calib_convert_rate(&c, 6, 8, 2) == 0.12);
    assert_true(dl_calib_convert_rate(&c, 19, DL_CALIB_TILE_DA, 1) == 0.12);
    /* The prediction follows: 25x the conversion time. */
    dl_tuner_kernel_info floats = info(6, 100), mixed = info(6, 100);
    floats.target_tile = mixed.target_tile = 8;
    mixed.min_field_size = 1;
    dl_tuner_prediction pf = dl_tuner_predict_launch(&c, &floats, 1);
    dl_tuner_prediction pm = dl_tuner_predict_launch(&c, &mixed, 1);
    assert_true(pf.conversion_ns > 0);
    assert_true(pm.conversion_ns > 20 * pf.conversion_ns);
}

static void test_best_asta_tile(void **state)
{
    (void)state;
    dl_calibration c;
    sample(&c);
    assert_int_equal(dl_calib_best_asta_tile(&c, 4), 8);
    assert_int_equal(dl_calib_best_asta_tile(&c, 20), 8);
    c.access[2].ns_per_record = 1.2; /* ASTA(4) at 4 words now cheaper */
    assert_int_equal(dl_calib_best_asta_tile(&c, 3), 4);
    assert_int_equal(dl_calib_best_asta_tile(&c, 19), 8);
    c.naccess = 2; /* AoS and DA only */
    assert_int_equal(dl_calib_best_asta_tile(&c, 4), 0);
}

static void test_predict_launch(void **state)
{
    (void)state;
    dl_calibration c;
    sample(&c);
    /* One LBM-like argument (DA, 2.4x) and one left alone (4 words). */
    dl_tuner_kernel_info args[2] = {info(19, 100), info(4, 100)};
    dl_tuner_prediction p = dl_tuner_predict_launch(&c, args, 2);
    double plain = (4.8 + 1.0) * (1u << 20);
    double transformed = (2.0 + 1.0) * (1u << 20);
    assert_true(p.plain_ns > plain * 0.999 && p.plain_ns < plain * 1.001);
    assert_true(p.speedup > plain / transformed * 0.999 &&
                p.speedup < plain / transformed * 1.001);
    assert_true(p.conversion_ns > 0);
    /* Only the argument left alone: no gain, no conversion. */
    p = dl_tuner_predict_launch(&c, &args[1], 1);
    assert_true(p.speedup > 0.999 && p.speedup < 1.001);
    assert_true(p.conversion_ns == 0);
    /* Its activated variant converts it to DA all the same (a probe
     * pays that): at the measured rate of 19 words -> DA, the nearest
     * record size, marshal + restore of 16 MiB at 1.5 bytes/ns. */
    dl_tuner_kernel_info to_da = info(4, 100);
    to_da.target_tile = DL_TILE_DA;
    p = dl_tuner_predict_launch(&c, &to_da, 1);
    double conv = 2.0 * (4.0 * 4 * (1u << 20)) / 1.5;
    assert_true(p.speedup > 0.999 && p.speedup < 1.001);
    assert_true(p.conversion_ns > conv * 0.999 && p.conversion_ns < conv * 1.001);
    /* Nothing known. */
    dl_calibration empty;
    memset(&empty, 0, sizeof empty);
    p = dl_tuner_predict_launch(&empty, args, 2);
    assert_true(p.speedup == 0 && p.plain_ns == 0);
    p = dl_tuner_predict_launch(NULL, args, 2);
    assert_true(p.speedup == 0);
    p = dl_tuner_predict_launch(&c, args, 0);
    assert_true(p.speedup == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_corrupt_truncated, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_foreign, setup, teardown),
        cmocka_unit_test(test_path),
        cmocka_unit_test(test_static_choice),
        cmocka_unit_test(test_convert_rate_by_field),
        cmocka_unit_test(test_best_asta_tile),
        cmocka_unit_test(test_predict_launch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

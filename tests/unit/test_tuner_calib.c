/* test_tuner_calib.c - the calibration cache file (round trip, corrupt,
 * truncated and foreign files, the path rules), the static choice of
 * the ASTA(T) family member from a calibration, DA's 4 KiB aliasing
 * in that choice, and what a run that calibrates tells the user: the
 * notice, an unwritable cache, a noisy calibration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "log.h"
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
        {4, 1, 1.0},
        {4, DL_CALIB_TILE_DA, 1.0},
        {4, 4, 1.5},
        {4, 8, 1.4},
        {19, 1, 4.8},
        {19, DL_CALIB_TILE_DA, 2.0},
        {19, 4, 6.0},
        {19, 8, 5.0},
        /* DA with its field arrays 4 KiB apart: the trap, 10x slower */
        {19, DL_CALIB_TILE_DA_4K, 20.0},
    };
    memcpy(c->access, a, sizeof a);
    c->naccess = sizeof a / sizeof *a;
    c->convert[0] =
        (dl_calib_convert){DL_ALGO_AUTO, 19, DL_CALIB_TILE_DA, 1.5, 4};
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
    assert_int_equal(back.access[8].tile, DL_CALIB_TILE_DA_4K);
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
    write_text(path, "\x7f"
                     "ELF\x01\x02 binary junk\n");
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
    char *ver = strstr(bad, "version 3");
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
    assert_string_equal(buf,
                        "/x/cache/dlayout/calibration-0000000000000abc.txt");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/u", 1);
    assert_int_equal(dl_calib_path(0xabcull, buf, sizeof buf), DL_SUCCESS);
    assert_string_equal(
        buf, "/home/u/.cache/dlayout/calibration-0000000000000abc.txt");
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

/* Many records, whose DA field arrays are a cache line apart modulo
 * 4 KiB (no aliasing). */
#define COUNT ((1u << 20) + 16u)

/* Uniform records of S floats, COUNT records, a long loop. */
static dl_tuner_kernel_info info(uint32_t words, double launches)
{
    return (dl_tuner_kernel_info){words * 4, words, NULL, COUNT, launches,
                                  0,         0,     0,    0};
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

/* Field arrays a multiple of 4 KiB apart, or close to one (tuner_alias.c):
 * the largest group of them starting within a cache line modulo 4 KiB. */
static void test_da_alias_group(void **state)
{
    (void)state;
    /* Parboil LBM: 20 floats, 128 x 120 x 154 cells, 2,310 pages a field. */
    dl_tuner_kernel_info k = {80, 20, NULL, 128u * 120u * 154u, 1, 0, 0, 0, 0};
    assert_int_equal(dl_tuner_da_alias_group(&k), 20);
    assert_true(dl_tuner_da_aliases(&k));
    /* 7 cells fewer: fields 28 bytes apart modulo 4 KiB, 3 per line. */
    k.count -= 7;
    assert_int_equal(dl_tuner_da_alias_group(&k), 3);
    assert_false(dl_tuner_da_aliases(&k));
    /* dl-app-lbm's 120 x 120 x 150: 1,536 bytes apart, every 8th alias. */
    k.count = 120u * 120u * 150u;
    assert_int_equal(dl_tuner_da_alias_group(&k), 3);
    assert_false(dl_tuner_da_aliases(&k));
    /* 2M particles of 4 floats, 8 MiB a field. */
    k = (dl_tuner_kernel_info){16, 4, NULL, 2u << 20, 1, 0, 0, 0, 0};
    assert_int_equal(dl_tuner_da_alias_group(&k), 4);
    assert_true(dl_tuner_da_aliases(&k));
    /* Within a cache line of a multiple counts too (both sides of 0). */
    k.count = (2u << 20) + 4;
    assert_true(dl_tuner_da_aliases(&k));
    k.count = (2u << 20) - 4;
    assert_true(dl_tuner_da_aliases(&k));
    k.count = (2u << 20) + 16;
    assert_int_equal(dl_tuner_da_alias_group(&k), 1);
    /* Mixed field sizes: offsets 0, 8, 12, 16 bytes times 512 records
     * (4 KiB, 6 KiB, 8 KiB): three at 0 modulo 4 KiB, one at 2 KiB. */
    const uint32_t sizes[] = {8, 4, 4, 4};
    k = (dl_tuner_kernel_info){20, 4, sizes, 512, 1, 0, 0, 0, 0};
    assert_int_equal(dl_tuner_da_alias_group(&k), 3);
    k.count = 1024; /* all four at 0 */
    assert_int_equal(dl_tuner_da_alias_group(&k), 4);
    k.nfields = 0;
    assert_int_equal(dl_tuner_da_alias_group(&k), 0);
}

/* The static choice judges DA by the calibration's aliased figure where
 * the argument's field arrays alias: not chosen where the trap costs more
 * than DA gains (the CPU here), chosen where it costs nothing (a device
 * without the trap), and not chosen where the trap was not measured. */
static void test_static_choice_aliased(void **state)
{
    (void)state;
    dl_calibration c;
    sample(&c);
    dl_tuner_static s;
    dl_tuner_kernel_info k = info(19, 100);
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == DL_TILE_DA);
    assert_false(s.da_aliased);
    k.count = 1u << 20; /* 4 MiB a field */
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.da_aliased);
    assert_true(s.tile == 1); /* AoS 4.8 beats the trap's 20 and ASTA's 5 */
    assert_true(s.speedup > 0.999 && s.speedup < 1.001);
    /* ASTA(8) cheaper than AoS: the choice moves to it, not to DA. */
    c.access[7].ns_per_record = 3.0;
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == 8);
    c.access[7].ns_per_record = 5.0;
    /* A device where aliasing costs nothing keeps DA. */
    c.access[8].ns_per_record = 2.0;
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == DL_TILE_DA);
    /* An older calibration without the aliased figure: DA unknown there,
     * so not chosen. */
    c.naccess = 8;
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == 1);
    /* DL_TILE forcing DA is predicted with the trap's figure. */
    c.naccess = 9;
    c.access[8].ns_per_record = 20.0;
    k.tile_override = DL_TILE_DA;
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.tile == DL_TILE_DA);
    assert_true(s.speedup > 0.239 && s.speedup < 0.241);
    /* The aliased figure never stands for an ASTA tile. */
    assert_int_equal(dl_calib_best_asta_tile(&c, 19), 8);
}

/* Offset DA (tuner_offset.c): where DA's field arrays alias and the
 * buffer has the slack, field arrays M' records apart that do not alias;
 * none without the slack or without the alias. */
static void test_da_offset_stride(void **state)
{
    (void)state;
    const char *why = NULL;
    /* Parboil LBM, 2,310 pages a field: aliased, no slack. */
    size_t m = 128u * 120u * 154u;
    dl_tuner_kernel_info k = {80, 20, NULL, m, 1, 0, 0, 0, m * 80};
    assert_int_equal(dl_tuner_da_offset_stride(&k, &why), 0);
    assert_non_null(strstr(why, "slack"));
    k.buffer_bytes = m * 80 + 16 * 80 - 1; /* one byte short */
    assert_int_equal(dl_tuner_da_offset_stride(&k, NULL), 0);
    k.buffer_bytes = m * 80 + 16 * 80; /* 64 bytes on a 4-byte field */
    assert_int_equal(dl_tuner_da_offset_stride(&k, &why), m + 16);
    assert_non_null(strstr(why, "offset DA"));
    dl_tuner_kernel_info padded = k;
    padded.count = m + 16;
    assert_false(dl_tuner_da_aliases(&padded));
    /* 7 cells fewer does not alias: nothing to offset. */
    k.count = m - 7;
    assert_int_equal(dl_tuner_da_offset_stride(&k, &why), 0);
    assert_non_null(strstr(why, "do not alias"));
    /* 2M particles of 4 floats. */
    k = (dl_tuner_kernel_info){16, 4, NULL, 2u << 20, 1, 0, 0, 0, 64u << 20};
    assert_int_equal(dl_tuner_da_offset_stride(&k, NULL), (2u << 20) + 16);
    /* Mixed sizes 8, 4, 4, 4 at 1,024 records: four at 0 modulo 4 KiB. */
    const uint32_t sizes[] = {8, 4, 4, 4};
    k = (dl_tuner_kernel_info){20, 4, sizes, 1024, 1, 0, 0, 0, 1 << 20};
    assert_int_equal(dl_tuner_da_offset_stride(&k, NULL), 1040);
    /* Bytes: the pad is at least 64 bytes on the smallest field. */
    k = (dl_tuner_kernel_info){64, 64, NULL, 4096, 1, 0, 0, 0, 1 << 24};
    assert_int_equal(dl_tuner_da_offset_stride(&k, NULL), 4096 + 64);
    assert_int_equal(dl_tuner_da_offset_stride(NULL, &why), 0);
}

/* The log of one test, in a file of the test's directory. */
static char log_path[400];

static void log_to_file(void)
{
    snprintf(log_path, sizeof log_path, "%s/log.txt", dir);
    assert_int_equal(dl_log_configure(DL_LOG_LEVEL_WARN, log_path), DL_SUCCESS);
}

/* How many lines of the log contain `what`. */
static unsigned log_lines_with(const char *what)
{
    FILE *f = fopen(log_path, "r");
    unsigned n = 0;
    char line[1024];
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, what) != NULL;
    if (f)
        fclose(f);
    return n;
}

static void log_back_to_stderr(void)
{
    dl_log_close();
    dl_log_set_level(DL_LOG_LEVEL_WARN);
}

/* The static choice takes an offset DA's unaliased figure where the slack
 * allows one (test_static_choice_aliased has the aliased side). */
static void test_static_choice_offset(void **state)
{
    (void)state;
    dl_calibration c;
    sample(&c);
    dl_tuner_static s;
    dl_tuner_kernel_info k = info(19, 100);
    k.count = 1u << 20; /* 4 MiB a field: aliased */
    k.buffer_bytes = k.count * 76;
    log_to_file();
    dl_log_set_level(DL_LOG_LEVEL_INFO);
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_true(s.da_aliased);
    assert_int_equal(s.da_stride, 0);
    assert_true(s.tile == 1);
    k.buffer_bytes += 16 * 76;
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_false(s.da_aliased);
    assert_int_equal(s.da_stride, (1u << 20) + 16);
    assert_true(s.tile == DL_TILE_DA);
    /* Why, at info level, once for each shape in a row. */
    assert_int_equal(dl_tuner_static_choice(&c, &k, &s), DL_SUCCESS);
    assert_int_equal(log_lines_with("bytes of slack, not the 1216"), 1);
    assert_int_equal(log_lines_with("offset DA, field arrays 1048592 "
                                    "records apart"),
                     1);
    log_back_to_stderr();
}

/* A run that calibrates says so in one line, unless
 * DL_CALIBRATION_NOTICE=0. */
static void test_announce(void **state)
{
    (void)state;
    log_to_file();
    unsetenv("DL_CALIBRATION_NOTICE");
    assert_true(dl_calib_notice_enabled());
    dl_calib_announce("cpu-x86-64", "/home/u/.cache/dlayout/calibration.txt",
                      0);
    assert_int_equal(log_lines_with("calibrating the OpenCL device "
                                    "'cpu-x86-64' once"),
                     1);
    assert_int_equal(log_lines_with("cached in /home/u/.cache/dlayout/"), 1);
    assert_int_equal(log_lines_with("DL_CALIBRATION_NOTICE=0 silences"), 1);
    setenv("DL_CALIBRATION_NOTICE", "0", 1);
    assert_false(dl_calib_notice_enabled());
    dl_calib_announce("cpu-x86-64", NULL, 0);
    assert_int_equal(log_lines_with("calibrating"), 1);
    /* An invalid value keeps the default (on). */
    setenv("DL_CALIBRATION_NOTICE", "banana", 1);
    dl_calib_announce("cpu-x86-64", NULL, 1);
    assert_int_equal(log_lines_with("no file: no cache directory"), 1);
    assert_int_equal(log_lines_with("'cpu-x86-64' again, its cached "
                                    "calibration being noisy"),
                     1);
    unsetenv("DL_CALIBRATION_NOTICE");
    log_back_to_stderr();
}

/* A cache that cannot be written is warned about once per process: every
 * run would calibrate again. */
static void test_keep_unwritable(void **state)
{
    (void)state;
    log_to_file();
    dl_calibration c;
    sample(&c);
    char file[400], path[450];
    snprintf(file, sizeof file, "%s/not-a-dir", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    /* A directory under a plain file: unwritable even for root. */
    snprintf(path, sizeof path, "%s/dlayout/calibration.txt", file);
    assert_int_not_equal(dl_calib_keep(path, &c), DL_SUCCESS);
    assert_int_equal(log_lines_with("cannot cache the calibration of "
                                    "'cpu-x86-64'"),
                     1);
    assert_int_equal(log_lines_with("every run calibrates again, 1.2 s"), 1);
    assert_int_not_equal(dl_calib_keep(NULL, &c), DL_SUCCESS);
    assert_int_not_equal(dl_calib_keep(path, &c), DL_SUCCESS);
    assert_int_equal(log_lines_with("cannot cache"), 1);
    /* A noisy one that cannot be cached does not claim it was. */
    c.spread = 1.0;
    c.noisy_runs = DL_CALIB_NOISY_TRIES;
    assert_int_not_equal(dl_calib_keep(path, &c), DL_SUCCESS);
    assert_int_equal(log_lines_with("not cached, measured again by the next "
                                    "run"),
                     1);
    assert_int_equal(log_lines_with("cached for good"), 0);
    log_back_to_stderr();
}

/* The spread of repeated runs, and a noisy calibration: warned about,
 * cached, measured again by the next run while fewer than
 * DL_CALIB_NOISY_TRIES noisy ones came in a row, the least noisy kept. */
static void test_keep_noisy(void **state)
{
    (void)state;
    const double quiet[] = {10.0, 10.4, 10.2}, busy[] = {30.0, 10.0, 25.0},
                 one[] = {10.0};
    assert_true(dl_calib_spread(quiet, 3) > 0.0199 &&
                dl_calib_spread(quiet, 3) < 0.0201);
    assert_true(dl_calib_spread(busy, 3) > 1.499 &&
                dl_calib_spread(busy, 3) < 1.501);
    assert_true(dl_calib_spread(one, 1) == 0);

    log_to_file();
    dl_calibration c, back, fresh;
    sample(&c);
    char path[400];
    path_in_dir(path, sizeof path, "noisy.txt");
    /* A first noisy calibration: cached, with its count, and due to be
     * measured again. */
    c.spread = dl_calib_spread(busy, 3);
    assert_true(dl_calib_is_noisy(&c));
    dl_calib_settle(NULL, &c);
    assert_int_equal(c.noisy_runs, 1);
    assert_int_equal(dl_calib_keep(path, &c), DL_SUCCESS);
    assert_int_equal(log_lines_with("the calibration of 'cpu-x86-64' is "
                                    "noisy (repeated measurements differ by "
                                    "up to 150%"),
                     1);
    assert_int_equal(log_lines_with("measured again by the next run"), 1);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_SUCCESS);
    assert_int_equal(back.noisy_runs, 1);
    assert_true(back.spread > 1.499 && back.spread < 1.501);
    assert_true(dl_calib_remeasure(&back));
    /* Measured again, noisier: the cached figures stay, counted on. */
    fresh = c;
    fresh.spread = 2.0;
    fresh.access[0].ns_per_record = 99.0;
    dl_calib_settle(&back, &fresh);
    assert_int_equal(fresh.noisy_runs, 2);
    assert_true(fresh.spread < 1.501);
    assert_true(fresh.access[0].ns_per_record == 1.0);
    /* Less noisy, still noisy: the fresh figures, the third in a row,
     * cached for good. */
    dl_calibration third = c;
    third.spread = 0.5;
    dl_calib_settle(&fresh, &third);
    assert_int_equal(third.noisy_runs, 3);
    assert_true(third.spread == 0.5);
    assert_false(dl_calib_remeasure(&third));
    assert_int_equal(dl_calib_keep(path, &third), DL_SUCCESS);
    assert_int_equal(log_lines_with("3 times in a row: the least noisy is "
                                    "cached for good"),
                     1);
    /* A quiet calibration ends the count. */
    c.spread = dl_calib_spread(quiet, 3);
    assert_false(dl_calib_is_noisy(&c));
    dl_calib_settle(&third, &c);
    assert_int_equal(c.noisy_runs, 0);
    assert_false(dl_calib_remeasure(&c));
    assert_int_equal(dl_calib_keep(path, &c), DL_SUCCESS);
    assert_int_equal(dl_calib_load(path, &c, &back), DL_SUCCESS);
    assert_true(back.spread > 0.0199 && back.spread < 0.0201);
    assert_int_equal(back.noisy_runs, 0);
    assert_int_equal(log_lines_with("noisy"), 2);
    log_back_to_stderr();
}

static void test_predict_launch(void **state)
{
    (void)state;
    dl_calibration c;
    sample(&c);
    /* One LBM-like argument (DA, 2.4x) and one left alone (4 words). */
    dl_tuner_kernel_info args[2] = {info(19, 100), info(4, 100)};
    dl_tuner_prediction p = dl_tuner_predict_launch(&c, args, 2);
    double plain = (4.8 + 1.0) * COUNT;
    double transformed = (2.0 + 1.0) * COUNT;
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
    double conv = 2.0 * (4.0 * 4 * COUNT) / 1.5;
    assert_true(p.speedup > 0.999 && p.speedup < 1.001);
    assert_true(p.conversion_ns > conv * 0.999 &&
                p.conversion_ns < conv * 1.001);
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
        cmocka_unit_test(test_da_alias_group),
        cmocka_unit_test(test_static_choice_aliased),
        cmocka_unit_test(test_da_offset_stride),
        cmocka_unit_test_setup_teardown(test_static_choice_offset, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_announce, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keep_unwritable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keep_noisy, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_controls.c - the DL_* table (defaults, parsing, one warning per
 * invalid value, --help, the generated docs/controls.md) and the logger.
 *
 * Usage: test_controls PATH/TO/docs/controls.md */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <unistd.h>

#include "controls.h"
#include "error.h"
#include "log.h"

static const char *docs_path;

/* ---------------------------------------------------------------- helpers */

/* A fake environment: NAME=VALUE pairs, NULL-terminated. */
static const char *fake_get(const char *name, void *user)
{
    const char *const *env = user;
    for (; env[0]; env += 2)
        if (strcmp(env[0], name) == 0)
            return env[1];
    return NULL;
}

typedef struct warnings {
    char text[16][512];
    int n;
} warnings;

static void keep(const char *message, void *user)
{
    warnings *w = user;
    if (w->n < 16)
        snprintf(w->text[w->n++], sizeof w->text[0], "%s", message);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    size_t got = fread(text, 1, (size_t)n, f);
    text[got] = '\0';
    fclose(f);
    return text;
}

/* Runs a printer into a string. */
static char *capture(void (*print)(FILE *))
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    print(f);
    fclose(f);
    return text;
}

static char *temp_path(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/dl_controls_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    return path;
}

static void set_fails(dl_controls *c, const char *name, const char *value)
{
    if (dl_controls_set(c, name, value) != DL_INVALID_ARGUMENT)
        fail_msg("%s=%s was accepted", name, value);
    /* The message names the variable and the value. */
    assert_non_null(strstr(dl_last_error(), name));
    assert_non_null(strstr(dl_last_error(), value));
}

/* ---------------------------------------------------------------- the table */

static void test_defaults(void **state)
{
    (void)state;
    dl_controls c;
    memset(&c, 0x5a, sizeof c);
    dl_controls_defaults(&c);
    assert_int_equal(c.log_level, DL_LOG_LEVEL_WARN);
    assert_null(c.log_file);
    assert_int_equal(c.stats, 0);
    assert_int_equal(c.disable, 0);
    assert_null(c.dump_dir);
    assert_null(c.inject_dir);
    assert_int_equal(c.tile, DL_CONTROL_TILE_AUTO);
    assert_int_equal(c.algo, DL_ALGO_AUTO);
    assert_int_equal(c.policy, DL_POLICY_AUTO);
    assert_int_equal(c.direct_dispatch, 1);
    assert_int_equal(c.irregular, DL_IRREGULAR_AUTO);
    dl_controls_free(&c);
    dl_controls_free(NULL);
}

static void test_table(void **state)
{
    (void)state;
    static const char *const names[] = {"DL_LOG",
                                        "DL_LOG_FILE",
                                        "DL_STATS",
                                        "DL_COALESCING",
                                        "DL_DISABLE",
                                        "DL_DUMP_DIR",
                                        "DL_BINARY_DIR",
                                        "DL_INJECT_DIR",
                                        "DL_TILE",
                                        "DL_ALGO",
                                        "DL_POLICY",
                                        "DL_DIRECT_DISPATCH",
                                        "DL_CALIBRATION_NOTICE",
                                        "DL_IRREGULAR",
                                        "DL_METIS_LIBRARY",
                                        "DL_GATHER_BUDGET",
                                        "DL_OVERLAP",
                                        "DL_CHUNKS"};
    const unsigned n = sizeof names / sizeof *names;
    assert_int_equal(dl_control_count, n);
    for (unsigned i = 0; i < n; i++) {
        const dl_control_info *info = dl_control_find(names[i]);
        assert_non_null(info);
        assert_string_equal(info->name, names[i]);
        assert_true(strlen(info->help) > 20);
        assert_null(strchr(info->help, '\n'));
    }
    assert_null(dl_control_find("DL_NOPE"));
    assert_null(dl_control_find(NULL));
    assert_int_equal(dl_control_find("DL_TILE")->kind, DL_CONTROL_TILE);
    assert_int_equal(dl_control_find("DL_STATS")->kind, DL_CONTROL_BOOL);
    assert_int_equal(dl_control_find("DL_GATHER_BUDGET")->kind,
                     DL_CONTROL_FRACTION);
    dl_controls c;
    dl_controls_defaults(&c);
    assert_int_equal(c.overlap, DL_OVERLAP_AUTO);
    assert_int_equal(c.chunks, 0);
    assert_int_equal(dl_controls_set(&c, "DL_OVERLAP", "off"), DL_SUCCESS);
    assert_int_equal(c.overlap, DL_OVERLAP_OFF);
    assert_int_equal(dl_controls_set(&c, "DL_CHUNKS", "8"), DL_SUCCESS);
    assert_int_equal(c.chunks, 8);
    dl_controls_free(&c);
}

static void test_enums(void **state)
{
    (void)state;
    dl_controls c;
    dl_controls_defaults(&c);
    static const struct {
        const char *value;
        dl_log_level level;
    } logs[] = {{"error", DL_LOG_LEVEL_ERROR}, {"warn", DL_LOG_LEVEL_WARN},
                {"info", DL_LOG_LEVEL_INFO},   {"debug", DL_LOG_LEVEL_DEBUG},
                {"DEBUG", DL_LOG_LEVEL_DEBUG}, {" Info ", DL_LOG_LEVEL_INFO}};
    for (unsigned i = 0; i < 6; i++) {
        assert_int_equal(dl_controls_set(&c, "DL_LOG", logs[i].value),
                         DL_SUCCESS);
        assert_int_equal(c.log_level, logs[i].level);
    }
    static const struct {
        const char *value;
        dl_algo algo;
    } algos[] = {{"auto", DL_ALGO_AUTO},     {"bs", DL_ALGO_BS},
                 {"pttwac", DL_ALGO_PTTWAC}, {"pipt", DL_ALGO_PIPT},
                 {"oop", DL_ALGO_OOP},       {"PTTWAC", DL_ALGO_PTTWAC}};
    for (unsigned i = 0; i < 6; i++) {
        assert_int_equal(dl_controls_set(&c, "DL_ALGO", algos[i].value),
                         DL_SUCCESS);
        assert_int_equal(c.algo, algos[i].algo);
    }
    assert_int_equal(dl_controls_set(&c, "DL_POLICY", "always"), DL_SUCCESS);
    assert_int_equal(c.policy, DL_POLICY_ALWAYS);
    assert_int_equal(dl_controls_set(&c, "DL_POLICY", "never"), DL_SUCCESS);
    assert_int_equal(c.policy, DL_POLICY_NEVER);
    assert_int_equal(dl_controls_set(&c, "DL_IRREGULAR", "jobswap"),
                     DL_SUCCESS);
    assert_int_equal(c.irregular, DL_IRREGULAR_JOBSWAP);
    assert_int_equal(dl_controls_set(&c, "DL_IRREGULAR", "padding"),
                     DL_SUCCESS);
    assert_int_equal(c.irregular, DL_IRREGULAR_PADDING);
    assert_int_equal(dl_controls_set(&c, "DL_IRREGULAR", "remap"), DL_SUCCESS);
    assert_int_equal(c.irregular, DL_IRREGULAR_REMAP);
    assert_int_equal(dl_controls_set(&c, "DL_IRREGULAR", "sharing"),
                     DL_SUCCESS);
    assert_int_equal(c.irregular, DL_IRREGULAR_SHARING);
    set_fails(&c, "DL_IRREGULAR", "permute");
    /* Unset or blank: back to the default. */
    assert_int_equal(dl_controls_set(&c, "DL_POLICY", NULL), DL_SUCCESS);
    assert_int_equal(c.policy, DL_POLICY_AUTO);
    assert_int_equal(dl_controls_set(&c, "DL_ALGO", "  "), DL_SUCCESS);
    assert_int_equal(c.algo, DL_ALGO_AUTO);

    set_fails(&c, "DL_LOG", "verbose");
    set_fails(&c, "DL_LOG", "warning");
    set_fails(&c, "DL_LOG", "warn|info");
    set_fails(&c, "DL_ALGO", "b");
    set_fails(&c, "DL_ALGO", "bss");
    set_fails(&c, "DL_POLICY", "sometimes");
    assert_non_null(strstr(dl_last_error(), "auto|always|never"));
    assert_non_null(strstr(dl_last_error(), "default 'auto'"));
    /* A failed set keeps the previous value. */
    assert_int_equal(dl_controls_set(&c, "DL_LOG", "info"), DL_SUCCESS);
    set_fails(&c, "DL_LOG", "loud");
    assert_int_equal(c.log_level, DL_LOG_LEVEL_INFO);
    dl_controls_free(&c);
}

static void test_bools(void **state)
{
    (void)state;
    dl_controls c;
    dl_controls_defaults(&c);
    static const char *const yes[] = {"1",   "yes",  "true", "on",
                                      "YES", "True", " on\t"};
    static const char *const no[] = {"0", "no", "false", "off", "OFF"};
    for (unsigned i = 0; i < 7; i++) {
        assert_int_equal(dl_controls_set(&c, "DL_STATS", yes[i]), DL_SUCCESS);
        assert_int_equal(c.stats, 1);
        assert_int_equal(dl_controls_set(&c, "DL_DISABLE", yes[i]), DL_SUCCESS);
        assert_int_equal(c.disable, 1);
    }
    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(dl_controls_set(&c, "DL_STATS", no[i]), DL_SUCCESS);
        assert_int_equal(c.stats, 0);
    }
    set_fails(&c, "DL_STATS", "2");
    set_fails(&c, "DL_DISABLE", "y");
    set_fails(&c, "DL_DISABLE", "enabled");
    assert_non_null(strstr(dl_last_error(), "1|0|yes|no"));
    dl_controls_free(&c);
}

static void test_tile(void **state)
{
    (void)state;
    dl_controls c;
    dl_controls_defaults(&c);
    assert_int_equal(dl_controls_set(&c, "DL_TILE", "32"), DL_SUCCESS);
    assert_int_equal(c.tile, 32);
    assert_int_equal(dl_controls_set(&c, "DL_TILE", "1"), DL_SUCCESS);
    assert_int_equal(c.tile, 1);
    assert_int_equal(dl_controls_set(&c, "DL_TILE", "2147483648"), DL_SUCCESS);
    assert_int_equal(c.tile, DL_CONTROL_TILE_MAX);
    assert_int_equal(dl_controls_set(&c, "DL_TILE", "AUTO"), DL_SUCCESS);
    assert_int_equal(c.tile, DL_CONTROL_TILE_AUTO);
    static const char *const bad[] = {
        "0",          "-1",  "+4",
        "2147483649", "32x", "0x20",
        "1e3",        "3.5", "99999999999999999999999",
        "auto32"};
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++)
        set_fails(&c, "DL_TILE", bad[i]);
    assert_int_equal(c.tile, DL_CONTROL_TILE_AUTO);
    assert_non_null(strstr(dl_last_error(), "auto or a number"));
    dl_controls_free(&c);
}

static void test_fraction(void **state)
{
    (void)state;
    dl_controls c;
    dl_controls_defaults(&c);
    assert_true(c.gather_budget == 0.25);
    static const struct {
        const char *text;
        double value;
    } good[] = {{"0.5", 0.5},    {"1", 1.0},       {"1.0", 1.0},
                {".125", 0.125}, {"0.001", 0.001}, {"1.", 1.0}};
    for (unsigned i = 0; i < sizeof good / sizeof *good; i++) {
        assert_int_equal(dl_controls_set(&c, "DL_GATHER_BUDGET", good[i].text),
                         DL_SUCCESS);
        assert_true(c.gather_budget == good[i].value);
    }
    char buf[32];
    dl_controls_set(&c, "DL_GATHER_BUDGET", "0.125");
    dl_controls_value_text(&c, "DL_GATHER_BUDGET", buf, sizeof buf);
    assert_string_equal(buf, "0.125");
    static const char *const bad[] = {"0",   "0.0",  "-0.5", "+0.5", "1.01",
                                      "2",   "1e-1", "0x1",  ".",    "0.5.",
                                      "25%", "nan",  "inf",  "3."};
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++)
        set_fails(&c, "DL_GATHER_BUDGET", bad[i]);
    assert_true(c.gather_budget == 0.125);
    assert_non_null(strstr(dl_last_error(), "above 0 and at most 1"));
    assert_int_equal(dl_controls_set(&c, "DL_GATHER_BUDGET", ""), DL_SUCCESS);
    assert_true(c.gather_budget == 0.25);
    dl_controls_free(&c);
}

static void test_paths(void **state)
{
    (void)state;
    dl_controls c;
    dl_controls_defaults(&c);
    assert_int_equal(dl_controls_set(&c, "DL_DUMP_DIR", "/tmp/dump"),
                     DL_SUCCESS);
    assert_string_equal(c.dump_dir, "/tmp/dump");
    assert_int_equal(dl_controls_set(&c, "DL_DUMP_DIR", " /tmp/other dir "),
                     DL_SUCCESS);
    assert_string_equal(c.dump_dir, "/tmp/other dir");
    assert_int_equal(dl_controls_set(&c, "DL_DUMP_DIR", ""), DL_SUCCESS);
    assert_null(c.dump_dir);
    assert_int_equal(dl_controls_set(&c, "DL_INJECT_DIR", "x"), DL_SUCCESS);
    assert_int_equal(dl_controls_set(&c, "DL_LOG_FILE", "y.log"), DL_SUCCESS);
    dl_controls_free(&c);
    assert_null(c.inject_dir);
    assert_null(c.log_file);
}

static void test_unknown_names(void **state)
{
    (void)state;
    dl_controls c;
    dl_controls_defaults(&c);
    assert_int_equal(dl_controls_set(&c, "DL_NOPE", "1"), DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), "unknown control 'DL_NOPE'"));
    assert_int_equal(dl_controls_set(&c, NULL, "1"), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_controls_set(NULL, "DL_LOG", "1"), DL_INVALID_ARGUMENT);
    dl_controls_free(&c);
}

static void test_value_text(void **state)
{
    (void)state;
    const char *env[] = {"DL_LOG",      "debug", "DL_TILE",  "64",
                         "DL_ALGO",     "pipt",  "DL_STATS", "yes",
                         "DL_DUMP_DIR", "/d",    NULL};
    dl_controls c;
    assert_int_equal(dl_controls_parse(&c, fake_get, env, NULL, NULL), 0);
    static const char *const want[][2] = {
        {"DL_LOG", "debug"}, {"DL_LOG_FILE", ""},   {"DL_STATS", "1"},
        {"DL_DISABLE", "0"}, {"DL_DUMP_DIR", "/d"}, {"DL_INJECT_DIR", ""},
        {"DL_TILE", "64"},   {"DL_ALGO", "pipt"},   {"DL_POLICY", "auto"}};
    char buf[64];
    for (unsigned i = 0; i < 9; i++) {
        dl_controls_value_text(&c, want[i][0], buf, sizeof buf);
        assert_string_equal(buf, want[i][1]);
    }
    dl_controls_set(&c, "DL_TILE", "auto");
    dl_controls_value_text(&c, "DL_TILE", buf, sizeof buf);
    assert_string_equal(buf, "auto");
    dl_controls_value_text(&c, "DL_NOPE", buf, sizeof buf);
    assert_string_equal(buf, "");
    dl_controls_free(&c);
}

/* Every invalid value: one warning naming variable and value; default. */
static void test_parse_invalid(void **state)
{
    (void)state;
    const char *env[] = {"DL_LOG",    "chatty", "DL_STATS",   "1",
                         "DL_TILE",   "0",      "DL_ALGO",    "fast",
                         "DL_POLICY", "never",  "DL_DISABLE", "maybe",
                         "OTHER",     "x",      NULL};
    dl_controls c;
    warnings w = {.n = 0};
    unsigned invalid = dl_controls_parse(&c, fake_get, env, keep, &w);
    assert_int_equal(invalid, 4);
    assert_int_equal(w.n, 4);
    static const char *const pairs[][2] = {{"DL_LOG", "'chatty'"},
                                           {"DL_DISABLE", "'maybe'"},
                                           {"DL_TILE", "'0'"},
                                           {"DL_ALGO", "'fast'"}};
    for (unsigned i = 0; i < 4; i++) {
        int found = 0;
        for (int j = 0; j < w.n; j++)
            found += strstr(w.text[j], pairs[i][0]) &&
                     strstr(w.text[j], pairs[i][1]);
        if (found != 1)
            fail_msg("%s=%s: %d warnings", pairs[i][0], pairs[i][1], found);
    }
    assert_int_equal(c.log_level, DL_LOG_LEVEL_WARN);
    assert_int_equal(c.disable, 0);
    assert_int_equal(c.tile, DL_CONTROL_TILE_AUTO);
    assert_int_equal(c.algo, DL_ALGO_AUTO);
    assert_int_equal(c.stats, 1);
    assert_int_equal(c.policy, DL_POLICY_NEVER);
    dl_controls_free(&c);

    /* No source at all: defaults, nothing invalid. */
    assert_int_equal(dl_controls_parse(&c, NULL, NULL, keep, &w), 0);
    assert_int_equal(c.log_level, DL_LOG_LEVEL_WARN);
    dl_controls_free(&c);
}

/* dl_controls_load: the warnings go to the log file DL_LOG_FILE names. */
static void test_load_environment(void **state)
{
    (void)state;
    char *path = temp_path();
    setenv("DL_LOG_FILE", path, 1);
    setenv("DL_TILE", "sixteen", 1);
    setenv("DL_STATS", "on", 1);
    dl_controls c;
    assert_int_equal(dl_controls_load(&c), DL_INVALID_ARGUMENT);
    assert_int_equal(c.stats, 1);
    assert_int_equal(c.tile, DL_CONTROL_TILE_AUTO);
    assert_string_equal(c.log_file, path);
    dl_log_configure(DL_LOG_LEVEL_ERROR, NULL);
    char *log = read_file(path);
    assert_non_null(log);
    assert_string_equal(log, "dlayout: warning: invalid value 'sixteen' for "
                             "DL_TILE (expected auto or a number from 1 to "
                             "2147483648); using the default 'auto'\n");
    free(log);
    unlink(path);
    dl_controls_free(&c);

    unsetenv("DL_LOG_FILE");
    unsetenv("DL_TILE");
    setenv("DL_LOG", "error", 1);
    assert_int_equal(dl_controls_load(&c), DL_SUCCESS);
    assert_int_equal(dl_log_get_level(), DL_LOG_LEVEL_ERROR);
    unsetenv("DL_LOG");
    unsetenv("DL_STATS");
    dl_controls_free(&c);
    assert_int_equal(dl_controls_load(NULL), DL_INVALID_ARGUMENT);
}

/* ---------------------------------------------------------------- printers */

static void test_help(void **state)
{
    (void)state;
    char *help = capture(dl_controls_print_help);
    for (unsigned i = 0; i < dl_control_count; i++)
        assert_non_null(strstr(help, dl_control_table[i].name));
    assert_non_null(strstr(help, "  DL_LOG=error|warn|info|debug  (default: "
                                 "warn)\n"));
    assert_non_null(strstr(help, "  DL_TILE=auto|N  (default: auto)\n"));
    assert_non_null(strstr(help, "  DL_DUMP_DIR=PATH\n"));
    /* Wrapped to 79 columns. */
    for (char *line = help; *line;) {
        size_t n = strcspn(line, "\n");
        if (n > 79)
            fail_msg("help line too long: %.*s", (int)n, line);
        line += n + (line[n] == '\n');
    }
    free(help);
}

static void test_markdown_matches_docs(void **state)
{
    (void)state;
    char *generated = capture(dl_controls_print_markdown);
    for (unsigned i = 0; i < dl_control_count; i++) {
        char heading[64];
        snprintf(heading, sizeof heading, "\n## %s\n",
                 dl_control_table[i].name);
        assert_non_null(strstr(generated, heading));
    }
    assert_non_null(strstr(generated, "| `DL_ALGO` | `auto`, `bs`, `pttwac`, "
                                      "`pipt`, `oop` | `auto` |\n"));
    if (!docs_path)
        fail_msg("usage: test_controls PATH/TO/docs/controls.md");
    char *committed = read_file(docs_path);
    if (!committed)
        fail_msg("cannot read %s", docs_path);
    if (strcmp(generated, committed) != 0)
        fail_msg(
            "%s is out of date with runtime/controls/controls.def: regenerate "
            "it with `ninja -C build controls-doc`",
            docs_path);
    free(committed);
    free(generated);
}

/* ------------------------------------------------------------------ logger */

static void test_log_levels_and_format(void **state)
{
    (void)state;
    char *path = temp_path();
    assert_int_equal(dl_log_configure(DL_LOG_LEVEL_INFO, path), DL_SUCCESS);
    assert_true(dl_log_enabled(DL_LOG_LEVEL_INFO));
    assert_false(dl_log_enabled(DL_LOG_LEVEL_DEBUG));
    DL_LOG_DEBUG("hidden %d", 1);
    DL_LOG_INFO("shown %d", 2);
    DL_LOG_WARN_AT("prog.cl", 12, "about line %d", 12);
    DL_LOG_ERROR("bad");
    DL_LOG_DEBUG_AT("prog.cl", 1, "hidden too");
    dl_log_at(DL_LOG_LEVEL_ERROR, NULL, 3, "no file");
    dl_log_set_level(DL_LOG_LEVEL_DEBUG);
    DL_LOG_DEBUG("now shown");
    dl_log_close();
    char *log = read_file(path);
    assert_string_equal(log, "dlayout: info: shown 2\n"
                             "dlayout: warning: prog.cl:12: about line 12\n"
                             "dlayout: error: bad\n"
                             "dlayout: error: <source>:3: no file\n"
                             "dlayout: debug: now shown\n");
    free(log);

    /* Long messages are not cut. */
    unlink(path);
    assert_int_equal(dl_log_configure(DL_LOG_LEVEL_WARN, path), DL_SUCCESS);
    char big[5000], want[5100];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    DL_LOG_WARN("%s", big);
    dl_log_close();
    log = read_file(path);
    snprintf(want, sizeof want, "dlayout: warning: %s\n", big);
    assert_string_equal(log, want);
    free(log);
    unlink(path);

    assert_string_equal(dl_log_level_name(DL_LOG_LEVEL_WARN), "warning");
    assert_string_equal(dl_log_level_name((dl_log_level)42), "log");
    dl_log_set_level((dl_log_level)-3);
    assert_int_equal(dl_log_get_level(), DL_LOG_LEVEL_ERROR);
    dl_log_set_level((dl_log_level)9);
    assert_int_equal(dl_log_get_level(), DL_LOG_LEVEL_DEBUG);
    dl_log_configure(DL_LOG_LEVEL_ERROR, NULL);
}

static void test_log_bad_file(void **state)
{
    (void)state;
    assert_int_equal(
        dl_log_configure(DL_LOG_LEVEL_ERROR, "/nonexistent/dir/x.log"),
        DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), "/nonexistent/dir/x.log"));
    DL_LOG_ERROR("still logging to stderr (expected in the test output)");
}

#define THREADS 8
#define LINES   2000

static void *log_many(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < LINES; i++)
        DL_LOG_WARN_AT("t.cl", (unsigned)i, "thread %ld line %d %s", id, i,
                       "padding padding padding padding padding padding");
    return NULL;
}

/* Lines of concurrent threads never interleave. */
static void test_log_threads(void **state)
{
    (void)state;
    char *path = temp_path();
    assert_int_equal(dl_log_configure(DL_LOG_LEVEL_WARN, path), DL_SUCCESS);
    pthread_t threads[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, log_many, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    dl_log_close();
    char *log = read_file(path);
    int count[THREADS] = {0}, lines = 0;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned at;
        long id;
        int i;
        char tail[64];
        if (sscanf(line,
                   "dlayout: warning: t.cl:%u: thread %ld line %d %63[a-z ]",
                   &at, &id, &i, tail) != 4 ||
            (int)at != i || id < 0 || id >= THREADS ||
            strcmp(tail, "padding padding padding padding padding "
                         "padding") != 0)
            fail_msg("mangled line: %s", line);
        count[id]++;
        lines++;
    }
    assert_int_equal(lines, THREADS * LINES);
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(count[t], LINES);
    free(log);
    unlink(path);
    dl_log_configure(DL_LOG_LEVEL_ERROR, NULL);
}

int main(int argc, char **argv)
{
    docs_path = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_enums),
        cmocka_unit_test(test_bools),
        cmocka_unit_test(test_tile),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_unknown_names),
        cmocka_unit_test(test_value_text),
        cmocka_unit_test(test_fraction),
        cmocka_unit_test(test_parse_invalid),
        cmocka_unit_test(test_load_environment),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_markdown_matches_docs),
        cmocka_unit_test(test_log_levels_and_format),
        cmocka_unit_test(test_log_bad_file),
        cmocka_unit_test(test_log_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

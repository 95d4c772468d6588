/* dl-run.c - runs a program under dlayout: sets the DL_* controls its
 * options ask for, adds the shim to LD_PRELOAD (or OPENCL_LAYERS with
 * --layer) and executes the program, whose exit status is dl-run's.
 *
 * Exit status of dl-run itself, as env(1) has them: 2 bad usage, 125 the
 * shim cannot be found, 126 the program cannot be executed, 127 it does
 * not exist. */
#define _GNU_SOURCE
#include "controls.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* From meson: the shims' file names, where `meson install` puts them, and
 * that folder relative to the installed dl-run ("" if not expressible). */
#ifndef DL_SHIM_PRELOAD_NAME
#error "the DL_SHIM_ paths come from interpose/meson.build"
#endif

enum {
    EXIT_USAGE = 2,
    EXIT_NO_SHIM = 125,
    EXIT_CANNOT_RUN = 126,
    EXIT_NOT_FOUND = 127
};

static void usage(FILE *out)
{
    fputs("Usage: dl-run [options] [--] program [arguments...]\n"
          "\n"
          "Runs an unmodified OpenCL program with dlayout: buffers of "
          "annotated kernels\nare converted to the layout the kernel "
          "expects and restored before the host\nsees them.\n"
          "\n"
          "Options:\n"
          "  --layer        load dlayout as an OpenCL ICD loader layer "
          "(OPENCL_LAYERS);\n"
          "                 also catches programs that dlopen libOpenCL "
          "themselves\n"
          "  --preload      load dlayout with LD_PRELOAD (the default)\n"
          "  --stats        print one dlayout-stats line at exit "
          "(DL_STATS=1)\n"
          "  --coalescing   print the memory transactions of each annotated "
          "indirect\n                 reference at exit (DL_COALESCING=1)\n"
          "  --log LEVEL    error, warn, info or debug (DL_LOG=LEVEL)\n"
          "  --disable      pure pass-through, nothing converted "
          "(DL_DISABLE=1)\n"
          "  -h, --help     print this help and exit\n"
          "  --version      print dl-run's version and exit\n"
          "\n"
          "Options set the environment variables below; any of them can "
          "also be set\ndirectly.  An option wins over the variable it "
          "sets (dl-run says so on\nstderr when both are given and "
          "differ).  Options end at the first word that\nis not one, "
          "or at '--'.  The program's exit status is dl-run's.\n"
          "\n",
          out);
    dl_controls_print_help(out);
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("dl-run: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'dl-run --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* The shim `name`: next to dl-run (build tree), then in the installed
 * folder relative to dl-run (a moved install), then where meson installed
 * it.  Returns 0 and the resolved path in `out` (PATH_MAX bytes). */
static int find_shim(const char *name, char *out)
{
    char exe[PATH_MAX], candidate[2 * PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(candidate, sizeof candidate, "%s/%s", exe, name);
            if (realpath(candidate, out))
                return 0;
            if (*DL_SHIM_RELATIVE_DIR) {
                snprintf(candidate, sizeof candidate, "%s/%s/%s", exe,
                         DL_SHIM_RELATIVE_DIR, name);
                if (realpath(candidate, out))
                    return 0;
            }
        }
    }
    snprintf(candidate, sizeof candidate, "%s/%s", DL_SHIM_INSTALL_DIR, name);
    return realpath(candidate, out) ? 0 : -1;
}

/* Appends `path` to the ':'-separated list in variable `var`. */
static int append_to_list(const char *var, const char *path)
{
    const char *old = secure_getenv(var);
    if (!old || !*old)
        return setenv(var, path, 1);
    size_t size = strlen(old) + strlen(path) + 2;
    char *list = malloc(size);
    if (!list)
        return -1;
    snprintf(list, size, "%s:%s", old, path);
    int rc = setenv(var, list, 1);
    free(list);
    return rc;
}

/* Sets control `name` for the program.  The command line wins over the
 * environment; when they differ, one line says which value was dropped. */
static int set_control(const char *name, const char *value, const char *option)
{
    const char *env = getenv(name);
    if (env && strcmp(env, value) != 0)
        fprintf(stderr, "dl-run: %s overrides %s=%s from the environment\n",
                option, name, env);
    return setenv(name, value, 1);
}

/* --log's level, checked with the runtime's own parser. */
static int valid_log_level(const char *level)
{
    dl_controls check;
    dl_controls_defaults(&check);
    dl_status status = dl_controls_set(&check, "DL_LOG", level);
    dl_controls_free(&check);
    return status == DL_SUCCESS && *level;
}

enum {
    OPT_LAYER = 256,
    OPT_PRELOAD,
    OPT_STATS,
    OPT_COALESCING,
    OPT_LOG,
    OPT_DISABLE,
    OPT_VERSION
};

static const struct option long_options[] = {
    {"layer", no_argument, NULL, OPT_LAYER},
    {"preload", no_argument, NULL, OPT_PRELOAD},
    {"stats", no_argument, NULL, OPT_STATS},
    {"coalescing", no_argument, NULL, OPT_COALESCING},
    {"log", required_argument, NULL, OPT_LOG},
    {"disable", no_argument, NULL, OPT_DISABLE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* getopt_long's complaint ('?' or ':') as a usage error. */
static int bad_option(int c, char **argv)
{
    const char *arg = argv[optind - 1];
    char short_option[3] = {'-', (char)optopt, '\0'};
    if (c == ':')
        return usage_error("%s needs a value", arg);
    if (optopt >= OPT_LAYER)
        return usage_error("%s takes no value", arg);
    return usage_error("unknown option '%s'", optopt ? short_option : arg);
}

/* Parses dl-run's own options, which end at the first non-option ('+')
 * or at "--"; sets *first to the program's index.  Returns -1 to go on,
 * else dl-run's exit status. */
static int parse_options(int argc, char **argv, int *layer, int *first)
{
    char log_option[64];
    opterr = 0; /* our messages, in usage_error's form */
    for (int c;
         (c = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1;) {
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case OPT_VERSION:
            printf("dl-run (dlayout) %s\n", DL_VERSION);
            return 0;
        case OPT_LAYER:
            *layer = 1;
            break;
        case OPT_PRELOAD:
            *layer = 0;
            break;
        case OPT_STATS:
            set_control("DL_STATS", "1", "--stats");
            break;
        case OPT_COALESCING:
            set_control("DL_COALESCING", "1", "--coalescing");
            break;
        case OPT_DISABLE:
            set_control("DL_DISABLE", "1", "--disable");
            break;
        case OPT_LOG:
            if (!valid_log_level(optarg))
                return usage_error("invalid log level '%s' (error, warn, "
                                   "info or debug)",
                                   optarg);
            snprintf(log_option, sizeof log_option, "--log %s", optarg);
            set_control("DL_LOG", optarg, log_option);
            break;
        default:
            return bad_option(c, argv);
        }
    }
    *first = optind;
    return -1;
}

int main(int argc, char **argv)
{
    int layer = 0, first = argc;
    int code = parse_options(argc, argv, &layer, &first);
    if (code >= 0)
        return code;
    if (first >= argc)
        return usage_error("%s", "no program given");
    const char *name = layer ? DL_SHIM_LAYER_NAME : DL_SHIM_PRELOAD_NAME;
    char shim[PATH_MAX];
    if (find_shim(name, shim) != 0) {
        fprintf(stderr, "dl-run: cannot find %s next to dl-run or in %s\n",
                name, DL_SHIM_INSTALL_DIR);
        return EXIT_NO_SHIM;
    }
    /* Both lists are split at ':' (LD_PRELOAD also at blanks). */
    if (strpbrk(shim, ": \t")) {
        fprintf(stderr,
                "dl-run: the shim's path '%s' contains ':' or a "
                "blank and cannot be listed\n",
                shim);
        return EXIT_NO_SHIM;
    }
    if (append_to_list(layer ? "OPENCL_LAYERS" : "LD_PRELOAD", shim) != 0) {
        perror("dl-run: setenv");
        return EXIT_NO_SHIM;
    }

    execvp(argv[first], argv + first);
    int err = errno;
    fprintf(stderr, "dl-run: %s: %s\n", argv[first], strerror(err));
    return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}

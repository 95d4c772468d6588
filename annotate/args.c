/* args.c - dl-annotate's command line (getopt_long) and the compiler
 * arguments of the parse: a compile command from compile_commands.json
 * (-p BUILD_DIR, through libclang's CXCompilationDatabase, as clang-tidy
 * reads it), then -I/-D, then everything after "--". */
#define _GNU_SOURCE
#include "dla.h"

#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: dl-annotate [options] INPUT.cl [-- COMPILER-ARGS...]\n"
    "\n"
    "Finds array-of-structures accesses in OpenCL C kernels, writes `//DL:`\n"
    "annotations for the dlayout runtime and rewrites each kernel so that it\n"
    "indexes the transformed layout under `#ifdef DL_ACTIVE_<kernel>`; the\n"
    "`#else` branch keeps the original code, so the output runs as written\n"
    "without dlayout.\n"
    "\n"
    "options:\n"
    "  -o FILE          write the output to FILE (default: stdout)\n"
    "  -i               edit INPUT.cl in place, keeping INPUT.cl.orig\n"
    "  -I DIR, -D N[=V] include directories and macros for the parse\n"
    "  -p BUILD_DIR     parse with INPUT.cl's compile command from\n"
    "                   BUILD_DIR/compile_commands.json, as clang-tidy does\n"
    "                   (its -c and -o FILE dropped)\n"
    "  -- ARGS          everything after '--' goes to clang as it is (OpenCL\n"
    "                   build options such as -cl-std=CL2.0 -DN=4); it comes\n"
    "                   after -p's command and -I/-D\n"
    "  --layout asta|da target layout (default: asta, whose tile the\n"
    "                   runtime picks per device with --tile auto)\n"
    "  --tile T|auto    ASTA tile (default: auto, the runtime chooses)\n"
    "  --check          validate the annotations against the code; write\n"
    "                   nothing\n"
    "  --explain        say for every pointer argument why it was or was\n"
    "                   not transformed (on stderr)\n"
    "  -h, --help       this text\n"
    "  --version        print the version\n"
    "\n"
    "Any other option is a usage error.\n"
    "\n"
    "exit status: 0 success (also when nothing was transformable), 1 input\n"
    "errors (file:line:col: error: ...), 2 usage errors\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "dl-annotate: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'dl-annotate --help'.\n");
    return 2;
}

enum { OPT_LAYOUT = 0x100, OPT_TILE, OPT_CHECK, OPT_EXPLAIN, OPT_VERSION };

static const struct option long_options[] = {
    {"layout", required_argument, NULL, OPT_LAYOUT},
    {"tile", required_argument, NULL, OPT_TILE},
    {"check", no_argument, NULL, OPT_CHECK},
    {"explain", no_argument, NULL, OPT_EXPLAIN},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* getopt_long's complaint ('?' or ':') about the word `arg` as a usage
 * error: a single-dash word such as -explain is not passed to clang. */
static int bad_option(int c, const char *arg)
{
    if (c == ':')
        return usage_error("option '%s' needs a value", arg);
    if (optopt >= OPT_LAYOUT)
        return usage_error("option '%s' takes no value", arg);
    if (optopt && strlen(arg) > 2)
        return usage_error("unknown option '%s' (long options take two "
                           "dashes; compiler arguments go after '--')",
                           arg);
    return usage_error("unknown option '%s'", arg);
}

static int set_layout(dla_options *o, const char *val)
{
    if (strcmp(val, "da") == 0)
        o->layout = DLA_TARGET_DA;
    else if (strcmp(val, "asta") == 0)
        o->layout = DLA_TARGET_ASTA;
    else
        return usage_error("--layout must be da or asta, not '%s'", val);
    return 0;
}

static int set_tile(dla_options *o, const char *val)
{
    char *end;
    errno = 0;
    unsigned long long t = strtoull(val, &end, 10);
    if (strcmp(val, "auto") == 0)
        o->tile = 0;
    else if (*val < '0' || *val > '9' || *end || errno || t < 1 ||
             t > DL_ANNOT_MAX_TILE)
        return usage_error("--tile must be auto or 1..2^31, not '%s'", val);
    else
        o->tile = (size_t)t;
    return 0;
}

/* What the command line holds before the parse's arguments are put
 * together. */
typedef struct cli {
    const char **defines; /* -I DIR and -D N[=V], as pairs */
    int ndefines;
    const char *build_dir; /* -p */
} cli;

/* One option or the input (code 1) from the word `arg`; 0 to go on, else
 * an exit status (-1 after --help and --version). */
static int take(dla_options *o, cli *c, int code, const char *arg)
{
    switch (code) {
    case 1:
        if (o->input)
            return usage_error("more than one input ('%s')", optarg);
        o->input = optarg;
        return 0;
    case 'o':
        o->output = optarg;
        return 0;
    case 'i':
        o->in_place = 1;
        return 0;
    case 'I':
    case 'D':
        c->defines[c->ndefines++] = code == 'I' ? "-I" : "-D";
        c->defines[c->ndefines++] = optarg;
        return 0;
    case 'p':
        c->build_dir = optarg;
        return 0;
    case OPT_LAYOUT:
        return set_layout(o, optarg);
    case OPT_TILE:
        return set_tile(o, optarg);
    case OPT_CHECK:
        o->check = 1;
        return 0;
    case OPT_EXPLAIN:
        o->explain = 1;
        return 0;
    case 'h':
        fputs(usage_text, stdout);
        return -1;
    case OPT_VERSION:
        printf("dl-annotate (dlayout) %s\n", DL_VERSION);
        return -1;
    default:
        return bad_option(code, arg);
    }
}

/* Appends `arg` to o->clang_args; 0, or 1 with a message. */
static int push_arg(dla_options *o, const char *arg)
{
    const char **grown =
        realloc(o->clang_args, (size_t)(o->nclang + 1) * sizeof *grown);
    if (!grown || !arg) {
        fprintf(stderr, "dl-annotate: out of memory\n");
        return 1;
    }
    o->clang_args = grown;
    o->clang_args[o->nclang++] = arg;
    return 0;
}

/* Whether `arg` of a command run in `dir` names the file at `path`. */
static int names_input(const char *arg, const char *dir, const char *path)
{
    char *joined = arg[0] == '/' ? strdup(arg) : dla_printf("%s/%s", dir, arg);
    char *real = joined ? realpath(joined, NULL) : NULL;
    int same = real && strcmp(real, path) == 0;
    free(real);
    free(joined);
    return same;
}

/* The compile command's arguments without the compiler, the input, -c,
 * -o FILE (the parse compiles nothing) and the "--" before the input in
 * commands libclang infers for files the database does not list; run in
 * its directory, clang then reads the input at its absolute `path`. */
static int take_command(dla_options *o, CXCompileCommand cmd, const char *path)
{
    CXString dir_s = clang_CompileCommand_getDirectory(cmd);
    char *dir = strdup(clang_getCString(dir_s));
    clang_disposeString(dir_s);
    int rc = push_arg(o, "-working-directory") || push_arg(o, dir);
    unsigned n = clang_CompileCommand_getNumArgs(cmd);
    for (unsigned i = 1; i < n && !rc; i++) {
        CXString arg_s = clang_CompileCommand_getArg(cmd, i);
        const char *arg = clang_getCString(arg_s);
        if (strcmp(arg, "-o") == 0)
            i++; /* and its FILE */
        else if (strcmp(arg, "-c") != 0 && strcmp(arg, "--") != 0 &&
                 !names_input(arg, dir, path))
            rc = push_arg(o, strdup(arg));
        clang_disposeString(arg_s);
    }
    o->parse_input = strdup(path);
    return rc || !o->parse_input;
}

/* Appends the arguments of INPUT's compile command in the database of
 * `dir` to o->clang_args.  0, or 1 with a message. */
static int compile_command_args(dla_options *o, const char *dir)
{
    char *json = dla_printf("%s/compile_commands.json", dir);
    if (!json || access(json, R_OK) != 0) {
        fprintf(stderr, "dl-annotate: cannot read %s: %s\n", json ? json : dir,
                strerror(errno));
        free(json);
        return 1;
    }
    free(json);
    CXCompilationDatabase_Error err;
    CXCompilationDatabase db =
        clang_CompilationDatabase_fromDirectory(dir, &err);
    char *path = realpath(o->input, NULL);
    CXCompileCommands cmds =
        db && path ? clang_CompilationDatabase_getCompileCommands(db, path)
                   : NULL;
    int rc = 0;
    if (err != CXCompilationDatabase_NoError || !db) {
        fprintf(stderr, "dl-annotate: cannot load %s/compile_commands.json\n",
                dir);
        rc = 1;
    } else if (!path || !cmds || clang_CompileCommands_getSize(cmds) == 0) {
        fprintf(stderr,
                "%s:1:1: error: %s/compile_commands.json has no "
                "compile command for it\n",
                o->input, dir);
        rc = 1;
    } else {
        rc = take_command(o, clang_CompileCommands_getCommand(cmds, 0), path);
    }
    if (cmds)
        clang_CompileCommands_dispose(cmds);
    if (db)
        clang_CompilationDatabase_dispose(db);
    free(path);
    return rc;
}

/* The parse's arguments: -p's compile command, -I/-D, then those after
 * "--" (argv[first..]).  0, or 1 with a message. */
static int gather_clang_args(dla_options *o, const cli *c, int argc,
                             char **argv, int first)
{
    if (c->build_dir && compile_command_args(o, c->build_dir))
        return 1;
    for (int i = 0; i < c->ndefines; i++)
        if (push_arg(o, c->defines[i]))
            return 1;
    for (int i = first; i < argc; i++)
        if (push_arg(o, argv[i]))
            return 1;
    return 0;
}

int dla_parse_args(int argc, char **argv, dla_options *o)
{
    cli c = {calloc((size_t)argc * 2 + 2, sizeof *c.defines), 0, NULL};
    if (!c.defines)
        return 1;
    /* ASTA(T) holds AoS (T = 1) and, for a count within one tile, DA:
     * with --tile auto the runtime picks T from the calibration of the
     * device the program runs on, not the annotator (docs/annotations.md). */
    o->layout = DLA_TARGET_ASTA;
    /* '-': the input comes back in order as code 1, so that getopt_long
     * stops at "--" with optind at the compiler arguments. */
    opterr = 0;
    int rc = 0;
    for (int code, word = optind;
         !rc && (code = getopt_long(argc, argv, "-:o:iI:D:p:h", long_options,
                                    NULL)) != -1;
         word = optind)
        rc = take(o, &c, code, argv[word]); /* '-' never permutes argv */
    if (!rc && !o->input)
        rc = usage_error("%s", "no input file");
    if (!rc && o->in_place && o->output)
        rc = usage_error("%s", "-i and -o exclude each other");
    if (!rc)
        rc = gather_clang_args(o, &c, argc, argv, optind);
    free(c.defines);
    return rc;
}

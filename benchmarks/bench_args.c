/* bench_args.c - option scanning (the scanner of suite and accept, the
 * getopt_long helpers of the measuring subcommands), strict number
 * parsing and the median. */
#include "bench.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void bench_args_init(bench_args *a, const char *cmd, int argc, char **argv)
{
    *a = (bench_args){.argc = argc, .argv = argv, .cmd = cmd};
}

/* "--name=value" is split: the name is copied to a->name and the value
 * kept for bench_args_value. */
const char *bench_args_next(bench_args *a)
{
    a->inline_value = NULL;
    if (a->next >= a->argc)
        return NULL;
    const char *arg = a->argv[a->next++];
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    if (!eq)
        return arg;
    size_t n = (size_t)(eq - arg);
    if (n >= sizeof a->name)
        n = sizeof a->name - 1; /* still unknown: too long for any option */
    memcpy(a->name, arg, n);
    a->name[n] = '\0';
    a->inline_value = eq + 1;
    return a->name;
}

const char *bench_args_value(bench_args *a, const char *opt)
{
    if (a->inline_value)
        return a->inline_value;
    if (a->next >= a->argc) {
        fprintf(stderr, "dl-bench %s: option %s needs a value\n", a->cmd, opt);
        return NULL;
    }
    return a->argv[a->next++];
}

int bench_device_option(int code, const char *value, device_choice *choice)
{
    const char *opt = code == BENCH_OPT_PLATFORM ? "--platform" : "--device";
    size_t index;
    if (!bench_parse_size(opt, value, &index) || index > 1u << 20) {
        fprintf(stderr,
                "dl-bench: %s expects an index (0, 1, ...), got "
                "'%s'\n",
                opt, value);
        return 0;
    }
    *(code == BENCH_OPT_PLATFORM ? &choice->platform : &choice->device) =
        (long)index;
    return 1;
}

void bench_option_error(const char *cmd, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    if (c == ':')
        fprintf(stderr, "dl-bench %s: option %s needs a value\n", cmd, arg);
    else if (optopt > 0 && optopt < 0x80)
        fprintf(stderr, "dl-bench %s: unknown option '-%c'\n", cmd, optopt);
    else if (optopt)
        fprintf(stderr, "dl-bench %s: option %s takes no value\n", cmd, arg);
    else
        fprintf(stderr, "dl-bench %s: unknown option '%s'\n", cmd, arg);
}

void bench_print_version(void)
{
    printf("dl-bench (dlayout) %s\n", DL_VERSION);
}

int bench_parse_size(const char *opt, const char *text, size_t *out)
{
    const char *p = text;
    if (!isdigit((unsigned char)*p))
        goto bad;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno == ERANGE)
        goto bad;
    unsigned shift = 0;
    switch (*end) {
    case 'K':
    case 'k':
        shift = 10;
        end++;
        break;
    case 'M':
    case 'm':
        shift = 20;
        end++;
        break;
    case 'G':
    case 'g':
        shift = 30;
        end++;
        break;
    default:
        break;
    }
    if (*end != '\0' || v > (SIZE_MAX >> shift))
        goto bad;
    *out = (size_t)v << shift;
    return 1;
bad:
    fprintf(stderr,
            "dl-bench: %s expects an unsigned number (optional K, M "
            "or G suffix), got '%s'\n",
            opt, text);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

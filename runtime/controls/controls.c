/* controls.c - defaults, parsing and printing of the DL_* settings; every
 * piece is generated from controls.def so that none can be forgotten. */
#define _GNU_SOURCE /* secure_getenv */
#include "controls.h"
#include "error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ENUM rows are stored as the index of their value; these C enums must
 * therefore list the values in the order controls.def gives them. */
_Static_assert(DL_LOG_LEVEL_ERROR == 0 && DL_LOG_LEVEL_DEBUG == 3,
               "DL_LOG order: error|warn|info|debug");
_Static_assert(DL_ALGO_AUTO == 0 && DL_ALGO_BS == 1 && DL_ALGO_PTTWAC == 2 &&
                   DL_ALGO_PIPT == 3 && DL_ALGO_OOP == 4,
               "DL_ALGO order: auto|bs|pttwac|pipt|oop");
_Static_assert(DL_POLICY_AUTO == 0 && DL_POLICY_NEVER == 2,
               "DL_POLICY order: auto|always|never");
_Static_assert(DL_IRREGULAR_AUTO == 0 && DL_IRREGULAR_REMAP == 5 &&
                   DL_IRREGULAR_RENUMBER == 6 && DL_IRREGULAR_SHARING == 7,
               "DL_IRREGULAR order: auto|none|gather|jobswap|padding|remap|"
               "renumber|sharing");

/* Row numbers, named after the members. */
enum {
#define DL_CONTROL(name, member, kind, ctype, def, values, help) CTL_##member,
#include "controls.def"
#undef DL_CONTROL
    CTL_COUNT
};

const dl_control_info dl_control_table[] = {
#define DL_CONTROL(name, member, kind, ctype, def, values, help)               \
    {name, DL_CONTROL_##kind, def, values, help},
#include "controls.def"
#undef DL_CONTROL
};
const unsigned dl_control_count = CTL_COUNT;

const dl_control_info *dl_control_find(const char *name)
{
    for (unsigned i = 0; name && i < CTL_COUNT; i++)
        if (strcmp(dl_control_table[i].name, name) == 0)
            return &dl_control_table[i];
    return NULL;
}

/* ---------------------------------------------------------------- parsing */

typedef struct parsed {
    long long number; /* ENUM index, BOOL 0/1, TILE; FRACTION: 0 if valid */
    char *path;       /* PATH: owned, NULL for "unset" */
    double fraction;  /* FRACTION */
} parsed;

/* Index of `text` in "a|b|c" (any case), or -1. */
static int enum_index(const char *values, const char *text)
{
    size_t len = strlen(text);
    int index = 0;
    for (const char *p = values;; index++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncasecmp(p, text, n) == 0)
            return index;
        if (!bar)
            return -1;
        p = bar + 1;
    }
}

static int bool_value(const char *text)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    for (unsigned i = 0; i < 4; i++) {
        if (strcasecmp(text, yes[i]) == 0)
            return 1;
        if (strcasecmp(text, no[i]) == 0)
            return 0;
    }
    return -1;
}

/* "auto" -> 0; else a plain decimal 1..DL_CONTROL_TILE_MAX. */
static long long tile_value(const char *text)
{
    if (strcasecmp(text, "auto") == 0)
        return DL_CONTROL_TILE_AUTO;
    unsigned long long v = 0;
    if (!*text)
        return -1;
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p) || v > DL_CONTROL_TILE_MAX)
            return -1;
        v = v * 10 + (unsigned)(*p - '0');
    }
    return v >= 1 && v <= DL_CONTROL_TILE_MAX ? (long long)v : -1;
}

/* A plain decimal (digits, at most one point, no sign or exponent) in
 * (0, 1]; -1 otherwise. */
static double fraction_value(const char *text)
{
    size_t digits = strspn(text, "0123456789"), n = digits;
    if (text[n] == '.') {
        size_t more = strspn(text + n + 1, "0123456789");
        digits += more;
        n += 1 + more;
    }
    if (digits == 0 || text[n] != '\0')
        return -1.0;
    double v = strtod(text, NULL);
    return v > 0.0 && v <= 1.0 ? v : -1.0;
}

static dl_status parse_text(const dl_control_info *info, const char *text,
                            parsed *out)
{
    out->number = -1;
    out->path = NULL;
    out->fraction = 0.0;
    switch (info->kind) {
    case DL_CONTROL_ENUM:
        out->number = enum_index(info->values, text);
        break;
    case DL_CONTROL_BOOL:
        out->number = bool_value(text);
        break;
    case DL_CONTROL_TILE:
        out->number = tile_value(text);
        break;
    case DL_CONTROL_FRACTION:
        out->fraction = fraction_value(text);
        out->number = out->fraction > 0.0 ? 0 : -1;
        break;
    case DL_CONTROL_PATH:
        out->number = 0;
        if (*text) {
            out->path = strdup(text);
            DL_RETURN_ERROR_ON(!out->path, DL_OUT_OF_MEMORY,
                               "out of host memory");
        }
        break;
    }
    DL_RETURN_ERROR_ON(out->number < 0, DL_INVALID_ARGUMENT,
                       "invalid value '%s' for %s (expected %s); using the "
                       "default '%s'",
                       text, info->name,
                       info->kind == DL_CONTROL_BOOL ? "1|0|yes|no|true|"
                                                       "false|on|off"
                       : info->kind == DL_CONTROL_TILE
                           ? "auto or a number from 1 to 2147483648"
                       : info->kind == DL_CONTROL_FRACTION
                           ? "a decimal number above 0 and at most 1"
                           : info->values,
                       info->def);
    return DL_SUCCESS;
}

/* Stores a parsed value into the member of row `row`. */
#define DL_ASSIGN_ENUM(member, ctype)     c->member = (ctype)v->number
#define DL_ASSIGN_BOOL(member, ctype)     c->member = (ctype)v->number
#define DL_ASSIGN_TILE(member, ctype)     c->member = (ctype)v->number
#define DL_ASSIGN_FRACTION(member, ctype) c->member = (ctype)v->fraction
#define DL_ASSIGN_PATH(member, ctype)                                          \
    do {                                                                       \
        free(c->member);                                                       \
        c->member = v->path;                                                   \
    } while (0)

static void assign(dl_controls *c, unsigned row, const parsed *v)
{
    switch (row) {
#define DL_CONTROL(name, member, kind, ctype, def, values, help)               \
    case CTL_##member:                                                         \
        DL_ASSIGN_##kind(member, ctype);                                       \
        break;
#include "controls.def"
#undef DL_CONTROL
    }
}

/* Copies `value` without leading and trailing blanks (a stray space in a
 * shell export should not make a value invalid). */
static char *trimmed(const char *value)
{
    /* strspn, not a loop over isspace: GCC 12 at -O3 reads such a loop
     * on the constant "" past its end (-Warray-bounds) once the table
     * has 13 rows. */
    value += strspn(value, " \t\n\v\f\r");
    size_t n = strlen(value);
    while (n && isspace((unsigned char)value[n - 1]))
        n--;
    return strndup(value, n);
}

dl_status dl_controls_set(dl_controls *c, const char *name, const char *value)
{
    DL_RETURN_ERROR_ON(!c, DL_INVALID_ARGUMENT, "controls are NULL");
    const dl_control_info *info = dl_control_find(name);
    DL_RETURN_ERROR_ON(!info, DL_INVALID_ARGUMENT, "unknown control '%s'",
                       name ? name : "(null)");
    /* Unset is the default (not "": GCC 12 at -O3 warns about the
     * blank-skipping loop on a constant empty string). */
    char *text = trimmed(value ? value : info->def);
    DL_RETURN_ERROR_ON(!text, DL_OUT_OF_MEMORY, "out of host memory");
    parsed v;
    dl_status status = parse_text(info, *text ? text : info->def, &v);
    free(text);
    DL_RETURN_IF_FAIL(status);
    assign(c, (unsigned)(info - dl_control_table), &v);
    return DL_SUCCESS;
}

void dl_controls_defaults(dl_controls *c)
{
    memset(c, 0, sizeof *c);
    for (unsigned i = 0; i < CTL_COUNT; i++)
        dl_controls_set(c, dl_control_table[i].name, NULL);
}

void dl_controls_free(dl_controls *c)
{
    if (!c)
        return;
#define DL_FREE_ENUM(member)
#define DL_FREE_BOOL(member)
#define DL_FREE_TILE(member)
#define DL_FREE_FRACTION(member)
#define DL_FREE_PATH(member)                                                   \
    free(c->member);                                                           \
    c->member = NULL;
#define DL_CONTROL(name, member, kind, ctype, def, values, help)               \
    DL_FREE_##kind(member)
#include "controls.def"
#undef DL_CONTROL
}

unsigned dl_controls_parse(dl_controls *c, dl_control_get_fn get,
                           void *get_user, dl_control_warn_fn warn,
                           void *warn_user)
{
    dl_controls_defaults(c);
    unsigned invalid = 0;
    for (unsigned i = 0; get && i < CTL_COUNT; i++) {
        const char *value = get(dl_control_table[i].name, get_user);
        if (!value ||
            dl_controls_set(c, dl_control_table[i].name, value) == DL_SUCCESS)
            continue;
        invalid++;
        if (warn)
            warn(dl_last_error(), warn_user);
    }
    return invalid;
}

/* ------------------------------------------------------------ environment */

/* secure_getenv: in a setuid or setgid process the environment belongs to
 * whoever ran it, so no DL_* variable is read there (the runtime does not
 * even start: rt_init.c). */
static const char *from_environment(const char *name, void *user)
{
    (void)user;
    return secure_getenv(name);
}

/* Warnings wait here until the logger knows DL_LOG_FILE. */
typedef struct pending_warnings {
    char text[CTL_COUNT][512];
    unsigned n;
} pending_warnings;

static void keep_warning(const char *message, void *user)
{
    pending_warnings *p = user;
    if (p->n < CTL_COUNT)
        snprintf(p->text[p->n++], sizeof p->text[0], "%s", message);
}

dl_status dl_controls_load(dl_controls *c)
{
    DL_RETURN_ERROR_ON(!c, DL_INVALID_ARGUMENT, "controls are NULL");
    pending_warnings pending = {.n = 0};
    unsigned invalid =
        dl_controls_parse(c, from_environment, NULL, keep_warning, &pending);
    dl_log_configure(c->log_level, c->log_file);
    for (unsigned i = 0; i < pending.n; i++)
        DL_LOG_WARN("%s", pending.text[i]);
    DL_RETURN_ERROR_ON(invalid, DL_INVALID_ARGUMENT,
                       "%u DL_* setting(s) had invalid values", invalid);
    return DL_SUCCESS;
}

/* --------------------------------------------------------------- printing */

/* The n-th value of "a|b|c" into buf. */
static void enum_name(const char *values, long long n, char *buf, size_t size)
{
    const char *p = values;
    for (; n > 0 && p; n--) {
        p = strchr(p, '|');
        p = p ? p + 1 : NULL;
    }
    if (!p || n < 0) {
        snprintf(buf, size, "?");
        return;
    }
    const char *bar = strchr(p, '|');
    snprintf(buf, size, "%.*s", (int)(bar ? bar - p : (long)strlen(p)), p);
}

#define DL_NUMBER_ENUM(member)       (long long)c->member
#define DL_NUMBER_BOOL(member)       (long long)c->member
#define DL_NUMBER_TILE(member)       (long long)c->member
#define DL_NUMBER_FRACTION(member)   0
#define DL_NUMBER_PATH(member)       0
#define DL_PATH_ENUM(member)         NULL
#define DL_PATH_BOOL(member)         NULL
#define DL_PATH_TILE(member)         NULL
#define DL_PATH_FRACTION(member)     NULL
#define DL_PATH_PATH(member)         c->member
#define DL_FRACTION_ENUM(member)     0.0
#define DL_FRACTION_BOOL(member)     0.0
#define DL_FRACTION_TILE(member)     0.0
#define DL_FRACTION_FRACTION(member) c->member
#define DL_FRACTION_PATH(member)     0.0

void dl_controls_value_text(const dl_controls *c, const char *name, char *buf,
                            size_t size)
{
    const dl_control_info *info = dl_control_find(name);
    long long number = 0;
    const char *path = NULL;
    double fraction = 0.0;
    if (!buf || size == 0)
        return;
    buf[0] = '\0';
    if (!c || !info)
        return;
    switch ((unsigned)(info - dl_control_table)) {
#define DL_CONTROL(name, member, kind, ctype, def, values, help)               \
    case CTL_##member:                                                         \
        number = DL_NUMBER_##kind(member);                                     \
        path = DL_PATH_##kind(member);                                         \
        fraction = DL_FRACTION_##kind(member);                                 \
        break;
#include "controls.def"
#undef DL_CONTROL
    }
    switch (info->kind) {
    case DL_CONTROL_ENUM:
        enum_name(info->values, number, buf, size);
        break;
    case DL_CONTROL_BOOL:
        snprintf(buf, size, "%d", number != 0);
        break;
    case DL_CONTROL_PATH:
        snprintf(buf, size, "%s", path ? path : "");
        break;
    case DL_CONTROL_TILE:
        if (number == DL_CONTROL_TILE_AUTO)
            snprintf(buf, size, "auto");
        else
            snprintf(buf, size, "%lld", number);
        break;
    case DL_CONTROL_FRACTION:
        snprintf(buf, size, "%.6g", fraction);
        break;
    }
}

/* Writes `text` wrapped at `width` columns, every line indented. */
static void wrap(FILE *out, const char *text, int indent, int width)
{
    int col = 0;
    while (*text) {
        while (*text == ' ')
            text++;
        size_t word = strcspn(text, " ");
        if (!word)
            break;
        if (col > indent && col + 1 + (int)word > width) {
            fputc('\n', out);
            col = 0;
        }
        if (col == 0)
            col = fprintf(out, "%*s", indent, "");
        else
            col += fprintf(out, " ");
        col += fprintf(out, "%.*s", (int)word, text);
        text += word;
    }
    fputc('\n', out);
}

static const char *values_text(const dl_control_info *info)
{
    switch (info->kind) {
    case DL_CONTROL_BOOL:
        return "1|0";
    case DL_CONTROL_PATH:
        return "PATH";
    case DL_CONTROL_TILE:
        return "auto|N";
    case DL_CONTROL_FRACTION:
        return "F";
    case DL_CONTROL_ENUM:
        break;
    }
    return info->values;
}

void dl_controls_print_help(FILE *out)
{
    fprintf(out, "Environment variables (an invalid value is reported and "
                 "its default kept):\n");
    for (unsigned i = 0; i < CTL_COUNT; i++) {
        const dl_control_info *info = &dl_control_table[i];
        int used = fprintf(out, "  %s=%s", info->name, values_text(info));
        /* A long list of values puts the default on a line of its own. */
        if (*info->def && used + 13 + (int)strlen(info->def) > 79)
            fprintf(out, "\n      (default: %s)", info->def);
        else if (*info->def)
            fprintf(out, "  (default: %s)", info->def);
        fputc('\n', out);
        wrap(out, info->help, 6, 79);
    }
}

/* `a` | `b` | `c` for the docs. */
static void markdown_values(FILE *out, const dl_control_info *info)
{
    switch (info->kind) {
    case DL_CONTROL_BOOL:
        fprintf(out, "boolean: `1`/`0`, `yes`/`no`, `true`/`false`, "
                     "`on`/`off` (any case)");
        return;
    case DL_CONTROL_PATH:
        fprintf(out, "a path");
        return;
    case DL_CONTROL_TILE:
        fprintf(out, "`auto`, or a tile size from 1 to 2147483648");
        return;
    case DL_CONTROL_FRACTION:
        fprintf(out, "a decimal number above 0 and at most 1 (`0.25`)");
        return;
    case DL_CONTROL_ENUM:
        break;
    }
    for (const char *p = info->values; *p;) {
        size_t n = strcspn(p, "|");
        fprintf(out, "%s`%.*s`", p == info->values ? "" : ", ", (int)n, p);
        p += n + (p[n] == '|');
    }
}

void dl_controls_print_markdown(FILE *out)
{
    fprintf(
        out,
        "# DL_* controls\n"
        "\n"
        "<!-- Generated from runtime/controls/controls.def by dl-controls-doc; "
        "do not edit.\n"
        "     Regenerate with: ninja -C build controls-doc -->\n"
        "\n"
        "The dlayout runtime reads these environment variables once, "
        "when it starts.\n"
        "`dl-run --help` prints the same list.  An empty value is the "
        "same as an unset\n"
        "one.  An invalid value produces one warning that names the "
        "variable and the\n"
        "value, and the default is kept.  In a setuid or setgid "
        "program (`AT_SECURE`),\n"
        "none is read: dlayout passes every call through and writes "
        "nothing.\n"
        "\n"
        "| Variable | Values | Default |\n"
        "|----------|--------|---------|\n");
    for (unsigned i = 0; i < CTL_COUNT; i++) {
        const dl_control_info *info = &dl_control_table[i];
        fprintf(out, "| `%s` | ", info->name);
        markdown_values(out, info);
        if (*info->def)
            fprintf(out, " | `%s` |\n", info->def);
        else
            fprintf(out, " | unset |\n");
    }
    for (unsigned i = 0; i < CTL_COUNT; i++) {
        const dl_control_info *info = &dl_control_table[i];
        fprintf(out, "\n## %s\n\n", info->name);
        wrap(out, info->help, 0, 79);
    }
}

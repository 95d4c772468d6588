/* controls.h - the DL_* environment settings (the table is controls.def).
 *
 * The runtime reads them once when it starts: dl_controls_load() parses
 * the environment, configures the logger and reports every invalid value
 * with one warning (the default is kept).  Everything else here exists so
 * that tests, dl-run and the docs generator see the same table. */
#ifndef DL_CONTROLS_H
#define DL_CONTROLS_H

#include "dlayout.h"
#include "log.h"

#include <stdio.h>

/* DL_POLICY: whether annotated kernels get their transformed layout. */
typedef enum dl_policy {
    DL_POLICY_AUTO = 0, /* when the tuner expects a gain */
    DL_POLICY_ALWAYS,
    DL_POLICY_NEVER
} dl_policy;

/* DL_OVERLAP: whether a gathering launch runs in overlapped chunks. */
typedef enum dl_overlap {
    DL_OVERLAP_AUTO = 0, /* when it measured faster */
    DL_OVERLAP_ON,
    DL_OVERLAP_OFF
} dl_overlap;
/* DL_IRREGULAR: the method for annotated indirect references. */
typedef enum dl_irregular_mode {
    DL_IRREGULAR_AUTO = 0, /* the selector's choice (docs/irregular.md) */
    DL_IRREGULAR_NONE,     /* the kernel as written */
    DL_IRREGULAR_GATHER,   /* reordering with index redirection */
    DL_IRREGULAR_JOBSWAP,  /* the job-swapped form */
    DL_IRREGULAR_PADDING,  /* A'' and Q' in place of A and P (rt_padding.h) */
    DL_IRREGULAR_REMAP,    /* the permutation layout (rt_permute.h) */
    DL_IRREGULAR_RENUMBER, /* a graph loop renumbered (rt_renumber.h) */
    DL_IRREGULAR_SHARING   /* the shared form on A_s and L (rt_sharing.h) */
} dl_irregular_mode;

/* DL_TILE=auto is stored as this. */
#define DL_CONTROL_TILE_AUTO 0u
#define DL_CONTROL_TILE_MAX  ((size_t)1 << 31)

/* One member per table row; PATH members are NULL when unset and owned by
 * the struct (dl_controls_free). */
typedef struct dl_controls {
#define DL_CONTROL(name, member, kind, ctype, def, values, help) ctype member;
#include "controls.def"
#undef DL_CONTROL
} dl_controls;

typedef enum dl_control_kind {
    DL_CONTROL_ENUM,
    DL_CONTROL_BOOL,
    DL_CONTROL_PATH,
    DL_CONTROL_TILE,
    DL_CONTROL_FRACTION
} dl_control_kind;

/* The table row, for printers and tests. */
typedef struct dl_control_info {
    const char *name;
    dl_control_kind kind;
    const char *def;
    const char *values;
    const char *help;
} dl_control_info;

extern const dl_control_info dl_control_table[];
extern const unsigned dl_control_count;

/* Returns the row of `name`, or NULL. */
const dl_control_info *dl_control_find(const char *name);

/* Where values come from (getenv in dl_controls_load) and where invalid
 * ones are reported: tests pass their own. */
typedef const char *(*dl_control_get_fn)(const char *name, void *user);
typedef void (*dl_control_warn_fn)(const char *message, void *user);

/* All defaults; PATH members NULL. */
void dl_controls_defaults(dl_controls *controls);
void dl_controls_free(dl_controls *controls);

/* Sets one control from its text.  An unset or empty (after trimming
 * blanks) value restores the default.  An invalid value leaves the member
 * unchanged and returns DL_INVALID_ARGUMENT; dl_last_error() then names
 * the variable, the value and what is accepted. */
dl_status dl_controls_set(dl_controls *controls, const char *name,
                          const char *value);

/* Starts from the defaults and sets every control from get(); each invalid
 * value is passed to warn() (if not NULL) as one message and its default
 * is kept.  Returns the number of invalid values. */
unsigned dl_controls_parse(dl_controls *controls, dl_control_get_fn get,
                           void *get_user, dl_control_warn_fn warn,
                           void *warn_user);

/* dl_controls_parse() from the environment, then dl_log_configure() with
 * DL_LOG and DL_LOG_FILE, then one DL_LOG_WARN per invalid value (so the
 * warnings reach the configured log file).  Returns DL_INVALID_ARGUMENT if
 * some value was invalid, but *controls is usable in any case. */
dl_status dl_controls_load(dl_controls *controls);

/* The value of a control as text, as it would be written in the
 * environment ("warn", "1", "auto", a path, "" for an unset path). */
void dl_controls_value_text(const dl_controls *controls, const char *name,
                            char *buf, size_t size);

/* The "Environment" section of dl-run --help (wrapped, 80 columns). */
void dl_controls_print_help(FILE *out);
/* docs/controls.md, exactly. */
void dl_controls_print_markdown(FILE *out);

#endif

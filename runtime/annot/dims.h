/* dims.h - dimension expressions of annotations: parsed once, when the
 * program source is seen, and evaluated at every launch.
 *
 *   expr    = term { ("+" | "-") term }
 *   term    = unary { ("*" | "/" | "%") unary }
 *   unary   = "-" unary | primary
 *   primary = integer | builtin "(" digit ")" | name | "(" expr ")"
 *   builtin = global_size | local_size | num_groups | global_offset
 *             (also spelled get_global_size, ...)
 *
 * A name is a scalar integer kernel argument, whose value is the one given
 * to clSetKernelArg, or else a macro of the program's build options
 * (`-D NX=120`) or of its source (`#define NX 120`), whose value
 * dl_dims_define_src reads at each build.  Arithmetic is 64-bit signed with
 * every overflow, division by zero and unknown value reported as an error,
 * never a crash.
 * "/" and "%" truncate toward zero, as in C. */
#ifndef DL_DIMS_H
#define DL_DIMS_H

#include "dlayout.h"

#define DL_DIMS_MAX_NODES 256 /* literals, names, operators of one expr */
#define DL_DIMS_MAX_DEPTH 64  /* nesting of parentheses and unary minus  */

/* Integer types a kernel argument can have (OpenCL C scalars). */
typedef enum dl_int_type {
    DL_INT_NONE = 0, /* not (yet) known to be an integer */
    DL_INT_I8,
    DL_INT_U8,
    DL_INT_I16,
    DL_INT_U16,
    DL_INT_I32,
    DL_INT_U32,
    DL_INT_I64,
    DL_INT_U64
} dl_int_type;

size_t dl_int_type_size(dl_int_type type);      /* 0 for DL_INT_NONE */
const char *dl_int_type_name(dl_int_type type); /* "int", "ulong", ... */
/* Reads a clSetKernelArg value of `type`; `size` must be its size.  A
 * ulong above INT64_MAX is DL_SIZE_OVERFLOW. */
dl_status dl_int_decode(const void *bytes, size_t size, dl_int_type type,
                        int64_t *value);

typedef enum dl_dims_op {
    DL_DIMS_CONST,         /* value                                 */
    DL_DIMS_GLOBAL_SIZE,   /* value = d                             */
    DL_DIMS_LOCAL_SIZE,    /* value = d                             */
    DL_DIMS_NUM_GROUPS,    /* value = d                             */
    DL_DIMS_GLOBAL_OFFSET, /* value = d                             */
    DL_DIMS_ARG,           /* name, arg_index, arg_type             */
    DL_DIMS_MACRO,         /* name; value when defined              */
    DL_DIMS_NEG,           /* -lhs                                  */
    DL_DIMS_ADD,           /* lhs + rhs, and so on                  */
    DL_DIMS_SUB,
    DL_DIMS_MUL,
    DL_DIMS_DIV,
    DL_DIMS_MOD,
    /* Only in macro values (dl_dims_define), as C spells them: */
    DL_DIMS_NOT, /* ~lhs                                  */
    DL_DIMS_SHL, /* lhs << rhs                            */
    DL_DIMS_SHR,
    DL_DIMS_AND,
    DL_DIMS_XOR,
    DL_DIMS_OR
} dl_dims_op;

/* Nodes are stored in postfix order: operands come before their operator,
 * so the root is the last node and evaluation is one loop. */
typedef struct dl_dims_node {
    dl_dims_op op;
    int64_t value;
    uint32_t lhs, rhs;    /* operand node indices                    */
    const char *name;     /* DL_DIMS_ARG: NUL-terminated, in the expr */
    int32_t arg_index;    /* DL_DIMS_ARG: -1 until dl_dims_bind       */
    dl_int_type arg_type; /* DL_DIMS_ARG: DL_INT_NONE until bound     */
    int defined;          /* DL_DIMS_MACRO: the build defines it     */
    int unsigned_value;   /* DL_DIMS_MACRO: its value has a u literal */
} dl_dims_node;

typedef struct dl_dims_expr {
    char *text; /* the expression as written (for messages) */
    uint32_t nnodes;
    dl_dims_node *nodes;
    char *names; /* storage of the DL_DIMS_ARG names */
    /* A literal of a macro value has a u/U suffix: C may compute in
     * unsigned types, so a negative intermediate value (which would wrap
     * there) is an error. */
    int unsigned_literal;
} dl_dims_expr;

/* Parses text[0..len) (it need not be NUL-terminated).  Errors:
 * DL_INVALID_ARGUMENT with "column N: ..." in dl_last_error(). */
dl_status dl_dims_parse(const char *text, size_t len, dl_dims_expr **out);
void dl_dims_free(dl_dims_expr *expr);

/* Canonical text: single spaces around binary operators, parentheses only
 * where precedence needs them.  Returns what snprintf would. */
int dl_dims_format(const dl_dims_expr *expr, char *buf, size_t size);

/* Nonzero if the expression uses no builtin and no argument. */
int dl_dims_is_const(const dl_dims_expr *expr);

/* Resolves every name to a kernel argument.  lookup() returns DL_SUCCESS
 * with the argument's index and integer type, DL_SUCCESS with index -1
 * for a name that is no argument (it becomes a DL_DIMS_MACRO), or an
 * error (with its message) for an unsuitable argument. */
typedef dl_status (*dl_dims_lookup_fn)(void *user, const char *name,
                                       int32_t *index, dl_int_type *type);
dl_status dl_dims_bind(dl_dims_expr *expr, dl_dims_lookup_fn lookup,
                       void *user);

/* Reads the build-option macros the expression names from `options` (as
 * given to clBuildProgram: `-D NAME=VALUE`, `-DNAME=VALUE`, `-DNAME`,
 * which is 1, `-U NAME`; the last one wins).  A value must be an integer
 * constant expression of this grammar.  Returns DL_SUCCESS when every
 * macro is defined, else DL_INVALID_ARGUMENT naming the first that is
 * not (it stays undefined: evaluating the expression fails). */
dl_status dl_dims_define(dl_dims_expr *expr, const char *options);

/* dl_dims_define that also reads the program's source: a macro the
 * options do not define is taken from the source's `#define NAME VALUE`
 * (srcmacros.h says which definitions are usable).  A value may also use
 * << >> & | ^ ~ and name other macros, resolved the same way, at most
 * DL_DIMS_MACRO_DEPTH deep.  Options override only a default the source
 * writes under `#ifndef NAME`; a macro that both define otherwise is an
 * error (the compiler would take the source's).  src may be NULL. */
#define DL_DIMS_MACRO_DEPTH 16
struct dl_srcmacros;
dl_status dl_dims_define_src(dl_dims_expr *expr, const char *options,
                             const struct dl_srcmacros *src);

/* A kernel argument value as clSetKernelArg received it. */
typedef struct dl_dims_raw_arg {
    const void *value; /* NULL: not set */
    size_t size;
} dl_dims_raw_arg;

/* What a launch knows.  Sizes of dimensions >= work_dim read as in OpenCL
 * (sizes 1, offset 0).  local_size NULL means the implementation picks
 * the work-group size: local_size() and num_groups() are then unknown.
 * global_offset NULL means zero.  Argument values come from arg_value()
 * if it is set, else from args[] (indexed by the bound argument index). */
typedef struct dl_dims_env {
    cl_uint work_dim;
    const size_t *global_size;
    const size_t *local_size;
    const size_t *global_offset;
    const dl_dims_raw_arg *args;
    cl_uint nargs;
    dl_status (*arg_value)(void *user, const dl_dims_node *arg, int64_t *value);
    void *user;
} dl_dims_env;

dl_status dl_dims_eval(const dl_dims_expr *expr, const dl_dims_env *env,
                       int64_t *value);
/* A record count: like dl_dims_eval, but a negative result is an error. */
dl_status dl_dims_eval_count(const dl_dims_expr *expr, const dl_dims_env *env,
                             size_t *count);

#endif

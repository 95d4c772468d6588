/* clsource.h - just enough of an OpenCL C lexer to find kernel signatures
 * and `// DL:` annotation comments in any source, safely: comments,
 * string and character literals, line splices and preprocessor lines are
 * recognised and skipped.  Nothing is recursive and nothing is kept per
 * token, so a 10 MB source or binary garbage costs time linear in its size
 * and no more memory than what the caller keeps. */
#ifndef DL_CLSOURCE_H
#define DL_CLSOURCE_H

#include "dims.h"
#include "dlayout.h"

typedef enum dl_addr_space {
    DL_SPACE_PRIVATE = 0, /* no qualifier: a by-value argument */
    DL_SPACE_GLOBAL,
    DL_SPACE_CONSTANT,
    DL_SPACE_LOCAL
} dl_addr_space;

/* One parameter of a kernel signature, as far as the runtime needs it. */
typedef struct dl_kernel_param {
    char *name;
    /* Normalised type, without qualifiers: "float4", "uint" (for
     * "unsigned int"), "struct foo", "foo_t".  For a pointer, the type
     * it points to. */
    char *type;
    unsigned pointer; /* levels of '*' (or [] declarators)         */
    dl_addr_space space;
    uint32_t elem_size;   /* bytes of `type` if it is an OpenCL C scalar
                             or vector type, else 0 (struct, typedef)   */
    dl_int_type int_type; /* by-value integer parameters, else NONE    */
    int pointee_const;    /* a pointer to const data ("const float *"):
                             the kernel cannot write through it          */
} dl_kernel_param;

typedef enum dl_clsrc_tok_kind {
    DL_CLSRC_EOF,
    DL_CLSRC_IDENT,
    DL_CLSRC_NUMBER,
    DL_CLSRC_PUNCT,  /* one character */
    DL_CLSRC_STRING, /* a string or character literal */
    DL_CLSRC_ANNOT   /* a `// DL:` comment; s..len is the text after "//" */
} dl_clsrc_tok_kind;

typedef struct dl_clsrc_token {
    dl_clsrc_tok_kind kind;
    const char *s; /* points into the source */
    size_t len;
    unsigned line, col;
    int directive; /* part of a preprocessor line */
} dl_clsrc_token;

/* Called for every annotation comment that dl_clsrc_next passes over, in
 * source order, so that an annotation is seen before the kernel it
 * describes.  A failure stops the lexer's caller. */
typedef dl_status (*dl_clsrc_annot_fn)(void *user,
                                       const dl_clsrc_token *annotation);

/* Plain data: a copy is a look-ahead that leaves the original alone. */
typedef struct dl_clsrc_lexer {
    const char *s;
    size_t len, pos;
    unsigned line;
    size_t line_start;
    int line_blank; /* nothing but blanks so far on this line */
    int directive;  /* inside a preprocessor line */
    dl_clsrc_annot_fn on_annotation;
    void *user;
} dl_clsrc_lexer;

/* Reads src[0..len) (NUL bytes included; it need not be terminated). */
void dl_clsrc_init(dl_clsrc_lexer *lx, const char *src, size_t len,
                   dl_clsrc_annot_fn on_annotation, void *user);

/* The next token of code: annotations go to on_annotation, preprocessor
 * lines are skipped.  Fails only where on_annotation does. */
dl_status dl_clsrc_next(dl_clsrc_lexer *lx, dl_clsrc_token *out);

/* The token dl_clsrc_next would return next, without calling
 * on_annotation. */
dl_clsrc_token dl_clsrc_peek(const dl_clsrc_lexer *lx);

int dl_clsrc_is_punct(dl_clsrc_token t, char c);
int dl_clsrc_is_ident(dl_clsrc_token t, const char *word);

/* The text of a `//` comment (after the "//") is an annotation if it
 * starts with "DL:" after blanks.  Returns the offset just past "DL:",
 * or 0 if it is not an annotation. */
size_t dl_clsrc_annotation_start(const char *body, size_t len);

/* A kernel signature: its name and its parameters.  Owns its strings. */
typedef struct dl_clsrc_signature {
    char *name;
    unsigned line; /* of the kernel's name */
    int defined;   /* followed by a body, not by ';' (a prototype) */
    uint32_t nparams;
    dl_kernel_param *params;
} dl_clsrc_signature;

/* Reads what follows the word `kernel` (or `__kernel`): [attributes] type
 * name "(" params ")" [attributes], up to the "{" or ";" after it, which
 * is left unread.  *found = 0 (and *sig empty) when that is not what
 * comes next before a barrier ("{", "}", ";" or the end).  Fails for lack
 * of memory or where on_annotation does. */
dl_status dl_clsrc_read_kernel(dl_clsrc_lexer *lx, dl_clsrc_signature *sig,
                               int *found);

void dl_clsrc_free_params(dl_kernel_param *params, uint32_t n);

#endif

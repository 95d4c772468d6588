/* ast.h - a kernel body as a flat tree of libclang cursors with parent
 * links (libclang's visitor only goes down), plus the few questions the
 * analysis asks of a node: its byte range in the input, its operator,
 * the declaration it names. */
#ifndef DLA_AST_H
#define DLA_AST_H

#include "dla.h"

typedef struct dla_node {
    CXCursor cur;
    enum CXCursorKind kind;
    int parent, first, next, last; /* -1: none */
    int nth;                       /* position among its siblings */
} dla_node;

typedef struct dla_tree {
    CXTranslationUnit tu;
    dla_node *nodes;
    int n, cap;
} dla_tree;

int dla_tree_build(dla_tree *t, CXTranslationUnit tu, CXCursor root);
void dla_tree_free(dla_tree *t);

/* The nth child (-1 if none). */
int dla_child(const dla_tree *t, int node, int nth);
/* Whether statement `node` is a return, alone or as the only statement
 * of a block (an early-return guard's body). */
int dla_is_return(const dla_tree *t, int node);
/* Skips implicit casts (UnexposedExpr) and parentheses downwards. */
int dla_strip(const dla_tree *t, int node);
/* The first ancestor that is not an implicit cast or parentheses; *from
 * is the node below it on the path. */
int dla_up(const dla_tree *t, int node, int *from);

/* Byte range of a cursor in the main file; 0 if it is elsewhere or
 * starts inside a macro expansion. */
int dla_cursor_range(CXCursor c, dla_range *r);
/* Also for a cursor in a macro expansion: the invocation's text. */
int dla_cursor_range_loose(CXCursor c, dla_range *r);
void dla_set_main_file(CXFile file);

/* macro.c: the input's macro invocations (from the detailed
 * preprocessing record), read once per translation unit. */
void dla_macros_init(CXTranslationUnit tu, CXFile main_file);
void dla_macros_free(void);
/* Whether the input or one of its own headers defines the macro (the
 * runtime reads the build options and the #defines of the input only,
 * by srcmacros.h's rules: analyze.c's source_macro_note). */
int dla_source_macro(const char *name);
/* Whether a macro invocation's text begins at offset: its range. */
int dla_expansion_at(unsigned offset, dla_range *inv);
/* The text of a cursor spelled in a macro's argument (`as_uint(g[i])`):
 * both ends written in the input, every invocation it overlaps inside
 * it.  0 otherwise. */
int dla_spelled_range(CXCursor c, dla_range *r);
/* The operator before `rhs` in the file that spells it (a macro body's
 * definition): 0 if that token is no punctuator. */
int dla_spelled_operator(CXTranslationUnit tu, CXCursor rhs, char *op,
                         size_t size);
/* The operator of a binary (lhs child given) or unary operator node,
 * "" if unknown.  The result is a static buffer. */
const char *dla_binop(const dla_tree *t, int node);
const char *dla_unop(const dla_tree *t, int node);
/* Tokens of a range: returns nonzero if any is an assignment or an
 * increment (side effects when the text is evaluated twice). */
int dla_range_has_side_effects(CXTranslationUnit tu, CXFile file, dla_range r);
/* Integer value of a constant expression cursor. */
int dla_const_int(CXCursor c, long long *value);
/* Spelling of a cursor / type, malloc'd. */
char *dla_spelling(CXCursor c);
char *dla_type_spelling(CXType t);

#endif

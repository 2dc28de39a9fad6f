/* What the binding files (module.c: the module and Game; binding_args.c:
 * reading arguments; vector_binding.c: VectorGame; agents_binding.c: moves
 * chosen in C; puzzles_binding.c: the solo puzzles) share.  Only binding files include Python.h. */
#ifndef BK_BINDING_H
#define BK_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL bk_numpy_api
#ifndef BK_BINDING_MAIN
#define NO_IMPORT_ARRAY /* module.c imports the NumPy API for every file */
#endif
#include <numpy/arrayobject.h>

#include <time.h>

#include "board.h"

extern const char *const bkpy_variant_names[BK_NUM_VARIANTS];
extern const char *const bkpy_start_names[2];
extern const char *const bkpy_policy_names[2]; /* by bk_policy */

/* Seconds on the monotonic clock, for the time limits of searches. */
static inline double bkpy_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- arguments (binding_args.c) ----------------------------------------- */

/* Index of `name` in names[0..n), or -1 with TypeError/ValueError set. */
int bkpy_lookup_name(PyObject *name, const char *const *names, int n, const char *what);
/* Reads the arguments of a fastcall method taking one argument `name`. */
int bkpy_parse_one_arg(const char *fname, const char *name, int required, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *kwnames, PyObject **out);
/* An int (anything with __index__ but bool) in [lo, hi): 0, or -1 with
 * TypeError naming `what` (or the error its __index__ raised), or -2 with
 * ValueError naming `what` when it is out of range. */
int bkpy_index_in(PyObject *obj, const char *what, long long lo, long long hi, long long *out);
/* A new tuple of the items of iterable obj, owned, so that converting them
 * cannot free one under the caller.  Reads at most max + 1 items: a tuple of
 * max + 1 means obj has more than max.  str, bytes and non-iterables give
 * TypeError "<what>, not <type>", so `what` reads as a requirement: "a cell
 * must be a (row, col) pair". */
PyObject *bkpy_items(PyObject *obj, Py_ssize_t max, const char *what);
/* A time limit: a real number of seconds in (0, BKPY_MAX_SECONDS]. */
#define BKPY_MAX_SECONDS 1e9
int bkpy_seconds_arg(PyObject *obj, const char *what, double *seconds);
/* A seed: an int (or anything with __index__ but bool) in range(2**64); -1
 * with TypeError/ValueError set otherwise. */
int bkpy_seed_arg(PyObject *obj, unsigned long long *seed);

/* A read-only array over memory owned by `owner`, which the array keeps alive;
 * strides NULL means C-contiguous. */
PyObject *bkpy_view(PyObject *owner, int nd, npy_intp *dims, npy_intp *strides, int typenum, void *data);

/* The board of a blokus.Game (or subclass) of `module`, or NULL with
 * TypeError set when obj is not one (module.c). */
bk_board *bkpy_game_board(PyObject *module, PyObject *obj, const char *fname);

/* Adds the VectorGame type to the module (vector_binding.c). */
int bkpy_add_vector_type(PyObject *module);
/* Adds policy_move and mcts to the module (agents_binding.c). */
int bkpy_add_agent_functions(PyObject *module);
/* Adds pack_solve, pack_count and all84_solve to the module (puzzles_binding.c). */
int bkpy_add_puzzle_functions(PyObject *module);

#endif

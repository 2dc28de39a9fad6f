/* What the binding files (module.c: the module and Game; vector_binding.c:
 * VectorGame; agents_binding.c: moves chosen in C; puzzles_binding.c: the
 * solo puzzles) share.  Only binding files include Python.h. */
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

/* Index of `name` in names[0..n), or -1 with TypeError/ValueError set. */
int bkpy_lookup_name(PyObject *name, const char *const *names, int n, const char *what);
/* A read-only array over memory owned by `owner`, which the array keeps alive;
 * strides NULL means C-contiguous. */
PyObject *bkpy_view(PyObject *owner, int nd, npy_intp *dims, npy_intp *strides, int typenum, void *data);
/* Reads the arguments of a fastcall method taking one argument `name`. */
int bkpy_parse_one_arg(const char *fname, const char *name, int required, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *kwnames, PyObject **out);

/* A seed: an int (or anything with __index__) in range(2**64); -1 with
 * TypeError/ValueError set otherwise. */
int bkpy_seed_arg(PyObject *obj, unsigned long long *seed);

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

/* What the files of csrc/python/, the CPython binding, share: module.c (the
 * module and its life cycle), game.c (Game), vector.c (VectorGame), search.c
 * (BatchedSearch), agents.c (moves and games played in C), puzzles.c (the
 * solo puzzles), solver.c (the endgame solver), rules.c (the rules' values
 * and functions), args.c (reading arguments), errors.c (core status codes as
 * exceptions), state.c (the module's state from a type) and views.c (arrays
 * over C memory).  No file outside csrc/python/ includes Python.h
 * (.ci/check_layers.py checks it); module.c adds the parts to the module,
 * and no part uses module.c. */
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

#include "core/board.h"
#include "core/score.h"

/* Seconds on the monotonic clock, for the time limits of searches. */
static inline double bkpy_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds of CPU time this process has used, all its threads together, for
 * the time limits of searches in CPU seconds. */
static inline double bkpy_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- arguments (args.c) ----------------------------------------- */

/* Index of `name` in names[0..n), or -1 with TypeError/ValueError set. */
int bkpy_lookup_name(PyObject *name, const char *const *names, int n, const char *what);
/* The variant named by obj, its facts copied to info; -1 with TypeError or
 * ValueError set when no variant has that name. */
int bkpy_variant_arg(PyObject *obj, bk_variant_info *info);
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

/* ---- views (views.c) -------------------------------------------- */

/* A read-only array over memory owned by `owner`, which the array keeps alive;
 * strides NULL means C-contiguous. */
PyObject *bkpy_view(PyObject *owner, int nd, npy_intp *dims, npy_intp *strides, int typenum, void *data);

/* ---- the module (module.c) ---------------------------------------------- */

typedef struct {
    PyObject *game_type;          /* blokus._core.Game */
    PyObject *illegal_move_error; /* blokus.IllegalMoveError: a placement the rules forbid */
    PyObject *invalid_move_error; /* blokus.InvalidMoveError: a move that names no placement */
    uint16_t *moves;              /* scratch move list; every use holds the GIL */
} bkpy_state;

/* ---- the module's state from a type (state.c) ---------------------------- */

/* The module that made `type` or, for a Python subclass, its first base
 * made by one (borrowed); NULL with SystemError set when none was. */
PyObject *bkpy_module_of_type(PyTypeObject *type);
/* That module's state; NULL with SystemError set when there is none. */
bkpy_state *bkpy_state_of_type(PyTypeObject *type);

/* ---- errors (errors.c) ------------------------------------------- */

/* Raises the exception for a core status: IllegalMoveError for a rule broken
 * by `colour` playing placement `id` (-1 when no placement is known),
 * InvalidMoveError for a move that is no placement; returns NULL. */
PyObject *bkpy_raise_status(const bkpy_state *st, const bk_board *b, bk_status status, int colour, int id);

/* ---- the parts of the module ------------------------------------------------ */

/* Adds the Game type and sets the state's game_type (game.c). */
int bkpy_add_game_type(PyObject *module);
/* The board of a blokus.Game (or subclass) of `module`, or NULL with
 * TypeError set when obj is not one (game.c). */
bk_board *bkpy_game_board(PyObject *module, PyObject *obj, const char *fname);
/* Adds the VectorGame type to the module (vector.c). */
int bkpy_add_vector_type(PyObject *module);
/* Adds the BatchedSearch type to the module (search.c). */
int bkpy_add_search_type(PyObject *module);
/* Adds policy_move, mcts and random_playouts to the module (agents.c). */
int bkpy_add_agent_functions(PyObject *module);
/* Adds pack_solve, pack_count, all84_solve and PACK_LIMITS (puzzles.c). */
int bkpy_add_puzzle_functions(PyObject *module);
/* Adds solve (solver.c). */
int bkpy_add_solver_functions(PyObject *module);
/* Adds PIECE_NAMES, PIECE_SIZES, TOTAL_SQUARES, NUM_ORIENTATIONS, VARIANTS,
 * START_RULES, variant_info, placement_table, player_weights, player_results
 * and parse_move (rules.c). */
int bkpy_add_rules(PyObject *module);

#endif

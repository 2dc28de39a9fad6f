/* blokus._core.solve: the exact endgame solver (engine/solver.h) for
 * blokus.analysis.solve.  It works on a copy of the game's board with the
 * GIL released; the node budget bounds how long. */
#include "python/binding.h"

#include "engine/solver.h"

#define DEFAULT_MAX_NODES 1000000
#define MAX_NODES_LIMIT (1LL << 50)
/* The table: about one entry per node of the budget, within 2^12 (64 KB)
 * and 2^17 (2 MB): past that, replacement keeps the costly entries.  A
 * table that stays in the cache searches 1.5x faster than one of 32 MB with
 * 3% more nodes (Duo endgames of benchmarks/bench_solver.py, 10 plies from
 * the end). */
#define MIN_TABLE_BITS 12
#define MAX_TABLE_BITS 17

static int table_bits_for(long long max_nodes)
{
    int bits = MIN_TABLE_BITS;
    while (bits < MAX_TABLE_BITS && (1LL << bits) < max_nodes) bits++;
    return bits;
}

static PyObject *ids_tuple(const uint16_t *ids, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *id = PyLong_FromLong(ids[i]);
        if (!id) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, i, id);
    }
    return t;
}

static PyObject *solve(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"game", "max_nodes", "all_best", "outcome", NULL};
    PyObject *game, *max_nodes_obj = NULL;
    int all_best = 1, outcome = 0;
    long long max_nodes = DEFAULT_MAX_NODES;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$Opp:solve", kwlist, &game, &max_nodes_obj, &all_best, &outcome))
        return NULL;
    /* the number first: reading it may run Python code, which could play on the game */
    if (max_nodes_obj && bkpy_index_in(max_nodes_obj, "max_nodes", 1, MAX_NODES_LIMIT, &max_nodes) < 0) return NULL;
    bk_board *live = bkpy_game_board(module, game, "solve");
    if (!live) return NULL;
    if (!bk_solver_supports(live->variant))
        return PyErr_Format(PyExc_ValueError,
                            "the solver needs a game of two sides (duo, classic_2 or classic_teams), not %s",
                            bk_variant_names[live->variant]);
    bk_board *b = PyMem_RawMalloc(sizeof *b); /* a copy: the game may change while this runs */
    uint16_t *best = PyMem_RawMalloc(BK_MAX_MOVES * sizeof *best);
    bk_solver *s = bk_solver_new(table_bits_for(max_nodes));
    if (!b || !best || !s) {
        PyMem_RawFree(b);
        PyMem_RawFree(best);
        bk_solver_free(s);
        return PyErr_NoMemory();
    }
    *b = *live;
    bk_solve_result r;
    Py_BEGIN_ALLOW_THREADS
    bk_solve(s, b, (uint64_t)max_nodes, all_best, outcome, best, &r); /* the variant is checked above */
    Py_END_ALLOW_THREADS
    bk_solver_free(s);
    PyMem_RawFree(b);
    PyObject *ids = ids_tuple(best, r.exact ? r.num_best : 0);
    PyMem_RawFree(best);
    if (!ids) return NULL;
    if (!r.exact) return Py_BuildValue("(ONKi)", Py_None, ids, (unsigned long long)r.nodes, r.side);
    return Py_BuildValue("(iNKi)", r.margin, ids, (unsigned long long)r.nodes, r.side);
}

static PyMethodDef solver_functions[] = {
    {"solve", (PyCFunction)(void (*)(void))solve, METH_VARARGS | METH_KEYWORDS,
     "solve(game, *, max_nodes=1000000, all_best=True, outcome=False)\n--\n\n"
     "Exact alpha-beta solve of a game of two sides (duo, classic_2,\n"
     "classic_teams) to its end, searching at most max_nodes positions, with\n"
     "the GIL released. Returns (margin, best, nodes, side): the final score\n"
     "margin of `side` under best play, or None when the budget ran out; the\n"
     "placement ids that achieve it (all of them with all_best, else one; ()\n"
     "when unknown or the game is over); the positions searched; the side\n"
     "(0 or 1, as Variant.player_sides) to move in the position solved, or 0\n"
     "once the game is over.  With outcome, only the margin's sign is proved\n"
     "(1 win, 0 draw, -1 loss; far fewer positions: engine/solver.h) and one\n"
     "move that achieves it (all_best is ignored).  ValueError for another\n"
     "variant."},
    {NULL, NULL, 0, NULL}};

int bkpy_add_solver_functions(PyObject *module)
{
    return PyModule_AddFunctions(module, solver_functions);
}

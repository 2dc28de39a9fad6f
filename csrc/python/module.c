/* blokus._core: the module of the CPython binding.  Its state (the Game
 * type, the exceptions, a scratch move list), its life cycle, and the
 * functions that need no Game; the types and the other functions are added
 * by the files named in binding.h. */
#define BK_BINDING_MAIN
#include "python/binding.h"

#include <stdio.h>

#include "core/movetext.h"
#include "core/score.h"
#include "engine/playout.h"
#include "engine/playout_policy.h"

const char *const bkpy_policy_names[2] = {"random", "greedy"};

static int variant_arg(PyObject *obj, bk_variant_info *info)
{
    int v = bkpy_lookup_name(obj, bk_variant_names, BK_NUM_VARIANTS, "variant");
    if (v >= 0) bk_variant_get_info(v, info);
    return v;
}

static PyObject *new_array(int nd, npy_intp *dims, int typenum)
{
    return PyArray_ZEROS(nd, dims, typenum, 0);
}

static PyObject *placement_table(PyObject *module, PyObject *variant_obj)
{
    (void)module;
    bk_variant_info info;
    if (variant_arg(variant_obj, &info) < 0) return NULL;
    const bk_geometry *g = bk_geometry_for(info.side);
    npy_intp n = g->num_placements, cdims[3] = {n, BK_MAX_PIECE_SIZE, 2};
    PyObject *piece = new_array(1, &n, NPY_INT8), *orient = new_array(1, &n, NPY_INT8),
             *row = new_array(1, &n, NPY_INT8), *col = new_array(1, &n, NPY_INT8),
             *cells = new_array(3, cdims, NPY_INT8), *size = new_array(1, &n, NPY_INT8);
    if (!piece || !orient || !row || !col || !cells || !size) goto fail;
    for (npy_intp id = 0; id < n; id++) {
        const bk_orient *o = &bk_orients[g->orient_of[id]];
        int8_t *cl = (int8_t *)PyArray_DATA((PyArrayObject *)cells) + id * BK_MAX_PIECE_SIZE * 2;
        ((int8_t *)PyArray_DATA((PyArrayObject *)piece))[id] = (int8_t)o->piece;
        ((int8_t *)PyArray_DATA((PyArrayObject *)orient))[id] = (int8_t)g->orient_of[id];
        ((int8_t *)PyArray_DATA((PyArrayObject *)row))[id] = (int8_t)g->row_of[id];
        ((int8_t *)PyArray_DATA((PyArrayObject *)col))[id] = (int8_t)g->col_of[id];
        ((int8_t *)PyArray_DATA((PyArrayObject *)size))[id] = (int8_t)o->size;
        for (int i = 0; i < BK_MAX_PIECE_SIZE; i++) {
            cl[2 * i] = (int8_t)(i < o->size ? g->row_of[id] + o->cells[i].r : -1);
            cl[2 * i + 1] = (int8_t)(i < o->size ? g->col_of[id] + o->cells[i].c : -1);
        }
    }
    return Py_BuildValue("(NNNNNN)", piece, orient, row, col, cells, size);
fail:
    Py_XDECREF(piece);
    Py_XDECREF(orient);
    Py_XDECREF(row);
    Py_XDECREF(col);
    Py_XDECREF(cells);
    Py_XDECREF(size);
    return NULL;
}

static PyObject *player_weights(PyObject *module, PyObject *variant_obj)
{
    (void)module;
    bk_variant_info info;
    int8_t w[BK_MAX_COLOURS][BK_MAX_COLOURS];
    int variant = variant_arg(variant_obj, &info);
    if (variant < 0) return NULL;
    bk_player_weights(variant, w);
    npy_intp dims[2] = {info.num_players, info.num_colours};
    PyObject *arr = new_array(2, dims, NPY_INT8);
    if (!arr) return NULL;
    for (int p = 0; p < info.num_players; p++)
        for (int c = 0; c < info.num_colours; c++) *(int8_t *)PyArray_GETPTR2((PyArrayObject *)arr, p, c) = w[p][c];
    return arr;
}

/* Player scores and winners of games given by their colour scores. */
static PyObject *player_results(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    bk_variant_info info;
    int variant;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "player_results() takes 2 arguments (%zd given)", nargs);
    if ((variant = variant_arg(args[0], &info)) < 0) return NULL;
    PyArrayObject *colour = (PyArrayObject *)PyArray_FROMANY(args[1], NPY_INT64, 2, 2, NPY_ARRAY_CARRAY_RO);
    if (!colour) return NULL;
    if (PyArray_DIM(colour, 1) != info.num_colours) {
        Py_DECREF(colour);
        return PyErr_Format(PyExc_ValueError, "colour scores must have shape (n, %d)", info.num_colours);
    }
    const int64_t *in = PyArray_DATA(colour);
    npy_intp n = PyArray_DIM(colour, 0), dims[2] = {n, info.num_players};
    for (npy_intp k = 0; k < n * info.num_colours; k++)
        if (in[k] < -BK_TOTAL_SQUARES || in[k] > BK_BONUS_MONOMINO_LAST) {
            Py_DECREF(colour);
            return PyErr_Format(PyExc_ValueError, "colour scores lie in [%d, %d] (docs/rules.md, \"Scoring\")",
                                -BK_TOTAL_SQUARES, BK_BONUS_MONOMINO_LAST);
        }
    int8_t w[BK_MAX_COLOURS][BK_MAX_COLOURS];
    bk_player_weights(variant, w);
    PyObject *scores = new_array(2, dims, NPY_INT64), *winners = new_array(2, dims, NPY_BOOL);
    if (scores && winners) {
        int64_t *out = PyArray_DATA((PyArrayObject *)scores);
        for (npy_intp g = 0; g < n; g++) {
            int64_t *player = out + g * info.num_players;
            for (int p = 0; p < info.num_players; p++) {
                player[p] = 0;
                for (int c = 0; c < info.num_colours; c++) player[p] += w[p][c] * in[g * info.num_colours + c];
            }
            bk_winners_of(info.num_players, player,
                          (uint8_t *)PyArray_DATA((PyArrayObject *)winners) + g * info.num_players);
        }
    }
    Py_DECREF(colour);
    if (scores && winners) return Py_BuildValue("(NN)", scores, winners);
    Py_XDECREF(scores);
    Py_XDECREF(winners);
    return NULL;
}

static PyObject *parse_move(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    bkpy_state *st = PyModule_GetState(module);
    bk_variant_info info;
    Py_ssize_t len;
    int id, status, variant;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "parse_move() takes 2 arguments (%zd given)", nargs);
    if (!PyUnicode_Check(args[0]))
        return PyErr_Format(PyExc_TypeError, "move text must be a str, not %.100s", Py_TYPE(args[0])->tp_name);
    if ((variant = variant_arg(args[1], &info)) < 0) return NULL;
    const char *s = PyUnicode_AsUTF8AndSize(args[0], &len);
    if (!s) return NULL;
    status = bk_parse_move(bk_geometry_for(info.side), s, (size_t)len, &id);
    if (status == BK_ERR_OFF_BOARD) /* no position here to break a rule of: the text names no placement */
        return PyErr_Format(st->invalid_move_error, "the move text names a cell off the %dx%d board", info.side,
                            info.side);
    if (status != BK_OK) {
        bk_board empty;
        bk_board_init(&empty, variant, BK_START_ANY);
        return bkpy_raise_status(st, &empty, (bk_status)status, -1, -1);
    }
    return PyLong_FromLong(id);
}

#define PLAYOUT_CHUNK 4096 /* games per release of the GIL */

static PyObject *random_playouts(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"variant", "n", "seed", "start", NULL};
    PyObject *variant_obj, *start_obj = NULL, *seed_obj = NULL;
    Py_ssize_t n;
    unsigned long long seed = 0;
    int start = BK_START_ANY, variant;
    bk_variant_info info;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "On|O$O:random_playouts", kwlist, &variant_obj, &n, &seed_obj,
                                     &start_obj))
        return NULL;
    if (seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0) return NULL;
    if ((variant = variant_arg(variant_obj, &info)) < 0) return NULL;
    if (start_obj && (start = bkpy_lookup_name(start_obj, bk_start_rule_names, 2, "start rule")) < 0) return NULL;
    if (n < 0) return PyErr_Format(PyExc_ValueError, "n must be >= 0, not %zd", n);
    npy_intp dims[2] = {n, info.num_colours};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_INT16);
    if (!arr) return NULL;
    int16_t *scores = (int16_t *)PyArray_DATA((PyArrayObject *)arr);
    /* in chunks, so that Ctrl-C can stop a long run between them */
    for (Py_ssize_t first = 0; first < n; first += PLAYOUT_CHUNK) {
        Py_ssize_t count = n - first < PLAYOUT_CHUNK ? n - first : PLAYOUT_CHUNK;
        Py_BEGIN_ALLOW_THREADS
        bk_random_playouts(variant, start, first, count, seed, scores + first * info.num_colours);
        Py_END_ALLOW_THREADS
        if (PyErr_CheckSignals() < 0) {
            Py_DECREF(arr);
            return NULL;
        }
    }
    return arr;
}

static PyMethodDef module_methods[] = {
    {"placement_table", placement_table, METH_O,
     "placement_table(variant)\n--\n\n"
     "The placement table as a tuple of arrays (piece, orientation, anchor_row,\n"
     "anchor_col, cells, size); cells is (A, 5, 2) padded with -1."},
    {"player_weights", player_weights, METH_O,
     "player_weights(variant)\n--\n\n"
     "int8 array (num_players, num_colours): player scores = weights @ colour scores."},
    {"player_results", (PyCFunction)(void (*)(void))player_results, METH_FASTCALL,
     "player_results(variant, colour_scores)\n--\n\n"
     "Player scores and winners of n games from their colour scores (int, (n, num_colours)):\n"
     "(int64 (n, num_players), bool (n, num_players)); winners are the players with the\n"
     "highest player score (docs/rules.md, \"Scoring\")."},
    {"parse_move", (PyCFunction)(void (*)(void))parse_move, METH_FASTCALL,
     "parse_move(text, variant)\n--\n\nThe placement id of a move text such as \"a20,b20,c20\";\n"
     "InvalidMoveError when the text names no placement."},
    {"random_playouts", (PyCFunction)(void (*)(void))random_playouts, METH_VARARGS | METH_KEYWORDS,
     "random_playouts(variant, n, seed=0, *, start=\"any\")\n--\n\n"
     "Plays n games in C, every move uniform over the legal placements, with\n"
     "the GIL released.\n\n"
     "Returns\n-------\nnumpy.ndarray\n    int16, shape (n, num_colours): final score per colour.\n"},
    {NULL, NULL, 0, NULL}};

/* ---- module ------------------------------------------------------------- */

PyDoc_STRVAR(module_doc, "The C core of blokus: rules, move generation, scoring, search and the batch\n"
                         "engine, for the Python package blokus (which is the documented API).");

/* An exception type of the module, ValueError's subclass, as `name`. */
static PyObject *add_error(PyObject *module, const char *name, const char *doc)
{
    char qualified[64];
    snprintf(qualified, sizeof qualified, "blokus.%s", name);
    PyObject *type = PyErr_NewExceptionWithDoc(qualified, doc, PyExc_ValueError, NULL);
    if (type && PyModule_AddObjectRef(module, name, type) < 0) Py_CLEAR(type);
    return type;
}

static int module_exec(PyObject *module)
{
    bkpy_state *st = PyModule_GetState(module);
    if (PyArray_ImportNumPyAPI() < 0) return -1;
    const char *problem = bk_init();
    if (problem) { /* a table edited inconsistently: nothing of the core may be used */
        PyErr_Format(PyExc_SystemError, "blokus core tables: %s", problem);
        return -1;
    }
    bk_playout_policy_init();
    st->moves = PyMem_RawMalloc(BK_MAX_MOVES * sizeof(uint16_t));
    if (!st->moves) {
        PyErr_NoMemory();
        return -1;
    }
    st->illegal_move_error = add_error(module, "IllegalMoveError",
                                       "A move that breaks a rule of Blokus; the message names the rule.");
    st->invalid_move_error = add_error(module, "InvalidMoveError",
                                       "A move that names no placement at all: a text that cannot be read, or cells "
                                       "that are not one of the 21 pieces. (IllegalMoveError is for a real "
                                       "placement that the rules forbid.)");
    if (!st->illegal_move_error || !st->invalid_move_error) return -1;
    if (bkpy_add_game_type(module) < 0 || bkpy_add_vector_type(module) < 0 || bkpy_add_agent_functions(module) < 0 ||
        bkpy_add_puzzle_functions(module) < 0 || bkpy_add_solver_functions(module) < 0 ||
        bkpy_add_rule_names(module) < 0 || bkpy_add_search_type(module) < 0)
        return -1;
    return 0;
}

static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    bkpy_state *st = PyModule_GetState(module);
    Py_VISIT(st->game_type);
    Py_VISIT(st->illegal_move_error);
    Py_VISIT(st->invalid_move_error);
    return 0;
}

static int module_clear(PyObject *module)
{
    bkpy_state *st = PyModule_GetState(module);
    Py_CLEAR(st->game_type);
    Py_CLEAR(st->illegal_move_error);
    Py_CLEAR(st->invalid_move_error);
    return 0;
}

static void module_free(void *module)
{
    bkpy_state *st = PyModule_GetState((PyObject *)module);
    module_clear((PyObject *)module);
    PyMem_RawFree(st->moves);
    st->moves = NULL;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
#ifdef Py_mod_multiple_interpreters
    /* NumPy, whose C API every array here goes through, does not support subinterpreters */
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#endif
#ifdef Py_mod_gil
    /* the GIL guards the scratch move list and VectorGame's busy flag */
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "blokus._core",
    .m_doc = module_doc,
    .m_size = sizeof(bkpy_state),
    .m_methods = module_methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

bkpy_state *bkpy_state_of_type(PyTypeObject *type)
{
#if PY_VERSION_HEX >= 0x030B0000
    return PyModule_GetState(PyType_GetModuleByDef(type, &module_def));
#else /* the first base made from this module's specs */
    for (PyTypeObject *t = type; t; t = t->tp_base) {
        PyObject *module = (t->tp_flags & Py_TPFLAGS_HEAPTYPE) ? PyType_GetModule(t) : NULL;
        if (module) return PyModule_GetState(module);
        PyErr_Clear();
    }
    return NULL;
#endif
}

PyMODINIT_FUNC PyInit__core(void)
{
    return PyModuleDef_Init(&module_def);
}

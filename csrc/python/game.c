/* blokus._core.Game: one game, its board state held in C and exposed as
 * read-only NumPy views whose base is the Game. */
#include "python/binding.h"

#include <string.h>

#include "core/movegen.h"
#include "core/movetext.h"
#include "core/observe.h"
#include "core/play.h"
#include "core/score.h"

typedef struct {
    PyObject_HEAD
    bk_board board;
} GameObject;

/* ---- arguments ------------------------------------------------------------ */

/* Reads the arguments of a fastcall method taking one argument called `name`
 * (positional or keyword); *out stays NULL when it is optional and absent. */
static int parse_one_arg(const char *fname, const char *name, int required, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames, PyObject **out)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    *out = NULL;
    if (nargs + nkw > 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most 1 argument (%zd given)", fname, nargs + nkw);
        return -1;
    }
    if (nargs == 1) *out = args[0];
    if (nkw == 1) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(kwnames, 0)) ||
            PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), name) != 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %.40R", fname,
                         PyTuple_GET_ITEM(kwnames, 0));
            return -1;
        }
        *out = args[0];
    }
    if (required && !*out) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname, name);
        return -1;
    }
    return 0;
}

/* The colour argument of a query: None means the colour to move (-1 when the
 * game is over). */
static int colour_arg(const bk_board *b, PyObject *obj, int *colour)
{
    long long c;
    if (!obj || obj == Py_None) {
        *colour = b->to_move;
        return 0;
    }
    if (bkpy_index_in(obj, "colour", 0, b->num_colours, &c) < 0) return -1;
    *colour = (int)c;
    return 0;
}

/* Reads a (row, col) pair; a coordinate off the board becomes -1, which the
 * core reports as off board. */
static int cell_arg(PyObject *item, int side, bk_cell *cell)
{
    static const char *const names[2] = {"row", "col"};
    PyObject *pair = bkpy_items(item, 2, "a cell must be a (row, col) pair");
    if (!pair) return -1;
    if (PyTuple_GET_SIZE(pair) != 2) {
        Py_DECREF(pair);
        PyErr_SetString(PyExc_ValueError, "a cell must be a (row, col) pair");
        return -1;
    }
    long long v[2];
    for (int k = 0; k < 2; k++) {
        int rc = bkpy_index_in(PyTuple_GET_ITEM(pair, k), names[k], 0, side, &v[k]);
        if (rc == -1) {
            Py_DECREF(pair);
            return -1;
        }
        if (rc == -2) { /* any int is taken: the core reports one off the board as such */
            PyErr_Clear();
            v[k] = -1;
        }
    }
    Py_DECREF(pair);
    *cell = (bk_cell){(int8_t)v[0], (int8_t)v[1]};
    return 0;
}

/* Turns a move given as a placement id, text or iterable of (row, col) into a
 * placement id; returns a status (BK_OK with *id set), or -1 with a Python
 * exception set. */
static int move_to_id(const bk_board *b, PyObject *move, int *id)
{
    const bk_geometry *g = b->geom;
    if (PyUnicode_Check(move)) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(move, &len);
        if (!s) return -1;
        return (int)bk_parse_move(g, s, (size_t)len, id);
    }
    if (PyBool_Check(move)) {
        PyErr_SetString(PyExc_TypeError, "a move must be a placement id, a text or cells, not bool");
        return -1;
    }
    /* an array of cells is an iterable, though ndarray also defines __index__ */
    if (PyIndex_Check(move) && !(PyArray_Check(move) && PyArray_NDIM((PyArrayObject *)move) > 0)) {
        long long v;
        if (bkpy_index_in(move, "placement id", 0, g->num_placements, &v) < 0) return -1;
        *id = (int)v;
        return BK_OK;
    }
    /* one cell more than a piece has is enough to refuse the move */
    PyObject *items = bkpy_items(move, BK_MAX_PIECE_SIZE,
                                 "a move must be a placement id, a text such as \"a20,b20\" or an iterable of "
                                 "(row, col) cells");
    if (!items) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    bk_cell cells[BK_MAX_PIECE_SIZE];
    for (Py_ssize_t i = 0; i < n && n <= BK_MAX_PIECE_SIZE; i++)
        if (cell_arg(PyTuple_GET_ITEM(items, i), b->side, &cells[i]) < 0) {
            Py_DECREF(items);
            return -1;
        }
    Py_DECREF(items);
    return n > BK_MAX_PIECE_SIZE ? BK_ERR_NOT_A_PIECE : (int)bk_cells_to_id(g, cells, (int)n, id);
}


static void Game_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *Game_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"variant", "start", NULL};
    PyObject *variant_obj = NULL, *start_obj = NULL;
    int variant = BK_CLASSIC, start = BK_START_ANY;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O$O:Game", kwlist, &variant_obj, &start_obj)) return NULL;
    if (variant_obj && (variant = bkpy_lookup_name(variant_obj, bk_variant_names, BK_NUM_VARIANTS, "variant")) < 0)
        return NULL;
    if (start_obj && (start = bkpy_lookup_name(start_obj, bk_start_rule_names, 2, "start rule")) < 0) return NULL;
    GameObject *self = (GameObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    bk_board_init(&self->board, variant, start);
    return (PyObject *)self;
}

static bk_board *board_of(PyObject *self)
{
    return &((GameObject *)self)->board;
}

bk_board *bkpy_game_board(PyObject *module, PyObject *obj, const char *fname)
{
    bkpy_state *st = PyModule_GetState(module);
    if (PyObject_TypeCheck(obj, (PyTypeObject *)st->game_type)) return board_of(obj);
    PyErr_Format(PyExc_TypeError, "%s() needs a blokus.Game, not %.100s", fname, Py_TYPE(obj)->tp_name);
    return NULL;
}

static PyObject *Game_get_board(PyObject *self, void *closure)
{
    (void)closure;
    bk_board *b = board_of(self);
    npy_intp dims[2] = {b->side, b->side};
    return bkpy_view(self, 2, dims, NULL, NPY_INT8, b->grid);
}

static PyObject *Game_get_remaining(PyObject *self, void *closure)
{
    (void)closure;
    bk_board *b = board_of(self);
    npy_intp dims[2] = {b->num_colours, BK_NUM_PIECES};
    return bkpy_view(self, 2, dims, NULL, NPY_BOOL, b->in_hand);
}

static PyObject *Game_get_to_move(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(board_of(self)->to_move);
}

static PyObject *Game_get_player_to_move(PyObject *self, void *closure)
{
    (void)closure;
    bk_board *b = board_of(self);
    return PyLong_FromLong(b->to_move < 0 ? -1 : bk_player_of_colour(b, b->to_move));
}

static PyObject *Game_get_is_over(PyObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(board_of(self)->to_move < 0);
}

static PyObject *Game_get_num_colours(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(board_of(self)->num_colours);
}

static PyObject *Game_get_num_players(PyObject *self, void *closure)
{
    (void)closure;
    bk_variant_info info;
    bk_variant_get_info(board_of(self)->variant, &info);
    return PyLong_FromLong(info.num_players);
}

static PyObject *Game_get_num_placements(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(board_of(self)->geom->num_placements);
}

static PyObject *Game_get_shape(PyObject *self, void *closure)
{
    (void)closure;
    int side = board_of(self)->side;
    return Py_BuildValue("(ii)", side, side);
}

static PyObject *Game_get_variant(PyObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(bk_variant_names[board_of(self)->variant]);
}

static PyObject *Game_get_start(PyObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(bk_start_rule_names[board_of(self)->start]);
}

static PyObject *Game_get_key(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLongLong(bk_key(board_of(self)));
}

static PyObject *Game_get_history(PyObject *self, void *closure)
{
    (void)closure;
    bk_board *b = board_of(self);
    PyObject *list = PyList_New(b->num_moves);
    for (int i = 0; list && i < b->num_moves; i++) {
        PyObject *item = Py_BuildValue("(ii)", b->history[i].colour, b->history[i].id);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* Generates the legal moves of the colour argument into the scratch list. */
static int gen_for_arg(PyObject *self, bkpy_state *st, PyObject *colour_obj, int *count)
{
    bk_board *b = board_of(self);
    int colour;
    if (colour_arg(b, colour_obj, &colour) < 0) return -1;
    *count = colour < 0 ? 0 : bk_gen_moves(b, colour, st->moves);
    return 0;
}

static PyObject *Game_legal_moves(PyObject *self, PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames)
{
    bkpy_state *st = PyType_GetModuleState(cls);
    PyObject *colour_obj;
    int n;
    if (parse_one_arg("legal_moves", "colour", 0, args, nargs, kwnames, &colour_obj) < 0) return NULL;
    if (gen_for_arg(self, st, colour_obj, &n) < 0) return NULL;
    /* Ascending order through a bitset of every placement: O(moves + placements / 64). */
    uint64_t bits[(BK_MAX_PLACEMENTS + 63) / 64];
    int words = (board_of(self)->geom->num_placements + 63) / 64;
    memset(bits, 0, (size_t)words * sizeof bits[0]);
    for (int i = 0; i < n; i++) bits[st->moves[i] >> 6] |= 1ull << (st->moves[i] & 63);
    npy_intp dim = n;
    PyObject *arr = PyArray_SimpleNew(1, &dim, NPY_INT32);
    if (!arr) return NULL;
    int32_t *out = (int32_t *)PyArray_DATA((PyArrayObject *)arr);
    for (int w = 0, k = 0; w < words; w++)
        for (uint64_t x = bits[w]; x; x &= x - 1)
            out[k++] = w * 64 + bk_ctz64(x);
    return arr;
}

static PyObject *Game_legal_mask(PyObject *self, PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames)
{
    bkpy_state *st = PyType_GetModuleState(cls);
    PyObject *colour_obj;
    int n;
    npy_intp dim = board_of(self)->geom->num_placements;
    if (parse_one_arg("legal_mask", "colour", 0, args, nargs, kwnames, &colour_obj) < 0) return NULL;
    PyObject *arr = PyArray_ZEROS(1, &dim, NPY_BOOL, 0);
    if (!arr) return NULL;
    /* the scratch list is filled only now, after the last call that could run Python code */
    if (gen_for_arg(self, st, colour_obj, &n) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    npy_bool *mask = (npy_bool *)PyArray_DATA((PyArrayObject *)arr);
    for (int i = 0; i < n; i++) mask[st->moves[i]] = 1;
    return arr;
}

/* The colour argument of a per-colour view: the colour to move by default,
 * which must then exist. */
static int viewed_colour(PyObject *self, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames, int *colour)
{
    PyObject *colour_obj;
    if (parse_one_arg(fname, "colour", 0, args, nargs, kwnames, &colour_obj) < 0) return -1;
    if (colour_arg(board_of(self), colour_obj, colour) < 0) return -1;
    if (*colour < 0) {
        PyErr_Format(PyExc_ValueError, "%s(): the game is over, so name the colour", fname);
        return -1;
    }
    return 0;
}

static PyObject *Game_attachment_points(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    bk_board *b = board_of(self);
    int colour;
    if (viewed_colour(self, "attachment_points", args, nargs, kwnames, &colour) < 0) return NULL;
    npy_intp dims[2] = {b->side, b->side};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_BOOL);
    if (arr) bk_attachment_points(b, colour, (uint8_t *)PyArray_DATA((PyArrayObject *)arr));
    return arr;
}

static PyObject *Game_observation(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    bk_board *b = board_of(self);
    int colour;
    if (viewed_colour(self, "observation", args, nargs, kwnames, &colour) < 0) return NULL;
    npy_intp dims[3] = {bk_num_planes(b), b->side, b->side};
    PyObject *arr = PyArray_SimpleNew(3, dims, NPY_INT8);
    if (arr) bk_observation(b, colour, (int8_t *)PyArray_DATA((PyArrayObject *)arr));
    return arr;
}

static PyObject *Game_remaining_from(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    bk_board *b = board_of(self);
    int colour;
    if (viewed_colour(self, "remaining_from", args, nargs, kwnames, &colour) < 0) return NULL;
    npy_intp dims[2] = {b->num_colours, BK_NUM_PIECES};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_INT8);
    if (!arr) return NULL;
    int8_t *out = (int8_t *)PyArray_DATA((PyArrayObject *)arr);
    for (int i = 0; i < b->num_colours; i++)
        memcpy(out + i * BK_NUM_PIECES, b->in_hand[(colour + i) % b->num_colours], BK_NUM_PIECES);
    return arr;
}

static PyObject *Game_play(PyObject *self, PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    bkpy_state *st = PyType_GetModuleState(cls);
    bk_board *b = board_of(self);
    PyObject *move;
    int id = -1, status;
    if (parse_one_arg("play", "move", 1, args, nargs, kwnames, &move) < 0) return NULL;
    status = move_to_id(b, move, &id);
    if (status < 0) return NULL;
    if (status == BK_OK) status = bk_play(b, id);
    if (status != BK_OK) return bkpy_raise_status(st, b, (bk_status)status, b->to_move, id);
    Py_RETURN_NONE;
}

static PyObject *Game_is_legal(PyObject *self, PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    bk_board *b = board_of(self);
    PyObject *move;
    int id = -1, status;
    if (parse_one_arg("is_legal", "move", 1, args, nargs, kwnames, &move) < 0) return NULL;
    status = move_to_id(b, move, &id);
    if (status < 0) return NULL;
    if (status == BK_ERR_BAD_TEXT || status == BK_ERR_NOT_A_PIECE) /* not a placement: nothing to judge */
        return bkpy_raise_status(PyType_GetModuleState(cls), b, (bk_status)status, b->to_move, id);
    return PyBool_FromLong(status == BK_OK && b->to_move >= 0 && bk_check(b, b->to_move, id) == BK_OK);
}

static PyObject *Game_open_starting_squares(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                            PyObject *kwnames)
{
    bk_board *b = board_of(self);
    int colour;
    if (viewed_colour(self, "open_starting_squares", args, nargs, kwnames, &colour) < 0) return NULL;
    PyObject *list = PyList_New(0);
    for (int i = 0; list && b->placed[colour] == 0 && i < b->num_colours; i++) {
        PyObject *cell = bk_start_open(b, colour, i) ? Py_BuildValue("(ii)", b->starts[i].r, b->starts[i].c) : NULL;
        if (bk_start_open(b, colour, i) && (!cell || PyList_Append(list, cell) < 0)) Py_CLEAR(list);
        Py_XDECREF(cell);
    }
    return list;
}

static PyObject *Game_undo(PyObject *self, PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    (void)args;
    if (nargs || (kwnames && PyTuple_GET_SIZE(kwnames)))
        return PyErr_Format(PyExc_TypeError, "undo() takes no arguments");
    bk_board *b = board_of(self);
    bk_status status = bk_undo(b);
    return status == BK_OK ? Py_NewRef(Py_None) : bkpy_raise_status(PyType_GetModuleState(cls), b, status, -1, -1);
}

static PyObject *Game_is_out(PyObject *self, PyObject *colour_obj)
{
    bk_board *b = board_of(self);
    long long c;
    if (bkpy_index_in(colour_obj, "colour", 0, b->num_colours, &c) < 0) return NULL;
    return PyBool_FromLong(bk_is_out(b, (int)c));
}

static PyObject *Game_copy(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyTypeObject *type = Py_TYPE(self);
    PyObject *copy = type->tp_alloc(type, 0);
    if (copy) memcpy(board_of(copy), board_of(self), sizeof(bk_board));
    return copy;
}

static PyObject *Game_deepcopy(PyObject *self, PyObject *memo)
{
    (void)memo;
    return Game_copy(self, NULL);
}

/* A list of the n ints of v; NULL with an exception set. */
static PyObject *int_list(const int *v, int n)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = PyLong_FromLong(v[i]);
        if (!item) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *Game_scores(PyObject *self, PyObject *unused)
{
    (void)unused;
    bk_board *b = board_of(self);
    int s[BK_MAX_COLOURS];
    for (int c = 0; c < b->num_colours; c++) s[c] = bk_colour_score(b, c);
    return int_list(s, b->num_colours);
}

static PyObject *Game_player_scores(PyObject *self, PyObject *unused)
{
    (void)unused;
    int s[BK_MAX_COLOURS];
    int n = bk_player_scores(board_of(self), s);
    return int_list(s, n);
}

static PyObject *Game_winners(PyObject *self, PyObject *unused)
{
    (void)unused;
    uint8_t won[BK_MAX_COLOURS];
    int n = bk_winners(board_of(self), won);
    PyObject *list = PyList_New(0);
    for (int p = 0; list && p < n; p++) {
        PyObject *player = won[p] ? PyLong_FromLong(p) : NULL;
        if (won[p] && (!player || PyList_Append(list, player) < 0)) Py_CLEAR(list);
        Py_XDECREF(player);
    }
    return list;
}

static PyObject *Game_move_text(PyObject *self, PyObject *id_obj)
{
    bk_board *b = board_of(self);
    char text[BK_MOVE_TEXT_MAX];
    long long id;
    if (bkpy_index_in(id_obj, "placement id", 0, b->geom->num_placements, &id) < 0) return NULL;
    bk_move_text(b->geom, (int)id, text);
    return PyUnicode_FromString(text);
}

static PyObject *Game_richcompare(PyObject *self, PyObject *other, int op)
{
    bkpy_state *st = bkpy_state_of_type(Py_TYPE(self));
    if (!st) return NULL;
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(other, (PyTypeObject *)st->game_type))
        Py_RETURN_NOTIMPLEMENTED;
    int equal = bk_board_equal(board_of(self), board_of(other));
    return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

static PyMethodDef Game_methods[] = {
    {"legal_moves", (PyCFunction)(void (*)(void))Game_legal_moves, METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "legal_moves(colour=None)\n--\n\n"
     "Legal placements of a colour.\n\n"
     "Parameters\n----------\ncolour : int, optional\n"
     "    Colour index; the colour to move by default. A colour that has not\n"
     "    moved yet gets its first-move list.\n\n"
     "Returns\n-------\nnumpy.ndarray\n    int32 placement ids, ascending; empty once the game is over.\n\n"
     "Raises\n------\nValueError\n    Colour out of range.\n"},
    {"legal_mask", (PyCFunction)(void (*)(void))Game_legal_mask, METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "legal_mask(colour=None)\n--\n\n"
     "Legal placements of a colour as a mask.\n\n"
     "Returns\n-------\nnumpy.ndarray\n    bool, shape (num_placements,); True at every legal placement id.\n\n"
     "Raises\n------\nValueError\n    Colour out of range.\n"},
    {"play", (PyCFunction)(void (*)(void))Game_play, METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "play(move)\n--\n\n"
     "Places a piece for the colour to move, then passes the turn to the next\n"
     "colour that has a legal placement (docs/rules.md, \"Turns, passing, end\").\n\n"
     "Parameters\n----------\nmove : int, str or iterable of (row, col)\n"
     "    A placement id, the text form (\"a20,b20,c20\", any cell order) or the cells.\n\n"
     "Raises\n------\nIllegalMoveError\n    The move breaks a rule (off board, occupied, piece already used,\n"
     "    edge contact with its own colour, no corner contact, not on a starting\n"
     "    square, game over); the message names it.\n"
     "ValueError, TypeError\n    Malformed input. In every case the game is unchanged.\n"},
    {"attachment_points", (PyCFunction)(void (*)(void))Game_attachment_points, METH_FASTCALL | METH_KEYWORDS,
     "attachment_points(colour=None)\n--\n\n"
     "Where a colour may attach its next piece: empty cells diagonal to its own\n"
     "cells and not edge-adjacent to them; before its first piece, the free\n"
     "starting squares open to it (docs/rules.md, \"Placing a piece\").\n\n"
     "Returns\n-------\nnumpy.ndarray\n    bool, shape (H, W).\n\n"
     "Raises\n------\nValueError\n    Colour out of range, or omitted once the game is over.\n"},
    {"observation", (PyCFunction)(void (*)(void))Game_observation, METH_FASTCALL | METH_KEYWORDS,
     "observation(colour=None)\n--\n\n"
     "Planes seen from a colour (the colour to move by default).\n\n"
     "Returns\n-------\nnumpy.ndarray\n    int8 of 0/1, shape (num_colours + 1, H, W): plane 0 the colour's\n"
     "    cells, planes 1 .. num_colours - 1 the other colours' cells in turn\n"
     "    order after it, the last plane its attachment points (see\n"
     "    attachment_points).\n\n"
     "Raises\n------\nValueError\n    Colour out of range, or omitted once the game is over.\n"},
    {"remaining_from", (PyCFunction)(void (*)(void))Game_remaining_from, METH_FASTCALL | METH_KEYWORDS,
     "remaining_from(colour=None)\n--\n\n"
     "Pieces in hand seen from a colour (the colour to move by default): the rows\n"
     "of `remaining` starting with that colour, then the others in turn order.\n\n"
     "Returns\n-------\nnumpy.ndarray\n    int8 of 0/1, shape (num_colours, 21), columns in PIECE_NAMES order.\n\n"
     "Raises\n------\nValueError\n    Colour out of range, or omitted once the game is over.\n"},
    {"is_legal", (PyCFunction)(void (*)(void))Game_is_legal, METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "is_legal(move)\n--\n\n"
     "Whether the colour to move may play `move` now (docs/rules.md, \"Placing a\n"
     "piece\"); False once the game is over and for cells off the board.\n\n"
     "Parameters\n----------\nmove : int, str or iterable of (row, col)\n    As for play().\n\n"
     "Raises\n------\nInvalidMoveError\n    The move names no placement (unreadable text, cells that are\n"
     "    not a piece).\nValueError, TypeError\n    A placement id out of range, or malformed input.\n"},
    {"open_starting_squares", (PyCFunction)(void (*)(void))Game_open_starting_squares,
     METH_FASTCALL | METH_KEYWORDS,
     "open_starting_squares(colour=None)\n--\n\n"
     "The starting squares a colour's first piece may still cover (docs/rules.md,\n"
     "\"Starting squares\"): free ones, any of them under start=\"any\", its own under\n"
     "\"fixed\"; empty once the colour has placed a piece.\n\n"
     "Returns\n-------\nlist of (row, col)\n\n"
     "Raises\n------\nValueError\n    Colour out of range, or omitted once the game is over.\n"},
    {"undo", (PyCFunction)(void (*)(void))Game_undo, METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "undo()\n--\n\nTakes back the last placement.\n\nRaises\n------\nIndexError\n    No move has been played.\n"},
    {"is_out", Game_is_out, METH_O,
     "is_out(colour)\n--\n\nWhether the colour can no longer place any piece (docs/rules.md: once it has\n"
     "no legal placement it never gets one again).\n"},
    {"copy", Game_copy, METH_NOARGS, "copy()\n--\n\nAn independent copy of the game, history included.\n"},
    {"__copy__", Game_copy, METH_NOARGS, NULL},
    {"__deepcopy__", Game_deepcopy, METH_O, NULL},
    {"scores", Game_scores, METH_NOARGS,
     "scores()\n--\n\nScore per colour (docs/rules.md, \"Scoring\"): minus one per square in hand;\n"
     "+15 once all 21 pieces are placed, +20 if the last was the monomino.\n\n"
     "Returns\n-------\nlist of int\n    One per colour, valid mid-game too.\n"},
    {"player_scores", Game_player_scores, METH_NOARGS,
     "player_scores()\n--\n\nScore per player, by variant (docs/rules.md, \"Scoring\"): classic_2 sums\n"
     "blue+red and yellow+green; classic_3 ignores the shared green;\n"
     "classic_teams gives both members their team's sum.\n\n"
     "Returns\n-------\nlist of int\n    One per player.\n"},
    {"winners", Game_winners, METH_NOARGS,
     "winners()\n--\n\nPlayers with the highest player score (docs/rules.md, \"Scoring\"); equal\n"
     "highest share the win. Valid mid-game too.\n\n"
     "Returns\n-------\nlist of int\n    Player indices, ascending.\n"},
    {"move_text", Game_move_text, METH_O,
     "move_text(id)\n--\n\nThe text form of a placement, cells by row from the bottom then by column.\n\n"
     "Raises\n------\nValueError\n    Placement id out of range.\n"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Game_getset[] = {
    {"board", Game_get_board, NULL,
     "Read-only live view of the cells: int8, shape (H, W); -1 empty, else the\n"
     "colour index. Its base keeps the game's memory alive; .copy() for a snapshot.",
     NULL},
    {"remaining", Game_get_remaining, NULL,
     "Read-only live view: bool, shape (num_colours, 21); True where the piece\n"
     "(in PIECE_NAMES order) is still in hand.",
     NULL},
    {"to_move", Game_get_to_move, NULL, "Colour index to move; -1 once the game is over.", NULL},
    {"player_to_move", Game_get_player_to_move, NULL,
     "Player to move; -1 once over (classic_3: green is moved by\n"
     "(green pieces on the board) mod 3).",
     NULL},
    {"is_over", Game_get_is_over, NULL, "True once no colour can place a piece.", NULL},
    {"num_colours", Game_get_num_colours, NULL, "Number of colours (4, or 2 in duo).", NULL},
    {"num_players", Game_get_num_players, NULL, "Number of players of the variant.", NULL},
    {"num_placements", Game_get_num_placements, NULL, "Number of placement ids (30,433 or 13,729).", NULL},
    {"shape", Game_get_shape, NULL, "(H, W) of the board.", NULL},
    {"variant", Game_get_variant, NULL, "Variant name.", NULL},
    {"start", Game_get_start, NULL, "Start rule: \"any\" or \"fixed\".", NULL},
    {"key", Game_get_key, NULL, "Zobrist hash of the position (cells and colour to move), int.", NULL},
    {"history", Game_get_history, NULL, "Placements so far: list of (colour, placement id), in order.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot Game_slots[] = {
    {Py_tp_doc, "Game(variant=\"classic\", *, start=\"any\")\n--\n\n"
                "A Blokus game: the board, pieces in hand, turn and history, held in C."},
    {Py_tp_new, Game_new},
    {Py_tp_dealloc, Game_dealloc},
    {Py_tp_methods, Game_methods},
    {Py_tp_getset, Game_getset},
    {Py_tp_richcompare, Game_richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {0, NULL}};

static PyType_Spec Game_spec = {
    .name = "blokus._core.Game",
    .basicsize = sizeof(GameObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = Game_slots,
};

int bkpy_add_game_type(PyObject *module)
{
    bkpy_state *st = PyModule_GetState(module);
    st->game_type = PyType_FromModuleAndSpec(module, &Game_spec, NULL);
    return st->game_type ? PyModule_AddObjectRef(module, "Game", st->game_type) : -1;
}

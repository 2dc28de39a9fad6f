/* The rules as Python values and functions, from the core's own tables, so
 * that the Python package restates none of them: PIECE_NAMES, PIECE_SIZES,
 * TOTAL_SQUARES, NUM_ORIENTATIONS, VARIANTS, START_RULES, variant_info,
 * placement_table, player_weights, player_results and parse_move. */
#include "python/binding.h"

#include "core/movetext.h"

/* A tuple of n items made by item(i); NULL with an exception set. */
static PyObject *tuple_of(int n, PyObject *(*item)(const void *, int), const void *arg)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *x = item(arg, i);
        if (!x) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *name_at(const void *names, int i)
{
    return PyUnicode_FromString(((const char *const *)names)[i]);
}

static PyObject *size_at(const void *unused, int i)
{
    (void)unused;
    return PyLong_FromLong(bk_piece_size[i]);
}

static PyObject *cell_at(const void *cells, int i)
{
    const bk_cell *c = &((const bk_cell *)cells)[i];
    return Py_BuildValue("(ii)", c->r, c->c);
}

static PyObject *side_at(const void *sides, int i)
{
    return PyLong_FromLong(((const int8_t *)sides)[i]);
}

static PyObject *new_array(int nd, npy_intp *dims, int typenum)
{
    return PyArray_ZEROS(nd, dims, typenum, 0);
}

/* The colours a player's score counts, for variant_info's "player_colours". */
static PyObject *player_colours(int variant, int num_players, int num_colours)
{
    int8_t w[BK_MAX_COLOURS][BK_MAX_COLOURS];
    bk_player_weights(variant, w);
    PyObject *all = PyTuple_New(num_players);
    for (int p = 0; all && p < num_players; p++) {
        PyObject *mine = PyList_New(0);
        for (int c = 0; mine && c < num_colours; c++) {
            PyObject *colour = w[p][c] ? PyLong_FromLong(c) : NULL;
            if (w[p][c] && (!colour || PyList_Append(mine, colour) < 0)) Py_CLEAR(mine);
            Py_XDECREF(colour);
        }
        PyObject *t = mine ? PyList_AsTuple(mine) : NULL;
        Py_XDECREF(mine);
        if (!t) Py_CLEAR(all);
        else PyTuple_SET_ITEM(all, p, t);
    }
    return all;
}

static PyObject *variant_info(PyObject *module, PyObject *name)
{
    (void)module;
    bk_variant_info info;
    int variant = bkpy_variant_arg(name, &info);
    if (variant < 0) return NULL;
    int8_t sides[BK_MAX_COLOURS];
    bk_player_sides(variant, sides);
    return Py_BuildValue("{s:i,s:i,s:i,s:N,s:N,s:N,s:N,s:i,s:s,s:s}", "side", info.side, "num_colours",
                         info.num_colours, "num_players", info.num_players, "colours",
                         tuple_of(info.num_colours, name_at, info.colour_names), "starting_squares",
                         tuple_of(info.num_colours, cell_at, info.starts), "player_colours",
                         player_colours(variant, info.num_players, info.num_colours), "player_sides",
                         tuple_of(info.num_players, side_at, sides), "geometry",
                         bk_geometry_for(info.side)->index, "sgf_game", info.sgf_game, "weight_set",
                         bk_weight_set_names[info.weights]);
}

static PyObject *placement_table(PyObject *module, PyObject *variant_obj)
{
    (void)module;
    bk_variant_info info;
    if (bkpy_variant_arg(variant_obj, &info) < 0) return NULL;
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
    int variant = bkpy_variant_arg(variant_obj, &info);
    if (variant < 0) return NULL;
    bk_player_weights(variant, w);
    npy_intp dims[2] = {info.num_players, info.num_colours};
    PyObject *arr = new_array(2, dims, NPY_INT8);
    if (!arr) return NULL;
    for (int p = 0; p < info.num_players; p++)
        for (int c = 0; c < info.num_colours; c++) *(int8_t *)PyArray_GETPTR2((PyArrayObject *)arr, p, c) = w[p][c];
    return arr;
}

/* Player scores, winners and places (bk_place_shares_of) of games given by
 * their colour scores. */
static PyObject *player_results(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    bk_variant_info info;
    int variant;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "player_results() takes 2 arguments (%zd given)", nargs);
    if ((variant = bkpy_variant_arg(args[0], &info)) < 0) return NULL;
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
    int8_t w[BK_MAX_COLOURS][BK_MAX_COLOURS], side[BK_MAX_COLOURS];
    bk_player_weights(variant, w);
    bk_player_sides(variant, side);
    PyObject *scores = new_array(2, dims, NPY_INT64), *winners = new_array(2, dims, NPY_BOOL);
    PyObject *places = new_array(2, dims, NPY_FLOAT64);
    if (scores && winners && places) {
        int64_t *out = PyArray_DATA((PyArrayObject *)scores);
        for (npy_intp g = 0; g < n; g++) {
            int64_t *player = out + g * info.num_players;
            for (int p = 0; p < info.num_players; p++) {
                player[p] = 0;
                for (int c = 0; c < info.num_colours; c++) player[p] += w[p][c] * in[g * info.num_colours + c];
            }
            bk_winners_of(info.num_players, player,
                          (uint8_t *)PyArray_DATA((PyArrayObject *)winners) + g * info.num_players);
            bk_place_shares_of(info.num_players, player, side,
                               (double *)PyArray_DATA((PyArrayObject *)places) + g * info.num_players);
        }
    }
    Py_DECREF(colour);
    if (scores && winners && places) return Py_BuildValue("(NNN)", scores, winners, places);
    Py_XDECREF(scores);
    Py_XDECREF(winners);
    Py_XDECREF(places);
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
    if ((variant = bkpy_variant_arg(args[1], &info)) < 0) return NULL;
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

static PyMethodDef rule_functions[] = {
    {"variant_info", variant_info, METH_O,
     "variant_info(variant)\n--\n\n"
     "The facts of a variant (docs/rules.md, \"Variants\") as a new dict: side, num_colours,\n"
     "num_players, colours (names in turn order), starting_squares ((row, col) per colour:\n"
     "colour i's own under start=\"fixed\"), player_colours (per player, the colours its\n"
     "score counts), player_sides (per player, its side: partners share one, numbered by\n"
     "its first player), geometry (the index of its placement table: variants of one board\n"
     "side share it), sgf_game (its records' GM value) and weight_set (the playout and prior\n"
     "weights it plays with: \"classic\" or \"duo\")."},
    {"placement_table", placement_table, METH_O,
     "placement_table(variant)\n--\n\n"
     "The placement table as a tuple of arrays (piece, orientation, anchor_row,\n"
     "anchor_col, cells, size); cells is (A, 5, 2) padded with -1."},
    {"player_weights", player_weights, METH_O,
     "player_weights(variant)\n--\n\n"
     "int8 array (num_players, num_colours): player scores = weights @ colour scores."},
    {"player_results", (PyCFunction)(void (*)(void))player_results, METH_FASTCALL,
     "player_results(variant, colour_scores)\n--\n\n"
     "Player scores, winners and places of n games from their colour scores (int,\n"
     "(n, num_colours)): (int64, bool, float64), each (n, num_players); winners are the\n"
     "players with the highest player score (docs/rules.md, \"Scoring\"); places rank the\n"
     "sides from 0 (last) to 1 (first), ties averaged."},
    {"parse_move", (PyCFunction)(void (*)(void))parse_move, METH_FASTCALL,
     "parse_move(text, variant)\n--\n\nThe placement id of a move text such as \"a20,b20,c20\";\n"
     "InvalidMoveError when the text names no placement."},
    {NULL, NULL, 0, NULL}};

/* Adds obj (a new reference, or NULL after an error) to the module as `name`. */
static int add(PyObject *module, const char *name, PyObject *obj)
{
    int rc = obj ? PyModule_AddObjectRef(module, name, obj) : -1;
    Py_XDECREF(obj);
    return rc;
}

int bkpy_add_rules(PyObject *module)
{
    if (PyModule_AddFunctions(module, rule_functions) < 0 ||
        add(module, "PIECE_NAMES", tuple_of(BK_NUM_PIECES, name_at, bk_piece_names)) < 0 ||
        add(module, "PIECE_SIZES", tuple_of(BK_NUM_PIECES, size_at, NULL)) < 0 ||
        add(module, "VARIANTS", tuple_of(BK_NUM_VARIANTS, name_at, bk_variant_names)) < 0 ||
        add(module, "START_RULES", tuple_of(2, name_at, bk_start_rule_names)) < 0)
        return -1;
    if (PyModule_AddIntConstant(module, "NUM_ORIENTATIONS", BK_NUM_ORIENTS) < 0) return -1;
    return PyModule_AddIntConstant(module, "TOTAL_SQUARES", BK_TOTAL_SQUARES);
}

/* The rules' vocabulary as Python values, from the core's own tables, so
 * that the Python package restates none of them: PIECE_NAMES, PIECE_SIZES,
 * TOTAL_SQUARES, NUM_ORIENTATIONS, VARIANTS, START_RULES and variant_info(variant). */
#include "python/binding.h"

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
    int variant = bkpy_lookup_name(name, bk_variant_names, BK_NUM_VARIANTS, "variant");
    bk_variant_info info;
    if (variant < 0) return NULL;
    bk_variant_get_info(variant, &info);
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
    {NULL, NULL, 0, NULL}};

/* Adds obj (a new reference, or NULL after an error) to the module as `name`. */
static int add(PyObject *module, const char *name, PyObject *obj)
{
    int rc = obj ? PyModule_AddObjectRef(module, name, obj) : -1;
    Py_XDECREF(obj);
    return rc;
}

int bkpy_add_rule_names(PyObject *module)
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

/* blokus._core.pack_solve, pack_count and all84_solve: the solo puzzles'
 * searches (puzzles/packing.c, puzzles/all84.c) for blokus.puzzles.  Each
 * runs in chunks with the GIL released, checking Ctrl-C, the time limit and
 * the progress callback between chunks. */
#include "python/binding.h"

#include <limits.h>

#include "puzzles/all84.h"
#include "puzzles/packing.h"

#define PACK_CHUNK 65536  /* nodes per release of the GIL: a few tens of milliseconds */
#define ALL84_CHUNK 32768 /* child positions scored per release of the GIL */
#define REPORT_EVERY 1.0  /* seconds between calls of the progress callback */

/* Time limit, progress callback and start time of one search. */
typedef struct {
    double started, deadline, next_report; /* deadline 0: none */
    PyObject *progress;                    /* a callable, or NULL */
} run_clock;

/* Reads time_limit (None or seconds > 0) and progress (None or a callable). */
static int clock_init(run_clock *rc, PyObject *time_limit, PyObject *progress)
{
    rc->started = bkpy_now();
    rc->deadline = 0.0;
    rc->next_report = rc->started + REPORT_EVERY;
    rc->progress = progress == Py_None ? NULL : progress;
    if (rc->progress && !PyCallable_Check(rc->progress)) {
        PyErr_SetString(PyExc_TypeError, "progress must be callable or None");
        return -1;
    }
    if (time_limit && time_limit != Py_None) {
        double seconds;
        if (bkpy_seconds_arg(time_limit, "time_limit", &seconds) < 0) return -1;
        rc->deadline = rc->started + seconds;
    }
    return 0;
}

/* Between two chunks: -1 with an exception set (Ctrl-C, or the callback
 * raised), 1 when the time is up, else 0.  `info` builds the dict handed to
 * the progress callback. */
static int between_chunks(run_clock *rc, PyObject *(*info)(const void *, double), const void *search)
{
    if (PyErr_CheckSignals() < 0) return -1;
    double t = bkpy_now();
    if (rc->progress && t >= rc->next_report) {
        rc->next_report = t + REPORT_EVERY;
        PyObject *d = info(search, t - rc->started);
        PyObject *r = d ? PyObject_CallOneArg(rc->progress, d) : NULL;
        Py_XDECREF(d);
        if (!r) return -1;
        Py_DECREF(r);
    }
    return rc->deadline > 0.0 && t >= rc->deadline;
}

/* ---- packings -------------------------------------------------------------- */

/* One (piece index, colour, count) of kinds into *kind. */
static int read_kind(PyObject *obj, bk_pack_kind *kind)
{
    static const char *const names[3] = {"piece", "colour", "count"};
    static const long long ends[3] = {BK_NUM_PIECES, BK_MAX_COLOURS, BK_PACK_MAX_PIECES + 1};
    PyObject *items = bkpy_items(obj, 3, "each kind must be a (piece, colour, count) triple");
    long long v[3];
    if (!items) return -1;
    int ok = PyTuple_GET_SIZE(items) == 3;
    if (!ok) PyErr_SetString(PyExc_ValueError, "each kind must be a (piece, colour, count) triple");
    for (int k = 0; ok && k < 3; k++) ok = bkpy_index_in(PyTuple_GET_ITEM(items, k), names[k], 0, ends[k], &v[k]) == 0;
    Py_DECREF(items);
    if (ok) *kind = (bk_pack_kind){(uint8_t)v[0], (uint8_t)v[1], (uint16_t)v[2]};
    return ok ? 0 : -1;
}

/* Reads (height, width, kinds, same_colour_edges) into a spec: kinds is an
 * iterable of (piece index, colour, count). */
static int read_spec(bk_pack_spec *spec, int height, int width, PyObject *kinds, int same_colour_edges)
{
    memset(spec, 0, sizeof *spec);
    spec->height = height;
    spec->width = width;
    spec->same_colour_edges = same_colour_edges;
    PyObject *items = bkpy_items(kinds, BK_PACK_MAX_KINDS, "kinds must be an iterable of (piece, colour, count)");
    if (!items) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    int ok = n <= BK_PACK_MAX_KINDS;
    if (!ok) PyErr_Format(PyExc_ValueError, "at most %d kinds (piece, colour)", BK_PACK_MAX_KINDS);
    for (Py_ssize_t i = 0; ok && i < n; i++) ok = read_kind(PyTuple_GET_ITEM(items, i), &spec->kinds[i]) == 0;
    Py_DECREF(items);
    spec->num_kinds = (int)n;
    return ok ? 0 : -1;
}

static PyObject *pack_error(bk_pack_status st)
{
    switch (st) {
    case BK_PACK_BAD_SHAPE:
        return PyErr_Format(PyExc_ValueError, "the rectangle's sides must be 1..%d, the shorter one at most %d",
                            BK_PACK_MAX_SIDE, BK_PACK_MAX_NARROW);
    case BK_PACK_BAD_KIND:
        return PyErr_Format(PyExc_ValueError, "each (piece, colour) once, at most %d pieces in all",
                            BK_PACK_MAX_PIECES);
    case BK_PACK_BAD_AREA:
        return PyErr_Format(PyExc_ValueError, "the pieces' squares do not add up to the rectangle's area");
    default:
        return PyErr_NoMemory();
    }
}

static PyObject *pack_info(const void *search, double seconds)
{
    const bk_packing *s = search;
    return Py_BuildValue("{s:d,s:L,s:L}", "seconds", seconds, "nodes", (long long)bk_packing_nodes(s), "restarts",
                         (long long)bk_packing_restarts(s));
}

/* (labels int16 (H, W), colours int8 (H, W), ((piece, colour), ...)) of the
 * solution the search has just found. */
static PyObject *pack_result(const bk_packing *s, int height, int width)
{
    npy_intp dims[2] = {height, width};
    int n = bk_packing_num_pieces(s);
    PyObject *labels = PyArray_SimpleNew(2, dims, NPY_INT16), *cells = PyArray_SimpleNew(2, dims, NPY_INT8);
    uint8_t *pieces = PyMem_Malloc((size_t)n + 1), *colours = PyMem_Malloc((size_t)n + 1);
    PyObject *list = PyTuple_New(n), *result = NULL;
    if (labels && cells && pieces && colours && list) {
        bk_packing_solution(s, PyArray_DATA((PyArrayObject *)labels), pieces, colours,
                            PyArray_DATA((PyArrayObject *)cells));
        int ok = 1;
        for (int i = 0; i < n && ok; i++) {
            PyObject *item = Py_BuildValue("(ii)", pieces[i], colours[i]);
            if (!item) ok = 0;
            else PyTuple_SET_ITEM(list, i, item);
        }
        if (ok) result = PyTuple_Pack(3, labels, cells, list);
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    Py_XDECREF(labels);
    Py_XDECREF(cells);
    Py_XDECREF(list);
    PyMem_Free(pieces);
    PyMem_Free(colours);
    return result;
}

static PyObject *pack_solve(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"height", "width", "kinds", "same_colour_edges", "seed", "time_limit", "progress", NULL};
    int height, width, same = 1;
    PyObject *kinds, *seed_obj = NULL, *time_limit = Py_None, *progress = Py_None;
    unsigned long long seed = 0;
    bk_pack_spec spec;
    run_clock rc;
    bk_pack_status st;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiO|$pOOO:pack_solve", kwlist, &height, &width, &kinds, &same,
                                     &seed_obj, &time_limit, &progress))
        return NULL;
    if (read_spec(&spec, height, width, kinds, same) < 0) return NULL;
    if (seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0) return NULL;
    if (clock_init(&rc, time_limit, progress) < 0) return NULL;
    bk_packing *s = bk_packing_new(&spec, seed, 1, &st);
    if (!s) return pack_error(st);
    bk_search_result r;
    int stop = 0;
    do {
        Py_BEGIN_ALLOW_THREADS
        r = bk_packing_run(s, PACK_CHUNK);
        Py_END_ALLOW_THREADS
    } while (r == BK_SEARCH_BUDGET && !(stop = between_chunks(&rc, pack_info, s)));
    PyObject *result = stop < 0 ? NULL : r == BK_SEARCH_FOUND ? pack_result(s, height, width) : Py_NewRef(Py_None);
    bk_packing_free(s);
    return result;
}

static PyObject *pack_count(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"height",   "width",      "kinds",    "same_colour_edges", "limit", "up_to_symmetry",
                             "time_limit", "progress", NULL};
    int height, width, same = 1, symmetry = 0;
    long long limit = 0, count = 0;
    PyObject *kinds, *limit_obj = NULL, *time_limit = Py_None, *progress = Py_None;
    bk_pack_spec spec;
    run_clock rc;
    bk_pack_status st;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiO|$pOpOO:pack_count", kwlist, &height, &width, &kinds, &same,
                                     &limit_obj, &symmetry, &time_limit, &progress))
        return NULL;
    if (limit_obj && bkpy_index_in(limit_obj, "limit (0: none)", 0, LLONG_MAX, &limit) < 0) return NULL;
    if (read_spec(&spec, height, width, kinds, same) < 0 || clock_init(&rc, time_limit, progress) < 0) return NULL;
    bk_packing *s = bk_packing_new(&spec, 0, 0, &st);
    if (!s) return pack_error(st);
    int stop = 0, canonical = 1;
    bk_search_result r;
    for (;;) {
        Py_BEGIN_ALLOW_THREADS
        r = bk_packing_run(s, PACK_CHUNK);
        if (r == BK_SEARCH_FOUND && symmetry) canonical = bk_packing_is_canonical(s);
        if (r == BK_SEARCH_FOUND && canonical > 0) count++;
        Py_END_ALLOW_THREADS
        if (canonical < 0 || r == BK_SEARCH_EXHAUSTED || (limit && count >= limit)) break;
        if ((stop = between_chunks(&rc, pack_info, s)) != 0) break;
    }
    bk_packing_free(s);
    if (canonical < 0) return PyErr_NoMemory(); /* a count that skipped a solution would be wrong */
    if (stop < 0) return NULL;
    return Py_BuildValue("(LO)", count, stop ? Py_True : Py_False);
}

/* ---- All 84 ----------------------------------------------------------------- */

static PyObject *all84_info(const void *search, double seconds)
{
    const bk_all84 *s = search;
    uint16_t moves[BK_MAX_HISTORY];
    int left;
    bk_all84_best(s, moves, &left);
    return Py_BuildValue("{s:d,s:i,s:i,s:i,s:L}", "seconds", seconds, "best_squares_left", left, "beams",
                         bk_all84_beams(s), "width", bk_all84_width(s), "positions", (long long)bk_all84_work(s));
}

static PyObject *all84_solve(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"game", "seed", "time_limit", "progress", NULL};
    PyObject *game, *seed_obj = NULL, *time_limit = Py_None, *progress = Py_None;
    unsigned long long seed = 0;
    run_clock rc;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OOO:all84_solve", kwlist, &game, &seed_obj, &time_limit,
                                     &progress))
        return NULL;
    /* the numbers first: reading them may run Python code, which could play on the game */
    if ((seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0) || clock_init(&rc, time_limit, progress) < 0) return NULL;
    bk_board *live = bkpy_game_board(module, game, "all84_solve");
    if (!live) return NULL;
    bk_all84 *s = bk_all84_new(live, seed); /* a copy: the game may change while this runs */
    if (!s) return PyErr_NoMemory();
    bk_search_result r;
    int stop = 0;
    do {
        Py_BEGIN_ALLOW_THREADS
        r = bk_all84_run(s, ALL84_CHUNK);
        Py_END_ALLOW_THREADS
    } while (r == BK_SEARCH_BUDGET && !(stop = between_chunks(&rc, all84_info, s)));
    PyObject *result = NULL;
    if (stop >= 0) {
        uint16_t moves[BK_MAX_HISTORY];
        int left, n = bk_all84_best(s, moves, &left);
        PyObject *ids = PyTuple_New(n);
        for (int i = 0; ids && i < n; i++) {
            PyObject *id = PyLong_FromLong(moves[i]);
            if (!id) Py_CLEAR(ids);
            else PyTuple_SET_ITEM(ids, i, id);
        }
        if (ids) result = Py_BuildValue("(NiO)", ids, left, r == BK_SEARCH_FOUND ? Py_True : Py_False);
    }
    bk_all84_free(s);
    return result;
}

static PyMethodDef puzzle_functions[] = {
    {"pack_solve", (PyCFunction)(void (*)(void))pack_solve, METH_VARARGS | METH_KEYWORDS,
     "pack_solve(height, width, kinds, *, same_colour_edges=True, seed=0,\n"
     "           time_limit=None, progress=None)\n--\n\n"
     "Searches for one packing of the pieces `kinds` ((piece index, colour,\n"
     "count), ...) into a height x width rectangle, with the GIL released.\n\n"
     "Returns (labels int16 (H, W), colours int8 (H, W), ((piece, colour), ...)),\n"
     "labels indexing the pieces, or None when time_limit (seconds) ran out or\n"
     "there is no packing. progress(dict) is called about once a second."},
    {"pack_count", (PyCFunction)(void (*)(void))pack_count, METH_VARARGS | METH_KEYWORDS,
     "pack_count(height, width, kinds, *, same_colour_edges=True, limit=0,\n"
     "           up_to_symmetry=False, time_limit=None, progress=None)\n--\n\n"
     "Counts the packings (up to the rectangle's symmetries if asked), stopping\n"
     "at `limit` (0: none). Returns (count, timed_out)."},
    {"all84_solve", (PyCFunction)(void (*)(void))all84_solve, METH_VARARGS | METH_KEYWORDS,
     "all84_solve(game, *, seed=0, time_limit=None, progress=None)\n--\n\n"
     "Beam search from the game's position for a line in which every colour\n"
     "places all its pieces. Returns (moves, squares_left, solved): the best\n"
     "line found (placement ids after the game's own moves), the squares it\n"
     "leaves in hand, and whether that is 0. Without a time limit it runs\n"
     "until solved (or Ctrl-C)."},
    {NULL, NULL, 0, NULL}};

int bkpy_add_puzzle_functions(PyObject *module)
{
    PyObject *limits = Py_BuildValue("{s:i,s:i,s:i,s:i}", "max_side", BK_PACK_MAX_SIDE, "max_narrow_side",
                                     BK_PACK_MAX_NARROW, "max_pieces", BK_PACK_MAX_PIECES, "max_kinds",
                                     BK_PACK_MAX_KINDS);
    int rc = limits ? PyModule_AddObjectRef(module, "PACK_LIMITS", limits) : -1;
    Py_XDECREF(limits);
    return rc < 0 ? -1 : PyModule_AddFunctions(module, puzzle_functions);
}

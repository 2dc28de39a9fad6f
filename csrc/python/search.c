/* blokus._core.BatchedSearch: the batched PUCT search (engine/batched_search.c) as
 * a Python type.  The caller's evaluator runs in Python between calls; the
 * tree walks run in C with the GIL released, a part of the games at a time
 * so that Ctrl-C is seen between parts.  A walk cut short leaves the other
 * games waiting to descend, and the next pending() goes on with them. */
#include "python/binding.h"

#include <float.h>
#include <math.h>
#include <unistd.h>

#include "engine/batched_search.h"
#include "core/observe.h"

/* Games per release of the GIL while descending. */
#define PART 64
#define MAX_GAMES ((int64_t)1 << 20)
#define MAX_SIMULATIONS (1 << 24)

typedef struct {
    PyObject_HEAD
    int busy;      /* a call runs with the GIL released (set and read under the GIL) */
    pid_t busy_in; /* the process that set busy: in a child forked meanwhile, the call never ends */
    int broken;    /* forked in the middle of a call: the trees may be half-written */
    /* the ticket of the leaves pending() handed out, which evaluate() takes
     * next (0: none handed out); each hand-out has a new one */
    uint64_t requested, tickets;
    bk_bsearch *s;
    int variant, side, planes, num_colours, num_players, num_placements;
    PyObject *params; /* dict of the parameters as read: the params attribute */
} SearchObject;

static SearchObject *so(PyObject *self)
{
    return (SearchObject *)self;
}

/* RuntimeError while another thread's call runs on the search. */
static int check_usable(PyObject *self)
{
    SearchObject *o = so(self);
    if (o->busy && o->busy_in != getpid()) {
        o->busy = 0;
        o->broken = 1;
    }
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this BatchedSearch is being run by another thread");
        return -1;
    }
    if (o->broken) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this process was forked while a call on this BatchedSearch ran: its trees are in an "
                        "unknown state; make a new search");
        return -1;
    }
    return 0;
}

static void set_busy(SearchObject *o, int busy)
{
    o->busy = busy;
    o->busy_in = getpid();
}

/* Descends every game that waits to, PART games per release of the GIL;
 * -1 with KeyboardInterrupt or MemoryError set when it stops early (the
 * rest then still wait). */
static int descend_all(PyObject *self)
{
    SearchObject *o = so(self);
    int64_t n = bk_bsearch_num_games(o->s);
    bk_status st = BK_OK;
    int rc = 0;
    set_busy(o, 1);
    for (int64_t lo = 0; lo < n && rc == 0; lo += PART) {
        int64_t hi = n - lo > PART ? lo + PART : n;
        Py_BEGIN_ALLOW_THREADS
        st = bk_bsearch_descend(o->s, lo, hi);
        Py_END_ALLOW_THREADS
        if (st != BK_OK) {
            PyErr_SetString(PyExc_MemoryError, "not enough memory to grow the search trees");
            rc = -1;
        } else {
            rc = PyErr_CheckSignals();
        }
    }
    set_busy(o, 0);
    return rc;
}

static void Search_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    bk_bsearch_free(so(self)->s);
    Py_XDECREF(so(self)->params);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* A real number in [lo, hi], or in (lo, hi] when lo_open (hi may be
 * INFINITY: finite then).  PyErr_Format has no %g: the limits are written
 * by PyOS_snprintf. */
static int real_arg(PyObject *obj, const char *what, double lo, int lo_open, double hi, double *out)
{
    if (PyBool_Check(obj) || !(PyFloat_Check(obj) || PyIndex_Check(obj))) {
        PyErr_Format(PyExc_TypeError, "%s must be a real number, not %.100s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    double x = PyFloat_AsDouble(obj);
    if (x == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear(); /* an int too large for a float: out of range below */
        x = INFINITY;
    }
    if (!((lo_open ? x > lo : x >= lo) && x <= hi && isfinite(x))) {
        char range[64];
        if (isinf(hi)) PyOS_snprintf(range, sizeof range, "finite and %s %g", lo_open ? ">" : ">=", lo);
        else PyOS_snprintf(range, sizeof range, "in %s%g, %g]", lo_open ? "(" : "[", lo, hi);
        PyErr_Format(PyExc_ValueError, "%s must be %s, not %.40R", what, range, obj);
        return -1;
    }
    *out = x;
    return 0;
}

/* The games as a new tuple, checked: 1 to MAX_GAMES blokus.Game of one
 * variant, none over; NULL with the exception set otherwise. */
static PyObject *checked_games(PyObject *module, PyObject *games_obj)
{
    PyObject *items = bkpy_items(games_obj, MAX_GAMES, "games must be a sequence of blokus.Game");
    if (!items) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(items);
    if (count == 0 || count > MAX_GAMES) {
        PyErr_Format(PyExc_ValueError, "games must hold 1 to %lld games", (long long)MAX_GAMES);
        goto fail;
    }
    int variant = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        const bk_board *b = bkpy_game_board(module, PyTuple_GET_ITEM(items, i), "BatchedSearch");
        if (!b) goto fail;
        if (b->to_move < 0) {
            PyErr_Format(PyExc_ValueError, "game %zd is over: there is no move to search", i);
            goto fail;
        }
        if (i > 0 && b->variant != variant) {
            PyErr_Format(PyExc_ValueError, "game %zd is %s, game 0 %s: a batch holds games of one variant", i,
                         bk_variant_names[b->variant], bk_variant_names[variant]);
            goto fail;
        }
        variant = b->variant;
    }
    return items;
fail:
    Py_DECREF(items);
    return NULL;
}

/* Game i of games that checked_games passed. */
static const bk_board *checked_board(PyObject *module, PyObject *items, Py_ssize_t i)
{
    return bkpy_game_board(module, PyTuple_GET_ITEM(items, i), "BatchedSearch");
}

/* This machine's memory in bytes (0 when unknown). */
static double physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0.0;
}

/* A search of the checked games, their boards copied (under the GIL: no
 * other thread changes a game meanwhile); NULL with MemoryError, before
 * reserving anything, when what it reserves is more than this machine has. */
static bk_bsearch *new_search(PyObject *module, PyObject *items, const bk_bsearch_params *p, uint64_t seed)
{
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    double reserved = (double)bk_bsearch_reserved_bytes(n, p->simulations), memory = physical_memory();
    if (memory > 0.0 && reserved > memory) {
        PyErr_Format(PyExc_MemoryError,
                     "a search of %zd games of %d simulations reserves %llu MB (%llu bytes per game), more than "
                     "this machine's %llu MB: search fewer games or fewer simulations",
                     n, p->simulations, (unsigned long long)(reserved / 1e6), (unsigned long long)(reserved / n),
                     (unsigned long long)(memory / 1e6));
        return NULL;
    }
    bk_bsearch *s = bk_bsearch_new(checked_board(module, items, 0)->variant, n, p, seed);
    if (!s) {
        PyErr_Format(PyExc_MemoryError, "not enough memory for a search of %zd games of %d simulations (%llu MB)",
                     n, p->simulations, (unsigned long long)(reserved / 1e6));
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        bk_bsearch_set_root(s, i, checked_board(module, items, i));
    return s;
}

static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"games", "simulations", "c_puct", "fpu", "dirichlet_alpha", "dirichlet_fraction",
                             "seed", NULL};
    PyObject *games_obj, *sims_obj = NULL, *c_obj = NULL, *fpu_obj = Py_None, *alpha_obj = NULL,
                         *fraction_obj = NULL, *seed_obj = NULL;
    bk_bsearch_params p = {.simulations = 64, .c_puct = 1.25, .fpu = -1.0, .dirichlet_alpha = 0.3,
                           .dirichlet_fraction = 0.25};
    long long sims = p.simulations;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OOOOOO:BatchedSearch", kwlist, &games_obj, &sims_obj, &c_obj,
                                     &fpu_obj, &alpha_obj, &fraction_obj, &seed_obj))
        return NULL;
    if ((sims_obj && bkpy_index_in(sims_obj, "simulations", 1, MAX_SIMULATIONS + 1LL, &sims) < 0) ||
        (c_obj && real_arg(c_obj, "c_puct", 0.0, 0, INFINITY, &p.c_puct) < 0) ||
        (fpu_obj != Py_None && real_arg(fpu_obj, "fpu", 0.0, 0, 1.0, &p.fpu) < 0) ||
        (alpha_obj && real_arg(alpha_obj, "dirichlet_alpha", 0.0, 1, INFINITY, &p.dirichlet_alpha) < 0) ||
        (fraction_obj && real_arg(fraction_obj, "dirichlet_fraction", 0.0, 0, 1.0, &p.dirichlet_fraction) < 0) ||
        (seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0))
        return NULL;
    p.simulations = (int)sims;
    PyObject *module = bkpy_module_of_type(type);
    if (!module) return NULL;
    SearchObject *self = (SearchObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    /* No Python code may run from the games' check to their copy (it could
     * play a move in one of them): so the allocation, which may collect
     * garbage and so run finalizers, comes first. */
    PyObject *items = checked_games(module, games_obj);
    if (items) {
        const bk_board *first = checked_board(module, items, 0);
        int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS];
        self->variant = first->variant;
        self->side = first->side;
        self->planes = bk_num_planes(first);
        self->num_colours = first->num_colours;
        self->num_players = bk_player_weights(first->variant, weights);
        self->num_placements = first->geom->num_placements;
        self->s = new_search(module, items, &p, seed);
        Py_DECREF(items);
    }
    if (!self->s) {
        Py_DECREF(self);
        return NULL;
    }
    self->params = Py_BuildValue("{sisdsNsdsdsK}", "simulations", p.simulations, "c_puct", p.c_puct, "fpu",
                                 p.fpu < 0.0 ? Py_NewRef(Py_None) : PyFloat_FromDouble(p.fpu), "dirichlet_alpha",
                                 p.dirichlet_alpha, "dirichlet_fraction", p.dirichlet_fraction, "seed", seed);
    if (!self->params || descend_all((PyObject *)self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* ---- the loop ----------------------------------------------------------- */

static PyObject *Search_pending(PyObject *self, PyObject *unused)
{
    (void)unused;
    SearchObject *o = so(self);
    if (check_usable(self) < 0 || descend_all(self) < 0) return NULL;
    npy_intp k = bk_bsearch_num_pending(o->s);
    npy_intp one[1] = {k}, obs[4] = {k, o->planes, o->side, o->side}, mask[2] = {k, o->num_placements},
             hand[3] = {k, o->num_colours, BK_NUM_PIECES};
    PyObject *games = PyArray_ZEROS(1, one, NPY_INT64, 0), *observations = PyArray_ZEROS(4, obs, NPY_INT8, 0),
             *remaining = PyArray_ZEROS(3, hand, NPY_INT8, 0), *masks = PyArray_ZEROS(2, mask, NPY_BOOL, 0),
             *colours = PyArray_ZEROS(1, one, NPY_INT8, 0), *players = PyArray_ZEROS(1, one, NPY_INT8, 0);
    PyObject *result = NULL;
    if (games && observations && remaining && masks && colours && players) {
        set_busy(o, 1);
        Py_BEGIN_ALLOW_THREADS
        bk_bsearch_requests(o->s, PyArray_DATA((PyArrayObject *)games), PyArray_DATA((PyArrayObject *)observations),
                            PyArray_DATA((PyArrayObject *)remaining), PyArray_DATA((PyArrayObject *)masks),
                            PyArray_DATA((PyArrayObject *)colours), PyArray_DATA((PyArrayObject *)players));
        Py_END_ALLOW_THREADS
        set_busy(o, 0);
        result = PyTuple_Pack(6, games, observations, remaining, masks, colours, players);
        if (result) o->requested = k > 0 ? ++o->tickets : 0;
    }
    Py_XDECREF(games);
    Py_XDECREF(observations);
    Py_XDECREF(remaining);
    Py_XDECREF(masks);
    Py_XDECREF(colours);
    Py_XDECREF(players);
    return result;
}

/* `obj` as a new C-contiguous float32 array of shape (rows, cols) or, when
 * *flat is set on entry, (rows,) (*flat then says which it was), its
 * numbers finite and in [lo, hi]; NULL with TypeError/ValueError naming
 * `what` (and the game of a bad row) otherwise. */
static PyArrayObject *checked_rows(PyObject *obj, const char *what, npy_intp rows, npy_intp cols, int *flat,
                                   double lo, double hi, const int64_t *games)
{
    PyArrayObject *given = (PyArrayObject *)PyArray_FROM_O(obj), *arr;
    if (!given) return NULL;
    if (PyArray_ISBOOL(given) || !(PyArray_ISINTEGER(given) || PyArray_ISFLOAT(given))) {
        PyErr_Format(PyExc_TypeError, "%s must be real numbers, not dtype %R", what, (PyObject *)PyArray_DESCR(given));
        Py_DECREF(given);
        return NULL;
    }
    int nd = PyArray_NDIM(given), flat_ok = *flat;
    *flat = flat_ok && nd == 1;
    if (*flat ? PyArray_DIM(given, 0) != rows
              : nd != 2 || PyArray_DIM(given, 0) != rows || PyArray_DIM(given, 1) != cols) {
        if (flat_ok)
            PyErr_Format(PyExc_ValueError, "%s must have shape (%zd, %zd), one row per pending leaf, or (%zd,) "
                         "for the player to move", what, (Py_ssize_t)rows, (Py_ssize_t)cols, (Py_ssize_t)rows);
        else
            PyErr_Format(PyExc_ValueError, "%s must have shape (%zd, %zd), one row per pending leaf", what,
                         (Py_ssize_t)rows, (Py_ssize_t)cols);
        Py_DECREF(given);
        return NULL;
    }
    if (*flat) cols = 1;
    arr = (PyArrayObject *)PyArray_FROMANY((PyObject *)given, NPY_FLOAT32, nd, nd,
                                           NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
    Py_DECREF(given);
    if (!arr) return NULL;
    const float *x = PyArray_DATA(arr);
    float low = (float)lo, high = isinf(hi) ? FLT_MAX : (float)hi; /* NaN and infinities fail */
    int ok = 1;
    for (npy_intp i = 0; i < rows * cols; i++) ok &= (x[i] >= low) & (x[i] <= high); /* no branch: vectorised */
    for (npy_intp i = 0; !ok && i < rows * cols; i++)
        if (!(x[i] >= low && x[i] <= high)) {
            npy_intp r = i / cols;
            char number[32];
            PyOS_snprintf(number, sizeof number, "%g", (double)x[i]);
            PyErr_Format(PyExc_ValueError, "%s row %zd (game %lld) holds %s at column %zd: %s must be %s", what,
                         (Py_ssize_t)r, (long long)games[r], number, (Py_ssize_t)(i % cols), what,
                         isinf(hi) ? "finite and >= 0" : "in [0, 1]");
            Py_DECREF(arr);
            return NULL;
        }
    return arr;
}

static PyObject *Search_evaluate(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"priors", "values", NULL};
    SearchObject *o = so(self);
    PyObject *priors_obj, *values_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:evaluate", kwlist, &priors_obj, &values_obj)) return NULL;
    if (check_usable(self) < 0) return NULL;
    if (!o->requested) {
        PyErr_SetString(PyExc_RuntimeError, bk_bsearch_num_pending(o->s) || bk_bsearch_num_waiting(o->s)
                                                 ? "no leaves handed out: call pending() first and evaluate "
                                                   "the leaves it returns"
                                                 : "nothing is pending: the search is done");
        return NULL;
    }
    uint64_t ticket = o->requested;
    npy_intp k = bk_bsearch_num_pending(o->s);
    int64_t *games = PyMem_Malloc((size_t)k * sizeof *games);
    if (!games) return PyErr_NoMemory();
    bk_bsearch_requests(o->s, games, NULL, NULL, NULL, NULL, NULL);
    int flat_priors = 0, for_mover = o->num_players == 2; /* (K,) values: the player to move's */
    PyArrayObject *priors =
        checked_rows(priors_obj, "priors", k, o->num_placements, &flat_priors, 0.0, INFINITY, games);
    PyArrayObject *values =
        priors ? checked_rows(values_obj, "values", k, o->num_players, &for_mover, 0.0, 1.0, games) : NULL;
    PyMem_Free(games);
    /* reading the arrays may have run Python code, which may have used this search */
    if (!values || check_usable(self) < 0 || o->requested != ticket) {
        if (values && !PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "the search changed while its evaluation was read");
        Py_XDECREF(priors);
        Py_XDECREF(values);
        return NULL;
    }
    set_busy(o, 1);
    Py_BEGIN_ALLOW_THREADS
    bk_bsearch_evaluate(o->s, PyArray_DATA(priors), PyArray_DATA(values), for_mover);
    Py_END_ALLOW_THREADS
    set_busy(o, 0);
    o->requested = 0;
    Py_DECREF(priors);
    Py_DECREF(values);
    if (descend_all(self) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- results ------------------------------------------------------------ */

static PyObject *Search_visit_counts(PyObject *self, PyObject *unused)
{
    (void)unused;
    SearchObject *o = so(self);
    if (check_usable(self) < 0) return NULL;
    npy_intp n = bk_bsearch_num_games(o->s), dims[2] = {n, o->num_placements};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_INT32);
    if (!arr) return NULL;
    int32_t *out = PyArray_DATA((PyArrayObject *)arr);
    for (npy_intp g = 0; g < n; g++) bk_bsearch_visit_counts(o->s, g, out + g * o->num_placements);
    return arr;
}

static PyObject *Search_root_values(PyObject *self, PyObject *unused)
{
    (void)unused;
    SearchObject *o = so(self);
    if (check_usable(self) < 0) return NULL;
    npy_intp n = bk_bsearch_num_games(o->s), dims[2] = {n, o->num_players};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_FLOAT32);
    if (!arr) return NULL;
    float *out = PyArray_DATA((PyArrayObject *)arr);
    for (npy_intp g = 0; g < n; g++) bk_bsearch_root_values(o->s, g, out + g * o->num_players);
    return arr;
}

static PyObject *Search_best_moves(PyObject *self, PyObject *unused)
{
    (void)unused;
    SearchObject *o = so(self);
    if (check_usable(self) < 0) return NULL;
    npy_intp n = bk_bsearch_num_games(o->s);
    PyObject *arr = PyArray_SimpleNew(1, &n, NPY_INT32);
    if (!arr) return NULL;
    int32_t *out = PyArray_DATA((PyArrayObject *)arr);
    for (npy_intp g = 0; g < n; g++) out[g] = bk_bsearch_best_move(o->s, g);
    return arr;
}

/* The children as (ids, priors, visits, values) arrays. */
static PyObject *children_arrays(const bk_bsearch_child *children, npy_intp n)
{
    PyObject *ids = PyArray_SimpleNew(1, &n, NPY_INT32), *priors = PyArray_SimpleNew(1, &n, NPY_FLOAT32),
             *visits = PyArray_SimpleNew(1, &n, NPY_INT32), *values = PyArray_SimpleNew(1, &n, NPY_FLOAT32);
    PyObject *result = NULL;
    if (ids && priors && visits && values) {
        for (npy_intp i = 0; i < n; i++) {
            ((int32_t *)PyArray_DATA((PyArrayObject *)ids))[i] = children[i].id;
            ((float *)PyArray_DATA((PyArrayObject *)priors))[i] = children[i].prior;
            ((int32_t *)PyArray_DATA((PyArrayObject *)visits))[i] = children[i].visits;
            ((float *)PyArray_DATA((PyArrayObject *)values))[i] = children[i].value;
        }
        result = PyTuple_Pack(4, ids, priors, visits, values);
    }
    Py_XDECREF(ids);
    Py_XDECREF(priors);
    Py_XDECREF(visits);
    Py_XDECREF(values);
    return result;
}

/* The moves of a path as placement ids in path[]; their number, or -1 with
 * the exception set. */
static int path_arg(const SearchObject *o, PyObject *moves_obj, int *path)
{
    if (!moves_obj) return 0;
    PyObject *items = bkpy_items(moves_obj, BK_MAX_HISTORY, "moves must be a sequence of placement ids");
    if (!items) return -1;
    Py_ssize_t depth = PyTuple_GET_SIZE(items);
    int rc = (int)depth;
    if (depth > BK_MAX_HISTORY) {
        PyErr_Format(PyExc_ValueError, "moves: a game has at most %d moves", BK_MAX_HISTORY);
        rc = -1;
    }
    for (Py_ssize_t i = 0; i < depth && rc >= 0; i++) {
        long long id;
        if (bkpy_index_in(PyTuple_GET_ITEM(items, i), "placement id", 0, o->num_placements, &id) < 0) rc = -1;
        else path[i] = (int)id;
    }
    Py_DECREF(items);
    return rc;
}

static PyObject *Search_children(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"game", "moves", NULL};
    SearchObject *o = so(self);
    PyObject *game_obj, *moves_obj = NULL;
    long long g;
    int path[BK_MAX_HISTORY];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:children", kwlist, &game_obj, &moves_obj)) return NULL;
    if (bkpy_index_in(game_obj, "game", 0, bk_bsearch_num_games(o->s), &g) < 0) return NULL;
    int depth = path_arg(o, moves_obj, path);
    if (depth < 0 || check_usable(self) < 0) return NULL;
    int count = bk_bsearch_children(o->s, g, path, depth, NULL);
    if (count < 0) {
        PyErr_SetString(PyExc_KeyError, "moves: the path leaves the search tree (a move never visited there)");
        return NULL;
    }
    bk_bsearch_child *children = PyMem_Malloc(((size_t)count + 1) * sizeof *children);
    if (!children) return PyErr_NoMemory();
    bk_bsearch_children(o->s, g, path, depth, children);
    PyObject *result = children_arrays(children, count);
    PyMem_Free(children);
    return result;
}

static PyObject *get_done(PyObject *self, void *closure)
{
    (void)closure;
    bk_bsearch *s = so(self)->s;
    if (check_usable(self) < 0) return NULL;
    return PyBool_FromLong(!bk_bsearch_num_pending(s) && !bk_bsearch_num_waiting(s));
}

#define INT_GETTER(name, expr)                                    \
    static PyObject *get_##name(PyObject *self, void *closure)    \
    {                                                             \
        (void)closure;                                            \
        return PyLong_FromLongLong((long long)(expr));            \
    }

INT_GETTER(num_games, bk_bsearch_num_games(so(self)->s))
INT_GETTER(num_players, so(self)->num_players)
INT_GETTER(num_placements, so(self)->num_placements)

static PyObject *get_variant(PyObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(bk_variant_names[so(self)->variant]);
}

static PyObject *get_params(PyObject *self, void *closure)
{
    (void)closure;
    return PyDictProxy_New(so(self)->params);
}

static PyMethodDef Search_methods[] = {
    {"_pending", Search_pending, METH_NOARGS,
     "_pending()\n--\n\n(games, observations, remaining, masks, colours, players) of the leaves to evaluate."},
    {"evaluate", (PyCFunction)(void (*)(void))Search_evaluate, METH_VARARGS | METH_KEYWORDS,
     "evaluate(priors, values)\n--\n\nExpands and backs up the leaves of the last pending()."},
    {"visit_counts", Search_visit_counts, METH_NOARGS,
     "visit_counts()\n--\n\nint32 (B, A): the root's visits per placement id."},
    {"root_values", Search_root_values, METH_NOARGS,
     "root_values()\n--\n\nfloat32 (B, players): the root's mean value per player (NaN before its evaluation)."},
    {"best_moves", Search_best_moves, METH_NOARGS,
     "best_moves()\n--\n\nint32 (B,): the most visited root move (-1 while none has a visit)."},
    {"children", (PyCFunction)(void (*)(void))Search_children, METH_VARARGS | METH_KEYWORDS,
     "children(game, moves=())\n--\n\n(ids, priors, visits, values) of a node's children."},
    {NULL, NULL, 0, NULL}};

#define GETTER(name, doc) {#name, get_##name, NULL, doc, NULL}

static PyGetSetDef Search_getset[] = {
    GETTER(done, "Whether every game has run all its simulations."),
    GETTER(num_games, "Number of games B."),
    GETTER(num_players, "Number of players of the variant (the values' columns)."),
    GETTER(num_placements, "Number of placement ids A of the variant."),
    GETTER(variant, "Variant name."),
    GETTER(params, "The search's parameters (read-only mapping)."),
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot Search_slots[] = {
    {Py_tp_doc, "BatchedSearch(games, *, simulations=64, c_puct=1.25, fpu=None, dirichlet_alpha=0.3,\n"
                "              dirichlet_fraction=0.25, seed=0)\n--\n\n"
                "Batched PUCT search over copies of the games; see blokus.search."},
    {Py_tp_new, Search_new},
    {Py_tp_dealloc, Search_dealloc},
    {Py_tp_methods, Search_methods},
    {Py_tp_getset, Search_getset},
    {0, NULL}};

static PyType_Spec Search_spec = {
    .name = "blokus._core.BatchedSearch",
    .basicsize = sizeof(SearchObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = Search_slots,
};

int bkpy_add_search_type(PyObject *module)
{
    PyObject *type = PyType_FromModuleAndSpec(module, &Search_spec, NULL);
    if (!type) return -1;
    int rc = PyModule_AddObjectRef(module, "BatchedSearch", type);
    Py_DECREF(type);
    return rc;
}

/* blokus._core.VectorGame: the batch engine (vector.c) as a Python type whose
 * per-game arrays are read-only NumPy views of C memory, updated in place by
 * every step; the steps run with the GIL released. */
#include "python/binding.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "engine/vector.h"

/* Games per release of the GIL: between two parts, Ctrl-C is checked. */
#define PART 4096

typedef struct {
    PyObject_HEAD
    int busy;      /* a call is running with the GIL released (set and read under the GIL) */
    pid_t busy_in; /* by the process that set busy: in a child forked meanwhile, it never ends */
    /* why the games are not all at the same step, until a full reset: 0 they
     * are; else an interrupted call, or a fork in the middle of one */
    enum { WHOLE, INTERRUPTED, FORKED } torn;
    bk_vector v;
} VectorGameObject;

static VectorGameObject *vg(PyObject *self)
{
    return (VectorGameObject *)self;
}

static bk_vector *vec_of(PyObject *self)
{
    return &vg(self)->v;
}

/* RuntimeError while another thread's call runs on the batch (its arrays are
 * being written), or, unless `torn_ok`, while the batch is torn. */
static int check_usable(PyObject *self, int torn_ok)
{
    VectorGameObject *o = vg(self);
    if (o->busy && o->busy_in != getpid()) { /* forked in the middle of a call: its threads stayed behind */
        o->busy = 0;
        o->torn = FORKED;
    }
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this VectorGame is being stepped by another thread");
        return -1;
    }
    if (o->torn && !torn_ok) {
        PyErr_SetString(PyExc_RuntimeError,
                        o->torn == INTERRUPTED
                            ? "a step of this VectorGame was interrupted part-way, so its games are not all at "
                              "the same step: reset() it first"
                            : "this process was forked while a step of this VectorGame ran, so its games are in "
                              "an unknown state: reset() it first");
        return -1;
    }
    return 0;
}

/* Runs `call` over every game, PART games per release of the GIL, checking
 * Ctrl-C between parts; -1 with the exception set when it stops early, the
 * batch then torn (each game is whole, but they are not all at one step). */
static int run_call(PyObject *self, const bk_vector_call *call)
{
    VectorGameObject *o = vg(self);
    if (check_usable(self, call->kind == BK_VECTOR_RESET) < 0) return -1;
    o->busy = 1;
    o->busy_in = getpid();
    int64_t lo = 0, n = o->v.n;
    int rc = 0;
    while (lo < n && rc == 0) {
        int64_t hi = n - lo > PART ? lo + PART : n;
        Py_BEGIN_ALLOW_THREADS
        bk_vector_run(&o->v, call, lo, hi);
        Py_END_ALLOW_THREADS
        lo = hi;
        rc = PyErr_CheckSignals();
    }
    o->busy = 0;
    if (lo < n) o->torn = INTERRUPTED;
    else if (call->kind == BK_VECTOR_RESET) o->torn = WHOLE;
    return rc;
}

static void VectorGame_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    bk_vector_free(vec_of(self));
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* The most games one batch may hold: every array's size in bytes fits a
 * size_t and an npy_intp with room to spare. */
#define MAX_GAMES ((int64_t)1 << 32)

static PyObject *VectorGame_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_envs", "variant", "start", "num_threads", "seed", NULL};
    PyObject *n_obj, *variant_obj = NULL, *start_obj = NULL, *threads_obj = NULL, *seed_obj = NULL;
    long long n, threads = 1;
    int variant = BK_DUO, start = BK_START_FIXED;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O$OOO:VectorGame", kwlist, &n_obj, &variant_obj, &start_obj,
                                     &threads_obj, &seed_obj))
        return NULL;
    if (bkpy_index_in(n_obj, "num_envs", 1, MAX_GAMES + 1, &n) < 0 ||
        (threads_obj && bkpy_index_in(threads_obj, "num_threads", 1, INT_MAX, &threads) < 0) ||
        (seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0))
        return NULL;
    if (variant_obj &&
        (variant = bkpy_lookup_name(variant_obj, bk_variant_names, BK_NUM_VARIANTS, "variant")) < 0)
        return NULL;
    if (start_obj && (start = bkpy_lookup_name(start_obj, bk_start_rule_names, 2, "start rule")) < 0) return NULL;
    VectorGameObject *self = (VectorGameObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    bk_status st;
    Py_BEGIN_ALLOW_THREADS
    st = bk_vector_init(&self->v, n, variant, start, (int)threads);
    Py_END_ALLOW_THREADS
    if (st != BK_OK) { /* the arguments were checked above: only memory can be missing */
        Py_DECREF(self);
        return PyErr_Format(PyExc_MemoryError, "not enough memory for %lld games of %s", n,
                            bk_variant_names[variant]);
    }
    bk_vector_call reset = {.kind = BK_VECTOR_RESET, .seed = seed};
    if (run_call((PyObject *)self, &reset) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* ---- views -------------------------------------------------------------- */

/* A view of an (n, ...) C-contiguous array of the batch. */
static PyObject *batch_view(PyObject *self, int nd, npy_intp d1, npy_intp d2, npy_intp d3, int typenum, void *data)
{
    npy_intp dims[4] = {vec_of(self)->n, d1, d2, d3};
    return bkpy_view(self, nd, dims, NULL, typenum, data);
}

static PyObject *get_board(PyObject *self, void *closure)
{
    (void)closure;
    bk_vector *v = vec_of(self);
    npy_intp dims[3] = {v->n, v->side, v->side}, strides[3] = {sizeof(bk_board), v->side, 1};
    return bkpy_view(self, 3, dims, strides, NPY_INT8, v->boards[0].grid);
}

static PyObject *get_to_move(PyObject *self, void *closure)
{
    (void)closure;
    bk_vector *v = vec_of(self);
    npy_intp dims[1] = {v->n}, strides[1] = {sizeof(bk_board)};
    return bkpy_view(self, 1, dims, strides, NPY_INT8, &v->boards[0].to_move);
}

#define VIEW_GETTER(name, nd, d1, d2, d3, typenum)                        \
    static PyObject *get_##name(PyObject *self, void *closure)            \
    {                                                                     \
        (void)closure;                                                    \
        bk_vector *v = vec_of(self);                                      \
        return batch_view(self, nd, d1, d2, d3, typenum, v->name);        \
    }

VIEW_GETTER(legal_mask, 2, v->num_placements, 0, 0, NPY_BOOL)
VIEW_GETTER(num_legal, 1, 0, 0, 0, NPY_INT32)
VIEW_GETTER(observation, 4, v->num_planes, v->side, v->side, NPY_INT8)
VIEW_GETTER(remaining, 3, v->num_colours, BK_NUM_PIECES, 0, NPY_INT8)
VIEW_GETTER(scores, 2, v->num_colours, 0, 0, NPY_INT16)
VIEW_GETTER(done, 1, 0, 0, 0, NPY_BOOL)
VIEW_GETTER(ply, 1, 0, 0, 0, NPY_INT32)
VIEW_GETTER(episode_length, 1, 0, 0, 0, NPY_INT32)
VIEW_GETTER(episode_scores, 2, v->num_colours, 0, 0, NPY_INT16)
VIEW_GETTER(episode_winners, 2, v->num_players, 0, 0, NPY_BOOL)
VIEW_GETTER(episodes, 1, 0, 0, 0, NPY_INT64)

static PyObject *get_num_envs(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromSsize_t((Py_ssize_t)vec_of(self)->n);
}

static PyObject *get_num_threads(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(vec_of(self)->num_threads);
}

static PyObject *get_variant(PyObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(bk_variant_names[vec_of(self)->variant]);
}

static PyObject *get_start(PyObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(bk_start_rule_names[vec_of(self)->start]);
}

/* ---- input -------------------------------------------------------------- */

/* TypeError for a numpy.ma.MaskedArray: converting it would drop its mask
 * and play the hidden values. */
static int refuse_masked(PyObject *obj)
{
    if (!PyArray_Check(obj) || PyArray_CheckExact(obj)) return 0;
    PyObject *ma = PyImport_ImportModule("numpy.ma");
    PyObject *masked = ma ? PyObject_GetAttrString(ma, "MaskedArray") : NULL;
    int is_masked = masked ? PyObject_IsInstance(obj, masked) : -1;
    Py_XDECREF(masked);
    Py_XDECREF(ma);
    if (is_masked == 1)
        PyErr_SetString(PyExc_TypeError, "actions must not be a masked array (its mask would be ignored): "
                                         "pass actions.filled(...) or a plain array");
    return is_masked ? -1 : 0;
}

/* The actions as a fresh int32 array of shape (n,), every one a legal
 * placement for its game's colour to move (and player `seat` to move, when
 * seat >= 0), except in the games where skip (NULL or n flags) is set; NULL
 * with TypeError/ValueError naming the game otherwise. */
static PyArrayObject *checked_actions(PyObject *self, PyObject *obj, int seat, const uint8_t *skip)
{
    bk_vector *v = vec_of(self);
    if (refuse_masked(obj) < 0) return NULL;
    PyArrayObject *given = (PyArrayObject *)PyArray_FROM_O(obj), *actions;
    if (!given) return NULL;
    if (check_usable(self, 0) < 0) { /* reading obj may have run Python code; the batch is read from here on */
        Py_DECREF(given);
        return NULL;
    }
    if (!PyArray_ISINTEGER(given)) {
        PyErr_Format(PyExc_TypeError, "actions must be integers (placement ids), not dtype %R",
                     (PyObject *)PyArray_DESCR(given));
        Py_DECREF(given);
        return NULL;
    }
    if (PyArray_NDIM(given) != 1 || PyArray_DIM(given, 0) != v->n) {
        PyErr_Format(PyExc_ValueError, "actions must have shape (%zd,), one per game", (Py_ssize_t)v->n);
        Py_DECREF(given);
        return NULL;
    }
    /* uint64 ids past INT64_MAX turn negative here and fail the range check below */
    actions = (PyArrayObject *)PyArray_FROMANY((PyObject *)given, NPY_INT64, 1, 1, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
    Py_DECREF(given);
    if (!actions) return NULL;
    PyArrayObject *ids = (PyArrayObject *)PyArray_SimpleNew(1, PyArray_DIMS(actions), NPY_INT32);
    if (!ids) goto fail;
    const int64_t *in = PyArray_DATA(actions);
    int32_t *out = PyArray_DATA(ids);
    for (int64_t i = 0; i < v->n; i++) {
        int ignored = v->done[i] || (skip && skip[i]);
        if (!ignored && (in[i] < 0 || in[i] >= v->num_placements)) {
            PyErr_Format(PyExc_ValueError, "game %zd: placement id %lld out of range(%d)", (Py_ssize_t)i,
                         (long long)in[i], v->num_placements);
            goto fail;
        }
        out[i] = ignored ? 0 : (int32_t)in[i];
    }
    int64_t bad = bk_vector_first_bad_action(v, out, skip, seat);
    if (bad >= 0) {
        const bk_board *b = &v->boards[bad];
        if (seat >= 0 && bk_player_of_colour(b, b->to_move) != seat)
            PyErr_Format(PyExc_ValueError,
                         "game %zd: the learner (player %d) is not to move (after a reset, play_opponents("
                         "opponent, seat=%d) brings every game to the learner's turn)",
                         (Py_ssize_t)bad, seat, seat);
        else
            PyErr_Format(PyExc_ValueError, "game %zd: placement id %d is not legal for colour %d", (Py_ssize_t)bad,
                         out[bad], b->to_move);
        goto fail;
    }
    Py_DECREF(actions);
    return ids;
fail:
    Py_DECREF(actions);
    Py_XDECREF(ids);
    return NULL;
}

static int policy_arg(PyObject *obj, bk_policy *policy)
{
    int p = obj ? bkpy_lookup_name(obj, bk_policy_names, BK_NUM_POLICIES, "policy") : BK_POLICY_GREEDY;
    if (p < 0) return -1;
    *policy = (bk_policy)p;
    return 0;
}

static int seat_arg(PyObject *self, PyObject *obj, int *seat)
{
    long long s = 0;
    if (obj && bkpy_index_in(obj, "seat", 0, vec_of(self)->num_players, &s) < 0) return -1;
    *seat = (int)s;
    return 0;
}

/* ---- steps -------------------------------------------------------------- */

/* The forfeit flags as a fresh bool array of shape (n,), or NULL with
 * TypeError/ValueError. */
static PyArrayObject *checked_flags(PyObject *self, PyObject *obj, const char *name)
{
    bk_vector *v = vec_of(self);
    if (refuse_masked(obj) < 0) return NULL;
    PyArrayObject *given = (PyArrayObject *)PyArray_FROM_O(obj), *flags;
    if (!given) return NULL;
    if (PyArray_TYPE(given) != NPY_BOOL) {
        PyErr_Format(PyExc_TypeError, "%s must be booleans, not dtype %R", name, (PyObject *)PyArray_DESCR(given));
        Py_DECREF(given);
        return NULL;
    }
    if (PyArray_NDIM(given) != 1 || PyArray_DIM(given, 0) != v->n) {
        PyErr_Format(PyExc_ValueError, "%s must have shape (%zd,), one per game", name, (Py_ssize_t)v->n);
        Py_DECREF(given);
        return NULL;
    }
    flags = (PyArrayObject *)PyArray_FROMANY((PyObject *)given, NPY_BOOL, 1, 1, NPY_ARRAY_CARRAY | NPY_ARRAY_ENSURECOPY);
    Py_DECREF(given);
    return flags;
}

/* Runs a step that takes actions: they are checked against the batch as it
 * is once they are read (reading them may run Python code), then played. */
static PyObject *run_with_actions(PyObject *self, PyObject *actions_obj, bk_vector_call *call, int seat)
{
    PyArrayObject *ids = checked_actions(self, actions_obj, seat, call->forfeit);
    if (!ids) return NULL;
    call->actions = PyArray_DATA(ids);
    int rc = run_call(self, call);
    Py_DECREF(ids);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *run_or_fail(PyObject *self, const bk_vector_call *call)
{
    if (run_call(self, call) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *VectorGame_step(PyObject *self, PyObject *actions_obj)
{
    bk_vector_call call = {.kind = BK_VECTOR_STEP};
    return run_with_actions(self, actions_obj, &call, -1);
}

static PyObject *VectorGame_step_policy(PyObject *self, PyObject *policy_obj)
{
    bk_vector_call call = {.kind = BK_VECTOR_STEP_POLICY};
    if (policy_arg(policy_obj, &call.policy) < 0) return NULL;
    return run_or_fail(self, &call);
}

static PyObject *VectorGame_step_with_opponents(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"actions", "opponent", "seat", "forfeit", NULL};
    PyObject *actions_obj, *opponent_obj = NULL, *seat_obj = NULL, *forfeit_obj = Py_None;
    PyArrayObject *forfeit = NULL;
    bk_vector_call call = {.kind = BK_VECTOR_STEP_WITH_OPPONENTS};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOO:step_with_opponents", kwlist, &actions_obj, &opponent_obj,
                                     &seat_obj, &forfeit_obj))
        return NULL;
    if (policy_arg(opponent_obj, &call.policy) < 0 || seat_arg(self, seat_obj, &call.seat) < 0) return NULL;
    if (forfeit_obj != Py_None && !(forfeit = checked_flags(self, forfeit_obj, "forfeit"))) return NULL;
    call.forfeit = forfeit ? (const uint8_t *)PyArray_DATA(forfeit) : NULL;
    PyObject *result = run_with_actions(self, actions_obj, &call, call.seat);
    Py_XDECREF(forfeit);
    return result;
}

static PyObject *VectorGame_restart_done(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"opponent", "seat", NULL};
    PyObject *opponent_obj = NULL, *seat_obj = NULL;
    bk_vector_call call = {.kind = BK_VECTOR_RESTART_DONE};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:restart_done", kwlist, &opponent_obj, &seat_obj)) return NULL;
    if (policy_arg(opponent_obj, &call.policy) < 0 || seat_arg(self, seat_obj, &call.seat) < 0) return NULL;
    return run_or_fail(self, &call);
}

static PyObject *VectorGame_play_opponents(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"opponent", "seat", NULL};
    PyObject *opponent_obj = NULL, *seat_obj = NULL;
    bk_vector_call call = {.kind = BK_VECTOR_PLAY_OPPONENTS};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:play_opponents", kwlist, &opponent_obj, &seat_obj)) return NULL;
    if (policy_arg(opponent_obj, &call.policy) < 0 || seat_arg(self, seat_obj, &call.seat) < 0) return NULL;
    return run_or_fail(self, &call);
}

static PyObject *VectorGame_reset(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"seed", NULL};
    PyObject *seed_obj = NULL;
    bk_vector_call call = {.kind = BK_VECTOR_RESET};
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:reset", kwlist, &seed_obj)) return NULL;
    if (seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0) return NULL;
    call.seed = seed;
    return run_or_fail(self, &call);
}

/* ---- other forms of the legal moves ------------------------------------- */

/* Game i's legal ids, ascending (through a bitset of every placement). */
static int sorted_ids(const bk_vector *v, int64_t i, int32_t *out)
{
    uint64_t bits[(BK_MAX_PLACEMENTS + 63) / 64] = {0};
    const uint8_t *mask = v->legal_mask + i * v->num_placements;
    int words = (v->num_placements + 63) / 64, k = 0;
    const uint16_t *list = v->lists + i * BK_VECTOR_LIST_CAP;
    if (v->num_legal[i] <= BK_VECTOR_LIST_CAP)
        for (int j = 0; j < v->num_legal[i]; j++) bits[list[j] >> 6] |= 1ull << (list[j] & 63);
    else
        for (int id = 0; id < v->num_placements; id++) bits[id >> 6] |= (uint64_t)mask[id] << (id & 63);
    for (int w = 0; w < words; w++)
        for (uint64_t x = bits[w]; x; x &= x - 1) out[k++] = w * 64 + bk_ctz64(x);
    return k;
}

/* Ctrl-C between parts of a long loop over the games, which holds the GIL:
 * -1 with KeyboardInterrupt set. */
static int check_signals_at(int64_t i)
{
    return (i + 1) % PART == 0 ? PyErr_CheckSignals() : 0;
}

static PyObject *VectorGame_legal_ids(PyObject *self, PyObject *unused)
{
    (void)unused;
    bk_vector *v = vec_of(self);
    if (check_usable(self, 1) < 0) return NULL; /* a torn batch's games are each whole */
    int width = 0;
    for (int64_t i = 0; i < v->n; i++)
        if (v->num_legal[i] > width) width = v->num_legal[i];
    npy_intp dims[2] = {v->n, width};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_INT32);
    if (!arr) return NULL;
    int32_t *out = PyArray_DATA((PyArrayObject *)arr);
    for (int64_t i = 0; i < v->n; i++) {
        int k = sorted_ids(v, i, out + i * width);
        for (; k < width; k++) out[i * width + k] = -1;
        if (check_signals_at(i) < 0) {
            Py_DECREF(arr);
            return NULL;
        }
    }
    return arr;
}

static PyObject *VectorGame_legal_bits(PyObject *self, PyObject *unused)
{
    (void)unused;
    bk_vector *v = vec_of(self);
    if (check_usable(self, 1) < 0) return NULL;
    npy_intp row = (v->num_placements + 7) / 8, dims[2] = {v->n, row};
    PyObject *arr = PyArray_ZEROS(2, dims, NPY_UINT8, 0);
    if (!arr) return NULL;
    uint8_t *out = PyArray_DATA((PyArrayObject *)arr);
    for (int64_t i = 0; i < v->n; i++) {
        const uint8_t *mask = v->legal_mask + i * v->num_placements;
        for (int id = 0; id < v->num_placements; id++) /* numpy.packbits order: first id in the high bit */
            out[i * row + (id >> 3)] |= (uint8_t)(mask[id] << (7 - (id & 7)));
        if (check_signals_at(i) < 0) {
            Py_DECREF(arr);
            return NULL;
        }
    }
    return arr;
}

static PyMethodDef VectorGame_methods[] = {
    {"step", VectorGame_step, METH_O,
     "step(actions)\n--\n\n"
     "Plays one placement in every live game; a finished game (done) is reset\n"
     "instead and its action ignored (next-step autoreset).\n\n"
     "Parameters\n----------\nactions : array of int, shape (num_envs,)\n"
     "    A placement id per game, for its colour to move.\n\n"
     "Raises\n------\nTypeError\n    Not integers.\nValueError\n"
     "    Wrong shape, or an illegal id (the message names the game); nothing\n    is played then.\n"},
    {"step_policy", VectorGame_step_policy, METH_O,
     "step_policy(policy)\n--\n\n"
     "Plays a built-in policy's move in every live game, in C: \"random\" (uniform\n"
     "over the legal placements) or \"greedy\" (largest piece, then most attachment\n"
     "points for itself, then fewest for the others, ties at random).\n"},
    {"step_with_opponents", (PyCFunction)(void (*)(void))VectorGame_step_with_opponents,
     METH_VARARGS | METH_KEYWORDS,
     "step_with_opponents(actions, opponent=\"greedy\", seat=0, forfeit=None)\n--\n\n"
     "Plays the learner's (player seat's) action in every live game, then the\n"
     "opponent policy until the learner is to move again or the game ends;\n"
     "finished games are reset and played up to the learner's turn. New or\n"
     "reset() games start with colour 0 to move: for seat != 0 call\n"
     "play_opponents first. forfeit (bool, shape (num_envs,)): the live games\n"
     "where it is True end where they stand instead of moving (done is set,\n"
     "their episode_* record the position as it is) and their actions are not\n"
     "checked.\n\n"
     "Raises\n------\nTypeError\n    Actions not integers, forfeit not booleans.\n"
     "ValueError\n    A wrong shape, an illegal action, or a live game where the learner is\n"
     "    not to move; nothing is played then.\n"},
    {"restart_done", (PyCFunction)(void (*)(void))VectorGame_restart_done, METH_VARARGS | METH_KEYWORDS,
     "restart_done(opponent=\"greedy\", seat=0)\n--\n\n"
     "Resets every finished game (done) and plays the opponent policy in it until\n"
     "player seat is to move; live games are left alone (same-step autoreset).\n"},
    {"play_opponents", (PyCFunction)(void (*)(void))VectorGame_play_opponents, METH_VARARGS | METH_KEYWORDS,
     "play_opponents(opponent=\"greedy\", seat=0)\n--\n\n"
     "Plays the opponent policy in every live game until player seat is to move.\n"},
    {"reset", (PyCFunction)(void (*)(void))VectorGame_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(seed=0)\n--\n\nEvery game back to the empty board; the random streams restart from seed.\n"},
    {"legal_ids", VectorGame_legal_ids, METH_NOARGS,
     "legal_ids()\n--\n\nint32 (num_envs, max num_legal): each game's legal ids ascending, padded with -1.\n"},
    {"legal_bits", VectorGame_legal_bits, METH_NOARGS,
     "legal_bits()\n--\n\nuint8 (num_envs, ceil(A / 8)): legal_mask packed as numpy.packbits does.\n"},
    {NULL, NULL, 0, NULL}};

#define GETTER(name, doc) {#name, get_##name, NULL, doc, NULL}

static PyGetSetDef VectorGame_getset[] = {
    GETTER(board, "int8 (N, H, W) view: -1 empty, else the colour."),
    GETTER(to_move, "int8 (N,) view: the colour to move, -1 in a finished game."),
    GETTER(legal_mask, "bool (N, A) view: the legal placements of the colour to move."),
    GETTER(num_legal, "int32 (N,) view: how many legal placements."),
    GETTER(observation, "int8 (N, C + 1, H, W) view: Game.observation of the colour to move (colour 0 once over)."),
    GETTER(remaining, "int8 (N, C, 21) view: Game.remaining_from of the colour to move (colour 0 once over)."),
    GETTER(scores, "int16 (N, C) view: score per colour (final in a finished game)."),
    GETTER(done, "bool (N,) view: the game ended at the last step; the next step resets it."),
    GETTER(ply, "int32 (N,) view: placements in the current episode."),
    GETTER(episode_length, "int32 (N,) view: placements in the last finished episode."),
    GETTER(episode_scores, "int16 (N, C) view: colour scores of the last finished episode."),
    GETTER(episode_winners, "bool (N, players) view: winners of the last finished episode."),
    GETTER(episodes, "int64 (N,) view: finished episodes so far."),
    GETTER(num_envs, "Number of games."),
    GETTER(num_threads, "Threads a step is split across."),
    GETTER(variant, "Variant name."),
    GETTER(start, "Start rule."),
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot VectorGame_slots[] = {
    {Py_tp_doc, "VectorGame(num_envs, variant=\"duo\", *, start=\"fixed\", num_threads=1, seed=0)\n--\n\n"
                "num_envs independent games stepped together in C."},
    {Py_tp_new, VectorGame_new},
    {Py_tp_dealloc, VectorGame_dealloc},
    {Py_tp_methods, VectorGame_methods},
    {Py_tp_getset, VectorGame_getset},
    {0, NULL}};

static PyType_Spec VectorGame_spec = {
    .name = "blokus._core.VectorGame",
    .basicsize = sizeof(VectorGameObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = VectorGame_slots,
};

int bkpy_add_vector_type(PyObject *module)
{
    PyObject *type = PyType_FromModuleAndSpec(module, &VectorGame_spec, NULL);
    if (!type) return -1;
    int rc = PyModule_AddObjectRef(module, "VectorGame", type);
    Py_DECREF(type);
    return rc;
}

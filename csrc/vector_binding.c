/* blokus._core.VectorGame: the batch engine (vector.c) as a Python type whose
 * per-game arrays are read-only NumPy views of C memory, updated in place by
 * every step; the steps run with the GIL released. */
#include "binding.h"

#include <string.h>

#include "vector.h"

typedef struct {
    PyObject_HEAD
    int busy; /* a step is running with the GIL released (set and read under the GIL) */
    bk_vector v;
} VectorGameObject;

static bk_vector *vec_of(PyObject *self)
{
    return &((VectorGameObject *)self)->v;
}

/* RuntimeError while another thread's step runs on the batch (its arrays are
 * being written). */
static int check_idle(PyObject *self)
{
    if (!((VectorGameObject *)self)->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "this VectorGame is being stepped by another thread");
    return -1;
}

/* Claims the batch for a step that releases the GIL. */
static int claim(PyObject *self)
{
    if (check_idle(self) < 0) return -1;
    ((VectorGameObject *)self)->busy = 1;
    return 0;
}

static void release(PyObject *self)
{
    ((VectorGameObject *)self)->busy = 0;
}

/* Runs a call of the core with the GIL released, the batch claimed. */
#define RUN_RELEASED(self, call)  \
    do {                          \
        if (claim(self) < 0) return NULL; \
        Py_BEGIN_ALLOW_THREADS    \
        call;                     \
        Py_END_ALLOW_THREADS      \
        release(self);            \
    } while (0)

static void VectorGame_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    bk_vector_free(vec_of(self));
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *VectorGame_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_envs", "variant", "start", "num_threads", "seed", NULL};
    PyObject *variant_obj = NULL, *start_obj = NULL, *seed_obj = NULL;
    Py_ssize_t n;
    int variant = BK_DUO, start = BK_START_FIXED, threads = 1;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "n|O$OiO:VectorGame", kwlist, &n, &variant_obj, &start_obj, &threads,
                                     &seed_obj))
        return NULL;
    if (seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0) return NULL;
    if (n < 1) return PyErr_Format(PyExc_ValueError, "num_envs must be at least 1, not %zd", n);
    if (threads < 1) return PyErr_Format(PyExc_ValueError, "num_threads must be at least 1, not %d", threads);
    if (variant_obj &&
        (variant = bkpy_lookup_name(variant_obj, bkpy_variant_names, BK_NUM_VARIANTS, "variant")) < 0)
        return NULL;
    if (start_obj && (start = bkpy_lookup_name(start_obj, bkpy_start_names, 2, "start rule")) < 0) return NULL;
    VectorGameObject *self = (VectorGameObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    bk_status st;
    Py_BEGIN_ALLOW_THREADS
    st = bk_vector_init(&self->v, n, variant, start, threads, seed);
    Py_END_ALLOW_THREADS
    if (st != BK_OK) { /* the arguments were checked above: only memory can be missing */
        Py_DECREF(self);
        return PyErr_NoMemory();
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
    return PyUnicode_FromString(bkpy_variant_names[vec_of(self)->variant]);
}

static PyObject *get_start(PyObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(bkpy_start_names[vec_of(self)->start]);
}

/* ---- input -------------------------------------------------------------- */

/* The actions as a fresh int32 array of shape (n,), every one a legal
 * placement for its game's colour to move (and player `seat` to move, when
 * seat >= 0), except in the games where skip (NULL or n flags) is set; NULL
 * with TypeError/ValueError naming the game otherwise. */
static PyArrayObject *checked_actions(PyObject *self, PyObject *obj, int seat, const uint8_t *skip)
{
    bk_vector *v = vec_of(self);
    PyArrayObject *given = (PyArrayObject *)PyArray_FROM_O(obj), *actions;
    if (!given) return NULL;
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
    int64_t bad = bk_vector_first_bad_action_except(v, out, skip, seat);
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
    int p = obj ? bkpy_lookup_name(obj, bkpy_policy_names, 2, "policy") : BK_POLICY_GREEDY;
    if (p < 0) return -1;
    *policy = (bk_policy)p;
    return 0;
}

static int seat_arg(PyObject *self, PyObject *obj, int *seat)
{
    long s = obj ? PyLong_AsLong(obj) : 0;
    if (s == -1 && PyErr_Occurred()) return -1;
    if (s < 0 || s >= vec_of(self)->num_players) {
        PyErr_Format(PyExc_ValueError, "seat must be in range(%d), not %ld", vec_of(self)->num_players, s);
        return -1;
    }
    *seat = (int)s;
    return 0;
}

/* ---- steps -------------------------------------------------------------- */

static PyObject *VectorGame_step(PyObject *self, PyObject *actions_obj)
{
    if (check_idle(self) < 0) return NULL; /* before reading its arrays */
    PyArrayObject *ids = checked_actions(self, actions_obj, -1, NULL);
    if (!ids) return NULL;
    if (claim(self) < 0) {
        Py_DECREF(ids);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    bk_vector_step(vec_of(self), PyArray_DATA(ids));
    Py_END_ALLOW_THREADS
    release(self);
    Py_DECREF(ids);
    Py_RETURN_NONE;
}

static PyObject *VectorGame_step_policy(PyObject *self, PyObject *policy_obj)
{
    bk_policy policy;
    if (policy_arg(policy_obj, &policy) < 0) return NULL;
    RUN_RELEASED(self, bk_vector_step_policy(vec_of(self), policy));
    Py_RETURN_NONE;
}

/* The forfeit flags as a fresh bool array of shape (n,), or NULL with
 * TypeError/ValueError. */
static PyArrayObject *checked_flags(PyObject *self, PyObject *obj, const char *name)
{
    bk_vector *v = vec_of(self);
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

static PyObject *VectorGame_step_with_opponents(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"actions", "opponent", "seat", "forfeit", NULL};
    PyObject *actions_obj, *opponent_obj = NULL, *seat_obj = NULL, *forfeit_obj = Py_None;
    PyArrayObject *forfeit = NULL, *ids;
    bk_policy opponent;
    int seat;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOO:step_with_opponents", kwlist, &actions_obj, &opponent_obj,
                                     &seat_obj, &forfeit_obj))
        return NULL;
    if (policy_arg(opponent_obj, &opponent) < 0 || seat_arg(self, seat_obj, &seat) < 0) return NULL;
    if (check_idle(self) < 0) return NULL; /* before reading its arrays */
    if (forfeit_obj != Py_None && !(forfeit = checked_flags(self, forfeit_obj, "forfeit"))) return NULL;
    const uint8_t *skip = forfeit ? (const uint8_t *)PyArray_DATA(forfeit) : NULL;
    ids = checked_actions(self, actions_obj, seat, skip);
    if (!ids || claim(self) < 0) {
        Py_XDECREF(ids);
        Py_XDECREF(forfeit);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    bk_vector_step_with_forfeits(vec_of(self), PyArray_DATA(ids), skip, opponent, seat);
    Py_END_ALLOW_THREADS
    release(self);
    Py_DECREF(ids);
    Py_XDECREF(forfeit);
    Py_RETURN_NONE;
}

static PyObject *VectorGame_restart_done(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"opponent", "seat", NULL};
    PyObject *opponent_obj = NULL, *seat_obj = NULL;
    bk_policy opponent;
    int seat;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:restart_done", kwlist, &opponent_obj, &seat_obj)) return NULL;
    if (policy_arg(opponent_obj, &opponent) < 0 || seat_arg(self, seat_obj, &seat) < 0) return NULL;
    RUN_RELEASED(self, bk_vector_restart_done(vec_of(self), opponent, seat));
    Py_RETURN_NONE;
}

static PyObject *VectorGame_play_opponents(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"opponent", "seat", NULL};
    PyObject *opponent_obj = NULL, *seat_obj = NULL;
    bk_policy opponent;
    int seat;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:play_opponents", kwlist, &opponent_obj, &seat_obj)) return NULL;
    if (policy_arg(opponent_obj, &opponent) < 0 || seat_arg(self, seat_obj, &seat) < 0) return NULL;
    RUN_RELEASED(self, bk_vector_play_opponents(vec_of(self), opponent, seat));
    Py_RETURN_NONE;
}

static PyObject *VectorGame_reset(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"seed", NULL};
    PyObject *seed_obj = NULL;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:reset", kwlist, &seed_obj)) return NULL;
    if (seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0) return NULL;
    RUN_RELEASED(self, bk_vector_reset(vec_of(self), seed));
    Py_RETURN_NONE;
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

static PyObject *VectorGame_legal_ids(PyObject *self, PyObject *unused)
{
    (void)unused;
    bk_vector *v = vec_of(self);
    if (check_idle(self) < 0) return NULL;
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
    }
    return arr;
}

static PyObject *VectorGame_legal_bits(PyObject *self, PyObject *unused)
{
    (void)unused;
    bk_vector *v = vec_of(self);
    if (check_idle(self) < 0) return NULL;
    npy_intp row = (v->num_placements + 7) / 8, dims[2] = {v->n, row};
    PyObject *arr = PyArray_ZEROS(2, dims, NPY_UINT8, 0);
    if (!arr) return NULL;
    uint8_t *out = PyArray_DATA((PyArrayObject *)arr);
    for (int64_t i = 0; i < v->n; i++) {
        const uint8_t *mask = v->legal_mask + i * v->num_placements;
        for (int id = 0; id < v->num_placements; id++) /* numpy.packbits order: first id in the high bit */
            out[i * row + (id >> 3)] |= (uint8_t)(mask[id] << (7 - (id & 7)));
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

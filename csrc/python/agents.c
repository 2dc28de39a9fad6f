/* blokus._core.policy_move and blokus._core.mcts: moves chosen in C for the
 * agents of blokus.agents.  Both work on a copy of the game's board, so the
 * game may be used (or changed by another thread) while a search runs.
 * And blokus._core.random_playouts: whole games played in C; prior_features
 * and evaluation: what the search's prior and static evaluation read of a
 * position, for fitting their weights. */
#include "python/binding.h"

#include <math.h>
#include <string.h>

#include "engine/evaluation.h"
#include "engine/mcts.h"
#include "engine/prior.h"
#include "core/movegen.h"
#include "engine/playout.h"
#include "engine/playout_policy.h"
#include "engine/policy.h"

/* Simulations of the calling thread per release of the GIL, between time and
 * Ctrl-C checks: a millisecond or so (the other threads run on meanwhile). */
#define SEARCH_CHUNK 64

static PyObject *policy_move(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"game", "policy", "seed", NULL};
    PyObject *game, *policy_obj, *seed_obj;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:policy_move", kwlist, &game, &policy_obj, &seed_obj))
        return NULL;
    bk_board *live = bkpy_game_board(module, game, "policy_move");
    int policy = live ? bkpy_lookup_name(policy_obj, bk_policy_names, BK_NUM_POLICIES, "policy") : -1;
    if (policy < 0 || bkpy_seed_arg(seed_obj, &seed) < 0) return NULL;
    if (live->to_move < 0) return PyErr_Format(PyExc_ValueError, "game over: no colour has a move to choose");
    bk_board b = *live; /* greedy looks ahead by play and undo */
    uint16_t *moves = PyMem_Malloc(BK_MAX_MOVES * sizeof *moves);
    if (!moves) return PyErr_NoMemory();
    bk_rng rng;
    bk_rng_seed(&rng, seed, 0);
    int id = bk_policy_move((bk_policy)policy, &b, moves, bk_gen_moves(&b, b.to_move, moves), &rng);
    PyMem_Free(moves);
    return PyLong_FromLong(id);
}

/* A new float64 array of n values. */
static PyObject *doubles(const double *x, npy_intp n)
{
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_FLOAT64);
    if (a) memcpy(PyArray_DATA((PyArrayObject *)a), x, (size_t)n * sizeof *x);
    return a;
}

/* The search's statistics as (ids, visits, values, simulations, wins,
 * scores, principal variation, player wins, player scores). */
static PyObject *search_result(bk_mcts *t)
{
    bk_mcts_move *moves = PyMem_Malloc((size_t)bk_mcts_num_moves(t) * sizeof *moves);
    double *column = PyMem_Malloc((size_t)bk_mcts_num_moves(t) * 2 * sizeof *column);
    if (!moves || !column) {
        PyMem_Free(moves);
        PyMem_Free(column);
        return PyErr_NoMemory();
    }
    npy_intp n = bk_mcts_moves(t, moves);
    if (n == 0) { /* the root could not be expanded */
        PyMem_Free(moves);
        PyMem_Free(column);
        return PyErr_NoMemory();
    }
    int line[BK_MAX_HISTORY];
    npy_intp depth = bk_mcts_principal_variation(t, line, BK_MAX_HISTORY);
    double player_wins[BK_MAX_COLOURS], player_scores[BK_MAX_COLOURS];
    npy_intp players = bk_mcts_players(t, player_wins, player_scores);
    for (npy_intp i = 0; i < n; i++) {
        column[i] = moves[i].win;
        column[n + i] = moves[i].score;
    }
    PyObject *ids = PyArray_SimpleNew(1, &n, NPY_INT32), *visits = PyArray_SimpleNew(1, &n, NPY_INT64),
             *values = PyArray_SimpleNew(1, &n, NPY_FLOAT64), *wins = doubles(column, n),
             *scores = doubles(column + n, n), *pv = PyArray_SimpleNew(1, &depth, NPY_INT32),
             *pwins = doubles(player_wins, players), *pscores = doubles(player_scores, players), *result = NULL;
    if (ids && visits && values && wins && scores && pv && pwins && pscores) {
        for (npy_intp i = 0; i < n; i++) {
            ((int32_t *)PyArray_DATA((PyArrayObject *)ids))[i] = moves[i].id;
            ((int64_t *)PyArray_DATA((PyArrayObject *)visits))[i] = moves[i].visits;
            ((double *)PyArray_DATA((PyArrayObject *)values))[i] = moves[i].value;
        }
        for (npy_intp i = 0; i < depth; i++) ((int32_t *)PyArray_DATA((PyArrayObject *)pv))[i] = line[i];
        result = Py_BuildValue("OOOLOOOOO", ids, visits, values, (long long)bk_mcts_simulations(t), wins, scores,
                               pv, pwins, pscores);
    }
    Py_XDECREF(ids);
    Py_XDECREF(visits);
    Py_XDECREF(values);
    Py_XDECREF(wins);
    Py_XDECREF(scores);
    Py_XDECREF(pv);
    Py_XDECREF(pwins);
    Py_XDECREF(pscores);
    PyMem_Free(moves);
    PyMem_Free(column);
    return result;
}

/* Checks mcts()'s numbers; -1 with ValueError set when one is out of range. */
static int check_search_args(long long simulations, double seconds, long long threads, const bk_mcts_params *p)
{
    const char *bad = simulations == 0 && seconds == 0.0 ? "give simulations, seconds or both"
                      : simulations < 0                  ? "simulations must be >= 1"
                      : !(seconds >= 0.0 && isfinite(seconds)) ? "seconds must be > 0 and finite (0: no limit)"
                      : !(p->exploration >= 0.0 && isfinite(p->exploration)) ? "exploration must be >= 0 and finite"
                      : !(p->prior_temperature > 0.0 && isfinite(p->prior_temperature))
                          ? "prior_temperature must be > 0 and finite"
                      : !(p->rave >= 0.0 && isfinite(p->rave))                ? "rave must be >= 0 and finite"
                      : !(p->evaluation >= 0.0 && p->evaluation <= 1.0)       ? "evaluation must be in [0, 1]"
                      : !(p->early_stop >= 0.0 && isfinite(p->early_stop)) ? "early_stop must be >= 0 and finite"
                      : p->max_nodes < 1 || p->max_nodes > UINT32_MAX ? "max_nodes must be in [1, 2**32)"
                      : threads < 1 || threads > BK_MCTS_MAX_THREADS  ? "threads must be in [1, 64]"
                                                                      : NULL;
    if (bad) PyErr_SetString(PyExc_ValueError, bad);
    return bad ? -1 : 0;
}

/* A search kept between calls of mcts() (in a capsule from mcts_tree()), so
 * that the next search of the game keeps the subtree below the moves played
 * since (bk_mcts_advance). */
typedef struct {
    bk_mcts *search; /* NULL until a search is kept */
    bk_mcts_params params;
    int threads;
    int busy; /* a search runs on it with the GIL released: another call may not use it */
} kept_search;

#define KEPT_SEARCH "blokus._core.mcts_tree"

static void kept_search_free(PyObject *capsule)
{
    kept_search *k = PyCapsule_GetPointer(capsule, KEPT_SEARCH);
    if (!k) return;
    bk_mcts_free(k->search);
    PyMem_RawFree(k);
}

static PyObject *mcts_tree(PyObject *module, PyObject *noargs)
{
    (void)module;
    (void)noargs;
    kept_search *k = PyMem_RawCalloc(1, sizeof *k);
    if (!k) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(k, KEPT_SEARCH, kept_search_free);
    if (!capsule) PyMem_RawFree(k);
    return capsule;
}

static int same_params(const bk_mcts_params *a, const bk_mcts_params *b)
{
    return a->exploration == b->exploration && a->prior_temperature == b->prior_temperature && a->rave == b->rave &&
           a->max_nodes == b->max_nodes && a->margin == b->margin && a->evaluation == b->evaluation &&
           a->replies == b->replies &&
           a->early_stop == b->early_stop && a->shared == b->shared;
}

/* The search to run for board b: the kept one advanced to b when it has the
 * same parameters and is free, else a new one (kept in k when k is free);
 * NULL with an exception set when out of memory. */
static bk_mcts *search_for(kept_search *k, const bk_board *b, const bk_mcts_params *params, uint64_t seed,
                           int threads)
{
    if (k && !k->busy && k->search && k->threads == threads && same_params(&k->params, params)) {
        if (bk_mcts_advance(k->search, b, seed) >= 0) return k->search;
    }
    if (k && !k->busy) {
        bk_mcts_free(k->search);
        k->search = NULL;
    }
    bk_mcts *t = bk_mcts_new(b, params, seed, threads);
    if (!t) return (bk_mcts *)PyErr_NoMemory();
    if (k && !k->busy) {
        k->search = t;
        k->params = *params;
        k->threads = threads;
    }
    return t;
}

static PyObject *mcts_tree_memory(PyObject *module, PyObject *tree_obj)
{
    (void)module;
    kept_search *k = PyCapsule_GetPointer(tree_obj, KEPT_SEARCH);
    if (!k) {
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError, "tree must be an object from mcts_tree(), not %s",
                            Py_TYPE(tree_obj)->tp_name);
    }
    if (!k->search || k->busy) return Py_BuildValue("(LL)", 0LL, 0LL);
    return Py_BuildValue("(LL)", (long long)bk_mcts_memory(k->search), (long long)bk_mcts_prunings(k->search));
}

/* mcts()'s margin: None keeps the variant's (a negative weight), else a
 * number in [0, 0.5); -1 with an exception set otherwise. */
static int margin_arg(PyObject *obj, double *margin)
{
    if (obj == Py_None) return 0;
    double w = PyFloat_AsDouble(obj);
    if (w == -1.0 && PyErr_Occurred()) return -1;
    if (!(w >= 0.0 && w < 0.5)) {
        PyErr_SetString(PyExc_ValueError, "margin must be None or in [0, 0.5)");
        return -1;
    }
    *margin = w;
    return 0;
}

static PyObject *mcts(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"game",       "simulations", "seconds", "exploration", "prior_temperature",
                             "rave",       "margin",      "evaluation", "replies", "early_stop",
                             "max_nodes",  "threads",     "seed",    "tree",        "cpu",
                             "shared",     NULL};
    bk_mcts_params params = bk_mcts_defaults();
    PyObject *game, *seed_obj = NULL, *tree_obj = Py_None, *margin_obj = Py_None;
    long long simulations = 0, max_nodes = params.max_nodes, threads = 1;
    double seconds = 0.0;
    unsigned long long seed = 0;
    int cpu = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$LddddOdpdLLOOpp:mcts", kwlist, &game, &simulations, &seconds,
                                     &params.exploration, &params.prior_temperature, &params.rave, &margin_obj,
                                     &params.evaluation, &params.replies, &params.early_stop, &max_nodes, &threads, &seed_obj, &tree_obj, &cpu,
                                     &params.shared))
        return NULL;
    if (margin_arg(margin_obj, &params.margin) < 0) return NULL;
    params.max_nodes = max_nodes;
    params.shared = params.shared && threads > 1; /* one thread's tree is its own: the same search */
    bk_board *b = bkpy_game_board(module, game, "mcts");
    if (!b || check_search_args(simulations, seconds, threads, &params) < 0) return NULL;
    if (seed_obj && bkpy_seed_arg(seed_obj, &seed) < 0) return NULL;
    kept_search *k = NULL;
    if (tree_obj != Py_None && !(k = PyCapsule_GetPointer(tree_obj, KEPT_SEARCH))) {
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError, "tree must be None or an object from mcts_tree(), not %s",
                            Py_TYPE(tree_obj)->tp_name);
    }
    if (b->to_move < 0) return PyErr_Format(PyExc_ValueError, "game over: no colour has a move to search");
    bk_mcts *t = search_for(k, b, &params, seed, (int)threads);
    if (!t) return NULL;
    int kept = k && k->search == t;
    if (kept) k->busy = 1;
    /* cpu: `seconds` of CPU for each thread, read off the process's CPU clock,
     * which the threads together advance `threads` times as fast as the wall
     * clock; a busy machine then slows the search instead of shortening it */
    double (*now)(void) = cpu ? bkpy_cpu_now : bkpy_now;
    double deadline = seconds > 0.0 ? now() + (cpu ? seconds * (double)threads : seconds) : 0.0;
    int64_t left;
    int interrupted;
    bk_mcts_start(t, simulations);
    do { /* at least one simulation, so that the root's moves are known */
        Py_BEGIN_ALLOW_THREADS
        left = bk_mcts_run(t, SEARCH_CHUNK);
        Py_END_ALLOW_THREADS
        interrupted = PyErr_CheckSignals() < 0;
    } while (!interrupted && left > 0 && !(deadline && now() >= deadline));
    Py_BEGIN_ALLOW_THREADS
    bk_mcts_finish(t, left > 0); /* stopped by the clock or Ctrl-C: the others stop too */
    Py_END_ALLOW_THREADS
    PyObject *result = interrupted ? NULL : search_result(t);
    if (kept)
        k->busy = 0; /* an interrupted search is still a consistent tree: kept */
    else
        bk_mcts_free(t);
    return result;
}

/* The legal moves of the colour to move with the prior's features of each
 * and its log score (prior.h), for fitting the prior's weights. */
static PyObject *prior_features(PyObject *module, PyObject *game)
{
    bk_board *b = bkpy_game_board(module, game, "prior_features");
    if (!b) return NULL;
    if (b->to_move < 0) return PyErr_Format(PyExc_ValueError, "game over: no colour has a move to weigh");
    uint16_t *moves = PyMem_Malloc(BK_MAX_MOVES * sizeof *moves);
    if (!moves) return PyErr_NoMemory();
    npy_intp n = bk_gen_moves(b, b->to_move, moves), dims[2] = {n, BK_PRIOR_FEATURES};
    PyObject *ids = PyArray_SimpleNew(1, dims, NPY_INT32), *features = PyArray_SimpleNew(2, dims, NPY_FLOAT32);
    PyObject *scores = PyArray_SimpleNew(1, dims, NPY_FLOAT32);
    if (ids && features && scores) {
        for (npy_intp i = 0; i < n; i++) ((int32_t *)PyArray_DATA((PyArrayObject *)ids))[i] = moves[i];
        bk_prior_features(b, moves, (int)n, PyArray_DATA((PyArrayObject *)features));
        bk_prior_scores(b, moves, (int)n, PyArray_DATA((PyArrayObject *)scores));
    }
    PyMem_Free(moves);
    if (ids && features && scores) return Py_BuildValue("(NNiN)", ids, features, bk_prior_phase(b), scores);
    Py_XDECREF(ids);
    Py_XDECREF(features);
    Py_XDECREF(scores);
    return NULL;
}

/* The static evaluation of a Duo position (evaluation.h) with its phase and
 * features, for fitting its weights. */
static PyObject *evaluation(PyObject *module, PyObject *game)
{
    bk_board *b = bkpy_game_board(module, game, "evaluation");
    if (!b) return NULL;
    if (!bk_has_evaluation(b)) return PyErr_Format(PyExc_ValueError, "evaluation: only Duo positions have one");
    if (b->to_move < 0) return PyErr_Format(PyExc_ValueError, "game over: the outcome is known, not evaluated");
    npy_intp dims[1] = {BK_EVAL_FEATURES};
    PyObject *features = PyArray_SimpleNew(1, dims, NPY_FLOAT64);
    if (!features) return NULL;
    bk_evaluation_features(b, PyArray_DATA((PyArrayObject *)features));
    return Py_BuildValue("(diN)", bk_evaluation(b), bk_evaluation_phase(b), features);
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
    if ((variant = bkpy_variant_arg(variant_obj, &info)) < 0) return NULL;
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

static PyMethodDef agent_functions[] = {
    {"policy_move", (PyCFunction)(void (*)(void))policy_move, METH_VARARGS | METH_KEYWORDS,
     "policy_move(game, policy, seed)\n--\n\n"
     "The placement id that built-in policy \"random\" or \"greedy\" plays for the\n"
     "colour to move, drawing from random stream `seed`."},
    {"prior_features", prior_features, METH_O,
     "prior_features(game)\n--\n\n"
     "(ids int32 (n,), features float32 (n, F), phase, log_priors float32 (n,)):\n"
     "the legal placements of the colour to move, the features of each that the\n"
     "tree's prior weighs (csrc/engine/prior.h; names in PRIOR_FEATURES), the game's\n"
     "phase (which weights apply) and the log of the prior as fitted (temperature 1),\n"
     "w . x, or -inf for a move the tree does not consider; ValueError once the game\n"
     "is over.\n"
     "For benchmarks/fit_prior.py."},
    {"evaluation", evaluation, METH_O,
     "evaluation(game)\n--\n\n"
     "(value, phase, features float64 (F,)): the static evaluation of a Duo\n"
     "position that the search mixes into its simulations' values\n"
     "(csrc/engine/evaluation.h): colour 0's chance to win in [0, 1] (a draw\n"
     "half a win), the phase of the game whose weights apply, and the features\n"
     "(1; colour 1 to move; squares placed, colour 0's minus colour 1's;\n"
     "log(1 + legal placements), the same difference).  ValueError for another\n"
     "variant or once the game is over.\n"
     "For benchmarks/fit_evaluation.py."},
    {"mcts_tree", mcts_tree, METH_NOARGS,
     "mcts_tree()\n--\n\n"
     "A holder for a search that mcts(..., tree=) keeps between calls: the next\n"
     "search of a position that follows from the last one's root by moves it\n"
     "searched keeps the subtree below them (its visits and values), so that\n"
     "`simulations` are added to those; any other position, parameters or\n"
     "threads start a new search.  A holder in use by a search running on\n"
     "another thread is left alone (that call searches on its own)."},
    {"mcts_tree_memory", mcts_tree_memory, METH_O,
     "mcts_tree_memory(tree)\n--\n\n"
     "(bytes, prunings): the memory that the search kept in `tree` (from\n"
     "mcts_tree()) holds, and how often its trees were pruned to stay within\n"
     "their budget; (0, 0) while it holds none or a search on another thread\n"
     "is using it.  TypeError for another object."},
    {"mcts", (PyCFunction)(void (*)(void))mcts, METH_VARARGS | METH_KEYWORDS,
     "mcts(game, *, simulations=0, seconds=0.0, exploration=0.5,\n"
     "     prior_temperature=2.5, rave=0.3, margin=None, evaluation=0.3,\n"
     "     replies=True, early_stop=0.0, max_nodes=4294967295, threads=1, seed=0, tree=None,\n"
     "     cpu=False, shared=False)\n--\n\n"
     "Monte-Carlo tree search in C from the game's position, with the GIL\n"
     "released (csrc/engine/mcts.h): children start from the tree's prior at\n"
     "`prior_temperature` (prior.h: exp(w . x / T); above 1 flatter), a\n"
     "child is chosen by its value + exploration * P sqrt(N) log(N + 1) / n (P its\n"
     "prior share, N its parent's visits, n its count), RAVE updates of weight\n"
     "`rave` (0: none) along each simulation's path, playouts by the playout\n"
     "policy; in Duo each simulation's value is (1 - evaluation) its playout's +\n"
     "evaluation x the static evaluation (evaluation()) of where the playout\n"
     "started.  Stops after `simulations` (over all threads) or `seconds`,\n"
     "whichever comes first (cpu=True: seconds of CPU time per thread, from\n"
     "the process's CPU clock, else of the wall clock); with early_stop f > 0,\n"
     "a tree's share of the simulations also ends once its most visited move\n"
     "leads the next by more than f times the simulations left (f = 1: once\n"
     "that move cannot change).\n"
     "threads > 1: one tree per thread, their root statistics added; with\n"
     "shared=True one tree the threads grow together (a lock per node,\n"
     "virtual losses; the moves then depend on the threads' timing).  A tree\n"
     "holding its share of the memory budget (a quarter of the machine's\n"
     "memory, at most 1 GiB, for all trees) or of max_nodes (its positions)\n"
     "frees its least visited subtrees and searches on.  The\n"
     "defaults of exploration, prior_temperature, rave, margin, evaluation,\n"
     "replies, early_stop and max_nodes are the engine's, MCTS_DEFAULTS;\n"
     "margin=None is the variant's weight of the margin (0.375 with two\n"
     "sides, 0.2 with three or four).\n"
     "ValueError for a value out of range (exploration, rave and early_stop:\n"
     ">= 0 and finite; prior_temperature: > 0 and finite; margin: None or\n"
     "[0, 0.5);\n"
     "evaluation: [0, 1];\n"
     "max_nodes: [1, 2**32); threads: [1, 64]).\n\n"
     "Returns (ids int32, visits int64, values float64, simulations, wins\n"
     "float64, scores float64, principal_variation int32, player_wins float64,\n"
     "player_scores float64): the root's visited placements, most visited first,\n"
     "with each one's mean value in [0, 1], mean share of the win and mean final\n"
     "score for the player making it; the most visited line of play from the\n"
     "root; and each player's mean share of the win and final score over every\n"
     "simulation run by this call.  With `tree` (from mcts_tree()) the\n"
     "subtree searched earlier is kept (see mcts_tree): the moves' figures and\n"
     "`simulations` then count the kept simulations too."},
    {"random_playouts", (PyCFunction)(void (*)(void))random_playouts, METH_VARARGS | METH_KEYWORDS,
     "random_playouts(variant, n, seed=0, *, start=\"any\")\n--\n\n"
     "Plays n games in C, every move uniform over the legal placements, with\n"
     "the GIL released.\n\n"
     "Returns\n-------\nnumpy.ndarray\n    int16, shape (n, num_colours): final score per colour.\n"},
    {NULL, NULL, 0, NULL}};

/* bk_mcts_defaults() as a read-only mapping, MCTS_DEFAULTS: the defaults of
 * the Python agents are the engine's. */
static int add_mcts_defaults(PyObject *module)
{
    bk_mcts_params p = bk_mcts_defaults();
    PyObject *dict = Py_BuildValue("{s:d,s:d,s:d,s:O,s:d,s:O,s:d,s:L}", "exploration", p.exploration,
                                   "prior_temperature", p.prior_temperature, "rave", p.rave,
                                   "margin", Py_None, /* p.margin < 0: the variant's */
                                   "evaluation", p.evaluation, "replies", p.replies ? Py_True : Py_False, "early_stop",
                                   p.early_stop, "max_nodes", (long long)p.max_nodes);
    PyObject *proxy = dict ? PyDictProxy_New(dict) : NULL;
    Py_XDECREF(dict);
    int rc = proxy ? PyModule_AddObjectRef(module, "MCTS_DEFAULTS", proxy) : -1;
    Py_XDECREF(proxy);
    return rc;
}

int bkpy_add_agent_functions(PyObject *module)
{
    PyObject *names = PyTuple_New(BK_PRIOR_FEATURES);
    for (int f = 0; names && f < BK_PRIOR_FEATURES; f++) {
        PyObject *name = PyUnicode_FromString(bk_prior_feature_names[f]);
        if (!name) Py_CLEAR(names);
        else PyTuple_SET_ITEM(names, f, name);
    }
    int rc = names ? PyModule_AddObjectRef(module, "PRIOR_FEATURES", names) : -1;
    Py_XDECREF(names);
    if (rc < 0 || add_mcts_defaults(module) < 0) return -1;
    return PyModule_AddFunctions(module, agent_functions);
}

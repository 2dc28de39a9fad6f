/* The search: growing the trees and running their simulations on threads;
 * see mcts.h.  The trees' memory is in mcts_memory.c, the statistics read
 * from them in mcts_result.c. */
#define _POSIX_C_SOURCE 200809L /* pthreads */
#define _DEFAULT_SOURCE         /* sysconf(_SC_PHYS_PAGES) */
#include "engine/mcts.h"
#include "engine/mcts_tree.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/movegen.h"
#include "core/play.h"
#include "core/score.h"
#include "engine/evaluation.h"
#include "engine/prior.h"

/* Weight of the score margin in a playout's value when params.margin is 0:
 * small, so that winning always counts for more than winning by more. */
#define MARGIN_WEIGHT 0.1
#define MARGIN_SCALE 20.0 /* squares: a margin this large is worth ~76% of MARGIN_WEIGHT */
/* The standardised margin's weight by default, decided by matches against
 * Pentobi (benchmarks/README.md): with two sides 0.375, the same balance of
 * place and margin as Pentobi's; with more, where a match counts the places
 * alone, less. */
#define MARGIN_TWO_SIDES 0.375
#define MARGIN_MORE_SIDES 0.2

#define INIT_COUNT 3.0f     /* the weight of a new child's initial value, from its prior */
#define TIE_VALUE 0.5        /* the value expected before any simulation */
#define EXPAND_AFTER 1.0     /* visits beyond which a node is expanded (the root: at once) */
#define EXPAND_STEP 0.5      /* and more for each move below the root */
#define RAVE_PARENT_MAX 25000 /* visits beyond which a node's children get no more RAVE updates */
#define RAVE_CHILD_MAX 2000.0f /* count beyond which a child gets none */
#define RAVE_WEIGHT_MAX 1e30   /* weight of a RAVE update at most: see rave_moves */
#define TRY_ALL_AFTER 16     /* visits per child beyond which a node tries its unvisited children */
/* The prior is fitted to the moves Pentobi chose; the search plays better
 * with it flatter (decided by matches against Pentobi: benchmarks/README.md). */
#define PRIOR_TEMPERATURE 2.5
/* The weight of the static evaluation in a simulation's value (Duo):
 * decided by matches against Pentobi (benchmarks/README.md). */
#define EVALUATION 0.3
#define MAX_BUDGET ((int64_t)1 << 30) /* bytes: the default budget's ceiling (a quarter of the memory below it) */

bk_mcts_params bk_mcts_defaults(void)
{
    return (bk_mcts_params){.exploration = 0.5, .prior_temperature = PRIOR_TEMPERATURE, .rave = 0.3,
                            .max_nodes = UINT32_MAX, .memory = 0, .margin = -1.0, .evaluation = EVALUATION,
                            .replies = 1, .early_stop = 0.0};
}

double bk_mcts_margin(int variant)
{
    int8_t side[BK_MAX_COLOURS];
    int players = bk_player_sides(variant, side);
    return bk_num_sides(players, side) > 2 ? MARGIN_MORE_SIDES : MARGIN_TWO_SIDES;
}

int64_t bk_mcts_default_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return MAX_BUDGET;
    int64_t quarter = (int64_t)pages / 4 * size;
    return quarter < MAX_BUDGET ? quarter : MAX_BUDGET;
}

/* sqrt(N) log(N + 1) for the selection's exploration term, per parent
 * visit count N below EXPLORE_TABLE: the selection's transcendental math
 * done once. */
#define EXPLORE_TABLE 8192
static double explore_table[EXPLORE_TABLE];
/* 2^(-k / PRIOR_STEPS) for k < PRIOR_STEPS: a quantised prior's fraction of
 * an octave (prior_of). */
static float prior_steps[PRIOR_STEPS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_tables(void)
{
    for (int n = 0; n < EXPLORE_TABLE; n++) explore_table[n] = sqrt((double)n) * log((double)n + 1.0);
    for (int k = 0; k < PRIOR_STEPS; k++) prior_steps[k] = exp2f(-(float)k / PRIOR_STEPS);
}

static float exploration(const tree *t, uint32_t visits)
{
    double f = visits < EXPLORE_TABLE ? explore_table[visits] : sqrt((double)visits) * log((double)visits + 1.0);
    /* at most FLT_MAX (prior / count <= 1): a huge exploration then ranks by
     * prior / count, its limit, where infinity would tie every move at the first */
    return (float)fmin(t->params.exploration * f, FLT_MAX);
}

/* A shared tree's locks (mcts_tree.h): spin locks, as each is held for
 * well under a microsecond at a time (the tree's for longer only while it
 * prunes), which a sleeping lock's hand-over would cost more than; a thread
 * that spins long yields its core, in case the holder waits for one.  A
 * tree of one thread takes none. */
#define SPINS_BEFORE_YIELD 4096

static void spin_lock(atomic_int *l)
{
    for (int spins = 0;; spins++) {
        int free_ = 0;
        if (!atomic_load_explicit(l, memory_order_relaxed) &&
            atomic_compare_exchange_weak_explicit(l, &free_, 1, memory_order_acquire, memory_order_relaxed))
            return;
        if (spins == SPINS_BEFORE_YIELD) {
            sched_yield();
            spins = 0;
        } else {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
    }
}

static void spin_unlock(atomic_int *l)
{
    atomic_store_explicit(l, 0, memory_order_release);
}

static void lock(tree *t)
{
    if (t->shared) spin_lock(&t->lock);
}

static void unlock(tree *t)
{
    if (t->shared) spin_unlock(&t->lock);
}

static void lock_node(tree *t, uint32_t v)
{
    if (t->shared) spin_lock(&t->node_locks[v % NODE_LOCKS]);
}

static void unlock_node(tree *t, uint32_t v)
{
    if (t->shared) spin_unlock(&t->node_locks[v % NODE_LOCKS]);
}

static void lock_alloc(tree *t)
{
    if (t->shared) spin_lock(&t->alloc);
}

static void unlock_alloc(tree *t)
{
    if (t->shared) spin_unlock(&t->alloc);
}

/* Makes b the position of t's root, with its colours' dead points, for the
 * playouts. */
static void set_root(tree *t, const bk_board *b)
{
    bk_move_sets scratch; /* on the stack: bk_cand_set's alignment is more than malloc's */
    t->root = *b;
    bk_dead_points_find(&t->root_dead, b, &scratch);
}

/* Makes the root of t the position `root` with no simulations (its arena
 * freed first, reserved for a shared tree); 0 when out of memory. */
static int reset(tree *t, const bk_board *root)
{
    bk_arena_free(&t->a);
    if (!bk_arena_init(&t->a) || (t->shared && !bk_arena_reserve(&t->a, t->budget, t->node_cap))) return 0;
    set_root(t, root);
    t->root_visits = 0;
    t->simulations = t->claimed = 0;
    t->full = 0;
    t->root_indexed = 0;
    return 1;
}

/* The sums over simulations from the root start again. */
static void restart_players(tree *t)
{
    t->played = 0;
    for (int p = 0; p < BK_MAX_COLOURS; p++) {
        t->player_wins[p] = t->player_values[p] = t->player_scores[p] = 0.0;
        t->margin_n[p] = t->margin_mean[p] = t->margin_m2[p] = 0.0;
    }
}

static void tree_free(tree *t)
{
    if (!t) return;
    bk_arena_free(&t->a);
    free(t->root_ranks);
    free(t);
}

/* A tree from a copy of `root`, with `budget` bytes and `node_cap` nodes
 * before it prunes, `shared` by several threads or not; NULL when out of
 * memory. */
static tree *tree_new(const bk_board *root, const bk_mcts_params *params, int64_t budget, int64_t node_cap,
                      int shared)
{
    tree *t = calloc(1, sizeof *t); /* the sums start at 0 */
    if (!t) return NULL;
    t->params = *params;
    t->budget = budget;
    t->node_cap = node_cap;
    t->num_players = bk_player_sides(root->variant, t->side);
    if (t->params.margin < 0.0) t->params.margin = bk_mcts_margin(root->variant);
    t->shared = shared;
    atomic_init(&t->lock, 0);
    atomic_init(&t->alloc, 0);
    atomic_init(&t->in_flight, 0);
    for (int k = 0; k < NODE_LOCKS; k++) atomic_init(&t->node_locks[k], 0);
    if (!(t->root_ranks = malloc(BK_MAX_PLACEMENTS * sizeof *t->root_ranks)) || !reset(t, root)) {
        tree_free(t);
        return NULL;
    }
    return t;
}

/* Worker k of a search: random stream (seed, k), no replies learnt; 0 when
 * out of memory. */
static int worker_init(worker *w, const bk_mcts_params *params, uint64_t seed, int k)
{
    bk_rng_seed(&w->rng, seed, (uint64_t)k);
    memset(w->played_by, -1, sizeof w->played_by);
    if (params->replies) {
        if (!(w->replies = malloc(sizeof *w->replies))) return 0;
        bk_replies_clear(w->replies);
    }
    return 1;
}

bk_mcts *bk_mcts_new(const bk_board *root, const bk_mcts_params *params, uint64_t seed, int threads)
{
    if (threads < 1 || threads > BK_MCTS_MAX_THREADS) return NULL;
    pthread_once(&tables_once, fill_tables);
    bk_mcts *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    int shared = params->shared && threads > 1, trees = shared ? 1 : threads;
    s->trees = calloc((size_t)trees, sizeof *s->trees);
    s->workers = calloc((size_t)threads, sizeof *s->workers);
    if (!s->trees || !s->workers) {
        bk_mcts_free(s);
        return NULL;
    }
    /* the budget and max_nodes are for the whole search: each tree gets its part */
    int64_t memory = params->memory > 0 ? params->memory : bk_mcts_default_memory();
    int64_t node_cap = params->max_nodes / trees > 0 ? params->max_nodes / trees : 1;
    atomic_init(&s->stop, 0);
    for (s->num_trees = 0; s->num_trees < trees; s->num_trees++) {
        tree *t = tree_new(root, params, memory / trees, node_cap, shared);
        if (!(s->trees[s->num_trees] = t)) {
            bk_mcts_free(s);
            return NULL;
        }
        t->stop = &s->stop;
    }
    for (; s->num_workers < threads; s->num_workers++) {
        int k = s->num_workers;
        if (!worker_init(&s->workers[k], params, seed, k)) {
            bk_mcts_free(s);
            return NULL;
        }
        s->jobs[k] = (job){s->trees[shared ? 0 : k], &s->workers[k]};
    }
    return s;
}

void bk_mcts_free(bk_mcts *s)
{
    if (!s) return;
    for (int k = 0; s->trees && k < s->num_trees; k++) tree_free(s->trees[k]);
    for (int k = 0; s->workers && k < s->num_workers; k++) free(s->workers[k].replies);
    free(s->trees);
    free(s->workers);
    free(s);
}

int64_t bk_mcts_simulations(const bk_mcts *s)
{
    int64_t n = 0;
    for (int k = 0; k < s->num_trees; k++) n += s->trees[k]->simulations;
    return n;
}

int64_t bk_mcts_memory(const bk_mcts *s)
{
    int64_t n = 0;
    for (int k = 0; k < s->num_trees; k++) n += bk_arena_bytes(&s->trees[k]->a);
    return n;
}

int64_t bk_mcts_prunings(const bk_mcts *s)
{
    int64_t n = 0;
    for (int k = 0; k < s->num_trees; k++) n += s->trees[k]->prunings;
    return n;
}

/* Whether position b is t's root or follows from it by moves played since:
 * the same game, its history extending the root's. */
static int follows(const tree *t, const bk_board *b)
{
    const bk_board *r = &t->root;
    if (b->variant != r->variant || b->start != r->start || b->num_moves < r->num_moves ||
        memcmp(b->starts, r->starts, sizeof b->starts) != 0)
        return 0;
    for (int i = 0; i < r->num_moves; i++)
        if (b->history[i].id != r->history[i].id || b->history[i].colour != r->history[i].colour) return 0;
    return 1;
}

/* The node reached from t's root by the moves b has played since, or 0 when
 * the tree has not searched them (the root itself can never be reached). */
static uint32_t node_of(const tree *t, const bk_board *b)
{
    uint32_t v = 0;
    for (int i = t->root.num_moves; i < b->num_moves; i++) {
        const node *nd = &t->a.nodes[v];
        const edge *es = t->a.edges + nd->edges;
        int n = nd->state == NODE_EXPANDED ? nd->num_edges : 0, k = 0;
        while (k < n && es[k].move != b->history[i].id) k++;
        if (k == n || !es[k].child) return 0;
        v = es[k].child;
    }
    return v;
}

/* Makes node `top` (reached by the moves of b) the root of t, with its
 * subtree; 0 when out of memory, t unchanged. */
static int keep_subtree(tree *t, uint32_t top, const bk_board *b)
{
    if (!bk_tree_keep(t, top, 0)) return 0;
    t->full = 0;
    set_root(t, b);
    t->root_indexed = 0;
    const node *root = &t->a.nodes[0];
    int64_t below = 0; /* the root's own first visit was a leaf's playout, behind no child */
    for (int k = 0; root->state == NODE_EXPANDED && k < root->num_edges; k++)
        below += t->a.edges[root->edges + k].visits;
    t->root_visits = (uint32_t)below;
    t->simulations = t->claimed = below;
    return 1;
}

int64_t bk_mcts_advance(bk_mcts *s, const bk_board *b, uint64_t seed)
{
    int64_t kept = 0;
    for (int k = 0; k < s->num_trees; k++) {
        tree *t = s->trees[k];
        if (follows(t, b) && b->num_moves == t->root.num_moves) {
            set_root(t, b); /* the same position: the whole tree */
        } else {
            uint32_t top = follows(t, b) ? node_of(t, b) : 0;
            if (!(top && keep_subtree(t, top, b)) && !reset(t, b)) return -1;
        }
        restart_players(t);
        kept += t->simulations;
    }
    for (int k = 0; k < s->num_workers; k++) bk_rng_seed(&s->workers[k].rng, seed, (uint64_t)k);
    return kept;
}

/* A prior over the best from its quantised form q (mcts_tree.h):
 * 2^(-q / PRIOR_STEPS), a table's fraction of an octave times the octave,
 * an exact power of 2 (q / PRIOR_STEPS < 64: no subnormal). */
static float prior_of(uint32_t word)
{
    uint32_t q = word >> 16 & 0x7FFF, octave = q / PRIOR_STEPS;
    union {
        uint32_t bits;
        float x;
    } power = {(127u - octave) << 23}; /* 2^-octave */
    return prior_steps[q % PRIOR_STEPS] * power.x;
}

/* Moves of a log2 prior at most this are not considered: kept from when the
 * priors were floats, in which a prior of 2^-150 or less was 0. */
#define MIN_LOG2_PRIOR -150.0f

/* Orders the n moves in w->moves by the prior (bk_tree_log2_priors at
 * `temperature`) into w->words, highest first, as words of mcts_tree.h: a
 * shuffle drawn from w's stream, then a stable sort on the quantised prior,
 * so that moves of the same prior come in random order (the selection
 * prefers the first of equals).  Returns how many have a log2 prior above
 * MIN_LOG2_PRIOR (the others are not considered), their priors' sum in
 * *sum.  The best move's prior is 1, so at least one move is considered: a
 * node is never expanded without children. */
static int order_by_prior(worker *w, double temperature, const bk_board *b, int n, float *sum)
{
    uint16_t *moves = w->moves;
    uint32_t *out = w->words;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bk_rng_below(&w->rng, (uint32_t)i + 1);
        uint16_t m = moves[i];
        moves[i] = moves[j];
        moves[j] = m;
    }
    bk_tree_log2_priors(b, moves, n, temperature, w->log2_priors);
    int considered = 0;
    for (int i = 0; i < n; i++) {
        if (!(w->log2_priors[i] > MIN_LOG2_PRIOR)) continue;
        float q = -(float)PRIOR_STEPS * w->log2_priors[i] + 0.5f;
        w->quantised[i] = (uint16_t)(q < (float)MAX_QUANTISED_PRIOR ? (int)q : MAX_QUANTISED_PRIOR);
        w->sorted[considered++] = (uint32_t)i;
    }
    /* a stable radix sort on the quantised prior: its low byte into out, then its high bits back */
    int low[257] = {0}, high[129] = {0};
    for (int i = 0; i < considered; i++) {
        low[(w->quantised[w->sorted[i]] & 0xFF) + 1]++;
        high[(w->quantised[w->sorted[i]] >> 8) + 1]++;
    }
    for (int k = 0; k < 256; k++) low[k + 1] += low[k];
    for (int k = 0; k < 128; k++) high[k + 1] += high[k];
    for (int i = 0; i < considered; i++) out[low[w->quantised[w->sorted[i]] & 0xFF]++] = w->sorted[i];
    for (int i = 0; i < considered; i++) w->sorted[high[w->quantised[out[i]] >> 8]++] = out[i];
    *sum = 0.0f;
    for (int i = 0; i < considered; i++) {
        uint32_t m = w->sorted[i];
        out[i] = moves[m] | (uint32_t)w->quantised[m] << 16;
        *sum += prior_of(out[i]);
    }
    assert(considered > 0);
    return considered;
}

/* Whether t's simulations mix the static evaluation of position b into
 * their values (b has a colour to move: a finished game's value is its
 * outcome). */
static int evaluates(const tree *t, const bk_board *b)
{
    return t->params.evaluation > 0.0 && b->to_move >= 0 && bk_has_evaluation(b);
}

/* Mixes the static evaluation `start` (colour 0's chance to win) into each
 * player's value (params.evaluation; Duo's colour 0 is player 0). */
static void mix_evaluation(const tree *t, double start, double *values)
{
    double l = t->params.evaluation;
    values[0] = (1.0 - l) * values[0] + l * start;
    values[1] = (1.0 - l) * values[1] + l * (1.0 - start);
}

/* The value each player expects when w's simulation begins, for its
 * expansions: its mean over the simulations since the root was set; before
 * there are any, the tie value, mixed with the root's static evaluation as
 * the simulations' values will be (else the root's first child visited
 * would stand far above its unvisited siblings, or below them). */
static void expect(const tree *t, worker *w)
{
    for (int p = 0; p < t->num_players; p++)
        w->expected[p] = t->played ? (float)(t->player_values[p] / (double)t->played) : (float)TIE_VALUE;
    if (!t->played && evaluates(t, &t->root)) {
        double tie[2] = {TIE_VALUE, TIE_VALUE};
        mix_evaluation(t, bk_evaluation(&t->root), tie);
        w->expected[0] = (float)tie[0];
        w->expected[1] = (float)tie[1];
    }
}

/* Node nd's first move in prior order without an edge: its rank in
 * nd->fresh, and the initial value and urgency its edge would have. */
static void next_fresh(const tree *t, node *nd)
{
    const uint32_t *moves = t->a.moves + nd->moves;
    while (nd->fresh < nd->num_moves && moves[nd->fresh] & MOVE_MADE) nd->fresh++;
    if (nd->fresh == nd->num_moves) return;
    float p = prior_of(moves[nd->fresh]);
    nd->fresh_value = nd->expected * sqrtf(p);
    nd->fresh_urgency = p / nd->prior_sum / INIT_COUNT;
}

/* The considered moves of position b (lazily played: the colour to move
 * may have no move, and is then passed over) in prior order, into w->words;
 * returns how many, 0 when no colour can move.  It reads nothing of the
 * tree, so a thread of a shared tree runs it without the node's lock. */
static int considered_moves(worker *w, double temperature, bk_board *b, float *sum)
{
    int n;
    *sum = 0.0f;
    while ((n = bk_gen_moves(b, b->to_move, w->moves)) == 0) {
        bk_out_of_moves(b);
        if (b->to_move < 0) return 0;
    }
    return order_by_prior(w, temperature, b, n, sum);
}

/* Node v, whose position is b, expanded with the n considered moves in
 * w->words (considered_moves; their priors' sum `sum`), none an edge yet,
 * or NODE_TERMINAL when n is 0.  Returns 0 when out of memory.  A move's
 * edge starts with a value of INIT_COUNT weight: the value the mover
 * expects now, scaled by the square root of its prior over the best prior
 * (Pentobi's initialisation), so that the moves the prior likes least are
 * hardly tried before the search has found the others bad. */
static int install(tree *t, uint32_t v, const bk_board *b, const worker *w, int n, float sum)
{
    if (n == 0) {
        t->a.nodes[v].state = NODE_TERMINAL;
        return 1;
    }
    lock_alloc(t);
    int room = bk_arena_reserve_moves(&t->a, n);
    int64_t at = t->a.num_moves;
    if (room) t->a.num_moves += n;
    unlock_alloc(t);
    if (!room) return 0;
    memcpy(t->a.moves + at, w->words, (size_t)n * sizeof *w->words);
    node *nd = &t->a.nodes[v];
    nd->moves = (uint32_t)at;
    nd->num_moves = (uint16_t)n;
    nd->num_edges = 0;
    nd->unvisited = 0;
    nd->fresh = 0;
    nd->colour = (uint8_t)b->to_move;
    nd->mover = (uint8_t)bk_player_of_colour(b, b->to_move);
    nd->expected = w->expected[nd->mover];
    nd->prior_sum = sum;
    nd->state = NODE_EXPANDED;
    next_fresh(t, nd);
    return 1;
}

/* Expands node v, whose position is b (install), drawing from w's stream;
 * 0 when out of memory.  In a shared tree the caller holds v's lock, which
 * is let go of while the moves are found, and another thread may have
 * expanded v by then: the same position, so the same colour to move. */
static int expand(tree *t, worker *w, uint32_t v, bk_board *b)
{
    float sum;
    unlock_node(t, v);
    int n = considered_moves(w, t->params.prior_temperature, b, &sum);
    lock_node(t, v);
    return t->a.nodes[v].state != NODE_LEAF || install(t, v, b, w, n, sum);
}

/* The edge of node v's move of rank r, made now (the move had none);
 * NO_INDEX when out of memory. */
static uint32_t make_edge(tree *t, uint32_t v, int r)
{
    lock_alloc(t);
    int room = bk_arena_room_for_edge(&t->a, v);
    unlock_alloc(t);
    if (!room) return NO_INDEX;
    node *nd = &t->a.nodes[v];
    uint32_t *word = &t->a.moves[nd->moves + (uint32_t)r], e = nd->edges + nd->num_edges;
    float p = prior_of(*word);
    float prior = p / nd->prior_sum;
    t->a.edges[e] = (edge){.count = INIT_COUNT, .prior = prior, .move = (uint16_t)(*word & 0xFFFF), .rank = (uint16_t)r};
    t->a.stats[e] = (edge_stats){.value = nd->expected * sqrtf(p), .urgency = prior / INIT_COUNT};
    *word = (*word & 0xFFFF) | MOVE_MADE | (uint32_t)nd->num_edges << 16;
    nd->num_edges++;
    nd->unvisited++;
    if (r == nd->fresh) next_fresh(t, nd);
    return e;
}

/* Edge k of score x becomes the choice (*choice, its score *top) when x is
 * higher, or as high and k of a lower rank. */
static inline void consider(const edge *es, int k, float x, int *choice, float *top)
{
    if (x > *top || (x == *top && es[k].rank < es[*choice].rank)) {
        *top = x;
        *choice = k;
    }
}

/* The index among the n edges es (their stats st) of the highest score
 * value + explore * urgency (prior / count), ties to the lowest rank, its
 * score in *best; -1 when n is 0.  Much of a simulation's time in the
 * endgame is here: one pass, SSE2 scoring four edges at once (each lane
 * rounding as the scalar code does), the four looked at one by one only
 * when one reaches the best so far, which soon becomes rare.  No score is
 * NaN or -0 (values are in [0, 1], explore >= 0), so that the highest is
 * the same in any order. */
static int best_edge(const edge *es, const edge_stats *st, int n, float explore, float *best)
{
    float top = -1.0f;
    int choice = -1, i = 0;
#ifdef __SSE2__
    __m128 c = _mm_set1_ps(explore), bar = _mm_set1_ps(top);
    _Static_assert(sizeof(edge_stats) == 2 * sizeof(float), "an edge's stats are its value and urgency");
    for (; i + 4 <= n; i += 4) {
        /* (value, urgency) of edges i, i + 1 and of i + 2, i + 3, then their columns */
        __m128 lo = _mm_loadu_ps(&st[i].value), hi = _mm_loadu_ps(&st[i + 2].value);
        __m128 value = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
        __m128 urgency = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
        __m128 s = _mm_add_ps(value, _mm_mul_ps(c, urgency));
        int m = _mm_movemask_ps(_mm_cmpge_ps(s, bar));
        if (!m) continue;
        float x[4];
        _mm_storeu_ps(x, s);
        for (; m; m &= m - 1) {
            int j = bk_ctz((uint32_t)m);
            consider(es, i + j, x[j], &choice, &top);
        }
        bar = _mm_set1_ps(top);
    }
#endif
    for (; i < n; i++) consider(es, i, st[i].value + explore * st[i].urgency, &choice, &top);
    *best = top;
    return choice;
}

/* The edge of node v (with `visits`) to descend by: the highest value plus
 * the exploration term c P sqrt(N) log(N + 1) / n, P its prior share, N the
 * visits of v and n its count (AlphaGo's term with Pentobi's log factor);
 * ties go to the first in prior order.  Once v has TRY_ALL_AFTER visits per
 * move, a move never visited comes first (the first in prior order): a move
 * the prior dislikes, such as the one small piece that wins an endgame, is
 * tried at last.  A move without an edge scores as its edge would; of
 * those only the first in prior order (nd->fresh) can score best.
 * NO_INDEX when out of memory. */
static uint32_t select_edge(tree *t, uint32_t v, uint32_t visits)
{
    const node *nd = &t->a.nodes[v];
    const edge *es = t->a.edges + nd->edges;
    float explore = exploration(t, visits), best;
    int unvisited = -1, try_all = (double)visits > (double)TRY_ALL_AFTER * nd->num_moves;
    for (int i = 0; try_all && nd->unvisited && i < nd->num_edges; i++)
        if (es[i].visits == 0 && (unvisited < 0 || es[i].rank < es[unvisited].rank)) unvisited = i;
    int fresh = nd->fresh < nd->num_moves ? nd->fresh : -1;
    if (try_all && unvisited >= 0 && (fresh < 0 || es[unvisited].rank < fresh)) return nd->edges + (uint32_t)unvisited;
    int choice = best_edge(es, t->a.stats + nd->edges, nd->num_edges, explore, &best);
    if (fresh >= 0) {
        float x = nd->fresh_value + explore * nd->fresh_urgency;
        if (try_all || choice < 0 || x > best || (x == best && fresh < es[choice].rank)) {
            uint32_t e = make_edge(t, v, fresh);
            if (e != NO_INDEX || choice < 0) return e;
        }
    }
    return nd->edges + (uint32_t)choice;
}

/* Adds value x of weight w to the mean of edge e. */
static void add_value(tree *t, uint32_t e, double x, float w)
{
    edge *ed = &t->a.edges[e];
    edge_stats *st = &t->a.stats[e];
    ed->count += w;
    st->value += (float)(w * (x - st->value) / ed->count);
    st->urgency = ed->prior / ed->count;
}

/* In a shared tree a simulation counts its visit of edge e (of node v) as
 * it descends, with the value of a loss (0) until its playout's value
 * replaces it (replace_loss): the threads descending meanwhile then spread
 * over other moves instead of all down the same line. */
static void add_virtual_loss(tree *t, uint32_t v, uint32_t e)
{
    if (t->a.edges[e].visits++ == 0) t->a.nodes[v].unvisited--;
    add_value(t, e, 0.0, 1.0f);
}

/* The virtual loss of edge e becomes the value x: the mean's sum gains x
 * over the same count (RAVE updates since then included). */
static void replace_loss(tree *t, uint32_t e, double x)
{
    t->a.stats[e].value += (float)(x / t->a.edges[e].count);
}

/* The ranks among the n considered moves `words` of those that `colour`
 * played later in the simulation (played_by), into ranks; returns how
 * many.  RAVE looks at every move of each node on the path, and few match:
 * a loop apart from the updates, whose calls would make the compiler load
 * every pointer again at each move, and a function apart from the back-up,
 * inlined into which it would run out of registers for the loop (a byte's
 * colour: compared with played_by's bytes as they are). */
__attribute__((noinline)) static int played_ranks(const uint32_t *restrict words, int n,
                                                  const int8_t *restrict played_by, int8_t colour,
                                                  uint16_t *restrict ranks)
{
    int k = 0;
#pragma GCC unroll 4
    for (int r = 0; r < n; r++)
        if (played_by[words[r] & 0xFFFF] == colour) ranks[k++] = (uint16_t)r;
    return k;
}

/* The ranks among the root's considered moves of those that `colour`
 * played in the simulation after the root's move (b's history from index
 * first + 1 on: what played_by holds when RAVE reaches the root), ascending
 * as played_ranks gives them: looked up by the root's index of its moves
 * (t->root_ranks, made here once per root) instead of a scan of them all,
 * the root's being the most (near a thousand in the opening) and read at
 * every simulation.  Under node 0's lock in a shared tree. */
static int root_played_ranks(tree *t, const bk_board *b, int first, int8_t colour, uint16_t *ranks)
{
    if (!t->root_indexed) {
        const node *nd = &t->a.nodes[0];
        const uint32_t *words = t->a.moves + nd->moves;
        memset(t->root_ranks, 0xFF, BK_MAX_PLACEMENTS * sizeof *t->root_ranks); /* -1 */
        for (int r = 0; r < nd->num_moves; r++) t->root_ranks[words[r] & 0xFFFF] = (int16_t)r;
        t->root_indexed = 1;
    }
    int k = 0;
    for (int h = first + 1; h < b->num_moves; h++) {
        int r = b->history[h].colour == colour ? t->root_ranks[b->history[h].id] : -1;
        if (r < 0) continue;
        int j = k++;
        for (; j > 0 && ranks[j - 1] > r; j--) ranks[j] = ranks[j - 1];
        ranks[j] = (uint16_t)r;
    }
    return k;
}

/* RAVE for node v, the i-th of the path (the simulation's moves: b's
 * history from index first on): each of its moves that `colour` played
 * later in the simulation (w->played_by) gains its value as if played
 * there (an edge made for it if it had none). */
static void rave_moves(tree *t, worker *w, const bk_board *b, int first, uint32_t v, int8_t colour, int i,
                       const double *values)
{
    const int8_t *played_by = w->played_by;
    const int16_t *first_play = w->first_play;
    float rest = 1.0f / (float)(b->num_moves - first - i);
    /* A weight beyond RAVE_WEIGHT_MAX would change nothing: an edge's count
     * before an update is at most RAVE_CHILD_MAX, so its mean becomes the
     * update's value already; as a float's infinity it would become NaN
     * (inf / inf). */
    float rave = (float)fmin(t->params.rave, RAVE_WEIGHT_MAX);
    const node *nd = &t->a.nodes[v];
    double value = values[nd->mover];
    /* make_edge moves edges only: nd and its moves stay where they are */
    const uint32_t *words = t->a.moves + nd->moves;
    uint16_t *ranks = w->rave_ranks;
    int n = v == 0 ? root_played_ranks(t, b, first, colour, ranks)
                   : played_ranks(words, nd->num_moves, played_by, colour, ranks);
    for (int k = 0; k < n; k++) {
        int r = ranks[k];
        uint32_t word = words[r];
        int id = (int)(word & 0xFFFF);
        uint32_t e = word & MOVE_MADE ? nd->edges + (word >> 16 & 0x7FFF) : make_edge(t, v, r);
        if (e == NO_INDEX || t->a.edges[e].count > RAVE_CHILD_MAX) continue;
        float w = rave * (1.0f - (float)(first_play[id] - i) * rest);
        add_value(t, e, value, w);
    }
}

/* A simulation's path down the tree: nodes[0..depth] (NO_INDEX: no node),
 * slots[i] the index of the edge from nodes[i] among its edges (which keep
 * their order when they move to a larger block), colours[i] the colour to
 * move at nodes[i] (-1 where the descent did not expand or pass through
 * it), visits[i] the visits of nodes[i] as the descent passed. */
typedef struct {
    uint32_t nodes[BK_MAX_HISTORY + 2], visits[BK_MAX_HISTORY + 2];
    uint16_t slots[BK_MAX_HISTORY + 2];
    int8_t colours[BK_MAX_HISTORY + 2];
    int depth;
} path;

/* Marks the move at index k of b's history (k - first moves below the
 * root) as played in this simulation, for RAVE. */
static void mark_played(worker *w, const bk_board *b, int k, int first)
{
    w->played_by[b->history[k].id] = (int8_t)b->history[k].colour;
    w->first_play[b->history[k].id] = (int16_t)(k - first);
}

/* The edge e of node nd on the path gains the simulation's value x for
 * nd's mover (in a shared tree the virtual loss its descent counted
 * becomes x). */
static void visit(tree *t, node *nd, uint32_t e, double x)
{
    if (t->shared) {
        replace_loss(t, e, x);
    } else {
        if (t->a.edges[e].visits++ == 0) nd->unvisited--;
        add_value(t, e, x, 1.0f);
    }
}

/* The back-up of a simulation along path p, node by node from the leaf up
 * (each under its lock in a shared tree): the edge from each node gains the
 * value for the node's mover, each node below the root the sums for the
 * player who moved to it, and RAVE (all moves as first): every move of a
 * node on the path gains the value as if it had been played there, when its
 * colour played that placement later in the simulation, weighted the more
 * the sooner it did (weight w (1 - d / r), d the moves from the node to the
 * first such play and r the moves from the node to the end), while the node
 * has few visits and the move's edge a small count.  The moves of the
 * simulation are b's history from the root's on. */
static void back_up(tree *t, worker *w, const bk_board *b, const path *p, const double *values,
                    const double *shares, const int *scores)
{
    int rave = t->params.rave > 0.0, first = t->root.num_moves, last = b->num_moves;
    for (int k = last - 1; rave && k >= first + p->depth; k--) mark_played(w, b, k, first); /* the playout's */
    for (int i = p->depth; i >= 0; i--) {
        uint32_t v = p->nodes[i];
        if (v != NO_INDEX) {
            lock_node(t, v);
            node *nd = &t->a.nodes[v]; /* make_edge moves edges only: nd stays where it is */
            if (rave && p->visits[i] <= RAVE_PARENT_MAX && p->colours[i] >= 0 && nd->state == NODE_EXPANDED)
                rave_moves(t, w, b, first, v, p->colours[i], i, values);
            if (i < p->depth) visit(t, nd, nd->edges + p->slots[i], values[nd->mover]);
            if (i > 0) {
                nd->played++;
                nd->value += values[nd->player];
                nd->win += shares[nd->player];
                nd->score += scores[nd->player];
            }
            unlock_node(t, v);
        }
        /* the move from node i counts for the nodes above (not for node
         * i's own child on the path, which has its real visit) */
        if (rave && first + i < last) mark_played(w, b, first + i, first);
    }
    for (int k = first; rave && k < last; k++) w->played_by[b->history[k].id] = -1;
}

/* Player p's margin m standardised over the simulations since the root was
 * set (m counted in): (1 + tanh(z)) / 2, z the deviations of m from their
 * running mean (Welford's update), 1/2 while they have not varied. */
static double standard_margin(tree *t, int p, double m)
{
    t->margin_n[p] += 1.0;
    double d = m - t->margin_mean[p];
    t->margin_mean[p] += d / t->margin_n[p];
    t->margin_m2[p] += d * (m - t->margin_mean[p]);
    double var = t->margin_m2[p] / t->margin_n[p];
    return var > 0.0 ? 0.5 + 0.5 * tanh((m - t->margin_mean[p]) / sqrt(var)) : 0.5;
}

/* A finished game's outcome for each of its players: its final score
 * (`scores`), its share of the win (`shares`: what `evaluate` reports) and
 * its side's place (`places`, bk_place_shares_of: the win share with two
 * sides; with more, second place is worth something, as in twogtp's results
 * and Pentobi's playout values).  A side is the players who share one
 * score: a team in classic_teams, else a single player.  It changes nothing
 * of the tree: in a shared tree it runs without the lock. */
static void outcome(const tree *t, const bk_board *b, int *scores, double *shares, double *places)
{
    int64_t wide[BK_MAX_COLOURS];
    int n = bk_player_scores(b, scores);
    for (int p = 0; p < n; p++) wide[p] = scores[p];
    bk_win_shares_of(n, wide, t->side, shares); /* from the scores above, not counted again */
    bk_place_shares_of(n, wide, t->side, places);
}

/* Each player's value of an outcome: its side's place plus a term for its
 * margin over the mean of the other sides (Pentobi's multi-player score).
 * With params.margin = w > 0 the value is (1 - w) place + w
 * standard_margin, as Pentobi's, so that the margin counts at whatever
 * scale the position's margins vary. */
static void playout_values(tree *t, const int *scores, const double *places, double *values)
{
    for (int p = 0, n = t->num_players; p < n; p++) {
        double other = 0.0; /* the mean score of the other sides */
        int others = 0;
        for (int q = 0; q < n; q++)
            if (t->side[q] == q && q != t->side[p]) other += scores[q], others++;
        other = others ? other / others : 0.0;
        double w = t->params.margin;
        if (w > 0.0) {
            values[p] = (1.0 - w) * places[p] + w * standard_margin(t, p, scores[p] - other);
        } else {
            double margin = 0.5 + 0.5 * tanh((scores[p] - other) / MARGIN_SCALE);
            values[p] = (1.0 - MARGIN_WEIGHT) * places[p] + MARGIN_WEIGHT * margin;
        }
    }
}

/* The node edge e leads to, made now when it has none (the player who made
 * its move `player`, `depth` moves below the root); NO_INDEX when the tree
 * may not grow or is out of memory.  The root's children may always be
 * made: their figures are what the search says of its moves. */
static uint32_t child_of(tree *t, uint32_t e, int depth, int player)
{
    uint32_t c = t->a.edges[e].child;
    if (c || (t->full && depth > 1)) return c ? c : NO_INDEX;
    lock_alloc(t);
    c = bk_arena_node(&t->a, player);
    unlock_alloc(t);
    if (c != NO_INDEX) t->a.edges[e].child = c;
    return c;
}

/* Asks for the considered moves and the edges of node nd to be brought
 * into the cache: RAVE reads all its moves after the playout and updates
 * some of its edges, and would otherwise wait for each line of them in turn
 * (the descent and the playout overlap the waits); the selection reads one
 * of the edges at once.  Only for the nodes RAVE updates: those above
 * (more visited) are mostly in the cache, and the root's moves are many. */
static void prefetch_rave(const tree *t, const node *nd)
{
    const uint32_t *moves = t->a.moves + nd->moves;
    for (const char *p = (const char *)moves; p < (const char *)(moves + nd->num_moves); p += 64) __builtin_prefetch(p);
    const edge *es = t->a.edges + nd->edges;
    for (const char *p = (const char *)es; p < (const char *)(es + nd->num_edges); p += 64) __builtin_prefetch(p);
}

/* Asks for the node edge ed leads to and its edges' first line to be
 * brought into the cache while the move is played: the edges' index is
 * read from ed's hint, not from the node, so that the two loads wait
 * together, not one after the other (a tree's descent spends its time
 * waiting on them).  A hint gone stale (the child's edges moved to a larger
 * block, or the tree was pruned), or never set (a shared tree, whose
 * threads do not keep it), costs only a useless prefetch. */
static void prefetch_child(const tree *t, const edge *ed)
{
    if (!ed->child) return;
    __builtin_prefetch(&t->a.nodes[ed->child]);
    if (ed->child_edges >= t->a.edges_room) return;
    __builtin_prefetch(&t->a.stats[ed->child_edges]);
    __builtin_prefetch(&t->a.edges[ed->child_edges]);
}

/* The descent: from the root along the selected edges, expanding a node
 * once visited more often the deeper it is, to a leaf; writes the path.
 * The moves are played lazily: whether the next colour can move is found
 * only where it matters (an expansion looks anyway; an expanded node knows
 * its colour).  In a shared tree it holds each node's lock while there
 * (but while an expansion finds its moves), and a simulation counts as a
 * visit of the root and a lost one of each move as it descends
 * (add_virtual_loss). */
static void descend(tree *t, worker *w, bk_board *b, path *p)
{
    int depth = 0;
    uint32_t v = 0, parent = NO_INDEX; /* parent: the edge to v */
    lock_node(t, 0);
    uint32_t visits = t->root_visits;
    if (t->shared) t->root_visits++;
    p->nodes[0] = 0;
    p->colours[0] = -1;
    p->visits[0] = visits;
    while (b->to_move >= 0) {
        if (t->a.nodes[v].state == NODE_LEAF) {
            double after = EXPAND_AFTER + EXPAND_STEP * depth;
            if (v != 0 && (t->full || visits <= after)) break;
            if (!expand(t, w, v, b)) break;
        }
        const node *nd = &t->a.nodes[v];
        if (nd->state == NODE_TERMINAL) {
            while (b->to_move >= 0) bk_out_of_moves(b); /* the colours left have no move */
            break;
        }
        while (b->to_move != nd->colour) bk_out_of_moves(b); /* those before it have none */
        p->colours[depth] = (int8_t)nd->colour;
        if (t->params.rave > 0.0 && visits <= RAVE_PARENT_MAX && v != 0)
            prefetch_rave(t, nd); /* back_up's RAVE reads them (the root's moves: by its index) */
        uint32_t e = select_edge(t, v, visits);
        if (e == NO_INDEX) break;
        /* where v's edges are now; in a shared tree the edge to v is another node's to change */
        if (parent != NO_INDEX && !t->shared) t->a.edges[parent].child_edges = t->a.nodes[v].edges;
        parent = e;
        prefetch_child(t, &t->a.edges[e]);
        int player = t->a.nodes[v].mover, move = t->a.edges[e].move;
        visits = t->a.edges[e].visits;
        if (t->shared) add_virtual_loss(t, v, e);
        p->slots[depth++] = (uint16_t)(e - t->a.nodes[v].edges);
        p->colours[depth] = -1; /* until known: in a shared tree another thread may expand the node meanwhile */
        p->visits[depth] = visits;
        uint32_t c = p->nodes[depth] = child_of(t, e, depth, player);
        unlock_node(t, v);
        bk_play_rough(b, move);
        if (c == NO_INDEX) {
            p->depth = depth;
            return;
        }
        lock_node(t, c);
        v = c;
    }
    unlock_node(t, v);
    p->depth = depth;
}

/* Whether tree t holds more than its budget or node cap and may prune. */
static int over_budget(tree *t)
{
    lock_alloc(t);
    int over = !t->full && (bk_arena_used(&t->a) > t->budget || t->a.num_nodes > t->node_cap);
    unlock_alloc(t);
    return over;
}

/* Prunes t, whose lock the caller holds, once no simulation is under way:
 * the others finish theirs meanwhile (a tree of one thread has none). */
static void prune(tree *t)
{
    while (atomic_load_explicit(&t->in_flight, memory_order_acquire)) {
        unlock(t);
        sched_yield();
        lock(t);
    }
    if (over_budget(t)) bk_tree_prune(t); /* unless another thread has pruned meanwhile */
}

/* The static evaluation of position b, where the descent along path p
 * ended: kept in the path's last node while it is a leaf, whose simulations
 * all start from its position, so that it is computed once, not at every
 * simulation (a float either way: kept or not, the same value). */
static double leaf_evaluation(tree *t, const path *p, const bk_board *b)
{
    uint32_t v = p->nodes[p->depth];
    float x = 0.0f;
    if (v == NO_INDEX) return (float)bk_evaluation(b);
    lock_node(t, v);
    if (t->a.nodes[v].state == NODE_LEAF) x = t->a.nodes[v].evaluation;
    unlock_node(t, v);
    if (x > 0.0f) return x;
    x = (float)bk_evaluation(b);
    lock_node(t, v);
    if (t->a.nodes[v].state == NODE_LEAF) t->a.nodes[v].evaluation = x; /* in a shared tree: unless expanded meanwhile */
    unlock_node(t, v);
    return x;
}

/* One simulation by worker w, claimed by step(): the descent, the playout,
 * the back-up.  In a shared tree the threads' simulations run side by side,
 * taking the tree's lock only to add the playout's value to its sums. */
static void simulate(tree *t, worker *w)
{
    bk_board b = t->root;
    path route;
    descend(t, w, &b, &route);
    double start = evaluates(t, &b) ? leaf_evaluation(t, &route, &b) : -1.0;
    bk_policy_playout(&b, &w->rng, &w->playout_scratch, w->replies, &t->root_dead);
    double values[BK_MAX_COLOURS], shares[BK_MAX_COLOURS], places[BK_MAX_COLOURS];
    int scores[BK_MAX_COLOURS];
    outcome(t, &b, scores, shares, places);
    if (w->replies) bk_replies_learn(w->replies, &b, t->root.num_moves, shares); /* the moves below the root */
    lock(t);
    playout_values(t, scores, places, values);
    if (start >= 0.0) mix_evaluation(t, start, values);
    for (int p = 0; p < t->num_players; p++) {
        t->player_wins[p] += shares[p];
        t->player_values[p] += values[p];
        t->player_scores[p] += scores[p];
    }
    if (!t->shared) t->root_visits++;
    t->simulations++;
    t->played++;
    unlock(t);
    back_up(t, w, &b, &route, values, shares, scores);
    if (t->shared) atomic_fetch_sub_explicit(&t->in_flight, 1, memory_order_release);
}

/* How often (in simulations) a tree asks whether its share may end early. */
#define SETTLE_EVERY 16

/* Whether t's most visited root move leads the next by more than
 * params.early_stop times the simulations left of its share: then the rest
 * is spent elsewhere (the move cannot change when early_stop is 1, as the
 * search plays its most visited move; Pentobi stops its searches so too). */
static int settled(tree *t)
{
    if (t->params.early_stop <= 0.0 || t->target == INT64_MAX) return 0;
    lock_node(t, 0);
    const node *root = &t->a.nodes[0];
    uint32_t best = 0, next = 0;
    for (uint32_t i = 0; root->state == NODE_EXPANDED && i < root->num_edges; i++) {
        uint32_t v = t->a.edges[root->edges + i].visits;
        if (v > best) {
            next = best;
            best = v;
        } else if (v > next) {
            next = v;
        }
    }
    unlock_node(t, 0);
    return best > 0 && (double)(best - next) > t->params.early_stop * (double)(t->target - t->claimed);
}

/* One simulation of t's share by worker w, or none once its share is done
 * (ended early by settled()); nonzero while there is more of it. */
static int step(tree *t, worker *w)
{
    lock(t);
    if (t->claimed % SETTLE_EVERY == 0 && settled(t)) t->target = t->claimed;
    int more = t->claimed < t->target;
    if (more) {
        t->claimed++;
        if (over_budget(t)) prune(t);
        if (t->shared) atomic_fetch_add_explicit(&t->in_flight, 1, memory_order_relaxed);
        expect(t, w);
    }
    unlock(t);
    if (more) simulate(t, w);
    return more;
}

static void *run_job(void *arg)
{
    job *j = arg;
    while (!atomic_load_explicit(j->t->stop, memory_order_relaxed) && step(j->t, j->w)) continue;
    return NULL;
}

/* Root parallelisation: the trees share nothing, so they need no locks, and
 * each tree's simulations depend only on its own seed and share, not on how
 * the threads were scheduled.  The threads run their shares without waiting
 * for each other (on a busy machine, a thread that waited at every chunk for
 * a descheduled one would lose its core's time).  A shared tree's share is
 * the whole search, which its threads take simulation by simulation. */
void bk_mcts_start(bk_mcts *s, int64_t n)
{
    int64_t each = n / s->num_trees, extra = n % s->num_trees;
    atomic_store(&s->stop, 0);
    for (int k = 0; k < s->num_trees; k++) /* the first tree gets any extra first: it runs at least one */
        s->trees[k]->target = n ? s->trees[k]->claimed + each + (k < extra) : INT64_MAX;
    for (int k = 1; k < s->num_workers; k++)
        s->started[k] = pthread_create(&s->threads[k], NULL, run_job, &s->jobs[k]) == 0;
}

int64_t bk_mcts_run(bk_mcts *s, int64_t n)
{
    tree *t = s->jobs[0].t;
    for (int64_t i = 0; i < n && step(t, s->jobs[0].w); i++) continue;
    lock(t);
    int64_t left = t->target - t->claimed;
    unlock(t);
    return left;
}

void bk_mcts_finish(bk_mcts *s, int stop)
{
    if (stop) atomic_store(&s->stop, 1);
    for (int k = 1; k < s->num_workers; k++) {
        if (s->started[k])
            pthread_join(s->threads[k], NULL);
        else if (!s->jobs[k].t->shared && s->jobs[k].t->target < INT64_MAX)
            run_job(&s->jobs[k]); /* no thread to be had: its tree's share runs here (none once stopped);
                                   * a shared tree's work was taken by the other threads */
        s->started[k] = 0;
    }
}

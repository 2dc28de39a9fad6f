/* The search: growing the trees and running their simulations on threads;
 * see mcts.h.  The statistics read from them are in mcts_result.c. */
#define _POSIX_C_SOURCE 200809L /* pthreads */
#include "engine/mcts_tree.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/score.h"
#include "engine/prior.h"

/* Weight of the score margin in a playout's value when params.margin is 0:
 * small, so that winning always counts for more than winning by more. */
#define MARGIN_WEIGHT 0.1
#define MARGIN_SCALE 20.0 /* squares: a margin this large is worth ~76% of MARGIN_WEIGHT */

#define INIT_COUNT 3.0f     /* the weight of a new child's initial value, from its prior */
#define TIE_VALUE 0.5        /* the value expected before any simulation */
#define EXPAND_AFTER 1.0     /* visits beyond which a node is expanded (the root: at once) */
#define EXPAND_STEP 0.5      /* and more for each move below the root */
#define RAVE_PARENT_MAX 25000 /* visits beyond which a node's children get no more RAVE updates */
#define RAVE_CHILD_MAX 2000.0f /* count beyond which a child gets none */
#define RAVE_WEIGHT_MAX 1e30   /* weight of a RAVE update at most: see update_rave */
#define TRY_ALL_AFTER 16     /* visits per child beyond which a node tries its unvisited children */
/* The prior is fitted to the moves Pentobi chose; the search plays better
 * with it flatter (decided by matches against Pentobi: benchmarks/README.md). */
#define PRIOR_TEMPERATURE 2.5

bk_mcts_params bk_mcts_defaults(void)
{
    return (bk_mcts_params){.exploration = 0.5, .prior_temperature = PRIOR_TEMPERATURE, .rave = 0.3,
                            .max_nodes = 1 << 22, .margin = 0.375, .replies = 1, .early_stop = 0.0};
}

/* Room for `capacity` nodes and their results in t (its old arrays freed
 * unless kept); 0 when out of memory, t unchanged. */
static int allocate(tree *t, int64_t capacity, int keep)
{
    if ((uint64_t)capacity > SIZE_MAX / sizeof(node)) return 0; /* where size_t is 32 bits */
    node *nodes = keep ? realloc(t->nodes, (size_t)capacity * sizeof *nodes)
                       : malloc((size_t)capacity * sizeof *nodes);
    if (!nodes) return 0;
    if (keep) t->nodes = nodes;
    node_result *results = keep ? realloc(t->results, (size_t)capacity * sizeof *results)
                                : malloc((size_t)capacity * sizeof *results);
    if (!results) {
        if (!keep) free(nodes);
        return 0;
    }
    if (!keep) {
        free(t->nodes);
        free(t->results);
        t->nodes = nodes;
    }
    t->results = results;
    t->capacity = capacity;
    return 1;
}

#define INITIAL_NODES 1024

/* Makes the root of t the position `root` with no simulations (t->nodes
 * allocated, or NULL on entry). */
static int reset(tree *t, const bk_board *root)
{
    if (!allocate(t, INITIAL_NODES, 0)) return 0;
    t->root = *root;
    t->nodes[0] = (node){0};
    t->results[0] = (node_result){0};
    t->num_nodes = 1;
    t->simulations = 0;
    t->full = 0;
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

/* A tree from a copy of `root` drawing from stream (seed, stream); NULL when
 * out of memory. */
static tree *tree_new(const bk_board *root, const bk_mcts_params *params, uint64_t seed, int stream)
{
    tree *t = calloc(1, sizeof *t); /* the sums start at 0 */
    if (!t) return NULL;
    t->params = *params;
    bk_rng_seed(&t->rng, seed, (uint64_t)stream);
    t->num_players = bk_player_sides(root->variant, t->side);
    memset(t->played_by, -1, sizeof t->played_by);
    if (params->replies) {
        if (!(t->replies = malloc(sizeof *t->replies))) {
            free(t);
            return NULL;
        }
        bk_replies_clear(t->replies);
    }
    if (!reset(t, root)) {
        free(t->replies);
        free(t);
        return NULL;
    }
    return t;
}

static void tree_free(tree *t)
{
    if (!t) return;
    free(t->results);
    free(t->nodes);
    free(t->replies);
    free(t);
}

bk_mcts *bk_mcts_new(const bk_board *root, const bk_mcts_params *params, uint64_t seed, int threads)
{
    if (threads < 1 || threads > BK_MCTS_MAX_THREADS) return NULL;
    bk_mcts *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->trees = calloc((size_t)threads, sizeof *s->trees);
    if (!s->trees) {
        free(s);
        return NULL;
    }
    bk_mcts_params own = *params; /* max_nodes is for the whole search: each tree gets its part */
    own.max_nodes = params->max_nodes / threads > 0 ? params->max_nodes / threads : 1;
    atomic_init(&s->stop, 0);
    for (s->num_trees = 0; s->num_trees < threads; s->num_trees++) {
        if (!(s->trees[s->num_trees] = tree_new(root, &own, seed, s->num_trees))) {
            bk_mcts_free(s);
            return NULL;
        }
        s->trees[s->num_trees]->stop = &s->stop;
    }
    return s;
}

void bk_mcts_free(bk_mcts *s)
{
    if (!s) return;
    for (int k = 0; k < s->num_trees; k++) tree_free(s->trees[k]);
    free(s->trees);
    free(s);
}

int64_t bk_mcts_simulations(const bk_mcts *s)
{
    int64_t n = 0;
    for (int k = 0; k < s->num_trees; k++) n += s->trees[k]->simulations;
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
        const node *children = t->nodes + t->nodes[v].first_child;
        int n = t->nodes[v].first_child ? t->nodes[v].num_children : 0, k = 0;
        while (k < n && children[k].move != b->history[i].id) k++;
        if (k == n) return 0;
        v = t->nodes[v].first_child + (uint32_t)k;
    }
    return v;
}

/* Makes node `top` (reached by the moves of b) the root of t: its subtree
 * is copied, breadth first so that siblings stay together, to the front of
 * fresh arrays, and the rest freed; 0 when out of memory, t unchanged. */
static int keep_subtree(tree *t, uint32_t top, const bk_board *b)
{
    node *old = t->nodes;
    node_result *old_results = t->results;
    int64_t old_capacity = t->capacity;
    /* every descendant of top was made after it: there are at most this many */
    int64_t most = t->num_nodes - top, capacity = most > INITIAL_NODES ? most : INITIAL_NODES;
    t->nodes = NULL;
    t->results = NULL;
    if (!allocate(t, capacity, 0)) {
        t->nodes = old;
        t->results = old_results;
        t->capacity = old_capacity;
        return 0;
    }
    t->nodes[0] = old[top];
    t->results[0] = old_results[top];
    int64_t n = 1;
    for (int64_t i = 0; i < n; i++) {
        node *v = &t->nodes[i];
        if (!v->first_child) continue;
        for (int k = 0; k < v->num_children; k++) { /* the children keep their old indices until copied */
            t->nodes[n + k] = old[v->first_child + k];
            t->results[n + k] = old_results[v->first_child + k];
        }
        v->first_child = (uint32_t)n;
        n += v->num_children;
    }
    free(old);
    free(old_results);
    t->num_nodes = n;
    t->full = 0;
    t->root = *b;
    int64_t below = 0; /* the root's own first visit was a leaf's playout, behind no child */
    for (int k = 0; t->nodes[0].first_child && k < t->nodes[0].num_children; k++)
        below += t->nodes[t->nodes[0].first_child + k].visits;
    t->nodes[0].visits = (uint32_t)below;
    t->simulations = below;
    return 1;
}

int64_t bk_mcts_advance(bk_mcts *s, const bk_board *b, uint64_t seed)
{
    int64_t kept = 0;
    for (int k = 0; k < s->num_trees; k++) {
        tree *t = s->trees[k];
        if (follows(t, b) && b->num_moves == t->root.num_moves) {
            t->root = *b; /* the same position: the whole tree */
        } else {
            uint32_t top = follows(t, b) ? node_of(t, b) : 0;
            if (!(top && keep_subtree(t, top, b)) && !reset(t, b)) return -1;
        }
        bk_rng_seed(&t->rng, seed, (uint64_t)k);
        restart_players(t);
        kept += t->simulations;
    }
    return kept;
}

/* Room for n more nodes; 0 when the tree may not or cannot grow.  The
 * root's children are always allowed: without them there is no move. */
static int reserve(tree *t, int64_t n, int is_root)
{
    int64_t need = t->num_nodes + n;
    if (!is_root && need > t->params.max_nodes) return 0;
    if (need <= t->capacity) return 1;
    int64_t capacity = t->capacity;
    while (capacity < need) capacity *= 2;
    if (capacity > t->params.max_nodes) capacity = need > t->params.max_nodes ? need : t->params.max_nodes;
    return allocate(t, capacity, 1);
}

#define PRIOR_BUCKETS 128 /* half-octaves of the prior below the highest: 1 .. 2^-64 */

/* Orders moves by the prior (bk_tree_priors), highest first: a shuffle,
 * then a counting sort on the half-octave of the prior over the highest, so
 * that moves of about the same prior come in random order (the selection
 * prefers the first of equals).  Returns how many have a positive prior:
 * those come first, with their priors over the highest in
 * t->ordered_priors; the rest (bucket PRIOR_BUCKETS) are not to be
 * considered.  bk_tree_priors gives the best move a prior of 1, so at least
 * one move is considered: a node is never expanded without children. */
static int order_by_prior(tree *t, const bk_board *b, uint16_t *moves, int n, uint16_t *out)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bk_rng_below(&t->rng, (uint32_t)i + 1);
        uint16_t m = moves[i];
        moves[i] = moves[j];
        moves[j] = m;
    }
    bk_tree_priors(b, moves, n, t->params.prior_temperature, t->priors);
    int start[PRIOR_BUCKETS + 2] = {0}, considered = 0;
    for (int i = 0; i < n; i++) {
        int k = PRIOR_BUCKETS;
        if (t->priors[i] > 0.0f) {
            k = -(int)floorf(2.0f * log2f(t->priors[i])); /* 0 for the highest */
            k = k >= PRIOR_BUCKETS ? PRIOR_BUCKETS - 1 : k;
            considered++;
        }
        t->bucket[i] = (uint8_t)k;
        start[k + 1]++;
    }
    for (int k = 0; k <= PRIOR_BUCKETS; k++) start[k + 1] += start[k];
    for (int i = 0; i < n; i++) {
        int j = start[t->bucket[i]]++;
        out[j] = moves[i];
        t->ordered_priors[j] = t->priors[i];
    }
    assert(considered > 0);
    return considered;
}

/* The value player p expects here: its mean over the simulations since the
 * root was set, the tie value before there are any. */
static float expected_value(const tree *t, int p)
{
    return t->played ? (float)(t->player_values[p] / (double)t->played) : (float)TIE_VALUE;
}

/* Makes the children of node v, whose position is b (a colour is to move);
 * returns 0 when the tree cannot grow.  Each child starts with a value of
 * INIT_COUNT weight: the value the mover expects, scaled by the square root
 * of its prior over the best prior (Pentobi's initialisation), so that the
 * moves the prior likes least are hardly tried before the search has found
 * the others bad. */
static int expand(tree *t, uint32_t v, const bk_board *b)
{
    int n = bk_gen_moves(b, b->to_move, t->moves);
    assert(n > 0); /* a colour to move has a move: the descent passes for those that have none */
    if (!reserve(t, n, v == 0)) return 0;
    n = order_by_prior(t, b, t->moves, n, t->ordered);
    uint8_t player = (uint8_t)bk_player_of_colour(b, b->to_move);
    float sum = 0.0f, expected = expected_value(t, player);
    for (int i = 0; i < n; i++) sum += t->ordered_priors[i];
    node *children = t->nodes + t->num_nodes;
    for (int i = 0; i < n; i++) {
        float p = t->ordered_priors[i];
        children[i] = (node){.move = t->ordered[i], .player = player, .prior = p / sum,
                             .value = expected * sqrtf(p), .count = INIT_COUNT,
                             .urgency = p / sum / INIT_COUNT};
        t->results[t->num_nodes + i] = (node_result){0};
    }
    t->nodes[v].first_child = (uint32_t)t->num_nodes;
    t->nodes[v].num_children = (uint16_t)n;
    t->num_nodes += n;
    return 1;
}

/* The child of v to descend to: the highest value plus the exploration
 * term c P sqrt(N) log(N + 1) / n, P its prior share, N the visits of v and
 * n its count (AlphaGo's term with Pentobi's log factor).  Once v has
 * TRY_ALL_AFTER visits per child, a child never visited comes first (the
 * first in prior order): a move the prior dislikes, such as the one small
 * piece that wins an endgame, is tried at last. */
static uint32_t select_child(const tree *t, const node *v)
{
    const node *children = t->nodes + v->first_child;
    double parent = (double)v->visits;
    /* at most FLT_MAX (urgency <= 1): a huge exploration then ranks by
     * urgency, its limit, where infinity would tie every child at the first */
    float explore = (float)fmin(t->params.exploration * sqrt(parent) * log(parent + 1.0), FLT_MAX), best = -1.0f;
    int choice = 0, try_all = parent > (double)TRY_ALL_AFTER * v->num_children;
    for (int i = 0; i < v->num_children; i++) {
        if (try_all && children[i].visits == 0) return v->first_child + (uint32_t)i;
        float x = children[i].value + explore * children[i].urgency;
        if (x > best) {
            best = x;
            choice = i;
        }
    }
    return v->first_child + (uint32_t)choice;
}

/* Adds value x of weight w to the mean of node nd. */
static void add_value(node *nd, double x, float w)
{
    nd->count += w;
    nd->value += (float)(w * (x - nd->value) / nd->count);
    nd->urgency = nd->prior / nd->count;
}

/* RAVE (all moves as first): every child of a node on the path gains the
 * simulation's value as if it had been played there, when its colour played
 * that placement later in the simulation, weighted the more the sooner it did
 * (weight w (1 - d / r), d the moves from the node to the first such play and
 * r the moves from the node to the end), while the node has few visits and
 * the child a small count.  `colours`: the colour to move at each node of
 * the path.  The moves of the simulation are b's history from the root's on. */
static void update_rave(tree *t, const bk_board *b, const uint32_t *path, const int8_t *colours, uint32_t depth,
                        const double *values)
{
    int first = t->root.num_moves, last = b->num_moves; /* history index of the root's move, and the end */
    int8_t *played_by = t->played_by;
    int16_t *first_play = t->first_play;
    /* A weight beyond RAVE_WEIGHT_MAX would change nothing: a child's count
     * before an update is at most RAVE_CHILD_MAX, so its mean becomes the
     * update's value already; as a float's infinity it would become NaN
     * (inf / inf). */
    float rave = (float)fmin(t->params.rave, RAVE_WEIGHT_MAX);
    for (int k = last - 1; k >= first + (int)depth - 1; k--) { /* the playout's moves */
        played_by[b->history[k].id] = b->history[k].colour;
        first_play[b->history[k].id] = (int16_t)(k - first);
    }
    for (int i = (int)depth - 1; i >= 0; i--) {
        const node *v = &t->nodes[path[i]];
        if (v->visits > RAVE_PARENT_MAX) break; /* and so every node above */
        if (v->first_child) {
            node *children = t->nodes + v->first_child;
            float rest = 1.0f / (float)(last - first - i);
            for (int c = 0; c < v->num_children; c++) {
                int id = children[c].move;
                if (played_by[id] != colours[i] || children[c].count > RAVE_CHILD_MAX) continue;
                float w = rave * (1.0f - (float)(first_play[id] - i) * rest);
                add_value(&children[c], values[children[c].player], w);
            }
        }
        /* the move from node i, at index i, counts for the nodes above (not
         * for node i's own child on the path, which has its real visit) */
        if (first + i < last) {
            played_by[b->history[first + i].id] = b->history[first + i].colour;
            first_play[b->history[first + i].id] = (int16_t)i;
        }
    }
    for (int k = first; k < last; k++) played_by[b->history[k].id] = -1;
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

/* Each player's value of a finished game: its side's share of the win
 * (`shares`), plus a term for its margin over the best other side.  A side
 * is the players who share one score: a team in classic_teams, else a single
 * player.  `scores`: each player's final score.  With params.margin = w > 0
 * the value is (1 - w) share + w standard_margin, as Pentobi's, so that the
 * margin counts at whatever scale the position's margins vary. */
static void playout_values(tree *t, const bk_board *b, double *values, double *shares, int *scores)
{
    int n = bk_player_scores(b, scores);
    bk_win_shares(b, shares);
    for (int p = 0; p < n; p++) {
        int other = INT32_MIN;
        for (int q = 0; q < n; q++)
            if (t->side[q] != t->side[p] && scores[q] > other) other = scores[q];
        double w = t->params.margin;
        if (w > 0.0) {
            values[p] = (1.0 - w) * shares[p] + w * standard_margin(t, p, scores[p] - other);
        } else {
            double margin = 0.5 + 0.5 * tanh((scores[p] - other) / MARGIN_SCALE);
            values[p] = (1.0 - MARGIN_WEIGHT) * shares[p] + MARGIN_WEIGHT * margin;
        }
    }
}

static void simulate(tree *t)
{
    bk_board b = t->root;
    uint32_t path[BK_MAX_HISTORY + 2], depth = 0, v = 0;
    int8_t colours[BK_MAX_HISTORY + 2];
    path[depth++] = 0;
    for (;;) {
        if (b.to_move < 0) break;
        if (t->nodes[v].first_child == 0) {
            double after = EXPAND_AFTER + EXPAND_STEP * (depth - 1);
            if (t->full || (v != 0 && t->nodes[v].visits <= after)) break;
            if (!expand(t, v, &b)) {
                t->full = 1;
                break;
            }
        }
        colours[depth - 1] = (int8_t)b.to_move;
        v = select_child(t, &t->nodes[v]);
        bk_play_unchecked(&b, t->nodes[v].move);
        path[depth++] = v;
    }
    bk_policy_playout(&b, &t->rng, &t->playout_scratch, t->replies);
    double values[BK_MAX_COLOURS], shares[BK_MAX_COLOURS];
    int scores[BK_MAX_COLOURS];
    playout_values(t, &b, values, shares, scores);
    if (t->replies) bk_replies_learn(t->replies, &b, t->root.num_moves, shares); /* the moves below the root */
    for (int p = 0; p < t->num_players; p++) {
        t->player_wins[p] += shares[p];
        t->player_values[p] += values[p];
        t->player_scores[p] += scores[p];
    }
    if (t->params.rave > 0.0) update_rave(t, &b, path, colours, depth, values);
    for (uint32_t i = 0; i < depth; i++) {
        node *nd = &t->nodes[path[i]];
        nd->visits++;
        add_value(nd, values[nd->player], 1.0f);
        t->results[path[i]].value += values[nd->player];
        t->results[path[i]].win += shares[nd->player];
        t->results[path[i]].score += scores[nd->player];
    }
    t->simulations++;
    t->played++;
}

/* How often (in simulations) a tree asks whether its share may end early. */
#define SETTLE_EVERY 16

/* Whether t's most visited root move leads the next by more than
 * params.early_stop times the simulations left of its share: then the rest
 * is spent elsewhere (the move cannot change when early_stop is 1, as the
 * search plays its most visited move; Pentobi stops its searches so too). */
static int settled(const tree *t)
{
    const node *root = &t->nodes[0];
    if (t->params.early_stop <= 0.0 || !root->first_child || t->target == INT64_MAX) return 0;
    uint32_t best = 0, next = 0;
    for (uint32_t i = 0; i < root->num_children; i++) {
        uint32_t v = t->nodes[root->first_child + i].visits;
        if (v > best) {
            next = best;
            best = v;
        } else if (v > next) {
            next = v;
        }
    }
    return (double)(best - next) > t->params.early_stop * (double)(t->target - t->simulations);
}

/* One simulation of t's share, or none once its share is done (ended early
 * by settled()); nonzero while there is more of it. */
static int step(tree *t)
{
    if (t->simulations % SETTLE_EVERY == 0 && settled(t)) t->target = t->simulations;
    if (t->simulations >= t->target) return 0;
    simulate(t);
    return 1;
}

static void *run_tree(void *arg)
{
    tree *t = arg;
    while (!atomic_load_explicit(t->stop, memory_order_relaxed) && step(t)) continue;
    return NULL;
}

/* Root parallelisation: the trees share nothing, so they need no locks, and
 * each tree's simulations depend only on its own seed and share, not on how
 * the threads were scheduled.  The threads run their shares without waiting
 * for each other (on a busy machine, a thread that waited at every chunk for
 * a descheduled one would lose its core's time). */
void bk_mcts_start(bk_mcts *s, int64_t n)
{
    int64_t each = n / s->num_trees, extra = n % s->num_trees;
    atomic_store(&s->stop, 0);
    for (int k = 0; k < s->num_trees; k++) /* the first tree gets any extra first: it runs at least one */
        s->trees[k]->target = n ? s->trees[k]->simulations + each + (k < extra) : INT64_MAX;
    for (int k = 1; k < s->num_trees; k++)
        s->started[k] = pthread_create(&s->threads[k], NULL, run_tree, s->trees[k]) == 0;
}

int64_t bk_mcts_run(bk_mcts *s, int64_t n)
{
    tree *t = s->trees[0];
    for (int64_t i = 0; i < n && step(t); i++) continue;
    return t->target - t->simulations;
}

void bk_mcts_finish(bk_mcts *s, int stop)
{
    if (stop) atomic_store(&s->stop, 1);
    for (int k = 1; k < s->num_trees; k++) {
        if (s->started[k])
            pthread_join(s->threads[k], NULL);
        else if (s->trees[k]->target < INT64_MAX)
            run_tree(s->trees[k]); /* no thread to be had: its share runs here (none once stopped) */
        s->started[k] = 0;
    }
}

/* How many of a search tree's positions the tree holds more than once:
 * transpositions, the same placements reached in another order.  The tree
 * of csrc/engine/mcts_tree.h keeps one node per path; this counts what a
 * search that shared nodes between paths would share.
 *
 * Build (what `make -C benchmarks` does), from the repository root:
 *   cc -std=c11 -O3 -mpopcnt -Wall -Wextra -Icsrc -o benchmarks/tree_transpositions \
 *      benchmarks/tree_transpositions.c csrc/core/[a-z]*.c csrc/engine/[a-z]*.c -lm -lpthread
 * (-mpopcnt on x86-64 only)
 *
 * Usage: tree_transpositions [GAMES [SIMULATIONS [PLIES ...]]]
 *   GAMES        self-play games whose positions are searched (default 4)
 *   SIMULATIONS  of each search (default 160000, about Pentobi level 7's budget)
 *   PLIES        the positions searched: after this many plies of each
 *                game (default 2 10 14 20)
 *
 * The games: Duo, fixed starts, every move the most visited of a new search
 * of 3000 simulations (bk_mcts_defaults(), one thread, seed g for game g =
 * 1, 2, ...), so the positions depend on the code alone.  Each position is
 * searched with the defaults, one thread, seed 1; then the tree is walked
 * from its root, replaying each edge's placement to a board whose cells and
 * colour to move identify the position (Zobrist key).  Printed per position:
 * the nodes and the share of them whose position another node holds too,
 * that share weighted by the visits of the edge into each node; then per
 * number of plies, over the games, the share by depth below the root.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/board.h"
#include "core/init.h"
#include "core/play.h"
#include "engine/mcts.h"
#include "engine/mcts_tree.h"
#include "engine/playout_policy.h"
#include "engine/prior.h"

#define SEED 1 /* of the searches of the positions */
#define GAME_SIMULATIONS 3000
#define MAX_PLIES 60
#define MAX_DEPTH 16 /* depths printed; deeper nodes count in the last */

/* A node of the walked tree: its position's key, its depth and the visits of the edge into it. */
typedef struct {
    uint64_t key;
    int depth;
    uint32_t visits;
} visited;

typedef struct {
    visited *nodes;
    int64_t n;
} walk_list;

static void walk(const tree *t, uint32_t v, const bk_board *b, int depth, uint32_t visits, walk_list *out)
{
    /* the key is of the cells alone: with the colour to move, the same cells after a pass differ */
    out->nodes[out->n++] = (visited){bk_key(b) * 0x9E3779B97F4A7C15ull + (uint64_t)b->to_move, depth, visits};
    const node *nd = &t->a.nodes[v];
    if (nd->state != NODE_EXPANDED) return;
    for (int i = 0; i < nd->num_edges; i++) {
        const edge *e = &t->a.edges[nd->edges + i];
        if (!e->child) continue; /* never gone through, or pruned */
        bk_board child = *b;
        bk_play_lazy(&child, e->move); /* as the search's descent plays it, the key kept (its bk_play_rough does not) */
        walk(t, e->child, &child, depth + 1, e->visits, out);
    }
}

static int by_key(const void *x, const void *y)
{
    uint64_t a = ((const visited *)x)->key, b = ((const visited *)y)->key;
    return a < b ? -1 : a > b;
}

/* A search of b with the defaults on one thread, run to its end. */
static bk_mcts *search(const bk_board *b, long simulations, uint64_t seed)
{
    bk_mcts_params params = bk_mcts_defaults();
    bk_mcts *t = bk_mcts_new(b, &params, seed, 1);
    if (!t) {
        fprintf(stderr, "bk_mcts_new: out of memory\n");
        exit(1);
    }
    bk_mcts_start(t, simulations);
    while (bk_mcts_run(t, 1 << 30) > 0) continue;
    bk_mcts_finish(t, 0);
    return t;
}

/* Per number of plies: nodes by depth, and those held more than once. */
typedef struct {
    int64_t nodes[MAX_DEPTH], shared[MAX_DEPTH];
} by_depth;

static void report(const bk_board *b, int game, int plies, long simulations, by_depth *out)
{
    bk_mcts *s = search(b, simulations, SEED);
    const tree *t = s->trees[0];
    walk_list w = {malloc((size_t)t->a.num_nodes * sizeof *w.nodes), 0};
    if (!w.nodes) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    walk(t, 0, b, 0, (uint32_t)simulations, &w);
    qsort(w.nodes, (size_t)w.n, sizeof *w.nodes, by_key);
    int64_t all = 0, all_shared = 0;
    double visits = 0, shared_visits = 0;
    for (int64_t i = 0; i < w.n; i++) {
        int again = (i > 0 && w.nodes[i].key == w.nodes[i - 1].key) ||
                    (i + 1 < w.n && w.nodes[i].key == w.nodes[i + 1].key);
        int d = w.nodes[i].depth < MAX_DEPTH ? w.nodes[i].depth : MAX_DEPTH - 1;
        out->nodes[d]++, all++;
        out->shared[d] += again, all_shared += again;
        visits += w.nodes[i].visits;
        shared_visits += again ? w.nodes[i].visits : 0;
    }
    printf("game %d, after %2d plies: %6lld nodes, %5.1f%% of them held more than once (%5.1f%% weighted by visits)\n",
           game, plies, (long long)all, 100.0 * (double)all_shared / (double)all, 100.0 * shared_visits / visits);
    fflush(stdout);
    free(w.nodes);
    bk_mcts_free(s);
}

static void print_depths(int plies, const by_depth *d)
{
    printf("after %d plies, all games: by depth below the root, nodes and the share held more than once\n", plies);
    for (int k = 0; k < MAX_DEPTH; k++)
        if (d->nodes[k])
            printf("  depth %2d%s %7lld  %5.1f%%\n", k, k == MAX_DEPTH - 1 ? "+" : ":", (long long)d->nodes[k],
                   100.0 * (double)d->shared[k] / (double)d->nodes[k]);
}

int main(int argc, char **argv)
{
    const char *error = bk_init();
    if (error) {
        fprintf(stderr, "bk_init: %s\n", error);
        return 1;
    }
    bk_prior_init();
    bk_playout_policy_init(); /* the playouts' piece weights */
    int games = argc > 1 ? atoi(argv[1]) : 4;
    long simulations = argc > 2 ? atol(argv[2]) : 160000;
    int plies[MAX_PLIES], num_plies = 0;
    for (int i = 3; i < argc && num_plies < MAX_PLIES; i++) plies[num_plies++] = atoi(argv[i]);
    if (num_plies == 0) {
        static const int defaults[] = {2, 10, 14, 20};
        for (; num_plies < 4; num_plies++) plies[num_plies] = defaults[num_plies];
    }
    if (games < 1 || simulations < 1) {
        fprintf(stderr, "usage: tree_transpositions [GAMES [SIMULATIONS [PLIES ...]]]\n");
        return 2;
    }
    static by_depth depths[MAX_PLIES];
    printf("Duo, searches of %ld simulations (defaults, one thread, seed %d)\n", simulations, SEED);
    for (int game = 1; game <= games; game++) {
        bk_board b;
        bk_board_init(&b, BK_DUO, BK_START_FIXED);
        for (int ply = 0, k = 0; k < num_plies && b.to_move >= 0; ply++) {
            for (int j = 0; j < num_plies; j++)
                if (plies[j] == ply) report(&b, game, ply, simulations, &depths[j]), k++;
            bk_mcts *t = search(&b, GAME_SIMULATIONS, (uint64_t)game);
            int id; /* the move to play: the principal variation's first */
            int found = bk_mcts_principal_variation(t, &id, 1);
            bk_mcts_free(t);
            if (found < 1 || bk_play(&b, id) != BK_OK) {
                fprintf(stderr, "game %d: its move %d failed\n", game, ply);
                return 1;
            }
        }
    }
    for (int j = 0; j < num_plies; j++) print_depths(plies[j], &depths[j]);
    return 0;
}

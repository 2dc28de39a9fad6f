/* Batched PUCT search with an outside evaluator (AlphaZero's search, as
 * DeepMind's mctx and OpenSpiel serve it): for B games at once, each
 * simulation descends its game's tree by PUCT and stops at the leaf that
 * needs an evaluation; the caller evaluates the pending leaves of all games
 * together (a network, in one batch) and hands back their priors and
 * values, which expand the leaves and are backed up; then the next
 * simulations descend.  Positions where the game is over are valued from
 * their final scores at once, without the caller.
 *
 * Values are per player, in [0, 1] (a share of the win), so 2, 3 and 4
 * players and teams work alike: each node sums every player's values, and
 * a parent picks its child by the value for the player to move at the
 * parent.  Selection at a node s with N visits picks the legal move a with
 * the largest
 *     Q(s, a) + c_puct * P(s, a) * sqrt(N) / (1 + N(s, a)),
 * ties to the lowest placement id, where Q(s, a) is the child's mean value
 * for the player to move at s, or, for a child never visited, the first-play
 * urgency (fpu, or the parent's own mean value for that player when fpu < 0).
 * N counts the node's own evaluation, so the priors decide the first visit.
 *
 * The root is evaluated first, on its own; then every simulation adds one
 * visit to one of the root's children, so the root's child visits sum to
 * `simulations` at the end.  When the root is expanded, Dirichlet noise may
 * be mixed into its priors: (1 - fraction) * P + fraction * Dir(alpha),
 * drawn from the game's own random stream (seed, game index), so every game
 * is reproducible by itself whatever the batch. */
#ifndef BK_BATCHED_SEARCH_H
#define BK_BATCHED_SEARCH_H

#include <stddef.h>

#include "core/board.h"

typedef struct {
    int simulations;           /* per game, >= 1 */
    double c_puct;             /* >= 0 and finite */
    double fpu;                /* value of an unvisited child in [0, 1]; < 0: the parent's mean value */
    double dirichlet_alpha;    /* > 0 and finite when fraction > 0 (any such: see add_noise) */
    double dirichlet_fraction; /* in [0, 1]; 0: no noise */
} bk_bsearch_params;

typedef struct bk_bsearch bk_bsearch;

/* A search of n >= 1 games of `variant`, their roots still to be given by
 * bk_bsearch_set_root; NULL when out of memory.  It reserves
 * bk_bsearch_reserved_bytes(n, simulations) at once (the nodes of every
 * simulation: address space, which becomes memory as the simulations use
 * it), then 12 bytes per legal move of each position it expands (in a
 * chunk of 48 KB, then chunks of 48 MB of address space, which become
 * memory as they fill).  Nothing is pending until bk_bsearch_descend. */
bk_bsearch *bk_bsearch_new(int variant, int64_t n, const bk_bsearch_params *params, uint64_t seed);
/* The bytes bk_bsearch_new reserves for n games of `simulations` each:
 * per game its state (two boards, about 5.4 KB) and 48 bytes per
 * simulation and for the root; SIZE_MAX when that is more than a size_t. */
size_t bk_bsearch_reserved_bytes(int64_t n, int simulations);
/* Game i's root: a copy of *root, a board of the search's variant that is
 * not over.  Every game needs one before the first bk_bsearch_descend. */
void bk_bsearch_set_root(bk_bsearch *s, int64_t i, const bk_board *root);
void bk_bsearch_free(bk_bsearch *s);

/* Runs the simulations of games lo .. hi - 1 that wait to descend, until
 * each stops at a leaf to evaluate (pending) or has run all its
 * simulations.  BK_ERR_NO_MEMORY when a tree cannot grow: that game stays
 * waiting and may be retried. */
bk_status bk_bsearch_descend(bk_bsearch *s, int64_t lo, int64_t hi);

int64_t bk_bsearch_num_games(const bk_bsearch *s);
/* Games with a leaf waiting for its evaluation. */
int64_t bk_bsearch_num_pending(const bk_bsearch *s);
/* Games waiting to descend (after bk_bsearch_evaluate, or when a descent
 * was cut short). */
int64_t bk_bsearch_num_waiting(const bk_bsearch *s);

/* Describes the pending leaves, in game order, K = bk_bsearch_num_pending
 * rows: games (K) their game index; observation (K x planes x side x side,
 * bk_observation of the colour to move at the leaf); remaining (K x
 * colours x BK_NUM_PIECES, 1 for a piece in hand: the colour to move's
 * first, then the others' in turn order); mask (K x num_placements, zeroed
 * by the caller) 1 at the leaf's legal placements; colours and players (K)
 * the colour and player to move there.  Any pointer may be NULL. */
void bk_bsearch_requests(const bk_bsearch *s, int64_t *games, int8_t *observation, int8_t *remaining, uint8_t *mask,
                         int8_t *colours, int8_t *players);

/* Expands and backs up the pending leaves with one row each, in the order
 * of bk_bsearch_requests: priors (K x num_placements, finite, >= 0; read at
 * the leaf's legal placements only and renormalised there, uniform when
 * they sum to 0) and values (K x num_players, in [0, 1]; with for_mover, in
 * a two-player variant, K values of the player to move, the other player
 * getting 1 - v).  The games then wait to descend.  The caller checks the
 * numbers. */
void bk_bsearch_evaluate(bk_bsearch *s, const float *priors, const float *values, int for_mover);

/* Per game g: the root's visits per placement (num_placements int32, 0 for
 * moves not legal or not visited). */
void bk_bsearch_visit_counts(const bk_bsearch *s, int64_t g, int32_t *out);
/* The root's mean value per player (num_players), NaN before its evaluation. */
void bk_bsearch_root_values(const bk_bsearch *s, int64_t g, float *out);
/* The most visited root move (ties: the higher mean value for the player
 * to move, then the lower id); -1 while no child has a visit. */
int bk_bsearch_best_move(const bk_bsearch *s, int64_t g);

/* A node's children: the node reached from game g's root by the moves
 * path[0 .. depth); returns its number of children (0: not expanded or
 * game over), -1 when the path leaves the tree (a move that is not a child
 * with a node).  When out is not NULL it gets, per child in ascending id
 * order, the id, prior, visits and mean value for the player to move at the
 * node (NaN unvisited); room for BK_MAX_MOVES. */
typedef struct {
    int id;
    float prior;
    int32_t visits;
    float value;
} bk_bsearch_child;
int bk_bsearch_children(const bk_bsearch *s, int64_t g, const int *path, int depth, bk_bsearch_child *out);

#endif

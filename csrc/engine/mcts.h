/* Monte-Carlo tree search with playouts in C.
 *
 * Every node holds the value of its move for the player who made it (in
 * classic_3 the player moving the shared colour at that turn), so the search
 * works for 2, 3 and 4 players alike: each player picks what is best for
 * itself.  A playout's value for a player is its side's share of the win (1
 * alone, 1/k in a k-way tie between sides, 0 otherwise; a side is a player,
 * or a team in classic_teams) plus a term for its score margin over the
 * mean of the other sides, which breaks ties between equally won or lost
 * positions (the margin standardised by the search's own statistics, as
 * Pentobi's; its weight by default the variant's: bk_mcts_margin).
 *
 * Simulations leave the tree by the playout policy of playout_policy.h
 * (local answers to the opponents' last moves, large pieces first, last
 * good replies: replies.h), not by uniform random moves: each playout then
 * says far more about a position.  In the tree, as in Pentobi and AlphaGo:
 * - a node's children are its legal moves with a positive prior (prior.h:
 *   fitted to how Pentobi plays, and taken flatter, at a temperature above
 *   1, which plays better), each starting with a value of small weight
 *   made from its prior, so that the moves the prior dislikes wait until the
 *   others have been found bad;
 * - a child is chosen by its value plus an exploration term proportional to
 *   its prior share (PUCT, with Pentobi's log factor);
 * - RAVE: each playout also updates, on the way back, the children of each
 *   node on its path whose placement the same colour played later in it,
 *   with a weight falling with how much later; a new child so learns from
 *   the playouts through its siblings before its own visits;
 * - a node is expanded once visited more often the deeper it is.
 *
 * A search may run on several threads by root parallelisation: each thread
 * grows its own tree from the same root with its own random stream (seed,
 * thread index), and the trees' root statistics are added up.  With one
 * thread it is the plain search; with k it is deterministic for a given
 * seed and k.  Or its threads share one tree (params.shared): a thread
 * locks each node only while it is there, in its descent and in its
 * back-up, so that the threads' simulations run side by side, and a
 * simulation under way counts as a lost visit of each move on its path (a
 * virtual loss), so that the threads spread over the tree; the moves then
 * depend on the threads' timing.
 *
 * A search may go on with the game (bk_mcts_advance): the subtree below the
 * moves played since its root is kept, as Pentobi keeps its, so that the
 * next search starts from what this one learnt about that position. */
#ifndef BK_MCTS_H
#define BK_MCTS_H

#include "core/board.h"
#include "engine/mcts_params.h"
#include "engine/playout_policy.h"

/* Sensible defaults for the parameters (mcts_params.h). */
bk_mcts_params bk_mcts_defaults(void);

/* The margin's weight in `variant` when params.margin is negative (the
 * default): 0.375 with two sides (Pentobi's balance of place and margin),
 * 0.2 with three or four, where a match counts the places alone. */
double bk_mcts_margin(int variant);
/* The memory budget of a search by default: a quarter of the machine's
 * memory, at most 1 GiB (a search of 1.1 million simulations from the Duo
 * opening needs about half that). */
int64_t bk_mcts_default_memory(void);

/* A search from a copy of `root` (the board is not kept) on `threads`
 * threads, 1 .. BK_MCTS_MAX_THREADS, each tree with its share of max_nodes
 * and of the memory budget; NULL when out of memory or threads is out of
 * range.
 *
 * A tree's memory grows with what the search learns, not with the moves
 * it could consider: a position's moves are kept in 4 bytes each, a move's
 * statistics only once the search or a RAVE update touches it, a position's
 * node only once a simulation reaches it (mcts_tree.h).  When a tree holds
 * its share of the budget or of max_nodes, the subtrees below its least
 * visited nodes are freed (their moves' statistics above them kept), as
 * Pentobi prunes its tree, and the search goes on growing where it is
 * looking; only if that frees too little does it stop growing (the root's
 * moves always have their nodes). */
bk_mcts *bk_mcts_new(const bk_board *root, const bk_mcts_params *params, uint64_t seed, int threads);
void bk_mcts_free(bk_mcts *t);
/* A search of n more simulations in all (0: until stopped), split evenly
 * between the trees: bk_mcts_start starts every thread but the first, whose
 * work the caller does by bk_mcts_run (so that it may check the clock
 * between calls), then bk_mcts_finish waits for the others.  Between start
 * and finish only bk_mcts_run may be called. */
void bk_mcts_start(bk_mcts *t, int64_t n);
/* Runs up to n simulations on the calling thread: of the first tree's
 * share, which is at least one simulation, or of a shared tree's whole
 * search, taken by whichever thread comes first; returns how many of that
 * share are left to begin (INT64_MAX - done without a count).  A search
 * has run at least one simulation once finished. */
int64_t bk_mcts_run(bk_mcts *t, int64_t n);
/* Waits for the other threads to end their shares, or, when stop is
 * nonzero, to end their current simulation; then they are gone. */
void bk_mcts_finish(bk_mcts *t, int stop);
/* Makes s search from position b with new random streams (seed, thread
 * index), for a game going on: where b is a tree's root or follows from it
 * by moves that tree searched, the subtree below those moves is kept, with
 * its visits and values, and the rest freed; otherwise the tree starts
 * empty.  Returns the simulations kept (over all trees), or -1 when out of
 * memory (then s may only be freed).  Call it only between searches. */
int64_t bk_mcts_advance(bk_mcts *s, const bk_board *b, uint64_t seed);
/* Simulations behind the root's statistics, over all threads: run since the
 * root was set plus those kept by bk_mcts_advance. */
int64_t bk_mcts_simulations(const bk_mcts *t);
/* Bytes the trees hold (their arrays' room; of a shared tree, whose room is
 * reserved address space, the bytes it uses), over all threads. */
int64_t bk_mcts_memory(const bk_mcts *t);
/* Times the trees were pruned to stay within their budget, over all threads. */
int64_t bk_mcts_prunings(const bk_mcts *t);

typedef struct {
    int id;          /* placement id */
    int64_t visits;
    double value;    /* mean value for the player making the move, in [0, 1] */
    double win;      /* the mean share of the win of that player's side, in [0, 1] */
    double score;    /* the mean final score of that player */
} bk_mcts_move;

/* Number of placements the root considers (its children: the legal ones
 * with a positive prior) once a simulation has run (0 once the game is
 * over); room enough for bk_mcts_moves. */
int bk_mcts_num_moves(const bk_mcts *t);
/* Writes the root's children that were visited (out: room for
 * bk_mcts_num_moves), each with the visits and sums of every tree, most
 * visited first (ties: higher value, then lower id); returns how many (0
 * when out of memory).  The first is the move to play. */
int bk_mcts_moves(const bk_mcts *t, bk_mcts_move *out);

/* The principal variation: the move to play (bk_mcts_moves' first), then
 * from it the most visited child (ties: the first in prior order) while
 * there is one, in the tree that searched the move most; writes up to max
 * placement ids, returns how many. */
int bk_mcts_principal_variation(const bk_mcts *t, int *out, int max);
/* Each player's mean share of the win and mean final score over the
 * simulations run since the root was set (not those kept by
 * bk_mcts_advance, whose nodes keep only their mover's sums; out: room for
 * BK_MAX_COLOURS each); returns the number of players. */
int bk_mcts_players(const bk_mcts *t, double *wins, double *scores);

#endif

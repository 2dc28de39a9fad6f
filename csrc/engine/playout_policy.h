/* The playout policy and the tree's prior: how a simulation plays after it
 * leaves the tree, and in which order the tree considers moves.
 *
 * Uniform random playouts (playout.h) judge a position by games nobody would
 * play.  This policy plays like a weak but sensible player, which makes each
 * playout's result say much more about the position it started from:
 *
 * - Local moves first: the opponents' last moves (those among the last 3
 *   moves made by colours that do not score for the mover) leave attachment
 *   points, and cells next to them, that the opponent will want next.
 *   A move's local count is the number of its cells on such points, a cell
 *   counting twice when it is also an attachment point of the mover.  Only
 *   the moves with the highest count are considered: a playout answers
 *   every move by blocking it, as strong players do.
 * - Among those, a move is drawn with weight size_factor^size *
 *   attach_factor^(corners - 1), corners being the attachment points the
 *   piece makes on an empty board: large pieces, and those that open many
 *   diagonals, early.
 * - In the first rounds only large pieces: during the first 2 rounds
 *   (every colour's first 2 moves) pentominoes only, then 4 squares or
 *   more in round 3 and 3 or more in rounds 4 and 5, when the colour has
 *   such a move.
 *
 * The ideas are those of Pentobi's playouts (its PlayoutFeatures and
 * State), re-derived for our bitboards.  The size and corner factors and the
 * opening's size schedule are the values Pentobi uses, not yet tuned for
 * us; the prior's factors were chosen by our matches
 * (benchmarks/bench_strength.py). */
#ifndef BK_PLAYOUT_POLICY_H
#define BK_PLAYOUT_POLICY_H

#include "core/board.h"
#include "engine/playout.h"
#include "engine/replies.h"

/* Room for one playout's move lists. */
typedef struct {
    uint16_t moves[BK_MAX_MOVES];
    float weights[BK_MAX_MOVES]; /* cumulative */
} bk_policy_scratch;

/* Fills the piece weights and the placements' distances to the centre, once
 * bk_init() has run and before any search (the binding calls it when the
 * module loads). */
void bk_playout_policy_init(void);

/* The prior of each of the n legal moves of the colour to move (unnormalised,
 * >= 0), by which the tree orders a node's children: the piece weight above,
 * times a factor per local point and a larger one per cell on any opponent's
 * attachment point (blocking), and small for a piece below the opening's
 * minimum size.  0 for a move the tree is not to consider: on the 20x20
 * board, while fewer than 8 pieces are on it (every colour's first 2 moves),
 * the moves that do not come within 0.3 squares as near the board's centre
 * as the nearest pentomino (a square's distance is its centre's; all within
 * 2 squares count as 2), so that each colour heads for the centre, whose
 * open space goes to the first to get there (Pentobi's prior prunes alike;
 * ours measured in classic_2).  Factors chosen by matches against Pentobi
 * (benchmarks/bench_strength.py). */
void bk_policy_priors(const bk_board *b, const uint16_t *moves, int n, float *out);

/* Features of a move, one float each, for fitting a prior exp(w . x) to
 * recorded games (benchmarks/fit_prior.py, through blokus._core.prior_features;
 * weights fitted to Pentobi's Duo games did not make the search stronger, so
 * bk_policy_priors keeps its hand-set factors: benchmarks/README.md): */
enum {
    BK_PRIOR_PIECE,         /* BK_NUM_PIECES of them: 1 at the move's piece, else 0 */
    BK_PRIOR_CORNERS = BK_PRIOR_PIECE + BK_NUM_PIECES, /* attachment points the piece makes on an empty board, - 1 */
    BK_PRIOR_LOCAL,         /* its local count (as the playouts count it, above) */
    BK_PRIOR_ANY_LOCAL,     /* 1 when that is above 0 */
    BK_PRIOR_BLOCK,         /* its cells on an opponent's attachment points */
    BK_PRIOR_ANY_BLOCK,     /* 1 when there are any */
    BK_PRIOR_NEW_POINTS,    /* attachment points of the mover it creates */
    BK_PRIOR_CENTRE,        /* squares from the board's centre to its nearest cell, at least 2 */
    BK_PRIOR_SMALL,         /* 1 for a piece below the opening's minimum size */
    BK_PRIOR_FEATURES
};

/* The phase of the game whose weights the prior uses: 0 while fewer than
 * BK_PRIOR_OPENING pieces are on the board, 1 below BK_PRIOR_MIDDLE, then 2. */
#define BK_PRIOR_PHASES 3
#define BK_PRIOR_OPENING 8
#define BK_PRIOR_MIDDLE 20
int bk_prior_phase(const bk_board *b);

/* Writes n x BK_PRIOR_FEATURES floats, row i the features of moves[i] (legal
 * for the colour to move). */
void bk_prior_features(const bk_board *b, const uint16_t *moves, int n, float *out);

/* Plays the board to its end, every move by the policy above, or by the
 * last good reply to the last move when `replies` (NULL: none) knows a legal
 * one. */
void bk_policy_playout(bk_board *b, bk_rng *rng, bk_policy_scratch *scratch, const bk_replies *replies);

#endif

/* The playout policy: how a simulation plays after it leaves the tree.
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
 * us. */
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

/* Fills the piece weights (and the prior's tables, prior.h), once bk_init()
 * has run and before any search (the binding calls it when the module
 * loads; later calls do nothing). */
void bk_playout_policy_init(void);

/* The local points of the colour to move (above): `local` all of them,
 * `twice` those that are also its own attachment points (rows as the
 * board's); returns nonzero when there are any. */
uint32_t bk_local_points(const bk_board *b, uint32_t *local, uint32_t *twice);
/* The smallest piece the policy considers at this point of the game (above). */
int bk_min_size(const bk_board *b);

/* Plays the board to its end, every move by the policy above, or by the
 * last good reply to the last move when `replies` (NULL: none) knows a legal
 * one. */
void bk_policy_playout(bk_board *b, bk_rng *rng, bk_policy_scratch *scratch, const bk_replies *replies);

#endif

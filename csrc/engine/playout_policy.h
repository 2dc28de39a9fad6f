/* The playout policy: how a simulation plays after it leaves the tree.
 *
 * Uniform random playouts (playout.h) judge a position by games nobody would
 * play.  This policy plays like a weak but sensible player, which makes each
 * playout's result say much more about the position it started from:
 *
 * - Local moves first: only the moves with the highest local count
 *   (move_features.h: cells on the points the opponents' last moves opened)
 *   are considered: a playout answers every move by blocking it, as strong
 *   players do.
 * - Among those, a move is drawn with weight size_factor^size *
 *   attach_factor^(corners - 1), corners being the attachment points the
 *   piece makes on an empty board: large pieces, and those that open many
 *   diagonals, early.
 * - In the first rounds only large pieces, by the opening's size schedule
 *   (move_features.h), when the colour has such a move.
 *
 * The ideas are those of Pentobi's playouts (its PlayoutFeatures and
 * State), re-derived for our bitboards.  The size and corner factors and the
 * opening's size schedule are the values Pentobi uses, not yet tuned for
 * us. */
#ifndef BK_PLAYOUT_POLICY_H
#define BK_PLAYOUT_POLICY_H

#include "core/board.h"
#include "core/movegen.h"
#include "engine/playout.h"
#include "engine/replies.h"

/* Room for one playout's move lists. */
typedef struct {
    uint16_t moves[BK_MAX_MOVES];
    float weights[BK_MAX_MOVES]; /* cumulative */
    bk_dead_points dead;         /* the dead points the playout knows */
} bk_policy_scratch;

/* Fills the piece weights (and the move features' table, move_features.h),
 * once bk_init() has run and before any playout (the binding calls it when
 * the module loads; later calls do nothing). */
void bk_playout_policy_init(void);

/* Plays the board to its end, every move by the policy above, or by the
 * last good reply to the last move when `replies` (NULL: none) knows a legal
 * one.  `dead`: dead points (movegen.h) of a position b follows from (a
 * search's root), which the playout's move generation passes over. */
void bk_policy_playout(bk_board *b, bk_rng *rng, bk_policy_scratch *scratch, const bk_replies *replies,
                       const bk_dead_points *dead);

#endif

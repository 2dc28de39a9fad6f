/* What the playout policy (playout_policy.h) and the tree's prior (prior.h)
 * both ask of a position about its moves, so that the two agree:
 *
 * - Local points: the opponents' last moves (those among the last 3 moves
 *   made by colours that do not score for the mover) leave attachment
 *   points, and cells next to them, that the opponent will want next.  A
 *   move's local count is the number of its cells on such points, a cell
 *   counting twice when it is also an attachment point of the mover.
 * - The opening's size schedule: during the first 2 rounds (every colour's
 *   first 2 moves) pentominoes only, then 4 squares or more in round 3 and
 *   3 or more in rounds 4 and 5.
 *
 * The ideas are those of Pentobi's playouts (its PlayoutFeatures and
 * State), re-derived for our bitboards; the schedule is the one Pentobi
 * uses. */
#ifndef BK_MOVE_FEATURES_H
#define BK_MOVE_FEATURES_H

#include "core/board.h"

/* Fills the table of who is a rival of whom, once bk_init() has run (the
 * playout policy's and the prior's inits call it; later calls do nothing). */
void bk_move_features_init(void);

/* The local points of the colour to move (above): `local` all of them,
 * `twice` those that are also its own attachment points (rows as the
 * board's); returns nonzero when there are any. */
uint32_t bk_local_points(const bk_board *b, uint32_t *local, uint32_t *twice);
/* The smallest piece the opening's schedule allows at this point of the
 * game (above): 5, 4, 3, then 1. */
int bk_min_size(const bk_board *b);

#endif

/* Playing a game: a placement, then the turn passed on in turn order to the
 * next colour that can still move.  Finding that colour takes move
 * generation, which reads the board: so this sits above both (board.h the
 * position, movegen.h its legal placements). */
#ifndef BK_PLAY_H
#define BK_PLAY_H

#include "core/board.h"

/* Plays `id` for the colour to move after checking it; on error b is unchanged. */
bk_status bk_play(bk_board *b, int id);
/* Plays a placement known to be legal for the colour to move (no check). */
void bk_play_unchecked(bk_board *b, int id);
/* The same, listing the legal placements of the colour that moves next in
 * `moves` (room for BK_MAX_MOVES), which passing the turn has to find anyway;
 * returns their number, 0 once the game is over. */
int bk_play_listing(bk_board *b, int id, uint16_t *moves);
/* Plays a placement known to be legal for the colour to move and hands the
 * turn to the next colour not yet known to be out, without looking whether
 * it can move (which costs a move generation, wasted on a caller that lists
 * its moves anyway).  Until that colour's placement is played, the caller
 * must find one for it or, when it has none, call bk_out_of_moves; only
 * then is the board as bk_play_unchecked leaves it. */
void bk_play_lazy(bk_board *b, int id);
/* bk_play_lazy by bk_place_rough: for a simulation's board, whose grid and
 * key it leaves behind. */
void bk_play_rough(bk_board *b, int id);
/* Marks the colour to move, which has no legal placement, out, and hands the
 * turn on as bk_play_lazy does (to_move -1 once every colour is out). */
void bk_out_of_moves(bk_board *b);
/* Whether the colour will never move again (out of placements). */
int bk_is_out(const bk_board *b, int colour);

#endif

/* Legal-move generation from attachment points. */
#ifndef BK_MOVEGEN_H
#define BK_MOVEGEN_H

#include "board.h"

/* Builds the candidate tables; called by bk_init. */
void bk_movegen_init(void);
/* Writes every legal placement id of `colour` to out (room for
 * BK_MAX_MOVES), in no particular order, each once; returns how many. */
int bk_gen_moves(const bk_board *b, int colour, uint16_t *out);
/* How many legal placements `colour` has, without listing them. */
int bk_count_moves(const bk_board *b, int colour);
/* The k-th legal placement of `colour` (0 <= k < bk_count_moves), in the
 * order of bk_gen_moves. */
int bk_nth_move(const bk_board *b, int colour, int k);
/* Whether `colour` has at least one legal placement. */
int bk_has_move(const bk_board *b, int colour);

#endif

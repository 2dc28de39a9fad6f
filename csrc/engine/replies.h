/* Last good replies for the playouts (Drake's LGRF-1, "last good reply with
 * forgetting", as Pentobi's playouts use it): per colour and per placement,
 * the reply that colour made to that placement in the last playout its side
 * won (or shared the win of), forgotten when a later playout in which it
 * was played again was lost.  A playout plays the stored reply to the last
 * move when it is legal, before the policy's own choice, so that the search
 * passes on what worked between its simulations. */
#ifndef BK_REPLIES_H
#define BK_REPLIES_H

#include "core/board.h"

#define BK_NO_REPLY 0xFFFF

typedef struct {
    uint16_t reply[BK_MAX_COLOURS][BK_MAX_PLACEMENTS]; /* BK_NO_REPLY: none known */
} bk_replies;

/* No replies known. */
void bk_replies_clear(bk_replies *r);
/* Learns from the finished game b: the replies of its moves from index
 * `from` on (>= 1), each by whether its mover's side got the best share of
 * the win (`shares`, per player, as bk_win_shares gives them). */
void bk_replies_learn(bk_replies *r, const bk_board *b, int from, const double *shares);
/* The stored reply of the colour to move to the last move, or -1 when none
 * is known or it is not legal now. */
int bk_replies_get(const bk_replies *r, const bk_board *b);

#endif

/* Playing a game: placing, then passing the turn; see play.h. */
#include "core/play.h"

#include <stddef.h>

#include "core/movegen.h"

/* Hands the turn to the next colour, in turn order, that can still place a
 * piece; a colour without one is skipped and never moves again (docs/rules.md:
 * only a colour's own pieces make new corners for it).  With `moves`, the
 * new colour's legal placements are listed there while looking (their number
 * is returned); without, looking stops at the first.  With `look` 0, the
 * turn goes to the next colour not yet known to be out without looking
 * (bk_play_lazy, bk_play_rough). */
static int advance_turn(bk_board *b, int mover, uint16_t *moves, int look)
{
    for (int i = 1; i <= b->num_colours; i++) {
        int d = (mover + i) % b->num_colours;
        if (b->out >> d & 1u) continue;
        int n = !look ? 1 : moves ? bk_gen_moves(b, d, moves) : bk_has_move(b, d);
        if (n) {
            b->to_move = (int8_t)d;
            return n;
        }
        b->out |= (uint8_t)(1u << d);
    }
    b->to_move = -1;
    return 0;
}

/* Places `id` by `place` (bk_place or bk_place_rough), then hands the turn
 * on as advance_turn does. */
static int play(bk_board *b, int id, void (*place)(bk_board *, int), uint16_t *moves, int look)
{
    int colour = b->to_move;
    place(b, id);
    return advance_turn(b, colour, moves, look);
}

void bk_play_unchecked(bk_board *b, int id)
{
    play(b, id, bk_place, NULL, 1);
}

int bk_play_listing(bk_board *b, int id, uint16_t *moves)
{
    return play(b, id, bk_place, moves, 1);
}

void bk_play_lazy(bk_board *b, int id)
{
    play(b, id, bk_place, NULL, 0);
}

void bk_play_rough(bk_board *b, int id)
{
    play(b, id, bk_place_rough, NULL, 0);
}

void bk_out_of_moves(bk_board *b)
{
    b->out |= (uint8_t)(1u << b->to_move);
    advance_turn(b, b->to_move, NULL, 0);
}

bk_status bk_play(bk_board *b, int id)
{
    if (b->to_move < 0) return BK_ERR_GAME_OVER;
    bk_status st = bk_check(b, b->to_move, id);
    if (st != BK_OK) return st;
    bk_play_unchecked(b, id);
    return BK_OK;
}

int bk_is_out(const bk_board *b, int colour)
{
    return (b->out >> colour & 1u) || !bk_has_move(b, colour);
}

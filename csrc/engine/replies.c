/* Last good replies; see replies.h. */
#include "engine/replies.h"

#include <string.h>

#include "core/movegen.h"
#include "core/variants.h"

void bk_replies_clear(bk_replies *r)
{
    memset(r, 0xFF, sizeof *r); /* BK_NO_REPLY everywhere */
}

void bk_replies_learn(bk_replies *r, const bk_board *b, int from, const double *shares)
{
    const bk_variant_info *v = bk_variant_facts(b->variant);
    double best = 0.0;
    for (int p = 0; p < v->num_players; p++)
        if (shares[p] > best) best = shares[p];
    int placed[BK_MAX_COLOURS]; /* per colour, before move i: who moved a shared colour then */
    for (int c = 0; c < BK_MAX_COLOURS; c++) placed[c] = b->placed[c];
    /* from the last move back (each reply's key, the colour and the move
     * before it, comes once in a game, so the order changes nothing) */
    for (int i = b->num_moves - 1; i >= from && i > 0; i--) {
        int c = b->history[i].colour, id = b->history[i].id;
        int mover = bk_variant_mover(v, c, --placed[c]);
        int last = b->history[i - 1].id;
        if (shares[mover] == best)
            r->reply[c][last] = (uint16_t)id;
        else if (r->reply[c][last] == id)
            r->reply[c][last] = BK_NO_REPLY;
    }
}

int bk_replies_get(const bk_replies *r, const bk_board *b)
{
    if (b->num_moves == 0) return -1;
    int id = r->reply[b->to_move][b->history[b->num_moves - 1].id];
    return id != BK_NO_REPLY && bk_is_legal(b, b->to_move, id) ? id : -1;
}

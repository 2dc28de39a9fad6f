/* The move features shared by the playout policy and the prior; see
 * move_features.h. */
#include "engine/move_features.h"

#include <string.h>

#include "core/score.h"

#define LOCAL_MOVES 3 /* recent moves whose attachment points are local */
/* By variant and player: bit c for each colour c that does not score for that player. */
static uint8_t rival_colours[BK_NUM_VARIANTS][BK_MAX_COLOURS];

void bk_move_features_init(void)
{
    static int done = 0; /* once: a module loaded again must not rewrite tables a search reads */
    if (done) return;
    done = 1;
    for (int v = 0; v < BK_NUM_VARIANTS; v++) {
        int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS];
        int players = bk_player_weights(v, weights);
        for (int p = 0; p < players; p++)
            for (int c = 0; c < BK_MAX_COLOURS; c++)
                if (!weights[p][c]) rival_colours[v][p] |= (uint8_t)(1u << c);
    }
}

/* The colours that do not score for the player who moves `colour` now. */
static unsigned rivals_of(const bk_board *b, int colour)
{
    return rival_colours[b->variant][bk_player_of_colour(b, colour)];
}

uint32_t bk_local_points(const bk_board *b, uint32_t *local, uint32_t *twice)
{
    int mover = b->to_move;
    unsigned rivals = rivals_of(b, mover);
    const bk_geometry *g = b->geom;
    uint32_t any = 0;
    memset(local, 0, BK_ROWS * sizeof *local);
    for (int i = b->num_moves - 1; i >= 0 && i >= b->num_moves - LOCAL_MOVES; i--) {
        int c = b->history[i].colour, id = b->history[i].id;
        if (!(rivals >> c & 1u)) continue; /* our own side's move */
        const bk_orient *o = &bk_orients[g->orient_of[id]];
        int top = g->row_of[id] + BK_PAD, shift = g->col_of[id] + BK_PAD;
        uint32_t cells[BK_MAX_PIECE_SIZE + 2] = {0}, points[BK_MAX_PIECE_SIZE + 2];
        for (int k = 0; k < o->height; k++) cells[k + 1] = o->rows[k] << shift;
        uint32_t some = 0;
        for (int k = 0; k < o->height + 2; k++) { /* rows top - 1 .. top + height */
            uint32_t vert = (k > 0 ? cells[k - 1] : 0) | (k + 1 < o->height + 2 ? cells[k + 1] : 0);
            points[k] = (vert << 1 | vert >> 1) & b->attach[c][top - 1 + k];
            some |= points[k];
        }
        for (int k = 0; some && k < o->height + 2; k++) { /* late in a game a move often leaves no point open */
            int R = top - 1 + k;
            uint32_t p = points[k];
            local[R] |= p;
            local[R] |= (p << 1 | p >> 1) & ~b->forbidden[c][R];
            local[R - 1] |= p & ~b->forbidden[c][R - 1];
            local[R + 1] |= p & ~b->forbidden[c][R + 1];
            any |= p;
        }
    }
    for (int R = 0; R < BK_ROWS; R++) twice[R] = local[R] & b->attach[mover][R];
    return any;
}

int bk_min_size(const bk_board *b)
{
    int n = b->num_moves, c = b->num_colours;
    return n < 2 * c ? 5 : n < 3 * c ? 4 : n < 5 * c ? 3 : 1;
}

/* The playout policy; see playout_policy.h. */
#include "engine/playout_policy.h"

#include <math.h>
#include <string.h>

#include "core/movegen.h"
#include "core/score.h"
#include "engine/prior.h"

#define DUO_SIZE_FACTOR 3.0f
#define DUO_CORNER_FACTOR 1.8f
#define CLASSIC_SIZE_FACTOR 5.0f
#define CLASSIC_CORNER_FACTOR 1.0f
#define LOCAL_MOVES 3 /* recent moves whose attachment points are local */

/* Draw weight of each orientation's piece: [0] 20x20 boards, [1] Duo. */
static float piece_weight[2][BK_NUM_ORIENTS];
/* Attachment points an orientation makes on an empty board: the cells
 * diagonal to it and not next to it. */
static int corners(const bk_orient *o)
{
    uint32_t cells[BK_MAX_PIECE_SIZE + 4] = {0}; /* rows of the piece, 2 rows and columns of margin */
    for (int k = 0; k < o->height; k++) cells[k + 2] = o->rows[k] << 2;
    int n = 0;
    for (int r = 1; r < o->height + 3; r++) {
        uint32_t edge = cells[r] << 1 | cells[r] >> 1 | cells[r - 1] | cells[r + 1];
        uint32_t diag = (cells[r - 1] | cells[r + 1]) << 1 | (cells[r - 1] | cells[r + 1]) >> 1;
        n += bk_popcount64(diag & ~edge & ~cells[r]);
    }
    return n;
}

static float power(float x, int n)
{
    float y = 1.0f;
    while (n-- > 0) y *= x;
    return y;
}

void bk_playout_policy_init(void)
{
    bk_prior_init();
    for (int o = 0; o < BK_NUM_ORIENTS; o++) {
        int size = bk_orients[o].size, k = corners(&bk_orients[o]) - 1;
        piece_weight[0][o] = power(CLASSIC_SIZE_FACTOR, size) * power(CLASSIC_CORNER_FACTOR, k);
        piece_weight[1][o] = power(DUO_SIZE_FACTOR, size) * power(DUO_CORNER_FACTOR, k);
    }
}

void bk_local_points(const bk_board *b, uint32_t *local, uint32_t *twice)
{
    int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS];
    bk_player_weights(b->variant, weights);
    int mover = b->to_move, player = bk_player_of_colour(b, mover);
    const bk_geometry *g = b->geom;
    memset(local, 0, BK_ROWS * sizeof *local);
    for (int i = b->num_moves - 1; i >= 0 && i >= b->num_moves - LOCAL_MOVES; i--) {
        int c = b->history[i].colour, id = b->history[i].id;
        if (weights[player][c]) continue; /* our own side's move */
        const bk_orient *o = &bk_orients[g->orient_of[id]];
        int top = g->row_of[id] + BK_PAD, shift = g->col_of[id] + BK_PAD;
        uint32_t cells[BK_MAX_PIECE_SIZE + 2] = {0}, points[BK_MAX_PIECE_SIZE + 2];
        for (int k = 0; k < o->height; k++) cells[k + 1] = o->rows[k] << shift;
        for (int k = 0; k < o->height + 2; k++) { /* rows top - 1 .. top + height */
            uint32_t vert = (k > 0 ? cells[k - 1] : 0) | (k + 1 < o->height + 2 ? cells[k + 1] : 0);
            points[k] = (vert << 1 | vert >> 1) & b->attach[c][top - 1 + k];
        }
        for (int k = 0; k < o->height + 2; k++) {
            int R = top - 1 + k;
            uint32_t p = points[k];
            local[R] |= p;
            local[R] |= (p << 1 | p >> 1) & ~b->forbidden[c][R];
            local[R - 1] |= p & ~b->forbidden[c][R - 1];
            local[R + 1] |= p & ~b->forbidden[c][R + 1];
        }
    }
    for (int R = 0; R < BK_ROWS; R++) twice[R] = local[R] & b->attach[mover][R];
}

int bk_min_size(const bk_board *b)
{
    int n = b->num_moves, c = b->num_colours;
    return n < 2 * c ? 5 : n < 3 * c ? 4 : n < 5 * c ? 3 : 1;
}

/* The local count of placement id: its cells on local points, doubled on
 * the mover's own attachment points. */
static int local_count(const bk_geometry *g, int id, const uint32_t *local, const uint32_t *twice)
{
    const bk_orient *o = &bk_orients[g->orient_of[id]];
    int top = g->row_of[id] + BK_PAD, shift = g->col_of[id] + BK_PAD, count = 0;
    for (int r = 0; r < o->height; r++) {
        uint32_t x = o->rows[r] << shift;
        count += bk_popcount64(x & local[top + r]) + bk_popcount64(x & twice[top + r]);
    }
    return count;
}

/* The policy's move for the colour to move. */
static int policy_move(const bk_board *b, bk_rng *rng, bk_policy_scratch *s)
{
    const bk_geometry *g = b->geom;
    const float *weight = piece_weight[b->variant == BK_DUO];
    uint32_t local[BK_ROWS], twice[BK_ROWS];
    bk_local_points(b, local, twice);
    int n = bk_gen_moves(b, b->to_move, s->moves), smallest = bk_min_size(b), best = -1, k = 0;
    float total = 0.0f;
    for (;;) {
        for (int i = 0; i < n; i++) {
            int id = s->moves[i], o = g->orient_of[id];
            if (bk_orients[o].size < smallest) continue;
            int count = local_count(g, id, local, twice);
            if (count < best) continue;
            if (count > best) { /* only the most local moves are kept, compacted in place */
                best = count;
                total = 0.0f;
                k = 0;
            }
            total += weight[o];
            s->weights[k] = total;
            s->moves[k++] = (uint16_t)id;
        }
        if (k > 0 || smallest == 1) break;
        smallest = 1; /* no large piece fits: every piece */
    }
    float x = (float)(bk_rng_next(rng) >> 40) * (1.0f / 16777216.0f) * total;
    int lo = 0, hi = k - 1; /* the first cumulative weight above x */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->weights[mid] > x) hi = mid;
        else lo = mid + 1;
    }
    return s->moves[lo];
}

void bk_policy_playout(bk_board *b, bk_rng *rng, bk_policy_scratch *scratch, const bk_replies *replies)
{
    while (b->to_move >= 0) {
        int id = replies ? bk_replies_get(replies, b) : -1;
        bk_play_unchecked(b, id >= 0 ? id : policy_move(b, rng, scratch));
    }
}

/* The playout policy; see playout_policy.h. */
#include "engine/playout_policy.h"

#include <math.h>
#include <string.h>

#include "core/movegen.h"
#include "core/score.h"

#define DUO_SIZE_FACTOR 3.0f
#define DUO_CORNER_FACTOR 1.8f
#define CLASSIC_SIZE_FACTOR 5.0f
#define CLASSIC_CORNER_FACTOR 1.0f
#define LOCAL_MOVES 3 /* recent moves whose attachment points are local */
#define PRIOR_LOCAL_FACTOR 1.5f  /* a prior's factor per local point (counted as in playouts) */
#define PRIOR_BLOCK_FACTOR 4.0f  /* and per cell on an opponent's attachment point */
#define PRIOR_SMALL_FACTOR 1e-3f /* and for a piece smaller than the opening's minimum */
#define CENTRE_PIECES 8          /* 20x20 boards: pieces on the board while the prior heads for the centre */
#define CENTRE_SLACK 0.3f        /* squares a move may stay farther from the centre than the nearest */
#define CENTRE_NEAR 2.0f         /* squares: distances below this count as this (all central) */

/* Draw weight of each orientation's piece: [0] 20x20 boards, [1] Duo. */
static float piece_weight[2][BK_NUM_ORIENTS];
/* Per placement: the distance from the board's centre to its nearest cell's
 * centre, at least CENTRE_NEAR; by bk_geometry.index. */
static float centre_distance[BK_NUM_GEOMETRIES][BK_MAX_PLACEMENTS];
/* piece_weight by move-generation candidate (movegen.h), for the playouts. */
static float cand_weight[2][BK_NUM_CANDIDATES];
/* power(PRIOR_LOCAL_FACTOR, n) and power(PRIOR_BLOCK_FACTOR, n) for every
 * local count and covered count a move can have: the same floats, looked up. */
static float local_factor[2 * BK_MAX_PIECE_SIZE + 1], block_factor[BK_MAX_PIECE_SIZE + 1];
/* By board size (bk_geometry.index) and orientation: its cells' offsets in
 * a row-major board from its anchor. */
static int16_t cell_offset[BK_NUM_GEOMETRIES][BK_NUM_ORIENTS][BK_MAX_PIECE_SIZE];
/* By variant and player: bit c for each colour c that does not score for that player. */
static uint8_t rival_colours[BK_NUM_VARIANTS][BK_MAX_COLOURS];
/* Attachment points each orientation makes on an empty board (corners()). */
static int orient_corners[BK_NUM_ORIENTS];

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
    for (int o = 0; o < BK_NUM_ORIENTS; o++) {
        int size = bk_orients[o].size, k = corners(&bk_orients[o]) - 1;
        orient_corners[o] = k + 1;
        piece_weight[0][o] = power(CLASSIC_SIZE_FACTOR, size) * power(CLASSIC_CORNER_FACTOR, k);
        piece_weight[1][o] = power(DUO_SIZE_FACTOR, size) * power(DUO_CORNER_FACTOR, k);
    }
    for (int n = 0; n <= 2 * BK_MAX_PIECE_SIZE; n++) local_factor[n] = power(PRIOR_LOCAL_FACTOR, n);
    for (int n = 0; n <= BK_MAX_PIECE_SIZE; n++) block_factor[n] = power(PRIOR_BLOCK_FACTOR, n);
    for (int i = 0; i < BK_NUM_CANDIDATES; i++)
        for (int duo = 0; duo < 2; duo++) cand_weight[duo][i] = piece_weight[duo][bk_cand_orient(i)];
    for (int v = 0; v < BK_NUM_VARIANTS; v++) {
        int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS];
        int players = bk_player_weights(v, weights);
        for (int p = 0; p < players; p++)
            for (int c = 0; c < BK_MAX_COLOURS; c++)
                if (!weights[p][c]) rival_colours[v][p] |= (uint8_t)(1u << c);
    }
    for (int side = 14; side <= 20; side += 6) {
        const bk_geometry *g = bk_geometry_for(side);
        for (int o = 0; o < BK_NUM_ORIENTS; o++)
            for (int k = 0; k < bk_orients[o].size; k++)
                cell_offset[g->index][o][k] = (int16_t)(bk_orients[o].cells[k].r * side + bk_orients[o].cells[k].c);
        float centre = (g->side - 1) / 2.0f;
        for (int id = 0; id < g->num_placements; id++) {
            const bk_orient *o = &bk_orients[g->orient_of[id]];
            float nearest = 1e9f;
            for (int k = 0; k < o->size; k++) {
                float dr = g->row_of[id] + o->cells[k].r - centre, dc = g->col_of[id] + o->cells[k].c - centre;
                float d = sqrtf(dr * dr + dc * dc);
                if (d < nearest) nearest = d;
            }
            centre_distance[g->index][id] = nearest < CENTRE_NEAR ? CENTRE_NEAR : nearest;
        }
    }
}

/* The colours that do not score for the player who moves `colour` now. */
static unsigned rivals_of(const bk_board *b, int colour)
{
    return rival_colours[b->variant][bk_player_of_colour(b, colour)];
}

/* The local points of the colour to move (see the header): `local` all of
 * them, `twice` those that are also its own attachment points; returns
 * nonzero when there are any. */
static uint32_t local_points(const bk_board *b, uint32_t *local, uint32_t *twice)
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
            any |= p;
        }
    }
    for (int R = 0; R < BK_ROWS; R++) twice[R] = local[R] & b->attach[mover][R];
    return any;
}

/* The attachment points of the colours that do not score for the mover. */
static void rival_points(const bk_board *b, uint32_t *rivals)
{
    unsigned colours = rivals_of(b, b->to_move);
    memset(rivals, 0, BK_ROWS * sizeof *rivals);
    for (int c = 0; c < b->num_colours; c++)
        if (c != b->to_move && (colours >> c & 1u))
            for (int R = 0; R < BK_ROWS; R++) rivals[R] |= b->attach[c][R];
}

/* Smallest piece considered at this point of the game (see the header). */
static int min_size(const bk_board *b)
{
    int n = b->num_moves, c = b->num_colours;
    return n < 2 * c ? 5 : n < 3 * c ? 4 : n < 5 * c ? 3 : 1;
}

/* The prior's counts of every move at once, by cell: marks[cell] (board
 * cells row-major) is 1 on a local point, 2 on one that is also the mover's
 * attachment point, plus BLOCK_MARK on a rival's attachment point. */
#define BLOCK_MARK 16 /* above any local count: 2 per cell, at most 10 */
static void mark_cells(const bk_board *b, const uint32_t *local, const uint32_t *twice, const uint32_t *rivals,
                       uint8_t *marks)
{
    int side = b->side;
    uint32_t on_board = (1u << side) - 1u;
    memset(marks, 0, (size_t)side * side);
    for (int r = 0; r < side; r++) {
        const uint32_t *rows[3] = {local, twice, rivals};
        static const uint8_t mark[3] = {1, 1, BLOCK_MARK};
        for (int k = 0; k < 3; k++)
            for (uint32_t bits = rows[k][r + BK_PAD] >> BK_PAD & on_board; bits; bits &= bits - 1)
                marks[r * side + bk_ctz(bits)] += mark[k];
    }
}

/* The sum of placement id's cells' marks: its local count (its cells on
 * local points, doubled on the mover's own attachment points) plus
 * BLOCK_MARK per cell on a rival's attachment point. */
static int move_marks(const bk_geometry *g, int id, const uint8_t *marks)
{
    int o = g->orient_of[id], n = 0;
    const uint8_t *at = marks + g->row_of[id] * g->side + g->col_of[id];
    for (int k = 0; k < bk_orients[o].size; k++) n += at[cell_offset[g->index][o][k]];
    return n;
}

/* The policy's draw among moves of cumulative weights up to `total`: the
 * first move, in order, whose cumulative weight is above the point drawn
 * (the last move when rounding leaves none above). */
static float draw_point(bk_rng *rng, float total)
{
    return (float)(bk_rng_next(rng) >> 40) * (1.0f / 16777216.0f) * total;
}

/* Adds move id of local count `count` >= *best and weight `weight` to the
 * kept ones of s (s->moves[0 .. *k), their cumulative weights in
 * s->weights, the last being *total), dropping those of a lower count: the
 * kept moves are those of the highest count, in the order they came. */
static void keep(bk_policy_scratch *s, int id, int count, float weight, int *best, int *k, float *total)
{
    if (count > *best) {
        *best = count;
        *total = 0.0f;
        *k = 0;
    }
    *total += weight;
    s->weights[*k] = *total;
    s->moves[(*k)++] = (uint16_t)id;
}

/* The draw among all the moves of the collection ms, in bk_gen_moves'
 * order, by their candidates' weights: the same additions in the same order
 * as over their list, without listing them.  `ends`: room for the
 * cumulative weight at each point's end. */
static int draw_all(const bk_move_sets *ms, const float *weight, float *ends, bk_rng *rng)
{
    const bk_cand_set *sets = ms->sets;
    float total = 0.0f;
    int last = ms->num_points - 1; /* every point has moves */
    for (int i = 0; i < ms->num_points; i++) {
        for (int w = 0; w < BK_SET_WORDS; w++)
            for (uint64_t bits = sets[i].w[w]; bits; bits &= bits - 1) total += weight[w * 64 + bk_ctz64(bits)];
        ends[i] = total;
    }
    float x = draw_point(rng, total);
    int i = 0, cand = -1;
    while (i < last && !(ends[i] > x)) i++; /* the point of the first move above x, else the last point */
    total = i > 0 ? ends[i - 1] : 0.0f;
    for (int w = 0; w < BK_SET_WORDS; w++)
        for (uint64_t bits = sets[i].w[w]; bits; bits &= bits - 1) {
            cand = w * 64 + bk_ctz64(bits);
            total += weight[cand];
            if (total > x) return bk_move_sets_id(ms, i, cand);
        }
    return bk_move_sets_id(ms, i, cand); /* none above x: the last move */
}

/* The policy's move for the colour to move: the moves of at least the
 * opening's size (of any size when there are none) with the highest local
 * count, one drawn by weight as if from their list in bk_gen_moves' order.
 * Only the moves that cover a local point are counted one by one; the
 * others, of count 0, are drawn from without listing them when no move
 * covers one.  -1 when the colour has no legal placement.  `ms`: room for
 * the move sets. */
static int policy_move(const bk_board *b, bk_rng *rng, bk_policy_scratch *s, bk_move_sets *ms)
{
    if (!bk_collect_moves_of(b, b->to_move, bk_cands_of_size(min_size(b)), ms) &&
        !bk_collect_moves(b, b->to_move, ms)) /* no large piece fits: every piece */
        return -1;
    const float *weight = cand_weight[b->variant == BK_DUO];
    uint32_t local[BK_ROWS], twice[BK_ROWS], any_local = local_points(b, local, twice);
    int best = 0, k = 0;
    float total = 0.0f;
    const uint64_t *cells = bk_cand_diamonds();
    for (int i = 0; any_local && i < ms->num_points; i++) {
        int r = ms->points[i].r, c = ms->points[i].c;
        uint64_t near = bk_diamond(local, r, c), near_twice;
        if (!near) continue;
        near_twice = bk_diamond(twice, r, c);
        bk_cand_set touching;
        bk_cands_touching(near, &touching);
        for (int w = 0; w < BK_SET_WORDS; w++)
            for (uint64_t bits = touching.w[w] & ms->sets[i].w[w]; bits; bits &= bits - 1) {
                int cand = w * 64 + bk_ctz64(bits);
                int count = bk_popcount64(cells[cand] & near) + bk_popcount64(cells[cand] & near_twice);
                if (count >= best) keep(s, bk_move_sets_id(ms, i, cand), count, weight[cand], &best, &k, &total);
            }
    }
    if (best == 0) return draw_all(ms, weight, s->weights, rng); /* no move covers a local point */
    float x = draw_point(rng, total);
    int lo = 0, hi = k - 1; /* the first cumulative weight above x */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->weights[mid] > x) hi = mid;
        else lo = mid + 1;
    }
    return s->moves[lo];
}

/* 20x20 boards, early: only the moves that come nearest the centre (within
 * CENTRE_SLACK of the nearest move of at least the opening's minimum size)
 * are considered; the others' prior is 0.  The first colour to reach the
 * centre takes the open space there. */
static void head_for_centre(const bk_board *b, const uint16_t *moves, int n, int smallest, float *priors)
{
    const float *distance = centre_distance[b->geom->index];
    float nearest = 1e9f;
    for (int i = 0; i < n; i++)
        if (bk_orients[b->geom->orient_of[moves[i]]].size >= smallest && distance[moves[i]] < nearest)
            nearest = distance[moves[i]];
    for (int i = 0; i < n; i++)
        if (distance[moves[i]] > nearest + CENTRE_SLACK) priors[i] = 0.0f;
}

/* Attachment points of the mover that placement id would create: cells
 * diagonal to it, not next to it, not forbidden to the mover and not already
 * its attachment points. */
static int new_points(const bk_board *b, int id)
{
    const bk_geometry *g = b->geom;
    const bk_orient *o = &bk_orients[g->orient_of[id]];
    const uint32_t *forbidden = b->forbidden[b->to_move], *attach = b->attach[b->to_move];
    int top = g->row_of[id] + BK_PAD, shift = g->col_of[id] + BK_PAD, n = 0;
    uint32_t cells[BK_MAX_PIECE_SIZE + 2] = {0}; /* rows top - 1 .. top + height */
    for (int k = 0; k < o->height; k++) cells[k + 1] = o->rows[k] << shift;
    for (int k = 0; k < o->height + 2; k++) {
        uint32_t above = k > 0 ? cells[k - 1] : 0, below = k + 1 < o->height + 2 ? cells[k + 1] : 0;
        uint32_t edge = cells[k] << 1 | cells[k] >> 1 | above | below | cells[k];
        uint32_t diag = (above | below) << 1 | (above | below) >> 1;
        int R = top - 1 + k;
        n += bk_popcount64(diag & ~edge & ~forbidden[R] & ~attach[R]);
    }
    return n;
}

int bk_prior_phase(const bk_board *b)
{
    int n = b->num_moves;
    return n < BK_PRIOR_OPENING ? 0 : n < BK_PRIOR_MIDDLE ? 1 : 2;
}

void bk_prior_features(const bk_board *b, const uint16_t *moves, int n, float *out)
{
    const bk_geometry *g = b->geom;
    uint32_t local[BK_ROWS], twice[BK_ROWS], rivals[BK_ROWS];
    uint8_t marks[BK_MAX_SIZE * BK_MAX_SIZE];
    local_points(b, local, twice);
    rival_points(b, rivals);
    mark_cells(b, local, twice, rivals, marks);
    int smallest = min_size(b);
    for (int i = 0; i < n; i++) {
        int id = moves[i], o = g->orient_of[id], size = bk_orients[o].size;
        float *x = out + (size_t)i * BK_PRIOR_FEATURES;
        for (int f = 0; f < BK_PRIOR_FEATURES; f++) x[f] = 0.0f;
        int m = move_marks(g, id, marks), count = m % BLOCK_MARK, block = m / BLOCK_MARK;
        x[BK_PRIOR_PIECE + bk_orients[o].piece] = 1.0f;
        x[BK_PRIOR_CORNERS] = (float)(orient_corners[o] - 1);
        x[BK_PRIOR_LOCAL] = (float)count;
        x[BK_PRIOR_ANY_LOCAL] = count > 0 ? 1.0f : 0.0f;
        x[BK_PRIOR_BLOCK] = (float)block;
        x[BK_PRIOR_ANY_BLOCK] = block > 0 ? 1.0f : 0.0f;
        x[BK_PRIOR_NEW_POINTS] = (float)new_points(b, id);
        x[BK_PRIOR_CENTRE] = centre_distance[g->index][id];
        x[BK_PRIOR_SMALL] = size < smallest ? 1.0f : 0.0f;
    }
}

void bk_policy_priors(const bk_board *b, const uint16_t *moves, int n, float *out)
{
    const bk_geometry *g = b->geom;
    const float *weight = piece_weight[b->variant == BK_DUO];
    uint32_t local[BK_ROWS], twice[BK_ROWS], rivals[BK_ROWS];
    uint8_t marks[BK_MAX_SIZE * BK_MAX_SIZE];
    local_points(b, local, twice);
    rival_points(b, rivals);
    mark_cells(b, local, twice, rivals, marks);
    int smallest = min_size(b);
    for (int i = 0; i < n; i++) {
        int id = moves[i], o = g->orient_of[id], m = move_marks(g, id, marks);
        out[i] = weight[o] * local_factor[m % BLOCK_MARK] * block_factor[m / BLOCK_MARK] *
                 (bk_orients[o].size < smallest ? PRIOR_SMALL_FACTOR : 1.0f);
    }
    if (b->geom->side == 20 && b->num_moves < CENTRE_PIECES) head_for_centre(b, moves, n, smallest, out);
}

void bk_policy_playout(bk_board *b, bk_rng *rng, bk_policy_scratch *scratch, const bk_replies *replies)
{
    bk_move_sets sets; /* on the stack: bk_cand_set's alignment is more than malloc's, which scratch may come from */
    while (b->to_move >= 0) { /* the colour to move may have no placement: bk_play_lazy did not look */
        int id = replies ? bk_replies_get(replies, b) : -1;
        if (id < 0) id = policy_move(b, rng, scratch, &sets);
        if (id >= 0)
            bk_play_lazy(b, id);
        else
            bk_out_of_moves(b);
    }
}

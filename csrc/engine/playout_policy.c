/* The playout policy; see playout_policy.h. */
#include "engine/playout_policy.h"

#include <stddef.h>

#include "core/movegen.h"
#include "core/play.h"
#include "engine/move_features.h"

#define DUO_SIZE_FACTOR 3.0f
#define DUO_CORNER_FACTOR 1.8f
#define CLASSIC_SIZE_FACTOR 5.0f
#define CLASSIC_CORNER_FACTOR 1.0f
/* Draw weight of each orientation's piece, by the variant's weight set
 * (core/variants.h): [BK_WEIGHTS_CLASSIC] 20x20 boards, [BK_WEIGHTS_DUO] Duo. */
static float piece_weight[BK_NUM_WEIGHT_SETS][BK_NUM_ORIENTS];
/* piece_weight by move-generation candidate (movegen.h), for the playouts. */
static float cand_weight[BK_NUM_WEIGHT_SETS][BK_NUM_CANDIDATES];
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
    static int done = 0; /* once: a module loaded again must not rewrite tables a search reads */
    if (done) return;
    done = 1;
    bk_move_features_init();
    for (int o = 0; o < BK_NUM_ORIENTS; o++) {
        int size = bk_orients[o].size, k = corners(&bk_orients[o]) - 1;
        piece_weight[BK_WEIGHTS_CLASSIC][o] = power(CLASSIC_SIZE_FACTOR, size) * power(CLASSIC_CORNER_FACTOR, k);
        piece_weight[BK_WEIGHTS_DUO][o] = power(DUO_SIZE_FACTOR, size) * power(DUO_CORNER_FACTOR, k);
    }
    for (int i = 0; i < BK_NUM_CANDIDATES; i++)
        for (int set = 0; set < BK_NUM_WEIGHT_SETS; set++) cand_weight[set][i] = piece_weight[set][bk_cand_orient(i)];
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
    int size = bk_min_size(b); /* at size 1 every piece is in: no move at all */
    if (!bk_collect_live_moves(b, b->to_move, bk_cands_of_size(size), &s->dead, ms) &&
        (size == 1 || !bk_collect_live_moves(b, b->to_move, NULL, &s->dead, ms))) /* no large piece fits: every piece */
        return -1;
    const float *weight = cand_weight[bk_variant_facts(b->variant)->weights];
    uint32_t local[BK_ROWS], twice[BK_ROWS], any_local = bk_local_points(b, local, twice);
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

void bk_policy_playout(bk_board *b, bk_rng *rng, bk_policy_scratch *scratch, const bk_replies *replies,
                       const bk_dead_points *dead)
{
    scratch->dead = *dead; /* the playout adds those it finds */
    bk_move_sets sets; /* on the stack: bk_cand_set's alignment is more than malloc's, which scratch may come from */
    while (b->to_move >= 0) { /* the colour to move may have no placement: bk_play_rough did not look */
        int id = replies ? bk_replies_get(replies, b) : -1;
        if (id < 0) id = policy_move(b, rng, scratch, &sets);
        if (id >= 0)
            bk_play_rough(b, id);
        else
            bk_out_of_moves(b);
    }
}

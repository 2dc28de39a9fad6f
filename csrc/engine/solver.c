/* Exact endgame solver (solver.h). */
#include "engine/solver.h"

#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/play.h"
#include "core/score.h"

#define INF 10000 /* beyond every margin: |margin| <= 2 * (BK_TOTAL_SQUARES + BK_BONUS_MONOMINO_LAST) */
#define NO_MOVE 0xFFFF
#define BUCKET 4 /* entries per bucket: one cache line */
#define MAX_PLIES (BK_MAX_HISTORY + 1)
#define MONOMINO 0 /* the piece index of `1` (bk_piece_names) */

/* What a solve has proved about one position: lo <= value <= hi (value: the
 * final margin of side 0), the best move found (NO_MOVE: none), the log2 of
 * the nodes it took (what replacement keeps) and the solve that wrote it. */
typedef struct {
    uint64_t key;
    int16_t lo, hi;
    uint16_t move;
    uint8_t work, age;
} tt_entry;

struct bk_solver {
    bk_board board; /* the position being searched, played and undone in place */
    tt_entry *table;
    uint64_t table_mask; /* of the first entry of a bucket */
    uint8_t age;
    int8_t side_of_colour[BK_MAX_COLOURS];
    uint64_t key_salt; /* per variant and start rule: one table never mixes boards of two variants */
    uint64_t nodes, max_nodes;
    int aborted;
    uint16_t moves[BK_MAX_MOVES]; /* where the move generator writes, copied at once to `order` */
    /* One list of moves per ply, each right after its parent's, as ordering
     * score << 16 | placement id: room for MAX_PLIES full lists. */
    uint64_t *order;
    int32_t root_values[BK_MAX_MOVES]; /* each root move's exact value, or -INF: not shown to reach the best */
    uint16_t killers[MAX_PLIES][2];
    uint32_t history[BK_MAX_COLOURS][BK_MAX_PLACEMENTS]; /* cut-offs made by each colour's placement */
};

int bk_solver_supports(int variant)
{
    const bk_variant_info *v = bk_variant_facts(variant);
    int seen = 0;
    for (int c = 0; c < v->num_colours; c++) {
        if (v->side_of_colour[c] < 0 || v->side_of_colour[c] > 1) return 0;
        seen |= 1 << v->side_of_colour[c];
    }
    return seen == 3;
}

bk_solver *bk_solver_new(int table_bits)
{
    if (table_bits < 10 || table_bits > 30) return NULL;
    bk_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    size_t entries = (size_t)1 << table_bits;
    s->table = calloc(entries, sizeof *s->table);
    s->order = malloc((size_t)MAX_PLIES * BK_MAX_MOVES * sizeof *s->order);
    if (!s->table || !s->order) {
        bk_solver_free(s);
        return NULL;
    }
    s->table_mask = (uint64_t)(entries - 1) & ~(uint64_t)(BUCKET - 1);
    return s;
}

void bk_solver_free(bk_solver *s)
{
    if (!s) return;
    free(s->table);
    free(s->order);
    free(s);
}

/* ---- values ------------------------------------------------------------------ */

static int side_sign(const bk_board *b, int colour)
{
    return bk_variant_facts(b->variant)->side_of_colour[colour] == 0 ? 1 : -1;
}

int bk_final_margin(const bk_board *b)
{
    int margin = 0;
    for (int c = 0; c < b->num_colours; c++) margin += side_sign(b, c) * bk_colour_score(b, c);
    return margin;
}

/* The range of colour c's final score: fixed once it is out or has placed
 * everything; else from what it has now (it places nothing more) to all
 * placed, the monomino last if it is still in hand (solver.h says why no
 * tighter bound). */
static void colour_range(const bk_board *b, int c, int *worst, int *best)
{
    if (!b->remaining[c] || (b->out >> c & 1u)) {
        *worst = *best = bk_colour_score(b, c);
        return;
    }
    *worst = -b->squares_left[c];
    *best = (b->remaining[c] >> MONOMINO & 1u) ? BK_BONUS_MONOMINO_LAST : BK_BONUS_ALL_PLACED;
}

/* Bounds on the final margin of side 0 from each colour's score range. */
static void margin_bounds(const bk_solver *s, const bk_board *b, int *lo, int *hi)
{
    *lo = *hi = 0;
    for (int c = 0; c < b->num_colours; c++) {
        int worst, best;
        colour_range(b, c, &worst, &best);
        if (s->side_of_colour[c] == 0) {
            *lo += worst;
            *hi += best;
        } else {
            *lo -= best;
            *hi -= worst;
        }
    }
}

/* ---- transposition table ------------------------------------------------------ */

static uint64_t position_key(const bk_solver *s, const bk_board *b)
{
    return bk_key(b) ^ s->key_salt;
}

static tt_entry *tt_find(bk_solver *s, uint64_t key)
{
    tt_entry *bucket = &s->table[key & s->table_mask];
    for (int i = 0; i < BUCKET; i++)
        if (bucket[i].key == key && bucket[i].age) return &bucket[i];
    return NULL;
}

static int log2_of(uint64_t n)
{
    int k = 0;
    while (n >>= 1) k++;
    return k;
}

/* Adds lo <= value <= hi for the position `key`, merged with what is known:
 * else over the bucket's entry of an older solve or, among this solve's, the
 * one that took the least work. */
static void tt_store(bk_solver *s, uint64_t key, int lo, int hi, int move, uint64_t nodes)
{
    tt_entry *e = tt_find(s, key);
    if (!e) {
        tt_entry *bucket = &s->table[key & s->table_mask];
        e = &bucket[0];
        for (int i = 1; i < BUCKET && e->age == s->age; i++)
            if (bucket[i].age != s->age || bucket[i].work < e->work) e = &bucket[i];
        *e = (tt_entry){key, -INF, INF, NO_MOVE, 0, s->age};
    }
    if (lo > e->lo) e->lo = (int16_t)lo;
    if (hi < e->hi) e->hi = (int16_t)hi;
    if (move != NO_MOVE) e->move = (uint16_t)move;
    int work = log2_of(nodes);
    if (work > e->work) e->work = (uint8_t)work;
    e->age = s->age;
}

/* ---- move ordering -------------------------------------------------------------- */

#define FIRST_SCORE INT32_MAX /* the table's move */
#define KILLER_SCORE (INT32_MAX - 2)
#define SIZE_SHIFT 24 /* larger pieces first, then the history of cut-offs */
#define ID_BITS 16
#define ID_MASK 0xFFFFu
#define PICKED 8 /* moves picked one by one before the rest is sorted */

/* Copies the n moves of s->moves to order, each with its ordering score. */
static void order_moves(const bk_solver *s, uint64_t *order, int n, int ply, int first)
{
    const bk_board *b = &s->board;
    const uint32_t *history = s->history[b->to_move];
    const uint32_t cap = (1u << SIZE_SHIFT) - 1u;
    for (int i = 0; i < n; i++) {
        int id = s->moves[i];
        int32_t score = (int32_t)bk_orients[b->geom->orient_of[id]].size << SIZE_SHIFT |
                        (int32_t)(history[id] < cap ? history[id] : cap);
        if (id == first) score = FIRST_SCORE;
        else if (id == s->killers[ply][0]) score = KILLER_SCORE;
        else if (id == s->killers[ply][1]) score = KILLER_SCORE - 1;
        order[i] = (uint64_t)score << ID_BITS | (uint64_t)id;
    }
}

static int by_score_descending(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a < b) - (a > b);
}

/* Brings the best-scored move of [i, n) to i: the first few one by one, as a
 * cut-off usually comes early, then the rest sorted at once. */
static int next_move(uint64_t *order, int i, int n)
{
    if (i < PICKED) {
        int k = i;
        for (int j = i + 1; j < n; j++)
            if (order[j] > order[k]) k = j;
        uint64_t m = order[i];
        order[i] = order[k];
        order[k] = m;
    } else if (i == PICKED) {
        qsort(order + i, (size_t)(n - i), sizeof *order, by_score_descending);
    }
    return (int)(order[i] & ID_MASK);
}

static void note_cutoff(bk_solver *s, int colour, int id, int ply)
{
    s->history[colour][id]++;
    if (s->killers[ply][0] != id) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = (uint16_t)id;
    }
}

/* ---- search ------------------------------------------------------------------------ */

static int search(bk_solver *s, uint64_t *order, int ply, int alpha, int beta);

/* The value of the position after a move, searched with a null window
 * around the bound to beat (principal variation search), again with the
 * full window only when it beats it. */
static int child_value(bk_solver *s, uint64_t *order, int ply, int maximizing, int alpha, int beta, int full)
{
    if (full) return search(s, order, ply, alpha, beta);
    int v = maximizing ? search(s, order, ply, alpha, alpha + 1) : search(s, order, ply, beta - 1, beta);
    if (!s->aborted && v > alpha && v < beta) v = search(s, order, ply, alpha, beta);
    return v;
}

/* The final margin of side 0 from the position on s->board (the colour to
 * move maybe not yet known to have a move: bk_play_lazy), fail-soft: a
 * value <= alpha is an upper bound, >= beta a lower bound, else exact.
 * order: room for this ply's move list and the deeper ones'. */
static int search(bk_solver *s, uint64_t *order, int ply, int alpha, int beta)
{
    bk_board *b = &s->board;
    if (s->nodes >= s->max_nodes) {
        s->aborted = 1;
        return 0;
    }
    uint64_t first_node = s->nodes++, key;
    int n, lo, hi, first;
    for (;;) { /* until a colour with a move is to move: the lazy turn passes here */
        if (b->to_move < 0) return bk_final_margin(b);
        key = position_key(s, b);
        margin_bounds(s, b, &lo, &hi);
        const tt_entry *e = tt_find(s, key);
        first = e ? e->move : NO_MOVE; /* this colour's: not one of a colour passed over */
        if (e) {
            lo = e->lo > lo ? e->lo : lo;
            hi = e->hi < hi ? e->hi : hi;
        }
        if (lo >= beta || lo == hi) return lo;
        if (hi <= alpha) return hi;
        if ((n = bk_gen_moves(b, b->to_move, s->moves)) > 0) break;
        bk_out_of_moves(b);
    }
    alpha = lo > alpha ? lo : alpha;
    beta = hi < beta ? hi : beta;
    int colour = b->to_move, maximizing = s->side_of_colour[colour] == 0;
    int best = maximizing ? -INF : INF, best_move = NO_MOVE, a = alpha, bt = beta;
    order_moves(s, order, n, ply, first);
    for (int i = 0; i < n; i++) {
        int id = next_move(order, i, n);
        bk_play_lazy(b, id);
        int v = child_value(s, order + n, ply + 1, maximizing, a, bt, i == 0);
        bk_undo(b);
        if (s->aborted) return 0;
        if (maximizing ? v > best : v < best) best = v, best_move = id;
        if (maximizing && v > a) a = v;
        if (!maximizing && v < bt) bt = v;
        if (a >= bt) {
            note_cutoff(s, colour, id, ply);
            break;
        }
    }
    int fail_low = best <= alpha, fail_high = best >= beta;
    tt_store(s, key, fail_low ? -INF : best, fail_high ? INF : best,
             (maximizing ? fail_low : fail_high) ? NO_MOVE : best_move, s->nodes - first_node);
    return best;
}

/* Orders the root's n moves (in s->moves) into s->order, the table's best
 * move first, all of them sorted (every root move is searched); returns the
 * root's key. */
static uint64_t order_root(bk_solver *s, int n)
{
    uint64_t key = position_key(s, &s->board);
    const tt_entry *e = tt_find(s, key);
    order_moves(s, s->order, n, 0, e ? e->move : NO_MOVE);
    qsort(s->order, (size_t)n, sizeof *s->order, by_score_descending);
    return key;
}

/* The root's n moves (in s->moves), each valued well enough to tell which
 * achieve the best margin (all_best: a null window just below the best so
 * far, so that a tie is proved a tie), as the colour to move sees it. */
static int solve_root(bk_solver *s, int n, int all_best, uint16_t *best, int *num_best)
{
    bk_board *b = &s->board;
    int sign = s->side_of_colour[b->to_move] == 0 ? 1 : -1, best_u = -INF;
    uint64_t key = order_root(s, n);
    for (int i = 0; i < n && !s->aborted; i++) {
        int a = i == 0 ? -INF : all_best ? best_u - 1 : best_u, u;
        bk_play_lazy(b, (int)(s->order[i] & ID_MASK));
        if (sign > 0) u = child_value(s, s->order + n, 1, 1, a, INF, i == 0);
        else u = -child_value(s, s->order + n, 1, 0, -INF, -a, i == 0);
        bk_undo(b);
        s->root_values[i] = u > a ? u : -INF;
        if (u > best_u) best_u = u;
    }
    if (s->aborted) return 0;
    *num_best = 0;
    for (int i = 0; i < n; i++)
        if (s->root_values[i] == best_u) best[(*num_best)++] = (uint16_t)(s->order[i] & ID_MASK);
    tt_store(s, key, sign * best_u, sign * best_u, best[0], s->nodes);
    return best_u;
}

/* The root's n moves (in s->moves) searched for the outcome alone, as
 * the colour to move sees it: 1 (a win), 0 (a draw) or -1 (a loss), each
 * move with a window that tells only whether it beats the best outcome so
 * far; the first move of the best outcome into best[0].  A win ends the
 * search. */
static int solve_root_outcome(bk_solver *s, int n, uint16_t *best)
{
    bk_board *b = &s->board;
    int sign = s->side_of_colour[b->to_move] == 0 ? 1 : -1, best_u = -INF;
    order_root(s, n);
    for (int i = 0; i < n && !s->aborted && best_u < 1; i++) {
        int a = best_u < -1 ? -1 : best_u, u, id = (int)(s->order[i] & ID_MASK);
        bk_play_lazy(b, id);
        u = sign > 0 ? search(s, s->order + n, 1, a, 1) : -search(s, s->order + n, 1, -1, -a);
        bk_undo(b);
        if (!s->aborted && u > best_u) {
            best_u = u > 1 ? 1 : u < -1 ? -1 : u;
            best[0] = (uint16_t)id;
        }
    }
    return best_u;
}

bk_status bk_solve(bk_solver *s, const bk_board *b, uint64_t max_nodes, int all_best, int outcome, uint16_t *best,
                   bk_solve_result *out)
{
    if (!bk_solver_supports(b->variant)) return BK_ERR_BAD_VARIANT;
    s->board = *b;
    if (++s->age == 0) s->age = 1; /* 0 marks an empty entry */
    s->nodes = 1;                  /* the root */
    s->max_nodes = max_nodes;
    s->aborted = 0;
    s->key_salt = 0x9E3779B97F4A7C15ull * (uint64_t)(1 + 2 * b->variant + b->start);
    memcpy(s->side_of_colour, bk_variant_facts(b->variant)->side_of_colour, sizeof s->side_of_colour);
    memset(s->killers, 0xFF, sizeof s->killers);
    bk_board *w = &s->board;
    int n = 0;
    while (w->to_move >= 0 && (n = bk_gen_moves(w, w->to_move, s->moves)) == 0) bk_out_of_moves(w);
    if (w->to_move < 0) {
        int margin = bk_final_margin(w);
        *out = (bk_solve_result){1, 0, outcome ? (margin > 0) - (margin < 0) : margin, 0, 1};
        return BK_OK;
    }
    *out = (bk_solve_result){0, s->side_of_colour[w->to_move], 0, 0, 1};
    int margin = outcome ? solve_root_outcome(s, n, best) : solve_root(s, n, all_best, best, &out->num_best);
    out->nodes = s->nodes;
    if (!s->aborted) {
        out->exact = 1;
        out->margin = margin;
        if (outcome) out->num_best = 1;
    }
    return BK_OK;
}

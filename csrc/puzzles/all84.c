/* "All 84": beam search over the moves of all four colours. */
#include "puzzles/all84.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/play.h"
#include "engine/playout.h" /* bk_rng */

#define FIRST_WIDTH 16
#define MAX_WIDTH 4096 /* two beams of positions: 2 x 4096 x 2.5 KB */
/* The cheap score keeps this many times the width of children for the fine
 * one, which picks the beam among them after merging transpositions. */
#define KEEP_FACTOR 4

/* Weights of the scores, tuned on the empty board: with these, beams of
 * width 256-4096 place all 84 pieces for most seeds, and without the
 * pocket and piece terms they never did (34 to 20 squares left). */
#define W_DEAD 4.0f    /* per dead cell: one of the few a full solution may leave empty, gone for good */
#define W_POCKET 1.0f  /* per empty cell walled in on three or four sides */
#define W_AWKWARD 2.0f /* per awkward piece placed (I5, I4, O, X), on top of its squares */
#define W_POINTS 1.0f  /* per attachment point of a colour, up to POINTS_CAP */
#define POINTS_CAP 12
#define W_STUCK 1.0f   /* per square of a piece in hand with no legal placement now */
#define W_MOVES 2.0f   /* per doubling of a colour's legal moves */
#define NOISE 0.5f     /* random tie-breaks: at most this much added to a score */

typedef struct {
    float score;
    uint32_t parent; /* index in the ply's beam */
    uint16_t move;
    uint64_t key;
} child;

struct bk_all84 {
    bk_board start;
    bk_rng rng;
    uint32_t awkward;     /* bit p: piece p is awkward late (I5, I4, O, X) */
    int width;            /* of the beam running */
    bk_board *cur, *next; /* `capacity` positions each, grown with the width */
    int capacity;
    int ncur, index; /* positions of the ply being expanded; the next to expand */
    child *heap;     /* a min-heap of the best children of the ply so far, by the cheap score */
    int nheap;
    uint64_t *seen; /* 2 x KEEP_FACTOR x capacity slots, open addressing: keys taken this ply (0: free) */
    uint16_t *moves;
    uint16_t best_moves[BK_MAX_HISTORY];
    int best_len, best_left;
    int64_t work;
    int beams, solved;
};

/* ---- evaluation ----------------------------------------------------------- */

static uint32_t board_bits(int side)
{
    return ((1u << side) - 1u) << BK_PAD;
}

static int squares_left(const bk_board *b)
{
    int n = 0;
    for (int c = 0; c < b->num_colours; c++) n += b->squares_left[c];
    return n;
}

/* Empty cells that no colour with pieces in hand can ever cover: next to
 * its own cells for every one of them.  Cells only ever get more forbidden,
 * so these stay empty to the end. */
static int dead_cells(const bk_board *b)
{
    uint32_t inside = board_bits(b->side);
    int dead = 0;
    for (int r = 0; r < b->side; r++) {
        int R = r + BK_PAD;
        uint32_t d = inside & ~b->occupied[R];
        for (int c = 0; c < b->num_colours && d; c++)
            if (b->remaining[c]) d &= b->forbidden[c][R];
        dead += bk_popcount64(d);
    }
    return dead;
}

/* Empty cells beyond the squares still in hand: what a full solution leaves
 * empty at the end (44 from the empty board). */
static int slack(const bk_board *b)
{
    int empty = 0;
    uint32_t inside = board_bits(b->side);
    for (int r = 0; r < b->side; r++) empty += bk_popcount64(inside & ~b->occupied[r + BK_PAD]);
    return empty - squares_left(b);
}

/* Empty cells with at least three of their four sides blocked (occupied or
 * the board's edge): holes that only small pieces can still fill, and the
 * main waste of lines that failed.  Penalising them packs pieces tightly. */
static int pockets(const bk_board *b)
{
    uint32_t inside = board_bits(b->side);
    int n = 0;
    for (int r = 0; r < b->side; r++) {
        int R = r + BK_PAD;
        uint32_t here = b->occupied[R] | ~inside;
        uint32_t up = r == 0 ? ~0u : b->occupied[R - 1] | ~inside;
        uint32_t down = r == b->side - 1 ? ~0u : b->occupied[R + 1] | ~inside;
        uint32_t left = here << 1, right = here >> 1; /* the neighbour's bit, moved onto the cell */
        uint32_t walled = (up & down & (left | right)) | (left & right & (up | down));
        n += bk_popcount64(walled & ~here);
    }
    return n;
}

/* Whether a colour is known to be out of moves with pieces in hand. */
static int out_with_pieces(const bk_board *b)
{
    for (int c = 0; c < b->num_colours; c++)
        if ((b->out >> c & 1u) && b->remaining[c]) return 1;
    return 0;
}

/* Whether the position can still lead to every piece placed, as far as a
 * cheap look can tell: every colour with pieces in hand can still move (a
 * colour that cannot never will: docs/rules.md), and there are no more dead
 * cells than empty cells to spare. */
static int alive(const bk_board *b)
{
    for (int c = 0; c < b->num_colours; c++)
        if (b->remaining[c] && ((b->out >> c & 1u) || !bk_has_move(b, c))) return 0;
    return dead_cells(b) <= slack(b);
}

/* What both scores share: squares placed (big pieces first), awkward
 * pieces placed while there is room for them, minus dead cells and pockets. */
static float base_score(const bk_all84 *s, const bk_board *b)
{
    int awkward = 0;
    for (int c = 0; c < b->num_colours; c++) awkward += bk_popcount64(s->awkward & ~b->remaining[c]);
    return (float)-squares_left(b) + W_AWKWARD * (float)awkward - W_DEAD * (float)dead_cells(b) -
           W_POCKET * (float)pockets(b);
}

/* The cheap score, of every child: base_score plus each colour's room to go
 * on, its attachment points (worth less and less past a few). */
static float cheap_score(const bk_all84 *s, const bk_board *b)
{
    float score = base_score(s, b);
    for (int c = 0; c < b->num_colours; c++) {
        if (!b->remaining[c]) continue;
        int points = POINTS_CAP; /* before its first piece: a corner is enough */
        if (b->placed[c] > 0) {
            points = 0;
            for (int r = 0; r < b->side && points < POINTS_CAP; r++) points += bk_popcount64(b->attach[c][r + BK_PAD]);
        }
        score += W_POINTS * (float)(points < POINTS_CAP ? points : POINTS_CAP);
    }
    return score;
}

/* The fine score, of the children the cheap one keeps: base_score, and for
 * each colour the squares of its pieces in hand that fit nowhere now (a
 * piece that fits nowhere only fits later if the colour makes room for it
 * itself) and how many legal moves it has. */
static float fine_score(const bk_all84 *s, const bk_board *b)
{
    float score = base_score(s, b);
    for (int c = 0; c < b->num_colours; c++) {
        if (!b->remaining[c]) continue;
        int n = bk_gen_moves(b, c, s->moves);
        uint32_t fits = 0;
        for (int k = 0; k < n; k++) fits |= 1u << bk_orients[b->geom->orient_of[s->moves[k]]].piece;
        int stuck = 0;
        for (uint32_t p = b->remaining[c] & ~fits; p; p &= p - 1) stuck += bk_piece_size[bk_ctz(p)];
        score += -W_STUCK * (float)stuck + W_MOVES * log2f(1.0f + (float)n);
    }
    return score;
}

/* A random tie-break in [0, NOISE). */
static float noise(bk_all84 *s)
{
    return NOISE * (float)(bk_rng_next(&s->rng) >> 40) / (float)(1u << 24);
}

/* ---- the selection heap ------------------------------------------------------ */

static void sift_down(child *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < n && h[l].score < h[m].score) m = l;
        if (l + 1 < n && h[l + 1].score < h[m].score) m = l + 1;
        if (m == i) return;
        child t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void sift_up(child *h, int i)
{
    while (i > 0 && h[(i - 1) / 2].score > h[i].score) {
        child t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static void offer(bk_all84 *s, child c)
{
    int cap = KEEP_FACTOR * s->width;
    if (s->nheap < cap) {
        s->heap[s->nheap] = c;
        sift_up(s->heap, s->nheap++);
    } else if (c.score > s->heap[0].score) {
        s->heap[0] = c;
        sift_down(s->heap, s->nheap, 0);
    }
}

static int by_score_desc(const void *a, const void *b)
{
    float x = ((const child *)a)->score, y = ((const child *)b)->score;
    return (x < y) - (x > y);
}

/* ---- the search ---------------------------------------------------------------- */

static void note_best(bk_all84 *s, const bk_board *b)
{
    int left = squares_left(b);
    if (left >= s->best_left) return;
    s->best_left = left;
    s->best_len = b->num_moves - s->start.num_moves;
    for (int i = 0; i < s->best_len; i++) s->best_moves[i] = b->history[s->start.num_moves + i].id;
}

/* Makes room for beams of width `width`; 0 when out of memory. */
static int reserve(bk_all84 *s, int width)
{
    if (width <= s->capacity) return 1;
    bk_board *cur = realloc(s->cur, (size_t)width * sizeof *cur);
    if (cur) s->cur = cur;
    bk_board *next = realloc(s->next, (size_t)width * sizeof *next);
    if (next) s->next = next;
    child *heap = realloc(s->heap, (size_t)KEEP_FACTOR * width * sizeof *heap);
    if (heap) s->heap = heap;
    uint64_t *seen = realloc(s->seen, (size_t)2 * KEEP_FACTOR * width * sizeof *seen);
    if (seen) s->seen = seen;
    if (!cur || !next || !heap || !seen) return 0;
    s->capacity = width;
    return 1;
}

static void begin_beam(bk_all84 *s)
{
    s->cur[0] = s->start;
    s->ncur = 1;
    s->index = 0;
    s->nheap = 0;
}

bk_all84 *bk_all84_new(const bk_board *start, uint64_t seed)
{
    bk_all84 *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->start = *start;
    bk_rng_seed(&s->rng, seed, 0);
    for (int p = 0; p < BK_NUM_PIECES; p++) {
        const char *name = bk_piece_names[p];
        if (!strcmp(name, "I5") || !strcmp(name, "I4") || !strcmp(name, "O") || !strcmp(name, "X"))
            s->awkward |= 1u << p;
    }
    s->moves = malloc(BK_MAX_MOVES * sizeof *s->moves);
    s->width = FIRST_WIDTH;
    if (!s->moves || !reserve(s, s->width)) {
        bk_all84_free(s);
        return NULL;
    }
    s->best_left = squares_left(start) + 1;
    note_best(s, start);
    begin_beam(s);
    return s;
}

void bk_all84_free(bk_all84 *s)
{
    if (!s) return;
    free(s->cur);
    free(s->next);
    free(s->heap);
    free(s->seen);
    free(s->moves);
    free(s);
}

/* Offers every child of position i of the ply to the selection. */
static void expand(bk_all84 *s, int i)
{
    bk_board *b = &s->cur[i];
    int n = b->to_move < 0 ? 0 : bk_gen_moves(b, b->to_move, s->moves);
    for (int k = 0; k < n; k++) {
        bk_play_unchecked(b, s->moves[k]);
        if (!out_with_pieces(b)) /* the cheap part of alive(): playing looked at the next colour */
            offer(s, (child){cheap_score(s, b) + noise(s), (uint32_t)i, s->moves[k], bk_key(b)});
        bk_undo(b);
    }
    s->work += n;
}

/* Adds a position's key to the set; 0 when it was there already. */
static int take_key(uint64_t *seen, size_t slots, uint64_t key)
{
    key |= 1; /* 0 marks a free slot */
    for (size_t i = (size_t)(key >> 7) & (slots - 1);; i = (i + 1) & (slots - 1)) {
        if (seen[i] == key) return 0;
        if (!seen[i]) {
            seen[i] = key;
            return 1;
        }
    }
}

/* Turns the selection into the next ply's beam: the children kept by the
 * cheap score are scored again finely, then the best distinct ones still
 * alive are played.  Returns 1 when one is a solution. */
static int next_ply(bk_all84 *s)
{
    bk_board *scratch = &s->next[0];
    int kept = 0;
    for (int k = 0; k < s->nheap; k++) {
        *scratch = s->cur[s->heap[k].parent];
        bk_play_unchecked(scratch, s->heap[k].move);
        note_best(s, scratch);
        if (s->best_left == 0) return 1;
        if (!alive(scratch)) continue;
        s->heap[kept] = s->heap[k];
        s->heap[kept++].score = fine_score(s, scratch) + noise(s);
    }
    s->work += s->nheap;
    qsort(s->heap, (size_t)kept, sizeof *s->heap, by_score_desc);
    int n = 0;
    size_t slots = (size_t)2 * KEEP_FACTOR * s->width; /* a power of two */
    memset(s->seen, 0, slots * sizeof *s->seen);
    for (int k = 0; k < kept && n < s->width; k++) {
        if (!take_key(s->seen, slots, s->heap[k].key)) continue; /* a transposition */
        s->next[n] = s->cur[s->heap[k].parent];
        bk_play_unchecked(&s->next[n++], s->heap[k].move);
    }
    bk_board *t = s->cur;
    s->cur = s->next;
    s->next = t;
    s->ncur = n;
    s->index = 0;
    s->nheap = 0;
    return 0;
}

bk_search_result bk_all84_run(bk_all84 *s, int64_t work)
{
    if (s->best_left == 0) s->solved = 1;
    if (s->solved) return BK_SEARCH_FOUND;
    if (!alive(&s->start)) return BK_SEARCH_EXHAUSTED;
    int64_t stop = s->work + work;
    while (s->work < stop) {
        if (s->index < s->ncur) {
            expand(s, s->index++);
            continue;
        }
        if (next_ply(s)) {
            s->solved = 1;
            return BK_SEARCH_FOUND;
        }
        if (s->ncur == 0) { /* this beam died out: a wider one, with other tie-breaks */
            s->beams++;
            if (s->width < MAX_WIDTH && reserve(s, 2 * s->width)) s->width *= 2;
            begin_beam(s);
        }
    }
    return BK_SEARCH_BUDGET;
}

int bk_all84_best(const bk_all84 *s, uint16_t *moves, int *left)
{
    memcpy(moves, s->best_moves, (size_t)s->best_len * sizeof *moves);
    *left = s->best_left;
    return s->best_len;
}

int64_t bk_all84_work(const bk_all84 *s)
{
    return s->work;
}

int bk_all84_beams(const bk_all84 *s)
{
    return s->beams;
}

int bk_all84_width(const bk_all84 *s)
{
    return s->width;
}

/* Legal-move generation.
 *
 * Every legal placement covers at least one attachment point of its colour
 * (the cell touching its own colour diagonally is one, since no cell of a
 * legal placement is forbidden).  So for each attachment point p we try the
 * candidates: every (orientation, cell of it put on p), 414 in all.  A
 * candidate is judged inside the 9x9 window centred on p with two 128-bit
 * tests: none of its cells is forbidden, and none of its cells that comes
 * before p in row-major order is an attachment point (so a placement that
 * covers several attachment points is produced once, from its first).
 *
 * The candidates are sorted into lists by the forbidden pattern of the 8
 * cells around p, and by piece: at an attachment point at least three of
 * those 8 are forbidden, which rules most candidates out before any test. */
#include "movegen.h"

#include <stddef.h>

#define WIN 9                 /* window side: p at (4, 4) */
#define NUM_CANDIDATES 414    /* sum over the 91 orientations of their sizes */
#define NUM_PATTERNS 256

/* A 9x9 window as two words: rows 0..6 in lo (bit 9 * row + col), rows 7..8 in hi. */
typedef struct {
    uint64_t lo, hi;
} window;

typedef struct {
    window cells;   /* the candidate's cells, relative to the window */
    window before;  /* its cells before p in row-major order */
    uint8_t orient, dr, dc; /* p is cell (dr, dc) of the orientation's box */
    uint8_t ring;   /* which of the 8 cells around p it covers */
} candidate;

static candidate candidates[NUM_CANDIDATES];
/* Candidates compatible with forbidden pattern `pat` for piece k:
 * list_items[list_start[pat][k] .. list_start[pat][k + 1]). */
static uint32_t list_start[NUM_PATTERNS][BK_NUM_PIECES + 1];
static uint16_t list_items[NUM_PATTERNS * NUM_CANDIDATES];

static void window_set(window *w, int r, int c)
{
    if (r < 7)
        w->lo |= 1ull << (WIN * r + c);
    else
        w->hi |= 1ull << (WIN * (r - 7) + c);
}

/* Bit i of the ring: the 8 neighbours of the centre in row-major order. */
static int ring_bit(int r, int c)
{
    static const int8_t index[3][3] = {{0, 1, 2}, {3, -1, 4}, {5, 6, 7}};
    if (r < 3 || r > 5 || c < 3 || c > 5) return -1;
    return index[r - 3][c - 3];
}

void bk_movegen_init(void)
{
    int n = 0, items = 0;
    for (int o = 0; o < BK_NUM_ORIENTS; o++) {
        const bk_orient *or_ = &bk_orients[o];
        for (int k = 0; k < or_->size; k++, n++) {
            candidate *cd = &candidates[n];
            *cd = (candidate){{0, 0}, {0, 0}, (uint8_t)o, (uint8_t)or_->cells[k].r,
                              (uint8_t)or_->cells[k].c, 0};
            for (int i = 0; i < or_->size; i++) {
                int r = 4 + or_->cells[i].r - cd->dr, c = 4 + or_->cells[i].c - cd->dc;
                int bit = ring_bit(r, c);
                window_set(&cd->cells, r, c);
                if (i < k) window_set(&cd->before, r, c); /* cells are sorted row-major */
                if (bit >= 0) cd->ring |= (uint8_t)(1u << bit);
            }
        }
    }
    for (int pat = 0; pat < NUM_PATTERNS; pat++) {
        /* candidates are ordered by orientation, hence by piece */
        int i = 0;
        for (int piece = 0; piece < BK_NUM_PIECES; piece++) {
            list_start[pat][piece] = (uint32_t)items;
            for (; i < NUM_CANDIDATES && bk_orients[candidates[i].orient].piece == piece; i++)
                if ((candidates[i].ring & pat) == 0) list_items[items++] = (uint16_t)i;
        }
        list_start[pat][BK_NUM_PIECES] = (uint32_t)items;
    }
}

/* The window of padded rows centred on board cell (r, c). */
static inline window read_window(const uint32_t *rows, int r, int c)
{
    const uint32_t *p = rows + r; /* padded row r is window row 0 */
    window w = {0, 0};
    for (int i = 0; i < 7; i++) w.lo |= (uint64_t)(p[i] >> c & 0x1FFu) << (WIN * i);
    w.hi = (uint64_t)(p[7] >> c & 0x1FFu) | (uint64_t)(p[8] >> c & 0x1FFu) << WIN;
    return w;
}

/* The forbidden status of the 8 cells around the centre, as ring bits. */
static inline unsigned ring_pattern(window f)
{
    return (unsigned)((f.lo >> (WIN * 3 + 3) & 7u) | (f.lo >> (WIN * 4 + 3) & 1u) << 3 |
                      (f.lo >> (WIN * 4 + 5) & 1u) << 4 | (f.lo >> (WIN * 5 + 3) & 7u) << 5);
}

/* Calls emit for every legal placement produced at attachment point (r, c);
 * stops early when emit returns nonzero.  `attach` are the rows whose earlier
 * points already produce the placements they cover. */
typedef struct {
    const bk_board *b;
    int colour;
    uint16_t *out;
    int n;
    int stop_at_first;
} gen_ctx;

static inline int gen_at(gen_ctx *ctx, const uint32_t *attach, int r, int c)
{
    const bk_board *b = ctx->b;
    const bk_geometry *g = b->geom;
    window f = read_window(b->forbidden[ctx->colour], r, c);
    window a = read_window(attach, r, c);
    const uint32_t *start = list_start[ring_pattern(f)];
    uint32_t pieces = b->remaining[ctx->colour];
    uint16_t *out = ctx->out;
    int n = ctx->n;
    while (pieces) {
        int piece = bk_ctz(pieces);
        pieces &= pieces - 1;
        for (uint32_t k = start[piece]; k < start[piece + 1]; k++) {
            const candidate *cd = &candidates[list_items[k]];
            uint64_t bad = (cd->cells.lo & f.lo) | (cd->cells.hi & f.hi) |
                           (cd->before.lo & a.lo) | (cd->before.hi & a.hi);
            int o = cd->orient;
            out[n] = (uint16_t)bk_placement_id(g, o, r - cd->dr, c - cd->dc);
            n += bad == 0;
        }
        if (ctx->stop_at_first && n) break;
    }
    ctx->n = n;
    return ctx->stop_at_first && n;
}

static int generate(const bk_board *b, int colour, uint16_t *out, int stop_at_first)
{
    uint16_t scratch[NUM_CANDIDATES];
    gen_ctx ctx = {b, colour, out ? out : scratch, 0, stop_at_first};
    if (colour < 0 || colour >= b->num_colours || !b->remaining[colour]) return 0;
    if (b->placed[colour] == 0) {
        /* First piece: the free starting squares open to the colour are its
         * attachment points; no placement covers two of them. */
        static const uint32_t none[BK_ROWS];
        for (int i = 0; i < b->num_starts; i++) {
            int r = b->starts[i].r, c = b->starts[i].c;
            if (b->start == BK_START_FIXED && i != colour) continue;
            if (b->grid[r * b->side + c] >= 0) continue;
            if (gen_at(&ctx, none, r, c)) break;
        }
        return ctx.n;
    }
    const uint32_t *attach = b->attach[colour];
    for (int r = 0; r < b->side; r++) {
        uint32_t bits = attach[r + BK_PAD] >> BK_PAD;
        while (bits) {
            int c = bk_ctz(bits);
            bits &= bits - 1;
            if (gen_at(&ctx, attach, r, c)) return ctx.n;
        }
    }
    return ctx.n;
}

int bk_gen_moves(const bk_board *b, int colour, uint16_t *out)
{
    return generate(b, colour, out, 0);
}

int bk_has_move(const bk_board *b, int colour)
{
    return generate(b, colour, NULL, 1) > 0;
}

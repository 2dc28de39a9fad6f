/* Legal-move generation.
 *
 * Every legal placement covers at least one attachment point of its colour
 * (the cell touching its own colour diagonally is one, since no cell of a
 * legal placement is forbidden).  So for each attachment point p we consider
 * the candidates: every (orientation, cell of it put on p), 414 in all.
 *
 * A candidate's cells lie within 4 steps of p (Manhattan distance), in a
 * diamond of 40 cells around it.  The diamond is cut into 5 groups of at most
 * 9 cells, whole rows or runs of rows, so each group's status is read from the
 * bitboard rows with a few shifts; for each group and status a precomputed
 * bitset holds the candidates that cover none of its blocked cells.  ANDing
 * the 5 bitsets with the pieces in hand leaves exactly the legal placements
 * at p.  A cell is blocked when it is forbidden or, if it comes before p in
 * row-major order, an attachment point: so a placement that covers several
 * attachment points is produced once, from its first.  No candidate is ever
 * tested one by one. */
#include "core/movegen.h"

#include <stddef.h>
#include <string.h>

#define NUM_CANDIDATES BK_NUM_CANDIDATES
#define SET_WORDS BK_SET_WORDS /* 414 bits, padded to one 64-byte cache line */
#define NUM_GROUPS 5

typedef bk_cand_set cand_set;

/* Four bytes, so that listing a set's ids reads little memory.  Ids are
 * computed modulo 2^16: every true id fits in 16 bits. */
typedef struct {
    uint16_t id_base; /* placement id when p is board cell (0, 0), modulo 2^16 (may be "negative") */
    uint8_t per_row;  /* anchors per board row of its orientation */
    uint8_t width;    /* of its orientation: per_row = side - width + 1 */
} candidate;

/* The diamond's groups, each a list of (dr, dc) in bit order:
 * 0: rows -4..-2, 1: row -1, 2: row 0 without p, 3: row +1, 4: rows +2..+4. */
static const int8_t group_cells[NUM_GROUPS][9][2] = {
    {{-4, 0}, {-3, -1}, {-3, 0}, {-3, 1}, {-2, -2}, {-2, -1}, {-2, 0}, {-2, 1}, {-2, 2}},
    {{-1, -3}, {-1, -2}, {-1, -1}, {-1, 0}, {-1, 1}, {-1, 2}, {-1, 3}},
    {{0, -4}, {0, -3}, {0, -2}, {0, -1}, {0, 1}, {0, 2}, {0, 3}, {0, 4}},
    {{1, -3}, {1, -2}, {1, -1}, {1, 0}, {1, 1}, {1, 2}, {1, 3}},
    {{2, -2}, {2, -1}, {2, 0}, {2, 1}, {2, 2}, {3, -1}, {3, 0}, {3, 1}, {4, 0}}};
static const int group_size[NUM_GROUPS] = {9, 7, 8, 7, 9};
/* The groups' bits in a diamond word (bk_diamond); p itself is bit 40. */
static const int group_shift[NUM_GROUPS] = {0, 9, 16, 24, 31};
#define DIAMOND_P (1ull << 40)

/* compatible[offset[g] + status]: candidates covering no blocked cell of group g. */
static const int group_offset[NUM_GROUPS + 1] = {0, 512, 640, 896, 1024, 1536};
static cand_set compatible[1536];
/* The candidates of a set of pieces in hand, 7 pieces at a time:
 * hand_candidates[k][m] those of the pieces 7k + j for each bit j of m. */
#define HAND_CHUNK 7
_Static_assert(BK_NUM_PIECES % HAND_CHUNK == 0, "the pieces in hand are read in whole chunks");
static cand_set hand_candidates[BK_NUM_PIECES / HAND_CHUNK][1 << HAND_CHUNK];
static uint8_t candidate_orient[NUM_CANDIDATES];
static uint64_t candidate_diamond[NUM_CANDIDATES]; /* its cells, as a diamond word */
static cand_set size_candidates[BK_MAX_PIECE_SIZE + 1]; /* [n]: those of pieces of n squares or more */
/* Candidate data per geometry (ids depend on the board size), by bk_geometry.index. */
static candidate candidates[BK_NUM_GEOMETRIES][NUM_CANDIDATES];

static void set_add(cand_set *s, int i)
{
    s->w[i >> 6] |= 1ull << (i & 63);
}

/* Bits of group g covered by the orientation with its cell (dr, dc) on p. */
static unsigned group_use(const bk_orient *o, int dr, int dc, int g)
{
    unsigned used = 0;
    for (int i = 0; i < o->size; i++)
        for (int k = 0; k < group_size[g]; k++)
            if (o->cells[i].r - dr == group_cells[g][k][0] && o->cells[i].c - dc == group_cells[g][k][1])
                used |= 1u << k;
    return used;
}

const char *bk_movegen_init(void)
{
    int n = 0;
    for (int o = 0; o < BK_NUM_ORIENTS; o++) {
        const bk_orient *or_ = &bk_orients[o];
        if (n + or_->size > NUM_CANDIDATES)
            return "core/movegen.h: the orientations have more cells than BK_NUM_CANDIDATES";
        for (int k = 0; k < or_->size; k++, n++) {
            int dr = or_->cells[k].r, dc = or_->cells[k].c;
            for (int i = 0; i < BK_NUM_GEOMETRIES; i++) {
                const bk_geometry *g = bk_geometry_at(i);
                int per_row = g->orient_anchors_per_row[o];
                candidates[i][n] = (candidate){(uint16_t)(g->orient_first[o] - dr * per_row - dc), (uint8_t)per_row,
                                               (uint8_t)or_->width};
            }
            candidate_orient[n] = (uint8_t)o;
            candidate_diamond[n] = DIAMOND_P;
            for (int m = 0; m < 1 << HAND_CHUNK; m++)
                if (m >> (or_->piece % HAND_CHUNK) & 1) set_add(&hand_candidates[or_->piece / HAND_CHUNK][m], n);
            for (int size = 1; size <= or_->size; size++) set_add(&size_candidates[size], n);
            for (int g = 0; g < NUM_GROUPS; g++) {
                unsigned used = group_use(or_, dr, dc, g);
                candidate_diamond[n] |= (uint64_t)used << group_shift[g];
                for (unsigned status = 0; status < (1u << group_size[g]); status++)
                    if (!(used & status)) set_add(&compatible[group_offset[g] + status], n);
            }
        }
    }
    return n == NUM_CANDIDATES ? NULL : "core/movegen.h: the orientations have fewer cells than BK_NUM_CANDIDATES";
}

typedef struct {
    const bk_board *b;
    const candidate *cands;
    cand_set in_hand; /* candidates of the pieces still in hand */
    int colour;
} gen_ctx;

/* The status of the diamond's groups around p (padded column C): a bit for
 * each cell in the rows f, or in the rows a before p in row-major order;
 * f and a point at p's padded row. */
static inline void diamond_status(const uint32_t *f, const uint32_t *a, int C, unsigned status[NUM_GROUPS])
{
    uint32_t row0 = f[0] | (a[0] & ((1u << C) - 1u)); /* earlier points on p's row lie left of it */
    uint32_t mid = row0 >> (C - 4) & 0x1FFu;
    status[0] = ((f[-4] | a[-4]) >> C & 1u) | ((f[-3] | a[-3]) >> (C - 1) & 7u) << 1 |
                ((f[-2] | a[-2]) >> (C - 2) & 31u) << 4;
    status[1] = (f[-1] | a[-1]) >> (C - 3) & 127u;
    status[2] = (mid & 15u) | (mid >> 5) << 4;
    status[3] = f[1] >> (C - 3) & 127u;
    status[4] = (f[2] >> (C - 2) & 31u) | (f[3] >> (C - 1) & 7u) << 5 | (f[4] >> C & 1u) << 8;
}

/* s restricted to the candidates that cover no cell of the groups' status. */
static inline void keep_compatible(cand_set *s, const unsigned status[NUM_GROUPS])
{
    for (int g = 0; g < NUM_GROUPS; g++) {
        const cand_set *m = &compatible[group_offset[g] + status[g]];
        for (int w = 0; w < SET_WORDS; w++) s->w[w] &= m->w[w];
    }
}

/* The set of legal placements produced at attachment point (r, c), given
 * the colour's forbidden rows and the attachment rows that count as earlier
 * points (all zero for a first piece). */
static inline cand_set legal_at(const gen_ctx *ctx, const uint32_t *attach, int r, int c)
{
    unsigned status[NUM_GROUPS];
    diamond_status(ctx->b->forbidden[ctx->colour] + r + BK_PAD, attach + r + BK_PAD, c + BK_PAD, status);
    cand_set s = ctx->in_hand;
    keep_compatible(&s, status);
    return s;
}

static inline int set_count(const cand_set *s)
{
    int n = 0;
    for (int w = 0; w < SET_WORDS; w++) n += bk_popcount64(s->w[w]);
    return n;
}

/* The id of the k-th (from 0) placement of s, produced at (r, c). */
static int set_nth(const gen_ctx *ctx, const cand_set *s, int k, int r, int c)
{
    int w = 0;
    for (int n; (n = bk_popcount64(s->w[w])) <= k; w++) k -= n;
    uint64_t bits = s->w[w];
    while (k--) bits &= bits - 1;
    const candidate *cd = &ctx->cands[w * 64 + bk_ctz64(bits)];
    return (uint16_t)(cd->id_base + r * cd->per_row + c);
}

/* Calls fn for each attachment point of the colour with the legal set there
 * (only its candidates in `only`, unless NULL), until fn returns nonzero;
 * returns that value (0 when all were visited).  `dead`, unless NULL: per
 * board row, points to pass over (bk_dead_points), once the colour has a
 * piece on the board. */
typedef int (*point_fn)(const gen_ctx *ctx, const cand_set *s, int r, int c, void *arg);

/* Inlined into each caller, so that fn is too: it runs once per point. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int for_each_point(const bk_board *b, int colour, const cand_set *only, const uint32_t *dead,
                                 point_fn fn, void *arg)
{
    gen_ctx ctx = {b, candidates[b->geom->index], {{0}}, colour};
    int rc;
    if (colour < 0 || colour >= b->num_colours || !b->remaining[colour]) return 0;
    for (int k = 0; k < BK_NUM_PIECES / HAND_CHUNK; k++) {
        unsigned pieces = b->remaining[colour] >> (HAND_CHUNK * k) & ((1u << HAND_CHUNK) - 1u);
        for (int w = 0; w < SET_WORDS; w++) ctx.in_hand.w[w] |= hand_candidates[k][pieces].w[w];
    }
    if (only)
        for (int w = 0; w < SET_WORDS; w++) ctx.in_hand.w[w] &= only->w[w];
    if (b->placed[colour] == 0) {
        /* First piece: the free starting squares open to the colour are its
         * attachment points; no placement covers two of them. */
        static const uint32_t none[BK_ROWS];
        for (int i = 0; i < b->num_colours; i++) {
            int r = b->starts[i].r, c = b->starts[i].c;
            if (!bk_start_open(b, colour, i)) continue;
            cand_set s = legal_at(&ctx, none, r, c);
            if ((rc = fn(&ctx, &s, r, c, arg))) return rc;
        }
        return 0;
    }
    const uint32_t *attach = b->attach[colour];
    for (int r = 0; r < b->side; r++) {
        uint32_t points = attach[r + BK_PAD] >> BK_PAD;
        if (dead && points) points &= ~dead[r];
        for (uint32_t bits = points; bits; bits &= bits - 1) {
            int c = bk_ctz(bits);
            cand_set s = legal_at(&ctx, attach, r, c);
            if ((rc = fn(&ctx, &s, r, c, arg))) return rc;
        }
    }
    return 0;
}

/* arg: the collection; keeps each non-empty set with its count. */
static int keep_set(const gen_ctx *ctx, const cand_set *s, int r, int c, void *arg)
{
    bk_move_sets *ms = arg;
    int n = set_count(s);
    (void)ctx;
    if (n) {
        ms->points[ms->num_points].r = (uint8_t)r;
        ms->points[ms->num_points].c = (uint8_t)c;
        ms->points[ms->num_points].count = (uint16_t)n;
        ms->sets[ms->num_points++] = *s;
        ms->total += n;
    }
    return 0;
}

int bk_collect_moves_of(const bk_board *b, int colour, const bk_cand_set *only, bk_move_sets *out)
{
    out->geometry = b->geom->index;
    out->num_points = out->total = 0;
    for_each_point(b, colour, only, NULL, keep_set, out);
    return out->total;
}

typedef struct {
    bk_move_sets *ms;
    bk_dead_points *dead;
} marking;

/* arg: a marking; keep_set, and a point that produces no placement marked
 * dead. */
static int keep_or_mark(const gen_ctx *ctx, const cand_set *s, int r, int c, void *arg)
{
    marking *m = arg;
    int before = m->ms->num_points;
    keep_set(ctx, s, r, c, m->ms);
    if (m->ms->num_points == before) {
        m->dead->rows[ctx->colour][r] |= 1u << c;
        m->dead->any[ctx->colour] = 1;
    }
    return 0;
}

int bk_collect_live_moves(const bk_board *b, int colour, const bk_cand_set *only, bk_dead_points *dead,
                          bk_move_sets *out)
{
    out->geometry = b->geom->index;
    out->num_points = out->total = 0;
    if (colour < 0 || colour >= b->num_colours || b->placed[colour] == 0) /* the starting squares: no marks */
        for_each_point(b, colour, only, NULL, keep_set, out);
    else if (only && only != &size_candidates[1]) /* a point empty among these may have other placements */
        for_each_point(b, colour, only, dead->any[colour] ? dead->rows[colour] : NULL, keep_set, out);
    else { /* two copies of the loop: a colour's first dead point comes late in the game, and until then
            * the loop reads no marks */
        marking m = {out, dead};
        if (dead->any[colour])
            for_each_point(b, colour, NULL, dead->rows[colour], keep_or_mark, &m);
        else
            for_each_point(b, colour, NULL, NULL, keep_or_mark, &m);
    }
    return out->total;
}

void bk_dead_points_find(bk_dead_points *dead, const bk_board *b, bk_move_sets *scratch)
{
    memset(dead, 0, sizeof *dead);
    for (int c = 0; c < b->num_colours; c++) bk_collect_live_moves(b, c, NULL, dead, scratch);
}

int bk_collect_moves(const bk_board *b, int colour, bk_move_sets *out)
{
    return bk_collect_moves_of(b, colour, NULL, out);
}

int bk_move_sets_get(const bk_move_sets *ms, int k)
{
    gen_ctx ctx = {NULL, candidates[ms->geometry], {{0}}, 0};
    int i = 0;
    for (; k >= ms->points[i].count; i++) k -= ms->points[i].count;
    return set_nth(&ctx, &ms->sets[i], k, ms->points[i].r, ms->points[i].c);
}

/* arg: the output cursor; appends every placement of s. */
static int append_all(const gen_ctx *ctx, const cand_set *s, int r, int c, void *arg)
{
    uint16_t **cursor = arg, *out = *cursor;
    int32_t offset[BK_MAX_PIECE_SIZE + 1]; /* r * per_row + c, by the orientation's width */
    for (int width = 1; width <= BK_MAX_PIECE_SIZE; width++) offset[width] = r * (ctx->b->side - width + 1) + c;
    for (int w = 0; w < SET_WORDS; w++) {
        const candidate *word = ctx->cands + w * 64;
        for (uint64_t bits = s->w[w]; bits; bits &= bits - 1) {
            const candidate *cd = word + bk_ctz64(bits);
            *out++ = (uint16_t)(cd->id_base + offset[cd->width]);
        }
    }
    *cursor = out;
    return 0;
}

int bk_gen_moves(const bk_board *b, int colour, uint16_t *out)
{
    uint16_t *end = out;
    for_each_point(b, colour, NULL, NULL, append_all, &end);
    return (int)(end - out);
}

int bk_move_sets_id(const bk_move_sets *ms, int i, int cand)
{
    const candidate *cd = &candidates[ms->geometry][cand];
    return (uint16_t)(cd->id_base + ms->points[i].r * cd->per_row + ms->points[i].c);
}

int bk_cand_orient(int cand)
{
    return candidate_orient[cand];
}

const bk_cand_set *bk_cands_of_size(int size)
{
    return &size_candidates[size];
}

uint64_t bk_diamond(const uint32_t *rows, int r, int c)
{
    int R = r + BK_PAD, C = c + BK_PAD;
    unsigned status[NUM_GROUPS];
    diamond_status(rows + R, rows + R, C, status);
    uint64_t d = (rows[R] >> C & 1u) ? DIAMOND_P : 0;
    for (int g = 0; g < NUM_GROUPS; g++) d |= (uint64_t)status[g] << group_shift[g];
    return d;
}

const uint64_t *bk_cand_diamonds(void)
{
    return candidate_diamond;
}

void bk_cands_touching(uint64_t diamond, bk_cand_set *out)
{
    if (diamond & DIAMOND_P) { /* every candidate covers p */
        for (int w = 0; w < SET_WORDS; w++) out->w[w] = ~0ull;
        return;
    }
    unsigned status[NUM_GROUPS];
    for (int g = 0; g < NUM_GROUPS; g++)
        status[g] = (unsigned)(diamond >> group_shift[g]) & ((1u << group_size[g]) - 1u);
    cand_set avoiding;
    for (int w = 0; w < SET_WORDS; w++) avoiding.w[w] = ~0ull;
    keep_compatible(&avoiding, status);
    for (int w = 0; w < SET_WORDS; w++) out->w[w] = ~avoiding.w[w];
}

/* arg: the running count; adds the placements of s. */
static int add_count(const gen_ctx *ctx, const cand_set *s, int r, int c, void *arg)
{
    (void)ctx, (void)r, (void)c;
    *(int *)arg += set_count(s);
    return 0;
}

int bk_count_moves(const bk_board *b, int colour)
{
    int n = 0;
    for_each_point(b, colour, NULL, NULL, add_count, &n);
    return n;
}

static int non_empty(const gen_ctx *ctx, const cand_set *s, int r, int c, void *arg)
{
    (void)ctx, (void)r, (void)c, (void)arg;
    return set_count(s) > 0;
}

int bk_has_move(const bk_board *b, int colour)
{
    return for_each_point(b, colour, NULL, NULL, non_empty, NULL);
}

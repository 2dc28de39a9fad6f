/* Packing puzzles: exact cover on bitboards, first empty cell first. */
#include "puzzles/packing.h"

#include <stdlib.h>
#include <string.h>

#include "engine/playout.h" /* bk_rng */

/* Internal frame: the rectangle is turned, if need be, so that its rows run
 * along the narrow side, and the search fills cells in row-major order.  A
 * row is one 64-bit word, board column c at bit c + PAD; the bits outside the
 * board and the rows above and below it are set, so that a piece can be
 * tested at any anchor without bounds checks. */
#define PAD 4                /* an orientation's first cell is at most 4 columns right of its box */
#define TOP 1                /* a full row above the board: the harder option looks one row up */
#define BOTTOM BK_MAX_PIECE_SIZE /* full rows below, as deep as a piece can reach */
#define FULL (~(uint64_t)0)
/* Enclosed holes of up to this many cells are checked against the sizes of
 * the pieces left; a bigger region is taken to be fillable.  Most dead holes
 * are smaller than two pieces; looking further costs more than it prunes (the
 * 6x10 count: 5.6 s at 9 cells, 7.0 s at 40; 4 cells prunes too little to
 * solve 15x16 as fast). */
#define HOLE_CAP 9
/* Restart budgets are this many nodes times the Luby sequence 1 1 2 1 1 2 4 ...:
 * within a constant factor of the best fixed budget, whatever it is. */
#define LUBY_UNIT 8192

/* One orientation of one kind.  Its rows are kept shifted so that shifting
 * them left by the target cell's column lays the orientation's first cell
 * (top row, leftmost) on the target. */
typedef struct {
    uint64_t rows[BK_MAX_PIECE_SIZE];
    uint64_t edges[BK_MAX_PIECE_SIZE + 2]; /* the cells next to it, from the row above down */
    uint8_t height;
    uint8_t group; /* 0: pieces that need 3 rows every way (F T V W X Z), 1: 2 rows, 2: 1 */
    uint8_t kind;  /* index into the searched kinds */
    uint8_t orient;
    uint8_t lead; /* column of the first cell in the orientation's box */
} cand;

typedef struct {
    int16_t r, c;  /* the cell to fill (internal frame) */
    int16_t nfit;  /* candidates that fit here, listed in the node's order */
    int16_t tried; /* of those, taken so far */
    int16_t group_end[3]; /* the list holds groups 0, 1, 2 (see cand.group) in turn */
    int16_t cur;   /* the candidate placed, while one is */
} frame;

struct bk_packing {
    bk_pack_spec spec;
    int hi, wi, transposed, merged, restarts_on;
    int total; /* pieces in a solution */
    /* Searched kinds: one per (piece, colour) under the harder option; one
     * per piece in the basic puzzle, whose colours are chosen afterwards. */
    int nk;
    uint8_t k_piece[BK_PACK_MAX_KINDS];
    uint8_t k_colour[BK_PACK_MAX_KINDS];
    int k_count[BK_PACK_MAX_KINDS];
    int k_left[BK_PACK_MAX_KINDS];
    int k_first[BK_PACK_MAX_KINDS + 1]; /* kind j's candidates: [k_first[j], k_first[j + 1]) */
    int ncand;
    cand cands[BK_PACK_MAX_KINDS * 8];
    int size_left[BK_MAX_PIECE_SIZE + 1]; /* pieces left, by size */
    uint64_t *occ;                        /* TOP + hi + BOTTOM rows */
    uint64_t *own[BK_MAX_COLOURS];        /* harder option: each colour's cells */
    int depth;
    frame *stack;   /* total + 1 */
    int16_t *order; /* total x ncand: each node's candidates, shuffled as they are drawn */
    uint32_t *stamp; /* hi x wi: flood-fill marks */
    uint32_t stamp_gen;
    uint16_t *queue; /* HOLE_CAP + 1 cells, row << 8 | column */
    int found;      /* a solution sits on the stack: the next run backtracks from it */
    bk_rng rng;
    int64_t nodes, restarts, next_restart;
    uint64_t luby_u, luby_v; /* Knuth's reluctant doubling */
};

/* ---- set-up ---------------------------------------------------------------- */

bk_pack_status bk_pack_spec_check(const bk_pack_spec *spec)
{
    int h = spec->height, w = spec->width;
    if (h < 1 || w < 1 || h > BK_PACK_MAX_SIDE || w > BK_PACK_MAX_SIDE) return BK_PACK_BAD_SHAPE;
    if ((h < w ? h : w) > BK_PACK_MAX_NARROW) return BK_PACK_BAD_SHAPE;
    if (spec->num_kinds < 0 || spec->num_kinds > BK_PACK_MAX_KINDS) return BK_PACK_BAD_KIND;
    long area = 0, pieces = 0;
    uint32_t seen[BK_MAX_COLOURS] = {0};
    for (int i = 0; i < spec->num_kinds; i++) {
        const bk_pack_kind *k = &spec->kinds[i];
        if (k->piece >= BK_NUM_PIECES || k->colour >= BK_MAX_COLOURS) return BK_PACK_BAD_KIND;
        if (seen[k->colour] >> k->piece & 1u) return BK_PACK_BAD_KIND;
        seen[k->colour] |= 1u << k->piece;
        area += (long)k->count * bk_piece_size[k->piece];
        pieces += k->count;
    }
    if (pieces > BK_PACK_MAX_PIECES) return BK_PACK_BAD_KIND;
    return area == (long)h * w ? BK_PACK_OK : BK_PACK_BAD_AREA;
}

static cand make_cand(int kind, int orient)
{
    const bk_orient *o = &bk_orients[orient];
    int narrow = o->height < o->width ? o->height : o->width;
    cand cd = {{0}, {0}, o->height, (uint8_t)(3 - narrow), (uint8_t)kind, (uint8_t)orient, (uint8_t)bk_ctz(o->rows[0])};
    int sh = PAD - cd.lead; /* >= 0: the lead is at most 4 */
    for (int k = 0; k < o->height; k++) cd.rows[k] = (uint64_t)o->rows[k] << sh;
    /* edges[k] is row k - 1 of the piece's box, one bit further left than
     * rows (a left neighbour may sit at bit -1 before the shift) */
    for (int k = -1; k <= o->height; k++) {
        uint64_t above = k > 0 ? cd.rows[k - 1] : 0, here = k >= 0 && k < o->height ? cd.rows[k] : 0,
                 below = k + 1 < o->height ? cd.rows[k + 1] : 0;
        cd.edges[k + 1] = (above | below) << 1 | here << 2 | here;
    }
    return cd;
}

/* The searched kinds and their candidates (kind, orientation). */
static void build_kinds(bk_packing *s)
{
    const bk_pack_spec *sp = &s->spec;
    s->nk = 0;
    for (int i = 0; i < sp->num_kinds; i++) {
        const bk_pack_kind *k = &sp->kinds[i];
        if (!k->count) continue;
        int j = 0;
        if (s->merged)
            while (j < s->nk && s->k_piece[j] != k->piece) j++;
        else
            j = s->nk;
        if (j == s->nk) {
            s->k_piece[j] = k->piece;
            s->k_colour[j] = k->colour;
            s->k_count[j] = 0;
            s->nk++;
        }
        s->k_count[j] += k->count;
    }
    s->ncand = 0;
    for (int j = 0; j < s->nk; j++) {
        int p = s->k_piece[j];
        s->k_first[j] = s->ncand;
        for (int o = bk_piece_first_orient[p]; o < bk_piece_first_orient[p + 1]; o++)
            s->cands[s->ncand++] = make_cand(j, o);
    }
    s->k_first[s->nk] = s->ncand;
}

static void start_node(bk_packing *s, frame *f, int from);

/* An empty board, every piece in hand, the first node entered. */
static void reset_board(bk_packing *s)
{
    int rows = TOP + s->hi + BOTTOM;
    uint64_t inside = (((uint64_t)1 << s->wi) - 1) << PAD;
    for (int R = 0; R < rows; R++) s->occ[R] = R >= TOP && R < TOP + s->hi ? ~inside : FULL;
    if (!s->merged)
        for (int c = 0; c < BK_MAX_COLOURS; c++) memset(s->own[c], 0, (size_t)rows * sizeof(uint64_t));
    memset(s->size_left, 0, sizeof s->size_left);
    for (int j = 0; j < s->nk; j++) {
        s->k_left[j] = s->k_count[j];
        s->size_left[bk_piece_size[s->k_piece[j]]] += s->k_count[j];
    }
    s->depth = 0;
    s->found = 0;
    start_node(s, &s->stack[0], 0);
}

bk_packing *bk_packing_new(const bk_pack_spec *spec, uint64_t seed, int restarts, bk_pack_status *status)
{
    bk_pack_status st = bk_pack_spec_check(spec);
    *status = st;
    if (st != BK_PACK_OK) return NULL;
    bk_packing *s = calloc(1, sizeof *s);
    if (!s) goto no_memory;
    s->spec = *spec;
    s->transposed = spec->width > spec->height;
    s->hi = s->transposed ? spec->width : spec->height;
    s->wi = s->transposed ? spec->height : spec->width;
    s->merged = spec->same_colour_edges != 0;
    s->restarts_on = restarts != 0;
    build_kinds(s);
    for (int j = 0; j < s->nk; j++) s->total += s->k_count[j];
    size_t rows = (size_t)(TOP + s->hi + BOTTOM), cells = (size_t)s->hi * s->wi;
    s->occ = malloc(rows * sizeof *s->occ);
    for (int c = 0; c < BK_MAX_COLOURS && !s->merged; c++)
        if (!(s->own[c] = malloc(rows * sizeof(uint64_t)))) goto no_memory;
    s->stack = malloc((size_t)(s->total + 1) * sizeof *s->stack);
    s->order = malloc((size_t)(s->total + 1) * (size_t)s->ncand * sizeof *s->order);
    s->stamp = calloc(cells, sizeof *s->stamp);
    s->queue = malloc((HOLE_CAP + 1) * sizeof *s->queue);
    if (!s->occ || !s->stack || !s->order || !s->stamp || !s->queue) goto no_memory;
    bk_rng_seed(&s->rng, seed, 0);
    s->luby_u = s->luby_v = 1;
    s->next_restart = LUBY_UNIT;
    reset_board(s);
    return s;
no_memory:
    bk_packing_free(s);
    *status = BK_PACK_NO_MEMORY;
    return NULL;
}

void bk_packing_free(bk_packing *s)
{
    if (!s) return;
    free(s->occ);
    for (int c = 0; c < BK_MAX_COLOURS; c++) free(s->own[c]);
    free(s->stack);
    free(s->order);
    free(s->stamp);
    free(s->queue);
    free(s);
}

int64_t bk_packing_nodes(const bk_packing *s)
{
    return s->nodes;
}

int64_t bk_packing_restarts(const bk_packing *s)
{
    return s->restarts;
}

int bk_packing_num_pieces(const bk_packing *s)
{
    return s->total;
}

/* ---- the search ------------------------------------------------------------ */

/* Makes frame f the node for the first empty cell at or after row `from`. */
static void enter(bk_packing *s, frame *f, int from)
{
    int r = from;
    while (s->occ[TOP + r] == FULL) r++; /* a piece is left, so an empty cell is */
    f->r = (int16_t)r;
    f->c = (int16_t)(bk_ctz64(~s->occ[TOP + r]) - PAD);
    f->tried = 0;
    f->cur = -1;
}

static int fits(const bk_packing *s, const frame *f, int i)
{
    const cand *cd = &s->cands[i];
    const uint64_t *occ = s->occ + TOP + f->r;
    for (int k = 0; k < cd->height; k++)
        if (occ[k] & cd->rows[k] << f->c) return 0;
    if (s->merged) return 1;
    /* Harder option: no cell next to a cell of the same colour.  The piece
     * lies on the board now, so its right neighbours are at bit <= 60. */
    const uint64_t *own = s->own[s->k_colour[cd->kind]] + TOP + f->r - 1;
    for (int k = 0; k < cd->height + 2; k++)
        if (own[k] & (cd->edges[k] << f->c) >> 1) return 0;
    return 1;
}

/* Adds (delta 1) or removes (-1) candidate i at frame f: the same XOR. */
static void toggle(bk_packing *s, const frame *f, int i, int delta)
{
    const cand *cd = &s->cands[i];
    uint64_t *occ = s->occ + TOP + f->r;
    uint64_t *own = s->merged ? NULL : s->own[s->k_colour[cd->kind]] + TOP + f->r;
    for (int k = 0; k < cd->height; k++) {
        uint64_t bits = cd->rows[k] << f->c;
        occ[k] ^= bits;
        if (own) own[k] ^= bits;
    }
    s->k_left[cd->kind] -= delta;
    s->size_left[bk_orients[cd->orient].size] -= delta;
}

/* Cells next to the board read as occupied, so no bounds checks. */
static int is_empty(const bk_packing *s, int r, int c)
{
    return !(s->occ[TOP + r] >> (c + PAD) & 1u);
}

/* Size of the empty region around (r, c), or HOLE_CAP + 1 when it is bigger
 * than HOLE_CAP or joins a region found big earlier in this check (marks of
 * generations since `first`). */
static int flood(bk_packing *s, int r, int c, uint32_t first)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    uint32_t gen = s->stamp_gen++;
    int n = 0;
    s->stamp[r * s->wi + c] = gen;
    s->queue[n++] = (uint16_t)(r << 8 | c);
    for (int head = 0; head < n; head++) {
        int cr = s->queue[head] >> 8, cc = s->queue[head] & 0xff;
        for (int d = 0; d < 4; d++) {
            int nr = cr + dr[d], nc = cc + dc[d];
            if (!is_empty(s, nr, nc)) continue;
            uint32_t *mark = &s->stamp[nr * s->wi + nc];
            if (*mark == gen) continue;
            if (*mark >= first || n >= HOLE_CAP) return HOLE_CAP + 1;
            *mark = gen;
            s->queue[n++] = (uint16_t)(nr << 8 | nc);
        }
    }
    return n;
}

/* Whether `area` cells are a sum of sizes of the pieces left. */
static int fillable(const bk_packing *s, int area)
{
    uint64_t reach = 1; /* bit a: a sum of a cells can be made; area <= HOLE_CAP < 64 */
    for (int z = 1; z <= BK_MAX_PIECE_SIZE; z++)
        for (int k = 0; k < s->size_left[z] && k * z < area; k++) reach |= reach << z;
    return (int)(reach >> area & 1u);
}

/* After candidate i went in at frame f: whether every enclosed hole next to
 * it could still be filled by the pieces left, by size. */
static int holes_ok(bk_packing *s, const frame *f, int i)
{
    const bk_orient *o = &bk_orients[s->cands[i].orient];
    int ac = f->c - s->cands[i].lead;
    if (s->stamp_gen > UINT32_MAX - 4 * BK_MAX_PIECE_SIZE - 2) { /* wrap-around: clear the marks */
        memset(s->stamp, 0, (size_t)s->hi * s->wi * sizeof *s->stamp);
        s->stamp_gen = 0;
    }
    uint32_t first = ++s->stamp_gen;
    for (int k = 0; k < o->size; k++) {
        static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
        for (int d = 0; d < 4; d++) {
            int r = f->r + o->cells[k].r + dr[d], c = ac + o->cells[k].c + dc[d];
            if (!is_empty(s, r, c) || s->stamp[r * s->wi + c] >= first) continue;
            int n = flood(s, r, c, first);
            if (n <= HOLE_CAP && !fillable(s, n)) return 0;
        }
    }
    return 1;
}

/* Frame f's next candidate, or -1 when none is left.  In solve mode it is
 * drawn at random from the first group that has candidates left: the
 * awkward pieces go first, so that what is left at the end, when the last
 * rows are thin strips, are pieces that can lie flat. */
static int next_cand(bk_packing *s, frame *f, int16_t *order)
{
    if (f->tried >= f->nfit) return -1;
    if (s->restarts_on) {
        int g = 0;
        while (f->group_end[g] <= f->tried) g++;
        int j = f->tried + (int)bk_rng_below(&s->rng, (uint32_t)(f->group_end[g] - f->tried));
        int16_t t = order[j];
        order[j] = order[f->tried];
        order[f->tried] = t;
    }
    return order[f->tried++];
}

/* Enters frame f at the first empty cell at or after row `from` and lists
 * the candidates that fit there, group by group (the list stays right while
 * the node's children are searched, since each is taken back). */
static void start_node(bk_packing *s, frame *f, int from)
{
    enter(s, f, from);
    int16_t *order = s->order + (size_t)(f - s->stack) * s->ncand;
    int n = 0;
    for (int g = 0; g < 3; g++) {
        for (int j = 0; j < s->nk; j++) {
            if (!s->k_left[j]) continue;
            for (int i = s->k_first[j]; i < s->k_first[j + 1]; i++)
                if (s->cands[i].group == g && fits(s, f, i)) order[n++] = (int16_t)i;
        }
        f->group_end[g] = (int16_t)n;
    }
    f->nfit = (int16_t)n;
}

static void restart(bk_packing *s)
{
    reset_board(s);
    s->restarts++;
    /* Luby: (u, v) -> next term v */
    if ((s->luby_u & -s->luby_u) == s->luby_v) {
        s->luby_u++;
        s->luby_v = 1;
    } else {
        s->luby_v *= 2;
    }
    s->next_restart = s->nodes + (int64_t)s->luby_v * LUBY_UNIT;
}

bk_search_result bk_packing_run(bk_packing *s, int64_t max_nodes)
{
    int64_t stop = s->nodes + max_nodes;
    if (s->found) { /* go on from the solution: take its last piece back */
        s->found = 0;
        frame *f = &s->stack[--s->depth];
        toggle(s, f, f->cur, -1);
        f->cur = -1;
    }
    for (;;) {
        frame *f = &s->stack[s->depth];
        int16_t *order = s->order + (size_t)s->depth * s->ncand;
        int i;
        while ((i = next_cand(s, f, order)) >= 0) {
            toggle(s, f, i, 1);
            s->nodes++;
            if (s->depth + 1 == s->total || holes_ok(s, f, i)) break;
            toggle(s, f, i, -1);
        }
        if (i >= 0) {
            f->cur = (int16_t)i;
            if (++s->depth == s->total) {
                s->found = 1;
                return BK_SEARCH_FOUND;
            }
            start_node(s, &s->stack[s->depth], f->r);
        } else if (s->depth == 0) {
            /* every candidate at the root has been searched through: a whole
             * tree, so there is nothing (more) to find, restarts or not */
            return BK_SEARCH_EXHAUSTED;
        } else {
            frame *up = &s->stack[--s->depth];
            toggle(s, up, up->cur, -1);
            up->cur = -1;
        }
        if (s->restarts_on && s->nodes >= s->next_restart) restart(s);
        if (s->nodes >= stop) return BK_SEARCH_BUDGET;
    }
}

/* ---- reading a solution ------------------------------------------------------ */

/* Original-frame index of internal cell (r, c). */
static int orig_index(const bk_packing *s, int r, int c)
{
    return s->transposed ? c * s->spec.width + r : r * s->spec.width + c;
}

/* Labels (piece index per cell) of the solution on the stack. */
static void fill_labels(const bk_packing *s, int16_t *labels)
{
    for (int d = 0; d < s->total; d++) {
        const frame *f = &s->stack[d];
        const bk_orient *o = &bk_orients[s->cands[f->cur].orient];
        int ac = f->c - s->cands[f->cur].lead;
        for (int k = 0; k < o->size; k++) labels[orig_index(s, f->r + o->cells[k].r, ac + o->cells[k].c)] = (int16_t)d;
    }
}

/* Basic puzzle: each piece, in order, takes the colour left for its shape
 * that shares the fewest edges with cells of that colour already coloured. */
static void choose_colours(const bk_packing *s, uint8_t *colours, int8_t *cell_colours)
{
    int h = s->spec.height, w = s->spec.width;
    int left[BK_NUM_PIECES][BK_MAX_COLOURS] = {{0}};
    for (int i = 0; i < s->spec.num_kinds; i++) left[s->spec.kinds[i].piece][s->spec.kinds[i].colour] += s->spec.kinds[i].count;
    for (int d = 0; d < s->total; d++) {
        const frame *f = &s->stack[d];
        const bk_orient *o = &bk_orients[s->cands[f->cur].orient];
        int p = o->piece, ac = f->c - s->cands[f->cur].lead, best = -1, best_edges = 0;
        for (int col = 0; col < BK_MAX_COLOURS; col++) {
            if (!left[p][col]) continue;
            int edges = 0;
            for (int k = 0; k < o->size; k++) {
                int cell = orig_index(s, f->r + o->cells[k].r, ac + o->cells[k].c), r = cell / w, c = cell % w;
                edges += (r > 0 && cell_colours[cell - w] == col) + (r + 1 < h && cell_colours[cell + w] == col) +
                         (c > 0 && cell_colours[cell - 1] == col) + (c + 1 < w && cell_colours[cell + 1] == col);
            }
            if (best < 0 || edges < best_edges) {
                best = col;
                best_edges = edges;
            }
        }
        left[p][best]--;
        colours[d] = (uint8_t)best;
        for (int k = 0; k < o->size; k++)
            cell_colours[orig_index(s, f->r + o->cells[k].r, ac + o->cells[k].c)] = (int8_t)best;
    }
}

void bk_packing_solution(const bk_packing *s, int16_t *labels, uint8_t *pieces, uint8_t *colours,
                         int8_t *cell_colours)
{
    size_t cells = (size_t)s->spec.height * s->spec.width;
    fill_labels(s, labels);
    for (int d = 0; d < s->total; d++) pieces[d] = bk_orients[s->cands[s->stack[d].cur].orient].piece;
    memset(cell_colours, -1, cells);
    if (s->merged) {
        choose_colours(s, colours, cell_colours);
        return;
    }
    for (int d = 0; d < s->total; d++) colours[d] = s->k_colour[s->cands[s->stack[d].cur].kind];
    for (size_t i = 0; i < cells; i++) cell_colours[i] = (int8_t)colours[labels[i]];
}

/* ---- symmetry -------------------------------------------------------------- */

/* The cell that symmetry t (bit 2: transpose; bit 0: flip rows; bit 1: flip
 * columns) puts at (i, j). */
static int source_cell(int t, int i, int j, int h, int w)
{
    int x = t & 4 ? j : i, y = t & 4 ? i : j;
    if (t & 1) x = h - 1 - x;
    if (t & 2) y = w - 1 - y;
    return x * w + y;
}

/* Reads the grid through symmetry t as (order of first appearance of its
 * piece, its kind) cell by cell, row-major, and compares that with the grid
 * itself read the same way: equal readings are the same solution.  Returns
 * < 0, 0 or > 0 as the grid's reading is less, equal or greater. */
static long compare_image(const int16_t *labels, const int *kind_of, int *seen_id, int *seen_t, int total, int t,
                          int h, int w)
{
    int next_id = 0, next_t = 0;
    for (int d = 0; d < total; d++) seen_id[d] = seen_t[d] = -1;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int a = labels[i * w + j], b = labels[source_cell(t, i, j, h, w)];
            if (seen_id[a] < 0) seen_id[a] = next_id++;
            if (seen_t[b] < 0) seen_t[b] = next_t++;
            long ka = (long)seen_id[a] * 1024 + kind_of[a], kb = (long)seen_t[b] * 1024 + kind_of[b];
            if (ka != kb) return ka - kb;
        }
    return 0;
}

int bk_packing_is_canonical(const bk_packing *s)
{
    int h = s->spec.height, w = s->spec.width, result = -1;
    int16_t *labels = malloc((size_t)h * w * sizeof *labels);
    int *kind_of = malloc((size_t)s->total * sizeof *kind_of);
    int *seen_id = malloc((size_t)s->total * sizeof *seen_id), *seen_t = malloc((size_t)s->total * sizeof *seen_t);
    if (labels && kind_of && seen_id && seen_t) {
        fill_labels(s, labels);
        result = 1;
        for (int d = 0; d < s->total; d++) {
            const cand *cd = &s->cands[s->stack[d].cur];
            kind_of[d] = bk_orients[cd->orient].piece * BK_MAX_COLOURS + (s->merged ? 0 : s->k_colour[cd->kind]);
        }
        for (int t = 1; t < (h == w ? 8 : 4) && result; t++)
            result = compare_image(labels, kind_of, seen_id, seen_t, s->total, t, h, w) <= 0;
    }
    free(labels);
    free(kind_of);
    free(seen_id);
    free(seen_t);
    return result;
}

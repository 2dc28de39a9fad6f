/* Board state, placing and undo. */
#include "core/board.h"

#include <string.h>

static uint64_t zobrist_cell[BK_MAX_COLOURS][BK_MAX_SIZE * BK_MAX_SIZE];
static uint64_t zobrist_turn[BK_MAX_COLOURS + 1];
static uint64_t zobrist_monomino_last[BK_MAX_COLOURS]; /* the +20 bonus changes the position's score */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void bk_zobrist_init(void)
{
    uint64_t s = 20261130;
    for (int c = 0; c < BK_MAX_COLOURS; c++)
        for (int i = 0; i < BK_MAX_SIZE * BK_MAX_SIZE; i++) zobrist_cell[c][i] = splitmix64(&s);
    for (int t = 0; t <= BK_MAX_COLOURS; t++) zobrist_turn[t] = splitmix64(&s);
    for (int c = 0; c < BK_MAX_COLOURS; c++) zobrist_monomino_last[c] = splitmix64(&s);
}

/* Bits of a padded row that lie off the board. */
static uint32_t off_board_bits(int side)
{
    return ~(((1u << side) - 1u) << BK_PAD);
}

/* Recomputes colour d's forbidden cells and attachment points on padded row R
 * from the occupied and own rows, which are the state's ground truth. */
static void refresh_row(bk_board *b, int d, int R)
{
    const uint32_t *own = b->own[d];
    uint32_t vert = own[R - 1] | own[R + 1];
    uint32_t fb = off_board_bits(b->side) | b->occupied[R] | own[R] << 1 | own[R] >> 1 | vert;
    b->forbidden[d][R] = fb;
    b->attach[d][R] = (vert << 1 | vert >> 1) & ~fb;
}

/* A placement changes forbidden cells and attachment points only on its own
 * rows and the row above and below: refresh_rows makes colour d's again
 * there, for a placement of `height` rows from board row `top`. */
static void refresh_rows(bk_board *b, int d, int top, int height)
{
    int lo = top - 1 < 0 ? 0 : top - 1;
    int hi = top + height + 1 > b->side ? b->side : top + height + 1;
    for (int r = lo; r < hi; r++) refresh_row(b, d, r + BK_PAD);
}

static void refresh_around(bk_board *b, int top, int height)
{
    for (int d = 0; d < b->num_colours; d++) refresh_rows(b, d, top, height);
}

/* refresh_around after `colour` has placed cells `rows` (its orientation's,
 * shifted to their padded columns) from board row `top`: for the other
 * colours the cells only become forbidden and stop being attachment points. */
static void refresh_after_placing(bk_board *b, int colour, const uint32_t *rows, int top, int height)
{
    for (int d = 0; d < b->num_colours; d++) {
        if (d == colour) continue;
        for (int k = 0; k < height; k++) {
            b->forbidden[d][top + BK_PAD + k] |= rows[k];
            b->attach[d][top + BK_PAD + k] &= ~rows[k];
        }
    }
    refresh_rows(b, colour, top, height);
}

bk_status bk_board_init(bk_board *b, int variant, int start)
{
    bk_variant_info info;
    if (bk_variant_get_info(variant, &info) != BK_OK) return BK_ERR_BAD_VARIANT;
    if (start != BK_START_ANY && start != BK_START_FIXED) return BK_ERR_BAD_VARIANT;
    memset(b, 0, sizeof *b);
    b->geom = bk_geometry_for(info.side);
    b->variant = (uint8_t)variant;
    b->start = (uint8_t)start;
    b->side = (uint8_t)info.side;
    b->num_colours = (uint8_t)info.num_colours;
    memcpy(b->starts, info.starts, sizeof b->starts);
    memset(b->grid, -1, sizeof b->grid);
    for (int c = 0; c < info.num_colours; c++) {
        b->remaining[c] = BK_ALL_PIECES;
        b->squares_left[c] = BK_TOTAL_SQUARES;
        b->last_piece[c] = -1;
        memset(b->in_hand[c], 1, BK_NUM_PIECES);
        for (int R = 0; R < BK_ROWS; R++) {
            int on_board = R >= BK_PAD && R < BK_PAD + info.side;
            b->forbidden[c][R] = on_board ? off_board_bits(info.side) : ~0u;
        }
    }
    b->to_move = 0;
    return BK_OK;
}

static int cell_bit(const uint32_t *rows, int r, int c)
{
    return (int)(rows[r + BK_PAD] >> (c + BK_PAD) & 1u);
}

int bk_start_open(const bk_board *b, int colour, int i)
{
    const bk_cell *s = &b->starts[i];
    return (b->start == BK_START_ANY || i == colour) && !cell_bit(b->occupied, s->r, s->c);
}

/* Whether (r, c) is a starting square open to `colour` (free, as it is not
 * occupied when this is asked). */
static int is_start_for(const bk_board *b, int colour, int r, int c)
{
    for (int i = 0; i < b->num_colours; i++)
        if (b->starts[i].r == r && b->starts[i].c == c) return b->start == BK_START_ANY || i == colour;
    return 0;
}

void bk_attachment_points(const bk_board *b, int colour, uint8_t *out)
{
    memset(out, 0, (size_t)b->side * b->side);
    if (b->placed[colour] == 0) {
        for (int i = 0; i < b->num_colours; i++)
            if (bk_start_open(b, colour, i)) out[b->starts[i].r * b->side + b->starts[i].c] = 1;
        return;
    }
    for (int r = 0; r < b->side; r++)
        for (uint32_t bits = b->attach[colour][r + BK_PAD] >> BK_PAD; bits; bits &= bits - 1)
            out[r * b->side + bk_ctz(bits)] = 1;
}

bk_status bk_check(const bk_board *b, int colour, int id)
{
    const bk_geometry *g = b->geom;
    if (colour < 0 || colour >= b->num_colours) return BK_ERR_BAD_COLOUR;
    if (id < 0 || id >= g->num_placements) return BK_ERR_BAD_ID;
    const bk_orient *o = &bk_orients[g->orient_of[id]];
    int r0 = g->row_of[id], c0 = g->col_of[id];
    int corner = 0, start = 0;
    for (int i = 0; i < o->size; i++)
        if (cell_bit(b->occupied, r0 + o->cells[i].r, c0 + o->cells[i].c)) return BK_ERR_OCCUPIED;
    if (!(b->remaining[colour] >> o->piece & 1u)) return BK_ERR_PIECE_USED;
    for (int i = 0; i < o->size; i++) {
        int r = r0 + o->cells[i].r, c = c0 + o->cells[i].c;
        if (cell_bit(b->forbidden[colour], r, c)) return BK_ERR_EDGE_CONTACT;
        corner |= cell_bit(b->attach[colour], r, c);
        start |= is_start_for(b, colour, r, c);
    }
    if (b->placed[colour] == 0) return start ? BK_OK : BK_ERR_NOT_START;
    return corner ? BK_OK : BK_ERR_NO_CORNER;
}

int bk_is_legal(const bk_board *b, int colour, int id)
{
    const bk_geometry *g = b->geom;
    if (colour < 0 || colour >= b->num_colours || id < 0 || id >= g->num_placements) return 0;
    if (b->placed[colour] == 0) return bk_check(b, colour, id) == BK_OK; /* the starting squares */
    const bk_orient *o = &bk_orients[g->orient_of[id]];
    if (!(b->remaining[colour] >> o->piece & 1u)) return 0;
    int top = g->row_of[id] + BK_PAD, shift = g->col_of[id] + BK_PAD;
    uint32_t blocked = 0, corner = 0; /* forbidden includes the occupied cells */
    for (int k = 0; k < o->height; k++) {
        uint32_t x = o->rows[k] << shift;
        blocked |= x & b->forbidden[colour][top + k];
        corner |= x & b->attach[colour][top + k];
    }
    return !blocked && corner;
}

/* Adds or removes the placement's cells for `colour`: in the grid and the
 * Zobrist key when `whole`, else in the rest of the board alone. */
static void set_cells(bk_board *b, int colour, int id, int adding, int whole)
{
    const bk_geometry *g = b->geom;
    const bk_orient *o = &bk_orients[g->orient_of[id]];
    int r0 = g->row_of[id], c0 = g->col_of[id];
    uint32_t placed[BK_MAX_PIECE_SIZE];
    for (int k = 0; k < o->height; k++) {
        uint32_t bits = placed[k] = o->rows[k] << (c0 + BK_PAD);
        int R = r0 + k + BK_PAD;
        if (adding) {
            b->occupied[R] |= bits;
            b->own[colour][R] |= bits;
        } else {
            b->occupied[R] &= ~bits;
            b->own[colour][R] &= ~bits;
        }
    }
    for (int i = 0; whole && i < o->size; i++) {
        int cell = (r0 + o->cells[i].r) * b->side + c0 + o->cells[i].c;
        b->grid[cell] = (int8_t)(adding ? colour : -1);
        b->key ^= zobrist_cell[colour][cell];
    }
    uint32_t piece_bit = 1u << o->piece;
    int size = o->size;
    if (adding) {
        b->remaining[colour] &= ~piece_bit;
        b->squares_left[colour] = (int16_t)(b->squares_left[colour] - size);
        b->placed[colour]++;
    } else {
        b->remaining[colour] |= piece_bit;
        b->squares_left[colour] = (int16_t)(b->squares_left[colour] + size);
        b->placed[colour]--;
    }
    b->in_hand[colour][o->piece] = (uint8_t)!adding;
    if (adding)
        refresh_after_placing(b, colour, placed, r0, o->height);
    else /* a freed cell stays forbidden to each colour with a piece next to it: refresh them all */
        refresh_around(b, r0, o->height);
}

static void place(bk_board *b, int id, int whole)
{
    int colour = b->to_move;
    bk_history_entry *h = &b->history[b->num_moves++];
    h->id = (uint16_t)id;
    h->colour = (uint8_t)colour;
    h->prev_out = b->out;
    h->prev_last_piece = b->last_piece[colour];
    set_cells(b, colour, id, 1, whole);
    b->last_piece[colour] = (int8_t)bk_orients[b->geom->orient_of[id]].piece;
}

void bk_place(bk_board *b, int id)
{
    place(b, id, 1);
}

void bk_place_rough(bk_board *b, int id)
{
    place(b, id, 0);
}

bk_status bk_undo(bk_board *b)
{
    if (b->num_moves == 0) return BK_ERR_NO_HISTORY;
    const bk_history_entry *h = &b->history[--b->num_moves];
    set_cells(b, h->colour, h->id, 0, 1);
    b->last_piece[h->colour] = h->prev_last_piece;
    b->to_move = (int8_t)h->colour; /* a placement is made by the colour to move */
    b->out = h->prev_out;
    return BK_OK;
}

int bk_player_of_colour(const bk_board *b, int colour)
{
    return bk_variant_mover(bk_variant_facts(b->variant), colour, b->placed[colour]);
}

/* Whether the colour has placed every piece, the monomino last: the one
 * thing besides the cells that its score (core/score.h) depends on. */
static int monomino_last(const bk_board *b, int colour)
{
    return !b->remaining[colour] && b->last_piece[colour] == 0;
}

uint64_t bk_key(const bk_board *b)
{
    uint64_t key = b->key ^ zobrist_turn[b->to_move + 1];
    for (int c = 0; c < b->num_colours; c++)
        if (monomino_last(b, c)) key ^= zobrist_monomino_last[c];
    return key;
}

/* Same position: cells, colour to move and, for a colour that has placed
 * everything, whether its last piece was the monomino (it changes the score).
 * The cells of a colour determine its pieces, since they never share an edge. */
int bk_board_equal(const bk_board *a, const bk_board *b)
{
    if (a->variant != b->variant || a->start != b->start || a->to_move != b->to_move ||
        memcmp(a->grid, b->grid, sizeof a->grid) != 0)
        return 0;
    for (int c = 0; c < a->num_colours; c++)
        if (monomino_last(a, c) != monomino_last(b, c)) return 0;
    return 1;
}

/* Derives the 91 orientations and the placement tables from the 21 base
 * shapes, which are the only geometry typed in. */
#include "core/pieces.h"

#include <string.h>

#include "core/variants.h"

const char *const bk_piece_names[BK_NUM_PIECES] = {
    "1", "2", "I3", "V3", "I4", "L4", "T4", "O", "Z4", "I5", "L5",
    "Y", "N", "P", "U", "V5", "T5", "W", "Z5", "F", "X"};

/* One picture per piece, rows separated by '/', '#' a square. */
static const char *const base_shapes[BK_NUM_PIECES] = {
    "#", "##", "###", "#./##", "####", "#../###", "###/.#.", "##/##", "##./.##",
    "#####", "#.../####", ".#../####", "##../.###", "##/##/#.", "#.#/###",
    "#../#../###", "###/.#./.#.", "#../##./.##", "##./.#./.##", ".##/##./.#.",
    ".#./###/.#."};

uint8_t bk_piece_size[BK_NUM_PIECES];
uint8_t bk_piece_first_orient[BK_NUM_PIECES + 1];
bk_orient bk_orients[BK_NUM_ORIENTS];

static bk_geometry geometries[BK_NUM_GEOMETRIES];

static int cell_cmp(const bk_cell *a, const bk_cell *b)
{
    return a->r != b->r ? a->r - b->r : a->c - b->c;
}

/* Moves the cells to the top-left of their box, sorts them row-major and
 * fills in the derived fields. */
static void normalise(bk_orient *o)
{
    int min_r = 99, min_c = 99, max_r = 0, max_c = 0;
    for (int i = 0; i < o->size; i++) {
        if (o->cells[i].r < min_r) min_r = o->cells[i].r;
        if (o->cells[i].c < min_c) min_c = o->cells[i].c;
    }
    for (int i = 0; i < o->size; i++) {
        o->cells[i].r = (int8_t)(o->cells[i].r - min_r);
        o->cells[i].c = (int8_t)(o->cells[i].c - min_c);
    }
    for (int i = 1; i < o->size; i++) /* insertion sort: at most 5 cells */
        for (int j = i; j > 0 && cell_cmp(&o->cells[j], &o->cells[j - 1]) < 0; j--) {
            bk_cell t = o->cells[j];
            o->cells[j] = o->cells[j - 1];
            o->cells[j - 1] = t;
        }
    memset(o->rows, 0, sizeof o->rows);
    o->shape = 0;
    for (int i = 0; i < o->size; i++) {
        int r = o->cells[i].r, c = o->cells[i].c;
        if (r > max_r) max_r = r;
        if (c > max_c) max_c = c;
        o->rows[r] |= 1u << c;
        o->shape |= 1u << (5 * r + c);
    }
    o->height = (uint8_t)(max_r + 1);
    o->width = (uint8_t)(max_c + 1);
}

/* Reads base shape `piece` into o; 0 when the picture does not fit a 5x5 box
 * with at most BK_MAX_PIECE_SIZE squares (nothing beyond them is written). */
static int parse_base(int piece, bk_orient *o)
{
    int r = 0, c = 0;
    memset(o, 0, sizeof *o);
    o->piece = (uint8_t)piece;
    for (const char *s = base_shapes[piece]; *s; s++) {
        if (*s == '/') {
            r++;
            c = 0;
            continue;
        }
        if (*s == '#') {
            if (o->size == BK_MAX_PIECE_SIZE || r >= BK_MAX_PIECE_SIZE || c >= BK_MAX_PIECE_SIZE) return 0;
            o->cells[o->size++] = (bk_cell){(int8_t)r, (int8_t)c};
        }
        c++;
    }
    normalise(o);
    return o->size > 0;
}

/* The 8 symmetries of the square: t = 0..3 rotations, t + 4 the same after a mirror. */
static bk_orient transform(const bk_orient *base, int t)
{
    bk_orient o = *base;
    for (int i = 0; i < o.size; i++) {
        int r = base->cells[i].r, c = base->cells[i].c, tmp;
        if (t & 4) c = -c;
        for (int k = 0; k < (t & 3); k++) { /* rotate a quarter turn */
            tmp = r;
            r = c;
            c = -tmp;
        }
        o.cells[i] = (bk_cell){(int8_t)r, (int8_t)c};
    }
    normalise(&o);
    return o;
}

/* Fills g's placements; 0 when there would be more than BK_MAX_PLACEMENTS
 * (nothing beyond them is written). */
static int init_geometry(bk_geometry *g, int index, int side)
{
    int id = 0;
    g->index = index;
    g->side = side;
    for (int o = 0; o < BK_NUM_ORIENTS; o++) {
        const bk_orient *or_ = &bk_orients[o];
        int per_row = side - or_->width + 1;
        g->orient_first[o] = (uint16_t)id;
        g->orient_anchors_per_row[o] = (uint8_t)per_row;
        for (int r = 0; r + or_->height <= side; r++)
            for (int c = 0; c < per_row; c++, id++) {
                if (id == BK_MAX_PLACEMENTS) return 0;
                g->orient_of[id] = (uint8_t)o;
                g->row_of[id] = (uint8_t)r;
                g->col_of[id] = (uint8_t)c;
            }
    }
    g->orient_first[BK_NUM_ORIENTS] = (uint16_t)id;
    g->num_placements = id;
    return 1;
}

/* The 91 orientations of the 21 base shapes, piece by piece; NULL, or what
 * disagrees with the sizes typed in (types.h). */
static const char *init_orients(void)
{
    int n = 0, squares = 0;
    for (int p = 0; p < BK_NUM_PIECES; p++) {
        bk_orient base;
        if (!parse_base(p, &base)) return "core/pieces.c: a base shape is not 1 to 5 squares in a 5x5 box";
        bk_piece_size[p] = base.size;
        squares += base.size;
        bk_piece_first_orient[p] = (uint8_t)n;
        for (int t = 0; t < 8; t++) {
            bk_orient o = transform(&base, t);
            int seen = 0;
            for (int k = bk_piece_first_orient[p]; k < n; k++)
                seen |= bk_orients[k].shape == o.shape;
            if (seen) continue;
            if (n == BK_NUM_ORIENTS) return "core/pieces.c: the pieces have more orientations than BK_NUM_ORIENTS";
            bk_orients[n++] = o;
        }
    }
    bk_piece_first_orient[BK_NUM_PIECES] = (uint8_t)n;
    if (n != BK_NUM_ORIENTS) return "core/pieces.c: the pieces have fewer orientations than BK_NUM_ORIENTS";
    return squares == BK_TOTAL_SQUARES ? NULL : "core/pieces.c: the pieces' squares are not BK_TOTAL_SQUARES";
}

/* One geometry per board side of the variants' table, in its order (20, then
 * Duo's 14): exactly BK_NUM_GEOMETRIES of them, the largest with exactly
 * BK_MAX_PLACEMENTS placements (so that the constant is the true bound). */
static const char *init_geometries(void)
{
    int count = 0, most = 0;
    for (int v = 0; v < BK_NUM_VARIANTS; v++) {
        int side = bk_variant_facts(v)->side;
        if (bk_geometry_for(side)) continue;
        if (count == BK_NUM_GEOMETRIES)
            return "core/pieces.h: the variants have more board sides than BK_NUM_GEOMETRIES";
        if (!init_geometry(&geometries[count], count, side))
            return "core/types.h: a board has more placements than BK_MAX_PLACEMENTS";
        if (geometries[count].num_placements > most) most = geometries[count].num_placements;
        count++;
    }
    if (count != BK_NUM_GEOMETRIES) return "core/pieces.h: the variants have fewer board sides than BK_NUM_GEOMETRIES";
    return most == BK_MAX_PLACEMENTS ? NULL : "core/types.h: BK_MAX_PLACEMENTS is not the largest board's count";
}

const char *bk_pieces_init(void)
{
    const char *problem = init_orients();
    return problem ? problem : init_geometries();
}

const bk_geometry *bk_geometry_for(int side)
{
    for (int i = 0; i < BK_NUM_GEOMETRIES; i++)
        if (geometries[i].side == side) return &geometries[i];
    return NULL;
}

const bk_geometry *bk_geometry_at(int index)
{
    return &geometries[index];
}

int bk_orient_from_shape(uint32_t shape)
{
    for (int o = 0; o < BK_NUM_ORIENTS; o++)
        if (bk_orients[o].shape == shape) return o;
    return -1;
}

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

static void parse_base(int piece, bk_orient *o)
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
        if (*s == '#') o->cells[o->size++] = (bk_cell){(int8_t)r, (int8_t)c};
        c++;
    }
    normalise(o);
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

static void init_geometry(bk_geometry *g, int index, int side)
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
                g->orient_of[id] = (uint8_t)o;
                g->row_of[id] = (uint8_t)r;
                g->col_of[id] = (uint8_t)c;
            }
    }
    g->orient_first[BK_NUM_ORIENTS] = (uint16_t)id;
    g->num_placements = id;
}

void bk_pieces_init(void)
{
    int n = 0;
    for (int p = 0; p < BK_NUM_PIECES; p++) {
        bk_orient base;
        parse_base(p, &base);
        bk_piece_size[p] = base.size;
        bk_piece_first_orient[p] = (uint8_t)n;
        for (int t = 0; t < 8; t++) {
            bk_orient o = transform(&base, t);
            int seen = 0;
            for (int k = bk_piece_first_orient[p]; k < n; k++)
                seen |= bk_orients[k].shape == o.shape;
            if (!seen) bk_orients[n++] = o;
        }
    }
    bk_piece_first_orient[BK_NUM_PIECES] = (uint8_t)n;
    /* One geometry per board side of the variants' table, in its order (20, then Duo's 14). */
    int count = 0;
    for (int v = 0; v < BK_NUM_VARIANTS && count < BK_NUM_GEOMETRIES; v++) {
        bk_variant_info info;
        bk_variant_get_info(v, &info);
        if (!bk_geometry_for(info.side)) {
            init_geometry(&geometries[count], count, info.side);
            count++;
        }
    }
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

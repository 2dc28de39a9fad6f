/* Piece geometry: the 21 base shapes, their 91 fixed orientations and, for
 * each board size, the table of placements (an orientation at an anchor).
 *
 * Everything here is computed once by bk_pieces_init() from the typed base
 * shapes and is read-only afterwards, shared by every board. */
#ifndef BK_PIECES_H
#define BK_PIECES_H

#include "core/types.h"

typedef struct {
    uint8_t piece;                   /* index into bk_piece_names */
    uint8_t size;                    /* number of cells */
    uint8_t height, width;           /* bounding box */
    bk_cell cells[BK_MAX_PIECE_SIZE]; /* from (0, 0) at the box's top-left, row-major */
    uint32_t rows[BK_MAX_PIECE_SIZE]; /* rows[k] bit j: cell (k, j) */
    uint32_t shape;                  /* bit 5 * r + c for every cell: identifies the orientation */
} bk_orient;

/* All placements on a square board of one side length.  A placement id is
 * dense: orientation by orientation, anchor (top-left of the bounding box)
 * row-major within each. */
typedef struct {
    int index; /* of this geometry among the BK_NUM_GEOMETRIES: what other tables are keyed by */
    int side;
    int num_placements;
    uint16_t orient_first[BK_NUM_ORIENTS + 1]; /* ids of orientation o: [first[o], first[o + 1]) */
    uint8_t orient_anchors_per_row[BK_NUM_ORIENTS]; /* side - width + 1 */
    uint8_t orient_of[BK_MAX_PLACEMENTS];
    uint8_t row_of[BK_MAX_PLACEMENTS];     /* anchor row */
    uint8_t col_of[BK_MAX_PLACEMENTS];     /* anchor column */
} bk_geometry;

extern const char *const bk_piece_names[BK_NUM_PIECES];
extern uint8_t bk_piece_size[BK_NUM_PIECES];
/* Orientations of piece p are [bk_piece_first_orient[p], bk_piece_first_orient[p + 1]). */
extern uint8_t bk_piece_first_orient[BK_NUM_PIECES + 1];
extern bk_orient bk_orients[BK_NUM_ORIENTS];

/* Derives the orientations and placement tables (bk_init calls it, after
 * bk_variants_check); NULL, or what disagrees with the sizes typed in
 * (BK_NUM_ORIENTS, BK_TOTAL_SQUARES, BK_NUM_GEOMETRIES, BK_MAX_PLACEMENTS):
 * no table is written beyond its bound either way. */
const char *bk_pieces_init(void);
/* The board sides of the variants (core/variants.c: 20 and 14), each with its
 * placement table; every other per-size table (the move generator's, the
 * prior's) is indexed by bk_geometry.index, so this is the one mapping from a
 * board side to its tables. BK_NUM_GEOMETRIES: how many different sides the
 * variants have (checked by bk_pieces_init). */
#define BK_NUM_GEOMETRIES 2
/* The placement table for a board side of the variants' table; NULL for any other. */
const bk_geometry *bk_geometry_for(int side);
/* Geometry i, 0 <= i < BK_NUM_GEOMETRIES. */
const bk_geometry *bk_geometry_at(int index);
/* The orientation whose cells, moved to the box's top-left, give `shape`
 * (bit 5 * r + c); -1 when no piece has that shape. */
int bk_orient_from_shape(uint32_t shape);

static inline int bk_placement_id(const bk_geometry *g, int orient, int row, int col)
{
    return g->orient_first[orient] + row * g->orient_anchors_per_row[orient] + col;
}

#endif

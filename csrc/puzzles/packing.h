/* Packing puzzles (docs/rules.md, "Solo puzzles"): lay a multiset of pieces,
 * each with a colour, so that they tile a rectangle exactly; optionally no
 * two pieces of one colour may share an edge.
 *
 * The search is an exact-cover depth-first search on bitboards that always
 * fills the first empty cell in scan order (rows of the rectangle's narrow
 * side, so the frontier stays short), prunes any small enclosed hole that
 * the remaining pieces cannot fill, and tries candidates in a random order
 * per node with restarts (Luby sequence) when solving, so that one bad early
 * choice does not hold the search for ever.  It can be run in chunks of
 * nodes, and resumed after a solution to find the next one. */
#ifndef BK_PUZZLE_PACKING_H
#define BK_PUZZLE_PACKING_H

#include "core/pieces.h"
#include "puzzles/search.h"

#define BK_PACK_MAX_KINDS (BK_NUM_PIECES * BK_MAX_COLOURS)
#define BK_PACK_MAX_NARROW 56 /* the narrow side: a padded row is 64 bits */
#define BK_PACK_MAX_SIDE 255
#define BK_PACK_MAX_PIECES 4096

typedef struct {
    uint8_t piece;  /* index into bk_piece_names */
    uint8_t colour; /* 0 .. BK_MAX_COLOURS - 1 */
    uint16_t count; /* copies of this piece in this colour */
} bk_pack_kind;

typedef struct {
    int height, width; /* the rectangle: rows x columns */
    int num_kinds;     /* distinct (piece, colour) pairs, each at most once */
    bk_pack_kind kinds[BK_PACK_MAX_KINDS];
    int same_colour_edges; /* nonzero: allowed (the basic puzzle); 0: the harder option */
} bk_pack_spec;

typedef enum {
    BK_PACK_OK = 0,
    BK_PACK_BAD_SHAPE,  /* a side < 1, > BK_PACK_MAX_SIDE, or both sides > BK_PACK_MAX_NARROW */
    BK_PACK_BAD_KIND,   /* a piece or colour out of range, a kind listed twice, too many pieces */
    BK_PACK_BAD_AREA,   /* the pieces do not cover exactly the rectangle's area */
    BK_PACK_NO_MEMORY
} bk_pack_status;


typedef struct bk_packing bk_packing;

/* Whether the spec describes a puzzle this solver takes. */
bk_pack_status bk_pack_spec_check(const bk_pack_spec *spec);

/* A new search.  `restarts` nonzero: solve mode (random order from `seed`,
 * restarts); zero: count mode, a fixed order that enumerates every solution
 * exactly once.  Either ends (BK_SEARCH_EXHAUSTED) once a whole tree has been
 * searched.  Needs bk_init() first.  *status says why when NULL is returned. */
bk_packing *bk_packing_new(const bk_pack_spec *spec, uint64_t seed, int restarts, bk_pack_status *status);
void bk_packing_free(bk_packing *s);

/* Searches at most `max_nodes` more nodes (placements tried that fit). */
bk_search_result bk_packing_run(bk_packing *s, int64_t max_nodes);

int64_t bk_packing_nodes(const bk_packing *s);    /* placements that fit, so far */
int64_t bk_packing_restarts(const bk_packing *s); /* restarts so far (solve mode) */
int bk_packing_num_pieces(const bk_packing *s);   /* pieces in a solution */

/* The solution just found: labels (height x width, row-major) gives each cell
 * the index of its piece, pieces[i] and colours[i] that piece's index in
 * bk_piece_names and its colour, and cell_colours (height x width) the
 * colour of each cell.  In the basic puzzle colours play no part in the
 * search: copies of a piece get their colours afterwards, each the one of
 * those left that touches its own colour least, so that few pieces of one
 * colour share an edge. */
void bk_packing_solution(const bk_packing *s, int16_t *labels, uint8_t *pieces, uint8_t *colours,
                         int8_t *cell_colours);

/* Whether the solution just found is the least of its images under the
 * rectangle's symmetries (4, or 8 for a square) in a fixed total order;
 * counting only those counts solutions up to symmetry.  Pieces are told
 * apart by shape, and also by colour in the harder option.  -1 when out of
 * memory. */
int bk_packing_is_canonical(const bk_packing *s);

#endif

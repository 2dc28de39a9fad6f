/* Legal-move generation from attachment points. */
#ifndef BK_MOVEGEN_H
#define BK_MOVEGEN_H

#include "core/board.h"

/* Builds the candidate tables; called by bk_init. NULL, or what disagrees
 * with BK_NUM_CANDIDATES (no table is written beyond it either way). */
const char *bk_movegen_init(void);
/* Writes every legal placement id of `colour` to out (room for
 * BK_MAX_MOVES), in no particular order, each once; returns how many. */
int bk_gen_moves(const bk_board *b, int colour, uint16_t *out);
/* A set of move-generation candidates (orientation and cell put on an
 * attachment point), bit i for candidate i of BK_NUM_CANDIDATES; one cache
 * line.  Candidates come orientation by orientation, by bk_orients' order,
 * each orientation's cells in its order. */
#define BK_NUM_CANDIDATES 414 /* sum over the 91 orientations of their sizes */
#define BK_SET_WORDS 8
typedef struct {
    _Alignas(64) uint64_t w[BK_SET_WORDS];
} bk_cand_set;
_Static_assert(BK_NUM_CANDIDATES <= 64 * BK_SET_WORDS, "a candidate set must hold every candidate");

/* At most one attachment point per board cell. */
#define BK_MAX_POINTS (BK_MAX_SIZE * BK_MAX_SIZE)

/* The legal placements of one colour as a set per attachment point: cheaper
 * to count and to index than a list, for random play. */
typedef struct {
    int geometry;   /* the board's bk_geometry.index: the placement ids depend on it */
    int num_points; /* points with at least one placement */
    int total;      /* placements in all */
    struct {
        uint8_t r, c;
        uint16_t count;
    } points[BK_MAX_POINTS];
    bk_cand_set sets[BK_MAX_POINTS];
} bk_move_sets;

/* Collects the legal placements of `colour`; returns how many there are. */
int bk_collect_moves(const bk_board *b, int colour, bk_move_sets *out);
/* The same among the candidates of `only` (bk_cands_of_size: the moves of
 * the larger pieces). */
int bk_collect_moves_of(const bk_board *b, int colour, const bk_cand_set *only, bk_move_sets *out);
/* Attachment points known to produce no placement, per colour: such a
 * point produces none for the rest of the game.  Its set can only shrink:
 * placements take cells and pieces away, and a point earlier in row-major
 * order (whose placements it leaves to that point) stops being one only by
 * becoming forbidden, which rules out every placement covering it anyway;
 * nor does a cell that stops being an attachment point become one again. */
typedef struct {
    uint32_t rows[BK_MAX_COLOURS][BK_MAX_SIZE]; /* per board row, bit c: a point known dead */
    uint8_t any[BK_MAX_COLOURS];                /* whether the colour's rows hold one */
} bk_dead_points;

/* The dead points of every colour in b (none before a colour's first
 * piece); `scratch`: room for a colour's placements. */
void bk_dead_points_find(bk_dead_points *dead, const bk_board *b, bk_move_sets *scratch);
/* bk_collect_moves_of, passing over the points `dead` knows for `colour`
 * in b or in a position b follows from by placements, and adding to them
 * those it finds without a placement when it looks at every piece in hand
 * (`only` NULL or bk_cands_of_size(1)). */
int bk_collect_live_moves(const bk_board *b, int colour, const bk_cand_set *only, bk_dead_points *dead,
                          bk_move_sets *out);
/* The k-th placement of a collection (0 <= k < total), in the order of
 * bk_gen_moves. */
int bk_move_sets_get(const bk_move_sets *ms, int k);
/* The placement id of candidate `cand` put on point i of the collection
 * (the ids of point i's set, candidate by candidate, are in the order of
 * bk_gen_moves). */
int bk_move_sets_id(const bk_move_sets *ms, int i, int cand);
/* The orientation of candidate `cand`. */
int bk_cand_orient(int cand);
/* The candidates of the pieces of at least `size` squares, 1 <= size <= 5. */
const bk_cand_set *bk_cands_of_size(int size);
/* The cells within 4 steps (Manhattan distance) of a board cell p, where
 * every candidate put on p lies, as the bits of a word ("diamond"):
 * bk_diamond, those of them in the padded bitboard `rows` around p = (r, c);
 * bk_cand_diamonds()[i], candidate i's cells when put on p (so that the
 * candidate's cells in `rows` are the bits of both). */
uint64_t bk_diamond(const uint32_t *rows, int r, int c);
const uint64_t *bk_cand_diamonds(void);
/* Writes to out a set that holds, among the candidates put on a cell, those
 * covering at least one cell of its `diamond` (bits beyond the candidates
 * may be set: intersect it with a set of them). */
void bk_cands_touching(uint64_t diamond, bk_cand_set *out);
/* How many legal placements `colour` has (bk_gen_moves' count, without
 * listing them). */
int bk_count_moves(const bk_board *b, int colour);
/* Whether `colour` has at least one legal placement. */
int bk_has_move(const bk_board *b, int colour);

#endif

/* Board state: cells, per-colour bitboards kept incrementally, pieces in
 * hand, turn and history.  Placing and undo cost O(piece), not O(board);
 * play.h passes the turn after a placement.
 *
 * Bitboards are arrays of rows (uint32_t) with BK_PAD rows and columns of
 * padding on every side: board cell (r, c) is bit (c + BK_PAD) of row
 * (r + BK_PAD).  Padding counts as forbidden, so a 9x9 window around any
 * board cell can be read without bounds checks. */
#ifndef BK_BOARD_H
#define BK_BOARD_H

#include "core/pieces.h"
#include "core/variants.h"

typedef struct {
    uint16_t id;
    uint8_t colour;
    uint8_t prev_out;
    int8_t prev_last_piece;
} bk_history_entry;

typedef struct bk_board {
    const bk_geometry *geom;
    uint8_t variant, start, side, num_colours;
    int8_t to_move;      /* colour to move, -1 once no colour can move */
    uint8_t out;         /* bit c: colour c is known to have no legal placement, ever again */
    uint8_t num_moves;   /* entries in history */
    uint8_t placed[BK_MAX_COLOURS];      /* pieces placed per colour */
    int8_t last_piece[BK_MAX_COLOURS];   /* piece placed last per colour, -1 before any */
    int16_t squares_left[BK_MAX_COLOURS];
    uint32_t remaining[BK_MAX_COLOURS];  /* bit p: piece p still in hand */
    uint64_t key;                        /* Zobrist hash of the cells, without the turn */
    bk_cell starts[BK_MAX_COLOURS];      /* one per colour: colour i's own under "fixed" */
    int8_t grid[BK_MAX_SIZE * BK_MAX_SIZE]; /* side x side, row-major, -1 empty, else colour */
    uint8_t in_hand[BK_MAX_COLOURS][BK_NUM_PIECES]; /* byte form of `remaining`, for array views */
    uint32_t occupied[BK_ROWS];
    uint32_t own[BK_MAX_COLOURS][BK_ROWS];
    uint32_t forbidden[BK_MAX_COLOURS][BK_ROWS]; /* occupied, edge-adjacent to own, or off board */
    uint32_t attach[BK_MAX_COLOURS][BK_ROWS];    /* attachment points once the colour has moved */
    bk_history_entry history[BK_MAX_HISTORY];
} bk_board;

/* Draws the Zobrist keys of bk_key; bk_init calls it. */
void bk_zobrist_init(void);

bk_status bk_board_init(bk_board *b, int variant, int start);
/* Whether `colour` may place placement `id` now (whoever is to move). */
bk_status bk_check(const bk_board *b, int colour, int id);
/* Whether bk_check would return BK_OK, faster (from the bitboards), for a
 * caller that needs no reason. */
int bk_is_legal(const bk_board *b, int colour, int id);
/* Places placement `id`, known to be legal, for the colour to move and
 * records it in the history; the turn stays with that colour.  The first
 * half of a move: core/play.h passes the turn on (to a colour that can move,
 * which takes move generation). */
void bk_place(bk_board *b, int id);
/* The same, leaving the grid and the Zobrist key as they were: for the
 * board a search's simulation plays on, which reads neither and never
 * undoes a move.  Such a board's grid, key, bk_key, bk_board_equal and
 * undo are wrong from then on. */
void bk_place_rough(bk_board *b, int id);
/* Takes back the last move, placement and turn; BK_ERR_NO_HISTORY when
 * there is none. */
bk_status bk_undo(bk_board *b);
/* Whether starting square i is free and open to `colour`'s first piece:
 * any of them under "any", its own under "fixed". */
int bk_start_open(const bk_board *b, int colour, int i);
/* Writes side x side bytes: 1 at each attachment point of the colour (an
 * empty cell diagonal to its own cells and not edge-adjacent to them) or,
 * before its first piece, at each starting square open to it; else 0. */
void bk_attachment_points(const bk_board *b, int colour, uint8_t *out);
/* The player who moves `colour` now (classic_3's shared green rotates). */
int bk_player_of_colour(const bk_board *b, int colour);
/* The Zobrist hash of the position, turn included. */
uint64_t bk_key(const bk_board *b);
/* Whether two boards hold the same position (history aside). */
int bk_board_equal(const bk_board *a, const bk_board *b);

#endif

/* The text form of placements, as game records and other Blokus programs
 * write them: cells "a20,b20,c20", column letter from 'a' at the left, row
 * number from 1 at the bottom (docs/rules.md, "Board, coordinates, colours"). */
#ifndef BK_MOVETEXT_H
#define BK_MOVETEXT_H

#include <stddef.h>

#include "core/pieces.h"

/* Longest text of a placement, with its terminating NUL: 5 cells "t20,". */
#define BK_MOVE_TEXT_MAX 21

/* Longest text of one cell, with its terminating NUL: "t20". */
#define BK_CELL_TEXT_MAX 4

/* Writes the text of cell c of a board of `side` rows ("a20" for (0, 0) when
 * side is 20) to buf, without a NUL; returns its length. */
int bk_cell_text(int side, bk_cell c, char *buf);
/* Writes the canonical text of placement `id` (cells by row from the bottom,
 * then by column) to buf; returns its length. */
int bk_move_text(const bk_geometry *g, int id, char *buf);
/* The placement covering exactly these cells, in any order.
 * BK_ERR_OFF_BOARD, or BK_ERR_NOT_A_PIECE for a wrong count, a repeated cell
 * or a shape that is none of the 21 pieces. */
bk_status bk_cells_to_id(const bk_geometry *g, const bk_cell *cells, int n, int *id);
/* Reads a placement's text (any cell order, letters in either case, spaces
 * around cells allowed).
 * BK_ERR_BAD_TEXT when it is not a list of cells, else as bk_cells_to_id. */
bk_status bk_parse_move(const bk_geometry *g, const char *text, size_t len, int *id);

#endif

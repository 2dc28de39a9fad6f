/* "All 84" (docs/rules.md, "Solo puzzles"): one person plays the four
 * colours of a classic game under the normal rules and tries to place every
 * piece.  With nobody to play against, the game is one long sequence of
 * choices, searched here by beam search over the engine's own board.
 *
 * A beam keeps the `width` most promising positions of each ply.  Each
 * position's children are all its legal moves (bk_gen_moves, bk_play_unchecked,
 * bk_undo), scored cheaply by what they leave for the rest of the game
 * (squares placed, awkward pieces placed, board cells no colour can ever
 * fill, walled-in pockets, each colour's attachment points); the best few
 * times `width` are scored again with each colour's legal moves and the
 * pieces it can place nowhere; children that can no longer lead to a full
 * solution are dropped (a colour out of moves with pieces in hand, more dead
 * cells than a full solution leaves empty), and the best distinct positions
 * (transpositions merged by Zobrist key) form the next ply's beam.  Beams
 * run one after another with doubling widths (16 to 4096) and fresh random
 * tie-breaks, so a search given more time looks wider.  The search runs in
 * chunks, so that a caller can stop it. */
#ifndef BK_PUZZLE_ALL84_H
#define BK_PUZZLE_ALL84_H

#include "core/board.h"
#include "puzzles/search.h"

typedef struct bk_all84 bk_all84;

/* A search from position `start` (a classic board, any start rule, any
 * position); NULL when out of memory.  Needs bk_init() first. */
bk_all84 *bk_all84_new(const bk_board *start, uint64_t seed);
void bk_all84_free(bk_all84 *s);

/* Goes on for about `work` more child evaluations: FOUND once every colour
 * has placed all its pieces (the best line is then a full solution), BUDGET
 * when it should be called again, EXHAUSTED when the start itself has a
 * colour that can never place all its pieces (nothing to search). */
bk_search_result bk_all84_run(bk_all84 *s, int64_t work);

/* The best line found so far: the fewest squares left in hand over all
 * colours, earliest found first.  Writes its moves (placement ids, played
 * after those of the start position) to `moves` (room for BK_MAX_HISTORY)
 * and returns how many; *squares_left gets its squares left in hand. */
int bk_all84_best(const bk_all84 *s, uint16_t *moves, int *squares_left);

int64_t bk_all84_work(const bk_all84 *s);   /* child evaluations so far */
int bk_all84_beams(const bk_all84 *s);      /* beams finished so far */
int bk_all84_width(const bk_all84 *s);      /* width of the beam running */

#endif

/* Exact endgame solver for the games of two sides (duo, classic_2,
 * classic_teams): the final score margin under best play by both sides,
 * by alpha-beta search to the end of the game.
 *
 * The value of a position is the final margin of one side: the sum of its
 * colours' scores minus the sum of the other side's (docs/rules.md,
 * "Scoring"); it decides win, draw or loss and by how much.  The search is
 * a minimax on the margin of side 0 (the side of colour 0) with fail-soft
 * alpha-beta and principal variation search (later moves first tried with a
 * null window), so that a side moving twice in a row (a colour of the other
 * side is out) needs no special case.  It keeps, per position, the bounds
 * it has proved in a transposition table keyed by the board's Zobrist key
 * (cells, colour to move, monomino-last bonus: it determines the pieces in
 * hand), tries moves in the order: the table's best move, the ply's killer
 * moves, larger pieces, then the history of cut-offs; and cuts off on the
 * bounds each colour's score can still reach (a colour out of moves scores
 * what it has; one still moving scores from what it has now to +15, or +20
 * with the monomino in hand).  Moves are played lazily (bk_play_lazy), so a
 * position cut off by the table or the bounds costs no move generation.
 * (Measured and dropped: bounding a colour's squares to come by the cells it
 * can reach, and searching apart the colours whose reachable cells never
 * meet: in Duo endgames the first cut 1% of the positions, the second
 * added 20%, and both cost a flood fill per node.)
 *
 * A node budget bounds the work: past it the solve stops and reports the
 * value unknown, so a caller can try it opportunistically.  Every bound in
 * the table is a proved fact about its position, so a solver keeps its table
 * from one solve to the next (a solve that ran out of budget leaves what it
 * proved for the next one). */
#ifndef BK_SOLVER_H
#define BK_SOLVER_H

#include "core/board.h"

typedef struct bk_solver bk_solver;

typedef struct {
    int exact;      /* 1: margin and best moves are the game's; 0: the budget ran out first */
    int side;       /* the side whose margin it is: the side to move, or 0 once the game is over */
    int margin;     /* final score margin of `side` under best play (when exact); with
                     * `outcome`, its sign: 1, 0 or -1 */
    int num_best;   /* best moves written (when exact; 0 once the game is over) */
    uint64_t nodes; /* positions searched, this solve */
} bk_solve_result;

/* Whether the variant has two sides whose colours all score for one of
 * them, which the solver needs: duo, classic_2 and classic_teams. */
int bk_solver_supports(int variant);
/* A solver with a transposition table of 2^table_bits entries of 16 bytes
 * (10 <= table_bits <= 30) and room for a move list per ply (pages touched
 * only as deep as a solve goes); NULL when out of memory or table_bits is
 * out of range.  Needs bk_init() first. */
bk_solver *bk_solver_new(int table_bits);
void bk_solver_free(bk_solver *s);

/* Solves position b (not changed; as bk_play_unchecked or bk_play_lazy
 * leaves it) of a variant bk_solver_supports, searching at most max_nodes
 * positions (>= 1).  Writes the best moves of the colour to move (room for
 * BK_MAX_MOVES) to best: with all_best, every move that achieves the margin,
 * else one of them; and the result to *out.  With `outcome`, only the
 * margin's sign is proved (out->margin 1, 0 or -1: a win, draw or loss of
 * `side`), with one move that achieves it (all_best is ignored): the
 * root's moves are searched with windows around 0, which in Duo endgames
 * visits a fifth to a tenth of the positions (medians,
 * benchmarks/bench_solver.py --outcome; benchmarks/LOG.md, 2026-12-03), so
 * that it settles games about one ply further from the end in the same
 * time.  BK_ERR_BAD_VARIANT when the variant has not two sides. */
bk_status bk_solve(bk_solver *s, const bk_board *b, uint64_t max_nodes, int all_best, int outcome,
                   uint16_t *best, bk_solve_result *out);

/* The final margin of side 0 of a finished game b (the sum of its colours'
 * scores minus the other side's); a variant bk_solver_supports. */
int bk_final_margin(const bk_board *b);

#endif

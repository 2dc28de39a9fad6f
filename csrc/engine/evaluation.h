/* A static evaluation of a Duo position: each player's chance to win,
 * read off a few counts of the position by a logistic model per phase of
 * the game, fitted to the outcomes of recorded games
 * (benchmarks/fit_evaluation.py).  About as informative as one playout,
 * for a fraction of its cost: the search mixes it into the value a
 * simulation backs up (mcts.h, bk_mcts_params.evaluation). */
#ifndef BK_EVALUATION_H
#define BK_EVALUATION_H

#include "core/board.h"

/* The features, colour 0's figure minus colour 1's where there are two. */
enum {
    BK_EVAL_BIAS,     /* 1 */
    BK_EVAL_TO_MOVE,  /* 1 when colour 1 is to move, else 0 */
    BK_EVAL_SQUARES,  /* squares placed */
    BK_EVAL_MOVES,    /* log(1 + legal placements) */
    BK_EVAL_FEATURES
};

/* The phase whose weights apply: by placements on the board, below 10, 16,
 * 22 and 30, then the rest. */
#define BK_EVAL_PHASES 5
int bk_evaluation_phase(const bk_board *b);

/* Whether b's variant has an evaluation: Duo only (fitted to Duo games). */
int bk_has_evaluation(const bk_board *b);

/* Writes the features of b (BK_EVAL_FEATURES floats), a Duo position with
 * a colour to move. */
void bk_evaluation_features(const bk_board *b, double *out);

/* Colour 0's chance to win b, a Duo position with a colour to move (colour
 * 1's is 1 minus it; a draw counts as half a win). */
double bk_evaluation(const bk_board *b);

#endif

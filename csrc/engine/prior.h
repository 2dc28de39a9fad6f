/* The tree's prior: features of a move (what its cells, edge neighbours and
 * the attachment points it makes are), for a prior exp(w . x) whose weights
 * w are fitted to recorded games (benchmarks/fit_prior.py). */
#ifndef BK_PRIOR_H
#define BK_PRIOR_H

#include "core/board.h"

/* The features, one float each.  Cells are the board's; "free" is not
 * forbidden to the mover (neither occupied nor next to its own cells);
 * rivals are the colours not scoring for the mover's side, its partner is
 * another colour scoring for it (classic_2, classic_teams). */
enum {
    BK_PRIOR_PIECE,                                /* BK_NUM_PIECES: 1 at the move's piece, else 0 */
    BK_PRIOR_LOCAL = BK_PRIOR_PIECE + BK_NUM_PIECES, /* its local count (move_features.h) */
    BK_PRIOR_ANY_LOCAL,       /* 1 when that is above 0 */
    BK_PRIOR_RIVAL,           /* its cells on rivals' attachment points or free cells next to them */
    BK_PRIOR_PARTNER,         /* its cells on the partner's attachment points */
    BK_PRIOR_EDGE_CONNECT,    /* its edge neighbours: the partner's cells */
    BK_PRIOR_EDGE_OCCUPIED,   /* the other colours' cells */
    BK_PRIOR_EDGE_FORBIDDEN,  /* empty cells forbidden to the mover */
    BK_PRIOR_EDGE_OWN_POINT,  /* the mover's attachment points (which it spoils) */
    BK_PRIOR_EDGE_FREE,       /* other free cells */
    BK_PRIOR_CORNER_OWN,      /* the cells diagonal to it and not next to it: the mover's */
    BK_PRIOR_CORNER_TAKEN,    /* others forbidden to the mover */
    BK_PRIOR_CORNER_OPEN,     /* 5: free ones with 0 .. 4 free edge neighbours (new points' room) */
    BK_PRIOR_CORNER_PARTNER = BK_PRIOR_CORNER_OPEN + 5, /* the partner's attachment points */
    BK_PRIOR_SMALL,           /* 1 for a piece below the opening's minimum size (move_features.h) */
    BK_PRIOR_FEATURES
};

/* The phase of the game whose weights the prior uses: 0 while fewer than
 * BK_PRIOR_OPENING pieces are on the board, 1 below BK_PRIOR_MIDDLE, then 2. */
#define BK_PRIOR_PHASES 3
#define BK_PRIOR_OPENING 8
#define BK_PRIOR_MIDDLE 20
int bk_prior_phase(const bk_board *b);

/* Writes n x BK_PRIOR_FEATURES floats, row i the features of moves[i] (legal
 * for the colour to move). */
void bk_prior_features(const bk_board *b, const uint16_t *moves, int n, float *out);

/* Computes the prior's tables (the piece features' names, and the move
 * features' table, move_features.h) once bk_init() has run and before any
 * search (the binding calls it when the module loads; later calls do
 * nothing). */
void bk_prior_init(void);

/* The names of the features, by index ("piece 1", ..., "below opening size"). */
extern const char *bk_prior_feature_names[BK_PRIOR_FEATURES];

/* The fitted prior's log score of each of the n legal moves of the colour to
 * move: w . x, x the features above and w the weights of the game's phase
 * in the variant's weight set (core/variants.h: Duo's, and classic_2's for
 * every 20x20 variant); -infinity for a move the tree is not to consider:
 * with the classic set (the 20x20 board), while fewer than 8 pieces are on
 * it (every colour's first 2 moves), the moves that do not come within 0.3 squares as near the board's centre as
 * the nearest move of the opening's size (a square's distance is its
 * centre's; all within 2 squares count as 2), so that each colour heads for
 * the centre, whose open space goes to the first to get there (Pentobi's
 * prior prunes alike). */
void bk_prior_scores(const bk_board *b, const uint16_t *moves, int n, float *out);

/* The prior by which the tree orders a node's children and weighs its
 * exploration, relative to the highest, as its base-2 logarithm: the prior
 * is exp((s - s_max) / temperature), s the scores above (temperature 1 is
 * the fitted prior, a higher one flatter), and out[i] = (s - s_max) /
 * (temperature ln 2).  The best move's is 0, every other <= 0 (-infinity
 * for a move not considered) for every temperature > 0.  Logarithms, as the
 * tree keeps priors quantised on a log scale (mcts_tree.h): no exp() per
 * move. */
void bk_tree_log2_priors(const bk_board *b, const uint16_t *moves, int n, double temperature, float *out);

#endif

/* The static evaluation; see evaluation.h. */
#include "engine/evaluation.h"

#include <math.h>

#include "core/movegen.h"
#include "core/variants.h"

#include "engine/evaluation_duo.h"

static const int phase_ends[BK_EVAL_PHASES - 1] = {10, 16, 22, 30}; /* placements on the board */

int bk_evaluation_phase(const bk_board *b)
{
    int phase = 0;
    while (phase < BK_EVAL_PHASES - 1 && b->num_moves >= phase_ends[phase]) phase++;
    return phase;
}

int bk_has_evaluation(const bk_board *b)
{
    return b->variant == BK_DUO;
}

void bk_evaluation_features(const bk_board *b, double *out)
{
    out[BK_EVAL_BIAS] = 1.0;
    out[BK_EVAL_TO_MOVE] = b->to_move == 1;
    out[BK_EVAL_SQUARES] = (double)(b->squares_left[1] - b->squares_left[0]); /* both start with the same */
    out[BK_EVAL_MOVES] = log1p((double)bk_count_moves(b, 0)) - log1p((double)bk_count_moves(b, 1));
}

double bk_evaluation(const bk_board *b)
{
    double x[BK_EVAL_FEATURES], z = 0.0;
    bk_evaluation_features(b, x);
    const float *w = bk_evaluation_duo[bk_evaluation_phase(b)];
    for (int i = 0; i < BK_EVAL_FEATURES; i++) z += w[i] * x[i];
    return 1.0 / (1.0 + exp(-z));
}

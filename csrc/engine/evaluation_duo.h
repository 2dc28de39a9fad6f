/* The static evaluation: weights of the features of evaluation.h (BK_EVAL_BIAS ...),
 * one row per phase of the game (bk_evaluation_phase), colour 0's chance to win
 * being 1 / (1 + exp(-w . x)).  Fitted by benchmarks/fit_evaluation.py (a logistic
 * regression on each game's outcome) to Duo games:
 * 2000 games (Pentobi level 6 against itself, 400, and our level-6 agents against it,
 * 1,600, twogtp's records); fitted to four fifths of them, the log-likelihood of the
 * others' outcomes by phase: -0.491, -0.479, -0.422, -0.335, -0.239.
 * Generated: fit again rather than edit. */

static const float bk_evaluation_duo[BK_EVAL_PHASES][BK_EVAL_FEATURES] = {
    {1.31530f, -0.64270f, 0.05846f, 1.30222f},
    {1.24782f, -1.01254f, 0.20647f, 1.07691f},
    {1.08597f, -1.06976f, 0.28801f, 1.53035f},
    {0.80534f, -0.35080f, 0.30077f, 1.42860f},
    {1.11536f, -1.30036f, 0.56429f, 1.06535f},
};

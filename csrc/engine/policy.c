/* Built-in policies. */
#include "engine/policy.h"

#include "core/play.h"
#include "core/score.h"

const char *const bk_policy_names[BK_NUM_POLICIES] = {[BK_POLICY_RANDOM] = "random", [BK_POLICY_GREEDY] = "greedy"};

static int attachment_count(const bk_board *b, int colour)
{
    int n = 0;
    for (int r = 0; r < b->side; r++) n += bk_popcount64(b->attach[colour][r + BK_PAD]);
    return n;
}

static int greedy_move(bk_board *b, const uint16_t *moves, int n, bk_rng *rng)
{
    const bk_geometry *g = b->geom;
    int mover = b->to_move, best = -1, best_size = 0, ties = 0;
    int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS];
    int side = bk_player_of_colour(b, mover);
    bk_player_weights(b->variant, weights); /* the others: colours that do not score for the mover's player */
    long best_own = 0, best_others = 0;
    for (int i = 0; i < n; i++) {
        int size = bk_orients[g->orient_of[moves[i]]].size;
        if (size > best_size) best_size = size;
    }
    for (int i = 0; i < n; i++) {
        if (bk_orients[g->orient_of[moves[i]]].size != best_size) continue;
        bk_play_unchecked(b, moves[i]); /* attachment points are kept by the board: look, then undo */
        long own = attachment_count(b, mover), others = 0;
        for (int c = 0; c < b->num_colours; c++)
            if (c != mover && !weights[side][c]) others += attachment_count(b, c);
        bk_undo(b);
        int better = best < 0 || own > best_own || (own == best_own && others < best_others);
        int tie = !better && own == best_own && others == best_others;
        if (better) {
            best = moves[i];
            best_own = own;
            best_others = others;
            ties = 1;
        } else if (tie && bk_rng_below(rng, (uint32_t)++ties) == 0) {
            best = moves[i]; /* reservoir sampling: each tied move kept with probability 1/ties */
        }
    }
    return best;
}

int bk_policy_move(bk_policy policy, bk_board *b, const uint16_t *moves, int n, bk_rng *rng)
{
    if (policy == BK_POLICY_GREEDY) return greedy_move(b, moves, n, rng);
    return moves[bk_rng_below(rng, (uint32_t)n)];
}

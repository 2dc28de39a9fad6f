/* Scoring. */
#include "core/score.h"

#include <string.h>

int bk_colour_score(const bk_board *b, int colour)
{
    if (b->remaining[colour]) return -b->squares_left[colour];
    return b->last_piece[colour] == 0 ? BK_BONUS_MONOMINO_LAST : BK_BONUS_ALL_PLACED;
}

int bk_player_weights(int variant, int8_t w[BK_MAX_COLOURS][BK_MAX_COLOURS])
{
    memset(w, 0, sizeof(int8_t) * BK_MAX_COLOURS * BK_MAX_COLOURS);
    switch (variant) {
    case BK_CLASSIC_2: /* blue+red against yellow+green */
        w[0][0] = w[0][2] = w[1][1] = w[1][3] = 1;
        return 2;
    case BK_CLASSIC_3: /* green's score counts for nobody */
        w[0][0] = w[1][1] = w[2][2] = 1;
        return 3;
    case BK_CLASSIC_TEAMS: /* teams {blue, red} and {yellow, green} */
        for (int p = 0; p < 4; p++) w[p][p % 2] = w[p][p % 2 + 2] = 1;
        return 4;
    case BK_DUO:
        w[0][0] = w[1][1] = 1;
        return 2;
    default:
        for (int p = 0; p < 4; p++) w[p][p] = 1;
        return 4;
    }
}

int bk_player_sides(int variant, int8_t *side)
{
    int8_t w[BK_MAX_COLOURS][BK_MAX_COLOURS];
    int n = bk_player_weights(variant, w);
    for (int p = 0; p < n; p++) {
        side[p] = (int8_t)p;
        for (int q = 0; q < p && side[p] == p; q++)
            if (memcmp(w[p], w[q], sizeof w[p]) == 0) side[p] = (int8_t)q;
    }
    return n;
}

void bk_winners_of(int n, const int64_t *player_scores, uint8_t *winners)
{
    int64_t best = player_scores[0];
    for (int p = 1; p < n; p++)
        if (player_scores[p] > best) best = player_scores[p];
    for (int p = 0; p < n; p++) winners[p] = player_scores[p] == best;
}

int bk_winners(const bk_board *b, uint8_t *winners)
{
    int scores[BK_MAX_COLOURS];
    int64_t wide[BK_MAX_COLOURS];
    int n = bk_player_scores(b, scores);
    for (int p = 0; p < n; p++) wide[p] = scores[p];
    bk_winners_of(n, wide, winners);
    return n;
}

int bk_player_scores(const bk_board *b, int *out)
{
    int8_t w[BK_MAX_COLOURS][BK_MAX_COLOURS];
    int players = bk_player_weights(b->variant, w);
    for (int p = 0; p < players; p++) {
        out[p] = 0;
        for (int c = 0; c < b->num_colours; c++) out[p] += w[p][c] * bk_colour_score(b, c);
    }
    return players;
}

int bk_win_shares(const bk_board *b, double *out)
{
    uint8_t won[BK_MAX_COLOURS];
    int8_t side[BK_MAX_COLOURS];
    int players = bk_winners(b, won), sides = 0;
    bk_player_sides(b->variant, side);
    for (int p = 0; p < players; p++) sides += won[p] && side[p] == p; /* each winning side once */
    for (int p = 0; p < players; p++) out[p] = won[p] ? 1.0 / sides : 0.0;
    return players;
}

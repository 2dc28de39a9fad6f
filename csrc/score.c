/* Scoring. */
#include "score.h"

#include <string.h>

#define BONUS_ALL_PLACED 15
#define BONUS_MONOMINO_LAST 20

int bk_colour_score(const bk_board *b, int colour)
{
    if (b->remaining[colour]) return -b->squares_left[colour];
    return b->last_piece[colour] == 0 ? BONUS_MONOMINO_LAST : BONUS_ALL_PLACED;
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
    int8_t w[BK_MAX_COLOURS][BK_MAX_COLOURS];
    int scores[BK_MAX_COLOURS], players = bk_player_scores(b, scores), best = scores[0], sides = 0;
    bk_player_weights(b->variant, w);
    for (int p = 1; p < players; p++)
        if (scores[p] > best) best = scores[p];
    for (int p = 0; p < players; p++) {
        int first_of_side = 1; /* counts each winning side once */
        for (int q = 0; q < p; q++)
            if (memcmp(w[p], w[q], sizeof w[p]) == 0) first_of_side = 0;
        sides += scores[p] == best && first_of_side;
    }
    for (int p = 0; p < players; p++) out[p] = scores[p] == best ? 1.0 / sides : 0.0;
    return players;
}

/* Scoring. */
#include "score.h"

#define BONUS_ALL_PLACED 15
#define BONUS_MONOMINO_LAST 20

int bk_colour_score(const bk_board *b, int colour)
{
    if (b->remaining[colour]) return -b->squares_left[colour];
    return b->last_piece[colour] == 0 ? BONUS_MONOMINO_LAST : BONUS_ALL_PLACED;
}

int bk_player_scores(const bk_board *b, int *out)
{
    int s[BK_MAX_COLOURS];
    for (int c = 0; c < b->num_colours; c++) s[c] = bk_colour_score(b, c);
    switch (b->variant) {
    case BK_CLASSIC_2:
        out[0] = s[0] + s[2];
        out[1] = s[1] + s[3];
        return 2;
    case BK_CLASSIC_3:
        for (int p = 0; p < 3; p++) out[p] = s[p];
        return 3;
    case BK_CLASSIC_TEAMS:
        for (int p = 0; p < 4; p++) out[p] = s[p % 2] + s[p % 2 + 2];
        return 4;
    default:
        for (int p = 0; p < b->num_colours; p++) out[p] = s[p];
        return b->num_colours;
    }
}

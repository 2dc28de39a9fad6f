/* Scores per colour and per player (rules.md, "Scoring"). */
#ifndef BK_SCORE_H
#define BK_SCORE_H

#include "board.h"

/* Minus one per square in hand; +15 once all 21 pieces are placed, +20 if
 * the last of them was the monomino. */
int bk_colour_score(const bk_board *b, int colour);
/* Writes num_players scores: classic_2 sums blue+red and yellow+green;
 * classic_3 ignores the shared green; classic_teams gives each player its
 * team's sum.  Returns the number of players. */
int bk_player_scores(const bk_board *b, int *out);

#endif

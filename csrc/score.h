/* Scores per colour and per player (docs/rules.md, "Scoring"). */
#ifndef BK_SCORE_H
#define BK_SCORE_H

#include "board.h"

/* Minus one per square in hand; +15 once all 21 pieces are placed, +20 if
 * the last of them was the monomino. */
int bk_colour_score(const bk_board *b, int colour);
/* How colour scores make player scores: player p scores the sum over
 * colours c of weights[p][c] * score(c).  classic_2 sums blue+red and
 * yellow+green; classic_3 ignores the shared green; classic_teams gives each
 * player its team's sum.  Returns the number of players. */
int bk_player_weights(int variant, int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS]);
/* Writes one score per player; returns the number of players. */
int bk_player_scores(const bk_board *b, int *out);
/* Each player's share of the win in a finished game (docs/rules.md: the
 * highest player score wins, equal highest share): 1 / k for a player of
 * one of the k sides with the highest score, else 0, where a side is the
 * players who share one score (a team in classic_teams, else one player),
 * so both members of a winning team get the team's share.  Returns the
 * number of players. */
int bk_win_shares(const bk_board *b, double *out);

#endif

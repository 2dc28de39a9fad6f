/* Scores per colour and per player (docs/rules.md, "Scoring"). */
#ifndef BK_SCORE_H
#define BK_SCORE_H

#include "core/board.h"

#define BK_BONUS_ALL_PLACED 15
#define BK_BONUS_MONOMINO_LAST 20

/* Minus one per square in hand; +15 once all 21 pieces are placed, +20 if
 * the last of them was the monomino: from -BK_TOTAL_SQUARES to
 * BK_BONUS_MONOMINO_LAST. */
int bk_colour_score(const bk_board *b, int colour);
/* How colour scores make player scores: player p scores the sum over
 * colours c of weights[p][c] * score(c).  classic_2 sums blue+red and
 * yellow+green; classic_3 ignores the shared green; classic_teams gives each
 * player its team's sum.  Returns the number of players. */
int bk_player_weights(int variant, int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS]);
/* Writes one score per player; returns the number of players. */
int bk_player_scores(const bk_board *b, int *out);
/* The side of each player: players whose scores are made of the same
 * colours (classic_teams' partners) are one side, numbered by its first
 * player.  Returns the number of players. */
int bk_player_sides(int variant, int8_t *side);
/* The number of sides among n players whose sides are `side` (bk_player_sides). */
int bk_num_sides(int n, const int8_t *side);
/* Who wins (docs/rules.md, "Scoring"): 1 for each player with the highest
 * player score, else 0; equal highest share the win.  For n players. */
void bk_winners_of(int n, const int64_t *player_scores, uint8_t *winners);
/* bk_winners_of the board's player scores; returns the number of players. */
int bk_winners(const bk_board *b, uint8_t *winners);
/* Each player's share of the win in a finished game: 1 / k for a player of
 * one of the k winning sides, else 0 (both members of a winning team get the
 * team's share).  Returns the number of players. */
int bk_win_shares(const bk_board *b, double *out);
/* The same from n players' scores and their sides (bk_player_sides). */
void bk_win_shares_of(int n, const int64_t *player_scores, const int8_t *side, double *out);
/* Each player's place as a share (twogtp's result in games of more than two
 * sides, and the rank the Mattel rules order players by): the sides ranked by
 * score, the lowest 0 and the highest 1 in steps of 1 / (sides - 1), sides
 * that tie averaging the places they hold; the members of a side get its
 * place.  With two sides it is the win share.  `side` as bk_player_sides. */
void bk_place_shares_of(int n, const int64_t *player_scores, const int8_t *side, double *out);

#endif

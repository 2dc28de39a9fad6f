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
    const bk_variant_info *v = bk_variant_facts(variant);
    memset(w, 0, sizeof(int8_t) * BK_MAX_COLOURS * BK_MAX_COLOURS);
    for (int p = 0; p < v->num_players; p++)
        for (int c = 0; c < v->num_colours; c++) w[p][c] = v->side_of_colour[c] == v->side_of_player[p];
    return v->num_players;
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

/* The board's player scores as the *_of functions take them; returns the
 * number of players. */
static int wide_player_scores(const bk_board *b, int64_t *wide)
{
    int scores[BK_MAX_COLOURS];
    int n = bk_player_scores(b, scores);
    for (int p = 0; p < n; p++) wide[p] = scores[p];
    return n;
}

int bk_winners(const bk_board *b, uint8_t *winners)
{
    int64_t wide[BK_MAX_COLOURS];
    int n = wide_player_scores(b, wide);
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
    int64_t wide[BK_MAX_COLOURS];
    int8_t side[BK_MAX_COLOURS];
    int players = wide_player_scores(b, wide);
    bk_player_sides(b->variant, side);
    bk_win_shares_of(players, wide, side, out);
    return players;
}

void bk_win_shares_of(int n, const int64_t *player_scores, const int8_t *side, double *out)
{
    uint8_t won[BK_MAX_COLOURS];
    int sides = 0;
    bk_winners_of(n, player_scores, won);
    for (int p = 0; p < n; p++) sides += won[p] && side[p] == p; /* each winning side once */
    for (int p = 0; p < n; p++) out[p] = won[p] ? 1.0 / sides : 0.0;
}

int bk_num_sides(int n, const int8_t *side)
{
    int sides = 0;
    for (int p = 0; p < n; p++) sides += side[p] == p; /* a side is numbered by its first player */
    return sides;
}

void bk_place_shares_of(int n, const int64_t *player_scores, const int8_t *side, double *out)
{
    int sides = bk_num_sides(n, side);
    for (int p = 0; p < n; p++) {
        int below = 0, level = 0; /* the other sides scoring less, and as much */
        for (int q = 0; q < n; q++) {
            if (side[q] != q || q == side[p]) continue;
            below += player_scores[q] < player_scores[p];
            level += player_scores[q] == player_scores[p];
        }
        /* the places below + 0 .. below + level, averaged */
        out[p] = sides > 1 ? (below + 0.5 * level) / (sides - 1) : 1.0;
    }
}

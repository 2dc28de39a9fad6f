/* The variants of Blokus (docs/rules.md, "Variants"): for each, its name,
 * board, colours, players, who moves and who scores each colour, and starting
 * squares, in the one table that every
 * other file (and, through the binding, the Python package) reads. */
#ifndef BK_VARIANTS_H
#define BK_VARIANTS_H

#include "core/pieces.h"

typedef struct {
    int side, num_colours, num_players;
    const char *colour_names[BK_MAX_COLOURS]; /* in turn order */
    bk_cell starts[BK_MAX_COLOURS];           /* starting squares; colour i's own is i under "fixed" */
    int8_t mover[BK_MAX_COLOURS];             /* the player who moves each colour; -1: the players in rotation */
    int8_t side_of_colour[BK_MAX_COLOURS];    /* the side each colour scores for; -1: nobody */
    int8_t side_of_player[BK_MAX_COLOURS];    /* each player's side: players of one side share its score */
} bk_variant_info;

/* The names of the variants, by bk_variant ("classic", ..., "duo"), and of
 * the start rules, by bk_start_rule ("any", "fixed"). */
extern const char *const bk_variant_names[BK_NUM_VARIANTS];
extern const char *const bk_start_rule_names[2];

/* Copies the facts of `variant`; BK_ERR_BAD_VARIANT when there is no such variant. */
bk_status bk_variant_get_info(int variant, bk_variant_info *info);

/* The facts of a variant already checked (a board's): no copy, no check. */
const bk_variant_info *bk_variant_facts(int variant);

/* The player who moves `colour` when `placed` of its pieces are on the board
 * (a shared colour goes round the players: docs/rules.md, "Scoring"). */
int bk_variant_mover(const bk_variant_info *v, int colour, int placed);

#endif

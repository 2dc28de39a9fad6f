/* The variants of Blokus (docs/rules.md, "Variants"): for each, its name,
 * board, colours, players, who moves and who scores each colour, starting
 * squares, game-record name and the weights its playouts and prior use, in the
 * one table that every other file (and, through the binding, the Python
 * package) reads. A new variant is a row here and a bk_variant entry
 * (docs/architecture.md, "Adding a variant"). */
#ifndef BK_VARIANTS_H
#define BK_VARIANTS_H

#include "core/types.h"

/* The weight sets of the playout policy and the prior (engine/playout_policy.c,
 * engine/prior.c), fitted to one kind of game each: a variant names the set it
 * plays with. */
typedef enum {
    BK_WEIGHTS_CLASSIC = 0, /* 20x20 games (the prior fitted to classic_2) */
    BK_WEIGHTS_DUO = 1,     /* Duo's 14x14 */
    BK_NUM_WEIGHT_SETS = 2
} bk_weight_set;

typedef struct {
    int side, num_colours, num_players; /* side: of the square board; its placement table is bk_geometry_for(side) */
    const char *colour_names[BK_MAX_COLOURS]; /* in turn order */
    bk_cell starts[BK_MAX_COLOURS];           /* starting squares; colour i's own is i under "fixed" */
    int8_t mover[BK_MAX_COLOURS];             /* the player who moves each colour; -1: the players in rotation */
    int8_t side_of_colour[BK_MAX_COLOURS];    /* the side each colour scores for; -1: nobody */
    int8_t side_of_player[BK_MAX_COLOURS];    /* each player's side: players of one side share its score */
    const char *sgf_game; /* its game records' GM value (Pentobi's); variants may share one */
    bk_weight_set weights; /* the playout and prior weights it plays with */
} bk_variant_info;

/* The names of the variants, by bk_variant ("classic", ..., "duo"), and of
 * the start rules, by bk_start_rule ("any", "fixed"). */
extern const char *const bk_variant_names[BK_NUM_VARIANTS];
extern const char *const bk_start_rule_names[2];
/* The names of the weight sets, by bk_weight_set ("classic", "duo"). */
extern const char *const bk_weight_set_names[BK_NUM_WEIGHT_SETS];

/* Whether every row of the table is consistent (sizes within the BK_MAX_
 * bounds, starting squares on the board, movers and sides in range, every
 * name given): NULL when it is, else what is wrong, for bk_init. */
const char *bk_variants_check(void);

/* Copies the facts of `variant`; BK_ERR_BAD_VARIANT when there is no such variant. */
bk_status bk_variant_get_info(int variant, bk_variant_info *info);

/* The facts of a variant already checked (a board's): no copy, no check. */
const bk_variant_info *bk_variant_facts(int variant);

/* The player who moves `colour` when `placed` of its pieces are on the board
 * (a shared colour goes round the players: docs/rules.md, "Scoring").
 * Inline: the search asks it for every move of every simulation. */
static inline int bk_variant_mover(const bk_variant_info *v, int colour, int placed)
{
    return v->mover[colour] >= 0 ? v->mover[colour] : placed % v->num_players;
}

#endif

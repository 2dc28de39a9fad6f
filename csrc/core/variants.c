/* The variants' table. */
#include "core/variants.h"

#include <stddef.h>
#include <stdio.h>

/* Starting squares in colour order (docs/rules.md): blue, yellow, red, green
 * take the corners clockwise from the top-left; Duo's two points are e10 and
 * j5. Who moves and who scores (docs/rules.md, "Scoring"): in classic_2 one
 * player moves blue and red, the other yellow and green, each scoring their
 * two; in classic_3 green is moved by the players in rotation and scores for
 * nobody; in classic_teams blue and red score for the team of players 0 and
 * 2, yellow and green for that of players 1 and 3. GM values are Pentobi's:
 * classic_teams is written "Blokus" with the variant named in a property of
 * our own (blokus/sgf/_records.py). */
#define CLASSIC_COLOURS {"blue", "yellow", "red", "green"}
#define CLASSIC_STARTS {{0, 0}, {0, 19}, {19, 19}, {19, 0}}
#define EACH_OWN {0, 1, 2, 3}
#define TWO_SIDES {0, 1, 0, 1}

const char *const bk_variant_names[BK_NUM_VARIANTS] = {
    [BK_CLASSIC] = "classic", [BK_CLASSIC_2] = "classic_2", [BK_CLASSIC_3] = "classic_3",
    [BK_CLASSIC_TEAMS] = "classic_teams", [BK_DUO] = "duo",
#ifdef BK_TEST_VARIANT
    [BK_TEST_TRIO] = "test_trio",
#endif
};

static const bk_variant_info variants[BK_NUM_VARIANTS] = {
    [BK_CLASSIC] = {20, 4, 4, CLASSIC_COLOURS, CLASSIC_STARTS, EACH_OWN, EACH_OWN, EACH_OWN, "Blokus",
                    BK_WEIGHTS_CLASSIC},
    [BK_CLASSIC_2] = {20, 4, 2, CLASSIC_COLOURS, CLASSIC_STARTS, TWO_SIDES, TWO_SIDES, {0, 1},
                      "Blokus Two-Player", BK_WEIGHTS_CLASSIC},
    [BK_CLASSIC_3] = {20, 4, 3, CLASSIC_COLOURS, CLASSIC_STARTS, {0, 1, 2, -1}, {0, 1, 2, -1}, {0, 1, 2},
                      "Blokus Three-Player", BK_WEIGHTS_CLASSIC},
    [BK_CLASSIC_TEAMS] = {20, 4, 4, CLASSIC_COLOURS, CLASSIC_STARTS, EACH_OWN, TWO_SIDES, TWO_SIDES, "Blokus",
                          BK_WEIGHTS_CLASSIC},
    [BK_DUO] = {14, 2, 2, {"purple", "orange"}, {{4, 4}, {9, 9}}, {0, 1}, {0, 1}, {0, 1}, "Blokus Duo",
                BK_WEIGHTS_DUO},
#ifdef BK_TEST_VARIANT
    /* Three colours on Duo's board, each its own player's, named as neither
     * Duo's nor classic's are: no such game is sold; it exists to be walked
     * through every layer by the tests. */
    [BK_TEST_TRIO] = {14, 3, 3, {"purple", "orange", "green"}, {{4, 4}, {9, 9}, {4, 9}}, {0, 1, 2}, {0, 1, 2},
                      {0, 1, 2}, "Blokus Test Trio", BK_WEIGHTS_DUO},
#endif
};

const char *const bk_start_rule_names[2] = {[BK_START_ANY] = "any", [BK_START_FIXED] = "fixed"};
const char *const bk_weight_set_names[BK_NUM_WEIGHT_SETS] = {[BK_WEIGHTS_CLASSIC] = "classic",
                                                             [BK_WEIGHTS_DUO] = "duo"};

static int in_range(int x, int lo, int hi)
{
    return x >= lo && x < hi;
}

/* What is wrong with row v, or NULL. A row left out of the initialiser
 * above is all zeros, caught by its side. */
static const char *row_problem(const bk_variant_info *v)
{
    if (!in_range(v->side, BK_MAX_PIECE_SIZE, BK_MAX_SIZE + 1)) return "a board side outside 5 .. BK_MAX_SIZE";
    if (!in_range(v->num_colours, 1, BK_MAX_COLOURS + 1)) return "a number of colours outside 1 .. BK_MAX_COLOURS";
    if (!in_range(v->num_players, 1, v->num_colours + 1)) return "a number of players outside 1 .. its colours";
    if (!v->sgf_game || !in_range((int)v->weights, 0, BK_NUM_WEIGHT_SETS)) return "no SGF game name or weight set";
    for (int c = 0; c < v->num_colours; c++) {
        if (!v->colour_names[c]) return "a colour without a name";
        if (!in_range(v->starts[c].r, 0, v->side) || !in_range(v->starts[c].c, 0, v->side))
            return "a starting square off its board";
        if (!in_range(v->mover[c], -1, v->num_players) || !in_range(v->side_of_colour[c], -1, v->num_players))
            return "a colour's mover or side outside its players";
    }
    for (int p = 0; p < v->num_players; p++)
        if (!in_range(v->side_of_player[p], 0, v->num_players)) return "a player's side outside its players";
    return NULL;
}

const char *bk_variants_check(void)
{
    static char message[128];
    for (int v = 0; v < BK_NUM_VARIANTS; v++) {
        const char *problem = bk_variant_names[v] ? row_problem(&variants[v]) : "no name";
        if (problem) {
            snprintf(message, sizeof message, "core/variants.c: variant %d: %s", v, problem);
            return message;
        }
    }
    return NULL;
}

bk_status bk_variant_get_info(int variant, bk_variant_info *info)
{
    if (variant < 0 || variant >= BK_NUM_VARIANTS) return BK_ERR_BAD_VARIANT;
    *info = variants[variant];
    return BK_OK;
}

const bk_variant_info *bk_variant_facts(int variant)
{
    return &variants[variant];
}

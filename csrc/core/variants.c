/* The variants' table. */
#include "core/variants.h"

/* Starting squares in colour order (docs/rules.md): blue, yellow, red, green
 * take the corners clockwise from the top-left; Duo's two points are e10 and
 * j5. Who moves and who scores (docs/rules.md, "Scoring"): in classic_2 one
 * player moves blue and red, the other yellow and green, each scoring their
 * two; in classic_3 green is moved by the players in rotation and scores for
 * nobody; in classic_teams blue and red score for the team of players 0 and
 * 2, yellow and green for that of players 1 and 3. */
#define CLASSIC_COLOURS {"blue", "yellow", "red", "green"}
#define CLASSIC_STARTS {{0, 0}, {0, 19}, {19, 19}, {19, 0}}
#define EACH_OWN {0, 1, 2, 3}
#define TWO_SIDES {0, 1, 0, 1}

const char *const bk_variant_names[BK_NUM_VARIANTS] = {
    [BK_CLASSIC] = "classic", [BK_CLASSIC_2] = "classic_2", [BK_CLASSIC_3] = "classic_3",
    [BK_CLASSIC_TEAMS] = "classic_teams", [BK_DUO] = "duo",
};

static const bk_variant_info variants[BK_NUM_VARIANTS] = {
    [BK_CLASSIC] = {20, 4, 4, CLASSIC_COLOURS, CLASSIC_STARTS, EACH_OWN, EACH_OWN, EACH_OWN},
    [BK_CLASSIC_2] = {20, 4, 2, CLASSIC_COLOURS, CLASSIC_STARTS, TWO_SIDES, TWO_SIDES, {0, 1}},
    [BK_CLASSIC_3] = {20, 4, 3, CLASSIC_COLOURS, CLASSIC_STARTS, {0, 1, 2, -1}, {0, 1, 2, -1}, {0, 1, 2}},
    [BK_CLASSIC_TEAMS] = {20, 4, 4, CLASSIC_COLOURS, CLASSIC_STARTS, EACH_OWN, TWO_SIDES, TWO_SIDES},
    [BK_DUO] = {14, 2, 2, {"purple", "orange"}, {{4, 4}, {9, 9}}, {0, 1}, {0, 1}, {0, 1}},
};

const char *const bk_start_rule_names[2] = {[BK_START_ANY] = "any", [BK_START_FIXED] = "fixed"};

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

int bk_variant_mover(const bk_variant_info *v, int colour, int placed)
{
    return v->mover[colour] >= 0 ? v->mover[colour] : placed % v->num_players;
}

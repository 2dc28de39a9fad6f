/* The variants' table. */
#include "core/variants.h"

/* Starting squares in colour order (docs/rules.md): blue, yellow, red, green
 * take the corners clockwise from the top-left; Duo's two points are e10 and
 * j5. */
#define CLASSIC_COLOURS {"blue", "yellow", "red", "green"}
#define CLASSIC_STARTS {{0, 0}, {0, 19}, {19, 19}, {19, 0}}

const char *const bk_variant_names[BK_NUM_VARIANTS] = {
    [BK_CLASSIC] = "classic", [BK_CLASSIC_2] = "classic_2", [BK_CLASSIC_3] = "classic_3",
    [BK_CLASSIC_TEAMS] = "classic_teams", [BK_DUO] = "duo",
};

static const bk_variant_info variants[BK_NUM_VARIANTS] = {
    [BK_CLASSIC] = {20, 4, 4, CLASSIC_COLOURS, CLASSIC_STARTS},
    [BK_CLASSIC_2] = {20, 4, 2, CLASSIC_COLOURS, CLASSIC_STARTS},
    [BK_CLASSIC_3] = {20, 4, 3, CLASSIC_COLOURS, CLASSIC_STARTS},
    [BK_CLASSIC_TEAMS] = {20, 4, 4, CLASSIC_COLOURS, CLASSIC_STARTS},
    [BK_DUO] = {14, 2, 2, {"purple", "orange"}, {{4, 4}, {9, 9}}},
};

const char *const bk_start_rule_names[2] = {[BK_START_ANY] = "any", [BK_START_FIXED] = "fixed"};

bk_status bk_variant_get_info(int variant, bk_variant_info *info)
{
    if (variant < 0 || variant >= BK_NUM_VARIANTS) return BK_ERR_BAD_VARIANT;
    *info = variants[variant];
    return BK_OK;
}

/* Uniform-random playouts played entirely in C. */
#ifndef BK_PLAYOUT_H
#define BK_PLAYOUT_H

#include "core/board.h"
#include "core/movegen.h"

/* A small, fast generator (xoshiro256**); each stream is seeded on its own. */
typedef struct {
    uint64_t s[4];
} bk_rng;

void bk_rng_seed(bk_rng *rng, uint64_t seed, uint64_t stream);
uint64_t bk_rng_next(bk_rng *rng);
/* Uniform in [0, n), n >= 1, without modulo bias. */
uint32_t bk_rng_below(bk_rng *rng, uint32_t n);

/* Plays the board to its end, each move uniform over the legal placements
 * of the colour to move; `scratch` is room for the move generator. */
void bk_random_playout(bk_board *b, bk_rng *rng, bk_move_sets *scratch);

/* Plays games first .. first + n - 1 of `variant` from the empty board and
 * writes their final colour scores, n x num_colours, row by row.  Game i
 * draws from its own stream (seed, i), so results do not depend on how the
 * games are split into calls. */
bk_status bk_random_playouts(int variant, int start, int64_t first, int64_t n, uint64_t seed, int16_t *scores);

#endif

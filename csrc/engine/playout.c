/* Random playouts. */
#include "engine/playout.h"

#include "core/play.h"
#include "core/score.h"

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* splitmix64's output function: a bijective scrambler of 64-bit words */
static uint64_t mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

void bk_rng_seed(bk_rng *rng, uint64_t seed, uint64_t stream)
{
    /* the seed is scrambled before the stream is added, so that stream i of
     * one seed is not stream 0 of another (seed ^ i * K) */
    uint64_t z = mix64(seed) + stream * 0xD1B54A32D192ED03ull;
    for (int i = 0; i < 4; i++) /* splitmix64 fills the state, as xoshiro's authors advise */
        rng->s[i] = mix64(z += 0x9E3779B97F4A7C15ull);
}

uint64_t bk_rng_next(bk_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t bk_rng_below(bk_rng *rng, uint32_t n)
{
    /* Lemire's multiply-and-reject */
    uint64_t m = (uint64_t)(uint32_t)(bk_rng_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(bk_rng_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void bk_random_playout(bk_board *b, bk_rng *rng, bk_move_sets *scratch)
{
    while (b->to_move >= 0) {
        /* counting and picking the k-th is cheaper than listing every move */
        int n = bk_collect_moves(b, b->to_move, scratch);
        bk_play_unchecked(b, bk_move_sets_get(scratch, (int)bk_rng_below(rng, (uint32_t)n)));
    }
}

bk_status bk_random_playouts(int variant, int start, int64_t first, int64_t n, uint64_t seed, int16_t *scores)
{
    bk_board b;
    bk_rng rng;
    bk_move_sets scratch;
    for (int64_t i = 0; i < n; i++) {
        bk_status st = bk_board_init(&b, variant, start);
        if (st != BK_OK) return st;
        bk_rng_seed(&rng, seed, (uint64_t)(first + i));
        bk_random_playout(&b, &rng, &scratch);
        for (int c = 0; c < b.num_colours; c++)
            scores[i * b.num_colours + c] = (int16_t)bk_colour_score(&b, c);
    }
    return BK_OK;
}

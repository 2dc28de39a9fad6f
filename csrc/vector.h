/* A batch of independent games stepped together, split across threads.
 *
 * Every per-game quantity lives in one array with the game as its leading
 * axis, so the Python binding exposes them as NumPy views without copies.
 * After each step the arrays describe every game's new position: the legal
 * mask of the colour to move (updated incrementally), its observation planes
 * and pieces in hand, the scores, and the statistics of finished episodes. */
#ifndef BK_VECTOR_H
#define BK_VECTOR_H

#include "board.h"
#include "playout.h"
#include "policy.h"

/* Legal ids kept per game, so that the next step clears only those mask
 * entries; a position with more (rare) clears the whole mask row instead. */
#define BK_VECTOR_LIST_CAP 1024

typedef struct bk_vector {
    int64_t n;
    int variant, start, num_threads; /* threads actually running, at most num_envs */
    struct bk_pool *pool;     /* the worker threads (vector.c) */
    int side, num_colours, num_players, num_placements, num_planes;
    bk_board *boards;         /* n */
    bk_rng *rngs;             /* n: game i draws from stream (seed, i) */
    uint16_t *lists;          /* n x BK_VECTOR_LIST_CAP: current legal ids */
    uint16_t *scratch;        /* num_threads x BK_MAX_MOVES */
    uint8_t *legal_mask;      /* n x num_placements */
    int32_t *num_legal;       /* n */
    int8_t *observation;      /* n x num_planes x side x side */
    int8_t *remaining;        /* n x num_colours x 21, from the colour to move */
    int16_t *scores;          /* n x num_colours */
    uint8_t *done;            /* n: finished at the last step; reset at the next */
    int32_t *ply;             /* n: placements in the current episode */
    int32_t *episode_length;  /* n: of the last finished episode */
    int16_t *episode_scores;  /* n x num_colours */
    uint8_t *episode_winners; /* n x num_players */
    int64_t *episodes;        /* n: finished episodes so far */
} bk_vector;

/* Starts num_threads - 1 worker threads that live until bk_vector_free.  A
 * forked child has none of them: there, steps run on the calling thread.
 * One batch must not be stepped from two threads at once. */
bk_status bk_vector_init(bk_vector *v, int64_t n, int variant, int start, int num_threads, uint64_t seed);
void bk_vector_free(bk_vector *v);
/* Back to empty boards; the random streams restart from `seed`. */
void bk_vector_reset(bk_vector *v, uint64_t seed);

/* Index of the first live game whose action is not legal (or whose mover is
 * not player `seat`, when seat >= 0), or -1 when all are fine. */
int64_t bk_vector_first_bad_action(const bk_vector *v, const int32_t *actions, int seat);
/* The same, not looking at the games where skip[i] is set. */
int64_t bk_vector_first_bad_action_except(const bk_vector *v, const int32_t *actions, const uint8_t *skip, int seat);

/* One placement per live game (finished games are reset instead). */
void bk_vector_step(bk_vector *v, const int32_t *actions);
/* The policy's placement in every live game (finished games are reset). */
void bk_vector_step_policy(bk_vector *v, bk_policy policy);
/* The learner's action, then the opponents' moves until player `seat` is to
 * move again or the game is over; finished games are reset, then the
 * opponents play until the learner is to move. */
void bk_vector_step_with_opponents(bk_vector *v, const int32_t *actions, bk_policy opponent, int seat);
/* The same, except that a live game with forfeit[i] set ends where it stands
 * (its result recorded from the position as it is) instead of moving. */
void bk_vector_step_with_forfeits(bk_vector *v, const int32_t *actions, const uint8_t *forfeit, bk_policy opponent,
                                  int seat);
/* Every finished game restarts and its opponents play until the learner is
 * to move; live games are left as they are (same-step autoreset). */
void bk_vector_restart_done(bk_vector *v, bk_policy opponent, int seat);
/* Only the opponents' part of the above, in every live game. */
void bk_vector_play_opponents(bk_vector *v, bk_policy opponent, int seat);

#endif

/* A batch of independent games stepped together, split across threads.
 *
 * Every per-game quantity lives in one array with the game as its leading
 * axis, so the Python binding exposes them as NumPy views without copies.
 * After each step the arrays describe every game's new position: the legal
 * mask of the colour to move (updated incrementally), its observation planes
 * and pieces in hand, the scores, and the statistics of finished episodes. */
#ifndef BK_VECTOR_H
#define BK_VECTOR_H

#include "core/board.h"
#include "engine/playout.h"
#include "engine/policy.h"

/* Legal ids kept per game, so that the next step clears only those mask
 * entries; a position with more (rare) clears the whole mask row instead. */
#define BK_VECTOR_LIST_CAP 1024

typedef struct bk_vector {
    int64_t n;
    int variant, start, num_threads; /* threads actually running, at most num_envs */
    struct bk_pool *pool;     /* the worker threads (engine/pool.c) */
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

/* Allocates n games and starts num_threads - 1 worker threads that live
 * until bk_vector_free; the games are set up by the first BK_VECTOR_RESET
 * over them, which must come before any other call.  A forked child has none
 * of the threads: there, calls run on the calling thread.  One batch must not
 * be stepped from two threads at once. */
bk_status bk_vector_init(bk_vector *v, int64_t n, int variant, int start, int num_threads);
void bk_vector_free(bk_vector *v);

/* Index of the first live game whose action is not legal (or whose mover is
 * not player `seat`, when seat >= 0), not looking at the games where skip[i]
 * is set (skip may be NULL); -1 when all are fine. */
int64_t bk_vector_first_bad_action(const bk_vector *v, const int32_t *actions, const uint8_t *skip, int seat);

typedef enum {
    /* one placement per live game, actions[i] for game i (finished games are
     * reset instead: Gymnasium's next-step autoreset) */
    BK_VECTOR_STEP,
    /* the policy's placement in every live game (finished games are reset) */
    BK_VECTOR_STEP_POLICY,
    /* the learner's action, then the opponent policy's moves until player
     * `seat` is to move again or the game is over; finished games are reset,
     * then the opponents play until the learner is to move; a live game with
     * forfeit[i] set ends where it stands instead (its result recorded from
     * the position as it is) */
    BK_VECTOR_STEP_WITH_OPPONENTS,
    /* only the opponents' part of the above, in every live game */
    BK_VECTOR_PLAY_OPPONENTS,
    /* every finished game restarts and its opponents play until the learner
     * is to move; live games are left as they are (same-step autoreset) */
    BK_VECTOR_RESTART_DONE,
    /* back to the empty board, statistics cleared; game i's random stream
     * restarts as stream (seed, i) */
    BK_VECTOR_RESET,
} bk_vector_kind;

typedef struct {
    bk_vector_kind kind;
    const int32_t *actions; /* STEP, STEP_WITH_OPPONENTS: one per game of the batch */
    const uint8_t *forfeit; /* STEP_WITH_OPPONENTS: NULL, or one flag per game */
    bk_policy policy;       /* STEP_POLICY; the opponents' in the two others */
    int seat;               /* the learner: STEP_WITH_OPPONENTS, PLAY_OPPONENTS, RESTART_DONE */
    uint64_t seed;          /* RESET */
} bk_vector_call;

/* Runs `call` on games [lo, hi) only (0 <= lo <= hi <= n).  A call split into
 * ranges leaves the batch as one call over all would: a game's result
 * depends on nothing but its own state and random stream.  So a caller can
 * split a long call and stop between parts. */
void bk_vector_run(bk_vector *v, const bk_vector_call *call, int64_t lo, int64_t hi);

#endif

/* Batched games. */
#include "engine/vector.h"

#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/observe.h"
#include "core/play.h"
#include "core/score.h"
#include "engine/pool.h"

/* ---- one game ----------------------------------------------------------- */

static void reset_game(bk_vector *v, int64_t i)
{
    bk_board_init(&v->boards[i], v->variant, v->start);
    v->done[i] = 0;
    v->ply[i] = 0;
}

/* Records the result of game i, which has just ended. */
static void finish(bk_vector *v, int64_t i)
{
    const bk_board *b = &v->boards[i];
    v->done[i] = 1;
    v->episode_length[i] = v->ply[i];
    v->episodes[i]++;
    for (int c = 0; c < v->num_colours; c++)
        v->episode_scores[i * v->num_colours + c] = (int16_t)bk_colour_score(b, c);
    bk_winners(b, v->episode_winners + i * v->num_players);
}

/* mask[ids[k]] = value for the n ids; unrolled by hand, which halves the
 * instructions of this, the largest part of a step after move generation. */
static void set_at(uint8_t *mask, const uint16_t *ids, int n, uint8_t value)
{
    const uint16_t *end = ids + n;
    for (; end - ids >= 4; ids += 4) {
        mask[ids[0]] = value;
        mask[ids[1]] = value;
        mask[ids[2]] = value;
        mask[ids[3]] = value;
    }
    for (; ids < end; ids++) mask[*ids] = value;
}

/* Brings game i's arrays up to date with its board, given the n legal ids of
 * its colour to move (none once over) in `moves`; a finished game is seen
 * from colour `view_if_over`. */
static void refresh_with(bk_vector *v, int64_t i, const uint16_t *moves, int n, int view_if_over)
{
    const bk_board *b = &v->boards[i];
    uint8_t *mask = v->legal_mask + i * v->num_placements;
    uint16_t *list = v->lists + i * BK_VECTOR_LIST_CAP;
    int old = v->num_legal[i], seen = b->to_move >= 0 ? b->to_move : view_if_over;
    if (old > BK_VECTOR_LIST_CAP)
        memset(mask, 0, (size_t)v->num_placements);
    else
        set_at(mask, list, old, 0); /* only what the last position set */
    set_at(mask, moves, n, 1);
    memcpy(list, moves, (size_t)(n < BK_VECTOR_LIST_CAP ? n : BK_VECTOR_LIST_CAP) * sizeof *list);
    v->num_legal[i] = n;
    bk_observation(b, seen, v->observation + i * v->num_planes * v->side * v->side);
    for (int k = 0; k < v->num_colours; k++)
        memcpy(v->remaining + (i * v->num_colours + k) * BK_NUM_PIECES,
               b->in_hand[(seen + k) % v->num_colours], BK_NUM_PIECES);
    for (int c = 0; c < v->num_colours; c++) v->scores[i * v->num_colours + c] = (int16_t)bk_colour_score(b, c);
}

/* Lists game i's legal ids into scratch; returns how many. */
static int list_moves(bk_vector *v, int64_t i, uint16_t *scratch)
{
    const bk_board *b = &v->boards[i];
    return b->to_move >= 0 ? bk_gen_moves(b, b->to_move, scratch) : 0;
}

/* Plays id in game i; scratch then lists the next colour's legal ids, whose
 * number is returned. */
static int place(bk_vector *v, int64_t i, int id, uint16_t *scratch)
{
    v->ply[i]++;
    return bk_play_listing(&v->boards[i], id, scratch);
}

/* Plays id in game i, handing the turn on lazily (bk_play_lazy): the colour
 * then to move may have no placement. */
static void place_lazily(bk_vector *v, int64_t i, int id)
{
    v->ply[i]++;
    bk_play_lazy(&v->boards[i], id);
}

/* Plays the opponents in game i until player `seat` is to move or the game
 * is over, from a position whose turn was handed on lazily (bk_play_lazy:
 * the colour to move may have no placement); returns the number of the
 * learner's legal ids then, listed in scratch (0 once the game is over).
 * A random opponent's moves are counted and the k-th drawn (bk_move_sets),
 * which costs less than listing them and draws the move its list would. */
static int opponents_play(bk_vector *v, int64_t i, bk_policy policy, int seat, uint16_t *scratch)
{
    bk_board *b = &v->boards[i];
    bk_move_sets sets; /* on the stack: bk_cand_set's alignment is more than malloc's */
    while (b->to_move >= 0) {
        int learner = bk_player_of_colour(b, b->to_move) == seat, id = -1, n;
        if (!learner && policy == BK_POLICY_RANDOM) {
            if ((n = bk_collect_moves(b, b->to_move, &sets)))
                id = bk_move_sets_get(&sets, (int)bk_rng_below(&v->rngs[i], (uint32_t)n));
        } else if ((n = bk_gen_moves(b, b->to_move, scratch))) {
            if (learner) return n;
            id = bk_policy_move(policy, b, scratch, n, &v->rngs[i]);
        }
        if (id < 0) {
            bk_out_of_moves(b);
            continue;
        }
        place_lazily(v, i, id);
    }
    return 0;
}

/* The end of every step of game i: its result if it is over, then its arrays
 * (a finished game seen from colour `view_if_over`). */
static void end_step(bk_vector *v, int64_t i, const uint16_t *moves, int n, int view_if_over)
{
    if (v->boards[i].to_move < 0) finish(v, i);
    refresh_with(v, i, moves, n, view_if_over);
}

/* ---- what a step does to one game -------------------------------------- */

typedef void (*game_fn)(bk_vector *v, int64_t i, uint16_t *scratch, const bk_vector_call *a);

/* A finished game is reset instead of moving (Gymnasium's next-step autoreset). */
static int reset_if_done(bk_vector *v, int64_t i, uint16_t *scratch)
{
    if (!v->done[i]) return 0;
    reset_game(v, i);
    refresh_with(v, i, scratch, list_moves(v, i, scratch), 0);
    return 1;
}

static void step_action(bk_vector *v, int64_t i, uint16_t *scratch, const bk_vector_call *a)
{
    if (reset_if_done(v, i, scratch)) return;
    end_step(v, i, scratch, place(v, i, a->actions[i], scratch), 0);
}

static void step_policy(bk_vector *v, int64_t i, uint16_t *scratch, const bk_vector_call *a)
{
    if (reset_if_done(v, i, scratch)) return;
    int n = v->num_legal[i];
    const uint16_t *moves = v->lists + i * BK_VECTOR_LIST_CAP;
    if (n > BK_VECTOR_LIST_CAP) { /* the kept list was cut short: list them again */
        list_moves(v, i, scratch);
        moves = scratch;
    }
    int id = bk_policy_move(a->policy, &v->boards[i], moves, n, &v->rngs[i]);
    end_step(v, i, scratch, place(v, i, id, scratch), 0);
}

static void step_learner(bk_vector *v, int64_t i, uint16_t *scratch, const bk_vector_call *a)
{
    if (a->forfeit && a->forfeit[i] && !v->done[i]) {
        finish(v, i); /* its arrays keep showing the position where it ended */
        return;
    }
    if (v->done[i]) {
        reset_game(v, i);
    } else {
        place_lazily(v, i, a->actions[i]);
    }
    /* player seat's colour is colour seat in every variant: the learner's view at the end */
    end_step(v, i, scratch, opponents_play(v, i, a->policy, a->seat, scratch), a->seat);
}

static void step_opponents(bk_vector *v, int64_t i, uint16_t *scratch, const bk_vector_call *a)
{
    if (v->done[i]) return;
    end_step(v, i, scratch, opponents_play(v, i, a->policy, a->seat, scratch), a->seat);
}

/* A finished game restarts, played up to the learner's turn; others wait. */
static void step_restart(bk_vector *v, int64_t i, uint16_t *scratch, const bk_vector_call *a)
{
    if (!v->done[i]) return;
    reset_game(v, i);
    end_step(v, i, scratch, opponents_play(v, i, a->policy, a->seat, scratch), a->seat);
}

/* A fresh start: the statistics of earlier episodes go too. */
static void step_reset(bk_vector *v, int64_t i, uint16_t *scratch, const bk_vector_call *a)
{
    (void)a;
    reset_game(v, i);
    v->episodes[i] = 0;
    v->episode_length[i] = 0;
    memset(v->episode_scores + i * v->num_colours, 0, (size_t)v->num_colours * sizeof *v->episode_scores);
    memset(v->episode_winners + i * v->num_players, 0, (size_t)v->num_players);
    refresh_with(v, i, scratch, list_moves(v, i, scratch), 0);
}

/* ---- threads ------------------------------------------------------------ */

typedef struct {
    bk_vector *v;
    game_fn fn;
    const bk_vector_call *call;
} games_loop;

/* One game of a loop, with the scratch of the thread that does it.  Which
 * thread steps a game does not change its result: a game's state and random
 * stream are its own; scratch is only scratch. */
static void step_one(void *ctx, int64_t i, int thread)
{
    const games_loop *loop = ctx;
    loop->fn(loop->v, i, loop->v->scratch + (size_t)thread * BK_MAX_MOVES, loop->call);
}

/* Runs fn on games [lo, hi) on the batch's threads.  Games share nothing
 * writable, so no locking is needed between them. */
static void for_games(bk_vector *v, int64_t lo, int64_t hi, game_fn fn, const bk_vector_call *call)
{
    games_loop loop = {v, fn, call};
    bk_pool_run(v->pool, lo, hi, step_one, &loop);
}

/* ---- public ------------------------------------------------------------- */

bk_status bk_vector_init(bk_vector *v, int64_t n, int variant, int start, int num_threads)
{
    bk_variant_info info;
    bk_board probe;
    memset(v, 0, sizeof *v);
    if (bk_variant_get_info(variant, &info) != BK_OK || bk_board_init(&probe, variant, start) != BK_OK)
        return BK_ERR_BAD_VARIANT;
    v->n = n;
    v->variant = variant;
    v->start = start;
    v->num_threads = num_threads < 1 ? 1 : num_threads > BK_POOL_MAX_THREADS ? BK_POOL_MAX_THREADS : num_threads;
    if (v->num_threads > n) v->num_threads = (int)n; /* no more threads than games */
    v->side = info.side;
    v->num_colours = info.num_colours;
    v->num_players = info.num_players;
    v->num_placements = probe.geom->num_placements;
    v->num_planes = bk_num_planes(&probe);
    size_t N = (size_t)n, C = (size_t)v->num_colours, cells = (size_t)v->side * v->side;
    v->boards = calloc(N, sizeof *v->boards);
    v->rngs = calloc(N, sizeof *v->rngs);
    v->lists = calloc(N * BK_VECTOR_LIST_CAP, sizeof *v->lists);
    v->scratch = calloc((size_t)v->num_threads * BK_MAX_MOVES, sizeof *v->scratch);
    v->legal_mask = calloc(N * v->num_placements, 1);
    v->num_legal = calloc(N, sizeof *v->num_legal);
    v->observation = calloc(N * v->num_planes * cells, 1);
    v->remaining = calloc(N * C * BK_NUM_PIECES, 1);
    v->scores = calloc(N * C, sizeof *v->scores);
    v->done = calloc(N, 1);
    v->ply = calloc(N, sizeof *v->ply);
    v->episode_length = calloc(N, sizeof *v->episode_length);
    v->episode_scores = calloc(N * C, sizeof *v->episode_scores);
    v->episode_winners = calloc(N * v->num_players, 1);
    v->episodes = calloc(N, sizeof *v->episodes);
    if (!v->boards || !v->rngs || !v->lists || !v->scratch || !v->legal_mask || !v->num_legal ||
        !v->observation || !v->remaining || !v->scores || !v->done || !v->ply || !v->episode_length ||
        !v->episode_scores || !v->episode_winners || !v->episodes || !(v->pool = bk_pool_start(v->num_threads))) {
        bk_vector_free(v);
        return BK_ERR_NO_MEMORY;
    }
    v->num_threads = bk_pool_threads(v->pool); /* the system may give fewer */
    return BK_OK;
}

void bk_vector_free(bk_vector *v)
{
    bk_pool_stop(v->pool);
    void *arrays[] = {v->boards, v->rngs, v->lists, v->scratch, v->legal_mask, v->num_legal, v->observation,
                      v->remaining, v->scores, v->done, v->ply, v->episode_length, v->episode_scores,
                      v->episode_winners, v->episodes};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) free(arrays[k]);
    memset(v, 0, sizeof *v);
}

int64_t bk_vector_first_bad_action(const bk_vector *v, const int32_t *actions, const uint8_t *skip, int seat)
{
    for (int64_t i = 0; i < v->n; i++) {
        const bk_board *b = &v->boards[i];
        if (v->done[i] || (skip && skip[i])) continue;
        if (actions[i] < 0 || actions[i] >= v->num_placements) return i;
        if (!v->legal_mask[i * v->num_placements + actions[i]]) return i;
        if (seat >= 0 && bk_player_of_colour(b, b->to_move) != seat) return i;
    }
    return -1;
}

void bk_vector_run(bk_vector *v, const bk_vector_call *call, int64_t lo, int64_t hi)
{
    static const game_fn fns[] = {
        [BK_VECTOR_STEP] = step_action,
        [BK_VECTOR_STEP_POLICY] = step_policy,
        [BK_VECTOR_STEP_WITH_OPPONENTS] = step_learner,
        [BK_VECTOR_PLAY_OPPONENTS] = step_opponents,
        [BK_VECTOR_RESTART_DONE] = step_restart,
        [BK_VECTOR_RESET] = step_reset,
    };
    if (call->kind == BK_VECTOR_RESET)
        for (int64_t i = lo; i < hi; i++) bk_rng_seed(&v->rngs[i], call->seed, (uint64_t)i);
    if (lo < hi) for_games(v, lo, hi, fns[call->kind], call);
}

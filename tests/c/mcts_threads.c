/* Runs the MCTS on several threads, for ThreadSanitizer (and
 * AddressSanitizer) builds: in every variant, a search on 4 threads gives
 * the same moves whatever the calling thread's chunks, its visits add up to
 * its simulations, and every move it reports is legal; a search stopped
 * early (as by the clock) is consistent too, and so is one continued by
 * bk_mcts_advance after the move it chose.  A search whose 4 threads share
 * one tree (params.shared; its moves depend on the threads' timing) is
 * consistent in each of these ways, and so is one whose shared tree is
 * pruned again and again to stay within a small memory budget.
 *
 *   cc -std=c11 -O1 -g -fsanitize=thread -Icsrc tests/c/mcts_threads.c CORE -lpthread -lm && ./a.out
 *
 * where CORE is the .c files of csrc/core and csrc/engine.
 */
#include <stdio.h>
#include <string.h>

#include "core/init.h"
#include "core/movegen.h"
#include "core/play.h"
#include "engine/mcts.h"
#include "engine/prior.h"

#define SIMULATIONS 403 /* not a multiple of the threads: their shares differ */
#define STOP_AFTER 40
#define SMALL_MEMORY 8000 /* bytes: the tree of a few dozen simulations */

/* Runs search t of position b on its threads, the caller's tree in chunks
 * of `chunk` simulations (0: no count, stopped once the caller's tree has
 * run STOP_AFTER), `kept` simulations kept from an earlier search; returns
 * a checksum of the root's moves, or 0 if they are inconsistent. */
static unsigned long run(bk_mcts *t, const bk_board *b, int chunk, int64_t kept)
{
    static bk_mcts_move moves[BK_MAX_MOVES];
    static uint16_t legal[BK_MAX_MOVES];
    bk_mcts_start(t, chunk ? SIMULATIONS : 0);
    if (chunk)
        while (bk_mcts_run(t, chunk) > 0) continue;
    else
        bk_mcts_run(t, STOP_AFTER);
    bk_mcts_finish(t, chunk == 0);
    int64_t simulations = bk_mcts_simulations(t);
    int n = bk_mcts_moves(t, moves), num_legal = bk_gen_moves(b, b->to_move, legal), line[8];
    int64_t visits = 0;
    unsigned long sum = 1;
    for (int i = 0; i < n; i++) {
        int is_legal = 0;
        for (int j = 0; j < num_legal; j++) is_legal |= legal[j] == moves[i].id;
        if (!is_legal || (i && moves[i].visits > moves[i - 1].visits)) sum = 0;
        visits += moves[i].visits;
        if (sum) sum = sum * 31 + (unsigned long)moves[i].id * 7 + (unsigned long)moves[i].visits;
    }
    if (visits != simulations || simulations < kept + (chunk ? SIMULATIONS : STOP_AFTER) ||
        (chunk && simulations != kept + SIMULATIONS) || n == 0 || bk_mcts_principal_variation(t, line, 8) < 1 ||
        line[0] != moves[0].id)
        sum = 0;
    return sum;
}

/* A new search of the board on `threads` threads (sharing one tree or
 * not) with a memory budget (0: the default), run as run() does; 0 also
 * when a small budget did not make it prune. */
static unsigned long search_within(const bk_board *b, int threads, int shared, int chunk, int64_t memory)
{
    bk_mcts_params params = bk_mcts_defaults();
    params.shared = shared;
    params.memory = memory;
    bk_mcts *t = bk_mcts_new(b, &params, 11, threads);
    if (!t) return 0;
    unsigned long sum = run(t, b, chunk, 0);
    if (memory && bk_mcts_prunings(t) < 2) sum = 0;
    bk_mcts_free(t);
    return sum;
}

static unsigned long search(const bk_board *b, int threads, int shared, int chunk)
{
    return search_within(b, threads, shared, chunk, 0);
}

/* The checksum of a search continued after its move by bk_mcts_advance, or
 * 0 if either is inconsistent. */
static unsigned long continued(const bk_board *b, int threads, int shared)
{
    static bk_mcts_move first[BK_MAX_MOVES];
    bk_mcts_params params = bk_mcts_defaults();
    params.shared = shared;
    bk_mcts *t = bk_mcts_new(b, &params, 11, threads);
    unsigned long sum = t ? run(t, b, 7, 0) : 0;
    bk_board next = *b;
    if (sum && bk_mcts_moves(t, first) > 0) {
        bk_play_unchecked(&next, first[0].id);
        int64_t kept = bk_mcts_advance(t, &next, 12);
        sum = kept >= 0 && next.to_move >= 0 ? run(t, &next, 7, kept) : 0;
    }
    bk_mcts_free(t);
    return sum;
}

int main(void)
{
    int passed = 0, failed = 0;
    bk_init();
    bk_playout_policy_init();
    bk_prior_init();
    for (int variant = 0; variant < BK_NUM_VARIANTS; variant++) {
        bk_board b;
        if (bk_board_init(&b, variant, BK_START_FIXED) != BK_OK) return 2;
        unsigned long whole = search(&b, 4, 0, SIMULATIONS), split = search(&b, 4, 0, 7), one = search(&b, 1, 0, 3),
                      stopped = search(&b, 4, 0, 0), again = continued(&b, 4, 0);
        unsigned long shared = search(&b, 4, 1, 7), shared_stopped = search(&b, 4, 1, 0),
                      shared_again = continued(&b, 4, 1), shared_pruned = search_within(&b, 4, 1, 7, SMALL_MEMORY);
        if (whole == split && whole != 0 && one != 0 && stopped != 0 && again != 0 && again == continued(&b, 4, 0) &&
            shared != 0 && shared_stopped != 0 && shared_again != 0 && shared_pruned != 0) {
            passed++;
        } else {
            failed++;
            printf("variant %d: 4 threads give %lu, in chunks of 7 %lu; 1 thread %lu; stopped %lu; continued %lu; "
                   "one shared tree %lu, stopped %lu, continued %lu, pruned %lu\n",
                   variant, whole, split, one, stopped, again, shared, shared_stopped, shared_again, shared_pruned);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}

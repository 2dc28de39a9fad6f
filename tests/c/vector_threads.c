/* Runs the batch engine on several threads, for ThreadSanitizer (and
 * AddressSanitizer) builds: every kind of step, on every variant, and checks
 * that the result is the same with 1 and with 4 threads, and with every call
 * split into parts.
 *
 *   cc -std=c11 -O1 -g -fsanitize=thread -Icsrc tests/c/vector_threads.c CORE -lpthread && ./a.out
 *
 * where CORE is the .c files of csrc/core and csrc/engine.
 */
#include <stdio.h>
#include <string.h>

#include "core/init.h"
#include "engine/vector.h"

/* Runs a call over the whole batch, in `parts` ranges (as the binding splits
 * a long call). */
static void run_all(bk_vector *v, bk_vector_call call, int parts)
{
    for (int k = 0; k < parts; k++) bk_vector_run(v, &call, v->n * k / parts, v->n * (k + 1) / parts);
}

/* Plays a fixed mix of steps, each split into `parts` ranges, and returns a
 * checksum of the batch's arrays. */
static unsigned long run(int variant, int threads, int parts)
{
    bk_vector v;
    int32_t actions[24];
    unsigned long sum = 0;
    if (bk_vector_init(&v, 24, variant, BK_START_FIXED, threads) != BK_OK) return 0;
    run_all(&v, (bk_vector_call){.kind = BK_VECTOR_RESET, .seed = 7}, parts);
    for (int step = 0; step < 60; step++) {
        switch (step % 4) {
        case 0:
            run_all(&v, (bk_vector_call){.kind = BK_VECTOR_STEP_POLICY, .policy = BK_POLICY_RANDOM}, parts);
            break;
        case 1:
            run_all(&v, (bk_vector_call){.kind = BK_VECTOR_STEP_POLICY, .policy = BK_POLICY_GREEDY}, parts);
            break;
        case 2: /* the first legal placement of each game's kept list */
            for (int i = 0; i < 24; i++) actions[i] = v.lists[i * BK_VECTOR_LIST_CAP];
            run_all(&v, (bk_vector_call){.kind = BK_VECTOR_STEP, .actions = actions}, parts);
            break;
        default:
            run_all(&v, (bk_vector_call){.kind = BK_VECTOR_PLAY_OPPONENTS, .policy = BK_POLICY_GREEDY}, parts);
            for (int i = 0; i < 24; i++) actions[i] = v.lists[i * BK_VECTOR_LIST_CAP];
            if (bk_vector_first_bad_action(&v, actions, NULL, 0) < 0)
                run_all(&v,
                        (bk_vector_call){.kind = BK_VECTOR_STEP_WITH_OPPONENTS, .actions = actions,
                                         .policy = BK_POLICY_RANDOM},
                        parts);
        }
        for (int64_t i = 0; i < v.n * v.num_colours; i++) sum = sum * 31 + (unsigned long)(v.scores[i] + 100);
        for (int64_t i = 0; i < v.n; i++) sum = sum * 31 + (unsigned long)v.num_legal[i] + v.done[i];
    }
    bk_vector_free(&v);
    return sum;
}

int main(void)
{
    int passed = 0, failed = 0;
    bk_init();
    for (int variant = 0; variant < BK_NUM_VARIANTS; variant++) {
        unsigned long one = run(variant, 1, 1), four = run(variant, 4, 1), split = run(variant, 4, 5);
        if (one == four && one == split && one != 0) {
            passed++;
        } else {
            failed++;
            printf("variant %d: 1 thread gives %lu, 4 threads %lu, 4 threads in 5 parts %lu\n", variant, one, four,
                   split);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}

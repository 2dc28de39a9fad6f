/* Runs the batch engine on several threads, for ThreadSanitizer (and
 * AddressSanitizer) builds: every kind of step, on every variant, and checks
 * that the result is the same with 1 and with 4 threads.
 *
 *   cc -std=c11 -O1 -g -fsanitize=thread -Icsrc tests/c/vector_threads.c CORE -lpthread && ./a.out
 *
 * where CORE is every .c file of csrc but the binding's (module.c, vector_binding.c).
 */
#include <stdio.h>
#include <string.h>

#include "vector.h"

/* Plays a fixed mix of steps and returns a checksum of the batch's arrays. */
static unsigned long run(int variant, int threads)
{
    bk_vector v;
    int32_t actions[24];
    unsigned long sum = 0;
    if (bk_vector_init(&v, 24, variant, BK_START_FIXED, threads, 7) != BK_OK) return 0;
    for (int step = 0; step < 60; step++) {
        switch (step % 4) {
        case 0:
            bk_vector_step_policy(&v, BK_POLICY_RANDOM);
            break;
        case 1:
            bk_vector_step_policy(&v, BK_POLICY_GREEDY);
            break;
        case 2: /* the first legal placement of each game's kept list */
            for (int i = 0; i < 24; i++) actions[i] = v.lists[i * BK_VECTOR_LIST_CAP];
            bk_vector_step(&v, actions);
            break;
        default:
            bk_vector_play_opponents(&v, BK_POLICY_GREEDY, 0);
            for (int i = 0; i < 24; i++) actions[i] = v.lists[i * BK_VECTOR_LIST_CAP];
            if (bk_vector_first_bad_action(&v, actions, 0) < 0)
                bk_vector_step_with_opponents(&v, actions, BK_POLICY_RANDOM, 0);
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
        unsigned long one = run(variant, 1), four = run(variant, 4);
        if (one == four && one != 0) {
            passed++;
        } else {
            failed++;
            printf("variant %d: 1 thread gives %lu, 4 threads %lu\n", variant, one, four);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}

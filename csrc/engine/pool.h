/* A pool of worker threads for loops over independent items (the games of
 * a batch).  The workers live as long as the pool, so a loop costs a
 * wake-up, not a thread start. */
#ifndef BK_POOL_H
#define BK_POOL_H

#include <stdint.h>

#define BK_POOL_MAX_THREADS 64

typedef struct bk_pool bk_pool;

/* Does item i; `thread` in [0, bk_pool_threads) tells the calling thread, for
 * scratch memory of its own. */
typedef void (*bk_pool_fn)(void *ctx, int64_t i, int thread);

/* Starts threads - 1 workers (the caller is the last thread), fewer when the
 * system gives fewer; NULL when out of memory. */
bk_pool *bk_pool_start(int threads);
/* Threads a loop runs on: the workers and the caller. */
int bk_pool_threads(const bk_pool *p);
/* Runs fn on items [lo, hi) and returns when all are done: each thread takes
 * items from its own contiguous part, then helps with what is left of the
 * others'.  Items must not depend on which thread does them.  In a process
 * forked from the pool's, the workers are not there: the caller does all. */
void bk_pool_run(bk_pool *p, int64_t lo, int64_t hi, bk_pool_fn fn, void *ctx);
void bk_pool_stop(bk_pool *p);

#endif

/* The worker threads of the batch engine. */
#define _POSIX_C_SOURCE 200809L /* pthreads */
#include "engine/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Items a thread takes at a time from a part, its own or, once that is
 * done, another thread's (so a worker that wakes late costs less). */
#define CHUNK 4

/* Thread k's own part of the items; next is the first item not yet taken.
 * One cache line each, so that taking items does not slow the other threads. */
typedef struct {
    _Alignas(64) _Atomic int64_t next;
    int64_t hi;
} job;

typedef struct {
    bk_pool *pool;
    int k;
} worker_arg;

/* Worker k runs part k of each loop, the caller part 0, and then each helps
 * with what is left of the others. */
struct bk_pool {
    pid_t owner;         /* the process whose threads these are: a forked child has none */
    pthread_mutex_t lock;
    pthread_cond_t go, finished;
    uint64_t generation; /* loops handed out so far */
    int pending;         /* workers still running the current loop */
    int quit;
    int workers;
    bk_pool_fn fn;
    void *ctx;
    job jobs[BK_POOL_MAX_THREADS];
    pthread_t threads[BK_POOL_MAX_THREADS];
    worker_arg args_of[BK_POOL_MAX_THREADS];
};

/* Thread k does items from its own part, then from the others' until none
 * is left. */
static void run_jobs(bk_pool *pool, int k)
{
    int t = pool->workers + 1;
    for (int m = 0; m < t; m++) {
        job *j = &pool->jobs[(k + m) % t];
        for (;;) {
            int64_t lo = atomic_fetch_add_explicit(&j->next, CHUNK, memory_order_relaxed);
            if (lo >= j->hi) break;
            for (int64_t i = lo; i < lo + CHUNK && i < j->hi; i++) pool->fn(pool->ctx, i, k);
        }
    }
}

static void *worker(void *p)
{
    worker_arg arg = *(worker_arg *)p;
    bk_pool *pool = arg.pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->generation == seen && !pool->quit) pthread_cond_wait(&pool->go, &pool->lock);
        if (pool->quit) break;
        seen = pool->generation;
        pthread_mutex_unlock(&pool->lock);
        run_jobs(pool, arg.k);
        pthread_mutex_lock(&pool->lock);
        if (--pool->pending == 0) pthread_cond_signal(&pool->finished);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

bk_pool *bk_pool_start(int threads)
{
    /* aligned: the jobs are one cache line each (sizeof is a multiple of the alignment) */
    bk_pool *pool = aligned_alloc(_Alignof(bk_pool), sizeof *pool);
    int t = threads < 1 ? 1 : threads > BK_POOL_MAX_THREADS ? BK_POOL_MAX_THREADS : threads;
    if (!pool) return NULL;
    memset(pool, 0, sizeof *pool);
    pool->owner = getpid();
    if (pthread_mutex_init(&pool->lock, NULL) || pthread_cond_init(&pool->go, NULL) ||
        pthread_cond_init(&pool->finished, NULL))
        t = 1; /* no synchronisation to be had: every loop runs on the caller's thread */
    /* a worker reads its job only after a loop is handed out, which takes the
     * lock after the jobs are written */
    for (int k = 1; k < t; k++) {
        pool->args_of[k] = (worker_arg){pool, k};
        if (pthread_create(&pool->threads[k], NULL, worker, &pool->args_of[k]) != 0) break;
        pool->workers++;
    }
    return pool;
}

int bk_pool_threads(const bk_pool *p)
{
    return p->workers + 1;
}

void bk_pool_run(bk_pool *pool, int64_t lo, int64_t hi, bk_pool_fn fn, void *ctx)
{
    int t = pool->workers + 1;
    pool->fn = fn;
    pool->ctx = ctx;
    for (int k = 0; k < t; k++) {
        atomic_store_explicit(&pool->jobs[k].next, lo + (hi - lo) * k / t, memory_order_relaxed);
        pool->jobs[k].hi = lo + (hi - lo) * (k + 1) / t;
    }
    if (pool->workers == 0 || pool->owner != getpid()) { /* no threads, or they stayed with the parent */
        run_jobs(pool, 0);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->pending = pool->workers;
    pool->generation++;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->lock);
    run_jobs(pool, 0);
    pthread_mutex_lock(&pool->lock);
    while (pool->pending) pthread_cond_wait(&pool->finished, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}

void bk_pool_stop(bk_pool *pool)
{
    if (!pool) return;
    if (pool->owner != getpid()) { /* a forked child: the threads and their locks are the parent's */
        free(pool);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->quit = 1;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->lock);
    for (int k = 1; k <= pool->workers; k++) pthread_join(pool->threads[k], NULL);
    pthread_cond_destroy(&pool->go);
    pthread_cond_destroy(&pool->finished);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

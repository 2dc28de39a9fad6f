/* What a call of a solo puzzle's search ends with: both searches run in
 * calls of a bounded amount of work, so that their caller can check the
 * time and Ctrl-C between calls. */
#ifndef BK_PUZZLE_SEARCH_H
#define BK_PUZZLE_SEARCH_H

typedef enum {
    BK_SEARCH_FOUND = 1,     /* a solution */
    BK_SEARCH_EXHAUSTED = 0, /* there is none (or, counting, none more) */
    BK_SEARCH_BUDGET = -1    /* the work budget ran out: call again to go on */
} bk_search_result;

#endif

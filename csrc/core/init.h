/* The core's start: every shared table computed, once, before any other bk_
 * function is used. */
#ifndef BK_INIT_H
#define BK_INIT_H

/* Computes the shared tables (variants checked, pieces and placements, move
 * generation's candidates, Zobrist keys); later calls do nothing.  Not
 * thread-safe: call it once before starting threads.  Checks the variants'
 * table and the sizes typed in (types.h) against what the tables derive:
 * NULL when all agree, else what does not (no bk_ function may then be
 * used). */
const char *bk_init(void);

#endif

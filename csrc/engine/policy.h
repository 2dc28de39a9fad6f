/* Built-in move choices played in C: uniform random and greedy. */
#ifndef BK_POLICY_H
#define BK_POLICY_H

#include "core/board.h"
#include "engine/playout.h"

typedef enum { BK_POLICY_RANDOM = 0, BK_POLICY_GREEDY = 1, BK_NUM_POLICIES = 2 } bk_policy;

/* Their names, by bk_policy ("random", "greedy"). */
extern const char *const bk_policy_names[BK_NUM_POLICIES];

/* The policy's placement for the colour to move, chosen among the n legal
 * ids in `moves`; the board is left as it was.  Random: uniform.  Greedy:
 * the largest piece; among those, the most attachment points for the mover
 * after the move, then the fewest for the colours that do not score for the
 * mover's player (partners and a player's second colour are not opponents);
 * remaining ties uniformly at random. */
int bk_policy_move(bk_policy policy, bk_board *b, const uint16_t *moves, int n, bk_rng *rng);

#endif

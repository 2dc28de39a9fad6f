/* Observation planes for learning agents, seen from one colour. */
#ifndef BK_OBSERVE_H
#define BK_OBSERVE_H

#include "core/board.h"

/* Number of planes: one per colour, plus the acting colour's attachment points. */
static inline int bk_num_planes(const bk_board *b)
{
    return b->num_colours + 1;
}

/* Writes bk_num_planes x side x side int8 values of 0 or 1, seen from
 * `colour`: plane 0 its cells, planes 1 .. n-1 the cells of the other colours
 * in turn order after it, plane n its attachment points (before its first
 * piece: the starting squares open to it). */
void bk_observation(const bk_board *b, int colour, int8_t *out);

#endif

/* Observation planes. */
#include "core/observe.h"

#include <string.h>

void bk_observation(const bk_board *b, int colour, int8_t *out)
{
    int n = b->num_colours, side = b->side, cells = side * side;
    memset(out, 0, (size_t)n * cells);
    for (int d = 0; d < n; d++) {
        int8_t *plane = out + ((d - colour + n) % n) * cells; /* turns after `colour` */
        for (int r = 0; r < side; r++)
            for (uint32_t bits = b->own[d][r + BK_PAD] >> BK_PAD; bits; bits &= bits - 1)
                plane[r * side + bk_ctz(bits)] = 1;
    }
    bk_attachment_points(b, colour, (uint8_t *)out + (size_t)n * cells);
}

/* Observation planes. */
#include "observe.h"

#include <string.h>

void bk_observation(const bk_board *b, int colour, int8_t *out)
{
    int n = b->num_colours, cells = b->side * b->side;
    memset(out, 0, (size_t)n * cells);
    for (int i = 0; i < cells; i++) {
        int owner = b->grid[i];
        if (owner >= 0) out[((owner - colour + n) % n) * cells + i] = 1; /* plane = turns after colour */
    }
    bk_attachment_points(b, colour, (uint8_t *)out + (size_t)n * cells);
}

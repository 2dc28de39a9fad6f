/* The core's tables, computed once; see init.h. */
#include "core/init.h"

#include <stddef.h>

#include "core/board.h"
#include "core/movegen.h"
#include "core/pieces.h"
#include "core/variants.h"

const char *bk_init(void)
{
    static int done = 0; /* callers serialise calls (the binding holds the GIL) */
    static const char *problem;
    if (done) return problem;
    done = 1;
    problem = bk_variants_check();
    if (!problem) problem = bk_pieces_init();
    if (!problem) problem = bk_movegen_init();
    if (problem) return problem;
    bk_zobrist_init();
    return NULL;
}

/* Sizes, enumerations and status codes shared by the whole C core.
 *
 * The core is plain C11 with no Python dependency: it could be linked into
 * any C program.  Every exported name carries the prefix bk_ / BK_. */
#ifndef BK_TYPES_H
#define BK_TYPES_H

#include <stdint.h>

#define BK_NUM_PIECES 21        /* free polyominoes of 1..5 squares */
#define BK_MAX_PIECE_SIZE 5
#define BK_NUM_ORIENTS 91       /* distinct fixed orientations of the 21 pieces */
#define BK_MAX_COLOURS 4
#define BK_MAX_SIZE 20          /* largest board side (classic) */
#define BK_PAD 4                /* padding around bitboards: a piece reaches 4 cells from any of its cells */
#define BK_ROWS (BK_MAX_SIZE + 2 * BK_PAD)
#define BK_MAX_PLACEMENTS 30433 /* placements on 20x20 (the largest side); 13,729 on 14x14 */
/* A move list can never hold more than every placement there is. */
#define BK_MAX_MOVES BK_MAX_PLACEMENTS
/* Every colour places each of its 21 pieces at most once. */
#define BK_MAX_HISTORY (BK_NUM_PIECES * BK_MAX_COLOURS)
#define BK_ALL_PIECES ((1u << BK_NUM_PIECES) - 1u)
#define BK_TOTAL_SQUARES 89     /* squares of the 21 pieces together */

typedef enum {
    BK_CLASSIC = 0,       /* 4 players, one colour each */
    BK_CLASSIC_2 = 1,     /* 2 players: blue+red against yellow+green */
    BK_CLASSIC_3 = 2,     /* 3 players, green shared in rotation, its score ignored */
    BK_CLASSIC_TEAMS = 3, /* 4 players in teams {blue, red} and {yellow, green} */
    BK_DUO = 4,           /* 14x14, two colours */
#ifdef BK_TEST_VARIANT
    /* A test build's extra variant, defined only in core/variants.c's table
     * (tests/test_variant_walk.py): proves that the table is all a variant needs. */
    BK_TEST_TRIO = 5, /* 14x14, three colours, three players */
    BK_NUM_VARIANTS = 6
#else
    BK_NUM_VARIANTS = 5
#endif
} bk_variant;

typedef enum {
    BK_START_ANY = 0,   /* rule sheet: any free corner / either Duo starting point */
    BK_START_FIXED = 1  /* each colour its own starting square (Pentobi) */
} bk_start_rule;

/* Status codes.  The core never prints or aborts; callers map these to
 * their own error reporting (the Python binding raises exceptions). */
typedef enum {
    BK_OK = 0,
    BK_ERR_GAME_OVER,     /* no colour can move any more */
    BK_ERR_BAD_ID,        /* placement id out of range */
    BK_ERR_OFF_BOARD,     /* a cell lies outside the board */
    BK_ERR_OCCUPIED,      /* a cell is already covered */
    BK_ERR_PIECE_USED,    /* the colour has already placed this piece */
    BK_ERR_EDGE_CONTACT,  /* a cell shares an edge with the colour's own cells */
    BK_ERR_NO_CORNER,     /* no cell touches the colour's own cells diagonally */
    BK_ERR_NOT_START,     /* a first piece that covers no free starting square */
    BK_ERR_NOT_A_PIECE,   /* the cells do not form one of the 21 pieces */
    BK_ERR_BAD_TEXT,      /* a move text that cannot be read */
    BK_ERR_BAD_COLOUR,    /* a colour index outside the variant */
    BK_ERR_NO_HISTORY,    /* undo with no move played */
    BK_ERR_BAD_VARIANT,   /* a variant or start rule that does not exist */
    BK_ERR_NO_MEMORY
} bk_status;

/* A board cell, or a piece's cell from its box's top-left: row, column. */
typedef struct {
    int8_t r, c;
} bk_cell;

/* Placement ids are stored in 16 bits (history, move lists, the move
 * generator's candidates); a colour index in 8. */
_Static_assert(BK_MAX_PLACEMENTS <= UINT16_MAX + 1, "placement ids must fit in uint16_t");
_Static_assert(BK_MAX_SIZE + 2 * BK_PAD <= 32, "a padded bitboard row must fit in uint32_t");
_Static_assert(BK_NUM_PIECES <= 32, "a colour's pieces in hand must fit in uint32_t");

/* Index of the lowest set bit of a nonzero word. */
static inline int bk_ctz(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

static inline int bk_ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    return (uint32_t)x ? bk_ctz((uint32_t)x) : 32 + bk_ctz((uint32_t)(x >> 32));
#endif
}

/* Number of set bits: the CPU's instruction where the build targets one
 * (-mpopcnt, or an -march that has it), else SWAR, because without it the
 * builtin becomes a library call. */
static inline int bk_popcount64(uint64_t x)
{
#if defined(__POPCNT__) || defined(__ARM_NEON)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

#endif

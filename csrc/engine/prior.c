/* The tree's prior: move features and their fitted weights; see prior.h. */
#include "engine/prior.h"

#include <math.h>
#include <string.h>

#include "core/score.h"
#include "engine/playout_policy.h"

/* The cell classes of a position that a move's features count, one bitboard
 * each (rows as the board's). */
typedef struct {
    uint32_t rival[BK_ROWS];      /* rivals' attachment points and the free cells next to them */
    uint32_t partner[BK_ROWS];    /* attachment points of the mover's partner colour */
    uint32_t local[BK_ROWS], twice[BK_ROWS]; /* the playouts' local points (playout_policy.h) */
    /* edge neighbours of a move */
    uint32_t connect[BK_ROWS];    /* the partner's cells */
    uint32_t occupied[BK_ROWS];   /* the other colours' cells */
    uint32_t forbidden[BK_ROWS];  /* empty cells forbidden to the mover */
    uint32_t own_point[BK_ROWS];  /* the mover's attachment points */
    uint32_t free[BK_ROWS];       /* the other free cells */
    /* attachment points a move makes */
    uint32_t own[BK_ROWS];        /* the mover's cells */
    uint32_t taken[BK_ROWS];      /* cells forbidden to the mover, not its own */
    uint32_t open[5][BK_ROWS];    /* free cells with k free edge neighbours */
} classes;

/* The partner of the colour to move: another colour scoring for its side
 * (classic_2, classic_teams), or -1. */
static int partner_of(const bk_board *b)
{
    const bk_variant_info *v = bk_variant_facts(b->variant);
    int mine = v->side_of_colour[b->to_move];
    for (int c = 0; c < b->num_colours; c++)
        if (c != b->to_move && mine >= 0 && v->side_of_colour[c] == mine) return c;
    return -1;
}

/* Rows of the board's own cells (not padding). */
static void board_rows(const bk_board *b, uint32_t *rows)
{
    uint32_t full = ((1u << b->side) - 1u) << BK_PAD;
    for (int R = 0; R < BK_ROWS; R++) rows[R] = R >= BK_PAD && R < BK_PAD + b->side ? full : 0u;
}

static void make_classes(const bk_board *b, classes *k)
{
    int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS];
    bk_player_weights(b->variant, weights);
    int me = b->to_move, partner = partner_of(b), player = bk_player_of_colour(b, me);
    const uint32_t *forbidden = b->forbidden[me];
    uint32_t on[BK_ROWS], nonforbidden[BK_ROWS];
    board_rows(b, on);
    memset(k, 0, sizeof *k);
    bk_local_points(b, k->local, k->twice);
    for (int R = 0; R < BK_ROWS; R++) nonforbidden[R] = on[R] & ~forbidden[R];
    for (int c = 0; c < b->num_colours; c++) {
        if (c == me || c == partner || weights[player][c]) continue;
        for (int R = 1; R + 1 < BK_ROWS; R++) {
            const uint32_t *p = b->attach[c];
            uint32_t near = p[R] | p[R] << 1 | p[R] >> 1 | p[R - 1] | p[R + 1];
            k->rival[R] |= near & on[R] & ~b->forbidden[c][R];
        }
    }
    for (int R = 1; R + 1 < BK_ROWS; R++) {
        uint32_t empty = on[R] & ~b->occupied[R], partner_cells = partner >= 0 ? b->own[partner][R] : 0u;
        if (partner >= 0) k->partner[R] = b->attach[partner][R];
        k->connect[R] = partner_cells;
        k->occupied[R] = b->occupied[R] & ~b->own[me][R] & ~partner_cells;
        k->forbidden[R] = empty & forbidden[R];
        k->own_point[R] = nonforbidden[R] & b->attach[me][R];
        k->free[R] = nonforbidden[R] & ~b->attach[me][R];
        k->own[R] = b->own[me][R];
        k->taken[R] = on[R] & forbidden[R] & ~b->own[me][R];
        /* free edge neighbours of each free cell, counted bit-sliced */
        uint32_t n[4] = {nonforbidden[R - 1], nonforbidden[R + 1], nonforbidden[R] << 1, nonforbidden[R] >> 1};
        uint32_t one = 0, two = 0, four = 0;
        for (int i = 0; i < 4; i++) {
            uint32_t carry = one & n[i];
            one ^= n[i];
            four |= two & carry;
            two ^= carry;
        }
        uint32_t free = nonforbidden[R];
        k->open[0][R] = free & ~one & ~two & ~four;
        k->open[1][R] = free & one & ~two;
        k->open[2][R] = free & ~one & two;
        k->open[3][R] = free & one & two;
        k->open[4][R] = free & four;
    }
}

static int count(const uint32_t *x, const uint32_t *rows, int top, int height)
{
    int n = 0;
    for (int r = 0; r < height; r++) n += bk_popcount64(x[r] & rows[top + r]);
    return n;
}

/* The features of placement id (see prior.h) into x. */
static void move_features(const bk_board *b, const classes *k, int id, float *x)
{
    const bk_geometry *g = b->geom;
    const bk_orient *o = &bk_orients[g->orient_of[id]];
    int top = g->row_of[id] + BK_PAD - 1, shift = g->col_of[id] + BK_PAD, h = o->height + 2;
    uint32_t cells[BK_MAX_PIECE_SIZE + 2] = {0}, edge[BK_MAX_PIECE_SIZE + 2], corner[BK_MAX_PIECE_SIZE + 2];
    for (int r = 0; r < o->height; r++) cells[r + 1] = o->rows[r] << shift; /* rows top .. top + h - 1 */
    for (int r = 0; r < h; r++) {
        uint32_t above = r > 0 ? cells[r - 1] : 0u, below = r + 1 < h ? cells[r + 1] : 0u;
        uint32_t vertical = above | below;
        edge[r] = (cells[r] << 1 | cells[r] >> 1 | vertical) & ~cells[r];
        corner[r] = (vertical << 1 | vertical >> 1) & ~edge[r] & ~cells[r];
    }
    memset(x, 0, BK_PRIOR_FEATURES * sizeof *x);
    x[BK_PRIOR_PIECE + o->piece] = 1.0f;
    int local = 0;
    for (int r = 1; r + 1 < h; r++)
        local += bk_popcount64(cells[r] & k->local[top + r]) + bk_popcount64(cells[r] & k->twice[top + r]);
    x[BK_PRIOR_LOCAL] = (float)local;
    x[BK_PRIOR_ANY_LOCAL] = local > 0;
    x[BK_PRIOR_RIVAL] = (float)count(cells, k->rival, top, h);
    x[BK_PRIOR_PARTNER] = (float)count(cells, k->partner, top, h);
    x[BK_PRIOR_EDGE_CONNECT] = (float)count(edge, k->connect, top, h);
    x[BK_PRIOR_EDGE_OCCUPIED] = (float)count(edge, k->occupied, top, h);
    x[BK_PRIOR_EDGE_FORBIDDEN] = (float)count(edge, k->forbidden, top, h);
    x[BK_PRIOR_EDGE_OWN_POINT] = (float)count(edge, k->own_point, top, h);
    x[BK_PRIOR_EDGE_FREE] = (float)count(edge, k->free, top, h);
    x[BK_PRIOR_CORNER_OWN] = (float)count(corner, k->own, top, h);
    x[BK_PRIOR_CORNER_TAKEN] = (float)count(corner, k->taken, top, h);
    for (int n = 0; n < 5; n++) x[BK_PRIOR_CORNER_OPEN + n] = (float)count(corner, k->open[n], top, h);
    x[BK_PRIOR_CORNER_PARTNER] = (float)count(corner, k->partner, top, h);
    x[BK_PRIOR_SMALL] = o->size < bk_min_size(b);
}

int bk_prior_phase(const bk_board *b)
{
    int n = b->num_moves;
    return n < BK_PRIOR_OPENING ? 0 : n < BK_PRIOR_MIDDLE ? 1 : 2;
}

void bk_prior_features(const bk_board *b, const uint16_t *moves, int n, float *out)
{
    classes k;
    make_classes(b, &k);
    for (int i = 0; i < n; i++) move_features(b, &k, moves[i], out + (size_t)i * BK_PRIOR_FEATURES);
}

#include "engine/prior_weights.h"

int bk_fitted_priors(const bk_board *b, const uint16_t *moves, int n, float *out)
{
    if (b->variant != BK_DUO) return 0;
    classes k;
    make_classes(b, &k);
    const float *w = bk_prior_weights[bk_prior_phase(b)];
    float x[BK_PRIOR_FEATURES];
    for (int i = 0; i < n; i++) {
        move_features(b, &k, moves[i], x);
        float s = 0.0f;
        for (int f = 0; f < BK_PRIOR_FEATURES; f++) s += w[f] * x[f];
        out[i] = expf(s);
    }
    return 1;
}

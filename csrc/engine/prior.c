/* The tree's prior: move features and their fitted weights; see prior.h. */
#include "engine/prior.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/score.h"
#include "engine/move_features.h"

/* The weights, by the variant's weight set (core/variants.h): fitted by
 * benchmarks/fit_prior.py. */
#include "engine/prior_classic.h"
#include "engine/prior_duo.h"
static const float (*const weight_sets[BK_NUM_WEIGHT_SETS])[BK_PRIOR_FEATURES] = {
    [BK_WEIGHTS_CLASSIC] = bk_prior_classic, [BK_WEIGHTS_DUO] = bk_prior_duo};
/* Per weight set: pieces on the board while the prior heads for the centre
 * (the 20x20 boards' open middle; Duo's starting points are already near it). */
static const int centre_pieces[BK_NUM_WEIGHT_SETS] = {[BK_WEIGHTS_CLASSIC] = 8, [BK_WEIGHTS_DUO] = 0};

#define CENTRE_SLACK 0.3f        /* squares a move may stay farther from the centre than the nearest */
#define CENTRE_NEAR 2.0f         /* squares: distances below this count as this (all central) */

/* The piece features' names ("piece 1", ...) are made from bk_piece_names by bk_prior_init. */
static char piece_feature_names[BK_NUM_PIECES][16];
const char *bk_prior_feature_names[BK_PRIOR_FEATURES] = {
    [BK_PRIOR_LOCAL] = "local count", "any local", "cells on rivals' points", "cells on partner's points",
    "edge: partner", "edge: other colour", "edge: forbidden", "edge: own point", "edge: free", "corner: own",
    "corner: taken", "corner: open 0", "corner: open 1", "corner: open 2", "corner: open 3", "corner: open 4",
    "corner: partner's point", "below opening size"};

/* The cells of a grid with rows of GRID cells: the bitboards' rows and bits. */
#define GRID 32
#define CELLS (BK_ROWS * GRID)
#define MAX_AROUND 16 /* edge neighbours or corners of an orientation, at most */

/* Per orientation: the offsets from its anchor of its cells, its edge
 * neighbours and its corners (the cells diagonal to it and not next to it). */
typedef struct {
    uint8_t num_cells, num_edges, num_corners;
    int16_t cells[BK_MAX_PIECE_SIZE], edges[MAX_AROUND], corners[MAX_AROUND];
} outline;
static outline outlines[BK_NUM_ORIENTS];

/* Per placement: the distance from the board's centre to its nearest cell's
 * centre, at least CENTRE_NEAR; by bk_geometry.index. */
static float centre_distance[BK_NUM_GEOMETRIES][BK_MAX_PLACEMENTS];

/* The offset of every set bit of rows[0 .. height) into out (row 0 one
 * above the anchor's, bit 0 one left of it); returns how many. */
static uint8_t offsets_of(const uint32_t *rows, int height, int16_t *out)
{
    int n = 0;
    for (int r = 0; r < height; r++)
        for (int c = 0; c < GRID; c++)
            if (rows[r] >> c & 1u) out[n++] = (int16_t)((r - 1) * GRID + c - 1);
    return (uint8_t)n;
}

static void init_outline(const bk_orient *o, outline *out)
{
    int h = o->height + 2;
    uint32_t cells[BK_MAX_PIECE_SIZE + 2] = {0}, edge[BK_MAX_PIECE_SIZE + 2], corner[BK_MAX_PIECE_SIZE + 2];
    for (int r = 0; r < o->height; r++) cells[r + 1] = o->rows[r] << 1;
    for (int r = 0; r < h; r++) {
        uint32_t vertical = (r > 0 ? cells[r - 1] : 0u) | (r + 1 < h ? cells[r + 1] : 0u);
        edge[r] = (cells[r] << 1 | cells[r] >> 1 | vertical) & ~cells[r];
        corner[r] = (vertical << 1 | vertical >> 1) & ~edge[r] & ~cells[r];
    }
    out->num_cells = offsets_of(cells, h, out->cells);
    out->num_edges = offsets_of(edge, h, out->edges);
    out->num_corners = offsets_of(corner, h, out->corners);
}

static void init_centre_distance(const bk_geometry *g)
{
    float centre = (g->side - 1) / 2.0f;
    for (int id = 0; id < g->num_placements; id++) {
        const bk_orient *o = &bk_orients[g->orient_of[id]];
        float nearest = 1e9f;
        for (int k = 0; k < o->size; k++) {
            float dr = g->row_of[id] + o->cells[k].r - centre, dc = g->col_of[id] + o->cells[k].c - centre;
            float d = sqrtf(dr * dr + dc * dc);
            if (d < nearest) nearest = d;
        }
        centre_distance[g->index][id] = nearest < CENTRE_NEAR ? CENTRE_NEAR : nearest;
    }
}

/* What each cell is to a move covering it, next to it or at its corner: bit
 * k of cell[i] / edge[i] / corner[i] counts for feature CELL_FEATURE[k] /
 * BK_PRIOR_EDGE_CONNECT + k / BK_PRIOR_CORNER_OWN + k. */
typedef struct {
    uint8_t cell[CELLS], edge[CELLS];
    uint8_t corner[CELLS];
} cell_classes;

#define CELL_CLASSES 4
static const int CELL_FEATURE[CELL_CLASSES] = {BK_PRIOR_LOCAL, BK_PRIOR_LOCAL, BK_PRIOR_RIVAL, BK_PRIOR_PARTNER};
#define EDGE_CLASSES (BK_PRIOR_EDGE_FREE - BK_PRIOR_EDGE_CONNECT + 1)
#define CORNER_CLASSES (BK_PRIOR_CORNER_PARTNER - BK_PRIOR_CORNER_OWN + 1)

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

/* The classes as bitboards, rows R of the board: cells, edges and corners
 * indexed as the bits of cell_classes. */
typedef struct {
    uint32_t cell[CELL_CLASSES][BK_ROWS], edge[EDGE_CLASSES][BK_ROWS], corner[CORNER_CLASSES][BK_ROWS];
} class_rows;

static void make_class_rows(const bk_board *b, class_rows *k)
{
    int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS];
    bk_player_weights(b->variant, weights);
    int me = b->to_move, partner = partner_of(b), player = bk_player_of_colour(b, me);
    const uint32_t *forbidden = b->forbidden[me];
    uint32_t on[BK_ROWS], free[BK_ROWS], full = ((1u << b->side) - 1u) << BK_PAD;
    for (int R = 0; R < BK_ROWS; R++) {
        on[R] = R >= BK_PAD && R < BK_PAD + b->side ? full : 0u;
        free[R] = on[R] & ~forbidden[R];
    }
    memset(k, 0, sizeof *k);
    bk_local_points(b, k->cell[0], k->cell[1]);
    for (int R = 1; R + 1 < BK_ROWS; R++) {
        for (int c = 0; c < b->num_colours; c++) { /* rivals' points and the free cells next to them */
            if (c == me || c == partner || weights[player][c]) continue;
            const uint32_t *p = b->attach[c];
            k->cell[2][R] |= (p[R] | p[R] << 1 | p[R] >> 1 | p[R - 1] | p[R + 1]) & on[R] & ~b->forbidden[c][R];
        }
        uint32_t partner_cells = partner >= 0 ? b->own[partner][R] : 0u;
        if (partner >= 0) k->cell[3][R] = k->corner[7][R] = b->attach[partner][R] & ~forbidden[R];
        k->edge[0][R] = partner_cells;
        k->edge[1][R] = b->occupied[R] & ~b->own[me][R] & ~partner_cells;
        k->edge[2][R] = on[R] & ~b->occupied[R] & forbidden[R];
        k->edge[3][R] = free[R] & b->attach[me][R];
        k->edge[4][R] = free[R] & ~b->attach[me][R];
        k->corner[0][R] = b->own[me][R];
        k->corner[1][R] = on[R] & forbidden[R] & ~b->own[me][R];
        /* free cells by their free edge neighbours, counted bit-sliced */
        uint32_t n[4] = {free[R - 1], free[R + 1], free[R] << 1, free[R] >> 1}, one = 0, two = 0, four = 0;
        for (int i = 0; i < 4; i++) {
            uint32_t carry = one & n[i];
            one ^= n[i];
            four |= two & carry;
            two ^= carry;
        }
        k->corner[2][R] = free[R] & ~one & ~two & ~four;
        k->corner[3][R] = free[R] & one & ~two;
        k->corner[4][R] = free[R] & ~one & two;
        k->corner[5][R] = free[R] & one & two;
        k->corner[6][R] = free[R] & four;
    }
}

/* Sets bit j of out[cell] at every board cell set in the bitboard `rows`
 * (rows and bits as the board's): a walk over the set bits, not the cells. */
static void mark(const uint32_t *rows, const bk_board *b, unsigned j, uint8_t *out)
{
    uint32_t board = ((1u << b->side) - 1u) << BK_PAD;
    for (int R = BK_PAD; R < BK_PAD + b->side; R++)
        for (uint32_t bits = rows[R] & board; bits; bits &= bits - 1)
            out[R * GRID + bk_ctz(bits)] |= (uint8_t)(1u << j);
}

static void classify(const bk_board *b, cell_classes *out)
{
    class_rows k;
    make_class_rows(b, &k);
    memset(out, 0, sizeof *out); /* off the board: no class */
    for (unsigned j = 0; j < CELL_CLASSES; j++) mark(k.cell[j], b, j, out->cell);
    for (unsigned j = 0; j < EDGE_CLASSES; j++) mark(k.edge[j], b, j, out->edge);
    for (unsigned j = 0; j < CORNER_CLASSES; j++) mark(k.corner[j], b, j, out->corner);
}

static int anchor_of(const bk_geometry *g, int id)
{
    return (g->row_of[id] + BK_PAD) * GRID + g->col_of[id] + BK_PAD;
}

int bk_prior_phase(const bk_board *b)
{
    int n = b->num_moves;
    return n < BK_PRIOR_OPENING ? 0 : n < BK_PRIOR_MIDDLE ? 1 : 2;
}

void bk_prior_features(const bk_board *b, const uint16_t *moves, int n, float *out)
{
    cell_classes k;
    classify(b, &k);
    const bk_geometry *g = b->geom;
    int smallest = bk_min_size(b);
    for (int i = 0; i < n; i++) {
        float *x = out + (size_t)i * BK_PRIOR_FEATURES;
        int id = moves[i], o = g->orient_of[id], anchor = anchor_of(g, id);
        const outline *l = &outlines[o];
        memset(x, 0, BK_PRIOR_FEATURES * sizeof *x);
        x[BK_PRIOR_PIECE + bk_orients[o].piece] = 1.0f;
        x[BK_PRIOR_SMALL] = bk_orients[o].size < smallest;
        for (int j = 0; j < l->num_cells; j++)
            for (int f = 0; f < CELL_CLASSES; f++) x[CELL_FEATURE[f]] += (float)(k.cell[anchor + l->cells[j]] >> f & 1);
        x[BK_PRIOR_ANY_LOCAL] = x[BK_PRIOR_LOCAL] > 0.0f;
        for (int j = 0; j < l->num_edges; j++)
            for (int f = 0; f < EDGE_CLASSES; f++)
                x[BK_PRIOR_EDGE_CONNECT + f] += (float)(k.edge[anchor + l->edges[j]] >> f & 1);
        for (int j = 0; j < l->num_corners; j++)
            for (int f = 0; f < CORNER_CLASSES; f++)
                x[BK_PRIOR_CORNER_OWN + f] += (float)(k.corner[anchor + l->corners[j]] >> f & 1);
    }
}

/* The weights of each combination of classes of a cell (as cell_classes'
 * bytes): the weights of its classes added up. */
typedef struct {
    float cell[1 << CELL_CLASSES], edge[1 << EDGE_CLASSES], corner[1 << CORNER_CLASSES];
} class_weights;

static void add_up(const float *w, class_weights *out)
{
    for (unsigned m = 0; m < 1u << CELL_CLASSES; m++) {
        out->cell[m] = 0.0f;
        for (int f = 0; f < CELL_CLASSES; f++) out->cell[m] += (float)(m >> f & 1u) * w[CELL_FEATURE[f]];
    }
    for (unsigned m = 0; m < 1u << EDGE_CLASSES; m++) {
        out->edge[m] = 0.0f;
        for (int f = 0; f < EDGE_CLASSES; f++) out->edge[m] += (float)(m >> f & 1u) * w[BK_PRIOR_EDGE_CONNECT + f];
    }
    for (unsigned m = 0; m < 1u << CORNER_CLASSES; m++) {
        out->corner[m] = 0.0f;
        for (int f = 0; f < CORNER_CLASSES; f++) out->corner[m] += (float)(m >> f & 1u) * w[BK_PRIOR_CORNER_OWN + f];
    }
}

/* By weight set and phase: added up once, not at every expansion. */
static class_weights class_weight[BK_NUM_WEIGHT_SETS][BK_PRIOR_PHASES];

void bk_prior_init(void)
{
    static int done = 0; /* once: a module loaded again must not rewrite tables a search reads */
    if (done) return;
    done = 1;
    bk_move_features_init();
    for (int p = 0; p < BK_NUM_PIECES; p++) {
        snprintf(piece_feature_names[p], sizeof piece_feature_names[p], "piece %s", bk_piece_names[p]);
        bk_prior_feature_names[BK_PRIOR_PIECE + p] = piece_feature_names[p];
    }
    for (int o = 0; o < BK_NUM_ORIENTS; o++) init_outline(&bk_orients[o], &outlines[o]);
    for (int i = 0; i < BK_NUM_GEOMETRIES; i++) init_centre_distance(bk_geometry_at(i));
    for (int set = 0; set < BK_NUM_WEIGHT_SETS; set++)
        for (int phase = 0; phase < BK_PRIOR_PHASES; phase++) add_up(weight_sets[set][phase], &class_weight[set][phase]);
}

/* Early in a game of the classic weight set (20x20 boards): only the moves
 * that come nearest the centre (within CENTRE_SLACK of the nearest move of at
 * least the opening's minimum size) are considered; the others' score is -infinity.  The first colour to reach
 * the centre takes the open space there (Pentobi's prior prunes alike). */
static void head_for_centre(const bk_board *b, const uint16_t *moves, int n, float *scores)
{
    const float *distance = centre_distance[b->geom->index];
    int smallest = bk_min_size(b);
    float nearest = 1e9f;
    for (int i = 0; i < n; i++)
        if (bk_orients[b->geom->orient_of[moves[i]]].size >= smallest && distance[moves[i]] < nearest)
            nearest = distance[moves[i]];
    for (int i = 0; i < n; i++)
        if (distance[moves[i]] > nearest + CENTRE_SLACK) scores[i] = -INFINITY;
}

void bk_prior_scores(const bk_board *b, const uint16_t *moves, int n, float *out)
{
    cell_classes k;
    classify(b, &k);
    bk_weight_set set = bk_variant_facts(b->variant)->weights;
    const float *w = weight_sets[set][bk_prior_phase(b)];
    const class_weights *cw = &class_weight[set][bk_prior_phase(b)];
    const bk_geometry *g = b->geom;
    int smallest = bk_min_size(b);
    for (int i = 0; i < n; i++) {
        int id = moves[i], o = g->orient_of[id], anchor = anchor_of(g, id), local = 0;
        const outline *l = &outlines[o];
        float s = w[BK_PRIOR_PIECE + bk_orients[o].piece] + (bk_orients[o].size < smallest ? w[BK_PRIOR_SMALL] : 0.0f);
        for (int j = 0; j < l->num_cells; j++) {
            s += cw->cell[k.cell[anchor + l->cells[j]]];
            local |= k.cell[anchor + l->cells[j]] & 1;
        }
        for (int j = 0; j < l->num_edges; j++) s += cw->edge[k.edge[anchor + l->edges[j]]];
        for (int j = 0; j < l->num_corners; j++) s += cw->corner[k.corner[anchor + l->corners[j]]];
        out[i] = local ? s + w[BK_PRIOR_ANY_LOCAL] : s;
    }
    if (b->num_moves < centre_pieces[set]) head_for_centre(b, moves, n, out);
}

/* (s - best) / T / ln 2 in double, then a float: the best move's is
 * exactly 0, however small T is (0 / T is 0, where (s - best) / T of
 * another move may be -inf); a score of -inf stays -inf. */
void bk_tree_log2_priors(const bk_board *b, const uint16_t *moves, int n, double temperature, float *out)
{
    bk_prior_scores(b, moves, n, out);
    float best = -INFINITY;
    for (int i = 0; i < n; i++) best = out[i] > best ? out[i] : best;
    double log2_e = 1.0 / log(2.0);
    for (int i = 0; i < n; i++) out[i] = (float)(((double)out[i] - (double)best) / temperature * log2_e);
}

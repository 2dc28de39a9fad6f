/* Batched PUCT search; see batched_search.h. */
#include "engine/batched_search.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/observe.h"
#include "core/play.h"
#include "engine/playout.h"
#include "core/score.h"
#include "core/variants.h"

enum { NODE_NEW, NODE_EXPANDED, NODE_TERMINAL };
enum { GAME_WAITING, GAME_PENDING, GAME_DONE };

/* A legal move of a node: its prior and, once visited, its node. */
typedef struct {
    uint32_t child; /* 0 until visited: the root is nobody's child */
    float prior;
    uint16_t move;
} edge;

typedef struct {
    double value[BK_MAX_COLOURS]; /* sum of every player's values over the visits */
    edge *edges;          /* its legal moves, once known */
    uint32_t visits;
    uint16_t num_edges;
    uint8_t state;        /* NODE_*: a new node's edges hold moves but no priors yet */
} node;

/* Edges of all games, handed out in order from chunks and never moved: a
 * search frees them all at once.  The first chunk is small (48 KB), for a
 * small search; every later one is CHUNK_EDGES (48 MB of address space, which
 * becomes memory as it fills), above the largest size glibc's malloc takes
 * from its heap (32 MB), so it is mapped on its own and goes back to the
 * system when freed, whatever else the heap holds. */
#define FIRST_CHUNK_EDGES ((int64_t)1 << 12)
#define CHUNK_EDGES ((int64_t)1 << 22)

typedef struct chunk {
    struct chunk *previous;
    int64_t capacity, used;
    edge edges[];
} chunk;

typedef struct {
    bk_board root, leaf; /* leaf: the position of the pending leaf */
    bk_rng rng;
    node *nodes;         /* room for 1 + simulations: a simulation adds at most one node */
    uint32_t num_nodes;
    int simulations;     /* run so far; the root's own evaluation is not one */
    int state;           /* GAME_* */
    int depth;           /* nodes on path */
    uint32_t path[BK_MAX_HISTORY + 1]; /* root to the pending leaf */
} game;

struct bk_bsearch {
    bk_bsearch_params params;
    int64_t n;
    int num_players, num_placements;
    game *games;
    node *nodes;      /* every game's, 1 + simulations each */
    chunk *edges;     /* the newest chunk */
    uint16_t moves[BK_MAX_MOVES]; /* the descent's scratch */
    double noise[BK_MAX_MOVES];   /* the root expansion's */
};

size_t bk_bsearch_reserved_bytes(int64_t n, int simulations)
{
    size_t per_game = sizeof(game) + ((size_t)simulations + 1) * sizeof(node);
    return (size_t)n > (SIZE_MAX - sizeof(bk_bsearch)) / per_game ? SIZE_MAX
                                                                  : sizeof(bk_bsearch) + (size_t)n * per_game;
}

bk_bsearch *bk_bsearch_new(int variant, int64_t n, const bk_bsearch_params *params, uint64_t seed)
{
    if (bk_bsearch_reserved_bytes(n, params->simulations) == SIZE_MAX) return NULL;
    bk_bsearch *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    int8_t weights[BK_MAX_COLOURS][BK_MAX_COLOURS];
    s->params = *params;
    s->num_players = bk_player_weights(variant, weights);
    s->num_placements = bk_geometry_for(bk_variant_facts(variant)->side)->num_placements;
    size_t per_game = (size_t)params->simulations + 1;
    s->games = calloc((size_t)n, sizeof *s->games);
    s->nodes = malloc((size_t)n * per_game * sizeof *s->nodes); /* pages are used as the trees grow */
    if (!s->games || !s->nodes) {
        bk_bsearch_free(s);
        return NULL;
    }
    s->n = n;
    for (int64_t i = 0; i < n; i++) {
        game *g = &s->games[i];
        bk_rng_seed(&g->rng, seed, (uint64_t)i);
        g->nodes = s->nodes + (size_t)i * per_game;
        g->nodes[0] = (node){0};
        g->num_nodes = 1;
        g->state = GAME_WAITING;
    }
    return s;
}

void bk_bsearch_set_root(bk_bsearch *s, int64_t i, const bk_board *root)
{
    s->games[i].root = *root;
}

void bk_bsearch_free(bk_bsearch *s)
{
    if (!s) return;
    for (chunk *c = s->edges, *previous; c; c = previous) {
        previous = c->previous;
        free(c);
    }
    free(s->nodes);
    free(s->games);
    free(s);
}

int64_t bk_bsearch_num_games(const bk_bsearch *s)
{
    return s->n;
}

static int64_t count_state(const bk_bsearch *s, int state)
{
    int64_t k = 0;
    for (int64_t i = 0; i < s->n; i++) k += s->games[i].state == state;
    return k;
}

int64_t bk_bsearch_num_pending(const bk_bsearch *s)
{
    return count_state(s, GAME_PENDING);
}

int64_t bk_bsearch_num_waiting(const bk_bsearch *s)
{
    return count_state(s, GAME_WAITING);
}

/* ---- descent ------------------------------------------------------------ */

static int player_to_move(const bk_board *b)
{
    return bk_player_of_colour(b, b->to_move);
}

/* The edge of expanded node v (position b) with the highest PUCT score. */
static edge *select_edge(const bk_bsearch *s, const game *g, const node *v, const bk_board *b)
{
    int p = player_to_move(b);
    /* at most DBL_MAX: a huge c_puct then ranks by prior / (1 + n), its limit,
     * where infinity would tie every child (and make 0 * infinity NaN) */
    double explore = fmin(s->params.c_puct * sqrt((double)v->visits), DBL_MAX);
    double fpu = s->params.fpu >= 0.0 ? s->params.fpu : v->value[p] / v->visits;
    edge *edges = v->edges, *best = edges;
    double best_score = -INFINITY;
    for (int i = 0; i < v->num_edges; i++) {
        const edge *e = &edges[i];
        const node *c = e->child ? &g->nodes[e->child] : NULL;
        double n = c ? c->visits : 0.0;
        double score = (c ? c->value[p] / n : fpu) + explore * e->prior / (1.0 + n);
        if (score > best_score || (score == best_score && e->move < best->move)) {
            best_score = score;
            best = &edges[i];
        }
    }
    return best;
}

static void backup(const bk_bsearch *s, game *g, const double *values)
{
    for (int i = 0; i < g->depth; i++) {
        node *v = &g->nodes[g->path[i]];
        v->visits++;
        for (int p = 0; p < s->num_players; p++) v->value[p] += values[p];
    }
}

static void finish_simulation(const bk_bsearch *s, game *g)
{
    g->simulations++;
    g->state = g->simulations >= s->params.simulations ? GAME_DONE : GAME_WAITING;
}

/* Room for n edges in the newest chunk, or in a new one; NULL when out of
 * memory. */
static edge *new_edges(bk_bsearch *s, int n)
{
    chunk *c = s->edges;
    if (!c || c->capacity - c->used < n) {
        int64_t capacity = !c ? FIRST_CHUNK_EDGES : CHUNK_EDGES;
        if (capacity < n) capacity = n;
        c = malloc(sizeof *c + (size_t)capacity * sizeof(edge));
        if (!c) return NULL;
        *c = (chunk){.previous = s->edges, .capacity = capacity};
        s->edges = c;
    }
    c->used += n;
    return c->edges + c->used - n;
}

/* Lists the legal moves of new node v (position b) as its edges; -1 when
 * out of memory. */
static int add_edges(bk_bsearch *s, node *v, const bk_board *b)
{
    int n = bk_gen_moves(b, b->to_move, s->moves);
    edge *e = new_edges(s, n);
    if (!e) return -1;
    for (int i = 0; i < n; i++) e[i] = (edge){.move = s->moves[i]};
    v->edges = e;
    v->num_edges = (uint16_t)n;
    return 0;
}

/* One simulation from the root: it ends at a finished game, backed up at
 * once, or at a new leaf, left pending; -1 when out of memory (nothing
 * changed then but the new node, which the retry reuses). */
static int simulate(bk_bsearch *s, game *g)
{
    bk_board *b = &g->leaf;
    *b = g->root;
    uint32_t v = 0;
    g->depth = 0;
    g->path[g->depth++] = 0;
    while (g->nodes[v].state == NODE_EXPANDED) {
        edge *e = select_edge(s, g, &g->nodes[v], b);
        bk_play_unchecked(b, e->move);
        if (!e->child) {
            e->child = g->num_nodes++;
            g->nodes[e->child] = (node){.state = b->to_move < 0 ? NODE_TERMINAL : NODE_NEW};
        }
        v = e->child;
        g->path[g->depth++] = v;
    }
    if (g->nodes[v].state == NODE_TERMINAL) {
        double values[BK_MAX_COLOURS];
        bk_win_shares(b, values);
        backup(s, g, values);
        finish_simulation(s, g);
        return 0;
    }
    if (g->nodes[v].num_edges == 0 && add_edges(s, &g->nodes[v], b) < 0) return -1;
    g->state = GAME_PENDING;
    return 0;
}

bk_status bk_bsearch_descend(bk_bsearch *s, int64_t lo, int64_t hi)
{
    for (int64_t i = lo; i < hi; i++) {
        game *g = &s->games[i];
        while (g->state == GAME_WAITING)
            if (simulate(s, g) < 0) return BK_ERR_NO_MEMORY;
    }
    return BK_OK;
}

/* ---- requests and evaluations ------------------------------------------- */

void bk_bsearch_requests(const bk_bsearch *s, int64_t *games, int8_t *observation, int8_t *remaining, uint8_t *mask,
                         int8_t *colours, int8_t *players)
{
    int64_t k = 0;
    for (int64_t i = 0; i < s->n; i++) {
        const game *g = &s->games[i];
        if (g->state != GAME_PENDING) continue;
        const bk_board *b = &g->leaf;
        const node *v = &g->nodes[g->path[g->depth - 1]];
        if (games) games[k] = i;
        if (observation) {
            size_t size = (size_t)bk_num_planes(b) * b->side * b->side;
            bk_observation(b, b->to_move, observation + k * size);
        }
        if (remaining) /* the colour to move first, then the others in turn order: Game.remaining_from */
            for (int c = 0; c < b->num_colours; c++)
                memcpy(remaining + (k * b->num_colours + c) * BK_NUM_PIECES,
                       b->in_hand[(b->to_move + c) % b->num_colours], BK_NUM_PIECES);
        if (mask)
            for (int j = 0; j < v->num_edges; j++) mask[k * s->num_placements + v->edges[j].move] = 1;
        if (colours) colours[k] = b->to_move;
        if (players) players[k] = (int8_t)player_to_move(b);
        k++;
    }
}

/* A uniform draw in (0, 1). */
static double uniform_open(bk_rng *rng)
{
    return ((double)(bk_rng_next(rng) >> 11) + 0.5) * 0x1p-53;
}

/* A standard normal draw (Box-Muller). */
static double normal(bk_rng *rng)
{
    double u = uniform_open(rng), v = uniform_open(rng);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* alpha times the logarithm of a Gamma(alpha, 1) draw for alpha < 1, the
 * logarithm itself for larger alpha: Marsaglia and Tsang's method ("A simple
 * method for generating gamma variables", 2000), with their boost
 * Gamma(alpha) = Gamma(alpha + 1) * U^(1 / alpha) for alpha < 1.  Times
 * alpha, the boost's log(U) / alpha, which overflows to -infinity for a
 * denormal alpha, is log(U): finite for every alpha.  From alpha ~ 1e15 on,
 * the test's d - d v + d log(v) is rounding noise and takes about half the
 * tries (all from 1e32 on, where 1 + c x rounds to 1); the draws are then
 * alpha to 1 part in 3e7 or better, closer than a float32 prior can show. */
static double scaled_log_gamma_draw(bk_rng *rng, double alpha)
{
    double boost = alpha < 1.0 ? log(uniform_open(rng)) : 0.0;
    double d = (alpha < 1.0 ? alpha + 1.0 : alpha) - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = normal(rng), t = 1.0 + c * x;
        if (t <= 0.0) continue;
        double v = t * t * t, u = uniform_open(rng);
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v))
            return alpha < 1.0 ? boost + alpha * log(d * v) : log(d * v);
    }
}

/* Mixes Dirichlet(alpha) noise into the root's priors, the draws made
 * relative to the largest before exp so that none overflows and the
 * largest is 1.  For alpha < 1 the differences of the scaled logarithms are
 * divided by alpha: for a tiny alpha they go to -infinity, and the noise to
 * 1 on one move drawn uniformly, Dirichlet's limit, never 0 / 0. */
static void add_noise(bk_bsearch *s, game *g, edge *edges, int n)
{
    double *logs = s->noise, most = -INFINITY, sum = 0.0;
    double alpha = s->params.dirichlet_alpha, fraction = s->params.dirichlet_fraction;
    double scale = alpha < 1.0 ? alpha : 1.0;
    for (int i = 0; i < n; i++) {
        logs[i] = scaled_log_gamma_draw(&g->rng, alpha);
        if (logs[i] > most) most = logs[i];
    }
    for (int i = 0; i < n; i++) sum += logs[i] = exp((logs[i] - most) / scale);
    for (int i = 0; i < n; i++) edges[i].prior = (float)((1.0 - fraction) * edges[i].prior + fraction * logs[i] / sum);
}

static void expand(bk_bsearch *s, game *g, node *v, const float *priors)
{
    edge *edges = v->edges;
    double sum = 0.0;
    for (int j = 0; j < v->num_edges; j++) sum += priors[edges[j].move];
    for (int j = 0; j < v->num_edges; j++)
        edges[j].prior = (float)(sum > 0.0 ? priors[edges[j].move] / sum : 1.0 / v->num_edges);
    if (v == g->nodes && s->params.dirichlet_fraction > 0.0) add_noise(s, g, edges, v->num_edges);
    v->state = NODE_EXPANDED;
}

void bk_bsearch_evaluate(bk_bsearch *s, const float *priors, const float *values, int for_mover)
{
    int64_t k = 0;
    for (int64_t i = 0; i < s->n; i++) {
        game *g = &s->games[i];
        if (g->state != GAME_PENDING) continue;
        uint32_t leaf = g->path[g->depth - 1];
        double v[BK_MAX_COLOURS];
        if (for_mover) {
            int mover = player_to_move(&g->leaf);
            v[mover] = values[k];
            v[1 - mover] = 1.0 - (double)values[k];
        } else {
            for (int p = 0; p < s->num_players; p++) v[p] = values[k * s->num_players + p];
        }
        expand(s, g, &g->nodes[leaf], priors + k * s->num_placements);
        backup(s, g, v);
        if (leaf == 0) g->state = GAME_WAITING; /* the root's own evaluation: no simulation */
        else finish_simulation(s, g);
        k++;
    }
}

/* ---- results ------------------------------------------------------------ */

void bk_bsearch_visit_counts(const bk_bsearch *s, int64_t gi, int32_t *out)
{
    const game *g = &s->games[gi];
    const node *root = &g->nodes[0];
    memset(out, 0, (size_t)s->num_placements * sizeof *out);
    for (int j = 0; root->state == NODE_EXPANDED && j < root->num_edges; j++) {
        const edge *e = &root->edges[j];
        if (e->child) out[e->move] = (int32_t)g->nodes[e->child].visits;
    }
}

void bk_bsearch_root_values(const bk_bsearch *s, int64_t gi, float *out)
{
    const node *root = &s->games[gi].nodes[0];
    for (int p = 0; p < s->num_players; p++) out[p] = root->visits ? (float)(root->value[p] / root->visits) : NAN;
}

int bk_bsearch_best_move(const bk_bsearch *s, int64_t gi)
{
    const game *g = &s->games[gi];
    const node *root = &g->nodes[0];
    int p = player_to_move(&g->root), best = -1;
    uint32_t best_visits = 0;
    double best_value = 0.0;
    for (int j = 0; root->state == NODE_EXPANDED && j < root->num_edges; j++) {
        const edge *e = &root->edges[j];
        if (!e->child) continue;
        const node *c = &g->nodes[e->child];
        double value = c->value[p] / c->visits;
        if (c->visits > best_visits || (c->visits == best_visits && (value > best_value ||
                                                                     (value == best_value && e->move < best)))) {
            best = e->move;
            best_visits = c->visits;
            best_value = value;
        }
    }
    return best;
}

static int by_id(const void *a, const void *b)
{
    const bk_bsearch_child *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

int bk_bsearch_children(const bk_bsearch *s, int64_t gi, const int *path, int depth, bk_bsearch_child *out)
{
    const game *g = &s->games[gi];
    bk_board b = g->root;
    uint32_t v = 0;
    for (int i = 0; i < depth; i++) {
        const node *nd = &g->nodes[v];
        uint32_t next = 0;
        for (int j = 0; nd->state == NODE_EXPANDED && j < nd->num_edges && !next; j++)
            if (nd->edges[j].move == path[i]) next = nd->edges[j].child;
        if (!next) return -1;
        bk_play_unchecked(&b, path[i]);
        v = next;
    }
    const node *nd = &g->nodes[v];
    if (nd->state != NODE_EXPANDED) return 0;
    int p = player_to_move(&b);
    for (int j = 0; out && j < nd->num_edges; j++) {
        const edge *e = &nd->edges[j];
        const node *c = e->child ? &g->nodes[e->child] : NULL;
        out[j] = (bk_bsearch_child){e->move, e->prior, c ? (int32_t)c->visits : 0,
                                    c && c->visits ? (float)(c->value[p] / c->visits) : NAN};
    }
    if (out) qsort(out, nd->num_edges, sizeof *out, by_id);
    return nd->num_edges;
}

/* A search tree's memory: its arena of nodes, considered moves and edges,
 * and pruning the least visited subtrees when it is full (as Pentobi
 * prunes its tree), so that a long search keeps learning where it matters
 * instead of silently stopping; see mcts_tree.h. */
#include "engine/mcts_tree.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INITIAL_ROOM 1024
/* Bytes a reserved arena's arrays have beyond its budget: what the
 * simulations under way may add before the next one prunes (once pruning
 * can free no more, the tree stops growing: tree.full). */
#define RESERVE_SLACK ((int64_t)16 << 20)

/* The arrays start on a cache line, so that a 64-byte node spans one line,
 * not two (realloc's large blocks start 16 bytes into a page), and a
 * descent waits on one load of it: each is allocated with room to spare,
 * the start of its allocation kept in the pointer just before it. */
#define LINE 64

static void *allocation_of(void *p)
{
    return ((void **)p)[-1];
}

static void array_free(void *p)
{
    if (p) free(allocation_of(p));
}

/* Sets array *p of *room items of `size` bytes to room r (at least its
 * items); 0 when out of memory or r is beyond 32-bit indices (then unchanged). */
static int resize(void **p, int64_t *room, int64_t r, size_t size)
{
    if (r > (int64_t)UINT32_MAX || (uint64_t)r > (SIZE_MAX - 2 * LINE) / size) return 0; /* indices are 32 bits */
    char *old = *p ? allocation_of(*p) : NULL;
    size_t offset = *p ? (size_t)((char *)*p - old) : 0;
    char *q = realloc(old, (size_t)r * size + 2 * LINE);
    if (!q) return 0;
    char *a = (char *)(((uintptr_t)q + sizeof(void *) + LINE - 1) & ~(uintptr_t)(LINE - 1));
    if (*p && (size_t)(a - q) != offset) /* realloc kept the items, at their old offset */
        memmove(a, q + offset, (size_t)(*room < r ? *room : r) * size);
    ((void **)a)[-1] = q;
    *p = a;
    *room = r;
    return 1;
}

/* Grows array *p of *room items of `size` bytes to hold `need`, doubling,
 * unless `fixed` (a reserved arena's arrays never move); 0 when out of
 * memory or fixed (then unchanged). */
static int grow(void **p, int64_t *room, int64_t need, size_t size, int fixed)
{
    if (need <= *room) return 1;
    if (fixed) return 0;
    int64_t r = *room ? *room : INITIAL_ROOM;
    while (r < need) r *= 2;
    return resize(p, room, r, size);
}

/* Grows the edges and their stats (one room, edges_room) to hold `need`,
 * as grow(). */
static int grow_edges(arena *a, int64_t need)
{
    int64_t room = a->edges_room; /* both grow alike from the same room */
    return grow((void **)&a->stats, &room, need, sizeof *a->stats, a->fixed) &&
           grow((void **)&a->edges, &a->edges_room, need, sizeof *a->edges, a->fixed);
}

#define EDGE_BYTES ((int64_t)(sizeof(edge) + sizeof(edge_stats)))

int bk_arena_init(arena *a)
{
    *a = (arena){0};
    for (int k = 0; k < EDGE_CLASSES; k++) a->free_edges[k] = NO_INDEX;
    if (!grow((void **)&a->nodes, &a->nodes_room, 1, sizeof *a->nodes, 0)) return 0;
    a->nodes[0] = (node){0};
    a->num_nodes = 1;
    return 1;
}

void bk_arena_free(arena *a)
{
    array_free(a->nodes);
    array_free(a->moves);
    array_free(a->edges);
    array_free(a->stats);
    *a = (arena){0};
}

int bk_arena_reserve(arena *a, int64_t bytes, int64_t nodes)
{
    int64_t slack = RESERVE_SLACK;
    int64_t n = nodes < bytes / (int64_t)sizeof(node) ? nodes : bytes / (int64_t)sizeof(node);
    int64_t room[3] = {n + slack / (int64_t)sizeof(node), (bytes + slack) / (int64_t)sizeof(uint32_t),
                       (bytes + slack) / EDGE_BYTES};
    int64_t now[3] = {a->nodes_room, a->moves_room, a->edges_room}, stats_room = a->edges_room;
    for (int k = 0; k < 3; k++) {
        if (room[k] > (int64_t)UINT32_MAX) room[k] = UINT32_MAX; /* as far as 32-bit indices reach */
        if (room[k] < now[k]) room[k] = now[k];                  /* never less than it holds */
    }
    if (!resize((void **)&a->nodes, &a->nodes_room, room[0], sizeof *a->nodes) ||
        !resize((void **)&a->moves, &a->moves_room, room[1], sizeof *a->moves) ||
        !resize((void **)&a->stats, &stats_room, room[2], sizeof *a->stats) ||
        !resize((void **)&a->edges, &a->edges_room, room[2], sizeof *a->edges))
        return 0;
    a->fixed = 1;
    return 1;
}

int64_t bk_arena_bytes(const arena *a)
{
    if (a->fixed) return bk_arena_used(a); /* its room is address space, touched only as it is used */
    return a->nodes_room * (int64_t)sizeof(node) + a->moves_room * (int64_t)sizeof(uint32_t) +
           a->edges_room * EDGE_BYTES;
}

int64_t bk_arena_used(const arena *a)
{
    return a->num_nodes * (int64_t)sizeof(node) + a->num_moves * (int64_t)sizeof(uint32_t) +
           a->num_edges * EDGE_BYTES;
}

uint32_t bk_arena_node(arena *a, int player)
{
    if (!grow((void **)&a->nodes, &a->nodes_room, a->num_nodes + 1, sizeof *a->nodes, a->fixed)) return NO_INDEX;
    a->nodes[a->num_nodes] = (node){.player = (uint8_t)player, .state = NODE_LEAF};
    return (uint32_t)a->num_nodes++;
}

int bk_arena_reserve_moves(arena *a, int64_t n)
{
    return grow((void **)&a->moves, &a->moves_room, a->num_moves + n, sizeof *a->moves, a->fixed);
}

/* The edges of class k's blocks: 1, 2, 3, 4, 6, 8, 12, 16, ... (2^j and
 * 3 * 2^j), so that a node's block is about 1/6 larger than its edges on
 * average, not 1/3 as with powers of 2 alone (in a long search from the
 * opening the edges are a third of the tree's memory). */
static int64_t class_size(int k)
{
    return k == 0 ? 1 : k % 2 ? (int64_t)1 << (k + 1) / 2 : (int64_t)3 << (k - 2) / 2;
}

/* The class of a block for n >= 1 edges: the smallest that holds them. */
static int edge_class(int n)
{
    int k = 0;
    while (class_size(k) < n) k++;
    return k;
}

static int64_t block_size(int n)
{
    return n ? class_size(edge_class(n)) : 0;
}

/* A block of class k: a freed one, else new at the end; NO_INDEX when out of memory. */
static uint32_t edge_block(arena *a, int k)
{
    uint32_t b = a->free_edges[k];
    if (b != NO_INDEX) {
        a->free_edges[k] = a->edges[b].child;
        return b;
    }
    if (!grow_edges(a, a->num_edges + class_size(k))) return NO_INDEX;
    b = (uint32_t)a->num_edges;
    a->num_edges += class_size(k);
    return b;
}

int bk_arena_room_for_edge(arena *a, uint32_t v)
{
    int n = a->nodes[v].num_edges, k = n ? edge_class(n) : -1; /* its block's class; -1: none */
    if (n && n < class_size(k)) return 1; /* its block has room */
    uint32_t b = edge_block(a, k + 1);
    if (b == NO_INDEX) return 0;
    node *nd = &a->nodes[v];
    if (n) {
        memcpy(a->edges + b, a->edges + nd->edges, (size_t)n * sizeof *a->edges);
        memcpy(a->stats + b, a->stats + nd->edges, (size_t)n * sizeof *a->stats);
        a->edges[nd->edges].child = a->free_edges[k];
        a->free_edges[k] = nd->edges;
    }
    nd->edges = b;
    return 1;
}

/* Pruning keeps a node's expansion when it is the root or has min visits,
 * and a node when it is near the root (so that the root's moves keep their
 * figures even after the game goes on) or has min visits. */
static int keeps_expansion(const node *nd, uint64_t visits, int depth, uint64_t min)
{
    return nd->state == NODE_EXPANDED && (depth == 0 || visits >= min);
}

static int keeps_node(uint64_t visits, int depth, uint64_t min)
{
    return depth <= 2 || visits >= min;
}

/* Counts into `size` the nodes, moves and edges that keeping the subtree of
 * node v would hold. */
static void measure(const arena *a, uint32_t v, uint64_t visits, int depth, uint64_t min, arena *size)
{
    const node *nd = &a->nodes[v];
    size->num_nodes++;
    if (!keeps_expansion(nd, visits, depth, min)) return;
    size->num_moves += nd->num_moves;
    size->num_edges += block_size(nd->num_edges);
    const edge *es = a->edges + nd->edges;
    for (int i = 0; i < nd->num_edges; i++)
        if (es[i].child && keeps_node(es[i].visits, depth + 1, min))
            measure(a, es[i].child, es[i].visits, depth + 1, min, size);
}

/* Copies what measure() counted of v's subtree to `to` (room enough);
 * returns the copy's index. */
static uint32_t copy(const arena *a, arena *to, uint32_t v, uint64_t visits, int depth, uint64_t min)
{
    const node *nd = &a->nodes[v];
    uint32_t c = (uint32_t)to->num_nodes++;
    node *cp = &to->nodes[c];
    *cp = *nd;
    if (!keeps_expansion(nd, visits, depth, min)) {
        if (nd->state == NODE_EXPANDED) *cp = (node){.value = nd->value, .win = nd->win, .score = nd->score,
                                                       .played = nd->played, .player = nd->player};
        return c;
    }
    cp->moves = (uint32_t)to->num_moves;
    memcpy(to->moves + to->num_moves, a->moves + nd->moves, (size_t)nd->num_moves * sizeof *a->moves);
    to->num_moves += nd->num_moves;
    cp->edges = (uint32_t)to->num_edges;
    memcpy(to->edges + to->num_edges, a->edges + nd->edges, (size_t)nd->num_edges * sizeof *a->edges);
    memcpy(to->stats + to->num_edges, a->stats + nd->edges, (size_t)nd->num_edges * sizeof *a->stats);
    to->num_edges += block_size(nd->num_edges);
    for (int i = 0; i < nd->num_edges; i++) {
        edge *e = &to->edges[cp->edges + i];
        if (e->child)
            e->child = keeps_node(e->visits, depth + 1, min) ? copy(a, to, e->child, e->visits, depth + 1, min) : 0;
    }
    return c;
}

int bk_tree_keep(tree *t, uint32_t top, uint64_t min_visits)
{
    arena size = {0}, to;
    measure(&t->a, top, UINT64_MAX, 0, min_visits, &size);
    if (!bk_arena_init(&to)) return 0;
    to.num_nodes = 0;
    /* room for one more of each at least, so that no array is NULL */
    if (!grow((void **)&to.nodes, &to.nodes_room, size.num_nodes + 1, sizeof *to.nodes, 0) ||
        !grow((void **)&to.moves, &to.moves_room, size.num_moves + 1, sizeof *to.moves, 0) ||
        !grow_edges(&to, size.num_edges + 1)) {
        bk_arena_free(&to);
        return 0;
    }
    if (t->shared && !bk_arena_reserve(&to, t->budget, t->node_cap)) { /* its arrays must not move */
        bk_arena_free(&to);
        return 0;
    }
    copy(&t->a, &to, top, UINT64_MAX, 0, min_visits);
    bk_arena_free(&t->a);
    t->a = to;
    return 1;
}

void bk_tree_prune(tree *t)
{
    uint64_t min = 2;
    for (;; min *= 2) {
        arena size = {0};
        measure(&t->a, 0, UINT64_MAX, 0, min, &size);
        if ((bk_arena_used(&size) <= t->budget / 2 && size.num_nodes <= t->node_cap / 2) || min > t->root_visits)
            break;
    }
    if (!bk_tree_keep(t, 0, min)) {
        t->full = 1;
        return;
    }
    t->prunings++;
    if (bk_arena_used(&t->a) > t->budget / 4 * 3 || t->a.num_nodes > t->node_cap / 4 * 3) t->full = 1;
}

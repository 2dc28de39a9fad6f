/* The search's trees, shared by mcts.c (growing them) and mcts_result.c
 * (reading their statistics); private to the search.
 *
 * A tree's memory grows with what the search learns, not with the branching
 * factor.  An expanded node keeps its considered moves in prior order as one
 * 32-bit word each (the placement and its quantised prior); a move becomes
 * an edge (its statistics, 32 bytes) only once the search selects it or a
 * RAVE update reaches it, and a node (the position it leads to, 64 bytes)
 * only once a simulation goes through it.  A move never touched behaves as
 * an edge would with its prior's initial value and count: of those, only the
 * first in prior order can be the best choice, so the selection looks at it
 * alone (the node caches its score). */
#ifndef BK_MCTS_TREE_H
#define BK_MCTS_TREE_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/board.h"
#include "engine/mcts_params.h"
#include "engine/playout_policy.h" /* the policy scratch, generator and replies a worker keeps */

/* A considered move: bits 0-15 its placement id; bit 31 clear: bits 16-30
 * its prior over the node's best as -512 log2 (PRIOR_STEPS per octave);
 * bit 31 set: bits 16-30 the index of its edge among the node's edges. */
#define MOVE_MADE 0x80000000u
#define PRIOR_STEPS 512
#define MAX_QUANTISED_PRIOR 0x7FFF /* a prior of 2^-64 or less */

/* What the selection reads of an edge, kept apart from the rest of it (by
 * the same index): a descent scans every edge of each node it passes, and so
 * reads 8 of them in a cache line, not 2. */
typedef struct {
    float value;   /* the mean value for the mover the selection steers by: over the prior's
                    * initial count, the visits and the RAVE updates */
    float urgency; /* prior / count, kept with every change of count: the selection's scan of
                    * every edge of a node neither divides nor loads them */
} edge_stats;

typedef struct {
    float count;     /* the weight behind its `value` */
    float prior;     /* its share of the node's priors */
    uint32_t visits; /* simulations through this move */
    uint32_t child;  /* the node it leads to, 0 until a simulation went through it (or pruned) */
    uint16_t move;   /* placement id */
    uint16_t rank;   /* its index in the node's moves in prior order */
    uint32_t child_edges; /* a hint, for prefetching: the child's edges' index when the descent last left it */
} edge;

enum { NODE_LEAF, NODE_EXPANDED, NODE_TERMINAL };

typedef struct {
    double value, win, score; /* sums over `played` simulations for `player`: the playout's
                               * value, its side's share of the win, its final score */
    uint32_t moves;       /* index of its considered moves (num_moves words) in tree.moves */
    uint32_t edges;       /* index of its edges (room for its block's class: mcts_memory.c) in tree.edges */
    uint32_t played;      /* simulations behind the sums: the visits since the node was made */
    union {               /* by its state: */
        float expected;   /* expanded: the value its mover expected then (its edges' initial values) */
        float evaluation; /* a leaf: its static evaluation once a simulation from it needed it, 0 until
                           * then (an evaluation is a logistic's value, above 0) */
    };
    float prior_sum;      /* its considered moves' priors over the best, added up */
    float fresh_value;    /* the initial value and prior share / count of move `fresh` */
    float fresh_urgency;
    uint16_t num_moves;   /* considered moves, once expanded */
    uint16_t num_edges;   /* moves made edges */
    uint16_t fresh;       /* the first rank not made an edge (num_moves: none left) */
    uint16_t unvisited;   /* edges of no visit */
    uint8_t player;       /* who made the move leading here */
    uint8_t mover;        /* the player to move here, once expanded */
    uint8_t colour;       /* the colour to move here, once expanded */
    uint8_t state;        /* NODE_LEAF until expanded; NODE_TERMINAL: the game is over */
} node;

#define EDGE_CLASSES 30 /* edge blocks of 1, 2, 3, 4, 6, ... 2^15 edges (mcts_memory.c): BK_MAX_MOVES fit in
                         * the largest */
_Static_assert(BK_MAX_MOVES <= 1 << 15, "a node's edges fit in the largest edge block");

/* A tree's memory: nodes, considered moves and edges, each an array grown by
 * doubling, or reserved once (`fixed`: a tree its threads share, whose
 * arrays must not move under a thread reading them); freed edge blocks are
 * reused by size. */
typedef struct {
    node *nodes;
    uint32_t *moves;
    edge *edges;
    edge_stats *stats; /* the edges', by the same index (their room: edges_room) */
    int64_t num_nodes, nodes_room, num_moves, moves_room, num_edges, edges_room;
    int fixed;
    uint32_t free_edges[EDGE_CLASSES]; /* per class: a freed block (its first edge's `child`: the next), or
                                        * UINT32_MAX */
} arena;

/* What each searching thread has of its own: its random stream (the
 * expansions it makes draw from it too), its expansions', playouts' and
 * RAVE's scratch and the last good replies its playouts learnt. */
typedef struct {
    bk_rng rng;
    float expected[BK_MAX_COLOURS]; /* per player: its mean value when this simulation began */
    /* RAVE's, per placement: the colour that played it in this simulation
     * (-1: none) and the first index in its moves where it did */
    int8_t played_by[BK_MAX_PLACEMENTS];
    int16_t first_play[BK_MAX_PLACEMENTS];
    uint16_t rave_ranks[BK_MAX_MOVES]; /* rave_moves': the ranks of a node's moves it updates */
    uint16_t moves[BK_MAX_MOVES]; /* an expansion's: the legal moves, their priors (log2), */
    float log2_priors[BK_MAX_MOVES];
    uint16_t quantised[BK_MAX_MOVES];
    uint32_t sorted[BK_MAX_MOVES];
    uint32_t words[BK_MAX_MOVES]; /* and the considered ones in prior order, as the tree keeps them */
    bk_policy_scratch playout_scratch;
    bk_replies *replies; /* NULL unless params.replies: kept between searches */
} worker;

#define NODE_LOCKS 1024 /* a shared tree's locks of its nodes: node v's is v % NODE_LOCKS */

/* One tree: a search runs one per thread (root parallelisation), or one that
 * all its threads share (params.shared). */
typedef struct {
    bk_board root;
    bk_dead_points root_dead; /* its colours' dead points at the root (movegen.h) */
    bk_mcts_params params;
    arena a;
    uint32_t root_visits;
    int64_t budget;      /* bytes this tree may hold before it prunes */
    int64_t node_cap;    /* nodes it may hold before it prunes (params.max_nodes / trees) */
    int full;            /* pruning could not make room: no more nodes or expansions below the root */
    int64_t prunings;    /* times the tree was pruned */
    /* per placement id: its rank among the root's considered moves, -1 for none; valid once the
     * root is expanded and root_indexed set (under node 0's lock in a shared tree) */
    int16_t *root_ranks;
    int root_indexed;
    int64_t simulations; /* behind the root's children: kept from earlier searches and run since */
    int64_t played;      /* run since the root was set (those of player_wins and player_scores) */
    int8_t side[BK_MAX_COLOURS]; /* per player: its side (bk_player_sides) */
    int num_players;
    double player_wins[BK_MAX_COLOURS];   /* per player: sums over the `played` simulations */
    double player_values[BK_MAX_COLOURS];
    double player_scores[BK_MAX_COLOURS];
    /* per player: count, mean and sum of squared deviations (Welford) of its
     * margins over the `played` simulations, for the standardised margin */
    double margin_n[BK_MAX_COLOURS], margin_mean[BK_MAX_COLOURS], margin_m2[BK_MAX_COLOURS];
    int64_t target;       /* its share of the search's simulations */
    int64_t claimed;      /* simulations begun: `simulations` and those under way */
    const atomic_int *stop; /* set when the search is to end before every share is done */
    /* A tree several threads share: a thread holds `lock` while it claims a
     * simulation, prunes or adds a playout's value to the tree's sums, the
     * lock of a node (node_locks[v % NODE_LOCKS]) while it reads or changes
     * that node, its moves and edges, and `alloc` while it takes room from
     * the arena (reserved: its arrays never move); root_visits is the root's,
     * under node 0's lock, and `full` changes only while no simulation is
     * under way.  Never two node locks at once; `lock` before a node lock, a
     * node lock before `alloc`. */
    int shared;
    atomic_int lock;
    atomic_int alloc;
    atomic_int in_flight; /* simulations under way: the tree is pruned only when none is */
    atomic_int node_locks[NODE_LOCKS];
} tree;

/* A thread's work: the tree it grows and its own worker. */
typedef struct {
    tree *t;
    worker *w;
} job;

struct bk_mcts {
    int num_trees;   /* one per thread, or one shared by all */
    tree **trees;
    int num_workers; /* one per thread */
    worker *workers;
    job jobs[BK_MCTS_MAX_THREADS]; /* per thread */
    atomic_int stop;
    pthread_t threads[BK_MCTS_MAX_THREADS];
    int started[BK_MCTS_MAX_THREADS]; /* per thread: it runs */
};

#endif

/* mcts_memory.c: a tree's arena, and pruning it. */
#define NO_INDEX UINT32_MAX

/* An empty arena with room for a root node (its fields zero); 0 when out of memory. */
int bk_arena_init(arena *a);
void bk_arena_free(arena *a);
/* Reserves each array's room, once: for `bytes` of it (the nodes' for at
 * most `nodes` of them) and a slack, or its room now if more; the arrays
 * never move again and cannot grow beyond it (the room is address space,
 * about three times `bytes`, backed only as it is used).  0 when out of
 * memory (a holds what it held, in arrays that may have moved). */
int bk_arena_reserve(arena *a, int64_t bytes, int64_t nodes);
/* Bytes the arena holds: its arrays' room, or what a reserved one uses. */
int64_t bk_arena_bytes(const arena *a);
/* Bytes in use: what pruning must bring under the budget. */
int64_t bk_arena_used(const arena *a);
/* A new node, zero but for `player`, or NO_INDEX when out of memory. */
uint32_t bk_arena_node(arena *a, int player);
/* Room for n more considered moves at a.moves + a.num_moves; 0 when out of memory. */
int bk_arena_reserve_moves(arena *a, int64_t n);
/* Room for one more edge in node v's block (moved to a larger block when
 * full); 0 when out of memory. */
int bk_arena_room_for_edge(arena *a, uint32_t v);
/* Makes node `top` (with `visits`) the root of t's arena, keeping below it
 * the nodes of at least min_visits visits (and the root's children and
 * grandchildren whatever their visits) and the expansions of those nodes;
 * the rest is freed.  0 when out of memory, t unchanged. */
int bk_tree_keep(tree *t, uint32_t top, uint64_t min_visits);
/* Frees the least visited subtrees of t until it holds at most half its
 * budget and node cap, or all but the root's children and grandchildren;
 * sets t->full when that leaves it above three quarters of either. */
void bk_tree_prune(tree *t);

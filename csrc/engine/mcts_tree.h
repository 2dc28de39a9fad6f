/* The search's trees, shared by mcts.c (growing them) and mcts_result.c
 * (reading their statistics); private to the search. */
#ifndef BK_MCTS_TREE_H
#define BK_MCTS_TREE_H

#include <pthread.h>
#include <stdatomic.h>

#include "engine/mcts.h"

typedef struct {
    uint32_t first_child;   /* 0 until expanded: the root is never anyone's child */
    uint32_t visits;        /* simulations through here */
    float value;            /* the mean value for `player` the selection steers by: over the
                             * prior's initial count, the visits and the RAVE updates */
    float count;            /* the weight behind `value` */
    float prior;            /* its share of the parent's priors */
    float urgency;          /* prior / count, kept for the selection's scan */
    uint16_t move;          /* placement id that leads here */
    uint16_t num_children;  /* legal placements here, once expanded */
    uint8_t player;         /* who made `move` */
} node;

/* What the nodes' results say to the analysis, beside the values the
 * search steers by: kept apart so that selection scans only the nodes. */
typedef struct {
    double value; /* sum of the playout values for `player` over the visits */
    double win;   /* sum of the shares of the win of `player`'s side */
    double score; /* sum of the final scores of `player` */
} node_result;

/* One tree; a search runs one per thread. */
typedef struct {
    bk_board root;
    bk_mcts_params params;
    bk_rng rng;
    node *nodes;
    node_result *results; /* one per node */
    int64_t num_nodes, capacity;
    int64_t simulations; /* behind the root's children: kept from earlier searches and run since */
    int64_t played;      /* run since the root was set (those of player_wins and player_scores) */
    int full; /* the tree could not grow: no more expansions */
    int8_t side[BK_MAX_COLOURS]; /* per player: its side (bk_player_sides) */
    int num_players;
    double player_wins[BK_MAX_COLOURS];   /* per player: sums over the `played` simulations */
    double player_values[BK_MAX_COLOURS];
    double player_scores[BK_MAX_COLOURS];
    /* per player: count, mean and sum of squared deviations (Welford) of its
     * margins over the `played` simulations, for the standardised margin */
    double margin_n[BK_MAX_COLOURS], margin_mean[BK_MAX_COLOURS], margin_m2[BK_MAX_COLOURS];
    uint16_t moves[BK_MAX_MOVES], ordered[BK_MAX_MOVES]; /* expansion's scratch */
    float priors[BK_MAX_MOVES], ordered_priors[BK_MAX_MOVES];
    uint8_t bucket[BK_MAX_MOVES];
    /* RAVE's scratch, per placement: the colour that played it in this
     * simulation (-1: none) and the first index in its moves where it did */
    int8_t played_by[BK_MAX_PLACEMENTS];
    int16_t first_play[BK_MAX_PLACEMENTS];
    bk_policy_scratch playout_scratch;
    bk_replies *replies; /* NULL unless params.replies: kept between searches */
    int64_t target;       /* its share of the search's simulations */
    const atomic_int *stop; /* set when the search is to end before every share is done */
} tree;

struct bk_mcts {
    int num_trees;
    tree **trees;
    atomic_int stop;
    pthread_t threads[BK_MCTS_MAX_THREADS];
    int started[BK_MCTS_MAX_THREADS]; /* per tree: a thread runs it */
};

#endif

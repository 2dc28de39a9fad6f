/* The search's parameters and its opaque type, apart from mcts.h's functions
 * so that the trees' private header (mcts_tree.h), which mcts_memory.c and
 * mcts_result.c include, depends on them and not on mcts.c's interface. */
#ifndef BK_MCTS_PARAMS_H
#define BK_MCTS_PARAMS_H

#include <stdint.h>

typedef struct {
    double exploration; /* c in the exploration term c P sqrt(N) log(N + 1) / n */
    double prior_temperature; /* T > 0: the children's priors are prior.h's at temperature T
                               * (exp(w . x / T)); above 1 flatter than the fitted prior */
    double rave;        /* weight w of a RAVE update: w (1 - d / r) for a placement played d
                         * moves after the node, r moves before the end; 0: none */
    int64_t max_nodes;  /* tree nodes (positions searched) in all trees before the least visited
                         * subtrees are pruned; default UINT32_MAX: the memory budget decides */
    int64_t memory;     /* bytes the trees may hold in all before the least visited subtrees are
                         * pruned; 0: bk_mcts_default_memory() */
    double margin;      /* weight of the standardised margin in a playout's value, < 0.5 (a
                         * win outweighs any loss); 0: the small fixed margin term instead
                         * (see playout_values in mcts.c); < 0 (the default): the variant's,
                         * bk_mcts_margin() */
    double evaluation;  /* weight l in [0, 1] of the static evaluation (evaluation.h) in a
                         * simulation's value: (1 - l) its playout's + l the evaluation of the
                         * position the playout starts from; 0 (and in variants without an
                         * evaluation): the playout's alone */
    int replies;        /* nonzero: the playouts play last good replies (replies.h) */
    double early_stop;  /* f > 0: a tree's share ends once its most visited root move leads
                         * the next by more than f times the simulations left (f = 1: that
                         * move cannot change); 0: every simulation runs */
    int shared;         /* nonzero: the threads grow one tree (a lock per node, virtual
                         * losses); 0: each thread its own (root parallelisation) */
} bk_mcts_params;

typedef struct bk_mcts bk_mcts;

#define BK_MCTS_MAX_THREADS 64

#endif

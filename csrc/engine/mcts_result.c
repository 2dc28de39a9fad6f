/* What a search found: the root's moves, the principal variation and each
 * player's values, added up over the trees; see mcts.h. */
#include "engine/mcts_tree.h"

#include <stdlib.h>

static int more_visited(const void *a, const void *b)
{
    const bk_mcts_move *x = a, *y = b;
    if (x->visits != y->visits) return x->visits < y->visits ? 1 : -1;
    if (x->value != y->value) return x->value < y->value ? 1 : -1;
    return (x->id > y->id) - (x->id < y->id);
}

static int lower_id(const void *a, const void *b)
{
    const bk_mcts_move *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

int bk_mcts_num_moves(const bk_mcts *s)
{
    int n = 0; /* a tree that has not run yet has no children */
    for (int k = 0; k < s->num_trees; k++)
        if (s->trees[k]->nodes[0].num_children > n) n = s->trees[k]->nodes[0].num_children;
    return n;
}

int bk_mcts_moves(const bk_mcts *s, bk_mcts_move *out)
{
    size_t room = 0;
    for (int k = 0; k < s->num_trees; k++) room += s->trees[k]->nodes[0].num_children;
    bk_mcts_move *sums = malloc((room ? room : 1) * sizeof *sums);
    if (!sums) return 0;
    int m = 0, n = 0;
    for (int k = 0; k < s->num_trees; k++) { /* every tree's visited root children, as sums */
        const tree *t = s->trees[k];
        const node *children = t->nodes + t->nodes[0].first_child;
        for (int i = 0; i < t->nodes[0].num_children; i++)
            if (children[i].visits)
                sums[m++] = (bk_mcts_move){children[i].move, children[i].visits,
                                           t->results[t->nodes[0].first_child + i].value,
                                           t->results[t->nodes[0].first_child + i].win,
                                           t->results[t->nodes[0].first_child + i].score};
    }
    qsort(sums, (size_t)m, sizeof *sums, lower_id);
    for (int i = 0; i < m; i++) { /* one row per placement: the trees' sums added */
        if (n && out[n - 1].id == sums[i].id) {
            out[n - 1].visits += sums[i].visits;
            out[n - 1].value += sums[i].value;
            out[n - 1].win += sums[i].win;
            out[n - 1].score += sums[i].score;
        } else {
            out[n++] = sums[i];
        }
    }
    free(sums);
    for (int i = 0; i < n; i++) {
        double visits = (double)out[i].visits;
        out[i].value /= visits;
        out[i].win /= visits;
        out[i].score /= visits;
    }
    qsort(out, (size_t)n, sizeof *out, more_visited);
    return n;
}

/* The line below node v of t: the most visited child (ties: the first in
 * prior order) while there is one. */
static int line_below(const tree *t, const node *v, int *out, int max)
{
    int n = 0;
    while (n < max && v->first_child) {
        const node *children = t->nodes + v->first_child, *best = NULL;
        for (int i = 0; i < v->num_children; i++)
            if (children[i].visits && (!best || children[i].visits > best->visits)) best = &children[i];
        if (!best) break;
        out[n++] = best->move;
        v = best;
    }
    return n;
}

int bk_mcts_principal_variation(const bk_mcts *s, int *out, int max)
{
    /* the move to play (so that visit ties are broken as bk_mcts_moves
     * does), then the line of the tree that searched it most (ties: the
     * first tree) */
    bk_mcts_move *moves = malloc(((size_t)bk_mcts_num_moves(s) + 1) * sizeof *moves);
    int first = moves && max > 0 && bk_mcts_moves(s, moves) > 0 ? moves[0].id : -1;
    free(moves);
    if (first < 0) return 0;
    const tree *best_tree = NULL;
    const node *best = NULL;
    for (int k = 0; k < s->num_trees; k++) {
        const tree *t = s->trees[k];
        const node *children = t->nodes + t->nodes[0].first_child;
        for (int i = 0; i < t->nodes[0].num_children; i++)
            if (children[i].move == first && (!best || children[i].visits > best->visits)) {
                best = &children[i];
                best_tree = t;
            }
    }
    out[0] = first;
    return 1 + line_below(best_tree, best, out + 1, max - 1);
}

int bk_mcts_players(const bk_mcts *s, double *wins, double *scores)
{
    int64_t played = 0;
    for (int k = 0; k < s->num_trees; k++) played += s->trees[k]->played;
    double n = played ? (double)played : 1.0;
    int players = s->trees[0]->num_players;
    for (int p = 0; p < players; p++) {
        wins[p] = scores[p] = 0.0;
        for (int k = 0; k < s->num_trees; k++) {
            wins[p] += s->trees[k]->player_wins[p];
            scores[p] += s->trees[k]->player_scores[p];
        }
        wins[p] /= n;
        scores[p] /= n;
    }
    return players;
}

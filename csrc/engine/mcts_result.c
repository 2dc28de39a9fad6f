/* What a search found: the root's moves, the principal variation and each
 * player's values, added up over the trees; see mcts.h. */
#include "engine/mcts.h"
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
    int n = 0; /* a tree that has not run yet has no moves */
    for (int k = 0; k < s->num_trees; k++) {
        const node *root = &s->trees[k]->a.nodes[0];
        if (root->state == NODE_EXPANDED && root->num_moves > n) n = root->num_moves;
    }
    return n;
}

/* The root's edges of tree t: its moves with statistics. */
static const edge *root_edges(const tree *t, int *n)
{
    const node *root = &t->a.nodes[0];
    *n = root->state == NODE_EXPANDED ? root->num_edges : 0;
    return t->a.edges + root->edges;
}

int bk_mcts_moves(const bk_mcts *s, bk_mcts_move *out)
{
    size_t room = 0;
    for (int k = 0; k < s->num_trees; k++) {
        int n;
        root_edges(s->trees[k], &n);
        room += (size_t)n;
    }
    bk_mcts_move *sums = malloc((room ? room : 1) * sizeof *sums);
    double *played = malloc((room ? room : 1) * sizeof *played);
    if (!sums || !played) {
        free(sums);
        free(played);
        return 0;
    }
    int m = 0, n = 0;
    for (int k = 0; k < s->num_trees; k++) { /* every tree's visited root moves, as sums */
        const tree *t = s->trees[k];
        int num;
        const edge *es = root_edges(t, &num);
        for (int i = 0; i < num; i++) {
            /* the sums are over the simulations since the move's node was made: all of its
             * visits unless pruning freed it in an earlier search of the game */
            const node *c = es[i].child ? &t->a.nodes[es[i].child] : NULL;
            if (!es[i].visits || !c || !c->played) continue;
            sums[m] = (bk_mcts_move){es[i].move, es[i].visits, c->value, c->win, c->score};
            played[m++] = c->played;
        }
    }
    for (int i = 0; i < m; i++) { /* means of each tree's sums, weighted by its visits below */
        sums[i].value /= played[i];
        sums[i].win /= played[i];
        sums[i].score /= played[i];
    }
    free(played);
    qsort(sums, (size_t)m, sizeof *sums, lower_id);
    for (int i = 0; i < m; i++) { /* one row per placement: the trees' visits added, means weighted by them */
        double w = (double)sums[i].visits;
        if (n && out[n - 1].id == sums[i].id) {
            out[n - 1].visits += sums[i].visits;
            out[n - 1].value += w * sums[i].value;
            out[n - 1].win += w * sums[i].win;
            out[n - 1].score += w * sums[i].score;
        } else {
            out[n] = sums[i];
            out[n].value *= w;
            out[n].win *= w;
            out[n].score *= w;
            n++;
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

/* The most visited edge of node v (ties: the first in prior order), NULL
 * when none was visited. */
static const edge *most_visited(const tree *t, const node *v)
{
    const edge *es = t->a.edges + v->edges, *best = NULL;
    for (int i = 0; v->state == NODE_EXPANDED && i < v->num_edges; i++)
        if (es[i].visits && (!best || es[i].visits > best->visits ||
                             (es[i].visits == best->visits && es[i].rank < best->rank)))
            best = &es[i];
    return best;
}

/* The line below node v of t: the most visited move (ties: the first in
 * prior order) while there is one. */
static int line_below(const tree *t, const node *v, int *out, int max)
{
    int n = 0;
    const edge *best;
    while (n < max && v && (best = most_visited(t, v))) {
        out[n++] = best->move;
        v = best->child ? &t->a.nodes[best->child] : NULL;
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
    const edge *best = NULL;
    for (int k = 0; k < s->num_trees; k++) {
        const tree *t = s->trees[k];
        int num;
        const edge *es = root_edges(t, &num);
        for (int i = 0; i < num; i++)
            if (es[i].move == first && (!best || es[i].visits > best->visits)) {
                best = &es[i];
                best_tree = t;
            }
    }
    out[0] = first;
    const node *below = best->child ? &best_tree->a.nodes[best->child] : NULL;
    return 1 + line_below(best_tree, below, out + 1, max - 1);
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

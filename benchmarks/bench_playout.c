/* Playout and search benchmark for the C engine, without Python.
 *
 * Build (what `make -C benchmarks` does), from the repository root:
 *   cc -std=c11 -O3 -mpopcnt -Wall -Wextra -Icsrc -o benchmarks/bench_playout benchmarks/bench_playout.c \
 *      csrc/core/[a-z]*.c csrc/engine/[a-z]*.c -lm -lpthread
 * (-mpopcnt on x86-64 only)
 *
 * Usage: bench_playout [GAMES_FILE [PLAYOUTS [SIMULATIONS]]]
 *   GAMES_FILE   benchmarks/oracle_games.txt (or oracle_games.txt when run
 *                from benchmarks/): where the middle-game positions come from
 *   PLAYOUTS     policy playouts per position and mode (default 2000; a
 *                20x20 position runs a quarter of them)
 *   SIMULATIONS  of the whole search from the Duo start (default 4000)
 *
 * Policy playouts (bk_policy_playout) from fixed positions, each played to
 * the end from a copy of the position: the Duo and classic_2 starts, and
 * positions after 10 and 20 moves of the file's first Duo game and after 16
 * and 32 moves of its first classic game (played as classic, and as
 * classic_2 for the second). Each position runs twice: without last good
 * replies, and with a table that learns after every playout as the search's
 * does (bk_replies_learn from the position's move on, by bk_win_shares).
 * The playouts of a position and mode draw from one stream (seed 1, stream
 * position * 2 + mode), so the moves chosen depend on the code and nothing
 * else: the checksum folds in every move of every playout (the final
 * board's history), so a change in any move chosen shows there.
 *
 * Then a whole search: bk_mcts with bk_mcts_defaults(), one thread, seed 1,
 * SIMULATIONS simulations from the Duo start; its checksum folds in the
 * root's moves and visits.  And a whole game: Duo self-play, every move the
 * most visited of SIMULATIONS new simulations of that search kept along the
 * game (bk_mcts_advance, seed 1 + move number, as the mcts agent plays);
 * its checksum folds in the game's moves.
 *
 * Figures: playouts and moves per second per position and mode, and simulations per second of the search, each the fastest of
 * ROUNDS rounds (the one least disturbed by other work). */
#define _POSIX_C_SOURCE 200809L /* getline, clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h> /* access */

#include "core/board.h"
#include "core/init.h"
#include "core/movetext.h"
#include "core/play.h"
#include "core/score.h"
#include "engine/mcts.h"
#include "engine/playout_policy.h"
#include "engine/prior.h"

#define ROUNDS 3
#define SEED 1
#define MAX_POSITIONS 8

typedef struct {
    const char *name;
    bk_board board;
} position;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t fold(uint64_t h, uint64_t x)
{
    return (h ^ x) * 0x100000001B3ull; /* FNV-1a's prime */
}

/* The first game of `variant` in the file, as a line, or exit. */
static char *first_game(const char *path, const char *variant)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(1);
    }
    char *line = NULL;
    size_t cap = 0, len = strlen(variant);
    while (getline(&line, &cap, f) >= 0)
        if (strncmp(line, variant, len) == 0 && line[len] == '|') {
            fclose(f);
            return line;
        }
    fprintf(stderr, "%s: no %s game\n", path, variant);
    exit(1);
}

/* The position after the first `moves` moves of game `line`, played as `variant`
 * (the file's classic games are legal classic_2 games: same board and turn order). */
static bk_board replay(const char *line, int variant, int moves)
{
    bk_board b;
    bk_board_init(&b, variant, BK_START_FIXED);
    const char *p = strchr(line, '|') + 1;
    for (int i = 0; i < moves; i++) {
        const char *colon = strchr(p, ':'), *end = strpbrk(colon, ";\n");
        int id;
        if (!end) end = colon + strlen(colon);
        if (bk_parse_move(b.geom, colon + 1, (size_t)(end - colon - 1), &id) != BK_OK || bk_play(&b, id) != BK_OK) {
            fprintf(stderr, "move %d of \"%.40s...\" does not replay\n", i + 1, line);
            exit(1);
        }
        p = end + 1;
    }
    return b;
}

static int positions_of(const char *path, position *out)
{
    char *duo = first_game(path, "duo"), *classic = first_game(path, "classic");
    int n = 0;
    out[n].name = "duo-start";
    bk_board_init(&out[n++].board, BK_DUO, BK_START_FIXED);
    out[n].name = "classic_2-start";
    bk_board_init(&out[n++].board, BK_CLASSIC_2, BK_START_FIXED);
    out[n++] = (position){"duo-move-10", replay(duo, BK_DUO, 10)};
    out[n++] = (position){"duo-move-20", replay(duo, BK_DUO, 20)};
    out[n++] = (position){"classic-move-16", replay(classic, BK_CLASSIC, 16)};
    out[n++] = (position){"classic_2-move-32", replay(classic, BK_CLASSIC_2, 32)};
    free(duo);
    free(classic);
    return n;
}

static bk_policy_scratch scratch;
static bk_move_sets sets; /* static: bk_cand_set's alignment is more than malloc's */
static bk_replies replies;

typedef struct {
    double seconds;
    long moves;
    uint64_t checksum;
} result;

/* n playouts from p, with learnt replies or without. */
static result run_playouts(const bk_board *p, long n, int with_replies, uint64_t stream)
{
    result r = {0, 0, 0xCBF29CE484222325ull};
    bk_rng rng;
    bk_dead_points dead; /* as the search's playouts start */
    bk_rng_seed(&rng, SEED, stream);
    bk_replies_clear(&replies);
    bk_dead_points_find(&dead, p, &sets);
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
        bk_board b = *p;
        bk_policy_playout(&b, &rng, &scratch, with_replies ? &replies : NULL, &dead);
        if (with_replies) {
            double shares[BK_MAX_COLOURS];
            bk_win_shares(&b, shares);
            bk_replies_learn(&replies, &b, p->num_moves, shares);
        }
        r.moves += b.num_moves - p->num_moves;
        for (int k = p->num_moves; k < b.num_moves; k++) r.checksum = fold(r.checksum, b.history[k].id);
    }
    r.seconds = now_s() - t0;
    return r;
}

/* Runs `simulations` more simulations of t on this thread. */
static void search(bk_mcts *t, long simulations)
{
    bk_mcts_start(t, simulations);
    while (bk_mcts_run(t, 1 << 30) > 0) continue;
    bk_mcts_finish(t, 0);
}

static result run_search(long simulations)
{
    bk_board root;
    bk_board_init(&root, BK_DUO, BK_START_FIXED);
    bk_mcts_params params = bk_mcts_defaults();
    result r = {0, simulations, 0xCBF29CE484222325ull};
    double t0 = now_s();
    bk_mcts *t = bk_mcts_new(&root, &params, SEED, 1);
    if (!t) {
        fprintf(stderr, "bk_mcts_new: out of memory\n");
        exit(1);
    }
    search(t, simulations);
    r.seconds = now_s() - t0;
    bk_mcts_move *moves = malloc((size_t)bk_mcts_num_moves(t) * sizeof *moves);
    int n = moves ? bk_mcts_moves(t, moves) : 0;
    for (int i = 0; i < n; i++) r.checksum = fold(fold(r.checksum, (uint64_t)moves[i].id), (uint64_t)moves[i].visits);
    free(moves);
    bk_mcts_free(t);
    return r;
}

static result run_game(long simulations)
{
    bk_board b;
    bk_board_init(&b, BK_DUO, BK_START_FIXED);
    bk_mcts_params params = bk_mcts_defaults();
    result r = {0, 0, 0xCBF29CE484222325ull};
    double t0 = now_s();
    bk_mcts *t = bk_mcts_new(&b, &params, SEED, 1);
    for (int move = 0; t && b.to_move >= 0; move++) {
        if (move > 0 && bk_mcts_advance(t, &b, SEED + (uint64_t)move) < 0) break;
        search(t, simulations);
        int id; /* the move to play: the principal variation's first */
        if (bk_mcts_principal_variation(t, &id, 1) < 1 || bk_play(&b, id) != BK_OK) break;
        r.moves += simulations;
        r.checksum = fold(r.checksum, (uint64_t)id);
    }
    r.seconds = now_s() - t0;
    if (!t || b.to_move >= 0) {
        fprintf(stderr, "the game's search failed (out of memory)\n");
        exit(1);
    }
    bk_mcts_free(t);
    return r;
}

/* Keeps the faster of two runs of the same work; the checksums must agree. */
static void keep_best(result *best, const result *r, int round, const char *what)
{
    if (round > 0 && r->checksum != best->checksum) {
        fprintf(stderr, "%s: checksum changed between rounds: the run is not deterministic\n", what);
        exit(1);
    }
    if (round == 0 || r->seconds < best->seconds) *best = *r;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "benchmarks/oracle_games.txt";
    long playouts = argc > 2 ? atol(argv[2]) : 2000, simulations = argc > 3 ? atol(argv[3]) : 4000;
    if (argc > 4 || playouts < 4 || simulations < 1) {
        fprintf(stderr, "usage: %s [GAMES_FILE [PLAYOUTS [SIMULATIONS]]]\n", argv[0]);
        return 2;
    }
    if (argc <= 1 && access(path, R_OK) != 0) path = "oracle_games.txt"; /* run from benchmarks/ */
    bk_init();
    bk_playout_policy_init();
    bk_prior_init();

    position pos[MAX_POSITIONS];
    int np = positions_of(path, pos);
    result best[MAX_POSITIONS][2] = {{{0}}}, search_best = {0}, game_best = {0};
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < np; i++)
            for (int mode = 0; mode < 2; mode++) {
                long n = pos[i].board.side == 20 ? playouts / 4 : playouts;
                result r = run_playouts(&pos[i].board, n, mode, (uint64_t)(i * 2 + mode));
                keep_best(&best[i][mode], &r, round, pos[i].name);
            }
        result r = run_search(simulations);
        keep_best(&search_best, &r, round, "search");
        r = run_game(simulations);
        keep_best(&game_best, &r, round, "game");
    }

    printf("policy playouts, seed %d, fastest of %d rounds\n", SEED, ROUNDS);
    printf("%-18s %-8s %9s %12s %12s  %s\n", "position", "replies", "playouts", "playouts/s", "moves/s", "checksum");
    uint64_t all = 0xCBF29CE484222325ull;
    for (int i = 0; i < np; i++)
        for (int mode = 0; mode < 2; mode++) {
            const result *r = &best[i][mode];
            long n = pos[i].board.side == 20 ? playouts / 4 : playouts;
            printf("%-18s %-8s %9ld %12.0f %12.0f  %016llx\n", pos[i].name, mode ? "learnt" : "none", n,
                   n / r->seconds, r->moves / r->seconds, (unsigned long long)r->checksum);
            all = fold(all, r->checksum);
        }
    printf("playouts checksum %016llx\n", (unsigned long long)all);
    printf("search: bk_mcts defaults, 1 thread, seed %d, duo start: %ld simulations in %.3f s, %.0f simulations/s, "
           "checksum %016llx\n",
           SEED, simulations, search_best.seconds, simulations / search_best.seconds,
           (unsigned long long)search_best.checksum);
    printf("game: duo self-play, %ld simulations a move, the search kept: %ld simulations in %.3f s, %.0f "
           "simulations/s, checksum %016llx\n",
           simulations, game_best.moves, game_best.seconds, game_best.moves / game_best.seconds,
           (unsigned long long)game_best.checksum);
    return 0;
}

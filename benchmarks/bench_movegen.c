/* Move-generation benchmark for the C core, without Python.
 *
 * Build (what `make -C benchmarks` does: the C core and engine, without the
 * Python binding of csrc/python/), from the repository root:
 *   cc -std=c11 -O3 -mpopcnt -Wall -Wextra -Icsrc -o benchmarks/bench_movegen benchmarks/bench_movegen.c \
 *      csrc/core/[a-z]*.c csrc/engine/[a-z]*.c -lm -lpthread
 * (-mpopcnt on x86-64 only)
 *
 * Usage: bench_movegen [GAMES_FILE [REPEATS [VARIANT]]]
 *   GAMES_FILE  one game a line, "VARIANT|COLOUR:CELLS;COLOUR:CELLS;..."
 *               (default benchmarks/oracle_games.txt, or oracle_games.txt
 *               when run from benchmarks/)
 *   REPEATS     generations timed per position (default 200)
 *   VARIANT     only replay games of this variant
 *
 * Every game is replayed under the fixed start rule.  At each position where
 * a colour is still to move (the start, after every move, the final one) the
 * full legal-move list of the colour to move is generated REPEATS times in a
 * row and timed: a position's cost is what a playout or a search pays for
 * it, with its tables warm in cache.
 *
 * When Pentobi's timing harness is there ($PENTOBI_MOVEGEN, else
 * ../shared/pentobi/pentobi_movegen), it is run on the same file and
 * repetitions in the same run, its rounds alternating with ours, and both
 * figures and their ratio are printed, after checking that both generators
 * found the same positions and moves; otherwise Pentobi is "not measured". */
#define _POSIX_C_SOURCE 200809L /* getline, clock_gettime, popen */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h> /* access */

#include "core/board.h"
#include "core/init.h"
#include "core/movegen.h"
#include "core/movetext.h"
#include "core/play.h"

static const char *const variant_names[BK_NUM_VARIANTS] = {
    [BK_CLASSIC] = "classic", [BK_CLASSIC_2] = "classic_2", [BK_CLASSIC_3] = "classic_3",
    [BK_CLASSIC_TEAMS] = "classic_teams", [BK_DUO] = "duo",
};

/* Each side is timed this many times, alternately, and its fastest round reported: the round
 * least disturbed by whatever else the machine runs. */
#define ROUNDS 3

typedef struct {
    long games, positions, moves; /* moves: total list length, one repetition */
    double ns;                    /* total over all repetitions */
} stats;

static uint16_t moves[BK_MAX_MOVES];
static uint64_t checksum;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void die(const char *file, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%ld: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static int variant_of(const char *name, size_t len)
{
    for (int v = 0; v < BK_NUM_VARIANTS; v++)
        if (strlen(variant_names[v]) == len && strncmp(variant_names[v], name, len) == 0) return v;
    return -1;
}

/* Times move generation at the current position, if anyone is to move. */
static void time_position(const bk_board *b, long repeats, stats *s)
{
    if (b->to_move < 0) return;
    int n = 0;
    double t0 = now_ns();
    for (long r = 0; r < repeats; r++) {
        n = bk_gen_moves(b, b->to_move, moves);
        /* Depends on the list's content, so no repetition can be skipped. */
        checksum = checksum * 31 + (uint64_t)n + moves[n > 0 ? n - 1 : 0];
    }
    s->ns += now_ns() - t0;
    s->positions++;
    s->moves += n;
}

/* Replays every game of the file (only variant `only` if >= 0), timing each position. */
static void measure(const char *path, long repeats, int only, stats st[BK_NUM_VARIANTS])
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(1);
    }
    memset(st, 0, sizeof(stats) * BK_NUM_VARIANTS);
    bk_board b;
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (len == 0 || line[0] == '#') continue;
        char *bar = strchr(line, '|');
        if (!bar) die(path, lineno, "no '|' after the variant");
        int v = variant_of(line, (size_t)(bar - line));
        if (v < 0) die(path, lineno, "unknown variant \"%.*s\"", (int)(bar - line), line);
        if (only >= 0 && v != only) continue;
        if (bk_board_init(&b, v, BK_START_FIXED) != BK_OK) die(path, lineno, "bk_board_init failed");
        st[v].games++;
        time_position(&b, repeats, &st[v]);
        for (char *p = bar + 1; *p;) {
            char *end = strchr(p, ';');
            if (!end) end = p + strlen(p);
            char *colon = memchr(p, ':', (size_t)(end - p));
            if (!colon) die(path, lineno, "a move without 'COLOUR:'");
            int colour = atoi(p), id, n = (int)(end - colon - 1);
            bk_status err;
            if (colour != b.to_move)
                die(path, lineno, "move %d \"%.*s\": colour %d, but colour %d is to move", b.num_moves + 1,
                    (int)(end - p), p, colour, b.to_move);
            if ((err = bk_parse_move(b.geom, colon + 1, (size_t)n, &id)) != BK_OK)
                die(path, lineno, "move %d \"%.*s\": unreadable (status %d)", b.num_moves + 1, n, colon + 1, err);
            if ((err = bk_play(&b, id)) != BK_OK)
                die(path, lineno, "move %d \"%.*s\": bk_play refused it (status %d)", b.num_moves + 1, n, colon + 1,
                    err);
            time_position(&b, repeats, &st[v]);
            p = *end ? end + 1 : end;
        }
    }
    free(line);
    fclose(f);
}

/* Pentobi's timing harness (see /work/shared/pentobi/README.md): $PENTOBI_MOVEGEN, else
 * ../shared/pentobi/pentobi_movegen from the repository root or ../../shared/... from
 * benchmarks/. NULL if none is executable. */
static const char *pentobi_harness(void)
{
    static const char *const places[] = {"../shared/pentobi/pentobi_movegen", "../../shared/pentobi/pentobi_movegen"};
    const char *env = getenv("PENTOBI_MOVEGEN");
    if (env && *env) return access(env, X_OK) == 0 ? env : NULL;
    for (size_t i = 0; i < sizeof places / sizeof *places; i++)
        if (access(places[i], X_OK) == 0) return places[i];
    return NULL;
}

/* Runs Pentobi's harness on the same file and repetitions; its per-variant rows ("variant games
 * positions moves ns/pos") into st. 0 on success. */
static int measure_pentobi(const char *harness, const char *path, long repeats, stats st[BK_NUM_VARIANTS])
{
    char command[4096];
    if (strchr(harness, '\'') || strchr(path, '\'')) return -1; /* kept out of the shell quoting */
    snprintf(command, sizeof command, "'%s' '%s' %ld", harness, path, repeats);
    FILE *p = popen(command, "r");
    if (!p) return -1;
    memset(st, 0, sizeof(stats) * BK_NUM_VARIANTS);
    char line[512], name[32];
    long games, positions, moves_n;
    double ns;
    while (fgets(line, sizeof line, p)) {
        if (sscanf(line, "%31s %ld %ld %ld %lf", name, &games, &positions, &moves_n, &ns) != 5) continue;
        int v = variant_of(name, strlen(name));
        if (v < 0) continue;
        st[v] = (stats){games, positions, moves_n, ns * (double)positions * (double)repeats};
    }
    return pclose(p) == 0 ? 0 : -1;
}

static double ns_per_position(const stats *s, long repeats)
{
    return s->ns / ((double)s->positions * (double)repeats);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "benchmarks/oracle_games.txt";
    long repeats = argc > 2 ? atol(argv[2]) : 200;
    int only = -1;
    if (argc > 4 || repeats < 1) {
        fprintf(stderr, "usage: %s [GAMES_FILE [REPEATS [VARIANT]]]\n", argv[0]);
        return 2;
    }
    if (argc > 3 && (only = variant_of(argv[3], strlen(argv[3]))) < 0) die("argument", 3, "unknown variant \"%s\"", argv[3]);
    if (argc <= 1 && access(path, R_OK) != 0) path = "oracle_games.txt"; /* run from benchmarks/ */
    bk_init();

    const char *harness = pentobi_harness();
    stats best[BK_NUM_VARIANTS], pbest[BK_NUM_VARIANTS], round[BK_NUM_VARIANTS];
    int pentobi_ok = harness != NULL;
    for (int r = 0; r < ROUNDS; r++) {
        measure(path, repeats, only, round);
        for (int v = 0; v < BK_NUM_VARIANTS; v++)
            if (r == 0 || round[v].ns < best[v].ns) best[v] = round[v];
        if (pentobi_ok && measure_pentobi(harness, path, repeats, round) != 0) {
            fprintf(stderr, "%s failed: Pentobi not measured\n", harness);
            pentobi_ok = 0;
        }
        for (int v = 0; pentobi_ok && v < BK_NUM_VARIANTS; v++)
            if (r == 0 || round[v].ns < pbest[v].ns) pbest[v] = round[v];
    }

    printf("%s, %ld repetitions per position, start rule fixed, fastest of %d rounds per side\n", path, repeats,
           ROUNDS);
    if (pentobi_ok)
        printf("Pentobi: %s on the same file, its rounds alternating with ours\n", harness);
    else
        printf("Pentobi: not measured (its harness pentobi_movegen is not at $PENTOBI_MOVEGEN or "
               "../shared/pentobi/)\n");
    printf("%-14s %6s %9s %11s %11s %11s  %s\n", "variant", "games", "positions", "moves", "ns/pos", "Pentobi ns",
           "ratio");
    int disagree = 0;
    for (int v = 0; v < BK_NUM_VARIANTS; v++) {
        if (!best[v].positions) continue;
        double ns = ns_per_position(&best[v], repeats);
        printf("%-14s %6ld %9ld %11ld %11.1f  ", variant_names[v], best[v].games, best[v].positions, best[v].moves,
               ns);
        if (!pentobi_ok || !pbest[v].positions) {
            printf("%10s  not measured\n", "-");
        } else if (pbest[v].positions != best[v].positions || pbest[v].moves != best[v].moves) {
            printf("%10s  not compared: Pentobi timed %ld positions with %ld moves\n", "-", pbest[v].positions,
                   pbest[v].moves);
            disagree = 1;
        } else {
            double pns = ns_per_position(&pbest[v], repeats);
            printf("%10.1f  %.2fx %s than Pentobi\n", pns, ns <= pns ? pns / ns : ns / pns,
                   ns <= pns ? "faster" : "slower");
        }
    }
    printf("checksum %016llx\n", (unsigned long long)checksum);
    if (disagree) fprintf(stderr, "the two move generators disagree on these games\n");
    return disagree;
}

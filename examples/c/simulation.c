/* A "simulation" coupled to its in-situ analysis through a handoff channel: every time step it
 * computes a 2-D heat field (explicit diffusion of a hot square, cold edges) straight into a
 * block loaned from the channel, and publishes it. No copy: the analysis process reads the
 * same memory (examples/python/analysis.py; see the README for the two commands).
 *
 *   cc examples/c/simulation.c -o simulation $(pkg-config --cflags --libs handoff)
 *   ./simulation [STEPS=200] [NX=256] [NY=256] [NAME=field]
 *
 * Each block is NY rows of NX doubles (row-major), block i is time step i.
 *
 * Every exit path frees the channel, which removes its shared-memory segment: an error (a
 * dead analysis is "analysis died: ..."), and SIGINT/SIGTERM/SIGHUP, which only set a flag
 * that the step loop checks (waits for a free block last 100 ms at a time, so the flag is
 * seen while the analysis holds every block); the exit code is then 128 + the signal. */
#include <handoff.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The signal that asked us to stop (0: none). */
static volatile sig_atomic_t stop_signal = 0;

static void on_stop(int sig) { stop_signal = sig; }

/* Reports a failed call and leaves through the cleanup at the end of main. */
#define CHECK(call)                                                                         \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        if (rc_ != HANDOFF_OK) {                                                            \
            report(rc_);                                                                    \
            goto out;                                                                       \
        }                                                                                   \
    } while (0)

static void report(int rc) {
    fprintf(stderr, "simulation: %s%s: %s\n", rc == HANDOFF_E_PEER_GONE ? "analysis died: " : "",
            handoff_error_name(rc), handoff_last_error_message());
}

int main(int argc, char **argv) {
    long steps = argc > 1 ? atol(argv[1]) : 200;
    size_t nx = argc > 2 ? (size_t)atol(argv[2]) : 256;
    size_t ny = argc > 3 ? (size_t)atol(argv[3]) : 256;
    const char *name = argc > 4 ? argv[4] : "field";
    if (steps < 1 || nx < 3 || ny < 3) {
        fprintf(stderr, "usage: simulation [STEPS>=1] [NX>=3] [NY>=3] [NAME]\n");
        return 2;
    }
    size_t bytes = nx * ny * sizeof(double);
    double *u = calloc(nx * ny, sizeof(double));
    if (!u) return 1;
    /* A hot square (16x16 cells at most) in the middle; edges stay at 0. */
    size_t hx = nx / 2 > 8 ? 8 : nx / 2, hy = ny / 2 > 8 ? 8 : ny / 2;
    for (size_t y = ny / 2 - hy; y < ny / 2 + hy; y++)
        for (size_t x = nx / 2 - hx; x < nx / 2 + hx; x++) u[y * nx + x] = 100.0;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    int status = 1;
    handoff_channel *ch = NULL;
    handoff_producer *tx = NULL;
    const char *full;
    CHECK(handoff_channel_create(name, bytes, 4, &ch));
    CHECK(handoff_channel_name(ch, &full));
    printf("simulation: channel %s, %ld steps of a %zux%zu field (%zu bytes per block)\n", full,
           steps, nx, ny, bytes);
    fflush(stdout);
    CHECK(handoff_producer_new(ch, &tx));

    for (long t = 0; t < steps && !stop_signal; t++) {
        void *block = NULL;
        /* Waits while the analysis still holds every block (at most 60 s), 100 ms at a time. */
        int rc = HANDOFF_E_TIMEOUT;
        for (int slice = 0; slice < 600 && rc == HANDOFF_E_TIMEOUT && !stop_signal; slice++)
            rc = handoff_producer_loan_timeout(tx, 100000000ULL, &block);
        if (stop_signal) break;
        CHECK(rc);
        double *next = block;
        /* One explicit diffusion step, written in place into the shared block. */
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < nx; x++) {
                size_t i = y * nx + x;
                if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
                    next[i] = 0.0;
                } else {
                    next[i] = u[i] + 0.2 * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] - 4 * u[i]);
                }
            }
        memcpy(u, next, bytes); /* the simulation's own state for the next step */
        CHECK(handoff_producer_publish(tx));
    }
    if (stop_signal) {
        fprintf(stderr, "simulation: stopped by signal %d; the channel is removed\n",
                (int)stop_signal);
        status = 128 + stop_signal;
    } else {
        printf("simulation: done\n");
        status = 0;
    }
out:
    /* Closing the producer tells the analysis no more steps come (after it read them all);
     * freeing the channel removes its segment. */
    if (tx && handoff_producer_free(tx) != HANDOFF_OK && status == 0) status = 1;
    if (ch && handoff_channel_free(ch) != HANDOFF_OK && status == 0) status = 1;
    free(u);
    return status;
}

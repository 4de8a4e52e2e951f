/* A "simulation" coupled to its in-situ analysis through a handoff channel: every time step it
 * computes a 2-D heat field (explicit diffusion of a hot square, cold edges) straight into a
 * block loaned from the channel, and publishes it. No copy: the analysis process reads the
 * same memory (examples/python/analysis.py; see the README for the two commands).
 *
 *   cc examples/c/simulation.c -o simulation $(pkg-config --cflags --libs handoff)
 *   ./simulation [STEPS=200] [NX=256] [NY=256] [NAME=field]
 *
 * Each block is NY rows of NX doubles (row-major), block i is time step i. */
#include <handoff.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        if (rc_ != HANDOFF_OK) {                                                            \
            fprintf(stderr, "simulation: %s: %s\n", handoff_error_name(rc_),                \
                    handoff_last_error_message());                                          \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

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

    handoff_channel *ch;
    handoff_producer *tx;
    const char *full;
    const handoff_wait wait = {HANDOFF_WAIT_ADAPTIVE, 0};
    CHECK(handoff_channel_create(name, bytes, 4, &ch));
    CHECK(handoff_channel_name(ch, &full));
    printf("simulation: channel %s, %ld steps of a %zux%zu field (%zu bytes per block)\n", full,
           steps, nx, ny, bytes);
    fflush(stdout);
    CHECK(handoff_producer_new(ch, &tx));

    for (long t = 0; t < steps; t++) {
        void *block;
        /* Waits while the analysis still holds every block (at most 60 s). */
        CHECK(handoff_producer_loan(tx, wait, 60000000000LL, &block));
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
    /* Closing the producer tells the analysis no more steps come (after it read them all). */
    CHECK(handoff_producer_free(tx));
    CHECK(handoff_channel_free(ch));
    free(u);
    printf("simulation: done\n");
    return 0;
}

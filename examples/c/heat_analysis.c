/* In-situ analysis of examples/fortran/heat.f90: receives every time step's temperature field
 * from the channel (the simulation's own memory, read in place: no copy), sums it and checks
 * that the total heat stays what it was at step 0 — the simulation's edges are insulated, so
 * only round-off may change it.
 *
 *   cc examples/c/heat_analysis.c -o heat_analysis $(pkg-config --cflags --libs handoff) -lm
 *   ./heat_analysis [NX=128] [NY=96] [NAME=heat] [EVERY=20]
 *
 * Exit status: 0 conserved, 1 a handoff error, 2 bad arguments or the simulation's field has
 * another shape, 3 the simulation died, 4 the total heat drifted beyond round-off. Every path
 * frees the handles it got: the last process to let go of a channel whose creator died
 * removes its name from /dev/shm (a SIGKILLed simulation cannot). */
#include <handoff.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Relative drift allowed: the sum of NX*NY doubles after STEPS steps carries ~1e-16 * cells
 * * steps of rounding; a real leak (one edge cell's flux) is ~1e-3. */
#define TOLERANCE 1e-9

int main(int argc, char **argv) {
    size_t nx = argc > 1 ? (size_t)atol(argv[1]) : 128;
    size_t ny = argc > 2 ? (size_t)atol(argv[2]) : 96;
    const char *name = argc > 3 ? argv[3] : "heat";
    long every = argc > 4 ? atol(argv[4]) : 20;
    if (nx < 1 || ny < 1 || every < 1) {
        fprintf(stderr, "usage: heat_analysis [NX] [NY] [NAME] [EVERY]\n");
        return 2;
    }
    handoff_channel *ch;
    handoff_consumer *rx;
    /* Waits up to 30 s for the simulation to create the channel. */
    int rc = handoff_channel_open(name, nx * ny * sizeof(double), 4, 30000000000LL, &ch);
    if (rc == HANDOFF_E_MISMATCH) {
        fprintf(stderr, "analysis: the simulation's field is not %zu x %zu doubles: %s\n", nx, ny,
                handoff_last_error_message());
        return 2;
    }
    if (rc != HANDOFF_OK) {
        fprintf(stderr, "analysis: %s: %s\n", handoff_error_name(rc), handoff_last_error_message());
        return 1;
    }
    rc = handoff_consumer_new(ch, &rx);
    if (rc != HANDOFF_OK) {
        fprintf(stderr, "analysis: %s: %s\n", handoff_error_name(rc), handoff_last_error_message());
        handoff_channel_free(ch);
        return 1;
    }
    /* Each receive waits adaptively, at most 60 s (the consumer's patience). */
    const handoff_wait adaptive = {HANDOFF_WAIT_ADAPTIVE, 0};
    handoff_consumer_set_patience(rx, adaptive, 60000000000LL);
    double total0 = 0, worst = 0;
    long steps = 0;
    int status = 0;
    for (;;) {
        const void *block;
        uint64_t seq;
        rc = handoff_consumer_recv(rx, &block, &seq);
        if (rc == HANDOFF_E_CLOSED) break; /* the simulation finished; every step was read */
        if (rc == HANDOFF_E_PEER_GONE) {
            fprintf(stderr, "analysis: the simulation died after %ld steps: %s\n", steps,
                    handoff_last_error_message());
            status = 3;
            break;
        }
        if (rc != HANDOFF_OK) {
            fprintf(stderr, "analysis: step %ld: %s: %s\n", steps, handoff_error_name(rc),
                    handoff_last_error_message());
            status = 1;
            break;
        }
        const double *u = block; /* NY rows of NX doubles, in shared memory */
        double total = 0, hottest = 0;
        for (size_t i = 0; i < nx * ny; i++) {
            total += u[i];
            if (u[i] > hottest) hottest = u[i];
        }
        handoff_consumer_release(rx); /* u is the simulation's again from here on */
        if (seq == 0) total0 = total;
        double drift = total0 != 0 ? fabs(total - total0) / fabs(total0) : fabs(total);
        if (drift > worst) worst = drift;
        if ((long)seq % every == 0)
            printf("step %5llu: total heat %.6f, hottest %.4f, drift %.1e\n", (unsigned long long)seq,
                   total, hottest, drift);
        fflush(stdout); /* the step lines and an error on stderr stay in order in one log */
        if (drift > TOLERANCE) {
            fprintf(stderr,
                    "analysis: step %llu: total heat %.9g differs from step 0's %.9g by %.1e "
                    "(relative), beyond round-off: heat is not conserved\n",
                    (unsigned long long)seq, total, total0, drift);
            status = 4;
            break;
        }
        steps++;
    }
    handoff_consumer_free(rx);
    handoff_channel_free(ch);
    if (status != 0) return status;
    printf("analysis: %ld steps, total heat %.6f conserved within %.1e (relative)\n", steps, total0,
           worst);
    return 0;
}

/* The C side of the Fortran receive benchmark (scripts/fortran-test --bench; a benchmark, not
 * a test): the producer both consumers receive from, and the C consumer bench_recv.f90 is
 * compared with.
 *
 *   bench_recv_c produce SHORTNAME BYTES REPS   creates a 2-block channel, prints "name=<full>",
 *                                               fills each block with word j = j * 0.5 once,
 *                                               then per rep: loan, stamp word 0 = rep, publish
 *   bench_recv_c consume NAME BYTES REPS        per rep: receive, sum the block's doubles in
 *                                               place (a plain loop), check the sum, release;
 *                                               prints "median_ns=<t> min_ns=<t>" of receive +
 *                                               sum + release (the first 10% dropped)
 *
 * The producer only stamps one word per rep, so the ring is always full: the consumer's time
 * is its receive and its read, not a wait. */
#include <handoff.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        if (rc_ != HANDOFF_OK) {                                                            \
            fprintf(stderr, "bench_recv_c: %s: %s\n", handoff_error_name(rc_),              \
                    handoff_last_error_message());                                          \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

static const uint64_t MINUTE = 60000000000ULL;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: see the comment at the top of bench_recv.c\n");
        return 2;
    }
    size_t bytes = strtoull(argv[3], 0, 10), words = bytes / 8;
    long reps = atol(argv[4]);
    handoff_channel *ch;
    if (!strcmp(argv[1], "produce")) {
        handoff_producer *tx;
        const char *full;
        CHECK(handoff_channel_create(argv[2], bytes, 2, &ch));
        CHECK(handoff_channel_name(ch, &full));
        printf("name=%s\n", full);
        fflush(stdout);
        CHECK(handoff_producer_new(ch, &tx));
        for (long rep = 0; rep < reps; rep++) {
            void *p;
            CHECK(handoff_producer_loan_timeout(tx, MINUTE, &p));
            double *w = p;
            if (rep < 2)
                for (size_t j = 1; j < words; j++) w[j] = (double)j * 0.5;
            w[0] = (double)rep;
            CHECK(handoff_producer_publish(tx));
        }
        CHECK(handoff_producer_free(tx));
        CHECK(handoff_channel_free(ch));
        return 0;
    }
    if (strcmp(argv[1], "consume")) return 2;
    handoff_consumer *rx;
    CHECK(handoff_channel_open(argv[2], bytes, 2, 10000000000LL, &ch));
    CHECK(handoff_consumer_new(ch, &rx));
    long long *t = calloc((size_t)reps, sizeof *t);
    double tail = 0.5 * ((double)words * (double)(words - 1) / 2.0);
    for (long rep = 0; rep < reps; rep++) {
        const void *p;
        long long t0 = now_ns();
        CHECK(handoff_consumer_recv_timeout(rx, MINUTE, &p, NULL));
        const double *w = p;
        double s = 0;
        for (size_t j = 0; j < words; j++) s += w[j];
        if (s - w[0] != tail || w[0] != (double)rep) {
            fprintf(stderr, "bench_recv_c: rep %ld: wrong sum %.17g\n", rep, s);
            return 1;
        }
        CHECK(handoff_consumer_release(rx));
        t[rep] = now_ns() - t0;
    }
    long skip = reps / 10;
    qsort(t + skip, (size_t)(reps - skip), sizeof *t, cmp);
    printf("median_ns=%lld min_ns=%lld\n", t[skip + (reps - skip) / 2], t[skip]);
    CHECK(handoff_consumer_free(rx));
    CHECK(handoff_channel_free(ch));
    return 0;
}

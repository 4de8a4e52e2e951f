/* Put-with-signal: the data is visible when the signal is (every byte of every round checked
 * after the wait), SET and ADD, typed, sized and mem forms, nbi, signal_fetch, and
 * signal_wait_until with every comparison. Ring: PE r sends to r+1. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#define ROUNDS 3000
#define BIG 4096

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    uint64_t *sig = shmem_calloc(4, sizeof(uint64_t));
    long *data = shmem_calloc(BIG, sizeof(long));
    long *ack = shmem_calloc(1, sizeof(long));
    long buf[BIG];
    shmem_barrier_all();

    /* SET: round r carries data r everywhere; the receiver checks all of it once the signal
     * says r. Sizes vary from 1 word to BIG words. The sender waits for an ack before
     * overwriting, so one message is in flight per pair. */
    for (long r = 1; r <= ROUNDS; r++) {
        size_t len = 1 + (size_t)(r * 37) % BIG;
        for (size_t i = 0; i < len; i++) buf[i] = r * 1000003L + (long)i;
        if (r % 3 == 0)
            shmem_long_put_signal(data, buf, len, &sig[0], (uint64_t)r, SHMEM_SIGNAL_SET, right);
        else if (r % 3 == 1)
            shmem_putmem_signal(data, buf, len * sizeof(long), &sig[0], (uint64_t)r, SHMEM_SIGNAL_SET, right);
        else
            shmem_put64_signal_nbi(data, buf, len, &sig[0], (uint64_t)r, SHMEM_SIGNAL_SET, right);
        uint64_t v = shmem_signal_wait_until(&sig[0], SHMEM_CMP_GE, (uint64_t)r);
        CHECK(v == (uint64_t)r, "signal %lu in round %ld", (unsigned long)v, r);
        for (size_t i = 0; i < len; i++)
            CHECK(data[i] == r * 1000003L + (long)i, "round %ld word %zu: %ld", r, i, data[i]);
        shmem_long_atomic_set(ack, r, left);
        shmem_long_wait_until(ack, SHMEM_CMP_GE, r);
    }
    shmem_barrier_all();

    /* ADD: every PE adds its rank + 1 to PE 0's signal with a small put each; PE 0 waits for
     * the sum n(n+1)/2 and then sees every PE's word. */
    long word = 77L * (me + 1);
    shmem_long_put_signal_nbi(&data[me], &word, 1, &sig[1], (uint64_t)(me + 1), SHMEM_SIGNAL_ADD, 0);
    if (me == 0) {
        uint64_t want = (uint64_t)n * (n + 1) / 2;
        CHECK(shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, want) == want, "add total");
        for (int p = 0; p < n; p++) CHECK(data[p] == 77L * (p + 1), "add data of PE %d", p);
        CHECK(shmem_signal_fetch(&sig[1]) == want, "signal_fetch");
    }
    shmem_barrier_all();

    /* every comparison, each satisfied by the current value */
    sig[2] = 10;
    CHECK(shmem_signal_wait_until(&sig[2], SHMEM_CMP_EQ, 10) == 10, "EQ");
    CHECK(shmem_signal_wait_until(&sig[2], SHMEM_CMP_NE, 11) == 10, "NE");
    CHECK(shmem_signal_wait_until(&sig[2], SHMEM_CMP_GT, 9) == 10, "GT");
    CHECK(shmem_signal_wait_until(&sig[2], SHMEM_CMP_GE, 10) == 10, "GE");
    CHECK(shmem_signal_wait_until(&sig[2], SHMEM_CMP_LT, 11) == 10, "LT");
    CHECK(shmem_signal_wait_until(&sig[2], SHMEM_CMP_LE, 10) == 10, "LE");

    /* signal_set / signal_add (1.6) and a sleeping waiter woken by the signal */
    shmem_barrier_all();
    shmem_signal_add(&sig[3], 5, right);
    shmem_signal_add(&sig[3], 6, right);
    CHECK(shmem_signal_wait_until(&sig[3], SHMEM_CMP_EQ, 11) == 11, "signal_add");
    shmem_barrier_all();
    shmem_signal_set(&sig[3], 2, right);
    CHECK(shmem_signal_wait_until(&sig[3], SHMEM_CMP_EQ, 2) == 2, "signal_set");
    if (me == 0) printf("OK signal %d PEs\n", n);
    shmem_finalize();
    return 0;
}

/* Point-to-point synchronization: wait_until (every comparison, several types),
 * wait_until_all/any/some and their _vector forms, test*, status exclusion, and the fairness
 * of wait_until_any: with every word true, K calls return K different indices (a scan that
 * always starts at 0 would return 0 every time). */
#include <shmem.h>
#include <stdint.h>
#include "check.h"

#define K 8

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int *iv = shmem_calloc(1, sizeof(int));
    short *sv = shmem_calloc(1, sizeof(short));
    uint64_t *uv = shmem_calloc(1, sizeof(uint64_t));
    long *flags = shmem_calloc(K, sizeof(long));
    long *from = shmem_calloc(n, sizeof(long)); /* from[p]: set by PE p */
    shmem_barrier_all();

    /* typed wait_until woken by a remote p / AMO */
    shmem_int_p(iv, 5, right);
    shmem_wait_until(iv, SHMEM_CMP_EQ, 5);
    shmem_short_p(sv, -3, right);
    shmem_short_wait_until(sv, SHMEM_CMP_LT, 0);
    CHECK(*sv == -3, "short");
    shmem_uint64_atomic_add(uv, 1ull << 40, right);
    shmem_uint64_wait_until(uv, SHMEM_CMP_GT, 1ull << 39);
    shmem_long_wait(&flags[0], 1); /* deprecated: until != 1 (it is 0) */
    CHECK(shmem_int_test(iv, SHMEM_CMP_NE, 5) == 0 && shmem_int_test(iv, SHMEM_CMP_LE, 5) == 1, "test");
    CHECK(shmem_test(iv, SHMEM_CMP_GE, 6) == 0 && shmem_test(iv, SHMEM_CMP_GT, 4) == 1, "generic test");
    shmem_barrier_all();

    /* all / some / any over words set by every PE */
    shmem_long_p(&from[me], me + 1, 0);
    if (me == 0) {
        shmem_long_wait_until_all(from, n, NULL, SHMEM_CMP_GT, 0);
        for (int p = 0; p < n; p++) CHECK(from[p] == p + 1, "all: from[%d]", p);
        size_t idx[64];
        size_t k = shmem_long_wait_until_some(from, n, idx, NULL, SHMEM_CMP_GE, 1);
        CHECK(k == (size_t)n, "some found %zu", k);
        for (size_t i = 0; i < k; i++) CHECK(idx[i] == i, "some index order");
        long want[64];
        for (int p = 0; p < n; p++) want[p] = p + 1;
        shmem_long_wait_until_all_vector(from, n, NULL, SHMEM_CMP_EQ, want);
        CHECK(shmem_long_test_all_vector(from, n, NULL, SHMEM_CMP_EQ, want) == 1, "test_all_vector");
        if (n > 1) { /* the last word mismatches, the others match */
            want[n - 1] = 99;
            CHECK(shmem_long_test_all_vector(from, n, NULL, SHMEM_CMP_EQ, want) == 0, "vector mismatch");
            CHECK(shmem_long_wait_until_any_vector(from, n, NULL, SHMEM_CMP_EQ, want) != (size_t)(n - 1), "any_vector");
            k = shmem_long_test_some_vector(from, n, idx, NULL, SHMEM_CMP_EQ, want);
            CHECK(k == (size_t)(n - 1), "test_some_vector %zu", k);
            k = shmem_long_wait_until_some_vector(from, n, idx, NULL, SHMEM_CMP_NE, want);
            CHECK(k == 1 && idx[0] == (size_t)(n - 1), "wait_some_vector");
            CHECK(shmem_long_test_any_vector(from, n, NULL, SHMEM_CMP_EQ, want) < (size_t)(n - 1), "test_any_vector");
        }
        /* status: excluded words are never reported */
        int status[64] = {0};
        for (int p = 0; p < n; p++) status[p] = (p != n - 1);
        CHECK(shmem_long_wait_until_any(from, n, status, SHMEM_CMP_GT, 0) == (size_t)(n - 1), "status any");
        CHECK(shmem_long_test_some(from, n, idx, status, SHMEM_CMP_GT, 0) == 1 && idx[0] == (size_t)(n - 1), "status some");
        for (int p = 0; p < n; p++) status[p] = 1;
        CHECK(shmem_long_wait_until_any(from, n, status, SHMEM_CMP_GT, 0) == SIZE_MAX, "all excluded");
        CHECK(shmem_long_wait_until_some(from, n, idx, status, SHMEM_CMP_GT, 0) == 0, "some excluded");
        CHECK(shmem_long_test_any(from, n, NULL, SHMEM_CMP_GT, 100) == SIZE_MAX, "test_any none");
        CHECK(shmem_long_test_all(from, n, NULL, SHMEM_CMP_GT, 0) == 1, "test_all");
    }
    shmem_barrier_all();

    /* fairness: every flag true; K calls of wait_until_any give K distinct indices */
    for (int i = 0; i < K; i++) flags[i] = 1;
    int hits[K] = {0};
    for (int i = 0; i < K; i++) {
        size_t j = shmem_long_wait_until_any(flags, K, NULL, SHMEM_CMP_EQ, 1);
        CHECK(j < K, "any index %zu", j);
        hits[j]++;
    }
    for (int i = 0; i < K; i++) CHECK(hits[i] == 1, "wait_until_any unfair: index %d returned %d times of %d", i, hits[i], K);
    int thits[K] = {0};
    for (int i = 0; i < K; i++) thits[shmem_long_test_any(flags, K, NULL, SHMEM_CMP_EQ, 1)]++;
    for (int i = 0; i < K; i++) CHECK(thits[i] == 1, "test_any unfair at %d", i);

    /* under traffic: every other PE raises its request word on PE 0 again after each
     * service; PE 0 serves R requests with wait_until_any; nobody starves (each served). */
    shmem_barrier_all();
    long *req = shmem_calloc(n, sizeof(long));
    long *done = shmem_calloc(1, sizeof(long));
    long *served = shmem_calloc(1, sizeof(long));
    shmem_barrier_all();
    const int R = 400;
    if (n > 1) {
        if (me == 0) {
            int count[64] = {0};
            int status[64] = {0};
            status[0] = 1;
            for (int i = 0; i < R; i++) {
                size_t p = shmem_long_wait_until_any(req, n, status, SHMEM_CMP_NE, 0);
                req[p] = 0;
                count[p]++;
                shmem_long_atomic_inc(served, (int)p);
            }
            for (int p = 1; p < n; p++) {
                shmem_long_atomic_set(done, 1, p);
                shmem_long_atomic_inc(served, p);
            }
            for (int p = 1; p < n; p++) CHECK(count[p] >= 1, "PE %d starved: served %d of %d", p, count[p], R);
        } else {
            long mine = 0;
            shmem_long_atomic_set(&req[me], 1, 0);
            for (;;) {
                shmem_long_wait_until(served, SHMEM_CMP_NE, mine);
                if (shmem_long_atomic_fetch(done, me)) break;
                mine = shmem_long_atomic_fetch(served, me);
                shmem_long_atomic_set(&req[me], 1, 0);
            }
        }
    }
    /* Polling without a wait: a PE spinning on shmem_test, then on shmem_signal_fetch, sees
     * its left neighbour's put and put-with-signal land (over MPI RMA the test must let MPI
     * progress: MPICH's RMA needs the target to call MPI). */
    {
        shmem_barrier_all();
        long *tflag = shmem_calloc(1, sizeof(long));
        uint64_t *tsig = shmem_calloc(1, sizeof(uint64_t));
        long *tdata = shmem_calloc(1, sizeof(long));
        long one = 1, val = 100 + left;
        shmem_long_put(tflag, &one, 1, right);
        long spins = 0;
        while (!shmem_long_test(tflag, SHMEM_CMP_EQ, 1)) spins++;
        shmem_long_put_signal(tdata, &(long){100 + me}, 1, tsig, 1, SHMEM_SIGNAL_SET, right);
        while (shmem_signal_fetch(tsig) == 0) spins++;
        CHECK(*tdata == val, "data with the signal: %ld (after %ld polls)", *tdata, spins);
        shmem_barrier_all();
    }
    (void)left;
    if (me == 0) printf("OK wait %d PEs\n", n);
    shmem_finalize();
    return 0;
}

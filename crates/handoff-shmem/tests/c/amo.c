/* AMOs: every family (extended, standard, bitwise, fetching nbi, deprecated names) on the
 * standard types, with contention from every PE; results against closed forms. */
#include <shmem.h>
#include <stdint.h>
#include "check.h"

#define K 2000

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n;
    long *ctr = shmem_calloc(1, sizeof(long));
    int *ictr = shmem_calloc(1, sizeof(int));
    uint64_t *bits = shmem_calloc(1, sizeof(uint64_t));
    unsigned int *ubits = shmem_calloc(1, sizeof(unsigned int));
    long *lock = shmem_calloc(1, sizeof(long));
    long *inlock = shmem_calloc(1, sizeof(long));
    long *seen = shmem_malloc(n * K * sizeof(long));
    shmem_barrier_all();

    /* contention: every PE fetch_incs PE 0's counter K times; the values seen are distinct */
    long mine[K];
    for (int i = 0; i < K; i++) mine[i] = shmem_long_atomic_fetch_inc(ctr, 0);
    for (int i = 1; i < K; i++) CHECK(mine[i] > mine[i - 1], "fetch_inc increases");
    shmem_atomic_add(ictr, 3, 0);     /* generic, int */
    shmem_int_atomic_inc(ictr, 0);
    shmem_barrier_all();
    CHECK(shmem_long_atomic_fetch(ctr, 0) == (long)n * K, "counter %ld", shmem_atomic_fetch(ctr, 0));
    CHECK(shmem_atomic_fetch(ictr, 0) == 4 * n, "int counter");
    /* every value 0..nK-1 was fetched exactly once: gather them on PE 0 */
    shmem_putmem(&seen[me * K], mine, sizeof mine, 0);
    shmem_barrier_all();
    if (me == 0) {
        char *hit = calloc(n * K, 1);
        for (int i = 0; i < n * K; i++) {
            CHECK(seen[i] >= 0 && seen[i] < (long)n * K && !hit[seen[i]], "value %ld twice", seen[i]);
            hit[seen[i]] = 1;
        }
        free(hit);
    }
    shmem_barrier_all();

    /* bitwise: each PE sets its bit with or, then clears it again with and / xor */
    shmem_uint64_atomic_or(bits, (uint64_t)1 << me, 0);
    shmem_atomic_fetch_or(ubits, 1u << me, right);
    shmem_barrier_all();
    CHECK(shmem_uint64_atomic_fetch(bits, 0) == ((uint64_t)1 << n) - 1, "or");
    CHECK(*ubits == (1u << ((me + n - 1) % n)), "fetch_or %u", *ubits);
    shmem_barrier_all(); /* everyone checked before anyone clears */
    uint64_t before = shmem_uint64_atomic_fetch_xor(bits, (uint64_t)1 << me, 0);
    CHECK(before & ((uint64_t)1 << me), "xor saw my bit");
    shmem_barrier_all();
    CHECK(shmem_atomic_fetch(bits, 0) == 0, "xor cleared all");
    shmem_barrier_all();
    shmem_uint64_atomic_set(bits, ~(uint64_t)0, 0);
    shmem_barrier_all();
    shmem_uint64_atomic_and(bits, ~((uint64_t)1 << me), 0);
    shmem_barrier_all();
    CHECK(shmem_atomic_fetch(bits, 0) == ~(((uint64_t)1 << n) - 1), "and");
    shmem_barrier_all();
    unsigned int fa = shmem_uint_atomic_fetch_and(ubits, 0, right);
    CHECK(fa == 1u << me, "fetch_and returns old %u", fa);
    shmem_barrier_all();

    /* compare_swap as a lock: the critical section's non-atomic counter is never torn */
    for (int i = 0; i < 100; i++) {
        while (shmem_long_atomic_compare_swap(lock, 0, me + 1, 0) != 0) {}
        long v = shmem_long_g(inlock, 0);
        shmem_long_p(inlock, v + 1, 0);
        shmem_quiet();
        CHECK(shmem_long_atomic_swap(lock, 0, 0) == me + 1, "lock held by me");
    }
    shmem_barrier_all();
    CHECK(shmem_long_g(inlock, 0) == 100L * n, "critical sections %ld", shmem_long_g(inlock, 0));
    /* the same with the distributed lock calls */
    long *dlock = shmem_calloc(1, sizeof(long));
    shmem_barrier_all();
    for (int i = 0; i < 100; i++) {
        shmem_set_lock(dlock);
        long v = shmem_long_g(inlock, 0);
        shmem_long_p(inlock, v + 1, 0);
        shmem_clear_lock(dlock);
    }
    shmem_barrier_all();
    CHECK(shmem_long_g(inlock, 0) == 200L * n, "locked sections %ld", shmem_long_g(inlock, 0));
    if (me == 0) {
        CHECK(shmem_test_lock(dlock) == 0, "test_lock takes a free lock");
        shmem_clear_lock(dlock);
    }
    shmem_barrier_all();

    /* extended AMOs on float and double: fetch / set / swap move the bits */
    double *dd = shmem_calloc(1, sizeof(double));
    float *ff = shmem_calloc(1, sizeof(float));
    shmem_barrier_all();
    shmem_atomic_set(dd, 2.5 * me, right);
    shmem_float_atomic_set(ff, -1.5f * me, right);
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    CHECK(shmem_double_atomic_fetch(dd, me) == 2.5 * left, "double set");
    CHECK(shmem_atomic_swap(ff, 7.0f, me) == -1.5f * left, "float swap");
    CHECK(*ff == 7.0f, "float swapped");

    /* fetching nbi AMOs and the other typed families */
    shmem_barrier_all();
    int64_t *q = shmem_calloc(1, sizeof(int64_t));
    shmem_barrier_all();
    int64_t old = -1;
    shmem_int64_atomic_fetch_add_nbi(&old, q, 10, right);
    shmem_quiet();
    shmem_barrier_all();
    CHECK(old == 0 && *q == 10, "fetch_add_nbi old %ld q %ld", (long)old, (long)*q);
    shmem_barrier_all();
    int64_t f2 = 0;
    shmem_int64_atomic_fetch_inc_nbi(&f2, q, right);
    shmem_int64_atomic_compare_swap_nbi(&old, q, 11, 100, right);
    shmem_int64_atomic_fetch_nbi(&f2, q, right);
    shmem_quiet();
    CHECK(old == 11 && f2 == 100, "nbi chain old %ld f2 %ld", (long)old, (long)f2);
    uint32_t u32 = 0;
    shmem_barrier_all();
    shmem_uint32_atomic_fetch_xor_nbi(&u32, (uint32_t *)ubits, 0xFF, me);
    size_t *sz = shmem_calloc(1, sizeof(size_t));
    ptrdiff_t *pd = shmem_calloc(1, sizeof(ptrdiff_t));
    shmem_barrier_all();
    shmem_size_atomic_add(sz, 5, 0);
    shmem_ptrdiff_atomic_add(pd, -2, 0);
    shmem_barrier_all();
    CHECK(*ubits == 0xFF, "xor_nbi");
    if (me == 0) CHECK(*sz == 5u * n && *pd == -2L * n, "size/ptrdiff add");

    /* deprecated 1.3 names */
    shmem_barrier_all();
    int *oi = shmem_calloc(1, sizeof(int));
    shmem_barrier_all();
    shmem_int_inc(oi, 0);
    shmem_int_add(oi, 2, 0);
    int f1 = shmem_int_fadd(oi, 1, 0);
    int f0 = shmem_int_finc(oi, 0);
    CHECK(f0 > f1, "finc after fadd");
    shmem_barrier_all();
    CHECK(shmem_int_fetch(oi, 0) == 5 * n, "deprecated sum %d", shmem_int_fetch(oi, 0));
    shmem_barrier_all();
    if (me == 0) CHECK(shmem_int_cswap(oi, 5 * n, -1, 0) == 5 * n && *oi == -1, "cswap");
    shmem_barrier_all();
    shmem_int_swap(oi, 9, 0);
    shmem_barrier_all();
    CHECK(shmem_int_g(oi, 0) == 9, "swap");
    if (me == 0) printf("OK amo %d PEs\n", n);
    shmem_finalize();
    return 0;
}

/* Symmetric static data: global and static variables (data and bss) as the symmetric
 * objects of every kind of call — put/get, AMOs, put-with-signal, waits, collectives with
 * static pSync/pWrk, locks, counting puts, shmem_ptr — with a value set before shmem_init
 * that must survive it, and a big bss array spanning many pages. Built as PIE and non-PIE,
 * against the shared and the static library (tests/shmem.rs). */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#define BIG 100000 /* longs: ~800 KB of bss, many pages */

long initialized_global = 12345;      /* .data */
static long big[BIG];                 /* .bss */
static long counter;                  /* AMO target */
static uint64_t sig;                  /* signal word */
static long flag;                     /* wait_until target */
static long lock;                     /* shmem_set_lock */
static long in_lock;                  /* checked under the lock */
static long before_init;              /* written before shmem_init */
static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static long red_src[4], red_dst[4];
static long bc_src[8], bc_dst[8];
static char ct_buf[64];

int main(void) {
    before_init = 4242;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) pSync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    CHECK(before_init == 4242, "a value set before shmem_init was lost: %ld", before_init);
    CHECK(initialized_global == 12345, "initialized data lost: %ld", initialized_global);
    CHECK(shmem_addr_accessible(&big[BIG - 1], right), "a static is not accessible");

    /* shmem_align: absolutely aligned addresses, above the page size too */
    for (int sh = 6; sh <= 22; sh += 4) {
        size_t al = (size_t)1 << sh;
        char *a = shmem_align(al, 100);
        CHECK(a != NULL && ((uintptr_t)a & (al - 1)) == 0, "shmem_align(%zu) = %p", al, (void *)a);
        a[99] = 1;
        shmem_free(a);
    }

    /* put/get on the big bss array: every page */
    for (long i = 0; i < BIG; i++) big[i] = -1;
    shmem_barrier_all();
    static long row[BIG];
    for (long i = 0; i < BIG; i++) row[i] = me * 1000000L + i;
    shmem_long_put(big, row, BIG, right);
    shmem_barrier_all();
    for (long i = 0; i < BIG; i += 997)
        CHECK(big[i] == left * 1000000L + i, "big[%ld] = %ld", i, big[i]);
    CHECK(big[BIG - 1] == left * 1000000L + BIG - 1, "last = %ld", big[BIG - 1]);
    long g = shmem_long_g(&initialized_global, right);
    CHECK(g == 12345, "g of a global = %ld", g);
    shmem_barrier_all();
    shmem_long_p(&initialized_global, 100 + me, right);
    shmem_barrier_all();
    CHECK(initialized_global == 100 + left, "p into a global: %ld", initialized_global);

    /* AMOs: every PE adds its rank + 1 to PE 0's counter */
    shmem_long_atomic_add(&counter, me + 1, 0);
    shmem_barrier_all();
    if (me == 0) CHECK(counter == (long)n * (n + 1) / 2, "counter = %ld", counter);
    shmem_barrier_all();
    long old = shmem_long_atomic_fetch_inc(&counter, 0);
    (void)old;
    shmem_barrier_all();
    if (me == 0) CHECK(counter == (long)n * (n + 1) / 2 + n, "counter = %ld", counter);

    /* put-with-signal into static data, waited on with signal_wait_until */
    static long payload[16], got[16];
    for (int i = 0; i < 16; i++) payload[i] = me * 100 + i;
    shmem_barrier_all();
    shmem_putmem_signal(got, payload, sizeof payload, &sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(&sig, SHMEM_CMP_GE, 1);
    for (int i = 0; i < 16; i++) CHECK(got[i] == left * 100 + i, "got[%d] = %ld", i, got[i]);

    /* wait_until on a static flag set by the left neighbour with p */
    shmem_long_p(&flag, me + 1000 + 1, right);
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, left + 1000 + 1);

    /* collectives with static pSync/pWrk, sources and destinations */
    for (int i = 0; i < 4; i++) red_src[i] = me + i;
    shmem_barrier_all();
    shmem_long_sum_to_all(red_dst, red_src, 4, 0, 0, n, pWrk, pSync);
    for (int i = 0; i < 4; i++)
        CHECK(red_dst[i] == (long)n * (n - 1) / 2 + (long)n * i, "sum[%d] = %ld", i, red_dst[i]);
    shmem_barrier_all(); /* pSync reuse */
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, 4);
    CHECK(red_dst[0] == (long)n * (n - 1) / 2, "team sum = %ld", red_dst[0]);
    for (int i = 0; i < 8; i++) bc_src[i] = 7 * i + 1;
    shmem_barrier_all();
    shmem_broadcast64(bc_dst, bc_src, 8, 0, 0, 0, n, pSync);
    if (me != 0)
        for (int i = 0; i < 8; i++) CHECK(bc_dst[i] == 7 * i + 1, "bcast[%d] = %ld", i, bc_dst[i]);
    shmem_barrier_all();

    /* a lock in static data guarding a static counter on PE 0 */
    for (int round = 0; round < 20; round++) {
        shmem_set_lock(&lock);
        long v = shmem_long_g(&in_lock, 0);
        shmem_long_p(&in_lock, v + 1, 0);
        shmem_quiet();
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    if (me == 0) CHECK(in_lock == 20L * n, "locked counter = %ld", in_lock);

    /* counting puts into static data */
    shmemx_ct_t ct;
    shmemx_ct_create(&ct);
    char msg[64];
    memset(msg, 'a' + me, sizeof msg);
    shmemx_putmem_ct(ct, ct_buf, msg, sizeof msg, right);
    shmemx_ct_wait(ct, 1);
    for (int i = 0; i < 64; i++) CHECK(ct_buf[i] == 'a' + left, "ct_buf[%d] = %d", i, ct_buf[i]);
    shmem_barrier_all();

    /* shmem_ptr: a load/store pointer to the right neighbour's copy of a static */
    long *rp = shmem_ptr(&big[5], right);
    CHECK((rp != NULL) == expect_ptr(right), "shmem_ptr of a static returned %p", (void *)rp);
    if (rp != NULL) CHECK(*rp == me * 1000000L + 5, "*shmem_ptr = %ld", *rp);
    shmem_barrier_all();
    if (rp != NULL) *rp = -me;
    else shmem_long_p(&big[5], -me, right);
    shmem_barrier_all();
    CHECK(big[5] == -left, "store through shmem_ptr: %ld", big[5]);
    CHECK(shmem_ptr(&initialized_global, me) == &initialized_global, "own shmem_ptr");

    shmem_barrier_all();
    if (me == 0) printf("OK symdata %d PEs\n", n);
    shmem_finalize();
    /* statics still work after finalize */
    big[0] = 1;
    return big[0] == 1 ? 0 : 4;
}

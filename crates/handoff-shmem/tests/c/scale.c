/* The collectives at any team size (sized by shmem_n_pes, not a fixed 64): barriers,
 * broadcast64, fcollect64, sum/max to_all, alltoall64 and a put ring, each checked against a
 * closed form of the PE numbers. Run at 256 PEs by shmem.rs. */
#include <shmem.h>
#include <stdint.h>
#include "check.h"

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) pSync[i] = SHMEM_SYNC_VALUE;
    long *tick = shmem_malloc(sizeof(long));
    *tick = 0;
    shmem_barrier_all();
    for (long k = 1; k <= 20; k++) {
        *tick = k;
        shmem_barrier_all();
        long left = shmem_long_g(tick, (me + n - 1) % n);
        CHECK(left >= k, "barrier %ld: left PE at %ld", k, left);
    }
    int64_t *src = shmem_malloc(4 * sizeof(int64_t));
    int64_t *dst = shmem_malloc((size_t)n * 4 * sizeof(int64_t));
    for (int i = 0; i < 4; i++) { src[i] = 1000 * me + i; dst[i] = -1; }
    shmem_barrier_all();
    int root = n - 1;
    shmem_broadcast64(dst, src, 4, root, 0, 0, n, pSync);
    for (int i = 0; i < 4; i++)
        CHECK(dst[i] == (me == root ? -1 : 1000 * root + i), "broadcast64 [%d]", i);
    shmem_barrier_all();
    shmem_fcollect64(dst, src, 4, 0, 0, n, pSync);
    for (int p = 0; p < n; p++)
        for (int i = 0; i < 4; i++) CHECK(dst[4 * p + i] == 1000 * p + i, "fcollect64 %d/%d", p, i);
    long *lv = shmem_malloc(2 * sizeof(long)), *lr = shmem_malloc(2 * sizeof(long));
    lv[0] = me; lv[1] = 3 * me + 1;
    shmem_barrier_all();
    shmem_long_sum_to_all(lr, lv, 2, 0, 0, n, pWrk, pSync);
    CHECK(lr[0] == (long)n * (n - 1) / 2 && lr[1] == 3L * n * (n - 1) / 2 + n, "sum_to_all");
    shmem_barrier_all();
    shmem_long_max_to_all(lr, lv, 2, 0, 0, n, pWrk, pSync);
    CHECK(lr[0] == n - 1 && lr[1] == 3L * (n - 1) + 1, "max_to_all");
    int64_t *as = shmem_malloc((size_t)n * sizeof(int64_t));
    int64_t *ad = shmem_malloc((size_t)n * sizeof(int64_t));
    for (int j = 0; j < n; j++) as[j] = 100000L * me + j;
    shmem_barrier_all();
    shmem_alltoall64(ad, as, 1, 0, 0, n, pSync);
    for (int i = 0; i < n; i++) CHECK(ad[i] == 100000L * i + me, "alltoall64 block %d", i);
    long *ring = shmem_malloc(sizeof(long));
    for (long r = 1; r <= 10; r++) {
        shmem_long_p(ring, 1000 * r + me, (me + 1) % n);
        shmem_barrier_all();
        CHECK(*ring == 1000 * r + (me + n - 1) % n, "ring %ld", r);
        shmem_barrier_all();
    }
    if (me == 0) printf("OK scale %d PEs\n", n);
    shmem_finalize();
    return 0;
}

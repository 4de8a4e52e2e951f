/* Collectives: broadcast32/64 (active sets with strides), collect/fcollect 32/64, the
 * to_all reductions (dest == source too), the team forms on SHMEM_TEAM_WORLD, active-set
 * barriers, team queries. Expected values are closed forms of the PE numbers. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double dWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static int iWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) pSync[i] = SHMEM_SYNC_VALUE;
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me && shmem_team_n_pes(SHMEM_TEAM_WORLD) == n, "team world");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == n, "team shared");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "team invalid");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, n - 1, SHMEM_TEAM_SHARED) == n - 1, "translate");
    shmem_team_sync(SHMEM_TEAM_WORLD);

    /* broadcast64 from member 1 of all PEs (PE 1): dest of the root unchanged */
    int64_t *src = shmem_malloc(8 * sizeof(int64_t));
    int64_t *dst = shmem_malloc(8 * sizeof(int64_t));
    for (int i = 0; i < 8; i++) { src[i] = 100 * me + i; dst[i] = -1; }
    int root = n > 1 ? 1 : 0;
    shmem_barrier_all(); /* every dst is set before the root may put into it */
    shmem_broadcast64(dst, src, 8, root, 0, 0, n, pSync);
    for (int i = 0; i < 8; i++)
        CHECK(dst[i] == (me == root ? -1 : 100 * root + i), "broadcast64 [%d] = %ld", i, (long)dst[i]);
    /* broadcast32 over the even PEs (stride 2^1) from member 0 (PE 0) */
    int32_t *s32 = shmem_malloc(4 * sizeof(int32_t));
    int32_t *d32 = shmem_malloc(4 * sizeof(int32_t));
    for (int i = 0; i < 4; i++) { s32[i] = 7 * me + i; d32[i] = -5; }
    shmem_barrier_all();
    int evens = (n + 1) / 2;
    if (me % 2 == 0) {
        shmem_broadcast32(d32, s32, 4, 0, 0, 1, evens, pSync);
        for (int i = 0; i < 4; i++) CHECK(d32[i] == (me == 0 ? -5 : i), "broadcast32 evens [%d]", i);
        shmem_barrier(0, 1, evens, pSync);
    }
    shmem_barrier_all();

    /* collect64: PE p contributes p + 1 words valued 1000 p + j */
    int64_t *csrc = shmem_malloc(64 * sizeof(int64_t));
    int64_t *cdst = shmem_malloc(64 * 64 * sizeof(int64_t));
    for (int j = 0; j <= me; j++) csrc[j] = 1000 * me + j;
    shmem_collect64(cdst, csrc, me + 1, 0, 0, n, pSync);
    int at = 0;
    for (int p = 0; p < n; p++)
        for (int j = 0; j <= p; j++, at++) CHECK(cdst[at] == 1000 * p + j, "collect64 at %d", at);
    /* fcollect32: 3 words each */
    int32_t *fs = shmem_malloc(3 * sizeof(int32_t));
    int32_t *fd = shmem_malloc(3 * 64 * sizeof(int32_t));
    for (int j = 0; j < 3; j++) fs[j] = 10 * me + j;
    shmem_fcollect32(fd, fs, 3, 0, 0, n, pSync);
    for (int p = 0; p < n; p++)
        for (int j = 0; j < 3; j++) CHECK(fd[3 * p + j] == 10 * p + j, "fcollect32");
    shmem_fcollect64(cdst, csrc, 1, 0, 0, n, pSync);
    for (int p = 0; p < n; p++) CHECK(cdst[p] == 1000 * p, "fcollect64");
    shmem_collect32(fd, fs, 2, 0, 0, n, pSync);
    for (int p = 0; p < n; p++) CHECK(fd[2 * p + 1] == 10 * p + 1, "collect32");

    /* reductions: closed forms over PEs 0..n-1 */
    long *lv = shmem_malloc(4 * sizeof(long));
    long *lr = shmem_malloc(4 * sizeof(long));
    for (int i = 0; i < 4; i++) lv[i] = me + i;
    shmem_long_sum_to_all(lr, lv, 4, 0, 0, n, pWrk, pSync);
    for (int i = 0; i < 4; i++) CHECK(lr[i] == (long)n * (n - 1) / 2 + (long)n * i, "long sum [%d] = %ld", i, lr[i]);
    shmem_long_max_to_all(lr, lv, 4, 0, 0, n, pWrk, pSync);
    CHECK(lr[2] == n - 1 + 2, "long max");
    shmem_long_min_to_all(lv, lv, 4, 0, 0, n, pWrk, pSync); /* dest == source */
    CHECK(lv[0] == 0 && lv[3] == 3, "long min in place");
    int *iv = shmem_malloc(2 * sizeof(int));
    int *ir = shmem_malloc(2 * sizeof(int));
    iv[0] = 1 << me; iv[1] = ~(1 << me);
    shmem_int_or_to_all(ir, iv, 2, 0, 0, n, iWrk, pSync);
    CHECK(ir[0] == (1 << n) - 1, "int or");
    shmem_int_and_to_all(ir, iv, 2, 0, 0, n, iWrk, pSync);
    CHECK(ir[0] == (n == 1 ? 1 : 0) && ir[1] == ~((1 << n) - 1), "int and");
    shmem_int_xor_to_all(ir, iv, 1, 0, 0, n, iWrk, pSync);
    CHECK(ir[0] == (1 << n) - 1, "int xor");
    iv[0] = me + 1;
    shmem_int_prod_to_all(ir, iv, 1, 0, 0, n, iWrk, pSync);
    int fact = 1;
    for (int p = 1; p <= n; p++) fact *= p;
    CHECK(ir[0] == fact, "int prod %d", ir[0]);
    double *dv = shmem_malloc(sizeof(double));
    double *dr = shmem_malloc(sizeof(double));
    dv[0] = 0.5 * me;
    shmem_double_sum_to_all(dr, dv, 1, 0, 0, n, dWrk, pSync);
    CHECK(dr[0] == 0.25 * n * (n - 1), "double sum %f", dr[0]);
    /* a reduction over the odd PEs only (PE_start 1, stride 2) */
    if (n > 1 && me % 2 == 1) {
        int odds = n / 2;
        lv[0] = me;
        shmem_long_sum_to_all(lr, lv, 1, 1, 1, odds, pWrk, pSync);
        CHECK(lr[0] == (long)odds * odds, "odd sum %ld", lr[0]); /* 1 + 3 + ... = odds^2 */
    }
    shmem_barrier_all();

    /* 1.5 team forms on SHMEM_TEAM_WORLD */
    for (int i = 0; i < 8; i++) src[i] = 100 * me + i;
    CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 8 * sizeof(int64_t), n - 1) == 0, "broadcastmem");
    for (int i = 0; i < 8; i++) CHECK(dst[i] == 100 * (n - 1) + i, "broadcastmem root included");
    CHECK(shmem_fcollectmem(SHMEM_TEAM_WORLD, fd, fs, 3 * sizeof(int32_t)) == 0, "fcollectmem");
    for (int p = 0; p < n; p++) CHECK(fd[3 * p + 2] == 10 * p + 2, "fcollectmem");
    CHECK(shmem_collectmem(SHMEM_TEAM_WORLD, cdst, csrc, (me + 1) * sizeof(int64_t)) == 0, "collectmem");
    CHECK(cdst[n * (n + 1) / 2 - 1] == 1000 * (n - 1) + n - 1, "collectmem last");
    lv[0] = me + 1;
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, lr, lv, 1) == 0, "sum_reduce");
    CHECK(lr[0] == (long)n * (n + 1) / 2, "generic sum_reduce %ld", lr[0]);
    unsigned int *uv = shmem_malloc(sizeof(unsigned int));
    unsigned int *ur = shmem_malloc(sizeof(unsigned int));
    *uv = 1u << me;
    shmem_uint_or_reduce(SHMEM_TEAM_WORLD, ur, uv, 1);
    CHECK(*ur == (1u << n) - 1, "uint or_reduce");
    shmem_max_reduce(SHMEM_TEAM_WORLD, dr, dv, 1);
    CHECK(*dr == 0.5 * (n - 1), "double max_reduce");
    /* all-to-all: PE j's block i is PE i's block j (2 words per block) */
    int64_t *as = shmem_malloc(2 * 64 * sizeof(int64_t));
    int64_t *ad = shmem_malloc(2 * 64 * sizeof(int64_t));
    for (int j = 0; j < n; j++) { as[2 * j] = 100 * me + j; as[2 * j + 1] = -(100 * me + j); }
    shmem_alltoall64(ad, as, 2, 0, 0, n, pSync);
    for (int i = 0; i < n; i++)
        CHECK(ad[2 * i] == 100 * i + me && ad[2 * i + 1] == -(100 * i + me), "alltoall64 block %d", i);
    /* Every dest must be ready before any PE calls the next collective on it (the spec's
     * rule): a PE done with the all-to-all may put into ad while others still check it. */
    shmem_barrier_all();
    CHECK(shmem_alltoallmem(SHMEM_TEAM_WORLD, ad, as, 8) == 0, "alltoallmem");
    /* 8-byte blocks: block j of PE i's source is as[j], i.e. +-(100 i + j / 2) */
    for (int i = 0; i < n; i++)
        CHECK(ad[i] == (me % 2 ? -1 : 1) * (100 * i + me / 2), "alltoallmem block %d", i);
    /* typed team collectives through the generic names */
    double *bs = shmem_malloc(3 * sizeof(double)), *bd = shmem_malloc(3 * 64 * sizeof(double));
    for (int j = 0; j < 3; j++) bs[j] = me + 0.5 * j;
    CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, bd, bs, 3, 0) == 0, "shmem_broadcast");
    CHECK(bd[2] == 1.0, "typed broadcast %f", bd[2]);
    shmem_barrier_all(); /* bd is the next dest: ready on every PE first (the spec's rule) */
    shmem_fcollect(SHMEM_TEAM_WORLD, bd, bs, 3);
    for (int p = 0; p < n; p++) CHECK(bd[3 * p + 1] == p + 0.5, "typed fcollect");
    shmem_int_collect(SHMEM_TEAM_WORLD, fd, fs, 1);
    for (int p = 0; p < n; p++) CHECK(fd[p] == 10 * p, "typed collect");
    shmem_alltoall(SHMEM_TEAM_WORLD, ad, as, 2);
    for (int i = 0; i < n; i++) CHECK(ad[2 * i] == 100 * i + me, "typed alltoall");
    void *h = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE);
    CHECK(h != NULL, "malloc_with_hints");
    shmem_free(h);
    if (me == 0) printf("OK coll %d PEs\n", n);
    shmem_finalize();
    return 0;
}

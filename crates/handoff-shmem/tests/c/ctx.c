/* Contexts (OpenSHMEM 1.5 §9.5): create with each option, on the world and on a created team
 * (team-relative PE numbers), every family through shmem_ctx_* and through the C11 generic
 * names with a context first, fence/quiet, get_team, SHMEM_CTX_INVALID rules; plus the other
 * 1.5 calls added with them: long double p/g, alltoallsmem, pcontrol, test_*_vector generics. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#define N 8

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    long *buf = shmem_calloc(N, sizeof(long));
    long *ctr = shmem_calloc(4, sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    long double *ld = shmem_calloc(2, sizeof(long double));
    unsigned *bits = shmem_calloc(1, sizeof(unsigned));

    long opts[] = {0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE,
                   SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE};
    for (int o = 0; o < 5; o++) {
        shmem_ctx_t c = SHMEM_CTX_INVALID;
        CHECK(shmem_ctx_create(opts[o], &c) == 0 && c != SHMEM_CTX_INVALID, "create %ld",
              opts[o]);
        shmem_team_t t = SHMEM_TEAM_INVALID;
        CHECK(shmem_ctx_get_team(c, &t) == 0 && t == SHMEM_TEAM_WORLD, "get_team");
        long src[N], back[N];
        for (int i = 0; i < N; i++) src[i] = 1000 * o + 10 * me + i;
        shmem_ctx_long_put(c, buf, src, N, right);
        shmem_ctx_quiet(c);
        shmem_barrier_all();
        for (int i = 0; i < N; i++)
            CHECK(buf[i] == 1000 * o + 10 * left + i, "ctx put %d[%d] = %ld", o, i, buf[i]);
        shmem_ctx_long_get(c, back, buf, N, right);
        for (int i = 0; i < N; i++) CHECK(back[i] == 1000 * o + 10 * me + i, "ctx get");
        shmem_barrier_all();
        /* generic forms with a context */
        shmem_p(c, &buf[0], (long)(7 + me), right);
        shmem_ctx_fence(c);
        shmem_atomic_add(c, &ctr[0], 1L, right);
        shmem_ctx_long_atomic_inc(c, &ctr[1], 0);
        long old = shmem_atomic_fetch_add(c, &ctr[2], 2L, 0);
        CHECK(old % 2 == 0, "fetch_add old %ld", old);
        shmem_atomic_or(c, bits, 1u << (me % 32), 0);
        shmem_ctx_quiet(c);
        shmem_barrier_all();
        CHECK(shmem_g(c, &buf[0], me) == 7 + left, "ctx p/g o=%d got %ld", o, buf[0]);
        CHECK(shmem_atomic_fetch(c, &ctr[0], me) == o + 1, "ctx add %ld", ctr[0]);
        if (me == 0) {
            CHECK(ctr[1] == (long)n * (o + 1), "ctx inc %ld", ctr[1]);
            CHECK(ctr[2] == 2L * n * (o + 1), "ctx fetch_add %ld", ctr[2]);
        }
        shmem_barrier_all(); /* everyone has checked buf before it is overwritten */
        /* put with signal on the context */
        shmem_ctx_long_put_signal(c, buf, src, N, sig, 1, SHMEM_SIGNAL_ADD, right);
        shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)o + 1);
        for (int i = 0; i < N; i++) CHECK(buf[i] == 1000 * o + 10 * left + i, "put_signal");
        shmem_barrier_all();
        shmem_ctx_destroy(c);
    }
    CHECK(*bits == (n >= 32 ? ~0u : (1u << n) - 1) || me != 0, "or bits %x", *bits);

    /* a context on a created team: PE numbers are the team's */
    shmem_team_t rev;
    shmem_team_config_t conf = {.num_contexts = 1};
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, &conf,
                                   SHMEM_TEAM_NUM_CONTEXTS, &rev) == 0, "split");
    shmem_ctx_t tc;
    CHECK(shmem_team_create_ctx(rev, SHMEM_CTX_PRIVATE, &tc) == 0, "team ctx");
    shmem_team_t back_t;
    CHECK(shmem_ctx_get_team(tc, &back_t) == 0 && back_t == rev, "get_team of team ctx");
    /* team PE 0 is world PE n-1 */
    shmem_ctx_long_atomic_add(tc, &ctr[3], me + 1, 0);
    long w = me;
    shmem_put(tc, &buf[1], &w, 1, shmem_team_my_pe(rev));  /* to myself, by team number */
    shmem_ctx_quiet(tc);
    shmem_barrier_all();
    CHECK(buf[1] == me, "team ctx put to self");
    if (me == n - 1) CHECK(ctr[3] == (long)n * (n + 1) / 2, "team ctx add %ld", ctr[3]);
    shmem_ctx_destroy(tc);
    shmem_team_destroy(rev);

    /* SHMEM_CTX_INVALID: create on an invalid team fails, destroy ignores it */
    shmem_ctx_t bad = SHMEM_CTX_DEFAULT;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &bad) != 0 && bad == SHMEM_CTX_INVALID,
          "create on INVALID");
    shmem_team_t bt = SHMEM_TEAM_WORLD;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &bt) != 0 && bt == SHMEM_TEAM_INVALID,
          "get_team of INVALID");
    shmem_ctx_destroy(SHMEM_CTX_INVALID);
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &bt) == 0 && bt == SHMEM_TEAM_WORLD, "default");

    /* long double p / g (plain and generic) */
    shmem_longdouble_p(&ld[0], 1.0L / 3 + me, right);
    shmem_barrier_all();
    CHECK(ld[0] == 1.0L / 3 + left, "longdouble p");
    CHECK(shmem_g(&ld[0], right) == 1.0L / 3 + me, "longdouble g");
    shmem_p(SHMEM_CTX_DEFAULT, &ld[1], 2.5L, me);
    CHECK(shmem_ctx_longdouble_g(SHMEM_CTX_DEFAULT, &ld[1], me) == 2.5L, "ctx longdouble g");

    /* alltoallsmem: one byte per pair, source stride 2, dest stride 1 */
    char *a = shmem_calloc(2 * (size_t)n, 1), *b = shmem_calloc((size_t)n, 1);
    for (int j = 0; j < n; j++) a[2 * j] = (char)(16 * me + j);
    shmem_barrier_all();
    CHECK(shmem_alltoallsmem(SHMEM_TEAM_WORLD, b, a, 1, 2, 1) == 0, "alltoallsmem");
    for (int j = 0; j < n; j++) CHECK(b[j] == (char)(16 * j + me), "alltoallsmem[%d]", j);

    /* profiling control: accepted at every level */
    shmem_pcontrol(0);
    shmem_pcontrol(2, "extra");

    /* test_*_vector generics */
    long *iv = shmem_calloc(3, sizeof(long));
    long want[3] = {1, 2, 3};
    shmem_long_p(&iv[0], 1, me);
    shmem_long_p(&iv[2], 3, me);
    size_t idx[3];
    CHECK(!shmem_test_all_vector(iv, 3, NULL, SHMEM_CMP_EQ, want), "test_all_vector");
    CHECK(shmem_test_any_vector(iv, 3, NULL, SHMEM_CMP_EQ, want) != SIZE_MAX, "any_vector");
    CHECK(shmem_test_some_vector(iv, 3, idx, NULL, SHMEM_CMP_EQ, want) == 2 && idx[0] == 0 &&
          idx[1] == 2, "some_vector");
    shmem_long_p(&iv[1], 2, me);
    CHECK(shmem_test_all_vector(iv, 3, NULL, SHMEM_CMP_EQ, want), "test_all_vector after");

    /* deprecated names old programs still use */
    long *lw = shmem_calloc(2, sizeof(long));
    int32_t *i32 = shmem_calloc(1, sizeof(int32_t));
    int *ib = shmem_malloc(2 * sizeof(int));
    shmem_barrier_all();
    shmem_int32_finc(i32, 0);
    CHECK(shmem_swap(&lw[0], (long)me + 1, right) == 0, "shmem_swap old");
    shmem_clear_cache_inv();
    shmem_udcflush_line(lw);
    shmem_barrier_all();
    (shmem_wait_until)(&lw[0], SHMEM_CMP_EQ, (long)left + 1);
    if (me == 0) CHECK(*i32 == n, "int32_finc %d", (int)*i32);
    ib[0] = 1 << me % 31 | 1 << 30;
    shmem_barrier_all();
    shmem_int_or_reduce(SHMEM_TEAM_WORLD, &ib[1], &ib[0], 1);
    int want_or = 1 << 30;
    for (int j = 0; j < n; j++) want_or |= 1 << j % 31;
    CHECK(ib[1] == want_or, "int_or_reduce %x", ib[1]);

    shmem_barrier_all();
    if (me == 0) printf("OK ctx %d PEs\n", n);
    shmem_finalize();
    return 0;
}

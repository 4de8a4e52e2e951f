/* Created teams (OpenSHMEM 1.5 §9.4): split_strided (positive, negative stride, members
 * only), split_2d, get_config, translate_pe, team_ptr, team_sync, every team collective on a
 * created team (broadcast, collect, fcollect, alltoall, alltoalls, reductions including
 * long double and complex), destroy; each result checked against a closed form. */
#include <shmem.h>
#include <complex.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#define N 4

/* Symmetric buffers, allocated by every PE (shmem_malloc is collective over the world). */
static long *src, *dst;
static long double *ld;
static double _Complex *cz;
static float _Complex *cf;

static void collectives_on(shmem_team_t t, const char *what) {
    int tme = shmem_team_my_pe(t), tn = shmem_team_n_pes(t);
    int wme = shmem_my_pe();
    /* broadcast from the team's last PE */
    for (int i = 0; i < N; i++) src[i] = 1000 * wme + i;
    shmem_team_sync(t);
    int root = tn - 1, rootw = shmem_team_translate_pe(t, root, SHMEM_TEAM_WORLD);
    CHECK(shmem_long_broadcast(t, dst, src, N, root) == 0, "%s broadcast", what);
    for (int i = 0; i < N; i++)
        CHECK(dst[i] == 1000 * rootw + i, "%s broadcast[%d] = %ld", what, i, dst[i]);
    /* Every dest must be ready before any member calls the next collective (the spec's
     * rule): the root may be in it, putting into dst, while others still check theirs. */
    shmem_team_sync(t);
    /* fcollect: every member's N, in team order */
    shmem_long_fcollect(t, dst, src, N);
    for (int j = 0; j < tn; j++) {
        int w = shmem_team_translate_pe(t, j, SHMEM_TEAM_WORLD);
        for (int i = 0; i < N; i++)
            CHECK(dst[j * N + i] == 1000 * w + i, "%s fcollect[%d][%d]", what, j, i);
    }
    /* collect: member j contributes j + 1 elements */
    shmem_long_collect(t, dst, src, (size_t)tme % N + 1);
    for (int j = 0, at = 0; j < tn; j++) {
        int w = shmem_team_translate_pe(t, j, SHMEM_TEAM_WORLD);
        for (int i = 0; i < j % N + 1; i++, at++)
            CHECK(dst[at] == 1000 * w + i, "%s collect %d/%d", what, j, i);
    }
    /* alltoall: block j of my source goes to member j */
    for (int j = 0; j < tn; j++)
        for (int i = 0; i < 2; i++) src[j * 2 + i] = 100 * tme + 10 * j + i;
    shmem_team_sync(t);
    shmem_long_alltoall(t, dst, src, 2);
    for (int j = 0; j < tn; j++)
        for (int i = 0; i < 2; i++)
            CHECK(dst[j * 2 + i] == 100 * j + 10 * tme + i, "%s alltoall[%d][%d]", what, j, i);
    /* alltoalls: 2 elements per pair, source stride 3, dest stride 2 */
    for (int k = 0; k < tn * 2 * 3; k++) src[k] = -1;
    for (int j = 0; j < tn; j++)
        for (int i = 0; i < 2; i++) src[(j * 2 + i) * 3] = 100 * tme + 10 * j + i;
    for (int k = 0; k < tn * 2 * 2; k++) dst[k] = -7;
    shmem_team_sync(t);
    shmem_alltoalls(t, dst, src, 2, 3, 2);
    for (int j = 0; j < tn; j++)
        for (int i = 0; i < 2; i++) {
            CHECK(dst[(j * 2 + i) * 2] == 100 * j + 10 * tme + i, "%s alltoalls[%d][%d] = %ld",
                  what, j, i, dst[(j * 2 + i) * 2]);
            CHECK(dst[(j * 2 + i) * 2 + 1] == -7, "%s alltoalls gap", what);
        }
    /* reductions over the members' world numbers */
    long wsum = 0, wmax = 0;
    for (int j = 0; j < tn; j++) {
        int w = shmem_team_translate_pe(t, j, SHMEM_TEAM_WORLD);
        wsum += w + 1;
        wmax = w > wmax ? w : wmax;
    }
    src[0] = wme + 1;
    src[1] = wme;
    shmem_team_sync(t);
    shmem_long_sum_reduce(t, dst, src, 1);
    CHECK(dst[0] == wsum, "%s sum %ld != %ld", what, dst[0], wsum);
    shmem_max_reduce(t, dst, src + 1, 1);
    CHECK(dst[0] == wmax, "%s max %ld != %ld", what, dst[0], wmax);
    /* long double and complex reductions (C11 generic names) */

    ld[0] = (long double)(wme + 1) / 3.0L;
    shmem_team_sync(t);
    shmem_sum_reduce(t, ld + 1, ld, 1);
    long double lexp = 0;
    for (int j = 0; j < tn; j++)
        lexp += (long double)(shmem_team_translate_pe(t, j, SHMEM_TEAM_WORLD) + 1) / 3.0L;
    CHECK(ld[1] == lexp, "%s long double sum %Lg != %Lg", what, ld[1], lexp);
    shmem_longdouble_max_reduce(t, ld + 1, ld, 1);
    CHECK(ld[1] == (long double)(wmax + 1) / 3.0L, "%s long double max", what);

    cz[0] = (wme + 1) + 1.0 * I;
    shmem_team_sync(t);
    shmem_prod_reduce(t, cz + 1, cz, 1);
    double _Complex cexp = 1;
    for (int j = 0; j < tn; j++)
        cexp *= (shmem_team_translate_pe(t, j, SHMEM_TEAM_WORLD) + 1) + 1.0 * I;
    CHECK(creal(cz[1]) == creal(cexp) && cimag(cz[1]) == cimag(cexp),
          "%s complex prod (%g,%g) != (%g,%g)", what, creal(cz[1]), cimag(cz[1]), creal(cexp),
          cimag(cexp));

    cf[0] = 1.0f + (float)wme * I;
    shmem_team_sync(t);
    shmem_complexf_sum_reduce(t, cf + 1, cf, 1);
    CHECK(crealf(cf[1]) == (float)tn && cimagf(cf[1]) == (float)(wsum - tn),
          "%s complexf sum", what);
    shmem_team_sync(t);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    src = shmem_malloc(N * 8 * sizeof(long) * 8);
    dst = shmem_malloc(N * 8 * sizeof(long) * 8);
    ld = shmem_malloc(2 * sizeof(long double));
    cz = shmem_malloc(2 * sizeof(double _Complex));
    cf = shmem_malloc(2 * sizeof(float _Complex));
    long *blk = shmem_malloc(sizeof(long));

    /* predefined teams */
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "world my_pe");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == n, "shared n_pes");
    CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "invalid my_pe");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "invalid n_pes");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1, "translate");

    /* even PEs, with a config */
    shmem_team_config_t conf = {.num_contexts = 3}, got = {0};
    shmem_team_t even;
    int ne = (n + 1) / 2;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, ne, &conf, SHMEM_TEAM_NUM_CONTEXTS,
                                   &even) == 0, "split even");
    if (me % 2 == 0) {
        CHECK(even != SHMEM_TEAM_INVALID, "member got INVALID");
        CHECK(shmem_team_my_pe(even) == me / 2, "even my_pe %d", shmem_team_my_pe(even));
        CHECK(shmem_team_n_pes(even) == ne, "even n_pes");
        CHECK(shmem_team_get_config(even, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
              got.num_contexts == 3, "config %d", got.num_contexts);
        for (int j = 0; j < ne; j++) {
            CHECK(shmem_team_translate_pe(even, j, SHMEM_TEAM_WORLD) == 2 * j, "even->world");
            CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 2 * j, even) == j, "world->even");
        }
        if (n > 1) CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 1, even) == -1, "odd->even");
        /* shmem_team_ptr: a direct pointer to the team's last PE's block */
        *blk = 77 + me;
        shmem_sync(even);
        long *p = shmem_team_ptr(even, blk, ne - 1);
        CHECK((p != NULL) == expect_ptr(2 * (ne - 1)), "team_ptr %p", (void *)p);
        CHECK(p == NULL || *p == 77 + 2 * (ne - 1), "team_ptr");
        shmem_sync(even);
        collectives_on(even, "even");
    } else {
        CHECK(even == SHMEM_TEAM_INVALID, "non-member got a team");
    }
    shmem_team_destroy(even);
    shmem_barrier_all();

    /* the world reversed: stride -1 */
    shmem_team_t rev;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev) == 0, "rev");
    CHECK(shmem_team_my_pe(rev) == n - 1 - me, "rev my_pe");
    collectives_on(rev, "reversed");

    /* a split of a split: the reversed team's first half */
    shmem_team_t half;
    int nh = (n + 1) / 2;
    CHECK(shmem_team_split_strided(rev, 0, 1, nh, NULL, 0, &half) == 0, "half");
    if (n - 1 - me < nh) {
        CHECK(shmem_team_translate_pe(half, 0, SHMEM_TEAM_WORLD) == n - 1, "half[0]");
        collectives_on(half, "half of reversed");
    } else {
        CHECK(half == SHMEM_TEAM_INVALID, "half non-member");
    }
    shmem_team_destroy(half);
    shmem_team_destroy(rev);

    /* out of range: every PE gets INVALID and a nonzero return */
    shmem_team_t bad = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n + 1, NULL, 0, &bad) != 0 &&
          bad == SHMEM_TEAM_INVALID, "oversized split");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &bad) != 0 &&
          bad == SHMEM_TEAM_INVALID, "split of INVALID");

    /* 2-D: 2 columns */
    shmem_team_t row, col;
    int xr = n < 2 ? 1 : 2;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &row, NULL, 0, &col) == 0, "2d");
    CHECK(shmem_team_my_pe(row) == me % xr, "row my_pe %d", shmem_team_my_pe(row));
    CHECK(shmem_team_my_pe(col) == me / xr, "col my_pe");
    int rown = (me / xr == (n - 1) / xr) ? n - (n - 1) / xr * xr : xr;
    CHECK(shmem_team_n_pes(row) == rown, "row n_pes %d != %d", shmem_team_n_pes(row), rown);
    CHECK(shmem_team_n_pes(col) == (n - me % xr + xr - 1) / xr, "col n_pes");
    for (int j = 0; j < shmem_team_n_pes(col); j++)
        CHECK(shmem_team_translate_pe(col, j, SHMEM_TEAM_WORLD) == me % xr + j * xr, "col pe");
    collectives_on(row, "row");
    collectives_on(col, "column");
    shmem_team_destroy(row);
    shmem_team_destroy(col);

    shmem_barrier_all();
    if (me == 0) printf("OK teams %d PEs\n", n);
    shmem_finalize();
    return 0;
}

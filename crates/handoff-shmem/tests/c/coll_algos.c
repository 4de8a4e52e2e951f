/* Every collective algorithm at every size class, on odd team shapes: the team reductions of
 * every type and operator in shmem.h and the active-set to_all ones (in place too), at sizes
 * from 1 element to past the one-message slots and over several blocks of the large path;
 * broadcast from every root at sizes on both sides of the push/pull switch; collect with
 * members on both sides of the slot size; fcollect, alltoall and alltoalls; many collectives
 * back to back without barriers (the message slots are reused). Teams: the world, the odd
 * members (stride 2), the world reversed, and the active sets of the same shapes. Expected
 * values are recomputed here, in team order, from the members' world numbers.
 *
 * Run with: handoff run -n N -- coll_algos   (any N >= 1; prints "OK coll_algos N PEs") */
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#define MAXN 20001 /* elements: past the small path for every type, several large blocks */
static char *sbuf, *dbuf; /* symmetric, MAXN * 16 bytes each (and * n_pes for dbuf) */
static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static char wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE * 16]; /* pWrk: handoff does not use it */
static shmem_team_t team;
static int tn, tme, wme;
static int wpe[1024]; /* world numbers of the team's members, in team order */
/* the active set equal to the team, or size 0 when the team is not one */
static int as_start, as_log, as_size;

#define VAL(w, i) (((w) * 3 + (int)(i)) % 5 + 1)
#define BITS(w, i) ((1 << ((w) % 7)) | ((i) % 3 == 0 ? 0x40 : 0) | (int)((i) & 0x80))
#define INIT_and BITS
#define INIT_or BITS
#define INIT_xor BITS
#define INIT_max VAL
#define INIT_min VAL
#define INIT_sum VAL
#define INIT_prod VAL
#define C_and(a, b) ((a) & (b))
#define C_or(a, b) ((a) | (b))
#define C_xor(a, b) ((a) ^ (b))
#define C_max(a, b) ((a) > (b) ? (a) : (b))
#define C_min(a, b) ((a) < (b) ? (a) : (b))
#define C_sum(a, b) ((a) + (b))
#define C_prod(a, b) ((a) * (b))

/* Checks d[0..n) against the reduction of INIT_OP over the members, in team order. */
#define EXPECT(T, N, OP, d, n, how)                                                       \
    for (size_t i = 0; i < (n); i++) {                                                    \
        T e = (T)INIT_##OP(wpe[0], i);                                                    \
        for (int j = 1; j < tn; j++) e = (T)C_##OP(e, (T)INIT_##OP(wpe[j], i));           \
        CHECK((d)[i] == e, "%s %s_%s n=%zu [%zu] on %d PEs", how, #N, #OP, (size_t)(n), i, \
              tn);                                                                        \
    }

#define TEAM_REDUCE(T, N, OP)                                                             \
    static void team_##N##_##OP(size_t n, int inplace) {                                  \
        T *s = (T *)sbuf, *d = inplace ? (T *)sbuf : (T *)dbuf;                           \
        for (size_t i = 0; i < n; i++) s[i] = (T)INIT_##OP(wme, i);                       \
        shmem_team_sync(team);                                                            \
        CHECK(shmem_##N##_##OP##_reduce(team, d, s, n) == 0, "reduce returns 0");         \
        EXPECT(T, N, OP, d, n, inplace ? "in-place" : "team")                             \
    }
#define TO_ALL(T, N, OP)                                                                  \
    static void to_all_##N##_##OP(size_t n, int inplace) {                               \
        T *s = (T *)sbuf, *d = inplace ? (T *)sbuf : (T *)dbuf;                           \
        for (size_t i = 0; i < n; i++) s[i] = (T)INIT_##OP(wme, i);                       \
        shmem_barrier(as_start, as_log, as_size, pSync);                                  \
        shmem_##N##_##OP##_to_all(d, s, (int)n, as_start, as_log, as_size, (T *)wrk, pSync); \
        EXPECT(T, N, OP, d, n, inplace ? "in-place to_all" : "to_all")                    \
    }
#define CALL_TEAM(T, N, OP) team_##N##_##OP(n, inplace);
#define CALL_TO_ALL(T, N, OP) to_all_##N##_##OP(n, inplace);

HANDOFF_SHMEM_REDUCE_BIT(TEAM_REDUCE, and)
HANDOFF_SHMEM_REDUCE_BIT(TEAM_REDUCE, or)
HANDOFF_SHMEM_REDUCE_BIT(TEAM_REDUCE, xor)
HANDOFF_SHMEM_TO_ALL_INT(TEAM_REDUCE, and)
HANDOFF_SHMEM_TO_ALL_INT(TEAM_REDUCE, or)
HANDOFF_SHMEM_TO_ALL_INT(TEAM_REDUCE, xor)
HANDOFF_SHMEM_REDUCE_ARITH(TEAM_REDUCE, max)
HANDOFF_SHMEM_REDUCE_ARITH(TEAM_REDUCE, min)
HANDOFF_SHMEM_REDUCE_ARITH(TEAM_REDUCE, sum)
HANDOFF_SHMEM_REDUCE_ARITH(TEAM_REDUCE, prod)
HANDOFF_SHMEM_TO_ALL_INT(TO_ALL, and)
HANDOFF_SHMEM_TO_ALL_INT(TO_ALL, or)
HANDOFF_SHMEM_TO_ALL_INT(TO_ALL, xor)
HANDOFF_SHMEM_TO_ALL_ARITH(TO_ALL, max)
HANDOFF_SHMEM_TO_ALL_ARITH(TO_ALL, min)
HANDOFF_SHMEM_TO_ALL_ARITH(TO_ALL, sum)
HANDOFF_SHMEM_TO_ALL_ARITH(TO_ALL, prod)

/* complex sum and prod: (w + i%3, 1), products of small Gaussian integers stay exact */
#define COMPLEX(T, N)                                                                     \
    static void complex_##N(size_t n) {                                                   \
        T *s = (T *)sbuf, *d = (T *)dbuf;                                                 \
        for (size_t i = 0; i < n; i++) {                                                  \
            s[2 * i] = (T)(wme % 3 + (int)(i % 3));                                       \
            s[2 * i + 1] = 1;                                                             \
        }                                                                                 \
        shmem_team_sync(team);                                                            \
        shmem_##N##_sum_reduce(team, (T _Complex *)d, (const T _Complex *)s, n);          \
        for (size_t i = 0; i < n; i++) {                                                  \
            T re = 0;                                                                     \
            for (int j = 0; j < tn; j++) re += (T)(wpe[j] % 3 + (int)(i % 3));            \
            CHECK(d[2 * i] == re && d[2 * i + 1] == (T)tn, #N " sum n=%zu [%zu]", n, i);  \
        }                                                                                 \
        shmem_##N##_prod_reduce(team, (T _Complex *)d, (const T _Complex *)s, n);         \
        for (size_t i = 0; i < n; i++) {                                                  \
            T re = (T)(wpe[0] % 3 + (int)(i % 3)), im = 1;                                \
            for (int j = 1; j < tn; j++) {                                                \
                T a = (T)(wpe[j] % 3 + (int)(i % 3)), r2 = re * a - im, i2 = re + im * a; \
                re = r2;                                                                  \
                im = i2;                                                                  \
            }                                                                             \
            CHECK(d[2 * i] == re && d[2 * i + 1] == im, #N " prod n=%zu [%zu]", n, i);    \
        }                                                                                 \
    }
COMPLEX(float, complexf)
COMPLEX(double, complexd)

/* 2100 elements: one message for 4-byte types, the large path for 8-byte ones */
static const size_t sizes[] = {0, 5, 2100, MAXN};

/* long double (combined in shmem.h): sum, max, min, prod over n elements, in place too */
static void long_double(size_t n) {
    long double *s = (long double *)sbuf, *d = (long double *)dbuf;
    for (int op = 0; op < 4; op++) {
        for (size_t i = 0; i < n; i++) s[i] = (long double)VAL(wme, i) / 4;
        shmem_team_sync(team);
        if (op == 0) shmem_longdouble_sum_reduce(team, d, s, n);
        if (op == 1) shmem_longdouble_max_reduce(team, d, s, n);
        if (op == 2) shmem_longdouble_min_reduce(team, s, s, n);
        if (op == 3) shmem_longdouble_prod_reduce(team, d, s, n);
        long double *r = op == 2 ? s : d;
        for (size_t i = 0; i < n; i++) {
            long double e = (long double)VAL(wpe[0], i) / 4;
            for (int j = 1; j < tn; j++) {
                long double v = (long double)VAL(wpe[j], i) / 4;
                e = op == 0 ? e + v : op == 1 ? C_max(e, v) : op == 2 ? C_min(e, v) : e * v;
            }
            CHECK(r[i] == e, "long double op %d n=%zu [%zu]", op, n, i);
        }
    }
}
static int few; /* argv[1] "few": only the to_all types (many PEs: the barrier paths) */

static void reductions(void) {
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        for (int inplace = 0; inplace < 1 + (n == 5 || n == MAXN); inplace++) {
            if (few) {
                HANDOFF_SHMEM_TO_ALL_INT(CALL_TEAM, and)
                HANDOFF_SHMEM_TO_ALL_INT(CALL_TEAM, xor)
                HANDOFF_SHMEM_TO_ALL_ARITH(CALL_TEAM, max)
                HANDOFF_SHMEM_TO_ALL_ARITH(CALL_TEAM, prod)
                if (as_size > 0) {
                    HANDOFF_SHMEM_TO_ALL_ARITH(CALL_TO_ALL, sum)
                }
                continue;
            }
            HANDOFF_SHMEM_REDUCE_BIT(CALL_TEAM, and)
            HANDOFF_SHMEM_REDUCE_BIT(CALL_TEAM, or)
            HANDOFF_SHMEM_REDUCE_BIT(CALL_TEAM, xor)
            HANDOFF_SHMEM_TO_ALL_INT(CALL_TEAM, and)
            HANDOFF_SHMEM_TO_ALL_INT(CALL_TEAM, or)
            HANDOFF_SHMEM_TO_ALL_INT(CALL_TEAM, xor)
            HANDOFF_SHMEM_REDUCE_ARITH(CALL_TEAM, max)
            HANDOFF_SHMEM_REDUCE_ARITH(CALL_TEAM, min)
            HANDOFF_SHMEM_REDUCE_ARITH(CALL_TEAM, sum)
            HANDOFF_SHMEM_REDUCE_ARITH(CALL_TEAM, prod)
            if (as_size > 0) {
                HANDOFF_SHMEM_TO_ALL_INT(CALL_TO_ALL, and)
                HANDOFF_SHMEM_TO_ALL_INT(CALL_TO_ALL, or)
                HANDOFF_SHMEM_TO_ALL_INT(CALL_TO_ALL, xor)
                HANDOFF_SHMEM_TO_ALL_ARITH(CALL_TO_ALL, max)
                HANDOFF_SHMEM_TO_ALL_ARITH(CALL_TO_ALL, min)
                HANDOFF_SHMEM_TO_ALL_ARITH(CALL_TO_ALL, sum)
                HANDOFF_SHMEM_TO_ALL_ARITH(CALL_TO_ALL, prod)
            }
        }
        complex_complexf(n);
        complex_complexd(n);
        if (n < MAXN) long_double(n);
    }
}

/* Bytes of member w's contribution: a pattern no other member or position shares. */
static unsigned char pat(int w, size_t i) { return (unsigned char)(w * 37 + i * 7 + (i >> 8)); }

static void movers(void) {
    static const size_t bsizes[] = {0, 1, 8, 16000, 16384, 70000, MAXN * 16};
    for (size_t k = 0; k < sizeof bsizes / sizeof bsizes[0]; k++) {
        size_t len = bsizes[k];
        /* broadcast from every root, root's dest included (team form) */
        for (int root = 0; root < tn; root++) {
            for (size_t i = 0; i < len; i++) sbuf[i] = (char)pat(wme, i);
            memset(dbuf, 0x5a, len + 1);
            shmem_team_sync(team);
            CHECK(shmem_broadcastmem(team, dbuf, sbuf, len, root) == 0, "broadcastmem");
            for (size_t i = 0; i < len; i++)
                CHECK((unsigned char)dbuf[i] == pat(wpe[root], i), "broadcast %zu B root %d [%zu]",
                      len, root, i);
            CHECK(dbuf[len] == 0x5a, "broadcast %zu B wrote past the end", len);
        }
        /* active-set broadcast64: the root's dest untouched */
        if (as_size > 0 && len % 8 == 0) {
            memset(dbuf, 0x5a, len);
            shmem_barrier(as_start, as_log, as_size, pSync);
            shmem_broadcast64(dbuf, sbuf, len / 8, tn - 1, as_start, as_log, as_size, pSync);
            for (size_t i = 0; i < len; i++)
                CHECK((unsigned char)dbuf[i] == (tme == tn - 1 ? 0x5a : pat(wpe[tn - 1], i)),
                      "broadcast64 %zu B [%zu]", len, i);
        }
        size_t flen = len / 4 < 200000 ? len / 4 : 200000; /* fcollect: dbuf holds tn times */
        for (size_t i = 0; i < flen; i++) sbuf[i] = (char)pat(wme, i);
        shmem_team_sync(team);
        CHECK(shmem_fcollectmem(team, dbuf, sbuf, flen) == 0, "fcollectmem");
        for (int j = 0; j < tn; j++)
            for (size_t i = 0; i < flen; i++)
                CHECK((unsigned char)dbuf[j * flen + i] == pat(wpe[j], i), "fcollect %zu B [%d][%zu]",
                      flen, j, i);
        /* collect: member j contributes a size of its own, some inline, some not */
        size_t mine = (flen * (size_t)(tme + 1)) / (size_t)tn, at = 0;
        for (size_t i = 0; i < mine; i++) sbuf[i] = (char)pat(wme, i);
        shmem_team_sync(team);
        CHECK(shmem_collectmem(team, dbuf, sbuf, mine) == 0, "collectmem");
        for (int j = 0; j < tn; j++) {
            size_t l = (flen * (size_t)(j + 1)) / (size_t)tn;
            for (size_t i = 0; i < l; i++, at++)
                CHECK((unsigned char)dbuf[at] == pat(wpe[j], i), "collect %zu B of %d [%zu]", l, j, i);
        }
        /* alltoall: block j of my source (len / 4 / tn bytes) goes to member j */
        size_t blen = flen / (size_t)tn;
        for (int j = 0; j < tn; j++)
            for (size_t i = 0; i < blen; i++) sbuf[j * blen + i] = (char)pat(wme + 11 * j, i);
        shmem_team_sync(team);
        CHECK(shmem_alltoallmem(team, dbuf, sbuf, blen) == 0, "alltoallmem");
        for (int j = 0; j < tn; j++)
            for (size_t i = 0; i < blen; i++)
                CHECK((unsigned char)dbuf[j * blen + i] == pat(wpe[j] + 11 * tme, i),
                      "alltoall %zu B from %d [%zu]", blen, j, i);
        shmem_team_sync(team);
    }
    /* alltoalls of ints: 3 per pair, source stride 2, dest stride 3 */
    int *si = (int *)sbuf, *di = (int *)dbuf;
    for (int k = 0; k < tn * 3 * 2; k++) si[k] = -1;
    for (int j = 0; j < tn; j++)
        for (int e = 0; e < 3; e++) si[(j * 3 + e) * 2] = 1000 * wme + 10 * j + e;
    for (int k = 0; k < tn * 3 * 3; k++) di[k] = -7;
    shmem_team_sync(team);
    shmem_int_alltoalls(team, di, si, 3, 2, 3);
    for (int j = 0; j < tn; j++)
        for (int e = 0; e < 3; e++) {
            CHECK(di[(j * 3 + e) * 3] == 1000 * wpe[j] + 10 * tme + e, "alltoalls [%d][%d]", j, e);
            CHECK(di[(j * 3 + e) * 3 + 1] == -7 && di[(j * 3 + e) * 3 + 2] == -7, "alltoalls gap");
        }
    shmem_team_sync(team);
}

/* Many collectives back to back, no barrier between them: each has its own dest (ready, by
 * the spec's rule), so only the library orders them; the small messages reuse their slots. */
static void back_to_back(void) {
    long *s = (long *)sbuf, *d = (long *)dbuf;
    const int reps = 200, n = 3;
    for (int i = 0; i < n; i++) s[i] = wme + i;
    shmem_team_sync(team);
    for (int r = 0; r < reps; r++) {
        long *dr = d + r * (n + tn * 2 + 1);
        shmem_long_sum_reduce(team, dr, s, n);
        shmem_long_fcollect(team, dr + n, s, 1);
        shmem_long_collect(team, dr + n + tn, s + 1, (size_t)(tme % 2));
        shmem_long_broadcast(team, dr + n + 2 * tn, s, 1, r % tn);
    }
    long sum = 0, odd = 0;
    for (int j = 0; j < tn; j++) sum += wpe[j];
    for (int r = 0; r < reps; r++) {
        long *dr = d + r * (n + tn * 2 + 1);
        for (int i = 0; i < n; i++)
            CHECK(dr[i] == sum + (long)tn * i, "back-to-back sum %d [%d] = %ld", r, i, dr[i]);
        for (int j = 0; j < tn; j++) CHECK(dr[n + j] == wpe[j], "back-to-back fcollect %d", r);
        odd = 0;
        for (int j = 0; j < tn; j++)
            if (j % 2) CHECK(dr[n + tn + odd++] == wpe[j] + 1, "back-to-back collect %d", r);
        CHECK(dr[n + 2 * tn] == wpe[r % tn], "back-to-back broadcast %d", r);
    }
    shmem_team_sync(team);
}

static void on(shmem_team_t t, int start, int logs, int size) {
    team = t;
    tn = shmem_team_n_pes(t);
    tme = shmem_team_my_pe(t);
    for (int j = 0; j < tn; j++) wpe[j] = shmem_team_translate_pe(t, j, SHMEM_TEAM_WORLD);
    as_start = start;
    as_log = logs;
    as_size = size;
    reductions();
    movers();
    back_to_back();
}

int main(int argc, char **argv) {
    few = argc > 1 && strcmp(argv[1], "few") == 0;
    shmem_init();
    wme = shmem_my_pe();
    int n = shmem_n_pes();
    CHECK(n <= 1024, "at most 1024 PEs");
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) pSync[i] = SHMEM_SYNC_VALUE;
    sbuf = shmem_malloc(MAXN * 16 + 64);
    dbuf = shmem_malloc((size_t)MAXN * 16 * (size_t)n + 64);
    CHECK(sbuf && dbuf, "malloc");
    on(SHMEM_TEAM_WORLD, 0, 0, n);
    /* the odd PEs (stride 2): an active set too */
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (n > 1) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
        if (odd != SHMEM_TEAM_INVALID) on(odd, 1, 1, n / 2);
        shmem_team_destroy(odd);
    }
    /* the world reversed: not an active set */
    shmem_team_t rev;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev);
    on(rev, 0, 0, 0);
    shmem_team_destroy(rev);
    /* zero elements at NULL: nothing moves, nothing breaks (tests-sos nop_collectives) */
    shmem_broadcastmem(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0);
    shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, n, pSync);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0);
    shmem_collectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0);
    shmem_alltoallmem(SHMEM_TEAM_WORLD, NULL, NULL, 0);
    shmem_alltoallsmem(SHMEM_TEAM_WORLD, NULL, NULL, 1, 1, 0);
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0);
    shmem_double_max_to_all(NULL, NULL, 0, 0, 0, n, (double *)wrk, pSync);
    shmem_barrier_all();
    if (wme == 0) printf("OK coll_algos %d PEs\n", n);
    shmem_finalize();
    return 0;
}

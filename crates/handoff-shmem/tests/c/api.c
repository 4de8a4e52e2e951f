/* Every routine of the OpenSHMEM 1.5 C interface, deprecated ones included, called the way
 * the specification's examples call it, each result and each byte it moves checked. The
 * type lists below are the specification's tables, written out here (not taken from
 * shmem.h), so a type the header or the library lacks fails to build or to link.
 *
 * Built once per header: API_HEADER 0 <shmem.h>, 1 <shmemx.h>, 2 <mpp/shmem.h>,
 * 3 <mpp/shmemx.h>, 4 <pshmem.h> (then every routine, type-generic names included, is
 * called by its profiling name, pshmem_*); as C11 and as C++ (api_cxx.cpp
 * includes this file: the generic names are then the C++ overloads). `api init` starts with
 * shmem_init, `api start_pes` with the deprecated start_pes, and `api` with
 * shmem_init_thread. */
#ifndef API_HEADER
#define API_HEADER 0
#endif
#if API_HEADER == 1
#include <shmemx.h>
#elif API_HEADER == 2
#include <mpp/shmem.h>
#elif API_HEADER == 3
#include <mpp/shmemx.h>
#elif API_HEADER == 4
#include <pshmem.h>
#else
#include <shmem.h>
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#if API_HEADER == 4
#define S(x) pshmem_##x
#else
#define S(x) shmem_##x
#endif
/* The type-generic names (pshmem.h has them too). */
#if API_HEADER == 4
#define G(x) pshmem_##x
#else
#define G(x) shmem_##x
#endif
/* The context forms, and the argument list's head for them (NOCTX(): none). */
#define SC(x) S(ctx_##x)
#define NOCTX()
#define WITHCTX() ctx,

#define NE 4
/* The value element i of PE pe's source holds: small, exact in every type. */
#define V(T, pe, i) ((T)((pe) * 10 + (i) + 1))

static int me, npes, right, left;
/* The round's target PE (in the numbering of the call: a context's team or the world) and
 * the world PE whose data arrives here. */
static int tgt, from;
static shmem_ctx_t ctx;

/* ---- the specification's type tables ------------------------------------------------ */

/* Table 5: RMA and the team collectives. */
#define RMA_TYPES(X)                                                                       \
    X(float, float) X(double, double) X(long double, longdouble) X(char, char)             \
    X(signed char, schar) X(short, short) X(int, int) X(long, long)                        \
    X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)               \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)         \
    X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)                  \
    X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64)          \
    X(size_t, size) X(ptrdiff_t, ptrdiff)
/* Table 8: the standard AMOs (and the deprecated finc/inc/fadd/add/cswap names). */
#define STD_AMO_TYPES(X)                                                                   \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)                 \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)             \
    X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)              \
    X(ptrdiff_t, ptrdiff)
/* Table 7: the extended AMOs (and the deprecated fetch/set/swap names). */
#define EXT_AMO_TYPES(X) STD_AMO_TYPES(X) X(float, float) X(double, double)
/* Table 9: the bitwise AMOs. */
#define BIT_AMO_TYPES(X)                                                                   \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)         \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)
/* Table 10: point-to-point synchronization. */
#define P2P_TYPES(X)                                                                       \
    X(short, short) X(int, int) X(long, long) X(long long, longlong)                       \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)                \
    X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64)                   \
    X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
/* Table 11: team reductions, bitwise (and, or, xor) and arithmetic (max, min, sum, prod). */
#define RED_BIT_TYPES(X)                                                                   \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8)               \
    X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8)                \
    X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
#define RED_ARITH_TYPES(X)                                                                 \
    X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)          \
    X(long long, longlong) X(ptrdiff_t, ptrdiff) X(unsigned char, uchar)                   \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)                \
    X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)   \
    X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)            \
    X(uint64_t, uint64) X(size_t, size) X(float, float) X(double, double)                  \
    X(long double, longdouble)
/* The deprecated active-set reductions (_to_all). */
#define TO_ALL_INT_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define TO_ALL_ARITH_TYPES(X)                                                              \
    TO_ALL_INT_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)

static long psync[SHMEM_BCAST_SYNC_SIZE + SHMEM_REDUCE_SYNC_SIZE + SHMEM_COLLECT_SYNC_SIZE +
                  SHMEM_ALLTOALL_SYNC_SIZE + SHMEM_ALLTOALLS_SYNC_SIZE +
                  SHMEM_BARRIER_SYNC_SIZE + SHMEM_SYNC_SIZE];

/* ---- RMA, put-with-signal, and their context forms ------------------------------------
 * One round: four blocks put (put, put_nbi, put_signal, put_signal_nbi) into `tgt`'s d,
 * got back, then strided, then p/g. F names the call, C() heads its arguments. */
#define RMA_ROUND(T, N, F, C)                                                              \
    do {                                                                                   \
        T src[4 * NE], back[4 * NE];                                                       \
        for (int i = 0; i < 4 * NE; i++) src[i] = V(T, me, i);                             \
        *sig = 0;                                                                          \
        S(barrier_all)();                                                                  \
        F(N##_put)(C() d, src, NE, tgt);                                                   \
        F(N##_put_nbi)(C() d + NE, src + NE, NE, tgt);                                     \
        F(N##_put_signal)(C() d + 2 * NE, src + 2 * NE, NE, sig, 1, SHMEM_SIGNAL_ADD, tgt); \
        F(N##_put_signal_nbi)(C() d + 3 * NE, src + 3 * NE, NE, sig, 1, SHMEM_SIGNAL_ADD,  \
                              tgt);                                                        \
        S(quiet)();                                                                        \
        CHECK(S(signal_wait_until)(sig, SHMEM_CMP_EQ, 2) == 2, #N " signal");              \
        S(barrier_all)();                                                                  \
        for (int i = 0; i < 4 * NE; i++)                                                   \
            CHECK(d[i] == V(T, from, i), #N " put %d from PE %d", i, from);                \
        F(N##_get)(C() back, d, NE, tgt);                                                  \
        F(N##_get_nbi)(C() back + NE, d + NE, NE, tgt);                                    \
        S(quiet)();                                                                        \
        for (int i = 0; i < 2 * NE; i++) CHECK(back[i] == V(T, me, i), #N " get %d", i);   \
        S(barrier_all)();                                                                  \
        /* src 0, 3, 6 into d 0, 2, 4 of tgt; then d 0, 2, 4 of tgt back into back 0..2 */ \
        F(N##_iput)(C() d, src, 2, 3, 3, tgt);                                             \
        S(barrier_all)();                                                                  \
        for (int k = 0; k < 3; k++) CHECK(d[2 * k] == V(T, from, 3 * k), #N " iput %d", k); \
        F(N##_iget)(C() back, d, 1, 2, 3, tgt);                                            \
        for (int k = 0; k < 3; k++) CHECK(back[k] == V(T, me, 3 * k), #N " iget %d", k);   \
        S(barrier_all)();                                                                  \
        F(N##_p)(C() d + 1, V(T, me, 7), tgt);                                             \
        S(barrier_all)();                                                                  \
        CHECK(d[1] == V(T, from, 7), #N " p");                                             \
        CHECK(F(N##_g)(C() d + 1, tgt) == V(T, me, 7), #N " g");                          \
        S(barrier_all)();                                                                  \
    } while (0)

#define TEST_RMA(T, N)                                                                     \
    static void rma_##N(void) {                                                            \
        T *d = (T *)S(calloc)(4 * NE, sizeof(T));                                          \
        uint64_t *sig = (uint64_t *)S(calloc)(1, sizeof(uint64_t));                        \
        CHECK(d != NULL && sig != NULL, #N " calloc");                                    \
        tgt = right, from = left;                                                          \
        RMA_ROUND(T, N, S, NOCTX);                                                         \
        tgt = (S(team_my_pe)(ctx_team) + 1) % npes;                                        \
        from = S(team_translate_pe)(ctx_team, (S(team_my_pe)(ctx_team) + npes - 1) % npes, \
                                    SHMEM_TEAM_WORLD);                                     \
        RMA_ROUND(T, N, SC, WITHCTX);                                                      \
        S(free)(sig);                                                                      \
        S(free)(d);                                                                        \
    }
static shmem_team_t ctx_team;
RMA_TYPES(TEST_RMA)

/* The sized and the untyped (mem) forms, with and without a context. */
#define SIZED_ROUND(F, C, BITS, U)                                                         \
    do {                                                                                   \
        U *d = (U *)S(calloc)(4 * NE, sizeof(U));                                          \
        uint64_t *sig = (uint64_t *)S(calloc)(1, sizeof(uint64_t));                        \
        U src[4 * NE], back[4 * NE];                                                       \
        for (int i = 0; i < 4 * NE; i++) src[i] = V(U, me, i);                             \
        F(put##BITS)(C() d, src, NE, tgt);                                                 \
        F(put##BITS##_nbi)(C() d + NE, src + NE, NE, tgt);                                 \
        F(put##BITS##_signal)(C() d + 2 * NE, src + 2 * NE, NE, sig, 1, SHMEM_SIGNAL_ADD,  \
                              tgt);                                                        \
        F(put##BITS##_signal_nbi)(C() d + 3 * NE, src + 3 * NE, NE, sig, 1,               \
                                  SHMEM_SIGNAL_ADD, tgt);                                  \
        S(quiet)();                                                                        \
        S(signal_wait_until)(sig, SHMEM_CMP_EQ, 2);                                        \
        S(barrier_all)();                                                                  \
        for (int i = 0; i < 4 * NE; i++) CHECK(d[i] == V(U, from, i), "put%d %d", BITS, i); \
        F(get##BITS)(C() back, d, NE, tgt);                                                \
        F(get##BITS##_nbi)(C() back + NE, d + NE, NE, tgt);                                \
        S(quiet)();                                                                        \
        for (int i = 0; i < 2 * NE; i++) CHECK(back[i] == V(U, me, i), "get%d", BITS);     \
        S(barrier_all)();                                                                  \
        F(iput##BITS)(C() d, src, 2, 3, 3, tgt);                                           \
        S(barrier_all)();                                                                  \
        for (int k = 0; k < 3; k++) CHECK(d[2 * k] == V(U, from, 3 * k), "iput%d", BITS);  \
        F(iget##BITS)(C() back, d, 1, 2, 3, tgt);                                          \
        for (int k = 0; k < 3; k++) CHECK(back[k] == V(U, me, 3 * k), "iget%d", BITS);     \
        S(barrier_all)();                                                                  \
        S(free)(sig);                                                                      \
        S(free)(d);                                                                        \
    } while (0)
typedef struct { uint64_t lo, hi; } u128;
static int u128_eq(u128 a, u128 b) { return a.lo == b.lo && a.hi == b.hi; }

#define MEM_ROUND(F, C)                                                                    \
    do {                                                                                   \
        char *d = (char *)S(calloc)(4 * NE, 1);                                            \
        uint64_t *sig = (uint64_t *)S(calloc)(1, sizeof(uint64_t));                        \
        char src[4 * NE], back[4 * NE];                                                    \
        for (int i = 0; i < 4 * NE; i++) src[i] = V(char, me, i);                          \
        F(putmem)(C() d, src, NE, tgt);                                                    \
        F(putmem_nbi)(C() d + NE, src + NE, NE, tgt);                                      \
        F(putmem_signal)(C() d + 2 * NE, src + 2 * NE, NE, sig, 5, SHMEM_SIGNAL_SET, tgt); \
        S(quiet)();                                                                        \
        /* >= 5: the sender may have set 6 already */                                     \
        S(signal_wait_until)(sig, SHMEM_CMP_GE, 5);                                        \
        F(putmem_signal_nbi)(C() d + 3 * NE, src + 3 * NE, NE, sig, 6, SHMEM_SIGNAL_SET,   \
                             tgt);                                                         \
        S(quiet)();                                                                        \
        S(signal_wait_until)(sig, SHMEM_CMP_EQ, 6);                                        \
        S(barrier_all)();                                                                  \
        for (int i = 0; i < 4 * NE; i++) CHECK(d[i] == V(char, from, i), "putmem %d", i);  \
        F(getmem)(C() back, d, NE, tgt);                                                   \
        F(getmem_nbi)(C() back + NE, d + NE, NE, tgt);                                     \
        S(quiet)();                                                                        \
        for (int i = 0; i < 2 * NE; i++) CHECK(back[i] == V(char, me, i), "getmem");       \
        S(barrier_all)();                                                                  \
        S(free)(sig);                                                                      \
        S(free)(d);                                                                        \
    } while (0)

static void sized_and_mem(int with_ctx) {
    if (!with_ctx) {
        SIZED_ROUND(S, NOCTX, 8, uint8_t);
        SIZED_ROUND(S, NOCTX, 16, uint16_t);
        SIZED_ROUND(S, NOCTX, 32, uint32_t);
        SIZED_ROUND(S, NOCTX, 64, uint64_t);
        MEM_ROUND(S, NOCTX);
    } else {
        SIZED_ROUND(SC, WITHCTX, 8, uint8_t);
        SIZED_ROUND(SC, WITHCTX, 16, uint16_t);
        SIZED_ROUND(SC, WITHCTX, 32, uint32_t);
        SIZED_ROUND(SC, WITHCTX, 64, uint64_t);
        MEM_ROUND(SC, WITHCTX);
    }
    /* 128-bit elements: a struct of two words. */
    u128 *d = (u128 *)S(calloc)(4 * NE, sizeof(u128));
    uint64_t *sig = (uint64_t *)S(calloc)(1, sizeof(uint64_t));
    u128 src[4 * NE], back[4 * NE];
    for (int i = 0; i < 4 * NE; i++) {
        src[i].lo = (uint64_t)V(int, me, i);
        src[i].hi = ~src[i].lo;
    }
#define E128(pe, i) (d[i].lo == (uint64_t)V(int, pe, i) && d[i].hi == ~(uint64_t)V(int, pe, i))
    if (with_ctx) {
        SC(put128)(ctx, d, src, NE, tgt);
        SC(put128_nbi)(ctx, d + NE, src + NE, NE, tgt);
        SC(put128_signal)(ctx, d + 2 * NE, src + 2 * NE, NE, sig, 1, SHMEM_SIGNAL_ADD, tgt);
        SC(put128_signal_nbi)(ctx, d + 3 * NE, src + 3 * NE, NE, sig, 1, SHMEM_SIGNAL_ADD,
                              tgt);
    } else {
        S(put128)(d, src, NE, tgt);
        S(put128_nbi)(d + NE, src + NE, NE, tgt);
        S(put128_signal)(d + 2 * NE, src + 2 * NE, NE, sig, 1, SHMEM_SIGNAL_ADD, tgt);
        S(put128_signal_nbi)(d + 3 * NE, src + 3 * NE, NE, sig, 1, SHMEM_SIGNAL_ADD, tgt);
    }
    S(quiet)();
    S(signal_wait_until)(sig, SHMEM_CMP_EQ, 2);
    S(barrier_all)();
    for (int i = 0; i < 4 * NE; i++) CHECK(E128(from, i), "put128 %d", i);
    if (with_ctx) {
        SC(get128)(ctx, back, d, NE, tgt);
        SC(get128_nbi)(ctx, back + NE, d + NE, NE, tgt);
    } else {
        S(get128)(back, d, NE, tgt);
        S(get128_nbi)(back + NE, d + NE, NE, tgt);
    }
    S(quiet)();
    for (int i = 0; i < 2 * NE; i++) CHECK(u128_eq(back[i], src[i]), "get128 %d", i);
    S(barrier_all)();
    if (with_ctx) SC(iput128)(ctx, d, src, 2, 3, 3, tgt);
    else S(iput128)(d, src, 2, 3, 3, tgt);
    S(barrier_all)();
    for (int k = 0; k < 3; k++)
        CHECK(d[2 * k].lo == (uint64_t)V(int, from, 3 * k), "iput128 %d", k);
    if (with_ctx) SC(iget128)(ctx, back, d, 1, 2, 3, tgt);
    else S(iget128)(back, d, 1, 2, 3, tgt);
    for (int k = 0; k < 3; k++) CHECK(u128_eq(back[k], src[3 * k]), "iget128 %d", k);
    S(barrier_all)();
    S(free)(sig);
    S(free)(d);
}

/* ---- AMOs: the previous PE works on this PE's word; the results of every step are known */
#define STD_ROUND(T, N, F, C)                                                              \
    do {                                                                                   \
        T f = 0;                                                                           \
        *x = 5;                                                                            \
        S(barrier_all)();                                                                  \
        CHECK(F(N##_atomic_fetch_inc)(C() x, tgt) == 5, #N " fetch_inc");                  \
        F(N##_atomic_inc)(C() x, tgt);                                                     \
        CHECK(F(N##_atomic_fetch_add)(C() x, 3, tgt) == 7, #N " fetch_add");               \
        F(N##_atomic_add)(C() x, 2, tgt);                                                  \
        CHECK(F(N##_atomic_compare_swap)(C() x, 12, 20, tgt) == 12, #N " compare_swap");   \
        CHECK(F(N##_atomic_compare_swap)(C() x, 0, 99, tgt) == 20, #N " compare_swap no"); \
        F(N##_atomic_fetch_inc_nbi)(C() & f, x, tgt);                                      \
        S(quiet)();                                                                        \
        CHECK(f == 20, #N " fetch_inc_nbi");                                               \
        F(N##_atomic_fetch_add_nbi)(C() & f, x, 4, tgt);                                   \
        S(quiet)();                                                                        \
        CHECK(f == 21, #N " fetch_add_nbi");                                               \
        F(N##_atomic_compare_swap_nbi)(C() & f, x, 25, 30, tgt);                           \
        S(quiet)();                                                                        \
        CHECK(f == 25, #N " compare_swap_nbi");                                            \
        S(barrier_all)();                                                                  \
        CHECK(*x == 30, #N " standard AMOs left %lld", (long long)*x);                     \
        S(barrier_all)();                                                                  \
    } while (0)
#define EXT_ROUND(T, N, F, C)                                                              \
    do {                                                                                   \
        T f = 0;                                                                           \
        *y = 0;                                                                            \
        S(barrier_all)();                                                                  \
        F(N##_atomic_set)(C() y, (T)7, tgt);                                               \
        CHECK(F(N##_atomic_fetch)(C() y, tgt) == (T)7, #N " fetch");                       \
        CHECK(F(N##_atomic_swap)(C() y, (T)8, tgt) == (T)7, #N " swap");                   \
        F(N##_atomic_fetch_nbi)(C() & f, y, tgt);                                          \
        S(quiet)();                                                                        \
        CHECK(f == (T)8, #N " fetch_nbi");                                                 \
        F(N##_atomic_swap_nbi)(C() & f, y, (T)9, tgt);                                     \
        S(quiet)();                                                                        \
        CHECK(f == (T)8, #N " swap_nbi");                                                  \
        S(barrier_all)();                                                                  \
        CHECK(*y == (T)9, #N " extended AMOs");                                            \
        S(barrier_all)();                                                                  \
    } while (0)
#define BIT_ROUND(T, N, F, C)                                                              \
    do {                                                                                   \
        T f = 0;                                                                           \
        *z = 0xF0;                                                                         \
        S(barrier_all)();                                                                  \
        CHECK(F(N##_atomic_fetch_or)(C() z, 0x0F, tgt) == 0xF0, #N " fetch_or");           \
        CHECK(F(N##_atomic_fetch_xor)(C() z, 0x11, tgt) == 0xFF, #N " fetch_xor");         \
        CHECK(F(N##_atomic_fetch_and)(C() z, 0x7C, tgt) == 0xEE, #N " fetch_and");         \
        F(N##_atomic_or)(C() z, 0x01, tgt);                                                \
        F(N##_atomic_xor)(C() z, 0x0F, tgt);                                               \
        F(N##_atomic_and)(C() z, 0x3E, tgt);                                               \
        F(N##_atomic_fetch_and_nbi)(C() & f, z, 0xFF, tgt);                                \
        S(quiet)();                                                                        \
        CHECK(f == 0x22, #N " fetch_and_nbi");                                             \
        F(N##_atomic_fetch_or_nbi)(C() & f, z, 0x100, tgt);                                \
        S(quiet)();                                                                        \
        CHECK(f == 0x22, #N " fetch_or_nbi");                                              \
        F(N##_atomic_fetch_xor_nbi)(C() & f, z, 0x2, tgt);                                 \
        S(quiet)();                                                                        \
        CHECK(f == 0x122, #N " fetch_xor_nbi");                                            \
        S(barrier_all)();                                                                  \
        CHECK(*z == 0x120, #N " bitwise AMOs");                                            \
        S(barrier_all)();                                                                  \
    } while (0)
/* The deprecated 1.3 names (no context forms). */
#define OLD_STD(T, N)                                                                      \
    do {                                                                                   \
        *x = 30;                                                                           \
        S(barrier_all)();                                                                  \
        CHECK(S(N##_finc)(x, right) == 30, #N " finc");                                    \
        S(N##_inc)(x, right);                                                              \
        CHECK(S(N##_fadd)(x, 3, right) == 32, #N " fadd");                                 \
        S(N##_add)(x, 5, right);                                                           \
        CHECK(S(N##_cswap)(x, 40, 41, right) == 40, #N " cswap");                          \
        S(barrier_all)();                                                                  \
        CHECK(*x == 41, #N " deprecated AMOs");                                            \
        S(barrier_all)();                                                                  \
    } while (0)
#define OLD_EXT(T, N)                                                                      \
    do {                                                                                   \
        *y = 0;                                                                            \
        S(barrier_all)();                                                                  \
        S(N##_set)(y, (T)10, right);                                                       \
        CHECK(S(N##_fetch)(y, right) == (T)10, #N " fetch (deprecated)");                  \
        CHECK(S(N##_swap)(y, (T)11, right) == (T)10, #N " swap (deprecated)");             \
        S(barrier_all)();                                                                  \
        CHECK(*y == (T)11, #N " deprecated extended AMOs");                                \
        S(barrier_all)();                                                                  \
    } while (0)

#define CTX_TGT()                                                                          \
    tgt = (S(team_my_pe)(ctx_team) + 1) % npes

#define TEST_STD(T, N)                                                                     \
    static void std_##N(void) {                                                            \
        T *x = (T *)S(calloc)(1, sizeof(T));                                               \
        tgt = right;                                                                       \
        STD_ROUND(T, N, S, NOCTX);                                                         \
        CTX_TGT();                                                                         \
        STD_ROUND(T, N, SC, WITHCTX);                                                      \
        OLD_STD(T, N);                                                                     \
        S(free)(x);                                                                        \
    }
#define TEST_EXT(T, N)                                                                     \
    static void ext_##N(void) {                                                            \
        T *y = (T *)S(calloc)(1, sizeof(T));                                               \
        tgt = right;                                                                       \
        EXT_ROUND(T, N, S, NOCTX);                                                         \
        CTX_TGT();                                                                         \
        EXT_ROUND(T, N, SC, WITHCTX);                                                      \
        OLD_EXT(T, N);                                                                     \
        S(free)(y);                                                                        \
    }
#define TEST_BIT(T, N)                                                                     \
    static void bit_##N(void) {                                                            \
        T *z = (T *)S(calloc)(1, sizeof(T));                                               \
        tgt = right;                                                                       \
        BIT_ROUND(T, N, S, NOCTX);                                                         \
        CTX_TGT();                                                                         \
        BIT_ROUND(T, N, SC, WITHCTX);                                                      \
        S(free)(z);                                                                        \
    }
STD_AMO_TYPES(TEST_STD)
EXT_AMO_TYPES(TEST_EXT)
BIT_AMO_TYPES(TEST_BIT)

/* ---- point-to-point synchronization: the previous PE sets three words to 1 ------------- */
#define TEST_P2P(T, N)                                                                     \
    static void p2p_##N(void) {                                                            \
        T *iv = (T *)S(calloc)(3, sizeof(T));                                              \
        int status[3] = {0, 0, 0};                                                         \
        size_t idx[3];                                                                     \
        T want[3] = {1, 1, 1};                                                             \
        S(barrier_all)();                                                                  \
        for (int k = 0; k < 3; k++) S(N##_p)(iv + k, 1, right);                            \
        S(quiet)();                                                                        \
        S(N##_wait_until)(iv, SHMEM_CMP_EQ, 1);                                            \
        S(N##_wait)(iv + 1, 0);                                                            \
        S(N##_wait_until_all)(iv, 3, NULL, SHMEM_CMP_EQ, 1);                               \
        status[0] = 1;                                                                     \
        {                                                                                  \
            size_t r = S(N##_wait_until_any)(iv, 3, status, SHMEM_CMP_GE, 1);              \
            CHECK(r == 1 || r == 2, #N " wait_until_any (index 0 masked): %zu", r);       \
        }                                                                                  \
        CHECK(S(N##_wait_until_some)(iv, 3, idx, NULL, SHMEM_CMP_NE, 0) == 3, #N " some"); \
        S(N##_wait_until_all_vector)(iv, 3, NULL, SHMEM_CMP_EQ, want);                     \
        CHECK(S(N##_wait_until_any_vector)(iv, 3, status, SHMEM_CMP_EQ, want) != 0,       \
              #N " any_vector (index 0 masked)");                                          \
        CHECK(S(N##_wait_until_some_vector)(iv, 3, idx, NULL, SHMEM_CMP_LE, want) == 3,   \
              #N " some_vector");                                                          \
        CHECK(S(N##_test)(iv + 2, SHMEM_CMP_EQ, 1) == 1, #N " test");                      \
        CHECK(S(N##_test)(iv + 2, SHMEM_CMP_GT, 1) == 0, #N " test false");                \
        CHECK(S(N##_test_all)(iv, 3, NULL, SHMEM_CMP_LT, 2) == 1, #N " test_all");         \
        CHECK(S(N##_test_any)(iv, 3, status, SHMEM_CMP_EQ, 1) < 3, #N " test_any");        \
        CHECK(S(N##_test_some)(iv, 3, idx, NULL, SHMEM_CMP_EQ, 1) == 3,                    \
              #N " test_some");                                                            \
        CHECK(S(N##_test_all_vector)(iv, 3, NULL, SHMEM_CMP_EQ, want) == 1, #N " tav");    \
        CHECK(S(N##_test_any_vector)(iv, 3, NULL, SHMEM_CMP_EQ, want) < 3, #N " tanyv");   \
        CHECK(S(N##_test_some_vector)(iv, 3, idx, NULL, SHMEM_CMP_GE, want) == 3,         \
              #N " tsv");                                                                  \
        S(barrier_all)();                                                                  \
        S(free)(iv);                                                                       \
    }
P2P_TYPES(TEST_P2P)

/* ---- team collectives, typed, on SHMEM_TEAM_WORLD -------------------------------------- */
#define TEST_TEAM_COLL(T, N)                                                               \
    static void coll_##N(void) {                                                           \
        T *src = (T *)S(calloc)(NE * 4, sizeof(T));                                        \
        T *dst = (T *)S(calloc)(NE * 4 * 4, sizeof(T));                                    \
        for (int i = 0; i < NE * 4; i++) src[i] = V(T, me, i);                             \
        S(barrier_all)();                                                                  \
        CHECK(S(N##_broadcast)(SHMEM_TEAM_WORLD, dst, src, NE, npes - 1) == 0, #N " bc");  \
        for (int i = 0; i < NE; i++) CHECK(dst[i] == V(T, npes - 1, i), #N " broadcast"); \
        S(barrier_all)(); /* dst ready for the next one (the spec's rule) */               \
        CHECK(S(N##_collect)(SHMEM_TEAM_WORLD, dst, src, 1 + me % 2) == 0, #N " collect"); \
        for (int p = 0, at = 0; p < npes; at += 1 + p % 2, p++)                            \
            for (int i = 0; i < 1 + p % 2; i++)                                            \
                CHECK(dst[at + i] == V(T, p, i), #N " collect %d %d", p, i);               \
        S(barrier_all)(); /* dst ready for the next one (the spec's rule) */               \
        CHECK(S(N##_fcollect)(SHMEM_TEAM_WORLD, dst, src, 2) == 0, #N " fcollect");        \
        for (int p = 0; p < npes; p++)                                                     \
            for (int i = 0; i < 2; i++) CHECK(dst[2 * p + i] == V(T, p, i), #N " fcollect"); \
        S(barrier_all)(); /* dst ready for the next one (the spec's rule) */               \
        CHECK(S(N##_alltoall)(SHMEM_TEAM_WORLD, dst, src, 1) == 0, #N " alltoall");        \
        for (int p = 0; p < npes; p++) CHECK(dst[p] == V(T, p, me), #N " alltoall %d", p);  \
        S(barrier_all)(); /* dst ready for the next one (the spec's rule) */               \
        CHECK(S(N##_alltoalls)(SHMEM_TEAM_WORLD, dst, src, 2, 1, 1) == 0, #N " alltoalls"); \
        for (int p = 0; p < npes; p++)                                                     \
            CHECK(dst[2 * p] == V(T, p, me), #N " alltoalls %d", p);                       \
        S(free)(dst);                                                                      \
        S(free)(src);                                                                      \
    }
RMA_TYPES(TEST_TEAM_COLL)

/* ---- reductions: team (_reduce) and active-set (_to_all) -------------------------------- */
#define EXPECT_ARITH(T, i, OP, out)                                                        \
    do {                                                                                   \
        out = (T)(OP == 2 ? 0 : OP == 3 ? 1 : (i) + 1);                                    \
        for (int p = 0; p < npes; p++) {                                                   \
            T v = (T)(p + (i) + 1);                                                        \
            out = OP == 0 ? (v > out ? v : out) : OP == 1 ? (v < out ? v : out)            \
                : OP == 2 ? (T)(out + v) : (T)(out * v);                                   \
        }                                                                                  \
    } while (0)
#define TEST_RED_ARITH(T, N)                                                               \
    static void red_arith_##N(void) {                                                      \
        T *src = (T *)S(calloc)(2, sizeof(T)), *dst = (T *)S(calloc)(2, sizeof(T));        \
        for (int i = 0; i < 2; i++) src[i] = (T)(me + i + 1);                              \
        S(barrier_all)();                                                                  \
        CHECK(S(N##_max_reduce)(SHMEM_TEAM_WORLD, dst, src, 2) == 0, #N " max");           \
        for (int i = 0; i < 2; i++) { T e; EXPECT_ARITH(T, i, 0, e); CHECK(dst[i] == e, #N " max"); } \
        CHECK(S(N##_min_reduce)(SHMEM_TEAM_WORLD, dst, src, 2) == 0, #N " min");           \
        for (int i = 0; i < 2; i++) { T e; EXPECT_ARITH(T, i, 1, e); CHECK(dst[i] == e, #N " min"); } \
        CHECK(S(N##_sum_reduce)(SHMEM_TEAM_WORLD, dst, src, 2) == 0, #N " sum");           \
        for (int i = 0; i < 2; i++) { T e; EXPECT_ARITH(T, i, 2, e); CHECK(dst[i] == e, #N " sum"); } \
        CHECK(S(N##_prod_reduce)(SHMEM_TEAM_WORLD, dst, src, 2) == 0, #N " prod");         \
        for (int i = 0; i < 2; i++) { T e; EXPECT_ARITH(T, i, 3, e); CHECK(dst[i] == e, #N " prod"); } \
        S(free)(dst);                                                                      \
        S(free)(src);                                                                      \
    }
RED_ARITH_TYPES(TEST_RED_ARITH)

#define BITS_OF(T, p, i) ((T)((1 << (p)) | (0x10 << (i)) | 0x40))
#define EXPECT_BIT(T, i, OP, out)                                                          \
    do {                                                                                   \
        out = BITS_OF(T, 0, i);                                                            \
        for (int p = 1; p < npes; p++) {                                                   \
            T v = BITS_OF(T, p, i);                                                        \
            out = OP == 0 ? (T)(out & v) : OP == 1 ? (T)(out | v) : (T)(out ^ v);          \
        }                                                                                  \
    } while (0)
#define TEST_RED_BIT(T, N)                                                                 \
    static void red_bit_##N(void) {                                                        \
        T *src = (T *)S(calloc)(2, sizeof(T)), *dst = (T *)S(calloc)(2, sizeof(T));        \
        for (int i = 0; i < 2; i++) src[i] = BITS_OF(T, me, i);                            \
        S(barrier_all)();                                                                  \
        CHECK(S(N##_and_reduce)(SHMEM_TEAM_WORLD, dst, src, 2) == 0, #N " and");           \
        for (int i = 0; i < 2; i++) { T e; EXPECT_BIT(T, i, 0, e); CHECK(dst[i] == e, #N " and"); } \
        CHECK(S(N##_or_reduce)(SHMEM_TEAM_WORLD, dst, src, 2) == 0, #N " or");             \
        for (int i = 0; i < 2; i++) { T e; EXPECT_BIT(T, i, 1, e); CHECK(dst[i] == e, #N " or"); } \
        CHECK(S(N##_xor_reduce)(SHMEM_TEAM_WORLD, dst, src, 2) == 0, #N " xor");           \
        for (int i = 0; i < 2; i++) { T e; EXPECT_BIT(T, i, 2, e); CHECK(dst[i] == e, #N " xor"); } \
        S(free)(dst);                                                                      \
        S(free)(src);                                                                      \
    }
RED_BIT_TYPES(TEST_RED_BIT)
/* shmem.h also has and/or/xor _reduce for the signed short, int, long and long long. */
TO_ALL_INT_TYPES(TEST_RED_BIT)

#define TO_ALL_ROUND(T, N, OP, K, EXPECT)                                                  \
    do {                                                                                   \
        S(barrier_all)();                                                                  \
        S(N##_##OP##_to_all)(dst, src, 2, 0, 0, npes, pwrk, psync);                        \
        for (int i = 0; i < 2; i++) {                                                      \
            T e;                                                                           \
            EXPECT(T, i, K, e);                                                            \
            CHECK(dst[i] == e, #N " " #OP "_to_all");                                      \
        }                                                                                  \
    } while (0)
#define TEST_TO_ALL_ARITH(T, N)                                                            \
    static void to_all_arith_##N(void) {                                                   \
        T *src = (T *)S(calloc)(2, sizeof(T)), *dst = (T *)S(calloc)(2, sizeof(T));        \
        T *pwrk = (T *)S(calloc)(SHMEM_REDUCE_MIN_WRKDATA_SIZE + 2, sizeof(T));            \
        for (int i = 0; i < 2; i++) src[i] = (T)(me + i + 1);                              \
        TO_ALL_ROUND(T, N, max, 0, EXPECT_ARITH);                                          \
        TO_ALL_ROUND(T, N, min, 1, EXPECT_ARITH);                                          \
        TO_ALL_ROUND(T, N, sum, 2, EXPECT_ARITH);                                          \
        TO_ALL_ROUND(T, N, prod, 3, EXPECT_ARITH);                                         \
        S(barrier_all)();                                                                  \
        S(free)(pwrk);                                                                     \
        S(free)(dst);                                                                      \
        S(free)(src);                                                                      \
    }
#define TEST_TO_ALL_BIT(T, N)                                                              \
    static void to_all_bit_##N(void) {                                                     \
        T *src = (T *)S(calloc)(2, sizeof(T)), *dst = (T *)S(calloc)(2, sizeof(T));        \
        T *pwrk = (T *)S(calloc)(SHMEM_REDUCE_MIN_WRKDATA_SIZE + 2, sizeof(T));            \
        for (int i = 0; i < 2; i++) src[i] = BITS_OF(T, me, i);                            \
        TO_ALL_ROUND(T, N, and, 0, EXPECT_BIT);                                            \
        TO_ALL_ROUND(T, N, or, 1, EXPECT_BIT);                                             \
        TO_ALL_ROUND(T, N, xor, 2, EXPECT_BIT);                                            \
        S(barrier_all)();                                                                  \
        S(free)(pwrk);                                                                     \
        S(free)(dst);                                                                      \
        S(free)(src);                                                                      \
    }
TO_ALL_ARITH_TYPES(TEST_TO_ALL_ARITH)
TO_ALL_INT_TYPES(TEST_TO_ALL_BIT)

/* complex sum and product, team and active set: PE p contributes (p + 1) + 2i */
#define TEST_COMPLEX(T, N)                                                                 \
    static void complex_##N(void) {                                                        \
        T _Complex *src = (T _Complex *)S(calloc)(1, sizeof(T _Complex));                  \
        T _Complex *dst = (T _Complex *)S(calloc)(1, sizeof(T _Complex));                  \
        T _Complex *pwrk = (T _Complex *)S(calloc)(SHMEM_REDUCE_MIN_WRKDATA_SIZE,          \
                                                   sizeof(T _Complex));                    \
        T *parts = (T *)src;                                                               \
        parts[0] = (T)(me + 1), parts[1] = 2;                                              \
        T _Complex sum = 0, prod = 1;                                                      \
        for (int p = 0; p < npes; p++) {                                                   \
            T _Complex v = 0;                                                              \
            T *vp = (T *)&v;                                                               \
            vp[0] = (T)(p + 1), vp[1] = 2;                                                 \
            sum += v, prod *= v;                                                           \
        }                                                                                  \
        S(barrier_all)();                                                                  \
        CHECK(S(N##_sum_reduce)(SHMEM_TEAM_WORLD, dst, src, 1) == 0 && *dst == sum,        \
              #N " sum_reduce");                                                           \
        CHECK(S(N##_prod_reduce)(SHMEM_TEAM_WORLD, dst, src, 1) == 0 && *dst == prod,      \
              #N " prod_reduce");                                                          \
        S(barrier_all)();                                                                  \
        S(N##_sum_to_all)(dst, src, 1, 0, 0, npes, pwrk, psync);                           \
        CHECK(*dst == sum, #N " sum_to_all");                                              \
        S(barrier_all)();                                                                  \
        S(N##_prod_to_all)(dst, src, 1, 0, 0, npes, pwrk, psync);                          \
        CHECK(*dst == prod, #N " prod_to_all");                                            \
        S(barrier_all)();                                                                  \
        S(free)(pwrk);                                                                     \
        S(free)(dst);                                                                      \
        S(free)(src);                                                                      \
    }
TEST_COMPLEX(float, complexf)
TEST_COMPLEX(double, complexd)

/* ---- the untyped collectives: team (mem) and active set (32/64) ----------------------- */
static void untyped_collectives(void) {
    int n = npes;
    uint64_t *src = (uint64_t *)S(calloc)(4 * NE, 8);
    uint64_t *dst = (uint64_t *)S(calloc)(4 * NE * 4, 8);
    for (int i = 0; i < 4 * NE; i++) src[i] = (uint64_t)V(int, me, i);
    S(barrier_all)();
    CHECK(S(broadcastmem)(SHMEM_TEAM_WORLD, dst, src, 16, 0) == 0, "broadcastmem");
    CHECK(dst[0] == V(uint64_t, 0, 0) && dst[1] == V(uint64_t, 0, 1), "broadcastmem data");
    S(barrier_all)(); /* dst ready for the next one (the spec's rule) */
    CHECK(S(collectmem)(SHMEM_TEAM_WORLD, dst, src, 8) == 0, "collectmem");
    for (int p = 0; p < n; p++) CHECK(dst[p] == V(uint64_t, p, 0), "collectmem %d", p);
    S(barrier_all)();
    CHECK(S(fcollectmem)(SHMEM_TEAM_WORLD, dst, src, 16) == 0, "fcollectmem");
    for (int p = 0; p < n; p++) CHECK(dst[2 * p + 1] == V(uint64_t, p, 1), "fcollectmem");
    S(barrier_all)();
    CHECK(S(alltoallmem)(SHMEM_TEAM_WORLD, dst, src, 8) == 0, "alltoallmem");
    for (int p = 0; p < n; p++) CHECK(dst[p] == V(uint64_t, p, me), "alltoallmem %d", p);
    S(barrier_all)();
    /* strides in bytes here: 1 and 1 move 8-byte blocks as alltoallmem does */
    CHECK(S(alltoallsmem)(SHMEM_TEAM_WORLD, dst, src, 1, 1, 8) == 0, "alltoallsmem");
    for (int p = 0; p < n; p++) CHECK(dst[p] == V(uint64_t, p, me), "alltoallsmem %d", p);
    /* the active-set forms over every PE: 64-bit then 32-bit elements */
    for (int bits = 64; bits >= 32; bits -= 32) {
        uint32_t *s32 = (uint32_t *)src, *d32 = (uint32_t *)dst;
        for (int i = 0; i < 4 * NE; i++) s32[i] = (uint32_t)V(int, me, i);
        if (bits == 64)
            for (int i = 0; i < 4 * NE; i++) src[i] = (uint64_t)V(int, me, i);
#define AT(i) (bits == 64 ? dst[i] : (uint64_t)d32[i])
        S(barrier_all)();
        if (bits == 64) S(broadcast64)(dst, src, 2, 0, 0, 0, n, psync);
        else S(broadcast32)(dst, src, 2, 0, 0, 0, n, psync);
        if (me != 0) CHECK(AT(1) == (uint64_t)V(int, 0, 1), "broadcast%d", bits);
        S(barrier_all)();
        if (bits == 64) S(collect64)(dst, src, 1, 0, 0, n, psync);
        else S(collect32)(dst, src, 1, 0, 0, n, psync);
        for (int p = 0; p < n; p++) CHECK(AT(p) == (uint64_t)V(int, p, 0), "collect%d", bits);
        S(barrier_all)();
        if (bits == 64) S(fcollect64)(dst, src, 2, 0, 0, n, psync);
        else S(fcollect32)(dst, src, 2, 0, 0, n, psync);
        for (int p = 0; p < n; p++)
            CHECK(AT(2 * p + 1) == (uint64_t)V(int, p, 1), "fcollect%d", bits);
        S(barrier_all)();
        if (bits == 64) S(alltoall64)(dst, src, 1, 0, 0, n, psync);
        else S(alltoall32)(dst, src, 1, 0, 0, n, psync);
        for (int p = 0; p < n; p++) CHECK(AT(p) == (uint64_t)V(int, p, me), "alltoall%d", bits);
        S(barrier_all)();
        if (bits == 64) S(alltoalls64)(dst, src, 2, 1, 1, 0, 0, n, psync);
        else S(alltoalls32)(dst, src, 2, 1, 1, 0, 0, n, psync);
        for (int p = 0; p < n; p++)
            CHECK(AT(2 * p) == (uint64_t)V(int, p, me), "alltoalls%d", bits);
        S(barrier_all)();
#undef AT
    }
    S(free)(dst);
    S(free)(src);
}

/* ---- setup, memory, ordering, locks, signals, teams, contexts, the rest --------------- */
static long lock_word;
static long counter;

static void memory_and_setup(void) {
    int major = 0, minor = 0;
    char name[SHMEM_MAX_NAME_LEN];
    S(info_get_version)(&major, &minor);
    CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION && major == 1 &&
              minor == 5 && _SHMEM_MAJOR_VERSION == 1 && _SHMEM_MINOR_VERSION == 5,
          "version %d.%d", major, minor);
    S(info_get_name)(name);
    CHECK(strncmp(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN) == 0 &&
              _SHMEM_MAX_NAME_LEN == SHMEM_MAX_NAME_LEN,
          "name %s", name);
    CHECK(S(my_pe)() == me && _my_pe() == me && S(n_pes)() == npes && _num_pes() == npes,
          "my_pe/n_pes");
#if API_HEADER == 4
    CHECK(p_my_pe() == me && p_num_pes() == npes, "p_my_pe");
#endif
    int provided = -1;
    S(query_thread)(&provided);
    CHECK(provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE, "query");
    CHECK(S(pe_accessible)(right) == 1 && S(pe_accessible)(npes) == 0, "pe_accessible");
    CHECK(S(addr_accessible)(&lock_word, right) == 1, "addr_accessible static");
    int local = 0;
    CHECK(S(addr_accessible)(&local, right) == 0, "addr_accessible local");

    long *a = (long *)S(malloc)(4 * sizeof(long));
    long *h = (long *)S(malloc_with_hints)(4 * sizeof(long), SHMEM_MALLOC_ATOMICS_REMOTE);
    long *h2 = (long *)S(malloc_with_hints)(sizeof(long), SHMEM_MALLOC_SIGNAL_REMOTE);
    long *c = (long *)S(calloc)(4, sizeof(long));
    long *al = (long *)S(align)(4096, sizeof(long));
    CHECK(a && h && h2 && c && al && ((uintptr_t)al & 4095) == 0, "allocations");
    for (int i = 0; i < 4; i++) CHECK(c[i] == 0, "calloc zero");
    a[0] = 100 + me;
    S(barrier_all)();
    long *ar = (long *)S(ptr)(a, right);
    CHECK(ar != NULL && *ar == 100 + right, "shmem_ptr");
    CHECK(S(ptr)(&local, right) == NULL, "shmem_ptr local");
    a = (long *)S(realloc)(a, 64 * sizeof(long));
    CHECK(a && a[0] == 100 + me, "realloc keeps data");
    /* the deprecated allocation names */
    long *o = (long *)shmalloc(2 * sizeof(long));
    long *oa = (long *)shmemalign(256, sizeof(long));
    CHECK(o && oa && ((uintptr_t)oa & 255) == 0, "shmalloc/shmemalign");
    o[1] = 7;
    o = (long *)shrealloc(o, 32 * sizeof(long));
    CHECK(o && o[1] == 7, "shrealloc keeps data");
#if API_HEADER == 4
    long *po = (long *)pshmalloc(sizeof(long));
    po = (long *)pshrealloc(po, 2 * sizeof(long));
    long *pa = (long *)pshmemalign(128, sizeof(long));
    CHECK(po && pa, "pshmalloc");
    pshfree(pa);
    pshfree(po);
#endif
#if API_HEADER == 4
    CHECK(pshmemx_heap_used() > 0, "heap_used");
#elif API_HEADER == 1 || API_HEADER == 3
    CHECK(shmemx_heap_used() > 0, "heap_used");
#endif
    shfree(oa);
    shfree(o);
    S(free)(al);
    S(free)(c);
    S(free)(h2);
    S(free)(h);
    S(free)(a);

    /* ordering, barriers and the deprecated cache calls (no effect) */
    S(fence)();
    S(quiet)();
    S(clear_cache_inv)();
    S(set_cache_inv)();
    S(clear_cache_line_inv)(&lock_word);
    S(set_cache_line_inv)(&lock_word);
    S(udcflush)();
    S(udcflush_line)(&lock_word);
    S(sync_all)();
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
    CHECK(_SHMEM_SYNC_VALUE == SHMEM_SYNC_VALUE && _SHMEM_BARRIER_SYNC_SIZE >= 1 &&
              _SHMEM_BCAST_SYNC_SIZE >= 1 && _SHMEM_REDUCE_SYNC_SIZE >= 1 &&
              _SHMEM_COLLECT_SYNC_SIZE >= 1 && _SHMEM_ALLTOALL_SYNC_SIZE >= 1 &&
              _SHMEM_REDUCE_MIN_WRKDATA_SIZE >= 1 && _SHMEM_CMP_EQ == SHMEM_CMP_EQ &&
              _SHMEM_CMP_NE == SHMEM_CMP_NE && _SHMEM_CMP_GT == SHMEM_CMP_GT &&
              _SHMEM_CMP_LE == SHMEM_CMP_LE && _SHMEM_CMP_LT == SHMEM_CMP_LT &&
              _SHMEM_CMP_GE == SHMEM_CMP_GE,
          "deprecated constants");
    S(barrier)(0, 0, npes, psync);
    S(sync)(0, 0, npes, psync);
    CHECK(S(team_sync)(SHMEM_TEAM_WORLD) == 0, "team_sync");

    /* locks: every PE adds to PE 0's counter under the lock */
    S(barrier_all)();
    for (int k = 0; k < 3; k++) {
        if (k == 2)
            while (S(test_lock)(&lock_word) != 0) {
            }
        else
            S(set_lock)(&lock_word);
        long v = S(long_g)(&counter, 0);
        S(long_p)(&counter, v + 1, 0);
        S(quiet)();
        S(clear_lock)(&lock_word);
    }
    S(barrier_all)();
    if (me == 0) CHECK(counter == 3L * npes, "lock counter %ld", counter);

    /* signals */
    uint64_t *sig = (uint64_t *)S(calloc)(1, sizeof(uint64_t));
    S(barrier_all)();
    S(signal_set)(sig, 40, right);
    S(signal_add)(sig, 2, right);
    CHECK(S(signal_wait_until)(sig, SHMEM_CMP_EQ, 42) == 42 && S(signal_fetch)(sig) == 42,
          "signal_set/add/fetch");
    S(barrier_all)();
    S(free)(sig);

    /* profiling control: no effect without a tool */
    S(pcontrol)(0);
    S(pcontrol)(1);
    S(pcontrol)(2, "extra arguments are the tool's");
}

/* Teams and contexts: splits, translation, config, team_ptr, destroy; contexts on the world
 * and on a team; the invalid handles the spec defines as return values or no-ops. */
static void teams_and_contexts(void) {
    shmem_team_config_t conf;
    conf.num_contexts = 1;
    shmem_team_t even = SHMEM_TEAM_INVALID, x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
    int ne = (npes + 1) / 2;
    CHECK(S(team_split_strided)(SHMEM_TEAM_WORLD, 0, 2, ne, &conf, SHMEM_TEAM_NUM_CONTEXTS,
                                &even) == 0,
          "split_strided");
    CHECK((me % 2 == 0) == (even != SHMEM_TEAM_INVALID), "split membership");
    if (even != SHMEM_TEAM_INVALID) {
        shmem_team_config_t got;
        got.num_contexts = 0;
        CHECK(S(team_my_pe)(even) == me / 2 && S(team_n_pes)(even) == ne, "team my_pe");
        CHECK(S(team_get_config)(even, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
                  got.num_contexts == 1,
              "get_config");
        CHECK(S(team_translate_pe)(even, ne - 1, SHMEM_TEAM_WORLD) == 2 * (ne - 1), "trans");
        long *p = (long *)S(team_ptr)(even, &lock_word, ne - 1);
        CHECK(p != NULL, "team_ptr");
        CHECK(S(team_sync)(even) == 0, "team_sync even");
    } else {
        CHECK(S(team_my_pe)(even) == -1 && S(team_n_pes)(even) == -1, "invalid team -1");
    }
    CHECK(S(team_translate_pe)(SHMEM_TEAM_WORLD, me, even) == (me % 2 == 0 ? me / 2 : -1),
          "translate into the team");
    CHECK(S(team_split_2d)(SHMEM_TEAM_WORLD, 2, &conf, 0, &x, &conf, 0, &y) == 0, "2d");
    int xn = npes - me / 2 * 2 < 2 ? npes - me / 2 * 2 : 2;
    CHECK(S(team_n_pes)(x) == xn && S(team_my_pe)(x) == me % 2, "2d x");
    CHECK(S(team_n_pes)(y) == (npes - me % 2 + 1) / 2 && S(team_my_pe)(y) == me / 2, "2d y");
    CHECK(S(team_my_pe)(SHMEM_TEAM_SHARED) == me, "SHMEM_TEAM_SHARED");
    S(team_destroy)(y);
    S(team_destroy)(x);

    /* contexts */
    shmem_ctx_t w = SHMEM_CTX_INVALID, t = SHMEM_CTX_INVALID;
    shmem_team_t got = SHMEM_TEAM_INVALID;
    CHECK(S(ctx_create)(SHMEM_CTX_PRIVATE, &w) == 0 && w != SHMEM_CTX_INVALID, "ctx_create");
    CHECK(S(ctx_get_team)(w, &got) == 0 && got == SHMEM_TEAM_WORLD, "ctx_get_team");
    CHECK(S(ctx_get_team)(SHMEM_CTX_DEFAULT, &got) == 0 && got == SHMEM_TEAM_WORLD, "dflt");
    int rc = S(team_create_ctx)(even, SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE, &t);
    CHECK((rc == 0) == (even != SHMEM_TEAM_INVALID) && (rc == 0) == (t != SHMEM_CTX_INVALID),
          "team_create_ctx %d", rc);
    CHECK(S(ctx_get_team)(SHMEM_CTX_INVALID, &got) == -1 && got == SHMEM_TEAM_INVALID,
          "get_team of SHMEM_CTX_INVALID");
    /* SHMEM_CTX_INVALID: quiet, fence and destroy perform no operation */
    S(ctx_fence)(SHMEM_CTX_INVALID);
    S(ctx_quiet)(SHMEM_CTX_INVALID);
    S(ctx_destroy)(SHMEM_CTX_INVALID);
    S(ctx_fence)(t);
    S(ctx_quiet)(t);
    S(ctx_fence)(w);
    S(ctx_quiet)(w);
    S(ctx_fence)(SHMEM_CTX_DEFAULT);
    S(ctx_quiet)(SHMEM_CTX_DEFAULT);
    S(ctx_destroy)(t);
    S(ctx_destroy)(w);
    S(team_destroy)(even);
    S(barrier_all)();
}

/* The specification's team-context scenario (§9.4): teams of the even PEs and of every
 * third PE, a context on each; PEs outside a team hold SHMEM_TEAM_INVALID and
 * SHMEM_CTX_INVALID, and quiet that context like everyone else. */
static int val2, val3, total;
static void team_context_example(void) {
    shmem_team_t t2, t3;
    shmem_ctx_t c2, c3;
    shmem_team_config_t conf;
    conf.num_contexts = 1;
    val2 = val3 = total = -1;
    S(barrier_all)();
    CHECK(S(team_split_strided)(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, &conf,
                                SHMEM_TEAM_NUM_CONTEXTS, &t2) == 0 &&
              S(team_split_strided)(SHMEM_TEAM_WORLD, 0, 3, (npes + 2) / 3, &conf,
                                    SHMEM_TEAM_NUM_CONTEXTS, &t3) == 0,
          "example splits");
    int r2 = S(team_create_ctx)(t2, 0, &c2), r3 = S(team_create_ctx)(t3, 0, &c3);
    CHECK((r2 == 0) == (t2 != SHMEM_TEAM_INVALID) && (r3 == 0) == (t3 != SHMEM_TEAM_INVALID),
          "example contexts");
    if (c2 != SHMEM_CTX_INVALID) {
        int p = S(team_my_pe)(t2);
        S(ctx_int_put)(c2, &val2, &p, 1, (p + 1) % S(team_n_pes)(t2));
    }
    if (c3 != SHMEM_CTX_INVALID) {
        int p = S(team_my_pe)(t3);
        S(ctx_int_put)(c3, &val3, &p, 1, (p + 1) % S(team_n_pes)(t3));
    }
    S(ctx_quiet)(c2);
    S(ctx_quiet)(c3);
    S(team_sync)(SHMEM_TEAM_WORLD);
    if (me == 0) total = 0;
    S(team_sync)(SHMEM_TEAM_WORLD);
    if (t2 != SHMEM_TEAM_INVALID && t3 != SHMEM_TEAM_INVALID)
        S(ctx_int_atomic_add)(c2, &total, val2 + val3, 0);
    S(ctx_quiet)(c2);
    S(team_sync)(SHMEM_TEAM_WORLD);
    if (me == 0) {
        int n2 = (npes + 1) / 2, n3 = (npes + 2) / 3, want = 0;
        for (int i = 0; i < npes; i += 6) /* in both: what its predecessors put */
            want += (i / 2 + n2 - 1) % n2 + (i / 3 + n3 - 1) % n3;
        CHECK(total == want, "example sum %d, want %d", total, want);
    }
    S(ctx_destroy)(c2);
    S(ctx_destroy)(c3);
    S(team_destroy)(t2);
    S(team_destroy)(t3);
    S(barrier_all)();
}

/* Allocation past the heap returns NULL on every PE and leaves the heap usable. */
static void allocation_failure(void) {
    size_t huge = (size_t)1 << 40;
    long *keep = (long *)S(malloc)(8 * sizeof(long));
    keep[3] = 33 + me;
    CHECK(S(malloc)(huge) == NULL, "malloc past the heap");
    CHECK(S(malloc_with_hints)(huge, SHMEM_MALLOC_ATOMICS_REMOTE) == NULL, "with_hints");
    CHECK(S(calloc)(huge, 1) == NULL && S(calloc)((size_t)-1, 16) == NULL, "calloc");
    CHECK(S(align)(4096, huge) == NULL, "align past the heap");
    CHECK(S(realloc)(keep, huge) == NULL && keep[3] == 33 + me, "realloc keeps the block");
    CHECK(shmalloc(huge) == NULL && shmemalign(64, huge) == NULL, "shmalloc/shmemalign");
    CHECK(shrealloc(keep, huge) == NULL && keep[3] == 33 + me, "shrealloc");
    long *after = (long *)S(malloc)(sizeof(long));
    CHECK(after != NULL, "the heap still serves");
    *after = me;
    S(barrier_all)();
    CHECK(S(long_g)(after, right) == right && S(long_g)(keep + 3, right) == 33 + right,
          "blocks after a failed allocation");
    S(barrier_all)();
    S(free)(after);
    S(free)(keep);
}

/* ---- the type-generic names (C11 _Generic / C++ overloads) ----------------------------- */
/* shmem_swap (type-generic since 1.4; the 1.0 call was long-only): the word's neighbours
 * stay as they were. */
#define SWAP_CASE(T)                                                                       \
    do {                                                                                   \
        T *w = (T *)S(calloc)(3, sizeof(T));                                               \
        w[0] = (T)1, w[1] = (T)2.5, w[2] = (T)3;                                           \
        S(barrier_all)();                                                                  \
        T old = G(swap)(w + 1, (T)(me + 0.5), right);                                   \
        CHECK(old == (T)2.5, #T " swap returned %f", (double)old);                         \
        S(barrier_all)();                                                                  \
        CHECK(w[0] == (T)1 && w[1] == (T)(left + 0.5) && w[2] == (T)3,                     \
              #T " swap wrote %f %f %f", (double)w[0], (double)w[1], (double)w[2]);        \
        S(barrier_all)();                                                                  \
        S(free)(w);                                                                        \
    } while (0)

static void generics(void) {
    SWAP_CASE(int);
    SWAP_CASE(long);
    SWAP_CASE(float);
    SWAP_CASE(double);
    SWAP_CASE(long long);
    SWAP_CASE(unsigned int);
    SWAP_CASE(unsigned long);
    SWAP_CASE(unsigned long long);

    /* the other deprecated generic AMOs, on int, long long and double */
    int *i = (int *)S(calloc)(3, sizeof(int));
    long long *ll = (long long *)S(calloc)(3, sizeof(long long));
    double *d = (double *)S(calloc)(3, sizeof(double));
    i[0] = i[2] = ll[0] = ll[2] = -7;
    S(barrier_all)();
    CHECK(G(finc)(i + 1, right) == 0, "finc");
    G(inc)(i + 1, right);
    CHECK(G(fadd)(i + 1, 5, right) == 2, "fadd");
    G(add)(i + 1, 3, right);
    CHECK(G(cswap)(i + 1, 10, 20, right) == 10, "cswap");
    CHECK(G(fetch)(i + 1, right) == 20, "fetch");
    G(set)(ll + 1, 1LL << 40, right);
    CHECK(G(fetch)(ll + 1, right) == 1LL << 40, "fetch long long");
    CHECK(G(fadd)(ll + 1, 1LL, right) == 1LL << 40, "fadd long long");
    G(set)(d + 1, 0.25, right);
    CHECK(G(fetch)(d + 1, right) == 0.25, "fetch double");
    S(barrier_all)();
    CHECK(i[0] == -7 && i[1] == 20 && i[2] == -7, "generic int AMOs");
    CHECK(ll[0] == -7 && ll[1] == (1LL << 40) + 1 && ll[2] == -7, "generic long long AMOs");
    CHECK(d[1] == 0.25, "generic set double");
    S(barrier_all)();

    /* the 1.0 long-only symbols, called by name past the generic macros */
    long *lw = (long *)S(calloc)(1, sizeof(long));
    S(barrier_all)();
    S(long_p)(lw, 3L, right);
    S(quiet)();
    (S(wait))(lw, 0L);
    (S(wait_until))(lw, SHMEM_CMP_EQ, 3L);
    CHECK((S(swap))(lw, 4L, me) == 3 && *lw == 4, "the 1.0 shmem_swap");
    S(barrier_all)();
    S(free)(lw);

    /* 1.5 generic names, one call each (shmem.h's own tests cover every type) */
    long src[2] = {me, me + 1}, *l = (long *)S(calloc)(8, sizeof(long));
    uint64_t *sig = (uint64_t *)S(calloc)(1, sizeof(uint64_t));
    S(barrier_all)();
    G(put)(l, src, 2, right);
    G(put_nbi)(l + 2, src, 2, right);
    G(iput)(l + 4, src, 1, 1, 2, right);
    G(p)(l + 6, (long)me, right);
    G(put_signal)(l + 7, src, 1, sig, 1, SHMEM_SIGNAL_SET, right);
    G(put_signal_nbi)(l + 7, src, 1, sig, 2, SHMEM_SIGNAL_SET, right);
    S(quiet)();
    S(signal_wait_until)(sig, SHMEM_CMP_EQ, 2);
    S(barrier_all)();
    CHECK(l[0] == left && l[3] == left + 1 && l[5] == left + 1 && l[6] == left &&
              l[7] == left,
          "generic puts");
    long back[2];
    G(get)(back, l, 2, right);
    G(get_nbi)(back, l, 2, right);
    G(iget)(back, l, 1, 1, 2, right);
    S(quiet)();
    CHECK(back[0] == me && back[1] == me + 1 && G(g)(l + 6, right) == me, "generic gets");
    S(barrier_all)();
    long f = 0;
    l[0] = 0;
    S(barrier_all)();
    G(atomic_set)(l, 1L, right);
    CHECK(G(atomic_fetch)(l, right) == 1 && G(atomic_swap)(l, 2L, right) == 1, "ga");
    G(atomic_fetch_nbi)(&f, l, right);
    G(atomic_swap_nbi)(&f, l, 3L, right);
    CHECK(G(atomic_fetch_inc)(l, right) == 3 && G(atomic_fetch_add)(l, 2L, right) == 4,
          "generic fetch_inc/add");
    G(atomic_inc)(l, right);
    G(atomic_add)(l, 1L, right);
    CHECK(G(atomic_compare_swap)(l, 8L, 9L, right) == 8, "generic compare_swap");
    G(atomic_fetch_inc_nbi)(&f, l, right);
    G(atomic_fetch_add_nbi)(&f, l, 1L, right);
    G(atomic_compare_swap_nbi)(&f, l, 11L, 12L, right);
    S(quiet)();
    CHECK(f == 11, "generic nbi AMOs");
    unsigned long *u = (unsigned long *)(l + 1);
    *u = 0;
    S(barrier_all)();
    G(atomic_or)(u, 6UL, right);
    G(atomic_and)(u, 3UL, right);
    G(atomic_xor)(u, 1UL, right);
    CHECK(G(atomic_fetch_or)(u, 4UL, right) == 3 && G(atomic_fetch_and)(u, 5UL, right) == 7 &&
              G(atomic_fetch_xor)(u, 1UL, right) == 5,
          "generic bitwise");
    unsigned long uf = 0;
    G(atomic_fetch_and_nbi)(&uf, u, 7UL, right);
    G(atomic_fetch_or_nbi)(&uf, u, 8UL, right);
    G(atomic_fetch_xor_nbi)(&uf, u, 8UL, right);
    S(quiet)();
    CHECK(uf == 12, "generic bitwise nbi");
    S(barrier_all)();
    /* waits and tests on a word the right PE's predecessor (this PE's left) set */
    int *iv = (int *)S(calloc)(2, sizeof(int));
    S(barrier_all)();
    G(p)(iv, 1, right);
    G(p)(iv + 1, 1, right);
    S(quiet)();
    int want[2] = {1, 1};
    size_t idx[2];
    G(wait_until)(iv, SHMEM_CMP_EQ, 1);
    G(wait)(iv + 1, 0);
    G(wait_until_all)(iv, 2, NULL, SHMEM_CMP_EQ, 1);
    CHECK(G(wait_until_any)(iv, 2, NULL, SHMEM_CMP_EQ, 1) < 2, "generic wait_any");
    CHECK(G(wait_until_some)(iv, 2, idx, NULL, SHMEM_CMP_EQ, 1) == 2, "generic some");
    G(wait_until_all_vector)(iv, 2, NULL, SHMEM_CMP_EQ, want);
    CHECK(G(wait_until_any_vector)(iv, 2, NULL, SHMEM_CMP_EQ, want) < 2, "gav");
    CHECK(G(wait_until_some_vector)(iv, 2, idx, NULL, SHMEM_CMP_EQ, want) == 2, "gsv");
    CHECK(G(test)(iv, SHMEM_CMP_EQ, 1) && G(test_all)(iv, 2, NULL, SHMEM_CMP_EQ, 1) &&
              G(test_any)(iv, 2, NULL, SHMEM_CMP_EQ, 1) < 2 &&
              G(test_some)(iv, 2, idx, NULL, SHMEM_CMP_EQ, 1) == 2 &&
              G(test_all_vector)(iv, 2, NULL, SHMEM_CMP_EQ, want) &&
              G(test_any_vector)(iv, 2, NULL, SHMEM_CMP_EQ, want) < 2 &&
              G(test_some_vector)(iv, 2, idx, NULL, SHMEM_CMP_EQ, want) == 2,
          "generic tests");
    S(barrier_all)();
    /* generic team collectives and reductions */
    long *cs = (long *)S(calloc)(2, sizeof(long)), *cd = (long *)S(calloc)(2 * npes, sizeof(long));
    cs[0] = me + 1, cs[1] = 2 * (me + 1);
    S(barrier_all)();
    CHECK(G(broadcast)(SHMEM_TEAM_WORLD, cd, cs, 2, 0) == 0 && cd[1] == 2, "g bcast");
    S(barrier_all)(); /* cd ready for the next one (the spec's rule) */
    CHECK(G(collect)(SHMEM_TEAM_WORLD, cd, cs, 1) == 0 && cd[npes - 1] == npes, "g coll");
    S(barrier_all)();
    CHECK(G(fcollect)(SHMEM_TEAM_WORLD, cd, cs, 1) == 0 && cd[0] == 1, "g fcollect");
    S(barrier_all)();
    CHECK(G(alltoall)(SHMEM_TEAM_WORLD, cd, cs, 1) == 0, "g alltoall");
    CHECK(G(alltoalls)(SHMEM_TEAM_WORLD, cd, cs, 1, 1, 1) == 0, "g alltoalls");
    long tri = (long)npes * (npes + 1) / 2;
    CHECK(G(sum_reduce)(SHMEM_TEAM_WORLD, cd, cs, 2) == 0 && cd[0] == tri, "g sum");
    CHECK(G(max_reduce)(SHMEM_TEAM_WORLD, cd, cs, 2) == 0 && cd[1] == 2L * npes, "g max");
    CHECK(G(min_reduce)(SHMEM_TEAM_WORLD, cd, cs, 2) == 0 && cd[0] == 1, "g min");
    CHECK(G(prod_reduce)(SHMEM_TEAM_WORLD, cd, cs, 1) == 0, "g prod");
    CHECK(G(and_reduce)(SHMEM_TEAM_WORLD, cd, cs, 1) == 0, "g and");
    CHECK(G(or_reduce)(SHMEM_TEAM_WORLD, cd, cs, 1) == 0, "g or");
    CHECK(G(xor_reduce)(SHMEM_TEAM_WORLD, cd, cs, 1) == 0, "g xor");
    CHECK(G(sync)(SHMEM_TEAM_WORLD) == 0, "generic G(sync)(team)");
    S(barrier_all)();
    S(free)(cd);
    S(free)(cs);
    S(free)(iv);
    S(free)(sig);
    S(free)(l);
    S(free)(d);
    S(free)(ll);
    S(free)(i);
}

#define CALL_RMA(T, N) rma_##N();
#define CALL_STD(T, N) std_##N();
#define CALL_EXT(T, N) ext_##N();
#define CALL_BIT(T, N) bit_##N();
#define CALL_P2P(T, N) p2p_##N();
#define CALL_COLL(T, N) coll_##N();
#define CALL_RED_ARITH(T, N) red_arith_##N();
#define CALL_RED_BIT(T, N) red_bit_##N();
#define CALL_TO_ALL_ARITH(T, N) to_all_arith_##N();
#define CALL_TO_ALL_BIT(T, N) to_all_bit_##N();

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "init") == 0) {
        S(init)();
    } else if (argc > 1 && strcmp(argv[1], "start_pes") == 0) {
#if API_HEADER == 4
        pstart_pes(0);
#else
        start_pes(0);
#endif
    } else {
        int provided = -1;
        CHECK(S(init_thread)(SHMEM_THREAD_MULTIPLE, &provided) == 0 &&
                  provided == SHMEM_THREAD_MULTIPLE,
              "init_thread");
    }
    me = S(my_pe)(), npes = S(n_pes)();
    right = (me + 1) % npes, left = (me + npes - 1) % npes;
    for (size_t i = 0; i < sizeof psync / sizeof psync[0]; i++) psync[i] = SHMEM_SYNC_VALUE;
    S(barrier_all)();
    /* the contexts of the typed rounds: on a team of every PE in reverse order, so that
     * team-relative PE numbers differ from world ones */
    CHECK(S(team_split_strided)(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &ctx_team) == 0,
          "reversed team");
    CHECK(S(team_create_ctx)(ctx_team, 0, &ctx) == 0, "reversed team's context");

    memory_and_setup();
    teams_and_contexts();
    team_context_example();
    allocation_failure();
    generics();
    RMA_TYPES(CALL_RMA)
    tgt = right, from = left;
    sized_and_mem(0);
    tgt = (S(team_my_pe)(ctx_team) + 1) % npes;
    from = S(team_translate_pe)(ctx_team, (S(team_my_pe)(ctx_team) + npes - 1) % npes,
                                SHMEM_TEAM_WORLD);
    sized_and_mem(1);
    STD_AMO_TYPES(CALL_STD)
    EXT_AMO_TYPES(CALL_EXT)
    BIT_AMO_TYPES(CALL_BIT)
    P2P_TYPES(CALL_P2P)
    RMA_TYPES(CALL_COLL)
    RED_ARITH_TYPES(CALL_RED_ARITH)
    RED_BIT_TYPES(CALL_RED_BIT)
    TO_ALL_INT_TYPES(CALL_RED_BIT)
    TO_ALL_ARITH_TYPES(CALL_TO_ALL_ARITH)
    TO_ALL_INT_TYPES(CALL_TO_ALL_BIT)
    complex_complexf();
    complex_complexd();
    untyped_collectives();

    S(ctx_destroy)(ctx);
    S(team_destroy)(ctx_team);
    S(barrier_all)();
    if (me == 0) printf("OK api %d PEs\n", npes);
    S(finalize)();
    return 0;
}

/*
 * shmem.h — OpenSHMEM 1.5 over handoff's team (libhandoff_shmem).
 *
 * Compile with `oshcc` (crates/handoff-shmem/bin/oshcc), run with `handoff run -n N -- PROG`.
 * The supported subset and its semantics on one node: crates/handoff-shmem/README.md.
 * The typed families are declared by X-macros over the 1.5 type tables; the C11 generic
 * names (shmem_put, shmem_atomic_fetch_add, shmem_wait_until, ...) are _Generic selections
 * over the distinct C types of each table.
 */
#ifndef HANDOFF_SHMEM_H
#define HANDOFF_SHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- constants ---------------------------------------------------------------------- */

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "handoff OpenSHMEM (handoff-shmem)"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
/* handoff's vendor macros (HANDOFF_SHMEM_NUMVERSION, ...) and the feature flags shmem4py reads */
#include "handoff_shmem_vendor.h"

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

#define SHMEM_CMP_EQ 1
#define SHMEM_CMP_NE 2
#define SHMEM_CMP_GT 3
#define SHMEM_CMP_LE 4
#define SHMEM_CMP_LT 5
#define SHMEM_CMP_GE 6
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_GE SHMEM_CMP_GE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* pSync / pWrk are accepted and unused (collectives synchronize through the team). */
#define SHMEM_SYNC_VALUE (-1L)
#define SHMEM_SYNC_SIZE 8
#define SHMEM_BCAST_SYNC_SIZE 8
#define SHMEM_BARRIER_SYNC_SIZE 8
#define SHMEM_REDUCE_SYNC_SIZE 8
#define SHMEM_COLLECT_SYNC_SIZE 8
#define SHMEM_ALLTOALL_SYNC_SIZE 8
#define SHMEM_ALLTOALLS_SYNC_SIZE 8
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 8
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ---- teams and contexts (teams.rs, ctx.rs) ------------------------------------------ */

typedef struct handoff_shmem_team *shmem_team_t;
typedef struct handoff_shmem_ctx *shmem_ctx_t;
typedef struct {
    int num_contexts;
} shmem_team_config_t;

#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_TEAM_WORLD ((shmem_team_t)1)
#define SHMEM_TEAM_SHARED ((shmem_team_t)2)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)1)
#define SHMEM_CTX_SERIALIZED 1
#define SHMEM_CTX_PRIVATE 2
#define SHMEM_CTX_NOSTORE 4
#define SHMEM_TEAM_NUM_CONTEXTS 1

int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_sync(shmem_team_t team);
int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xconfig,
                        long xmask, shmem_team_t *xteam, const shmem_team_config_t *yconfig,
                        long ymask, shmem_team_t *yteam);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_ctx_quiet(shmem_ctx_t ctx);
/* The world PE of PE `pe` of the context's team (used by the shmem_ctx_* forms below). */
int handoff_shmem_ctx_pe(shmem_ctx_t ctx, int pe);

/* ---- distributed locks ---------------------------------------------------------------- */

void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* ---- setup, query, memory ---------------------------------------------------------- */

void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

void *shmem_malloc(size_t size);
/* hints are accepted; on one node they change nothing */
#define SHMEM_MALLOC_ATOMICS_REMOTE 1L
#define SHMEM_MALLOC_SIGNAL_REMOTE 2L
void *shmem_malloc_with_hints(size_t size, long hints);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);

/* deprecated names still in use */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shmemalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);

/* ---- ordering, barriers ------------------------------------------------------------- */

void shmem_fence(void);
void shmem_quiet(void);
void shmem_barrier_all(void);
void shmem_sync_all(void);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* ---- RMA ------------------------------------------------------------------------------ */

/* X(C type, name) for the standard RMA types (OpenSHMEM 1.5 Table 5). */
#define HANDOFF_SHMEM_RMA_TYPES(X)                                                         \
    X(float, float) X(double, double) X(char, char) X(signed char, schar) X(short, short)  \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned char, uchar)               \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)                \
    X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)   \
    X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)            \
    X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

#define HANDOFF_SHMEM_DECL_RMA(T, N)                                                       \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                 \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                 \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);             \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);             \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                          size_t nelems, int pe);                                          \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                          size_t nelems, int pe);                                          \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                uint64_t signal, int sig_op, int pe);                      \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems,               \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
#define HANDOFF_SHMEM_DECL_PG(T, N)                                                        \
    void shmem_##N##_p(T *dest, T value, int pe);                                          \
    T shmem_##N##_g(const T *source, int pe);

HANDOFF_SHMEM_RMA_TYPES(HANDOFF_SHMEM_DECL_RMA)
HANDOFF_SHMEM_RMA_TYPES(HANDOFF_SHMEM_DECL_PG)
HANDOFF_SHMEM_DECL_RMA(long double, longdouble)

#define HANDOFF_SHMEM_DECL_SIZED(S)                                                        \
    void shmem_put##S(void *dest, const void *source, size_t nelems, int pe);              \
    void shmem_get##S(void *dest, const void *source, size_t nelems, int pe);              \
    void shmem_put##S##_nbi(void *dest, const void *source, size_t nelems, int pe);        \
    void shmem_get##S##_nbi(void *dest, const void *source, size_t nelems, int pe);        \
    void shmem_iput##S(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,       \
                       size_t nelems, int pe);                                             \
    void shmem_iget##S(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,       \
                       size_t nelems, int pe);                                             \
    void shmem_put##S##_signal(void *dest, const void *source, size_t nelems,              \
                               uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);   \
    void shmem_put##S##_signal_nbi(void *dest, const void *source, size_t nelems,          \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
HANDOFF_SHMEM_DECL_SIZED(8)
HANDOFF_SHMEM_DECL_SIZED(16)
HANDOFF_SHMEM_DECL_SIZED(32)
HANDOFF_SHMEM_DECL_SIZED(64)
HANDOFF_SHMEM_DECL_SIZED(128)

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);

/* ---- put-with-signal ------------------------------------------------------------------ */

void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);
/* OpenSHMEM 1.6, provided as a convenience */
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);

/* ---- AMOs ----------------------------------------------------------------------------- */

/* Extended AMO types (Table 7): fetch, set, swap. */
#define HANDOFF_SHMEM_EXT_AMO_TYPES(X)                                                     \
    HANDOFF_SHMEM_STD_AMO_TYPES(X) X(float, float) X(double, double)
/* Standard AMO types (Table 8): the above plus fetch_inc, inc, fetch_add, add, compare_swap. */
#define HANDOFF_SHMEM_STD_AMO_TYPES(X)                                                     \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)                 \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)             \
    X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)              \
    X(ptrdiff_t, ptrdiff)
/* Bitwise AMO types (Table 9). */
#define HANDOFF_SHMEM_BIT_AMO_TYPES(X)                                                     \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)         \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)

#define HANDOFF_SHMEM_DECL_EXT_AMO(T, N)                                                   \
    T shmem_##N##_atomic_fetch(const T *source, int pe);                                   \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                 \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                   \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                  \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);
#define HANDOFF_SHMEM_DECL_STD_AMO(T, N)                                                   \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                       \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                          \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                              \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                 \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                   \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                      \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);             \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);
#define HANDOFF_SHMEM_DECL_BIT_AMO(T, N)                                                   \
    T shmem_##N##_atomic_fetch_and(T *dest, T value, int pe);                              \
    void shmem_##N##_atomic_and(T *dest, T value, int pe);                                 \
    T shmem_##N##_atomic_fetch_or(T *dest, T value, int pe);                               \
    void shmem_##N##_atomic_or(T *dest, T value, int pe);                                  \
    T shmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);                              \
    void shmem_##N##_atomic_xor(T *dest, T value, int pe);                                 \
    void shmem_##N##_atomic_fetch_and_nbi(T *fetch, T *dest, T value, int pe);             \
    void shmem_##N##_atomic_fetch_or_nbi(T *fetch, T *dest, T value, int pe);              \
    void shmem_##N##_atomic_fetch_xor_nbi(T *fetch, T *dest, T value, int pe);
HANDOFF_SHMEM_EXT_AMO_TYPES(HANDOFF_SHMEM_DECL_EXT_AMO)
HANDOFF_SHMEM_STD_AMO_TYPES(HANDOFF_SHMEM_DECL_STD_AMO)
HANDOFF_SHMEM_BIT_AMO_TYPES(HANDOFF_SHMEM_DECL_BIT_AMO)

/* deprecated 1.3 names */
#define HANDOFF_SHMEM_DECL_OLD_AMO(T, N)                                                   \
    T shmem_##N##_finc(T *dest, int pe);                                                   \
    void shmem_##N##_inc(T *dest, int pe);                                                 \
    T shmem_##N##_fadd(T *dest, T value, int pe);                                          \
    void shmem_##N##_add(T *dest, T value, int pe);                                        \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe);
#define HANDOFF_SHMEM_DECL_OLD_EXT(T, N)                                                   \
    T shmem_##N##_fetch(const T *source, int pe);                                          \
    void shmem_##N##_set(T *dest, T value, int pe);                                        \
    T shmem_##N##_swap(T *dest, T value, int pe);
HANDOFF_SHMEM_DECL_OLD_AMO(int, int)
HANDOFF_SHMEM_DECL_OLD_AMO(long, long)
HANDOFF_SHMEM_DECL_OLD_AMO(long long, longlong)
HANDOFF_SHMEM_DECL_OLD_EXT(int, int)
HANDOFF_SHMEM_DECL_OLD_EXT(long, long)
HANDOFF_SHMEM_DECL_OLD_EXT(long long, longlong)
HANDOFF_SHMEM_DECL_OLD_EXT(float, float)
HANDOFF_SHMEM_DECL_OLD_EXT(double, double)
HANDOFF_SHMEM_DECL_OLD_AMO(int32_t, int32)
HANDOFF_SHMEM_DECL_OLD_EXT(int32_t, int32)
HANDOFF_SHMEM_DECL_OLD_AMO(int64_t, int64)
HANDOFF_SHMEM_DECL_OLD_EXT(int64_t, int64)
HANDOFF_SHMEM_DECL_OLD_AMO(uint32_t, uint32)
HANDOFF_SHMEM_DECL_OLD_EXT(uint32_t, uint32)
HANDOFF_SHMEM_DECL_OLD_AMO(uint64_t, uint64)
HANDOFF_SHMEM_DECL_OLD_EXT(uint64_t, uint64)
HANDOFF_SHMEM_DECL_OLD_AMO(unsigned int, uint)
HANDOFF_SHMEM_DECL_OLD_EXT(unsigned int, uint)
HANDOFF_SHMEM_DECL_OLD_AMO(unsigned long, ulong)
HANDOFF_SHMEM_DECL_OLD_EXT(unsigned long, ulong)
HANDOFF_SHMEM_DECL_OLD_AMO(unsigned long long, ulonglong)
HANDOFF_SHMEM_DECL_OLD_EXT(unsigned long long, ulonglong)
HANDOFF_SHMEM_DECL_OLD_AMO(size_t, size)
HANDOFF_SHMEM_DECL_OLD_EXT(size_t, size)
HANDOFF_SHMEM_DECL_OLD_AMO(ptrdiff_t, ptrdiff)
HANDOFF_SHMEM_DECL_OLD_EXT(ptrdiff_t, ptrdiff)
/* the untyped 1.0 names (long); in C11 and C++ shmem_swap is the type-generic name below
 * (this symbol serves programs compiled without it) */
long shmem_swap(long *dest, long value, int pe);
void shmem_wait(long *ivar, long cmp_value);
void shmem_wait_until(long *ivar, int cmp, long cmp_value);
/* cache management (deprecated in 1.3; no effect: the PEs share one coherent mapping) */
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

/* long double is passed by value only here (the library is not C): p and g are a put and a
 * get of one element. */
static inline void shmem_longdouble_p(long double *dest, long double value, int pe) {
    shmem_longdouble_put(dest, &value, 1, pe);
}
static inline long double shmem_longdouble_g(const long double *source, int pe) {
    long double v;
    shmem_longdouble_get(&v, source, 1, pe);
    return v;
}

/* ---- contexts: the shmem_ctx_* forms (inline: the call without a context, on the
 * context's team PE translated to a world PE; see ctx.rs) ------------------------ */
static inline int handoff_shmem_ctx_pe_(shmem_ctx_t ctx, int pe) {
    return ctx == SHMEM_CTX_DEFAULT ? pe : handoff_shmem_ctx_pe(ctx, pe);
}
#define HANDOFF_SHMEM_CTX_RMA(T, N) \
    static inline void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) { shmem_##N##_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) { shmem_##N##_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) { shmem_##N##_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) { shmem_##N##_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_##N##_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_##N##_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_##N##_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_##N##_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe) { shmem_##N##_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe) { return shmem_##N##_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
HANDOFF_SHMEM_RMA_TYPES(HANDOFF_SHMEM_CTX_RMA)
HANDOFF_SHMEM_CTX_RMA(long double, longdouble)
#define HANDOFF_SHMEM_CTX_SIZED(S) \
    static inline void shmem_ctx_put##S(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { shmem_put##S(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_get##S(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { shmem_get##S(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_put##S##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { shmem_put##S##_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_get##S##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { shmem_get##S##_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_iput##S(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_iput##S(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_iget##S(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_iget##S(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_put##S##_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_put##S##_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_put##S##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_put##S##_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
HANDOFF_SHMEM_CTX_SIZED(8)
HANDOFF_SHMEM_CTX_SIZED(16)
HANDOFF_SHMEM_CTX_SIZED(32)
HANDOFF_SHMEM_CTX_SIZED(64)
HANDOFF_SHMEM_CTX_SIZED(128)
static inline void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { shmem_putmem(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { shmem_getmem(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { shmem_putmem_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { shmem_getmem_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_putmem_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_putmem_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
#define HANDOFF_SHMEM_CTX_EXT_AMO(T, N) \
    static inline T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe) { return shmem_##N##_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe) { shmem_##N##_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe) { return shmem_##N##_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe) { shmem_##N##_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) { shmem_##N##_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
#define HANDOFF_SHMEM_CTX_STD_AMO(T, N) \
    static inline T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe) { return shmem_##N##_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe) { shmem_##N##_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe) { return shmem_##N##_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe) { shmem_##N##_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe) { return shmem_##N##_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe) { shmem_##N##_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) { shmem_##N##_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, int pe) { shmem_##N##_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
#define HANDOFF_SHMEM_CTX_BIT_AMO(T, N) \
    static inline T shmem_ctx_##N##_atomic_fetch_and(shmem_ctx_t ctx, T *dest, T value, int pe) { return shmem_##N##_atomic_fetch_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_and(shmem_ctx_t ctx, T *dest, T value, int pe) { shmem_##N##_atomic_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline T shmem_ctx_##N##_atomic_fetch_or(shmem_ctx_t ctx, T *dest, T value, int pe) { return shmem_##N##_atomic_fetch_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_or(shmem_ctx_t ctx, T *dest, T value, int pe) { shmem_##N##_atomic_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline T shmem_ctx_##N##_atomic_fetch_xor(shmem_ctx_t ctx, T *dest, T value, int pe) { return shmem_##N##_atomic_fetch_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_xor(shmem_ctx_t ctx, T *dest, T value, int pe) { shmem_##N##_atomic_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_fetch_and_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) { shmem_##N##_atomic_fetch_and_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_fetch_or_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) { shmem_##N##_atomic_fetch_or_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); } \
    static inline void shmem_ctx_##N##_atomic_fetch_xor_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) { shmem_##N##_atomic_fetch_xor_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
HANDOFF_SHMEM_EXT_AMO_TYPES(HANDOFF_SHMEM_CTX_EXT_AMO)
HANDOFF_SHMEM_STD_AMO_TYPES(HANDOFF_SHMEM_CTX_STD_AMO)
HANDOFF_SHMEM_BIT_AMO_TYPES(HANDOFF_SHMEM_CTX_BIT_AMO)

/* ---- point-to-point synchronization (Table 10) ---------------------------------------- */

#define HANDOFF_SHMEM_P2P_TYPES(X)                                                         \
    X(short, short) X(int, int) X(long, long) X(long long, longlong)                       \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)                \
    X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64)                   \
    X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

#define HANDOFF_SHMEM_DECL_P2P(T, N)                                                       \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                            \
    void shmem_##N##_wait(T *ivar, T cmp_value);                                           \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,   \
                                    T cmp_value);                                          \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, \
                                      T cmp_value);                                        \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,           \
                                       const int *status, int cmp, T cmp_value);           \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,     \
                                           int cmp, const T *cmp_values);                  \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,   \
                                             int cmp, const T *cmp_values);                \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,    \
                                              const int *status, int cmp,                  \
                                              const T *cmp_values);                        \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                   \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,          \
                             T cmp_value);                                                 \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,       \
                                T cmp_value);                                              \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices,                 \
                                 const int *status, int cmp, T cmp_value);                 \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,   \
                                    const T *cmp_values);                                  \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status,         \
                                       int cmp, const T *cmp_values);                      \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,          \
                                        const int *status, int cmp, const T *cmp_values);
HANDOFF_SHMEM_P2P_TYPES(HANDOFF_SHMEM_DECL_P2P)

/* ---- collectives ---------------------------------------------------------------------- */

void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root,
                       int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root,
                       int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start,
                     int logPE_stride, int PE_size, long *pSync);
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start,
                     int logPE_stride, int PE_size, long *pSync);
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);

#define HANDOFF_SHMEM_DECL_TEAM_COLL(T, N)                                                 \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,  \
                              int PE_root);                                                \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);   \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);  \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);
HANDOFF_SHMEM_RMA_TYPES(HANDOFF_SHMEM_DECL_TEAM_COLL)
HANDOFF_SHMEM_DECL_TEAM_COLL(long double, longdouble)

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);

#define HANDOFF_SHMEM_DECL_TO_ALL(T, N, OP)                                                \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,    \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define HANDOFF_SHMEM_TO_ALL_INT(X, OP)                                                    \
    X(short, short, OP) X(int, int, OP) X(long, long, OP) X(long long, longlong, OP)
#define HANDOFF_SHMEM_TO_ALL_ARITH(X, OP)                                                  \
    HANDOFF_SHMEM_TO_ALL_INT(X, OP) X(float, float, OP) X(double, double, OP)
HANDOFF_SHMEM_TO_ALL_INT(HANDOFF_SHMEM_DECL_TO_ALL, and)
HANDOFF_SHMEM_TO_ALL_INT(HANDOFF_SHMEM_DECL_TO_ALL, or)
HANDOFF_SHMEM_TO_ALL_INT(HANDOFF_SHMEM_DECL_TO_ALL, xor)
HANDOFF_SHMEM_TO_ALL_ARITH(HANDOFF_SHMEM_DECL_TO_ALL, max)
HANDOFF_SHMEM_TO_ALL_ARITH(HANDOFF_SHMEM_DECL_TO_ALL, min)
HANDOFF_SHMEM_TO_ALL_ARITH(HANDOFF_SHMEM_DECL_TO_ALL, sum)
HANDOFF_SHMEM_TO_ALL_ARITH(HANDOFF_SHMEM_DECL_TO_ALL, prod)

#define HANDOFF_SHMEM_DECL_REDUCE(T, N, OP)                                                \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,             \
                                  size_t nreduce);
#define HANDOFF_SHMEM_REDUCE_BIT(X, OP)                                                    \
    X(unsigned char, uchar, OP) X(unsigned short, ushort, OP) X(unsigned int, uint, OP)    \
    X(unsigned long, ulong, OP) X(unsigned long long, ulonglong, OP) X(int8_t, int8, OP)   \
    X(int16_t, int16, OP) X(int32_t, int32, OP) X(int64_t, int64, OP)                      \
    X(uint8_t, uint8, OP) X(uint16_t, uint16, OP) X(uint32_t, uint32, OP)                  \
    X(uint64_t, uint64, OP) X(size_t, size, OP)
#define HANDOFF_SHMEM_REDUCE_ARITH(X, OP)                                                  \
    X(char, char, OP) X(signed char, schar, OP) X(short, short, OP) X(int, int, OP)        \
    X(long, long, OP) X(long long, longlong, OP) X(ptrdiff_t, ptrdiff, OP)                 \
    X(unsigned char, uchar, OP) X(unsigned short, ushort, OP) X(unsigned int, uint, OP)    \
    X(unsigned long, ulong, OP) X(unsigned long long, ulonglong, OP) X(int8_t, int8, OP)   \
    X(int16_t, int16, OP) X(int32_t, int32, OP) X(int64_t, int64, OP)                      \
    X(uint8_t, uint8, OP) X(uint16_t, uint16, OP) X(uint32_t, uint32, OP)                  \
    X(uint64_t, uint64, OP) X(size_t, size, OP) X(float, float, OP) X(double, double, OP)
HANDOFF_SHMEM_REDUCE_BIT(HANDOFF_SHMEM_DECL_REDUCE, and)
HANDOFF_SHMEM_REDUCE_BIT(HANDOFF_SHMEM_DECL_REDUCE, or)
HANDOFF_SHMEM_REDUCE_BIT(HANDOFF_SHMEM_DECL_REDUCE, xor)
HANDOFF_SHMEM_TO_ALL_INT(HANDOFF_SHMEM_DECL_REDUCE, and)
HANDOFF_SHMEM_TO_ALL_INT(HANDOFF_SHMEM_DECL_REDUCE, or)
HANDOFF_SHMEM_TO_ALL_INT(HANDOFF_SHMEM_DECL_REDUCE, xor)
HANDOFF_SHMEM_REDUCE_ARITH(HANDOFF_SHMEM_DECL_REDUCE, max)
HANDOFF_SHMEM_REDUCE_ARITH(HANDOFF_SHMEM_DECL_REDUCE, min)
HANDOFF_SHMEM_REDUCE_ARITH(HANDOFF_SHMEM_DECL_REDUCE, sum)
HANDOFF_SHMEM_REDUCE_ARITH(HANDOFF_SHMEM_DECL_REDUCE, prod)

/* all-to-all with strides (1.5 §9.9.8): PE i's block j (nelems elements `sst` apart, from
 * element j * nelems * sst) lands on PE j as block i (elements `dst` apart, from element
 * i * nelems * dst). */
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);
#define HANDOFF_SHMEM_DECL_ALLTOALLS(T, N)                                                 \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,  \
                              ptrdiff_t sst, size_t nelems);
HANDOFF_SHMEM_RMA_TYPES(HANDOFF_SHMEM_DECL_ALLTOALLS)
HANDOFF_SHMEM_DECL_ALLTOALLS(long double, longdouble)
void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);

/* complex reductions (sum, prod) */
#define HANDOFF_SHMEM_DECL_COMPLEX(T, N, OP)                                               \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T _Complex *dest,                     \
                                  const T _Complex *source, size_t nreduce);               \
    void shmem_##N##_##OP##_to_all(T _Complex *dest, const T _Complex *source, int nreduce,\
                                   int PE_start, int logPE_stride, int PE_size,           \
                                   T _Complex *pWrk, long *pSync);
HANDOFF_SHMEM_DECL_COMPLEX(float, complexf, sum)
HANDOFF_SHMEM_DECL_COMPLEX(float, complexf, prod)
HANDOFF_SHMEM_DECL_COMPLEX(double, complexd, sum)
HANDOFF_SHMEM_DECL_COMPLEX(double, complexd, prod)

/* long double reductions: combined here, in C (the library is Rust, which has no long
 * double arithmetic), with the library's barriers and gets, in member order as the other
 * reductions are, so every PE gets bitwise the same result (dest may be source). */
static inline int handoff_shmem_ld_combine(long double *acc, const long double *source,
                                           size_t n, int op, int i, int pe) {
    long double b[64]; /* one get per 64 elements, not per element */
    for (size_t k0 = 0; k0 < n; k0 += 64) {
        size_t m = n - k0 < 64 ? n - k0 : 64;
        shmem_getmem(i == 0 ? &acc[k0] : b, &source[k0], m * sizeof(long double), pe);
        if (i == 0) continue;
        for (size_t k = 0; k < m; k++) {
            long double *a = &acc[k0 + k];
            *a = op == 0 ? (*a > b[k] ? *a : b[k]) : op == 1 ? (*a < b[k] ? *a : b[k])
               : op == 2 ? *a + b[k] : *a * b[k];
        }
    }
    return 0;
}
static inline int handoff_shmem_ld_team(shmem_team_t team, long double *dest,
                                        const long double *source, size_t n, int op) {
    int np = shmem_team_n_pes(team);
    long double *acc = (long double *)malloc(n * sizeof(long double) + 1);
    if (np < 1 || acc == NULL) { free(acc); return -1; }
    shmem_team_sync(team);
    for (int i = 0; i < np; i++)
        handoff_shmem_ld_combine(acc, source, n, op, i,
                                 shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
    shmem_team_sync(team);
    for (size_t k = 0; k < n; k++) dest[k] = acc[k];
    free(acc);
    return 0;
}
static inline void handoff_shmem_ld_to_all(long double *dest, const long double *source,
                                           int n, int start, int logs, int size, long *pSync,
                                           int op) {
    long double *acc = (long double *)malloc((size_t)(n > 0 ? n : 0) * sizeof(long double) + 1);
    if (acc == NULL) return;
    shmem_barrier(start, logs, size, pSync);
    for (int i = 0; i < size; i++)
        handoff_shmem_ld_combine(acc, source, (size_t)n, op, i, start + (i << logs));
    shmem_barrier(start, logs, size, pSync);
    for (int k = 0; k < n; k++) dest[k] = acc[k];
    free(acc);
}
#define HANDOFF_SHMEM_LD_REDUCE(OP, K)                                                     \
    static inline int shmem_longdouble_##OP##_reduce(shmem_team_t team, long double *dest, \
                                                     const long double *source,            \
                                                     size_t nreduce) {                     \
        return handoff_shmem_ld_team(team, dest, source, nreduce, K);                      \
    }                                                                                      \
    static inline void shmem_longdouble_##OP##_to_all(                                     \
        long double *dest, const long double *source, int nreduce, int PE_start,           \
        int logPE_stride, int PE_size, long double *pWrk, long *pSync) {                   \
        (void)pWrk;                                                                        \
        handoff_shmem_ld_to_all(dest, source, nreduce, PE_start, logPE_stride, PE_size,    \
                                pSync, K);                                                 \
    }
HANDOFF_SHMEM_LD_REDUCE(max, 0)
HANDOFF_SHMEM_LD_REDUCE(min, 1)
HANDOFF_SHMEM_LD_REDUCE(sum, 2)
HANDOFF_SHMEM_LD_REDUCE(prod, 3)

/* ---- profiling ------------------------------------------------------------------------ */

/* shmem_pcontrol (1.5 §9.16): the level for a profiling tool that intercepts it (pshmem.h);
 * the library itself has no profiling, so it has no effect without one. */
void shmem_pcontrol(const int level, ...);

#ifdef __cplusplus
}
#endif

/* ---- C11 generic names ----------------------------------------------------------------
 * Selected on the pointed-to type (lvalue conversion drops const); only the distinct C
 * types appear (int32_t etc. are typedefs of these). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)

#define HANDOFF_SHMEM_G_RMA(P, OBJ, F)                                                        \
    _Generic(*(OBJ), float: P##float_##F, double: P##double_##F,                     \
             long double: P##longdouble_##F, char: P##char_##F,                      \
             signed char: P##schar_##F, short: P##short_##F, int: P##int_##F,     \
             long: P##long_##F, long long: P##longlong_##F,                          \
             unsigned char: P##uchar_##F, unsigned short: P##ushort_##F,             \
             unsigned int: P##uint_##F, unsigned long: P##ulong_##F,                 \
             unsigned long long: P##ulonglong_##F)
#define HANDOFF_SHMEM_G_PG(P, OBJ, F)                                                         \
    _Generic(*(OBJ), float: P##float_##F, double: P##double_##F,                     \
             long double: P##longdouble_##F,                                              \
             char: P##char_##F, signed char: P##schar_##F, short: P##short_##F,   \
             int: P##int_##F, long: P##long_##F, long long: P##longlong_##F,      \
             unsigned char: P##uchar_##F, unsigned short: P##ushort_##F,             \
             unsigned int: P##uint_##F, unsigned long: P##ulong_##F,                 \
             unsigned long long: P##ulonglong_##F)
#define HANDOFF_SHMEM_G_STD(P, OBJ, F)                                                        \
    _Generic(*(OBJ), int: P##int_##F, long: P##long_##F,                             \
             long long: P##longlong_##F, unsigned int: P##uint_##F,                  \
             unsigned long: P##ulong_##F, unsigned long long: P##ulonglong_##F)
#define HANDOFF_SHMEM_G_EXT(P, OBJ, F)                                                        \
    _Generic(*(OBJ), int: P##int_##F, long: P##long_##F,                             \
             long long: P##longlong_##F, unsigned int: P##uint_##F,                  \
             unsigned long: P##ulong_##F, unsigned long long: P##ulonglong_##F,      \
             float: P##float_##F, double: P##double_##F)
#define HANDOFF_SHMEM_G_BIT(P, OBJ, F)                                                        \
    _Generic(*(OBJ), unsigned int: P##uint_##F, unsigned long: P##ulong_##F,         \
             unsigned long long: P##ulonglong_##F, int: P##int32_##F,                \
             long: P##int64_##F)
#define HANDOFF_SHMEM_G_P2P(P, OBJ, F)                                                        \
    _Generic(*(OBJ), short: P##short_##F, int: P##int_##F, long: P##long_##F,     \
             long long: P##longlong_##F, unsigned short: P##ushort_##F,              \
             unsigned int: P##uint_##F, unsigned long: P##ulong_##F,                 \
             unsigned long long: P##ulonglong_##F)
#define HANDOFF_SHMEM_G_RED(P, OBJ, F)                                                        \
    _Generic(*(OBJ), char: P##char_##F, signed char: P##schar_##F,                   \
             short: P##short_##F, int: P##int_##F, long: P##long_##F,             \
             long long: P##longlong_##F, unsigned char: P##uchar_##F,                \
             unsigned short: P##ushort_##F, unsigned int: P##uint_##F,               \
             unsigned long: P##ulong_##F, unsigned long long: P##ulonglong_##F,      \
             float: P##float_##F, double: P##double_##F, long double: P##longdouble_##F)
#define HANDOFF_SHMEM_G_REDSP(P, OBJ, F)                                                   \
    _Generic(*(OBJ), char: P##char_##F, signed char: P##schar_##F, short: P##short_##F,    \
             int: P##int_##F, long: P##long_##F, long long: P##longlong_##F,               \
             unsigned char: P##uchar_##F, unsigned short: P##ushort_##F,                   \
             unsigned int: P##uint_##F, unsigned long: P##ulong_##F,                       \
             unsigned long long: P##ulonglong_##F, float: P##float_##F,                    \
             double: P##double_##F, long double: P##longdouble_##F,                        \
             float _Complex: P##complexf_##F, double _Complex: P##complexd_##F)
#define HANDOFF_SHMEM_G_REDBIT(P, OBJ, F)                                                     \
    _Generic(*(OBJ), unsigned char: P##uchar_##F, unsigned short: P##ushort_##F,     \
             unsigned int: P##uint_##F, unsigned long: P##ulong_##F,                 \
             unsigned long long: P##ulonglong_##F, signed char: P##int8_##F,         \
             short: P##int16_##F, int: P##int32_##F, long: P##int64_##F)



/* The calls that take a context first have one more argument: picked by argument count. */
#define HANDOFF_SHMEM_NARG(...) HANDOFF_SHMEM_NARG_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define HANDOFF_SHMEM_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define HANDOFF_SHMEM_CAT(a, b) HANDOFF_SHMEM_CAT_(a, b)
#define HANDOFF_SHMEM_CAT_(a, b) a##b
#define HANDOFF_SHMEM_BY_NARG(F, ...) HANDOFF_SHMEM_CAT(F, HANDOFF_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define shmem_put(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_put_, __VA_ARGS__)
#define handoff_shmem_put_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(shmem_, a0, put)(a0, a1, a2, a3)
#define handoff_shmem_put_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(shmem_ctx_, a0, put)(ctx, a0, a1, a2, a3)
#define shmem_get(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_get_, __VA_ARGS__)
#define handoff_shmem_get_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(shmem_, a0, get)(a0, a1, a2, a3)
#define handoff_shmem_get_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(shmem_ctx_, a0, get)(ctx, a0, a1, a2, a3)
#define shmem_put_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_put_nbi_, __VA_ARGS__)
#define handoff_shmem_put_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(shmem_, a0, put_nbi)(a0, a1, a2, a3)
#define handoff_shmem_put_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(shmem_ctx_, a0, put_nbi)(ctx, a0, a1, a2, a3)
#define shmem_get_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_get_nbi_, __VA_ARGS__)
#define handoff_shmem_get_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(shmem_, a0, get_nbi)(a0, a1, a2, a3)
#define handoff_shmem_get_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(shmem_ctx_, a0, get_nbi)(ctx, a0, a1, a2, a3)
#define shmem_iput(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_iput_, __VA_ARGS__)
#define handoff_shmem_iput_6(a0, a1, a2, a3, a4, a5) HANDOFF_SHMEM_G_RMA(shmem_, a0, iput)(a0, a1, a2, a3, a4, a5)
#define handoff_shmem_iput_7(ctx, a0, a1, a2, a3, a4, a5) HANDOFF_SHMEM_G_RMA(shmem_ctx_, a0, iput)(ctx, a0, a1, a2, a3, a4, a5)
#define shmem_iget(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_iget_, __VA_ARGS__)
#define handoff_shmem_iget_6(a0, a1, a2, a3, a4, a5) HANDOFF_SHMEM_G_RMA(shmem_, a0, iget)(a0, a1, a2, a3, a4, a5)
#define handoff_shmem_iget_7(ctx, a0, a1, a2, a3, a4, a5) HANDOFF_SHMEM_G_RMA(shmem_ctx_, a0, iget)(ctx, a0, a1, a2, a3, a4, a5)
#define shmem_p(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_p_, __VA_ARGS__)
#define handoff_shmem_p_3(a0, a1, a2) HANDOFF_SHMEM_G_PG(shmem_, a0, p)(a0, a1, a2)
#define handoff_shmem_p_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_PG(shmem_ctx_, a0, p)(ctx, a0, a1, a2)
#define shmem_g(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_g_, __VA_ARGS__)
#define handoff_shmem_g_2(a0, a1) HANDOFF_SHMEM_G_PG(shmem_, a0, g)(a0, a1)
#define handoff_shmem_g_3(ctx, a0, a1) HANDOFF_SHMEM_G_PG(shmem_ctx_, a0, g)(ctx, a0, a1)
#define shmem_put_signal(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_put_signal_, __VA_ARGS__)
#define handoff_shmem_put_signal_7(a0, a1, a2, a3, a4, a5, a6) HANDOFF_SHMEM_G_RMA(shmem_, a0, put_signal)(a0, a1, a2, a3, a4, a5, a6)
#define handoff_shmem_put_signal_8(ctx, a0, a1, a2, a3, a4, a5, a6) HANDOFF_SHMEM_G_RMA(shmem_ctx_, a0, put_signal)(ctx, a0, a1, a2, a3, a4, a5, a6)
#define shmem_put_signal_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_put_signal_nbi_, __VA_ARGS__)
#define handoff_shmem_put_signal_nbi_7(a0, a1, a2, a3, a4, a5, a6) HANDOFF_SHMEM_G_RMA(shmem_, a0, put_signal_nbi)(a0, a1, a2, a3, a4, a5, a6)
#define handoff_shmem_put_signal_nbi_8(ctx, a0, a1, a2, a3, a4, a5, a6) HANDOFF_SHMEM_G_RMA(shmem_ctx_, a0, put_signal_nbi)(ctx, a0, a1, a2, a3, a4, a5, a6)
#define shmem_atomic_fetch(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_2(a0, a1) HANDOFF_SHMEM_G_EXT(shmem_, a0, atomic_fetch)(a0, a1)
#define handoff_shmem_atomic_fetch_3(ctx, a0, a1) HANDOFF_SHMEM_G_EXT(shmem_ctx_, a0, atomic_fetch)(ctx, a0, a1)
#define shmem_atomic_set(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_set_, __VA_ARGS__)
#define handoff_shmem_atomic_set_3(a0, a1, a2) HANDOFF_SHMEM_G_EXT(shmem_, a0, atomic_set)(a0, a1, a2)
#define handoff_shmem_atomic_set_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_EXT(shmem_ctx_, a0, atomic_set)(ctx, a0, a1, a2)
#define shmem_atomic_swap(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_swap_, __VA_ARGS__)
#define handoff_shmem_atomic_swap_3(a0, a1, a2) HANDOFF_SHMEM_G_EXT(shmem_, a0, atomic_swap)(a0, a1, a2)
#define handoff_shmem_atomic_swap_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_EXT(shmem_ctx_, a0, atomic_swap)(ctx, a0, a1, a2)
#define shmem_atomic_fetch_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_nbi_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_nbi_3(a0, a1, a2) HANDOFF_SHMEM_G_EXT(shmem_, a0, atomic_fetch_nbi)(a0, a1, a2)
#define handoff_shmem_atomic_fetch_nbi_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_EXT(shmem_ctx_, a0, atomic_fetch_nbi)(ctx, a0, a1, a2)
#define shmem_atomic_swap_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_swap_nbi_, __VA_ARGS__)
#define handoff_shmem_atomic_swap_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_EXT(shmem_, a0, atomic_swap_nbi)(a0, a1, a2, a3)
#define handoff_shmem_atomic_swap_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_EXT(shmem_ctx_, a0, atomic_swap_nbi)(ctx, a0, a1, a2, a3)
#define shmem_atomic_fetch_inc(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_inc_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_inc_2(a0, a1) HANDOFF_SHMEM_G_STD(shmem_, a0, atomic_fetch_inc)(a0, a1)
#define handoff_shmem_atomic_fetch_inc_3(ctx, a0, a1) HANDOFF_SHMEM_G_STD(shmem_ctx_, a0, atomic_fetch_inc)(ctx, a0, a1)
#define shmem_atomic_inc(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_inc_, __VA_ARGS__)
#define handoff_shmem_atomic_inc_2(a0, a1) HANDOFF_SHMEM_G_STD(shmem_, a0, atomic_inc)(a0, a1)
#define handoff_shmem_atomic_inc_3(ctx, a0, a1) HANDOFF_SHMEM_G_STD(shmem_ctx_, a0, atomic_inc)(ctx, a0, a1)
#define shmem_atomic_fetch_add(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_add_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_add_3(a0, a1, a2) HANDOFF_SHMEM_G_STD(shmem_, a0, atomic_fetch_add)(a0, a1, a2)
#define handoff_shmem_atomic_fetch_add_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_STD(shmem_ctx_, a0, atomic_fetch_add)(ctx, a0, a1, a2)
#define shmem_atomic_add(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_add_, __VA_ARGS__)
#define handoff_shmem_atomic_add_3(a0, a1, a2) HANDOFF_SHMEM_G_STD(shmem_, a0, atomic_add)(a0, a1, a2)
#define handoff_shmem_atomic_add_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_STD(shmem_ctx_, a0, atomic_add)(ctx, a0, a1, a2)
#define shmem_atomic_compare_swap(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_compare_swap_, __VA_ARGS__)
#define handoff_shmem_atomic_compare_swap_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_STD(shmem_, a0, atomic_compare_swap)(a0, a1, a2, a3)
#define handoff_shmem_atomic_compare_swap_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_STD(shmem_ctx_, a0, atomic_compare_swap)(ctx, a0, a1, a2, a3)
#define shmem_atomic_fetch_inc_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_inc_nbi_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_inc_nbi_3(a0, a1, a2) HANDOFF_SHMEM_G_STD(shmem_, a0, atomic_fetch_inc_nbi)(a0, a1, a2)
#define handoff_shmem_atomic_fetch_inc_nbi_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_STD(shmem_ctx_, a0, atomic_fetch_inc_nbi)(ctx, a0, a1, a2)
#define shmem_atomic_fetch_add_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_add_nbi_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_add_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_STD(shmem_, a0, atomic_fetch_add_nbi)(a0, a1, a2, a3)
#define handoff_shmem_atomic_fetch_add_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_STD(shmem_ctx_, a0, atomic_fetch_add_nbi)(ctx, a0, a1, a2, a3)
#define shmem_atomic_compare_swap_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_compare_swap_nbi_, __VA_ARGS__)
#define handoff_shmem_atomic_compare_swap_nbi_5(a0, a1, a2, a3, a4) HANDOFF_SHMEM_G_STD(shmem_, a0, atomic_compare_swap_nbi)(a0, a1, a2, a3, a4)
#define handoff_shmem_atomic_compare_swap_nbi_6(ctx, a0, a1, a2, a3, a4) HANDOFF_SHMEM_G_STD(shmem_ctx_, a0, atomic_compare_swap_nbi)(ctx, a0, a1, a2, a3, a4)
#define shmem_atomic_fetch_and(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_and_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_and_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_fetch_and)(a0, a1, a2)
#define handoff_shmem_atomic_fetch_and_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_fetch_and)(ctx, a0, a1, a2)
#define shmem_atomic_and(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_and_, __VA_ARGS__)
#define handoff_shmem_atomic_and_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_and)(a0, a1, a2)
#define handoff_shmem_atomic_and_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_and)(ctx, a0, a1, a2)
#define shmem_atomic_fetch_or(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_or_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_or_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_fetch_or)(a0, a1, a2)
#define handoff_shmem_atomic_fetch_or_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_fetch_or)(ctx, a0, a1, a2)
#define shmem_atomic_or(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_or_, __VA_ARGS__)
#define handoff_shmem_atomic_or_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_or)(a0, a1, a2)
#define handoff_shmem_atomic_or_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_or)(ctx, a0, a1, a2)
#define shmem_atomic_fetch_xor(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_xor_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_xor_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_fetch_xor)(a0, a1, a2)
#define handoff_shmem_atomic_fetch_xor_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_fetch_xor)(ctx, a0, a1, a2)
#define shmem_atomic_xor(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_xor_, __VA_ARGS__)
#define handoff_shmem_atomic_xor_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_xor)(a0, a1, a2)
#define handoff_shmem_atomic_xor_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_xor)(ctx, a0, a1, a2)
#define shmem_atomic_fetch_and_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_and_nbi_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_and_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_fetch_and_nbi)(a0, a1, a2, a3)
#define handoff_shmem_atomic_fetch_and_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_fetch_and_nbi)(ctx, a0, a1, a2, a3)
#define shmem_atomic_fetch_or_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_or_nbi_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_or_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_fetch_or_nbi)(a0, a1, a2, a3)
#define handoff_shmem_atomic_fetch_or_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_fetch_or_nbi)(ctx, a0, a1, a2, a3)
#define shmem_atomic_fetch_xor_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_shmem_atomic_fetch_xor_nbi_, __VA_ARGS__)
#define handoff_shmem_atomic_fetch_xor_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(shmem_, a0, atomic_fetch_xor_nbi)(a0, a1, a2, a3)
#define handoff_shmem_atomic_fetch_xor_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(shmem_ctx_, a0, atomic_fetch_xor_nbi)(ctx, a0, a1, a2, a3)

#define shmem_test_all_vector(ivars, n, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, test_all_vector)(ivars, n, status, cmp, values)
#define shmem_test_any_vector(ivars, n, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, test_any_vector)(ivars, n, status, cmp, values)
#define shmem_test_some_vector(ivars, n, indices, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, test_some_vector)(ivars, n, indices, status, cmp, values)
#define shmem_alltoalls(team, dest, source, dst, sst, nelems) \
    HANDOFF_SHMEM_G_RMA(shmem_, dest, alltoalls)(team, dest, source, dst, sst, nelems)

#define shmem_wait_until(ivar, cmp, value) HANDOFF_SHMEM_G_P2P(shmem_, ivar, wait_until)(ivar, cmp, value)
#define shmem_wait(ivar, value) HANDOFF_SHMEM_G_P2P(shmem_, ivar, wait)(ivar, value)
#define shmem_wait_until_all(ivars, n, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, wait_until_all)(ivars, n, status, cmp, value)
#define shmem_wait_until_any(ivars, n, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, wait_until_any)(ivars, n, status, cmp, value)
#define shmem_wait_until_some(ivars, n, indices, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, wait_until_some)(ivars, n, indices, status, cmp, value)
#define shmem_wait_until_all_vector(ivars, n, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, wait_until_all_vector)(ivars, n, status, cmp, values)
#define shmem_wait_until_any_vector(ivars, n, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, wait_until_any_vector)(ivars, n, status, cmp, values)
#define shmem_wait_until_some_vector(ivars, n, indices, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, wait_until_some_vector)(ivars, n, indices, status, cmp, values)
#define shmem_test(ivar, cmp, value) HANDOFF_SHMEM_G_P2P(shmem_, ivar, test)(ivar, cmp, value)
#define shmem_test_all(ivars, n, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, test_all)(ivars, n, status, cmp, value)
#define shmem_test_any(ivars, n, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, test_any)(ivars, n, status, cmp, value)
#define shmem_test_some(ivars, n, indices, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(shmem_, ivars, test_some)(ivars, n, indices, status, cmp, value)

#define shmem_broadcast(team, dest, source, nelems, root) \
    HANDOFF_SHMEM_G_RMA(shmem_, dest, broadcast)(team, dest, source, nelems, root)
#define shmem_collect(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(shmem_, dest, collect)(team, dest, source, nelems)
#define shmem_fcollect(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(shmem_, dest, fcollect)(team, dest, source, nelems)
#define shmem_alltoall(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(shmem_, dest, alltoall)(team, dest, source, nelems)

#define shmem_sum_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDSP(shmem_, dest, sum_reduce)(team, dest, source, n)
#define shmem_prod_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDSP(shmem_, dest, prod_reduce)(team, dest, source, n)
#define shmem_max_reduce(team, dest, source, n) HANDOFF_SHMEM_G_RED(shmem_, dest, max_reduce)(team, dest, source, n)
#define shmem_min_reduce(team, dest, source, n) HANDOFF_SHMEM_G_RED(shmem_, dest, min_reduce)(team, dest, source, n)
#define shmem_and_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(shmem_, dest, and_reduce)(team, dest, source, n)
#define shmem_or_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(shmem_, dest, or_reduce)(team, dest, source, n)
#define shmem_xor_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(shmem_, dest, xor_reduce)(team, dest, source, n)

/* The deprecated (1.4) generic AMO names, still in 1.5, over the deprecated typed names;
 * shmem_swap is type-generic here (it was the long-only call of 1.0). */
#define shmem_fetch(source, pe) HANDOFF_SHMEM_G_EXT(shmem_, source, fetch)(source, pe)
#define shmem_set(dest, value, pe) HANDOFF_SHMEM_G_EXT(shmem_, dest, set)(dest, value, pe)
#define shmem_swap(dest, value, pe) HANDOFF_SHMEM_G_EXT(shmem_, dest, swap)(dest, value, pe)
#define shmem_finc(dest, pe) HANDOFF_SHMEM_G_STD(shmem_, dest, finc)(dest, pe)
#define shmem_inc(dest, pe) HANDOFF_SHMEM_G_STD(shmem_, dest, inc)(dest, pe)
#define shmem_fadd(dest, value, pe) HANDOFF_SHMEM_G_STD(shmem_, dest, fadd)(dest, value, pe)
#define shmem_add(dest, value, pe) HANDOFF_SHMEM_G_STD(shmem_, dest, add)(dest, value, pe)
#define shmem_cswap(dest, cond, value, pe) \
    HANDOFF_SHMEM_G_STD(shmem_, dest, cswap)(dest, cond, value, pe)

#endif /* C11 */

/* ---- C++: the generic names as overloads over the same distinct C types ---------------- */
#ifdef __cplusplus
inline void shmem_put(float *dest, const float *source, size_t nelems, int pe) { shmem_float_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { shmem_ctx_float_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(double *dest, const double *source, size_t nelems, int pe) { shmem_double_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { shmem_ctx_double_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(long double *dest, const long double *source, size_t nelems, int pe) { shmem_longdouble_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { shmem_ctx_longdouble_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(char *dest, const char *source, size_t nelems, int pe) { shmem_char_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { shmem_ctx_char_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(signed char *dest, const signed char *source, size_t nelems, int pe) { shmem_schar_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { shmem_ctx_schar_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(short *dest, const short *source, size_t nelems, int pe) { shmem_short_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, int pe) { shmem_ctx_short_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(int *dest, const int *source, size_t nelems, int pe) { shmem_int_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { shmem_ctx_int_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(long *dest, const long *source, size_t nelems, int pe) { shmem_long_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe) { shmem_ctx_long_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(long long *dest, const long long *source, size_t nelems, int pe) { shmem_longlong_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, int pe) { shmem_ctx_longlong_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { shmem_uchar_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { shmem_ctx_uchar_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { shmem_ushort_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { shmem_ctx_ushort_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { shmem_uint_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { shmem_ctx_uint_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { shmem_ulong_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { shmem_ctx_ulong_put(ctx, dest, source, nelems, pe); }
inline void shmem_put(unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { shmem_ulonglong_put(dest, source, nelems, pe); }
inline void shmem_put(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { shmem_ctx_ulonglong_put(ctx, dest, source, nelems, pe); }
inline void shmem_get(float *dest, const float *source, size_t nelems, int pe) { shmem_float_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { shmem_ctx_float_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(double *dest, const double *source, size_t nelems, int pe) { shmem_double_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { shmem_ctx_double_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(long double *dest, const long double *source, size_t nelems, int pe) { shmem_longdouble_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { shmem_ctx_longdouble_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(char *dest, const char *source, size_t nelems, int pe) { shmem_char_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { shmem_ctx_char_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(signed char *dest, const signed char *source, size_t nelems, int pe) { shmem_schar_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { shmem_ctx_schar_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(short *dest, const short *source, size_t nelems, int pe) { shmem_short_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, int pe) { shmem_ctx_short_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(int *dest, const int *source, size_t nelems, int pe) { shmem_int_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { shmem_ctx_int_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(long *dest, const long *source, size_t nelems, int pe) { shmem_long_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe) { shmem_ctx_long_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(long long *dest, const long long *source, size_t nelems, int pe) { shmem_longlong_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, int pe) { shmem_ctx_longlong_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { shmem_uchar_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { shmem_ctx_uchar_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { shmem_ushort_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { shmem_ctx_ushort_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { shmem_uint_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { shmem_ctx_uint_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { shmem_ulong_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { shmem_ctx_ulong_get(ctx, dest, source, nelems, pe); }
inline void shmem_get(unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { shmem_ulonglong_get(dest, source, nelems, pe); }
inline void shmem_get(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { shmem_ctx_ulonglong_get(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(float *dest, const float *source, size_t nelems, int pe) { shmem_float_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { shmem_ctx_float_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(double *dest, const double *source, size_t nelems, int pe) { shmem_double_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { shmem_ctx_double_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(long double *dest, const long double *source, size_t nelems, int pe) { shmem_longdouble_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { shmem_ctx_longdouble_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(char *dest, const char *source, size_t nelems, int pe) { shmem_char_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { shmem_ctx_char_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(signed char *dest, const signed char *source, size_t nelems, int pe) { shmem_schar_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { shmem_ctx_schar_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(short *dest, const short *source, size_t nelems, int pe) { shmem_short_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, int pe) { shmem_ctx_short_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(int *dest, const int *source, size_t nelems, int pe) { shmem_int_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { shmem_ctx_int_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(long *dest, const long *source, size_t nelems, int pe) { shmem_long_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe) { shmem_ctx_long_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(long long *dest, const long long *source, size_t nelems, int pe) { shmem_longlong_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, int pe) { shmem_ctx_longlong_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { shmem_uchar_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { shmem_ctx_uchar_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { shmem_ushort_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { shmem_ctx_ushort_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { shmem_uint_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { shmem_ctx_uint_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { shmem_ulong_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { shmem_ctx_ulong_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_put_nbi(unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { shmem_ulonglong_put_nbi(dest, source, nelems, pe); }
inline void shmem_put_nbi(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { shmem_ctx_ulonglong_put_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(float *dest, const float *source, size_t nelems, int pe) { shmem_float_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { shmem_ctx_float_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(double *dest, const double *source, size_t nelems, int pe) { shmem_double_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { shmem_ctx_double_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(long double *dest, const long double *source, size_t nelems, int pe) { shmem_longdouble_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { shmem_ctx_longdouble_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(char *dest, const char *source, size_t nelems, int pe) { shmem_char_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { shmem_ctx_char_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(signed char *dest, const signed char *source, size_t nelems, int pe) { shmem_schar_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { shmem_ctx_schar_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(short *dest, const short *source, size_t nelems, int pe) { shmem_short_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, int pe) { shmem_ctx_short_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(int *dest, const int *source, size_t nelems, int pe) { shmem_int_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { shmem_ctx_int_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(long *dest, const long *source, size_t nelems, int pe) { shmem_long_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe) { shmem_ctx_long_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(long long *dest, const long long *source, size_t nelems, int pe) { shmem_longlong_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, int pe) { shmem_ctx_longlong_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { shmem_uchar_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { shmem_ctx_uchar_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { shmem_ushort_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { shmem_ctx_ushort_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { shmem_uint_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { shmem_ctx_uint_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { shmem_ulong_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { shmem_ctx_ulong_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_get_nbi(unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { shmem_ulonglong_get_nbi(dest, source, nelems, pe); }
inline void shmem_get_nbi(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { shmem_ctx_ulonglong_get_nbi(ctx, dest, source, nelems, pe); }
inline void shmem_iput(float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_float_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_float_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_double_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_double_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_longdouble_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_longdouble_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_char_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_char_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_schar_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_schar_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_short_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_short_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_int_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_int_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_long_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_long_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_longlong_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_longlong_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_uchar_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_uchar_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ushort_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_ushort_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_uint_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_uint_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ulong_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_ulong_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ulonglong_iput(dest, source, dst, sst, nelems, pe); }
inline void shmem_iput(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_ulonglong_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_float_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_float_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_double_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_double_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_longdouble_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_longdouble_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_char_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_char_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_schar_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_schar_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_short_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_short_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_int_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_int_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_long_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_long_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_longlong_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_longlong_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_uchar_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_uchar_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ushort_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_ushort_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_uint_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_uint_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ulong_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_ulong_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ulonglong_iget(dest, source, dst, sst, nelems, pe); }
inline void shmem_iget(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { shmem_ctx_ulonglong_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void shmem_p(float *dest, float value, int pe) { shmem_float_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, float *dest, float value, int pe) { shmem_ctx_float_p(ctx, dest, value, pe); }
inline void shmem_p(double *dest, double value, int pe) { shmem_double_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, double *dest, double value, int pe) { shmem_ctx_double_p(ctx, dest, value, pe); }
inline void shmem_p(long double *dest, long double value, int pe) { shmem_longdouble_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, long double *dest, long double value, int pe) { shmem_ctx_longdouble_p(ctx, dest, value, pe); }
inline void shmem_p(char *dest, char value, int pe) { shmem_char_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, char *dest, char value, int pe) { shmem_ctx_char_p(ctx, dest, value, pe); }
inline void shmem_p(signed char *dest, signed char value, int pe) { shmem_schar_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, signed char *dest, signed char value, int pe) { shmem_ctx_schar_p(ctx, dest, value, pe); }
inline void shmem_p(short *dest, short value, int pe) { shmem_short_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, short *dest, short value, int pe) { shmem_ctx_short_p(ctx, dest, value, pe); }
inline void shmem_p(int *dest, int value, int pe) { shmem_int_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, int *dest, int value, int pe) { shmem_ctx_int_p(ctx, dest, value, pe); }
inline void shmem_p(long *dest, long value, int pe) { shmem_long_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, long *dest, long value, int pe) { shmem_ctx_long_p(ctx, dest, value, pe); }
inline void shmem_p(long long *dest, long long value, int pe) { shmem_longlong_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, long long *dest, long long value, int pe) { shmem_ctx_longlong_p(ctx, dest, value, pe); }
inline void shmem_p(unsigned char *dest, unsigned char value, int pe) { shmem_uchar_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, unsigned char *dest, unsigned char value, int pe) { shmem_ctx_uchar_p(ctx, dest, value, pe); }
inline void shmem_p(unsigned short *dest, unsigned short value, int pe) { shmem_ushort_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, unsigned short *dest, unsigned short value, int pe) { shmem_ctx_ushort_p(ctx, dest, value, pe); }
inline void shmem_p(unsigned int *dest, unsigned int value, int pe) { shmem_uint_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_p(ctx, dest, value, pe); }
inline void shmem_p(unsigned long *dest, unsigned long value, int pe) { shmem_ulong_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_p(ctx, dest, value, pe); }
inline void shmem_p(unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_p(dest, value, pe); }
inline void shmem_p(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_p(ctx, dest, value, pe); }
inline float shmem_g(const float *source, int pe) { return shmem_float_g(source, pe); }
inline float shmem_g(shmem_ctx_t ctx, const float *source, int pe) { return shmem_ctx_float_g(ctx, source, pe); }
inline double shmem_g(const double *source, int pe) { return shmem_double_g(source, pe); }
inline double shmem_g(shmem_ctx_t ctx, const double *source, int pe) { return shmem_ctx_double_g(ctx, source, pe); }
inline long double shmem_g(const long double *source, int pe) { return shmem_longdouble_g(source, pe); }
inline long double shmem_g(shmem_ctx_t ctx, const long double *source, int pe) { return shmem_ctx_longdouble_g(ctx, source, pe); }
inline char shmem_g(const char *source, int pe) { return shmem_char_g(source, pe); }
inline char shmem_g(shmem_ctx_t ctx, const char *source, int pe) { return shmem_ctx_char_g(ctx, source, pe); }
inline signed char shmem_g(const signed char *source, int pe) { return shmem_schar_g(source, pe); }
inline signed char shmem_g(shmem_ctx_t ctx, const signed char *source, int pe) { return shmem_ctx_schar_g(ctx, source, pe); }
inline short shmem_g(const short *source, int pe) { return shmem_short_g(source, pe); }
inline short shmem_g(shmem_ctx_t ctx, const short *source, int pe) { return shmem_ctx_short_g(ctx, source, pe); }
inline int shmem_g(const int *source, int pe) { return shmem_int_g(source, pe); }
inline int shmem_g(shmem_ctx_t ctx, const int *source, int pe) { return shmem_ctx_int_g(ctx, source, pe); }
inline long shmem_g(const long *source, int pe) { return shmem_long_g(source, pe); }
inline long shmem_g(shmem_ctx_t ctx, const long *source, int pe) { return shmem_ctx_long_g(ctx, source, pe); }
inline long long shmem_g(const long long *source, int pe) { return shmem_longlong_g(source, pe); }
inline long long shmem_g(shmem_ctx_t ctx, const long long *source, int pe) { return shmem_ctx_longlong_g(ctx, source, pe); }
inline unsigned char shmem_g(const unsigned char *source, int pe) { return shmem_uchar_g(source, pe); }
inline unsigned char shmem_g(shmem_ctx_t ctx, const unsigned char *source, int pe) { return shmem_ctx_uchar_g(ctx, source, pe); }
inline unsigned short shmem_g(const unsigned short *source, int pe) { return shmem_ushort_g(source, pe); }
inline unsigned short shmem_g(shmem_ctx_t ctx, const unsigned short *source, int pe) { return shmem_ctx_ushort_g(ctx, source, pe); }
inline unsigned int shmem_g(const unsigned int *source, int pe) { return shmem_uint_g(source, pe); }
inline unsigned int shmem_g(shmem_ctx_t ctx, const unsigned int *source, int pe) { return shmem_ctx_uint_g(ctx, source, pe); }
inline unsigned long shmem_g(const unsigned long *source, int pe) { return shmem_ulong_g(source, pe); }
inline unsigned long shmem_g(shmem_ctx_t ctx, const unsigned long *source, int pe) { return shmem_ctx_ulong_g(ctx, source, pe); }
inline unsigned long long shmem_g(const unsigned long long *source, int pe) { return shmem_ulonglong_g(source, pe); }
inline unsigned long long shmem_g(shmem_ctx_t ctx, const unsigned long long *source, int pe) { return shmem_ctx_ulonglong_g(ctx, source, pe); }
inline void shmem_put_signal(float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_float_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_float_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_double_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_double_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_longdouble_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_longdouble_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_char_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_char_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_schar_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_schar_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(short *dest, const short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_short_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_short_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_int_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_int_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_long_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_long_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(long long *dest, const long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_longlong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_longlong_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_uchar_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_uchar_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(unsigned short *dest, const unsigned short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ushort_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_ushort_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_uint_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_uint_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(unsigned long *dest, const unsigned long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ulong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_ulong_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(unsigned long long *dest, const unsigned long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ulonglong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_ulonglong_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_float_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_float_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_double_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_double_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_longdouble_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_longdouble_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_char_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_char_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_schar_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_schar_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(short *dest, const short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_short_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_short_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_int_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_int_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_long_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_long_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(long long *dest, const long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_longlong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_longlong_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_uchar_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_uchar_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(unsigned short *dest, const unsigned short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ushort_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_ushort_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_uint_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_uint_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(unsigned long *dest, const unsigned long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ulong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_ulong_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(unsigned long long *dest, const unsigned long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ulonglong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void shmem_put_signal_nbi(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { shmem_ctx_ulonglong_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline int shmem_atomic_fetch(const int *source, int pe) { return shmem_int_atomic_fetch(source, pe); }
inline int shmem_atomic_fetch(shmem_ctx_t ctx, const int *source, int pe) { return shmem_ctx_int_atomic_fetch(ctx, source, pe); }
inline long shmem_atomic_fetch(const long *source, int pe) { return shmem_long_atomic_fetch(source, pe); }
inline long shmem_atomic_fetch(shmem_ctx_t ctx, const long *source, int pe) { return shmem_ctx_long_atomic_fetch(ctx, source, pe); }
inline long long shmem_atomic_fetch(const long long *source, int pe) { return shmem_longlong_atomic_fetch(source, pe); }
inline long long shmem_atomic_fetch(shmem_ctx_t ctx, const long long *source, int pe) { return shmem_ctx_longlong_atomic_fetch(ctx, source, pe); }
inline unsigned int shmem_atomic_fetch(const unsigned int *source, int pe) { return shmem_uint_atomic_fetch(source, pe); }
inline unsigned int shmem_atomic_fetch(shmem_ctx_t ctx, const unsigned int *source, int pe) { return shmem_ctx_uint_atomic_fetch(ctx, source, pe); }
inline unsigned long shmem_atomic_fetch(const unsigned long *source, int pe) { return shmem_ulong_atomic_fetch(source, pe); }
inline unsigned long shmem_atomic_fetch(shmem_ctx_t ctx, const unsigned long *source, int pe) { return shmem_ctx_ulong_atomic_fetch(ctx, source, pe); }
inline unsigned long long shmem_atomic_fetch(const unsigned long long *source, int pe) { return shmem_ulonglong_atomic_fetch(source, pe); }
inline unsigned long long shmem_atomic_fetch(shmem_ctx_t ctx, const unsigned long long *source, int pe) { return shmem_ctx_ulonglong_atomic_fetch(ctx, source, pe); }
inline float shmem_atomic_fetch(const float *source, int pe) { return shmem_float_atomic_fetch(source, pe); }
inline float shmem_atomic_fetch(shmem_ctx_t ctx, const float *source, int pe) { return shmem_ctx_float_atomic_fetch(ctx, source, pe); }
inline double shmem_atomic_fetch(const double *source, int pe) { return shmem_double_atomic_fetch(source, pe); }
inline double shmem_atomic_fetch(shmem_ctx_t ctx, const double *source, int pe) { return shmem_ctx_double_atomic_fetch(ctx, source, pe); }
inline void shmem_atomic_set(int *dest, int value, int pe) { shmem_int_atomic_set(dest, value, pe); }
inline void shmem_atomic_set(shmem_ctx_t ctx, int *dest, int value, int pe) { shmem_ctx_int_atomic_set(ctx, dest, value, pe); }
inline void shmem_atomic_set(long *dest, long value, int pe) { shmem_long_atomic_set(dest, value, pe); }
inline void shmem_atomic_set(shmem_ctx_t ctx, long *dest, long value, int pe) { shmem_ctx_long_atomic_set(ctx, dest, value, pe); }
inline void shmem_atomic_set(long long *dest, long long value, int pe) { shmem_longlong_atomic_set(dest, value, pe); }
inline void shmem_atomic_set(shmem_ctx_t ctx, long long *dest, long long value, int pe) { shmem_ctx_longlong_atomic_set(ctx, dest, value, pe); }
inline void shmem_atomic_set(unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_set(dest, value, pe); }
inline void shmem_atomic_set(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_set(ctx, dest, value, pe); }
inline void shmem_atomic_set(unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_set(dest, value, pe); }
inline void shmem_atomic_set(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_set(ctx, dest, value, pe); }
inline void shmem_atomic_set(unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_set(dest, value, pe); }
inline void shmem_atomic_set(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_set(ctx, dest, value, pe); }
inline void shmem_atomic_set(float *dest, float value, int pe) { shmem_float_atomic_set(dest, value, pe); }
inline void shmem_atomic_set(shmem_ctx_t ctx, float *dest, float value, int pe) { shmem_ctx_float_atomic_set(ctx, dest, value, pe); }
inline void shmem_atomic_set(double *dest, double value, int pe) { shmem_double_atomic_set(dest, value, pe); }
inline void shmem_atomic_set(shmem_ctx_t ctx, double *dest, double value, int pe) { shmem_ctx_double_atomic_set(ctx, dest, value, pe); }
inline int shmem_atomic_swap(int *dest, int value, int pe) { return shmem_int_atomic_swap(dest, value, pe); }
inline int shmem_atomic_swap(shmem_ctx_t ctx, int *dest, int value, int pe) { return shmem_ctx_int_atomic_swap(ctx, dest, value, pe); }
inline long shmem_atomic_swap(long *dest, long value, int pe) { return shmem_long_atomic_swap(dest, value, pe); }
inline long shmem_atomic_swap(shmem_ctx_t ctx, long *dest, long value, int pe) { return shmem_ctx_long_atomic_swap(ctx, dest, value, pe); }
inline long long shmem_atomic_swap(long long *dest, long long value, int pe) { return shmem_longlong_atomic_swap(dest, value, pe); }
inline long long shmem_atomic_swap(shmem_ctx_t ctx, long long *dest, long long value, int pe) { return shmem_ctx_longlong_atomic_swap(ctx, dest, value, pe); }
inline unsigned int shmem_atomic_swap(unsigned int *dest, unsigned int value, int pe) { return shmem_uint_atomic_swap(dest, value, pe); }
inline unsigned int shmem_atomic_swap(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return shmem_ctx_uint_atomic_swap(ctx, dest, value, pe); }
inline unsigned long shmem_atomic_swap(unsigned long *dest, unsigned long value, int pe) { return shmem_ulong_atomic_swap(dest, value, pe); }
inline unsigned long shmem_atomic_swap(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return shmem_ctx_ulong_atomic_swap(ctx, dest, value, pe); }
inline unsigned long long shmem_atomic_swap(unsigned long long *dest, unsigned long long value, int pe) { return shmem_ulonglong_atomic_swap(dest, value, pe); }
inline unsigned long long shmem_atomic_swap(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return shmem_ctx_ulonglong_atomic_swap(ctx, dest, value, pe); }
inline float shmem_atomic_swap(float *dest, float value, int pe) { return shmem_float_atomic_swap(dest, value, pe); }
inline float shmem_atomic_swap(shmem_ctx_t ctx, float *dest, float value, int pe) { return shmem_ctx_float_atomic_swap(ctx, dest, value, pe); }
inline double shmem_atomic_swap(double *dest, double value, int pe) { return shmem_double_atomic_swap(dest, value, pe); }
inline double shmem_atomic_swap(shmem_ctx_t ctx, double *dest, double value, int pe) { return shmem_ctx_double_atomic_swap(ctx, dest, value, pe); }
inline void shmem_atomic_fetch_nbi(int *fetch, const int *source, int pe) { shmem_int_atomic_fetch_nbi(fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, int *fetch, const int *source, int pe) { shmem_ctx_int_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(long *fetch, const long *source, int pe) { shmem_long_atomic_fetch_nbi(fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, long *fetch, const long *source, int pe) { shmem_ctx_long_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(long long *fetch, const long long *source, int pe) { shmem_longlong_atomic_fetch_nbi(fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, long long *fetch, const long long *source, int pe) { shmem_ctx_longlong_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(unsigned int *fetch, const unsigned int *source, int pe) { shmem_uint_atomic_fetch_nbi(fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, unsigned int *fetch, const unsigned int *source, int pe) { shmem_ctx_uint_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(unsigned long *fetch, const unsigned long *source, int pe) { shmem_ulong_atomic_fetch_nbi(fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, unsigned long *fetch, const unsigned long *source, int pe) { shmem_ctx_ulong_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(unsigned long long *fetch, const unsigned long long *source, int pe) { shmem_ulonglong_atomic_fetch_nbi(fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, unsigned long long *fetch, const unsigned long long *source, int pe) { shmem_ctx_ulonglong_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(float *fetch, const float *source, int pe) { shmem_float_atomic_fetch_nbi(fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, float *fetch, const float *source, int pe) { shmem_ctx_float_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(double *fetch, const double *source, int pe) { shmem_double_atomic_fetch_nbi(fetch, source, pe); }
inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, double *fetch, const double *source, int pe) { shmem_ctx_double_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void shmem_atomic_swap_nbi(int *fetch, int *dest, int value, int pe) { shmem_int_atomic_swap_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { shmem_ctx_int_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(long *fetch, long *dest, long value, int pe) { shmem_long_atomic_swap_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { shmem_ctx_long_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(long long *fetch, long long *dest, long long value, int pe) { shmem_longlong_atomic_swap_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, long long *fetch, long long *dest, long long value, int pe) { shmem_ctx_longlong_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_swap_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_swap_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_swap_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(float *fetch, float *dest, float value, int pe) { shmem_float_atomic_swap_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, float *fetch, float *dest, float value, int pe) { shmem_ctx_float_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(double *fetch, double *dest, double value, int pe) { shmem_double_atomic_swap_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, double *fetch, double *dest, double value, int pe) { shmem_ctx_double_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline int shmem_atomic_fetch_inc(int *dest, int pe) { return shmem_int_atomic_fetch_inc(dest, pe); }
inline int shmem_atomic_fetch_inc(shmem_ctx_t ctx, int *dest, int pe) { return shmem_ctx_int_atomic_fetch_inc(ctx, dest, pe); }
inline long shmem_atomic_fetch_inc(long *dest, int pe) { return shmem_long_atomic_fetch_inc(dest, pe); }
inline long shmem_atomic_fetch_inc(shmem_ctx_t ctx, long *dest, int pe) { return shmem_ctx_long_atomic_fetch_inc(ctx, dest, pe); }
inline long long shmem_atomic_fetch_inc(long long *dest, int pe) { return shmem_longlong_atomic_fetch_inc(dest, pe); }
inline long long shmem_atomic_fetch_inc(shmem_ctx_t ctx, long long *dest, int pe) { return shmem_ctx_longlong_atomic_fetch_inc(ctx, dest, pe); }
inline unsigned int shmem_atomic_fetch_inc(unsigned int *dest, int pe) { return shmem_uint_atomic_fetch_inc(dest, pe); }
inline unsigned int shmem_atomic_fetch_inc(shmem_ctx_t ctx, unsigned int *dest, int pe) { return shmem_ctx_uint_atomic_fetch_inc(ctx, dest, pe); }
inline unsigned long shmem_atomic_fetch_inc(unsigned long *dest, int pe) { return shmem_ulong_atomic_fetch_inc(dest, pe); }
inline unsigned long shmem_atomic_fetch_inc(shmem_ctx_t ctx, unsigned long *dest, int pe) { return shmem_ctx_ulong_atomic_fetch_inc(ctx, dest, pe); }
inline unsigned long long shmem_atomic_fetch_inc(unsigned long long *dest, int pe) { return shmem_ulonglong_atomic_fetch_inc(dest, pe); }
inline unsigned long long shmem_atomic_fetch_inc(shmem_ctx_t ctx, unsigned long long *dest, int pe) { return shmem_ctx_ulonglong_atomic_fetch_inc(ctx, dest, pe); }
inline void shmem_atomic_inc(int *dest, int pe) { shmem_int_atomic_inc(dest, pe); }
inline void shmem_atomic_inc(shmem_ctx_t ctx, int *dest, int pe) { shmem_ctx_int_atomic_inc(ctx, dest, pe); }
inline void shmem_atomic_inc(long *dest, int pe) { shmem_long_atomic_inc(dest, pe); }
inline void shmem_atomic_inc(shmem_ctx_t ctx, long *dest, int pe) { shmem_ctx_long_atomic_inc(ctx, dest, pe); }
inline void shmem_atomic_inc(long long *dest, int pe) { shmem_longlong_atomic_inc(dest, pe); }
inline void shmem_atomic_inc(shmem_ctx_t ctx, long long *dest, int pe) { shmem_ctx_longlong_atomic_inc(ctx, dest, pe); }
inline void shmem_atomic_inc(unsigned int *dest, int pe) { shmem_uint_atomic_inc(dest, pe); }
inline void shmem_atomic_inc(shmem_ctx_t ctx, unsigned int *dest, int pe) { shmem_ctx_uint_atomic_inc(ctx, dest, pe); }
inline void shmem_atomic_inc(unsigned long *dest, int pe) { shmem_ulong_atomic_inc(dest, pe); }
inline void shmem_atomic_inc(shmem_ctx_t ctx, unsigned long *dest, int pe) { shmem_ctx_ulong_atomic_inc(ctx, dest, pe); }
inline void shmem_atomic_inc(unsigned long long *dest, int pe) { shmem_ulonglong_atomic_inc(dest, pe); }
inline void shmem_atomic_inc(shmem_ctx_t ctx, unsigned long long *dest, int pe) { shmem_ctx_ulonglong_atomic_inc(ctx, dest, pe); }
inline int shmem_atomic_fetch_add(int *dest, int value, int pe) { return shmem_int_atomic_fetch_add(dest, value, pe); }
inline int shmem_atomic_fetch_add(shmem_ctx_t ctx, int *dest, int value, int pe) { return shmem_ctx_int_atomic_fetch_add(ctx, dest, value, pe); }
inline long shmem_atomic_fetch_add(long *dest, long value, int pe) { return shmem_long_atomic_fetch_add(dest, value, pe); }
inline long shmem_atomic_fetch_add(shmem_ctx_t ctx, long *dest, long value, int pe) { return shmem_ctx_long_atomic_fetch_add(ctx, dest, value, pe); }
inline long long shmem_atomic_fetch_add(long long *dest, long long value, int pe) { return shmem_longlong_atomic_fetch_add(dest, value, pe); }
inline long long shmem_atomic_fetch_add(shmem_ctx_t ctx, long long *dest, long long value, int pe) { return shmem_ctx_longlong_atomic_fetch_add(ctx, dest, value, pe); }
inline unsigned int shmem_atomic_fetch_add(unsigned int *dest, unsigned int value, int pe) { return shmem_uint_atomic_fetch_add(dest, value, pe); }
inline unsigned int shmem_atomic_fetch_add(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return shmem_ctx_uint_atomic_fetch_add(ctx, dest, value, pe); }
inline unsigned long shmem_atomic_fetch_add(unsigned long *dest, unsigned long value, int pe) { return shmem_ulong_atomic_fetch_add(dest, value, pe); }
inline unsigned long shmem_atomic_fetch_add(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return shmem_ctx_ulong_atomic_fetch_add(ctx, dest, value, pe); }
inline unsigned long long shmem_atomic_fetch_add(unsigned long long *dest, unsigned long long value, int pe) { return shmem_ulonglong_atomic_fetch_add(dest, value, pe); }
inline unsigned long long shmem_atomic_fetch_add(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return shmem_ctx_ulonglong_atomic_fetch_add(ctx, dest, value, pe); }
inline void shmem_atomic_add(int *dest, int value, int pe) { shmem_int_atomic_add(dest, value, pe); }
inline void shmem_atomic_add(shmem_ctx_t ctx, int *dest, int value, int pe) { shmem_ctx_int_atomic_add(ctx, dest, value, pe); }
inline void shmem_atomic_add(long *dest, long value, int pe) { shmem_long_atomic_add(dest, value, pe); }
inline void shmem_atomic_add(shmem_ctx_t ctx, long *dest, long value, int pe) { shmem_ctx_long_atomic_add(ctx, dest, value, pe); }
inline void shmem_atomic_add(long long *dest, long long value, int pe) { shmem_longlong_atomic_add(dest, value, pe); }
inline void shmem_atomic_add(shmem_ctx_t ctx, long long *dest, long long value, int pe) { shmem_ctx_longlong_atomic_add(ctx, dest, value, pe); }
inline void shmem_atomic_add(unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_add(dest, value, pe); }
inline void shmem_atomic_add(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_add(ctx, dest, value, pe); }
inline void shmem_atomic_add(unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_add(dest, value, pe); }
inline void shmem_atomic_add(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_add(ctx, dest, value, pe); }
inline void shmem_atomic_add(unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_add(dest, value, pe); }
inline void shmem_atomic_add(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_add(ctx, dest, value, pe); }
inline int shmem_atomic_compare_swap(int *dest, int cond, int value, int pe) { return shmem_int_atomic_compare_swap(dest, cond, value, pe); }
inline int shmem_atomic_compare_swap(shmem_ctx_t ctx, int *dest, int cond, int value, int pe) { return shmem_ctx_int_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline long shmem_atomic_compare_swap(long *dest, long cond, long value, int pe) { return shmem_long_atomic_compare_swap(dest, cond, value, pe); }
inline long shmem_atomic_compare_swap(shmem_ctx_t ctx, long *dest, long cond, long value, int pe) { return shmem_ctx_long_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline long long shmem_atomic_compare_swap(long long *dest, long long cond, long long value, int pe) { return shmem_longlong_atomic_compare_swap(dest, cond, value, pe); }
inline long long shmem_atomic_compare_swap(shmem_ctx_t ctx, long long *dest, long long cond, long long value, int pe) { return shmem_ctx_longlong_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline unsigned int shmem_atomic_compare_swap(unsigned int *dest, unsigned int cond, unsigned int value, int pe) { return shmem_uint_atomic_compare_swap(dest, cond, value, pe); }
inline unsigned int shmem_atomic_compare_swap(shmem_ctx_t ctx, unsigned int *dest, unsigned int cond, unsigned int value, int pe) { return shmem_ctx_uint_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline unsigned long shmem_atomic_compare_swap(unsigned long *dest, unsigned long cond, unsigned long value, int pe) { return shmem_ulong_atomic_compare_swap(dest, cond, value, pe); }
inline unsigned long shmem_atomic_compare_swap(shmem_ctx_t ctx, unsigned long *dest, unsigned long cond, unsigned long value, int pe) { return shmem_ctx_ulong_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline unsigned long long shmem_atomic_compare_swap(unsigned long long *dest, unsigned long long cond, unsigned long long value, int pe) { return shmem_ulonglong_atomic_compare_swap(dest, cond, value, pe); }
inline unsigned long long shmem_atomic_compare_swap(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long cond, unsigned long long value, int pe) { return shmem_ctx_ulonglong_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline void shmem_atomic_fetch_inc_nbi(int *fetch, int *dest, int pe) { shmem_int_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int pe) { shmem_ctx_int_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(long *fetch, long *dest, int pe) { shmem_long_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, long *fetch, long *dest, int pe) { shmem_ctx_long_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(long long *fetch, long long *dest, int pe) { shmem_longlong_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, long long *fetch, long long *dest, int pe) { shmem_ctx_longlong_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(unsigned int *fetch, unsigned int *dest, int pe) { shmem_uint_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, int pe) { shmem_ctx_uint_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(unsigned long *fetch, unsigned long *dest, int pe) { shmem_ulong_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, int pe) { shmem_ctx_ulong_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(unsigned long long *fetch, unsigned long long *dest, int pe) { shmem_ulonglong_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, int pe) { shmem_ctx_ulonglong_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void shmem_atomic_fetch_add_nbi(int *fetch, int *dest, int value, int pe) { shmem_int_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { shmem_ctx_int_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(long *fetch, long *dest, long value, int pe) { shmem_long_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { shmem_ctx_long_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(long long *fetch, long long *dest, long long value, int pe) { shmem_longlong_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, long long *fetch, long long *dest, long long value, int pe) { shmem_ctx_longlong_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_compare_swap_nbi(int *fetch, int *dest, int cond, int value, int pe) { shmem_int_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int cond, int value, int pe) { shmem_ctx_int_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(long *fetch, long *dest, long cond, long value, int pe) { shmem_long_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long cond, long value, int pe) { shmem_ctx_long_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(long long *fetch, long long *dest, long long cond, long long value, int pe) { shmem_longlong_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, long long *fetch, long long *dest, long long cond, long long value, int pe) { shmem_ctx_longlong_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(unsigned int *fetch, unsigned int *dest, unsigned int cond, unsigned int value, int pe) { shmem_uint_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int cond, unsigned int value, int pe) { shmem_ctx_uint_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(unsigned long *fetch, unsigned long *dest, unsigned long cond, unsigned long value, int pe) { shmem_ulong_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long cond, unsigned long value, int pe) { shmem_ctx_ulong_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long cond, unsigned long long value, int pe) { shmem_ulonglong_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long cond, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline unsigned int shmem_atomic_fetch_and(unsigned int *dest, unsigned int value, int pe) { return shmem_uint_atomic_fetch_and(dest, value, pe); }
inline unsigned int shmem_atomic_fetch_and(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return shmem_ctx_uint_atomic_fetch_and(ctx, dest, value, pe); }
inline unsigned long shmem_atomic_fetch_and(unsigned long *dest, unsigned long value, int pe) { return shmem_ulong_atomic_fetch_and(dest, value, pe); }
inline unsigned long shmem_atomic_fetch_and(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return shmem_ctx_ulong_atomic_fetch_and(ctx, dest, value, pe); }
inline unsigned long long shmem_atomic_fetch_and(unsigned long long *dest, unsigned long long value, int pe) { return shmem_ulonglong_atomic_fetch_and(dest, value, pe); }
inline unsigned long long shmem_atomic_fetch_and(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return shmem_ctx_ulonglong_atomic_fetch_and(ctx, dest, value, pe); }
inline int shmem_atomic_fetch_and(int *dest, int value, int pe) { return shmem_int32_atomic_fetch_and(dest, value, pe); }
inline int shmem_atomic_fetch_and(shmem_ctx_t ctx, int *dest, int value, int pe) { return shmem_ctx_int32_atomic_fetch_and(ctx, dest, value, pe); }
inline long shmem_atomic_fetch_and(long *dest, long value, int pe) { return shmem_int64_atomic_fetch_and(dest, value, pe); }
inline long shmem_atomic_fetch_and(shmem_ctx_t ctx, long *dest, long value, int pe) { return shmem_ctx_int64_atomic_fetch_and(ctx, dest, value, pe); }
inline void shmem_atomic_and(unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_and(dest, value, pe); }
inline void shmem_atomic_and(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_and(ctx, dest, value, pe); }
inline void shmem_atomic_and(unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_and(dest, value, pe); }
inline void shmem_atomic_and(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_and(ctx, dest, value, pe); }
inline void shmem_atomic_and(unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_and(dest, value, pe); }
inline void shmem_atomic_and(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_and(ctx, dest, value, pe); }
inline void shmem_atomic_and(int *dest, int value, int pe) { shmem_int32_atomic_and(dest, value, pe); }
inline void shmem_atomic_and(shmem_ctx_t ctx, int *dest, int value, int pe) { shmem_ctx_int32_atomic_and(ctx, dest, value, pe); }
inline void shmem_atomic_and(long *dest, long value, int pe) { shmem_int64_atomic_and(dest, value, pe); }
inline void shmem_atomic_and(shmem_ctx_t ctx, long *dest, long value, int pe) { shmem_ctx_int64_atomic_and(ctx, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(int *fetch, int *dest, int value, int pe) { shmem_int32_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { shmem_ctx_int32_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(long *fetch, long *dest, long value, int pe) { shmem_int64_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { shmem_ctx_int64_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline unsigned int shmem_atomic_fetch_or(unsigned int *dest, unsigned int value, int pe) { return shmem_uint_atomic_fetch_or(dest, value, pe); }
inline unsigned int shmem_atomic_fetch_or(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return shmem_ctx_uint_atomic_fetch_or(ctx, dest, value, pe); }
inline unsigned long shmem_atomic_fetch_or(unsigned long *dest, unsigned long value, int pe) { return shmem_ulong_atomic_fetch_or(dest, value, pe); }
inline unsigned long shmem_atomic_fetch_or(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return shmem_ctx_ulong_atomic_fetch_or(ctx, dest, value, pe); }
inline unsigned long long shmem_atomic_fetch_or(unsigned long long *dest, unsigned long long value, int pe) { return shmem_ulonglong_atomic_fetch_or(dest, value, pe); }
inline unsigned long long shmem_atomic_fetch_or(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return shmem_ctx_ulonglong_atomic_fetch_or(ctx, dest, value, pe); }
inline int shmem_atomic_fetch_or(int *dest, int value, int pe) { return shmem_int32_atomic_fetch_or(dest, value, pe); }
inline int shmem_atomic_fetch_or(shmem_ctx_t ctx, int *dest, int value, int pe) { return shmem_ctx_int32_atomic_fetch_or(ctx, dest, value, pe); }
inline long shmem_atomic_fetch_or(long *dest, long value, int pe) { return shmem_int64_atomic_fetch_or(dest, value, pe); }
inline long shmem_atomic_fetch_or(shmem_ctx_t ctx, long *dest, long value, int pe) { return shmem_ctx_int64_atomic_fetch_or(ctx, dest, value, pe); }
inline void shmem_atomic_or(unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_or(dest, value, pe); }
inline void shmem_atomic_or(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_or(ctx, dest, value, pe); }
inline void shmem_atomic_or(unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_or(dest, value, pe); }
inline void shmem_atomic_or(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_or(ctx, dest, value, pe); }
inline void shmem_atomic_or(unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_or(dest, value, pe); }
inline void shmem_atomic_or(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_or(ctx, dest, value, pe); }
inline void shmem_atomic_or(int *dest, int value, int pe) { shmem_int32_atomic_or(dest, value, pe); }
inline void shmem_atomic_or(shmem_ctx_t ctx, int *dest, int value, int pe) { shmem_ctx_int32_atomic_or(ctx, dest, value, pe); }
inline void shmem_atomic_or(long *dest, long value, int pe) { shmem_int64_atomic_or(dest, value, pe); }
inline void shmem_atomic_or(shmem_ctx_t ctx, long *dest, long value, int pe) { shmem_ctx_int64_atomic_or(ctx, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(int *fetch, int *dest, int value, int pe) { shmem_int32_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { shmem_ctx_int32_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(long *fetch, long *dest, long value, int pe) { shmem_int64_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { shmem_ctx_int64_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline unsigned int shmem_atomic_fetch_xor(unsigned int *dest, unsigned int value, int pe) { return shmem_uint_atomic_fetch_xor(dest, value, pe); }
inline unsigned int shmem_atomic_fetch_xor(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return shmem_ctx_uint_atomic_fetch_xor(ctx, dest, value, pe); }
inline unsigned long shmem_atomic_fetch_xor(unsigned long *dest, unsigned long value, int pe) { return shmem_ulong_atomic_fetch_xor(dest, value, pe); }
inline unsigned long shmem_atomic_fetch_xor(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return shmem_ctx_ulong_atomic_fetch_xor(ctx, dest, value, pe); }
inline unsigned long long shmem_atomic_fetch_xor(unsigned long long *dest, unsigned long long value, int pe) { return shmem_ulonglong_atomic_fetch_xor(dest, value, pe); }
inline unsigned long long shmem_atomic_fetch_xor(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return shmem_ctx_ulonglong_atomic_fetch_xor(ctx, dest, value, pe); }
inline int shmem_atomic_fetch_xor(int *dest, int value, int pe) { return shmem_int32_atomic_fetch_xor(dest, value, pe); }
inline int shmem_atomic_fetch_xor(shmem_ctx_t ctx, int *dest, int value, int pe) { return shmem_ctx_int32_atomic_fetch_xor(ctx, dest, value, pe); }
inline long shmem_atomic_fetch_xor(long *dest, long value, int pe) { return shmem_int64_atomic_fetch_xor(dest, value, pe); }
inline long shmem_atomic_fetch_xor(shmem_ctx_t ctx, long *dest, long value, int pe) { return shmem_ctx_int64_atomic_fetch_xor(ctx, dest, value, pe); }
inline void shmem_atomic_xor(unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_xor(dest, value, pe); }
inline void shmem_atomic_xor(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_xor(ctx, dest, value, pe); }
inline void shmem_atomic_xor(unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_xor(dest, value, pe); }
inline void shmem_atomic_xor(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_xor(ctx, dest, value, pe); }
inline void shmem_atomic_xor(unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_xor(dest, value, pe); }
inline void shmem_atomic_xor(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_xor(ctx, dest, value, pe); }
inline void shmem_atomic_xor(int *dest, int value, int pe) { shmem_int32_atomic_xor(dest, value, pe); }
inline void shmem_atomic_xor(shmem_ctx_t ctx, int *dest, int value, int pe) { shmem_ctx_int32_atomic_xor(ctx, dest, value, pe); }
inline void shmem_atomic_xor(long *dest, long value, int pe) { shmem_int64_atomic_xor(dest, value, pe); }
inline void shmem_atomic_xor(shmem_ctx_t ctx, long *dest, long value, int pe) { shmem_ctx_int64_atomic_xor(ctx, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_uint_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { shmem_ctx_uint_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ulong_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { shmem_ctx_ulong_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ulonglong_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { shmem_ctx_ulonglong_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(int *fetch, int *dest, int value, int pe) { shmem_int32_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { shmem_ctx_int32_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(long *fetch, long *dest, long value, int pe) { shmem_int64_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void shmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { shmem_ctx_int64_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void shmem_wait_until(short *ivar, int cmp, short cmp_value) { shmem_short_wait_until(ivar, cmp, cmp_value); }
inline void shmem_wait_until(int *ivar, int cmp, int cmp_value) { shmem_int_wait_until(ivar, cmp, cmp_value); }
inline void shmem_wait_until(long *ivar, int cmp, long cmp_value) { shmem_long_wait_until(ivar, cmp, cmp_value); }
inline void shmem_wait_until(long long *ivar, int cmp, long long cmp_value) { shmem_longlong_wait_until(ivar, cmp, cmp_value); }
inline void shmem_wait_until(unsigned short *ivar, int cmp, unsigned short cmp_value) { shmem_ushort_wait_until(ivar, cmp, cmp_value); }
inline void shmem_wait_until(unsigned int *ivar, int cmp, unsigned int cmp_value) { shmem_uint_wait_until(ivar, cmp, cmp_value); }
inline void shmem_wait_until(unsigned long *ivar, int cmp, unsigned long cmp_value) { shmem_ulong_wait_until(ivar, cmp, cmp_value); }
inline void shmem_wait_until(unsigned long long *ivar, int cmp, unsigned long long cmp_value) { shmem_ulonglong_wait_until(ivar, cmp, cmp_value); }
inline void shmem_wait(short *ivar, short cmp_value) { shmem_short_wait(ivar, cmp_value); }
inline void shmem_wait(int *ivar, int cmp_value) { shmem_int_wait(ivar, cmp_value); }
inline void shmem_wait(long *ivar, long cmp_value) { shmem_long_wait(ivar, cmp_value); }
inline void shmem_wait(long long *ivar, long long cmp_value) { shmem_longlong_wait(ivar, cmp_value); }
inline void shmem_wait(unsigned short *ivar, unsigned short cmp_value) { shmem_ushort_wait(ivar, cmp_value); }
inline void shmem_wait(unsigned int *ivar, unsigned int cmp_value) { shmem_uint_wait(ivar, cmp_value); }
inline void shmem_wait(unsigned long *ivar, unsigned long cmp_value) { shmem_ulong_wait(ivar, cmp_value); }
inline void shmem_wait(unsigned long long *ivar, unsigned long long cmp_value) { shmem_ulonglong_wait(ivar, cmp_value); }
inline int shmem_test(short *ivar, int cmp, short cmp_value) { return shmem_short_test(ivar, cmp, cmp_value); }
inline int shmem_test(int *ivar, int cmp, int cmp_value) { return shmem_int_test(ivar, cmp, cmp_value); }
inline int shmem_test(long *ivar, int cmp, long cmp_value) { return shmem_long_test(ivar, cmp, cmp_value); }
inline int shmem_test(long long *ivar, int cmp, long long cmp_value) { return shmem_longlong_test(ivar, cmp, cmp_value); }
inline int shmem_test(unsigned short *ivar, int cmp, unsigned short cmp_value) { return shmem_ushort_test(ivar, cmp, cmp_value); }
inline int shmem_test(unsigned int *ivar, int cmp, unsigned int cmp_value) { return shmem_uint_test(ivar, cmp, cmp_value); }
inline int shmem_test(unsigned long *ivar, int cmp, unsigned long cmp_value) { return shmem_ulong_test(ivar, cmp, cmp_value); }
inline int shmem_test(unsigned long long *ivar, int cmp, unsigned long long cmp_value) { return shmem_ulonglong_test(ivar, cmp, cmp_value); }
inline void shmem_wait_until_all(short *ivars, size_t nelems, const int *status, int cmp, short cmp_value) { shmem_short_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void shmem_wait_until_all(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value) { shmem_int_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void shmem_wait_until_all(long *ivars, size_t nelems, const int *status, int cmp, long cmp_value) { shmem_long_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void shmem_wait_until_all(long long *ivars, size_t nelems, const int *status, int cmp, long long cmp_value) { shmem_longlong_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void shmem_wait_until_all(unsigned short *ivars, size_t nelems, const int *status, int cmp, unsigned short cmp_value) { shmem_ushort_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void shmem_wait_until_all(unsigned int *ivars, size_t nelems, const int *status, int cmp, unsigned int cmp_value) { shmem_uint_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void shmem_wait_until_all(unsigned long *ivars, size_t nelems, const int *status, int cmp, unsigned long cmp_value) { shmem_ulong_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void shmem_wait_until_all(unsigned long long *ivars, size_t nelems, const int *status, int cmp, unsigned long long cmp_value) { shmem_ulonglong_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void shmem_wait_until_all_vector(short *ivars, size_t nelems, const int *status, int cmp, const short *cmp_values) { shmem_short_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void shmem_wait_until_all_vector(int *ivars, size_t nelems, const int *status, int cmp, const int *cmp_values) { shmem_int_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void shmem_wait_until_all_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values) { shmem_long_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void shmem_wait_until_all_vector(long long *ivars, size_t nelems, const int *status, int cmp, const long long *cmp_values) { shmem_longlong_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void shmem_wait_until_all_vector(unsigned short *ivars, size_t nelems, const int *status, int cmp, const unsigned short *cmp_values) { shmem_ushort_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void shmem_wait_until_all_vector(unsigned int *ivars, size_t nelems, const int *status, int cmp, const unsigned int *cmp_values) { shmem_uint_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void shmem_wait_until_all_vector(unsigned long *ivars, size_t nelems, const int *status, int cmp, const unsigned long *cmp_values) { shmem_ulong_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void shmem_wait_until_all_vector(unsigned long long *ivars, size_t nelems, const int *status, int cmp, const unsigned long long *cmp_values) { shmem_ulonglong_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int shmem_test_all(short *ivars, size_t nelems, const int *status, int cmp, short cmp_value) { return shmem_short_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int shmem_test_all(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value) { return shmem_int_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int shmem_test_all(long *ivars, size_t nelems, const int *status, int cmp, long cmp_value) { return shmem_long_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int shmem_test_all(long long *ivars, size_t nelems, const int *status, int cmp, long long cmp_value) { return shmem_longlong_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int shmem_test_all(unsigned short *ivars, size_t nelems, const int *status, int cmp, unsigned short cmp_value) { return shmem_ushort_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int shmem_test_all(unsigned int *ivars, size_t nelems, const int *status, int cmp, unsigned int cmp_value) { return shmem_uint_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int shmem_test_all(unsigned long *ivars, size_t nelems, const int *status, int cmp, unsigned long cmp_value) { return shmem_ulong_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int shmem_test_all(unsigned long long *ivars, size_t nelems, const int *status, int cmp, unsigned long long cmp_value) { return shmem_ulonglong_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int shmem_test_all_vector(short *ivars, size_t nelems, const int *status, int cmp, const short *cmp_values) { return shmem_short_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int shmem_test_all_vector(int *ivars, size_t nelems, const int *status, int cmp, const int *cmp_values) { return shmem_int_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int shmem_test_all_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values) { return shmem_long_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int shmem_test_all_vector(long long *ivars, size_t nelems, const int *status, int cmp, const long long *cmp_values) { return shmem_longlong_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int shmem_test_all_vector(unsigned short *ivars, size_t nelems, const int *status, int cmp, const unsigned short *cmp_values) { return shmem_ushort_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int shmem_test_all_vector(unsigned int *ivars, size_t nelems, const int *status, int cmp, const unsigned int *cmp_values) { return shmem_uint_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int shmem_test_all_vector(unsigned long *ivars, size_t nelems, const int *status, int cmp, const unsigned long *cmp_values) { return shmem_ulong_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int shmem_test_all_vector(unsigned long long *ivars, size_t nelems, const int *status, int cmp, const unsigned long long *cmp_values) { return shmem_ulonglong_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_any(short *ivars, size_t nelems, const int *status, int cmp, short cmp_value) { return shmem_short_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_wait_until_any(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value) { return shmem_int_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_wait_until_any(long *ivars, size_t nelems, const int *status, int cmp, long cmp_value) { return shmem_long_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_wait_until_any(long long *ivars, size_t nelems, const int *status, int cmp, long long cmp_value) { return shmem_longlong_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_wait_until_any(unsigned short *ivars, size_t nelems, const int *status, int cmp, unsigned short cmp_value) { return shmem_ushort_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_wait_until_any(unsigned int *ivars, size_t nelems, const int *status, int cmp, unsigned int cmp_value) { return shmem_uint_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_wait_until_any(unsigned long *ivars, size_t nelems, const int *status, int cmp, unsigned long cmp_value) { return shmem_ulong_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_wait_until_any(unsigned long long *ivars, size_t nelems, const int *status, int cmp, unsigned long long cmp_value) { return shmem_ulonglong_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_wait_until_any_vector(short *ivars, size_t nelems, const int *status, int cmp, const short *cmp_values) { return shmem_short_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_any_vector(int *ivars, size_t nelems, const int *status, int cmp, const int *cmp_values) { return shmem_int_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_any_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values) { return shmem_long_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_any_vector(long long *ivars, size_t nelems, const int *status, int cmp, const long long *cmp_values) { return shmem_longlong_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_any_vector(unsigned short *ivars, size_t nelems, const int *status, int cmp, const unsigned short *cmp_values) { return shmem_ushort_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_any_vector(unsigned int *ivars, size_t nelems, const int *status, int cmp, const unsigned int *cmp_values) { return shmem_uint_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_any_vector(unsigned long *ivars, size_t nelems, const int *status, int cmp, const unsigned long *cmp_values) { return shmem_ulong_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_any_vector(unsigned long long *ivars, size_t nelems, const int *status, int cmp, const unsigned long long *cmp_values) { return shmem_ulonglong_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_test_any(short *ivars, size_t nelems, const int *status, int cmp, short cmp_value) { return shmem_short_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_test_any(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value) { return shmem_int_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_test_any(long *ivars, size_t nelems, const int *status, int cmp, long cmp_value) { return shmem_long_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_test_any(long long *ivars, size_t nelems, const int *status, int cmp, long long cmp_value) { return shmem_longlong_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_test_any(unsigned short *ivars, size_t nelems, const int *status, int cmp, unsigned short cmp_value) { return shmem_ushort_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_test_any(unsigned int *ivars, size_t nelems, const int *status, int cmp, unsigned int cmp_value) { return shmem_uint_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_test_any(unsigned long *ivars, size_t nelems, const int *status, int cmp, unsigned long cmp_value) { return shmem_ulong_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_test_any(unsigned long long *ivars, size_t nelems, const int *status, int cmp, unsigned long long cmp_value) { return shmem_ulonglong_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t shmem_test_any_vector(short *ivars, size_t nelems, const int *status, int cmp, const short *cmp_values) { return shmem_short_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_test_any_vector(int *ivars, size_t nelems, const int *status, int cmp, const int *cmp_values) { return shmem_int_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_test_any_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values) { return shmem_long_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_test_any_vector(long long *ivars, size_t nelems, const int *status, int cmp, const long long *cmp_values) { return shmem_longlong_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_test_any_vector(unsigned short *ivars, size_t nelems, const int *status, int cmp, const unsigned short *cmp_values) { return shmem_ushort_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_test_any_vector(unsigned int *ivars, size_t nelems, const int *status, int cmp, const unsigned int *cmp_values) { return shmem_uint_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_test_any_vector(unsigned long *ivars, size_t nelems, const int *status, int cmp, const unsigned long *cmp_values) { return shmem_ulong_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_test_any_vector(unsigned long long *ivars, size_t nelems, const int *status, int cmp, const unsigned long long *cmp_values) { return shmem_ulonglong_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t shmem_wait_until_some(short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, short cmp_value) { return shmem_short_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_wait_until_some(int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, int cmp_value) { return shmem_int_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_wait_until_some(long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long cmp_value) { return shmem_long_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_wait_until_some(long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long long cmp_value) { return shmem_longlong_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_wait_until_some(unsigned short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned short cmp_value) { return shmem_ushort_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_wait_until_some(unsigned int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned int cmp_value) { return shmem_uint_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_wait_until_some(unsigned long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned long cmp_value) { return shmem_ulong_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_wait_until_some(unsigned long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned long long cmp_value) { return shmem_ulonglong_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_wait_until_some_vector(short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const short *cmp_values) { return shmem_short_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_wait_until_some_vector(int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const int *cmp_values) { return shmem_int_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_wait_until_some_vector(long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const long *cmp_values) { return shmem_long_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_wait_until_some_vector(long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const long long *cmp_values) { return shmem_longlong_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_wait_until_some_vector(unsigned short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned short *cmp_values) { return shmem_ushort_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_wait_until_some_vector(unsigned int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned int *cmp_values) { return shmem_uint_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_wait_until_some_vector(unsigned long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned long *cmp_values) { return shmem_ulong_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_wait_until_some_vector(unsigned long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned long long *cmp_values) { return shmem_ulonglong_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_test_some(short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, short cmp_value) { return shmem_short_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_test_some(int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, int cmp_value) { return shmem_int_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_test_some(long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long cmp_value) { return shmem_long_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_test_some(long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long long cmp_value) { return shmem_longlong_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_test_some(unsigned short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned short cmp_value) { return shmem_ushort_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_test_some(unsigned int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned int cmp_value) { return shmem_uint_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_test_some(unsigned long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned long cmp_value) { return shmem_ulong_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_test_some(unsigned long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned long long cmp_value) { return shmem_ulonglong_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t shmem_test_some_vector(short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const short *cmp_values) { return shmem_short_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_test_some_vector(int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const int *cmp_values) { return shmem_int_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_test_some_vector(long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const long *cmp_values) { return shmem_long_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_test_some_vector(long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const long long *cmp_values) { return shmem_longlong_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_test_some_vector(unsigned short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned short *cmp_values) { return shmem_ushort_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_test_some_vector(unsigned int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned int *cmp_values) { return shmem_uint_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_test_some_vector(unsigned long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned long *cmp_values) { return shmem_ulong_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t shmem_test_some_vector(unsigned long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned long long *cmp_values) { return shmem_ulonglong_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline int shmem_broadcast(shmem_team_t team, float *dest, const float *source, size_t nelems, int PE_root) { return shmem_float_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, double *dest, const double *source, size_t nelems, int PE_root) { return shmem_double_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, long double *dest, const long double *source, size_t nelems, int PE_root) { return shmem_longdouble_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, char *dest, const char *source, size_t nelems, int PE_root) { return shmem_char_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, signed char *dest, const signed char *source, size_t nelems, int PE_root) { return shmem_schar_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, short *dest, const short *source, size_t nelems, int PE_root) { return shmem_short_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, int *dest, const int *source, size_t nelems, int PE_root) { return shmem_int_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, long *dest, const long *source, size_t nelems, int PE_root) { return shmem_long_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, long long *dest, const long long *source, size_t nelems, int PE_root) { return shmem_longlong_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nelems, int PE_root) { return shmem_uchar_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nelems, int PE_root) { return shmem_ushort_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nelems, int PE_root) { return shmem_uint_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nelems, int PE_root) { return shmem_ulong_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_broadcast(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nelems, int PE_root) { return shmem_ulonglong_broadcast(team, dest, source, nelems, PE_root); }
inline int shmem_collect(shmem_team_t team, float *dest, const float *source, size_t nelems) { return shmem_float_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, double *dest, const double *source, size_t nelems) { return shmem_double_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, long double *dest, const long double *source, size_t nelems) { return shmem_longdouble_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, char *dest, const char *source, size_t nelems) { return shmem_char_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, signed char *dest, const signed char *source, size_t nelems) { return shmem_schar_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, short *dest, const short *source, size_t nelems) { return shmem_short_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, int *dest, const int *source, size_t nelems) { return shmem_int_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, long *dest, const long *source, size_t nelems) { return shmem_long_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, long long *dest, const long long *source, size_t nelems) { return shmem_longlong_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nelems) { return shmem_uchar_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nelems) { return shmem_ushort_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nelems) { return shmem_uint_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nelems) { return shmem_ulong_collect(team, dest, source, nelems); }
inline int shmem_collect(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nelems) { return shmem_ulonglong_collect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, float *dest, const float *source, size_t nelems) { return shmem_float_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, double *dest, const double *source, size_t nelems) { return shmem_double_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, long double *dest, const long double *source, size_t nelems) { return shmem_longdouble_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, char *dest, const char *source, size_t nelems) { return shmem_char_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, signed char *dest, const signed char *source, size_t nelems) { return shmem_schar_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, short *dest, const short *source, size_t nelems) { return shmem_short_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, int *dest, const int *source, size_t nelems) { return shmem_int_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, long *dest, const long *source, size_t nelems) { return shmem_long_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, long long *dest, const long long *source, size_t nelems) { return shmem_longlong_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nelems) { return shmem_uchar_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nelems) { return shmem_ushort_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nelems) { return shmem_uint_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nelems) { return shmem_ulong_fcollect(team, dest, source, nelems); }
inline int shmem_fcollect(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nelems) { return shmem_ulonglong_fcollect(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, float *dest, const float *source, size_t nelems) { return shmem_float_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, double *dest, const double *source, size_t nelems) { return shmem_double_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, long double *dest, const long double *source, size_t nelems) { return shmem_longdouble_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, char *dest, const char *source, size_t nelems) { return shmem_char_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, signed char *dest, const signed char *source, size_t nelems) { return shmem_schar_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, short *dest, const short *source, size_t nelems) { return shmem_short_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, int *dest, const int *source, size_t nelems) { return shmem_int_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, long *dest, const long *source, size_t nelems) { return shmem_long_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, long long *dest, const long long *source, size_t nelems) { return shmem_longlong_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nelems) { return shmem_uchar_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nelems) { return shmem_ushort_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nelems) { return shmem_uint_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nelems) { return shmem_ulong_alltoall(team, dest, source, nelems); }
inline int shmem_alltoall(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nelems) { return shmem_ulonglong_alltoall(team, dest, source, nelems); }
inline int shmem_alltoalls(shmem_team_t team, float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_float_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_double_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_longdouble_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_char_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_schar_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_short_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_int_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_long_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_longlong_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_uchar_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_ushort_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_uint_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_ulong_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_alltoalls(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return shmem_ulonglong_alltoalls(team, dest, source, dst, sst, nelems); }
inline int shmem_max_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce) { return shmem_float_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce) { return shmem_double_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, char *dest, const char *source, size_t nreduce) { return shmem_char_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return shmem_schar_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return shmem_short_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return shmem_int_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return shmem_long_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce) { return shmem_longlong_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return shmem_uchar_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return shmem_ushort_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return shmem_uint_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return shmem_ulong_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return shmem_ulonglong_max_reduce(team, dest, source, nreduce); }
inline int shmem_max_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return shmem_longdouble_max_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce) { return shmem_float_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce) { return shmem_double_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, char *dest, const char *source, size_t nreduce) { return shmem_char_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return shmem_schar_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return shmem_short_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return shmem_int_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return shmem_long_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce) { return shmem_longlong_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return shmem_uchar_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return shmem_ushort_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return shmem_uint_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return shmem_ulong_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return shmem_ulonglong_min_reduce(team, dest, source, nreduce); }
inline int shmem_min_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return shmem_longdouble_min_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce) { return shmem_float_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce) { return shmem_double_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, char *dest, const char *source, size_t nreduce) { return shmem_char_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return shmem_schar_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return shmem_short_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return shmem_int_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return shmem_long_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce) { return shmem_longlong_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return shmem_uchar_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return shmem_ushort_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return shmem_uint_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return shmem_ulong_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return shmem_ulonglong_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return shmem_longdouble_sum_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce) { return shmem_float_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce) { return shmem_double_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, char *dest, const char *source, size_t nreduce) { return shmem_char_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return shmem_schar_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return shmem_short_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return shmem_int_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return shmem_long_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce) { return shmem_longlong_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return shmem_uchar_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return shmem_ushort_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return shmem_uint_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return shmem_ulong_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return shmem_ulonglong_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return shmem_longdouble_prod_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, float _Complex *dest, const float _Complex *source, size_t nreduce) { return shmem_complexf_sum_reduce(team, dest, source, nreduce); }
inline int shmem_sum_reduce(shmem_team_t team, double _Complex *dest, const double _Complex *source, size_t nreduce) { return shmem_complexd_sum_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, float _Complex *dest, const float _Complex *source, size_t nreduce) { return shmem_complexf_prod_reduce(team, dest, source, nreduce); }
inline int shmem_prod_reduce(shmem_team_t team, double _Complex *dest, const double _Complex *source, size_t nreduce) { return shmem_complexd_prod_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return shmem_uchar_and_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return shmem_ushort_and_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return shmem_uint_and_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return shmem_ulong_and_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return shmem_ulonglong_and_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return shmem_int8_and_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return shmem_int16_and_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return shmem_int32_and_reduce(team, dest, source, nreduce); }
inline int shmem_and_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return shmem_int64_and_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return shmem_uchar_or_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return shmem_ushort_or_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return shmem_uint_or_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return shmem_ulong_or_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return shmem_ulonglong_or_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return shmem_int8_or_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return shmem_int16_or_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return shmem_int32_or_reduce(team, dest, source, nreduce); }
inline int shmem_or_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return shmem_int64_or_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return shmem_uchar_xor_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return shmem_ushort_xor_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return shmem_uint_xor_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return shmem_ulong_xor_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return shmem_ulonglong_xor_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return shmem_int8_xor_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return shmem_int16_xor_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return shmem_int32_xor_reduce(team, dest, source, nreduce); }
inline int shmem_xor_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return shmem_int64_xor_reduce(team, dest, source, nreduce); }

/* The deprecated generic AMO names (see the C11 ones above) over the distinct C types of
 * Tables 7 and 8; shmem_swap on long is the extern "C" declaration above. */
#define HANDOFF_SHMEM_CXX_OLD_STD(T, N)                                                    \
    inline T shmem_finc(T *dest, int pe) { return shmem_##N##_finc(dest, pe); }            \
    inline void shmem_inc(T *dest, int pe) { shmem_##N##_inc(dest, pe); }                  \
    inline T shmem_fadd(T *dest, T value, int pe) { return shmem_##N##_fadd(dest, value, pe); } \
    inline void shmem_add(T *dest, T value, int pe) { shmem_##N##_add(dest, value, pe); }   \
    inline T shmem_cswap(T *dest, T cond, T value, int pe) {                                \
        return shmem_##N##_cswap(dest, cond, value, pe);                                    \
    }
#define HANDOFF_SHMEM_CXX_OLD_EXT(T, N)                                                    \
    inline T shmem_fetch(const T *source, int pe) { return shmem_##N##_fetch(source, pe); } \
    inline void shmem_set(T *dest, T value, int pe) { shmem_##N##_set(dest, value, pe); }
#define HANDOFF_SHMEM_CXX_OLD_SWAP(T, N)                                                   \
    inline T shmem_swap(T *dest, T value, int pe) { return shmem_##N##_swap(dest, value, pe); }
#define HANDOFF_SHMEM_CXX_OLD_TYPES(X)                                                     \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)                 \
    X(unsigned long, ulong) X(unsigned long long, ulonglong)
HANDOFF_SHMEM_CXX_OLD_TYPES(HANDOFF_SHMEM_CXX_OLD_STD)
HANDOFF_SHMEM_CXX_OLD_TYPES(HANDOFF_SHMEM_CXX_OLD_EXT)
HANDOFF_SHMEM_CXX_OLD_EXT(float, float)
HANDOFF_SHMEM_CXX_OLD_EXT(double, double)
HANDOFF_SHMEM_CXX_OLD_SWAP(int, int)
HANDOFF_SHMEM_CXX_OLD_SWAP(long long, longlong)
HANDOFF_SHMEM_CXX_OLD_SWAP(unsigned int, uint)
HANDOFF_SHMEM_CXX_OLD_SWAP(unsigned long, ulong)
HANDOFF_SHMEM_CXX_OLD_SWAP(unsigned long long, ulonglong)
HANDOFF_SHMEM_CXX_OLD_SWAP(float, float)
HANDOFF_SHMEM_CXX_OLD_SWAP(double, double)
#endif /* __cplusplus */

/* shmem_sync(team) (1.5) and the deprecated active-set shmem_sync(start, log, size, pSync):
 * picked by argument count, in C and C++. */
#define HANDOFF_SHMEM_SYNC_PICK(_1, _2, _3, _4, F, ...) F
#define shmem_sync(...) \
    HANDOFF_SHMEM_SYNC_PICK(__VA_ARGS__, (shmem_sync), _3, _2, shmem_team_sync, _0)(__VA_ARGS__)

#endif /* HANDOFF_SHMEM_H */

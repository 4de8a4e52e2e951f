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

/* ---- teams and contexts: the predefined ones only ---------------------------------- */

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
/* Not supported: these report the call and end the program. */
int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xconfig,
                        long xmask, shmem_team_t *xteam, const shmem_team_config_t *yconfig,
                        long ymask, shmem_team_t *yteam);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);

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
HANDOFF_SHMEM_REDUCE_ARITH(HANDOFF_SHMEM_DECL_REDUCE, max)
HANDOFF_SHMEM_REDUCE_ARITH(HANDOFF_SHMEM_DECL_REDUCE, min)
HANDOFF_SHMEM_REDUCE_ARITH(HANDOFF_SHMEM_DECL_REDUCE, sum)
HANDOFF_SHMEM_REDUCE_ARITH(HANDOFF_SHMEM_DECL_REDUCE, prod)

#ifdef __cplusplus
}
#endif

/* ---- C11 generic names ----------------------------------------------------------------
 * Selected on the pointed-to type (lvalue conversion drops const); only the distinct C
 * types appear (int32_t etc. are typedefs of these). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)

#define HANDOFF_SHMEM_G_RMA(OBJ, F)                                                        \
    _Generic(*(OBJ), float: shmem_float_##F, double: shmem_double_##F,                     \
             long double: shmem_longdouble_##F, char: shmem_char_##F,                      \
             signed char: shmem_schar_##F, short: shmem_short_##F, int: shmem_int_##F,     \
             long: shmem_long_##F, long long: shmem_longlong_##F,                          \
             unsigned char: shmem_uchar_##F, unsigned short: shmem_ushort_##F,             \
             unsigned int: shmem_uint_##F, unsigned long: shmem_ulong_##F,                 \
             unsigned long long: shmem_ulonglong_##F)
#define HANDOFF_SHMEM_G_PG(OBJ, F)                                                         \
    _Generic(*(OBJ), float: shmem_float_##F, double: shmem_double_##F,                     \
             char: shmem_char_##F, signed char: shmem_schar_##F, short: shmem_short_##F,   \
             int: shmem_int_##F, long: shmem_long_##F, long long: shmem_longlong_##F,      \
             unsigned char: shmem_uchar_##F, unsigned short: shmem_ushort_##F,             \
             unsigned int: shmem_uint_##F, unsigned long: shmem_ulong_##F,                 \
             unsigned long long: shmem_ulonglong_##F)
#define HANDOFF_SHMEM_G_STD(OBJ, F)                                                        \
    _Generic(*(OBJ), int: shmem_int_##F, long: shmem_long_##F,                             \
             long long: shmem_longlong_##F, unsigned int: shmem_uint_##F,                  \
             unsigned long: shmem_ulong_##F, unsigned long long: shmem_ulonglong_##F)
#define HANDOFF_SHMEM_G_EXT(OBJ, F)                                                        \
    _Generic(*(OBJ), int: shmem_int_##F, long: shmem_long_##F,                             \
             long long: shmem_longlong_##F, unsigned int: shmem_uint_##F,                  \
             unsigned long: shmem_ulong_##F, unsigned long long: shmem_ulonglong_##F,      \
             float: shmem_float_##F, double: shmem_double_##F)
#define HANDOFF_SHMEM_G_BIT(OBJ, F)                                                        \
    _Generic(*(OBJ), unsigned int: shmem_uint_##F, unsigned long: shmem_ulong_##F,         \
             unsigned long long: shmem_ulonglong_##F, int: shmem_int32_##F,                \
             long: shmem_int64_##F)
#define HANDOFF_SHMEM_G_P2P(OBJ, F)                                                        \
    _Generic(*(OBJ), short: shmem_short_##F, int: shmem_int_##F, long: shmem_long_##F,     \
             long long: shmem_longlong_##F, unsigned short: shmem_ushort_##F,              \
             unsigned int: shmem_uint_##F, unsigned long: shmem_ulong_##F,                 \
             unsigned long long: shmem_ulonglong_##F)
#define HANDOFF_SHMEM_G_RED(OBJ, F)                                                        \
    _Generic(*(OBJ), char: shmem_char_##F, signed char: shmem_schar_##F,                   \
             short: shmem_short_##F, int: shmem_int_##F, long: shmem_long_##F,             \
             long long: shmem_longlong_##F, unsigned char: shmem_uchar_##F,                \
             unsigned short: shmem_ushort_##F, unsigned int: shmem_uint_##F,               \
             unsigned long: shmem_ulong_##F, unsigned long long: shmem_ulonglong_##F,      \
             float: shmem_float_##F, double: shmem_double_##F)
#define HANDOFF_SHMEM_G_REDBIT(OBJ, F)                                                     \
    _Generic(*(OBJ), unsigned char: shmem_uchar_##F, unsigned short: shmem_ushort_##F,     \
             unsigned int: shmem_uint_##F, unsigned long: shmem_ulong_##F,                 \
             unsigned long long: shmem_ulonglong_##F, signed char: shmem_int8_##F,         \
             short: shmem_int16_##F, int: shmem_int32_##F, long: shmem_int64_##F)

#define shmem_put(dest, source, nelems, pe) HANDOFF_SHMEM_G_RMA(dest, put)(dest, source, nelems, pe)
#define shmem_get(dest, source, nelems, pe) HANDOFF_SHMEM_G_RMA(dest, get)(dest, source, nelems, pe)
#define shmem_put_nbi(dest, source, nelems, pe) HANDOFF_SHMEM_G_RMA(dest, put_nbi)(dest, source, nelems, pe)
#define shmem_get_nbi(dest, source, nelems, pe) HANDOFF_SHMEM_G_RMA(dest, get_nbi)(dest, source, nelems, pe)
#define shmem_iput(dest, source, dst, sst, nelems, pe) HANDOFF_SHMEM_G_RMA(dest, iput)(dest, source, dst, sst, nelems, pe)
#define shmem_iget(dest, source, dst, sst, nelems, pe) HANDOFF_SHMEM_G_RMA(dest, iget)(dest, source, dst, sst, nelems, pe)
#define shmem_p(dest, value, pe) HANDOFF_SHMEM_G_PG(dest, p)(dest, value, pe)
#define shmem_g(source, pe) HANDOFF_SHMEM_G_PG(source, g)(source, pe)
#define shmem_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe) \
    HANDOFF_SHMEM_G_RMA(dest, put_signal)(dest, source, nelems, sig_addr, signal, sig_op, pe)
#define shmem_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe) \
    HANDOFF_SHMEM_G_RMA(dest, put_signal_nbi)(dest, source, nelems, sig_addr, signal, sig_op, pe)

#define shmem_atomic_fetch(source, pe) HANDOFF_SHMEM_G_EXT(source, atomic_fetch)(source, pe)
#define shmem_atomic_set(dest, value, pe) HANDOFF_SHMEM_G_EXT(dest, atomic_set)(dest, value, pe)
#define shmem_atomic_swap(dest, value, pe) HANDOFF_SHMEM_G_EXT(dest, atomic_swap)(dest, value, pe)
#define shmem_atomic_fetch_inc(dest, pe) HANDOFF_SHMEM_G_STD(dest, atomic_fetch_inc)(dest, pe)
#define shmem_atomic_inc(dest, pe) HANDOFF_SHMEM_G_STD(dest, atomic_inc)(dest, pe)
#define shmem_atomic_fetch_add(dest, value, pe) HANDOFF_SHMEM_G_STD(dest, atomic_fetch_add)(dest, value, pe)
#define shmem_atomic_add(dest, value, pe) HANDOFF_SHMEM_G_STD(dest, atomic_add)(dest, value, pe)
#define shmem_atomic_compare_swap(dest, cond, value, pe) \
    HANDOFF_SHMEM_G_STD(dest, atomic_compare_swap)(dest, cond, value, pe)
#define shmem_atomic_fetch_and(dest, value, pe) HANDOFF_SHMEM_G_BIT(dest, atomic_fetch_and)(dest, value, pe)
#define shmem_atomic_and(dest, value, pe) HANDOFF_SHMEM_G_BIT(dest, atomic_and)(dest, value, pe)
#define shmem_atomic_fetch_or(dest, value, pe) HANDOFF_SHMEM_G_BIT(dest, atomic_fetch_or)(dest, value, pe)
#define shmem_atomic_or(dest, value, pe) HANDOFF_SHMEM_G_BIT(dest, atomic_or)(dest, value, pe)
#define shmem_atomic_fetch_xor(dest, value, pe) HANDOFF_SHMEM_G_BIT(dest, atomic_fetch_xor)(dest, value, pe)
#define shmem_atomic_xor(dest, value, pe) HANDOFF_SHMEM_G_BIT(dest, atomic_xor)(dest, value, pe)

#define shmem_wait_until(ivar, cmp, value) HANDOFF_SHMEM_G_P2P(ivar, wait_until)(ivar, cmp, value)
#define shmem_wait(ivar, value) HANDOFF_SHMEM_G_P2P(ivar, wait)(ivar, value)
#define shmem_wait_until_all(ivars, n, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(ivars, wait_until_all)(ivars, n, status, cmp, value)
#define shmem_wait_until_any(ivars, n, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(ivars, wait_until_any)(ivars, n, status, cmp, value)
#define shmem_wait_until_some(ivars, n, indices, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(ivars, wait_until_some)(ivars, n, indices, status, cmp, value)
#define shmem_wait_until_all_vector(ivars, n, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(ivars, wait_until_all_vector)(ivars, n, status, cmp, values)
#define shmem_wait_until_any_vector(ivars, n, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(ivars, wait_until_any_vector)(ivars, n, status, cmp, values)
#define shmem_wait_until_some_vector(ivars, n, indices, status, cmp, values) \
    HANDOFF_SHMEM_G_P2P(ivars, wait_until_some_vector)(ivars, n, indices, status, cmp, values)
#define shmem_test(ivar, cmp, value) HANDOFF_SHMEM_G_P2P(ivar, test)(ivar, cmp, value)
#define shmem_test_all(ivars, n, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(ivars, test_all)(ivars, n, status, cmp, value)
#define shmem_test_any(ivars, n, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(ivars, test_any)(ivars, n, status, cmp, value)
#define shmem_test_some(ivars, n, indices, status, cmp, value) \
    HANDOFF_SHMEM_G_P2P(ivars, test_some)(ivars, n, indices, status, cmp, value)

#define shmem_broadcast(team, dest, source, nelems, root) \
    HANDOFF_SHMEM_G_RMA(dest, broadcast)(team, dest, source, nelems, root)
#define shmem_collect(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(dest, collect)(team, dest, source, nelems)
#define shmem_fcollect(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(dest, fcollect)(team, dest, source, nelems)
#define shmem_alltoall(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(dest, alltoall)(team, dest, source, nelems)

#define shmem_sum_reduce(team, dest, source, n) HANDOFF_SHMEM_G_RED(dest, sum_reduce)(team, dest, source, n)
#define shmem_prod_reduce(team, dest, source, n) HANDOFF_SHMEM_G_RED(dest, prod_reduce)(team, dest, source, n)
#define shmem_max_reduce(team, dest, source, n) HANDOFF_SHMEM_G_RED(dest, max_reduce)(team, dest, source, n)
#define shmem_min_reduce(team, dest, source, n) HANDOFF_SHMEM_G_RED(dest, min_reduce)(team, dest, source, n)
#define shmem_and_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(dest, and_reduce)(team, dest, source, n)
#define shmem_or_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(dest, or_reduce)(team, dest, source, n)
#define shmem_xor_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(dest, xor_reduce)(team, dest, source, n)

#endif /* C11 */

#endif /* HANDOFF_SHMEM_H */

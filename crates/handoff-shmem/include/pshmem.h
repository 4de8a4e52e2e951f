/*
 * pshmem.h — the OpenSHMEM 1.5 profiling interface: every routine of shmem.h and
 * shmemx.h under its profiling name (`p` and the routine's name: pshmem_putmem,
 * pshmemx_ct_wait, pshmalloc, pstart_pes), as libhandoff_shmem defines it
 * (src/profile.rs). A tool defines shmem_NAME and calls pshmem_NAME from it.
 *
 * GENERATED from the headers' own declarations (gcc -aux-info) by
 * crates/handoff-shmem/tests/api/mod.rs; do not edit. After changing shmem.h or
 * shmemx.h: HANDOFF_SHMEM_BLESS=1 cargo test -p handoff-shmem --test shmem pshmem_h
 */
#ifndef HANDOFF_PSHMEM_H
#define HANDOFF_PSHMEM_H

#include <shmem.h>
#include <shmemx.h>

#ifdef __cplusplus
extern "C" {
#endif

int pshmem_team_my_pe(shmem_team_t);
int pshmem_team_n_pes(shmem_team_t);
int pshmem_team_translate_pe(shmem_team_t, int, shmem_team_t);
int pshmem_team_sync(shmem_team_t);
int pshmem_team_split_strided(shmem_team_t, int, int, int, const shmem_team_config_t *, long int, shmem_team_t *);
int pshmem_team_split_2d(shmem_team_t, int, const shmem_team_config_t *, long int, shmem_team_t *, const shmem_team_config_t *, long int, shmem_team_t *);
void pshmem_team_destroy(shmem_team_t);
int pshmem_team_get_config(shmem_team_t, long int, shmem_team_config_t *);
void *pshmem_team_ptr(shmem_team_t, const void *, int);
int pshmem_ctx_create(long int, shmem_ctx_t *);
int pshmem_team_create_ctx(shmem_team_t, long int, shmem_ctx_t *);
void pshmem_ctx_destroy(shmem_ctx_t);
int pshmem_ctx_get_team(shmem_ctx_t, shmem_team_t *);
void pshmem_ctx_fence(shmem_ctx_t);
void pshmem_ctx_quiet(shmem_ctx_t);
void pshmem_set_lock(long int *);
void pshmem_clear_lock(long int *);
int pshmem_test_lock(long int *);
void pshmem_init(void);
int pshmem_init_thread(int, int *);
void pshmem_query_thread(int *);
void pshmem_finalize(void);
void pshmem_global_exit(int);
int pshmem_my_pe(void);
int pshmem_n_pes(void);
int pshmem_pe_accessible(int);
int pshmem_addr_accessible(const void *, int);
void *pshmem_ptr(const void *, int);
void pshmem_info_get_version(int *, int *);
void pshmem_info_get_name(char *);
void *pshmem_malloc(size_t);
void *pshmem_malloc_with_hints(size_t, long int);
void *pshmem_calloc(size_t, size_t);
void *pshmem_align(size_t, size_t);
void *pshmem_realloc(void *, size_t);
void pshmem_free(void *);
void pstart_pes(int);
int p_my_pe(void);
int p_num_pes(void);
void *pshmalloc(size_t);
void pshfree(void *);
void *pshmemalign(size_t, size_t);
void *pshrealloc(void *, size_t);
void pshmem_fence(void);
void pshmem_quiet(void);
void pshmem_barrier_all(void);
void pshmem_sync_all(void);
void pshmem_barrier(int, int, int, long int *);
void pshmem_sync(int, int, int, long int *);
void pshmem_float_put(float *, const float *, size_t, int);
void pshmem_float_get(float *, const float *, size_t, int);
void pshmem_float_put_nbi(float *, const float *, size_t, int);
void pshmem_float_get_nbi(float *, const float *, size_t, int);
void pshmem_float_iput(float *, const float *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_float_iget(float *, const float *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_float_put_signal(float *, const float *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_float_put_signal_nbi(float *, const float *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_double_put(double *, const double *, size_t, int);
void pshmem_double_get(double *, const double *, size_t, int);
void pshmem_double_put_nbi(double *, const double *, size_t, int);
void pshmem_double_get_nbi(double *, const double *, size_t, int);
void pshmem_double_iput(double *, const double *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_double_iget(double *, const double *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_double_put_signal(double *, const double *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_double_put_signal_nbi(double *, const double *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_char_put(char *, const char *, size_t, int);
void pshmem_char_get(char *, const char *, size_t, int);
void pshmem_char_put_nbi(char *, const char *, size_t, int);
void pshmem_char_get_nbi(char *, const char *, size_t, int);
void pshmem_char_iput(char *, const char *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_char_iget(char *, const char *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_char_put_signal(char *, const char *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_char_put_signal_nbi(char *, const char *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_schar_put(signed char *, const signed char *, size_t, int);
void pshmem_schar_get(signed char *, const signed char *, size_t, int);
void pshmem_schar_put_nbi(signed char *, const signed char *, size_t, int);
void pshmem_schar_get_nbi(signed char *, const signed char *, size_t, int);
void pshmem_schar_iput(signed char *, const signed char *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_schar_iget(signed char *, const signed char *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_schar_put_signal(signed char *, const signed char *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_schar_put_signal_nbi(signed char *, const signed char *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_short_put(short int *, const short int *, size_t, int);
void pshmem_short_get(short int *, const short int *, size_t, int);
void pshmem_short_put_nbi(short int *, const short int *, size_t, int);
void pshmem_short_get_nbi(short int *, const short int *, size_t, int);
void pshmem_short_iput(short int *, const short int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_short_iget(short int *, const short int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_short_put_signal(short int *, const short int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_short_put_signal_nbi(short int *, const short int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int_put(int *, const int *, size_t, int);
void pshmem_int_get(int *, const int *, size_t, int);
void pshmem_int_put_nbi(int *, const int *, size_t, int);
void pshmem_int_get_nbi(int *, const int *, size_t, int);
void pshmem_int_iput(int *, const int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int_iget(int *, const int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int_put_signal(int *, const int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int_put_signal_nbi(int *, const int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_long_put(long int *, const long int *, size_t, int);
void pshmem_long_get(long int *, const long int *, size_t, int);
void pshmem_long_put_nbi(long int *, const long int *, size_t, int);
void pshmem_long_get_nbi(long int *, const long int *, size_t, int);
void pshmem_long_iput(long int *, const long int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_long_iget(long int *, const long int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_long_put_signal(long int *, const long int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_long_put_signal_nbi(long int *, const long int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_longlong_put(long long int *, const long long int *, size_t, int);
void pshmem_longlong_get(long long int *, const long long int *, size_t, int);
void pshmem_longlong_put_nbi(long long int *, const long long int *, size_t, int);
void pshmem_longlong_get_nbi(long long int *, const long long int *, size_t, int);
void pshmem_longlong_iput(long long int *, const long long int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_longlong_iget(long long int *, const long long int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_longlong_put_signal(long long int *, const long long int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_longlong_put_signal_nbi(long long int *, const long long int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uchar_put(unsigned char *, const unsigned char *, size_t, int);
void pshmem_uchar_get(unsigned char *, const unsigned char *, size_t, int);
void pshmem_uchar_put_nbi(unsigned char *, const unsigned char *, size_t, int);
void pshmem_uchar_get_nbi(unsigned char *, const unsigned char *, size_t, int);
void pshmem_uchar_iput(unsigned char *, const unsigned char *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uchar_iget(unsigned char *, const unsigned char *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uchar_put_signal(unsigned char *, const unsigned char *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uchar_put_signal_nbi(unsigned char *, const unsigned char *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_ushort_put(short unsigned int *, const short unsigned int *, size_t, int);
void pshmem_ushort_get(short unsigned int *, const short unsigned int *, size_t, int);
void pshmem_ushort_put_nbi(short unsigned int *, const short unsigned int *, size_t, int);
void pshmem_ushort_get_nbi(short unsigned int *, const short unsigned int *, size_t, int);
void pshmem_ushort_iput(short unsigned int *, const short unsigned int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_ushort_iget(short unsigned int *, const short unsigned int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_ushort_put_signal(short unsigned int *, const short unsigned int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_ushort_put_signal_nbi(short unsigned int *, const short unsigned int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint_put(unsigned int *, const unsigned int *, size_t, int);
void pshmem_uint_get(unsigned int *, const unsigned int *, size_t, int);
void pshmem_uint_put_nbi(unsigned int *, const unsigned int *, size_t, int);
void pshmem_uint_get_nbi(unsigned int *, const unsigned int *, size_t, int);
void pshmem_uint_iput(unsigned int *, const unsigned int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint_iget(unsigned int *, const unsigned int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint_put_signal(unsigned int *, const unsigned int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint_put_signal_nbi(unsigned int *, const unsigned int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_ulong_put(long unsigned int *, const long unsigned int *, size_t, int);
void pshmem_ulong_get(long unsigned int *, const long unsigned int *, size_t, int);
void pshmem_ulong_put_nbi(long unsigned int *, const long unsigned int *, size_t, int);
void pshmem_ulong_get_nbi(long unsigned int *, const long unsigned int *, size_t, int);
void pshmem_ulong_iput(long unsigned int *, const long unsigned int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_ulong_iget(long unsigned int *, const long unsigned int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_ulong_put_signal(long unsigned int *, const long unsigned int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_ulong_put_signal_nbi(long unsigned int *, const long unsigned int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_ulonglong_put(long long unsigned int *, const long long unsigned int *, size_t, int);
void pshmem_ulonglong_get(long long unsigned int *, const long long unsigned int *, size_t, int);
void pshmem_ulonglong_put_nbi(long long unsigned int *, const long long unsigned int *, size_t, int);
void pshmem_ulonglong_get_nbi(long long unsigned int *, const long long unsigned int *, size_t, int);
void pshmem_ulonglong_iput(long long unsigned int *, const long long unsigned int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_ulonglong_iget(long long unsigned int *, const long long unsigned int *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_ulonglong_put_signal(long long unsigned int *, const long long unsigned int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_ulonglong_put_signal_nbi(long long unsigned int *, const long long unsigned int *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int8_put(int8_t *, const int8_t *, size_t, int);
void pshmem_int8_get(int8_t *, const int8_t *, size_t, int);
void pshmem_int8_put_nbi(int8_t *, const int8_t *, size_t, int);
void pshmem_int8_get_nbi(int8_t *, const int8_t *, size_t, int);
void pshmem_int8_iput(int8_t *, const int8_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int8_iget(int8_t *, const int8_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int8_put_signal(int8_t *, const int8_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int8_put_signal_nbi(int8_t *, const int8_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int16_put(int16_t *, const int16_t *, size_t, int);
void pshmem_int16_get(int16_t *, const int16_t *, size_t, int);
void pshmem_int16_put_nbi(int16_t *, const int16_t *, size_t, int);
void pshmem_int16_get_nbi(int16_t *, const int16_t *, size_t, int);
void pshmem_int16_iput(int16_t *, const int16_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int16_iget(int16_t *, const int16_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int16_put_signal(int16_t *, const int16_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int16_put_signal_nbi(int16_t *, const int16_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int32_put(int32_t *, const int32_t *, size_t, int);
void pshmem_int32_get(int32_t *, const int32_t *, size_t, int);
void pshmem_int32_put_nbi(int32_t *, const int32_t *, size_t, int);
void pshmem_int32_get_nbi(int32_t *, const int32_t *, size_t, int);
void pshmem_int32_iput(int32_t *, const int32_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int32_iget(int32_t *, const int32_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int32_put_signal(int32_t *, const int32_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int32_put_signal_nbi(int32_t *, const int32_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int64_put(int64_t *, const int64_t *, size_t, int);
void pshmem_int64_get(int64_t *, const int64_t *, size_t, int);
void pshmem_int64_put_nbi(int64_t *, const int64_t *, size_t, int);
void pshmem_int64_get_nbi(int64_t *, const int64_t *, size_t, int);
void pshmem_int64_iput(int64_t *, const int64_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int64_iget(int64_t *, const int64_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_int64_put_signal(int64_t *, const int64_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_int64_put_signal_nbi(int64_t *, const int64_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint8_put(uint8_t *, const uint8_t *, size_t, int);
void pshmem_uint8_get(uint8_t *, const uint8_t *, size_t, int);
void pshmem_uint8_put_nbi(uint8_t *, const uint8_t *, size_t, int);
void pshmem_uint8_get_nbi(uint8_t *, const uint8_t *, size_t, int);
void pshmem_uint8_iput(uint8_t *, const uint8_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint8_iget(uint8_t *, const uint8_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint8_put_signal(uint8_t *, const uint8_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint8_put_signal_nbi(uint8_t *, const uint8_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint16_put(uint16_t *, const uint16_t *, size_t, int);
void pshmem_uint16_get(uint16_t *, const uint16_t *, size_t, int);
void pshmem_uint16_put_nbi(uint16_t *, const uint16_t *, size_t, int);
void pshmem_uint16_get_nbi(uint16_t *, const uint16_t *, size_t, int);
void pshmem_uint16_iput(uint16_t *, const uint16_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint16_iget(uint16_t *, const uint16_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint16_put_signal(uint16_t *, const uint16_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint16_put_signal_nbi(uint16_t *, const uint16_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint32_put(uint32_t *, const uint32_t *, size_t, int);
void pshmem_uint32_get(uint32_t *, const uint32_t *, size_t, int);
void pshmem_uint32_put_nbi(uint32_t *, const uint32_t *, size_t, int);
void pshmem_uint32_get_nbi(uint32_t *, const uint32_t *, size_t, int);
void pshmem_uint32_iput(uint32_t *, const uint32_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint32_iget(uint32_t *, const uint32_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint32_put_signal(uint32_t *, const uint32_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint32_put_signal_nbi(uint32_t *, const uint32_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint64_put(uint64_t *, const uint64_t *, size_t, int);
void pshmem_uint64_get(uint64_t *, const uint64_t *, size_t, int);
void pshmem_uint64_put_nbi(uint64_t *, const uint64_t *, size_t, int);
void pshmem_uint64_get_nbi(uint64_t *, const uint64_t *, size_t, int);
void pshmem_uint64_iput(uint64_t *, const uint64_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint64_iget(uint64_t *, const uint64_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_uint64_put_signal(uint64_t *, const uint64_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_uint64_put_signal_nbi(uint64_t *, const uint64_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_size_put(size_t *, const size_t *, size_t, int);
void pshmem_size_get(size_t *, const size_t *, size_t, int);
void pshmem_size_put_nbi(size_t *, const size_t *, size_t, int);
void pshmem_size_get_nbi(size_t *, const size_t *, size_t, int);
void pshmem_size_iput(size_t *, const size_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_size_iget(size_t *, const size_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_size_put_signal(size_t *, const size_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_size_put_signal_nbi(size_t *, const size_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_ptrdiff_put(ptrdiff_t *, const ptrdiff_t *, size_t, int);
void pshmem_ptrdiff_get(ptrdiff_t *, const ptrdiff_t *, size_t, int);
void pshmem_ptrdiff_put_nbi(ptrdiff_t *, const ptrdiff_t *, size_t, int);
void pshmem_ptrdiff_get_nbi(ptrdiff_t *, const ptrdiff_t *, size_t, int);
void pshmem_ptrdiff_iput(ptrdiff_t *, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_ptrdiff_iget(ptrdiff_t *, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_ptrdiff_put_signal(ptrdiff_t *, const ptrdiff_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_ptrdiff_put_signal_nbi(ptrdiff_t *, const ptrdiff_t *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_float_p(float *, float, int);
float pshmem_float_g(const float *, int);
void pshmem_double_p(double *, double, int);
double pshmem_double_g(const double *, int);
void pshmem_char_p(char *, char, int);
char pshmem_char_g(const char *, int);
void pshmem_schar_p(signed char *, signed char, int);
signed char pshmem_schar_g(const signed char *, int);
void pshmem_short_p(short int *, short int, int);
short int pshmem_short_g(const short int *, int);
void pshmem_int_p(int *, int, int);
int pshmem_int_g(const int *, int);
void pshmem_long_p(long int *, long int, int);
long int pshmem_long_g(const long int *, int);
void pshmem_longlong_p(long long int *, long long int, int);
long long int pshmem_longlong_g(const long long int *, int);
void pshmem_uchar_p(unsigned char *, unsigned char, int);
unsigned char pshmem_uchar_g(const unsigned char *, int);
void pshmem_ushort_p(short unsigned int *, short unsigned int, int);
short unsigned int pshmem_ushort_g(const short unsigned int *, int);
void pshmem_uint_p(unsigned int *, unsigned int, int);
unsigned int pshmem_uint_g(const unsigned int *, int);
void pshmem_ulong_p(long unsigned int *, long unsigned int, int);
long unsigned int pshmem_ulong_g(const long unsigned int *, int);
void pshmem_ulonglong_p(long long unsigned int *, long long unsigned int, int);
long long unsigned int pshmem_ulonglong_g(const long long unsigned int *, int);
void pshmem_int8_p(int8_t *, int8_t, int);
int8_t pshmem_int8_g(const int8_t *, int);
void pshmem_int16_p(int16_t *, int16_t, int);
int16_t pshmem_int16_g(const int16_t *, int);
void pshmem_int32_p(int32_t *, int32_t, int);
int32_t pshmem_int32_g(const int32_t *, int);
void pshmem_int64_p(int64_t *, int64_t, int);
int64_t pshmem_int64_g(const int64_t *, int);
void pshmem_uint8_p(uint8_t *, uint8_t, int);
uint8_t pshmem_uint8_g(const uint8_t *, int);
void pshmem_uint16_p(uint16_t *, uint16_t, int);
uint16_t pshmem_uint16_g(const uint16_t *, int);
void pshmem_uint32_p(uint32_t *, uint32_t, int);
uint32_t pshmem_uint32_g(const uint32_t *, int);
void pshmem_uint64_p(uint64_t *, uint64_t, int);
uint64_t pshmem_uint64_g(const uint64_t *, int);
void pshmem_size_p(size_t *, size_t, int);
size_t pshmem_size_g(const size_t *, int);
void pshmem_ptrdiff_p(ptrdiff_t *, ptrdiff_t, int);
ptrdiff_t pshmem_ptrdiff_g(const ptrdiff_t *, int);
void pshmem_longdouble_put(long double *, const long double *, size_t, int);
void pshmem_longdouble_get(long double *, const long double *, size_t, int);
void pshmem_longdouble_put_nbi(long double *, const long double *, size_t, int);
void pshmem_longdouble_get_nbi(long double *, const long double *, size_t, int);
void pshmem_longdouble_iput(long double *, const long double *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_longdouble_iget(long double *, const long double *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_longdouble_put_signal(long double *, const long double *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_longdouble_put_signal_nbi(long double *, const long double *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put8(void *, const void *, size_t, int);
void pshmem_get8(void *, const void *, size_t, int);
void pshmem_put8_nbi(void *, const void *, size_t, int);
void pshmem_get8_nbi(void *, const void *, size_t, int);
void pshmem_iput8(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_iget8(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_put8_signal(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put8_signal_nbi(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put16(void *, const void *, size_t, int);
void pshmem_get16(void *, const void *, size_t, int);
void pshmem_put16_nbi(void *, const void *, size_t, int);
void pshmem_get16_nbi(void *, const void *, size_t, int);
void pshmem_iput16(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_iget16(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_put16_signal(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put16_signal_nbi(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put32(void *, const void *, size_t, int);
void pshmem_get32(void *, const void *, size_t, int);
void pshmem_put32_nbi(void *, const void *, size_t, int);
void pshmem_get32_nbi(void *, const void *, size_t, int);
void pshmem_iput32(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_iget32(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_put32_signal(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put32_signal_nbi(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put64(void *, const void *, size_t, int);
void pshmem_get64(void *, const void *, size_t, int);
void pshmem_put64_nbi(void *, const void *, size_t, int);
void pshmem_get64_nbi(void *, const void *, size_t, int);
void pshmem_iput64(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_iget64(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_put64_signal(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put64_signal_nbi(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put128(void *, const void *, size_t, int);
void pshmem_get128(void *, const void *, size_t, int);
void pshmem_put128_nbi(void *, const void *, size_t, int);
void pshmem_get128_nbi(void *, const void *, size_t, int);
void pshmem_iput128(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_iget128(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
void pshmem_put128_signal(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_put128_signal_nbi(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_putmem(void *, const void *, size_t, int);
void pshmem_getmem(void *, const void *, size_t, int);
void pshmem_putmem_nbi(void *, const void *, size_t, int);
void pshmem_getmem_nbi(void *, const void *, size_t, int);
void pshmem_putmem_signal(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
void pshmem_putmem_signal_nbi(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
uint64_t pshmem_signal_fetch(const uint64_t *);
uint64_t pshmem_signal_wait_until(uint64_t *, int, uint64_t);
void pshmem_signal_add(uint64_t *, uint64_t, int);
void pshmem_signal_set(uint64_t *, uint64_t, int);
int pshmem_int_atomic_fetch(const int *, int);
void pshmem_int_atomic_set(int *, int, int);
int pshmem_int_atomic_swap(int *, int, int);
void pshmem_int_atomic_fetch_nbi(int *, const int *, int);
void pshmem_int_atomic_swap_nbi(int *, int *, int, int);
long int pshmem_long_atomic_fetch(const long int *, int);
void pshmem_long_atomic_set(long int *, long int, int);
long int pshmem_long_atomic_swap(long int *, long int, int);
void pshmem_long_atomic_fetch_nbi(long int *, const long int *, int);
void pshmem_long_atomic_swap_nbi(long int *, long int *, long int, int);
long long int pshmem_longlong_atomic_fetch(const long long int *, int);
void pshmem_longlong_atomic_set(long long int *, long long int, int);
long long int pshmem_longlong_atomic_swap(long long int *, long long int, int);
void pshmem_longlong_atomic_fetch_nbi(long long int *, const long long int *, int);
void pshmem_longlong_atomic_swap_nbi(long long int *, long long int *, long long int, int);
unsigned int pshmem_uint_atomic_fetch(const unsigned int *, int);
void pshmem_uint_atomic_set(unsigned int *, unsigned int, int);
unsigned int pshmem_uint_atomic_swap(unsigned int *, unsigned int, int);
void pshmem_uint_atomic_fetch_nbi(unsigned int *, const unsigned int *, int);
void pshmem_uint_atomic_swap_nbi(unsigned int *, unsigned int *, unsigned int, int);
long unsigned int pshmem_ulong_atomic_fetch(const long unsigned int *, int);
void pshmem_ulong_atomic_set(long unsigned int *, long unsigned int, int);
long unsigned int pshmem_ulong_atomic_swap(long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_fetch_nbi(long unsigned int *, const long unsigned int *, int);
void pshmem_ulong_atomic_swap_nbi(long unsigned int *, long unsigned int *, long unsigned int, int);
long long unsigned int pshmem_ulonglong_atomic_fetch(const long long unsigned int *, int);
void pshmem_ulonglong_atomic_set(long long unsigned int *, long long unsigned int, int);
long long unsigned int pshmem_ulonglong_atomic_swap(long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_fetch_nbi(long long unsigned int *, const long long unsigned int *, int);
void pshmem_ulonglong_atomic_swap_nbi(long long unsigned int *, long long unsigned int *, long long unsigned int, int);
int32_t pshmem_int32_atomic_fetch(const int32_t *, int);
void pshmem_int32_atomic_set(int32_t *, int32_t, int);
int32_t pshmem_int32_atomic_swap(int32_t *, int32_t, int);
void pshmem_int32_atomic_fetch_nbi(int32_t *, const int32_t *, int);
void pshmem_int32_atomic_swap_nbi(int32_t *, int32_t *, int32_t, int);
int64_t pshmem_int64_atomic_fetch(const int64_t *, int);
void pshmem_int64_atomic_set(int64_t *, int64_t, int);
int64_t pshmem_int64_atomic_swap(int64_t *, int64_t, int);
void pshmem_int64_atomic_fetch_nbi(int64_t *, const int64_t *, int);
void pshmem_int64_atomic_swap_nbi(int64_t *, int64_t *, int64_t, int);
uint32_t pshmem_uint32_atomic_fetch(const uint32_t *, int);
void pshmem_uint32_atomic_set(uint32_t *, uint32_t, int);
uint32_t pshmem_uint32_atomic_swap(uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_fetch_nbi(uint32_t *, const uint32_t *, int);
void pshmem_uint32_atomic_swap_nbi(uint32_t *, uint32_t *, uint32_t, int);
uint64_t pshmem_uint64_atomic_fetch(const uint64_t *, int);
void pshmem_uint64_atomic_set(uint64_t *, uint64_t, int);
uint64_t pshmem_uint64_atomic_swap(uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_fetch_nbi(uint64_t *, const uint64_t *, int);
void pshmem_uint64_atomic_swap_nbi(uint64_t *, uint64_t *, uint64_t, int);
size_t pshmem_size_atomic_fetch(const size_t *, int);
void pshmem_size_atomic_set(size_t *, size_t, int);
size_t pshmem_size_atomic_swap(size_t *, size_t, int);
void pshmem_size_atomic_fetch_nbi(size_t *, const size_t *, int);
void pshmem_size_atomic_swap_nbi(size_t *, size_t *, size_t, int);
ptrdiff_t pshmem_ptrdiff_atomic_fetch(const ptrdiff_t *, int);
void pshmem_ptrdiff_atomic_set(ptrdiff_t *, ptrdiff_t, int);
ptrdiff_t pshmem_ptrdiff_atomic_swap(ptrdiff_t *, ptrdiff_t, int);
void pshmem_ptrdiff_atomic_fetch_nbi(ptrdiff_t *, const ptrdiff_t *, int);
void pshmem_ptrdiff_atomic_swap_nbi(ptrdiff_t *, ptrdiff_t *, ptrdiff_t, int);
float pshmem_float_atomic_fetch(const float *, int);
void pshmem_float_atomic_set(float *, float, int);
float pshmem_float_atomic_swap(float *, float, int);
void pshmem_float_atomic_fetch_nbi(float *, const float *, int);
void pshmem_float_atomic_swap_nbi(float *, float *, float, int);
double pshmem_double_atomic_fetch(const double *, int);
void pshmem_double_atomic_set(double *, double, int);
double pshmem_double_atomic_swap(double *, double, int);
void pshmem_double_atomic_fetch_nbi(double *, const double *, int);
void pshmem_double_atomic_swap_nbi(double *, double *, double, int);
int pshmem_int_atomic_fetch_inc(int *, int);
void pshmem_int_atomic_inc(int *, int);
int pshmem_int_atomic_fetch_add(int *, int, int);
void pshmem_int_atomic_add(int *, int, int);
int pshmem_int_atomic_compare_swap(int *, int, int, int);
void pshmem_int_atomic_fetch_inc_nbi(int *, int *, int);
void pshmem_int_atomic_fetch_add_nbi(int *, int *, int, int);
void pshmem_int_atomic_compare_swap_nbi(int *, int *, int, int, int);
long int pshmem_long_atomic_fetch_inc(long int *, int);
void pshmem_long_atomic_inc(long int *, int);
long int pshmem_long_atomic_fetch_add(long int *, long int, int);
void pshmem_long_atomic_add(long int *, long int, int);
long int pshmem_long_atomic_compare_swap(long int *, long int, long int, int);
void pshmem_long_atomic_fetch_inc_nbi(long int *, long int *, int);
void pshmem_long_atomic_fetch_add_nbi(long int *, long int *, long int, int);
void pshmem_long_atomic_compare_swap_nbi(long int *, long int *, long int, long int, int);
long long int pshmem_longlong_atomic_fetch_inc(long long int *, int);
void pshmem_longlong_atomic_inc(long long int *, int);
long long int pshmem_longlong_atomic_fetch_add(long long int *, long long int, int);
void pshmem_longlong_atomic_add(long long int *, long long int, int);
long long int pshmem_longlong_atomic_compare_swap(long long int *, long long int, long long int, int);
void pshmem_longlong_atomic_fetch_inc_nbi(long long int *, long long int *, int);
void pshmem_longlong_atomic_fetch_add_nbi(long long int *, long long int *, long long int, int);
void pshmem_longlong_atomic_compare_swap_nbi(long long int *, long long int *, long long int, long long int, int);
unsigned int pshmem_uint_atomic_fetch_inc(unsigned int *, int);
void pshmem_uint_atomic_inc(unsigned int *, int);
unsigned int pshmem_uint_atomic_fetch_add(unsigned int *, unsigned int, int);
void pshmem_uint_atomic_add(unsigned int *, unsigned int, int);
unsigned int pshmem_uint_atomic_compare_swap(unsigned int *, unsigned int, unsigned int, int);
void pshmem_uint_atomic_fetch_inc_nbi(unsigned int *, unsigned int *, int);
void pshmem_uint_atomic_fetch_add_nbi(unsigned int *, unsigned int *, unsigned int, int);
void pshmem_uint_atomic_compare_swap_nbi(unsigned int *, unsigned int *, unsigned int, unsigned int, int);
long unsigned int pshmem_ulong_atomic_fetch_inc(long unsigned int *, int);
void pshmem_ulong_atomic_inc(long unsigned int *, int);
long unsigned int pshmem_ulong_atomic_fetch_add(long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_add(long unsigned int *, long unsigned int, int);
long unsigned int pshmem_ulong_atomic_compare_swap(long unsigned int *, long unsigned int, long unsigned int, int);
void pshmem_ulong_atomic_fetch_inc_nbi(long unsigned int *, long unsigned int *, int);
void pshmem_ulong_atomic_fetch_add_nbi(long unsigned int *, long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_compare_swap_nbi(long unsigned int *, long unsigned int *, long unsigned int, long unsigned int, int);
long long unsigned int pshmem_ulonglong_atomic_fetch_inc(long long unsigned int *, int);
void pshmem_ulonglong_atomic_inc(long long unsigned int *, int);
long long unsigned int pshmem_ulonglong_atomic_fetch_add(long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_add(long long unsigned int *, long long unsigned int, int);
long long unsigned int pshmem_ulonglong_atomic_compare_swap(long long unsigned int *, long long unsigned int, long long unsigned int, int);
void pshmem_ulonglong_atomic_fetch_inc_nbi(long long unsigned int *, long long unsigned int *, int);
void pshmem_ulonglong_atomic_fetch_add_nbi(long long unsigned int *, long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_compare_swap_nbi(long long unsigned int *, long long unsigned int *, long long unsigned int, long long unsigned int, int);
int32_t pshmem_int32_atomic_fetch_inc(int32_t *, int);
void pshmem_int32_atomic_inc(int32_t *, int);
int32_t pshmem_int32_atomic_fetch_add(int32_t *, int32_t, int);
void pshmem_int32_atomic_add(int32_t *, int32_t, int);
int32_t pshmem_int32_atomic_compare_swap(int32_t *, int32_t, int32_t, int);
void pshmem_int32_atomic_fetch_inc_nbi(int32_t *, int32_t *, int);
void pshmem_int32_atomic_fetch_add_nbi(int32_t *, int32_t *, int32_t, int);
void pshmem_int32_atomic_compare_swap_nbi(int32_t *, int32_t *, int32_t, int32_t, int);
int64_t pshmem_int64_atomic_fetch_inc(int64_t *, int);
void pshmem_int64_atomic_inc(int64_t *, int);
int64_t pshmem_int64_atomic_fetch_add(int64_t *, int64_t, int);
void pshmem_int64_atomic_add(int64_t *, int64_t, int);
int64_t pshmem_int64_atomic_compare_swap(int64_t *, int64_t, int64_t, int);
void pshmem_int64_atomic_fetch_inc_nbi(int64_t *, int64_t *, int);
void pshmem_int64_atomic_fetch_add_nbi(int64_t *, int64_t *, int64_t, int);
void pshmem_int64_atomic_compare_swap_nbi(int64_t *, int64_t *, int64_t, int64_t, int);
uint32_t pshmem_uint32_atomic_fetch_inc(uint32_t *, int);
void pshmem_uint32_atomic_inc(uint32_t *, int);
uint32_t pshmem_uint32_atomic_fetch_add(uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_add(uint32_t *, uint32_t, int);
uint32_t pshmem_uint32_atomic_compare_swap(uint32_t *, uint32_t, uint32_t, int);
void pshmem_uint32_atomic_fetch_inc_nbi(uint32_t *, uint32_t *, int);
void pshmem_uint32_atomic_fetch_add_nbi(uint32_t *, uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_compare_swap_nbi(uint32_t *, uint32_t *, uint32_t, uint32_t, int);
uint64_t pshmem_uint64_atomic_fetch_inc(uint64_t *, int);
void pshmem_uint64_atomic_inc(uint64_t *, int);
uint64_t pshmem_uint64_atomic_fetch_add(uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_add(uint64_t *, uint64_t, int);
uint64_t pshmem_uint64_atomic_compare_swap(uint64_t *, uint64_t, uint64_t, int);
void pshmem_uint64_atomic_fetch_inc_nbi(uint64_t *, uint64_t *, int);
void pshmem_uint64_atomic_fetch_add_nbi(uint64_t *, uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_compare_swap_nbi(uint64_t *, uint64_t *, uint64_t, uint64_t, int);
size_t pshmem_size_atomic_fetch_inc(size_t *, int);
void pshmem_size_atomic_inc(size_t *, int);
size_t pshmem_size_atomic_fetch_add(size_t *, size_t, int);
void pshmem_size_atomic_add(size_t *, size_t, int);
size_t pshmem_size_atomic_compare_swap(size_t *, size_t, size_t, int);
void pshmem_size_atomic_fetch_inc_nbi(size_t *, size_t *, int);
void pshmem_size_atomic_fetch_add_nbi(size_t *, size_t *, size_t, int);
void pshmem_size_atomic_compare_swap_nbi(size_t *, size_t *, size_t, size_t, int);
ptrdiff_t pshmem_ptrdiff_atomic_fetch_inc(ptrdiff_t *, int);
void pshmem_ptrdiff_atomic_inc(ptrdiff_t *, int);
ptrdiff_t pshmem_ptrdiff_atomic_fetch_add(ptrdiff_t *, ptrdiff_t, int);
void pshmem_ptrdiff_atomic_add(ptrdiff_t *, ptrdiff_t, int);
ptrdiff_t pshmem_ptrdiff_atomic_compare_swap(ptrdiff_t *, ptrdiff_t, ptrdiff_t, int);
void pshmem_ptrdiff_atomic_fetch_inc_nbi(ptrdiff_t *, ptrdiff_t *, int);
void pshmem_ptrdiff_atomic_fetch_add_nbi(ptrdiff_t *, ptrdiff_t *, ptrdiff_t, int);
void pshmem_ptrdiff_atomic_compare_swap_nbi(ptrdiff_t *, ptrdiff_t *, ptrdiff_t, ptrdiff_t, int);
unsigned int pshmem_uint_atomic_fetch_and(unsigned int *, unsigned int, int);
void pshmem_uint_atomic_and(unsigned int *, unsigned int, int);
unsigned int pshmem_uint_atomic_fetch_or(unsigned int *, unsigned int, int);
void pshmem_uint_atomic_or(unsigned int *, unsigned int, int);
unsigned int pshmem_uint_atomic_fetch_xor(unsigned int *, unsigned int, int);
void pshmem_uint_atomic_xor(unsigned int *, unsigned int, int);
void pshmem_uint_atomic_fetch_and_nbi(unsigned int *, unsigned int *, unsigned int, int);
void pshmem_uint_atomic_fetch_or_nbi(unsigned int *, unsigned int *, unsigned int, int);
void pshmem_uint_atomic_fetch_xor_nbi(unsigned int *, unsigned int *, unsigned int, int);
long unsigned int pshmem_ulong_atomic_fetch_and(long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_and(long unsigned int *, long unsigned int, int);
long unsigned int pshmem_ulong_atomic_fetch_or(long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_or(long unsigned int *, long unsigned int, int);
long unsigned int pshmem_ulong_atomic_fetch_xor(long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_xor(long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_fetch_and_nbi(long unsigned int *, long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_fetch_or_nbi(long unsigned int *, long unsigned int *, long unsigned int, int);
void pshmem_ulong_atomic_fetch_xor_nbi(long unsigned int *, long unsigned int *, long unsigned int, int);
long long unsigned int pshmem_ulonglong_atomic_fetch_and(long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_and(long long unsigned int *, long long unsigned int, int);
long long unsigned int pshmem_ulonglong_atomic_fetch_or(long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_or(long long unsigned int *, long long unsigned int, int);
long long unsigned int pshmem_ulonglong_atomic_fetch_xor(long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_xor(long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_fetch_and_nbi(long long unsigned int *, long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_fetch_or_nbi(long long unsigned int *, long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_atomic_fetch_xor_nbi(long long unsigned int *, long long unsigned int *, long long unsigned int, int);
int32_t pshmem_int32_atomic_fetch_and(int32_t *, int32_t, int);
void pshmem_int32_atomic_and(int32_t *, int32_t, int);
int32_t pshmem_int32_atomic_fetch_or(int32_t *, int32_t, int);
void pshmem_int32_atomic_or(int32_t *, int32_t, int);
int32_t pshmem_int32_atomic_fetch_xor(int32_t *, int32_t, int);
void pshmem_int32_atomic_xor(int32_t *, int32_t, int);
void pshmem_int32_atomic_fetch_and_nbi(int32_t *, int32_t *, int32_t, int);
void pshmem_int32_atomic_fetch_or_nbi(int32_t *, int32_t *, int32_t, int);
void pshmem_int32_atomic_fetch_xor_nbi(int32_t *, int32_t *, int32_t, int);
int64_t pshmem_int64_atomic_fetch_and(int64_t *, int64_t, int);
void pshmem_int64_atomic_and(int64_t *, int64_t, int);
int64_t pshmem_int64_atomic_fetch_or(int64_t *, int64_t, int);
void pshmem_int64_atomic_or(int64_t *, int64_t, int);
int64_t pshmem_int64_atomic_fetch_xor(int64_t *, int64_t, int);
void pshmem_int64_atomic_xor(int64_t *, int64_t, int);
void pshmem_int64_atomic_fetch_and_nbi(int64_t *, int64_t *, int64_t, int);
void pshmem_int64_atomic_fetch_or_nbi(int64_t *, int64_t *, int64_t, int);
void pshmem_int64_atomic_fetch_xor_nbi(int64_t *, int64_t *, int64_t, int);
uint32_t pshmem_uint32_atomic_fetch_and(uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_and(uint32_t *, uint32_t, int);
uint32_t pshmem_uint32_atomic_fetch_or(uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_or(uint32_t *, uint32_t, int);
uint32_t pshmem_uint32_atomic_fetch_xor(uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_xor(uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_fetch_and_nbi(uint32_t *, uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_fetch_or_nbi(uint32_t *, uint32_t *, uint32_t, int);
void pshmem_uint32_atomic_fetch_xor_nbi(uint32_t *, uint32_t *, uint32_t, int);
uint64_t pshmem_uint64_atomic_fetch_and(uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_and(uint64_t *, uint64_t, int);
uint64_t pshmem_uint64_atomic_fetch_or(uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_or(uint64_t *, uint64_t, int);
uint64_t pshmem_uint64_atomic_fetch_xor(uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_xor(uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_fetch_and_nbi(uint64_t *, uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_fetch_or_nbi(uint64_t *, uint64_t *, uint64_t, int);
void pshmem_uint64_atomic_fetch_xor_nbi(uint64_t *, uint64_t *, uint64_t, int);
int pshmem_int_finc(int *, int);
void pshmem_int_inc(int *, int);
int pshmem_int_fadd(int *, int, int);
void pshmem_int_add(int *, int, int);
int pshmem_int_cswap(int *, int, int, int);
long int pshmem_long_finc(long int *, int);
void pshmem_long_inc(long int *, int);
long int pshmem_long_fadd(long int *, long int, int);
void pshmem_long_add(long int *, long int, int);
long int pshmem_long_cswap(long int *, long int, long int, int);
long long int pshmem_longlong_finc(long long int *, int);
void pshmem_longlong_inc(long long int *, int);
long long int pshmem_longlong_fadd(long long int *, long long int, int);
void pshmem_longlong_add(long long int *, long long int, int);
long long int pshmem_longlong_cswap(long long int *, long long int, long long int, int);
int pshmem_int_fetch(const int *, int);
void pshmem_int_set(int *, int, int);
int pshmem_int_swap(int *, int, int);
long int pshmem_long_fetch(const long int *, int);
void pshmem_long_set(long int *, long int, int);
long int pshmem_long_swap(long int *, long int, int);
long long int pshmem_longlong_fetch(const long long int *, int);
void pshmem_longlong_set(long long int *, long long int, int);
long long int pshmem_longlong_swap(long long int *, long long int, int);
float pshmem_float_fetch(const float *, int);
void pshmem_float_set(float *, float, int);
float pshmem_float_swap(float *, float, int);
double pshmem_double_fetch(const double *, int);
void pshmem_double_set(double *, double, int);
double pshmem_double_swap(double *, double, int);
int32_t pshmem_int32_finc(int32_t *, int);
void pshmem_int32_inc(int32_t *, int);
int32_t pshmem_int32_fadd(int32_t *, int32_t, int);
void pshmem_int32_add(int32_t *, int32_t, int);
int32_t pshmem_int32_cswap(int32_t *, int32_t, int32_t, int);
int32_t pshmem_int32_fetch(const int32_t *, int);
void pshmem_int32_set(int32_t *, int32_t, int);
int32_t pshmem_int32_swap(int32_t *, int32_t, int);
int64_t pshmem_int64_finc(int64_t *, int);
void pshmem_int64_inc(int64_t *, int);
int64_t pshmem_int64_fadd(int64_t *, int64_t, int);
void pshmem_int64_add(int64_t *, int64_t, int);
int64_t pshmem_int64_cswap(int64_t *, int64_t, int64_t, int);
int64_t pshmem_int64_fetch(const int64_t *, int);
void pshmem_int64_set(int64_t *, int64_t, int);
int64_t pshmem_int64_swap(int64_t *, int64_t, int);
uint32_t pshmem_uint32_finc(uint32_t *, int);
void pshmem_uint32_inc(uint32_t *, int);
uint32_t pshmem_uint32_fadd(uint32_t *, uint32_t, int);
void pshmem_uint32_add(uint32_t *, uint32_t, int);
uint32_t pshmem_uint32_cswap(uint32_t *, uint32_t, uint32_t, int);
uint32_t pshmem_uint32_fetch(const uint32_t *, int);
void pshmem_uint32_set(uint32_t *, uint32_t, int);
uint32_t pshmem_uint32_swap(uint32_t *, uint32_t, int);
uint64_t pshmem_uint64_finc(uint64_t *, int);
void pshmem_uint64_inc(uint64_t *, int);
uint64_t pshmem_uint64_fadd(uint64_t *, uint64_t, int);
void pshmem_uint64_add(uint64_t *, uint64_t, int);
uint64_t pshmem_uint64_cswap(uint64_t *, uint64_t, uint64_t, int);
uint64_t pshmem_uint64_fetch(const uint64_t *, int);
void pshmem_uint64_set(uint64_t *, uint64_t, int);
uint64_t pshmem_uint64_swap(uint64_t *, uint64_t, int);
unsigned int pshmem_uint_finc(unsigned int *, int);
void pshmem_uint_inc(unsigned int *, int);
unsigned int pshmem_uint_fadd(unsigned int *, unsigned int, int);
void pshmem_uint_add(unsigned int *, unsigned int, int);
unsigned int pshmem_uint_cswap(unsigned int *, unsigned int, unsigned int, int);
unsigned int pshmem_uint_fetch(const unsigned int *, int);
void pshmem_uint_set(unsigned int *, unsigned int, int);
unsigned int pshmem_uint_swap(unsigned int *, unsigned int, int);
long unsigned int pshmem_ulong_finc(long unsigned int *, int);
void pshmem_ulong_inc(long unsigned int *, int);
long unsigned int pshmem_ulong_fadd(long unsigned int *, long unsigned int, int);
void pshmem_ulong_add(long unsigned int *, long unsigned int, int);
long unsigned int pshmem_ulong_cswap(long unsigned int *, long unsigned int, long unsigned int, int);
long unsigned int pshmem_ulong_fetch(const long unsigned int *, int);
void pshmem_ulong_set(long unsigned int *, long unsigned int, int);
long unsigned int pshmem_ulong_swap(long unsigned int *, long unsigned int, int);
long long unsigned int pshmem_ulonglong_finc(long long unsigned int *, int);
void pshmem_ulonglong_inc(long long unsigned int *, int);
long long unsigned int pshmem_ulonglong_fadd(long long unsigned int *, long long unsigned int, int);
void pshmem_ulonglong_add(long long unsigned int *, long long unsigned int, int);
long long unsigned int pshmem_ulonglong_cswap(long long unsigned int *, long long unsigned int, long long unsigned int, int);
long long unsigned int pshmem_ulonglong_fetch(const long long unsigned int *, int);
void pshmem_ulonglong_set(long long unsigned int *, long long unsigned int, int);
long long unsigned int pshmem_ulonglong_swap(long long unsigned int *, long long unsigned int, int);
size_t pshmem_size_finc(size_t *, int);
void pshmem_size_inc(size_t *, int);
size_t pshmem_size_fadd(size_t *, size_t, int);
void pshmem_size_add(size_t *, size_t, int);
size_t pshmem_size_cswap(size_t *, size_t, size_t, int);
size_t pshmem_size_fetch(const size_t *, int);
void pshmem_size_set(size_t *, size_t, int);
size_t pshmem_size_swap(size_t *, size_t, int);
ptrdiff_t pshmem_ptrdiff_finc(ptrdiff_t *, int);
void pshmem_ptrdiff_inc(ptrdiff_t *, int);
ptrdiff_t pshmem_ptrdiff_fadd(ptrdiff_t *, ptrdiff_t, int);
void pshmem_ptrdiff_add(ptrdiff_t *, ptrdiff_t, int);
ptrdiff_t pshmem_ptrdiff_cswap(ptrdiff_t *, ptrdiff_t, ptrdiff_t, int);
ptrdiff_t pshmem_ptrdiff_fetch(const ptrdiff_t *, int);
void pshmem_ptrdiff_set(ptrdiff_t *, ptrdiff_t, int);
ptrdiff_t pshmem_ptrdiff_swap(ptrdiff_t *, ptrdiff_t, int);
long int pshmem_swap(long int *, long int, int);
void pshmem_wait(long int *, long int);
void pshmem_wait_until(long int *, int, long int);
void pshmem_clear_cache_inv(void);
void pshmem_set_cache_inv(void);
void pshmem_clear_cache_line_inv(void *);
void pshmem_set_cache_line_inv(void *);
void pshmem_udcflush(void);
void pshmem_udcflush_line(void *);
void pshmem_short_wait_until(short int *, int, short int);
void pshmem_short_wait(short int *, short int);
void pshmem_short_wait_until_all(short int *, size_t, const int *, int, short int);
size_t pshmem_short_wait_until_any(short int *, size_t, const int *, int, short int);
size_t pshmem_short_wait_until_some(short int *, size_t, size_t *, const int *, int, short int);
void pshmem_short_wait_until_all_vector(short int *, size_t, const int *, int, const short int *);
size_t pshmem_short_wait_until_any_vector(short int *, size_t, const int *, int, const short int *);
size_t pshmem_short_wait_until_some_vector(short int *, size_t, size_t *, const int *, int, const short int *);
int pshmem_short_test(short int *, int, short int);
int pshmem_short_test_all(short int *, size_t, const int *, int, short int);
size_t pshmem_short_test_any(short int *, size_t, const int *, int, short int);
size_t pshmem_short_test_some(short int *, size_t, size_t *, const int *, int, short int);
int pshmem_short_test_all_vector(short int *, size_t, const int *, int, const short int *);
size_t pshmem_short_test_any_vector(short int *, size_t, const int *, int, const short int *);
size_t pshmem_short_test_some_vector(short int *, size_t, size_t *, const int *, int, const short int *);
void pshmem_int_wait_until(int *, int, int);
void pshmem_int_wait(int *, int);
void pshmem_int_wait_until_all(int *, size_t, const int *, int, int);
size_t pshmem_int_wait_until_any(int *, size_t, const int *, int, int);
size_t pshmem_int_wait_until_some(int *, size_t, size_t *, const int *, int, int);
void pshmem_int_wait_until_all_vector(int *, size_t, const int *, int, const int *);
size_t pshmem_int_wait_until_any_vector(int *, size_t, const int *, int, const int *);
size_t pshmem_int_wait_until_some_vector(int *, size_t, size_t *, const int *, int, const int *);
int pshmem_int_test(int *, int, int);
int pshmem_int_test_all(int *, size_t, const int *, int, int);
size_t pshmem_int_test_any(int *, size_t, const int *, int, int);
size_t pshmem_int_test_some(int *, size_t, size_t *, const int *, int, int);
int pshmem_int_test_all_vector(int *, size_t, const int *, int, const int *);
size_t pshmem_int_test_any_vector(int *, size_t, const int *, int, const int *);
size_t pshmem_int_test_some_vector(int *, size_t, size_t *, const int *, int, const int *);
void pshmem_long_wait_until(long int *, int, long int);
void pshmem_long_wait(long int *, long int);
void pshmem_long_wait_until_all(long int *, size_t, const int *, int, long int);
size_t pshmem_long_wait_until_any(long int *, size_t, const int *, int, long int);
size_t pshmem_long_wait_until_some(long int *, size_t, size_t *, const int *, int, long int);
void pshmem_long_wait_until_all_vector(long int *, size_t, const int *, int, const long int *);
size_t pshmem_long_wait_until_any_vector(long int *, size_t, const int *, int, const long int *);
size_t pshmem_long_wait_until_some_vector(long int *, size_t, size_t *, const int *, int, const long int *);
int pshmem_long_test(long int *, int, long int);
int pshmem_long_test_all(long int *, size_t, const int *, int, long int);
size_t pshmem_long_test_any(long int *, size_t, const int *, int, long int);
size_t pshmem_long_test_some(long int *, size_t, size_t *, const int *, int, long int);
int pshmem_long_test_all_vector(long int *, size_t, const int *, int, const long int *);
size_t pshmem_long_test_any_vector(long int *, size_t, const int *, int, const long int *);
size_t pshmem_long_test_some_vector(long int *, size_t, size_t *, const int *, int, const long int *);
void pshmem_longlong_wait_until(long long int *, int, long long int);
void pshmem_longlong_wait(long long int *, long long int);
void pshmem_longlong_wait_until_all(long long int *, size_t, const int *, int, long long int);
size_t pshmem_longlong_wait_until_any(long long int *, size_t, const int *, int, long long int);
size_t pshmem_longlong_wait_until_some(long long int *, size_t, size_t *, const int *, int, long long int);
void pshmem_longlong_wait_until_all_vector(long long int *, size_t, const int *, int, const long long int *);
size_t pshmem_longlong_wait_until_any_vector(long long int *, size_t, const int *, int, const long long int *);
size_t pshmem_longlong_wait_until_some_vector(long long int *, size_t, size_t *, const int *, int, const long long int *);
int pshmem_longlong_test(long long int *, int, long long int);
int pshmem_longlong_test_all(long long int *, size_t, const int *, int, long long int);
size_t pshmem_longlong_test_any(long long int *, size_t, const int *, int, long long int);
size_t pshmem_longlong_test_some(long long int *, size_t, size_t *, const int *, int, long long int);
int pshmem_longlong_test_all_vector(long long int *, size_t, const int *, int, const long long int *);
size_t pshmem_longlong_test_any_vector(long long int *, size_t, const int *, int, const long long int *);
size_t pshmem_longlong_test_some_vector(long long int *, size_t, size_t *, const int *, int, const long long int *);
void pshmem_ushort_wait_until(short unsigned int *, int, short unsigned int);
void pshmem_ushort_wait(short unsigned int *, short unsigned int);
void pshmem_ushort_wait_until_all(short unsigned int *, size_t, const int *, int, short unsigned int);
size_t pshmem_ushort_wait_until_any(short unsigned int *, size_t, const int *, int, short unsigned int);
size_t pshmem_ushort_wait_until_some(short unsigned int *, size_t, size_t *, const int *, int, short unsigned int);
void pshmem_ushort_wait_until_all_vector(short unsigned int *, size_t, const int *, int, const short unsigned int *);
size_t pshmem_ushort_wait_until_any_vector(short unsigned int *, size_t, const int *, int, const short unsigned int *);
size_t pshmem_ushort_wait_until_some_vector(short unsigned int *, size_t, size_t *, const int *, int, const short unsigned int *);
int pshmem_ushort_test(short unsigned int *, int, short unsigned int);
int pshmem_ushort_test_all(short unsigned int *, size_t, const int *, int, short unsigned int);
size_t pshmem_ushort_test_any(short unsigned int *, size_t, const int *, int, short unsigned int);
size_t pshmem_ushort_test_some(short unsigned int *, size_t, size_t *, const int *, int, short unsigned int);
int pshmem_ushort_test_all_vector(short unsigned int *, size_t, const int *, int, const short unsigned int *);
size_t pshmem_ushort_test_any_vector(short unsigned int *, size_t, const int *, int, const short unsigned int *);
size_t pshmem_ushort_test_some_vector(short unsigned int *, size_t, size_t *, const int *, int, const short unsigned int *);
void pshmem_uint_wait_until(unsigned int *, int, unsigned int);
void pshmem_uint_wait(unsigned int *, unsigned int);
void pshmem_uint_wait_until_all(unsigned int *, size_t, const int *, int, unsigned int);
size_t pshmem_uint_wait_until_any(unsigned int *, size_t, const int *, int, unsigned int);
size_t pshmem_uint_wait_until_some(unsigned int *, size_t, size_t *, const int *, int, unsigned int);
void pshmem_uint_wait_until_all_vector(unsigned int *, size_t, const int *, int, const unsigned int *);
size_t pshmem_uint_wait_until_any_vector(unsigned int *, size_t, const int *, int, const unsigned int *);
size_t pshmem_uint_wait_until_some_vector(unsigned int *, size_t, size_t *, const int *, int, const unsigned int *);
int pshmem_uint_test(unsigned int *, int, unsigned int);
int pshmem_uint_test_all(unsigned int *, size_t, const int *, int, unsigned int);
size_t pshmem_uint_test_any(unsigned int *, size_t, const int *, int, unsigned int);
size_t pshmem_uint_test_some(unsigned int *, size_t, size_t *, const int *, int, unsigned int);
int pshmem_uint_test_all_vector(unsigned int *, size_t, const int *, int, const unsigned int *);
size_t pshmem_uint_test_any_vector(unsigned int *, size_t, const int *, int, const unsigned int *);
size_t pshmem_uint_test_some_vector(unsigned int *, size_t, size_t *, const int *, int, const unsigned int *);
void pshmem_ulong_wait_until(long unsigned int *, int, long unsigned int);
void pshmem_ulong_wait(long unsigned int *, long unsigned int);
void pshmem_ulong_wait_until_all(long unsigned int *, size_t, const int *, int, long unsigned int);
size_t pshmem_ulong_wait_until_any(long unsigned int *, size_t, const int *, int, long unsigned int);
size_t pshmem_ulong_wait_until_some(long unsigned int *, size_t, size_t *, const int *, int, long unsigned int);
void pshmem_ulong_wait_until_all_vector(long unsigned int *, size_t, const int *, int, const long unsigned int *);
size_t pshmem_ulong_wait_until_any_vector(long unsigned int *, size_t, const int *, int, const long unsigned int *);
size_t pshmem_ulong_wait_until_some_vector(long unsigned int *, size_t, size_t *, const int *, int, const long unsigned int *);
int pshmem_ulong_test(long unsigned int *, int, long unsigned int);
int pshmem_ulong_test_all(long unsigned int *, size_t, const int *, int, long unsigned int);
size_t pshmem_ulong_test_any(long unsigned int *, size_t, const int *, int, long unsigned int);
size_t pshmem_ulong_test_some(long unsigned int *, size_t, size_t *, const int *, int, long unsigned int);
int pshmem_ulong_test_all_vector(long unsigned int *, size_t, const int *, int, const long unsigned int *);
size_t pshmem_ulong_test_any_vector(long unsigned int *, size_t, const int *, int, const long unsigned int *);
size_t pshmem_ulong_test_some_vector(long unsigned int *, size_t, size_t *, const int *, int, const long unsigned int *);
void pshmem_ulonglong_wait_until(long long unsigned int *, int, long long unsigned int);
void pshmem_ulonglong_wait(long long unsigned int *, long long unsigned int);
void pshmem_ulonglong_wait_until_all(long long unsigned int *, size_t, const int *, int, long long unsigned int);
size_t pshmem_ulonglong_wait_until_any(long long unsigned int *, size_t, const int *, int, long long unsigned int);
size_t pshmem_ulonglong_wait_until_some(long long unsigned int *, size_t, size_t *, const int *, int, long long unsigned int);
void pshmem_ulonglong_wait_until_all_vector(long long unsigned int *, size_t, const int *, int, const long long unsigned int *);
size_t pshmem_ulonglong_wait_until_any_vector(long long unsigned int *, size_t, const int *, int, const long long unsigned int *);
size_t pshmem_ulonglong_wait_until_some_vector(long long unsigned int *, size_t, size_t *, const int *, int, const long long unsigned int *);
int pshmem_ulonglong_test(long long unsigned int *, int, long long unsigned int);
int pshmem_ulonglong_test_all(long long unsigned int *, size_t, const int *, int, long long unsigned int);
size_t pshmem_ulonglong_test_any(long long unsigned int *, size_t, const int *, int, long long unsigned int);
size_t pshmem_ulonglong_test_some(long long unsigned int *, size_t, size_t *, const int *, int, long long unsigned int);
int pshmem_ulonglong_test_all_vector(long long unsigned int *, size_t, const int *, int, const long long unsigned int *);
size_t pshmem_ulonglong_test_any_vector(long long unsigned int *, size_t, const int *, int, const long long unsigned int *);
size_t pshmem_ulonglong_test_some_vector(long long unsigned int *, size_t, size_t *, const int *, int, const long long unsigned int *);
void pshmem_int32_wait_until(int32_t *, int, int32_t);
void pshmem_int32_wait(int32_t *, int32_t);
void pshmem_int32_wait_until_all(int32_t *, size_t, const int *, int, int32_t);
size_t pshmem_int32_wait_until_any(int32_t *, size_t, const int *, int, int32_t);
size_t pshmem_int32_wait_until_some(int32_t *, size_t, size_t *, const int *, int, int32_t);
void pshmem_int32_wait_until_all_vector(int32_t *, size_t, const int *, int, const int32_t *);
size_t pshmem_int32_wait_until_any_vector(int32_t *, size_t, const int *, int, const int32_t *);
size_t pshmem_int32_wait_until_some_vector(int32_t *, size_t, size_t *, const int *, int, const int32_t *);
int pshmem_int32_test(int32_t *, int, int32_t);
int pshmem_int32_test_all(int32_t *, size_t, const int *, int, int32_t);
size_t pshmem_int32_test_any(int32_t *, size_t, const int *, int, int32_t);
size_t pshmem_int32_test_some(int32_t *, size_t, size_t *, const int *, int, int32_t);
int pshmem_int32_test_all_vector(int32_t *, size_t, const int *, int, const int32_t *);
size_t pshmem_int32_test_any_vector(int32_t *, size_t, const int *, int, const int32_t *);
size_t pshmem_int32_test_some_vector(int32_t *, size_t, size_t *, const int *, int, const int32_t *);
void pshmem_int64_wait_until(int64_t *, int, int64_t);
void pshmem_int64_wait(int64_t *, int64_t);
void pshmem_int64_wait_until_all(int64_t *, size_t, const int *, int, int64_t);
size_t pshmem_int64_wait_until_any(int64_t *, size_t, const int *, int, int64_t);
size_t pshmem_int64_wait_until_some(int64_t *, size_t, size_t *, const int *, int, int64_t);
void pshmem_int64_wait_until_all_vector(int64_t *, size_t, const int *, int, const int64_t *);
size_t pshmem_int64_wait_until_any_vector(int64_t *, size_t, const int *, int, const int64_t *);
size_t pshmem_int64_wait_until_some_vector(int64_t *, size_t, size_t *, const int *, int, const int64_t *);
int pshmem_int64_test(int64_t *, int, int64_t);
int pshmem_int64_test_all(int64_t *, size_t, const int *, int, int64_t);
size_t pshmem_int64_test_any(int64_t *, size_t, const int *, int, int64_t);
size_t pshmem_int64_test_some(int64_t *, size_t, size_t *, const int *, int, int64_t);
int pshmem_int64_test_all_vector(int64_t *, size_t, const int *, int, const int64_t *);
size_t pshmem_int64_test_any_vector(int64_t *, size_t, const int *, int, const int64_t *);
size_t pshmem_int64_test_some_vector(int64_t *, size_t, size_t *, const int *, int, const int64_t *);
void pshmem_uint32_wait_until(uint32_t *, int, uint32_t);
void pshmem_uint32_wait(uint32_t *, uint32_t);
void pshmem_uint32_wait_until_all(uint32_t *, size_t, const int *, int, uint32_t);
size_t pshmem_uint32_wait_until_any(uint32_t *, size_t, const int *, int, uint32_t);
size_t pshmem_uint32_wait_until_some(uint32_t *, size_t, size_t *, const int *, int, uint32_t);
void pshmem_uint32_wait_until_all_vector(uint32_t *, size_t, const int *, int, const uint32_t *);
size_t pshmem_uint32_wait_until_any_vector(uint32_t *, size_t, const int *, int, const uint32_t *);
size_t pshmem_uint32_wait_until_some_vector(uint32_t *, size_t, size_t *, const int *, int, const uint32_t *);
int pshmem_uint32_test(uint32_t *, int, uint32_t);
int pshmem_uint32_test_all(uint32_t *, size_t, const int *, int, uint32_t);
size_t pshmem_uint32_test_any(uint32_t *, size_t, const int *, int, uint32_t);
size_t pshmem_uint32_test_some(uint32_t *, size_t, size_t *, const int *, int, uint32_t);
int pshmem_uint32_test_all_vector(uint32_t *, size_t, const int *, int, const uint32_t *);
size_t pshmem_uint32_test_any_vector(uint32_t *, size_t, const int *, int, const uint32_t *);
size_t pshmem_uint32_test_some_vector(uint32_t *, size_t, size_t *, const int *, int, const uint32_t *);
void pshmem_uint64_wait_until(uint64_t *, int, uint64_t);
void pshmem_uint64_wait(uint64_t *, uint64_t);
void pshmem_uint64_wait_until_all(uint64_t *, size_t, const int *, int, uint64_t);
size_t pshmem_uint64_wait_until_any(uint64_t *, size_t, const int *, int, uint64_t);
size_t pshmem_uint64_wait_until_some(uint64_t *, size_t, size_t *, const int *, int, uint64_t);
void pshmem_uint64_wait_until_all_vector(uint64_t *, size_t, const int *, int, const uint64_t *);
size_t pshmem_uint64_wait_until_any_vector(uint64_t *, size_t, const int *, int, const uint64_t *);
size_t pshmem_uint64_wait_until_some_vector(uint64_t *, size_t, size_t *, const int *, int, const uint64_t *);
int pshmem_uint64_test(uint64_t *, int, uint64_t);
int pshmem_uint64_test_all(uint64_t *, size_t, const int *, int, uint64_t);
size_t pshmem_uint64_test_any(uint64_t *, size_t, const int *, int, uint64_t);
size_t pshmem_uint64_test_some(uint64_t *, size_t, size_t *, const int *, int, uint64_t);
int pshmem_uint64_test_all_vector(uint64_t *, size_t, const int *, int, const uint64_t *);
size_t pshmem_uint64_test_any_vector(uint64_t *, size_t, const int *, int, const uint64_t *);
size_t pshmem_uint64_test_some_vector(uint64_t *, size_t, size_t *, const int *, int, const uint64_t *);
void pshmem_size_wait_until(size_t *, int, size_t);
void pshmem_size_wait(size_t *, size_t);
void pshmem_size_wait_until_all(size_t *, size_t, const int *, int, size_t);
size_t pshmem_size_wait_until_any(size_t *, size_t, const int *, int, size_t);
size_t pshmem_size_wait_until_some(size_t *, size_t, size_t *, const int *, int, size_t);
void pshmem_size_wait_until_all_vector(size_t *, size_t, const int *, int, const size_t *);
size_t pshmem_size_wait_until_any_vector(size_t *, size_t, const int *, int, const size_t *);
size_t pshmem_size_wait_until_some_vector(size_t *, size_t, size_t *, const int *, int, const size_t *);
int pshmem_size_test(size_t *, int, size_t);
int pshmem_size_test_all(size_t *, size_t, const int *, int, size_t);
size_t pshmem_size_test_any(size_t *, size_t, const int *, int, size_t);
size_t pshmem_size_test_some(size_t *, size_t, size_t *, const int *, int, size_t);
int pshmem_size_test_all_vector(size_t *, size_t, const int *, int, const size_t *);
size_t pshmem_size_test_any_vector(size_t *, size_t, const int *, int, const size_t *);
size_t pshmem_size_test_some_vector(size_t *, size_t, size_t *, const int *, int, const size_t *);
void pshmem_ptrdiff_wait_until(ptrdiff_t *, int, ptrdiff_t);
void pshmem_ptrdiff_wait(ptrdiff_t *, ptrdiff_t);
void pshmem_ptrdiff_wait_until_all(ptrdiff_t *, size_t, const int *, int, ptrdiff_t);
size_t pshmem_ptrdiff_wait_until_any(ptrdiff_t *, size_t, const int *, int, ptrdiff_t);
size_t pshmem_ptrdiff_wait_until_some(ptrdiff_t *, size_t, size_t *, const int *, int, ptrdiff_t);
void pshmem_ptrdiff_wait_until_all_vector(ptrdiff_t *, size_t, const int *, int, const ptrdiff_t *);
size_t pshmem_ptrdiff_wait_until_any_vector(ptrdiff_t *, size_t, const int *, int, const ptrdiff_t *);
size_t pshmem_ptrdiff_wait_until_some_vector(ptrdiff_t *, size_t, size_t *, const int *, int, const ptrdiff_t *);
int pshmem_ptrdiff_test(ptrdiff_t *, int, ptrdiff_t);
int pshmem_ptrdiff_test_all(ptrdiff_t *, size_t, const int *, int, ptrdiff_t);
size_t pshmem_ptrdiff_test_any(ptrdiff_t *, size_t, const int *, int, ptrdiff_t);
size_t pshmem_ptrdiff_test_some(ptrdiff_t *, size_t, size_t *, const int *, int, ptrdiff_t);
int pshmem_ptrdiff_test_all_vector(ptrdiff_t *, size_t, const int *, int, const ptrdiff_t *);
size_t pshmem_ptrdiff_test_any_vector(ptrdiff_t *, size_t, const int *, int, const ptrdiff_t *);
size_t pshmem_ptrdiff_test_some_vector(ptrdiff_t *, size_t, size_t *, const int *, int, const ptrdiff_t *);
void pshmem_broadcast32(void *, const void *, size_t, int, int, int, int, long int *);
void pshmem_broadcast64(void *, const void *, size_t, int, int, int, int, long int *);
void pshmem_collect32(void *, const void *, size_t, int, int, int, long int *);
void pshmem_collect64(void *, const void *, size_t, int, int, int, long int *);
void pshmem_fcollect32(void *, const void *, size_t, int, int, int, long int *);
void pshmem_fcollect64(void *, const void *, size_t, int, int, int, long int *);
void pshmem_alltoall32(void *, const void *, size_t, int, int, int, long int *);
void pshmem_alltoall64(void *, const void *, size_t, int, int, int, long int *);
int pshmem_alltoallmem(shmem_team_t, void *, const void *, size_t);
int pshmem_float_broadcast(shmem_team_t, float *, const float *, size_t, int);
int pshmem_float_collect(shmem_team_t, float *, const float *, size_t);
int pshmem_float_fcollect(shmem_team_t, float *, const float *, size_t);
int pshmem_float_alltoall(shmem_team_t, float *, const float *, size_t);
int pshmem_double_broadcast(shmem_team_t, double *, const double *, size_t, int);
int pshmem_double_collect(shmem_team_t, double *, const double *, size_t);
int pshmem_double_fcollect(shmem_team_t, double *, const double *, size_t);
int pshmem_double_alltoall(shmem_team_t, double *, const double *, size_t);
int pshmem_char_broadcast(shmem_team_t, char *, const char *, size_t, int);
int pshmem_char_collect(shmem_team_t, char *, const char *, size_t);
int pshmem_char_fcollect(shmem_team_t, char *, const char *, size_t);
int pshmem_char_alltoall(shmem_team_t, char *, const char *, size_t);
int pshmem_schar_broadcast(shmem_team_t, signed char *, const signed char *, size_t, int);
int pshmem_schar_collect(shmem_team_t, signed char *, const signed char *, size_t);
int pshmem_schar_fcollect(shmem_team_t, signed char *, const signed char *, size_t);
int pshmem_schar_alltoall(shmem_team_t, signed char *, const signed char *, size_t);
int pshmem_short_broadcast(shmem_team_t, short int *, const short int *, size_t, int);
int pshmem_short_collect(shmem_team_t, short int *, const short int *, size_t);
int pshmem_short_fcollect(shmem_team_t, short int *, const short int *, size_t);
int pshmem_short_alltoall(shmem_team_t, short int *, const short int *, size_t);
int pshmem_int_broadcast(shmem_team_t, int *, const int *, size_t, int);
int pshmem_int_collect(shmem_team_t, int *, const int *, size_t);
int pshmem_int_fcollect(shmem_team_t, int *, const int *, size_t);
int pshmem_int_alltoall(shmem_team_t, int *, const int *, size_t);
int pshmem_long_broadcast(shmem_team_t, long int *, const long int *, size_t, int);
int pshmem_long_collect(shmem_team_t, long int *, const long int *, size_t);
int pshmem_long_fcollect(shmem_team_t, long int *, const long int *, size_t);
int pshmem_long_alltoall(shmem_team_t, long int *, const long int *, size_t);
int pshmem_longlong_broadcast(shmem_team_t, long long int *, const long long int *, size_t, int);
int pshmem_longlong_collect(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_longlong_fcollect(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_longlong_alltoall(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_uchar_broadcast(shmem_team_t, unsigned char *, const unsigned char *, size_t, int);
int pshmem_uchar_collect(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_uchar_fcollect(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_uchar_alltoall(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_ushort_broadcast(shmem_team_t, short unsigned int *, const short unsigned int *, size_t, int);
int pshmem_ushort_collect(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_ushort_fcollect(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_ushort_alltoall(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_uint_broadcast(shmem_team_t, unsigned int *, const unsigned int *, size_t, int);
int pshmem_uint_collect(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_uint_fcollect(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_uint_alltoall(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_ulong_broadcast(shmem_team_t, long unsigned int *, const long unsigned int *, size_t, int);
int pshmem_ulong_collect(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulong_fcollect(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulong_alltoall(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulonglong_broadcast(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t, int);
int pshmem_ulonglong_collect(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_ulonglong_fcollect(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_ulonglong_alltoall(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_int8_broadcast(shmem_team_t, int8_t *, const int8_t *, size_t, int);
int pshmem_int8_collect(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int8_fcollect(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int8_alltoall(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int16_broadcast(shmem_team_t, int16_t *, const int16_t *, size_t, int);
int pshmem_int16_collect(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int16_fcollect(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int16_alltoall(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int32_broadcast(shmem_team_t, int32_t *, const int32_t *, size_t, int);
int pshmem_int32_collect(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int32_fcollect(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int32_alltoall(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int64_broadcast(shmem_team_t, int64_t *, const int64_t *, size_t, int);
int pshmem_int64_collect(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_int64_fcollect(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_int64_alltoall(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_uint8_broadcast(shmem_team_t, uint8_t *, const uint8_t *, size_t, int);
int pshmem_uint8_collect(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint8_fcollect(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint8_alltoall(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint16_broadcast(shmem_team_t, uint16_t *, const uint16_t *, size_t, int);
int pshmem_uint16_collect(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint16_fcollect(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint16_alltoall(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint32_broadcast(shmem_team_t, uint32_t *, const uint32_t *, size_t, int);
int pshmem_uint32_collect(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint32_fcollect(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint32_alltoall(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint64_broadcast(shmem_team_t, uint64_t *, const uint64_t *, size_t, int);
int pshmem_uint64_collect(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_uint64_fcollect(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_uint64_alltoall(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_size_broadcast(shmem_team_t, size_t *, const size_t *, size_t, int);
int pshmem_size_collect(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_size_fcollect(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_size_alltoall(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_ptrdiff_broadcast(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, size_t, int);
int pshmem_ptrdiff_collect(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, size_t);
int pshmem_ptrdiff_fcollect(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, size_t);
int pshmem_ptrdiff_alltoall(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, size_t);
int pshmem_longdouble_broadcast(shmem_team_t, long double *, const long double *, size_t, int);
int pshmem_longdouble_collect(shmem_team_t, long double *, const long double *, size_t);
int pshmem_longdouble_fcollect(shmem_team_t, long double *, const long double *, size_t);
int pshmem_longdouble_alltoall(shmem_team_t, long double *, const long double *, size_t);
int pshmem_broadcastmem(shmem_team_t, void *, const void *, size_t, int);
int pshmem_collectmem(shmem_team_t, void *, const void *, size_t);
int pshmem_fcollectmem(shmem_team_t, void *, const void *, size_t);
void pshmem_short_and_to_all(short int *, const short int *, int, int, int, int, short int *, long int *);
void pshmem_int_and_to_all(int *, const int *, int, int, int, int, int *, long int *);
void pshmem_long_and_to_all(long int *, const long int *, int, int, int, int, long int *, long int *);
void pshmem_longlong_and_to_all(long long int *, const long long int *, int, int, int, int, long long int *, long int *);
void pshmem_short_or_to_all(short int *, const short int *, int, int, int, int, short int *, long int *);
void pshmem_int_or_to_all(int *, const int *, int, int, int, int, int *, long int *);
void pshmem_long_or_to_all(long int *, const long int *, int, int, int, int, long int *, long int *);
void pshmem_longlong_or_to_all(long long int *, const long long int *, int, int, int, int, long long int *, long int *);
void pshmem_short_xor_to_all(short int *, const short int *, int, int, int, int, short int *, long int *);
void pshmem_int_xor_to_all(int *, const int *, int, int, int, int, int *, long int *);
void pshmem_long_xor_to_all(long int *, const long int *, int, int, int, int, long int *, long int *);
void pshmem_longlong_xor_to_all(long long int *, const long long int *, int, int, int, int, long long int *, long int *);
void pshmem_short_max_to_all(short int *, const short int *, int, int, int, int, short int *, long int *);
void pshmem_int_max_to_all(int *, const int *, int, int, int, int, int *, long int *);
void pshmem_long_max_to_all(long int *, const long int *, int, int, int, int, long int *, long int *);
void pshmem_longlong_max_to_all(long long int *, const long long int *, int, int, int, int, long long int *, long int *);
void pshmem_float_max_to_all(float *, const float *, int, int, int, int, float *, long int *);
void pshmem_double_max_to_all(double *, const double *, int, int, int, int, double *, long int *);
void pshmem_short_min_to_all(short int *, const short int *, int, int, int, int, short int *, long int *);
void pshmem_int_min_to_all(int *, const int *, int, int, int, int, int *, long int *);
void pshmem_long_min_to_all(long int *, const long int *, int, int, int, int, long int *, long int *);
void pshmem_longlong_min_to_all(long long int *, const long long int *, int, int, int, int, long long int *, long int *);
void pshmem_float_min_to_all(float *, const float *, int, int, int, int, float *, long int *);
void pshmem_double_min_to_all(double *, const double *, int, int, int, int, double *, long int *);
void pshmem_short_sum_to_all(short int *, const short int *, int, int, int, int, short int *, long int *);
void pshmem_int_sum_to_all(int *, const int *, int, int, int, int, int *, long int *);
void pshmem_long_sum_to_all(long int *, const long int *, int, int, int, int, long int *, long int *);
void pshmem_longlong_sum_to_all(long long int *, const long long int *, int, int, int, int, long long int *, long int *);
void pshmem_float_sum_to_all(float *, const float *, int, int, int, int, float *, long int *);
void pshmem_double_sum_to_all(double *, const double *, int, int, int, int, double *, long int *);
void pshmem_short_prod_to_all(short int *, const short int *, int, int, int, int, short int *, long int *);
void pshmem_int_prod_to_all(int *, const int *, int, int, int, int, int *, long int *);
void pshmem_long_prod_to_all(long int *, const long int *, int, int, int, int, long int *, long int *);
void pshmem_longlong_prod_to_all(long long int *, const long long int *, int, int, int, int, long long int *, long int *);
void pshmem_float_prod_to_all(float *, const float *, int, int, int, int, float *, long int *);
void pshmem_double_prod_to_all(double *, const double *, int, int, int, int, double *, long int *);
int pshmem_uchar_and_reduce(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_ushort_and_reduce(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_uint_and_reduce(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_ulong_and_reduce(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulonglong_and_reduce(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_int8_and_reduce(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int16_and_reduce(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int32_and_reduce(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int64_and_reduce(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_uint8_and_reduce(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint16_and_reduce(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint32_and_reduce(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint64_and_reduce(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_size_and_reduce(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_uchar_or_reduce(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_ushort_or_reduce(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_uint_or_reduce(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_ulong_or_reduce(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulonglong_or_reduce(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_int8_or_reduce(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int16_or_reduce(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int32_or_reduce(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int64_or_reduce(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_uint8_or_reduce(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint16_or_reduce(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint32_or_reduce(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint64_or_reduce(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_size_or_reduce(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_uchar_xor_reduce(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_ushort_xor_reduce(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_uint_xor_reduce(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_ulong_xor_reduce(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulonglong_xor_reduce(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_int8_xor_reduce(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int16_xor_reduce(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int32_xor_reduce(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int64_xor_reduce(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_uint8_xor_reduce(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint16_xor_reduce(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint32_xor_reduce(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint64_xor_reduce(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_size_xor_reduce(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_short_and_reduce(shmem_team_t, short int *, const short int *, size_t);
int pshmem_int_and_reduce(shmem_team_t, int *, const int *, size_t);
int pshmem_long_and_reduce(shmem_team_t, long int *, const long int *, size_t);
int pshmem_longlong_and_reduce(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_short_or_reduce(shmem_team_t, short int *, const short int *, size_t);
int pshmem_int_or_reduce(shmem_team_t, int *, const int *, size_t);
int pshmem_long_or_reduce(shmem_team_t, long int *, const long int *, size_t);
int pshmem_longlong_or_reduce(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_short_xor_reduce(shmem_team_t, short int *, const short int *, size_t);
int pshmem_int_xor_reduce(shmem_team_t, int *, const int *, size_t);
int pshmem_long_xor_reduce(shmem_team_t, long int *, const long int *, size_t);
int pshmem_longlong_xor_reduce(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_char_max_reduce(shmem_team_t, char *, const char *, size_t);
int pshmem_schar_max_reduce(shmem_team_t, signed char *, const signed char *, size_t);
int pshmem_short_max_reduce(shmem_team_t, short int *, const short int *, size_t);
int pshmem_int_max_reduce(shmem_team_t, int *, const int *, size_t);
int pshmem_long_max_reduce(shmem_team_t, long int *, const long int *, size_t);
int pshmem_longlong_max_reduce(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_ptrdiff_max_reduce(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, size_t);
int pshmem_uchar_max_reduce(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_ushort_max_reduce(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_uint_max_reduce(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_ulong_max_reduce(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulonglong_max_reduce(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_int8_max_reduce(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int16_max_reduce(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int32_max_reduce(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int64_max_reduce(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_uint8_max_reduce(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint16_max_reduce(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint32_max_reduce(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint64_max_reduce(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_size_max_reduce(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_float_max_reduce(shmem_team_t, float *, const float *, size_t);
int pshmem_double_max_reduce(shmem_team_t, double *, const double *, size_t);
int pshmem_char_min_reduce(shmem_team_t, char *, const char *, size_t);
int pshmem_schar_min_reduce(shmem_team_t, signed char *, const signed char *, size_t);
int pshmem_short_min_reduce(shmem_team_t, short int *, const short int *, size_t);
int pshmem_int_min_reduce(shmem_team_t, int *, const int *, size_t);
int pshmem_long_min_reduce(shmem_team_t, long int *, const long int *, size_t);
int pshmem_longlong_min_reduce(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_ptrdiff_min_reduce(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, size_t);
int pshmem_uchar_min_reduce(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_ushort_min_reduce(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_uint_min_reduce(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_ulong_min_reduce(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulonglong_min_reduce(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_int8_min_reduce(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int16_min_reduce(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int32_min_reduce(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int64_min_reduce(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_uint8_min_reduce(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint16_min_reduce(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint32_min_reduce(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint64_min_reduce(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_size_min_reduce(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_float_min_reduce(shmem_team_t, float *, const float *, size_t);
int pshmem_double_min_reduce(shmem_team_t, double *, const double *, size_t);
int pshmem_char_sum_reduce(shmem_team_t, char *, const char *, size_t);
int pshmem_schar_sum_reduce(shmem_team_t, signed char *, const signed char *, size_t);
int pshmem_short_sum_reduce(shmem_team_t, short int *, const short int *, size_t);
int pshmem_int_sum_reduce(shmem_team_t, int *, const int *, size_t);
int pshmem_long_sum_reduce(shmem_team_t, long int *, const long int *, size_t);
int pshmem_longlong_sum_reduce(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_ptrdiff_sum_reduce(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, size_t);
int pshmem_uchar_sum_reduce(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_ushort_sum_reduce(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_uint_sum_reduce(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_ulong_sum_reduce(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulonglong_sum_reduce(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_int8_sum_reduce(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int16_sum_reduce(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int32_sum_reduce(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int64_sum_reduce(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_uint8_sum_reduce(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint16_sum_reduce(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint32_sum_reduce(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint64_sum_reduce(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_size_sum_reduce(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_float_sum_reduce(shmem_team_t, float *, const float *, size_t);
int pshmem_double_sum_reduce(shmem_team_t, double *, const double *, size_t);
int pshmem_char_prod_reduce(shmem_team_t, char *, const char *, size_t);
int pshmem_schar_prod_reduce(shmem_team_t, signed char *, const signed char *, size_t);
int pshmem_short_prod_reduce(shmem_team_t, short int *, const short int *, size_t);
int pshmem_int_prod_reduce(shmem_team_t, int *, const int *, size_t);
int pshmem_long_prod_reduce(shmem_team_t, long int *, const long int *, size_t);
int pshmem_longlong_prod_reduce(shmem_team_t, long long int *, const long long int *, size_t);
int pshmem_ptrdiff_prod_reduce(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, size_t);
int pshmem_uchar_prod_reduce(shmem_team_t, unsigned char *, const unsigned char *, size_t);
int pshmem_ushort_prod_reduce(shmem_team_t, short unsigned int *, const short unsigned int *, size_t);
int pshmem_uint_prod_reduce(shmem_team_t, unsigned int *, const unsigned int *, size_t);
int pshmem_ulong_prod_reduce(shmem_team_t, long unsigned int *, const long unsigned int *, size_t);
int pshmem_ulonglong_prod_reduce(shmem_team_t, long long unsigned int *, const long long unsigned int *, size_t);
int pshmem_int8_prod_reduce(shmem_team_t, int8_t *, const int8_t *, size_t);
int pshmem_int16_prod_reduce(shmem_team_t, int16_t *, const int16_t *, size_t);
int pshmem_int32_prod_reduce(shmem_team_t, int32_t *, const int32_t *, size_t);
int pshmem_int64_prod_reduce(shmem_team_t, int64_t *, const int64_t *, size_t);
int pshmem_uint8_prod_reduce(shmem_team_t, uint8_t *, const uint8_t *, size_t);
int pshmem_uint16_prod_reduce(shmem_team_t, uint16_t *, const uint16_t *, size_t);
int pshmem_uint32_prod_reduce(shmem_team_t, uint32_t *, const uint32_t *, size_t);
int pshmem_uint64_prod_reduce(shmem_team_t, uint64_t *, const uint64_t *, size_t);
int pshmem_size_prod_reduce(shmem_team_t, size_t *, const size_t *, size_t);
int pshmem_float_prod_reduce(shmem_team_t, float *, const float *, size_t);
int pshmem_double_prod_reduce(shmem_team_t, double *, const double *, size_t);
int pshmem_alltoallsmem(shmem_team_t, void *, const void *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_float_alltoalls(shmem_team_t, float *, const float *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_double_alltoalls(shmem_team_t, double *, const double *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_char_alltoalls(shmem_team_t, char *, const char *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_schar_alltoalls(shmem_team_t, signed char *, const signed char *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_short_alltoalls(shmem_team_t, short int *, const short int *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_int_alltoalls(shmem_team_t, int *, const int *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_long_alltoalls(shmem_team_t, long int *, const long int *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_longlong_alltoalls(shmem_team_t, long long int *, const long long int *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_uchar_alltoalls(shmem_team_t, unsigned char *, const unsigned char *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_ushort_alltoalls(shmem_team_t, short unsigned int *, const short unsigned int *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_uint_alltoalls(shmem_team_t, unsigned int *, const unsigned int *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_ulong_alltoalls(shmem_team_t, long unsigned int *, const long unsigned int *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_ulonglong_alltoalls(shmem_team_t, long long unsigned int *, const long long unsigned int *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_int8_alltoalls(shmem_team_t, int8_t *, const int8_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_int16_alltoalls(shmem_team_t, int16_t *, const int16_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_int32_alltoalls(shmem_team_t, int32_t *, const int32_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_int64_alltoalls(shmem_team_t, int64_t *, const int64_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_uint8_alltoalls(shmem_team_t, uint8_t *, const uint8_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_uint16_alltoalls(shmem_team_t, uint16_t *, const uint16_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_uint32_alltoalls(shmem_team_t, uint32_t *, const uint32_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_uint64_alltoalls(shmem_team_t, uint64_t *, const uint64_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_size_alltoalls(shmem_team_t, size_t *, const size_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_ptrdiff_alltoalls(shmem_team_t, ptrdiff_t *, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, size_t);
int pshmem_longdouble_alltoalls(shmem_team_t, long double *, const long double *, ptrdiff_t, ptrdiff_t, size_t);
void pshmem_alltoalls32(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int, int, int, long int *);
void pshmem_alltoalls64(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int, int, int, long int *);
int pshmem_complexf_sum_reduce(shmem_team_t, float _Complex *, const float _Complex *, size_t);
void pshmem_complexf_sum_to_all(float _Complex *, const float _Complex *, int, int, int, int, float _Complex *, long int *);
int pshmem_complexf_prod_reduce(shmem_team_t, float _Complex *, const float _Complex *, size_t);
void pshmem_complexf_prod_to_all(float _Complex *, const float _Complex *, int, int, int, int, float _Complex *, long int *);
int pshmem_complexd_sum_reduce(shmem_team_t, double _Complex *, const double _Complex *, size_t);
void pshmem_complexd_sum_to_all(double _Complex *, const double _Complex *, int, int, int, int, double _Complex *, long int *);
int pshmem_complexd_prod_reduce(shmem_team_t, double _Complex *, const double _Complex *, size_t);
void pshmem_complexd_prod_to_all(double _Complex *, const double _Complex *, int, int, int, int, double _Complex *, long int *);
void pshmem_pcontrol(const int , ...);
void pshmemx_ct_create(shmemx_ct_t *);
void pshmemx_ct_free(shmemx_ct_t *);
long int pshmemx_ct_get(shmemx_ct_t);
void pshmemx_ct_set(shmemx_ct_t, long int);
void pshmemx_ct_wait(shmemx_ct_t, long int);
void pshmemx_putmem_ct(shmemx_ct_t, void *, const void *, size_t, int);
long int pshmemx_heap_used(void);

/* shmem.h's inline routines (the context forms, long double p/g and reductions) under
 * their profiling names: a context form calls the profiling name of the routine
 * without a context, the others shmem.h's inline routine. */
static inline void pshmem_longdouble_p(long double *dest, long double value, int pe) { shmem_longdouble_p(dest, value, pe); }
static inline long double pshmem_longdouble_g(const long double *source, int pe) { return shmem_longdouble_g(source, pe); }
static inline int pshmem_longdouble_max_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return shmem_longdouble_max_reduce(team, dest, source, nreduce); }
static inline void pshmem_longdouble_max_to_all(long double *dest, const long double *source, int nreduce, int PE_start, int logPE_stride, int PE_size, long double *pWrk, long int *pSync) { shmem_longdouble_max_to_all(dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync); }
static inline int pshmem_longdouble_min_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return shmem_longdouble_min_reduce(team, dest, source, nreduce); }
static inline void pshmem_longdouble_min_to_all(long double *dest, const long double *source, int nreduce, int PE_start, int logPE_stride, int PE_size, long double *pWrk, long int *pSync) { shmem_longdouble_min_to_all(dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync); }
static inline int pshmem_longdouble_sum_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return shmem_longdouble_sum_reduce(team, dest, source, nreduce); }
static inline void pshmem_longdouble_sum_to_all(long double *dest, const long double *source, int nreduce, int PE_start, int logPE_stride, int PE_size, long double *pWrk, long int *pSync) { shmem_longdouble_sum_to_all(dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync); }
static inline int pshmem_longdouble_prod_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return shmem_longdouble_prod_reduce(team, dest, source, nreduce); }
static inline void pshmem_longdouble_prod_to_all(long double *dest, const long double *source, int nreduce, int PE_start, int logPE_stride, int PE_size, long double *pWrk, long int *pSync) { shmem_longdouble_prod_to_all(dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync); }
static inline void pshmem_ctx_float_put(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { pshmem_float_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_get(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { pshmem_float_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_put_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { pshmem_float_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_get_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { pshmem_float_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_iput(shmem_ctx_t ctx, float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_float_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_iget(shmem_ctx_t ctx, float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_float_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_put_signal(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_float_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_put_signal_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_float_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_p(shmem_ctx_t ctx, float *dest, float value, int pe) { pshmem_float_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline float pshmem_ctx_float_g(shmem_ctx_t ctx, const float *source, int pe) { return pshmem_float_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_put(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { pshmem_double_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_get(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { pshmem_double_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_put_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { pshmem_double_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_get_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { pshmem_double_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_iput(shmem_ctx_t ctx, double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_double_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_iget(shmem_ctx_t ctx, double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_double_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_put_signal(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_double_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_put_signal_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_double_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_p(shmem_ctx_t ctx, double *dest, double value, int pe) { pshmem_double_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline double pshmem_ctx_double_g(shmem_ctx_t ctx, const double *source, int pe) { return pshmem_double_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_put(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { pshmem_char_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_get(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { pshmem_char_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_put_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { pshmem_char_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_get_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { pshmem_char_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_iput(shmem_ctx_t ctx, char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_char_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_iget(shmem_ctx_t ctx, char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_char_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_put_signal(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_char_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_put_signal_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_char_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_char_p(shmem_ctx_t ctx, char *dest, char value, int pe) { pshmem_char_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline char pshmem_ctx_char_g(shmem_ctx_t ctx, const char *source, int pe) { return pshmem_char_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_put(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_schar_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_get(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_schar_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_put_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_schar_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_get_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_schar_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_iput(shmem_ctx_t ctx, signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_schar_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_iget(shmem_ctx_t ctx, signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_schar_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_put_signal(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_schar_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_put_signal_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_schar_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_schar_p(shmem_ctx_t ctx, signed char *dest, signed char value, int pe) { pshmem_schar_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline signed char pshmem_ctx_schar_g(shmem_ctx_t ctx, const signed char *source, int pe) { return pshmem_schar_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_put(shmem_ctx_t ctx, short int *dest, const short int *source, size_t nelems, int pe) { pshmem_short_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_get(shmem_ctx_t ctx, short int *dest, const short int *source, size_t nelems, int pe) { pshmem_short_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_put_nbi(shmem_ctx_t ctx, short int *dest, const short int *source, size_t nelems, int pe) { pshmem_short_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_get_nbi(shmem_ctx_t ctx, short int *dest, const short int *source, size_t nelems, int pe) { pshmem_short_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_iput(shmem_ctx_t ctx, short int *dest, const short int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_short_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_iget(shmem_ctx_t ctx, short int *dest, const short int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_short_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_put_signal(shmem_ctx_t ctx, short int *dest, const short int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_short_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_put_signal_nbi(shmem_ctx_t ctx, short int *dest, const short int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_short_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_short_p(shmem_ctx_t ctx, short int *dest, short int value, int pe) { pshmem_short_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline short int pshmem_ctx_short_g(shmem_ctx_t ctx, const short int *source, int pe) { return pshmem_short_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_put(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { pshmem_int_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_get(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { pshmem_int_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_put_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { pshmem_int_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_get_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { pshmem_int_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_iput(shmem_ctx_t ctx, int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_iget(shmem_ctx_t ctx, int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_put_signal(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_put_signal_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_p(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_int_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int pshmem_ctx_int_g(shmem_ctx_t ctx, const int *source, int pe) { return pshmem_int_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_put(shmem_ctx_t ctx, long int *dest, const long int *source, size_t nelems, int pe) { pshmem_long_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_get(shmem_ctx_t ctx, long int *dest, const long int *source, size_t nelems, int pe) { pshmem_long_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_put_nbi(shmem_ctx_t ctx, long int *dest, const long int *source, size_t nelems, int pe) { pshmem_long_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_get_nbi(shmem_ctx_t ctx, long int *dest, const long int *source, size_t nelems, int pe) { pshmem_long_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_iput(shmem_ctx_t ctx, long int *dest, const long int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_long_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_iget(shmem_ctx_t ctx, long int *dest, const long int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_long_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_put_signal(shmem_ctx_t ctx, long int *dest, const long int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_long_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_put_signal_nbi(shmem_ctx_t ctx, long int *dest, const long int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_long_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_p(shmem_ctx_t ctx, long int *dest, long int value, int pe) { pshmem_long_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long int pshmem_ctx_long_g(shmem_ctx_t ctx, const long int *source, int pe) { return pshmem_long_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_put(shmem_ctx_t ctx, long long int *dest, const long long int *source, size_t nelems, int pe) { pshmem_longlong_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_get(shmem_ctx_t ctx, long long int *dest, const long long int *source, size_t nelems, int pe) { pshmem_longlong_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_put_nbi(shmem_ctx_t ctx, long long int *dest, const long long int *source, size_t nelems, int pe) { pshmem_longlong_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_get_nbi(shmem_ctx_t ctx, long long int *dest, const long long int *source, size_t nelems, int pe) { pshmem_longlong_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_iput(shmem_ctx_t ctx, long long int *dest, const long long int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_longlong_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_iget(shmem_ctx_t ctx, long long int *dest, const long long int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_longlong_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_put_signal(shmem_ctx_t ctx, long long int *dest, const long long int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_longlong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_put_signal_nbi(shmem_ctx_t ctx, long long int *dest, const long long int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_longlong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_p(shmem_ctx_t ctx, long long int *dest, long long int value, int pe) { pshmem_longlong_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long int pshmem_ctx_longlong_g(shmem_ctx_t ctx, const long long int *source, int pe) { return pshmem_longlong_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_put(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_uchar_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_get(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_uchar_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_put_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_uchar_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_get_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_uchar_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_iput(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uchar_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_iget(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uchar_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_put_signal(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uchar_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_put_signal_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uchar_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uchar_p(shmem_ctx_t ctx, unsigned char *dest, unsigned char value, int pe) { pshmem_uchar_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned char pshmem_ctx_uchar_g(shmem_ctx_t ctx, const unsigned char *source, int pe) { return pshmem_uchar_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_put(shmem_ctx_t ctx, short unsigned int *dest, const short unsigned int *source, size_t nelems, int pe) { pshmem_ushort_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_get(shmem_ctx_t ctx, short unsigned int *dest, const short unsigned int *source, size_t nelems, int pe) { pshmem_ushort_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_put_nbi(shmem_ctx_t ctx, short unsigned int *dest, const short unsigned int *source, size_t nelems, int pe) { pshmem_ushort_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_get_nbi(shmem_ctx_t ctx, short unsigned int *dest, const short unsigned int *source, size_t nelems, int pe) { pshmem_ushort_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_iput(shmem_ctx_t ctx, short unsigned int *dest, const short unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ushort_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_iget(shmem_ctx_t ctx, short unsigned int *dest, const short unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ushort_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_put_signal(shmem_ctx_t ctx, short unsigned int *dest, const short unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ushort_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_put_signal_nbi(shmem_ctx_t ctx, short unsigned int *dest, const short unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ushort_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ushort_p(shmem_ctx_t ctx, short unsigned int *dest, short unsigned int value, int pe) { pshmem_ushort_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline short unsigned int pshmem_ctx_ushort_g(shmem_ctx_t ctx, const short unsigned int *source, int pe) { return pshmem_ushort_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_put(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_uint_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_get(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_uint_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_put_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_uint_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_get_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_uint_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_iput(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_iget(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_put_signal(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_put_signal_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_p(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_g(shmem_ctx_t ctx, const unsigned int *source, int pe) { return pshmem_uint_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_put(shmem_ctx_t ctx, long unsigned int *dest, const long unsigned int *source, size_t nelems, int pe) { pshmem_ulong_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_get(shmem_ctx_t ctx, long unsigned int *dest, const long unsigned int *source, size_t nelems, int pe) { pshmem_ulong_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_put_nbi(shmem_ctx_t ctx, long unsigned int *dest, const long unsigned int *source, size_t nelems, int pe) { pshmem_ulong_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_get_nbi(shmem_ctx_t ctx, long unsigned int *dest, const long unsigned int *source, size_t nelems, int pe) { pshmem_ulong_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_iput(shmem_ctx_t ctx, long unsigned int *dest, const long unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ulong_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_iget(shmem_ctx_t ctx, long unsigned int *dest, const long unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ulong_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_put_signal(shmem_ctx_t ctx, long unsigned int *dest, const long unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ulong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_put_signal_nbi(shmem_ctx_t ctx, long unsigned int *dest, const long unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ulong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_p(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_g(shmem_ctx_t ctx, const long unsigned int *source, int pe) { return pshmem_ulong_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_put(shmem_ctx_t ctx, long long unsigned int *dest, const long long unsigned int *source, size_t nelems, int pe) { pshmem_ulonglong_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_get(shmem_ctx_t ctx, long long unsigned int *dest, const long long unsigned int *source, size_t nelems, int pe) { pshmem_ulonglong_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_put_nbi(shmem_ctx_t ctx, long long unsigned int *dest, const long long unsigned int *source, size_t nelems, int pe) { pshmem_ulonglong_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_get_nbi(shmem_ctx_t ctx, long long unsigned int *dest, const long long unsigned int *source, size_t nelems, int pe) { pshmem_ulonglong_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_iput(shmem_ctx_t ctx, long long unsigned int *dest, const long long unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ulonglong_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_iget(shmem_ctx_t ctx, long long unsigned int *dest, const long long unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ulonglong_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_put_signal(shmem_ctx_t ctx, long long unsigned int *dest, const long long unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ulonglong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_put_signal_nbi(shmem_ctx_t ctx, long long unsigned int *dest, const long long unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ulonglong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_p(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_g(shmem_ctx_t ctx, const long long unsigned int *source, int pe) { return pshmem_ulonglong_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_put(shmem_ctx_t ctx, int8_t *dest, const int8_t *source, size_t nelems, int pe) { pshmem_int8_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_get(shmem_ctx_t ctx, int8_t *dest, const int8_t *source, size_t nelems, int pe) { pshmem_int8_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_put_nbi(shmem_ctx_t ctx, int8_t *dest, const int8_t *source, size_t nelems, int pe) { pshmem_int8_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_get_nbi(shmem_ctx_t ctx, int8_t *dest, const int8_t *source, size_t nelems, int pe) { pshmem_int8_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_iput(shmem_ctx_t ctx, int8_t *dest, const int8_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int8_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_iget(shmem_ctx_t ctx, int8_t *dest, const int8_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int8_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_put_signal(shmem_ctx_t ctx, int8_t *dest, const int8_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int8_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_put_signal_nbi(shmem_ctx_t ctx, int8_t *dest, const int8_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int8_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int8_p(shmem_ctx_t ctx, int8_t *dest, int8_t value, int pe) { pshmem_int8_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int8_t pshmem_ctx_int8_g(shmem_ctx_t ctx, const int8_t *source, int pe) { return pshmem_int8_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_put(shmem_ctx_t ctx, int16_t *dest, const int16_t *source, size_t nelems, int pe) { pshmem_int16_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_get(shmem_ctx_t ctx, int16_t *dest, const int16_t *source, size_t nelems, int pe) { pshmem_int16_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_put_nbi(shmem_ctx_t ctx, int16_t *dest, const int16_t *source, size_t nelems, int pe) { pshmem_int16_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_get_nbi(shmem_ctx_t ctx, int16_t *dest, const int16_t *source, size_t nelems, int pe) { pshmem_int16_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_iput(shmem_ctx_t ctx, int16_t *dest, const int16_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int16_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_iget(shmem_ctx_t ctx, int16_t *dest, const int16_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int16_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_put_signal(shmem_ctx_t ctx, int16_t *dest, const int16_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int16_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_put_signal_nbi(shmem_ctx_t ctx, int16_t *dest, const int16_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int16_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int16_p(shmem_ctx_t ctx, int16_t *dest, int16_t value, int pe) { pshmem_int16_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int16_t pshmem_ctx_int16_g(shmem_ctx_t ctx, const int16_t *source, int pe) { return pshmem_int16_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_put(shmem_ctx_t ctx, int32_t *dest, const int32_t *source, size_t nelems, int pe) { pshmem_int32_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_get(shmem_ctx_t ctx, int32_t *dest, const int32_t *source, size_t nelems, int pe) { pshmem_int32_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_put_nbi(shmem_ctx_t ctx, int32_t *dest, const int32_t *source, size_t nelems, int pe) { pshmem_int32_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_get_nbi(shmem_ctx_t ctx, int32_t *dest, const int32_t *source, size_t nelems, int pe) { pshmem_int32_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_iput(shmem_ctx_t ctx, int32_t *dest, const int32_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int32_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_iget(shmem_ctx_t ctx, int32_t *dest, const int32_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int32_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_put_signal(shmem_ctx_t ctx, int32_t *dest, const int32_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int32_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_put_signal_nbi(shmem_ctx_t ctx, int32_t *dest, const int32_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int32_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_p(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { pshmem_int32_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_g(shmem_ctx_t ctx, const int32_t *source, int pe) { return pshmem_int32_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_put(shmem_ctx_t ctx, int64_t *dest, const int64_t *source, size_t nelems, int pe) { pshmem_int64_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_get(shmem_ctx_t ctx, int64_t *dest, const int64_t *source, size_t nelems, int pe) { pshmem_int64_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_put_nbi(shmem_ctx_t ctx, int64_t *dest, const int64_t *source, size_t nelems, int pe) { pshmem_int64_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_get_nbi(shmem_ctx_t ctx, int64_t *dest, const int64_t *source, size_t nelems, int pe) { pshmem_int64_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_iput(shmem_ctx_t ctx, int64_t *dest, const int64_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int64_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_iget(shmem_ctx_t ctx, int64_t *dest, const int64_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int64_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_put_signal(shmem_ctx_t ctx, int64_t *dest, const int64_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int64_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_put_signal_nbi(shmem_ctx_t ctx, int64_t *dest, const int64_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int64_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_p(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { pshmem_int64_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_g(shmem_ctx_t ctx, const int64_t *source, int pe) { return pshmem_int64_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_put(shmem_ctx_t ctx, uint8_t *dest, const uint8_t *source, size_t nelems, int pe) { pshmem_uint8_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_get(shmem_ctx_t ctx, uint8_t *dest, const uint8_t *source, size_t nelems, int pe) { pshmem_uint8_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_put_nbi(shmem_ctx_t ctx, uint8_t *dest, const uint8_t *source, size_t nelems, int pe) { pshmem_uint8_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_get_nbi(shmem_ctx_t ctx, uint8_t *dest, const uint8_t *source, size_t nelems, int pe) { pshmem_uint8_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_iput(shmem_ctx_t ctx, uint8_t *dest, const uint8_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint8_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_iget(shmem_ctx_t ctx, uint8_t *dest, const uint8_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint8_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_put_signal(shmem_ctx_t ctx, uint8_t *dest, const uint8_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint8_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_put_signal_nbi(shmem_ctx_t ctx, uint8_t *dest, const uint8_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint8_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint8_p(shmem_ctx_t ctx, uint8_t *dest, uint8_t value, int pe) { pshmem_uint8_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint8_t pshmem_ctx_uint8_g(shmem_ctx_t ctx, const uint8_t *source, int pe) { return pshmem_uint8_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_put(shmem_ctx_t ctx, uint16_t *dest, const uint16_t *source, size_t nelems, int pe) { pshmem_uint16_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_get(shmem_ctx_t ctx, uint16_t *dest, const uint16_t *source, size_t nelems, int pe) { pshmem_uint16_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_put_nbi(shmem_ctx_t ctx, uint16_t *dest, const uint16_t *source, size_t nelems, int pe) { pshmem_uint16_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_get_nbi(shmem_ctx_t ctx, uint16_t *dest, const uint16_t *source, size_t nelems, int pe) { pshmem_uint16_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_iput(shmem_ctx_t ctx, uint16_t *dest, const uint16_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint16_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_iget(shmem_ctx_t ctx, uint16_t *dest, const uint16_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint16_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_put_signal(shmem_ctx_t ctx, uint16_t *dest, const uint16_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint16_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_put_signal_nbi(shmem_ctx_t ctx, uint16_t *dest, const uint16_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint16_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint16_p(shmem_ctx_t ctx, uint16_t *dest, uint16_t value, int pe) { pshmem_uint16_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint16_t pshmem_ctx_uint16_g(shmem_ctx_t ctx, const uint16_t *source, int pe) { return pshmem_uint16_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_put(shmem_ctx_t ctx, uint32_t *dest, const uint32_t *source, size_t nelems, int pe) { pshmem_uint32_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_get(shmem_ctx_t ctx, uint32_t *dest, const uint32_t *source, size_t nelems, int pe) { pshmem_uint32_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_put_nbi(shmem_ctx_t ctx, uint32_t *dest, const uint32_t *source, size_t nelems, int pe) { pshmem_uint32_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_get_nbi(shmem_ctx_t ctx, uint32_t *dest, const uint32_t *source, size_t nelems, int pe) { pshmem_uint32_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_iput(shmem_ctx_t ctx, uint32_t *dest, const uint32_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint32_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_iget(shmem_ctx_t ctx, uint32_t *dest, const uint32_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint32_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_put_signal(shmem_ctx_t ctx, uint32_t *dest, const uint32_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint32_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_put_signal_nbi(shmem_ctx_t ctx, uint32_t *dest, const uint32_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint32_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_p(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_g(shmem_ctx_t ctx, const uint32_t *source, int pe) { return pshmem_uint32_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_put(shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source, size_t nelems, int pe) { pshmem_uint64_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_get(shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source, size_t nelems, int pe) { pshmem_uint64_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_put_nbi(shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source, size_t nelems, int pe) { pshmem_uint64_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_get_nbi(shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source, size_t nelems, int pe) { pshmem_uint64_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_iput(shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint64_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_iget(shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint64_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_put_signal(shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint64_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_put_signal_nbi(shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint64_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_p(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_g(shmem_ctx_t ctx, const uint64_t *source, int pe) { return pshmem_uint64_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_put(shmem_ctx_t ctx, size_t *dest, const size_t *source, size_t nelems, int pe) { pshmem_size_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_get(shmem_ctx_t ctx, size_t *dest, const size_t *source, size_t nelems, int pe) { pshmem_size_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_put_nbi(shmem_ctx_t ctx, size_t *dest, const size_t *source, size_t nelems, int pe) { pshmem_size_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_get_nbi(shmem_ctx_t ctx, size_t *dest, const size_t *source, size_t nelems, int pe) { pshmem_size_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_iput(shmem_ctx_t ctx, size_t *dest, const size_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_size_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_iget(shmem_ctx_t ctx, size_t *dest, const size_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_size_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_put_signal(shmem_ctx_t ctx, size_t *dest, const size_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_size_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_put_signal_nbi(shmem_ctx_t ctx, size_t *dest, const size_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_size_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_p(shmem_ctx_t ctx, size_t *dest, size_t value, int pe) { pshmem_size_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline size_t pshmem_ctx_size_g(shmem_ctx_t ctx, const size_t *source, int pe) { return pshmem_size_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_put(shmem_ctx_t ctx, ptrdiff_t *dest, const ptrdiff_t *source, size_t nelems, int pe) { pshmem_ptrdiff_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_get(shmem_ctx_t ctx, ptrdiff_t *dest, const ptrdiff_t *source, size_t nelems, int pe) { pshmem_ptrdiff_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_put_nbi(shmem_ctx_t ctx, ptrdiff_t *dest, const ptrdiff_t *source, size_t nelems, int pe) { pshmem_ptrdiff_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_get_nbi(shmem_ctx_t ctx, ptrdiff_t *dest, const ptrdiff_t *source, size_t nelems, int pe) { pshmem_ptrdiff_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_iput(shmem_ctx_t ctx, ptrdiff_t *dest, const ptrdiff_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ptrdiff_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_iget(shmem_ctx_t ctx, ptrdiff_t *dest, const ptrdiff_t *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ptrdiff_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_put_signal(shmem_ctx_t ctx, ptrdiff_t *dest, const ptrdiff_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ptrdiff_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_put_signal_nbi(shmem_ctx_t ctx, ptrdiff_t *dest, const ptrdiff_t *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ptrdiff_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_p(shmem_ctx_t ctx, ptrdiff_t *dest, ptrdiff_t value, int pe) { pshmem_ptrdiff_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline ptrdiff_t pshmem_ctx_ptrdiff_g(shmem_ctx_t ctx, const ptrdiff_t *source, int pe) { return pshmem_ptrdiff_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_put(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { pshmem_longdouble_put(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_get(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { pshmem_longdouble_get(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_put_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { pshmem_longdouble_put_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_get_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { pshmem_longdouble_get_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_iput(shmem_ctx_t ctx, long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_longdouble_iput(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_iget(shmem_ctx_t ctx, long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_longdouble_iget(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_put_signal(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_longdouble_put_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_put_signal_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_longdouble_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longdouble_p(shmem_ctx_t ctx, long double *dest, long double value, int pe) { pshmem_longdouble_p(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long double pshmem_ctx_longdouble_g(shmem_ctx_t ctx, const long double *source, int pe) { return pshmem_longdouble_g(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put8(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put8(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get8(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get8(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put8_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put8_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get8_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get8_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iput8(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iput8(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iget8(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iget8(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put8_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put8_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put8_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put8_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put16(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put16(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get16(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get16(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put16_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put16_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get16_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get16_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iput16(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iput16(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iget16(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iget16(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put16_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put16_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put16_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put16_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put32(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put32(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get32(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get32(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put32_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put32_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get32_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get32_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iput32(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iput32(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iget32(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iget32(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put32_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put32_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put32_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put32_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put64(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put64(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get64(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get64(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put64_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put64_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get64_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get64_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iput64(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iput64(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iget64(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iget64(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put64_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put64_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put64_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put64_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put128(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put128(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get128(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get128(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put128_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_put128_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_get128_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_get128_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iput128(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iput128(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_iget128(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_iget128(dest, source, dst, sst, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put128_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put128_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_put128_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_put128_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_putmem(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_getmem(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_putmem_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) { pshmem_getmem_nbi(dest, source, nelems, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_putmem_signal(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_putmem_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int pshmem_ctx_int_atomic_fetch(shmem_ctx_t ctx, const int *source, int pe) { return pshmem_int_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_atomic_set(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_int_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int pshmem_ctx_int_atomic_swap(shmem_ctx_t ctx, int *dest, int value, int pe) { return pshmem_int_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_atomic_fetch_nbi(shmem_ctx_t ctx, int *fetch, const int *source, int pe) { pshmem_int_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_atomic_swap_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { pshmem_int_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long int pshmem_ctx_long_atomic_fetch(shmem_ctx_t ctx, const long int *source, int pe) { return pshmem_long_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_atomic_set(shmem_ctx_t ctx, long int *dest, long int value, int pe) { pshmem_long_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long int pshmem_ctx_long_atomic_swap(shmem_ctx_t ctx, long int *dest, long int value, int pe) { return pshmem_long_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_atomic_fetch_nbi(shmem_ctx_t ctx, long int *fetch, const long int *source, int pe) { pshmem_long_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_atomic_swap_nbi(shmem_ctx_t ctx, long int *fetch, long int *dest, long int value, int pe) { pshmem_long_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long int pshmem_ctx_longlong_atomic_fetch(shmem_ctx_t ctx, const long long int *source, int pe) { return pshmem_longlong_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_atomic_set(shmem_ctx_t ctx, long long int *dest, long long int value, int pe) { pshmem_longlong_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long int pshmem_ctx_longlong_atomic_swap(shmem_ctx_t ctx, long long int *dest, long long int value, int pe) { return pshmem_longlong_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_atomic_fetch_nbi(shmem_ctx_t ctx, long long int *fetch, const long long int *source, int pe) { pshmem_longlong_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_atomic_swap_nbi(shmem_ctx_t ctx, long long int *fetch, long long int *dest, long long int value, int pe) { pshmem_longlong_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_atomic_fetch(shmem_ctx_t ctx, const unsigned int *source, int pe) { return pshmem_uint_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_set(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_atomic_swap(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_fetch_nbi(shmem_ctx_t ctx, unsigned int *fetch, const unsigned int *source, int pe) { pshmem_uint_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_swap_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_atomic_fetch(shmem_ctx_t ctx, const long unsigned int *source, int pe) { return pshmem_ulong_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_set(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_atomic_swap(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { return pshmem_ulong_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_fetch_nbi(shmem_ctx_t ctx, long unsigned int *fetch, const long unsigned int *source, int pe) { pshmem_ulong_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_swap_nbi(shmem_ctx_t ctx, long unsigned int *fetch, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_atomic_fetch(shmem_ctx_t ctx, const long long unsigned int *source, int pe) { return pshmem_ulonglong_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_set(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_atomic_swap(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { return pshmem_ulonglong_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_fetch_nbi(shmem_ctx_t ctx, long long unsigned int *fetch, const long long unsigned int *source, int pe) { pshmem_ulonglong_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_swap_nbi(shmem_ctx_t ctx, long long unsigned int *fetch, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_atomic_fetch(shmem_ctx_t ctx, const int32_t *source, int pe) { return pshmem_int32_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_set(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_atomic_swap(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { return pshmem_int32_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_fetch_nbi(shmem_ctx_t ctx, int32_t *fetch, const int32_t *source, int pe) { pshmem_int32_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_swap_nbi(shmem_ctx_t ctx, int32_t *fetch, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_atomic_fetch(shmem_ctx_t ctx, const int64_t *source, int pe) { return pshmem_int64_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_set(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_atomic_swap(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { return pshmem_int64_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_fetch_nbi(shmem_ctx_t ctx, int64_t *fetch, const int64_t *source, int pe) { pshmem_int64_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_swap_nbi(shmem_ctx_t ctx, int64_t *fetch, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_atomic_fetch(shmem_ctx_t ctx, const uint32_t *source, int pe) { return pshmem_uint32_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_set(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_atomic_swap(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { return pshmem_uint32_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_fetch_nbi(shmem_ctx_t ctx, uint32_t *fetch, const uint32_t *source, int pe) { pshmem_uint32_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_swap_nbi(shmem_ctx_t ctx, uint32_t *fetch, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_atomic_fetch(shmem_ctx_t ctx, const uint64_t *source, int pe) { return pshmem_uint64_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_set(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_atomic_swap(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { return pshmem_uint64_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_fetch_nbi(shmem_ctx_t ctx, uint64_t *fetch, const uint64_t *source, int pe) { pshmem_uint64_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_swap_nbi(shmem_ctx_t ctx, uint64_t *fetch, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline size_t pshmem_ctx_size_atomic_fetch(shmem_ctx_t ctx, const size_t *source, int pe) { return pshmem_size_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_atomic_set(shmem_ctx_t ctx, size_t *dest, size_t value, int pe) { pshmem_size_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline size_t pshmem_ctx_size_atomic_swap(shmem_ctx_t ctx, size_t *dest, size_t value, int pe) { return pshmem_size_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_atomic_fetch_nbi(shmem_ctx_t ctx, size_t *fetch, const size_t *source, int pe) { pshmem_size_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_atomic_swap_nbi(shmem_ctx_t ctx, size_t *fetch, size_t *dest, size_t value, int pe) { pshmem_size_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline ptrdiff_t pshmem_ctx_ptrdiff_atomic_fetch(shmem_ctx_t ctx, const ptrdiff_t *source, int pe) { return pshmem_ptrdiff_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_atomic_set(shmem_ctx_t ctx, ptrdiff_t *dest, ptrdiff_t value, int pe) { pshmem_ptrdiff_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline ptrdiff_t pshmem_ctx_ptrdiff_atomic_swap(shmem_ctx_t ctx, ptrdiff_t *dest, ptrdiff_t value, int pe) { return pshmem_ptrdiff_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_atomic_fetch_nbi(shmem_ctx_t ctx, ptrdiff_t *fetch, const ptrdiff_t *source, int pe) { pshmem_ptrdiff_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_atomic_swap_nbi(shmem_ctx_t ctx, ptrdiff_t *fetch, ptrdiff_t *dest, ptrdiff_t value, int pe) { pshmem_ptrdiff_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline float pshmem_ctx_float_atomic_fetch(shmem_ctx_t ctx, const float *source, int pe) { return pshmem_float_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_atomic_set(shmem_ctx_t ctx, float *dest, float value, int pe) { pshmem_float_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline float pshmem_ctx_float_atomic_swap(shmem_ctx_t ctx, float *dest, float value, int pe) { return pshmem_float_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_atomic_fetch_nbi(shmem_ctx_t ctx, float *fetch, const float *source, int pe) { pshmem_float_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_float_atomic_swap_nbi(shmem_ctx_t ctx, float *fetch, float *dest, float value, int pe) { pshmem_float_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline double pshmem_ctx_double_atomic_fetch(shmem_ctx_t ctx, const double *source, int pe) { return pshmem_double_atomic_fetch(source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_atomic_set(shmem_ctx_t ctx, double *dest, double value, int pe) { pshmem_double_atomic_set(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline double pshmem_ctx_double_atomic_swap(shmem_ctx_t ctx, double *dest, double value, int pe) { return pshmem_double_atomic_swap(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_atomic_fetch_nbi(shmem_ctx_t ctx, double *fetch, const double *source, int pe) { pshmem_double_atomic_fetch_nbi(fetch, source, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_double_atomic_swap_nbi(shmem_ctx_t ctx, double *fetch, double *dest, double value, int pe) { pshmem_double_atomic_swap_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int pshmem_ctx_int_atomic_fetch_inc(shmem_ctx_t ctx, int *dest, int pe) { return pshmem_int_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_atomic_inc(shmem_ctx_t ctx, int *dest, int pe) { pshmem_int_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int pshmem_ctx_int_atomic_fetch_add(shmem_ctx_t ctx, int *dest, int value, int pe) { return pshmem_int_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_atomic_add(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_int_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int pshmem_ctx_int_atomic_compare_swap(shmem_ctx_t ctx, int *dest, int cond, int value, int pe) { return pshmem_int_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_atomic_fetch_inc_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int pe) { pshmem_int_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_atomic_fetch_add_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { pshmem_int_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int_atomic_compare_swap_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int cond, int value, int pe) { pshmem_int_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long int pshmem_ctx_long_atomic_fetch_inc(shmem_ctx_t ctx, long int *dest, int pe) { return pshmem_long_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_atomic_inc(shmem_ctx_t ctx, long int *dest, int pe) { pshmem_long_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long int pshmem_ctx_long_atomic_fetch_add(shmem_ctx_t ctx, long int *dest, long int value, int pe) { return pshmem_long_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_atomic_add(shmem_ctx_t ctx, long int *dest, long int value, int pe) { pshmem_long_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long int pshmem_ctx_long_atomic_compare_swap(shmem_ctx_t ctx, long int *dest, long int cond, long int value, int pe) { return pshmem_long_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_atomic_fetch_inc_nbi(shmem_ctx_t ctx, long int *fetch, long int *dest, int pe) { pshmem_long_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_atomic_fetch_add_nbi(shmem_ctx_t ctx, long int *fetch, long int *dest, long int value, int pe) { pshmem_long_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_long_atomic_compare_swap_nbi(shmem_ctx_t ctx, long int *fetch, long int *dest, long int cond, long int value, int pe) { pshmem_long_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long int pshmem_ctx_longlong_atomic_fetch_inc(shmem_ctx_t ctx, long long int *dest, int pe) { return pshmem_longlong_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_atomic_inc(shmem_ctx_t ctx, long long int *dest, int pe) { pshmem_longlong_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long int pshmem_ctx_longlong_atomic_fetch_add(shmem_ctx_t ctx, long long int *dest, long long int value, int pe) { return pshmem_longlong_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_atomic_add(shmem_ctx_t ctx, long long int *dest, long long int value, int pe) { pshmem_longlong_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long int pshmem_ctx_longlong_atomic_compare_swap(shmem_ctx_t ctx, long long int *dest, long long int cond, long long int value, int pe) { return pshmem_longlong_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_atomic_fetch_inc_nbi(shmem_ctx_t ctx, long long int *fetch, long long int *dest, int pe) { pshmem_longlong_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_atomic_fetch_add_nbi(shmem_ctx_t ctx, long long int *fetch, long long int *dest, long long int value, int pe) { pshmem_longlong_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_longlong_atomic_compare_swap_nbi(shmem_ctx_t ctx, long long int *fetch, long long int *dest, long long int cond, long long int value, int pe) { pshmem_longlong_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_atomic_fetch_inc(shmem_ctx_t ctx, unsigned int *dest, int pe) { return pshmem_uint_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_inc(shmem_ctx_t ctx, unsigned int *dest, int pe) { pshmem_uint_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_atomic_fetch_add(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_add(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_atomic_compare_swap(shmem_ctx_t ctx, unsigned int *dest, unsigned int cond, unsigned int value, int pe) { return pshmem_uint_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_fetch_inc_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, int pe) { pshmem_uint_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_fetch_add_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_compare_swap_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int cond, unsigned int value, int pe) { pshmem_uint_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_atomic_fetch_inc(shmem_ctx_t ctx, long unsigned int *dest, int pe) { return pshmem_ulong_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_inc(shmem_ctx_t ctx, long unsigned int *dest, int pe) { pshmem_ulong_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_atomic_fetch_add(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { return pshmem_ulong_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_add(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_atomic_compare_swap(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int cond, long unsigned int value, int pe) { return pshmem_ulong_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_fetch_inc_nbi(shmem_ctx_t ctx, long unsigned int *fetch, long unsigned int *dest, int pe) { pshmem_ulong_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_fetch_add_nbi(shmem_ctx_t ctx, long unsigned int *fetch, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_compare_swap_nbi(shmem_ctx_t ctx, long unsigned int *fetch, long unsigned int *dest, long unsigned int cond, long unsigned int value, int pe) { pshmem_ulong_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_atomic_fetch_inc(shmem_ctx_t ctx, long long unsigned int *dest, int pe) { return pshmem_ulonglong_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_inc(shmem_ctx_t ctx, long long unsigned int *dest, int pe) { pshmem_ulonglong_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_atomic_fetch_add(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { return pshmem_ulonglong_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_add(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_atomic_compare_swap(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int cond, long long unsigned int value, int pe) { return pshmem_ulonglong_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_fetch_inc_nbi(shmem_ctx_t ctx, long long unsigned int *fetch, long long unsigned int *dest, int pe) { pshmem_ulonglong_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_fetch_add_nbi(shmem_ctx_t ctx, long long unsigned int *fetch, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_compare_swap_nbi(shmem_ctx_t ctx, long long unsigned int *fetch, long long unsigned int *dest, long long unsigned int cond, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_atomic_fetch_inc(shmem_ctx_t ctx, int32_t *dest, int pe) { return pshmem_int32_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_inc(shmem_ctx_t ctx, int32_t *dest, int pe) { pshmem_int32_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_atomic_fetch_add(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { return pshmem_int32_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_add(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_atomic_compare_swap(shmem_ctx_t ctx, int32_t *dest, int32_t cond, int32_t value, int pe) { return pshmem_int32_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_fetch_inc_nbi(shmem_ctx_t ctx, int32_t *fetch, int32_t *dest, int pe) { pshmem_int32_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_fetch_add_nbi(shmem_ctx_t ctx, int32_t *fetch, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_compare_swap_nbi(shmem_ctx_t ctx, int32_t *fetch, int32_t *dest, int32_t cond, int32_t value, int pe) { pshmem_int32_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_atomic_fetch_inc(shmem_ctx_t ctx, int64_t *dest, int pe) { return pshmem_int64_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_inc(shmem_ctx_t ctx, int64_t *dest, int pe) { pshmem_int64_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_atomic_fetch_add(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { return pshmem_int64_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_add(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_atomic_compare_swap(shmem_ctx_t ctx, int64_t *dest, int64_t cond, int64_t value, int pe) { return pshmem_int64_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_fetch_inc_nbi(shmem_ctx_t ctx, int64_t *fetch, int64_t *dest, int pe) { pshmem_int64_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_fetch_add_nbi(shmem_ctx_t ctx, int64_t *fetch, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_compare_swap_nbi(shmem_ctx_t ctx, int64_t *fetch, int64_t *dest, int64_t cond, int64_t value, int pe) { pshmem_int64_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_atomic_fetch_inc(shmem_ctx_t ctx, uint32_t *dest, int pe) { return pshmem_uint32_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_inc(shmem_ctx_t ctx, uint32_t *dest, int pe) { pshmem_uint32_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_atomic_fetch_add(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { return pshmem_uint32_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_add(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_atomic_compare_swap(shmem_ctx_t ctx, uint32_t *dest, uint32_t cond, uint32_t value, int pe) { return pshmem_uint32_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_fetch_inc_nbi(shmem_ctx_t ctx, uint32_t *fetch, uint32_t *dest, int pe) { pshmem_uint32_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_fetch_add_nbi(shmem_ctx_t ctx, uint32_t *fetch, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_compare_swap_nbi(shmem_ctx_t ctx, uint32_t *fetch, uint32_t *dest, uint32_t cond, uint32_t value, int pe) { pshmem_uint32_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_atomic_fetch_inc(shmem_ctx_t ctx, uint64_t *dest, int pe) { return pshmem_uint64_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_inc(shmem_ctx_t ctx, uint64_t *dest, int pe) { pshmem_uint64_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_atomic_fetch_add(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { return pshmem_uint64_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_add(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_atomic_compare_swap(shmem_ctx_t ctx, uint64_t *dest, uint64_t cond, uint64_t value, int pe) { return pshmem_uint64_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_fetch_inc_nbi(shmem_ctx_t ctx, uint64_t *fetch, uint64_t *dest, int pe) { pshmem_uint64_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_fetch_add_nbi(shmem_ctx_t ctx, uint64_t *fetch, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_compare_swap_nbi(shmem_ctx_t ctx, uint64_t *fetch, uint64_t *dest, uint64_t cond, uint64_t value, int pe) { pshmem_uint64_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline size_t pshmem_ctx_size_atomic_fetch_inc(shmem_ctx_t ctx, size_t *dest, int pe) { return pshmem_size_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_atomic_inc(shmem_ctx_t ctx, size_t *dest, int pe) { pshmem_size_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline size_t pshmem_ctx_size_atomic_fetch_add(shmem_ctx_t ctx, size_t *dest, size_t value, int pe) { return pshmem_size_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_atomic_add(shmem_ctx_t ctx, size_t *dest, size_t value, int pe) { pshmem_size_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline size_t pshmem_ctx_size_atomic_compare_swap(shmem_ctx_t ctx, size_t *dest, size_t cond, size_t value, int pe) { return pshmem_size_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_atomic_fetch_inc_nbi(shmem_ctx_t ctx, size_t *fetch, size_t *dest, int pe) { pshmem_size_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_atomic_fetch_add_nbi(shmem_ctx_t ctx, size_t *fetch, size_t *dest, size_t value, int pe) { pshmem_size_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_size_atomic_compare_swap_nbi(shmem_ctx_t ctx, size_t *fetch, size_t *dest, size_t cond, size_t value, int pe) { pshmem_size_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline ptrdiff_t pshmem_ctx_ptrdiff_atomic_fetch_inc(shmem_ctx_t ctx, ptrdiff_t *dest, int pe) { return pshmem_ptrdiff_atomic_fetch_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_atomic_inc(shmem_ctx_t ctx, ptrdiff_t *dest, int pe) { pshmem_ptrdiff_atomic_inc(dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline ptrdiff_t pshmem_ctx_ptrdiff_atomic_fetch_add(shmem_ctx_t ctx, ptrdiff_t *dest, ptrdiff_t value, int pe) { return pshmem_ptrdiff_atomic_fetch_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_atomic_add(shmem_ctx_t ctx, ptrdiff_t *dest, ptrdiff_t value, int pe) { pshmem_ptrdiff_atomic_add(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline ptrdiff_t pshmem_ctx_ptrdiff_atomic_compare_swap(shmem_ctx_t ctx, ptrdiff_t *dest, ptrdiff_t cond, ptrdiff_t value, int pe) { return pshmem_ptrdiff_atomic_compare_swap(dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_atomic_fetch_inc_nbi(shmem_ctx_t ctx, ptrdiff_t *fetch, ptrdiff_t *dest, int pe) { pshmem_ptrdiff_atomic_fetch_inc_nbi(fetch, dest, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_atomic_fetch_add_nbi(shmem_ctx_t ctx, ptrdiff_t *fetch, ptrdiff_t *dest, ptrdiff_t value, int pe) { pshmem_ptrdiff_atomic_fetch_add_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ptrdiff_atomic_compare_swap_nbi(shmem_ctx_t ctx, ptrdiff_t *fetch, ptrdiff_t *dest, ptrdiff_t cond, ptrdiff_t value, int pe) { pshmem_ptrdiff_atomic_compare_swap_nbi(fetch, dest, cond, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_atomic_fetch_and(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_fetch_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_and(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_atomic_fetch_or(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_fetch_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_or(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline unsigned int pshmem_ctx_uint_atomic_fetch_xor(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_fetch_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_xor(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_fetch_and_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_fetch_and_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_fetch_or_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_fetch_or_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint_atomic_fetch_xor_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_fetch_xor_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_atomic_fetch_and(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { return pshmem_ulong_atomic_fetch_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_and(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_atomic_fetch_or(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { return pshmem_ulong_atomic_fetch_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_or(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long unsigned int pshmem_ctx_ulong_atomic_fetch_xor(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { return pshmem_ulong_atomic_fetch_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_xor(shmem_ctx_t ctx, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_fetch_and_nbi(shmem_ctx_t ctx, long unsigned int *fetch, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_fetch_and_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_fetch_or_nbi(shmem_ctx_t ctx, long unsigned int *fetch, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_fetch_or_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulong_atomic_fetch_xor_nbi(shmem_ctx_t ctx, long unsigned int *fetch, long unsigned int *dest, long unsigned int value, int pe) { pshmem_ulong_atomic_fetch_xor_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_atomic_fetch_and(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { return pshmem_ulonglong_atomic_fetch_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_and(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_atomic_fetch_or(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { return pshmem_ulonglong_atomic_fetch_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_or(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline long long unsigned int pshmem_ctx_ulonglong_atomic_fetch_xor(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { return pshmem_ulonglong_atomic_fetch_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_xor(shmem_ctx_t ctx, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_fetch_and_nbi(shmem_ctx_t ctx, long long unsigned int *fetch, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_fetch_and_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_fetch_or_nbi(shmem_ctx_t ctx, long long unsigned int *fetch, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_fetch_or_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_ulonglong_atomic_fetch_xor_nbi(shmem_ctx_t ctx, long long unsigned int *fetch, long long unsigned int *dest, long long unsigned int value, int pe) { pshmem_ulonglong_atomic_fetch_xor_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_atomic_fetch_and(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { return pshmem_int32_atomic_fetch_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_and(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_atomic_fetch_or(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { return pshmem_int32_atomic_fetch_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_or(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int32_t pshmem_ctx_int32_atomic_fetch_xor(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { return pshmem_int32_atomic_fetch_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_xor(shmem_ctx_t ctx, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_fetch_and_nbi(shmem_ctx_t ctx, int32_t *fetch, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_fetch_and_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_fetch_or_nbi(shmem_ctx_t ctx, int32_t *fetch, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_fetch_or_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int32_atomic_fetch_xor_nbi(shmem_ctx_t ctx, int32_t *fetch, int32_t *dest, int32_t value, int pe) { pshmem_int32_atomic_fetch_xor_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_atomic_fetch_and(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { return pshmem_int64_atomic_fetch_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_and(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_atomic_fetch_or(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { return pshmem_int64_atomic_fetch_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_or(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline int64_t pshmem_ctx_int64_atomic_fetch_xor(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { return pshmem_int64_atomic_fetch_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_xor(shmem_ctx_t ctx, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_fetch_and_nbi(shmem_ctx_t ctx, int64_t *fetch, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_fetch_and_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_fetch_or_nbi(shmem_ctx_t ctx, int64_t *fetch, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_fetch_or_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_int64_atomic_fetch_xor_nbi(shmem_ctx_t ctx, int64_t *fetch, int64_t *dest, int64_t value, int pe) { pshmem_int64_atomic_fetch_xor_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_atomic_fetch_and(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { return pshmem_uint32_atomic_fetch_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_and(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_atomic_fetch_or(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { return pshmem_uint32_atomic_fetch_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_or(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint32_t pshmem_ctx_uint32_atomic_fetch_xor(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { return pshmem_uint32_atomic_fetch_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_xor(shmem_ctx_t ctx, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_fetch_and_nbi(shmem_ctx_t ctx, uint32_t *fetch, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_fetch_and_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_fetch_or_nbi(shmem_ctx_t ctx, uint32_t *fetch, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_fetch_or_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint32_atomic_fetch_xor_nbi(shmem_ctx_t ctx, uint32_t *fetch, uint32_t *dest, uint32_t value, int pe) { pshmem_uint32_atomic_fetch_xor_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_atomic_fetch_and(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { return pshmem_uint64_atomic_fetch_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_and(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_and(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_atomic_fetch_or(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { return pshmem_uint64_atomic_fetch_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_or(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_or(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline uint64_t pshmem_ctx_uint64_atomic_fetch_xor(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { return pshmem_uint64_atomic_fetch_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_xor(shmem_ctx_t ctx, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_xor(dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_fetch_and_nbi(shmem_ctx_t ctx, uint64_t *fetch, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_fetch_and_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_fetch_or_nbi(shmem_ctx_t ctx, uint64_t *fetch, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_fetch_or_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }
static inline void pshmem_ctx_uint64_atomic_fetch_xor_nbi(shmem_ctx_t ctx, uint64_t *fetch, uint64_t *dest, uint64_t value, int pe) { pshmem_uint64_atomic_fetch_xor_nbi(fetch, dest, value, handoff_shmem_ctx_pe_(ctx, pe)); }

#ifdef __cplusplus
}
#endif

/* shmem.h's type-generic names under their profiling names: C11 _Generic selections
 * (HANDOFF_SHMEM_G_* of shmem.h) and C++ overloads. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define pshmem_put(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_put_, __VA_ARGS__)
#define handoff_pshmem_put_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(pshmem_, a0, put)(a0, a1, a2, a3)
#define handoff_pshmem_put_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(pshmem_ctx_, a0, put)(ctx, a0, a1, a2, a3)
#define pshmem_get(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_get_, __VA_ARGS__)
#define handoff_pshmem_get_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(pshmem_, a0, get)(a0, a1, a2, a3)
#define handoff_pshmem_get_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(pshmem_ctx_, a0, get)(ctx, a0, a1, a2, a3)
#define pshmem_put_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_put_nbi_, __VA_ARGS__)
#define handoff_pshmem_put_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(pshmem_, a0, put_nbi)(a0, a1, a2, a3)
#define handoff_pshmem_put_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(pshmem_ctx_, a0, put_nbi)(ctx, a0, a1, a2, a3)
#define pshmem_get_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_get_nbi_, __VA_ARGS__)
#define handoff_pshmem_get_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(pshmem_, a0, get_nbi)(a0, a1, a2, a3)
#define handoff_pshmem_get_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_RMA(pshmem_ctx_, a0, get_nbi)(ctx, a0, a1, a2, a3)
#define pshmem_iput(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_iput_, __VA_ARGS__)
#define handoff_pshmem_iput_6(a0, a1, a2, a3, a4, a5) HANDOFF_SHMEM_G_RMA(pshmem_, a0, iput)(a0, a1, a2, a3, a4, a5)
#define handoff_pshmem_iput_7(ctx, a0, a1, a2, a3, a4, a5) HANDOFF_SHMEM_G_RMA(pshmem_ctx_, a0, iput)(ctx, a0, a1, a2, a3, a4, a5)
#define pshmem_iget(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_iget_, __VA_ARGS__)
#define handoff_pshmem_iget_6(a0, a1, a2, a3, a4, a5) HANDOFF_SHMEM_G_RMA(pshmem_, a0, iget)(a0, a1, a2, a3, a4, a5)
#define handoff_pshmem_iget_7(ctx, a0, a1, a2, a3, a4, a5) HANDOFF_SHMEM_G_RMA(pshmem_ctx_, a0, iget)(ctx, a0, a1, a2, a3, a4, a5)
#define pshmem_p(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_p_, __VA_ARGS__)
#define handoff_pshmem_p_3(a0, a1, a2) HANDOFF_SHMEM_G_PG(pshmem_, a0, p)(a0, a1, a2)
#define handoff_pshmem_p_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_PG(pshmem_ctx_, a0, p)(ctx, a0, a1, a2)
#define pshmem_g(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_g_, __VA_ARGS__)
#define handoff_pshmem_g_2(a0, a1) HANDOFF_SHMEM_G_PG(pshmem_, a0, g)(a0, a1)
#define handoff_pshmem_g_3(ctx, a0, a1) HANDOFF_SHMEM_G_PG(pshmem_ctx_, a0, g)(ctx, a0, a1)
#define pshmem_put_signal(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_put_signal_, __VA_ARGS__)
#define handoff_pshmem_put_signal_7(a0, a1, a2, a3, a4, a5, a6) HANDOFF_SHMEM_G_RMA(pshmem_, a0, put_signal)(a0, a1, a2, a3, a4, a5, a6)
#define handoff_pshmem_put_signal_8(ctx, a0, a1, a2, a3, a4, a5, a6) HANDOFF_SHMEM_G_RMA(pshmem_ctx_, a0, put_signal)(ctx, a0, a1, a2, a3, a4, a5, a6)
#define pshmem_put_signal_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_put_signal_nbi_, __VA_ARGS__)
#define handoff_pshmem_put_signal_nbi_7(a0, a1, a2, a3, a4, a5, a6) HANDOFF_SHMEM_G_RMA(pshmem_, a0, put_signal_nbi)(a0, a1, a2, a3, a4, a5, a6)
#define handoff_pshmem_put_signal_nbi_8(ctx, a0, a1, a2, a3, a4, a5, a6) HANDOFF_SHMEM_G_RMA(pshmem_ctx_, a0, put_signal_nbi)(ctx, a0, a1, a2, a3, a4, a5, a6)
#define pshmem_atomic_fetch(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_2(a0, a1) HANDOFF_SHMEM_G_EXT(pshmem_, a0, atomic_fetch)(a0, a1)
#define handoff_pshmem_atomic_fetch_3(ctx, a0, a1) HANDOFF_SHMEM_G_EXT(pshmem_ctx_, a0, atomic_fetch)(ctx, a0, a1)
#define pshmem_atomic_set(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_set_, __VA_ARGS__)
#define handoff_pshmem_atomic_set_3(a0, a1, a2) HANDOFF_SHMEM_G_EXT(pshmem_, a0, atomic_set)(a0, a1, a2)
#define handoff_pshmem_atomic_set_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_EXT(pshmem_ctx_, a0, atomic_set)(ctx, a0, a1, a2)
#define pshmem_atomic_swap(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_swap_, __VA_ARGS__)
#define handoff_pshmem_atomic_swap_3(a0, a1, a2) HANDOFF_SHMEM_G_EXT(pshmem_, a0, atomic_swap)(a0, a1, a2)
#define handoff_pshmem_atomic_swap_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_EXT(pshmem_ctx_, a0, atomic_swap)(ctx, a0, a1, a2)
#define pshmem_atomic_fetch_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_nbi_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_nbi_3(a0, a1, a2) HANDOFF_SHMEM_G_EXT(pshmem_, a0, atomic_fetch_nbi)(a0, a1, a2)
#define handoff_pshmem_atomic_fetch_nbi_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_EXT(pshmem_ctx_, a0, atomic_fetch_nbi)(ctx, a0, a1, a2)
#define pshmem_atomic_swap_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_swap_nbi_, __VA_ARGS__)
#define handoff_pshmem_atomic_swap_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_EXT(pshmem_, a0, atomic_swap_nbi)(a0, a1, a2, a3)
#define handoff_pshmem_atomic_swap_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_EXT(pshmem_ctx_, a0, atomic_swap_nbi)(ctx, a0, a1, a2, a3)
#define pshmem_atomic_fetch_inc(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_inc_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_inc_2(a0, a1) HANDOFF_SHMEM_G_STD(pshmem_, a0, atomic_fetch_inc)(a0, a1)
#define handoff_pshmem_atomic_fetch_inc_3(ctx, a0, a1) HANDOFF_SHMEM_G_STD(pshmem_ctx_, a0, atomic_fetch_inc)(ctx, a0, a1)
#define pshmem_atomic_inc(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_inc_, __VA_ARGS__)
#define handoff_pshmem_atomic_inc_2(a0, a1) HANDOFF_SHMEM_G_STD(pshmem_, a0, atomic_inc)(a0, a1)
#define handoff_pshmem_atomic_inc_3(ctx, a0, a1) HANDOFF_SHMEM_G_STD(pshmem_ctx_, a0, atomic_inc)(ctx, a0, a1)
#define pshmem_atomic_fetch_add(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_add_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_add_3(a0, a1, a2) HANDOFF_SHMEM_G_STD(pshmem_, a0, atomic_fetch_add)(a0, a1, a2)
#define handoff_pshmem_atomic_fetch_add_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_STD(pshmem_ctx_, a0, atomic_fetch_add)(ctx, a0, a1, a2)
#define pshmem_atomic_add(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_add_, __VA_ARGS__)
#define handoff_pshmem_atomic_add_3(a0, a1, a2) HANDOFF_SHMEM_G_STD(pshmem_, a0, atomic_add)(a0, a1, a2)
#define handoff_pshmem_atomic_add_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_STD(pshmem_ctx_, a0, atomic_add)(ctx, a0, a1, a2)
#define pshmem_atomic_compare_swap(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_compare_swap_, __VA_ARGS__)
#define handoff_pshmem_atomic_compare_swap_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_STD(pshmem_, a0, atomic_compare_swap)(a0, a1, a2, a3)
#define handoff_pshmem_atomic_compare_swap_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_STD(pshmem_ctx_, a0, atomic_compare_swap)(ctx, a0, a1, a2, a3)
#define pshmem_atomic_fetch_inc_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_inc_nbi_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_inc_nbi_3(a0, a1, a2) HANDOFF_SHMEM_G_STD(pshmem_, a0, atomic_fetch_inc_nbi)(a0, a1, a2)
#define handoff_pshmem_atomic_fetch_inc_nbi_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_STD(pshmem_ctx_, a0, atomic_fetch_inc_nbi)(ctx, a0, a1, a2)
#define pshmem_atomic_fetch_add_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_add_nbi_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_add_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_STD(pshmem_, a0, atomic_fetch_add_nbi)(a0, a1, a2, a3)
#define handoff_pshmem_atomic_fetch_add_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_STD(pshmem_ctx_, a0, atomic_fetch_add_nbi)(ctx, a0, a1, a2, a3)
#define pshmem_atomic_compare_swap_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_compare_swap_nbi_, __VA_ARGS__)
#define handoff_pshmem_atomic_compare_swap_nbi_5(a0, a1, a2, a3, a4) HANDOFF_SHMEM_G_STD(pshmem_, a0, atomic_compare_swap_nbi)(a0, a1, a2, a3, a4)
#define handoff_pshmem_atomic_compare_swap_nbi_6(ctx, a0, a1, a2, a3, a4) HANDOFF_SHMEM_G_STD(pshmem_ctx_, a0, atomic_compare_swap_nbi)(ctx, a0, a1, a2, a3, a4)
#define pshmem_atomic_fetch_and(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_and_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_and_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_fetch_and)(a0, a1, a2)
#define handoff_pshmem_atomic_fetch_and_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_fetch_and)(ctx, a0, a1, a2)
#define pshmem_atomic_and(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_and_, __VA_ARGS__)
#define handoff_pshmem_atomic_and_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_and)(a0, a1, a2)
#define handoff_pshmem_atomic_and_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_and)(ctx, a0, a1, a2)
#define pshmem_atomic_fetch_or(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_or_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_or_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_fetch_or)(a0, a1, a2)
#define handoff_pshmem_atomic_fetch_or_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_fetch_or)(ctx, a0, a1, a2)
#define pshmem_atomic_or(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_or_, __VA_ARGS__)
#define handoff_pshmem_atomic_or_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_or)(a0, a1, a2)
#define handoff_pshmem_atomic_or_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_or)(ctx, a0, a1, a2)
#define pshmem_atomic_fetch_xor(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_xor_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_xor_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_fetch_xor)(a0, a1, a2)
#define handoff_pshmem_atomic_fetch_xor_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_fetch_xor)(ctx, a0, a1, a2)
#define pshmem_atomic_xor(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_xor_, __VA_ARGS__)
#define handoff_pshmem_atomic_xor_3(a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_xor)(a0, a1, a2)
#define handoff_pshmem_atomic_xor_4(ctx, a0, a1, a2) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_xor)(ctx, a0, a1, a2)
#define pshmem_atomic_fetch_and_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_and_nbi_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_and_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_fetch_and_nbi)(a0, a1, a2, a3)
#define handoff_pshmem_atomic_fetch_and_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_fetch_and_nbi)(ctx, a0, a1, a2, a3)
#define pshmem_atomic_fetch_or_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_or_nbi_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_or_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_fetch_or_nbi)(a0, a1, a2, a3)
#define handoff_pshmem_atomic_fetch_or_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_fetch_or_nbi)(ctx, a0, a1, a2, a3)
#define pshmem_atomic_fetch_xor_nbi(...) HANDOFF_SHMEM_BY_NARG(handoff_pshmem_atomic_fetch_xor_nbi_, __VA_ARGS__)
#define handoff_pshmem_atomic_fetch_xor_nbi_4(a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(pshmem_, a0, atomic_fetch_xor_nbi)(a0, a1, a2, a3)
#define handoff_pshmem_atomic_fetch_xor_nbi_5(ctx, a0, a1, a2, a3) HANDOFF_SHMEM_G_BIT(pshmem_ctx_, a0, atomic_fetch_xor_nbi)(ctx, a0, a1, a2, a3)
#define pshmem_test_all_vector(ivars, n, status, cmp, values)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, test_all_vector)(ivars, n, status, cmp, values)
#define pshmem_test_any_vector(ivars, n, status, cmp, values)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, test_any_vector)(ivars, n, status, cmp, values)
#define pshmem_test_some_vector(ivars, n, indices, status, cmp, values)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, test_some_vector)(ivars, n, indices, status, cmp, values)
#define pshmem_alltoalls(team, dest, source, dst, sst, nelems)     HANDOFF_SHMEM_G_RMA(pshmem_, dest, alltoalls)(team, dest, source, dst, sst, nelems)
#define pshmem_wait_until(ivar, cmp, value) HANDOFF_SHMEM_G_P2P(pshmem_, ivar, wait_until)(ivar, cmp, value)
#define pshmem_wait(ivar, value) HANDOFF_SHMEM_G_P2P(pshmem_, ivar, wait)(ivar, value)
#define pshmem_wait_until_all(ivars, n, status, cmp, value)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, wait_until_all)(ivars, n, status, cmp, value)
#define pshmem_wait_until_any(ivars, n, status, cmp, value)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, wait_until_any)(ivars, n, status, cmp, value)
#define pshmem_wait_until_some(ivars, n, indices, status, cmp, value)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, wait_until_some)(ivars, n, indices, status, cmp, value)
#define pshmem_wait_until_all_vector(ivars, n, status, cmp, values)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, wait_until_all_vector)(ivars, n, status, cmp, values)
#define pshmem_wait_until_any_vector(ivars, n, status, cmp, values)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, wait_until_any_vector)(ivars, n, status, cmp, values)
#define pshmem_wait_until_some_vector(ivars, n, indices, status, cmp, values)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, wait_until_some_vector)(ivars, n, indices, status, cmp, values)
#define pshmem_test(ivar, cmp, value) HANDOFF_SHMEM_G_P2P(pshmem_, ivar, test)(ivar, cmp, value)
#define pshmem_test_all(ivars, n, status, cmp, value)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, test_all)(ivars, n, status, cmp, value)
#define pshmem_test_any(ivars, n, status, cmp, value)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, test_any)(ivars, n, status, cmp, value)
#define pshmem_test_some(ivars, n, indices, status, cmp, value)     HANDOFF_SHMEM_G_P2P(pshmem_, ivars, test_some)(ivars, n, indices, status, cmp, value)
#define pshmem_broadcast(team, dest, source, nelems, root)     HANDOFF_SHMEM_G_RMA(pshmem_, dest, broadcast)(team, dest, source, nelems, root)
#define pshmem_collect(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(pshmem_, dest, collect)(team, dest, source, nelems)
#define pshmem_fcollect(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(pshmem_, dest, fcollect)(team, dest, source, nelems)
#define pshmem_alltoall(team, dest, source, nelems) HANDOFF_SHMEM_G_RMA(pshmem_, dest, alltoall)(team, dest, source, nelems)
#define pshmem_sum_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDSP(pshmem_, dest, sum_reduce)(team, dest, source, n)
#define pshmem_prod_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDSP(pshmem_, dest, prod_reduce)(team, dest, source, n)
#define pshmem_max_reduce(team, dest, source, n) HANDOFF_SHMEM_G_RED(pshmem_, dest, max_reduce)(team, dest, source, n)
#define pshmem_min_reduce(team, dest, source, n) HANDOFF_SHMEM_G_RED(pshmem_, dest, min_reduce)(team, dest, source, n)
#define pshmem_and_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(pshmem_, dest, and_reduce)(team, dest, source, n)
#define pshmem_or_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(pshmem_, dest, or_reduce)(team, dest, source, n)
#define pshmem_xor_reduce(team, dest, source, n) HANDOFF_SHMEM_G_REDBIT(pshmem_, dest, xor_reduce)(team, dest, source, n)
#define pshmem_fetch(source, pe) HANDOFF_SHMEM_G_EXT(pshmem_, source, fetch)(source, pe)
#define pshmem_set(dest, value, pe) HANDOFF_SHMEM_G_EXT(pshmem_, dest, set)(dest, value, pe)
#define pshmem_swap(dest, value, pe) HANDOFF_SHMEM_G_EXT(pshmem_, dest, swap)(dest, value, pe)
#define pshmem_finc(dest, pe) HANDOFF_SHMEM_G_STD(pshmem_, dest, finc)(dest, pe)
#define pshmem_inc(dest, pe) HANDOFF_SHMEM_G_STD(pshmem_, dest, inc)(dest, pe)
#define pshmem_fadd(dest, value, pe) HANDOFF_SHMEM_G_STD(pshmem_, dest, fadd)(dest, value, pe)
#define pshmem_add(dest, value, pe) HANDOFF_SHMEM_G_STD(pshmem_, dest, add)(dest, value, pe)
#define pshmem_cswap(dest, cond, value, pe)     HANDOFF_SHMEM_G_STD(pshmem_, dest, cswap)(dest, cond, value, pe)
#endif /* C11 */

#ifdef __cplusplus
inline void pshmem_put(float *dest, const float *source, size_t nelems, int pe) { pshmem_float_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { pshmem_ctx_float_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(double *dest, const double *source, size_t nelems, int pe) { pshmem_double_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { pshmem_ctx_double_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(long double *dest, const long double *source, size_t nelems, int pe) { pshmem_longdouble_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { pshmem_ctx_longdouble_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(char *dest, const char *source, size_t nelems, int pe) { pshmem_char_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { pshmem_ctx_char_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_schar_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_ctx_schar_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(short *dest, const short *source, size_t nelems, int pe) { pshmem_short_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, int pe) { pshmem_ctx_short_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(int *dest, const int *source, size_t nelems, int pe) { pshmem_int_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { pshmem_ctx_int_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(long *dest, const long *source, size_t nelems, int pe) { pshmem_long_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe) { pshmem_ctx_long_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(long long *dest, const long long *source, size_t nelems, int pe) { pshmem_longlong_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, int pe) { pshmem_ctx_longlong_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_uchar_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_ctx_uchar_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { pshmem_ushort_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { pshmem_ctx_ushort_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_uint_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_ctx_uint_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { pshmem_ulong_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { pshmem_ctx_ulong_put(ctx, dest, source, nelems, pe); }
inline void pshmem_put(unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { pshmem_ulonglong_put(dest, source, nelems, pe); }
inline void pshmem_put(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { pshmem_ctx_ulonglong_put(ctx, dest, source, nelems, pe); }
inline void pshmem_get(float *dest, const float *source, size_t nelems, int pe) { pshmem_float_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { pshmem_ctx_float_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(double *dest, const double *source, size_t nelems, int pe) { pshmem_double_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { pshmem_ctx_double_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(long double *dest, const long double *source, size_t nelems, int pe) { pshmem_longdouble_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { pshmem_ctx_longdouble_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(char *dest, const char *source, size_t nelems, int pe) { pshmem_char_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { pshmem_ctx_char_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_schar_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_ctx_schar_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(short *dest, const short *source, size_t nelems, int pe) { pshmem_short_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, int pe) { pshmem_ctx_short_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(int *dest, const int *source, size_t nelems, int pe) { pshmem_int_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { pshmem_ctx_int_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(long *dest, const long *source, size_t nelems, int pe) { pshmem_long_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe) { pshmem_ctx_long_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(long long *dest, const long long *source, size_t nelems, int pe) { pshmem_longlong_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, int pe) { pshmem_ctx_longlong_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_uchar_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_ctx_uchar_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { pshmem_ushort_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { pshmem_ctx_ushort_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_uint_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_ctx_uint_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { pshmem_ulong_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { pshmem_ctx_ulong_get(ctx, dest, source, nelems, pe); }
inline void pshmem_get(unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { pshmem_ulonglong_get(dest, source, nelems, pe); }
inline void pshmem_get(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { pshmem_ctx_ulonglong_get(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(float *dest, const float *source, size_t nelems, int pe) { pshmem_float_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { pshmem_ctx_float_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(double *dest, const double *source, size_t nelems, int pe) { pshmem_double_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { pshmem_ctx_double_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(long double *dest, const long double *source, size_t nelems, int pe) { pshmem_longdouble_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { pshmem_ctx_longdouble_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(char *dest, const char *source, size_t nelems, int pe) { pshmem_char_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { pshmem_ctx_char_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_schar_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_ctx_schar_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(short *dest, const short *source, size_t nelems, int pe) { pshmem_short_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, int pe) { pshmem_ctx_short_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(int *dest, const int *source, size_t nelems, int pe) { pshmem_int_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { pshmem_ctx_int_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(long *dest, const long *source, size_t nelems, int pe) { pshmem_long_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe) { pshmem_ctx_long_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(long long *dest, const long long *source, size_t nelems, int pe) { pshmem_longlong_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, int pe) { pshmem_ctx_longlong_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_uchar_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_ctx_uchar_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { pshmem_ushort_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { pshmem_ctx_ushort_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_uint_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_ctx_uint_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { pshmem_ulong_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { pshmem_ctx_ulong_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_put_nbi(unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { pshmem_ulonglong_put_nbi(dest, source, nelems, pe); }
inline void pshmem_put_nbi(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { pshmem_ctx_ulonglong_put_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(float *dest, const float *source, size_t nelems, int pe) { pshmem_float_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, int pe) { pshmem_ctx_float_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(double *dest, const double *source, size_t nelems, int pe) { pshmem_double_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, int pe) { pshmem_ctx_double_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(long double *dest, const long double *source, size_t nelems, int pe) { pshmem_longdouble_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe) { pshmem_ctx_longdouble_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(char *dest, const char *source, size_t nelems, int pe) { pshmem_char_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, int pe) { pshmem_ctx_char_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_schar_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, int pe) { pshmem_ctx_schar_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(short *dest, const short *source, size_t nelems, int pe) { pshmem_short_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, int pe) { pshmem_ctx_short_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(int *dest, const int *source, size_t nelems, int pe) { pshmem_int_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, int pe) { pshmem_ctx_int_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(long *dest, const long *source, size_t nelems, int pe) { pshmem_long_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe) { pshmem_ctx_long_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(long long *dest, const long long *source, size_t nelems, int pe) { pshmem_longlong_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, int pe) { pshmem_ctx_longlong_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_uchar_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, int pe) { pshmem_ctx_uchar_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { pshmem_ushort_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, int pe) { pshmem_ctx_ushort_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_uint_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, int pe) { pshmem_ctx_uint_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { pshmem_ulong_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, int pe) { pshmem_ctx_ulong_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_get_nbi(unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { pshmem_ulonglong_get_nbi(dest, source, nelems, pe); }
inline void pshmem_get_nbi(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, int pe) { pshmem_ctx_ulonglong_get_nbi(ctx, dest, source, nelems, pe); }
inline void pshmem_iput(float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_float_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_float_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_double_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_double_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_longdouble_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_longdouble_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_char_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_char_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_schar_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_schar_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_short_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_short_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_int_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_long_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_long_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_longlong_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_longlong_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uchar_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_uchar_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ushort_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_ushort_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_uint_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ulong_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_ulong_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ulonglong_iput(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iput(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_ulonglong_iput(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_float_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_float_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_double_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_double_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_longdouble_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_longdouble_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_char_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_char_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_schar_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_schar_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_short_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_short_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_int_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_int_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_long_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_long_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_longlong_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_longlong_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uchar_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_uchar_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ushort_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_ushort_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_uint_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_uint_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ulong_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_ulong_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ulonglong_iget(dest, source, dst, sst, nelems, pe); }
inline void pshmem_iget(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { pshmem_ctx_ulonglong_iget(ctx, dest, source, dst, sst, nelems, pe); }
inline void pshmem_p(float *dest, float value, int pe) { pshmem_float_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, float *dest, float value, int pe) { pshmem_ctx_float_p(ctx, dest, value, pe); }
inline void pshmem_p(double *dest, double value, int pe) { pshmem_double_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, double *dest, double value, int pe) { pshmem_ctx_double_p(ctx, dest, value, pe); }
inline void pshmem_p(long double *dest, long double value, int pe) { pshmem_longdouble_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, long double *dest, long double value, int pe) { pshmem_ctx_longdouble_p(ctx, dest, value, pe); }
inline void pshmem_p(char *dest, char value, int pe) { pshmem_char_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, char *dest, char value, int pe) { pshmem_ctx_char_p(ctx, dest, value, pe); }
inline void pshmem_p(signed char *dest, signed char value, int pe) { pshmem_schar_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, signed char *dest, signed char value, int pe) { pshmem_ctx_schar_p(ctx, dest, value, pe); }
inline void pshmem_p(short *dest, short value, int pe) { pshmem_short_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, short *dest, short value, int pe) { pshmem_ctx_short_p(ctx, dest, value, pe); }
inline void pshmem_p(int *dest, int value, int pe) { pshmem_int_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_ctx_int_p(ctx, dest, value, pe); }
inline void pshmem_p(long *dest, long value, int pe) { pshmem_long_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, long *dest, long value, int pe) { pshmem_ctx_long_p(ctx, dest, value, pe); }
inline void pshmem_p(long long *dest, long long value, int pe) { pshmem_longlong_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, long long *dest, long long value, int pe) { pshmem_ctx_longlong_p(ctx, dest, value, pe); }
inline void pshmem_p(unsigned char *dest, unsigned char value, int pe) { pshmem_uchar_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, unsigned char *dest, unsigned char value, int pe) { pshmem_ctx_uchar_p(ctx, dest, value, pe); }
inline void pshmem_p(unsigned short *dest, unsigned short value, int pe) { pshmem_ushort_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, unsigned short *dest, unsigned short value, int pe) { pshmem_ctx_ushort_p(ctx, dest, value, pe); }
inline void pshmem_p(unsigned int *dest, unsigned int value, int pe) { pshmem_uint_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_p(ctx, dest, value, pe); }
inline void pshmem_p(unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_p(ctx, dest, value, pe); }
inline void pshmem_p(unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_p(dest, value, pe); }
inline void pshmem_p(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_p(ctx, dest, value, pe); }
inline float pshmem_g(const float *source, int pe) { return pshmem_float_g(source, pe); }
inline float pshmem_g(shmem_ctx_t ctx, const float *source, int pe) { return pshmem_ctx_float_g(ctx, source, pe); }
inline double pshmem_g(const double *source, int pe) { return pshmem_double_g(source, pe); }
inline double pshmem_g(shmem_ctx_t ctx, const double *source, int pe) { return pshmem_ctx_double_g(ctx, source, pe); }
inline long double pshmem_g(const long double *source, int pe) { return pshmem_longdouble_g(source, pe); }
inline long double pshmem_g(shmem_ctx_t ctx, const long double *source, int pe) { return pshmem_ctx_longdouble_g(ctx, source, pe); }
inline char pshmem_g(const char *source, int pe) { return pshmem_char_g(source, pe); }
inline char pshmem_g(shmem_ctx_t ctx, const char *source, int pe) { return pshmem_ctx_char_g(ctx, source, pe); }
inline signed char pshmem_g(const signed char *source, int pe) { return pshmem_schar_g(source, pe); }
inline signed char pshmem_g(shmem_ctx_t ctx, const signed char *source, int pe) { return pshmem_ctx_schar_g(ctx, source, pe); }
inline short pshmem_g(const short *source, int pe) { return pshmem_short_g(source, pe); }
inline short pshmem_g(shmem_ctx_t ctx, const short *source, int pe) { return pshmem_ctx_short_g(ctx, source, pe); }
inline int pshmem_g(const int *source, int pe) { return pshmem_int_g(source, pe); }
inline int pshmem_g(shmem_ctx_t ctx, const int *source, int pe) { return pshmem_ctx_int_g(ctx, source, pe); }
inline long pshmem_g(const long *source, int pe) { return pshmem_long_g(source, pe); }
inline long pshmem_g(shmem_ctx_t ctx, const long *source, int pe) { return pshmem_ctx_long_g(ctx, source, pe); }
inline long long pshmem_g(const long long *source, int pe) { return pshmem_longlong_g(source, pe); }
inline long long pshmem_g(shmem_ctx_t ctx, const long long *source, int pe) { return pshmem_ctx_longlong_g(ctx, source, pe); }
inline unsigned char pshmem_g(const unsigned char *source, int pe) { return pshmem_uchar_g(source, pe); }
inline unsigned char pshmem_g(shmem_ctx_t ctx, const unsigned char *source, int pe) { return pshmem_ctx_uchar_g(ctx, source, pe); }
inline unsigned short pshmem_g(const unsigned short *source, int pe) { return pshmem_ushort_g(source, pe); }
inline unsigned short pshmem_g(shmem_ctx_t ctx, const unsigned short *source, int pe) { return pshmem_ctx_ushort_g(ctx, source, pe); }
inline unsigned int pshmem_g(const unsigned int *source, int pe) { return pshmem_uint_g(source, pe); }
inline unsigned int pshmem_g(shmem_ctx_t ctx, const unsigned int *source, int pe) { return pshmem_ctx_uint_g(ctx, source, pe); }
inline unsigned long pshmem_g(const unsigned long *source, int pe) { return pshmem_ulong_g(source, pe); }
inline unsigned long pshmem_g(shmem_ctx_t ctx, const unsigned long *source, int pe) { return pshmem_ctx_ulong_g(ctx, source, pe); }
inline unsigned long long pshmem_g(const unsigned long long *source, int pe) { return pshmem_ulonglong_g(source, pe); }
inline unsigned long long pshmem_g(shmem_ctx_t ctx, const unsigned long long *source, int pe) { return pshmem_ctx_ulonglong_g(ctx, source, pe); }
inline void pshmem_put_signal(float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_float_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_float_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_double_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_double_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_longdouble_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_longdouble_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_char_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_char_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_schar_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_schar_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(short *dest, const short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_short_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_short_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_int_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_long_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_long_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(long long *dest, const long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_longlong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_longlong_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uchar_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_uchar_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(unsigned short *dest, const unsigned short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ushort_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_ushort_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_uint_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(unsigned long *dest, const unsigned long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ulong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_ulong_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(unsigned long long *dest, const unsigned long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ulonglong_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_ulonglong_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_float_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, float *dest, const float *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_float_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_double_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_double_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_longdouble_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_longdouble_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_char_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, char *dest, const char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_char_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_schar_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, signed char *dest, const signed char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_schar_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(short *dest, const short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_short_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, short *dest, const short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_short_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_int_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, int *dest, const int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_int_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_long_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_long_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(long long *dest, const long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_longlong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, long long *dest, const long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_longlong_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uchar_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, unsigned char *dest, const unsigned char *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_uchar_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(unsigned short *dest, const unsigned short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ushort_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, unsigned short *dest, const unsigned short *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_ushort_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_uint_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, unsigned int *dest, const unsigned int *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_uint_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(unsigned long *dest, const unsigned long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ulong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, unsigned long *dest, const unsigned long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_ulong_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(unsigned long long *dest, const unsigned long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ulonglong_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline void pshmem_put_signal_nbi(shmem_ctx_t ctx, unsigned long long *dest, const unsigned long long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { pshmem_ctx_ulonglong_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe); }
inline int pshmem_atomic_fetch(const int *source, int pe) { return pshmem_int_atomic_fetch(source, pe); }
inline int pshmem_atomic_fetch(shmem_ctx_t ctx, const int *source, int pe) { return pshmem_ctx_int_atomic_fetch(ctx, source, pe); }
inline long pshmem_atomic_fetch(const long *source, int pe) { return pshmem_long_atomic_fetch(source, pe); }
inline long pshmem_atomic_fetch(shmem_ctx_t ctx, const long *source, int pe) { return pshmem_ctx_long_atomic_fetch(ctx, source, pe); }
inline long long pshmem_atomic_fetch(const long long *source, int pe) { return pshmem_longlong_atomic_fetch(source, pe); }
inline long long pshmem_atomic_fetch(shmem_ctx_t ctx, const long long *source, int pe) { return pshmem_ctx_longlong_atomic_fetch(ctx, source, pe); }
inline unsigned int pshmem_atomic_fetch(const unsigned int *source, int pe) { return pshmem_uint_atomic_fetch(source, pe); }
inline unsigned int pshmem_atomic_fetch(shmem_ctx_t ctx, const unsigned int *source, int pe) { return pshmem_ctx_uint_atomic_fetch(ctx, source, pe); }
inline unsigned long pshmem_atomic_fetch(const unsigned long *source, int pe) { return pshmem_ulong_atomic_fetch(source, pe); }
inline unsigned long pshmem_atomic_fetch(shmem_ctx_t ctx, const unsigned long *source, int pe) { return pshmem_ctx_ulong_atomic_fetch(ctx, source, pe); }
inline unsigned long long pshmem_atomic_fetch(const unsigned long long *source, int pe) { return pshmem_ulonglong_atomic_fetch(source, pe); }
inline unsigned long long pshmem_atomic_fetch(shmem_ctx_t ctx, const unsigned long long *source, int pe) { return pshmem_ctx_ulonglong_atomic_fetch(ctx, source, pe); }
inline float pshmem_atomic_fetch(const float *source, int pe) { return pshmem_float_atomic_fetch(source, pe); }
inline float pshmem_atomic_fetch(shmem_ctx_t ctx, const float *source, int pe) { return pshmem_ctx_float_atomic_fetch(ctx, source, pe); }
inline double pshmem_atomic_fetch(const double *source, int pe) { return pshmem_double_atomic_fetch(source, pe); }
inline double pshmem_atomic_fetch(shmem_ctx_t ctx, const double *source, int pe) { return pshmem_ctx_double_atomic_fetch(ctx, source, pe); }
inline void pshmem_atomic_set(int *dest, int value, int pe) { pshmem_int_atomic_set(dest, value, pe); }
inline void pshmem_atomic_set(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_ctx_int_atomic_set(ctx, dest, value, pe); }
inline void pshmem_atomic_set(long *dest, long value, int pe) { pshmem_long_atomic_set(dest, value, pe); }
inline void pshmem_atomic_set(shmem_ctx_t ctx, long *dest, long value, int pe) { pshmem_ctx_long_atomic_set(ctx, dest, value, pe); }
inline void pshmem_atomic_set(long long *dest, long long value, int pe) { pshmem_longlong_atomic_set(dest, value, pe); }
inline void pshmem_atomic_set(shmem_ctx_t ctx, long long *dest, long long value, int pe) { pshmem_ctx_longlong_atomic_set(ctx, dest, value, pe); }
inline void pshmem_atomic_set(unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_set(dest, value, pe); }
inline void pshmem_atomic_set(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_set(ctx, dest, value, pe); }
inline void pshmem_atomic_set(unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_set(dest, value, pe); }
inline void pshmem_atomic_set(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_set(ctx, dest, value, pe); }
inline void pshmem_atomic_set(unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_set(dest, value, pe); }
inline void pshmem_atomic_set(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_set(ctx, dest, value, pe); }
inline void pshmem_atomic_set(float *dest, float value, int pe) { pshmem_float_atomic_set(dest, value, pe); }
inline void pshmem_atomic_set(shmem_ctx_t ctx, float *dest, float value, int pe) { pshmem_ctx_float_atomic_set(ctx, dest, value, pe); }
inline void pshmem_atomic_set(double *dest, double value, int pe) { pshmem_double_atomic_set(dest, value, pe); }
inline void pshmem_atomic_set(shmem_ctx_t ctx, double *dest, double value, int pe) { pshmem_ctx_double_atomic_set(ctx, dest, value, pe); }
inline int pshmem_atomic_swap(int *dest, int value, int pe) { return pshmem_int_atomic_swap(dest, value, pe); }
inline int pshmem_atomic_swap(shmem_ctx_t ctx, int *dest, int value, int pe) { return pshmem_ctx_int_atomic_swap(ctx, dest, value, pe); }
inline long pshmem_atomic_swap(long *dest, long value, int pe) { return pshmem_long_atomic_swap(dest, value, pe); }
inline long pshmem_atomic_swap(shmem_ctx_t ctx, long *dest, long value, int pe) { return pshmem_ctx_long_atomic_swap(ctx, dest, value, pe); }
inline long long pshmem_atomic_swap(long long *dest, long long value, int pe) { return pshmem_longlong_atomic_swap(dest, value, pe); }
inline long long pshmem_atomic_swap(shmem_ctx_t ctx, long long *dest, long long value, int pe) { return pshmem_ctx_longlong_atomic_swap(ctx, dest, value, pe); }
inline unsigned int pshmem_atomic_swap(unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_swap(dest, value, pe); }
inline unsigned int pshmem_atomic_swap(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_ctx_uint_atomic_swap(ctx, dest, value, pe); }
inline unsigned long pshmem_atomic_swap(unsigned long *dest, unsigned long value, int pe) { return pshmem_ulong_atomic_swap(dest, value, pe); }
inline unsigned long pshmem_atomic_swap(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return pshmem_ctx_ulong_atomic_swap(ctx, dest, value, pe); }
inline unsigned long long pshmem_atomic_swap(unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ulonglong_atomic_swap(dest, value, pe); }
inline unsigned long long pshmem_atomic_swap(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ctx_ulonglong_atomic_swap(ctx, dest, value, pe); }
inline float pshmem_atomic_swap(float *dest, float value, int pe) { return pshmem_float_atomic_swap(dest, value, pe); }
inline float pshmem_atomic_swap(shmem_ctx_t ctx, float *dest, float value, int pe) { return pshmem_ctx_float_atomic_swap(ctx, dest, value, pe); }
inline double pshmem_atomic_swap(double *dest, double value, int pe) { return pshmem_double_atomic_swap(dest, value, pe); }
inline double pshmem_atomic_swap(shmem_ctx_t ctx, double *dest, double value, int pe) { return pshmem_ctx_double_atomic_swap(ctx, dest, value, pe); }
inline void pshmem_atomic_fetch_nbi(int *fetch, const int *source, int pe) { pshmem_int_atomic_fetch_nbi(fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(shmem_ctx_t ctx, int *fetch, const int *source, int pe) { pshmem_ctx_int_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(long *fetch, const long *source, int pe) { pshmem_long_atomic_fetch_nbi(fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(shmem_ctx_t ctx, long *fetch, const long *source, int pe) { pshmem_ctx_long_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(long long *fetch, const long long *source, int pe) { pshmem_longlong_atomic_fetch_nbi(fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(shmem_ctx_t ctx, long long *fetch, const long long *source, int pe) { pshmem_ctx_longlong_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(unsigned int *fetch, const unsigned int *source, int pe) { pshmem_uint_atomic_fetch_nbi(fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(shmem_ctx_t ctx, unsigned int *fetch, const unsigned int *source, int pe) { pshmem_ctx_uint_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(unsigned long *fetch, const unsigned long *source, int pe) { pshmem_ulong_atomic_fetch_nbi(fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(shmem_ctx_t ctx, unsigned long *fetch, const unsigned long *source, int pe) { pshmem_ctx_ulong_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(unsigned long long *fetch, const unsigned long long *source, int pe) { pshmem_ulonglong_atomic_fetch_nbi(fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(shmem_ctx_t ctx, unsigned long long *fetch, const unsigned long long *source, int pe) { pshmem_ctx_ulonglong_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(float *fetch, const float *source, int pe) { pshmem_float_atomic_fetch_nbi(fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(shmem_ctx_t ctx, float *fetch, const float *source, int pe) { pshmem_ctx_float_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(double *fetch, const double *source, int pe) { pshmem_double_atomic_fetch_nbi(fetch, source, pe); }
inline void pshmem_atomic_fetch_nbi(shmem_ctx_t ctx, double *fetch, const double *source, int pe) { pshmem_ctx_double_atomic_fetch_nbi(ctx, fetch, source, pe); }
inline void pshmem_atomic_swap_nbi(int *fetch, int *dest, int value, int pe) { pshmem_int_atomic_swap_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { pshmem_ctx_int_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(long *fetch, long *dest, long value, int pe) { pshmem_long_atomic_swap_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { pshmem_ctx_long_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(long long *fetch, long long *dest, long long value, int pe) { pshmem_longlong_atomic_swap_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(shmem_ctx_t ctx, long long *fetch, long long *dest, long long value, int pe) { pshmem_ctx_longlong_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_swap_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_swap_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_swap_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(float *fetch, float *dest, float value, int pe) { pshmem_float_atomic_swap_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(shmem_ctx_t ctx, float *fetch, float *dest, float value, int pe) { pshmem_ctx_float_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(double *fetch, double *dest, double value, int pe) { pshmem_double_atomic_swap_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_swap_nbi(shmem_ctx_t ctx, double *fetch, double *dest, double value, int pe) { pshmem_ctx_double_atomic_swap_nbi(ctx, fetch, dest, value, pe); }
inline int pshmem_atomic_fetch_inc(int *dest, int pe) { return pshmem_int_atomic_fetch_inc(dest, pe); }
inline int pshmem_atomic_fetch_inc(shmem_ctx_t ctx, int *dest, int pe) { return pshmem_ctx_int_atomic_fetch_inc(ctx, dest, pe); }
inline long pshmem_atomic_fetch_inc(long *dest, int pe) { return pshmem_long_atomic_fetch_inc(dest, pe); }
inline long pshmem_atomic_fetch_inc(shmem_ctx_t ctx, long *dest, int pe) { return pshmem_ctx_long_atomic_fetch_inc(ctx, dest, pe); }
inline long long pshmem_atomic_fetch_inc(long long *dest, int pe) { return pshmem_longlong_atomic_fetch_inc(dest, pe); }
inline long long pshmem_atomic_fetch_inc(shmem_ctx_t ctx, long long *dest, int pe) { return pshmem_ctx_longlong_atomic_fetch_inc(ctx, dest, pe); }
inline unsigned int pshmem_atomic_fetch_inc(unsigned int *dest, int pe) { return pshmem_uint_atomic_fetch_inc(dest, pe); }
inline unsigned int pshmem_atomic_fetch_inc(shmem_ctx_t ctx, unsigned int *dest, int pe) { return pshmem_ctx_uint_atomic_fetch_inc(ctx, dest, pe); }
inline unsigned long pshmem_atomic_fetch_inc(unsigned long *dest, int pe) { return pshmem_ulong_atomic_fetch_inc(dest, pe); }
inline unsigned long pshmem_atomic_fetch_inc(shmem_ctx_t ctx, unsigned long *dest, int pe) { return pshmem_ctx_ulong_atomic_fetch_inc(ctx, dest, pe); }
inline unsigned long long pshmem_atomic_fetch_inc(unsigned long long *dest, int pe) { return pshmem_ulonglong_atomic_fetch_inc(dest, pe); }
inline unsigned long long pshmem_atomic_fetch_inc(shmem_ctx_t ctx, unsigned long long *dest, int pe) { return pshmem_ctx_ulonglong_atomic_fetch_inc(ctx, dest, pe); }
inline void pshmem_atomic_inc(int *dest, int pe) { pshmem_int_atomic_inc(dest, pe); }
inline void pshmem_atomic_inc(shmem_ctx_t ctx, int *dest, int pe) { pshmem_ctx_int_atomic_inc(ctx, dest, pe); }
inline void pshmem_atomic_inc(long *dest, int pe) { pshmem_long_atomic_inc(dest, pe); }
inline void pshmem_atomic_inc(shmem_ctx_t ctx, long *dest, int pe) { pshmem_ctx_long_atomic_inc(ctx, dest, pe); }
inline void pshmem_atomic_inc(long long *dest, int pe) { pshmem_longlong_atomic_inc(dest, pe); }
inline void pshmem_atomic_inc(shmem_ctx_t ctx, long long *dest, int pe) { pshmem_ctx_longlong_atomic_inc(ctx, dest, pe); }
inline void pshmem_atomic_inc(unsigned int *dest, int pe) { pshmem_uint_atomic_inc(dest, pe); }
inline void pshmem_atomic_inc(shmem_ctx_t ctx, unsigned int *dest, int pe) { pshmem_ctx_uint_atomic_inc(ctx, dest, pe); }
inline void pshmem_atomic_inc(unsigned long *dest, int pe) { pshmem_ulong_atomic_inc(dest, pe); }
inline void pshmem_atomic_inc(shmem_ctx_t ctx, unsigned long *dest, int pe) { pshmem_ctx_ulong_atomic_inc(ctx, dest, pe); }
inline void pshmem_atomic_inc(unsigned long long *dest, int pe) { pshmem_ulonglong_atomic_inc(dest, pe); }
inline void pshmem_atomic_inc(shmem_ctx_t ctx, unsigned long long *dest, int pe) { pshmem_ctx_ulonglong_atomic_inc(ctx, dest, pe); }
inline int pshmem_atomic_fetch_add(int *dest, int value, int pe) { return pshmem_int_atomic_fetch_add(dest, value, pe); }
inline int pshmem_atomic_fetch_add(shmem_ctx_t ctx, int *dest, int value, int pe) { return pshmem_ctx_int_atomic_fetch_add(ctx, dest, value, pe); }
inline long pshmem_atomic_fetch_add(long *dest, long value, int pe) { return pshmem_long_atomic_fetch_add(dest, value, pe); }
inline long pshmem_atomic_fetch_add(shmem_ctx_t ctx, long *dest, long value, int pe) { return pshmem_ctx_long_atomic_fetch_add(ctx, dest, value, pe); }
inline long long pshmem_atomic_fetch_add(long long *dest, long long value, int pe) { return pshmem_longlong_atomic_fetch_add(dest, value, pe); }
inline long long pshmem_atomic_fetch_add(shmem_ctx_t ctx, long long *dest, long long value, int pe) { return pshmem_ctx_longlong_atomic_fetch_add(ctx, dest, value, pe); }
inline unsigned int pshmem_atomic_fetch_add(unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_fetch_add(dest, value, pe); }
inline unsigned int pshmem_atomic_fetch_add(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_ctx_uint_atomic_fetch_add(ctx, dest, value, pe); }
inline unsigned long pshmem_atomic_fetch_add(unsigned long *dest, unsigned long value, int pe) { return pshmem_ulong_atomic_fetch_add(dest, value, pe); }
inline unsigned long pshmem_atomic_fetch_add(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return pshmem_ctx_ulong_atomic_fetch_add(ctx, dest, value, pe); }
inline unsigned long long pshmem_atomic_fetch_add(unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ulonglong_atomic_fetch_add(dest, value, pe); }
inline unsigned long long pshmem_atomic_fetch_add(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ctx_ulonglong_atomic_fetch_add(ctx, dest, value, pe); }
inline void pshmem_atomic_add(int *dest, int value, int pe) { pshmem_int_atomic_add(dest, value, pe); }
inline void pshmem_atomic_add(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_ctx_int_atomic_add(ctx, dest, value, pe); }
inline void pshmem_atomic_add(long *dest, long value, int pe) { pshmem_long_atomic_add(dest, value, pe); }
inline void pshmem_atomic_add(shmem_ctx_t ctx, long *dest, long value, int pe) { pshmem_ctx_long_atomic_add(ctx, dest, value, pe); }
inline void pshmem_atomic_add(long long *dest, long long value, int pe) { pshmem_longlong_atomic_add(dest, value, pe); }
inline void pshmem_atomic_add(shmem_ctx_t ctx, long long *dest, long long value, int pe) { pshmem_ctx_longlong_atomic_add(ctx, dest, value, pe); }
inline void pshmem_atomic_add(unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_add(dest, value, pe); }
inline void pshmem_atomic_add(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_add(ctx, dest, value, pe); }
inline void pshmem_atomic_add(unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_add(dest, value, pe); }
inline void pshmem_atomic_add(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_add(ctx, dest, value, pe); }
inline void pshmem_atomic_add(unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_add(dest, value, pe); }
inline void pshmem_atomic_add(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_add(ctx, dest, value, pe); }
inline int pshmem_atomic_compare_swap(int *dest, int cond, int value, int pe) { return pshmem_int_atomic_compare_swap(dest, cond, value, pe); }
inline int pshmem_atomic_compare_swap(shmem_ctx_t ctx, int *dest, int cond, int value, int pe) { return pshmem_ctx_int_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline long pshmem_atomic_compare_swap(long *dest, long cond, long value, int pe) { return pshmem_long_atomic_compare_swap(dest, cond, value, pe); }
inline long pshmem_atomic_compare_swap(shmem_ctx_t ctx, long *dest, long cond, long value, int pe) { return pshmem_ctx_long_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline long long pshmem_atomic_compare_swap(long long *dest, long long cond, long long value, int pe) { return pshmem_longlong_atomic_compare_swap(dest, cond, value, pe); }
inline long long pshmem_atomic_compare_swap(shmem_ctx_t ctx, long long *dest, long long cond, long long value, int pe) { return pshmem_ctx_longlong_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline unsigned int pshmem_atomic_compare_swap(unsigned int *dest, unsigned int cond, unsigned int value, int pe) { return pshmem_uint_atomic_compare_swap(dest, cond, value, pe); }
inline unsigned int pshmem_atomic_compare_swap(shmem_ctx_t ctx, unsigned int *dest, unsigned int cond, unsigned int value, int pe) { return pshmem_ctx_uint_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline unsigned long pshmem_atomic_compare_swap(unsigned long *dest, unsigned long cond, unsigned long value, int pe) { return pshmem_ulong_atomic_compare_swap(dest, cond, value, pe); }
inline unsigned long pshmem_atomic_compare_swap(shmem_ctx_t ctx, unsigned long *dest, unsigned long cond, unsigned long value, int pe) { return pshmem_ctx_ulong_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline unsigned long long pshmem_atomic_compare_swap(unsigned long long *dest, unsigned long long cond, unsigned long long value, int pe) { return pshmem_ulonglong_atomic_compare_swap(dest, cond, value, pe); }
inline unsigned long long pshmem_atomic_compare_swap(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long cond, unsigned long long value, int pe) { return pshmem_ctx_ulonglong_atomic_compare_swap(ctx, dest, cond, value, pe); }
inline void pshmem_atomic_fetch_inc_nbi(int *fetch, int *dest, int pe) { pshmem_int_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int pe) { pshmem_ctx_int_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(long *fetch, long *dest, int pe) { pshmem_long_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, long *fetch, long *dest, int pe) { pshmem_ctx_long_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(long long *fetch, long long *dest, int pe) { pshmem_longlong_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, long long *fetch, long long *dest, int pe) { pshmem_ctx_longlong_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(unsigned int *fetch, unsigned int *dest, int pe) { pshmem_uint_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, int pe) { pshmem_ctx_uint_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(unsigned long *fetch, unsigned long *dest, int pe) { pshmem_ulong_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, int pe) { pshmem_ctx_ulong_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(unsigned long long *fetch, unsigned long long *dest, int pe) { pshmem_ulonglong_atomic_fetch_inc_nbi(fetch, dest, pe); }
inline void pshmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, int pe) { pshmem_ctx_ulonglong_atomic_fetch_inc_nbi(ctx, fetch, dest, pe); }
inline void pshmem_atomic_fetch_add_nbi(int *fetch, int *dest, int value, int pe) { pshmem_int_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { pshmem_ctx_int_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(long *fetch, long *dest, long value, int pe) { pshmem_long_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { pshmem_ctx_long_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(long long *fetch, long long *dest, long long value, int pe) { pshmem_longlong_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, long long *fetch, long long *dest, long long value, int pe) { pshmem_ctx_longlong_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_fetch_add_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(int *fetch, int *dest, int cond, int value, int pe) { pshmem_int_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int cond, int value, int pe) { pshmem_ctx_int_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(long *fetch, long *dest, long cond, long value, int pe) { pshmem_long_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long cond, long value, int pe) { pshmem_ctx_long_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(long long *fetch, long long *dest, long long cond, long long value, int pe) { pshmem_longlong_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, long long *fetch, long long *dest, long long cond, long long value, int pe) { pshmem_ctx_longlong_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(unsigned int *fetch, unsigned int *dest, unsigned int cond, unsigned int value, int pe) { pshmem_uint_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int cond, unsigned int value, int pe) { pshmem_ctx_uint_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(unsigned long *fetch, unsigned long *dest, unsigned long cond, unsigned long value, int pe) { pshmem_ulong_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long cond, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long cond, unsigned long long value, int pe) { pshmem_ulonglong_atomic_compare_swap_nbi(fetch, dest, cond, value, pe); }
inline void pshmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long cond, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe); }
inline unsigned int pshmem_atomic_fetch_and(unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_fetch_and(dest, value, pe); }
inline unsigned int pshmem_atomic_fetch_and(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_ctx_uint_atomic_fetch_and(ctx, dest, value, pe); }
inline unsigned long pshmem_atomic_fetch_and(unsigned long *dest, unsigned long value, int pe) { return pshmem_ulong_atomic_fetch_and(dest, value, pe); }
inline unsigned long pshmem_atomic_fetch_and(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return pshmem_ctx_ulong_atomic_fetch_and(ctx, dest, value, pe); }
inline unsigned long long pshmem_atomic_fetch_and(unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ulonglong_atomic_fetch_and(dest, value, pe); }
inline unsigned long long pshmem_atomic_fetch_and(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ctx_ulonglong_atomic_fetch_and(ctx, dest, value, pe); }
inline int pshmem_atomic_fetch_and(int *dest, int value, int pe) { return pshmem_int32_atomic_fetch_and(dest, value, pe); }
inline int pshmem_atomic_fetch_and(shmem_ctx_t ctx, int *dest, int value, int pe) { return pshmem_ctx_int32_atomic_fetch_and(ctx, dest, value, pe); }
inline long pshmem_atomic_fetch_and(long *dest, long value, int pe) { return pshmem_int64_atomic_fetch_and(dest, value, pe); }
inline long pshmem_atomic_fetch_and(shmem_ctx_t ctx, long *dest, long value, int pe) { return pshmem_ctx_int64_atomic_fetch_and(ctx, dest, value, pe); }
inline void pshmem_atomic_and(unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_and(dest, value, pe); }
inline void pshmem_atomic_and(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_and(ctx, dest, value, pe); }
inline void pshmem_atomic_and(unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_and(dest, value, pe); }
inline void pshmem_atomic_and(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_and(ctx, dest, value, pe); }
inline void pshmem_atomic_and(unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_and(dest, value, pe); }
inline void pshmem_atomic_and(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_and(ctx, dest, value, pe); }
inline void pshmem_atomic_and(int *dest, int value, int pe) { pshmem_int32_atomic_and(dest, value, pe); }
inline void pshmem_atomic_and(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_ctx_int32_atomic_and(ctx, dest, value, pe); }
inline void pshmem_atomic_and(long *dest, long value, int pe) { pshmem_int64_atomic_and(dest, value, pe); }
inline void pshmem_atomic_and(shmem_ctx_t ctx, long *dest, long value, int pe) { pshmem_ctx_int64_atomic_and(ctx, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(int *fetch, int *dest, int value, int pe) { pshmem_int32_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { pshmem_ctx_int32_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(long *fetch, long *dest, long value, int pe) { pshmem_int64_atomic_fetch_and_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_and_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { pshmem_ctx_int64_atomic_fetch_and_nbi(ctx, fetch, dest, value, pe); }
inline unsigned int pshmem_atomic_fetch_or(unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_fetch_or(dest, value, pe); }
inline unsigned int pshmem_atomic_fetch_or(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_ctx_uint_atomic_fetch_or(ctx, dest, value, pe); }
inline unsigned long pshmem_atomic_fetch_or(unsigned long *dest, unsigned long value, int pe) { return pshmem_ulong_atomic_fetch_or(dest, value, pe); }
inline unsigned long pshmem_atomic_fetch_or(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return pshmem_ctx_ulong_atomic_fetch_or(ctx, dest, value, pe); }
inline unsigned long long pshmem_atomic_fetch_or(unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ulonglong_atomic_fetch_or(dest, value, pe); }
inline unsigned long long pshmem_atomic_fetch_or(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ctx_ulonglong_atomic_fetch_or(ctx, dest, value, pe); }
inline int pshmem_atomic_fetch_or(int *dest, int value, int pe) { return pshmem_int32_atomic_fetch_or(dest, value, pe); }
inline int pshmem_atomic_fetch_or(shmem_ctx_t ctx, int *dest, int value, int pe) { return pshmem_ctx_int32_atomic_fetch_or(ctx, dest, value, pe); }
inline long pshmem_atomic_fetch_or(long *dest, long value, int pe) { return pshmem_int64_atomic_fetch_or(dest, value, pe); }
inline long pshmem_atomic_fetch_or(shmem_ctx_t ctx, long *dest, long value, int pe) { return pshmem_ctx_int64_atomic_fetch_or(ctx, dest, value, pe); }
inline void pshmem_atomic_or(unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_or(dest, value, pe); }
inline void pshmem_atomic_or(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_or(ctx, dest, value, pe); }
inline void pshmem_atomic_or(unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_or(dest, value, pe); }
inline void pshmem_atomic_or(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_or(ctx, dest, value, pe); }
inline void pshmem_atomic_or(unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_or(dest, value, pe); }
inline void pshmem_atomic_or(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_or(ctx, dest, value, pe); }
inline void pshmem_atomic_or(int *dest, int value, int pe) { pshmem_int32_atomic_or(dest, value, pe); }
inline void pshmem_atomic_or(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_ctx_int32_atomic_or(ctx, dest, value, pe); }
inline void pshmem_atomic_or(long *dest, long value, int pe) { pshmem_int64_atomic_or(dest, value, pe); }
inline void pshmem_atomic_or(shmem_ctx_t ctx, long *dest, long value, int pe) { pshmem_ctx_int64_atomic_or(ctx, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(int *fetch, int *dest, int value, int pe) { pshmem_int32_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { pshmem_ctx_int32_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(long *fetch, long *dest, long value, int pe) { pshmem_int64_atomic_fetch_or_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_or_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { pshmem_ctx_int64_atomic_fetch_or_nbi(ctx, fetch, dest, value, pe); }
inline unsigned int pshmem_atomic_fetch_xor(unsigned int *dest, unsigned int value, int pe) { return pshmem_uint_atomic_fetch_xor(dest, value, pe); }
inline unsigned int pshmem_atomic_fetch_xor(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { return pshmem_ctx_uint_atomic_fetch_xor(ctx, dest, value, pe); }
inline unsigned long pshmem_atomic_fetch_xor(unsigned long *dest, unsigned long value, int pe) { return pshmem_ulong_atomic_fetch_xor(dest, value, pe); }
inline unsigned long pshmem_atomic_fetch_xor(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { return pshmem_ctx_ulong_atomic_fetch_xor(ctx, dest, value, pe); }
inline unsigned long long pshmem_atomic_fetch_xor(unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ulonglong_atomic_fetch_xor(dest, value, pe); }
inline unsigned long long pshmem_atomic_fetch_xor(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { return pshmem_ctx_ulonglong_atomic_fetch_xor(ctx, dest, value, pe); }
inline int pshmem_atomic_fetch_xor(int *dest, int value, int pe) { return pshmem_int32_atomic_fetch_xor(dest, value, pe); }
inline int pshmem_atomic_fetch_xor(shmem_ctx_t ctx, int *dest, int value, int pe) { return pshmem_ctx_int32_atomic_fetch_xor(ctx, dest, value, pe); }
inline long pshmem_atomic_fetch_xor(long *dest, long value, int pe) { return pshmem_int64_atomic_fetch_xor(dest, value, pe); }
inline long pshmem_atomic_fetch_xor(shmem_ctx_t ctx, long *dest, long value, int pe) { return pshmem_ctx_int64_atomic_fetch_xor(ctx, dest, value, pe); }
inline void pshmem_atomic_xor(unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_xor(dest, value, pe); }
inline void pshmem_atomic_xor(shmem_ctx_t ctx, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_xor(ctx, dest, value, pe); }
inline void pshmem_atomic_xor(unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_xor(dest, value, pe); }
inline void pshmem_atomic_xor(shmem_ctx_t ctx, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_xor(ctx, dest, value, pe); }
inline void pshmem_atomic_xor(unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_xor(dest, value, pe); }
inline void pshmem_atomic_xor(shmem_ctx_t ctx, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_xor(ctx, dest, value, pe); }
inline void pshmem_atomic_xor(int *dest, int value, int pe) { pshmem_int32_atomic_xor(dest, value, pe); }
inline void pshmem_atomic_xor(shmem_ctx_t ctx, int *dest, int value, int pe) { pshmem_ctx_int32_atomic_xor(ctx, dest, value, pe); }
inline void pshmem_atomic_xor(long *dest, long value, int pe) { pshmem_int64_atomic_xor(dest, value, pe); }
inline void pshmem_atomic_xor(shmem_ctx_t ctx, long *dest, long value, int pe) { pshmem_ctx_int64_atomic_xor(ctx, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_uint_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, unsigned int *fetch, unsigned int *dest, unsigned int value, int pe) { pshmem_ctx_uint_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ulong_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, unsigned long *fetch, unsigned long *dest, unsigned long value, int pe) { pshmem_ctx_ulong_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ulonglong_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, unsigned long long *fetch, unsigned long long *dest, unsigned long long value, int pe) { pshmem_ctx_ulonglong_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(int *fetch, int *dest, int value, int pe) { pshmem_int32_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, int *fetch, int *dest, int value, int pe) { pshmem_ctx_int32_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(long *fetch, long *dest, long value, int pe) { pshmem_int64_atomic_fetch_xor_nbi(fetch, dest, value, pe); }
inline void pshmem_atomic_fetch_xor_nbi(shmem_ctx_t ctx, long *fetch, long *dest, long value, int pe) { pshmem_ctx_int64_atomic_fetch_xor_nbi(ctx, fetch, dest, value, pe); }
inline void pshmem_wait_until(short *ivar, int cmp, short cmp_value) { pshmem_short_wait_until(ivar, cmp, cmp_value); }
inline void pshmem_wait_until(int *ivar, int cmp, int cmp_value) { pshmem_int_wait_until(ivar, cmp, cmp_value); }
inline void pshmem_wait_until(long *ivar, int cmp, long cmp_value) { pshmem_long_wait_until(ivar, cmp, cmp_value); }
inline void pshmem_wait_until(long long *ivar, int cmp, long long cmp_value) { pshmem_longlong_wait_until(ivar, cmp, cmp_value); }
inline void pshmem_wait_until(unsigned short *ivar, int cmp, unsigned short cmp_value) { pshmem_ushort_wait_until(ivar, cmp, cmp_value); }
inline void pshmem_wait_until(unsigned int *ivar, int cmp, unsigned int cmp_value) { pshmem_uint_wait_until(ivar, cmp, cmp_value); }
inline void pshmem_wait_until(unsigned long *ivar, int cmp, unsigned long cmp_value) { pshmem_ulong_wait_until(ivar, cmp, cmp_value); }
inline void pshmem_wait_until(unsigned long long *ivar, int cmp, unsigned long long cmp_value) { pshmem_ulonglong_wait_until(ivar, cmp, cmp_value); }
inline void pshmem_wait(short *ivar, short cmp_value) { pshmem_short_wait(ivar, cmp_value); }
inline void pshmem_wait(int *ivar, int cmp_value) { pshmem_int_wait(ivar, cmp_value); }
inline void pshmem_wait(long *ivar, long cmp_value) { pshmem_long_wait(ivar, cmp_value); }
inline void pshmem_wait(long long *ivar, long long cmp_value) { pshmem_longlong_wait(ivar, cmp_value); }
inline void pshmem_wait(unsigned short *ivar, unsigned short cmp_value) { pshmem_ushort_wait(ivar, cmp_value); }
inline void pshmem_wait(unsigned int *ivar, unsigned int cmp_value) { pshmem_uint_wait(ivar, cmp_value); }
inline void pshmem_wait(unsigned long *ivar, unsigned long cmp_value) { pshmem_ulong_wait(ivar, cmp_value); }
inline void pshmem_wait(unsigned long long *ivar, unsigned long long cmp_value) { pshmem_ulonglong_wait(ivar, cmp_value); }
inline int pshmem_test(short *ivar, int cmp, short cmp_value) { return pshmem_short_test(ivar, cmp, cmp_value); }
inline int pshmem_test(int *ivar, int cmp, int cmp_value) { return pshmem_int_test(ivar, cmp, cmp_value); }
inline int pshmem_test(long *ivar, int cmp, long cmp_value) { return pshmem_long_test(ivar, cmp, cmp_value); }
inline int pshmem_test(long long *ivar, int cmp, long long cmp_value) { return pshmem_longlong_test(ivar, cmp, cmp_value); }
inline int pshmem_test(unsigned short *ivar, int cmp, unsigned short cmp_value) { return pshmem_ushort_test(ivar, cmp, cmp_value); }
inline int pshmem_test(unsigned int *ivar, int cmp, unsigned int cmp_value) { return pshmem_uint_test(ivar, cmp, cmp_value); }
inline int pshmem_test(unsigned long *ivar, int cmp, unsigned long cmp_value) { return pshmem_ulong_test(ivar, cmp, cmp_value); }
inline int pshmem_test(unsigned long long *ivar, int cmp, unsigned long long cmp_value) { return pshmem_ulonglong_test(ivar, cmp, cmp_value); }
inline void pshmem_wait_until_all(short *ivars, size_t nelems, const int *status, int cmp, short cmp_value) { pshmem_short_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void pshmem_wait_until_all(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value) { pshmem_int_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void pshmem_wait_until_all(long *ivars, size_t nelems, const int *status, int cmp, long cmp_value) { pshmem_long_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void pshmem_wait_until_all(long long *ivars, size_t nelems, const int *status, int cmp, long long cmp_value) { pshmem_longlong_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void pshmem_wait_until_all(unsigned short *ivars, size_t nelems, const int *status, int cmp, unsigned short cmp_value) { pshmem_ushort_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void pshmem_wait_until_all(unsigned int *ivars, size_t nelems, const int *status, int cmp, unsigned int cmp_value) { pshmem_uint_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void pshmem_wait_until_all(unsigned long *ivars, size_t nelems, const int *status, int cmp, unsigned long cmp_value) { pshmem_ulong_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void pshmem_wait_until_all(unsigned long long *ivars, size_t nelems, const int *status, int cmp, unsigned long long cmp_value) { pshmem_ulonglong_wait_until_all(ivars, nelems, status, cmp, cmp_value); }
inline void pshmem_wait_until_all_vector(short *ivars, size_t nelems, const int *status, int cmp, const short *cmp_values) { pshmem_short_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void pshmem_wait_until_all_vector(int *ivars, size_t nelems, const int *status, int cmp, const int *cmp_values) { pshmem_int_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void pshmem_wait_until_all_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values) { pshmem_long_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void pshmem_wait_until_all_vector(long long *ivars, size_t nelems, const int *status, int cmp, const long long *cmp_values) { pshmem_longlong_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void pshmem_wait_until_all_vector(unsigned short *ivars, size_t nelems, const int *status, int cmp, const unsigned short *cmp_values) { pshmem_ushort_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void pshmem_wait_until_all_vector(unsigned int *ivars, size_t nelems, const int *status, int cmp, const unsigned int *cmp_values) { pshmem_uint_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void pshmem_wait_until_all_vector(unsigned long *ivars, size_t nelems, const int *status, int cmp, const unsigned long *cmp_values) { pshmem_ulong_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline void pshmem_wait_until_all_vector(unsigned long long *ivars, size_t nelems, const int *status, int cmp, const unsigned long long *cmp_values) { pshmem_ulonglong_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int pshmem_test_all(short *ivars, size_t nelems, const int *status, int cmp, short cmp_value) { return pshmem_short_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int pshmem_test_all(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value) { return pshmem_int_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int pshmem_test_all(long *ivars, size_t nelems, const int *status, int cmp, long cmp_value) { return pshmem_long_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int pshmem_test_all(long long *ivars, size_t nelems, const int *status, int cmp, long long cmp_value) { return pshmem_longlong_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int pshmem_test_all(unsigned short *ivars, size_t nelems, const int *status, int cmp, unsigned short cmp_value) { return pshmem_ushort_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int pshmem_test_all(unsigned int *ivars, size_t nelems, const int *status, int cmp, unsigned int cmp_value) { return pshmem_uint_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int pshmem_test_all(unsigned long *ivars, size_t nelems, const int *status, int cmp, unsigned long cmp_value) { return pshmem_ulong_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int pshmem_test_all(unsigned long long *ivars, size_t nelems, const int *status, int cmp, unsigned long long cmp_value) { return pshmem_ulonglong_test_all(ivars, nelems, status, cmp, cmp_value); }
inline int pshmem_test_all_vector(short *ivars, size_t nelems, const int *status, int cmp, const short *cmp_values) { return pshmem_short_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int pshmem_test_all_vector(int *ivars, size_t nelems, const int *status, int cmp, const int *cmp_values) { return pshmem_int_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int pshmem_test_all_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values) { return pshmem_long_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int pshmem_test_all_vector(long long *ivars, size_t nelems, const int *status, int cmp, const long long *cmp_values) { return pshmem_longlong_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int pshmem_test_all_vector(unsigned short *ivars, size_t nelems, const int *status, int cmp, const unsigned short *cmp_values) { return pshmem_ushort_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int pshmem_test_all_vector(unsigned int *ivars, size_t nelems, const int *status, int cmp, const unsigned int *cmp_values) { return pshmem_uint_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int pshmem_test_all_vector(unsigned long *ivars, size_t nelems, const int *status, int cmp, const unsigned long *cmp_values) { return pshmem_ulong_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline int pshmem_test_all_vector(unsigned long long *ivars, size_t nelems, const int *status, int cmp, const unsigned long long *cmp_values) { return pshmem_ulonglong_test_all_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_any(short *ivars, size_t nelems, const int *status, int cmp, short cmp_value) { return pshmem_short_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_any(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value) { return pshmem_int_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_any(long *ivars, size_t nelems, const int *status, int cmp, long cmp_value) { return pshmem_long_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_any(long long *ivars, size_t nelems, const int *status, int cmp, long long cmp_value) { return pshmem_longlong_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_any(unsigned short *ivars, size_t nelems, const int *status, int cmp, unsigned short cmp_value) { return pshmem_ushort_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_any(unsigned int *ivars, size_t nelems, const int *status, int cmp, unsigned int cmp_value) { return pshmem_uint_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_any(unsigned long *ivars, size_t nelems, const int *status, int cmp, unsigned long cmp_value) { return pshmem_ulong_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_any(unsigned long long *ivars, size_t nelems, const int *status, int cmp, unsigned long long cmp_value) { return pshmem_ulonglong_wait_until_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_any_vector(short *ivars, size_t nelems, const int *status, int cmp, const short *cmp_values) { return pshmem_short_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_any_vector(int *ivars, size_t nelems, const int *status, int cmp, const int *cmp_values) { return pshmem_int_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_any_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values) { return pshmem_long_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_any_vector(long long *ivars, size_t nelems, const int *status, int cmp, const long long *cmp_values) { return pshmem_longlong_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_any_vector(unsigned short *ivars, size_t nelems, const int *status, int cmp, const unsigned short *cmp_values) { return pshmem_ushort_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_any_vector(unsigned int *ivars, size_t nelems, const int *status, int cmp, const unsigned int *cmp_values) { return pshmem_uint_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_any_vector(unsigned long *ivars, size_t nelems, const int *status, int cmp, const unsigned long *cmp_values) { return pshmem_ulong_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_any_vector(unsigned long long *ivars, size_t nelems, const int *status, int cmp, const unsigned long long *cmp_values) { return pshmem_ulonglong_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_test_any(short *ivars, size_t nelems, const int *status, int cmp, short cmp_value) { return pshmem_short_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_test_any(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value) { return pshmem_int_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_test_any(long *ivars, size_t nelems, const int *status, int cmp, long cmp_value) { return pshmem_long_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_test_any(long long *ivars, size_t nelems, const int *status, int cmp, long long cmp_value) { return pshmem_longlong_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_test_any(unsigned short *ivars, size_t nelems, const int *status, int cmp, unsigned short cmp_value) { return pshmem_ushort_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_test_any(unsigned int *ivars, size_t nelems, const int *status, int cmp, unsigned int cmp_value) { return pshmem_uint_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_test_any(unsigned long *ivars, size_t nelems, const int *status, int cmp, unsigned long cmp_value) { return pshmem_ulong_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_test_any(unsigned long long *ivars, size_t nelems, const int *status, int cmp, unsigned long long cmp_value) { return pshmem_ulonglong_test_any(ivars, nelems, status, cmp, cmp_value); }
inline size_t pshmem_test_any_vector(short *ivars, size_t nelems, const int *status, int cmp, const short *cmp_values) { return pshmem_short_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_test_any_vector(int *ivars, size_t nelems, const int *status, int cmp, const int *cmp_values) { return pshmem_int_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_test_any_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values) { return pshmem_long_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_test_any_vector(long long *ivars, size_t nelems, const int *status, int cmp, const long long *cmp_values) { return pshmem_longlong_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_test_any_vector(unsigned short *ivars, size_t nelems, const int *status, int cmp, const unsigned short *cmp_values) { return pshmem_ushort_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_test_any_vector(unsigned int *ivars, size_t nelems, const int *status, int cmp, const unsigned int *cmp_values) { return pshmem_uint_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_test_any_vector(unsigned long *ivars, size_t nelems, const int *status, int cmp, const unsigned long *cmp_values) { return pshmem_ulong_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_test_any_vector(unsigned long long *ivars, size_t nelems, const int *status, int cmp, const unsigned long long *cmp_values) { return pshmem_ulonglong_test_any_vector(ivars, nelems, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_some(short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, short cmp_value) { return pshmem_short_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_some(int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, int cmp_value) { return pshmem_int_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_some(long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long cmp_value) { return pshmem_long_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_some(long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long long cmp_value) { return pshmem_longlong_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_some(unsigned short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned short cmp_value) { return pshmem_ushort_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_some(unsigned int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned int cmp_value) { return pshmem_uint_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_some(unsigned long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned long cmp_value) { return pshmem_ulong_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_some(unsigned long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned long long cmp_value) { return pshmem_ulonglong_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_wait_until_some_vector(short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const short *cmp_values) { return pshmem_short_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_some_vector(int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const int *cmp_values) { return pshmem_int_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_some_vector(long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const long *cmp_values) { return pshmem_long_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_some_vector(long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const long long *cmp_values) { return pshmem_longlong_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_some_vector(unsigned short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned short *cmp_values) { return pshmem_ushort_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_some_vector(unsigned int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned int *cmp_values) { return pshmem_uint_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_some_vector(unsigned long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned long *cmp_values) { return pshmem_ulong_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_wait_until_some_vector(unsigned long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned long long *cmp_values) { return pshmem_ulonglong_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_test_some(short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, short cmp_value) { return pshmem_short_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_test_some(int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, int cmp_value) { return pshmem_int_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_test_some(long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long cmp_value) { return pshmem_long_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_test_some(long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long long cmp_value) { return pshmem_longlong_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_test_some(unsigned short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned short cmp_value) { return pshmem_ushort_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_test_some(unsigned int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned int cmp_value) { return pshmem_uint_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_test_some(unsigned long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned long cmp_value) { return pshmem_ulong_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_test_some(unsigned long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, unsigned long long cmp_value) { return pshmem_ulonglong_test_some(ivars, nelems, indices, status, cmp, cmp_value); }
inline size_t pshmem_test_some_vector(short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const short *cmp_values) { return pshmem_short_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_test_some_vector(int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const int *cmp_values) { return pshmem_int_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_test_some_vector(long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const long *cmp_values) { return pshmem_long_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_test_some_vector(long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const long long *cmp_values) { return pshmem_longlong_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_test_some_vector(unsigned short *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned short *cmp_values) { return pshmem_ushort_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_test_some_vector(unsigned int *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned int *cmp_values) { return pshmem_uint_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_test_some_vector(unsigned long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned long *cmp_values) { return pshmem_ulong_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline size_t pshmem_test_some_vector(unsigned long long *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const unsigned long long *cmp_values) { return pshmem_ulonglong_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values); }
inline int pshmem_broadcast(shmem_team_t team, float *dest, const float *source, size_t nelems, int PE_root) { return pshmem_float_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, double *dest, const double *source, size_t nelems, int PE_root) { return pshmem_double_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, long double *dest, const long double *source, size_t nelems, int PE_root) { return pshmem_longdouble_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, char *dest, const char *source, size_t nelems, int PE_root) { return pshmem_char_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, signed char *dest, const signed char *source, size_t nelems, int PE_root) { return pshmem_schar_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, short *dest, const short *source, size_t nelems, int PE_root) { return pshmem_short_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, int *dest, const int *source, size_t nelems, int PE_root) { return pshmem_int_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, long *dest, const long *source, size_t nelems, int PE_root) { return pshmem_long_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, long long *dest, const long long *source, size_t nelems, int PE_root) { return pshmem_longlong_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nelems, int PE_root) { return pshmem_uchar_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nelems, int PE_root) { return pshmem_ushort_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nelems, int PE_root) { return pshmem_uint_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nelems, int PE_root) { return pshmem_ulong_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_broadcast(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nelems, int PE_root) { return pshmem_ulonglong_broadcast(team, dest, source, nelems, PE_root); }
inline int pshmem_collect(shmem_team_t team, float *dest, const float *source, size_t nelems) { return pshmem_float_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, double *dest, const double *source, size_t nelems) { return pshmem_double_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, long double *dest, const long double *source, size_t nelems) { return pshmem_longdouble_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, char *dest, const char *source, size_t nelems) { return pshmem_char_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, signed char *dest, const signed char *source, size_t nelems) { return pshmem_schar_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, short *dest, const short *source, size_t nelems) { return pshmem_short_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, int *dest, const int *source, size_t nelems) { return pshmem_int_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, long *dest, const long *source, size_t nelems) { return pshmem_long_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, long long *dest, const long long *source, size_t nelems) { return pshmem_longlong_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nelems) { return pshmem_uchar_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nelems) { return pshmem_ushort_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nelems) { return pshmem_uint_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nelems) { return pshmem_ulong_collect(team, dest, source, nelems); }
inline int pshmem_collect(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nelems) { return pshmem_ulonglong_collect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, float *dest, const float *source, size_t nelems) { return pshmem_float_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, double *dest, const double *source, size_t nelems) { return pshmem_double_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, long double *dest, const long double *source, size_t nelems) { return pshmem_longdouble_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, char *dest, const char *source, size_t nelems) { return pshmem_char_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, signed char *dest, const signed char *source, size_t nelems) { return pshmem_schar_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, short *dest, const short *source, size_t nelems) { return pshmem_short_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, int *dest, const int *source, size_t nelems) { return pshmem_int_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, long *dest, const long *source, size_t nelems) { return pshmem_long_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, long long *dest, const long long *source, size_t nelems) { return pshmem_longlong_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nelems) { return pshmem_uchar_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nelems) { return pshmem_ushort_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nelems) { return pshmem_uint_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nelems) { return pshmem_ulong_fcollect(team, dest, source, nelems); }
inline int pshmem_fcollect(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nelems) { return pshmem_ulonglong_fcollect(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, float *dest, const float *source, size_t nelems) { return pshmem_float_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, double *dest, const double *source, size_t nelems) { return pshmem_double_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, long double *dest, const long double *source, size_t nelems) { return pshmem_longdouble_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, char *dest, const char *source, size_t nelems) { return pshmem_char_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, signed char *dest, const signed char *source, size_t nelems) { return pshmem_schar_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, short *dest, const short *source, size_t nelems) { return pshmem_short_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, int *dest, const int *source, size_t nelems) { return pshmem_int_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, long *dest, const long *source, size_t nelems) { return pshmem_long_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, long long *dest, const long long *source, size_t nelems) { return pshmem_longlong_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nelems) { return pshmem_uchar_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nelems) { return pshmem_ushort_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nelems) { return pshmem_uint_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nelems) { return pshmem_ulong_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoall(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nelems) { return pshmem_ulonglong_alltoall(team, dest, source, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, float *dest, const float *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_float_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, double *dest, const double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_double_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_longdouble_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, char *dest, const char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_char_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, signed char *dest, const signed char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_schar_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, short *dest, const short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_short_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, int *dest, const int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_int_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_long_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, long long *dest, const long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_longlong_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, unsigned char *dest, const unsigned char *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_uchar_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, unsigned short *dest, const unsigned short *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_ushort_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, unsigned int *dest, const unsigned int *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_uint_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, unsigned long *dest, const unsigned long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_ulong_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_alltoalls(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems) { return pshmem_ulonglong_alltoalls(team, dest, source, dst, sst, nelems); }
inline int pshmem_max_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce) { return pshmem_float_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce) { return pshmem_double_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, char *dest, const char *source, size_t nreduce) { return pshmem_char_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return pshmem_schar_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return pshmem_short_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return pshmem_int_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return pshmem_long_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce) { return pshmem_longlong_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return pshmem_uchar_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return pshmem_ushort_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return pshmem_uint_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return pshmem_ulong_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return pshmem_ulonglong_max_reduce(team, dest, source, nreduce); }
inline int pshmem_max_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return pshmem_longdouble_max_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce) { return pshmem_float_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce) { return pshmem_double_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, char *dest, const char *source, size_t nreduce) { return pshmem_char_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return pshmem_schar_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return pshmem_short_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return pshmem_int_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return pshmem_long_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce) { return pshmem_longlong_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return pshmem_uchar_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return pshmem_ushort_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return pshmem_uint_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return pshmem_ulong_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return pshmem_ulonglong_min_reduce(team, dest, source, nreduce); }
inline int pshmem_min_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return pshmem_longdouble_min_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce) { return pshmem_float_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce) { return pshmem_double_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, char *dest, const char *source, size_t nreduce) { return pshmem_char_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return pshmem_schar_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return pshmem_short_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return pshmem_int_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return pshmem_long_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce) { return pshmem_longlong_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return pshmem_uchar_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return pshmem_ushort_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return pshmem_uint_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return pshmem_ulong_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return pshmem_ulonglong_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return pshmem_longdouble_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce) { return pshmem_float_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce) { return pshmem_double_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, char *dest, const char *source, size_t nreduce) { return pshmem_char_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return pshmem_schar_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return pshmem_short_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return pshmem_int_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return pshmem_long_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce) { return pshmem_longlong_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return pshmem_uchar_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return pshmem_ushort_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return pshmem_uint_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return pshmem_ulong_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return pshmem_ulonglong_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, long double *dest, const long double *source, size_t nreduce) { return pshmem_longdouble_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, float _Complex *dest, const float _Complex *source, size_t nreduce) { return pshmem_complexf_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_sum_reduce(shmem_team_t team, double _Complex *dest, const double _Complex *source, size_t nreduce) { return pshmem_complexd_sum_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, float _Complex *dest, const float _Complex *source, size_t nreduce) { return pshmem_complexf_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_prod_reduce(shmem_team_t team, double _Complex *dest, const double _Complex *source, size_t nreduce) { return pshmem_complexd_prod_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return pshmem_uchar_and_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return pshmem_ushort_and_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return pshmem_uint_and_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return pshmem_ulong_and_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return pshmem_ulonglong_and_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return pshmem_int8_and_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return pshmem_int16_and_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return pshmem_int32_and_reduce(team, dest, source, nreduce); }
inline int pshmem_and_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return pshmem_int64_and_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return pshmem_uchar_or_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return pshmem_ushort_or_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return pshmem_uint_or_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return pshmem_ulong_or_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return pshmem_ulonglong_or_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return pshmem_int8_or_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return pshmem_int16_or_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return pshmem_int32_or_reduce(team, dest, source, nreduce); }
inline int pshmem_or_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return pshmem_int64_or_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, unsigned char *dest, const unsigned char *source, size_t nreduce) { return pshmem_uchar_xor_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, unsigned short *dest, const unsigned short *source, size_t nreduce) { return pshmem_ushort_xor_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, unsigned int *dest, const unsigned int *source, size_t nreduce) { return pshmem_uint_xor_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source, size_t nreduce) { return pshmem_ulong_xor_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, unsigned long long *dest, const unsigned long long *source, size_t nreduce) { return pshmem_ulonglong_xor_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, signed char *dest, const signed char *source, size_t nreduce) { return pshmem_int8_xor_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, short *dest, const short *source, size_t nreduce) { return pshmem_int16_xor_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce) { return pshmem_int32_xor_reduce(team, dest, source, nreduce); }
inline int pshmem_xor_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce) { return pshmem_int64_xor_reduce(team, dest, source, nreduce); }
#define HANDOFF_PSHMEM_CXX_OLD_STD(T, N)                                                        inline T pshmem_finc(T *dest, int pe) { return pshmem_##N##_finc(dest, pe); }                inline void pshmem_inc(T *dest, int pe) { pshmem_##N##_inc(dest, pe); }                      inline T pshmem_fadd(T *dest, T value, int pe) { return pshmem_##N##_fadd(dest, value, pe); }     inline void pshmem_add(T *dest, T value, int pe) { pshmem_##N##_add(dest, value, pe); }       inline T pshmem_cswap(T *dest, T cond, T value, int pe) {                                        return pshmem_##N##_cswap(dest, cond, value, pe);                                        }
#define HANDOFF_PSHMEM_CXX_OLD_EXT(T, N)                                                        inline T pshmem_fetch(const T *source, int pe) { return pshmem_##N##_fetch(source, pe); }     inline void pshmem_set(T *dest, T value, int pe) { pshmem_##N##_set(dest, value, pe); }
#define HANDOFF_PSHMEM_CXX_OLD_SWAP(T, N)                                                       inline T pshmem_swap(T *dest, T value, int pe) { return pshmem_##N##_swap(dest, value, pe); }
#define HANDOFF_PSHMEM_CXX_OLD_TYPES(X)                                                         X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)                     X(unsigned long, ulong) X(unsigned long long, ulonglong)
HANDOFF_PSHMEM_CXX_OLD_TYPES(HANDOFF_PSHMEM_CXX_OLD_STD)
HANDOFF_PSHMEM_CXX_OLD_TYPES(HANDOFF_PSHMEM_CXX_OLD_EXT)
HANDOFF_PSHMEM_CXX_OLD_EXT(float, float)
HANDOFF_PSHMEM_CXX_OLD_EXT(double, double)
HANDOFF_PSHMEM_CXX_OLD_SWAP(int, int)
HANDOFF_PSHMEM_CXX_OLD_SWAP(long long, longlong)
HANDOFF_PSHMEM_CXX_OLD_SWAP(unsigned int, uint)
HANDOFF_PSHMEM_CXX_OLD_SWAP(unsigned long, ulong)
HANDOFF_PSHMEM_CXX_OLD_SWAP(unsigned long long, ulonglong)
HANDOFF_PSHMEM_CXX_OLD_SWAP(float, float)
HANDOFF_PSHMEM_CXX_OLD_SWAP(double, double)
#endif /* __cplusplus */

#define pshmem_sync(...)     HANDOFF_SHMEM_SYNC_PICK(__VA_ARGS__, (pshmem_sync), _3, _2, pshmem_team_sync, _0)(__VA_ARGS__)

#endif /* HANDOFF_PSHMEM_H */

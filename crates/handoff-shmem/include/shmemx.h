/*
 * shmemx.h — handoff's OpenSHMEM extensions: the counting puts of Dinan et al. ("counting
 * puts for OpenSHMEM", the seed of handoff's team), receiver-managed counters.
 *
 *   shmemx_ct_t ct;
 *   shmemx_ct_create(&ct);                          collective: a counter at 0 on every PE
 *   shmemx_putmem_ct(ct, dest, src, n, pe);         put, then +1 on PE pe's counter
 *   shmemx_ct_wait(ct, npes - 1);                   until this PE's counter >= npes - 1;
 *                                                   the data of those puts is visible then
 *   shmemx_ct_set(ct, 0);                           the receiver resets its counter
 *   shmemx_ct_free(&ct);                            collective
 *
 * A team has 16 counters (handoff::team::MAX_COUNTERS); freed ones are reused.
 */
#ifndef HANDOFF_SHMEMX_H
#define HANDOFF_SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef long shmemx_ct_t;

void shmemx_ct_create(shmemx_ct_t *ct);
void shmemx_ct_free(shmemx_ct_t *ct);
long shmemx_ct_get(shmemx_ct_t ct);
void shmemx_ct_set(shmemx_ct_t ct, long value);
void shmemx_ct_wait(shmemx_ct_t ct, long wait_for);
void shmemx_putmem_ct(shmemx_ct_t ct, void *dest, const void *source, size_t nelems, int pe);

/* Bytes of symmetric heap this PE's program has allocated. */
long shmemx_heap_used(void);

#ifdef __cplusplus
}
#endif

#endif /* HANDOFF_SHMEMX_H */

/*
 * mpp/shmem.h — the header location of the OpenSHMEM 1.5 annex (deprecated, still in use):
 * the same declarations as <shmem.h>.
 */
#ifndef HANDOFF_MPP_SHMEM_H
#define HANDOFF_MPP_SHMEM_H
#include <shmem.h>
#endif /* HANDOFF_MPP_SHMEM_H */

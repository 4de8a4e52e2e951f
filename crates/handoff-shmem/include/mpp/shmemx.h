/*
 * mpp/shmemx.h — the header location of the OpenSHMEM 1.5 annex (deprecated, still in use):
 * the same declarations as <shmemx.h>.
 */
#ifndef HANDOFF_MPP_SHMEMX_H
#define HANDOFF_MPP_SHMEMX_H
#include <shmemx.h>
#endif /* HANDOFF_MPP_SHMEMX_H */

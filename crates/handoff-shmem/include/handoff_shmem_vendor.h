/*
 * handoff_shmem_vendor.h — which OpenSHMEM implementation this is, and what it provides, for
 * programs and bindings that adapt to the implementation at compile time. Included by
 * shmem.h; not meant to be included alone.
 */
#ifndef HANDOFF_SHMEM_VENDOR_H
#define HANDOFF_SHMEM_VENDOR_H

/* Vendor macros, as other implementations define theirs (Open MPI: OSHMEM_MAJOR_VERSION,
 * OSHMPI: OSHMPI_NUMVERSION, Cray: CRAY_SHMEM_NUMVERSION). The version is the handoff
 * workspace's (Cargo.toml; tests/oshcc.rs checks they agree). */
#define HANDOFF_SHMEM 1
#define HANDOFF_SHMEM_MAJOR_VERSION 0
#define HANDOFF_SHMEM_MINOR_VERSION 1
#define HANDOFF_SHMEM_PATCH_VERSION 0
#define HANDOFF_SHMEM_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH */
#define HANDOFF_SHMEM_NUMVERSION 100

/* shmem4py (the Python bindings, PyPI) configures itself from vendor macros it knows and
 * declares stand-ins for every family it finds no PySHMEM_HAVE_* flag for; it knows no
 * handoff, so without these flags its stand-ins collide with the real declarations above.
 * Each flag below names a family this shmem.h declares and libhandoff_shmem implements
 * (the same 20 flags shmem4py sets for a complete 1.5 implementation); shmem4py's own test
 * suite checks them in CI (scripts/shmem-tools-test). Drop this block once shmem4py keys a
 * configuration of its own on HANDOFF_SHMEM_NUMVERSION. */
#define PySHMEM_HAVE_shmem_malloc_with_hints 1
#define PySHMEM_HAVE_shmem_team_t 1
#define PySHMEM_HAVE_SHMEM_CTX_INVALID 1
#define PySHMEM_HAVE_shmem_amo_nbi 1
#define PySHMEM_HAVE_shmem_put_signal 1
#define PySHMEM_HAVE_shmem_signal_fetch 1
#define PySHMEM_HAVE_shmem_signal_wait_until 1
#define PySHMEM_HAVE_shmem_broadcast 1
#define PySHMEM_HAVE_shmem_collect 1
#define PySHMEM_HAVE_shmem_fcollect 1
#define PySHMEM_HAVE_shmem_alltoall 1
#define PySHMEM_HAVE_shmem_alltoalls 1
#define PySHMEM_HAVE_shmem_broadcastmem 1
#define PySHMEM_HAVE_shmem_collectmem 1
#define PySHMEM_HAVE_shmem_fcollectmem 1
#define PySHMEM_HAVE_shmem_alltoallmem 1
#define PySHMEM_HAVE_shmem_alltoallsmem 1
#define PySHMEM_HAVE_shmem_reduce 1
#define PySHMEM_HAVE_shmem_wait_test_many 1
#define PySHMEM_HAVE_shmem_pcontrol 1

#endif /* HANDOFF_SHMEM_VENDOR_H */

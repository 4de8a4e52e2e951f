/* Shared by the test programs: CHECK fails the PE with a line naming the check. */
#ifndef CHECK_H
#define CHECK_H
#include <stdio.h>
#include <stdlib.h>
#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "CHECK FAILED on PE %d at %s:%d: %s: ", shmem_my_pe(),        \
                    __FILE__, __LINE__, #cond);                                           \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                        \
            exit(3);                                                                      \
        }                                                                                 \
    } while (0)

/* What the transport promises, from the launcher's settings (tests/mpi.rs runs these
 * programs under an MPI launcher too): under `handoff run` and on MPI's shared window every
 * PE's objects are load/store reachable (shmem_ptr is non-NULL) and shmem_init gives
 * SHMEM_THREAD_MULTIPLE; under an MPI launcher shmem_init gives SHMEM_THREAD_SINGLE, as it
 * asks MPI for MPI_THREAD_SINGLE (shmem_init_thread(SHMEM_THREAD_MULTIPLE) asks MPI for
 * MPI_THREAD_MULTIPLE and gets SHMEM_THREAD_MULTIPLE: threads.c; mpi_calls.c checks the level
 * asked for), with HANDOFF_MPI_WINDOW=rma only this PE is reachable, and with HANDOFF_MPI_NODES=k only the
 * PEs of this PE's pretend node (k blocks of contiguous ranks: node of r = r * k / npes). */
#include <string.h>
static inline int under_mpi(void) {
    return getenv("HANDOFF_TEAM") == NULL &&
           (getenv("PMI_RANK") != NULL || getenv("OMPI_COMM_WORLD_SIZE") != NULL);
}
static inline int expect_ptr(int pe) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (pe == me || !under_mpi()) return 1;
    const char *w = getenv("HANDOFF_MPI_WINDOW");
    if (w != NULL && strcmp(w, "rma") == 0) return 0;
    const char *k = getenv("HANDOFF_MPI_NODES");
    if (k == NULL || atoi(k) <= 1) return 1;
    return pe * atoi(k) / n == me * atoi(k) / n;
}
static inline int expect_thread_level(void) {
    return under_mpi() ? SHMEM_THREAD_SINGLE : SHMEM_THREAD_MULTIPLE;
}
#endif

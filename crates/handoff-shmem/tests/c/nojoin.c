/* A rank that never joins (tests/mpi.rs): under an MPI launcher, rank 1 exits before
 * shmem_init; the other ranks must end with a line naming them within the join timeout
 * (HANDOFF_JOIN_TIMEOUT), never hang in MPI's start-up. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    const char *r = getenv("PMI_RANK");
    if (r == NULL) r = getenv("OMPI_COMM_WORLD_RANK");
    if (r != NULL && atoi(r) == 1) return 0;
    shmem_init();
    shmem_barrier_all();
    printf("not reached: PE %d of %d joined\n", shmem_my_pe(), shmem_n_pes());
    shmem_finalize();
    return 0;
}

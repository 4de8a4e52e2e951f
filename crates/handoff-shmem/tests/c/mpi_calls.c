/* Which MPI collectives the MPI build makes (tests/mpi.rs, built with the library's mpicc):
 * this program interposes MPI_Barrier, MPI_Ibarrier, MPI_Allgather and MPI_Iallgather (the
 * MPI profiling interface: each counts, then calls its PMPI_ twin) and checks, over
 * shmem_init and 50 shmem_barrier_all, that
 *   - on the shared window, shmem_barrier_all makes no MPI barrier call (it is the team's
 *     barrier over words in the window);
 *   - on the RMA and mixed paths, a barrier with no deadline (OpenSHMEM's calls have none)
 *     is MPI's blocking call, never the nonblocking one polled by MPI_Test (Open MPI's
 *     polled MPI_Ibarrier made shmem_barrier_all 3.3 times a plain MPI_Barrier program,
 *     #42); with HANDOFF_WAIT=block, which asks for sleeps, it is the nonblocking one;
 *   - the set-up agreements of shmem_init (no deadline, no sleeps) are MPI_Allgather, never
 *     MPI_Iallgather, on every MPI path.
 * Under `handoff run` MPI is never initialized: no call at all. PE 0 prints OK. */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static long barriers, ibarriers, allgathers, iallgathers;

int MPI_Barrier(MPI_Comm comm) {
    barriers++;
    return PMPI_Barrier(comm);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req) {
    ibarriers++;
    return PMPI_Ibarrier(comm, req);
}

int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  MPI_Comm comm) {
    allgathers++;
    return PMPI_Allgather(s, sn, st, r, rn, rt, comm);
}

int MPI_Iallgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                   MPI_Comm comm, MPI_Request *req) {
    iallgathers++;
    return PMPI_Iallgather(s, sn, st, r, rn, rt, comm, req);
}

int main(void) {
    enum { BARRIERS = 50 };
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long a = allgathers, ia = iallgathers;
    long b0 = barriers, ib0 = ibarriers;
    for (int i = 0; i < BARRIERS; i++) shmem_barrier_all();
    long b = barriers - b0, ib = ibarriers - ib0;
    const char *wait = getenv("HANDOFF_WAIT");
    int block = wait != NULL && strcmp(wait, "block") == 0;
    const char *w = getenv("HANDOFF_MPI_WINDOW");
    const char *k = getenv("HANDOFF_MPI_NODES");
    int shared = (w == NULL || strcmp(w, "rma") != 0) && (k == NULL || atoi(k) <= 1);
    if (!under_mpi()) {
        CHECK(b + ib + a + ia == 0, "MPI calls under handoff run: %ld %ld %ld %ld", b, ib, a,
              ia);
    } else {
        if (shared)
            CHECK(b + ib == 0, "%ld MPI_Barrier and %ld MPI_Ibarrier calls in %d barriers on "
                  "the shared window", b, ib, BARRIERS);
        else if (block)
            CHECK(ib >= BARRIERS && b == 0, "block: %ld MPI_Ibarrier and %ld MPI_Barrier "
                  "calls in %d barriers", ib, b, BARRIERS);
        else
            CHECK(b >= BARRIERS && ib == 0, "%ld MPI_Barrier and %ld MPI_Ibarrier calls in %d "
                  "barriers", b, ib, BARRIERS);
        if (!block)
            CHECK(a >= 1 && ia == 0, "%ld MPI_Allgather and %ld MPI_Iallgather calls in "
                  "shmem_init", a, ia);
    }
    shmem_barrier_all();
    if (me == 0) printf("OK mpi_calls %d PEs\n", n);
    shmem_finalize();
    return 0;
}

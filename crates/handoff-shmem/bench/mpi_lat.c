/* mpi_lat: the plain-MPI baseline of put_lat.c and barrier_lat.c on MPI's RMA path, what
 * handoff-shmem's RMA transport (HANDOFF_MPI_WINDOW=rma) should come close to: one window
 * from MPI_Win_allocate in one MPI_Win_lock_all epoch, as handoff-mpi makes it.
 *
 *   put        MPI_Put + MPI_Win_flush(1)        (the baseline)
 *   put-local  MPI_Put + MPI_Win_flush_local(1)  (what a blocking shmem_putmem needs)
 *   get        MPI_Get + MPI_Win_flush(1)
 *   barrier    MPI_Win_flush_all + MPI_Barrier   (shmem_barrier_all's work)
 *
 * PE 0 times ITERS operations on PE 1 (mean per operation, median over SAMPLES samples)
 * while PE 1 waits in MPI_Barrier, as put_lat's target waits in shmem_barrier_all; for
 * "barrier" both time the barrier.
 *
 * Settings (unset: the baseline above), to show what each of two costs on a library by itself
 * (#42: both once made handoff's RMA path slower than this program):
 *   MPI_LAT_WAIT   how the idle rank waits: barrier (MPI_Barrier), spin (MPI_Ibarrier +
 *                  MPI_Test with a pause between polls), yield (the same, sched_yield between
 *                  polls after 64), sparse (the same, sched_yield every 256 polls, as
 *                  handoff's adaptive wait on a node with a CPU per rank). MPICH's RMA needs
 *                  the target's progress: its 8-byte get took 0.67 us under "yield" and 0.37
 *                  under "barrier" or "spin".
 *   MPI_LAT_THREAD the level MPI_Init_thread asks for (0-3; unset: MPI_Init). Open MPI 4.1's
 *                  flush_all + MPI_Barrier took 0.289 us at 2 (SERIALIZED) or 1 against
 *                  0.243 at 0 (SINGLE).
 *   MPI_LAT_SYNC=1 adds MPI_Win_sync after each barrier (handoff's barrier does).
 *
 * usage: [MPI_LAT_WAIT=...] [MPI_LAT_THREAD=N] [MPI_LAT_SYNC=1] mpiexec -n 2 mpi_lat OP
 *        [SIZE=8] [ITERS=10000] [SAMPLES=7]
 * output (rank 0): mpi_lat op=OP size=SIZE median_us=... min_us=... max_us=... wait=W */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lat_common.h"

static const char *wait_form = "barrier";

static void idle_wait(MPI_Comm comm) {
    if (!strcmp(wait_form, "barrier")) {
        MPI_Barrier(comm);
        return;
    }
    int yield = !strcmp(wait_form, "yield"), sparse = !strcmp(wait_form, "sparse");
    MPI_Request req;
    MPI_Ibarrier(comm, &req);
    for (long i = 1;; i++) {
        int done = 0;
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done) return;
        if ((yield && i >= 64) || (sparse && i % 256 == 0))
            sched_yield();
        else
            __builtin_ia32_pause();
    }
}

int main(int argc, char **argv) {
    const char *level = getenv("MPI_LAT_THREAD");
    if (level != NULL) {
        int provided;
        MPI_Init_thread(&argc, &argv, atoi(level), &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    if (getenv("MPI_LAT_WAIT") != NULL) wait_form = getenv("MPI_LAT_WAIT");
    int sync = getenv("MPI_LAT_SYNC") != NULL && atoi(getenv("MPI_LAT_SYNC")) != 0;
    const char *op = argc > 1 ? argv[1] : "put";
    size_t size = argc > 2 ? strtoul(argv[2], NULL, 10) : 8;
    int iters = argc > 3 ? atoi(argv[3]) : 10000;
    int samples = argc > 4 ? atoi(argv[4]) : 7;
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int kind = !strcmp(op, "put") ? 0 : !strcmp(op, "put-local") ? 1 : !strcmp(op, "get") ? 2
             : !strcmp(op, "barrier") ? 3 : -1;
    if (n != 2 || kind < 0 || samples < 1 ||
        (strcmp(wait_form, "barrier") && strcmp(wait_form, "spin") &&
         strcmp(wait_form, "yield") && strcmp(wait_form, "sparse"))) {
        if (me == 0)
            fprintf(stderr, "mpi_lat: 2 ranks; OP put, put-local, get or barrier; "
                            "MPI_LAT_WAIT barrier, spin, yield or sparse\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *base;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(size + 4096), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock_all(0, win);
    char *src = malloc(size + 1);
    double *t = malloc(sizeof(double) * samples);
    memset(src, 1, size);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int s = -1; s < samples; s++) { /* sample -1: warm-up */
        double t0 = now_us();
        if (kind == 3) {
            for (int i = 0; i < iters; i++) {
                MPI_Win_flush_all(win);
                MPI_Barrier(MPI_COMM_WORLD);
                if (sync) MPI_Win_sync(win);
            }
        } else if (me == 0) {
            for (int i = 0; i < iters; i++) {
                if (kind == 2) {
                    MPI_Get(src, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win);
                    MPI_Win_flush(1, win);
                } else {
                    MPI_Put(src, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win);
                    if (kind == 0) MPI_Win_flush(1, win);
                    else MPI_Win_flush_local(1, win);
                }
            }
        }
        double t1 = now_us();
        if (s >= 0) t[s] = (t1 - t0) / iters;
        idle_wait(MPI_COMM_WORLD);
    }
    if (me == 0) {
        double lo = t[0], hi = t[0];
        for (int s = 1; s < samples; s++) {
            if (t[s] < lo) lo = t[s];
            if (t[s] > hi) hi = t[s];
        }
        printf("mpi_lat op=%s size=%zu median_us=%.4f min_us=%.4f max_us=%.4f wait=%s\n", op,
               size, median(t, samples), lo, hi, wait_form);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(src);
    free(t);
    MPI_Finalize();
    return 0;
}

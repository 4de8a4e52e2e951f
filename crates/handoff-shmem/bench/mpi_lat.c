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
 * usage: mpiexec -n 2 mpi_lat OP [SIZE=8] [ITERS=10000] [SAMPLES=7]
 * output (rank 0): mpi_lat op=OP size=SIZE median_us=... min_us=... max_us=... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lat_common.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    const char *op = argc > 1 ? argv[1] : "put";
    size_t size = argc > 2 ? strtoul(argv[2], NULL, 10) : 8;
    int iters = argc > 3 ? atoi(argv[3]) : 10000;
    int samples = argc > 4 ? atoi(argv[4]) : 7;
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n != 2) {
        if (me == 0) fprintf(stderr, "mpi_lat: run on exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int kind = !strcmp(op, "put") ? 0 : !strcmp(op, "put-local") ? 1 : !strcmp(op, "get") ? 2
             : !strcmp(op, "barrier") ? 3 : -1;
    if (kind < 0) {
        if (me == 0) fprintf(stderr, "mpi_lat: OP is put, put-local, get or barrier\n");
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
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (me == 0) {
        double lo = t[0], hi = t[0];
        for (int s = 1; s < samples; s++) {
            if (t[s] < lo) lo = t[s];
            if (t[s] > hi) hi = t[s];
        }
        printf("mpi_lat op=%s size=%zu median_us=%.4f min_us=%.4f max_us=%.4f\n", op, size,
               median(t, samples), lo, hi);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(src);
    free(t);
    MPI_Finalize();
    return 0;
}

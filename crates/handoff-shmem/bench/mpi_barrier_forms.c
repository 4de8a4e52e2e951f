/* mpi_barrier_forms: what a barrier costs in each form a transport can make it, in a plain
 * MPI program (issue #42: why handoff-mpi's RMA barrier is MPI_Barrier on Open MPI and a
 * polled MPI_Ibarrier on MPICH). One MPI_Win_allocate window in an MPI_Win_lock_all epoch,
 * a duplicate of MPI_COMM_WORLD, MPI_THREAD_MULTIPLE as handoff-shmem may ask:
 *
 *   0  MPI_Win_flush_all + MPI_Barrier              (mpi_lat.c's "barrier": the baseline)
 *   1  MPI_Barrier
 *   2  MPI_Ibarrier + MPI_Test until done           (polled, spinning)
 *   3  MPI_Ibarrier + MPI_Test, sched_yield after 64 polls (handoff's SpinYield)
 *   8  MPI_Win_flush_all + MPI_Barrier + MPI_Win_sync        (handoff's blocking form)
 *   9  MPI_Win_flush_all + polled MPI_Ibarrier (3) + MPI_Win_sync (handoff's polled form)
 *
 * Every rank times ITERS barriers (mean per barrier), 7 samples after a warm-up; rank 0
 * prints the median. Run each form with 2 ranks and with more ranks than CPUs, alternating
 * forms (A B A B ...), e.g.
 *   mpicc.mpich -O2 -o forms mpi_barrier_forms.c
 *   for f in 0 8 9 0 8 9; do mpiexec.mpich -n 2 ./forms $f 2000; done
 *   for f in 1 3 1 3; do mpiexec.mpich -n 4 ./forms $f 300; done
 *
 * usage: mpiexec -n N mpi_barrier_forms FORM [ITERS=2000]
 * output (rank 0): form=F median_us=... min=... max=... */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include "lat_common.h"

static void polled(MPI_Comm c, int yield) {
    MPI_Request r;
    MPI_Ibarrier(c, &r);
    int done = 0, polls = 0;
    while (!done) {
        MPI_Test(&r, &done, MPI_STATUS_IGNORE);
        if (!done && yield && ++polls > 64) sched_yield();
    }
}

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int form = argc > 1 ? atoi(argv[1]) : 0;
    int iters = argc > 2 ? atoi(argv[2]) : 2000;
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    char *base;
    MPI_Win win;
    MPI_Win_allocate(8192, 1, MPI_INFO_NULL, c, &base, &win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    int me;
    MPI_Comm_rank(c, &me);
    double t[7];
    for (int s = -1; s < 7; s++) { /* sample -1: warm-up */
        double t0 = now_us();
        for (int i = 0; i < iters; i++) {
            switch (form) {
            case 0: MPI_Win_flush_all(win); MPI_Barrier(c); break;
            case 1: MPI_Barrier(c); break;
            case 2: polled(c, 0); break;
            case 3: polled(c, 1); break;
            case 8: MPI_Win_flush_all(win); MPI_Barrier(c); MPI_Win_sync(win); break;
            case 9: MPI_Win_flush_all(win); polled(c, 1); MPI_Win_sync(win); break;
            default:
                if (me == 0) fprintf(stderr, "mpi_barrier_forms: FORM is 0-3, 8 or 9\n");
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        }
        if (s >= 0) t[s] = (now_us() - t0) / iters;
        MPI_Barrier(c);
    }
    double lo = t[0], hi = t[0];
    for (int s = 1; s < 7; s++) {
        if (t[s] < lo) lo = t[s];
        if (t[s] > hi) hi = t[s];
    }
    if (me == 0) printf("form=%d median_us=%.3f min=%.3f max=%.3f\n", form, median(t, 7), lo, hi);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&c);
    MPI_Finalize();
    return 0;
}

/* mpi_crowded_get: tests-sos spam's all-to-all get in a plain MPI program (issue #42: why
 * handoff-mpi's puts and gets are MPI_Rput/MPI_Rget polled with yields when a node runs
 * more ranks than CPUs). Every rank gets 2 KiB from every rank LOOPS times:
 *
 *   WAY 0  MPI_Get + MPI_Win_flush (MPICH's flush spins without yielding)
 *   WAY 2  MPI_Rget + MPI_Test, sched_yield after 64 polls (handoff's SpinYield)
 *   WAY 1  MPI_Put + MPI_Win_flush_local
 *
 * on a window from MPI_Win_allocate (WIN 0), MPI_Win_create (1, as the mixed path's world
 * window) or MPI_Win_allocate_shared (2). Compare ways alternating, with more ranks than
 * CPUs, e.g.
 *   mpicc.mpich -O2 -o crowded mpi_crowded_get.c
 *   for w in 0 2 0 2; do mpiexec.mpich -n 4 ./crowded 300 1 $w; done
 *
 * usage: mpiexec -n N mpi_crowded_get LOOPS [WIN=0] [WAY=0]
 * output (rank 0): loops=... win=... way=...: S s, US us/op */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lat_common.h"

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int loops = argc > 1 ? atoi(argv[1]) : 300;
    int kind = argc > 2 ? atoi(argv[2]) : 0;
    int way = argc > 3 ? atoi(argv[3]) : 0;
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    char *base;
    MPI_Win win;
    MPI_Aint len = 1 << 20;
    if (kind == 2) {
        MPI_Win_allocate_shared(len, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    } else if (kind == 1) {
        base = malloc(len);
        MPI_Win_create(base, len, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        MPI_Win_allocate(len, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    char buf[2048];
    memset(buf, 1, sizeof buf);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_us();
    for (int i = 0; i < loops; i++) {
        for (int pe = 0; pe < n; pe++) {
            if (way == 2) {
                MPI_Request r;
                MPI_Rget(buf, 2048, MPI_BYTE, pe, 0, 2048, MPI_BYTE, win, &r);
                int done = 0, polls = 0;
                while (!done) {
                    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
                    if (!done && ++polls > 64) sched_yield();
                }
            } else if (way == 1) {
                MPI_Put(buf, 2048, MPI_BYTE, pe, 0, 2048, MPI_BYTE, win);
                MPI_Win_flush_local(pe, win);
            } else {
                MPI_Get(buf, 2048, MPI_BYTE, pe, 0, 2048, MPI_BYTE, win);
                MPI_Win_flush(pe, win);
            }
        }
    }
    double us = now_us() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("loops=%d win=%d way=%d: %.3f s, %.2f us/op\n", loops, kind, way, us / 1e6,
               us / loops / n);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (kind == 1) free(base);
    MPI_Finalize();
    return 0;
}

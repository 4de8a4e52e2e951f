/* mpi_lat_forms: mpi_lat.c's plain-MPI operations with the two settings that made handoff's
 * RMA path slower than mpi_lat (#42), to show each one's cost on a library by itself:
 *
 *   MPI_LAT_WAIT   how the idle rank waits while rank 0 times the operations:
 *                  barrier (MPI_Barrier, as mpi_lat), spin (MPI_Ibarrier + MPI_Test with a
 *                  pause between polls), yield (the same, sched_yield between polls after 64,
 *                  as handoff's SpinYield), sparse (the same, sched_yield every 256 polls, as
 *                  handoff's adaptive wait on a node with a CPU per rank). MPICH's RMA needs
 *                  the target's progress: its 8-byte get took 0.67 us under "yield" and 0.37
 *                  under "barrier" or "spin".
 *   MPI_LAT_THREAD the level MPI_Init_thread asks for (0-3; unset: MPI_Init). Open MPI 4.1's
 *                  flush_all + MPI_Barrier took 0.289 us at 2 (SERIALIZED) or 1 against
 *                  0.243 at 0 (SINGLE).
 *   MPI_LAT_SYNC=1 adds MPI_Win_sync after each barrier (handoff's barrier does).
 *
 * usage: [MPI_LAT_WAIT=...] [MPI_LAT_THREAD=N] mpiexec -n 2 mpi_lat_forms OP [SIZE=8]
 *        [ITERS=10000] [SAMPLES=7]     OP: put, put-local, get or barrier (as mpi_lat)
 * output (rank 0): mpi_lat_forms op=OP size=SIZE wait=W median_us=... min_us=... */
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
            fprintf(stderr, "mpi_lat_forms: 2 ranks; OP put, put-local, get or barrier; "
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
        double lo = t[0];
        for (int s = 1; s < samples; s++)
            if (t[s] < lo) lo = t[s];
        printf("mpi_lat_forms op=%s size=%zu wait=%s median_us=%.4f min_us=%.4f\n", op, size,
               wait_form, median(t, samples), lo);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(src);
    free(t);
    MPI_Finalize();
    return 0;
}

/* rma_sync_mpi: MPI-3 RMA fence and exclusive lock/unlock latency, the same steps as
 * `handoff bench rma-sync --modes fence,lock-exclusive` (our own code), for a side-by-side
 * figure against an MPI library's one-sided component (e.g. Open MPI's osc/sm).
 *
 * fence:          put one word to the right neighbour's slot r % 2, MPI_Win_fence, check
 *                 the left neighbour's word arrived.
 * lock-exclusive: MPI_Win_lock(EXCLUSIVE, right), put a word, flush, get it back,
 *                 MPI_Win_unlock, check (handoff's put is complete on return; MPI's needs
 *                 the flush before a get of the same word).
 * Each repetition times ITERS synchronizations; rank 0 prints the mean µs per
 * synchronization, median over REPS repetitions (after one warm-up repetition).
 *
 * usage: rma_sync_mpi [ITERS=2000] [REPS=7]
 * output (rank 0): rma_sync mode=fence pes=N median_us=... min_us=... max_us=... ok=1 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "lat_common.h"

static uint64_t value(uint64_t r, int from) { return r * 1000 + (uint64_t)from + 1; }

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    MPI_Init(&argc, &argv);
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    uint64_t *win_mem;
    MPI_Win win;
    MPI_Win_allocate(2 * sizeof(uint64_t), sizeof(uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &win_mem, &win);
    win_mem[0] = win_mem[1] = 0;
    int right = (me + 1) % p, left = (me + p - 1) % p;
    double *t = malloc(sizeof(double) * reps);
    const char *modes[] = {"fence", "lock-exclusive"};
    for (int m = 0; m < 2; m++) {
        int ok = 1;
        uint64_t r = 0;
        if (m == 0) MPI_Win_fence(0, win);
        for (int s = -1; s < reps; s++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = now_us();
            for (int i = 0; i < iters; i++) {
                r++;
                uint64_t v = value(r, me);
                if (m == 0) {
                    MPI_Put(&v, 1, MPI_UINT64_T, right, r % 2, 1, MPI_UINT64_T, win);
                    MPI_Win_fence(0, win);
                    ok &= win_mem[r % 2] == value(r, left);
                } else {
                    uint64_t got = 0;
                    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
                    MPI_Put(&v, 1, MPI_UINT64_T, right, 0, 1, MPI_UINT64_T, win);
                    MPI_Win_flush(right, win);
                    MPI_Get(&got, 1, MPI_UINT64_T, right, 0, 1, MPI_UINT64_T, win);
                    MPI_Win_unlock(right, win);
                    ok &= got == v;
                }
            }
            double t1 = now_us();
            if (s >= 0) t[s] = (t1 - t0) / iters;
        }
        if (m == 0) MPI_Win_fence(0, win);
        int all_ok = 0;
        MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
        if (me == 0) {
            double lo = t[0], hi = t[0];
            for (int s = 1; s < reps; s++) {
                if (t[s] < lo) lo = t[s];
                if (t[s] > hi) hi = t[s];
            }
            printf("rma_sync mode=%s pes=%d median_us=%.4f min_us=%.4f max_us=%.4f ok=%d\n",
                   modes[m], p, median(t, reps), lo, hi, all_ok);
            fflush(stdout);
        }
    }
    free(t);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}

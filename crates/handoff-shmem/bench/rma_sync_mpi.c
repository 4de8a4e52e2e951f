/* rma_sync_mpi: MPI-3 RMA fence and exclusive lock/unlock latency, the same steps as
 * `handoff bench rma-sync --modes fence,lock-exclusive` (our own code), for a side-by-side
 * figure against an MPI library's one-sided component (e.g. Open MPI's osc/sm).
 *
 * fence:          put one word to the right neighbour's slot r % 2, MPI_Win_fence, check
 *                 the left neighbour's word arrived.
 * lock-exclusive: MPI_Win_lock(EXCLUSIVE, right), put a word, flush, get it back,
 *                 MPI_Win_unlock, check (handoff's put is complete on return; MPI's needs
 *                 the flush before a get of the same word).
 * flush:          inside one MPI_Win_lock_all epoch, put a word to the right neighbour and
 *                 MPI_Win_flush(right); every 64th time get it back and check (`handoff
 *                 bench rma-sync --modes flush`).
 * fetch-add, cas: inside one MPI_Win_lock_all epoch rank 0 alone adds one to rank 1's
 *                 counter word, by MPI_Fetch_and_op(MPI_SUM) + flush, or by a
 *                 compare-and-swap loop (MPI_Fetch_and_op(MPI_NO_OP) for the first guess,
 *                 then MPI_Compare_and_swap + flush until it lands); rank 1 checks the count
 *                 at the end (`handoff bench atomics --modes fetch-add,cas --pes 2`).
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
    if (p < 2) {
        if (me == 0) fprintf(stderr, "rma_sync_mpi: needs at least 2 ranks, got %d\n", p);
        MPI_Finalize();
        return 2;
    }
    uint64_t *win_mem;
    MPI_Win win;
    /* Slots 0 and 1: the puts; slot 2: the atomics' counter. */
    MPI_Win_allocate(3 * sizeof(uint64_t), sizeof(uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &win_mem, &win);
    win_mem[0] = win_mem[1] = win_mem[2] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int right = (me + 1) % p, left = (me + p - 1) % p;
    double *t = malloc(sizeof(double) * reps);
    enum { FENCE, LOCK, FLUSH, FADD, CAS, MODES };
    const char *modes[] = {"fence", "lock-exclusive", "flush", "fetch-add", "cas"};
    const uint64_t one = 1;
    for (int m = 0; m < MODES; m++) {
        int ok = 1;
        uint64_t r = 0, adds = 0;
        if (m == FENCE) MPI_Win_fence(0, win);
        if (m >= FLUSH) MPI_Win_lock_all(0, win);
        for (int s = -1; s < reps; s++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = now_us();
            for (int i = 0; i < iters; i++) {
                r++;
                uint64_t v = value(r, me);
                if (m == FENCE) {
                    MPI_Put(&v, 1, MPI_UINT64_T, right, r % 2, 1, MPI_UINT64_T, win);
                    MPI_Win_fence(0, win);
                    ok &= win_mem[r % 2] == value(r, left);
                } else if (m == FLUSH) {
                    MPI_Put(&v, 1, MPI_UINT64_T, right, 0, 1, MPI_UINT64_T, win);
                    MPI_Win_flush(right, win);
                    if (r % 64 == 0) {
                        uint64_t got = 0;
                        MPI_Get(&got, 1, MPI_UINT64_T, right, 0, 1, MPI_UINT64_T, win);
                        MPI_Win_flush(right, win);
                        ok &= got == v;
                    }
                } else if (m == FADD || m == CAS) {
                    if (me != 0) continue;
                    uint64_t old = 0;
                    if (m == FADD) {
                        MPI_Fetch_and_op(&one, &old, MPI_UINT64_T, 1, 2, MPI_SUM, win);
                        MPI_Win_flush(1, win);
                    } else {
                        MPI_Fetch_and_op(&one, &old, MPI_UINT64_T, 1, 2, MPI_NO_OP, win);
                        MPI_Win_flush(1, win);
                        for (;;) {
                            uint64_t want = old + 1, seen = 0;
                            MPI_Compare_and_swap(&want, &old, &seen, MPI_UINT64_T, 1, 2, win);
                            MPI_Win_flush(1, win);
                            if (seen == old) break;
                            old = seen;
                        }
                    }
                    adds++;
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
        if (m == FENCE) MPI_Win_fence(0, win);
        if (m >= FLUSH) MPI_Win_unlock_all(win);
        if (m == FADD || m == CAS) {
            /* Rank 1's counter holds every add of rank 0, none lost. */
            MPI_Bcast(&adds, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
            MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win);
            if (me == 1) ok &= win_mem[2] == adds;
            win_mem[2] = 0;
            MPI_Win_unlock(me, win);
            MPI_Barrier(MPI_COMM_WORLD);
        }
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

/* bcast_root: small broadcast latency per PE after a barrier (osu_oshm_broadcast's loop: time
 * one shmem_broadcast32, then shmem_barrier_all), with the root fixed at PE 0 (as OSU) or
 * moving to the next PE every iteration. Each PE's mean, so one sees who waits: a receiver
 * that leaves the barrier before the root waits for the root to be scheduled (issue #44:
 * 4 PEs on 2 CPUs). OpenSHMEM 1.4 calls only, so Open MPI's oshcc builds it too.
 *
 *   crates/handoff-shmem/bin/oshcc -O2 -o bcast_root.h bcast_root.c
 *   /usr/bin/oshcc -O2 -o bcast_root.p bcast_root.c
 *   target/release/handoff run -n 4 -- ./bcast_root.h [ITERS=20000] [MOVING=0]
 *   oshrun --oversubscribe -np 4 ./bcast_root.p [ITERS] [MOVING]
 *
 * output (PE 0): bcast_root pes=N root=fixed|moving us_per_pe= a b c d mean_us=... */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include "lat_common.h"

static long psync_bcast[SHMEM_BCAST_SYNC_SIZE];
static long psync_collect[SHMEM_COLLECT_SYNC_SIZE];
static int buf[2];
static double lat;
static double lats[1024];

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 20000;
    int moving = argc > 2 ? atoi(argv[2]) : 0;
    const int skip = 1000;
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++) psync_bcast[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++) psync_collect[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    int me = shmem_my_pe(), np = shmem_n_pes();
    if (np > 1024 || iters < 1) {
        if (me == 0) fprintf(stderr, "bcast_root: at most 1024 PEs and ITERS >= 1\n");
        shmem_global_exit(2);
    }
    shmem_barrier_all();
    double total = 0;
    for (int i = 0; i < iters + skip; i++) {
        int root = moving ? i % np : 0;
        double t0 = now_us();
        shmem_broadcast32(buf, buf, 2, root, 0, 0, np, psync_bcast);
        double t1 = now_us();
        if (i >= skip) total += t1 - t0;
        shmem_barrier_all();
    }
    lat = total / iters;
    shmem_barrier_all();
    shmem_fcollect64(lats, &lat, 1, 0, 0, np, psync_collect);
    if (me == 0) {
        double sum = 0;
        printf("bcast_root pes=%d root=%s us_per_pe=", np, moving ? "moving" : "fixed");
        for (int r = 0; r < np; r++) {
            printf(" %.3f", lats[r]);
            sum += lats[r];
        }
        printf(" mean_us=%.3f\n", sum / np);
    }
    shmem_finalize();
    return 0;
}

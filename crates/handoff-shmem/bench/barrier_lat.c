/* barrier_lat: OSU-style shmem_barrier_all latency (osu_oshm_barrier's shape, our own code).
 *
 * Every PE calls shmem_barrier_all ITERS times; PE 0 reports the mean time per barrier
 * (µs), median over SAMPLES samples.
 *
 * usage: barrier_lat [ITERS=10000] [SAMPLES=7]
 * output (PE 0): barrier_lat pes=N median_us=... min_us=... max_us=... */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include "lat_common.h"

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 10000;
    int samples = argc > 2 ? atoi(argv[2]) : 7;
    shmem_init();
    int me = shmem_my_pe();
    double *t = malloc(sizeof(double) * samples);
    shmem_barrier_all();
    for (int s = -1; s < samples; s++) { /* sample -1: warm-up */
        double t0 = now_us();
        for (int i = 0; i < iters; i++) shmem_barrier_all();
        double t1 = now_us();
        if (s >= 0) t[s] = (t1 - t0) / iters;
    }
    if (me == 0) {
        double lo = t[0], hi = t[0];
        for (int s = 1; s < samples; s++) {
            if (t[s] < lo) lo = t[s];
            if (t[s] > hi) hi = t[s];
        }
        printf("barrier_lat pes=%d median_us=%.4f min_us=%.4f max_us=%.4f\n", shmem_n_pes(),
               median(t, samples), lo, hi);
    }
    free(t);
    shmem_finalize();
    return 0;
}

/* put_lat: OSU-style put latency on 2 PEs (osu_oshm_put's shape, our own code).
 *
 * PE 0 issues ITERS blocking puts of SIZE bytes into PE 1's symmetric buffer and reports
 * the mean time per put (µs), median over SAMPLES samples. While PE 0 puts, PE 1 waits:
 *   mode "barrier": in shmem_barrier_all (as osu_oshm_put's target does);
 *   mode "wait":    in shmem_wait_until on a flag PE 0 sets after the puts.
 * A good implementation makes the puts cost the same in both modes, and never wakes the
 * waiting PE for a put it does not wait on.
 *   mode "get":     PE 0 issues blocking gets of SIZE bytes from PE 1 instead (osu_oshm_get),
 *                   PE 1 in shmem_barrier_all.
 *   mode "mr":      osu_oshm_put_mr's shape: ITERS puts, each to the next SIZE bytes of a
 *                   symmetric window of ITERS * SIZE bytes, from the same offset of PE 0's
 *                   own window, then shmem_quiet (timed); PE 1 in shmem_barrier_all. The
 *                   message rate is 1 / median_us per µs. OSU takes one such sample per size
 *                   (ITERS 500 below 8 KiB, 50 from 8 KiB); this takes SAMPLES.
 *
 * usage: put_lat [SIZE=8] [MODE=barrier|wait|get|mr] [ITERS=10000] [SAMPLES=7]
 * output (PE 0): put_lat size=SIZE mode=MODE median_us=... min_us=... max_us=... */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lat_common.h"

int main(int argc, char **argv) {
    size_t size = argc > 1 ? strtoul(argv[1], NULL, 10) : 8;
    const char *mode = argc > 2 ? argv[2] : "barrier";
    int iters = argc > 3 ? atoi(argv[3]) : 10000;
    int samples = argc > 4 ? atoi(argv[4]) : 7;
    int wait_mode = strcmp(mode, "wait") == 0;
    int get_mode = strcmp(mode, "get") == 0;
    int mr_mode = strcmp(mode, "mr") == 0;
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() != 2) {
        if (me == 0) fprintf(stderr, "put_lat: run on exactly 2 PEs\n");
        shmem_global_exit(2);
    }
    char *dst = shmem_malloc(mr_mode ? size * iters : size);
    if (!dst) {
        fprintf(stderr, "put_lat: no room for %zu bytes\n", mr_mode ? size * iters : size);
        shmem_global_exit(2);
    }
    long *flag = shmem_malloc(sizeof(long));
    char *src = malloc(size);
    double *t = malloc(sizeof(double) * samples);
    memset(src, 1, size);
    if (mr_mode) memset(dst, 1, size * iters); /* touched, as OSU does */
    *flag = 0;
    shmem_barrier_all();
    for (int s = -1; s < samples; s++) { /* sample -1: warm-up */
        if (me == 0) {
            double t0 = now_us();
            if (get_mode)
                for (int i = 0; i < iters; i++) shmem_getmem(src, dst, size, 1);
            else if (mr_mode) {
                for (size_t i = 0, off = 0; i < (size_t)iters; i++, off += size)
                    shmem_putmem(dst + off, dst + off, size, 1);
                shmem_quiet();
            } else
                for (int i = 0; i < iters; i++) shmem_putmem(dst, src, size, 1);
            double t1 = now_us();
            if (s >= 0) t[s] = (t1 - t0) / iters;
            if (wait_mode) {
                shmem_quiet();
                shmem_long_p(flag, s + 2, 1);
            }
        } else if (wait_mode) {
            shmem_long_wait_until(flag, SHMEM_CMP_GE, s + 2);
        }
        shmem_barrier_all();
    }
    if (me == 0) {
        double lo = t[0], hi = t[0];
        for (int s = 1; s < samples; s++) {
            if (t[s] < lo) lo = t[s];
            if (t[s] > hi) hi = t[s];
        }
        printf("put_lat size=%zu mode=%s median_us=%.4f min_us=%.4f max_us=%.4f\n", size, mode,
               median(t, samples), lo, hi);
    }
    shmem_free(dst);
    shmem_free(flag);
    free(src);
    free(t);
    shmem_finalize();
    return 0;
}

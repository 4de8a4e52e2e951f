/* Ping-pong between PE 0 and PE 1 (the seed's half round trip: the PEs switch roles every
 * iteration), in two methods, with the data verified every iteration:
 *   fence-flag:  shmem_putmem; shmem_fence; shmem_uint64_atomic_inc(flag)  | wait_until(flag >= i)
 *   put-signal:  shmem_putmem_signal(..., SHMEM_SIGNAL_SET i)              | signal_wait_until(sig >= i)
 * Usage: pingpong METHOD SIZE ITERS; PE 0 prints "RESULT METHOD SIZE NS_PER_HALF_RTT", the
 * median over chunks of CHUNK iterations of each chunk's mean (a chunk that another process
 * preempted does not move the median: on a busy machine most chunks are clean).
 * The Rust twin is examples/pingpong.rs, which also runs both side by side. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNK 64

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: pingpong fence-flag|put-signal SIZE ITERS\n");
        return 2;
    }
    const char *method = argv[1];
    size_t size = strtoul(argv[2], NULL, 10);
    long iters = strtol(argv[3], NULL, 10);
    int signal = !strcmp(method, "put-signal");
    if (!signal && strcmp(method, "fence-flag")) {
        fprintf(stderr, "unknown method %s\n", method);
        return 2;
    }
    if (size < 8) size = 8;
    shmem_init();
    int me = shmem_my_pe(), peer = 1 - me;
    if (shmem_n_pes() != 2) {
        if (me == 0) fprintf(stderr, "pingpong needs 2 PEs\n");
        shmem_global_exit(2);
    }
    uint64_t *buf = shmem_malloc(size);
    uint64_t *flag = shmem_calloc(1, sizeof(uint64_t));
    uint64_t *src = malloc(size);
    memset(src, 0, size);
    long warm = iters / 10 + 1;
    long chunk = CHUNK, nchunks = iters / CHUNK < 1 ? 1 : iters / CHUNK;
    iters = chunk * nchunks;
    double *chunks = malloc(sizeof(double) * nchunks);
    double t0 = 0;
    for (long i = 1; i <= warm + iters; i++) {
        if (i > warm && (i - warm - 1) % chunk == 0) {
            double t = now_ns();
            if (i > warm + 1) chunks[(i - warm - 1) / chunk - 1] = (t - t0) / chunk;
            t0 = t;
        }
        int sender = (i % 2 == 1) ? 0 : 1;
        if (me == sender) {
            src[0] = (uint64_t)i;
            src[size / 8 - 1] = (uint64_t)i;
            if (signal) {
                shmem_putmem_signal(buf, src, size, flag, (uint64_t)i, SHMEM_SIGNAL_SET, peer);
            } else {
                shmem_putmem(buf, src, size, peer);
                shmem_fence();
                shmem_uint64_atomic_inc(flag, peer);
            }
        } else {
            /* fence-flag: the flag counts the messages this PE received: (i + 1) / 2 on PE 1 */
            uint64_t want = signal ? (uint64_t)i : (uint64_t)((i + (me == 1)) / 2);
            if (signal)
                shmem_signal_wait_until(flag, SHMEM_CMP_GE, want);
            else
                shmem_uint64_wait_until(flag, SHMEM_CMP_GE, want);
            if (buf[0] != (uint64_t)i || buf[size / 8 - 1] != (uint64_t)i) {
                fprintf(stderr, "PE %d: iteration %ld: data %lu/%lu\n", me, i,
                        (unsigned long)buf[0], (unsigned long)buf[size / 8 - 1]);
                shmem_global_exit(3);
            }
        }
    }
    chunks[nchunks - 1] = (now_ns() - t0) / chunk;
    qsort(chunks, nchunks, sizeof(double), cmp_double);
    if (me == 0) printf("RESULT %s %zu %.1f\n", method, size, chunks[nchunks / 2]);
    shmem_finalize();
    return 0;
}

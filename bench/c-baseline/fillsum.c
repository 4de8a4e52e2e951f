/* The C baseline of handoff's kernels: the same fill (i32 value into a block, then a full
 * fence) and the same sum (i32 block -> exact i64, checked against the expected value), timed
 * the same way (TSC read with rdtscp around each call; medians over the repetitions), in the
 * same lock-step as `handoff bench exchange`:
 *   single-thread: one thread on CPU P fills then sums, every repetition;
 *   two-thread spin: a producer on CPU P fills and publishes, a consumer on CPU C spins until
 *   the block is full, sums it, checks it and releases it (handoff's processes-spin, with
 *   threads: the block is shared memory either way).
 * Build: cc -O3 -march=native -pthread fillsum.c -o fillsum
 * Usage: fillsum MODE SIZE_BYTES REPS WARMUP PRODUCER_CPU CONSUMER_CPU [wide|split]
 *        MODE = single | spin; the sum loop: split (default, the faster with GCC 12) or wide
 *        (the plain `s += b[i]`); prints "read_us=<median> write_us=<median>". */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static double ticks_per_us;

static void calibrate(void) {
    struct timespec a, b;
    unsigned aux;
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t t0 = __rdtscp(&aux);
    do clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 2e8);
    uint64_t t1 = __rdtscp(&aux);
    ticks_per_us = (t1 - t0) / (((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3);
}

static inline uint64_t now(void) {
    unsigned aux;
    return __rdtscp(&aux);
}

static void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (pthread_setaffinity_np(pthread_self(), sizeof s, &s)) {
        fprintf(stderr, "cannot pin to CPU %d\n", cpu);
        exit(2);
    }
}

__attribute__((noinline)) static void fill(int32_t *b, size_t n, int32_t v) {
    for (size_t i = 0; i < n; i++) b[i] = v;
    atomic_thread_fence(memory_order_seq_cst);
}

/* The plain loop: GCC 12 vectorizes it with one dependent accumulator (slow). */
__attribute__((noinline)) static int64_t sum_wide(const int32_t *b, size_t n) {
    int64_t s = 0;
    for (size_t i = 0; i < n; i++) s += b[i];
    return s;
}

/* The same exact sum, written as handoff computes it: per 64 Ki elements, the sum modulo 2^32
 * and the exact sum of the high halves, in 32-bit lanes the compiler vectorizes well. */
__attribute__((noinline)) static int64_t sum_split(const int32_t *b, size_t n) {
    int64_t total = 0;
    for (size_t c = 0; c < n; c += 65536) {
        size_t end = n - c < 65536 ? n : c + 65536;
        uint32_t wrap = 0;
        int32_t hi = 0;
        for (size_t i = c; i < end; i++) {
            wrap += (uint32_t)b[i];
            hi += b[i] >> 16;
        }
        int64_t high = (int64_t)hi * 65536;
        total += high + (int64_t)(uint32_t)(wrap - (uint32_t)high);
    }
    return total;
}

static int64_t (*sum)(const int32_t *, size_t) = sum_split;

static int32_t value(uint32_t rep) { return 1 + (rep & 1); }

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int32_t *block;
static size_t elems;
static uint32_t total, warmup;
static int cpu_p, cpu_c;
static double *read_us, *write_us;
static _Alignas(128) _Atomic uint32_t full;
static _Alignas(128) _Atomic uint32_t freed;

static void check(uint32_t rep, int64_t s) {
    if (s != (int64_t)value(rep) * (int64_t)elems) {
        fprintf(stderr, "verification failed in repetition %u\n", rep);
        exit(3);
    }
}

static void *producer(void *arg) {
    (void)arg;
    pin(cpu_p);
    for (uint32_t rep = 0; rep < total; rep++) {
        while (atomic_load_explicit(&freed, memory_order_acquire) != rep) _mm_pause();
        uint64_t t0 = now();
        fill(block, elems, value(rep));
        uint64_t t1 = now();
        atomic_store_explicit(&full, rep + 1, memory_order_release);
        write_us[rep] = (t1 - t0) / ticks_per_us;
    }
    return NULL;
}

static void *consumer(void *arg) {
    (void)arg;
    pin(cpu_c);
    for (uint32_t rep = 0; rep < total; rep++) {
        while (atomic_load_explicit(&full, memory_order_acquire) != rep + 1) _mm_pause();
        uint64_t t0 = now();
        int64_t s = sum(block, elems);
        uint64_t t1 = now();
        check(rep, s);
        read_us[rep] = (t1 - t0) / ticks_per_us;
        atomic_store_explicit(&freed, rep + 1, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 7 && argc != 8) {
        fprintf(stderr,
                "usage: %s single|spin SIZE_BYTES REPS WARMUP PRODUCER_CPU CONSUMER_CPU [wide|split]\n",
                argv[0]);
        return 2;
    }
    if (argc == 8 && argv[7][0] == 'w') sum = sum_wide;
    int spin = argv[1][0] == 's' && argv[1][1] == 'p';
    elems = strtoull(argv[2], NULL, 10) / 4;
    uint32_t reps = strtoul(argv[3], NULL, 10);
    warmup = strtoul(argv[4], NULL, 10);
    total = reps + warmup;
    cpu_p = atoi(argv[5]);
    cpu_c = atoi(argv[6]);
    calibrate();
    if (posix_memalign((void **)&block, 4096, elems * 4)) return 3;
    read_us = calloc(total, sizeof *read_us);
    write_us = calloc(total, sizeof *write_us);
    if (spin) {
        pthread_t p, c;
        pthread_create(&c, NULL, consumer, NULL);
        pthread_create(&p, NULL, producer, NULL);
        pthread_join(p, NULL);
        pthread_join(c, NULL);
    } else {
        pin(cpu_p);
        for (uint32_t rep = 0; rep < total; rep++) {
            uint64_t t0 = now();
            fill(block, elems, value(rep));
            uint64_t t1 = now();
            uint64_t t2 = now();
            int64_t s = sum(block, elems);
            uint64_t t3 = now();
            check(rep, s);
            write_us[rep] = (t1 - t0) / ticks_per_us;
            read_us[rep] = (t3 - t2) / ticks_per_us;
        }
    }
    printf("read_us=%.3f write_us=%.3f\n", median(read_us + warmup, reps),
           median(write_us + warmup, reps));
    return 0;
}

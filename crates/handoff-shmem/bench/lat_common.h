/* Shared helpers of handoff's OSU-style latency programs (put_lat.c, barrier_lat.c): a
 * monotonic clock and the median of a sample array. Our own code, built with any
 * OpenSHMEM's oshcc. */
#ifndef LAT_COMMON_H
#define LAT_COMMON_H
#include <stdlib.h>
#include <time.h>

static inline double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n samples (sorts them). */
static inline double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
#endif

/* The harness of the two-thread hand-off programs in bench/ (poll_delay.c, hop_patterns.c,
 * poll_learn.c): a second thread pinned to CPU 1, the first to CPU 0, and cells of N round
 * trips interleaved per round, each timed on CPU 0 as one-way ns.
 *
 * A program defines `run(first, base)` (one cell's N round trips; `first` on CPU 0, sequence
 * numbers from `base`) and `setup(cell)` (called on CPU 0 while the other thread is idle),
 * then calls `two_cpu_rounds`. Run the programs without real-time priority: the second thread
 * starts on the first's CPU before it pins itself. */
#ifndef HANDOFF_BENCH_TWO_CPUS_H
#define HANDOFF_BENCH_TWO_CPUS_H

#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { MAX_ROUNDS = 64 };

static void run(int first, uint64_t base);
static void setup(int cell);

static volatile int two_cpus_go, two_cpus_done;
static uint64_t two_cpus_base;

static void pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void *two_cpus_other(void *arg) {
  (void)arg;
  pin(1);
  for (;;) {
    while (!__atomic_load_n(&two_cpus_go, __ATOMIC_ACQUIRE)) {
      if (two_cpus_done) return 0;
      _mm_pause();
    }
    run(0, two_cpus_base);
    __atomic_store_n(&two_cpus_go, 0, __ATOMIC_RELEASE);
  }
}

/* Parses ROUNDS (argv[1], default 5); exits 2 with a message when it is out of range. */
static int two_cpu_rounds_arg(int argc, char **argv, const char *prog) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  if (rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "%s: ROUNDS must be 1 to %d\n", prog, MAX_ROUNDS);
    exit(2);
  }
  return rounds;
}

/* Runs `cells` cells of `n` round trips per round for `rounds` rounds; ns[c * MAX_ROUNDS + r]
 * gets cell c's one-way ns in round r. Sorts each cell's figures; returns nothing. */
static void two_cpu_rounds(int rounds, int cells, uint64_t n, double *ns) {
  pthread_t t;
  pthread_create(&t, 0, two_cpus_other, 0);
  pin(0);
  uint64_t base = 0;
  for (int r = 0; r < rounds; r++)
    for (int c = 0; c < cells; c++) {
      setup(c);
      two_cpus_base = base;
      __atomic_store_n(&two_cpus_go, 1, __ATOMIC_SEQ_CST);
      double t0 = now_ns();
      run(1, base);
      double dt = now_ns() - t0;
      while (__atomic_load_n(&two_cpus_go, __ATOMIC_ACQUIRE)) _mm_pause();
      base += 2 * n;
      ns[c * MAX_ROUNDS + r] = dt / (2.0 * n);
    }
  two_cpus_done = 1;
  pthread_join(t, 0);
  for (int c = 0; c < cells; c++) qsort(ns + c * MAX_ROUNDS, rounds, sizeof(double), cmp_double);
}

#endif

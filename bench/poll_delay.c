/* When a waiter first polls, against a hand-off's one-way time (issue #23, docs/results.md
 * session 9): two threads on CPUs 0 and 1 bounce in the c2c pattern (one word both ways) and
 * in the put pattern (each spins on its own word; the other stores into it). After each
 * store the sender executes K `pause`s before its first poll, K = 0..6, interleaved; the
 * polls are bare loads with a `pause` between (no bookkeeping, unlike the Rust example
 * `handoff-probe/examples/poll_delay.rs`, whose per-poll counter shifts the polls' phase).
 *
 *   cc -O2 -pthread -o /tmp/poll_delay bench/poll_delay.c && /tmp/poll_delay [ROUNDS]
 *
 * Prints the median one-way ns per pattern and K. Run it without real-time priority: the
 * second thread starts on the first's CPU before it pins itself.
 *
 *   /tmp/poll_delay ROUNDS imul
 *
 * delays by a chain of 40 dependent `imul`s per K instead of a `pause` (about as long here):
 * whether the dip at K = 3 pauses is the delay's time or the `pause` itself (session 10:
 * the imul delay shows no dip). */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { N = 20000, MAX_K = 6, CELLS = 2 * (MAX_K + 1), MAX_ROUNDS = 64 };
static _Alignas(128) volatile uint64_t words[32];
static volatile int go, done_, pattern, k_pauses, imul_delay;
static uint64_t cell_base;

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

/* K units of delay before the first poll: K pauses, or K chains of 40 dependent imuls. */
static inline void delay(int k, uint64_t seed) {
  if (!imul_delay) {
    for (int j = 0; j < k; j++) _mm_pause();
    return;
  }
  uint64_t x = seed | 1;
  for (int j = 0; j < 40 * k; j++) __asm__ volatile("imul %0, %0" : "+r"(x));
}

static void wait_eq(volatile uint64_t *w, uint64_t want) {
  while (__atomic_load_n(w, __ATOMIC_ACQUIRE) != want) _mm_pause();
}

/* One cell: party `first` (CPU 0) or the other. */
static void run(int first, uint64_t base) {
  volatile uint64_t *mine = pattern == 0 ? &words[0] : first ? &words[0] : &words[16];
  volatile uint64_t *theirs = pattern == 0 ? &words[0] : first ? &words[16] : &words[0];
  int k = k_pauses;
  for (uint64_t i = 0; i < N; i++) {
    uint64_t ping = base + 2 * i + 1, pong = base + 2 * i + 2;
    if (first) {
      __atomic_store_n(theirs, ping, __ATOMIC_RELEASE);
      delay(k, ping);
      wait_eq(mine, pong);
    } else {
      wait_eq(mine, ping);
      __atomic_store_n(theirs, pong, __ATOMIC_RELEASE);
      delay(k, pong);
    }
  }
}

static void *other(void *arg) {
  (void)arg;
  pin(1);
  for (;;) {
    while (!go) {
      if (done_) return 0;
      _mm_pause();
    }
    run(0, cell_base);
    go = 0;
  }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  imul_delay = argc > 2 && argv[2][0] == 'i';
  if (rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "ROUNDS: 1 to %d\n", MAX_ROUNDS);
    return 2;
  }
  static double ns[CELLS][MAX_ROUNDS];
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  pin(0);
  uint64_t base = 0;
  for (int r = 0; r < rounds; r++)
    for (int c = 0; c < CELLS; c++) {
      pattern = c / (MAX_K + 1);
      k_pauses = c % (MAX_K + 1);
      cell_base = base;
      __atomic_thread_fence(__ATOMIC_SEQ_CST);
      go = 1;
      double t0 = now_ns();
      run(1, base);
      double dt = now_ns() - t0;
      while (go) _mm_pause();
      base += 2 * N;
      ns[c][r] = dt / (2.0 * N);
    }
  done_ = 1;
  pthread_join(t, 0);
  printf("one-way ns, CPU 0 <-> CPU 1, %d round trips per cell, median of %d, delay: %s\n", N,
         rounds, imul_delay ? "40 imuls per K" : "a pause per K");
  for (int c = 0; c < CELLS; c++) {
    if (c % (MAX_K + 1) == 0) printf("%-4s", c ? "put" : "c2c");
    qsort(ns[c], rounds, sizeof(double), cmp);
    printf("  K=%d: %6.1f", c % (MAX_K + 1), ns[c][rounds / 2]);
    if (c % (MAX_K + 1) == MAX_K) printf("\n");
  }
  return 0;
}

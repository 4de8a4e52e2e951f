/* Can a wait learn when to poll? (issue #23, docs/results.md session 10). Two threads on
 * CPUs 0 and 1 bounce a sequence number in the put pattern (each spins on its own word, the
 * other stores into it: `put_line` + `wait_line` with no library code), four ways, cells
 * interleaved per round:
 *   c2c       one word both ways (the floor);
 *   put       the waiter polls at once, a `pause` between polls (every spinning wait today);
 *   put+3     after a first poll that fails, 3 pauses before polling on (the dip of
 *             `bench/poll_delay.c` in the ~38 ns host state; it costs in the ~15 ns state);
 *   learned   after a first poll that fails, K pauses, K learned per thread: blocks of 32
 *             waits timed with rdtsc (per-wait time of the block, an EWMA per K), the best K
 *             kept, one block in 8 exploring K = 0..Kmax in turn, where Kmax pauses are half
 *             the best K's per-wait period (a delay never longer than half a round trip).
 *
 *   cc -O2 -pthread -o /tmp/poll_learn bench/poll_learn.c && /tmp/poll_learn [ROUNDS]
 *
 * Prints the median one-way ns per cell and the learner's last K; every received value is
 * checked (exit 1 on a wrong one). Run it without real-time priority: the second thread
 * starts on the first's CPU before it pins itself. */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

enum { N = 20000, CELLS = 4, MAX_ROUNDS = 64, KMAX = 10, BLOCK = 32, EXPLORE_MASK = 7 };
enum { C2C, PUT, PUT3, LEARNED };
static const char *names[CELLS] = {"c2c", "put", "put+3", "learned"};
static _Alignas(128) volatile uint64_t words[64];
static volatile int go, done_, cell;
static uint64_t cell_base, wrong;
static double pause_tsc; /* rdtsc ticks per pause between polls (calibrated in main) */

/* One thread's learning (one site). */
struct learner {
  double est[KMAX + 1]; /* per-wait period of blocks run with K pauses, rdtsc ticks; 0: none */
  unsigned waits, blocks, explore;
  int k, best, kmax;
  uint64_t t0;
};
static __thread struct learner me;

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

static inline void spin_ge(volatile uint64_t *w, uint64_t want) {
  while (__atomic_load_n(w, __ATOMIC_ACQUIRE) < want) _mm_pause();
}

/* After a block: record its per-wait period under its K, choose the next block's K. */
static void end_block(struct learner *l) {
  double x = (double)(__rdtsc() - l->t0) / BLOCK;
  l->waits = 0;
  l->est[l->k] = l->est[l->k] == 0 ? x : l->est[l->k] + (x - l->est[l->k]) / 4;
  double period = l->est[l->best] > 0 ? l->est[l->best] : x;
  int km = (int)(period / 2 / pause_tsc);
  l->kmax = km < 0 ? 0 : km > KMAX ? KMAX : km;
  int b = 0;
  for (int j = 0; j <= l->kmax; j++)
    if (l->est[j] > 0 && (l->est[b] == 0 || l->est[j] < l->est[b])) b = j;
  l->best = b;
  l->blocks++;
  if ((l->blocks & EXPLORE_MASK) == 0 || l->est[0] == 0)
    l->k = (int)(l->explore++ % (unsigned)(l->kmax + 1));
  else
    l->k = b;
}

static inline void wait_for(int c, volatile uint64_t *w, uint64_t want) {
  if (c == C2C || c == PUT || __atomic_load_n(w, __ATOMIC_ACQUIRE) >= want) {
    spin_ge(w, want);
  } else if (c == PUT3) {
    _mm_pause();
    _mm_pause();
    _mm_pause();
    spin_ge(w, want);
  } else {
    struct learner *l = &me;
    if (l->waits == 0) l->t0 = __rdtsc();
    for (int j = 0; j < l->k; j++) _mm_pause();
    spin_ge(w, want);
    if (++l->waits == BLOCK) end_block(l);
  }
  if (*w != want) wrong++;
}

static void run(int first, uint64_t base) {
  int c = cell;
  volatile uint64_t *mine = c == C2C || first ? &words[0] : &words[16];
  volatile uint64_t *theirs = c == C2C || !first ? &words[0] : &words[16];
  for (uint64_t i = 0; i < N; i++) {
    uint64_t ping = base + 2 * i + 1, pong = base + 2 * i + 2;
    if (first) {
      __atomic_store_n(theirs, ping, __ATOMIC_RELEASE);
      wait_for(c, mine, pong);
    } else {
      wait_for(c, mine, ping);
      __atomic_store_n(theirs, pong, __ATOMIC_RELEASE);
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
    __atomic_store_n(&go, 0, __ATOMIC_RELEASE);
  }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  if (rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "poll_learn: ROUNDS must be 1 to %d\n", MAX_ROUNDS);
    return 2;
  }
  /* Back-to-back pauses take ~1.8x as long as one between polls (session 10). */
  uint64_t t0 = __rdtsc();
  for (int i = 0; i < 100000; i++) _mm_pause();
  pause_tsc = (double)(__rdtsc() - t0) / 100000 / 1.8;
  static double ns[CELLS][MAX_ROUNDS];
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  pin(0);
  uint64_t base = 0;
  for (int r = 0; r < rounds; r++)
    for (int c = 0; c < CELLS; c++) {
      cell = c;
      cell_base = base;
      __atomic_store_n(&go, 1, __ATOMIC_SEQ_CST);
      double a = now_ns();
      run(1, base);
      double dt = now_ns() - a;
      while (__atomic_load_n(&go, __ATOMIC_ACQUIRE)) _mm_pause();
      base += 2 * N;
      ns[c][r] = dt / (2.0 * N);
    }
  done_ = 1;
  pthread_join(t, 0);
  printf("one-way ns, CPU 0 <-> CPU 1, %d round trips per cell, median of %d:", N, rounds);
  for (int c = 0; c < CELLS; c++) {
    qsort(ns[c], rounds, sizeof(double), cmp);
    printf(" %s %.1f", names[c], ns[c][rounds / 2]);
  }
  printf(" | learned K %d (of 0..%d) | %lu wrong\n", me.best, me.kmax, (unsigned long)wrong);
  return wrong ? 1 : 0;
}

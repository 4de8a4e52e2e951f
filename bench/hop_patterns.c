/* The hardware's bound for each of `bench pingpong`'s 8 B methods (issue #23, docs/results.md
 * session 10): two threads on CPUs 0 and 1 bounce a sequence number with no library code,
 * polling with a `pause` between loads as every spinning wait does:
 *   c2c        one word both ways (the lab's c2c floor pattern);
 *   line       each spins on a word of its own line, the other stores into it (`put_line` +
 *              `wait_line`: payload and sequence in one line);
 *   putsig     an 8 B data word in one line, then the flag in another (`put_signal` with
 *              `Set`); the receiver spins on the flag, then reads and checks the data;
 *   add+reset  the same with a locked add on the flag, which the receiver resets to 0 (the
 *              lab's `put-signal`: `SignalOp::Add(1)`, then a local store of 0).
 * Cells interleave per round; each prints its median one-way ns and its ratio to c2c.
 *
 *   cc -O2 -pthread -o /tmp/hop_patterns bench/hop_patterns.c && /tmp/hop_patterns [ROUNDS]
 *
 * Every received data word is checked; a wrong one is counted and the program exits 1.
 * Run it without real-time priority: the second thread starts on the first's CPU before it
 * pins itself. */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { N = 20000, CELLS = 4, MAX_ROUNDS = 64 };
enum { C2C, LINE, PUTSIG, ADD_RESET };
static const char *names[CELLS] = {"c2c", "line", "putsig", "add+reset"};
/* Flags at words 0 and 16 (two lines), data at 64 and 96 (two more). */
static _Alignas(128) volatile uint64_t words[128];
static volatile int go, done_, cell;
static uint64_t cell_base, wrong, checked;

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

static inline void wait_ge(volatile uint64_t *w, uint64_t want) {
  while (__atomic_load_n(w, __ATOMIC_ACQUIRE) < want) _mm_pause();
}

static inline void receive(int c, volatile uint64_t *flag, volatile uint64_t *data, uint64_t m) {
  if (c == ADD_RESET) {
    wait_ge(flag, 1);
    __atomic_store_n(flag, 0, __ATOMIC_RELAXED);
  } else {
    wait_ge(flag, m);
  }
  if (c == PUTSIG || c == ADD_RESET) {
    checked++;
    if (*data != m) wrong++;
  }
}

static inline void send(int c, volatile uint64_t *flag, volatile uint64_t *data, uint64_t m) {
  if (c == PUTSIG || c == ADD_RESET) *data = m;
  if (c == ADD_RESET)
    __atomic_fetch_add(flag, 1, __ATOMIC_ACQ_REL);
  else
    __atomic_store_n(flag, m, __ATOMIC_RELEASE);
}

static void run(int first, uint64_t base) {
  int c = cell;
  volatile uint64_t *mine = c == C2C || first ? &words[0] : &words[16];
  volatile uint64_t *theirs = c == C2C || !first ? &words[0] : &words[16];
  volatile uint64_t *my_data = first ? &words[64] : &words[96];
  volatile uint64_t *their_data = first ? &words[96] : &words[64];
  for (uint64_t i = 0; i < N; i++) {
    uint64_t ping = base + 2 * i + 1, pong = base + 2 * i + 2;
    if (first) {
      send(c, theirs, their_data, ping);
      receive(c, mine, my_data, pong);
    } else {
      receive(c, mine, my_data, ping);
      send(c, theirs, their_data, pong);
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
    fprintf(stderr, "hop_patterns: ROUNDS must be 1 to %d\n", MAX_ROUNDS);
    return 2;
  }
  static double ns[CELLS][MAX_ROUNDS];
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  pin(0);
  uint64_t base = 0;
  for (int r = 0; r < rounds; r++)
    for (int c = 0; c < CELLS; c++) {
      cell = c;
      cell_base = base;
      words[0] = words[16] = 0; /* the other thread is idle: a counting flag starts at 0 */
      __atomic_store_n(&go, 1, __ATOMIC_SEQ_CST);
      double t0 = now_ns();
      run(1, base);
      double dt = now_ns() - t0;
      while (__atomic_load_n(&go, __ATOMIC_ACQUIRE)) _mm_pause();
      base += 2 * N;
      ns[c][r] = dt / (2.0 * N);
    }
  done_ = 1;
  pthread_join(t, 0);
  double med[CELLS];
  printf("one-way ns, CPU 0 <-> CPU 1, %d round trips per cell, median of %d:", N, rounds);
  for (int c = 0; c < CELLS; c++) {
    qsort(ns[c], rounds, sizeof(double), cmp);
    med[c] = ns[c][rounds / 2];
    printf(" %s %.1f", names[c], med[c]);
  }
  printf(" | /c2c:");
  for (int c = 1; c < CELLS; c++) printf(" %s %.2f", names[c], med[c] / med[0]);
  printf(" | %lu data words checked, %lu wrong\n", (unsigned long)checked, (unsigned long)wrong);
  return wrong ? 1 : 0;
}

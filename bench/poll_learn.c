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
 * checked (exit 1 on a wrong one; harness: bench/two_cpus.h). */
#include "two_cpus.h"

#include <x86intrin.h>

enum { N = 20000, CELLS = 4, KMAX = 10, BLOCK = 32, EXPLORE_MASK = 7 };
enum { C2C, PUT, PUT3, LEARNED };
static const char *names[CELLS] = {"c2c", "put", "put+3", "learned"};
static _Alignas(128) volatile uint64_t words[64];
static volatile int cell;
static uint64_t wrong;
static double pause_tsc; /* rdtsc ticks per pause between polls (calibrated in main) */

/* One thread's learning (one site). */
struct learner {
  double est[KMAX + 1]; /* per-wait period of blocks run with K pauses, rdtsc ticks; 0: none */
  unsigned waits, blocks, explore;
  int k, best, kmax;
  uint64_t t0;
};
static __thread struct learner me;

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

static void setup(int c) { cell = c; }

int main(int argc, char **argv) {
  int rounds = two_cpu_rounds_arg(argc, argv, "poll_learn");
  /* Back-to-back pauses take ~1.8x as long as one between polls (session 10). */
  uint64_t t0 = __rdtsc();
  for (int i = 0; i < 100000; i++) _mm_pause();
  pause_tsc = (double)(__rdtsc() - t0) / 100000 / 1.8;
  static double ns[CELLS * MAX_ROUNDS];
  two_cpu_rounds(rounds, CELLS, N, ns);
  printf("one-way ns, CPU 0 <-> CPU 1, %d round trips per cell, median of %d:", N, rounds);
  for (int c = 0; c < CELLS; c++) printf(" %s %.1f", names[c], ns[c * MAX_ROUNDS + rounds / 2]);
  /* The thread on CPU 0 (this one) ran the learner whose state is printed. */
  printf(" | learned K %d (of 0..%d) | %lu wrong\n", me.best, me.kmax, (unsigned long)wrong);
  return wrong ? 1 : 0;
}

/* When a waiter first polls, against a hand-off's one-way time (issue #23, docs/results.md
 * session 9): two threads on CPUs 0 and 1 bounce in the c2c pattern (one word both ways) and
 * in the put pattern (each spins on its own word; the other stores into it). After each
 * store the sender executes K `pause`s before its first poll, K = 0..6, interleaved; the
 * polls are bare loads with a `pause` between (no bookkeeping, unlike the Rust example
 * `handoff-probe/examples/poll_delay.rs`, whose per-poll counter shifts the polls' phase).
 *
 *   cc -O2 -pthread -o /tmp/poll_delay bench/poll_delay.c && /tmp/poll_delay [ROUNDS]
 *
 * Prints the median one-way ns per pattern and K (harness: bench/two_cpus.h).
 *
 *   /tmp/poll_delay ROUNDS imul
 *
 * delays by a chain of 40 dependent `imul`s per K instead of a `pause` (about as long here):
 * whether the dip at K = 3 pauses is the delay's time or the `pause` itself (session 10:
 * a weaker dip, at K = 2, about 40 ns). */
#include "two_cpus.h"

enum { N = 20000, MAX_K = 6, CELLS = 2 * (MAX_K + 1) };
static _Alignas(128) volatile uint64_t words[32];
static volatile int pattern, k_pauses, imul_delay;

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

static void setup(int c) {
  pattern = c / (MAX_K + 1);
  k_pauses = c % (MAX_K + 1);
}

int main(int argc, char **argv) {
  int rounds = two_cpu_rounds_arg(argc, argv, "poll_delay");
  imul_delay = argc > 2 && argv[2][0] == 'i';
  static double ns[CELLS * MAX_ROUNDS];
  two_cpu_rounds(rounds, CELLS, N, ns);
  printf("one-way ns, CPU 0 <-> CPU 1, %d round trips per cell, median of %d, delay: %s\n", N,
         rounds, imul_delay ? "40 imuls per K" : "a pause per K");
  for (int c = 0; c < CELLS; c++) {
    if (c % (MAX_K + 1) == 0) printf("%-4s", c ? "put" : "c2c");
    printf("  K=%d: %6.1f", c % (MAX_K + 1), ns[c * MAX_ROUNDS + rounds / 2]);
    if (c % (MAX_K + 1) == MAX_K) printf("\n");
  }
  return 0;
}

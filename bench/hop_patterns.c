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
 * Every received data word is checked; a wrong one is counted and the program exits 1
 * (harness: bench/two_cpus.h). */
#include "two_cpus.h"

enum { N = 20000, CELLS = 4 };
enum { C2C, LINE, PUTSIG, ADD_RESET };
static const char *names[CELLS] = {"c2c", "line", "putsig", "add+reset"};
/* Flags at words 0 and 16 (two lines), data at 64 and 96 (two more). */
static _Alignas(128) volatile uint64_t words[128];
static volatile int cell;
static uint64_t wrong, checked;

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

static void setup(int c) {
  cell = c;
  words[0] = words[16] = 0; /* the other thread is idle: a counting flag starts at 0 */
}

int main(int argc, char **argv) {
  int rounds = two_cpu_rounds_arg(argc, argv, "hop_patterns");
  static double ns[CELLS * MAX_ROUNDS];
  two_cpu_rounds(rounds, CELLS, N, ns);
  double med[CELLS];
  printf("one-way ns, CPU 0 <-> CPU 1, %d round trips per cell, median of %d:", N, rounds);
  for (int c = 0; c < CELLS; c++) {
    med[c] = ns[c * MAX_ROUNDS + rounds / 2];
    printf(" %s %.1f", names[c], med[c]);
  }
  printf(" | /c2c:");
  for (int c = 1; c < CELLS; c++) printf(" %s %.2f", names[c], med[c] / med[0]);
  printf(" | %lu data words checked, %lu wrong\n", (unsigned long)checked, (unsigned long)wrong);
  return wrong ? 1 : 0;
}

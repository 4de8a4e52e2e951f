/* What tests-sos `spam` does to its PEs, for a node with more ranks than CPUs (tests/mpi.rs
 * runs it so, on the mixed and RMA paths), where the MPI transport waits for its RMA
 * operations by polling requests with yields (MPI_Rput, MPI_Raccumulate,
 * MPI_Rget_accumulate; a flush preceded by a polled read, and a compare-and-swap followed by
 * one; handoff-mpi's rma.rs): every round, 2 KiB collects, fcollects and broadcasts over
 * every PE (the collectives' messages: puts then signals), then every other PE puts with a
 * signal, adds to a counter, fetches-and-adds and takes a lock (compare-and-swap) on PE 0
 * while PE 0 waits for their signals; and every PE gets 2 KiB from every PE (spam's
 * all2all_get), PE 0 CROWDED_GETS times more from each other PE while they wait in the
 * barrier (spam's many2one_get; default 0). Every byte and count is checked against closed
 * forms.
 * A watchdog (CROWDED_DEADLINE seconds, default 60) ends a stalled run with a line instead
 * of letting it hang (on a loaded 2-CPU machine 200 rounds took 50-56 s on MPICH's mixed
 * path when every rank spun in MPI_Win_flush, 8-15 s after, #42; which calls the transport
 * makes there is mpi_calls.c's check). PE 0 prints OK. */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

enum { ELEMS = 512, MAX_PES = 64, ROUNDS = 100 };

static int src[ELEMS], dst[ELEMS * MAX_PES], fdst[ELEMS * MAX_PES], bdst[ELEMS], got[ELEMS];
static int slot[MAX_PES][ELEMS];
static uint64_t sig;
static long counter, tickets, lock;

static void stalled(int s) {
    (void)s;
    static const char line[] =
        "crowded: still running at the deadline (CROWDED_DEADLINE): a stall\n";
    ssize_t w = write(2, line, sizeof line - 1);
    (void)w;
    _exit(4);
}

static int value(int pe, int round, int i) { return pe * 1000003 + round * ELEMS + i; }

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n <= MAX_PES, "%d PEs, at most %d", n, MAX_PES);
    const char *d = getenv("CROWDED_DEADLINE");
    const char *g = getenv("CROWDED_GETS");
    int gets = g != NULL ? atoi(g) : 0;
    signal(SIGALRM, stalled);
    alarm(d != NULL ? (unsigned)atoi(d) : 60);
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < ELEMS; i++) src[i] = value(me, r, i);
        /* The collectives' destinations are ready: every PE passed the last round's
         * barrier after it had read them. */
        shmem_int_collect(SHMEM_TEAM_WORLD, dst, src, ELEMS);
        shmem_int_fcollect(SHMEM_TEAM_WORLD, fdst, src, ELEMS);
        shmem_int_broadcast(SHMEM_TEAM_WORLD, bdst, src, ELEMS, r % n);
        for (int pe = 0; pe < n; pe++)
            for (int i = 0; i < ELEMS; i++) {
                CHECK(dst[pe * ELEMS + i] == value(pe, r, i), "round %d collect %d %d", r, pe, i);
                CHECK(fdst[pe * ELEMS + i] == value(pe, r, i), "round %d fcollect %d %d", r, pe,
                      i);
            }
        for (int i = 0; i < ELEMS; i++)
            CHECK(bdst[i] == value(r % n, r, i), "round %d broadcast %d: %d", r, i, bdst[i]);
        /* Every PE's src holds this round's values: it contributed them to the collects
         * above, and rewrites them only after the round's closing barrier. */
        for (int k = 0; k < 1 + (me == 0 ? gets : 0); k++)
            for (int pe = 0; pe < n; pe++) {
                if (k > 0 && pe == me) continue;
                shmem_int_get(got, src, ELEMS, pe);
                CHECK(got[0] == value(pe, r, 0) && got[ELEMS - 1] == value(pe, r, ELEMS - 1),
                      "round %d get %d from %d: %d .. %d", r, k, pe, got[0], got[ELEMS - 1]);
            }
        if (me != 0) {
            shmem_putmem_signal(slot[me], src, sizeof src, &sig, 1, SHMEM_SIGNAL_ADD, 0);
            shmem_long_atomic_add(&counter, 1, 0);
            shmem_long_atomic_fetch_inc(&tickets, 0);
            shmem_set_lock(&lock);
            long c = shmem_long_g(&counter, 0);
            CHECK(c >= (long)r * (n - 1) + 1, "round %d: counter %ld under the lock", r, c);
            shmem_clear_lock(&lock);
        } else {
            shmem_signal_wait_until(&sig, SHMEM_CMP_GE, (uint64_t)(r + 1) * (uint64_t)(n - 1));
            for (int pe = 1; pe < n; pe++)
                for (int i = 0; i < ELEMS; i++)
                    CHECK(slot[pe][i] == value(pe, r, i), "round %d slot %d %d: %d", r, pe, i,
                          slot[pe][i]);
        }
        shmem_barrier_all();
    }
    if (me == 0) {
        long want = (long)ROUNDS * (n - 1);
        CHECK(counter == want && tickets == want, "counter %ld, tickets %ld, want %ld", counter,
              tickets, want);
    }
    alarm(0);
    shmem_barrier_all();
    if (me == 0) printf("OK crowded %d PEs\n", n);
    shmem_finalize();
    return 0;
}

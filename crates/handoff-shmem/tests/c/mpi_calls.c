/* Which MPI calls the MPI build makes (tests/mpi.rs, built with the library's mpicc): this
 * program interposes MPI_Barrier, MPI_Ibarrier, MPI_Allgather, MPI_Iallgather, MPI_Get and
 * MPI_Rget (the MPI profiling interface: each counts, then calls its PMPI_ twin) and checks,
 * over shmem_init, 50 shmem_barrier_all and 50 shmem_getmem from the next PE, that
 *   - on the shared window, shmem_barrier_all and shmem_getmem make no MPI call (the team's
 *     barrier over words in the window; a copy);
 *   - on the RMA and mixed paths with Open MPI, a barrier with no deadline (OpenSHMEM's
 *     calls have none) is MPI's blocking call, never the nonblocking one polled by MPI_Test
 *     (its polled MPI_Ibarrier made shmem_barrier_all 3.3 times a plain MPI_Barrier
 *     program, #42), and the set-up agreements are MPI_Allgather (but the first, made
 *     before the nodes are known), not MPI_Iallgather;
 *   - except when this node runs more ranks than it has CPUs ("crowded": every rank of
 *     these jobs is on this node), with HANDOFF_WAIT=block (which asks for sleeps), and
 *     with MPICH (whose blocking calls never yield the CPU): then barriers are the polled
 *     MPI_Ibarrier;
 *   - gets from another node are MPI_Rget polled with yields on a crowded node (tests-sos
 *     spam ran past 60 s on MPICH's mixed path when they were MPI_Get + MPI_Win_flush),
 *     MPI_Get otherwise;
 *   - atomics and signals (every one an MPI call off the shared window, to node mates too)
 *     are MPI_Raccumulate / MPI_Rget_accumulate polled with yields on a crowded node, never
 *     MPI_Accumulate, MPI_Fetch_and_op or MPI_Win_flush_local, which spin in MPICH without
 *     yielding (spam's collectives took 10-14 ms each there, #42); the blocking forms
 *     otherwise;
 *   - a long wait off the shared window (a PE in shmem_barrier_all and in
 *     shmem_long_wait_until while PE 0 sleeps 20 ms first) polls MPI (MPI_Test, MPI_Iprobe)
 *     with a sched_yield only every so many polls on a node with a CPU per rank (a yield
 *     between every two polls made MPICH's RMA gets 1.56 times a plain MPI program's, whose
 *     target spins in MPI_Barrier, #42), and between nearly every two on a crowded node a
 *     sched_yield, or a nanosleep while a recent yield handed the CPU to another task for a
 *     time slice (handoff-mpi's pace.rs; clock_nanosleep is counted too, never elsewhere);
 *   - shmem_init asks MPI for MPI_THREAD_SINGLE (SHMEM_THREAD_SINGLE, what shmem_query_thread
 *     then says): above it Open MPI locks a mutex in every blocking call's wait, which made
 *     the RMA path's shmem_barrier_all 1.27 times a plain flush_all + MPI_Barrier program.
 * Under `handoff run` MPI is never initialized: no call at all. PE 0 prints OK. */
#define _GNU_SOURCE /* syscall, usleep */
#include <errno.h>
#include <mpi.h>
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

static long barriers, ibarriers, allgathers, iallgathers, gets, rgets;
static long accs, raccs, fops, rgaccs, flush_locals;
static long yields, naps, tests, iprobes;
static int init_level = -1;

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    init_level = required;
    return PMPI_Init_thread(argc, argv, required, provided);
}

int MPI_Init(int *argc, char ***argv) {
    init_level = MPI_THREAD_SINGLE;
    return PMPI_Init(argc, argv);
}

int sched_yield(void) {
    yields++;
    return (int)syscall(SYS_sched_yield);
}

/* What Rust's std::thread::sleep calls. */
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req,
                    struct timespec *rem) {
    naps++;
    return syscall(SYS_clock_nanosleep, clock, flags, req, rem) == 0 ? 0 : errno;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
    tests++;
    return PMPI_Test(req, flag, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
    iprobes++;
    return PMPI_Iprobe(source, tag, comm, flag, status);
}

int MPI_Barrier(MPI_Comm comm) {
    barriers++;
    return PMPI_Barrier(comm);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req) {
    ibarriers++;
    return PMPI_Ibarrier(comm, req);
}

int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  MPI_Comm comm) {
    allgathers++;
    return PMPI_Allgather(s, sn, st, r, rn, rt, comm);
}

int MPI_Iallgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                   MPI_Comm comm, MPI_Request *req) {
    iallgathers++;
    return PMPI_Iallgather(s, sn, st, r, rn, rt, comm, req);
}

int MPI_Get(void *o, int on, MPI_Datatype ot, int pe, MPI_Aint d, int tn, MPI_Datatype tt,
            MPI_Win win) {
    gets++;
    return PMPI_Get(o, on, ot, pe, d, tn, tt, win);
}

int MPI_Rget(void *o, int on, MPI_Datatype ot, int pe, MPI_Aint d, int tn, MPI_Datatype tt,
             MPI_Win win, MPI_Request *req) {
    rgets++;
    return PMPI_Rget(o, on, ot, pe, d, tn, tt, win, req);
}

int MPI_Accumulate(const void *o, int on, MPI_Datatype ot, int pe, MPI_Aint d, int tn,
                   MPI_Datatype tt, MPI_Op op, MPI_Win win) {
    accs++;
    return PMPI_Accumulate(o, on, ot, pe, d, tn, tt, op, win);
}

int MPI_Raccumulate(const void *o, int on, MPI_Datatype ot, int pe, MPI_Aint d, int tn,
                    MPI_Datatype tt, MPI_Op op, MPI_Win win, MPI_Request *req) {
    raccs++;
    return PMPI_Raccumulate(o, on, ot, pe, d, tn, tt, op, win, req);
}

int MPI_Fetch_and_op(const void *o, void *r, MPI_Datatype t, int pe, MPI_Aint d, MPI_Op op,
                     MPI_Win win) {
    fops++;
    return PMPI_Fetch_and_op(o, r, t, pe, d, op, win);
}

int MPI_Rget_accumulate(const void *o, int on, MPI_Datatype ot, void *r, int rn,
                        MPI_Datatype rt, int pe, MPI_Aint d, int tn, MPI_Datatype tt, MPI_Op op,
                        MPI_Win win, MPI_Request *req) {
    rgaccs++;
    return PMPI_Rget_accumulate(o, on, ot, r, rn, rt, pe, d, tn, tt, op, win, req);
}

int MPI_Win_flush_local(int pe, MPI_Win win) {
    flush_locals++;
    return PMPI_Win_flush_local(pe, win);
}

static long remote[64], inbox[8], amo_word, go;
static uint64_t sig_word;

int main(void) {
    enum { BARRIERS = 50 };
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long a = allgathers, ia = iallgathers;
    long b0 = barriers, ib0 = ibarriers;
    for (int i = 0; i < BARRIERS; i++) shmem_barrier_all();
    long b = barriers - b0, ib = ibarriers - ib0;
    long g0 = gets, rg0 = rgets, local[64];
    for (int i = 0; i < BARRIERS; i++) shmem_getmem(local, remote, sizeof remote, (me + 1) % n);
    long g = gets - g0, rg = rgets - rg0;
    shmem_barrier_all();
    long ac0 = accs, rac0 = raccs, fo0 = fops, rga0 = rgaccs, fl0 = flush_locals;
    for (int i = 0; i < BARRIERS; i++) {
        shmem_long_atomic_add(&amo_word, 1, (me + 1) % n);
        shmem_long_atomic_fetch_inc(&amo_word, (me + 1) % n);
        shmem_putmem_signal(inbox, local, sizeof inbox, &sig_word, 1, SHMEM_SIGNAL_ADD,
                            (me + 1) % n);
    }
    long ac = accs - ac0, rac = raccs - rac0, fo = fops - fo0, rga = rgaccs - rga0;
    long fl = flush_locals - fl0;
    shmem_barrier_all();
    CHECK(amo_word == 2 * BARRIERS && sig_word == BARRIERS, "atomic word %ld, signal %lu",
          amo_word, (unsigned long)sig_word);
    /* The long waits: every other PE waits for PE 0, which sleeps first. */
    long y0 = yields, z0 = naps, t0 = tests, p0 = iprobes;
    if (me == 0) usleep(20000);
    shmem_barrier_all();
    if (me == 0) {
        usleep(20000);
        for (int pe = 1; pe < n; pe++) shmem_long_atomic_set(&go, 1, pe);
    } else {
        shmem_long_wait_until(&go, SHMEM_CMP_EQ, 1);
    }
    long y = yields - y0, z = naps - z0, polls = (tests - t0) + (iprobes - p0);
    const char *wait = getenv("HANDOFF_WAIT");
    int block = wait != NULL && strcmp(wait, "block") == 0;
    const char *w = getenv("HANDOFF_MPI_WINDOW");
    const char *k = getenv("HANDOFF_MPI_NODES");
    int shared = (w == NULL || strcmp(w, "rma") != 0) && (k == NULL || atoi(k) <= 1);
    int crowded = n > sysconf(_SC_NPROCESSORS_ONLN);
#ifdef OPEN_MPI
    int open_mpi = 1;
#else
    int open_mpi = 0;
#endif
    int blocking = open_mpi && !crowded && !block;
    /* The next PE is reached by MPI calls on the RMA path, and on the mixed path when it
     * is on another pretend node (k blocks of contiguous ranks). */
    int next = (me + 1) % n, kk = k == NULL ? 1 : atoi(k);
    int by_mpi = !shared && !(kk > 1 && next * kk / n == me * kk / n);
    if (!under_mpi()) {
        CHECK(b + ib + a + ia + g + rg + ac + rac + fo + rga + fl == 0, "MPI calls under "
              "handoff run: %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", b, ib, a, ia, g, rg, ac,
              rac, fo, rga, fl);
    } else {
        int level = -1;
        shmem_query_thread(&level);
        CHECK(init_level == MPI_THREAD_SINGLE && level == SHMEM_THREAD_SINGLE, "shmem_init "
              "asked MPI for thread level %d (MPI_THREAD_SINGLE is %d) and gives %d",
              init_level, MPI_THREAD_SINGLE, level);
        if (shared)
            CHECK(b + ib == 0, "%ld MPI_Barrier and %ld MPI_Ibarrier calls in %d barriers on "
                  "the shared window", b, ib, BARRIERS);
        else if (!blocking)
            CHECK(ib >= BARRIERS && b == 0, "block %d, crowded %d, Open MPI %d: %ld "
                  "MPI_Ibarrier and %ld MPI_Barrier calls in %d barriers", block, crowded,
                  open_mpi, ib, b, BARRIERS);
        else
            CHECK(b >= BARRIERS && ib == 0, "%ld MPI_Barrier and %ld MPI_Ibarrier calls in %d "
                  "barriers", b, ib, BARRIERS);
        /* One agreement comes before the nodes (and so the CPUs per rank) are known: it is
         * the polled one. */
        if (blocking)
            CHECK(a >= 1 && ia <= 1, "%ld MPI_Allgather and %ld MPI_Iallgather calls in "
                  "shmem_init", a, ia);
        if (!by_mpi)
            CHECK(g + rg == 0, "%ld MPI_Get and %ld MPI_Rget calls in %d gets from a mapped "
                  "PE", g, rg, BARRIERS);
        else if (crowded)
            CHECK(rg >= BARRIERS && g == 0, "crowded: %ld MPI_Rget and %ld MPI_Get calls in %d "
                  "gets", rg, g, BARRIERS);
        else
            CHECK(g >= BARRIERS && rg == 0, "%ld MPI_Get and %ld MPI_Rget calls in %d gets", g,
                  rg, BARRIERS);
        if (shared)
            CHECK(ac + rac + fo + rga == 0, "%ld accumulate-class MPI calls in %d atomics and "
                  "signals on the shared window", ac + rac + fo + rga, 3 * BARRIERS);
        else if (crowded)
            CHECK(ac + fo + fl == 0 && rac + rga >= 3 * BARRIERS, "crowded: %ld MPI_Accumulate, "
                  "%ld MPI_Fetch_and_op, %ld MPI_Win_flush_local, %ld MPI_Raccumulate and %ld "
                  "MPI_Rget_accumulate calls in %d atomics and signals", ac, fo, fl, rac, rga,
                  3 * BARRIERS);
        else
            CHECK(rac + rga == 0 && ac + fo >= 3 * BARRIERS, "%ld MPI_Accumulate, %ld "
                  "MPI_Fetch_and_op, %ld MPI_Raccumulate and %ld MPI_Rget_accumulate calls in "
                  "%d atomics and signals", ac, fo, rac, rga, 3 * BARRIERS);
        /* PE 0 did not wait; the others polled MPI for 20 ms twice (thousands of polls). */
        if (!shared && !block && me != 0) {
            if (crowded)
                CHECK(polls > 100 && (y + z) * 2 > polls, "crowded: %ld sched_yield and %ld "
                      "clock_nanosleep calls in %ld polls of MPI in two long waits", y, z,
                      polls);
            else
                CHECK(polls > 100 && y * 16 <= polls && z == 0, "%ld sched_yield and %ld "
                      "clock_nanosleep calls in %ld polls of MPI in two long waits on a node "
                      "with a CPU per rank", y, z, polls);
        }
    }
    shmem_barrier_all();
    if (me == 0) printf("OK mpi_calls %d PEs\n", n);
    shmem_finalize();
    return 0;
}

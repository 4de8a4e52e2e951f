//! The handoff team API ([`handoff::team::Team`]) over MPI-3 one-sided communication, for
//! teams that run under `mpirun` — across nodes, or on one node through the MPI library's
//! own one-sided path. Build with the `mpi` feature (it needs an MPI library with headers
//! and libclang: on Debian `apt-get install mpich libmpich-dev libclang-dev`); without it
//! this crate is empty and needs nothing of MPI.
//!
//! ```no_run
//! # #[cfg(feature = "mpi")]
//! # fn main() -> Result<(), handoff::team::TeamError> {
//! // mpirun -n 4 ./program
//! let team = handoff_mpi::join()?;
//! let inbox = team.alloc::<u64>(team.size())?;
//! let sig = team.alloc::<u64>(1)?;
//! let right = (team.rank() + 1) % team.size();
//! team.put_signal(&inbox, team.rank(), &[42], sig, handoff::team::SignalOp::Add(1), right)?;
//! team.signal_wait_until(sig, handoff::team::Cmp::Ge, 1)?;
//! team.finalize()
//! # }
//! # #[cfg(not(feature = "mpi"))]
//! # fn main() {}
//! ```
//!
//! # Mapping
//!
//! Three paths, chosen at start (`HANDOFF_MPI_WINDOW`): `shared` when every rank is on one node
//! (a shared window; see "Node awareness"), `mixed` when the job spans nodes and some node
//! holds two ranks or more, `rma` otherwise. On the RMA path, one window
//! (`MPI_Win_allocate`, byte displacements) per team holds each rank's counters and then
//! its symmetric heap; it stays in one passive-target epoch (`MPI_Win_lock_all`)
//! from creation to `finalize`. `put` is `MPI_Put` + `MPI_Win_flush_local` (the source is
//! reusable on return, which a Rust borrow needs, so `put_nbi` is the same), `get` is
//! `MPI_Get` + `MPI_Win_flush`, atomics are `MPI_Fetch_and_op` (`MPI_NO_OP` for fetch,
//! `MPI_REPLACE` for set/swap, `MPI_SUM`, `MPI_BAND/BOR/BXOR`) and `MPI_Compare_and_swap`,
//! each flushed; `fence` and `quiet` are `MPI_Win_flush_all`; barriers are `MPI_Ibarrier`
//! (over a sub-communicator from `MPI_Comm_create_group` for subsets) and collective
//! agreement `MPI_Iallgather`, both polled with the team's deadline — but on Open MPI, whose
//! polled nonblocking collectives cost several times its blocking ones, a wait with no
//! deadline (and not the `block` strategy) is `MPI_Barrier` / `MPI_Allgather`, unless the
//! node runs more ranks than it has CPUs. On such a node, where a rank spinning in a
//! blocking MPI call (MPICH's never yield) keeps the peer it waits for off the CPU, puts and
//! gets are `MPI_Rput` / `MPI_Rget`, accumulates `MPI_Raccumulate` and fetching atomics
//! `MPI_Rget_accumulate`, whose requests are polled with a `sched_yield` between polls (a
//! ~65 µs nap instead while a recent yield handed the CPU to another task for a time slice:
//! `pace`); a
//! flush is preceded by a polled atomic read from the target (`rma::Window::flush`), after
//! which MPI's blocking flush finds the target's acknowledgements already here.
//!
//! # Ordering: what MPI guarantees, and what put-with-signal does
//!
//! MPI-3.1 orders almost nothing between RMA operations of one epoch: two puts, or a put
//! and an accumulate, may complete at the target in any order (§11.7.2). The only default
//! ordering is between *accumulate* operations from one origin to the same target word
//! (`accumulate_ordering` `rar,raw,war,waw`), which does not cover the data of a put. So
//! `put_signal(pe, data, sig)` is: `MPI_Put(data)`, then `MPI_Win_flush(pe)` — after which
//! the data are complete *at the target* (§11.5.4) — then `MPI_Accumulate(sig, MPI_SUM or
//! MPI_REPLACE)`. The target sees the signal only after the data: the accumulate was not
//! even issued before the data landed. `signal` and `counter_add` flush the same way first,
//! so "after everything this PE put to `pe` before" holds for them too. On the target, the
//! team's waits call `MPI_Win_sync` (a memory barrier between the process's loads and the
//! window updates MPI completed, §11.4 unified model) before each Acquire load of the
//! signal word, and drive MPI's progress engine (`MPI_Iprobe`) between polls. The window
//! must use the unified memory model; `MpiTransport::init` checks it.
//!
//! On the mixed path a put-with-signal to a node mate is: copy the data into the target's
//! part of the node's shared window (stores through the mapping), `MPI_Win_sync` on that
//! window, then the same `MPI_Accumulate` on the signal word. Why the target sees the data
//! after the signal: in the unified model (§11.4) the `MPI_Win_sync` makes the origin's
//! stores visible before anything the origin does after it (it is the sync §11.2.3 puts
//! between a store to a shared window and the flag announcing it), and the accumulate is
//! only issued after it, so whoever applies it — the origin's CPU through the library's
//! shared memory, or the target's progress engine after a message — applies it after the
//! data are visible; the target syncs before each poll and again, before returning, once
//! it saw the signal (§11.7: sync, then load). `signal` and `counter_add` to a node mate
//! sync the same way instead of flushing. Between ranks of different nodes the RMA path's
//! order above holds unchanged. (The `mixed` module has the step-by-step argument.)
//!
//! # One word, one kind of atomic
//!
//! CPU atomics and MPI atomics on one word are not atomic with each other (MPI may
//! implement an accumulate as lock + read + write). So each path uses one kind only. On
//! the RMA and mixed paths every *update* of a signal word, counter or atomic target —
//! remote, between node mates (mixed), or by the owner itself (`ct_set` is an
//! `MPI_Accumulate(MPI_REPLACE)` to this rank) — is an MPI atomic; the owner only *loads*
//! its words (signal waits, `signal_fetch`, `ct_get`), which the unified model allows. The
//! mixed path uses its node mapping for bulk data only (plain copies, no atomics): MPI
//! does not promise that an accumulate to a node mate is a CPU atomic, so none is mixed
//! in. On the shared path every update is a CPU atomic and MPI's RMA calls are not used.
//! A program must not store into a signal word through `Team::local_mut` while puts may
//! target it (the same rule as on shared memory).
//!
//! # Waiting
//!
//! On the shared-window path (one node) waits are the team's usual ones: poll with the
//! strategy, then sleep on this rank's range bell (`handoff::sync::RangeBell`, as the
//! shared-memory transport does), naming the bytes waited on when the wait can (signal and
//! counter waits, `wait_local_on`): a put, signal, counter update or atomic from a peer
//! wakes only the sleepers on the bytes it wrote (and those that named none): the
//! shared-memory transport's own code (the core's mapped heap, `handoff::implementor::MappedHeap`). MPI
//! has no wake-up for a passive-target update, so on the RMA and mixed paths every [`Wait`](handoff::sync::Wait) strategy polls (on the
//! mixed path a node mate could ring the target's doorbell, but only after an
//! `MPI_Win_flush` had completed its signal there — a round trip per signal with MPICH's
//! active messages — so it does not), driving MPI's progress between polls: a peer's RMA
//! operation on this rank's window may need this rank to call MPI (MPICH's RMA between
//! processes), so the default strategy does not sleep there as `block` does:
//! `spin` busy-polls; `spin-yield` yields the CPU between polls, so more ranks than CPUs
//! still progress; `adaptive` waits as `spin-yield` does (64 polls, then yields between) on
//! a node with more ranks than CPUs, but naps instead of yielding while other tasks hold
//! the CPUs (`pace`), else polls with a yield only every 256 polls (a
//! target's yields delay the peers' operations it serves: `comm::progress_until`);
//! `block` sleeps 50 µs to 1 ms between polls (the team's poll loop,
//! [`poll_until`](handoff::implementor::poll_until)), stalling peers' operations on this rank
//! meanwhile. The same holds for the nonblocking barrier and agreement of the RMA and mixed
//! paths; on the shared window the barrier is the shared-memory transport's (a dissemination
//! barrier over words in the window, no MPI call).
//!
//! # A rank that dies
//!
//! MPI ends the job when a rank dies: `mpirun` (MPICH's Hydra, Open MPI's ORTE/PRRTE) kills
//! the other ranks and reports the dead one ("BAD TERMINATION ... EXIT CODE" / "mpirun
//! noticed that process rank N ... exited on signal"), exiting non-zero. So the team's
//! waits never return [`TeamError::PeerDied`](handoff::team::TeamError::PeerDied) here; the
//! job ends instead of hanging. A PE that drops its team without
//! [`Team::finalize`](handoff::team::Team::finalize) (an error path) prints one line naming
//! its rank and calls `MPI_Abort` (on `MPI_COMM_WORLD`, which MPICH aborts through its
//! launcher; it aborts another communicator by messages that a rank waiting outside MPI
//! never reads), which ends the job the same way. A rank that never joins (it exits before
//! `MPI_Init`) leaves the others blocked in MPI's start-up, which MPICH's launcher never
//! ends: until the window is allocated a watchdog ends each waiting rank past the join
//! timeout (`HANDOFF_JOIN_TIMEOUT`, default 30 s, as `handoff run`) with one line naming its
//! rank and node, exit status 124.
//!
//! # Node awareness
//!
//! `MpiTransport::same_node` and `MpiTransport::nodes` say which ranks share a node
//! (`MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`), and `Team::route(pe)` which mechanism
//! serves each pair: [`Route::MpiSharedWindow`](handoff::team::Route::MpiSharedWindow)
//! (`"mpi-shm"`) for copies through a mapping, [`Route::MpiRma`](handoff::team::Route::MpiRma)
//! (`"mpi-rma"`) for MPI RMA.
//!
//! - **One node** (`shared`): the window is `MPI_Win_allocate_shared`, every part mapped;
//!   operations are loads, stores and the team's CPU atomics, every pair `"mpi-shm"`.
//! - **Several nodes, some with two ranks or more** (`mixed`): each node allocates a
//!   shared window over its node communicator and maps its node mates' parts
//!   (`MPI_Win_shared_query`); the team's world window is `MPI_Win_create` over that same
//!   memory (a rank alone on its node has a shared window of its own). Puts and gets
//!   between node mates are copies through the mapping (`"mpi-shm"`), everything else —
//!   data to other nodes and *every* signal, counter and atomic, node mates included — is
//!   MPI RMA on the world window (`"mpi-rma"`). `fence` publishes the copies
//!   (`MPI_Win_sync`) and flushes; barriers do both before the MPI barrier and sync after.
//! - **One rank per node, or `HANDOFF_MPI_WINDOW=rma`**: every pair is MPI RMA.
//!
//! # Alignment
//!
//! Each rank's part of a window starts page aligned (the control area's words and bell, the
//! heap's 128-byte objects), whatever address MPI returns: MPI promises no alignment (Open
//! MPI 4.1 hands out `MPI_Win_allocate` memory at `...008` and shared-window parts at
//! `...108`). Every window is allocated a page larger than needed (MPI 4.1's
//! `mpi_minimum_memory_alignment` is asked for too, where the library has it) and each rank
//! starts its part at its first aligned byte; the ranks learn each other's offsets (pads)
//! once, at creation. RMA displacements add the *target's* pad; a node mate's part is the
//! address `MPI_Win_shared_query` gives plus its owner's pad. `HANDOFF_MPI_STAGGER=1` makes
//! the pads differ per rank, which the tests use on libraries that misalign every rank alike.
//!
//! Open MPI before 4.1.5 segfaults on a 64-bit `MPI_Compare_and_swap` between ranks of one
//! node in the windows its osc/rdma serves (`MPI_Win_allocate`, `MPI_Win_create`;
//! open-mpi/ompi#7967). With such a library and every rank on one real node, the RMA path's
//! window is allocated shared (Open MPI then serves it by osc/sm, the same RMA calls), and
//! the mixed path's world window too, node mates' parts mapped from it (no node windows).
//!
//! `HANDOFF_MPI_NODES=k` splits the job into `k` pretend nodes of
//! contiguous ranks (`MPI_Comm_split` by colour instead of the shared split), so one
//! machine runs the mixed path: `mpirun -n 4` with `HANDOFF_MPI_NODES=2` makes {0,1} and
//! {2,3} node mates. The tests run the conformance suite that way (2+2 and 2+1 ranks).
//!
//! What mixing buys, measured with pretend nodes on this 2-CPU machine (the `mixed_pairs`
//! example; figures in the README's "Past one node"): a 1 MiB put between node mates runs
//! at memory-copy speed, 2.1× the all-RMA team's; an 8 B put-with-signal between node mates
//! gains 1.6× (510 vs 826 ns) — it skips the `MPI_Put` and its flush but still pays MPI's
//! accumulate for the signal, the price of one kind of atomic per word; pairs across nodes
//! are unchanged.

#![cfg_attr(not(feature = "mpi"), allow(unused))]

#[cfg(feature = "mpi")]
mod comm;
#[cfg(feature = "mpi")]
mod direct;
#[cfg(feature = "mpi")]
mod exit;
#[cfg(feature = "mpi")]
mod join;
#[cfg(feature = "mpi")]
mod mixed;
#[cfg(feature = "mpi")]
mod nodes;
#[cfg(feature = "mpi")]
mod pace;
#[cfg(feature = "mpi")]
mod rma;
#[cfg(feature = "mpi")]
mod transport;

#[cfg(feature = "mpi")]
pub use mpi::Threading;
#[cfg(feature = "mpi")]
pub use nodes::{ENV_NODES, ENV_WINDOW};
#[cfg(feature = "mpi")]
pub use rma::ENV_STAGGER;
#[cfg(feature = "mpi")]
pub use transport::MpiTransport;

/// Whether this build has the MPI transport (the `mpi` feature).
pub const ENABLED: bool = cfg!(feature = "mpi");

/// Initializes MPI and joins the team of every rank of `MPI_COMM_WORLD` (heap size and
/// wait strategy from `HANDOFF_HEAP_SIZE` / `HANDOFF_WAIT`), then waits for every rank
/// (a barrier). End with [`Team::finalize`](handoff::team::Team::finalize).
#[cfg(feature = "mpi")]
pub fn join() -> Result<handoff::team::Team<MpiTransport>, handoff::team::TeamError> {
    let team = handoff::team::Team::new(MpiTransport::from_env()?);
    team.barrier_all()?;
    Ok(team)
}

//! Teams of processes (PEs) that write into each other's memory: a symmetric heap, one-sided
//! `put`/`get`, put-with-signal and counting puts, remote atomics, fence/quiet and barriers,
//! in the manner of OpenSHMEM 1.5 — on one node, through one shared segment.
//!
//! # Starting a team
//!
//! - `handoff run -n 4 [--cores 0-3 | --map compact|spread|none] [--wait adaptive] [--heap 64M]
//!   -- PROGRAM ARGS` starts 4 PEs; each calls [`Team::from_env`] to join (rank, size), as
//!   `oshrun`/`mpirun` programs do. The environment: `HANDOFF_TEAM` (segment name),
//!   `HANDOFF_RANK`, `HANDOFF_SIZE`, `HANDOFF_WAIT` and, when pinned, `HANDOFF_CPU`.
//! - [`Launch`] does the same from a program (tests, the lab): it creates the segment and
//!   re-executes the current binary (or another program) N times, and its [`Running`]
//!   handle waits for all and reports each PE's exit.
//!
//! One PE dying ends the team: every other PE's wait returns [`TeamError::PeerDied`] naming
//! its rank (within about 50 ms), the launcher stops the rest, reports the first failure in
//! one line, and removes the segment. A PE ends normally with [`Team::finalize`] (a barrier,
//! as `shmem_finalize`); dropping a `Team` without it counts as leaving after an error.
//!
//! # The segment
//!
//! ```text
//! payload 0        TeamHeader: magic, version, size, heap length, launcher pid, offsets
//! ctrl_offset      size control blocks, ctrl_stride apart (128-byte aligned): a PeCtrl
//!                  (state + pid, doorbell, counters, collective-agreement words), then
//!                  the barrier arrival counts, one u64 per sender (O(p) bytes per PE)
//! heap_offset      heap partitions, one per PE, heap_stride (page-rounded heap_len) apart
//! ```
//!
//! # Symmetric heap and addressing
//!
//! [`Team::alloc`] is collective: every PE makes the same calls in the same order, so the
//! same object lands at the same offset in every partition; the team checks that the PEs
//! agree (sizes and order) and returns [`TeamError::Mismatch`] otherwise. A remote address
//! is (PE, [`Sym`], element offset), never a pointer; every access is bounds-checked
//! ([`TeamError::OutOfBounds`]).
//!
//! # Ordering: put, fence, quiet, signals
//!
//! On shared memory a put is a `memcpy` into the target's partition, complete when it
//! returns; `put_nbi` is the same copy (there is nothing to overlap it with on one node).
//! What remains of OpenSHMEM's completion rules is *visibility order* across CPUs, so:
//! - [`Team::fence`] is a Release fence: puts before it are visible to any PE that sees a
//!   store (a flag, an atomic) this PE makes after it — "ordered before later puts to the
//!   same PE", and in fact to every PE.
//! - [`Team::quiet`] is a `SeqCst` fence: it also orders this PE's earlier puts before its
//!   later *loads* (a Dekker-style check of a remote flag), which a Release fence does not.
//! - A signal update ([`Team::put_signal`], [`Team::signal`], counters) is a Release store
//!   or RMW on the target's word after the copy, and every wait polls with Acquire: a waiter
//!   that sees the signal sees the data. Then the target's heap bell (futexes, see
//!   [`RangeBell`](crate::sync::RangeBell)) wakes a sleeper on the signal word, so a blocked waiter is
//!   woken by the put itself.
//! - Remote atomics are hardware RMWs (`lock`-prefixed on x86) on the mapped target word,
//!   `AcqRel`: never a lock.
//!
//! # Waiting
//!
//! A [`Team`] holds its [`Patience`](crate::sync::Patience): the wait strategy it joined
//! with (`HANDOFF_WAIT`, [`Launch::wait`]; default adaptive) and a default timeout (none);
//! [`Team::set_patience`] changes both for this PE's later calls. The team's calls come in
//! the library's three forms:
//!
//! - a wait on a condition — [`signal_wait_until`](Team::signal_wait_until),
//!   [`wait_until_all`](Team::wait_until_all) / `_any` / `_some`, [`ct_wait`](Team::ct_wait),
//!   [`wait_line`](Team::wait_line) — has all three: `x(..)` waits with the team's patience,
//!   `x_timeout(.., timeout)` waits at most `timeout` (the team's strategy; this call only),
//!   and `try_x(..)` does not wait ([`TeamError::WouldBlock`] when the condition does not
//!   hold yet: OpenSHMEM's `shmem_test*`);
//! - a collective call — [`barrier_all`](Team::barrier_all), [`barrier`](Team::barrier),
//!   [`alloc`](Team::alloc), [`ct_create`](Team::ct_create), [`finalize`](Team::finalize) —
//!   has the first two: a `try_` form makes no sense for a call that must meet every other
//!   PE (a half-done barrier cannot be taken back);
//! - `put`, `get`, atomics, `fence` and `quiet` do not wait for another PE's action (on one
//!   node a put is a copy, complete when it returns), so they take no limit.
//!
//! [`Epochs`] keep the same convention with a patience of their own (default timeout
//! [`EPOCH_TIMEOUT`]). A call made of several waits (a barrier's rounds, a `start` over a
//! group) turns its form into one [`Until`](crate::sync::Until) when it starts, and every
//! wait inside shares that deadline; the [`Transport`] trait's waits take that `Until`.
//!
//! Waits on
//! this PE's own heap words (signals, lines, atomics used as flags) sleep on this PE's heap
//! [`RangeBell`](crate::sync::RangeBell) as waiters on the bytes they read; a put, signal or
//! atomic wakes only the sleepers whose bytes it wrote (a put checks without a fence, and the
//! writer's `quiet` or barrier rings what it put since, fenced). Barrier waits sleep on a
//! bell of their own that only barrier arrivals ring; a counter is a
//! [`Signal`](crate::sync::Signal) with a doorbell of its own. When
//! a PE shares its CPU with another PE (pinned to the same CPU, or unpinned in a team with
//! more PEs than CPUs: `shared_cpu`), its adaptive waits yield to the PEs sharing it instead
//! of pausing, so 16 PEs on 2 CPUs make progress without a scheduler tick per operation;
//! PEs pinned to CPUs of their own spin.
//!
//! # Epochs
//!
//! [`Epochs`] adds MPI-3's one-sided synchronization epochs on a team, after foMPI
//! (Gerstenberger, Besta, Hoefler, SC'13): fence, generalized active target (post / start /
//! complete / wait / try_wait), passive target locks (`lock`, `lock_all`, `flush`, `sync`), and
//! element-wise atomic accumulates ([`AccOp`]), all built on the team's public operations so
//! they work over any [`Transport`]. Misuse (a start without a matching post, unlocking what
//! is not locked, fencing inside another epoch) is an [`TeamError`], never a hang; waits for
//! another PE's matching call end after the epochs' timeout ([`Epochs::set_patience`],
//! default [`EPOCH_TIMEOUT`], or the call's `_timeout` form).
//!
//! # Transports
//!
//! [`Team`] is generic over a [`Transport`] (default [`ShmTransport`]); the contract is the
//! trait's docs plus the conformance suite (`handoff_testkit::conformance`, a dev-only
//! crate), which the shared-memory transport passes in `tests/team.rs`.

#[cfg(not(loom))]
pub(crate) mod env;
mod error;
mod exit;
mod ops;
mod sym;
mod transport;

#[cfg(not(loom))]
mod api;
#[cfg(not(loom))]
mod launch;
#[cfg(not(loom))]
mod layout;
mod orphans;
/// Whether writes to other PEs' heaps must ring their bells (no PE of the team sleeps).
#[cfg(not(loom))]
mod quiet_bells;
#[cfg(not(loom))]
mod running;
/// Whether a PE shares its CPU with another (the adaptive waits' team hint).
#[cfg(not(loom))]
mod shared_cpu;
#[cfg(not(loom))]
mod shm;
#[cfg(not(loom))]
mod signals;
#[cfg(not(loom))]
mod stopped;
#[cfg(not(loom))]
mod watch;

mod barrier;
mod epoch;
// Some of its methods serve only the MPI transport (`implementor`).
#[cfg_attr(not(feature = "implementor"), allow(dead_code))]
pub(crate) mod mapped;

#[cfg(not(loom))]
pub use api::Team;
pub use error::TeamError;
#[cfg(not(loom))]
pub use exit::PeStatus;
#[cfg(not(loom))]
pub use launch::{Launch, Placement, DEFAULT_JOIN_TIMEOUT};
#[cfg(not(loom))]
pub use layout::MAX_PES;
pub use ops::{AtomicOp, Cmp, SignalOp, Word};
#[cfg(not(loom))]
pub use running::{LeftEarly, PeExit, Running, TeamReport};
#[cfg(not(loom))]
pub use shm::ShmTransport;
pub use sym::{Counter, Line, Sym, SymAt, LINE_PAYLOAD, LINE_WORDS};
pub use transport::{Route, Transport};

#[cfg(not(loom))]
pub use epoch::Epochs;
pub use epoch::{AccElem, AccOp, LockKind, DEFAULT_TIMEOUT as EPOCH_TIMEOUT};

/// Counters ([`Team::ct_create`]) per PE.
pub const MAX_COUNTERS: usize = 16;
/// The default per-PE symmetric heap: 64 MiB.
pub const DEFAULT_HEAP: usize = 64 << 20;

/// The launcher's environment variables (a launcher outside this crate finds them in
/// `crate::implementor`).
pub(crate) mod vars {
    /// Environment: the team segment's name.
    pub const ENV_TEAM: &str = "HANDOFF_TEAM";
    /// Environment: this PE's rank.
    pub const ENV_RANK: &str = "HANDOFF_RANK";
    /// Environment: the team size.
    pub const ENV_SIZE: &str = "HANDOFF_SIZE";
    /// Environment: the wait strategy (`spin`, `spin-yield`, `block`, `adaptive`).
    pub const ENV_WAIT: &str = "HANDOFF_WAIT";
    /// Environment: the per-PE heap size the launcher uses (e.g. `64M`).
    pub const ENV_HEAP: &str = "HANDOFF_HEAP_SIZE";
    /// Environment: the CPU a PE pins itself to.
    pub const ENV_CPU: &str = "HANDOFF_CPU";
    /// Environment: how long after the start every PE must have joined, once one has (e.g.
    /// `90s`, `2m`; [`Launch::join_timeout`](super::Launch::join_timeout),
    /// [`parse_duration`](super::parse_duration)).
    pub const ENV_JOIN_TIMEOUT: &str = "HANDOFF_JOIN_TIMEOUT";
}
pub(crate) use vars::{
    ENV_CPU, ENV_HEAP, ENV_JOIN_TIMEOUT, ENV_RANK, ENV_SIZE, ENV_TEAM, ENV_WAIT,
};

/// Whether this process was started as a team PE (`HANDOFF_TEAM` is set): lets a program
/// (or a test that re-executes itself) pick its role.
pub fn in_team() -> bool {
    std::env::var_os(ENV_TEAM).is_some()
}

/// The longest duration [`parse_duration`] takes: a year.
#[cfg(not(loom))]
pub const MAX_DURATION: std::time::Duration = std::time::Duration::from_secs(365 * 24 * 3600);

/// Parses a duration such as `30`, `1.5` (seconds), `500ms`, `90s`, `2m`, `5min`, `1h` or a
/// sum of them (`1h30m`): above 0 and at most [`MAX_DURATION`] (a year). `HANDOFF_JOIN_TIMEOUT`,
/// `handoff run --join-timeout` and `handoff report --budget` use it.
#[cfg(not(loom))]
pub fn parse_duration(text: &str) -> Result<std::time::Duration, TeamError> {
    let bad = |why: &str| {
        TeamError::InvalidArgument(format!(
            "bad duration {text:?}: {why} (expected e.g. 90, 90s, 500ms, 2m, 1h or 1h30m)"
        ))
    };
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(bad("no number"));
    }
    let mut secs = 0.0;
    while !rest.is_empty() {
        let split = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(split);
        let n: f64 = number.parse().map_err(|_| bad("no number"))?;
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_end);
        secs += n * match unit.trim().to_ascii_lowercase().as_str() {
            "" | "s" | "sec" => 1.0,
            "ms" => 1e-3,
            "m" | "min" => 60.0,
            "h" => 3600.0,
            _ => return Err(bad("unknown unit")),
        };
        rest = tail;
    }
    std::time::Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero() && *d <= MAX_DURATION)
        .ok_or_else(|| bad("give more than 0 and at most a year"))
}

#[cfg(all(test, not(loom)))]
mod tests;

#[cfg(all(test, loom))]
mod loom_tests;

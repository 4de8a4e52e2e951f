//! [`TeamError`]: everything a team call can report (its epochs' included), each message
//! saying what to do.

use std::time::Duration;

use crate::shm::SegmentError;
use crate::sys;

/// Why a team call failed.
#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    /// An argument is out of range or meaningless.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// This process was not started as a PE of a team.
    #[error(
        "not started as a team PE: {var} is not set; start the program with \
         `handoff run -n N -- PROGRAM` or handoff::team::Launch"
    )]
    NotInTeam {
        /// The missing environment variable.
        var: &'static str,
    },
    /// A team environment variable holds a bad value.
    #[error("bad team environment: {var}={value:?}: {why}")]
    BadEnv {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
        /// What is wrong with it.
        why: String,
    },
    /// More PEs than a team can hold (or none).
    #[error("a team of {n} PEs is not possible: ask for 1 to {max} PEs")]
    TeamSize {
        /// What was asked for.
        n: usize,
        /// The limit, [`MAX_PES`](super::MAX_PES).
        max: usize,
    },
    /// A PE number outside the team.
    #[error("PE {pe} is not in the team: ranks are 0 to {}", size - 1)]
    NoSuchPe {
        /// The PE asked for.
        pe: usize,
        /// The team size.
        size: usize,
    },
    /// An access outside a symmetric object (or the heap).
    #[error(
        "{op} outside the symmetric object: elements {offset}..{end} of an object of {len} \
         elements; stay within 0..{len}"
    )]
    OutOfBounds {
        /// The operation, e.g. `"put"`.
        op: &'static str,
        /// First element accessed.
        offset: usize,
        /// One past the last element accessed (saturating).
        end: usize,
        /// The object's length in elements.
        len: usize,
    },
    /// The symmetric heap has no room for an allocation.
    #[error(
        "symmetric heap exhausted: {requested} bytes asked, {available} of {heap} bytes free \
         per PE; start the team with a larger heap (--heap / HANDOFF_HEAP_SIZE)"
    )]
    HeapExhausted {
        /// Bytes asked for (with alignment padding).
        requested: usize,
        /// Bytes still free.
        available: usize,
        /// The per-PE heap size.
        heap: usize,
    },
    /// PEs disagreed on a collective call (a symmetric allocation of different sizes, or
    /// collectives called in different orders).
    #[error(
        "PEs disagree on collective call #{seq}: PE {rank} passed {theirs}, this PE {ours}; \
         every PE must make the same collective calls in the same order with the same sizes"
    )]
    Mismatch {
        /// Which collective call (counting from 1).
        seq: u64,
        /// A PE that passed something else.
        rank: usize,
        /// What this PE passed.
        ours: u64,
        /// What that PE passed.
        theirs: u64,
    },
    /// A PE of the team died or left while this one waited.
    #[error("PE {rank} (pid {pid}) {how}; the team is over")]
    PeerDied {
        /// The rank of the PE that is gone.
        rank: usize,
        /// Its pid (0 if it never started).
        pid: u32,
        /// What happened, e.g. `"died (exited or was killed) while the team ran"`.
        how: &'static str,
    },
    /// A wait passed its deadline while a PE it may wait for is stopped (SIGSTOP, Ctrl-Z, a
    /// debugger): alive, but it cannot answer until it gets SIGCONT.
    #[error(
        "timed out waiting for {what}: PE {rank} (pid {pid}) is not responding (stopped: \
         SIGSTOP, Ctrl-Z or a debugger); resume it with `kill -CONT {pid}` or end the job"
    )]
    NotResponding {
        /// The first stopped PE (by rank).
        rank: usize,
        /// Its pid.
        pid: u32,
        /// What was waited for.
        what: &'static str,
    },
    /// The launcher that created the team is gone.
    #[error("the team's launcher (pid {pid}) is gone; the team is over")]
    LauncherDied {
        /// The launcher's pid.
        pid: u32,
    },
    /// A wait passed its deadline: the team's default timeout
    /// ([`Team::set_patience`](super::Team::set_patience)) or the call's (`_timeout` forms).
    #[error("timed out waiting for {what}: the call's timeout passed")]
    Timeout {
        /// What was waited for.
        what: &'static str,
    },
    /// A `try_` form found that the call would have to wait.
    #[error("{what} is not there yet (a try_ call does not wait; the call without try_ does)")]
    WouldBlock {
        /// What the call would wait for.
        what: &'static str,
    },
    /// A counter handle beyond the team's counters.
    #[error("no more counters: a team has {max} per PE")]
    CounterLimit {
        /// [`MAX_COUNTERS`](super::MAX_COUNTERS).
        max: usize,
    },
    /// A line put larger than a line's payload.
    #[error("a line holds at most {max} payload bytes, not {len}; use put_signal for more")]
    LineTooLong {
        /// Bytes given.
        len: usize,
        /// [`LINE_PAYLOAD`](super::LINE_PAYLOAD).
        max: usize,
    },
    /// `/dev/shm` cannot hold the team's segment.
    #[error(
        "the team needs {needed} bytes of shared memory but /dev/shm (or memory) has only \
         {available} free; ask for a smaller --heap or fewer PEs"
    )]
    NoSpace {
        /// Segment bytes needed.
        needed: u64,
        /// Bytes free.
        available: u64,
    },
    /// A core asked for does not exist or is not ours.
    #[error("cannot place PE {rank} on CPU {cpu}: this process may use CPUs {allowed}")]
    CpuUnavailable {
        /// The PE.
        rank: usize,
        /// The CPU asked for.
        cpu: usize,
        /// The allowed CPUs, as a list such as `0-3`.
        allowed: String,
    },
    /// The program could not be started.
    #[error("cannot start PE {rank}: {program}: {source}")]
    Spawn {
        /// The PE.
        rank: usize,
        /// The program.
        program: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A PE ended badly (exit code or signal), so the launcher ended the team.
    #[error("PE {rank} (pid {pid}) {status}; the team was ended")]
    PeFailed {
        /// The first PE that failed.
        rank: usize,
        /// Its pid.
        pid: u32,
        /// How it ended.
        status: super::exit::PeStatus,
    },
    /// The launcher received a signal and ended the team (after forwarding the signal to
    /// every PE).
    #[error("interrupted by signal {signal}; the signal was forwarded to every PE and the team was ended")]
    Interrupted {
        /// The signal number (2 SIGINT, 15 SIGTERM, 1 SIGHUP).
        signal: i32,
    },
    /// A PE still alive had not joined the team when the join deadline passed, while
    /// others had.
    #[error(
        "PE {rank} (pid {pid}) did not join the team within {after:?} of the start (it never \
         called shmem_init / Team::from_env); joined: {}; not joined: {}; a program that \
         needs longer before it joins can have a later deadline: handoff run --join-timeout \
         DURATION, or HANDOFF_JOIN_TIMEOUT=DURATION (e.g. 2m); the team was ended",
        pe_list(joined),
        pe_list(missing)
    )]
    NotJoined {
        /// The first PE that did not join.
        rank: usize,
        /// Its pid.
        pid: u32,
        /// The join deadline.
        after: std::time::Duration,
        /// The PEs that had joined (or joined and ended).
        joined: Vec<usize>,
        /// The PEs still running that had not.
        missing: Vec<usize>,
    },
    /// The team had not ended when `Launch::timeout` passed (no PE of it stopped).
    #[error(
        "the team did not end within {after:?} (Launch::timeout): still running: {running}; \
         the team was ended"
    )]
    TeamTimeout {
        /// The timeout.
        after: std::time::Duration,
        /// The PEs the launcher still waited for, each with its pid and how far it got
        /// (e.g. `PE 1 (pid 4242, joined the team)`).
        running: String,
    },
    /// A PE exited with code 0 while the others still needed it (it left without finalize,
    /// or finalized while they waited for it in a barrier), and another PE then failed.
    #[error(
        "PE {rank} (pid {pid}) {} while the other PEs still needed it (it exited with code \
         0); PE {victim} then {status}; the team was ended",
        if *finalized {
            "called shmem_finalize (Team::finalize)"
        } else {
            "left the team without shmem_finalize (Team::finalize)"
        }
    )]
    LeftEarly {
        /// The PE that left early.
        rank: usize,
        /// Its pid.
        pid: u32,
        /// Whether it finalized (else it left without finalize).
        finalized: bool,
        /// The first PE that failed after it.
        victim: usize,
        /// How that PE ended.
        status: super::exit::PeStatus,
    },
    /// A transport other than shared memory (e.g. MPI) reported a failure of its own.
    #[error("{transport} transport: {call} failed: {what}")]
    Transport {
        /// The transport, e.g. `"MPI"`.
        transport: &'static str,
        /// The library call that failed, e.g. `"MPI_Win_allocate"`.
        call: &'static str,
        /// The library's own message and what to do about it.
        what: String,
    },
    // The epochs' own cases (`Epochs`): misuse of an epoch, or an epoch wait that did not end.
    /// `unlock` of a target this PE has not locked (or unlocked already).
    #[error(
        "{op}: PE {pe} is not locked by this PE; call lock(pe, ..) first and unlock each lock once"
    )]
    NotLocked {
        /// The call.
        op: &'static str,
        /// The target.
        pe: usize,
    },
    /// A second lock on a target this PE holds already.
    #[error(
        "lock: PE {pe} is already locked by this PE ({held:?}); unlock it first \
         (a nested lock on one target would wait for itself)"
    )]
    AlreadyLocked {
        /// The target.
        pe: usize,
        /// The lock held.
        held: super::LockKind,
    },
    /// A call that needs no epoch of some kind open, while one is.
    #[error("{op}: {open} is open; {how}")]
    EpochOpen {
        /// The call.
        op: &'static str,
        /// The epoch that is open.
        open: &'static str,
        /// What to do.
        how: &'static str,
    },
    /// A call that closes an epoch that is not open.
    #[error("{op} without {needs}: call {needs} first")]
    NoEpoch {
        /// The call.
        op: &'static str,
        /// The call that opens the epoch.
        needs: &'static str,
    },
    /// A group with a PE outside the team or twice.
    #[error("{op}: bad group: {why}")]
    BadGroup {
        /// The call.
        op: &'static str,
        /// What is wrong.
        why: String,
    },
    /// An accumulate operation the element type does not have (bitwise ops on floats).
    #[error("{op}: {acc:?} is not defined on {ty}; use Sum, Prod, Min, Max, Replace or NoOp")]
    UndefinedOp {
        /// The call.
        op: &'static str,
        /// The operation.
        acc: super::AccOp,
        /// The element type.
        ty: &'static str,
    },
    /// Source and result arrays of different lengths.
    #[error("{op}: {src} source elements but {result} result slots; give one slot per element")]
    Length {
        /// The call.
        op: &'static str,
        /// Source elements.
        src: usize,
        /// Result slots.
        result: usize,
    },
    /// An epoch wait that passed its deadline: usually the matching call is missing.
    #[error(
        "{op}: no {what} within {after:?}{}; check that the matching call is made there \
         (or raise the timeout: Epochs::set_patience, or the call's _timeout form)",
        pe.map(|p| format!(" from PE {p}")).unwrap_or_default()
    )]
    EpochTimeout {
        /// The call.
        op: &'static str,
        /// What it waited for.
        what: &'static str,
        /// The PE it waited on, if one.
        pe: Option<usize>,
        /// The timeout.
        after: Duration,
    },
    /// The lock word of a target holds a state this PE's unlock cannot come from (another
    /// process wrote into the epoch words).
    #[error("{op}: PE {pe}'s lock word {word:#x} is corrupt; the team's memory was overwritten")]
    LockCorrupt {
        /// The call.
        op: &'static str,
        /// The target.
        pe: usize,
        /// The word seen.
        word: u64,
    },
    /// The team segment failed.
    #[error(transparent)]
    Shm(#[from] SegmentError),
    /// A system call failed.
    #[error(transparent)]
    Sys(#[from] sys::Error),
}

/// PEs as a short list of ranges, e.g. `PE 3`, `PEs 0-2, 5` (`no PE` for none).
pub(crate) fn pe_list(ranks: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ranks.len() {
        let mut j = i;
        while j + 1 < ranks.len() && ranks[j + 1] == ranks[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            ranks[i].to_string()
        } else {
            format!("{}-{}", ranks[i], ranks[j])
        });
        i = j + 1;
    }
    match ranks.len() {
        0 => "no PE".into(),
        1 => format!("PE {}", out[0]),
        _ => format!("PEs {}", out.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::pe_list;

    #[test]
    fn pe_lists_are_ranges() {
        assert_eq!(pe_list(&[]), "no PE");
        assert_eq!(pe_list(&[3]), "PE 3");
        assert_eq!(pe_list(&[0, 2]), "PEs 0, 2");
        assert_eq!(pe_list(&[0, 1, 2, 5, 7, 8]), "PEs 0-2, 5, 7-8");
    }
}

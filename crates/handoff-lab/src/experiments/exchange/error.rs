//! Why one run of the exchange failed: [`RunError`], the typed form of the messages the CLI
//! prints after "`<point>`, run N: ".

use handoff::channel::ChannelError;
use handoff::sync::WaitError;

/// Why a run (or one of its workers) failed. The messages are the ones users see; each says
/// what happened and, where it can, what to check.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The consumer summed a block that was not the one just published.
    #[error(
        "verification failed in repetition {rep}: the consumer summed {got}, expected {want} \
         (the block was stale: read before it was complete, or read twice)"
    )]
    Stale {
        rep: u32,
        /// The sum found.
        got: i64,
        /// The sum the producer's fill implies.
        want: i64,
    },
    /// A wait outlived the run's deadline.
    #[error("{what}: the run's deadline passed (peer stuck?)")]
    Deadline {
        /// Who was waiting for what.
        what: &'static str,
    },
    /// The process on the other side died while we waited.
    #[error("{what}: the peer (pid {pid}) died before the hand-off completed")]
    PeerDied {
        /// Who was waiting for what.
        what: &'static str,
        /// The dead peer's pid.
        pid: u32,
    },
    /// The other side closed the channel before the run's last repetition (it failed).
    #[error("{what}: the other side gave up (it closed the channel)")]
    PeerClosed {
        /// Who was waiting for what.
        what: &'static str,
    },
    /// The other thread of a threads-blocking run failed.
    #[error("the other thread gave up")]
    PartnerGaveUp,
    /// The channel gave a turn that the mode's own notification did not (a protocol bug).
    #[error("{what}: the semaphore or condition variable said go, but the channel had no block")]
    OutOfStep {
        /// Who found nothing.
        what: &'static str,
    },
    /// A thread of an in-process run panicked.
    #[error("{0} panicked")]
    Panicked(&'static str),
    /// A worker failed; the message names the root cause first (see [`crate::experiments::launcher::explain`]).
    #[error("{0}")]
    Workers(#[source] crate::experiments::launcher::ReapError),
    /// The pipe to or from the peer failed.
    #[error("{what}: {source}{hint}")]
    Pipe {
        /// What the party was doing.
        what: &'static str,
        source: std::io::Error,
        /// What the error probably means (`" (consumer gone?)"`), or "".
        hint: &'static str,
    },
    /// The pipe's producer closed it.
    #[error("consumer reading the block: end of file (producer gone)")]
    PipeClosed,
    /// Writing or reading the `file` mode's file failed.
    #[error("{what} {}: {source}", path.display())]
    File {
        /// "creating", "writing", "opening", "reading".
        what: &'static str,
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// The parent and the worker read different clocks.
    #[error("worker and parent disagree on the clock source")]
    ClockMismatch,
    /// The worker's spec did not parse (the parent and worker binaries differ?).
    #[error("bad worker spec: {0}")]
    BadSpec(String),
    /// A worker could not open the segment of its samples.
    #[error("opening the exchange segment: {0}")]
    OpenSegment(#[source] handoff::shm::SegmentError),
    /// A worker could not open the channel its block lives in.
    #[error("opening the exchange segment: {0}")]
    OpenChannel(#[source] ChannelError),
    /// Starting a worker failed.
    #[error("starting a worker: {0}")]
    Spawn(#[source] handoff::Error),
    /// The segment of samples is smaller than its layout (a worker opened the wrong one).
    #[error("the exchange segment is smaller than its layout")]
    SegmentTooSmall,
    /// Serializing a worker spec failed.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A channel operation failed (creating it, claiming a side).
    #[error(transparent)]
    Channel(#[from] ChannelError),
    /// A shared-memory operation failed.
    #[error(transparent)]
    Shm(#[from] handoff::shm::SegmentError),
    /// A platform call failed (pinning to a CPU).
    #[error(transparent)]
    Sys(#[from] handoff::sys::Error),
    /// A lab-machinery call failed (semaphores, pipes, child processes).
    #[error(transparent)]
    Probe(#[from] handoff::Error),
    /// The kernel named in the spec is not available here.
    #[error(transparent)]
    Kernel(#[from] crate::kernels::KernelError),
    /// A run's samples could not be summarized.
    #[error(transparent)]
    Stats(#[from] crate::stats::StatsError),
    /// Semaphore mode without the semaphores' names.
    #[error("semaphore mode without semaphore names")]
    NoSemaphores,
}

impl RunError {
    /// The error of a library wait that failed, for `what` ("consumer waiting for full").
    pub fn from_wait(what: &'static str, e: WaitError) -> RunError {
        match e {
            WaitError::Timeout => RunError::Deadline { what },
            WaitError::PeerGone { pid } => RunError::PeerDied { what, pid },
        }
    }

    /// The error of a channel wait (loan or recv) that failed, for `what`.
    pub fn from_channel_wait(what: &'static str, e: ChannelError) -> RunError {
        match e {
            ChannelError::Timeout { .. } => RunError::Deadline { what },
            ChannelError::PeerGone { pid } => RunError::PeerDied { what, pid },
            ChannelError::Closed { .. } => RunError::PeerClosed { what },
            e => RunError::Channel(e),
        }
    }

    /// True when this party only noticed that its peer failed (a consequence, not a cause):
    /// the run reports the peer's error instead.
    pub fn noticed_peer(&self) -> bool {
        matches!(
            self,
            RunError::PeerDied { .. }
                | RunError::PeerClosed { .. }
                | RunError::PartnerGaveUp
                | RunError::PipeClosed
        ) || matches!(self, RunError::Pipe { hint, .. } if !hint.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages users saw before the errors were typed (copied from the old
    /// `format!` calls), so scripts that grep them keep working.
    #[test]
    fn messages_are_the_ones_printed_before() {
        let cases: Vec<(RunError, &str)> = vec![
            (
                RunError::Stale {
                    rep: 3,
                    got: 1024,
                    want: 2048,
                },
                "verification failed in repetition 3: the consumer summed 1024, expected 2048 \
                 (the block was stale: read before it was complete, or read twice)",
            ),
            (
                RunError::from_wait("consumer waiting for full", WaitError::Timeout),
                "consumer waiting for full: the run's deadline passed (peer stuck?)",
            ),
            (
                RunError::from_channel_wait(
                    "producer waiting for free",
                    ChannelError::PeerGone { pid: 42 },
                ),
                "producer waiting for free: the peer (pid 42) died before the hand-off completed",
            ),
            (
                RunError::from_channel_wait(
                    "consumer waiting for full",
                    ChannelError::Timeout { what: "x" },
                ),
                "consumer waiting for full: the run's deadline passed (peer stuck?)",
            ),
            (RunError::PartnerGaveUp, "the other thread gave up"),
            (
                RunError::Workers(crate::experiments::launcher::ReapError::Hung),
                "the workers were still running at the run's deadline (a hang: a peer stuck or \
                 starved of CPU); they were killed",
            ),
            (
                RunError::Pipe {
                    what: "producer writing the block",
                    source: std::io::Error::from_raw_os_error(libc::EPIPE),
                    hint: " (consumer gone?)",
                },
                "producer writing the block: Broken pipe (os error 32) (consumer gone?)",
            ),
            (
                RunError::PipeClosed,
                "consumer reading the block: end of file (producer gone)",
            ),
            (
                RunError::File {
                    what: "creating",
                    path: "/nonexistent/x.bin".into(),
                    source: std::io::Error::from_raw_os_error(libc::ENOENT),
                },
                "creating /nonexistent/x.bin: No such file or directory (os error 2)",
            ),
            (
                RunError::ClockMismatch,
                "worker and parent disagree on the clock source",
            ),
            (
                RunError::NoSemaphores,
                "semaphore mode without semaphore names",
            ),
        ];
        for (e, want) in cases {
            assert_eq!(e.to_string(), want);
        }
    }

    #[test]
    fn only_errors_about_the_peer_count_as_noticing_it() {
        let closed = RunError::from_channel_wait(
            "producer waiting for free",
            ChannelError::Closed {
                by: handoff::channel::Role::Consumer,
            },
        );
        assert!(matches!(closed, RunError::PeerClosed { .. }), "{closed}");
        assert!(closed.noticed_peer());
        assert!(RunError::PartnerGaveUp.noticed_peer());
        assert!(RunError::PeerDied { what: "x", pid: 1 }.noticed_peer());
        let stale = RunError::Stale {
            rep: 0,
            got: 0,
            want: 1,
        };
        assert!(!stale.noticed_peer());
        assert!(!RunError::Deadline { what: "x" }.noticed_peer());
    }
}

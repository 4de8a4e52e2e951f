//! The public surface, flat: every item an application uses sits directly in its module
//! (`handoff::sync::Flag`), one path each. This file names each of them, so moving or
//! renaming one fails to compile here; the old nested paths failing to compile is checked by
//! the `compile_fail` doc tests on `OldPathsAreGone` in `lib.rs`.
#![cfg(not(loom))]
#![allow(unused_imports)]

use handoff::channel::{
    Channel, ChannelConfig, ChannelError, Consumer, Loan, Producer, Received, Role,
};
use handoff::queue::{
    Aggregator, ArrayConsumer, ArrayMpmc, ArrayMpsc, ArrayProducer, Frame, FrameConsumer,
    FrameLoan, FrameProducer, FrameQueue, LaneConsumer, LaneMpsc, LaneProducer, Messages,
    QueueError, ReadChunk, Spsc, WriteChunk,
};
use handoff::shm::{
    canonical_name, cleanup_stale, list_segments, parse_segment_name, segment_name, Departure,
    DepartureKind, OpenOptions, Segment, SegmentError, SegmentOptions, ShmError, ShmSafe,
    DEFAULT_SLOTS, MAX_USER_NAME_LEN, NAME_PREFIX,
};
use handoff::sync::{
    check_spin, futex_wakes, wait_on, Barrier, BarrierWaitResult, CpuHint, Doorbell, Flag, NoPeers,
    PeerWatch, RangeBell, Semaphore, Signal, SyncError, Wait, WaitCondition, WaitError,
    MAX_PARTIES,
};
use handoff::sys::{
    allowed_cpus, current_cpu, format_cpu_list, kill, monotonic_ns, online_cpus, page_size,
    parse_cpu_list, pin_current_thread, pin_process, shm_available, thread_affinity, Deadline,
    Liveness, Pidfd, ProcessId, UnixSignal,
};
use handoff::team::{
    apply_atomic32, apply_atomic64, apply_signal, in_team, load_signal, AccElem, AccOp, AtomicOp,
    Cmp, Counter, EpochError, Epochs, Launch, Line, LockKind, PeExit, PeStatus, Placement, Route,
    Running, ShmTransport, SignalOp, Sym, SymAt, Team, TeamError, TeamReport, Transport, Word,
    DEFAULT_HEAP, ENV_CPU, ENV_HEAP, ENV_RANK, ENV_SIZE, ENV_TEAM, ENV_WAIT, EPOCH_TIMEOUT,
    LINE_PAYLOAD, LINE_WORDS, MAX_COUNTERS, MAX_PES,
};
use handoff::{Error, Result};

/// The error of every layer converts into the crate's, so `?` works into one `Result`.
#[test]
fn every_layer_error_converts_into_the_crate_error() {
    fn takes(_: Error) {}
    takes(WaitError::Timeout.into());
    takes(SyncError::InvalidArgument("x".into()).into());
    takes(handoff::sys::Error::InvalidArgument("x".into()).into());
    takes(TeamError::InvalidArgument("x".into()).into());
}

/// A signal names its number as the platform does.
#[test]
fn unix_signals_have_their_numbers() {
    assert_eq!(UnixSignal::Kill.number(), libc::SIGKILL);
    assert_eq!(UnixSignal::Term.number(), libc::SIGTERM);
    assert_eq!(UnixSignal::Child.number(), libc::SIGCHLD);
}

/// A route names its mechanism with a stable short name (records and CSV keep it), and says
/// whether puts and gets to the peer are plain copies.
#[test]
fn routes_have_stable_names() {
    let names: Vec<String> = [Route::SharedSegment, Route::MpiSharedWindow, Route::MpiRma]
        .iter()
        .map(|r| r.to_string())
        .collect();
    assert_eq!(names, ["shm", "mpi-shm", "mpi-rma"]);
    assert!(Route::SharedSegment.is_load_store() && Route::MpiSharedWindow.is_load_store());
    assert!(!Route::MpiRma.is_load_store());
}

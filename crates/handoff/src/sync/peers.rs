//! Who a waiter waits on, and why a wait can end without its condition: a wait checks its
//! peers now and then so a dead peer ends it with [`WaitError::PeerGone`] instead of a hang.
//!
//! Every wait in `sync` takes a [`PeerWatch`]; a [`crate::shm`] segment implements it over
//! its table of attached processes (so `shm` sits above `sync`).

use crate::sys::ProcessId;

/// Why a wait did not see its condition come true.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WaitError {
    /// The deadline passed first.
    #[error("timed out: the deadline passed before the condition came true")]
    Timeout,
    /// A peer attached to the same segment exited (or was killed) while we waited.
    #[error("peer process {pid} is gone (exited or killed) while we waited on it")]
    PeerGone {
        /// The pid of the peer that is gone.
        pid: u32,
    },
}

/// Something that can tell whether the peers of a wait are still alive.
///
/// A shared segment implements it over its table of attached processes; threads of one
/// process use [`NoPeers`]. Checks cost a `/proc` read, so waits call it rarely (every 2^16
/// spins, or between futex slices of at most 50 ms).
pub trait PeerWatch {
    /// `Err(PeerGone { pid })` when a peer has exited or been killed.
    fn check_peers(&self) -> Result<(), WaitError>;
}

/// No peers to watch: threads of one process.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoPeers;

impl PeerWatch for NoPeers {
    #[inline]
    fn check_peers(&self) -> Result<(), WaitError> {
        Ok(())
    }
}

impl PeerWatch for ProcessId {
    fn check_peers(&self) -> Result<(), WaitError> {
        if self.is_alive() {
            Ok(())
        } else {
            Err(WaitError::PeerGone { pid: self.pid })
        }
    }
}

impl PeerWatch for [ProcessId] {
    fn check_peers(&self) -> Result<(), WaitError> {
        self.iter().try_for_each(PeerWatch::check_peers)
    }
}

impl<T: PeerWatch + ?Sized> PeerWatch for &T {
    fn check_peers(&self) -> Result<(), WaitError> {
        (**self).check_peers()
    }
}

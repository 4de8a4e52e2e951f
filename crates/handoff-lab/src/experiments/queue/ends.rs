//! The two ends of every queue the `queue` experiment compares, behind one pair of traits,
//! and the messages it sends (sequence-numbered, checked word by word on receipt).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_queue::ArrayQueue;
use handoff::queue::{self, QueueError};
use handoff::sync::Wait;

/// Slots of every queue.
pub const CAPACITY: usize = 1024;

/// How long any one send or receive may wait before the run is declared stuck.
pub const STUCK: Duration = Duration::from_secs(30);

/// A message of `W` words: word 0 = producer << 48 | sequence; the others derived from it.
pub type Msg<const W: usize> = [u64; W];

/// Message `seq` of producer `pid`.
#[inline]
pub fn make<const W: usize>(pid: u64, seq: u64) -> Msg<W> {
    let mut m = [0u64; W];
    let w0 = (pid << 48) | seq;
    m[0] = w0;
    for (j, w) in m.iter_mut().enumerate().skip(1) {
        *w = w0
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(j as u64);
    }
    m
}

/// Producer and sequence of a message, when every word is as [`make`] wrote it.
#[inline]
pub fn read<const W: usize>(m: &Msg<W>) -> Option<(u64, u64)> {
    let (pid, seq) = (m[0] >> 48, m[0] & ((1 << 48) - 1));
    (*m == make::<W>(pid, seq)).then_some((pid, seq))
}

/// A sending end.
pub trait Tx<M>: Send {
    /// Sends `m`, waiting for room (an error past [`STUCK`] or when the peer is gone).
    fn send(&mut self, m: M) -> Result<(), TransferError>;
}

/// A receiving end.
pub trait Rx<M>: Send {
    /// Receives the next message, waiting for one (an error past [`STUCK`] or when the
    /// peer is gone).
    fn recv(&mut self) -> Result<M, TransferError>;
}

/// A send or receive of the `queue` experiment failed.
#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    /// A handoff queue reported an error (its message says what to do).
    #[error(transparent)]
    Queue(#[from] QueueError),
    /// Nothing moved for [`STUCK`]: the other side hangs or died without closing.
    #[error("no progress in {0:?}: the peer is stuck or gone (rerun; if it persists, run fewer producers than CPUs)")]
    Stuck(Duration),
}

/// Polls `f` until it gives a value: spin for the adaptive wait's budget (20 µs), then yield
/// the CPU between polls (the baselines have no sleeping wait of their own; yielding keeps
/// oversubscribed runs moving).
#[inline]
pub fn poll<T>(mut f: impl FnMut() -> Option<T>) -> Result<T, TransferError> {
    if let Some(v) = f() {
        return Ok(v);
    }
    let start = Instant::now();
    let budget = Wait::DEFAULT_SPIN_BUDGET;
    let mut n = 0u32;
    loop {
        if let Some(v) = f() {
            return Ok(v);
        }
        n = n.wrapping_add(1);
        if !n.is_multiple_of(64) {
            std::hint::spin_loop();
            continue;
        }
        let waited = start.elapsed();
        if waited > STUCK {
            return Err(TransferError::Stuck(STUCK));
        }
        if waited > budget {
            std::thread::yield_now();
        }
    }
}

/// [`Tx`] and [`Rx`] for handoff's queue ends: try first, so that the deadline (a clock
/// read) is taken only when the queue is full or empty, then wait with the end's patience
/// (its strategy: `spsc-spin` sets `Wait::Spin`) for at most [`STUCK`].
macro_rules! handoff_ends {
    ($($tx:ty, $rx:ty;)+) => {$(
        impl<M: bytemuck::Pod + Send> Tx<M> for $tx {
            fn send(&mut self, m: M) -> Result<(), TransferError> {
                match self.try_push(m) {
                    Ok(()) => Ok(()),
                    Err(QueueError::Timeout { item, .. }) => self
                        .push_timeout(item, STUCK)
                        .map_err(|e| e.forget_item().into()),
                    Err(e) => Err(e.forget_item().into()),
                }
            }
        }
        impl<M: bytemuck::Pod + Send> Rx<M> for $rx {
            fn recv(&mut self) -> Result<M, TransferError> {
                match self.try_pop() {
                    Err(QueueError::Timeout { .. }) => self.pop_timeout(STUCK).map_err(Into::into),
                    got => got.map_err(Into::into),
                }
            }
        }
    )+};
}

handoff_ends! {
    queue::Producer<M>, queue::Consumer<M>;
    queue::LaneProducer<M>, queue::LaneConsumer<M>;
    queue::ArrayProducer<M>, queue::ArrayConsumer<M>;
}

impl<M: Send> Tx<M> for rtrb::Producer<M> {
    fn send(&mut self, m: M) -> Result<(), TransferError> {
        let mut m = Some(m);
        poll(|| match self.push(m.take()?) {
            Ok(()) => Some(()),
            Err(rtrb::PushError::Full(back)) => {
                m = Some(back);
                None
            }
        })
    }
}
impl<M: Send> Rx<M> for rtrb::Consumer<M> {
    fn recv(&mut self) -> Result<M, TransferError> {
        poll(|| self.pop().ok())
    }
}

/// crossbeam's `ArrayQueue` (any number of ends share it).
pub struct Crossbeam<M>(pub Arc<ArrayQueue<M>>);

impl<M: Send> Tx<M> for Crossbeam<M> {
    fn send(&mut self, m: M) -> Result<(), TransferError> {
        let mut m = Some(m);
        poll(|| match self.0.push(m.take()?) {
            Ok(()) => Some(()),
            Err(back) => {
                m = Some(back);
                None
            }
        })
    }
}
impl<M: Send> Rx<M> for Crossbeam<M> {
    fn recv(&mut self) -> Result<M, TransferError> {
        poll(|| self.0.pop())
    }
}

/// A `VecDeque` of at most [`CAPACITY`] behind a `Mutex`: the locked shared queue Charm++
/// started from.
pub struct Locked<M>(pub Arc<Mutex<VecDeque<M>>>);

impl<M: Send> Tx<M> for Locked<M> {
    fn send(&mut self, m: M) -> Result<(), TransferError> {
        let mut m = Some(m);
        poll(|| {
            let mut q = self.0.lock().unwrap_or_else(|e| e.into_inner());
            if q.len() < CAPACITY {
                q.push_back(m.take()?);
                Some(())
            } else {
                None
            }
        })
    }
}
impl<M: Send> Rx<M> for Locked<M> {
    fn recv(&mut self) -> Result<M, TransferError> {
        poll(|| self.0.lock().unwrap_or_else(|e| e.into_inner()).pop_front())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_their_producer_and_sequence() {
        let m = make::<4>(3, 77);
        assert_eq!(m[0], (3 << 48) | 77);
        assert_eq!(read(&m), Some((3, 77)));
        let mut torn = m;
        torn[3] ^= 1;
        assert_eq!(read(&torn), None);
        assert_eq!(read(&make::<1>(1, 5)), Some((1, 5)));
    }
}

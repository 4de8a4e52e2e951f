//! [`poll_until`]: the wait policy for a condition no waker rings (the parent module's
//! loop, with bounded sleeps and a poll after each).

use std::time::Duration;

use super::{wait_on, WaitCondition};
use crate::atomic::AtomicU32;
use crate::sync::WaitError;
use crate::sync::{PeerWatch, Until};

/// Waits as `until` says (strategy, deadline) until `poll` returns `Some`, for a condition **no waker rings**
/// (words written by a party that does not know about sleepers: another process's remote
/// atomics through a transport without a doorbell, a word in a foreign library). The same
/// loop as every other wait (`wait_on`): the spin phase of the strategy (for `Adaptive`: the
/// measured budget, yielding when crowded), then, for `Block` and `Adaptive`, sleeps of
/// `POLL_FIRST_SLICE` doubling up to `POLL_MAX_SLICE` with a poll after each, so a
/// long wait costs about a thousand short wake-ups a second (well under 1 % of a CPU)
/// instead of a spinning CPU, and answers within a millisecond.
pub fn poll_until<T, F, P>(poll: F, until: Until, peers: &P) -> Result<T, WaitError>
where
    F: FnMut() -> Option<T>,
    P: PeerWatch + ?Sized,
{
    let mut cond = Polled {
        poll,
        word: AtomicU32::new(0),
        sleeps: 0,
    };
    if let Some(v) = cond.poll() {
        return Ok(v);
    }
    wait_on(cond, until, peers, None)
}

/// The first sleep of a [`poll_until`] wait.
pub const POLL_FIRST_SLICE: Duration = Duration::from_micros(50);
/// The longest sleep of a [`poll_until`] wait.
pub const POLL_MAX_SLICE: Duration = Duration::from_millis(1);

/// [`poll_until`]'s condition: a private futex word nobody wakes, so every sleep is a
/// bounded one ([`WaitCondition::max_sleep`]) followed by a poll.
struct Polled<F> {
    poll: F,
    word: AtomicU32,
    sleeps: u32,
}

impl<T, F: FnMut() -> Option<T>> WaitCondition for Polled<F> {
    type Output = T;
    fn poll(&mut self) -> Option<T> {
        (self.poll)()
    }
    fn futex_word(&self) -> &AtomicU32 {
        &self.word
    }
    fn prepare_sleep(&mut self) -> Result<u32, T> {
        // Nobody wakes the word: the re-check is the whole protocol.
        match (self.poll)() {
            Some(v) => Err(v),
            None => Ok(0),
        }
    }
    fn max_sleep(&mut self) -> Option<Duration> {
        let slice = POLL_FIRST_SLICE * (1u32 << self.sleeps.min(5));
        self.sleeps += 1;
        Some(slice.min(POLL_MAX_SLICE))
    }
    fn site(&self) -> usize {
        // One site per call site's closure type: the word is on this wait's stack.
        std::any::type_name::<F>().as_ptr() as usize
    }
}

//! How an endpoint waits (its [`Patience`]: a strategy and a default timeout, held by the
//! endpoint) and how one call waits (its [`Until`]: the strategy and an absolute deadline,
//! fixed when the call starts).
//!
//! Every blocking call of the library has three forms over these (issue #43):
//! `x()` waits with the endpoint's patience, `x_timeout(.., d)` waits at most `d` (the
//! endpoint's strategy, this call's time limit) and `try_x()` does not wait. Each form turns
//! into one [`Until`] at the start of the call, so a call made of several waits (a team
//! operation waiting on several PEs) shares one deadline instead of restarting its timeout at
//! every step.

use std::time::Duration;

use super::Wait;
use crate::sys::Deadline;

/// An endpoint's waiting policy: how it waits ([`Wait`]) and for how long a call waits by
/// default (`None`: until the condition holds or a peer dies).
///
/// Set at creation or with the endpoint's `set_patience`; `Patience::default()` is
/// [`Wait::ADAPTIVE`] without a timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Patience {
    /// The wait strategy.
    pub wait: Wait,
    /// The default time limit of each call; `None` waits without one.
    pub timeout: Option<Duration>,
}

impl Patience {
    /// `wait` without a timeout.
    pub const fn new(wait: Wait) -> Self {
        Patience {
            wait,
            timeout: None,
        }
    }

    /// The same strategy with `timeout` as the default time limit (`None`: none).
    pub const fn with_timeout(self, timeout: Option<Duration>) -> Self {
        Patience {
            wait: self.wait,
            timeout,
        }
    }

    /// The wait of a call in the default form, starting now.
    pub fn start(&self) -> Until {
        Until {
            wait: self.wait,
            deadline: self.timeout.map(Deadline::after),
        }
    }

    /// The wait of a call in the `_timeout` form, starting now: this strategy, at most
    /// `timeout`.
    pub fn start_with(&self, timeout: Duration) -> Until {
        Until {
            wait: self.wait,
            deadline: Some(Deadline::after(timeout)),
        }
    }
}

/// One call's wait, fixed when the call starts: the strategy and the point in time it gives
/// up (`None`: never). Made by [`Patience::start`] / [`Patience::start_with`]; the waits a
/// call is made of share it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Until {
    /// The wait strategy.
    pub wait: Wait,
    /// When the call gives up with a timeout; `None` waits until the condition holds or a
    /// peer dies.
    pub deadline: Option<Deadline>,
}

impl Until {
    /// Wait with `wait` and no deadline.
    pub const fn forever(wait: Wait) -> Self {
        Until {
            wait,
            deadline: None,
        }
    }

    /// Wait with `wait` until `deadline`.
    pub const fn deadline(wait: Wait, deadline: Deadline) -> Self {
        Until {
            wait,
            deadline: Some(deadline),
        }
    }
}

/// Which form of a blocking call runs, before its wait is fixed: the handles' private
/// functions take it so that a call that does not have to wait never reads the clock (its
/// [`Until`] is fixed by [`Call::attempt`] only once the first poll finds nothing).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Call {
    /// `try_x`: poll once.
    Try,
    /// `x`: the endpoint's patience.
    Patient(Patience),
    /// `x_timeout`: the endpoint's strategy, at most this long.
    Timeout(Patience, Duration),
    /// A wait already fixed (a call made of several waits sharing one deadline).
    Fixed(Until),
}

impl Call {
    /// The call's wait, fixed now (`None` for `Try`).
    #[inline]
    pub(crate) fn until(self) -> Option<Until> {
        match self {
            Call::Try => None,
            Call::Patient(p) => Some(p.start()),
            Call::Timeout(p, d) => Some(p.start_with(d)),
            Call::Fixed(u) => Some(u),
        }
    }

    /// The call of a strategy and deadline (`None`: a `try_` call, polls once).
    #[inline]
    pub(crate) fn from_parts(how: Option<Wait>, deadline: Option<Deadline>) -> Call {
        match how {
            None => Call::Try,
            Some(wait) => Call::Fixed(Until { wait, deadline }),
        }
    }

    /// The call's strategy, without fixing its deadline (`None` for `Try`).
    #[inline]
    pub(crate) fn strategy(self) -> Option<Wait> {
        match self {
            Call::Try => None,
            Call::Patient(p) | Call::Timeout(p, _) => Some(p.wait),
            Call::Fixed(u) => Some(u.wait),
        }
    }

    /// [`until`](Self::until) out of line: the clock read and deadline arithmetic stay out
    /// of the endpoints' inlined fast paths (inlined, they made `Spsc`'s `push`/`pop` too
    /// big to inline into a caller's loop, which then kept the end in memory: 0.4x rtrb's
    /// one-thread rate instead of 1.05x).
    #[cold]
    #[inline(never)]
    pub(crate) fn fix(self) -> Option<Until> {
        self.until()
    }

    /// Runs `wait` (`None`: poll once; `Some`: wait) for this call: polls first, and only
    /// when that `would_block` fixes the wait (one clock read when there is a timeout) and
    /// waits.
    #[inline(always)]
    pub(crate) fn attempt<R, E>(
        self,
        mut wait: impl FnMut(Option<Until>) -> Result<R, E>,
        would_block: impl Fn(&E) -> bool,
    ) -> Result<R, E> {
        // One call site of `wait`, so that it inlines here and the endpoint's fast path into
        // the caller's loop (two sites left `Spsc`'s push and pop out of line: 0.4x rtrb).
        let mut until = match self {
            Call::Fixed(u) => Some(u),
            _ => None,
        };
        loop {
            match wait(until) {
                Err(e) if until.is_none() && !matches!(self, Call::Try) && would_block(&e) => {
                    until = self.fix();
                }
                r => return r,
            }
        }
    }
}

/// A call's wait as the strategy and deadline the internal waits take: `None` (a `try_`
/// call) polls once.
#[inline]
pub(crate) fn parts(until: Option<Until>) -> (Option<Wait>, Option<Deadline>) {
    match until {
        Some(u) => (Some(u.wait), u.deadline),
        None => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_form_has_the_endpoints_timeout_and_timeout_form_its_own() {
        let p = Patience::new(Wait::Spin).with_timeout(Some(Duration::from_secs(3600)));
        let u = p.start();
        assert_eq!(u.wait, Wait::Spin);
        let left = u.deadline.expect("a timeout gives a deadline").remaining();
        assert!(left > Duration::from_secs(3500) && left <= Duration::from_secs(3600));
        let short = p.start_with(Duration::ZERO).deadline.unwrap();
        assert!(short.expired());
        assert_eq!(Patience::default().start(), Until::forever(Wait::ADAPTIVE));
    }

    #[test]
    fn a_call_polls_first_and_fixes_its_wait_only_to_wait() {
        let p = Patience::new(Wait::Block).with_timeout(Some(Duration::from_secs(60)));
        for call in [
            Call::Try,
            Call::Patient(p),
            Call::Timeout(p, Duration::ZERO),
        ] {
            let mut seen = Vec::new();
            let ready: Result<u8, ()> = call.attempt(
                |u| {
                    seen.push(u);
                    Ok(1)
                },
                |_| true,
            );
            assert_eq!((ready, seen), (Ok(1), vec![None]), "{call:?}");
        }
        let mut seen = Vec::new();
        let r: Result<(), u8> = Call::Try.attempt(
            |u| {
                seen.push(u);
                Err(7)
            },
            |_| true,
        );
        assert_eq!((r, seen.len()), (Err(7), 1), "try polls once");
        let mut seen = Vec::new();
        let _ = Call::Timeout(p, Duration::from_secs(3600)).attempt(
            |u| {
                seen.push(u);
                Err::<(), u8>(7)
            },
            |_| true,
        );
        let left = seen[1].unwrap().deadline.unwrap().remaining();
        assert!(
            seen[0].is_none() && left > Duration::from_secs(3500),
            "{seen:?}"
        );
        let mut n = 0;
        let r: Result<(), u8> = Call::Patient(p).attempt(
            |_| {
                n += 1;
                Err(9)
            },
            |e| *e != 9,
        );
        assert_eq!(
            (r, n),
            (Err(9), 1),
            "an error that is not 'would block' ends the call"
        );
    }
}

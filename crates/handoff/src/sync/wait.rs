//! Wait strategies, and the one wait loop every primitive in [`crate::sync`] runs.
//!
//! # Strategies
//!
//! | [`Wait`] | how it waits | costs | use it when |
//! |---|---|---|---|
//! | [`Spin`](Wait::Spin) | re-reads the word with a `pause` between reads | a whole CPU while waiting | waiter and peer run on *different* CPUs and the wait is short |
//! | [`SpinYield`](Wait::SpinYield) | 64 `pause` spins, then `sched_yield` between reads | a CPU, but gives it up to other runnable threads | CPUs are shared and latency still matters |
//! | [`Block`](Wait::Block) | futex sleep | one wake-up syscall per hand-off (15-28 µs across CPUs on a KVM VM) | waits are long, or CPUs are scarce |
//! | [`Adaptive`](Wait::Adaptive) | spins up to the measured cost of a sleep + wake-up (yields instead when the peer last ran on *this* CPU, or shares it), then futex sleep | spin-like when the peer answers within the budget, block-like otherwise | the default |
//!
//! ## The same-CPU trap
//!
//! A spinner that shares its CPU with the thread it waits for only lets that thread run when
//! the scheduler preempts it: on these VMs a whole 4 ms tick per hand-off. **`Spin` on a
//! shared CPU is a mistake**: pin the two parties to distinct CPUs, or use `Adaptive`. (Debug
//! builds print a one-time warning when a `Spin` wait sees the peer on its own CPU.)
//!
//! `Adaptive` detects the case: every primitive keeps a [`CpuHint`], the CPU its last
//! publisher ran on (`sched_getcpu`, ~1.5 ns via the vDSO, stored with a Relaxed store next
//! to the word it publishes). A waiter entering the slow path compares it with its own CPU
//! and, if they match, spends its budget *yielding* to the peer (`sched_yield`) instead of
//! pausing, then sleeps. A yield hands the CPU straight to the runnable peer (a hand-off
//! then costs a context switch, as a futex wake-up on the same CPU does), and it keeps both
//! parties runnable, so the scheduler's load balancer sees two tasks on one CPU and moves
//! one to an idle CPU, after which the pair spins at cache-line speed. Sleeping at once
//! instead is a trap of its own: the two then never run at the same time, the balancer sees
//! no imbalance, wake-affine placement keeps waking each on the other's CPU, and the pair
//! stays stuck (measured on a 2-CPU KVM VM: two unpinned processes stayed at ~3 µs per
//! hand-off for 300,000 hand-offs instead of ~50 ns).
//!
//! The hint is a heuristic (either side may migrate a moment later); a wrong guess costs
//! some yields or one futex wake-up, never correctness.
//!
//! ## Learning the spin budget
//!
//! `Adaptive` keeps a small score of how recent waits *at the same wait site* ended (a site
//! is the object or word waited on: [`WaitCondition::site`]), so a thread that waits long in
//! a barrier and briefly on a flag learns each on its own. While most waits of a site end
//! within the budget, or sleep and are woken soon (within 50 µs of falling asleep plus the
//! waiter's own wake-up: the partner was running and about to answer), it spins the full
//! budget; once most sleep long (the peer is slow or idle, so spinning only burns the CPU
//! before the futex sleep anyway) it spins only [`SHORT_SPIN`] (1 µs) and probes the full
//! budget again every 16th wait. A probe that ends by spinning switches back to full-budget
//! spins. A wait woken soon also lengthens its site's default budget to the wait's own
//! length and a quarter (at most 50 µs; a long sleep drops it again): two parties that each
//! spin less than the other's wake-up would otherwise lock each other into sleeping, each
//! sleep making the partner's next wait outlast its budget (a 2-PE `shmem_barrier_all` at
//! 4-9 µs in one run of ten instead of 0.2-0.4 µs, issue #44). The scores live in a small
//! per-thread table keyed by site (direct-mapped, 64 entries; a collision only restarts a
//! site's learning), so several threads waiting at once never share mutable state. See
//! [`adaptive_stats`] for counts.
//!
//! The budget itself is the classic 2-competitive bound: spin at most what a sleep and its
//! wake-up cost, so a wait that outlasts the spin costs at most twice what the best choice
//! in hindsight would have. With the default budget ([`Wait::ADAPTIVE`], `adaptive`) that
//! cost is **measured once per process** (`cost`: two threads of our own ping-pong on a
//! futex across two CPUs, a few hundred µs on a background thread started by the first
//! wait that spins; [`wake_cost`] reads it, [`measure_wake_cost`] measures at once), kept
//! within 2-50 µs; until it is known, and where it cannot be measured,
//! [`Wait::DEFAULT_SPIN_BUDGET`] (20 µs, a cross-CPU wake-up on a KVM VM) stands in. Each
//! site's waits woken soon lengthen it (above): a start-up measurement that came out short
//! does not decide the whole run. `adaptive:<N>` sets a fixed budget instead (the score
//! still learns short spins).
//!
//! ## Partners, not the machine
//!
//! `Adaptive` decides from what it knows about the parties it waits for, never from how busy
//! the machine is: the hint (the CPU its peer last published from) and, for a team, the
//! team's own placement (a PE that shares its CPU with another PE of its team, pinned to one
//! CPU with it or one of more PEs than CPUs, passes its own CPU as the hint and so yields;
//! `team::shared_cpu`). It used to yield after [`SHORT_SPIN`] whenever the kernel counted
//! more runnable threads than CPUs (`/proc/loadavg`, sampled every 20 ms): a machine-wide
//! count that the job itself inflates, two spinning PEs being two runnable threads, so a
//! kernel thread or a short-lived process made a two-PE `shmem_barrier_all` flip between
//! spinning (0.1-0.3 µs) and yielding (1.4-13 µs) from sample to sample and run to run
//! (issue #44). Load from outside the team costs a wait at most its spin budget before it
//! sleeps (the 2-competitive bound below), and its learned short spin after that; more PEs
//! than CPUs, the case that would cost a scheduler tick per hand-off, is the team's to know.
//!
//! # The wait loop ([`wait_on`])
//!
//! 1. Poll the condition (an Acquire load in every primitive); `Adaptive` (except on the
//!    peer's CPU) and `Spin` then poll 16 more times (`QUICK_POLLS`) with a `pause` between,
//!    before any clock read or bookkeeping.
//! 2. Spin phase (`Spin`, `SpinYield`, the first part of `Adaptive`): poll, `pause` (or
//!    yield), and every 64 iterations read the clock for the deadline, the adaptive budget
//!    and the peer check.
//! 3. Block phase (`Block`, the rest of `Adaptive`): register as a sleeper, re-check, then a
//!    futex sleep of at most [`SLEEP_SLICE`] (50 ms), until woken or the slice ends.
//!
//! A deadline that passes ends the wait with [`WaitError::Timeout`], but only after one more
//! poll found the condition still false: a wait never reports a timeout for a condition that
//! came true.
//!
//! # Dead peers
//!
//! Spinners call [`PeerWatch::check_peers`] every 2^16 iterations or every 50 ms, whichever
//! comes first; sleepers between futex slices of at most 50 ms. A wait whose peer died so
//! returns [`WaitError::PeerGone`] within about 50 ms (well within the 100 ms promised),
//! and a healthy long wait pays one peer check (a `/proc` read) per 50 ms. A failed peer
//! check is followed by one more poll: a peer that made the condition true and then left
//! (see [`crate::shm`], "Peers that leave") ends nothing.
//!
//! # Sleeping without lost wake-ups
//!
//! Each primitive implements [`WaitCondition`]: its futex word, a poll, and a
//! `prepare_sleep` that registers the waiter (a sleeper count or a SLEEPERS bit) and re-checks
//! the condition. Wakers skip the wake syscall when nobody is registered, so a hand-off
//! between two spinners makes no syscall at all. The register/re-check on the waiter side and
//! the publish/check-sleepers on the waker side are ordered by `SeqCst` fences (or by being
//! read-modify-writes of one word); each module spells out its pairing.

use std::time::Duration;

use crate::atomic::{spin_hint, yield_now, AtomicU32};
use crate::sync::PeerWatch;
use crate::sync::WaitError;
use crate::sys::deadline::monotonic_ns;
use crate::sys::{futex, Deadline};

/// The longest single futex sleep; sleepers check their peers between slices.
pub const SLEEP_SLICE: Duration = Duration::from_millis(50);
/// [`SLEEP_SLICE`] in nanoseconds.
const SLICE_NS: u64 = SLEEP_SLICE.as_nanos() as u64;
/// Spinners check their peers at least every this many iterations (and every 50 ms).
pub const SPIN_PEER_CHECK_EVERY: u32 = 1 << 16;
/// Spinners read the clock (deadline, budget, peer-check time) every this many iterations.
const CLOCK_EVERY: u64 = 64;
/// `SpinYield` spins with `pause` this many times before it starts yielding.
const YIELD_AFTER: u64 = 64;
/// `Adaptive` and `Spin` poll this many times (with a `pause` between) before their
/// bookkeeping.
const QUICK_POLLS: u32 = 16;
/// What `Adaptive` spins once its recent waits mostly outlasted the budget.
pub const SHORT_SPIN: Duration = Duration::from_micros(1);

/// A condition a primitive waits for, with the futex protocol that lets a waiter sleep on it.
///
/// Implemented by each primitive's waits; public so that higher layers (queues, channels)
/// build their own waits on the same loop. The contract, for a waker that publishes and then
/// wakes the futex word only when a sleeper is registered:
///
/// - [`poll`](Self::poll) returns `Some` once the condition holds, with Acquire ordering
///   towards the publisher.
/// - [`prepare_sleep`](Self::prepare_sleep) registers the caller as a sleeper, then re-checks
///   the condition: `Err(output)` if it now holds (having deregistered), else `Ok(expected)`,
///   the value [`futex_word`](Self::futex_word) must still hold for the sleep to begin. Any
///   publish after that re-check must either change the word or see the registration and
///   wake the word.
/// - [`finish_sleep`](Self::finish_sleep) deregisters after the sleep.
pub trait WaitCondition {
    /// What a successful wait returns.
    type Output;
    /// Checks the condition once.
    fn poll(&mut self) -> Option<Self::Output>;
    /// The futex word sleepers wait on.
    fn futex_word(&self) -> &AtomicU32;
    /// Registers as a sleeper and re-checks (see the trait docs).
    fn prepare_sleep(&mut self) -> Result<u32, Self::Output>;
    /// Deregisters after a sleep (nothing for protocols whose registration the waker clears).
    fn finish_sleep(&mut self) {}
    /// The longest the sleep that follows a successful
    /// [`prepare_sleep`](Self::prepare_sleep) may last (`None`: up to 50 ms, the sleep slice). For
    /// protocols whose waker may miss a registration for a moment and relies on the
    /// sleeper to look again soon (the queues' lazily armed doorbells). Under loom a bounded
    /// sleep is a yield.
    fn max_sleep(&mut self) -> Option<Duration> {
        None
    }
    /// The wait site `Adaptive` learns its spin budget for (module docs, "Learning the spin
    /// budget"): by default the futex word's address, so each primitive learns on its own;
    /// waits that share one futex word (a doorbell) name the word or object they wait on.
    fn site(&self) -> usize {
        std::ptr::from_ref(self.futex_word()) as usize
    }
}

/// Waits for `cond` with `until`'s strategy until its deadline, checking `peers` now and then
/// (see [Waiting](crate::sync#waiting)).
///
/// `peer_cpu` is the CPU the peer last published from (a [`CpuHint`]), used by `Adaptive`
/// to avoid spinning on the peer's CPU. Primitives call this on their slow path after a
/// failed inline poll.
#[cold]
#[inline(never)]
pub fn wait_on<C, P>(
    mut cond: C,
    until: Until,
    peers: &P,
    peer_cpu: Option<u32>,
) -> Result<C::Output, WaitError>
where
    C: WaitCondition,
    P: PeerWatch + ?Sized,
{
    let Until {
        wait: how,
        deadline,
    } = until;
    if let Some(v) = cond.poll() {
        return Ok(v);
    }
    // A quick peer answers within a few polls. Before the adaptive wait's bookkeeping (the
    // clock, the learner: ~20-30 ns, as much as a hand-off between two CPUs),
    // poll `QUICK_POLLS` times, so such a wait costs what a spinning one does. At most
    // ~0.3 µs of pauses when the peer is not that quick (it sleeps, or is descheduled):
    // small beside a futex's cost. On the peer's CPU the peer cannot answer while we poll:
    // no quick polls then. A spinning wait polls first too: its setup reads the clock (for
    // the deadline and the peer checks), ~20 ns in a VM, which a sender entering its wait
    // for the answer pays on a hand-off's critical path when the peer is quick (issue #23).
    // Not under loom: time is not part of the models.
    let same_cpu =
        matches!(how, Wait::Adaptive { .. }) && peer_cpu.is_some_and(|c| c == current_cpu());
    if let Some(v) = poll_quickly(how, same_cpu, || cond.poll()) {
        return Ok(v);
    }
    let start = monotonic_ns();
    let mut w = Waiter {
        deadline,
        peers,
        next_peer_check: start.saturating_add(SLICE_NS),
        warn_spin_same_cpu: matches!(how, Wait::Spin) && peer_cpu.is_some(),
        peer_cpu,
        yields: 0,
    };
    match how {
        Wait::Spin => w.spin(&mut cond, SpinPlan::unbounded(u64::MAX)),
        Wait::SpinYield => w.spin(&mut cond, SpinPlan::unbounded(YIELD_AFTER)),
        Wait::Block => w.block(&mut cond),
        Wait::Adaptive { spin_budget } => {
            // The default budget is the machine's measured sleep + wake-up, lengthened by
            // the site's waits woken soon (module docs, "Learning the spin budget"); an
            // explicit one is used as given.
            let learned = spin_budget == Wait::DEFAULT_SPIN_BUDGET;
            let spin_budget = if learned {
                measured_budget(spin_budget)
            } else {
                spin_budget
            };
            // On the peer's CPU, yield to it instead of pausing (module docs, "The same-CPU
            // trap"); elsewhere pause, whatever else the machine runs (module docs,
            // "Partners, not the machine").
            let site = cond.site();
            let Some((budget_ns, probe)) = learn::plan(spin_budget, learned, same_cpu, site) else {
                return w.block(&mut cond);
            };
            let plan = SpinPlan {
                yield_after: if same_cpu { 0 } else { u64::MAX },
                budget_end: Some(start.saturating_add(budget_ns)),
                // Under loom time is not part of the model: spin a fixed two polls.
                max_iters: if cfg!(loom) { 2 } else { u64::MAX },
            };
            let spun = w.spin(&mut cond, plan);
            learn::yielded(w.yields);
            match spun {
                Err(WaitError::Timeout) if !w.deadline_passed() => {} // budget spent
                done => {
                    if done.is_ok() {
                        learn::spun(probe, site);
                    }
                    return done;
                }
            }
            learn::blocked();
            let asleep = monotonic_ns();
            let done = w.block(&mut cond);
            let end = monotonic_ns();
            learn::woke(
                site,
                done.is_ok().then(|| end.saturating_sub(asleep)),
                end.saturating_sub(start),
                u64::try_from(spin_budget.as_nanos()).unwrap_or(u64::MAX),
            );
            done
        }
    }
}

/// The quick polls [`wait_on`] makes before its bookkeeping: with `Adaptive` (unless the
/// peer shares this CPU: `same_cpu`) and `Spin`, polls `poll` 16 times with a `pause`
/// between and returns the first `Some`; otherwise (and under loom) `None` at once.
/// Callers that prepare a wait before calling it (compute its deadline: a clock read; look
/// up its bell and peers) make them first, so an answer that is there at once, or within a
/// few hundred ns, costs none of that.
#[inline]
pub fn poll_quickly<T>(
    how: Wait,
    same_cpu: bool,
    mut poll: impl FnMut() -> Option<T>,
) -> Option<T> {
    if cfg!(loom) || same_cpu || !matches!(how, Wait::Adaptive { .. } | Wait::Spin) {
        return None;
    }
    for _ in 0..QUICK_POLLS {
        spin_hint();
        if let Some(v) = poll() {
            return Some(v);
        }
    }
    None
}

/// How a spin phase spins (see [`Waiter::spin`]).
#[derive(Debug, Clone, Copy)]
struct SpinPlan {
    /// Pause for this many iterations, then yield.
    yield_after: u64,
    /// Give up (as `Timeout`) at this time (ns).
    budget_end: Option<u64>,
    /// Give up (as `Timeout`) after this many polls.
    max_iters: u64,
}

impl SpinPlan {
    /// Spin until the condition holds or the deadline passes; `yield_after` as given.
    fn unbounded(yield_after: u64) -> Self {
        SpinPlan {
            yield_after,
            budget_end: None,
            max_iters: u64::MAX,
        }
    }
}

/// The measured spin budget (`default` until measured; loom: `default`).
#[inline]
fn measured_budget(default: Duration) -> Duration {
    #[cfg(not(loom))]
    {
        cost::spin_budget(default)
    }
    #[cfg(loom)]
    default
}

/// The state of one wait in progress.
struct Waiter<'a, P: ?Sized> {
    deadline: Option<Deadline>,
    peers: &'a P,
    next_peer_check: u64,
    warn_spin_same_cpu: bool,
    peer_cpu: Option<u32>,
    /// `sched_yield` calls made so far.
    yields: u64,
}

impl<P: PeerWatch + ?Sized> Waiter<'_, P> {
    fn deadline_passed(&self) -> bool {
        self.deadline.is_some_and(Deadline::expired)
    }

    /// Checks the peers if one was due at `now` (or `force`).
    fn maybe_check_peers(&mut self, now: u64, force: bool) -> Result<(), WaitError> {
        if force || now >= self.next_peer_check {
            self.peers.check_peers()?;
            self.next_peer_check = now.saturating_add(SLICE_NS);
            if self.warn_spin_same_cpu {
                self.warn_spin_same_cpu = false;
                warn_if_spinning_on_peer_cpu(self.peer_cpu);
            }
        }
        Ok(())
    }

    /// Spins until the condition holds, the deadline passes or the plan's `budget_end` (ns)
    /// / `max_iters` is reached — the last two reported as `Timeout` while the deadline has
    /// not passed. Pauses for the first `yield_after` iterations, then yields.
    fn spin<C: WaitCondition>(
        &mut self,
        cond: &mut C,
        plan: SpinPlan,
    ) -> Result<C::Output, WaitError> {
        let mut i: u64 = 0;
        loop {
            if let Some(v) = cond.poll() {
                return Ok(v);
            }
            i += 1;
            if i >= plan.max_iters {
                return Err(WaitError::Timeout);
            }
            let yielding = i >= plan.yield_after;
            if yielding {
                yield_now();
                self.yields += 1;
            } else {
                spin_hint();
            }
            // Yields are syscalls already: read the clock after each one.
            if yielding || i.is_multiple_of(CLOCK_EVERY) {
                let now = monotonic_ns();
                if self.deadline.is_some_and(|d| now >= d.as_ns()) {
                    return cond.poll().ok_or(WaitError::Timeout);
                }
                if plan.budget_end.is_some_and(|end| now >= end) {
                    return Err(WaitError::Timeout);
                }
                let force = i.is_multiple_of(u64::from(SPIN_PEER_CHECK_EVERY));
                if let Err(e) = self.maybe_check_peers(now, force) {
                    // A peer that left after making the condition true ends nothing.
                    return cond.poll().ok_or(e);
                }
            }
        }
    }

    /// Sleeps on the futex word in slices of at most [`SLEEP_SLICE`].
    fn block<C: WaitCondition>(&mut self, cond: &mut C) -> Result<C::Output, WaitError> {
        loop {
            if let Some(v) = cond.poll() {
                return Ok(v);
            }
            let now = monotonic_ns();
            if self.deadline.is_some_and(|d| now >= d.as_ns()) {
                return Err(WaitError::Timeout); // polled just above
            }
            if let Err(e) = self.maybe_check_peers(now, false) {
                return cond.poll().ok_or(e);
            }
            let expected = match cond.prepare_sleep() {
                Ok(expected) => expected,
                Err(v) => return Ok(v),
            };
            let bound = cond.max_sleep();
            // Under loom a timed futex wait returns at once (the model has no time), so sleep
            // untimed there unless the caller gave a deadline; slices only serve peer checks.
            // A bounded sleep is a model yield: the condition is polled again after it.
            if cfg!(loom) && bound.is_some() {
                cond.finish_sleep();
                yield_now();
                continue;
            }
            let slice = if cfg!(loom) {
                self.deadline
            } else {
                let ns = bound.map_or(SLICE_NS, |b| (b.as_nanos() as u64).min(SLICE_NS));
                let end = Deadline::at_ns(now.saturating_add(ns));
                Some(self.deadline.map_or(end, |d| d.min(end)))
            };
            futex::wait(cond.futex_word(), expected, slice);
            cond.finish_sleep();
        }
    }
}

/// Debug builds: say once per process that `Spin` is waiting on a peer that shares its CPU.
#[cfg(all(debug_assertions, not(loom)))]
fn warn_if_spinning_on_peer_cpu(peer_cpu: Option<u32>) {
    if peer_cpu == Some(current_cpu()) {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            eprintln!(
                "handoff: warning: a Wait::Spin wait is spinning on the CPU its peer last ran \
                 on ({}); each hand-off then costs a scheduler tick. Pin the two sides to \
                 distinct CPUs, or use Wait::Adaptive / Wait::SpinYield.",
                current_cpu()
            );
        });
    }
}

#[cfg(not(all(debug_assertions, not(loom))))]
fn warn_if_spinning_on_peer_cpu(_peer_cpu: Option<u32>) {}

/// How many futex wake-up system calls the calling thread has made so far (every wait
/// primitive's waker counts here). A diagnostic for tests and benchmarks: a writer whose
/// targets sleep on other words should add nothing.
#[cfg(all(not(loom), feature = "diagnostics"))]
pub fn futex_wakes() -> u64 {
    futex::wake_calls()
}

/// [`Wait`], its parsing and printing, and [`check_spin`].
mod strategy;
#[cfg(feature = "implementor")]
pub use strategy::check_spin;
pub use strategy::Wait;

/// [`Patience`] (an endpoint's strategy and default timeout) and [`Until`] (one call's).
mod patience;
#[cfg_attr(loom, allow(unused_imports))]
pub(crate) use patience::{parts, Call};
pub use patience::{Patience, Until};

/// [`CpuHint`], the CPU of a primitive's last publisher.
mod hint;
use hint::current_cpu;
pub use hint::CpuHint;

/// The per-site learning of `Adaptive` (module docs, "Learning the spin budget").
#[cfg_attr(not(feature = "diagnostics"), allow(dead_code))]
// the counts are read by diagnostics only
mod learn;
#[cfg(any(test, feature = "diagnostics"))]
#[allow(unused_imports)] // the unit tests read the counts, not their type
pub use learn::{adaptive_stats, reset_adaptive_stats, AdaptiveStats};

/// [`poll_until`]: the policy for words no waker rings.
mod polled;
pub use polled::poll_until;

/// The measured cost of a sleep and wake-up that bounds `Adaptive`'s spin.
#[cfg(not(loom))]
#[cfg_attr(not(feature = "diagnostics"), allow(dead_code))] // its readings are diagnostics
mod cost;
#[cfg(all(not(loom), feature = "diagnostics"))]
pub use cost::{measure_wake_cost, wake_cost, WakeCost};

/// Whether more threads are runnable than there are CPUs: a reading for reports (the waits
/// decide from their partners: module docs, "Partners, not the machine").
#[cfg(all(not(loom), feature = "diagnostics"))]
mod load;
#[cfg(all(not(loom), feature = "diagnostics"))]
pub use load::oversubscribed_now;

#[cfg(all(test, not(loom)))]
mod tests;

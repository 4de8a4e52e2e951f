//! The machine's cost of a futex sleep and wake-up, measured once per process, which bounds
//! `Adaptive`'s spin (the parent module's docs, "Learning the spin budget").
//!
//! # What is measured
//!
//! Two threads of our own ping-pong on a futex word: each stores the next value, wakes the
//! other and sleeps until the answer comes. A round trip is then two sleeps and two
//! wake-ups, and half of it is what a waiter pays for sleeping instead of spinning: the
//! wake-up system call, the scheduler's switch and (across CPUs) the interrupt that gets an
//! idle CPU running again. It is measured with the two threads pinned to two CPUs of the
//! process's mask (the cost that bounds the spin) and on one CPU (two context switches:
//! reported, for comparison). A process pinned to one CPU (a PE pinned by the launcher)
//! pins the second helper to another online CPU outside its mask for the measurement (the
//! helpers are ours and exit right after; the peer the budget is for runs elsewhere anyway);
//! where the kernel refuses that (a cpuset), the default budget stays. Each figure is the
//! median of a few round trips after a first one that warms up, counting only the rounds in
//! which both wake calls woke a sleeper (the asker first lets the answerer fall asleep); the
//! whole measurement takes about a millisecond.
//!
//! # When
//!
//! The first `Adaptive` wait of the process that reaches its spin phase (so no program pays
//! for it unless it waits) starts the measurement on a background thread and spins
//! [`Wait::DEFAULT_SPIN_BUDGET`](super::Wait::DEFAULT_SPIN_BUDGET) meanwhile; every later
//! wait reads the cached figure (one Relaxed load). [`measure_wake_cost`] measures at once
//! (for the lab and benchmarks, which print it). A process that cannot spawn a thread, has
//! one CPU, or whose measurement does not finish within [`GIVE_UP`] keeps the default.
//!
//! The figure is clamped to [`MIN_BUDGET`]..=[`MAX_BUDGET`]: a machine so loaded that a
//! wake-up takes milliseconds would otherwise spin for milliseconds, and the waits detect
//! that load separately (they yield instead of spinning, see `load`).

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::sys::affinity;
use crate::sys::deadline::monotonic_ns;
use crate::sys::{futex, Deadline};

/// The shortest measured budget used (a faster wake-up is rounded up to it).
pub const MIN_BUDGET: Duration = Duration::from_micros(2);
/// The longest measured budget used (a slower wake-up, on a loaded machine, is cut to it).
pub const MAX_BUDGET: Duration = Duration::from_micros(50);
/// A measurement that has not finished by then is abandoned (the default budget stays).
pub const GIVE_UP: Duration = Duration::from_millis(50);
/// Round trips timed per placement, after one that warms up.
const ROUNDS: usize = 8;

/// Measurement state.
const NOT_STARTED: u8 = 0;
const RUNNING: u8 = 1;
const DONE: u8 = 2;
const FAILED: u8 = 3;

static STATE: AtomicU8 = AtomicU8::new(NOT_STARTED);
/// The measured cross-CPU wake-up, ns (valid once `STATE` is `DONE`).
static CROSS_NS: AtomicU64 = AtomicU64::new(0);
/// The measured same-CPU wake-up, ns (valid once `STATE` is `DONE`).
static SAME_NS: AtomicU64 = AtomicU64::new(0);
/// Serializes [`measure_wake_cost`] callers with the background measurement.
static MEASURING: Mutex<()> = Mutex::new(());

/// What one futex sleep and wake-up costs on this machine, as measured by this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WakeCost {
    /// From a wake-up call to the woken thread running, the two on different CPUs (median
    /// over round trips, halved).
    pub cross_cpu: Duration,
    /// The same with both threads pinned to one CPU.
    pub same_cpu: Duration,
}

impl WakeCost {
    /// The spin budget it implies: [`cross_cpu`](Self::cross_cpu) within
    /// 2..=50 µs (`MIN_BUDGET`..=`MAX_BUDGET`).
    pub fn spin_budget(&self) -> Duration {
        self.cross_cpu.clamp(MIN_BUDGET, MAX_BUDGET)
    }
}

/// The cost measured so far by this process, if a measurement finished.
pub fn wake_cost() -> Option<WakeCost> {
    // Acquire: pairs with the Release store of DONE in `store`, after the two figures.
    (STATE.load(Ordering::Acquire) == DONE).then(|| WakeCost {
        cross_cpu: Duration::from_nanos(CROSS_NS.load(Ordering::Relaxed)),
        same_cpu: Duration::from_nanos(SAME_NS.load(Ordering::Relaxed)),
    })
}

/// Measures the cost now, on the calling thread and one helper (unless a measurement
/// finished already: then that one), and caches it for the process's `Adaptive` waits.
/// `None` when it cannot be measured (no thread, one CPU, or no answer within 50 ms).
pub fn measure_wake_cost() -> Option<WakeCost> {
    let _one_at_a_time = MEASURING.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = wake_cost() {
        return Some(c);
    }
    STATE.store(RUNNING, Ordering::Relaxed);
    run_and_store()
}

/// The budget an `Adaptive` wait with the default budget spins: the measured one, or
/// `default` until a measurement finished (the first call starts one in the background).
#[inline]
pub(super) fn spin_budget(default: Duration) -> Duration {
    if cfg!(loom) {
        return default;
    }
    match STATE.load(Ordering::Acquire) {
        DONE => {
            Duration::from_nanos(CROSS_NS.load(Ordering::Relaxed)).clamp(MIN_BUDGET, MAX_BUDGET)
        }
        NOT_STARTED => {
            start_in_background();
            default
        }
        _ => default,
    }
}

#[cold]
#[inline(never)]
fn start_in_background() {
    if STATE
        .compare_exchange(NOT_STARTED, RUNNING, Ordering::Relaxed, Ordering::Relaxed)
        .is_err()
    {
        return; // another wait started it
    }
    let spawned = std::thread::Builder::new()
        .name("handoff-wake-cost".into())
        .spawn(|| {
            let _one_at_a_time = MEASURING.lock().unwrap_or_else(|p| p.into_inner());
            if STATE.load(Ordering::Relaxed) == RUNNING {
                run_and_store();
            }
        });
    if spawned.is_err() {
        STATE.store(FAILED, Ordering::Relaxed);
    }
}

/// Measures and publishes (or marks the measurement failed).
fn run_and_store() -> Option<WakeCost> {
    match measure() {
        Some(c) => {
            CROSS_NS.store(c.cross_cpu.as_nanos() as u64, Ordering::Relaxed);
            SAME_NS.store(c.same_cpu.as_nanos() as u64, Ordering::Relaxed);
            // Release: pairs with the Acquire loads of STATE in `wake_cost`/`spin_budget`.
            STATE.store(DONE, Ordering::Release);
            Some(c)
        }
        None => {
            STATE.store(FAILED, Ordering::Relaxed);
            None
        }
    }
}

/// Both placements; the caller's thread keeps its affinity (the ping-pong runs on a
/// helper pair of our own threads). `None` with one online CPU (no cross-CPU figure to
/// bound the spin by).
fn measure() -> Option<WakeCost> {
    let give_up = Deadline::after(GIVE_UP);
    let mine = affinity::thread_affinity().ok().filter(|c| !c.is_empty())?;
    let a = mine[0];
    let b = match mine.get(1) {
        Some(&b) => b,
        None => affinity::online_cpus()
            .ok()?
            .into_iter()
            .find(|&c| c != a)?,
    };
    let same = pingpong(a, a, give_up)?;
    // A try whose rounds mostly did not sleep (module docs) is tried again, twice at most.
    let cross = (0..3).find_map(|_| pingpong(a, b, give_up))?;
    Some(WakeCost {
        cross_cpu: cross,
        same_cpu: same,
    })
}

/// Set by an answerer that could not pin itself: the measurement is off.
const NO_PIN: u32 = u32::MAX;

/// How long the asker lets the answerer fall asleep before each round (spinning): a round
/// whose answerer had not gone to sleep yet measures two system calls, not a wake-up.
const SETTLE: Duration = Duration::from_micros(30);

/// One placement: two new threads pinned to `cpu_a` and `cpu_b` ping-pong [`ROUNDS`] + 1
/// times on a futex word; returns half the median round trip of the rounds in which both
/// wake-ups woke a sleeper (on one CPU: the asker's), or `None` if either thread could not
/// pin itself, at `give_up`, or when fewer than half the timed rounds count.
///
/// Both parties must really sleep: two threads that answer each other before either has
/// gone to sleep time two system calls (0.2-0.6 µs here against 25-40 µs for a wake-up);
/// 4 in 40 processes measured that before the asker let the answerer settle and the rounds
/// were counted only when both wake calls woke someone, and their adaptive waits, with a
/// 2 µs budget, slept through every hand-off (13-22× a spinning wait, issue #23).
fn pingpong(cpu_a: usize, cpu_b: usize, give_up: Deadline) -> Option<Duration> {
    let word = Arc::new(AtomicU32::new(0));
    // Bit i: the answerer's wake call of round i woke the asker.
    let answer_woke = Arc::new(AtomicU32::new(0));
    let (w2, woke2) = (word.clone(), answer_woke.clone());
    let answer = std::thread::Builder::new()
        .name("handoff-wake-cost".into())
        .spawn(move || {
            if pin(cpu_b).is_err() {
                w2.store(NO_PIN, Ordering::Release);
                futex::wake_all(&w2);
                return;
            }
            for i in 0..=ROUNDS as u32 {
                if !sleep_until(&w2, 2 * i + 1, give_up) {
                    return;
                }
                w2.store(2 * i + 2, Ordering::Release);
                if futex::wake_all(&w2) > 0 {
                    // Relaxed: read after the join.
                    woke2.fetch_or(1 << i, Ordering::Relaxed);
                }
            }
        })
        .ok()?;
    let ask = std::thread::Builder::new()
        .name("handoff-wake-cost".into())
        .spawn(move || {
            if pin(cpu_a).is_err() {
                // Let the answerer go (it waits for 1, and sees NO_PIN).
                word.store(NO_PIN, Ordering::Relaxed);
                futex::wake_all(&word);
                return None;
            }
            let mut trips = Vec::with_capacity(ROUNDS + 1);
            for i in 0..=ROUNDS as u32 {
                let settled = monotonic_ns() + SETTLE.as_nanos() as u64;
                while monotonic_ns() < settled {
                    std::hint::spin_loop();
                }
                let t0 = monotonic_ns();
                // Release: pairs with the Acquire load in the answerer's `sleep_until`. A
                // CAS, so an answerer's NO_PIN is never overwritten.
                if word
                    .compare_exchange(2 * i, 2 * i + 1, Ordering::Release, Ordering::Relaxed)
                    .is_err()
                {
                    return None;
                }
                let woke = futex::wake_all(&word) > 0;
                if !sleep_until(&word, 2 * i + 2, give_up) {
                    // The answerer gave up, or its deadline (the same) passes too.
                    return None;
                }
                trips.push((monotonic_ns() - t0, woke));
            }
            Some(trips)
        })
        .ok()?;
    let trips = ask.join().ok()??;
    let _ = answer.join();
    // On one CPU the woken thread preempts its waker, which then finds the answer without
    // sleeping: that round trip is the two context switches this placement reports.
    let answered = if cpu_a == cpu_b {
        u32::MAX
    } else {
        answer_woke.load(Ordering::Relaxed)
    };
    slept_median(&trips, answered)
}

/// Half the median of the timed round trips (all but the first) in which both wake calls
/// woke a sleeper (`trips[i].1` for the asker's, bit `i` of `answer_woke` for the
/// answerer's); `None` when fewer than half of them did.
fn slept_median(trips: &[(u64, bool)], answer_woke: u32) -> Option<Duration> {
    let mut slept: Vec<u64> = (1..trips.len())
        .filter(|&i| trips[i].1 && answer_woke & (1 << i) != 0)
        .map(|i| trips[i].0)
        .collect();
    if slept.is_empty() || 2 * slept.len() < trips.len() - 1 {
        return None;
    }
    slept.sort_unstable();
    Some(Duration::from_nanos(slept[slept.len() / 2] / 2))
}

/// Pins the calling helper thread to `cpu`, inside the process's mask or not (module docs).
fn pin(cpu: usize) -> rustix::io::Result<()> {
    if cpu >= rustix::thread::CpuSet::MAX_CPU {
        return Err(rustix::io::Errno::INVAL);
    }
    let mut set = rustix::thread::CpuSet::new();
    set.set(cpu);
    rustix::thread::sched_setaffinity(None, &set)
}

/// Sleeps on `word` until it holds `want` (Acquire), or `give_up` passes or the other
/// thread gave up ([`NO_PIN`]) (false).
fn sleep_until(word: &AtomicU32, want: u32, give_up: Deadline) -> bool {
    loop {
        // Acquire: pairs with the other thread's Release store in `pingpong`.
        let now = word.load(Ordering::Acquire);
        if now == want {
            return true;
        }
        if now == NO_PIN || give_up.expired() {
            return false;
        }
        futex::wait(word, now, Some(give_up));
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// Only the timed rounds (not the first) in which both wake calls woke a sleeper count:
    /// a round in which either party found the answer without sleeping timed two system
    /// calls, not a wake-up.
    #[test]
    fn only_rounds_in_which_both_slept_count() {
        let us = |n: u64| n * 1000;
        // Round 0 warms up; rounds 1-4 slept (40-46 µs), rounds 5-6 did not (0.3 µs): in
        // round 5 the asker's wake woke nobody, in round 6 the answerer's.
        let trips = [
            (us(900), true),
            (us(80), true),
            (us(84), true),
            (us(92), true),
            (us(88), true),
            (600, false),
            (600, true),
        ];
        assert_eq!(
            slept_median(&trips, 0b0111111),
            Some(Duration::from_micros(44))
        );
        // Had round 6's answerer woken the asker, round 6 would count.
        assert_eq!(
            slept_median(&trips, 0b1111111),
            Some(Duration::from_micros(42))
        );
        // Fewer than half the timed rounds slept: no figure (the default budget stays).
        assert_eq!(slept_median(&trips, 0b0000111), None);
        assert_eq!(slept_median(&trips[..1], u32::MAX), None);
        // Every round counts when every wake woke someone (the same-CPU placement passes
        // all bits).
        assert_eq!(
            slept_median(&trips[..4], u32::MAX),
            Some(Duration::from_micros(42))
        );
    }
}

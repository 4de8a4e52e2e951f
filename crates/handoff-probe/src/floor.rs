//! The physical floor: one cache line bounced between two CPUs.
//!
//! No hand-off between two CPUs can beat the time it takes one cache line to move from one
//! core's cache to the other's. [`c2c`] measures it: two threads, pinned to `cpu_a` and
//! `cpu_b`, take turns writing one counter in one cache-line-aligned word, each spinning
//! until it sees the other's write. One-way latency is the round trip divided by two.
//!
//! # Protocol and memory ordering
//!
//! The word starts at 0. In round trip `i` (counted from 0 over the whole run):
//!
//! | step | thread | action | word becomes |
//! |---|---|---|---|
//! | ping | A (`cpu_a`) | Release store | `2i + 1` |
//! | pong | B (`cpu_b`) | Acquire-load until it sees `2i + 1`, then Release store | `2i + 2` |
//! | done | A | Acquire-load until it sees `2i + 2` | |
//!
//! Every load must see either the value the waiter itself wrote last or the one it waits for;
//! anything else is a protocol error, reported as an error (never a panic). A thread that
//! fails (cannot pin, sees a wrong value, runs out of time) stores `POISON` (`u64::MAX`),
//! so its peer stops too; since a bounce store is blind and may overwrite `POISON`, it also
//! sets a give-up flag the waiters check off the hot path (with their deadline). Each
//! Release store pairs with the peer's Acquire load of the same value. The steps are
//! small functions on the atomic facade, model-checked by this module's loom tests.
//!
//! # Same CPU
//!
//! When `cpu_a == cpu_b`, both threads share one CPU: a spinning waiter would hold it for a
//! whole scheduler time slice (milliseconds) before its peer could answer. Both threads then
//! `yield` instead of spinning, and the result (flagged `same_cpu`) measures a hand-off by
//! context switch, not a cache-line transfer.

use std::time::Duration;

use crate::atomic::{spin_hint, yield_now, AtomicBool, AtomicU64, Ordering};
use crate::clock::{Calibration, Clock, ClockSource};
use crate::{Error, Result};
use handoff::sys::Deadline;

/// Stored by a thread that gives up, so its peer stops waiting.
const POISON: u64 = u64::MAX;

/// How often (in spins) a waiter checks its deadline and the peer's give-up flag: rarely
/// enough to cost nothing. Every spin under loom (whose models run a handful of spins).
const DEADLINE_CHECK_EVERY: u64 = if cfg!(loom) { 1 } else { 1 << 14 };

/// How [`c2c`] measures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct C2cOptions {
    /// Round trips timed together as one sample (default 1000).
    pub round_trips_per_sample: u32,
    /// Samples kept (default 100).
    pub samples: u32,
    /// Samples run first and discarded, to warm caches, branch predictors and clocks
    /// (default 10).
    pub warmup_samples: u32,
    /// Give up with [`handoff::sync::WaitError::Timeout`] if the whole measurement takes longer
    /// (default 30 s; e.g. when another process hogs one of the CPUs).
    pub timeout: Duration,
}

impl Default for C2cOptions {
    fn default() -> Self {
        C2cOptions {
            round_trips_per_sample: 1000,
            samples: 100,
            warmup_samples: 10,
            timeout: Duration::from_secs(30),
        }
    }
}

/// What [`c2c`] measured.
#[derive(Debug, Clone, PartialEq)]
pub struct C2cResult {
    /// The pinging CPU.
    pub cpu_a: usize,
    /// The ponging CPU.
    pub cpu_b: usize,
    /// One-way latency of each sample in nanoseconds (sample round-trip time / round trips /
    /// 2), in the order measured.
    pub one_way_ns_samples: Vec<f64>,
    /// Median of `one_way_ns_samples`.
    pub median_one_way_ns: f64,
    /// Minimum of `one_way_ns_samples`.
    pub min_one_way_ns: f64,
    /// Both threads ran on one CPU and yielded to each other: a context-switch hand-off, not
    /// a cache-line transfer (see the module docs).
    pub same_cpu: bool,
    /// The clock that timed the samples.
    pub clock: ClockSource,
}

/// Cache-line-aligned (128 bytes: a line, and the adjacent-line prefetch pair on Intel) so
/// nothing else shares the bouncing line.
#[repr(align(128))]
struct Line(AtomicU64);

/// Measures one-way cache-line latency between `cpu_a` and `cpu_b` (see the module docs).
///
/// Errors: [`sys::Error::CpuUnavailable`](handoff::sys::Error::CpuUnavailable) when either CPU is not in
/// [`handoff::sys::allowed_cpus`] (so on a one-CPU process every cross-CPU pair fails);
/// [`sys::Error::InvalidArgument`](handoff::sys::Error::InvalidArgument) for zero `samples` or `round_trips_per_sample`;
/// [`handoff::sync::WaitError::Timeout`] (as [`Error::Wait`]) past `opts.timeout`; [`sys::Error::Io`](handoff::sys::Error::Io)
/// (kind `InvalidData`) if a bounce carried the wrong value.
pub fn c2c(cpu_a: usize, cpu_b: usize, opts: &C2cOptions) -> Result<C2cResult> {
    if opts.samples == 0 || opts.round_trips_per_sample == 0 {
        return Err(Error::Sys(handoff::sys::Error::InvalidArgument(format!(
            "c2c needs at least one sample of at least one round trip (got samples = {}, \
             round_trips_per_sample = {})",
            opts.samples, opts.round_trips_per_sample
        ))));
    }
    let allowed = handoff::sys::allowed_cpus()?;
    for cpu in [cpu_a, cpu_b] {
        if allowed.binary_search(&cpu).is_err() {
            return Err(Error::Sys(handoff::sys::Error::CpuUnavailable {
                cpu,
                allowed: handoff::sys::format_cpu_list(&allowed),
            }));
        }
    }
    let clock = Clock::detect();
    let calibration = clock.calibration();
    let same_cpu = cpu_a == cpu_b;
    let deadline = Deadline::after(opts.timeout);
    let total_samples = opts.warmup_samples as u64 + opts.samples as u64;
    let rts = opts.round_trips_per_sample as u64;
    let line = Line(AtomicU64::new(0));
    let gave_up = AtomicBool::new(false);
    let bouncer = Bouncer {
        line: &line.0,
        gave_up: &gave_up,
        same_cpu,
        deadline,
    };

    let (ticks, pong) = std::thread::scope(|s| {
        let pong = s.spawn(|| -> Result<()> {
            bouncer.pin(cpu_b)?;
            for i in 0..total_samples * rts {
                bouncer.pong(i)?;
            }
            Ok(())
        });
        let ping = s.spawn(|| -> Result<Vec<u64>> {
            bouncer.pin(cpu_a)?;
            let mut ticks = Vec::with_capacity(total_samples as usize);
            let mut i = 0u64;
            for _ in 0..total_samples {
                let t0 = clock.now();
                for _ in 0..rts {
                    bouncer.ping(i)?;
                    i += 1;
                }
                let t1 = clock.now();
                ticks.push(t1.wrapping_sub(t0));
            }
            Ok(ticks)
        });
        (join(ping), join(pong))
    });
    // Prefer the error that says what went wrong over the peer's "my peer gave up".
    let ticks = match (ticks, pong) {
        (Ok(t), Ok(())) => t,
        (Err(e), Ok(())) | (Ok(_), Err(e)) => return Err(e),
        (Err(a), Err(b)) => return Err(if is_poisoned(&a) { b } else { a }),
    };

    Ok(summarize(
        cpu_a,
        cpu_b,
        &ticks[opts.warmup_samples as usize..],
        opts.round_trips_per_sample,
        &calibration,
    ))
}

/// The result from the kept samples' raw ticks: each sample timed `round_trips` round trips,
/// and one way is half a round trip. `ticks` must not be empty (`c2c` keeps at least one).
fn summarize(
    cpu_a: usize,
    cpu_b: usize,
    ticks: &[u64],
    round_trips: u32,
    calibration: &Calibration,
) -> C2cResult {
    let one_way_ns_samples: Vec<f64> = ticks
        .iter()
        .map(|&t| calibration.to_ns(t) / round_trips as f64 / 2.0)
        .collect();
    let mut sorted = one_way_ns_samples.clone();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median_one_way_ns = match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    };
    C2cResult {
        cpu_a,
        cpu_b,
        min_one_way_ns: sorted.first().copied().unwrap_or(f64::NAN),
        median_one_way_ns,
        one_way_ns_samples,
        same_cpu: cpu_a == cpu_b,
        clock: calibration.source,
    }
}

/// What both threads share; its methods are the protocol's steps (model-checked by the
/// `loom_tests` below).
#[derive(Clone, Copy)]
struct Bouncer<'a> {
    /// The bouncing word.
    line: &'a AtomicU64,
    /// Set by a thread that gives up, next to storing `POISON`: the peer's next bounce store
    /// may overwrite `POISON` (it stores blind), so waiters also check this flag, off the
    /// hot path (with the deadline).
    gave_up: &'a AtomicBool,
    same_cpu: bool,
    deadline: Deadline,
}

/// The message of the error a thread reports when its peer poisoned the line.
const PEER_GAVE_UP: &str = "the other c2c thread gave up";

impl Bouncer<'_> {
    /// Pins the calling thread; on failure poisons the line so the peer stops.
    fn pin(&self, cpu: usize) -> Result<()> {
        handoff::sys::pin_current_thread(cpu)
            .map_err(Error::from)
            .inspect_err(|_| self.poison())
    }

    fn poison(&self) {
        // Relaxed: a stop signal that publishes no data.
        self.gave_up.store(true, Ordering::Relaxed);
        // Release pairs with the peer's Acquire load in `wait_for`, which then stops.
        self.line.store(POISON, Ordering::Release);
    }

    /// Thread A's half of round trip `i`: sends `2i + 1`, waits for the answer `2i + 2`.
    #[inline]
    fn ping(&self, i: u64) -> Result<()> {
        // Release pairs with the Acquire load in B's `await_ping(i)` (`wait_for(2i + 1)`).
        self.line.store(2 * i + 1, Ordering::Release);
        self.wait_for(2 * i + 2, 2 * i + 1)
    }

    /// Thread B's half of round trip `i`: [`Bouncer::await_ping`], then
    /// [`Bouncer::answer`].
    #[inline]
    fn pong(&self, i: u64) -> Result<()> {
        self.await_ping(i)?;
        self.answer(i);
        Ok(())
    }

    /// B waits for A's ping `2i + 1` (the word holds B's last answer `2i` meanwhile).
    #[inline]
    fn await_ping(&self, i: u64) -> Result<()> {
        self.wait_for(2 * i + 1, 2 * i)
    }

    /// B answers ping `i` with `2i + 2`.
    #[inline]
    fn answer(&self, i: u64) {
        // Release pairs with the Acquire load in A's `ping(i)` (`wait_for(2i + 2)`).
        self.line.store(2 * i + 2, Ordering::Release);
    }

    /// Spins (or yields, on one CPU) until the word holds `want`; while waiting it may only
    /// hold `mine`, the value this thread wrote (or saw) last.
    #[inline]
    fn wait_for(&self, want: u64, mine: u64) -> Result<()> {
        let mut spins = 0u64;
        loop {
            // Acquire pairs with the peer's Release store of `want` (in `ping` / `answer`).
            let v = self.line.load(Ordering::Acquire);
            if v == want {
                return Ok(());
            }
            if v != mine {
                return Err(self.bad_value(want, mine, v));
            }
            spins += 1;
            if spins.is_multiple_of(DEADLINE_CHECK_EVERY) {
                // Relaxed: pairs with nothing (see `poison`); only stops us.
                if self.gave_up.load(Ordering::Relaxed) {
                    return Err(peer_gave_up());
                }
                if self.deadline.expired() {
                    self.poison();
                    return Err(handoff::sync::WaitError::Timeout.into());
                }
            }
            if self.same_cpu {
                yield_now();
            } else {
                spin_hint();
            }
        }
    }

    #[cold]
    fn bad_value(&self, want: u64, mine: u64, saw: u64) -> Error {
        if saw == POISON {
            return peer_gave_up();
        }
        self.poison();
        Error::io(
            "c2c ping-pong",
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "the shared counter held {saw} while waiting for {want} (expected {mine} \
                     or {want}): a bounce was lost or duplicated"
                ),
            ),
        )
    }
}

/// The error of a thread whose peer gave up.
fn peer_gave_up() -> Error {
    Error::io(
        "c2c ping-pong",
        std::io::Error::new(std::io::ErrorKind::Interrupted, PEER_GAVE_UP),
    )
}

fn is_poisoned(e: &Error) -> bool {
    matches!(e, Error::Sys(handoff::sys::Error::Io { source, .. }) if source.to_string() == PEER_GAVE_UP)
}

fn join<T>(h: std::thread::ScopedJoinHandle<'_, Result<T>>) -> Result<T> {
    h.join().unwrap_or_else(|_| {
        Err(Error::io(
            "c2c ping-pong",
            std::io::Error::other("a c2c thread panicked"),
        ))
    })
}

#[cfg(all(test, not(loom)))]
mod tests {

    use super::*;

    fn quick() -> C2cOptions {
        C2cOptions {
            round_trips_per_sample: 200,
            samples: 20,
            warmup_samples: 2,
            ..C2cOptions::default()
        }
    }

    fn check(r: &C2cResult, samples: u32) {
        assert_eq!(r.one_way_ns_samples.len(), samples as usize);
        for &x in &r.one_way_ns_samples {
            assert!(x.is_finite() && x > 0.0, "{x}");
        }
        assert!(r.min_one_way_ns <= r.median_one_way_ns);
        assert!(r.median_one_way_ns.is_finite() && r.median_one_way_ns > 0.0);
    }

    #[test]
    fn cross_cpu() {
        let cpus = handoff::sys::allowed_cpus().unwrap();
        let [a, b, ..] = cpus[..] else {
            println!("skipped: needs two allowed CPUs, have {cpus:?}");
            return;
        };
        let r = c2c(a, b, &quick()).unwrap();
        println!(
            "c2c {a}<->{b}: median one-way {:.1} ns",
            r.median_one_way_ns
        );
        check(&r, 20);
        assert!(!r.same_cpu);
        assert_eq!((r.cpu_a, r.cpu_b), (a, b));
    }

    #[test]
    fn defaults_cross_cpu() {
        let cpus = handoff::sys::allowed_cpus().unwrap();
        let [a, b, ..] = cpus[..] else {
            println!("skipped: needs two allowed CPUs, have {cpus:?}");
            return;
        };
        let r = c2c(b, a, &C2cOptions::default()).unwrap();
        println!(
            "c2c {b}<->{a} (defaults): median one-way {:.1} ns",
            r.median_one_way_ns
        );
        check(&r, 100);
    }

    #[test]
    fn same_cpu() {
        let cpu = handoff::sys::allowed_cpus().unwrap()[0];
        let opts = C2cOptions {
            round_trips_per_sample: 50,
            samples: 10,
            warmup_samples: 1,
            ..C2cOptions::default()
        };
        let r = c2c(cpu, cpu, &opts).unwrap();
        println!(
            "c2c {cpu}<->{cpu}: median one-way {:.1} ns",
            r.median_one_way_ns
        );
        check(&r, 10);
        assert!(r.same_cpu);
    }

    #[test]
    fn one_way_is_half_the_round_trip_in_ns_with_a_fixed_calibration() {
        // A 2 GHz TSC; samples of 1000 round trips taking 400 000, 600 000 and 440 000 ticks:
        // 200, 300, 220 us per 1000 round trips = 200, 300, 220 ns per round trip, so
        // 100, 150, 110 ns one way (hand computation).
        let cal = Calibration {
            source: ClockSource::Tsc,
            ticks_per_ns: 2.0,
            read_cost_ns: 10.0,
        };
        let r = summarize(0, 1, &[400_000, 600_000, 440_000], 1000, &cal);
        assert_eq!(r.one_way_ns_samples, vec![100.0, 150.0, 110.0]);
        assert_eq!(r.median_one_way_ns, 110.0);
        assert_eq!(r.min_one_way_ns, 100.0);
        assert!(!r.same_cpu);
        // An even count: the median is the mean of the middle two (110 and 150).
        let r = summarize(2, 2, &[400_000, 600_000, 440_000, 800_000], 1000, &cal);
        assert_eq!(r.median_one_way_ns, 130.0);
        assert!(r.same_cpu);
    }

    #[test]
    fn bad_input_is_an_error() {
        let cpu = handoff::sys::allowed_cpus().unwrap()[0];
        assert!(matches!(
            c2c(cpu, 9999, &quick()),
            Err(Error::Sys(handoff::sys::Error::CpuUnavailable {
                cpu: 9999,
                ..
            }))
        ));
        assert!(matches!(
            c2c(9999, cpu, &quick()),
            Err(Error::Sys(handoff::sys::Error::CpuUnavailable {
                cpu: 9999,
                ..
            }))
        ));
        let zero = C2cOptions {
            samples: 0,
            ..quick()
        };
        assert!(matches!(
            c2c(cpu, cpu, &zero),
            Err(Error::Sys(handoff::sys::Error::InvalidArgument(_)))
        ));
    }

    #[test]
    fn wrong_value_is_an_error_not_a_panic() {
        let line = Line(AtomicU64::new(7));
        let gave_up = AtomicBool::new(false);
        let b = Bouncer {
            line: &line.0,
            gave_up: &gave_up,
            same_cpu: false,
            deadline: Deadline::after(Duration::from_secs(5)),
        };
        let e = b.wait_for(2, 1).unwrap_err();
        assert!(e.to_string().contains("held 7"), "{e}");
        // The failing side poisoned the line, so a peer stops with "gave up".
        assert_eq!(line.0.load(Ordering::Relaxed), POISON);
        assert!(is_poisoned(&b.wait_for(4, 3).unwrap_err()));
    }

    #[test]
    fn overwritten_poison_still_stops_the_waiter() {
        // The peer gave up, then our blind bounce store overwrote its POISON: the word holds
        // our own value, and only the give-up flag tells.
        let line = Line(AtomicU64::new(1));
        let gave_up = AtomicBool::new(true);
        let b = Bouncer {
            line: &line.0,
            gave_up: &gave_up,
            same_cpu: false,
            deadline: Deadline::after(Duration::from_secs(30)),
        };
        assert!(is_poisoned(&b.wait_for(2, 1).unwrap_err()));
    }

    #[test]
    fn stalled_peer_times_out() {
        let line = Line(AtomicU64::new(1));
        let gave_up = AtomicBool::new(false);
        let b = Bouncer {
            line: &line.0,
            gave_up: &gave_up,
            same_cpu: false,
            deadline: Deadline::after(Duration::from_millis(20)),
        };
        assert!(matches!(
            b.wait_for(2, 1),
            Err(Error::Wait(handoff::sync::WaitError::Timeout))
        ));
    }
}

/// Loom models of the ping-pong, on the same `Bouncer` steps `c2c` runs.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::cell::UnsafeCell;
    use loom::sync::Arc;

    /// The bouncing line, the give-up flag, and plain data handed over with each bounce.
    type Shared = (Line, AtomicBool, UnsafeCell<u64>);

    fn shared() -> Arc<Shared> {
        Arc::new((
            Line(AtomicU64::new(0)),
            AtomicBool::new(false),
            UnsafeCell::new(0),
        ))
    }

    fn bouncer(s: &Shared) -> Bouncer<'_> {
        Bouncer {
            line: &s.0 .0,
            gave_up: &s.1,
            same_cpu: false,
            deadline: Deadline::after(Duration::from_secs(3600)),
        }
    }

    /// Two round trips: every wait sees only the protocol's values (`wait_for` errors on
    /// anything else), and each bounce is a hand-off: plain data written before a Release
    /// store is read race-free after the peer's Acquire load (loom checks the cell).
    #[test]
    fn loom_c2c_two_round_trips_hand_over() {
        loom::model(|| {
            let s = shared();
            let pong = {
                let s = s.clone();
                loom::thread::spawn(move || {
                    let b = bouncer(&s);
                    for i in 0..2 {
                        b.await_ping(i).unwrap();
                        // SAFETY: A wrote the cell before pinging and waits until we answer.
                        assert_eq!(s.2.with(|p| unsafe { *p }), 100 + i);
                        // SAFETY: as above; A reads it only after seeing our answer.
                        s.2.with_mut(|p| unsafe { *p = 200 + i });
                        b.answer(i);
                    }
                })
            };
            let b = bouncer(&s);
            for i in 0..2 {
                // SAFETY: B touches the cell only between seeing our ping and answering.
                s.2.with_mut(|p| unsafe { *p = 100 + i });
                b.ping(i).unwrap();
                // SAFETY: B answered (its last access to the cell) and waits for our ping.
                assert_eq!(s.2.with(|p| unsafe { *p }), 200 + i);
            }
            pong.join().unwrap();
            assert_eq!(s.0 .0.load(Ordering::Relaxed), 4);
        });
    }

    /// B fails before the first bounce (e.g. cannot pin) while A pings: A must stop with
    /// "peer gave up", also when its blind store of 1 overwrote B's POISON.
    #[test]
    fn loom_c2c_poison_before_first_bounce_stops_peer() {
        loom::model(|| {
            let s = shared();
            let failing = {
                let s = s.clone();
                loom::thread::spawn(move || bouncer(&s).poison())
            };
            let e = bouncer(&s).ping(0).unwrap_err();
            assert!(is_poisoned(&e), "{e}");
            failing.join().unwrap();
        });
    }

    /// A fails after one round trip: B, waiting for the second ping, stops with "peer gave
    /// up" and never sees a value outside the protocol.
    #[test]
    fn loom_c2c_poison_mid_run_stops_peer() {
        loom::model(|| {
            let s = shared();
            let pong = {
                let s = s.clone();
                loom::thread::spawn(move || {
                    let b = bouncer(&s);
                    b.pong(0).unwrap();
                    let e = b.pong(1).unwrap_err();
                    assert!(is_poisoned(&e), "{e}");
                })
            };
            let b = bouncer(&s);
            b.ping(0).unwrap();
            b.poison();
            pong.join().unwrap();
        });
    }
}

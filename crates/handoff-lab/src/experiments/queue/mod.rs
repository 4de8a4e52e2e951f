//! `queue` (issue 12; Charm++ seed 002, "Message queues"): throughput (messages/s) and round
//! trip of handoff's queues against message size, side by side in one run with rtrb and
//! crossbeam's `ArrayQueue` (threads, same placement), a locked shared queue (Charm++'s
//! starting point), and the same handoff queues between processes.
//!
//! Series: `spsc: …` one producer, one consumer; `mpsc: …` `producers` producers, one
//! consumer. Every message carries its producer and sequence number in its first word and
//! words derived from it in the rest; the consumer checks every word and the order per
//! producer (none lost, duplicated, torn or reordered).

pub(super) mod ends;
mod measure;

use super::rt_common::SECTION;
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::at_least;
use crate::bench::{BenchRecord, BenchResults, Checks, Finding};
use measure::Run;

const NAME: &str = "queue";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Queues: handoff vs rtrb vs crossbeam vs a locked queue",
    section: SECTION,
    seed: "Mei et al., Charm++ on multicore (seed 002), \"Message queues\"; issue 12",
    what: "Messages of 8 B to 1 KiB streamed from one or more producers to one consumer \
           (messages/s), and bounced between two threads or processes (µs per round trip). \
           handoff's SPSC ring, per-producer lanes and shared array side by side with rtrb, \
           crossbeam's ArrayQueue and a Mutex<VecDeque>, same placement; every word of every \
           message and the order per producer are checked.",
    figures: &[
        FigureSpec {
            id: "queue-spsc-throughput",
            title: "SPSC: messages/s vs message size",
            metric: "msgs_per_s",
            series_prefix: "spsc",
            ..FigureSpec::vs_size("", "", "")
        },
        FigureSpec {
            id: "queue-mpsc-throughput",
            title: "MPSC: messages/s vs message size",
            metric: "msgs_per_s",
            series_prefix: "mpsc",
            ..FigureSpec::vs_size("", "", "")
        },
        FigureSpec {
            id: "queue-rtt",
            title: "SPSC: µs per round trip vs message size",
            metric: "rtt_us",
            series_prefix: "spsc",
            ..FigureSpec::vs_size("", "", "")
        },
    ],
    findings,
    run: Some(|ctx| run(&Config::for_report(ctx.quick, ctx.allowed_cpus), ctx)),
    worker: Some(worker),
    report_cost: ReportCost::fixed(34.6, 1.2),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// Which queue.
    pub enum Kind {
        /// `handoff::queue::Spsc`.
        Spsc = "spsc",
        /// `rtrb::RingBuffer`.
        Rtrb = "rtrb",
        /// `crossbeam_queue::ArrayQueue`.
        Crossbeam = "crossbeam",
        /// `handoff::queue::LaneMpsc` (a lane per producer).
        Lanes = "lanes",
        /// `handoff::queue::ArrayMpsc` (one shared array).
        Array = "array",
        /// `Mutex<VecDeque>`.
        Locked = "locked",
        /// `handoff::queue::Spsc` waiting with `Wait::Spin` instead of the default wait: the
        /// same ring, for the default-vs-spin rows (threads only; not in the report's plan).
        SpscSpin = "spsc-spin",
    }
}

impl Kind {
    /// One producer only.
    fn single_producer(self) -> bool {
        matches!(self, Kind::Spsc | Kind::SpscSpin | Kind::Rtrb)
    }

    /// Has a cross-process form.
    fn shared(self) -> bool {
        matches!(self, Kind::Spsc | Kind::Lanes | Kind::Array)
    }

    fn label(self) -> &'static str {
        match self {
            Kind::Spsc => "handoff Spsc",
            Kind::SpscSpin => "handoff Spsc (--wait spin)",
            Kind::Rtrb => "rtrb",
            Kind::Crossbeam => "crossbeam ArrayQueue",
            Kind::Lanes => "handoff LaneMpsc",
            Kind::Array => "handoff ArrayMpsc",
            Kind::Locked => "Mutex<VecDeque>",
        }
    }
}

/// One line of the experiment: a queue, SPSC or MPSC use, threads or processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// The queue.
    pub kind: Kind,
    /// Several producers.
    pub mpsc: bool,
    /// Worker processes instead of threads.
    pub processes: bool,
}

impl Line {
    /// Its series name, e.g. "spsc: handoff Spsc, processes".
    pub fn series(self) -> String {
        format!(
            "{}: {}{}",
            if self.mpsc { "mpsc" } else { "spsc" },
            self.kind.label(),
            if self.processes { ", processes" } else { "" }
        )
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    /// Queues (SPSC lines for every kind that allows it; MPSC lines for the multi-producer ones).
    pub kinds: Vec<Kind>,
    /// Also between processes (handoff's queues only).
    pub processes: bool,
    /// Message sizes: 8, 16, 32, 64, 128, 256, 512 or 1024 bytes.
    pub sizes: Vec<usize>,
    /// Producers of the MPSC lines.
    pub producers: usize,
    /// Messages per timed block.
    pub count: u64,
    /// Round trips per timed block.
    pub rtt_iters: u64,
    /// Timed blocks per run (after one warm-up block).
    pub reps: u64,
    /// Runs (fresh threads or processes each).
    pub runs: u64,
    /// CPUs: the consumer on the first, producers round-robin from the second.
    pub cpus: Vec<usize>,
    /// Test hook: corrupt one message (the run must fail verification).
    pub fault: bool,
}

/// The sizes the typed queues are built for.
pub const SIZES: [usize; 8] = [8, 16, 32, 64, 128, 256, 512, 1024];

impl Config {
    /// The report's plan: every queue, threads and processes, 2 producers for MPSC.
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        Config {
            kinds: Kind::ALL
                .into_iter()
                .filter(|&k| k != Kind::SpscSpin)
                .collect(),
            processes: true,
            sizes: if quick {
                vec![8, 256]
            } else {
                vec![8, 64, 256, 1024]
            },
            producers: 2,
            count: if quick { 50_000 } else { 200_000 },
            rtt_iters: if quick { 2_000 } else { 10_000 },
            reps: if quick { 3 } else { 5 },
            runs: if quick { 2 } else { 3 },
            cpus: cpus.to_vec(),
            fault: false,
        }
    }

    /// Every line `self` measures, in report order.
    pub fn lines(&self) -> Vec<Line> {
        let mut v = Vec::new();
        for mpsc in [false, true] {
            for processes in [false, true].into_iter().filter(|&p| !p || self.processes) {
                for &kind in &self.kinds {
                    // SPSC lines: the SPSC rings and crossbeam; MPSC lines: the rest and crossbeam.
                    let on_line = match mpsc {
                        false => kind.single_producer() || kind == Kind::Crossbeam,
                        true => !kind.single_producer(),
                    };
                    if on_line && (kind.shared() || !processes) {
                        v.push(Line {
                            kind,
                            mpsc,
                            processes,
                        });
                    }
                }
            }
        }
        v
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: &str| BenchError::usage(NAME, m);
        if self.kinds.is_empty() {
            return Err(bad(
                "no queue: use --queues spsc,rtrb,crossbeam,lanes,array,locked (or spsc-spin)",
            ));
        }
        if self.sizes.is_empty() || self.sizes.iter().any(|s| !SIZES.contains(s)) {
            return Err(bad(&format!(
                "--sizes: each one of {SIZES:?} bytes (the typed queues' message sizes)"
            )));
        }
        if self.producers == 0 || self.producers > 64 {
            return Err(bad("--producers: 1 to 64"));
        }
        if self.count < self.producers as u64
            || self.rtt_iters == 0
            || self.reps == 0
            || self.runs == 0
        {
            return Err(bad(
                "--count (at least one message per producer), --rtt-iters, --reps and --runs must be at least 1",
            ));
        }
        // A timed block stays a few seconds (Ctrl-C and SIGTERM are seen inside it, every
        // 1024 messages: `measure`'s "Stopping").
        if self.count > MAX_COUNT || self.rtt_iters > MAX_COUNT {
            return Err(bad(&format!(
                "--count and --rtt-iters: at most {MAX_COUNT} per timed block (a few \
                     seconds; use --reps for more)"
            )));
        }
        if self.reps > MAX_REPS || self.runs > MAX_REPS {
            return Err(bad(&format!("--reps and --runs: at most {MAX_REPS}")));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on"));
        }
        Ok(())
    }
}

/// Most messages (or round trips) per timed block: about a second at 50 ns each.
pub const MAX_COUNT: u64 = 1 << 24;
/// Most timed blocks per run, and runs.
pub const MAX_REPS: u64 = 100_000;

macro_rules! by_size {
    ($size:expr, $f:ident $(:: $g:ident)* , ($($a:expr),*)) => {
        match $size {
            8 => $f $(::$g)* ::<1>($($a),*),
            16 => $f $(::$g)* ::<2>($($a),*),
            32 => $f $(::$g)* ::<4>($($a),*),
            64 => $f $(::$g)* ::<8>($($a),*),
            128 => $f $(::$g)* ::<16>($($a),*),
            256 => $f $(::$g)* ::<32>($($a),*),
            512 => $f $(::$g)* ::<64>($($a),*),
            _ => $f $(::$g)* ::<128>($($a),*),
        }
    };
}

/// One stream run.
fn stream(cfg: &Config, line: Line, size: usize, ctx: &RunCtx<'_>) -> Run {
    let (kind, stop) = (line.kind, ctx.cancel);
    let producers = if line.mpsc { cfg.producers } else { 1 };
    if line.processes {
        by_size!(size, measure::stream_processes, (cfg, kind, producers, ctx))
    } else {
        by_size!(size, measure::stream_threads, (cfg, kind, producers, stop))
    }
}

/// One round-trip run.
fn rtt(cfg: &Config, line: Line, size: usize, ctx: &RunCtx<'_>) -> Run {
    if line.processes {
        by_size!(size, measure::rtt_processes, (cfg, ctx))
    } else {
        by_size!(size, measure::rtt_threads, (cfg, line.kind, ctx.cancel))
    }
}

fn worker(args: &[String]) -> Result<(), BenchError> {
    let size: usize = super::rt_common::arg(NAME, args, 2)?;
    if !SIZES.contains(&size) {
        return Err(BenchError::usage(
            NAME,
            format!("worker: size {size} is not one of {SIZES:?}"),
        ));
    }
    by_size!(size, measure::worker_body, (args))
}

/// Bytes of /dev/shm the cross-process lines of `cfg` hold at once for messages of `W`
/// words: the largest of one stream's queue and the round trip's two SPSC queues (each a
/// whole segment: header, attached table and payload).
fn shm_need<const W: usize>(cfg: &Config) -> u64 {
    use handoff::queue::{ArrayMpsc, LaneMpsc, Spsc};
    let object = |payload: Result<usize, handoff::queue::QueueError>| {
        payload
            .ok()
            .and_then(|p| handoff::shm::SegmentOptions::new().object_size(p).ok())
            .map_or(u64::MAX, |b| b as u64)
    };
    let spsc = object(Spsc::<ends::Msg<W>>::memory_size(ends::CAPACITY));
    let mut need = 0;
    for line in cfg.lines().into_iter().filter(|l| l.processes) {
        let stream = match line.kind {
            Kind::Lanes => object(LaneMpsc::<ends::Msg<W>>::memory_size(
                cfg.producers,
                ends::CAPACITY,
            )),
            Kind::Array => object(ArrayMpsc::<ends::Msg<W>>::memory_size(ends::CAPACITY)),
            _ => spsc,
        };
        let rtt = if line.mpsc { 0 } else { spsc.saturating_mul(2) };
        need = need.max(stream).max(rtt);
    }
    need
}

/// Refuses a plan whose cross-process queues do not fit in `free` bytes of /dev/shm (90% of
/// it, as the exchange's check), before anything runs: a full /dev/shm used to fail at the
/// first processes line, minutes into the run (issue #40).
fn check_shm(cfg: &Config, free: Option<u64>) -> Result<(), BenchError> {
    let need = cfg
        .sizes
        .iter()
        .map(|&size| by_size!(size, shm_need, (cfg)))
        .max()
        .unwrap_or(0);
    match free {
        Some(free) if need > free / 10 * 9 => Err(BenchError::usage(
            NAME,
            format!(
                "the cross-process lines need {} of shared memory in /dev/shm at once, which \
                 has {} free: free /dev/shm (df -h /dev/shm; handoff cleanup), or pass \
                 --threads-only",
                handoff_probe::units::format_size(need as usize),
                handoff_probe::units::format_size(free as usize)
            ),
        )),
        _ => Ok(()),
    }
}

/// Runs `cfg`; stops early (partial) on `ctx.cancel`.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    check_shm(cfg, super::exchange::memory::Room::detect().shm)?;
    let lines = cfg.lines();
    let points: Vec<_> = cfg
        .sizes
        .iter()
        .flat_map(|&size| lines.iter().map(move |&line| (size, line)))
        .collect();
    let mut res = ctx.run_points(NAME, cfg, &points, |ctx, res, &(size, line)| {
        let (mut tput, mut rt, mut checks) = (Vec::new(), Vec::new(), Checks::of("messages"));
        for _ in 0..cfg.runs {
            // Stopped inside a timed block: this point measured nothing.
            let Some((s, [c, w])) = stream(cfg, line, size, ctx)? else {
                return Ok(None);
            };
            checks.add(c, w);
            tput.push(s);
            if !line.mpsc {
                let Some((s, [c, w])) = rtt(cfg, line, size, ctx)? else {
                    return Ok(None);
                };
                checks.add(c, w);
                rt.push(s);
            }
        }
        let mode = if line.processes {
            "processes"
        } else {
            "threads"
        };
        let mut rec = BenchRecord::new(line.series(), size as f64, cfg.runs, cfg.reps, false)
            .checked(checks)
            .param("queue", line.kind.name())
            .param("producers", if line.mpsc { cfg.producers } else { 1 })
            .param("mode", mode)
            .param("size_bytes", size)
            .metric("msgs_per_s", metric(NAME, "msg/s", true, &tput)?);
        if !rt.is_empty() {
            rec = rec.metric("rtt_us", metric(NAME, "µs", false, &rt)?);
        }
        res.records.push(rec);
        Ok(Some(format!("{}, {size} B", line.series())))
    })?;
    res.notes.push(format!(
        "consumer on CPU {}, producers round-robin from the next CPU; MPSC lines have {} producers{}; \
         rtrb, crossbeam and the locked queue spin then yield when full or empty, handoff's queues \
         spin then sleep (adaptive)",
        cfg.cpus[0],
        cfg.producers,
        if cfg.producers + 1 > cfg.cpus.len() { " (oversubscribed: more threads than CPUs)" } else { "" }
    ));
    Ok(res)
}

/// The smallest size of `series` and its run means of messages/s there.
fn smallest(res: &BenchResults, series: &str) -> Option<(f64, Vec<f64>)> {
    let r = res.series(series).into_iter().next()?;
    Some((r.x, r.metrics.get("msgs_per_s")?.run_means.clone()))
}

/// Each claim: messages/s of one series over another's at least a threshold, judged at the
/// smallest size when both have it (`{x}` in the claim: that size).
const CLAIMS: [(&str, &str, &str, &str, f64); 4] = [
    (
        "a queue per producer beats a locked shared queue ({x} B messages; seed: Charm++ removed the locks)",
        "LaneMpsc / Mutex<VecDeque> messages/s",
        "mpsc: handoff LaneMpsc",
        "mpsc: Mutex<VecDeque>",
        1.0,
    ),
    (
        "handoff's SPSC streams at least as fast as rtrb ({x} B messages, same run)",
        "handoff Spsc / rtrb messages/s",
        "spsc: handoff Spsc",
        "spsc: rtrb",
        1.0,
    ),
    (
        "handoff's SPSC streams at least as fast as crossbeam ArrayQueue ({x} B messages, same run)",
        "handoff Spsc / crossbeam ArrayQueue messages/s",
        "spsc: handoff Spsc",
        "spsc: crossbeam ArrayQueue",
        1.0,
    ),
    (
        "between processes the SPSC ring keeps at least 80% of its thread throughput ({x} B)",
        "processes / threads messages/s",
        "spsc: handoff Spsc, processes",
        "spsc: handoff Spsc",
        0.8,
    ),
];

fn findings(res: &BenchResults) -> Vec<Finding> {
    CLAIMS
        .iter()
        .filter_map(|&(claim, what, ours, theirs, threshold)| {
            let ((x, a), (xb, b)) = (smallest(res, ours)?, smallest(res, theirs)?);
            let claim = claim.replace("{x}", &x.to_string());
            (x == xb).then(|| at_least(&claim, what, &a, &b, threshold))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A stop flag never set.
    static GO: AtomicBool = AtomicBool::new(false);
    use crate::bench::experiment::assert_each_refused;

    #[test]
    fn lines_by_hand() {
        let cfg = Config::for_report(true, &[0, 1]);
        let names: Vec<String> = cfg.lines().into_iter().map(Line::series).collect();
        assert_eq!(
            names,
            [
                "spsc: handoff Spsc",
                "spsc: rtrb",
                "spsc: crossbeam ArrayQueue",
                "spsc: handoff Spsc, processes",
                "mpsc: crossbeam ArrayQueue",
                "mpsc: handoff LaneMpsc",
                "mpsc: handoff ArrayMpsc",
                "mpsc: Mutex<VecDeque>",
                "mpsc: handoff LaneMpsc, processes",
                "mpsc: handoff ArrayMpsc, processes",
            ]
        );
    }

    #[test]
    fn every_kind_streams_verified_and_a_fault_is_caught() {
        let mut cfg = Config {
            count: 2000,
            rtt_iters: 50,
            reps: 2,
            producers: 3,
            ..Config::for_report(true, &[0])
        };
        for kind in Kind::ALL {
            for mpsc in [false, true] {
                if mpsc && kind.single_producer() {
                    continue;
                }
                let producers = if mpsc { 3 } else { 1 };
                let (s, counts) = measure::stream_threads::<4>(&cfg, kind, producers, &GO)
                    .unwrap()
                    .unwrap();
                assert!(counts[0] > 0 && counts[1] == 0, "{kind:?}: {counts:?}");
                assert_eq!(s.len(), 2);
            }
            let (s, counts) = measure::rtt_threads::<2>(&cfg, kind, &GO).unwrap().unwrap();
            assert!(counts[0] > 0 && counts[1] == 0 && s.len() == 2, "{kind:?}");
        }
        cfg.fault = true;
        let (_, counts) = measure::stream_threads::<1>(&cfg, Kind::Spsc, 1, &GO)
            .unwrap()
            .unwrap();
        // The corrupt message, and its successor out of sequence: at most those two.
        assert!((1..=2).contains(&counts[1]), "{counts:?}");
    }

    /// `spsc-spin` (the default-vs-spin rows) is asked for by name, threads only, and is
    /// not in the report's plan.
    #[test]
    fn spsc_spin_is_an_extra_threads_only_line() {
        assert_eq!(Kind::parse("spsc-spin"), Some(Kind::SpscSpin));
        assert!(!Config::for_report(false, &[0, 1])
            .kinds
            .contains(&Kind::SpscSpin));
        let cfg = Config {
            kinds: vec![Kind::Spsc, Kind::SpscSpin],
            ..Config::for_report(true, &[0, 1])
        };
        let names: Vec<String> = cfg.lines().into_iter().map(Line::series).collect();
        assert_eq!(
            names,
            [
                "spsc: handoff Spsc",
                "spsc: handoff Spsc (--wait spin)",
                "spsc: handoff Spsc, processes",
            ]
        );
    }

    /// Issue #40, item 7: a stop flag set during a timed block of the largest count ends
    /// every kind's stream and round trip at once, with no thread left blocked on a full or
    /// empty queue (`None`: nothing measured). Without it each run here is minutes; the
    /// watchdog (120 s for all 13 runs) fails the test instead of hanging.
    #[test]
    fn a_stop_flag_ends_a_timed_block_of_every_kind() {
        let cpus = handoff::sys::allowed_cpus().unwrap();
        if cpus.len() < 2 {
            // One CPU: a spinning side holds it for whole time slices, so the ~1000 messages
            // before the next look at the flag take seconds; the bound is not the point.
            eprintln!("SKIP: a_stop_flag_ends_a_timed_block_of_every_kind: needs two CPUs, this process may use {cpus:?}");
            return;
        }
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let cfg = Config {
                count: MAX_COUNT,
                rtt_iters: MAX_COUNT,
                reps: 1000,
                producers: 3,
                ..Config::for_report(true, &cpus[..2])
            };
            for kind in Kind::ALL {
                for mpsc in [false, true] {
                    if mpsc && kind.single_producer() {
                        continue;
                    }
                    let stop = AtomicBool::new(false);
                    let producers = if mpsc { 3 } else { 1 };
                    let t0 = std::time::Instant::now();
                    let got = std::thread::scope(|s| {
                        s.spawn(|| {
                            std::thread::sleep(std::time::Duration::from_millis(30));
                            stop.store(true, Ordering::Relaxed);
                        });
                        measure::stream_threads::<1>(&cfg, kind, producers, &stop)
                    });
                    eprintln!("{kind:?} x{producers}: stopped after {:?}", t0.elapsed());
                    assert!(matches!(got, Ok(None)), "{kind:?} x{producers}: {got:?}");
                }
                let stop = AtomicBool::new(false);
                let t0 = std::time::Instant::now();
                let got = std::thread::scope(|s| {
                    s.spawn(|| {
                        std::thread::sleep(std::time::Duration::from_millis(30));
                        stop.store(true, Ordering::Relaxed);
                    });
                    measure::rtt_threads::<1>(&cfg, kind, &stop)
                });
                eprintln!("{kind:?} round trip: stopped after {:?}", t0.elapsed());
                assert!(matches!(got, Ok(None)), "{kind:?} round trip: {got:?}");
            }
            done_tx.send(()).unwrap();
        });
        match done_rx.recv_timeout(std::time::Duration::from_secs(120)) {
            Ok(()) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                panic!("a run failed (its assertion is above)")
            }
            Err(e) => panic!("a stopped run did not end: {e}"),
        }
    }

    /// Issue #40: with /dev/shm (nearly) full, the plan is refused before anything runs,
    /// in one line saying what is needed and what is free; threads-only plans need none.
    #[test]
    fn a_full_dev_shm_is_refused_up_front() {
        let cfg = Config {
            sizes: vec![8, 1024],
            producers: 4,
            ..Config::for_report(true, &[0, 1])
        };
        assert!(cfg.processes);
        // The largest: 4 lanes of 1024 slots of 1 KiB (4 MiB of payload), more than the
        // round trip's two 1 MiB rings.
        let need = shm_need::<128>(&cfg);
        assert!((4 << 20..5 << 20).contains(&need), "{need}");
        let e = check_shm(&cfg, Some(need)).unwrap_err().to_string();
        assert!(
            e.contains("/dev/shm") && e.contains("--threads-only") && !e.contains('\n'),
            "{e}"
        );
        check_shm(&cfg, Some(need * 2)).unwrap();
        check_shm(&cfg, None).unwrap();
        let threads = Config {
            processes: false,
            ..cfg
        };
        check_shm(&threads, Some(0)).unwrap();
    }

    #[test]
    fn bad_configs_are_refused() {
        let good = Config::for_report(true, &[0, 1]);
        assert!(good.validate().is_ok());
        assert_each_refused(
            &good,
            Config::validate,
            &[
                |c| c.sizes = vec![24],
                |c| c.producers = 0,
                |c| c.count = 1,
                |c| c.kinds = vec![],
            ],
        );
    }
}

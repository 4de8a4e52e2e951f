//! Hands a counter back and forth between two processes through two [`Flag`]s in a shared
//! segment, with each wait strategy, and prints the one-way latency (median of samples) next
//! to the cache-line floor ([`handoff_probe::floor::c2c`]) measured in the same run.
//!
//! `cargo run --release -p handoff-probe --example probe_pingpong [SCALE]` — SCALE (default 1.0)
//! multiplies the number of round trips.
//!
//! The example re-executes itself as the child (`--pingpong-child ...`); it never forks.
//! With two or more allowed CPUs the parent runs on the first and the child on the second;
//! the same-CPU rows put both on the first, to show what each strategy costs there (pure
//! spinning pays a scheduler time slice per hand-off; `Adaptive` notices and blocks).

use handoff::shm::{Segment, ShmSafe};
use handoff::sync::{adaptive_stats, reset_adaptive_stats};
use handoff::sync::{Flag, Patience, Wait, Waiter};
use handoff::sys::Deadline;
use handoff_probe::clock::Clock;
use handoff_probe::floor::{c2c, C2cOptions};
use handoff_probe::proc::{die_with_parent, ChildGuard, Watchdog};
use std::error::Error;
use std::process::Command;
use std::time::Duration;

const CHILD_ARG: &str = "--pingpong-child";
/// A wait that takes longer than this is a bug (or a dead machine): give up.
const WAIT_LIMIT: Duration = Duration::from_secs(60);

/// The two flags: `ping` written by the parent, `pong` by the child.
#[repr(C)]
struct Shared {
    ping: Flag,
    pong: Flag,
}

// SAFETY: repr(C) of two `Flag`s, which are ShmSafe: pointer-free, valid when zeroed,
// shared through atomics.
unsafe impl ShmSafe for Shared {}

/// One row of the table.
struct Row {
    how: Wait,
    parent_cpu: Option<usize>,
    child_cpu: Option<usize>,
    samples: u32,
    round_trips_per_sample: u32,
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(CHILD_ARG) {
        return child(&args[2..]);
    }
    let scale: f64 = match args.get(1) {
        Some(s) => s
            .parse()
            .map_err(|_| format!("SCALE must be a number, not {s:?}"))?,
        None => 1.0,
    };
    let scaled = |n: u32| ((f64::from(n) * scale).round() as u32).max(1);

    let allowed = handoff::sys::allowed_cpus()?;
    let clock = Clock::detect();
    println!(
        "allowed CPUs {}; clock {}",
        handoff::sys::format_cpu_list(&allowed),
        clock.source().name()
    );
    let (a, b) = match allowed.as_slice() {
        [a, b, ..] => (*a, Some(*b)),
        [a] => (*a, None),
        [] => return Err("no allowed CPU".into()),
    };

    // The floor, measured now, on the same CPUs.
    let opts = C2cOptions::default();
    let cross_floor = match b {
        Some(b) => Some(c2c(a, b, &opts)?.median_one_way_ns),
        None => None,
    };
    let same_floor = c2c(
        a,
        a,
        &C2cOptions {
            round_trips_per_sample: 100,
            samples: 20,
            ..opts.clone()
        },
    )?
    .median_one_way_ns;

    let mut rows = Vec::new();
    if let Some(b) = b {
        for (how, samples, per) in [
            (Wait::Spin, 200, 1000),
            (Wait::SpinYield, 200, 1000),
            (Wait::Block, 100, 100),
            (Wait::ADAPTIVE, 200, 1000),
        ] {
            rows.push(Row {
                how,
                parent_cpu: Some(a),
                child_cpu: Some(b),
                samples: scaled(samples),
                round_trips_per_sample: per,
            });
        }
    } else {
        println!("only one CPU allowed: the cross-CPU rows are skipped");
    }
    for (how, samples, per) in [
        (Wait::SpinYield, 50, 100),
        (Wait::Block, 50, 100),
        (Wait::ADAPTIVE, 50, 100),
        // Each hand-off costs a scheduler slice: keep it tiny.
        (Wait::Spin, 3, 2),
    ] {
        rows.push(Row {
            how,
            parent_cpu: Some(a),
            child_cpu: Some(a),
            samples: scaled(samples),
            round_trips_per_sample: per,
        });
    }

    println!();
    println!(
        "{:<11} {:<9} {:>12} {:>12} {:>12} {:>7}   adaptive waits (parent side)",
        "wait", "CPUs", "one-way p50", "p10", "c2c floor", "x floor"
    );
    for row in &rows {
        let (samples, stats) = run(row, &clock)?;
        let (p10, p50) = (percentile(&samples, 0.10), percentile(&samples, 0.50));
        let same = row.parent_cpu == row.child_cpu;
        let floor = if same { Some(same_floor) } else { cross_floor };
        let cpus = format!(
            "{}{}{}",
            row.parent_cpu.map_or("-".into(), |c| c.to_string()),
            if same { "=" } else { "<>" },
            row.child_cpu.map_or("-".into(), |c| c.to_string())
        );
        let adaptive = match row.how {
            Wait::Adaptive { .. } => format!(
                "spun {} blocked {} same-cpu {} short {}",
                stats.spun, stats.blocked, stats.same_cpu, stats.short
            ),
            _ => String::new(),
        };
        println!(
            "{:<11} {:<9} {:>12} {:>12} {:>12} {:>7}   {}",
            row.how.name(),
            cpus,
            fmt_ns(p50),
            fmt_ns(p10),
            floor.map_or("-".into(), fmt_ns),
            floor.map_or("-".into(), |f| format!("{:.1}", p50 / f)),
            adaptive
        );
    }
    println!();
    println!(
        "one-way = (time of a sample of round trips) / round trips / 2; c2c floor = one cache"
    );
    println!("line bounced between the same CPUs (same CPU: two threads yielding to each other).");
    Ok(())
}

/// Runs one row: a fresh segment and child; returns the one-way samples (ns) and the parent
/// thread's adaptive-wait counts.
fn run(
    row: &Row,
    clock: &Clock,
) -> Result<(Vec<f64>, handoff::sync::AdaptiveStats), Box<dyn Error>> {
    let warmup = row.round_trips_per_sample.max(10);
    let total = u64::from(row.samples) * u64::from(row.round_trips_per_sample) + u64::from(warmup);
    let seg = Segment::create(
        &format!("pingpong-{}", row.how.name()),
        std::mem::size_of::<Shared>(),
    )?;
    seg.publish_ready();
    let sh: &Shared = seg.get(0)?;
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.arg(CHILD_ARG)
        .arg(seg.name().ok_or("segment has no name")?)
        .arg(row.how.to_string())
        .arg(total.to_string())
        .arg(row.child_cpu.map_or("-".into(), |c| c.to_string()));
    let mut child = ChildGuard::spawn(&mut cmd)?;
    let _dog = Watchdog::new([child.process_id()], Duration::from_secs(300));

    // The parent's side runs on a thread of its own, pinned.
    let how = row.how;
    let parent_cpu = row.parent_cpu;
    let (samples, stats) = std::thread::scope(|s| {
        s.spawn(|| -> Result<_, handoff::Error> {
            if let Some(cpu) = parent_cpu {
                handoff::sys::pin_current_thread(cpu)?;
            }
            let cal = clock.calibration();
            let waiter = Waiter::watching(&seg)
                .with_patience(Patience::new(how).with_timeout(Some(WAIT_LIMIT)));
            let mut i: u32 = 0;
            let round_trip = |i: &mut u32| -> Result<(), handoff::Error> {
                *i = i.wrapping_add(1);
                sh.ping.store(*i);
                let got = sh.pong.wait_change(i.wrapping_sub(1), &waiter)?;
                if got != *i {
                    return Err(handoff::Error::Sys(handoff::sys::Error::InvalidArgument(
                        format!("child answered {got}, expected {i}"),
                    )));
                }
                Ok(())
            };
            for _ in 0..warmup {
                round_trip(&mut i)?;
            }
            reset_adaptive_stats();
            let mut samples = Vec::with_capacity(row.samples as usize);
            for _ in 0..row.samples {
                let t0 = clock.now();
                for _ in 0..row.round_trips_per_sample {
                    round_trip(&mut i)?;
                }
                let t1 = clock.now();
                samples.push(cal.delta_ns(t0, t1) / f64::from(row.round_trips_per_sample) / 2.0);
            }
            Ok((samples, adaptive_stats()))
        })
        .join()
        .expect("the parent's side panicked")
    })?;
    let status = child.wait_deadline(Deadline::after(WAIT_LIMIT))?;
    if !status.is_some_and(|s| s.success()) {
        return Err(format!("child failed: {status:?}").into());
    }
    Ok((samples, stats))
}

/// The child: `--pingpong-child NAME WAIT TOTAL CPU|-`; answers `TOTAL` pings.
fn child(args: &[String]) -> Result<(), Box<dyn Error>> {
    die_with_parent()?;
    let [name, how, total, cpu] = args else {
        return Err(format!("usage: {CHILD_ARG} NAME WAIT TOTAL CPU|-").into());
    };
    let how: Wait = how.parse()?;
    let total: u64 = total.parse()?;
    if cpu != "-" {
        handoff::sys::pin_current_thread(cpu.parse()?)?;
    }
    let seg = Segment::open(name, Deadline::after(WAIT_LIMIT))?;
    let sh: &Shared = seg.get(0)?;
    let mut seen = 0u32;
    let waiter =
        Waiter::watching(&seg).with_patience(Patience::new(how).with_timeout(Some(WAIT_LIMIT)));
    for _ in 0..total {
        let v = sh.ping.wait_change(seen, &waiter)?;
        if v != seen.wrapping_add(1) {
            return Err(format!("parent sent {v} after {seen}").into());
        }
        seen = v;
        sh.pong.store(v);
    }
    Ok(())
}

fn percentile(samples: &[f64], q: f64) -> f64 {
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 100_000.0 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1_000.0 {
        format!("{:.2} us", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

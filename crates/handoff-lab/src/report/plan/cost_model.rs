//! The cost model of `handoff report --plan`: what each step of a plan is expected to take
//! (one exchange point, one c2c pair), and the estimate's formatting.

use super::Plan;
use crate::experiments::exchange::{Mode, Point};

/// The cost model of [`Plan::estimate`], fitted (least squares, each step weighted by the
/// inverse of its time) to the steps of two recorded `handoff report` runs on a 2-CPU KVM
/// guest shared with other builds, load average 3.5-3.9 (`tests/fixtures/report_steps.csv`,
/// checked by `tests/plan_calibration.rs`): the whole full run is estimated at 1.01x its
/// measured time, the quick one at 1.16x, each step of at least 0.1 s at 0.4x-2.9x.
pub mod cost {
    /// Starting the workers of one run (threads, or processes re-executed, pinned, joined)
    /// and the adjacent c2c floor of a cross-core point, seconds; single-thread runs none
    /// (fitted: 0.5-5.5 ms).
    pub const RUN_START_S: f64 = 0.005;
    /// Fixed cost of one repetition (hand-off, wake-up, timing), seconds.
    pub const REP_FIXED_S: f64 = 5e-6;
    /// What a repetition adds when producer and consumer are on different CPUs (the
    /// hand-off crosses cores; each waits for the other's CPU on a shared machine), seconds
    /// (fitted: 80 µs).
    pub const REP_CROSS_S: f64 = 80e-6;
    /// Bytes per second the producer writes and the consumer reads a block at (two passes
    /// per repetition; fitted: 9-10 GB/s).
    pub const BYTES_PER_S: f64 = 8e9;
    /// Bytes per second of flushing a block the other core then reads from memory (a
    /// cross-core flushed point; a same-core flush measured no slower than cached).
    pub const FLUSH_BYTES_PER_S: f64 = 1.2e9;
    /// Bytes per second of the copy through the kernel that `pipe` adds (one pass) and
    /// `file` adds (two: write and read back); fitted: 1.9-2.4 GB/s.
    pub const COPY_BYTES_PER_S: f64 = 2e9;
    /// `file`'s fixed cost per repetition (create, write, read, close), seconds.
    pub const FILE_REP_S: f64 = 2.1e-3;
    /// One c2c pair at the default options (110 samples of 1000 round trips of <= 1 µs,
    /// plus thread starts), seconds; measured 0.5 s at load average 7.
    pub const C2C_PAIR_S: f64 = 0.5;
    /// Writing the report's exchange part (figures as PNG and SVG, tables, pages), seconds
    /// (a whole report with 14 other experiments wrote its 118 files in under 1 s).
    pub const WRITE_S: f64 = 1.0;
    /// Writing each other experiment's figures and section, seconds.
    pub const WRITE_PER_EXPERIMENT_S: f64 = 0.1;
}

/// How long a plan is expected to take, by part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The c2c pairs.
    pub c2c_s: f64,
    /// The exchange points.
    pub exchange_s: f64,
    /// The other experiments' report plans.
    pub others_s: f64,
    /// Writing the report: figures, tables, pages.
    pub write_s: f64,
}

impl Estimate {
    /// Every part.
    pub fn total_s(&self) -> f64 {
        self.c2c_s + self.exchange_s + self.others_s + self.write_s
    }
}

impl Plan {
    /// The expected duration under the [`cost`] model: per point, `runs` runs of a worker
    /// start plus `warmup + reps` repetitions of a write and a read of the block (and a
    /// flush of it when the point flushes); per c2c pair a constant; each other experiment
    /// its measured [`crate::bench::experiment::ReportCost`]; all of it times the measured
    /// speed factor ([`Plan::speed`]); writing a constant per experiment.
    pub fn estimate(&self) -> Estimate {
        let k = self.speed;
        Estimate {
            c2c_s: k * self.c2c_pairs.len() as f64 * cost::C2C_PAIR_S,
            exchange_s: k * self.points.iter().map(point_s).sum::<f64>(),
            others_s: k * self.others.iter().map(|(_, s)| s).sum::<f64>(),
            write_s: cost::WRITE_S + self.others.len() as f64 * cost::WRITE_PER_EXPERIMENT_S,
        }
    }
}

/// One exchange point's expected duration under the [`cost`] model: `runs` runs of a worker
/// start plus `warmup + reps` repetitions of a write and a read of the block, the crossing
/// of a cross-core point and its flush when flushed, and the kernel copies of `pipe` and
/// `file`.
pub fn point_s(p: &Point) -> f64 {
    let size = p.size as f64;
    let mut rep = cost::REP_FIXED_S + 2.0 * size / cost::BYTES_PER_S;
    let cross = p.producer_core != p.consumer_core && !p.mode.is_single_thread();
    if cross {
        rep += cost::REP_CROSS_S;
    }
    if p.flush && cross {
        rep += size / cost::FLUSH_BYTES_PER_S;
    }
    match p.mode {
        Mode::Pipe => rep += size / cost::COPY_BYTES_PER_S,
        Mode::File => rep += cost::FILE_REP_S + 2.0 * size / cost::COPY_BYTES_PER_S,
        _ => {}
    }
    let start = if p.mode.is_single_thread() {
        0.0
    } else {
        cost::RUN_START_S
    };
    p.runs as f64 * (start + (p.warmup + p.reps) as f64 * rep)
}

/// `1 h 02 min`, `3 min 20 s`, `12 s`.
pub fn fmt_duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{} h {:02} min", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}

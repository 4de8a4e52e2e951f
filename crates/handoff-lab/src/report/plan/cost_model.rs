//! The cost model of `handoff report --plan`: what each step of a plan is expected to take
//! (one exchange point, one c2c pair), and the estimate's formatting.

use super::Plan;
use crate::experiments::exchange::{Mode, Point};

/// The cost model of [`Plan::estimate`], calibrated against recorded `handoff report` runs on
/// a 2-CPU KVM guest (the steps of `tests/fixtures/report_steps.csv`, checked by
/// `tests/plan_calibration.rs`). Fitted on the slow side: each step of at least 0.1 s was
/// estimated within 0.5x-4x of its measured time and both whole runs 1.3x-1.6x longer than
/// they took (the per-step spread is the machine's: shared with other builds).
pub mod cost {
    /// Starting the workers of one run (threads, or processes re-executed, pinned, joined)
    /// and the adjacent c2c floor of a cross-core point, seconds; single-thread runs none.
    pub const RUN_START_S: f64 = 0.01;
    /// Fixed cost of one repetition (hand-off, wake-up, timing), seconds.
    pub const REP_FIXED_S: f64 = 20e-6;
    /// Bytes per second the producer writes and the consumer reads a block at (two passes
    /// per repetition; measured 6-10 GB/s at 64-128 MiB here).
    pub const BYTES_PER_S: f64 = 6e9;
    /// Bytes per second of flushing a block the other core then reads from memory (a
    /// cross-core flushed point; a same-core flush measured no slower than cached).
    pub const FLUSH_BYTES_PER_S: f64 = 1e9;
    /// Bytes per second of the copy through the kernel that `pipe` adds (one pass) and
    /// `file` adds (two: write and read back).
    pub const COPY_BYTES_PER_S: f64 = 1.5e9;
    /// `file`'s fixed cost per repetition (create, write, read, close), seconds.
    pub const FILE_REP_S: f64 = 2.5e-3;
    /// One c2c pair at the default options (110 samples of 1000 round trips of <= 1 µs,
    /// plus thread starts), seconds; a pair took under 0.05 s here.
    pub const C2C_PAIR_S: f64 = 0.2;
}

/// How long a plan is expected to take, by part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The c2c pairs.
    pub c2c_s: f64,
    /// The exchange points.
    pub exchange_s: f64,
}

impl Estimate {
    /// Both parts.
    pub fn total_s(&self) -> f64 {
        self.c2c_s + self.exchange_s
    }
}

impl Plan {
    /// The expected duration under the [`cost`] model: per point, `runs` runs of a worker
    /// start plus `warmup + reps` repetitions of a write and a read of the block (and a
    /// flush of it when the point flushes); per c2c pair a constant. The other
    /// experiments `report` runs are not included.
    pub fn estimate(&self) -> Estimate {
        Estimate {
            c2c_s: self.c2c_pairs.len() as f64 * cost::C2C_PAIR_S,
            exchange_s: self.points.iter().map(point_s).sum(),
        }
    }
}

/// One exchange point's expected duration under the [`cost`] model: `runs` runs of a worker
/// start plus `warmup + reps` repetitions of a write and a read of the block, the flush of
/// a cross-core flushed point, and the kernel copies of `pipe` and `file`.
pub fn point_s(p: &Point) -> f64 {
    let size = p.size as f64;
    let mut rep = cost::REP_FIXED_S + 2.0 * size / cost::BYTES_PER_S;
    if p.flush && p.producer_core != p.consumer_core {
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

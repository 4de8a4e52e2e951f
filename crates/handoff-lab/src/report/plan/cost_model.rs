//! The cost model of `handoff report --plan`: what each step of a plan is expected to take
//! (one exchange point, one c2c pair), and the estimate's formatting.

use super::Plan;
use crate::experiments::exchange::Point;

/// The cost model of [`Plan::estimate`]: what one worker start, one repetition and one c2c
/// pair take. Deliberately on the slow side of a current server (a plan that finishes
/// early is fine; one that runs twice as long as announced is not).
pub mod cost {
    /// Starting the worker processes of one run (spawn, pin, map, join), seconds.
    pub const RUN_START_S: f64 = 0.05;
    /// Fixed cost of one repetition (handoff, wake-up, timing), seconds.
    pub const REP_FIXED_S: f64 = 20e-6;
    /// Bytes per second one side writes or reads a block at (conservative, cross-socket).
    pub const BYTES_PER_S: f64 = 4e9;
    /// One c2c pair at the default options (110 samples of 1000 round trips of <= 1 µs,
    /// plus thread starts), seconds.
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
/// start plus `warmup + reps` repetitions of a write and a read of the block (and a flush of
/// it when the point flushes).
pub fn point_s(p: &Point) -> f64 {
    let passes = if p.flush { 3.0 } else { 2.0 };
    let rep = cost::REP_FIXED_S + passes * p.size as f64 / cost::BYTES_PER_S;
    p.runs as f64 * (cost::RUN_START_S + (p.warmup + p.reps) as f64 * rep)
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

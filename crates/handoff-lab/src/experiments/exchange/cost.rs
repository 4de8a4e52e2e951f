//! The exchange's cost model: what one point of its report plan is expected to take
//! (`handoff report --plan`'s estimate, scaled by the measured speed), fitted (least
//! squares, each step weighted by the inverse of its time) to the steps of two recorded
//! `handoff report` runs on a 2-CPU KVM guest shared with other builds, load average 3.5-3.9
//! (`tests/fixtures/report_steps.csv`, checked by `tests/plan_calibration.rs`): the whole
//! full run is estimated at 1.01x its measured time, the quick one at 1.16x, each step of
//! at least 0.1 s at 0.4x-2.9x.

use super::{Mode, Point};

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

/// One exchange point's expected duration under this model: `runs` runs of a worker
/// start plus `warmup + reps` repetitions of a write and a read of the block, the crossing
/// of a cross-core point and its flush when flushed, and the kernel copies of `pipe` and
/// `file`.
pub fn point_s(p: &Point) -> f64 {
    let size = p.size as f64;
    let mut rep = REP_FIXED_S + 2.0 * size / BYTES_PER_S;
    let cross = p.producer_core != p.consumer_core && !p.mode.is_single_thread();
    if cross {
        rep += REP_CROSS_S;
    }
    if p.flush && cross {
        rep += size / FLUSH_BYTES_PER_S;
    }
    match p.mode {
        Mode::Pipe => rep += size / COPY_BYTES_PER_S,
        Mode::File => rep += FILE_REP_S + 2.0 * size / COPY_BYTES_PER_S,
        _ => {}
    }
    let start = if p.mode.is_single_thread() {
        0.0
    } else {
        RUN_START_S
    };
    p.runs as f64 * (start + (p.warmup + p.reps) as f64 * rep)
}

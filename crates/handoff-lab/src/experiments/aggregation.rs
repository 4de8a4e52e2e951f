//! `aggregation` (many-core seed 004, Finding 1): small messages packed into frames by
//! [`handoff::queue::Aggregator`] and unpacked in place by the receiver; messages/s and
//! latency (median, p99, p99.9) for every message size × frame size, between two threads.
//!
//! The producer streams as fast as the queue takes messages (full load; a frame is sent when
//! full, or 100 µs after its first message); every 8th message carries its send time
//! (CLOCK_MONOTONIC) and the receiver takes its latency on unpacking, so a latency includes
//! the wait for the frame to fill and the frames queued ahead of it in the 64 KiB ring. The
//! frame size of one message is the unaggregated baseline. Every message's sequence number
//! and bytes are checked.

use std::time::{Duration, Instant};

use handoff::queue::{Aggregator, FrameQueue, QueueError};
use handoff::sys::monotonic_ns;

use super::rt_common::{pattern, quantile, SECTION};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::at_least;
use crate::bench::{BenchRecord, BenchResults, Checks, Finding};
use crate::stats::distinct;

const NAME: &str = "aggregation";
/// Bytes of the ring between the two threads.
const RING: usize = 64 << 10;
/// Every `LAT_EVERY`-th message carries a timestamp.
const LAT_EVERY: u64 = 8;
/// Bytes an aggregated message takes: a 4-byte length and the message padded to 4.
pub fn record_len(msg: usize) -> usize {
    4 + msg.next_multiple_of(4)
}

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Aggregation: message size × frame size",
    section: SECTION,
    seed: "Zhang & Jung, communication on many-core accelerators (seed 004), Finding 1",
    what: "A producer thread streams small messages through handoff's Aggregator (frames sent \
           when full or 100 µs after their first message) into a 64 KiB frame ring; the \
           consumer unpacks them in place. Messages/s and per-message latency (send to unpack, \
           full load: includes the wait for the frame to fill and the queue ahead) against \
           the frame size, one line per message size; the smallest frame holds one message \
           (no aggregation). Sequence numbers and bytes of every message are checked.",
    figures: &[
        FigureSpec {
            id: "aggregation-throughput",
            title: "Aggregation: messages/s vs frame size (one line per message size)",
            metric: "msgs_per_s",
            x_label: "frame size",
            ..FigureSpec::vs_size("", "", "")
        },
        FigureSpec {
            id: "aggregation-p99",
            title: "Aggregation: p99 latency (µs) vs frame size",
            metric: "lat_p99_us",
            x_label: "frame size",
            ..FigureSpec::vs_size("", "", "")
        },
    ],
    findings,
    run: Some(|ctx| run(&Config::for_report(ctx.quick, ctx.allowed_cpus), ctx)),
    worker: None,
    report_cost: ReportCost::fixed(8.4, 0.5),
    draw: None,
    report: None,
};

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    /// Message sizes in bytes (16 to 4096: a sequence number and a timestamp).
    pub msg_sizes: Vec<usize>,
    /// Frame sizes in bytes; those too small for one message are skipped, and one frame of
    /// exactly one message (the baseline) is always measured.
    pub frame_sizes: Vec<usize>,
    /// Messages per timed block.
    pub count: u64,
    /// Timed blocks per run (after one warm-up block).
    pub reps: u64,
    /// Runs (fresh threads each).
    pub runs: u64,
    /// CPUs: the consumer on the first, the producer on the second (or the first).
    pub cpus: Vec<usize>,
}

impl Config {
    /// The report's plan: 16, 64 and 128-byte messages, frames of 64 B … 4 KiB.
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        Config {
            msg_sizes: if quick {
                vec![16, 64]
            } else {
                vec![16, 64, 128]
            },
            frame_sizes: if quick {
                vec![128, 512, 2048]
            } else {
                vec![64, 128, 256, 512, 1024, 2048, 4096]
            },
            count: if quick { 50_000 } else { 200_000 },
            reps: if quick { 3 } else { 5 },
            runs: if quick { 2 } else { 3 },
            cpus: cpus.to_vec(),
        }
    }

    /// The frame sizes measured for `msg`: one message, then every configured size that
    /// holds at least two.
    pub fn frames_for(&self, msg: usize) -> Vec<usize> {
        let one = record_len(msg);
        let bigger = self.frame_sizes.iter().copied().filter(|&f| f >= 2 * one);
        distinct(std::iter::once(one).chain(bigger))
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.msg_sizes.is_empty() || self.msg_sizes.iter().any(|&m| !(16..=4096).contains(&m)) {
            return Err(bad(
                "--msg-sizes: 16 B to 4 KiB each (a sequence number and a timestamp)".into(),
            ));
        }
        if self.frame_sizes.iter().any(|&f| f == 0 || f > RING / 4) {
            return Err(bad(format!(
                "--frame-sizes: 1 B to {} each (a quarter of the ring)",
                RING / 4
            )));
        }
        if self.count == 0 || self.reps == 0 || self.runs == 0 {
            return Err(bad("--count, --reps and --runs must be at least 1".into()));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on".into()));
        }
        Ok(())
    }
}

/// One run's samples: messages/s per timed block, and latencies in µs of the timed blocks.
#[derive(Default)]
struct RunOut {
    rates: Vec<f64>,
    lat_us: Vec<f64>,
    /// Messages checked (length, sequence number, payload).
    checked: u64,
    /// Messages that failed the check, plus malformed or empty frames.
    wrong: u64,
}

fn producer(
    tx: handoff::queue::FrameProducer,
    msg: usize,
    frame: usize,
    total: u64,
) -> Result<(), QueueError> {
    let mut agg = Aggregator::new(tx, frame, Some(Duration::from_micros(100)))?;
    let mut buf = vec![0u8; msg];
    for (i, b) in buf.iter_mut().enumerate().skip(16) {
        *b = pattern(0, i);
    }
    // The timeout costs a clock read only when a push has to wait for room.
    for seq in 0..total {
        buf[..8].copy_from_slice(&seq.to_le_bytes());
        let ts = if seq.is_multiple_of(LAT_EVERY) {
            monotonic_ns()
        } else {
            0
        };
        buf[8..16].copy_from_slice(&ts.to_le_bytes());
        agg.push_timeout(&buf, Duration::from_secs(30))?;
    }
    agg.flush();
    Ok(())
}

fn one_run(cfg: &Config, msg: usize, frame: usize) -> Result<RunOut, BenchError> {
    let (tx, mut rx) = FrameQueue::new(RING).map_err(|e| BenchError::failed(NAME, e))?;
    let blocks = cfg.reps + 1;
    let total = cfg.count * blocks;
    let (pcpu, ccpu) = (cfg.cpus[1 % cfg.cpus.len()], cfg.cpus[0]);
    std::thread::scope(|s| {
        // A producer that fails drops its end: the consumer then gets `Closed`, not a hang.
        let h = s.spawn(move || {
            super::rt_common::pin(pcpu);
            producer(tx, msg, frame, total)
        });
        let c = s.spawn(move || -> Result<RunOut, QueueError> {
            super::rt_common::pin(ccpu);
            let mut out = RunOut::default();
            let mut seq = 0u64;
            let mut mark: Option<Instant> = None;
            while seq < total {
                let f = rx.recv_timeout(Duration::from_secs(30))?;
                let now = monotonic_ns();
                let mut ms = f.messages();
                for m in ms.by_ref() {
                    let got = u64::from_le_bytes(m[..8].try_into().unwrap_or_default());
                    let ts = u64::from_le_bytes(m[8..16].try_into().unwrap_or_default());
                    let ok = m.len() == msg
                        && got == seq
                        && m[16..]
                            .iter()
                            .enumerate()
                            .all(|(i, &b)| b == pattern(0, i + 16));
                    out.checked += 1;
                    out.wrong += u64::from(!ok);
                    if seq.is_multiple_of(LAT_EVERY) && seq >= cfg.count {
                        out.lat_us.push(now.saturating_sub(ts) as f64 / 1e3);
                    }
                    seq += 1;
                    if seq.is_multiple_of(cfg.count) {
                        let t = Instant::now();
                        if let Some(m0) = mark {
                            out.rates
                                .push(cfg.count as f64 / t.duration_since(m0).as_secs_f64());
                        }
                        mark = Some(t);
                    }
                }
                // A frame with no message in it is never sent by the aggregator.
                let empty = f.messages().next().is_none();
                out.wrong += u64::from(ms.is_malformed()) + u64::from(empty);
            }
            Ok(out)
        });
        let out = c
            .join()
            .map_err(|_| BenchError::failed(NAME, "the consumer thread panicked"))?
            .map_err(|e| BenchError::failed(NAME, e))?;
        h.join()
            .map_err(|_| BenchError::failed(NAME, "the producer thread panicked"))?
            .map_err(|e| BenchError::failed(NAME, e))?;
        Ok(out)
    })
}

/// Runs `cfg`; stops early (partial) on `ctx.cancel`.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let points: Vec<(usize, usize)> = cfg
        .msg_sizes
        .iter()
        .flat_map(|&m| cfg.frames_for(m).into_iter().map(move |f| (m, f)))
        .collect();
    let mut res = ctx.run_points(NAME, cfg, &points, |_, res, &(msg, frame)| {
        let (mut rates, mut p50, mut p99, mut p999) = (vec![], vec![], vec![], vec![]);
        let mut checks = Checks::of("messages");
        for _ in 0..cfg.runs {
            let mut o = one_run(cfg, msg, frame)?;
            checks.add(o.checked, o.wrong);
            o.lat_us.sort_by(f64::total_cmp);
            p50.push(vec![quantile(&o.lat_us, 0.5)]);
            p99.push(vec![quantile(&o.lat_us, 0.99)]);
            p999.push(vec![quantile(&o.lat_us, 0.999)]);
            rates.push(o.rates);
        }
        let per_frame = frame / record_len(msg);
        res.records.push(
            BenchRecord::new(
                format!("{msg} B messages"),
                frame as f64,
                cfg.runs,
                cfg.reps,
                false,
            )
            .checked(checks)
            .param("msg_bytes", msg)
            .param("frame_bytes", frame)
            .param("per_frame", per_frame)
            .metric("msgs_per_s", metric(NAME, "msg/s", true, &rates)?)
            .metric("lat_p50_us", metric(NAME, "µs", false, &p50)?)
            .metric("lat_p99_us", metric(NAME, "µs", false, &p99)?)
            .metric("lat_p999_us", metric(NAME, "µs", false, &p999)?),
        );
        Ok(Some(format!("{msg} B in {frame} B frames")))
    })?;
    for &msg in &cfg.msg_sizes {
        if let Some(f) = sweet_spot(&res, msg) {
            res.notes.push(format!(
                "{msg} B messages: throughput stops rising (next frame size gains < 10%) at {f} B frames"
            ));
        }
    }
    Ok(res)
}

/// The smallest frame size of `msg` after which the next measured frame size raises the
/// mean messages/s by less than 10% (the last one when every step gains).
pub fn sweet_spot(res: &BenchResults, msg: usize) -> Option<usize> {
    let pts: Vec<(f64, f64)> = res
        .series(&format!("{msg} B messages"))
        .iter()
        .filter_map(|r| r.metrics.get("msgs_per_s").map(|m| (r.x, m.summary.mean)))
        .collect();
    let first = pts
        .windows(2)
        .find(|w| w[1].1 < 1.1 * w[0].1)
        .map(|w| w[0].0);
    first.or(pts.last().map(|p| p.0)).map(|x| x as usize)
}

/// Finding 1: aggregating small messages up to 512 B raises throughput without raising
/// latency. Judged for the smallest message size at the frame size nearest 512 B, against
/// one message per frame.
fn findings(res: &BenchResults) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(msg) = res
        .records
        .iter()
        .filter_map(|r| r.param_f64("msg_bytes"))
        .min_by(f64::total_cmp)
    else {
        return out;
    };
    let line = res.series(&format!("{msg} B messages"));
    let (Some(base), Some(agg)) = (
        line.first(),
        line.iter().min_by(|a, b| {
            (a.x.log2() - 9.0)
                .abs()
                .total_cmp(&(b.x.log2() - 9.0).abs())
        }),
    ) else {
        return out;
    };
    if base.x == agg.x {
        return out;
    }
    let runs = |r: &BenchRecord, m: &str| r.metrics.get(m).map_or(vec![], |m| m.run_means.clone());
    out.push(at_least(
        &format!(
            "aggregating {msg} B messages into {} B frames raises throughput (seed: up to 512 B)",
            agg.x
        ),
        &format!(
            "messages/s with {} B frames / with one message per frame",
            agg.x
        ),
        &runs(agg, "msgs_per_s"),
        &runs(base, "msgs_per_s"),
        1.0,
    ));
    out.push(at_least(
        &format!("…without raising the p99 latency ({msg} B messages, {} B frames vs one per frame, full load)", agg.x),
        "p99 latency one per frame / aggregated",
        &runs(base, "lat_p99_us"),
        &runs(agg, "lat_p99_us"),
        1.0,
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_and_records_by_hand() {
        assert_eq!(record_len(16), 20);
        assert_eq!(record_len(17), 24);
        let cfg = Config::for_report(false, &[0, 1]);
        // 64 B messages take 68 B: 68 alone, then frames that hold at least two.
        assert_eq!(cfg.frames_for(64), vec![68, 256, 512, 1024, 2048, 4096]);
        assert_eq!(
            cfg.frames_for(16),
            vec![20, 64, 128, 256, 512, 1024, 2048, 4096]
        );
        assert!(Config {
            msg_sizes: vec![8],
            ..cfg.clone()
        }
        .validate()
        .is_err());
        assert!(Config {
            frame_sizes: vec![1 << 20],
            ..cfg.clone()
        }
        .validate()
        .is_err());
    }

    #[test]
    fn a_run_checks_every_message() {
        let cfg = Config {
            count: 3000,
            reps: 2,
            ..Config::for_report(true, &[0])
        };
        let o = one_run(&cfg, 24, 256).unwrap();
        assert!(
            o.checked > 0 && o.wrong == 0,
            "{} checked, {} wrong",
            o.checked,
            o.wrong
        );
        assert_eq!(o.rates.len(), 2);
        // Every 8th message of the 2 timed blocks: 6000 / 8.
        assert_eq!(o.lat_us.len(), 750);
    }

    #[test]
    fn sweet_spot_is_where_gains_fall_under_ten_percent() {
        let mut res = BenchResults::empty(NAME);
        for (x, rate) in [
            (20.0, 1.0e6),
            (64.0, 2.0e6),
            (128.0, 3.0e6),
            (256.0, 3.2e6),
            (512.0, 3.3e6),
        ] {
            let m = crate::bench::MetricRecord::from_runs("msg/s", true, &[vec![rate]]).unwrap();
            res.records
                .push(BenchRecord::new("16 B messages", x, 1, 1, true).metric("msgs_per_s", m));
        }
        // 128 → 256 gains 6.7% (< 10%): the sweet spot is 128.
        assert_eq!(sweet_spot(&res, 16), Some(128));
    }
}

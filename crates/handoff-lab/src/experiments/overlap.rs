//! `overlap` (foMPI, seed 001, the seed's method): how much of a non-blocking put's time a
//! computation placed between the put and its completion can hide. Rank 0 measures the
//! put's latency alone (`put_nbi` + `quiet`, t_op), calibrates a compute loop slightly
//! longer (1.1 × t_op, t_comp), then times put_nbi, the loop, quiet (t_both). The overlapped
//! ratio is `(t_op + t_comp − t_both) / t_op`, clamped to 0..1: 1 = fully hidden, 0 = none.
//!
//! On one node a put is a `memcpy` done by the issuing CPU before `put_nbi` returns, so
//! nothing can overlap it: this experiment expects ≈ 0 here and says so (foMPI overlaps
//! because a NIC moves the data). Verification: PE 1 checks the last put's bytes.

use std::hint::black_box;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use handoff::team::Team;

use super::team_worker::{self, Outcome};
use crate::bench::experiment::{BenchError, ExperimentInfo, FigureSpec, RunCtx};
use crate::bench::{BenchRecord, BenchResults, Checks, MetricRecord};

/// The registry name.
pub const NAME: &str = "overlap";
/// The metric.
pub const METRIC: &str = "overlap_ratio";

/// The registry entry.
pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Communication/computation overlap of put_nbi",
    section: "RMA synchronization (foMPI)",
    seed: "Gerstenberger, Besta, Hoefler, foMPI (seed 001): overlap",
    what: "The seed's method: a compute loop calibrated to 1.1× the latency of put_nbi + quiet \
           placed between the put and its quiet; overlapped ratio = (t_op + t_comp − t_both) / \
           t_op per repetition (0 = nothing hidden, 1 = all). PE 1 checks the last put's bytes.",
    figures: &[FigureSpec {
        id: "overlap",
        title: "overlap of put_nbi with computation vs size",
        metric: METRIC,
        x_label: "message size",
        x_is_size: true,
        log_x: true,
        log_y: false,
        floor: false,
        series_prefix: "",
    }],
    findings: crate::bench::experiment::no_findings,
    run: Some(run_for_report),
    worker: Some(worker),
    report_time: "under 1 s on 2 CPUs (quick under 1 s)",
};

/// What to run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    /// Put sizes in bytes.
    pub sizes: Vec<usize>,
    /// Repetitions per run (each: put alone, compute alone, both; averaged over `inner`).
    pub reps: u64,
    /// Operations averaged per timing.
    pub inner: u64,
    /// Runs (a fresh team each).
    pub runs: u64,
    /// Corrupt the last put (tests that verification catches it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fault: bool,
}

impl Config {
    /// 64 B … 1 MiB (quick: 4 KiB, 256 KiB).
    pub fn for_report(quick: bool) -> Config {
        Config {
            sizes: if quick {
                vec![4 << 10, 256 << 10]
            } else {
                vec![64, 4 << 10, 64 << 10, 256 << 10, 1 << 20]
            },
            reps: if quick { 4 } else { 10 },
            inner: 50,
            runs: if quick { 2 } else { 3 },
            fault: false,
        }
    }

    /// Checks the configuration.
    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::Usage {
            experiment: NAME,
            message: m,
        };
        if self.sizes.is_empty() || self.sizes.iter().any(|&s| !(1..=(16 << 20)).contains(&s)) {
            return Err(bad("--sizes needs byte counts from 1 to 16 MiB".into()));
        }
        if self.reps == 0 || self.inner == 0 || self.runs == 0 {
            return Err(bad("--reps and --runs must be at least 1".into()));
        }
        Ok(())
    }
}

/// The overlapped ratio of one repetition (the seed's formula), clamped to 0..1.
pub fn overlap_ratio(t_op: f64, t_comp: f64, t_both: f64) -> f64 {
    if t_op <= 0.0 {
        return 0.0;
    }
    ((t_op + t_comp - t_both) / t_op).clamp(0.0, 1.0)
}

/// Runs `cfg`.
pub fn run(ctx: &mut RunCtx<'_>, cfg: &Config) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let config = serde_json::to_value(cfg).unwrap_or_default();
    let mut res = BenchResults::new(NAME, ctx.machine.clone(), ctx.tool.clone(), config);
    let started = Instant::now();
    ctx.progress.begin(cfg.sizes.len(), NAME);
    for (i, &size) in cfg.sizes.iter().enumerate() {
        if ctx.cancel.load(Ordering::Relaxed) {
            res.partial = true;
            res.stopped_early = Some(format!(
                "interrupted after {i} of {} sizes",
                cfg.sizes.len()
            ));
            break;
        }
        let args = [
            size.to_string(),
            cfg.reps.to_string(),
            cfg.inner.to_string(),
            if cfg.fault { "1" } else { "0" }.to_string(),
        ];
        let mut per_run = Vec::new();
        let mut checks = Checks::of("bytes");
        for _ in 0..cfg.runs {
            let o = team_worker::run(ctx, NAME, 2, "put-nbi", &args, Duration::from_secs(120))?;
            checks.add(o.checked, o.wrong.max(u64::from(!o.verified)));
            per_run.push(o.samples_us);
        }
        let m =
            MetricRecord::from_runs("ratio", true, &per_run).map_err(|e| BenchError::Failed {
                experiment: NAME,
                message: e.to_string(),
            })?;
        res.records.push(
            BenchRecord::new("put-nbi", size as f64, cfg.runs, cfg.reps, false)
                .checked(checks)
                .param("bytes", size)
                .metric(METRIC, m),
        );
        ctx.progress.advance(&format!("{size} B"));
    }
    ctx.progress.end();
    res.notes.push(
        "on one node put_nbi copies the data before it returns (no NIC to hand it to), so \
         the expected overlap is 0: computation cannot hide a copy the same CPU makes"
            .into(),
    );
    res.elapsed_s = Some(started.elapsed().as_secs_f64());
    Ok(res)
}

fn run_for_report(ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    run(ctx, &Config::for_report(ctx.quick))
}

fn failed(e: impl std::fmt::Display) -> BenchError {
    BenchError::Failed {
        experiment: NAME,
        message: format!("PE: {e}"),
    }
}

/// A compute loop of `n` steps (not optimized away).
fn compute(n: u64) -> u64 {
    let mut x = 0x9E37_79B9u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    x
}

/// `handoff __worker overlap SIZE REPS INNER FAULT`; rank 0's "samples" are ratios.
fn worker(args: &[String]) -> Result<(), BenchError> {
    let usage = || BenchError::Usage {
        experiment: NAME,
        message: format!("worker arguments SIZE REPS INNER FAULT, got {args:?}"),
    };
    let [size, reps, inner, fault] = args else {
        return Err(usage());
    };
    let size: usize = size.parse().map_err(|_| usage())?;
    let reps: u64 = reps.parse().map_err(|_| usage())?;
    let inner: u64 = inner.parse().map_err(|_| usage())?;
    let team = Team::from_env().map_err(failed)?;
    team.set_timeout(Some(Duration::from_secs(60)));
    let body = || -> Result<Outcome, handoff::team::TeamError> {
        let dst = team.alloc::<u8>(size)?;
        // [bytes wrong, bytes checked], summed on rank 0.
        let bad = team.alloc::<u64>(2)?;
        let mut src: Vec<u8> = (0..size).map(|i| (i * 7) as u8).collect();
        let mut samples = Vec::new();
        team.barrier_all()?;
        if team.rank() == 0 {
            let time = |f: &mut dyn FnMut() -> Result<(), handoff::team::TeamError>| {
                let t0 = Instant::now();
                for _ in 0..inner {
                    f()?;
                }
                Ok::<f64, handoff::team::TeamError>(t0.elapsed().as_secs_f64() / inner as f64)
            };
            // Calibrate: steps per second of the loop, then 1.1 × t_op worth of steps.
            let t0 = Instant::now();
            black_box(compute(1 << 20));
            let step_s = t0.elapsed().as_secs_f64() / f64::from(1 << 20);
            for rep in 0..=reps {
                let t_op = time(&mut || {
                    team.put_nbi(&dst, 0, &src, 1)?;
                    team.quiet();
                    Ok(())
                })?;
                let n = ((1.1 * t_op / step_s) as u64).max(1);
                let t_comp = time(&mut || {
                    black_box(compute(n));
                    Ok(())
                })?;
                if fault == "1" && rep == reps {
                    src[0] ^= 1;
                }
                let t_both = time(&mut || {
                    team.put_nbi(&dst, 0, &src, 1)?;
                    black_box(compute(n));
                    team.quiet();
                    Ok(())
                })?;
                if rep > 0 {
                    samples.push(overlap_ratio(t_op, t_comp, t_both));
                }
            }
        }
        team.barrier_all()?;
        if team.rank() == 1 {
            let got = team.local(&dst);
            let wrong = got
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b != (i * 7) as u8)
                .count() as u64;
            team.atomic_add(bad.at(1), got.len() as u64, 0)?;
            if wrong > 0 {
                team.atomic_add(bad, wrong, 0)?;
            }
        }
        team.barrier_all()?;
        Ok(Outcome {
            samples_us: samples,
            verified: team.local_atomic(&bad)[0].load(Ordering::Acquire) == 0,
            checked: team.local_atomic(&bad)[1].load(Ordering::Acquire),
            wrong: team.local_atomic(&bad)[0].load(Ordering::Acquire),
        })
    };
    let out = body().map_err(failed)?;
    if team.rank() == 0 {
        team_worker::print(&out);
    }
    team.finalize().map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_ratio_by_hand() {
        // t_op 10, t_comp 11: all hidden → t_both 11 → (10 + 11 − 11) / 10 = 1.
        assert_eq!(overlap_ratio(10.0, 11.0, 11.0), 1.0);
        // none hidden → t_both 21 → 0; half → 16 → 0.5.
        assert_eq!(overlap_ratio(10.0, 11.0, 21.0), 0.0);
        assert_eq!(overlap_ratio(10.0, 11.0, 16.0), 0.5);
        // slower than serial (noise) clamps to 0.
        assert_eq!(overlap_ratio(10.0, 11.0, 30.0), 0.0);
        Config::for_report(true).validate().unwrap();
        let mut c = Config::for_report(false);
        c.sizes = vec![0];
        assert!(c.validate().is_err());
    }
}

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
use std::time::{Duration, Instant};

use handoff::team::{Team, TeamError, Transport};
use serde::{Deserialize, Serialize};

use super::launcher;
use super::team_config::TeamConfig;
use super::team_run::{self, PeOutput, TeamSpec};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::BenchResults;

pub const NAME: &str = "overlap";
pub const METRIC: &str = "overlap_ratio";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Communication/computation overlap of put_nbi",
    section: "RMA synchronization (foMPI)",
    seed: "Gerstenberger, Besta, Hoefler, foMPI (seed 001): overlap",
    what: "The seed's method: a compute loop calibrated to 1.1× the latency of put_nbi + quiet \
           placed between the put and its quiet; overlapped ratio = (t_op + t_comp − t_both) / \
           t_op per repetition (0 = nothing hidden, 1 = all). PE 1 checks the last put's bytes.",
    figures: &[FigureSpec {
        log_y: false,
        ..FigureSpec::vs_size(
            "overlap",
            "overlap of put_nbi with computation vs size",
            METRIC,
        )
    }],
    findings: crate::bench::experiment::no_findings,
    run: Some(|ctx| run(ctx, &Config::for_report(ctx.quick))),
    worker: Some(launcher::worker_main::<WorkerSpec>),
    report_cost: ReportCost::fixed(2.2, 0.5),
    draw: None,
    report: None,
};

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    /// Put sizes in bytes.
    pub sizes: Vec<usize>,
    /// Repetitions per run (each: put alone, compute alone, both; averaged over `inner`).
    pub reps: u64,
    /// Operations averaged per timing.
    pub inner: u64,
    /// Runs, the PEs' wait, the transports and the fault: corrupt the last put (tests that
    /// verification catches it).
    #[serde(flatten)]
    pub team: TeamConfig<bool>,
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
            team: TeamConfig::plan(if quick { 2 } else { 3 }, false),
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.sizes.is_empty() || self.sizes.iter().any(|&s| !(1..=(16 << 20)).contains(&s)) {
            return Err(bad("--sizes needs byte counts from 1 to 16 MiB".into()));
        }
        if self.reps == 0 || self.inner == 0 || self.team.runs == 0 {
            return Err(bad("--reps and --runs must be at least 1".into()));
        }
        self.team.check(NAME)
    }
}

/// The overlapped ratio of one repetition (the seed's formula), clamped to 0..1.
pub fn overlap_ratio(t_op: f64, t_comp: f64, t_both: f64) -> f64 {
    if t_op <= 0.0 {
        return 0.0;
    }
    ((t_op + t_comp - t_both) / t_op).clamp(0.0, 1.0)
}

pub fn run(ctx: &mut RunCtx<'_>, cfg: &Config) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    cfg.team.wait_for(NAME, [2], ctx.allowed_cpus)?;
    let mut res = ctx.run_points(NAME, cfg, &cfg.sizes, |ctx, res, &size| {
        let spec = WorkerSpec {
            size,
            reps: cfg.reps,
            inner: cfg.inner,
            fault: cfg.team.fault,
        };
        let team = TeamSpec {
            heap: size + (1 << 20),
            ..TeamSpec::new(ctx, NAME, &spec, 2, format!("put-nbi {size} B"))
        };
        cfg.team.point(ctx, res, team, "bytes", |runs, _| {
            Ok(runs
                .record("put-nbi", size as f64, cfg.reps)
                .param("bytes", size)
                .metric(METRIC, metric(NAME, "ratio", true, &runs.per_run)?))
        })
    })?;
    res.notes.push(
        "on one node put_nbi copies the data before it returns (no NIC to hand it to), so \
         the expected overlap is 0: computation cannot hide a copy the same CPU makes"
            .into(),
    );
    Ok(res)
}

/// A compute loop of `n` steps (not optimized away).
fn compute(n: u64) -> u64 {
    let mut x = 0x9E37_79B9u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    x
}

/// What one PE of an overlap team runs (`handoff __worker overlap SPEC`); rank 0's samples
/// are ratios.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerSpec {
    /// Bytes per put.
    pub size: usize,
    /// Timed repetitions (after one warm-up).
    pub reps: u64,
    /// Operations averaged per timing.
    pub inner: u64,
    /// Corrupt the last put.
    pub fault: bool,
}

team_run::pe_body!(WorkerSpec, pe_main, Duration::from_secs(60));

/// Rank 0 measures; PE 1 checks the last put's bytes (as msgrate's do).
fn pe_main<X: Transport>(team: &Team<X>, spec: &WorkerSpec) -> Result<PeOutput, TeamError> {
    let (size, reps, inner) = (spec.size, spec.reps, spec.inner);
    let dst = team.alloc::<u8>(size)?;
    let mut src: Vec<u8> = (0..size).map(|i| (i * 7) as u8).collect();
    let mut samples = Vec::new();
    team.barrier_all()?;
    if team.rank() == 0 {
        let time = |f: &mut dyn FnMut() -> Result<(), TeamError>| {
            let t0 = Instant::now();
            for _ in 0..inner {
                f()?;
            }
            Ok::<f64, TeamError>(t0.elapsed().as_secs_f64() / inner as f64)
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
            if spec.fault && rep == reps {
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
    super::msgrate::pe1_counts(team, &dst, samples, |i| (i * 7) as u8)
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

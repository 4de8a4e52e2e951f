//! `msgrate` (foMPI, seed 001): the cost of starting one operation — rank 0 issues `puts`
//! non-blocking puts of b bytes to PE 1 with no synchronization between them, then one
//! `quiet` completes them all; ns per put against b, and the same with blocking puts. The
//! model `a + b·x` (x in bytes) splits the per-put overhead from the per-byte cost.
//!
//! Verification: each put carries a pattern of (repetition, put index); after the last
//! `quiet` and a barrier PE 1 checks its buffer holds the last put's pattern exactly.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use handoff::team::Team;

use super::team_worker::{self, Outcome};
use crate::bench::experiment::{BenchError, ExperimentInfo, FigureSpec, RunCtx};
use crate::bench::models::ModelForm;
use crate::bench::{BenchRecord, BenchResults, Checks, MetricRecord};

/// The registry name.
pub const NAME: &str = "msgrate";
/// The metric.
pub const METRIC: &str = "put_ns";

/// The registry entry.
pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Message rate: the cost of starting one put",
    section: "RMA synchronization (foMPI)",
    seed: "Gerstenberger, Besta, Hoefler, foMPI (seed 001): message rate",
    what: "ns per put of rank 0 issuing a batch of puts of b bytes to PE 1 with no \
           synchronization between them and one quiet at the end (put_nbi), and the same \
           with blocking puts; PE 1 checks the last put's pattern byte for byte.",
    figures: &[FigureSpec::vs_size(
        "msgrate",
        "message rate: ns per put vs size",
        METRIC,
    )],
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
    /// Puts per batch (one quiet per batch).
    pub puts: u64,
    /// Timed batches per run (after one warm-up).
    pub reps: u64,
    /// Runs (a fresh team each).
    pub runs: u64,
    /// Corrupt the last put (tests that verification catches it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fault: bool,
}

/// The largest put.
pub const MAX_SIZE: usize = 1 << 20;

impl Config {
    /// 8 B … 64 KiB by 8× (quick: 8 B, 512 B, 32 KiB), 1000 puts per batch.
    pub fn for_report(quick: bool) -> Config {
        Config {
            sizes: if quick {
                vec![8, 512, 32 << 10]
            } else {
                vec![8, 64, 512, 4 << 10, 32 << 10, 64 << 10]
            },
            puts: 1000,
            reps: if quick { 4 } else { 10 },
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
        if self.sizes.is_empty() || self.sizes.iter().any(|&s| !(1..=MAX_SIZE).contains(&s)) {
            return Err(bad(format!(
                "--sizes needs byte counts from 1 to {MAX_SIZE}"
            )));
        }
        if self.puts == 0 || self.puts > 1_000_000 || self.reps == 0 || self.runs == 0 {
            return Err(bad(
                "--puts (1 to 1000000), --reps and --runs must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// Runs `cfg`.
pub fn run(ctx: &mut RunCtx<'_>, cfg: &Config) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let config = serde_json::to_value(cfg).unwrap_or_default();
    let mut res = BenchResults::new(NAME, ctx.machine.clone(), ctx.tool.clone(), config);
    let started = Instant::now();
    let points: Vec<(&str, usize)> = ["put-nbi", "put"]
        .into_iter()
        .flat_map(|m| cfg.sizes.iter().map(move |&s| (m, s)))
        .collect();
    ctx.progress.begin(points.len(), NAME);
    for (i, &(mode, size)) in points.iter().enumerate() {
        if ctx.cancel.load(Ordering::Relaxed) {
            res.partial = true;
            res.stopped_early = Some(format!("interrupted after {i} of {} points", points.len()));
            break;
        }
        let args = [
            mode.to_string(),
            size.to_string(),
            cfg.puts.to_string(),
            cfg.reps.to_string(),
            if cfg.fault { "1" } else { "0" }.to_string(),
        ];
        let mut per_run = Vec::new();
        let mut checks = Checks::of("bytes");
        for _ in 0..cfg.runs {
            let o = team_worker::run(ctx, NAME, 2, mode, &args, Duration::from_secs(120))?;
            checks.add(o.checked, o.wrong.max(u64::from(!o.verified)));
            per_run.push(o.samples_us.iter().map(|us| us * 1e3).collect());
        }
        let m = MetricRecord::from_runs("ns", false, &per_run).map_err(|e| BenchError::Failed {
            experiment: NAME,
            message: e.to_string(),
        })?;
        res.records.push(
            BenchRecord::new(mode, size as f64, cfg.runs, cfg.reps, false)
                .checked(checks)
                .param("mode", mode)
                .param("bytes", size)
                .metric(METRIC, m),
        );
        ctx.progress.advance(&format!("{mode} {size} B"));
    }
    ctx.progress.end();
    for mode in ["put-nbi", "put"] {
        if let Some(f) = res.fit_series(mode, METRIC, ModelForm::Linear, "bytes") {
            res.models.push(f);
        }
    }
    res.notes.push(
        "on one node a put is a copy into the target's mapped memory, so put_nbi and put cost \
         the same: there is no network to hand the transfer to"
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

/// The byte `i` of put `j` of repetition `rep`.
pub fn pattern(rep: u64, j: u64, i: usize) -> u8 {
    (rep.wrapping_mul(31) ^ j.wrapping_mul(7) ^ i as u64) as u8
}

/// `handoff __worker msgrate MODE SIZE PUTS REPS FAULT`.
fn worker(args: &[String]) -> Result<(), BenchError> {
    let usage = || BenchError::Usage {
        experiment: NAME,
        message: format!("worker arguments MODE SIZE PUTS REPS FAULT, got {args:?}"),
    };
    let [mode, size, puts, reps, fault] = args else {
        return Err(usage());
    };
    let nbi = mode == "put-nbi";
    let size: usize = size.parse().map_err(|_| usage())?;
    let puts: u64 = puts.parse().map_err(|_| usage())?;
    let reps: u64 = reps.parse().map_err(|_| usage())?;
    let team = Team::from_env().map_err(failed)?;
    team.set_timeout(Some(Duration::from_secs(60)));
    let body = || -> Result<Outcome, handoff::team::TeamError> {
        let dst = team.alloc::<u8>(size)?;
        // [bytes wrong, bytes checked], summed on rank 0.
        let bad = team.alloc::<u64>(2)?;
        let mut samples = Vec::new();
        let mut src = vec![0u8; size];
        let (mut last_rep, mut last_j) = (0, 0);
        for rep in 0..=reps {
            team.barrier_all()?;
            if team.rank() == 0 {
                let t0 = Instant::now();
                for j in 0..puts {
                    // Only the last put's pattern is checked; the others move the same bytes.
                    if j + 1 == puts {
                        for (i, b) in src.iter_mut().enumerate() {
                            *b = pattern(rep, j, i);
                        }
                        if fault == "1" && rep == reps {
                            src[size / 2] ^= 1;
                        }
                    }
                    if nbi {
                        team.put_nbi(&dst, 0, &src, 1)?;
                    } else {
                        team.put(&dst, 0, &src, 1)?;
                    }
                }
                team.quiet();
                let us = t0.elapsed().as_secs_f64() * 1e6 / puts as f64;
                if rep > 0 {
                    samples.push(us);
                }
            }
            (last_rep, last_j) = (rep, puts - 1);
        }
        team.barrier_all()?;
        if team.rank() == 1 {
            let got = team.local(&dst);
            let wrong = got
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b != pattern(last_rep, last_j, i))
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
    fn plans_and_patterns() {
        Config::for_report(true).validate().unwrap();
        Config::for_report(false).validate().unwrap();
        let mut c = Config::for_report(true);
        c.sizes = vec![0];
        assert!(c.validate().is_err());
        c.sizes = vec![8];
        c.puts = 0;
        assert!(c.validate().is_err());
        // (rep 1, put 2, byte 3): 31 ^ 14 ^ 3 = 0b11111 ^ 0b01110 ^ 0b00011 = 0b10010 = 18.
        assert_eq!(pattern(1, 2, 3), 18);
    }
}

//! `msgrate` (foMPI, seed 001): the cost of starting one operation — rank 0 issues `puts`
//! non-blocking puts of b bytes to PE 1 with no synchronization between them, then one
//! `quiet` completes them all; ns per put against b, and the same with blocking puts. The
//! model `a + b·x` (x in bytes) splits the per-put overhead from the per-byte cost.
//!
//! Verification: each put carries a pattern of (repetition, put index); after the last
//! `quiet` and a barrier PE 1 checks its buffer holds the last put's pattern exactly.

use std::time::{Duration, Instant};

use handoff::team::{Sym, Team, TeamError, Transport};
use serde::{Deserialize, Serialize};

use super::launcher;
use super::team_config::TeamConfig;
use super::team_run::{self, PeOutput, TeamSpec};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::models::ModelForm;
use crate::bench::BenchResults;

pub const NAME: &str = "msgrate";
pub const METRIC: &str = "put_ns";

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
    run: Some(|ctx| run(ctx, &Config::for_report(ctx.quick))),
    worker: Some(launcher::worker_main::<WorkerSpec>),
    report_cost: ReportCost::fixed(2.0, 0.2),
    draw: None,
    report: None,
};

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    /// Put sizes in bytes.
    pub sizes: Vec<usize>,
    /// Puts per batch (one quiet per batch).
    pub puts: u64,
    /// Timed batches per run (after one warm-up).
    pub reps: u64,
    /// Runs, the PEs' wait, the transports and the fault: corrupt the last put (tests that
    /// verification catches it).
    #[serde(flatten)]
    pub team: TeamConfig<bool>,
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
            team: TeamConfig::plan(if quick { 2 } else { 3 }, false),
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.sizes.is_empty() || self.sizes.iter().any(|&s| !(1..=MAX_SIZE).contains(&s)) {
            return Err(bad(format!(
                "--sizes needs byte counts from 1 to {MAX_SIZE}"
            )));
        }
        if self.puts == 0 || self.puts > 1_000_000 || self.reps == 0 || self.team.runs == 0 {
            return Err(bad(
                "--puts (1 to 1000000), --reps and --runs must be at least 1".into(),
            ));
        }
        self.team.check(NAME)
    }
}

pub fn run(ctx: &mut RunCtx<'_>, cfg: &Config) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    cfg.team.wait_for(NAME, [2], ctx.allowed_cpus)?;
    let points: Vec<(&str, usize)> = ["put-nbi", "put"]
        .into_iter()
        .flat_map(|m| cfg.sizes.iter().map(move |&s| (m, s)))
        .collect();
    let mut res = ctx.run_points(NAME, cfg, &points, |ctx, res, &(mode, size)| {
        let spec = WorkerSpec {
            nbi: mode == "put-nbi",
            size,
            puts: cfg.puts,
            reps: cfg.reps,
            fault: cfg.team.fault,
        };
        let team = TeamSpec::new(ctx, NAME, &spec, 2, format!("{mode} {size} B"));
        cfg.team.point(ctx, res, team, "bytes", |runs, _| {
            let ns = runs.scaled(|us| us * 1e3);
            Ok(runs
                .record(mode, size as f64, cfg.reps)
                .param("mode", mode)
                .param("bytes", size)
                .metric(METRIC, metric(NAME, "ns", false, &ns)?))
        })
    })?;
    for mode in ["put-nbi", "put"] {
        let fit = res.fit_series(mode, METRIC, ModelForm::Linear, "bytes");
        res.models.extend(fit);
    }
    res.notes.push(
        "on one node a put is a copy into the target's mapped memory, so put_nbi and put cost \
         the same: there is no network to hand the transfer to"
            .into(),
    );
    Ok(res)
}

/// The byte `i` of put `j` of repetition `rep`.
pub fn pattern(rep: u64, j: u64, i: usize) -> u8 {
    (rep.wrapping_mul(31) ^ j.wrapping_mul(7) ^ i as u64) as u8
}

/// What one PE of a msgrate team runs (`handoff __worker msgrate SPEC`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerSpec {
    /// `put_nbi` (else blocking `put`).
    pub nbi: bool,
    /// Bytes per put.
    pub size: usize,
    /// Puts per batch.
    pub puts: u64,
    /// Timed batches (after one warm-up).
    pub reps: u64,
    /// Corrupt the last put.
    pub fault: bool,
}

team_run::pe_body!(WorkerSpec, pe_main, Duration::from_secs(60));

/// Rank 0 times the batches; PE 1 checks the last put's bytes ([`pe1_counts`]).
fn pe_main<X: Transport>(team: &Team<X>, spec: &WorkerSpec) -> Result<PeOutput, TeamError> {
    let (size, puts, reps) = (spec.size, spec.puts, spec.reps);
    let dst = team.alloc::<u8>(size)?;
    let mut samples = Vec::new();
    let mut src = vec![0u8; size];
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
                    if spec.fault && rep == reps {
                        src[size / 2] ^= 1;
                    }
                }
                if spec.nbi {
                    team.put_nbi(&dst, 0, &src, 1)?;
                } else {
                    team.put(&dst, 0, &src, 1)?;
                }
            }
            team.quiet();
            if rep > 0 {
                samples.push(t0.elapsed().as_secs_f64() * 1e6 / puts as f64);
            }
        }
    }
    pe1_counts(team, &dst, samples, |i| pattern(reps, puts - 1, i))
}

/// The end of a msgrate or overlap PE: a barrier (PE 0's puts are complete), then PE 1
/// counts the bytes of `dst` that are not `expected(i)`; PE 0 reports its `samples`.
pub fn pe1_counts<X: Transport>(
    team: &Team<X>,
    dst: &Sym<u8>,
    samples: Vec<f64>,
    expected: impl Fn(usize) -> u8,
) -> Result<PeOutput, TeamError> {
    team.barrier_all()?;
    let (mut checked, mut wrong) = (0, 0);
    if team.rank() == 1 {
        let got = team.local(dst);
        checked = got.len() as u64;
        wrong = got
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b != expected(i))
            .count() as u64;
    }
    Ok(PeOutput::counted(team.rank(), samples, checked, wrong))
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

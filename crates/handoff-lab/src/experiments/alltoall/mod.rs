//! `alltoall` (counting puts, seed 003): every PE puts `size` bytes to every other PE, then
//! the round completes by one of three synchronizations:
//! - `barrier`: `barrier_all` (the seed's "consistent barrier");
//! - `fence-flags`: `fence`, then one remote atomic add per target on its flag; each PE waits
//!   until its flag has counted p − 1 more arrivals (the seed's "point-to-point flags");
//! - `counting`: every put is a counting put on one counter per PE; each PE waits until its
//!   counter has counted p − 1 more (the seed's "bundling communication and synchronization").
//!
//! Bandwidth per PE is the bytes a PE sends per round, (p − 1) × size, over the round time;
//! per node it is p times that. Receive slots, flags and counters are double-buffered by
//! round parity: a PE that finished round k may already put round k + 1 to a PE still
//! waiting for a slow PE's round-k put, so one cumulative counter would let that PE go on
//! with a round-k slot missing; but no PE can reach round k + 2 before every PE finished
//! reading round k (it needs everybody's round k + 1 puts). Every round each PE
//! checks the stamp (round number) of every slot it received; after each timed sample it
//! checks the last round's slots in full (one word per cache line against the sender's
//! pattern) before the next sample starts.

use std::time::{Duration, Instant};

use handoff::team::{Cmp, Team, TeamError, Transport, MAX_PES};
use serde::{Deserialize, Serialize};

use super::launcher;
use super::team_config::TeamConfig;
use super::team_run::{self, check, payloads, PeOutput, TeamSpec};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::{at_least, judge, run_means_of};
use crate::bench::{BenchResults, Finding};
use crate::stats::distinct;

const NAME: &str = "alltoall";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "All-to-all: bandwidth with a barrier, fence + flags, or counting puts",
    section: team_run::SECTION,
    seed: team_run::SEED,
    what: "Every PE puts `size` bytes to every other PE, then synchronizes by `barrier`, by \
           `fence-flags` (fence, one atomic add per target, wait for p − 1) or by `counting` \
           puts (wait until the counter reaches p − 1); bandwidth per PE ((p − 1) × size per \
           round) and per node (× p), PEs pinned compactly, up to twice the CPUs. Every \
           round checks every received slot's stamp; every sample's last round is checked \
           in full.",
    figures: &[
        FigureSpec {
            log_y: true,
            ..FigureSpec::vs_size(
                "alltoall-node",
                "All-to-all: bandwidth per node vs message size",
                "bandwidth_node_mbps",
            )
        },
        FigureSpec::vs_size(
            "alltoall-pe",
            "All-to-all: bandwidth per PE vs message size",
            "bandwidth_pe_mbps",
        ),
    ],
    findings,
    run: Some(|ctx| {
        let mut cfg = Config::for_report(ctx.quick, ctx.allowed_cpus);
        cfg.team.plan_transports(ctx);
        run(&cfg, ctx)
    }),
    worker: Some(launcher::worker_main::<WorkerSpec>),
    report_cost: ReportCost::fixed(9.6, 0.5),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// How a round completes.
    pub enum Method {
        /// `barrier_all`.
        Barrier = "barrier",
        /// fence, then an atomic add per target; wait for p − 1 adds.
        FenceFlags = "fence-flags",
        /// counting puts; wait for p − 1 counts.
        Counting = "counting",
    }
}

/// Receive buffers of one PE may hold at most this many bytes (2 × p × size).
pub const MAX_BUFFER: usize = 256 << 20;

#[derive(Debug, Clone, Serialize)]
pub struct Config {
    pub methods: Vec<Method>,
    /// Bytes each PE puts to each other PE per round (multiples of 8).
    pub sizes: Vec<usize>,
    /// Team sizes.
    pub pes: Vec<usize>,
    /// CPUs; PE `r` on `cpus[r % cpus.len()]`.
    pub cpus: Vec<usize>,
    /// Rounds per sample at the smallest sizes (fewer for large rounds, at least 2).
    pub rounds: u64,
    /// Samples per run.
    pub samples: u64,
    /// Runs, the PEs' wait, the transports and the fault (test only): `skip-put@N` (in round N PE 1
    /// skips its data put to PE 0 but still synchronizes) or `exit@N` (PE 1 exits with code 9 in
    /// round N).
    #[serde(flatten)]
    pub team: TeamConfig<Option<team_run::Fault>>,
}

impl Config {
    /// The report's plan: every method; 8 B .. 1 MiB (quick: 8 B, 4 KiB, 64 KiB); PEs 2, every
    /// CPU, twice the CPUs (at most [`MAX_PES`]).
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        let n = cpus.len().max(1);
        let pes = distinct([2, n, (2 * n).min(MAX_PES)].into_iter().filter(|&p| p >= 2));
        let sizes = if quick {
            vec![8, 4 << 10, 64 << 10]
        } else {
            (0..6).map(|k| 8usize << (3 * k)).chain([1 << 20]).collect()
        };
        Config {
            methods: Method::ALL.to_vec(),
            sizes,
            pes,
            cpus: cpus.to_vec(),
            rounds: if quick { 100 } else { 400 },
            samples: if quick { 4 } else { 8 },
            team: TeamConfig::plan(if quick { 3 } else { 5 }, true),
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.methods.is_empty() {
            return Err(bad(
                "no method: use --method barrier,fence-flags,counting".into()
            ));
        }
        if self.sizes.is_empty() || self.sizes.iter().any(|&s| s == 0 || s % 8 != 0) {
            return Err(bad(
                "--sizes takes multiples of 8 bytes, at least 8 (e.g. 8,4K,1M)".into(),
            ));
        }
        if self.pes.is_empty() {
            return Err(bad("no team size: use e.g. --pes 2,4".into()));
        }
        if let Some(p) = self.pes.iter().find(|&&p| !(2..=MAX_PES).contains(&p)) {
            return Err(bad(format!(
                "--pes {p}: an all-to-all needs 2 to {MAX_PES} PEs"
            )));
        }
        let (p, s) = (
            *self.pes.iter().max().unwrap_or(&2),
            *self.sizes.iter().max().unwrap_or(&8),
        );
        if 2 * p * s > MAX_BUFFER {
            return Err(bad(format!(
                "{p} PEs × {s} B needs {} MiB of receive buffers per PE (2 × PEs × size); \
                 at most {} MiB: use smaller --sizes or fewer --pes",
                (2 * p * s) >> 20,
                MAX_BUFFER >> 20
            )));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on".into()));
        }
        if self.rounds == 0 || self.samples == 0 || self.team.runs == 0 {
            return Err(bad(
                "--rounds, --samples and --runs must be at least 1".into()
            ));
        }
        self.team
            .wait_for(NAME, self.pes.iter().copied(), &self.cpus)?;
        self.team.check(NAME)
    }

    /// Rounds per sample for `pes` PEs of `size`: `rounds`, fewer when a round moves a lot
    /// (about 32 MiB per sample over all PEs), at least 2.
    pub fn rounds_at(&self, pes: usize, size: usize) -> u64 {
        let per_round = (pes * (pes - 1) * size) as u64;
        self.rounds.min((32 << 20) / per_round.max(1)).max(2)
    }
}

/// What one worker PE runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerSpec {
    pub method: Method,
    /// Bytes to each other PE per round.
    pub size: usize,
    /// Rounds per sample.
    pub rounds: u64,
    pub samples: u64,
    pub fault: Option<team_run::Fault>,
}

// The body of a PE (`handoff __worker alltoall SPEC`, under `team::Launch` or mpiexec).
team_run::pe_body!(WorkerSpec, pe_main, Duration::from_secs(30));

fn pe_main<X: Transport>(team: &Team<X>, spec: &WorkerSpec) -> Result<PeOutput, TeamError> {
    let (me, p) = (team.rank(), team.size());
    let words = spec.size / 8;
    let recv = team.alloc::<u64>(2 * p * words)?;
    let flags = team.alloc::<u64>(2)?;
    let cts = [team.ct_create()?, team.ct_create()?];
    let slot = |parity: u64, sender: usize| (parity as usize * p + sender) * words;
    let mut src = payloads(words, me as u64 + 1);
    let mut out = PeOutput::of(me);
    let mut k: u64 = 0;
    let mut round = |out: &mut PeOutput, k: u64| -> Result<(), TeamError> {
        team_run::maybe_exit(&spec.fault, me, k);
        let parity = k % 2;
        let s = &mut src[parity as usize];
        s[0] = k;
        for d in 1..p {
            let j = (me + d) % p;
            if me == 1 && j == 0 && team_run::hits(&spec.fault, "skip-put", k) {
                if spec.method == Method::Counting {
                    team.ct_add(&cts[parity as usize], 1, j)?;
                }
                continue;
            }
            match spec.method {
                Method::Barrier | Method::FenceFlags => team.put(&recv, slot(parity, me), s, j)?,
                Method::Counting => {
                    team.put_ct(&cts[parity as usize], &recv, slot(parity, me), s, j)?
                }
            }
        }
        // Rounds of this parity so far, this one included, each bringing p - 1 arrivals.
        let expect = (p as u64 - 1) * (k / 2 + 1);
        match spec.method {
            Method::Barrier => team.barrier_all()?,
            Method::FenceFlags => {
                team.fence();
                for d in 1..p {
                    team.atomic_add(flags.at(parity as usize), 1u64, (me + d) % p)?;
                }
                team.signal_wait_until(flags.at(parity as usize), Cmp::Ge, expect)?;
            }
            Method::Counting => {
                team.ct_wait(&cts[parity as usize], expect)?;
            }
        }
        let got = team.local(&recv);
        for i in (0..p).filter(|&i| i != me) {
            let stamp = got[slot(parity, i)];
            out.verify(stamp == k, || {
                format!("round {k}: the slot of PE {i} has stamp {stamp}")
            });
        }
        Ok(())
    };
    // One warm-up sample's worth of rounds, then the timed samples.
    for _ in 0..spec.rounds.min(50) {
        round(&mut out, k)?;
        k += 1;
    }
    for _ in 0..spec.samples {
        team.barrier_all()?;
        let t0 = Instant::now();
        for _ in 0..spec.rounds {
            round(&mut out, k)?;
            k += 1;
        }
        let us = t0.elapsed().as_secs_f64() * 1e6 / spec.rounds as f64;
        out.samples.push(us);
        // The last round (k - 1) in full; nobody writes its parity until we send round k.
        let last = k - 1;
        let got = team.local(&recv);
        for i in (0..p).filter(|&i| i != me) {
            let at = slot(last % 2, i);
            let why = check(&got[at..at + words], i as u64 + 1, last);
            out.verify(why.is_none(), || {
                format!("from PE {i}: {}", why.unwrap_or_default())
            });
        }
    }
    Ok(out)
}

/// Runs `cfg`; stops early (partial) when `ctx.cancel` is set.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let mut points = Vec::new();
    for &p in &cfg.pes {
        for &size in &cfg.sizes {
            for &m in &cfg.methods {
                points.extend(cfg.team.transports().iter().map(|&t| (p, size, m, t)));
            }
        }
    }
    let mut res = ctx.run_points(
        NAME,
        cfg,
        &points,
        |ctx, res, &(p, size, method, transport)| {
            let rounds = cfg.rounds_at(p, size);
            let spec = WorkerSpec {
                method,
                size,
                rounds,
                samples: cfg.samples,
                fault: cfg.team.fault.clone(),
            };
            let team = TeamSpec {
                cpus: cfg.cpus.clone(),
                heap: 2 * p * size + (1 << 20),
                deadline: Duration::from_secs(180),
                transport,
                ..TeamSpec::new(
                    ctx,
                    NAME,
                    &spec,
                    p,
                    format!("{} {size} B {p} PEs", method.name()),
                )
            };
            cfg.team.point(ctx, res, team, "slots", |runs, _| {
                let sent = ((p - 1) * size) as f64;
                let bw = |scale: f64| runs.scaled(|us| scale * sent / us);
                let metric = |unit, hib, v: &[Vec<f64>]| metric(NAME, unit, hib, v);
                let series = format!("{}, {p} PEs", method.name());
                Ok(runs
                    .record_on(series, size as f64, cfg.samples * rounds)
                    .param("method", method.name())
                    .param("size_bytes", size)
                    .param("pes", p)
                    .metric("round_us", metric("µs", false, &runs.per_run)?)
                    .metric("bandwidth_pe_mbps", metric("MB/s", true, &bw(1.0))?)
                    .metric("bandwidth_node_mbps", metric("MB/s", true, &bw(p as f64))?))
            })
        },
    )?;
    res.notes.push(
        "on shared memory a put is a copy into the target's memory: the bandwidth counts \
         those copies; the cache lines move to a receiver only when it reads them (each \
         round reads the stamps, each sample's last round is read in full)"
            .into(),
    );
    if let Some(p) = cfg.pes.iter().find(|&&p| p > cfg.cpus.len()) {
        res.notes.push(format!(
            "{p} PEs on {} CPUs are oversubscribed: PEs take turns on the CPUs (adaptive \
             waits yield and sleep), so a round costs scheduler hand-offs, not cache-line \
             transfers",
            cfg.cpus.len()
        ));
    }
    Ok(res)
}

/// The run means of per-node bandwidth of `method` with `pes` PEs at `size`.
fn bandwidth(res: &BenchResults, method: Method, pes: usize, size: f64) -> Option<Vec<f64>> {
    run_means_of(res, "bandwidth_node_mbps", |r| {
        r.x == size
            && r.param_text("method") == method.name()
            && r.param_f64("pes") == Some(pes as f64)
            && team_run::on_shm(r)
    })
}

/// The seed's claim "≥ 2× all-to-all bandwidth for small messages": counting / fence-flags
/// and counting / barrier per-node bandwidth at the smallest size, for every team size.
fn findings(res: &BenchResults) -> Vec<Finding> {
    let Some(size) = res.records.iter().map(|r| r.x).reduce(f64::min) else {
        return Vec::new();
    };
    let pes = distinct(
        res.records
            .iter()
            .filter_map(|r| r.param_f64("pes").map(|p| p as usize)),
    );
    let mut out = Vec::new();
    for p in pes {
        let over = team_run::oversubscribed(res, p);
        for base in [Method::FenceFlags, Method::Barrier] {
            let claim = format!(
                "counting puts give ≥ 2× the all-to-all bandwidth of {} at {size} B \
                 [{p} PEs{over}] (seed: > 2× for small messages)",
                base.name()
            );
            let what = format!("counting / {} bandwidth", base.name());
            match (
                bandwidth(res, Method::Counting, p, size),
                bandwidth(res, base, p, size),
            ) {
                (Some(c), Some(b)) => {
                    let why = if !over.is_empty() {
                        team_run::OVERSUBSCRIBED
                    } else if base == Method::Barrier {
                        "the barrier costs ⌈log2 p⌉ rounds of signalled waits after the puts, \
                         the counting puts one wait for p − 1 counts; with few PEs the \
                         difference is a hand-off or two per round."
                    } else {
                        team_run::SAME_WORK
                    };
                    out.push(team_run::because(at_least(&claim, &what, &c, &b, 2.0), why))
                }
                (None, None) => {}
                _ => out.push(judge(&claim, &what, None, 2.0)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;

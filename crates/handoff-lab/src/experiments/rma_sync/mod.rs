//! `rma-sync` (foMPI, seed 001): the cost of each MPI-3 synchronization mode of
//! `handoff::team::Epochs` against the number of PEs — fence, post/start/complete/wait on a
//! ring (k = 2 as in the seed, and a sweep of k), exclusive and shared lock/unlock,
//! lock_all/unlock_all, put + flush, sync — with the seed's performance models fitted by
//! least squares (`fence ≈ a + b·log2 p`, `PSCW ≈ a + b·k`, locks `a + b·p`) and drawn over
//! the points.
//!
//! Each run is a fresh team of p processes (`team::Launch`, PEs pinned round-robin over
//! the allowed CPUs, adaptive waits unless `Config::wait` says otherwise: more PEs than
//! CPUs is oversubscribed and completes, `spin` there is refused up front);
//! each PE times `iters` synchronizations per repetition and rank 0's µs per
//! synchronization are the samples. Every synchronization moves a value and checks it
//! (see `worker`); a PE that dies or hangs ends the run with an error (the team's waits and
//! the launcher's timeout).

mod worker;

use super::launcher;
use super::team_config::TeamConfig;
use super::team_run::TeamSpec;
use handoff::sync::Wait;

use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::{at_least_if, run_means};
use crate::bench::models::ModelForm;
use crate::bench::{BenchResults, Finding};

pub const NAME: &str = "rma-sync";
/// The metric every point has.
pub const METRIC: &str = "sync_us";

const fn fig(
    id: &'static str,
    title: &'static str,
    x_label: &'static str,
    prefix: &'static str,
) -> FigureSpec {
    FigureSpec {
        x_label,
        x_is_size: false,
        log_x: false,
        log_y: false,
        series_prefix: prefix,
        ..FigureSpec::vs_size(id, title, METRIC)
    }
}

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "One-sided synchronization modes and their performance models",
    section: "RMA synchronization (foMPI)",
    seed: "Gerstenberger, Besta, Hoefler, \"Enabling highly-scalable remote memory access \
           programming with MPI-3 one sided\" (foMPI, seed 001)",
    what: "µs per synchronization of each MPI-3 mode on handoff's team epochs (rank 0 of a \
           fresh team of p processes per run): fence; post/start/complete/wait with k \
           neighbours on a ring (k = 2 against p — at p = 2 the ring has one neighbour, so k = 1 — and k swept at the largest p); \
           lock/unlock exclusive and shared of a neighbour; lock_all/unlock_all; a put + \
           flush inside lock_all; sync. Every synchronization moves a value unique to \
           (iteration, rank) and checks it on the other side.",
    figures: &[
        fig("rma_sync_fence", "fence: µs vs PEs", "PEs (p)", "fence"),
        fig(
            "rma_sync_pscw_ring",
            "PSCW, k = 2 ring: µs vs PEs",
            "PEs (p)",
            "pscw-ring",
        ),
        fig(
            "rma_sync_pscw_k",
            "PSCW at the largest p: µs vs group size k",
            "group size (k)",
            "pscw-k",
        ),
        fig(
            "rma_sync_locks",
            "lock/unlock and lock_all: µs vs PEs",
            "PEs (p)",
            "lock",
        ),
        fig(
            "rma_sync_flush",
            "put + flush: µs vs PEs",
            "PEs (p)",
            "flush",
        ),
        fig("rma_sync_sync", "sync: µs vs PEs", "PEs (p)", "sync"),
    ],
    findings,
    run: Some(|ctx| {
        let mut cfg = Config::for_report(ctx.quick);
        cfg.team.plan_transports(ctx);
        run(ctx, &cfg)
    }),
    worker: Some(launcher::worker_main::<worker::WorkerSpec>),
    report_cost: ReportCost::fixed(25.0, 0.5),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// A synchronization mode = a series.
    pub enum Mode {
        /// `fence` (x = p).
        Fence = "fence",
        /// PSCW with k = 2 ring neighbours (x = p).
        PscwRing = "pscw-ring",
        /// PSCW at the largest p, k swept (x = k).
        PscwK = "pscw-k",
        /// Exclusive lock/unlock of the right neighbour (x = p).
        LockExclusive = "lock-exclusive",
        /// Shared lock/unlock of the right neighbour (x = p).
        LockShared = "lock-shared",
        /// lock_all / unlock_all (x = p).
        LockAll = "lock-all",
        /// A put + flush inside lock_all (x = p).
        Flush = "flush",
        /// sync (x = p).
        Sync = "sync",
    }
}

impl Mode {
    /// The model form and the name of x.
    pub fn model(self) -> (ModelForm, &'static str) {
        match self {
            Mode::Fence => (ModelForm::Log2, "p"),
            Mode::PscwK => (ModelForm::Linear, "k"),
            _ => (ModelForm::Linear, "p"),
        }
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    pub modes: Vec<Mode>,
    /// Team sizes (x of every mode but pscw-k).
    pub pes: Vec<usize>,
    /// Group sizes of pscw-k (at the largest p).
    pub ks: Vec<usize>,
    /// Synchronizations per repetition.
    pub iters: u64,
    /// Timed repetitions per run (after one warm-up).
    pub reps: u64,
    /// Runs, the PEs' wait, the transports and the fault: corrupt one value (tests that
    /// verification catches it).
    #[serde(flatten)]
    pub team: TeamConfig<bool>,
}

/// The most PEs a run may ask for.
pub const MAX_PES: usize = 64;

impl Config {
    /// The report's plan: p = 2, 3, 4, 6, 8 (quick: 2, 4), k = 1 … p − 1 at the largest p
    /// (quick: 1, 2, 3), every mode. p above the CPU count is oversubscribed (noted).
    pub fn for_report(quick: bool) -> Config {
        Config {
            modes: Mode::ALL.to_vec(),
            pes: if quick {
                vec![2, 4]
            } else {
                vec![2, 3, 4, 6, 8]
            },
            ks: if quick {
                vec![1, 2, 3]
            } else {
                (1..=7).collect()
            },
            iters: if quick { 200 } else { 1000 },
            reps: if quick { 4 } else { 8 },
            team: TeamConfig::plan(if quick { 2 } else { 3 }, true),
        }
    }

    /// The largest p (where pscw-k runs).
    pub fn p_max(&self) -> usize {
        self.pes.iter().copied().max().unwrap_or(2)
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.modes.is_empty() {
            return Err(bad(format!(
                "no mode: use --modes with some of {}",
                Mode::ALL.map(Mode::name).join(",")
            )));
        }
        if self.pes.is_empty() || self.pes.iter().any(|&p| !(2..=MAX_PES).contains(&p)) {
            return Err(bad(format!(
                "--pes needs team sizes from 2 to {MAX_PES}, e.g. 2,4,8"
            )));
        }
        if self.modes.contains(&Mode::PscwK) {
            if let Some(&k) = self.ks.iter().find(|&&k| k == 0 || k >= self.p_max()) {
                return Err(bad(format!(
                    "--k {k}: group sizes must be 1 to {} (below the largest --pes)",
                    self.p_max() - 1
                )));
            }
            if self.ks.is_empty() {
                return Err(bad("--k needs at least one group size, e.g. 1,2,3".into()));
            }
        }
        if self.iters == 0 || self.reps == 0 || self.team.runs == 0 {
            return Err(bad("--iters, --reps and --runs must be at least 1".into()));
        }
        if self.iters > 10_000_000 {
            return Err(bad(format!("--iters {}: at most 10000000", self.iters)));
        }
        self.team.check(NAME)
    }

    /// Refuses `wait = spin` for a team size whose PEs share a CPU of `cpus` (PE r on
    /// `cpus[r % n]`, more PEs than CPUs): up front in one line (issue #23), not a run that
    /// pays a scheduler tick per hand-off until its deadline.
    pub fn check_wait(&self, cpus: &[usize]) -> Result<Wait, BenchError> {
        self.team.wait_for(NAME, self.pes.iter().copied(), cpus)
    }

    /// Every point: (mode, p, k, x).
    pub fn points(&self) -> Vec<(Mode, usize, usize, usize)> {
        let mut out = Vec::new();
        for &m in &self.modes {
            match m {
                Mode::PscwK => out.extend(self.ks.iter().map(|&k| (m, self.p_max(), k, k))),
                Mode::PscwRing => out.extend(self.pes.iter().map(|&p| (m, p, 2.min(p - 1), p))),
                _ => out.extend(self.pes.iter().map(|&p| (m, p, 1, p))),
            }
        }
        out
    }
}

/// Runs `cfg`; stops early (partial) when `ctx.cancel` is set.
pub fn run(ctx: &mut RunCtx<'_>, cfg: &Config) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    if ctx.allowed_cpus.is_empty() {
        return Err(BenchError::usage(NAME, "no CPU to run on"));
    }
    cfg.check_wait(ctx.allowed_cpus)?;
    let points: Vec<_> = cfg
        .points()
        .into_iter()
        .flat_map(|pt| cfg.team.transports().iter().map(move |&t| (pt, t)))
        .collect();
    let mut res = ctx.run_points(
        NAME,
        cfg,
        &points,
        |ctx, res, &((mode, p, k, x), transport)| {
            let spec = worker::WorkerSpec {
                mode,
                k,
                iters: cfg.iters,
                reps: cfg.reps,
                fault: cfg.team.fault,
            };
            let team = TeamSpec {
                transport,
                ..TeamSpec::new(ctx, NAME, &spec, p, format!("{} p={p} k={k}", mode.name()))
            };
            cfg.team.point(ctx, res, team, "values", |runs, _| {
                Ok(runs
                    .record_on(mode.name().to_string(), x as f64, cfg.reps)
                    .param("mode", mode.name())
                    .param("pes", p)
                    .param("k", k)
                    .metric(METRIC, metric(NAME, "µs", false, &runs.per_run)?))
            })
        },
    )?;
    for &mode in &cfg.modes {
        let (form, x) = mode.model();
        let fit = res.fit_series(mode.name(), METRIC, form, x);
        res.models.extend(fit);
    }
    let cpus = ctx.allowed_cpus.len();
    if cfg.pes.iter().any(|&p| p > cpus) {
        res.notes.push(format!(
            "teams of more than {cpus} PEs share CPUs (oversubscribed, adaptive waits that \
             yield): their times include waiting for a CPU, so the models' slopes above p = \
             {cpus} measure the scheduler as much as the protocol"
        ));
    }
    res.notes.extend(advice(&res));
    Ok(res)
}

/// Which mode to use for which group size here (the seed's fence vs PSCW crossover), from
/// the fitted models: PSCW with k partners costs `a_k + b_k·k`, fence `a_f + b_f·log2 p`.
pub fn advice(res: &BenchResults) -> Vec<String> {
    let model = |s: &str| res.models.iter().find(|m| m.series == s);
    let mut out = Vec::new();
    if let (Some(f), Some(k)) = (model("fence"), model("pscw-k")) {
        let p = res
            .series("pscw-k")
            .first()
            .and_then(|r| r.param_f64("pes"))
            .unwrap_or(2.0);
        let fence = f.predict(p);
        let cross = if k.b > 0.0 {
            (fence - k.a) / k.b
        } else {
            f64::INFINITY
        };
        out.push(if cross < 1.0 {
            format!(
                "which mode: at p = {p} fence ({:.2} µs by its model) costs less than PSCW with \
                 even one partner here: use fence.",
                fence
            )
        } else if cross.is_finite() {
            format!(
                "which mode: at p = {p} PSCW costs less than fence ({fence:.2} µs) while each PE \
                 synchronizes with fewer than about {:.1} partners (the models' crossover); \
                 with more, use fence.",
                cross
            )
        } else {
            format!(
                "which mode: PSCW does not grow with k here; at p = {p} use PSCW for any group."
            )
        });
    }
    let smallest = |s: &str| {
        res.series(s)
            .into_iter()
            .filter_map(|r| r.metrics.get(METRIC).map(|m| (r.x, m.summary.mean)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    };
    if let (Some((p, lock)), Some((_, flush))) = (smallest("lock-exclusive"), smallest("flush")) {
        out.push(format!(
            "passive target: a lock/unlock pair costs {:.0} ns at p = {p} and involves no \
             code on the target, a flush {:.0} ns: for irregular or one-sided access lock the \
             target once and flush per dependent put rather than re-locking.",
            lock * 1e3,
            flush * 1e3
        ));
    }
    if let (Some(l), Some(a)) = (model("lock-exclusive"), model("lock-all")) {
        out.push(format!(
            "passive target: one lock/unlock ≈ {:.2} µs + {:.3} µs·p, lock_all/unlock_all ≈ \
             {:.2} µs + {:.3} µs·p (a shared lock per PE): lock only the PEs you touch; \
             lock_all pays off for many targets per epoch.",
            l.a, l.b, a.a, a.b
        ));
    }
    out
}

/// The seed's claims, as ratios at the largest p: PSCW with k = 2 is cheaper than fence
/// (the reason to use it for neighbour exchanges); lock/unlock does not grow with p.
fn findings(res: &BenchResults) -> Vec<Finding> {
    let p_max = res.series("fence").iter().map(|r| r.x).fold(0.0, f64::max);
    let mut out = Vec::new();
    let at = |series: &str, x: f64| run_means(res, series, x, METRIC);
    out.extend(at_least_if(
        &format!("PSCW with k = 2 costs less than fence at p = {p_max} (seed: fence grows with log2 p, PSCW with k)"),
        "fence / pscw-ring",
        at("fence", p_max),
        at("pscw-ring", p_max),
        1.0,
    ));
    let lock_ps: Vec<f64> = res.series("lock-exclusive").iter().map(|r| r.x).collect();
    let p_min = lock_ps.iter().copied().fold(f64::INFINITY, f64::min);
    let p_top = lock_ps.iter().copied().fold(0.0, f64::max);
    if p_top > p_min {
        out.extend(at_least_if(
            &format!(
                "lock/unlock does not grow with p: at p = {p_top} within 1.5× of p = {p_min} \
                 (seed: constant)"
            ),
            &format!("lock-exclusive at p={p_min} / at p={p_top}"),
            at("lock-exclusive", p_min),
            at("lock-exclusive", p_top),
            0.67,
        ));
    }
    out
}

#[cfg(test)]
mod tests;

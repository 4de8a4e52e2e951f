//! `stencil` (counting puts, seed 003): the Parallel Research Kernels' `synch_p2p`, a
//! pipelined wavefront: `A(i,j) = A(i-1,j) + A(i,j-1) - A(i-1,j-1)` on an M × N grid with
//! `A(0,j) = j`, `A(i,0) = i`; the columns are split across PEs; each PE computes its part of
//! row i once its left neighbour's value `A(i, first-1)` has arrived, then sends its own last
//! value of the row to its right neighbour: one 8-byte put per row and PE boundary, synchronized
//! by `fence-flag` (put, fence, atomic add), `put-signal` or `counting-put`. After each
//! iteration the last PE sends `-A(M-1,N-1)` to PE 0 as the next `A(0,0)` (the same way).
//!
//! # Verification (closed form)
//!
//! `i + j` satisfies the recurrence and the boundaries, so iteration 1 leaves `A(i,j) = i + j`
//! and the corner `c = (M-1) + (N-1)`. Then `A(0,0) = -c`, and `B = A - (i + j)` is 0 on the
//! boundaries but `B(0,0) = -c`, so `B(1,1) = c` and `B(i,j) = c` for all `i, j ≥ 1` (each
//! cell is `c + c - c`, or `0 + c - 0` next to a boundary). By induction, after iteration
//! `k` (from 1) every interior cell is `i + j + (k-1)c` and the corner is `k·c` — PRK's
//! `corner_val = (iterations+1)·(m+n-2)` for its `iterations + 1` iterations. Every run the
//! last PE checks the corner after every iteration, PE 0 checks each `-corner` it receives,
//! and every PE checks each boundary value it receives, `i + (first-1) + (k-1)c`, so a lost or
//! wrong transfer fails at once (a wrong value in a middle row would otherwise cancel out
//! before the corner: the recurrence only carries it along its own row).
//!
//! MFLOP/s = 2 (M-1)(N-1) per iteration over its time (PRK's count), timed by PE 0 from the
//! arrival of one iteration's corner to the next; the first iteration is a warm-up.

use std::time::Duration;

use handoff::team::MAX_PES;
use serde::{Deserialize, Serialize};

use super::launcher;
use super::team_config::TeamConfig;
use super::team_run::{self, TeamSpec};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::{at_least, judge, run_means_of};
use crate::bench::{BenchResults, Finding};
use crate::stats::distinct;

const NAME: &str = "stencil";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Pipelined stencil (PRK synch_p2p): fence + flag vs counting puts",
    section: team_run::SECTION,
    seed: team_run::SEED,
    what: "PRK's synch_p2p wavefront on an M × N grid, columns split across PEs, one 8-byte \
           put per row to the right neighbour synchronized by `fence-flag`, `put-signal` or \
           `counting-put`; MFLOP/s (2 per point) and time per iteration, strong scaling over \
           PEs and weak scaling over M. Every iteration the corner is checked against the \
           closed form k·(M+N−2), and every boundary value against i + j + (k−1)(M+N−2).",
    figures: &[
        FigureSpec {
            x_label: "PEs",
            x_is_size: false,
            log_x: false,
            series_prefix: "strong",
            ..FigureSpec::vs_size(
                "stencil-strong",
                "Stencil, strong scaling: MFLOP/s vs PEs",
                "mflops",
            )
        },
        FigureSpec {
            x_label: "rows M",
            x_is_size: false,
            series_prefix: "weak",
            ..FigureSpec::vs_size(
                "stencil-weak",
                "Stencil, weak scaling: MFLOP/s vs rows M",
                "mflops",
            )
        },
    ],
    findings,
    run: Some(|ctx| {
        let mut cfg = Config::for_report(ctx.quick, ctx.allowed_cpus);
        cfg.team.plan_transports(ctx);
        run(&cfg, ctx)
    }),
    worker: Some(launcher::worker_main::<WorkerSpec>),
    report_cost: ReportCost::fixed(15.4, 2.0),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// How a boundary value travels.
    pub enum Method {
        /// put; fence; atomic add to the neighbour's flag.
        FenceFlag = "fence-flag",
        /// put with signal (Add 1).
        PutSignal = "put-signal",
        /// counting put.
        CountingPut = "counting-put",
    }
}

/// The corner after iteration `k` (from 1) of an `m × n` grid: `k·(m+n-2)`.
pub fn corner(m: usize, n: usize, k: u64) -> f64 {
    k as f64 * (m + n - 2) as f64
}

/// Cell `(i, j)`, `i, j ≥ 1`, after iteration `k` (from 1): `i + j + (k-1)(m+n-2)`.
pub fn cell(m: usize, n: usize, k: u64, i: usize, j: usize) -> f64 {
    (i + j) as f64 + corner(m, n, k - 1)
}

/// PE `r`'s columns `[lo, hi)` of `n` split over `p` PEs (the first `n % p` get one more).
pub fn columns(n: usize, p: usize, r: usize) -> (usize, usize) {
    let (q, extra) = (n / p, n % p);
    let lo = r * q + r.min(extra);
    (lo, lo + q + usize::from(r < extra))
}

/// One point: a grid on a number of PEs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    /// Rows M.
    pub m: usize,
    /// Columns N.
    pub n: usize,
    pub pes: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Config {
    pub methods: Vec<Method>,
    /// Strong scaling: this grid on each of `strong_pes`.
    pub strong: Option<(usize, usize)>,
    /// Team sizes of the strong-scaling points.
    pub strong_pes: Vec<usize>,
    /// Weak scaling: these row counts M, with `weak_n` columns on `weak_pes` PEs.
    pub weak_m: Vec<usize>,
    /// Columns of the weak-scaling points.
    pub weak_n: usize,
    /// PEs of the weak-scaling points.
    pub weak_pes: usize,
    /// Iterations per run (the first is a warm-up; at least 2).
    pub iterations: u64,
    /// Runs, the PEs' wait, the transports and the fault (test only): `wrong-value@N` (PE 0 sends
    /// row N's boundary value off by one in the first iteration; with 2 PEs or more) or `exit@N`
    /// (PE 1 exits with code 9 at row N).
    #[serde(flatten)]
    pub team: TeamConfig<Option<team_run::Fault>>,
    /// CPUs; PE `r` on `cpus[r % cpus.len()]`.
    pub cpus: Vec<usize>,
}

/// Points of a grid dimension at most.
pub const MAX_DIM: usize = 1 << 20;
/// Grid cells per PE at most (8 bytes each).
pub const MAX_CELLS_PER_PE: usize = 32 << 20;

impl Config {
    /// The report's plan: strong scaling of 4000 × 1000 (quick 2000 × 1000) over 1, 2, every
    /// CPU and twice the CPUs; weak scaling over M = 1000 .. 8000 (quick 1000, 4000) with
    /// N = 1000 on every CPU; every method.
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        let n = cpus.len().max(1);
        Config {
            methods: Method::ALL.to_vec(),
            strong: Some(if quick { (2000, 1000) } else { (4000, 1000) }),
            strong_pes: distinct([1, 2, n, (2 * n).min(MAX_PES)]),
            weak_m: if quick {
                vec![1000, 4000]
            } else {
                vec![1000, 2000, 4000, 8000]
            },
            weak_n: 1000,
            weak_pes: n.clamp(2, MAX_PES),
            iterations: if quick { 4 } else { 11 },
            team: TeamConfig::plan(if quick { 3 } else { 5 }, true),
            cpus: cpus.to_vec(),
        }
    }

    /// Every point: ("strong" | "weak", grid), strong first.
    pub fn points(&self) -> Vec<(&'static str, Grid)> {
        let mut v = Vec::new();
        if let Some((m, n)) = self.strong {
            for &pes in &self.strong_pes {
                v.push(("strong", Grid { m, n, pes }));
            }
        }
        let (n, pes) = (self.weak_n, self.weak_pes);
        v.extend(self.weak_m.iter().map(|&m| ("weak", Grid { m, n, pes })));
        v
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.methods.is_empty() {
            return Err(bad(
                "no method: use --method fence-flag,put-signal,counting-put".into(),
            ));
        }
        let points = self.points();
        if points.is_empty() {
            return Err(bad(
                "nothing to run: give a strong-scaling grid (--grid) or weak-scaling rows (--weak-m)"
                    .into(),
            ));
        }
        for (_, g) in &points {
            if g.m < 2 || g.n < 2 || g.m > MAX_DIM || g.n > MAX_DIM {
                return Err(bad(format!(
                    "a {} × {} grid: M and N must be 2 to {MAX_DIM}",
                    g.m, g.n
                )));
            }
            if g.pes == 0 || g.pes > MAX_PES {
                return Err(bad(format!("{} PEs: use 1 to {MAX_PES}", g.pes)));
            }
            if 2 * g.pes > g.n {
                return Err(bad(format!(
                    "{} PEs for {} columns: every PE needs at least two columns (N ≥ 2 × PEs)",
                    g.pes, g.n
                )));
            }
            if g.m * (g.n / g.pes + 2) > MAX_CELLS_PER_PE {
                return Err(bad(format!(
                    "a {} × {} grid on {} PEs is more than {} Mi cells per PE: use a smaller grid",
                    g.m,
                    g.n,
                    g.pes,
                    MAX_CELLS_PER_PE >> 20
                )));
            }
        }
        if self.iterations < 2 || self.team.runs == 0 {
            return Err(bad(
                "--iterations must be at least 2 (the first is a warm-up) and --runs at least 1"
                    .into(),
            ));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on".into()));
        }
        self.team
            .wait_for(NAME, points.iter().map(|(_, g)| g.pes), &self.cpus)?;
        self.team.check(NAME)
    }
}

mod pe;
pub use pe::WorkerSpec;

/// Runs `cfg`; stops early (partial) when `ctx.cancel` is set.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let mut points = Vec::new();
    for (kind, g) in cfg.points() {
        for &method in &cfg.methods {
            points.extend(cfg.team.transports().iter().map(|&t| (kind, g, method, t)));
        }
    }
    let mut res = ctx.run_points(
        NAME,
        cfg,
        &points,
        |ctx, res, &(kind, g, method, transport)| {
            let spec = WorkerSpec {
                method,
                grid: g,
                iterations: cfg.iterations,
                fault: cfg.team.fault.clone(),
            };
            let label = format!("{kind} {} {}×{} on {} PEs", method.name(), g.m, g.n, g.pes);
            let team = TeamSpec {
                cpus: cfg.cpus.clone(),
                heap: 8 * g.m + (1 << 20),
                deadline: Duration::from_secs(300),
                transport,
                ..TeamSpec::new(ctx, NAME, &spec, g.pes, label)
            };
            cfg.team.point(ctx, res, team, "values", |runs, _| {
                let flops = 2.0 * (g.m - 1) as f64 * (g.n - 1) as f64;
                let ms = runs.scaled(|us| us / 1e3);
                let mflops = runs.scaled(|us| flops / us);
                let metric = |unit, hib, v: &[Vec<f64>]| metric(NAME, unit, hib, v);
                let x = if kind == "strong" { g.pes } else { g.m };
                let series = format!("{kind}: {}", method.name());
                Ok(runs
                    .record_on(series, x as f64, cfg.iterations - 1)
                    .param("scaling", kind)
                    .param("method", method.name())
                    .param("m", g.m)
                    .param("n", g.n)
                    .param("pes", g.pes)
                    .metric("mflops", metric("MFLOP/s", true, &mflops)?)
                    .metric("time_ms", metric("ms", false, &ms)?))
            })
        },
    )?;
    if let Some(p) = cfg
        .points()
        .iter()
        .map(|(_, g)| g.pes)
        .find(|&p| p > cfg.cpus.len())
    {
        res.notes.push(format!(
            "{p} PEs on {} CPUs are oversubscribed: a PE waiting for its left neighbour's row \
             must give the CPU to it (adaptive waits yield and sleep), so every row costs \
             scheduler hand-offs",
            cfg.cpus.len()
        ));
    }
    Ok(res)
}

/// The run means of MFLOP/s of a strong-scaling point.
fn mflops(res: &BenchResults, method: Method, pes: usize) -> Option<Vec<f64>> {
    run_means_of(res, "mflops", |r| {
        r.param_text("scaling") == "strong"
            && r.param_text("method") == method.name()
            && team_run::on_shm(r)
            && r.param_f64("pes") == Some(pes as f64)
    })
}

/// The seed's claim "more than 2× improvement" on the pipelined stencil: counting-put /
/// fence-flag MFLOP/s in strong scaling, for every team size of 2 PEs or more.
fn findings(res: &BenchResults) -> Vec<Finding> {
    let pes = distinct(
        res.records
            .iter()
            .filter(|r| r.param_text("scaling") == "strong")
            .filter_map(|r| r.param_f64("pes").map(|p| p as usize))
            .filter(|&p| p >= 2),
    );
    let mut out = Vec::new();
    for p in pes {
        let over = team_run::oversubscribed(res, p);
        let claim = format!(
            "counting puts make the pipelined stencil more than 2× faster than fence + flag \
             [{p} PEs{over}] (seed: > 2×)"
        );
        let what = "counting-put / fence-flag MFLOP/s";
        match (
            mflops(res, Method::CountingPut, p),
            mflops(res, Method::FenceFlag, p),
        ) {
            (Some(c), Some(f)) => {
                let why = if over.is_empty() {
                    format!(
                        "each row sends one 8-byte value to the right neighbour; {}",
                        team_run::SAME_WORK
                    )
                } else {
                    team_run::OVERSUBSCRIBED.to_string()
                };
                out.push(team_run::because(at_least(&claim, what, &c, &f, 2.0), &why))
            }
            (None, None) => {}
            _ => out.push(judge(&claim, what, None, 2.0)),
        }
    }
    out
}

#[cfg(test)]
mod tests;

//! `atomics` (foMPI, seed 001): the cost of remote atomics on handoff's team — element-wise
//! accumulates of s `i64`s (`Sum`: one hardware fetch-add per element; `Min`: a
//! compare-and-swap loop per element) against s, with the seed's model `a + b·s`; and
//! fetch-add / compare-and-swap on one remote word, by one PE (uncontended) and by every PE
//! on the same word (contended), against p.
//!
//! A PE that is asleep in a wait (a barrier, a signal wait) is woken by every remote
//! atomic on its memory — the team rings its doorbell, a futex wake of about 0.3 µs here —
//! so an accumulate of s elements into a sleeping PE pays s wake-ups. The idle PEs here
//! poll instead (a target that computes, the usual passive-target case).
//!
//! Each run is a fresh team (`team_worker`); rank 0's µs per call are the samples. Every
//! run verifies the target's final values against closed forms: the sum of what was added,
//! the minimum of what was offered, the exact count of increments (CAS increments retry
//! until they succeed, so none may be lost).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use handoff::team::{AccOp, Team, Transport};
use serde::{Deserialize, Serialize};

use super::launcher;
use super::team_config::TeamConfig;
use super::team_run::{self, PeOutput, TeamSpec};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::{at_least_if, run_means};
use crate::bench::models::ModelForm;
use crate::bench::{BenchResults, Finding};

pub const NAME: &str = "atomics";
pub const METRIC: &str = "op_us";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Remote atomics and accumulates",
    section: "RMA synchronization (foMPI)",
    seed: "Gerstenberger, Besta, Hoefler, foMPI (seed 001): accumulates and atomics",
    what: "µs per call of rank 0: accumulate Sum (hardware fetch-add per element) and Min (a \
           CAS loop per element) of s i64s into another PE, against s; fetch-add and \
           compare-and-swap on one remote word by one PE (uncontended) and by all p PEs on \
           the same word (contended), against p. The target's final values are checked \
           against closed forms (sums, minima, exact increment counts).",
    figures: &[
        FigureSpec {
            x_label: "elements (s)",
            x_is_size: false,
            series_prefix: "acc-",
            ..FigureSpec::vs_size(
                "atomics_accumulate",
                "accumulate of s i64: µs per call vs s",
                METRIC,
            )
        },
        FigureSpec {
            x_label: "PEs (p)",
            x_is_size: false,
            log_x: false,
            log_y: false,
            ..FigureSpec::vs_size("atomics_word", "one remote word: µs per op vs PEs", METRIC)
        },
    ],
    findings,
    run: Some(|ctx| run(ctx, &Config::for_report(ctx.quick))),
    worker: Some(launcher::worker_main::<WorkerSpec>),
    report_cost: ReportCost::fixed(4.8, 0.3),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// A series.
    pub enum Mode {
        /// accumulate Sum of s i64 (x = s, p = 2).
        AccSum = "acc-sum",
        /// accumulate Min of s i64 (x = s, p = 2).
        AccMin = "acc-min",
        /// fetch-add by rank 0 only (x = p).
        FetchAdd = "fetch-add",
        /// CAS increment by rank 0 only (x = p).
        Cas = "cas",
        /// fetch-add by every PE on PE 0's word (x = p).
        FetchAddContended = "fetch-add-contended",
        /// CAS increment by every PE on PE 0's word (x = p).
        CasContended = "cas-contended",
    }
}

impl Mode {
    fn accumulate(self) -> bool {
        matches!(self, Mode::AccSum | Mode::AccMin)
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    pub modes: Vec<Mode>,
    /// Accumulate sizes in elements.
    pub sizes: Vec<usize>,
    /// Team sizes of the one-word modes.
    pub pes: Vec<usize>,
    /// Operations per repetition for s = 1 (accumulates of s elements: iters / s, at least 2).
    pub iters: u64,
    /// Timed repetitions per run (after one warm-up).
    pub reps: u64,
    /// Runs, the PEs' wait, the transports and the fault: corrupt one operation (tests that
    /// verification catches it).
    #[serde(flatten)]
    pub team: TeamConfig<bool>,
}

/// The largest accumulate.
pub const MAX_SIZE: usize = 1 << 15;

impl Config {
    /// The report's plan: s = 1, 8, 64, 512, 4096, 32768 (quick 1, 64, 4096); p = 2, 3, 4
    /// (quick 2, 4).
    pub fn for_report(quick: bool) -> Config {
        Config {
            modes: Mode::ALL.to_vec(),
            sizes: if quick {
                vec![1, 64, 4096]
            } else {
                vec![1, 8, 64, 512, 4096, MAX_SIZE]
            },
            pes: if quick { vec![2, 4] } else { vec![2, 3, 4] },
            iters: if quick { 2000 } else { 20_000 },
            reps: if quick { 4 } else { 8 },
            team: TeamConfig::plan(if quick { 2 } else { 3 }, false),
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.modes.is_empty() {
            return Err(bad(format!(
                "no mode: use --modes with some of {}",
                Mode::ALL.map(Mode::name).join(",")
            )));
        }
        if self.sizes.is_empty() || self.sizes.iter().any(|&s| !(1..=MAX_SIZE).contains(&s)) {
            return Err(bad(format!(
                "--sizes needs element counts from 1 to {MAX_SIZE}"
            )));
        }
        if self.pes.is_empty() || self.pes.iter().any(|&p| !(2..=64).contains(&p)) {
            return Err(bad("--pes needs team sizes from 2 to 64, e.g. 2,4".into()));
        }
        if self.iters == 0 || self.reps == 0 || self.team.runs == 0 {
            return Err(bad("--iters, --reps and --runs must be at least 1".into()));
        }
        if self.iters > 10_000_000 {
            return Err(bad(format!("--iters {}: at most 10000000", self.iters)));
        }
        self.team.check(NAME)
    }

    /// Every point: (mode, p, s, x).
    pub fn points(&self) -> Vec<(Mode, usize, usize, usize)> {
        let mut out = Vec::new();
        for &m in &self.modes {
            if m.accumulate() {
                out.extend(self.sizes.iter().map(|&s| (m, 2, s, s)));
            } else {
                out.extend(self.pes.iter().map(|&p| (m, p, 1, p)));
            }
        }
        out
    }

    /// Calls per repetition for accumulates of `s` elements.
    pub fn calls(&self, s: usize) -> u64 {
        (self.iters / s as u64).max(2)
    }
}

/// Runs `cfg`; stops early (partial) when `ctx.cancel` is set.
pub fn run(ctx: &mut RunCtx<'_>, cfg: &Config) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    cfg.team
        .wait_for(NAME, cfg.pes.iter().copied(), ctx.allowed_cpus)?;
    let points = cfg.points();
    let mut res = ctx.run_points(NAME, cfg, &points, |ctx, res, &(mode, p, s, x)| {
        let spec = WorkerSpec {
            mode,
            s,
            calls: if mode.accumulate() {
                cfg.calls(s)
            } else {
                cfg.iters
            },
            reps: cfg.reps,
            fault: cfg.team.fault,
        };
        let label = format!("{} p={p} s={s}", mode.name());
        let team = TeamSpec::new(ctx, NAME, &spec, p, label);
        cfg.team.point(ctx, res, team, "values", |runs, _| {
            Ok(runs
                .record(mode.name(), x as f64, cfg.reps)
                .param("mode", mode.name())
                .param("pes", p)
                .param("elements", s)
                .metric(METRIC, metric(NAME, "µs", false, &runs.per_run)?))
        })
    })?;
    for m in [Mode::AccSum, Mode::AccMin] {
        let fit = res.fit_series(m.name(), METRIC, ModelForm::Linear, "s");
        res.models.extend(fit);
    }
    for m in [Mode::FetchAddContended, Mode::CasContended] {
        let fit = res.fit_series(m.name(), METRIC, ModelForm::Linear, "p");
        res.models.extend(fit);
    }
    let cpus = ctx.allowed_cpus.len();
    if cfg.pes.iter().any(|&p| p > cpus) {
        res.notes.push(format!(
            "teams of more than {cpus} PEs share CPUs (oversubscribed): contended times include \
             waiting for a CPU"
        ));
    }
    Ok(res)
}

/// Claims: hardware atomics beat CAS loops (Open MPI's osc/sm locks every accumulate; foMPI
/// maps to hardware atomics where it can), and contention on one word costs.
fn findings(res: &BenchResults) -> Vec<Finding> {
    let runs_at = |series: &str, x: f64| run_means(res, series, x, METRIC);
    let top = |s: &str| res.series(s).iter().map(|r| r.x).fold(0.0, f64::max);
    let mut out = Vec::new();
    let s = top("acc-sum");
    out.extend(at_least_if(
        &format!("Sum by hardware fetch-add costs no more than Min by a CAS loop (s = {s})"),
        "acc-min / acc-sum",
        runs_at("acc-min", s),
        runs_at("acc-sum", s),
        1.0,
    ));
    let p = top("fetch-add-contended");
    out.extend(at_least_if(
        &format!("all PEs on one word cost more than one PE alone (fetch-add, p = {p})"),
        "fetch-add-contended / fetch-add",
        runs_at("fetch-add-contended", p),
        runs_at("fetch-add", p),
        1.0,
    ));
    out
}

// ---- the worker: one PE -----------------------------------------------------------------

/// What one PE of an atomics team runs (`handoff __worker atomics SPEC`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerSpec {
    /// The series.
    pub mode: Mode,
    /// Elements per accumulate.
    pub s: usize,
    /// Calls per repetition.
    pub calls: u64,
    /// Timed repetitions (after one warm-up).
    pub reps: u64,
    /// PE 0 skips its last call.
    pub fault: bool,
}

team_run::pe_body!(
    WorkerSpec,
    pe,
    Duration::from_secs(60),
    Box<dyn std::error::Error>
);

/// The Min operand of call `c` for element `i` (decreasing, so every call lowers it).
fn min_value(c: u64, i: usize) -> i64 {
    -(c as i64) * 3 - i as i64
}

fn pe<X: Transport>(
    team: &Team<X>,
    spec: &WorkerSpec,
) -> Result<PeOutput, Box<dyn std::error::Error>> {
    let (mode, s, calls, reps, fault) = (spec.mode, spec.s, spec.calls, spec.reps, spec.fault);
    let (me, p) = (team.rank(), team.size());
    let arr = team.alloc::<i64>(s)?;
    let word = team.alloc::<u64>(1)?;
    let done = team.alloc::<u64>(1)?;
    if mode == Mode::AccMin {
        team.put(&arr, 0, &vec![i64::MAX; s], me)?;
    }
    let contended = matches!(mode, Mode::FetchAddContended | Mode::CasContended);
    let (target, active) = if contended { (0, true) } else { (1, me == 0) };
    let total = calls * (reps + 1);
    let sum_src: Vec<i64> = (0..s).map(|i| i as i64 + 1).collect();
    let mut min_src = vec![0i64; s];
    let mut samples = Vec::new();
    let mut c = 0u64;
    for rep in 0..=reps {
        team.barrier_all()?;
        let t0 = Instant::now();
        if active {
            for _ in 0..calls {
                c += 1;
                // The last call: the only one whose loss changes a minimum.
                let skip = fault && me == 0 && c == total;
                match mode {
                    Mode::AccSum if !skip => {
                        team.accumulate(&arr, 0, &sum_src, AccOp::Sum, target)?
                    }
                    Mode::AccMin if !skip => {
                        for (i, v) in min_src.iter_mut().enumerate() {
                            *v = min_value(c, i);
                        }
                        team.accumulate(&arr, 0, &min_src, AccOp::Min, target)?
                    }
                    Mode::FetchAdd | Mode::FetchAddContended if !skip => {
                        team.atomic_fetch_add(word, 1u64, target)?;
                    }
                    Mode::Cas | Mode::CasContended if !skip => {
                        let mut old = team.atomic_fetch(word, target)?;
                        loop {
                            let seen = team.atomic_compare_swap(word, old, old + 1, target)?;
                            if seen == old {
                                break;
                            }
                            old = seen;
                        }
                    }
                    _ => {}
                }
            }
        }
        let us = t0.elapsed().as_secs_f64() * 1e6 / calls as f64;
        if rep > 0 {
            samples.push(us);
        }
        // The idle PEs stay busy (polling), not asleep in a wait: a sleeping target is
        // woken by every remote atomic (a futex wake each, module docs), and a passive
        // target is usually computing.
        if active && me == 0 {
            for q in (0..p).filter(|&q| q != 0 && !contended) {
                team.atomic_set(done, rep + 1, q)?;
            }
        } else if !active {
            let w = &team.local_atomic(&done)[0];
            let mut polls = 0u32;
            while w.load(Ordering::Acquire) < rep + 1 {
                polls += 1;
                if polls.is_multiple_of(64) {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
            }
        }
    }
    team.barrier_all()?;
    let (mut checked, mut wrong) = (0, 0);
    if me == target {
        let actives = if target == 0 { p as u64 } else { 1 };
        let a = team.local(&arr);
        let count = |right: &dyn Fn(usize, i64) -> bool| {
            let wrong = a.iter().enumerate().filter(|&(i, &v)| !right(i, v)).count();
            (a.len() as u64, wrong as u64)
        };
        (checked, wrong) = match mode {
            Mode::AccSum => count(&|i, v| v == total as i64 * (i as i64 + 1)),
            Mode::AccMin => count(&|i, v| v == min_value(total, i)),
            _ => (
                1,
                u64::from(team.local_atomic(&word)[0].load(Ordering::Acquire) != actives * total),
            ),
        };
    }
    Ok(PeOutput::counted(me, samples, checked, wrong))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        let q = Config::for_report(true);
        q.validate().unwrap();
        // 2 accumulate modes × 3 sizes + 4 word modes × 2 p.
        assert_eq!(q.points().len(), 2 * 3 + 4 * 2);
        assert_eq!(q.calls(4096), 2);
        assert_eq!(q.calls(64), 31);
        let mut b = q.clone();
        b.sizes = vec![MAX_SIZE + 1];
        assert!(b.validate().is_err());
        let mut b = q.clone();
        b.pes = vec![1];
        assert!(b.validate().is_err());
        // Min operands fall with every call: the final minimum is the last call's.
        assert!(min_value(5, 2) < min_value(4, 2));
        assert_eq!(min_value(2, 1), -7);
    }

    #[test]
    fn findings_by_hand() {
        let mut r = BenchResults::empty(NAME);
        let rec = |s: &str, x: f64, v: f64| {
            let means = [v, v * 1.01, v * 1.02];
            crate::bench::findings::record_of_runs(s, x, (METRIC, "µs", false), &means)
        };
        r.records.push(rec("acc-sum", 64.0, 1.0));
        r.records.push(rec("acc-min", 64.0, 3.0));
        r.records.push(rec("fetch-add", 4.0, 0.02));
        r.records.push(rec("fetch-add-contended", 4.0, 0.2));
        let f = findings(&r);
        assert_eq!(f.len(), 2);
        assert!(f[0].sentence.contains("3.00×"), "{}", f[0].sentence);
        assert!(f[1].sentence.contains("10.00×"), "{}", f[1].sentence);
        assert!(f.iter().all(|f| f.holds == crate::bench::Holds::Yes));
    }
}

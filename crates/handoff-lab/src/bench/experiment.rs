//! What an experiment plugs into the lab with: its [`ExperimentInfo`] (figures, findings, the
//! report plan's [`RunFn`], the worker body), what a run is given ([`RunCtx`]) and how it
//! fails ([`BenchError`]). The experiments build on this file; the registry
//! ([`super::registry`]), which lists them, sits above them, so nothing imports in a circle.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::findings::Finding;
use super::schema::{BenchResults, MetricRecord};
use crate::machine::{Machine, Tool};
use crate::progress::Progress;
use handoff_probe::topology::Topology;

/// What an experiment needs from `handoff report` (or its own `bench` command) to run.
pub struct RunCtx<'a> {
    /// `--quick`: the report must stay under a minute in all, so take a few seconds at most.
    pub quick: bool,
    /// The machine description for the results file.
    pub machine: &'a Machine,
    /// The tool description for the results file.
    pub tool: &'a Tool,
    /// How to start a worker process: run `exe` with `args` (e.g. `["__worker"]`) followed by
    /// the experiment's name and its own arguments; the CLI dispatches to
    /// [`ExperimentInfo::worker`].
    pub exe: PathBuf,
    /// Arguments before the experiment's name.
    pub args: Vec<OsString>,
    /// CPUs this process may run on.
    pub allowed_cpus: &'a [usize],
    /// Set by Ctrl-C: stop as soon as possible and return partial results.
    pub cancel: &'a AtomicBool,
    /// Progress (one phase per experiment is plenty).
    pub progress: &'a mut dyn Progress,
    /// The transports the team experiments (`pingpong`, `alltoall`, `stencil`, `rma-sync`)
    /// run side by side in their report plans (`handoff report --transport`; `[shm]`
    /// unless asked).
    pub transports: Vec<TransportKind>,
}

impl<'a> RunCtx<'a> {
    /// The run loop every experiment shares: a results file of `experiment` with `config`,
    /// one progress phase over `points`, `point` measuring each in turn (it adds its records
    /// and notes to the results and returns its progress line, `None` when it measured
    /// nothing), and the elapsed time. Ctrl-C stops it before the next point (or after the
    /// last, when it cut that one short): the results are then partial, saying after how many
    /// points; so does `point` marking them partial itself (a stop request).
    pub fn run_points<P>(
        &mut self,
        experiment: &'static str,
        config: &impl Serialize,
        points: &[P],
        mut point: impl FnMut(&mut Self, &mut BenchResults, &P) -> Result<Option<String>, BenchError>,
    ) -> Result<BenchResults, BenchError> {
        let config = serde_json::to_value(config).unwrap_or_default();
        let mut res =
            BenchResults::new(experiment, self.machine.clone(), self.tool.clone(), config);
        let started = Instant::now();
        self.progress.begin(points.len(), experiment);
        for p in points {
            if self.stopped(&mut res, points.len()) {
                break;
            }
            if let Some(line) = point(self, &mut res, p)? {
                self.progress.advance(&line);
            }
            if res.partial {
                break;
            }
        }
        self.progress.end();
        if !res.partial {
            self.stopped(&mut res, points.len());
        }
        res.elapsed_s = Some(started.elapsed().as_secs_f64());
        Ok(res)
    }

    /// When Ctrl-C was pressed, marks `res` partial (after its records of `total` points)
    /// and returns true.
    pub fn stopped(&self, res: &mut BenchResults, total: usize) -> bool {
        if !self.cancel.load(Ordering::Relaxed) {
            return false;
        }
        res.partial = true;
        res.stopped_early = Some(format!(
            "interrupted after {} of {total} points",
            res.records.len()
        ));
        true
    }
}

/// Runs an experiment's report plan.
pub type RunFn = fn(&mut RunCtx<'_>) -> Result<BenchResults, BenchError>;
/// The body of a worker process, given its arguments.
pub type WorkerFn = fn(&[String]) -> Result<(), BenchError>;

/// [`MetricRecord::from_runs`] with the experiment's error.
pub fn metric(
    experiment: &'static str,
    unit: &str,
    higher_is_better: bool,
    per_run: &[Vec<f64>],
) -> Result<MetricRecord, BenchError> {
    MetricRecord::from_runs(unit, higher_is_better, per_run)
        .map_err(|e| BenchError::failed(experiment, e))
}

/// An experiment failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// Bad input the user can fix (exit code 2).
    #[error("{experiment}: {message}")]
    Usage {
        experiment: &'static str,
        /// What is wrong and what to do.
        message: String,
    },
    /// A failure while measuring (exit code 3), e.g. a worker died or data failed to verify.
    #[error("{experiment}: {message}")]
    Failed {
        experiment: &'static str,
        /// What happened.
        message: String,
    },
    /// A worker process only noticed its peer fail or give up, a consequence and not a cause
    /// (exit code [`EXIT_PEER_GONE`]: how its parent tells the two apart).
    #[error("{experiment}: {message}")]
    PeerGone {
        experiment: &'static str,
        /// What it noticed.
        message: String,
    },
}

/// The exit code of a worker that only noticed its peer fail ([`BenchError::PeerGone`]).
pub const EXIT_PEER_GONE: u8 = 4;

impl BenchError {
    /// A usage error of `experiment`.
    pub fn usage(experiment: &'static str, message: impl Into<String>) -> BenchError {
        BenchError::Usage {
            experiment,
            message: message.into(),
        }
    }

    /// A failure of `experiment` while measuring.
    pub fn failed(experiment: &'static str, message: impl std::fmt::Display) -> BenchError {
        BenchError::Failed {
            experiment,
            message: message.to_string(),
        }
    }
}

#[cfg(test)]
pub(crate) use testing::{assert_each_refused, assert_each_refused_naming};

/// One figure of an experiment: a metric against the records' x, one line per series.
#[derive(Debug, Clone, Copy)]
pub struct FigureSpec {
    /// File stem, unique in a report (e.g. "pingpong-latency").
    pub id: &'static str,
    pub title: &'static str,
    /// Metric name in [`super::schema::BenchRecord::metrics`].
    pub metric: &'static str,
    /// What x is, e.g. "message size" or "PEs".
    pub x_label: &'static str,
    /// x is a size in bytes (ticks as "4 KiB").
    pub x_is_size: bool,
    pub log_x: bool,
    pub log_y: bool,
    /// Draw the c2c floor (the smallest `c2c_one_way_ns` of the records, in the metric's
    /// unit: the metric must be in µs).
    pub floor: bool,
    /// Only records whose series starts with this prefix ("" = all).
    pub series_prefix: &'static str,
}

impl FigureSpec {
    /// A figure of `metric` against message size (log-log), every series.
    pub const fn vs_size(id: &'static str, title: &'static str, metric: &'static str) -> Self {
        FigureSpec {
            id,
            title,
            metric,
            x_label: "message size",
            x_is_size: true,
            log_x: true,
            log_y: true,
            floor: false,
            series_prefix: "",
        }
    }
}

/// An experiment of the lab.
#[derive(Debug, Clone, Copy)]
pub struct ExperimentInfo {
    /// Registry name = `handoff bench NAME` = the results' `experiment` field.
    pub name: &'static str,
    /// Heading of its part of the report.
    pub title: &'static str,
    /// The report section it belongs to (several experiments share one, e.g. "Counting puts").
    pub section: &'static str,
    /// Which source document it reproduces, e.g. "Dinan et al., counting puts (seed 003)".
    pub seed: &'static str,
    /// One or two sentences: what is measured and how the data is verified.
    pub what: &'static str,
    pub figures: &'static [FigureSpec],
    /// The seed's claims checked on these results.
    pub findings: fn(&BenchResults) -> Vec<Finding>,
    /// Runs the experiment's report plan (`ctx.quick` picks the short one); `None`: not part
    /// of `handoff report`. The report runs it beside its lead when [`ReportCost::alone`]
    /// (c2c's matrix is measured within the exchange's plan instead).
    pub run: Option<RunFn>,
    /// The body of a worker process (`handoff __worker NAME ARGS...`), given `ARGS`.
    pub worker: Option<WorkerFn>,
    /// What the experiment adds to `handoff report`'s time (its part of the plan's estimate),
    /// or its own report plan.
    pub report_cost: ReportCost,
    /// Figures its data decides, drawn beside `figures` (exchange, c2c); `None` for most.
    pub draw: Option<DrawFn>,
    /// Its part of a report its results lead (exchange: the paper's question, its sections
    /// and files); `None` for most.
    pub report: Option<ReportFn>,
}

/// The part of a report led by `results`, with the other experiments' results beside it.
pub type ReportFn = fn(&BenchResults, &[BenchResults]) -> crate::report::doc::Part;

/// Draws the figures a results file's data supports (`source`: the file, for errors); a file
/// whose records lack what they read is refused ([`crate::plot::PlotError::Input`]).
pub type DrawFn = fn(
    &BenchResults,
    Option<&std::path::Path>,
) -> Result<Vec<crate::plot::Drawn>, crate::plot::PlotError>;

/// What an experiment's report plan takes on the reference machine of the cost model
/// (`experiments/exchange/cost.rs`: the 2-CPU KVM guest at a load average near 3.7), in
/// seconds of its full and its quick plan: each experiment's time in a `handoff report`
/// of 2026-11-28 on that guest divided by the run's measured speed factor (full plans: a
/// quiet guest, factor 0.5, 0.25-32.5 s each; quick plans: load average 11, factor 1.68,
/// 0.05-3.1 s each). An
/// experiment measured on one pair per placement class (`per_class`) takes that time per
/// [`ReportCost::REFERENCE_CLASSES`] classes; the others run the same points on any machine
/// (more PEs on more CPUs, each with a CPU of its own). An experiment that plans its points
/// for the machine and the budget itself names its hooks instead (`plan`, `speed`).
#[derive(Debug, Clone, Copy)]
pub struct ReportCost {
    /// Seconds of the full report plan.
    pub full_s: f64,
    /// Seconds of the quick plan.
    pub quick_s: f64,
    /// The plan has one point per placement class.
    pub per_class: bool,
    /// Its own report plan for a step of the budget ladder (exchange); `None`: its `run`
    /// at the times above.
    pub plan: Option<PlanFn>,
    /// Measures how fast this machine runs the plan's cost model now (a factor, 1 = the
    /// model): the budget's estimate is scaled by it.
    pub speed: Option<SpeedFn>,
    /// `handoff report` runs it on its own; `false`: it is measured within the leading
    /// experiment's plan (the c2c matrix, in the exchange's).
    pub alone: bool,
}

impl ReportCost {
    /// The placement classes of the reference machine (same core, shared L3).
    pub const REFERENCE_CLASSES: usize = 2;
    /// Measured within the leading experiment's plan, never on its own (c2c).
    pub const WITHIN_LEAD: ReportCost = ReportCost {
        alone: false,
        ..ReportCost::fixed(0.0, 0.0)
    };

    /// A plan of `full_s` (quick: `quick_s`) seconds on any machine.
    pub const fn fixed(full_s: f64, quick_s: f64) -> ReportCost {
        ReportCost {
            full_s,
            quick_s,
            per_class: false,
            plan: None,
            speed: None,
            alone: true,
        }
    }

    /// A plan of one point per placement class: `full_s` (quick: `quick_s`) seconds on the
    /// reference machine's [`ReportCost::REFERENCE_CLASSES`] classes.
    pub const fn per_class(full_s: f64, quick_s: f64) -> ReportCost {
        ReportCost {
            per_class: true,
            ..ReportCost::fixed(full_s, quick_s)
        }
    }

    /// A plan the experiment makes itself (`plan`), scaled by what `speed` measures.
    pub const fn planned(plan: PlanFn, speed: SpeedFn) -> ReportCost {
        ReportCost {
            plan: Some(plan),
            speed: Some(speed),
            ..ReportCost::fixed(0.0, 0.0)
        }
    }

    /// Seconds of the full or quick plan on a machine with `classes` placement classes.
    pub fn seconds(&self, quick: bool, classes: usize) -> f64 {
        let s = if quick { self.quick_s } else { self.full_s };
        if self.per_class {
            s * classes.max(1) as f64 / Self::REFERENCE_CLASSES as f64
        } else {
            s
        }
    }
}

/// The flags `handoff report` (and `bench exchange`) pass to the plans that read them, parsed
/// but not interpreted: `None` keeps the plan's own choice.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReportFlags {
    /// `--mode`: mode names (`all` expanded), each one the experiment knows.
    pub modes: Option<Vec<String>>,
    /// `--size`, bytes.
    pub sizes: Option<Vec<usize>>,
    /// `--consumer-core`.
    pub consumer_cores: Option<Vec<usize>>,
    /// `--reps`.
    pub reps: Option<u32>,
    /// `--runs`.
    pub runs: Option<u32>,
    /// `--kernel`.
    pub kernel: Option<String>,
}

/// What `handoff report` asks an experiment's report plan: one step of the budget ladder on
/// one machine.
#[derive(Clone, Copy)]
pub struct PlanAsk<'a> {
    /// `--quick` (its own sizes; [`crate::report::plan::budget::QUICK`] is the step).
    pub quick: bool,
    /// The step of the budget ladder: repetitions, runs, sweep density, quick plans.
    pub step: &'a crate::report::plan::Step,
    /// The machine (this one, or a `--sysfs` tree's).
    pub topology: &'a Topology,
    pub allowed: &'a [usize],
    /// Bytes of memory available on the machine planned for, when known (bounds the largest
    /// block); a plan for a run (`for_run`) reads this machine's now instead.
    pub memory: Option<u64>,
    pub flags: &'a ReportFlags,
    /// Stop after this many records (tests).
    pub stop_after_records: Option<usize>,
    /// The plan runs now (not `--plan`): refuse what this machine cannot run now.
    pub for_run: bool,
}

impl PlanAsk<'_> {
    /// The placement classes seen from the first allowed CPU.
    pub fn classes(&self) -> usize {
        self.topology
            .representatives_per_class(self.allowed[0], self.allowed, 1)
            .len()
    }
}

/// Runs a report plan's part.
pub type PlanRun = Box<dyn FnOnce(&mut RunCtx<'_>) -> Result<BenchResults, BenchError>>;

/// An experiment's part of a report's plan: its estimate, what it says in `--plan`, and how
/// it runs.
pub struct ReportPlan {
    /// Seconds at the cost model's speed, by piece ("c2c", "exchange"; the experiment's name
    /// for most), in the order they run.
    pub pieces: Vec<(&'static str, f64)>,
    /// What it measures, lines for `handoff report --plan`.
    pub lines: Vec<String>,
    /// Notes for the plan and the results' settings.
    pub notes: Vec<String>,
    /// How its repetitions were chosen ("fixed" by a flag, else by the step), in words.
    pub reps: Option<(bool, String)>,
    pub run: PlanRun,
}

impl ReportPlan {
    /// Seconds at the cost model's speed.
    pub fn seconds(&self) -> f64 {
        self.pieces.iter().map(|p| p.1).sum()
    }
}

/// An experiment's own report plan for a step of the budget ladder.
pub type PlanFn = fn(&PlanAsk<'_>) -> Result<ReportPlan, BenchError>;
/// Measures this machine's speed against an experiment's cost model now (a factor).
pub type SpeedFn = fn(&mut RunCtx<'_>) -> f64;

impl ExperimentInfo {
    /// Its part of a report's plan: its own ([`ReportCost::plan`]), else its `run` at its
    /// measured times; `None` when the report does not run it on its own.
    pub fn report_plan(&self, ask: &PlanAsk<'_>) -> Option<Result<ReportPlan, BenchError>> {
        if let Some(plan) = self.report_cost.plan {
            return Some(plan(ask));
        }
        let run = self.run.filter(|_| self.report_cost.alone)?;
        let quick = ask.step.others_quick;
        Some(Ok(ReportPlan {
            pieces: vec![(self.name, self.report_cost.seconds(quick, ask.classes()))],
            lines: Vec::new(),
            notes: Vec::new(),
            reps: None,
            run: Box::new(move |ctx| {
                ctx.quick = quick;
                run(ctx)
            }),
        }))
    }
}

/// No findings (an experiment whose seed makes no checkable claim).
pub fn no_findings(_: &BenchResults) -> Vec<Finding> {
    Vec::new()
}

/// What a build without the `mpi` feature says when asked for MPI.
pub const NO_MPI: &str = "this handoff was built without MPI; rebuild with `cargo build \
    --release -p handoff-cli --features mpi`";

/// Which transport serves a team run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TransportKind {
    /// handoff's shared-memory team (`team::Launch`).
    #[default]
    Shm,
    /// The MPI transport with a shared window (`MPI_Win_allocate_shared`).
    MpiShm,
    /// The MPI transport with MPI RMA calls (`MPI_Win_allocate`, the inter-node path).
    MpiRma,
}

impl TransportKind {
    /// Every kind, in report order.
    pub const ALL: [TransportKind; 3] = [
        TransportKind::Shm,
        TransportKind::MpiShm,
        TransportKind::MpiRma,
    ];

    /// The name in `--transport` and in the records' `transport` param (the same words as
    /// [`handoff::team::Team::route`]).
    pub fn name(self) -> &'static str {
        match self {
            TransportKind::Shm => "shm",
            TransportKind::MpiShm => "mpi-shm",
            TransportKind::MpiRma => "mpi-rma",
        }
    }

    /// `HANDOFF_MPI_WINDOW` for an MPI kind.
    pub fn window(self) -> Option<&'static str> {
        match self {
            TransportKind::Shm => None,
            TransportKind::MpiShm => Some("shared"),
            TransportKind::MpiRma => Some("rma"),
        }
    }

    /// Parses `--transport shm,mpi-shm,mpi-rma` (no duplicates, at least one).
    pub fn parse_list(
        experiment: &'static str,
        text: &str,
    ) -> Result<Vec<TransportKind>, BenchError> {
        let mut out = Vec::new();
        for word in text.split(',').map(str::trim) {
            let k = TransportKind::ALL
                .into_iter()
                .find(|k| k.name() == word)
                .ok_or_else(|| {
                    BenchError::usage(
                        experiment,
                        format!(
                            "--transport {text}: unknown transport {word:?}; use a comma list \
                             of shm, mpi-shm, mpi-rma"
                        ),
                    )
                })?;
            if !out.contains(&k) {
                out.push(k);
            }
        }
        Ok(out)
    }
}

/// Tests of `validate`s: each change that makes a valid configuration invalid is refused.
#[cfg(test)]
mod testing {
    use super::BenchError;

    /// Tests: one change that makes a valid configuration invalid.
    pub(crate) type Break<C> = fn(&mut C);

    /// Tests of a `validate`: each change in `breaks`, made alone to a copy of `ok`, is refused.
    pub(crate) fn assert_each_refused<C: Clone + std::fmt::Debug>(
        ok: &C,
        validate: impl Fn(&C) -> Result<(), BenchError>,
        breaks: &[Break<C>],
    ) {
        for brk in breaks {
            let mut bad = ok.clone();
            brk(&mut bad);
            assert!(validate(&bad).is_err(), "{bad:?}");
        }
    }

    /// [`assert_each_refused`], each refusal a usage error naming `needle` (what to fix).
    pub(crate) fn assert_each_refused_naming<C: Clone>(
        ok: &C,
        validate: impl Fn(&C) -> Result<(), BenchError>,
        breaks: &[(Break<C>, &str)],
    ) {
        for (brk, needle) in breaks {
            let mut bad = ok.clone();
            brk(&mut bad);
            let e = validate(&bad).unwrap_err();
            assert!(matches!(e, BenchError::Usage { .. }), "{e}");
            assert!(e.to_string().contains(needle), "{e}");
        }
    }
}

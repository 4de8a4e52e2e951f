//! What the team experiments' configurations share (runs, wait, transports, the fault tests
//! inject), flattened into each one's `config`: the results files keep their keys.

use std::sync::atomic::Ordering;

use handoff::sync::Wait;
use serde::Serialize;

use super::launcher::{self, Runs};
use super::team_run::{self, Fault, TeamSpec};
use crate::bench::experiment::{BenchError, RunCtx, TransportKind};
use crate::bench::{BenchRecord, BenchResults, Checks};

/// The team experiments' common configuration; `F` is their fault's type.
#[derive(Debug, Clone, Serialize)]
pub struct TeamConfig<F: FaultSetting> {
    /// Runs (a fresh team each).
    pub runs: u64,
    /// The PEs' wait strategy (`spin`, `spin-yield`, `block`, `adaptive`).
    pub wait: String,
    /// The transports to run every point over, side by side (`shm`: handoff's team;
    /// `mpi-shm` / `mpi-rma`: the MPI transport under mpiexec); `None` (and no `transports`
    /// in the results) for the experiments that run on handoff's team only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transports: Option<Vec<TransportKind>>,
    /// Test only: a fault the run must catch (see the experiment's `team`); none by default.
    #[serde(skip_serializing_if = "FaultSetting::unwritten")]
    pub fault: F,
}

/// A team experiment's fault: `bool` (corrupt one value) or a [`Fault`] (`KIND@STEP`).
pub trait FaultSetting: Clone + Default + Serialize {
    /// Whether the results leave it out: a `false` is, a `None` is written (`null`), as the
    /// experiments' results always had them.
    fn unwritten(&self) -> bool;
}

impl FaultSetting for bool {
    fn unwritten(&self) -> bool {
        !*self
    }
}

impl FaultSetting for Option<Fault> {
    fn unwritten(&self) -> bool {
        false
    }
}

impl<F: FaultSetting> TeamConfig<F> {
    /// The report plan's: `runs`, the adaptive wait, no fault, and shared memory alone when
    /// the experiment has a choice of transports (`mpi`).
    pub fn plan(runs: u64, mpi: bool) -> TeamConfig<F> {
        TeamConfig {
            runs,
            wait: "adaptive".into(),
            transports: mpi.then(|| vec![TransportKind::Shm]),
            fault: F::default(),
        }
    }

    /// The report plan's transports: `handoff report --transport`'s, if it gave some and the
    /// experiment has a choice.
    pub fn plan_transports(&mut self, ctx: &RunCtx<'_>) {
        if let Some(t) = &mut self.transports {
            if !ctx.transports.is_empty() {
                t.clone_from(&ctx.transports);
            }
        }
    }

    /// The transports every point runs over.
    pub fn transports(&self) -> &[TransportKind] {
        self.transports.as_deref().unwrap_or(&[TransportKind::Shm])
    }

    /// One point: `runs` fresh teams of `team` with this wait, one after the other
    /// ([`launcher::run_team`]), gathering rank 0's samples and every PE's checks of `items`
    /// ("messages", "bytes", …); each PE that did not verify becomes a note ("LABEL: data
    /// failed verification: WHY"). The record `record` makes of the runs (given the results'
    /// notes) is added to `res`. Returns the point's progress line, the team's label (and
    /// transport, when the experiment has a choice). When a run fails after Ctrl-C, the runs
    /// so far make the record, `None` when there are none; any other failure is the error.
    pub fn point(
        &self,
        ctx: &RunCtx<'_>,
        res: &mut BenchResults,
        team: TeamSpec,
        items: &str,
        record: impl FnOnce(&Runs, &mut Vec<String>) -> Result<BenchRecord, BenchError>,
    ) -> Result<Option<String>, BenchError> {
        let team = TeamSpec {
            wait: team_run::parse_wait(team.experiment, &self.wait)?,
            ..team
        };
        let mut runs = Runs {
            per_run: Vec::new(),
            checks: Checks::of(items),
            route: team.transport.name().to_string(),
            floors_per_run: Vec::new(),
            transport: team.transport,
        };
        for _ in 0..self.runs {
            let outs = match launcher::run_team(&team) {
                Ok(o) => o,
                Err(_) if ctx.cancel.load(Ordering::Relaxed) => break,
                Err(e) => return Err(e),
            };
            res.notes.extend(
                outs.iter()
                    .filter(|o| !o.verified)
                    .map(|o| format!("{}: data failed verification: {}", team.label, o.failure)),
            );
            team_run::add_checks(&mut runs.checks, &outs);
            runs.route = launcher::transport_of(&outs, team.transport);
            runs.per_run.push(outs[0].samples.clone());
            runs.floors_per_run.push(outs[0].floors.clone());
        }
        if runs.per_run.is_empty() {
            return Ok(None);
        }
        let rec = record(&runs, &mut res.notes)?;
        res.records.push(rec);
        Ok(Some(match self.transports {
            Some(_) => format!("{} {}", team.label, team.transport.name()),
            None => team.label.clone(),
        }))
    }

    /// Checks the wait, and that the transports can run here.
    pub fn check(&self, experiment: &'static str) -> Result<(), BenchError> {
        team_run::parse_wait(experiment, &self.wait)?;
        self.transports
            .as_ref()
            .map_or(Ok(()), |t| super::team_mpi::check_available(experiment, t))
    }

    /// This wait strategy ([`team_run::parse_wait`]) for teams of each of `pes` PEs pinned
    /// as [`TeamSpec`] pins them (PE `r` on `cpus[r % cpus.len()]`, unpinned when `cpus` is
    /// empty). Refuses `--wait spin` where it cannot work (PEs sharing a CPU, more PEs than
    /// CPUs): a usage error in one line offering `spin-yield`/`adaptive`, instead of a run
    /// that pays a scheduler tick per hand-off until its deadline. Every lab run that
    /// launches a team with a chosen wait makes this check before it runs anything.
    pub fn wait_for(
        &self,
        experiment: &'static str,
        pes: impl IntoIterator<Item = usize>,
        cpus: &[usize],
    ) -> Result<Wait, BenchError> {
        let wait = team_run::parse_wait(experiment, &self.wait)?;
        let available = std::thread::available_parallelism().map_or(1, |n| n.get());
        for pes in pes {
            let pinned: Vec<Option<usize>> = (0..pes)
                .map(|r| (!cpus.is_empty()).then(|| cpus[r % cpus.len()]))
                .collect();
            handoff::implementor::check_spin(wait, pes, &pinned, available)
                .map_err(|e| BenchError::usage(experiment, format!("a team of {pes} PEs: {e}")))?;
        }
        Ok(wait)
    }
}

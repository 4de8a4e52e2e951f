//! Every experiment of the lab, in report order.
//!
//! To add an experiment: write its `INFO: ExperimentInfo` ([`super::experiment`]) next to its
//! code and list it in [`EXPERIMENTS`]. `handoff report`, `plot` and `compare` find it here by
//! the `experiment` field of a results file. The registry sits above the experiments: they
//! never import it.

use super::experiment::{BenchError, ExperimentInfo, RunCtx, WorkerFn};
use super::findings::Finding;
use super::schema::BenchResults;

/// Every registered experiment, in report order.
pub static EXPERIMENTS: &[&ExperimentInfo] = &[
    &crate::experiments::private_vars::INFO,
    &crate::experiments::pingpong::INFO,
    &crate::experiments::alltoall::INFO,
    &crate::experiments::stencil::INFO,
    &crate::experiments::malloc::INFO,
    &crate::experiments::kneighbor::INFO,
    &crate::experiments::queue::INFO,
    &crate::experiments::aggregation::INFO,
    &crate::experiments::channels::INFO,
    &crate::experiments::rma_channels::INFO,
    &crate::experiments::rma_sync::INFO,
    &crate::experiments::atomics::INFO,
    &crate::experiments::msgrate::INFO,
    &crate::experiments::overlap::INFO,
    &crate::experiments::c2c::INFO,
    &crate::experiments::exchange::INFO,
];

/// The common runner: samples the machine around `body` and puts the evidence on every
/// record that has none ([`super::busy`]). Every `bench NAME` command and `handoff report`
/// run their experiments through it.
pub fn run_measured<'a>(
    ctx: &mut RunCtx<'a>,
    body: impl FnOnce(&mut RunCtx<'a>) -> Result<BenchResults, BenchError>,
) -> Result<BenchResults, BenchError> {
    let (mut res, load) = super::busy::measure(|| body(ctx))?;
    res.fill_load(&load);
    Ok(res)
}

/// The experiment named `name`.
pub fn by_name(name: &str) -> Option<&'static ExperimentInfo> {
    EXPERIMENTS.iter().copied().find(|e| e.name == name)
}

/// An `--experiments` list that names an experiment the report does not have.
#[derive(Debug, thiserror::Error)]
#[error("--experiments: unknown experiment '{name}'; known: all, none, {}", known.join(", "))]
pub struct UnknownExperiment {
    pub name: String,
    /// The names the report knows.
    pub known: Vec<&'static str>,
}

/// The experiment that leads `handoff report` (its part of the report answers the paper's
/// question: the exchange): always run, first.
pub fn lead() -> &'static ExperimentInfo {
    let lead = EXPERIMENTS.iter().find(|e| e.report.is_some());
    lead.expect("an experiment leads the report")
}

/// The experiments the report runs beside its [`lead`] that `list` names (`--experiments`):
/// all of them for `all`, none for `none`, else a comma list, in the registry's order; an
/// unknown name is the error, listing the known ones.
pub fn select(list: &str) -> Result<Vec<&'static ExperimentInfo>, UnknownExperiment> {
    let known: Vec<&'static ExperimentInfo> = EXPERIMENTS
        .iter()
        .copied()
        .filter(|e| e.run.is_some() && e.report_cost.alone && e.report.is_none())
        .collect();
    let wanted: Vec<&str> = match list {
        "all" => return Ok(known),
        "none" | "" => return Ok(Vec::new()),
        _ => list.split(',').map(str::trim).collect(),
    };
    if let Some(n) = wanted.iter().find(|n| !known.iter().any(|e| e.name == **n)) {
        return Err(UnknownExperiment {
            name: n.to_string(),
            known: known.iter().map(|e| e.name).collect(),
        });
    }
    Ok(known
        .into_iter()
        .filter(|e| wanted.contains(&e.name))
        .collect())
}

/// The worker body of the experiment named `name` (`handoff __worker NAME ...`).
pub fn worker(name: &str) -> Option<WorkerFn> {
    by_name(name).and_then(|e| e.worker)
}

/// The findings of `res` judged by its registry entry (none for an unknown experiment).
pub fn findings(res: &BenchResults) -> Vec<Finding> {
    by_name(&res.experiment).map_or_else(Vec::new, |i| (i.findings)(res))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_names_an_unknown_experiment_and_the_known_ones() {
        let e = select("pingpong, nosuch").unwrap_err();
        assert_eq!(e.name, "nosuch");
        assert!(e.known.contains(&"pingpong"));
        let line = e.to_string();
        assert!(line.starts_with("--experiments: unknown experiment 'nosuch'; known: all, none, "));
        assert_eq!(select("none").unwrap().len(), 0);
        let one = select("pingpong").unwrap();
        assert_eq!(one.iter().map(|e| e.name).collect::<Vec<_>>(), ["pingpong"]);
    }
}

//! Busy-machine evidence on every record, and the one rule that calls a run busy.
//!
//! [`super::registry::run_measured`] is the common runner: it samples the machine
//! ([`handoff_probe::load`]) before and after an experiment runs and puts the [`MachineLoad`]
//! on each record that has none, so no experiment fills it itself. Readers then ask
//! [`MachineLoad::busy_reasons`] or [`warning`]. This file imports nothing of the lab, so
//! every schema can hold a [`MachineLoad`] without an import circle.
//!
//! # The rule
//! A run is *busy* when any of these held while it ran:
//! - **other processes used more than [`OTHERS_CPU_LIMIT`] = 0.10 CPU on average** (judged
//!   only over at least [`MIN_ELAPSED_S`] of wall time: `/proc/stat` counts in 10 ms ticks).
//!   On a quiet machine the kernel's threads and daemons stay well under 2% of a CPU; a tenth
//!   of a CPU means another program ran in one of every ten time slices of a core the lab
//!   may be spinning on — the level where pyperf's `check` already calls a result unstable
//!   (standard deviation over 10% of the mean). Under `mpirun` the other ranks are not our
//!   children and count as "others": the rule is then left to steal.
//! - **steal time above [`STEAL_LIMIT`] = 5% of all CPU time**: a hypervisor ran other
//!   guests on our virtual CPUs for one tick in twenty; latency tails follow it.
//! - **the 1-minute load average before the run exceeded the CPU count, when it cannot be
//!   the lab's own**: judged only when the CPU accounting above cannot judge (a run under
//!   [`MIN_ELAPSED_S`], or no `/proc/stat`) and this process measured nothing in the
//!   [`LOAD_MEMORY_S`] before (the 1-minute average keeps e^-5 < 1% of a load that old;
//!   a report's earlier experiment, 8 PEs on 2 CPUs, leaves a load of 3 behind for a
//!   minute). The "after" value includes the lab's own threads: recorded, never judged.
//!
//! The lab's own CPU is this process, the children it reaped and its live descendants
//! (`handoff_probe::load`), so workers still running or not yet reaped at a sample are the
//! lab's, not others'. Before each experiment [`settle`] waits (briefly) for the previous
//! one's workers to be gone.
//!
//! hyperfine only warns after the fact (statistical outliers, modified Z-score above 14);
//! this rule looks at the machine itself, so it also catches a steady load that slows every
//! sample equally and leaves no outlier.

use serde::{Deserialize, Serialize};

/// Other processes' CPU use above which a run is busy (CPUs, on average).
pub const OTHERS_CPU_LIMIT: f64 = 0.10;
/// Steal fraction above which a run is busy.
pub const STEAL_LIMIT: f64 = 0.05;
/// Shortest run whose CPU accounting is judged (seconds).
pub const MIN_ELAPSED_S: f64 = 0.5;
/// How long the lab's own work stays in the 1-minute load average (seconds).
pub const LOAD_MEMORY_S: f64 = 300.0;
/// The longest [`settle`] waits for the previous experiment's workers to end (seconds).
pub const SETTLE_MAX_S: f64 = 2.0;

/// When this process's last measurement ended (see [`MachineLoad::lab_quiet_before_s`]).
static LAST_END: std::sync::Mutex<Option<std::time::Instant>> = std::sync::Mutex::new(None);

/// Samples the machine around `body` (the one sampling every runner uses): the lab's earlier
/// workers settled first, then a snapshot before and after, and how long the lab was quiet
/// before.
pub fn measure<T, E>(body: impl FnOnce() -> Result<T, E>) -> Result<(T, MachineLoad), E> {
    settle();
    let quiet = LAST_END
        .lock()
        .ok()
        .and_then(|l| l.map(|t| t.elapsed().as_secs_f64()));
    let before = handoff_probe::load::Snapshot::take();
    let out = body();
    let after = handoff_probe::load::Snapshot::take();
    if let Ok(mut l) = LAST_END.lock() {
        *l = Some(std::time::Instant::now());
    }
    let mut load = MachineLoad::from(before.until(&after));
    load.lab_quiet_before_s = Some(quiet.unwrap_or(f64::INFINITY).min(1e9));
    Ok((out?, load))
}

/// Waits up to [`SETTLE_MAX_S`] for this process's descendants (an earlier experiment's
/// workers) to end, so none of them runs beside the next measurement.
pub fn settle() {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(SETTLE_MAX_S);
    while handoff_probe::load::live_descendants() > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// What else the machine did while a record was measured (see the module docs).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MachineLoad {
    /// Wall time sampled over, in seconds (the experiment's whole run).
    pub elapsed_s: f64,
    /// Online CPUs.
    pub cpus: usize,
    /// 1-minute load average when the run started.
    #[serde(default)]
    pub load1_before: Option<f64>,
    /// 1-minute load average when it ended (includes the run's own threads).
    #[serde(default)]
    pub load1_after: Option<f64>,
    /// CPUs' worth of time other processes used, on average.
    #[serde(default)]
    pub others_cpus: Option<f64>,
    /// CPUs' worth of time this process tree used, on average.
    #[serde(default)]
    pub own_cpus: Option<f64>,
    /// Steal time as a fraction of all CPU time.
    #[serde(default)]
    pub steal_fraction: Option<f64>,
    /// Voluntary context switches of the measuring process tree.
    #[serde(default)]
    pub voluntary_switches: Option<u64>,
    /// Involuntary context switches (preemptions) of the measuring process tree.
    #[serde(default)]
    pub involuntary_switches: Option<u64>,
    /// CPU migrations of the threads alive at both samples.
    #[serde(default)]
    pub migrations: Option<u64>,
    /// Ran under an MPI launcher with this many ranks (their CPU time counts as others').
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpi_ranks: Option<u32>,
    /// Seconds since this process's previous measurement ended (1e9: none before); the load
    /// average is the lab's own when under [`LOAD_MEMORY_S`]. `None` in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lab_quiet_before_s: Option<f64>,
}

impl From<handoff_probe::load::Usage> for MachineLoad {
    fn from(u: handoff_probe::load::Usage) -> Self {
        MachineLoad {
            elapsed_s: u.elapsed_s,
            cpus: u.cpus,
            load1_before: u.load1_before,
            load1_after: u.load1_after,
            others_cpus: u.others_cpus,
            own_cpus: u.own_cpus,
            steal_fraction: u.steal_fraction,
            voluntary_switches: u.voluntary_switches,
            involuntary_switches: u.involuntary_switches,
            migrations: u.migrations,
            mpi_ranks: mpi_ranks(),
            lab_quiet_before_s: None,
        }
    }
}

/// The rank count an MPI launcher gave this process, when above 1.
fn mpi_ranks() -> Option<u32> {
    ["PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.trim().parse::<u32>().ok())
        .filter(|&n| n > 1)
}

impl MachineLoad {
    /// Why the machine counts as busy during this run (empty: quiet, or no evidence).
    pub fn busy_reasons(&self) -> Vec<String> {
        let mut why = Vec::new();
        let accounted = self.others_cpus.is_some() && self.elapsed_s >= MIN_ELAPSED_S;
        let others = self
            .others_cpus
            .filter(|&o| o > OTHERS_CPU_LIMIT && accounted);
        if let Some(o) = others.filter(|_| self.mpi_ranks.is_none()) {
            why.push(format!(
                "other processes used {o:.2} CPU on average (limit {OTHERS_CPU_LIMIT})"
            ));
        }
        if let Some(s) = self.steal_fraction.filter(|&s| s > STEAL_LIMIT) {
            let limit = STEAL_LIMIT * 100.0;
            why.push(format!("steal time {:.1}% (limit {limit:.0}%)", s * 100.0));
        }
        let lab_quiet = self.lab_quiet_before_s.is_none_or(|q| q >= LOAD_MEMORY_S);
        let judged = !accounted && lab_quiet && self.cpus > 0;
        if let Some(l) = self
            .load1_before
            .filter(|&l| judged && l > self.cpus as f64)
        {
            let cpus = self.cpus;
            why.push(format!("load average {l:.2} on {cpus} CPUs before the run"));
        }
        why
    }

    /// True when [`MachineLoad::busy_reasons`] finds any.
    pub fn is_busy(&self) -> bool {
        !self.busy_reasons().is_empty()
    }
}

/// One experiment's part of a report's busy warning: which experiment, how many of its
/// records were busy, and the evidence (the reasons of its first busy record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BusyPart {
    /// The experiment's name.
    pub experiment: String,
    /// Its records measured on a busy machine.
    pub busy_records: usize,
    /// All its records.
    pub records: usize,
    /// Why, e.g. "other processes used 0.43 CPU on average (limit 0.1)".
    pub reasons: Vec<String>,
}

/// The busy part of `experiment`'s records: `None` when none of them is busy.
pub fn part<'a>(
    experiment: &str,
    loads: impl IntoIterator<Item = Option<&'a MachineLoad>>,
) -> Option<BusyPart> {
    let mut records = 0;
    let mut busy: Vec<&MachineLoad> = Vec::new();
    for l in loads {
        records += 1;
        if let Some(l) = l.filter(|l| l.is_busy()) {
            busy.push(l);
        }
    }
    Some(BusyPart {
        experiment: experiment.to_string(),
        busy_records: busy.len(),
        records,
        reasons: busy.first()?.busy_reasons(),
    })
}

/// The warning line for a set of evidence: `None` when none of it is busy; else
/// "machine busy: REASONS; rerun on a quiet machine" (the reasons of the first busy one, and
/// how many of the records were busy).
pub fn warning<'a>(loads: impl IntoIterator<Item = Option<&'a MachineLoad>>) -> Option<String> {
    let p = part("", loads)?;
    Some(format!(
        "WARNING: machine busy during {} of {} records ({}): the figures may measure the other \
         work, not handoff; rerun on a quiet machine",
        p.busy_records,
        p.records,
        p.reasons.join("; ")
    ))
}

/// Why a comparison of A with B is inconclusive for a busy machine: the reasons of the first
/// busy evidence on either side ("machine busy during A: …"), else `None`.
pub fn compare_reason<'a>(
    a: impl IntoIterator<Item = Option<&'a MachineLoad>>,
    b: impl IntoIterator<Item = Option<&'a MachineLoad>>,
) -> Option<String> {
    let first = |s: &str, it: &mut dyn Iterator<Item = Option<&'a MachineLoad>>| {
        it.flatten().find(|l| l.is_busy()).map(|l| {
            format!(
                "machine busy during {s} ({}): rerun on a quiet machine",
                l.busy_reasons().join("; ")
            )
        })
    };
    first("A", &mut a.into_iter()).or_else(|| first("B", &mut b.into_iter()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quiet run: 0.02 CPU of others over 10 s, no steal, load 0.5 on 2 CPUs.
    pub(crate) fn quiet() -> MachineLoad {
        MachineLoad {
            elapsed_s: 10.0,
            cpus: 2,
            load1_before: Some(0.5),
            load1_after: Some(1.9),
            others_cpus: Some(0.02),
            own_cpus: Some(1.9),
            steal_fraction: Some(0.0),
            ..MachineLoad::default()
        }
    }

    #[test]
    fn the_rule_flags_each_kind_of_busy_and_nothing_else() {
        assert!(quiet().busy_reasons().is_empty());
        let others = MachineLoad {
            others_cpus: Some(0.43),
            ..quiet()
        };
        assert_eq!(
            others.busy_reasons().len(),
            1,
            "{:?}",
            others.busy_reasons()
        );
        assert!(others.busy_reasons()[0].contains("0.43 CPU"));
        // Too short to judge CPU accounting in 10 ms ticks; under mpirun, siblings are not
        // "others".
        let short = MachineLoad {
            elapsed_s: 0.1,
            ..others.clone()
        };
        assert!(!short.is_busy());
        let mpi = MachineLoad {
            mpi_ranks: Some(2),
            ..others
        };
        assert!(!mpi.is_busy());
        let steal = MachineLoad {
            steal_fraction: Some(0.08),
            ..quiet()
        };
        assert!(steal.busy_reasons()[0].contains("steal time 8.0%"));
        // The load average is judged only where the CPU accounting cannot judge (a short
        // run) and the lab measured nothing in the minutes before: else it may be the lab's.
        let load = MachineLoad {
            load1_before: Some(8.9),
            elapsed_s: 0.1,
            lab_quiet_before_s: Some(1e9),
            ..quiet()
        };
        assert!(load.busy_reasons()[0].contains("load average 8.90 on 2 CPUs"));
        let own_load = MachineLoad {
            lab_quiet_before_s: Some(20.0),
            ..load.clone()
        };
        assert!(!own_load.is_busy(), "{:?}", own_load.busy_reasons());
        let accounted = MachineLoad {
            elapsed_s: 10.0,
            ..load
        };
        assert!(!accounted.is_busy(), "{:?}", accounted.busy_reasons());
        // The "after" load holds the run's own threads: not judged.
        let after = MachineLoad {
            load1_after: Some(8.9),
            ..quiet()
        };
        assert!(!after.is_busy());
        // No evidence (an old file) is not busy.
        assert!(!MachineLoad::default().is_busy());
    }

    #[test]
    fn the_warning_counts_busy_records() {
        let q = quiet();
        let b = MachineLoad {
            others_cpus: Some(0.5),
            ..quiet()
        };
        assert_eq!(warning([Some(&q), None]), None);
        let w = warning([Some(&q), Some(&b), None]).unwrap();
        assert!(
            w.starts_with("WARNING: machine busy during 1 of 3 records"),
            "{w}"
        );
        assert!(w.contains("rerun"), "{w}");
    }

    #[test]
    fn parts_count_each_experiments_busy_records() {
        let q = quiet();
        let b = MachineLoad {
            others_cpus: Some(0.5),
            ..quiet()
        };
        assert_eq!(part("queue", [Some(&q), Some(&q)]), None);
        let p = part("exchange", [Some(&b), Some(&b), Some(&q)]).unwrap();
        assert_eq!((p.busy_records, p.records), (2, 3));
        assert!(
            p.reasons[0].starts_with("other processes used 0.50 CPU"),
            "{p:?}"
        );
    }
}

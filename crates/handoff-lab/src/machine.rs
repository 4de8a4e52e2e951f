//! The machine and tool descriptions every results file carries, so a reader can redo a run.

use crate::schema::{self, Machine, Tool};
use handoff_probe::clock::{Calibration, ClockSource};
use handoff_probe::topology::{CacheKind, MachineInfo, Topology};

/// Describes this machine; `calibration` is the clock the measurements used.
pub fn detect(calibration: &Calibration) -> Machine {
    let info = MachineInfo::detect();
    let topo = Topology::detect().ok();
    let first_cpu = info.allowed_cpus.first().copied().unwrap_or(0);
    let caches = match &topo {
        Some(t) => t
            .cpu(first_cpu)
            .map(|cpu| {
                cpu.caches
                    .iter()
                    .filter(|c| c.kind != CacheKind::Instruction)
                    .filter_map(|c| {
                        Some(schema::Cache {
                            level: c.level,
                            kind: c.kind.as_str().to_string(),
                            size_bytes: c.size_bytes?,
                            shared_by: c.shared_cpus.clone(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let topology = match &topo {
        Some(t) => schema::Topology {
            packages: t.packages(),
            cores: t.cores(),
            threads_per_core: t.threads_per_core(),
            numa_nodes: t.numa_nodes().len().max(1),
            summary: t.summary(),
        },
        None => schema::Topology {
            summary: info.topology.clone(),
            ..Default::default()
        },
    };
    Machine {
        cpu_model: info.cpu_model,
        logical_cpus: info.logical_cpus,
        allowed_cpus: info.allowed_cpus,
        caches,
        topology,
        kernel: info.kernel,
        hostname: info.hostname,
        clock: schema::Clock {
            source: match calibration.source {
                ClockSource::Tsc => "tsc (invariant, rdtscp)".to_string(),
                ClockSource::Monotonic => "clock_gettime(CLOCK_MONOTONIC)".to_string(),
            },
            ticks_per_ns: (calibration.source == ClockSource::Tsc)
                .then_some(calibration.ticks_per_ns),
            read_cost_ns: calibration.read_cost_ns,
        },
        virtualized: info.virtualization.virtualized,
        hypervisor: info.virtualization.hypervisor,
        governor: info.governor,
    }
}

/// This tool's version and the git commit it was built from (when built from a checkout).
pub fn tool() -> Tool {
    Tool {
        version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: option_env!("HANDOFF_GIT_COMMIT")
            .filter(|s| !s.is_empty())
            .map(str::to_string),
    }
}

//! The machine and tool descriptions every results file carries, so a reader can redo a run.

use handoff_probe::clock::{Calibration, ClockSource};
use handoff_probe::topology::{CacheKind, MachineInfo, Topology as ProbeTopology};
use serde::{Deserialize, Serialize};

/// Describes this machine; `calibration` is the clock the measurements used.
pub fn detect(calibration: &Calibration) -> Machine {
    let info = MachineInfo::detect();
    let topo = ProbeTopology::detect().ok();
    let first_cpu = info.allowed_cpus.first().copied().unwrap_or(0);
    let caches = topo
        .as_ref()
        .and_then(|t| t.cpu(first_cpu))
        .map(|cpu| {
            cpu.caches
                .iter()
                .filter(|c| c.kind != CacheKind::Instruction)
                .filter_map(|c| {
                    Some(Cache {
                        level: c.level,
                        kind: c.kind.as_str().to_string(),
                        size_bytes: c.size_bytes?,
                        shared_by: c.shared_cpus.clone(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let topology = match &topo {
        Some(t) => Topology {
            packages: t.packages(),
            cores: t.cores(),
            threads_per_core: t.threads_per_core(),
            numa_nodes: t.numa_nodes().len().max(1),
            summary: t.summary(),
        },
        None => Topology {
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
        clock: Clock {
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

/// Placement class names the lab uses for a (producer, consumer) core pair.
///
/// Records carry the name as a plain string so that a newer library can add classes without
/// breaking older readers; these constants are the names the report knows how to describe,
/// the same as [`handoff_probe::topology::Placement::as_str`] (a test keeps them equal).
pub mod placement {
    /// Producer and consumer on the same logical CPU.
    pub const SAME_CORE: &str = "same-core";
    /// Two hardware threads of one physical core.
    pub const SMT_SIBLING: &str = "smt-sibling";
    /// Different cores sharing an L2 cache.
    pub const SHARED_L2: &str = "shared-l2";
    /// Different cores sharing the last-level cache (same CCX or die).
    pub const SHARED_L3: &str = "shared-l3";
    /// Same package, no shared cache.
    pub const SAME_PACKAGE: &str = "same-package";
    /// Another package (socket) in the same NUMA node.
    pub const CROSS_PACKAGE: &str = "cross-package";
    /// Another NUMA node.
    pub const CROSS_NUMA: &str = "cross-numa";

    /// A short human description of a placement class, e.g. "on the same core".
    pub fn describe(placement: &str) -> String {
        match placement {
            SAME_CORE => "on the same core".to_string(),
            SMT_SIBLING => "on an SMT sibling".to_string(),
            SHARED_L2 => "on another core sharing L2".to_string(),
            SHARED_L3 => "on another core sharing the last-level cache".to_string(),
            SAME_PACKAGE => "on another core of the same package".to_string(),
            CROSS_PACKAGE => "on another package".to_string(),
            CROSS_NUMA => "on another NUMA node".to_string(),
            other => format!("with placement `{other}`"),
        }
    }

    /// Sort rank of a placement class: nearest first (the library's order), unknown classes
    /// last.
    pub fn rank(placement: &str) -> u8 {
        let all = handoff_probe::topology::Placement::ALL;
        all.iter()
            .position(|p| p.as_str() == placement)
            .unwrap_or(all.len()) as u8
    }

    #[cfg(test)]
    mod tests {
        use handoff_probe::topology::Placement;

        #[test]
        fn names_match_the_library() {
            let ours = [
                super::SAME_CORE,
                super::SMT_SIBLING,
                super::SHARED_L2,
                super::SHARED_L3,
                super::SAME_PACKAGE,
                super::CROSS_PACKAGE,
                super::CROSS_NUMA,
            ];
            let lib: Vec<&str> = Placement::ALL.iter().map(|p| p.as_str()).collect();
            assert_eq!(ours.to_vec(), lib);
            for (i, p) in ours.iter().enumerate() {
                assert_eq!(super::rank(p) as usize, i);
            }
        }
    }
}

/// What the machine is: filled by the lead from the library's platform layer.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Machine {
    /// CPU model name, e.g. "AMD EPYC 9R14 96-Core Processor".
    pub cpu_model: String,
    /// Logical CPUs online.
    pub logical_cpus: usize,
    /// CPUs this process may run on (affinity mask).
    pub allowed_cpus: Vec<usize>,
    /// Every cache level and kind.
    pub caches: Vec<Cache>,
    /// Packages, cores, SMT, NUMA.
    pub topology: Topology,
    /// Kernel release, e.g. "6.8.0-45-generic".
    pub kernel: String,
    /// Host name.
    pub hostname: String,
    /// The clock the lab timed with.
    pub clock: Clock,
    /// True when running under a hypervisor.
    pub virtualized: bool,
    /// Hypervisor name when known, e.g. "KVM".
    pub hypervisor: Option<String>,
    /// CPU frequency governor when readable, e.g. "performance".
    pub governor: Option<String>,
}

impl Machine {
    /// Size in bytes of the smallest-level data (or unified) cache of `level`, if known.
    pub fn cache_size(&self, level: u8) -> Option<u64> {
        self.caches
            .iter()
            .filter(|c| c.level == level && c.kind != CACHE_INSTRUCTION)
            .map(|c| c.size_bytes)
            .max()
    }

    /// Size in bytes of the last-level data or unified cache, if any cache is known.
    pub fn llc_size(&self) -> Option<u64> {
        let level = self
            .caches
            .iter()
            .filter(|c| c.kind != CACHE_INSTRUCTION)
            .map(|c| c.level)
            .max()?;
        self.cache_size(level)
    }
}

/// [`Cache::kind`] of a data cache.
pub const CACHE_DATA: &str = "data";
/// [`Cache::kind`] of an instruction cache.
pub const CACHE_INSTRUCTION: &str = "instruction";
/// [`Cache::kind`] of a unified cache.
pub const CACHE_UNIFIED: &str = "unified";

/// One cache (one level and kind; one entry per distinct kind, not per instance).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cache {
    /// 1, 2, 3...
    pub level: u8,
    /// [`CACHE_DATA`], [`CACHE_INSTRUCTION`] or [`CACHE_UNIFIED`].
    pub kind: String,
    /// Size of one instance in bytes.
    pub size_bytes: u64,
    /// The logical CPUs sharing the instance CPU 0 uses (or any instance: the sharing pattern).
    pub shared_by: Vec<usize>,
}

/// A summary of the CPU topology.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Topology {
    /// Physical packages (sockets).
    pub packages: usize,
    /// Physical cores in all packages.
    pub cores: usize,
    /// Hardware threads per core (1 without SMT).
    pub threads_per_core: usize,
    /// NUMA nodes (1 when not NUMA or unknown).
    pub numa_nodes: usize,
    /// One line for people, e.g. "1 package, 2 cores, no SMT, 1 NUMA node".
    pub summary: String,
}

/// The clock the lab timed with.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Clock {
    /// e.g. "tsc (invariant)" or "clock_gettime(CLOCK_MONOTONIC)".
    pub source: String,
    /// Ticks per nanosecond for a cycle counter; `None` for a nanosecond clock.
    pub ticks_per_ns: Option<f64>,
    /// Cost of one clock read in nanoseconds.
    pub read_cost_ns: f64,
}

/// The tool that produced a results file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Tool {
    /// Crate version, e.g. "0.1.0".
    pub version: String,
    /// Git commit the binary was built from, when known.
    pub git_commit: Option<String>,
}

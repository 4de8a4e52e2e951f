//! Machine topology from sysfs: logical CPUs, SMT siblings, caches and who shares them,
//! packages, NUMA nodes; the [`Placement`] class of any CPU pair; a [`MachineInfo`] summary
//! for reports.
//!
//! Everything is parsed from a sysfs root (`/sys` on a live machine, a fixture directory in
//! tests), so the classification can be checked on machines we do not have. Only these files
//! are read, all optional except the CPU list:
//!
//! | file (under `devices/system/`) | gives |
//! |---|---|
//! | `cpu/online` (else `cpu/cpuN/online`) | the online logical CPUs |
//! | `cpu/cpuN/topology/{core_id,physical_package_id}` | core and package ids |
//! | `cpu/cpuN/topology/{thread_siblings_list,core_cpus_list}` | SMT siblings |
//! | `cpu/cpuN/cache/indexK/{level,type,size,shared_cpu_list,id}` | the cache hierarchy |
//! | `node/nodeN/cpulist` | NUMA nodes (absent: one node) |
//!
//! A missing file never fails the parse: the property becomes unknown and placement falls
//! back to what is known (e.g. CPUs without cache information compare as `same-package`).

mod class;
mod machine;
pub mod maps;
mod sizes;
pub mod synth;
mod sysfs;

pub use class::Placement;
pub use handoff::sys::{format_cpu_list, parse_cpu_list};
pub use machine::{MachineInfo, Virtualization};
pub use sizes::format_bytes;

use class::classify;
use sysfs::{numa_nodes, online_cpus, read_cpu, read_trimmed};

use crate::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What a cache holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CacheKind {
    /// Data only (L1d).
    Data,
    /// Instructions only (L1i).
    Instruction,
    /// Data and instructions (L2, L3).
    Unified,
}

impl CacheKind {
    /// `data`, `instruction` or `unified`.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheKind::Data => "data",
            CacheKind::Instruction => "instruction",
            CacheKind::Unified => "unified",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "Data" => Some(CacheKind::Data),
            "Instruction" => Some(CacheKind::Instruction),
            "Unified" => Some(CacheKind::Unified),
            _ => None,
        }
    }
}

/// One cache as one CPU sees it (`cpuN/cache/indexK`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    /// 1, 2, 3...
    pub level: u8,
    /// Data, instruction or unified.
    pub kind: CacheKind,
    /// Size in bytes, when the kernel reports it.
    pub size_bytes: Option<u64>,
    /// The CPUs sharing this cache (`shared_cpu_list`); empty when unknown.
    pub shared_cpus: Vec<usize>,
    /// The cache's id among caches of its level (`id`, newer kernels), e.g. the CCX number.
    pub id: Option<u64>,
}

/// One online logical CPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cpu {
    /// The Linux logical CPU id (what affinity masks use).
    pub id: usize,
    /// `core_id`, unique within a package (not across packages); `None` when unknown.
    pub core_id: Option<u32>,
    /// `physical_package_id` (socket); `None` when unknown or reported as -1.
    pub package_id: Option<u32>,
    /// The CPUs of this physical core, this one included (`thread_siblings_list`).
    pub siblings: Vec<usize>,
    /// The NUMA node (0 when the machine has no node directory).
    pub node: usize,
    /// The caches this CPU uses, in `indexK` order.
    pub caches: Vec<Cache>,
}

impl Cpu {
    /// Whether `other` shares a data or unified cache of `level` with this CPU.
    fn shares_cache(&self, other: &Cpu, level: u8) -> bool {
        self.caches
            .iter()
            .filter(|c| c.level == level && c.kind != CacheKind::Instruction)
            .any(|c| {
                if !c.shared_cpus.is_empty() {
                    c.shared_cpus.contains(&other.id)
                } else {
                    // No shared_cpu_list: fall back to equal cache ids, when both have one.
                    c.id.is_some()
                        && other
                            .caches
                            .iter()
                            .any(|o| o.level == c.level && o.kind == c.kind && o.id == c.id)
                }
            })
    }
}

/// A distinct data or unified cache size on the machine, for reports.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CacheInfo {
    /// 1, 2, 3...
    pub level: u8,
    /// Data or unified (instruction caches are left out).
    pub kind: CacheKind,
    /// Size of one instance in bytes.
    pub size_bytes: u64,
    /// How many logical CPUs share one instance.
    pub shared_by: usize,
}

impl CacheInfo {
    /// `L1d`, `L2`, `L3`.
    pub fn label(&self) -> String {
        match self.kind {
            CacheKind::Data => format!("L{}d", self.level),
            CacheKind::Instruction => format!("L{}i", self.level),
            CacheKind::Unified => format!("L{}", self.level),
        }
    }
}

/// The machine's CPUs and caches, as sysfs describes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    /// Online CPUs, sorted by id.
    cpus: Vec<Cpu>,
    /// CPUs that exist (`present`) but are offline.
    offline: Vec<usize>,
    /// Distinct NUMA node ids holding at least one online CPU.
    nodes: Vec<usize>,
}

impl Topology {
    /// Reads the live machine's topology from `/sys`.
    pub fn detect() -> Result<Topology> {
        if cfg!(target_os = "linux") {
            Topology::from_sysfs(Path::new("/sys"))
        } else {
            Err(Error::Sys(handoff::sys::Error::Unsupported(
                "topology from sysfs",
            )))
        }
    }

    /// Reads a topology from a sysfs tree rooted at `root` (`/sys`, or a test fixture).
    ///
    /// Fails only when no CPU can be found at all (no `devices/system/cpu/online` and no
    /// `cpuN` directories) or the online list is malformed.
    pub fn from_sysfs(root: &Path) -> Result<Topology> {
        let cpu_dir = root.join("devices/system/cpu");
        let online = online_cpus(&cpu_dir)?;
        let present = match read_trimmed(&cpu_dir.join("present")) {
            Some(t) => parse_cpu_list(&t).unwrap_or_default(),
            None => Vec::new(),
        };
        let offline: Vec<usize> = present
            .iter()
            .copied()
            .filter(|c| !online.contains(c))
            .collect();
        let node_of = numa_nodes(root);

        let mut cpus: Vec<Cpu> = online
            .iter()
            .map(|&id| read_cpu(&cpu_dir.join(format!("cpu{id}")), id, &node_of))
            .collect();

        // SMT siblings when the kernel gave no list: same package and core id.
        let keys: Vec<(usize, Option<u32>, Option<u32>)> = cpus
            .iter()
            .map(|c| (c.id, c.package_id, c.core_id))
            .collect();
        for cpu in &mut cpus {
            if cpu.siblings.is_empty() {
                cpu.siblings = match (cpu.package_id, cpu.core_id) {
                    (Some(p), Some(k)) => keys
                        .iter()
                        .filter(|&&(_, pp, kk)| pp == Some(p) && kk == Some(k))
                        .map(|&(id, _, _)| id)
                        .collect(),
                    _ => vec![cpu.id],
                };
            }
            if !cpu.siblings.contains(&cpu.id) {
                cpu.siblings.push(cpu.id);
                cpu.siblings.sort_unstable();
            }
        }

        let nodes: BTreeSet<usize> = cpus.iter().map(|c| c.node).collect();
        Ok(Topology {
            cpus,
            offline,
            nodes: nodes.into_iter().collect(),
        })
    }

    /// The online CPUs, sorted by id.
    pub fn cpus(&self) -> &[Cpu] {
        &self.cpus
    }

    /// The online CPU ids, sorted.
    pub fn cpu_ids(&self) -> Vec<usize> {
        self.cpus.iter().map(|c| c.id).collect()
    }

    /// One online CPU by id.
    pub fn cpu(&self, id: usize) -> Option<&Cpu> {
        self.cpus
            .binary_search_by_key(&id, |c| c.id)
            .ok()
            .map(|i| &self.cpus[i])
    }

    /// CPUs that are present but offline.
    pub fn offline(&self) -> &[usize] {
        &self.offline
    }

    /// Number of online logical CPUs.
    pub fn logical_cpus(&self) -> usize {
        self.cpus.len()
    }

    /// Number of physical cores (distinct SMT sibling groups) among online CPUs.
    pub fn cores(&self) -> usize {
        let groups: BTreeSet<usize> = self.cpus.iter().map(|c| c.siblings[0]).collect();
        groups.len()
    }

    /// Number of packages (sockets); CPUs with an unknown package count as one package.
    pub fn packages(&self) -> usize {
        let p: BTreeSet<Option<u32>> = self.cpus.iter().map(|c| c.package_id).collect();
        p.len()
    }

    /// Hardware threads per core (1 without SMT): the largest sibling group.
    pub fn threads_per_core(&self) -> usize {
        self.cpus
            .iter()
            .map(|c| c.siblings.len())
            .max()
            .unwrap_or(1)
    }

    /// NUMA node ids holding online CPUs (`[0]` without node information).
    pub fn numa_nodes(&self) -> &[usize] {
        &self.nodes
    }

    /// The placement class of two CPUs, or [`sys::Error::CpuUnavailable`](handoff::sys::Error::CpuUnavailable) when either is not an
    /// online CPU of this topology.
    pub fn try_placement(&self, cpu_a: usize, cpu_b: usize) -> Result<Placement> {
        let a = self.known(cpu_a)?;
        let b = self.known(cpu_b)?;
        Ok(classify(a, b))
    }

    /// The placement class of two CPUs. Symmetric; `placement(c, c)` is `SameCore`.
    ///
    /// A CPU this topology does not know (offline, out of range) has no known caches,
    /// package or node, so two different CPUs of which one is unknown compare as
    /// `SamePackage`; use [`Topology::try_placement`] to get an error instead.
    pub fn placement(&self, cpu_a: usize, cpu_b: usize) -> Placement {
        if cpu_a == cpu_b {
            return Placement::SameCore;
        }
        self.try_placement(cpu_a, cpu_b)
            .unwrap_or(Placement::SamePackage)
    }

    /// One CPU from `allowed` per placement class relative to `from_cpu`, nearest class
    /// first; within a class the lowest id. `from_cpu` itself appears as `SameCore` when it
    /// is in `allowed`. CPUs not in this topology are skipped; an unknown `from_cpu` gives an
    /// empty list. Lets a lab on a 256-CPU machine measure one pair per class.
    pub fn representatives(&self, from_cpu: usize, allowed: &[usize]) -> Vec<(Placement, usize)> {
        let Some(from) = self.cpu(from_cpu) else {
            return Vec::new();
        };
        let mut ids = allowed.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let mut best: BTreeMap<Placement, usize> = BTreeMap::new();
        for id in ids {
            if let Some(other) = self.cpu(id) {
                best.entry(classify(from, other)).or_insert(id);
            }
        }
        best.into_iter().collect()
    }

    /// Up to `k` CPUs from `allowed` per placement class relative to `from_cpu`, nearest
    /// class first: the lowest id, the highest, then ids spread evenly between (so a class
    /// spanning two sockets' worth of CPUs is sampled at both ends). What a lab measures on
    /// a machine too large to sweep every CPU (`handoff report` beyond 16 CPUs).
    pub fn representatives_per_class(
        &self,
        from_cpu: usize,
        allowed: &[usize],
        k: usize,
    ) -> Vec<(Placement, Vec<usize>)> {
        let Some(from) = self.cpu(from_cpu) else {
            return Vec::new();
        };
        let mut ids = allowed.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let mut classes: BTreeMap<Placement, Vec<usize>> = BTreeMap::new();
        for id in ids {
            if let Some(other) = self.cpu(id) {
                classes.entry(classify(from, other)).or_default().push(id);
            }
        }
        classes
            .into_iter()
            .map(|(p, members)| (p, spread_pick(&members, k)))
            .collect()
    }

    /// One CPU pair per placement class found among `allowed` (both CPUs from `allowed`,
    /// lowest ids first), nearest class first. `SameCore` pairs are `(c, c)`.
    pub fn class_pairs(&self, allowed: &[usize]) -> Vec<(Placement, usize, usize)> {
        let mut ids: Vec<usize> = allowed
            .iter()
            .copied()
            .filter(|&c| self.cpu(c).is_some())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let mut best: BTreeMap<Placement, (usize, usize)> = BTreeMap::new();
        for (i, &a) in ids.iter().enumerate() {
            for &b in &ids[i..] {
                if best.len() == Placement::ALL.len() {
                    break;
                }
                best.entry(self.placement(a, b)).or_insert((a, b));
            }
        }
        best.into_iter().map(|(p, (a, b))| (p, a, b)).collect()
    }

    /// The distinct data and unified cache configurations on the machine (one entry per
    /// level on a homogeneous machine; more on a hybrid one), sorted by level, kind, size.
    ///
    /// A cache whose `shared_cpu_list` is missing counts as private (`shared_by` 1) unless
    /// another CPU reports the same level, kind and size with its sharing known.
    pub fn cache_sizes(&self) -> Vec<CacheInfo> {
        self.cache_instances()
            .into_iter()
            .map(|(info, _, _)| info)
            .collect()
    }

    /// Each distinct [`CacheInfo`] with one CPU that has it and that CPU's cache entry.
    fn cache_instances(&self) -> Vec<(CacheInfo, &Cpu, &Cache)> {
        let mut known: BTreeMap<CacheInfo, (&Cpu, &Cache)> = BTreeMap::new();
        let mut unknown: Vec<(CacheInfo, &Cpu, &Cache)> = Vec::new();
        for cpu in &self.cpus {
            for c in cpu
                .caches
                .iter()
                .filter(|c| c.kind != CacheKind::Instruction)
            {
                let Some(size_bytes) = c.size_bytes else {
                    continue;
                };
                let info = CacheInfo {
                    level: c.level,
                    kind: c.kind,
                    size_bytes,
                    shared_by: c.shared_cpus.len().max(1),
                };
                if c.shared_cpus.is_empty() {
                    unknown.push((info, cpu, c));
                } else {
                    known.entry(info).or_insert((cpu, c));
                }
            }
        }
        for (info, cpu, c) in unknown {
            let seen = known.keys().any(|k| {
                (k.level, k.kind, k.size_bytes) == (info.level, info.kind, info.size_bytes)
            });
            if !seen {
                known.entry(info).or_insert((cpu, c));
            }
        }
        known.into_iter().map(|(i, (cpu, c))| (i, cpu, c)).collect()
    }

    /// The size of the largest cache at the highest level (the last-level cache), if known.
    pub fn last_level_cache_bytes(&self) -> Option<u64> {
        let sizes = self.cache_sizes();
        let top = sizes.iter().map(|c| c.level).max()?;
        sizes
            .iter()
            .filter(|c| c.level == top)
            .map(|c| c.size_bytes)
            .max()
    }

    /// A one-line description for reports, e.g.
    /// `1 package, 2 cores, no SMT, L1d 48 KiB, L2 1 MiB/core, L3 32 MiB shared`.
    pub fn summary(&self) -> String {
        let plural = |n: usize, word: &str| {
            if n == 1 {
                format!("1 {word}")
            } else {
                format!("{n} {word}s")
            }
        };
        let tpc = self.threads_per_core();
        let mut parts = vec![
            plural(self.packages(), "package"),
            plural(self.cores(), "core"),
        ];
        if tpc == 1 {
            parts.push("no SMT".to_string());
        } else {
            parts.push(format!("{} threads (SMT {tpc})", self.logical_cpus()));
        }
        if self.nodes.len() > 1 {
            parts.push(format!("{} NUMA nodes", self.nodes.len()));
        }
        if !self.offline.is_empty() {
            parts.push(format!("{} offline", plural(self.offline.len(), "CPU")));
        }
        let all = self.cpu_ids();
        for (info, cpu, cache) in self.cache_instances() {
            let shared = &cache.shared_cpus;
            let package: Vec<usize> = self
                .cpus
                .iter()
                .filter(|c| c.package_id == cpu.package_id)
                .map(|c| c.id)
                .collect();
            let suffix = if info.level == 1 {
                String::new()
            } else if shared.iter().all(|s| cpu.siblings.contains(s)) {
                "/core".to_string()
            } else if *shared == all {
                " shared".to_string()
            } else if *shared == package {
                "/package".to_string()
            } else {
                format!(" per {} CPUs", info.shared_by)
            };
            parts.push(format!(
                "{} {}{suffix}",
                info.label(),
                format_bytes(info.size_bytes)
            ));
        }
        parts.join(", ")
    }

    fn known(&self, cpu: usize) -> Result<&Cpu> {
        self.cpu(cpu).ok_or_else(|| {
            Error::Sys(handoff::sys::Error::CpuUnavailable {
                cpu,
                allowed: format_cpu_list(&self.cpu_ids()),
            })
        })
    }
}

/// Up to `k` of `sorted`, evenly spread: for k >= 2 the first and the last are included.
fn spread_pick(sorted: &[usize], k: usize) -> Vec<usize> {
    let n = sorted.len();
    if k == 0 || n == 0 {
        return Vec::new();
    }
    if n <= k {
        return sorted.to_vec();
    }
    if k == 1 {
        return vec![sorted[0]];
    }
    let mut out: Vec<usize> = (0..k).map(|i| sorted[i * (n - 1) / (k - 1)]).collect();
    out.dedup();
    out
}

/// The two CPUs of a two-thread measurement: exactly the two of `list` (a CPU list such as
/// `0,2`, in ascending order), else the first two allowed ones; `Ok(None)` when fewer than
/// two are allowed (the caller prints its `SKIP:` line).
///
/// Errors: [`sys::Error::InvalidArgument`](handoff::sys::Error::InvalidArgument) for a list of other than two CPUs, and the CPU list's
/// own parse error.
pub fn cpu_pair(list: Option<&str>) -> Result<Option<[usize; 2]>> {
    let Some(list) = list else {
        let allowed = handoff::sys::allowed_cpus()?;
        return Ok(match allowed[..] {
            [a, b, ..] => Some([a, b]),
            _ => None,
        });
    };
    match handoff::sys::parse_cpu_list(list)?[..] {
        [a, b] => Ok(Some([a, b])),
        ref other => Err(Error::Sys(handoff::sys::Error::InvalidArgument(format!(
            "CPU list {list}: two CPUs, got {}",
            other.len()
        )))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_pair_is_two_listed_cpus_or_the_first_two_allowed() {
        assert_eq!(cpu_pair(Some("0,1")).unwrap(), Some([0, 1]));
        // In the list's order: ascending.
        assert_eq!(cpu_pair(Some("3,2")).unwrap(), Some([2, 3]));
        for bad in ["0", "0-2", "x"] {
            assert!(cpu_pair(Some(bad)).is_err(), "{bad}");
        }
        let allowed = handoff::sys::allowed_cpus().unwrap();
        let want = (allowed.len() >= 2).then(|| [allowed[0], allowed[1]]);
        assert_eq!(cpu_pair(None).unwrap(), want);
    }

    #[test]
    fn placement_names_round_trip() {
        for p in Placement::ALL {
            assert_eq!(p.as_str().parse::<Placement>().unwrap(), p);
            assert_eq!(p.to_string(), p.as_str());
        }
        assert_eq!(
            "Shared-L3".parse::<Placement>().unwrap(),
            Placement::SharedL3
        );
        let e = "same-socket".parse::<Placement>().unwrap_err().to_string();
        assert!(e.contains("same-socket") && e.contains("cross-numa"), "{e}");
        let mut sorted = Placement::ALL;
        sorted.sort();
        assert_eq!(sorted, Placement::ALL);
    }

    #[test]
    fn missing_root_is_an_error_not_a_panic() {
        let e = Topology::from_sysfs(Path::new("/nonexistent/handoff-sysfs")).unwrap_err();
        assert!(e.to_string().contains("is sysfs mounted"), "{e}");
    }
}

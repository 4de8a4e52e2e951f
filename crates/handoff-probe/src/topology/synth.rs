//! Synthetic sysfs trees of machines we do not have: [`SynthMachine`] describes a regular
//! machine (packages, NUMA nodes, cores, SMT, which cores share an L2 and an L3) and
//! [`SynthMachine::write`] writes exactly the files [`super::Topology::from_sysfs`] reads,
//! numbered as Linux numbers them (the SMT siblings of core `k` are CPUs `k`, `k + cores`,
//! ...). Tests and `handoff report --plan --sysfs DIR` use them; the presets are the large
//! machines the lab must plan for (a tree of 384 CPUs is ~10 000 small files, so they are
//! generated, not kept in the repository).

use super::{Cache, CacheKind, Cpu, Topology};
use std::io;
use std::path::Path;

/// A regular machine: every package alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthMachine {
    /// Sockets.
    pub packages: usize,
    /// NUMA nodes per package (cores split evenly).
    pub nodes_per_package: usize,
    /// Physical cores per package.
    pub cores_per_package: usize,
    /// Hardware threads per core.
    pub smt: usize,
    /// Cores sharing one L2 (1: private L2).
    pub cores_per_l2: usize,
    /// Cores sharing one L3 (a CCX/CCD, or the whole package).
    pub cores_per_l3: usize,
    /// L1d size in KiB.
    pub l1d_kib: u64,
    /// L2 size in KiB.
    pub l2_kib: u64,
    /// L3 size in KiB (per L3 instance).
    pub l3_kib: u64,
}

impl SynthMachine {
    /// 2 sockets × 96 cores, SMT-2 (384 CPUs), 8-core CCDs with 32 MiB of L3 each, one
    /// NUMA node per socket (an AMD EPYC 9654-class server).
    pub fn server_2s_192c() -> Self {
        SynthMachine {
            packages: 2,
            nodes_per_package: 1,
            cores_per_package: 96,
            smt: 2,
            cores_per_l2: 1,
            cores_per_l3: 8,
            l1d_kib: 32,
            l2_kib: 1024,
            l3_kib: 32 * 1024,
        }
    }

    /// 4 sockets × 20 cores, SMT-2 (160 CPUs), one 27.5 MiB L3 per socket, one NUMA node
    /// per socket (a Skylake-SP 6148 four-socket node, like the source paper's).
    pub fn skylake_4s_80c() -> Self {
        SynthMachine {
            packages: 4,
            nodes_per_package: 1,
            cores_per_package: 20,
            smt: 2,
            cores_per_l2: 1,
            cores_per_l3: 20,
            l1d_kib: 32,
            l2_kib: 1024,
            l3_kib: 28160,
        }
    }

    /// 1 socket × 128 cores, SMT-2 (256 CPUs), 8 CCDs of 16 cores with 32 MiB of L3 each,
    /// one NUMA node (an AMD EPYC 9754-class part).
    pub fn single_128c_8ccd() -> Self {
        SynthMachine {
            packages: 1,
            nodes_per_package: 1,
            cores_per_package: 128,
            smt: 2,
            cores_per_l2: 1,
            cores_per_l3: 16,
            l1d_kib: 32,
            l2_kib: 1024,
            l3_kib: 32 * 1024,
        }
    }

    /// 2 sockets × 60 cores, SMT-2 (240 CPUs), one 320 MiB L3 per socket, 2 MiB L2 per
    /// core, one NUMA node per socket (an Intel Xeon Emerald Rapids 8592+-class node).
    pub fn emerald_2s_120c() -> Self {
        SynthMachine {
            packages: 2,
            nodes_per_package: 1,
            cores_per_package: 60,
            smt: 2,
            cores_per_l2: 1,
            cores_per_l3: 60,
            l1d_kib: 48,
            l2_kib: 2048,
            l3_kib: 320 * 1024,
        }
    }

    /// 1 socket × 128 cores, SMT-2 (256 CPUs), one 504 MiB L3, 2 MiB L2 per core, one NUMA
    /// node (an Intel Xeon 6980P Granite Rapids-class socket, sub-NUMA clustering off).
    pub fn granite_1s_128c() -> Self {
        SynthMachine {
            packages: 1,
            nodes_per_package: 1,
            cores_per_package: 128,
            smt: 2,
            cores_per_l2: 1,
            cores_per_l3: 128,
            l1d_kib: 48,
            l2_kib: 2048,
            l3_kib: 504 * 1024,
        }
    }

    /// 2 sockets × 96 cores, SMT-2 (384 CPUs), 8-core CCDs with 96 MiB of stacked L3 each,
    /// one NUMA node per socket (an AMD EPYC 9684X Genoa-X-class server).
    pub fn genoa_x_2s_192c() -> Self {
        SynthMachine {
            l3_kib: 96 * 1024,
            ..SynthMachine::server_2s_192c()
        }
    }

    /// Every preset by a short name (`2s192`, `4s80`, `1s128`, `emerald`, `granite`,
    /// `genoa-x`), in that order.
    pub fn presets() -> Vec<(&'static str, SynthMachine)> {
        vec![
            ("2s192", SynthMachine::server_2s_192c()),
            ("4s80", SynthMachine::skylake_4s_80c()),
            ("1s128", SynthMachine::single_128c_8ccd()),
            ("emerald", SynthMachine::emerald_2s_120c()),
            ("granite", SynthMachine::granite_1s_128c()),
            ("genoa-x", SynthMachine::genoa_x_2s_192c()),
        ]
    }

    /// Physical cores in all.
    pub fn cores(&self) -> usize {
        self.packages * self.cores_per_package
    }

    /// Logical CPUs in all.
    pub fn cpus(&self) -> usize {
        self.cores() * self.smt
    }

    /// The logical CPUs of physical core `core` (global index), Linux's numbering.
    fn threads(&self, core: usize) -> Vec<usize> {
        (0..self.smt).map(|t| core + t * self.cores()).collect()
    }

    /// The CPUs of the cores `first..first + n` (all their threads), sorted.
    fn cpus_of_cores(&self, first: usize, n: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (first..first + n).flat_map(|c| self.threads(c)).collect();
        v.sort_unstable();
        v
    }

    /// The topology [`super::Topology::from_sysfs`] reads from the tree [`SynthMachine::write`]
    /// writes, built in memory (writing and reading a tree of 384 CPUs takes seconds of
    /// system time; `tests/topology_big.rs` checks that both agree).
    pub fn topology(&self) -> Topology {
        let cores = self.cores();
        let per_node = self.cores_per_package / self.nodes_per_package;
        let cpus: Vec<Cpu> = (0..self.cpus())
            .map(|cpu| {
                let core = cpu % cores;
                let l2_first = core - core % self.cores_per_l2;
                let l3_first = core - core % self.cores_per_l3;
                let cache = |level: u8, kind: CacheKind, kib: u64, shared: Vec<usize>, id| Cache {
                    level,
                    kind,
                    size_bytes: Some(kib * 1024),
                    shared_cpus: shared,
                    id: Some(id as u64),
                };
                Cpu {
                    id: cpu,
                    core_id: Some((core % self.cores_per_package) as u32),
                    package_id: Some((core / self.cores_per_package) as u32),
                    siblings: self.threads(core),
                    node: core / per_node,
                    caches: vec![
                        cache(1, CacheKind::Data, self.l1d_kib, self.threads(core), core),
                        cache(1, CacheKind::Instruction, 32, self.threads(core), core),
                        cache(
                            2,
                            CacheKind::Unified,
                            self.l2_kib,
                            self.cpus_of_cores(l2_first, self.cores_per_l2),
                            core / self.cores_per_l2,
                        ),
                        cache(
                            3,
                            CacheKind::Unified,
                            self.l3_kib,
                            self.cpus_of_cores(l3_first, self.cores_per_l3),
                            core / self.cores_per_l3,
                        ),
                    ],
                }
            })
            .collect();
        Topology {
            cpus,
            offline: Vec::new(),
            nodes: (0..self.packages * self.nodes_per_package).collect(),
        }
    }

    /// Writes the tree under `root` (which it creates): `devices/system/cpu/{online,
    /// present}`, per CPU its topology ids and sibling lists and cache indexes 0-3 (L1d,
    /// L1i, L2, L3), and `devices/system/node/nodeN/cpulist`.
    pub fn write(&self, root: &Path) -> io::Result<()> {
        let n = self.cpus();
        let cores = self.cores();
        let cpu_dir = root.join("devices/system/cpu");
        std::fs::create_dir_all(&cpu_dir)?;
        let all = format!("0-{}", n - 1);
        std::fs::write(cpu_dir.join("online"), format!("{all}\n"))?;
        std::fs::write(cpu_dir.join("present"), format!("{all}\n"))?;
        let list = |v: &[usize]| format!("{}\n", super::format_cpu_list(v));
        for cpu in 0..n {
            let core = cpu % cores;
            let package = core / self.cores_per_package;
            let local = core % self.cores_per_package;
            let dir = cpu_dir.join(format!("cpu{cpu}"));
            let topo = dir.join("topology");
            std::fs::create_dir_all(&topo)?;
            let siblings = list(&self.threads(core));
            std::fs::write(topo.join("thread_siblings_list"), &siblings)?;
            std::fs::write(topo.join("core_cpus_list"), &siblings)?;
            std::fs::write(topo.join("core_id"), format!("{local}\n"))?;
            std::fs::write(topo.join("physical_package_id"), format!("{package}\n"))?;
            let l2_first = core - core % self.cores_per_l2;
            let l3_first = core - core % self.cores_per_l3;
            let caches = [
                (1, "Data", self.l1d_kib, list(&self.threads(core)), core),
                (1, "Instruction", 32, list(&self.threads(core)), core),
                (
                    2,
                    "Unified",
                    self.l2_kib,
                    list(&self.cpus_of_cores(l2_first, self.cores_per_l2)),
                    core / self.cores_per_l2,
                ),
                (
                    3,
                    "Unified",
                    self.l3_kib,
                    list(&self.cpus_of_cores(l3_first, self.cores_per_l3)),
                    core / self.cores_per_l3,
                ),
            ];
            for (i, (level, kind, kib, shared, id)) in caches.into_iter().enumerate() {
                let c = dir.join(format!("cache/index{i}"));
                std::fs::create_dir_all(&c)?;
                std::fs::write(c.join("level"), format!("{level}\n"))?;
                std::fs::write(c.join("type"), format!("{kind}\n"))?;
                std::fs::write(c.join("size"), format!("{kib}K\n"))?;
                std::fs::write(c.join("shared_cpu_list"), shared)?;
                std::fs::write(c.join("id"), format!("{id}\n"))?;
            }
        }
        let per_node = self.cores_per_package / self.nodes_per_package;
        for node in 0..self.packages * self.nodes_per_package {
            let dir = root.join(format!("devices/system/node/node{node}"));
            std::fs::create_dir_all(&dir)?;
            std::fs::write(
                dir.join("cpulist"),
                list(&self.cpus_of_cores(node * per_node, per_node)),
            )?;
        }
        Ok(())
    }
}

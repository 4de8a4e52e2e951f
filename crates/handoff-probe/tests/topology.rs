//! Topology from sysfs: placement classes, representatives, cache sizes and summaries on
//! hand-written sysfs fixtures (tests/fixtures/sysfs/*), and properties of the live machine.

use handoff::Error;
use handoff_probe::topology::{
    CacheInfo, CacheKind, MachineInfo, Placement, Topology, Virtualization,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use Placement::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sysfs")
        .join(name)
}

fn load(name: &str) -> Topology {
    Topology::from_sysfs(&fixture(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// Every class that occurs among all pairs of online CPUs.
fn classes(t: &Topology) -> BTreeSet<Placement> {
    let ids = t.cpu_ids();
    let mut set = BTreeSet::new();
    for &a in &ids {
        for &b in &ids {
            set.insert(t.placement(a, b));
        }
    }
    set
}

/// Placement must be symmetric and `SameCore` exactly on the diagonal.
fn check_symmetric(t: &Topology) {
    let ids = t.cpu_ids();
    for &a in &ids {
        for &b in &ids {
            let p = t.placement(a, b);
            assert_eq!(p, t.placement(b, a), "placement({a},{b}) not symmetric");
            assert_eq!(p == SameCore, a == b, "placement({a},{b}) = {p}");
        }
    }
}

fn cache(level: u8, kind: CacheKind, kib: u64, shared_by: usize) -> CacheInfo {
    CacheInfo {
        level,
        kind,
        size_bytes: kib << 10,
        shared_by,
    }
}

#[test]
fn this_vm_two_cpus_shared_l3() {
    let t = load("vm-epyc-2cpu");
    check_symmetric(&t);
    assert_eq!(t.cpu_ids(), [0, 1]);
    assert_eq!((t.packages(), t.cores(), t.threads_per_core()), (1, 2, 1));
    assert_eq!(t.numa_nodes(), [0]);
    assert!(t.offline().is_empty());
    assert_eq!(t.placement(0, 1), SharedL3);
    assert_eq!(classes(&t), BTreeSet::from([SameCore, SharedL3]));
    assert_eq!(
        t.representatives(0, &[0, 1]),
        [(SameCore, 0), (SharedL3, 1)]
    );
    assert_eq!(t.representatives(1, &[0]), [(SharedL3, 0)]);
    assert_eq!(
        t.cache_sizes(),
        [
            cache(1, CacheKind::Data, 48, 1),
            cache(2, CacheKind::Unified, 1024, 1),
            cache(3, CacheKind::Unified, 32 << 10, 2),
        ]
    );
    assert_eq!(t.last_level_cache_bytes(), Some(32 << 20));
    assert_eq!(
        t.summary(),
        "1 package, 2 cores, no SMT, L1d 48 KiB, L2 1 MiB/core, L3 32 MiB shared"
    );
    let v = Virtualization::from_sysfs(
        &fixture("vm-epyc-2cpu"),
        Some("model name\t: AMD EPYC\nflags\t\t: fpu hypervisor lm\n"),
    );
    assert!(v.virtualized);
    assert_eq!(v.hypervisor, None); // this VM exposes no DMI; detect() asks CPUID then
}

#[test]
fn intel_two_sockets_smt_two_numa_nodes() {
    let t = load("intel-2s-4c-smt");
    check_symmetric(&t);
    assert_eq!(t.logical_cpus(), 16);
    assert_eq!((t.packages(), t.cores(), t.threads_per_core()), (2, 8, 2));
    assert_eq!(t.numa_nodes(), [0, 1]);
    assert_eq!(t.cpu(9).unwrap().siblings, [1, 9]);
    assert_eq!(t.cpu(12).unwrap().node, 1);
    assert_eq!(t.placement(0, 8), SmtSibling);
    assert_eq!(t.placement(0, 1), SharedL3);
    assert_eq!(t.placement(0, 11), SharedL3);
    // Other socket, other node: cross-numa wins over cross-package.
    assert_eq!(t.placement(0, 4), CrossNuma);
    assert_eq!(t.placement(8, 12), CrossNuma);
    // L2 is per core, so shared-l2 only ever coincides with smt-sibling here.
    assert_eq!(
        classes(&t),
        BTreeSet::from([SameCore, SmtSibling, SharedL3, CrossNuma])
    );
    let all = t.cpu_ids();
    assert_eq!(
        t.representatives(0, &all),
        [
            (SameCore, 0),
            (SmtSibling, 8),
            (SharedL3, 1),
            (CrossNuma, 4)
        ]
    );
    assert_eq!(
        t.representatives(5, &[15, 14, 13, 6, 0]),
        [(SmtSibling, 13), (SharedL3, 6), (CrossNuma, 0)]
    );
    let pairs = t.class_pairs(&all);
    assert_eq!(
        pairs,
        [
            (SameCore, 0, 0),
            (SmtSibling, 0, 8),
            (SharedL3, 0, 1),
            (CrossNuma, 0, 4)
        ]
    );
    assert_eq!(
        t.cache_sizes(),
        [
            cache(1, CacheKind::Data, 32, 2),
            cache(2, CacheKind::Unified, 1024, 2),
            cache(3, CacheKind::Unified, 11264, 8),
        ]
    );
    assert_eq!(t.last_level_cache_bytes(), Some(11 << 20));
    assert_eq!(
        t.summary(),
        "2 packages, 8 cores, 16 threads (SMT 2), 2 NUMA nodes, L1d 32 KiB, \
         L2 1 MiB/core, L3 11 MiB/package"
    );
    let v = Virtualization::from_sysfs(&fixture("intel-2s-4c-smt"), Some("flags\t: fpu lm\n"));
    assert_eq!(v, Virtualization::default());
    assert_eq!(v.describe(), "bare metal");
}

#[test]
fn amd_multi_ccx_l3_per_ccx() {
    let t = load("amd-zen2-16c-4ccx");
    check_symmetric(&t);
    assert_eq!(t.logical_cpus(), 32);
    assert_eq!((t.packages(), t.cores(), t.threads_per_core()), (1, 16, 2));
    // Siblings come from core_cpus_list here (no thread_siblings_list in this fixture).
    assert_eq!(t.cpu(3).unwrap().siblings, [3, 19]);
    let l3 = |cpu: usize| {
        t.cpu(cpu)
            .unwrap()
            .caches
            .iter()
            .find(|c| c.level == 3)
            .unwrap()
            .id
    };
    assert_eq!(
        (l3(0), l3(5), l3(27), l3(31)),
        (Some(0), Some(1), Some(2), Some(3))
    );
    assert_eq!(t.placement(0, 16), SmtSibling);
    assert_eq!(t.placement(0, 3), SharedL3); // same CCX
    assert_eq!(t.placement(17, 2), SharedL3); // a sibling thread, same CCX
    assert_eq!(t.placement(0, 4), SamePackage); // other CCX, same CCD
    assert_eq!(t.placement(0, 8), SamePackage); // other CCD
    assert_eq!(t.placement(0, 20), SamePackage);
    assert_eq!(
        classes(&t),
        BTreeSet::from([SameCore, SmtSibling, SharedL3, SamePackage])
    );
    let all = t.cpu_ids();
    assert_eq!(
        t.representatives(0, &all),
        [
            (SameCore, 0),
            (SmtSibling, 16),
            (SharedL3, 1),
            (SamePackage, 4)
        ]
    );
    // Without the CCX mates allowed, the nearest class left is same-package.
    assert_eq!(t.representatives(0, &[12, 13, 30]), [(SamePackage, 12)]);
    assert_eq!(
        t.cache_sizes(),
        [
            cache(1, CacheKind::Data, 32, 2),
            cache(2, CacheKind::Unified, 512, 2),
            cache(3, CacheKind::Unified, 16 << 10, 8),
        ]
    );
    assert_eq!(t.last_level_cache_bytes(), Some(16 << 20));
    assert_eq!(
        t.summary(),
        "1 package, 16 cores, 32 threads (SMT 2), L1d 32 KiB, L2 512 KiB/core, \
         L3 16 MiB per 8 CPUs"
    );
    let v = Virtualization::from_sysfs(&fixture("amd-zen2-16c-4ccx"), None);
    assert!(v.virtualized);
    assert_eq!(v.hypervisor.as_deref(), Some("QEMU"));
    assert_eq!(v.describe(), "virtualized (QEMU)");
}

#[test]
fn intel_hybrid_e_core_clusters_share_l2() {
    let t = load("intel-hybrid-8p8e");
    check_symmetric(&t);
    assert_eq!((t.packages(), t.cores(), t.threads_per_core()), (1, 16, 2));
    assert_eq!(t.placement(0, 1), SmtSibling);
    assert_eq!(t.placement(0, 2), SharedL3);
    assert_eq!(t.placement(16, 19), SharedL2);
    assert_eq!(t.placement(16, 20), SharedL3);
    assert_eq!(t.placement(3, 21), SharedL3);
    assert_eq!(
        classes(&t),
        BTreeSet::from([SameCore, SmtSibling, SharedL2, SharedL3])
    );
    assert_eq!(
        t.representatives(17, &t.cpu_ids()),
        [(SameCore, 17), (SharedL2, 16), (SharedL3, 0)]
    );
    assert_eq!(
        t.cache_sizes(),
        [
            cache(1, CacheKind::Data, 32, 1),
            cache(1, CacheKind::Data, 48, 2),
            cache(2, CacheKind::Unified, 1280, 2),
            cache(2, CacheKind::Unified, 2048, 4),
            cache(3, CacheKind::Unified, 30 << 10, 24),
        ]
    );
    assert_eq!(
        t.summary(),
        "1 package, 16 cores, 24 threads (SMT 2), L1d 32 KiB, L1d 48 KiB, \
         L2 1.25 MiB/core, L2 2 MiB per 4 CPUs, L3 30 MiB shared"
    );
}

#[test]
fn degraded_sysfs_offline_cpus_missing_files() {
    let t = load("degraded-xen");
    check_symmetric(&t);
    assert_eq!(t.cpu_ids(), [0, 1, 2, 3, 4]);
    assert_eq!(t.offline(), [5, 6]);
    assert_eq!(t.numa_nodes(), [0]); // no node directory: one node
    assert!(t.cpu(2).unwrap().caches.is_empty());
    // cpu2/cpu3 have no sibling lists: same package and core id make them siblings.
    assert_eq!(t.cpu(3).unwrap().siblings, [2, 3]);
    assert_eq!(t.placement(2, 3), SmtSibling);
    // cpu1's L3 has no shared_cpu_list, cpu0's says it is shared with cpu1.
    assert_eq!(t.placement(0, 1), SharedL3);
    assert_eq!(t.placement(1, 0), SharedL3);
    // No cache information for cpu4: nothing shared is known.
    assert_eq!(t.placement(2, 4), SamePackage);
    // Two packages, one (implicit) node.
    assert_eq!(t.placement(0, 2), CrossPackage);
    assert_eq!(
        classes(&t),
        BTreeSet::from([SameCore, SmtSibling, SharedL3, SamePackage, CrossPackage])
    );
    // Offline and nonexistent CPUs: an error from try_placement, a neutral answer otherwise.
    match t.try_placement(0, 5) {
        Err(Error::Sys(handoff::sys::Error::CpuUnavailable { cpu: 5, allowed })) => {
            assert_eq!(allowed, "0-4")
        }
        other => panic!("expected CpuUnavailable, got {other:?}"),
    }
    assert!(t.try_placement(99, 0).is_err());
    assert_eq!(t.placement(0, 5), SamePackage);
    assert_eq!(t.placement(6, 6), SameCore);
    assert!(t.representatives(5, &[0, 1]).is_empty());
    assert_eq!(
        t.representatives(2, &[0, 1, 2, 3, 4, 5, 6, 99]),
        [
            (SameCore, 2),
            (SmtSibling, 3),
            (SamePackage, 4),
            (CrossPackage, 0)
        ]
    );
    // cpu1's L2 has no size and its L3 no sharing list: neither adds an entry.
    assert_eq!(
        t.cache_sizes(),
        [
            cache(1, CacheKind::Data, 32, 1),
            cache(2, CacheKind::Unified, 256, 1),
            cache(3, CacheKind::Unified, 8 << 10, 2),
        ]
    );
    assert_eq!(
        t.summary(),
        "2 packages, 4 cores, 5 threads (SMT 2), 2 CPUs offline, L1d 32 KiB, \
         L2 256 KiB/core, L3 8 MiB/package"
    );
    let v = Virtualization::from_sysfs(&fixture("degraded-xen"), None);
    assert_eq!(v.hypervisor.as_deref(), Some("Xen"));
    assert!(v.virtualized);
}

#[test]
fn missing_or_corrupt_sysfs_is_an_error() {
    let e = Topology::from_sysfs(Path::new("/nonexistent-handoff-sysfs")).unwrap_err();
    assert!(e.to_string().contains("is sysfs mounted"), "{e}");

    let dir = std::env::temp_dir().join(format!("handoff-topology-{}", std::process::id()));
    let cpu = dir.join("devices/system/cpu");
    std::fs::create_dir_all(&cpu).unwrap();
    std::fs::write(cpu.join("online"), "0-x\n").unwrap();
    let e = Topology::from_sysfs(&dir).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(e.contains("online") && e.contains("0-x"), "{e}");
}

#[test]
fn live_machine_detect() {
    let t = Topology::detect().expect("reading /sys");
    let ids = t.cpu_ids();
    assert!(!ids.is_empty());
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "ids sorted and distinct: {ids:?}"
    );
    check_symmetric(&t);
    for c in t.cpus() {
        assert!(c.siblings.contains(&c.id));
        assert!(t.numa_nodes().contains(&c.node));
    }
    assert!(t.cores() >= 1 && t.cores() <= ids.len());
    assert!(t.packages() >= 1);
    let reps = t.representatives(ids[0], &ids);
    assert_eq!(reps[0], (SameCore, ids[0]));
    assert_eq!(t.class_pairs(&ids)[0], (SameCore, ids[0], ids[0]));
    assert!(!t.summary().is_empty());
    let past_end = ids[ids.len() - 1] + 1;
    assert!(t.try_placement(ids[0], past_end).is_err());
    println!("live topology: {}", t.summary());
    for (p, a, b) in t.class_pairs(&ids) {
        println!("  {p}: CPUs {a} and {b}");
    }

    let m = MachineInfo::detect();
    assert_eq!(m.logical_cpus, ids.len());
    assert!(!m.allowed_cpus.is_empty());
    assert!(m.allowed_cpus.iter().all(|c| ids.contains(c)), "{m:?}");
    let par = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(par <= m.allowed_cpus.len(), "{par} > {:?}", m.allowed_cpus);
    assert!(!m.cpu_model.is_empty() && !m.kernel.is_empty() && !m.hostname.is_empty());
    assert_eq!(m.topology, t.summary());
    assert_eq!(m.caches, t.cache_sizes());
    println!("machine: {m:#?}");
}

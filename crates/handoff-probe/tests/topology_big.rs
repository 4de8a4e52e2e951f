//! The large machines the lab must plan for, as synthetic sysfs trees
//! (`topology::synth`): a 2-socket 192-core SMT-2 server with 8-core CCDs, a 4-socket
//! 80-core SMT-2 Skylake, a 128-core single socket with 8 CCDs. Each is parsed back and
//! checked against hand-derived counts and placement classes.

use handoff_probe::topology::synth::SynthMachine;
use handoff_probe::topology::{Placement, Topology};
use std::path::PathBuf;

fn tree(name: &str, m: &SynthMachine) -> (Topology, PathBuf) {
    let dir = std::env::temp_dir().join(format!("handoff-synth-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    m.write(&dir).unwrap();
    let t = Topology::from_sysfs(&dir).unwrap();
    // What the other tests use instead of a tree: the same topology, built in memory.
    assert_eq!(
        t,
        m.topology(),
        "{name}: SynthMachine::topology differs from its tree"
    );
    (t, dir)
}

fn classes(t: &Topology) -> Vec<Placement> {
    t.representatives_per_class(0, &t.cpu_ids(), 3)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

#[test]
fn server_2s_192c() {
    let (t, dir) = tree("2s192", &SynthMachine::server_2s_192c());
    assert_eq!(t.logical_cpus(), 384);
    assert_eq!(t.cores(), 192);
    assert_eq!(t.packages(), 2);
    assert_eq!(t.threads_per_core(), 2);
    assert_eq!(t.numa_nodes(), &[0, 1]);
    // Linux numbering: core k's threads are k and k + 192; CCDs of 8 cores.
    assert_eq!(t.placement(0, 192), Placement::SmtSibling);
    assert_eq!(t.placement(0, 7), Placement::SharedL3);
    assert_eq!(t.placement(0, 8 + 192), Placement::SamePackage);
    assert_eq!(t.placement(0, 96), Placement::CrossNuma);
    assert_eq!(t.placement(95, 96 + 192), Placement::CrossNuma);
    use Placement::*;
    assert_eq!(
        classes(&t),
        [SameCore, SmtSibling, SharedL3, SamePackage, CrossNuma]
    );
    // Three per class at most, both ends of the class included.
    let reps = t.representatives_per_class(0, &t.cpu_ids(), 3);
    let far = &reps.iter().find(|(p, _)| *p == CrossNuma).unwrap().1;
    assert_eq!(far, &[96, 191, 383]); // 96..=191 and 288..=383: first, middle, last
    let l3 = &reps.iter().find(|(p, _)| *p == SharedL3).unwrap().1;
    assert_eq!(l3, &[1, 7, 199]); // 1..=7 and 193..=199
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn skylake_4s_80c() {
    let (t, dir) = tree("4s80", &SynthMachine::skylake_4s_80c());
    assert_eq!(t.logical_cpus(), 160);
    assert_eq!(t.cores(), 80);
    assert_eq!(t.packages(), 4);
    assert_eq!(t.numa_nodes(), &[0, 1, 2, 3]);
    assert_eq!(t.placement(0, 80), Placement::SmtSibling);
    assert_eq!(t.placement(0, 19), Placement::SharedL3);
    assert_eq!(t.placement(0, 20), Placement::CrossNuma);
    assert_eq!(t.placement(20, 79 + 80), Placement::CrossNuma);
    use Placement::*;
    // One L3 per socket: no same-package-without-shared-cache class.
    assert_eq!(classes(&t), [SameCore, SmtSibling, SharedL3, CrossNuma]);
    assert_eq!(t.last_level_cache_bytes(), Some(28160 * 1024));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn single_128c_8ccd() {
    let (t, dir) = tree("1s128", &SynthMachine::single_128c_8ccd());
    assert_eq!(t.logical_cpus(), 256);
    assert_eq!(t.cores(), 128);
    assert_eq!(t.packages(), 1);
    assert_eq!(t.numa_nodes(), &[0]);
    assert_eq!(t.placement(0, 128), Placement::SmtSibling);
    assert_eq!(t.placement(0, 15), Placement::SharedL3);
    assert_eq!(t.placement(0, 16), Placement::SamePackage);
    assert_eq!(t.placement(0, 127 + 128), Placement::SamePackage);
    use Placement::*;
    assert_eq!(classes(&t), [SameCore, SmtSibling, SharedL3, SamePackage]);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The large-L3 presets: an Emerald-Rapids-like 2x60-core node (320 MiB per socket), a
/// Granite-Rapids-like 128-core socket (504 MiB) and a Genoa-X-like 2x96-core node (96 MiB
/// per 8-core CCD). Their last-level cache is what the report's sweep must pass.
#[test]
fn large_cache_presets() {
    use Placement::*;
    const MIB: u64 = 1 << 20;
    let (t, dir) = tree("emerald", &SynthMachine::emerald_2s_120c());
    assert_eq!((t.logical_cpus(), t.cores(), t.packages()), (240, 120, 2));
    assert_eq!(t.placement(0, 59), SharedL3);
    assert_eq!(t.placement(0, 60), CrossNuma);
    assert_eq!(classes(&t), [SameCore, SmtSibling, SharedL3, CrossNuma]);
    assert_eq!(t.last_level_cache_bytes(), Some(320 * MIB));
    std::fs::remove_dir_all(dir).unwrap();
    let (t, dir) = tree("granite", &SynthMachine::granite_1s_128c());
    assert_eq!((t.logical_cpus(), t.cores(), t.packages()), (256, 128, 1));
    assert_eq!(t.placement(0, 127), SharedL3);
    assert_eq!(classes(&t), [SameCore, SmtSibling, SharedL3]);
    assert_eq!(t.last_level_cache_bytes(), Some(504 * MIB));
    std::fs::remove_dir_all(dir).unwrap();
    let (t, dir) = tree("genoa-x", &SynthMachine::genoa_x_2s_192c());
    assert_eq!((t.logical_cpus(), t.cores(), t.packages()), (384, 192, 2));
    assert_eq!(t.placement(0, 8), SamePackage);
    assert_eq!(
        classes(&t),
        [SameCore, SmtSibling, SharedL3, SamePackage, CrossNuma]
    );
    assert_eq!(t.last_level_cache_bytes(), Some(96 * MIB));
    std::fs::remove_dir_all(dir).unwrap();
    assert_eq!(SynthMachine::presets().len(), 6);
}

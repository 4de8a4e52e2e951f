//! Unit tests of `kneighbor`.

use super::*;
use crate::bench::experiment::assert_each_refused;
use handoff_probe::topology::synth::SynthMachine;
use handoff_probe::topology::Placement as Class;

#[test]
fn neighbours_and_placements_by_hand() {
    assert_eq!(neighbours(0, 7, 3), vec![4, 5, 6, 1, 2, 3]);
    assert_eq!(neighbours(5, 7, 1), vec![4, 6]);
    let cpus = [0, 1];
    // No topology, and a 2-CPU machine (two cores of one package): oversubscribed as
    // before the classes.
    let two = two_cpu_machine();
    for topo in [None, Some(&two)] {
        assert_eq!(
            Placement::Compact.map(7, &cpus, topo),
            [0, 0, 0, 0, 1, 1, 1].map(Some),
        );
        assert_eq!(
            Placement::Spread.map(7, &cpus, topo),
            [0, 1, 0, 1, 0, 1, 0].map(Some),
        );
    }
    let seed = Placement::List(vec![0, 2, 4, 6, 1, 3, 5]);
    assert_eq!(seed.map(7, &cpus, None)[3], Some(6));
    assert_eq!(seed.name(), "cpus 0,2,4,6,1,3,5");
    assert_eq!(Placement::Os.map(7, &cpus, None)[3], None);
}

/// A preset's topology, built in memory (the probe's tests check it against its tree).
fn synth(m: &SynthMachine) -> Topology {
    m.topology()
}

fn two_cpu_machine() -> Topology {
    let m = SynthMachine {
        packages: 1,
        nodes_per_package: 1,
        cores_per_package: 2,
        smt: 1,
        cores_per_l2: 1,
        cores_per_l3: 2,
        l1d_kib: 32,
        l2_kib: 512,
        l3_kib: 4096,
    };
    synth(&m)
}

/// The classes of ring neighbours (offsets 1..=k) under a map: the multiset, sorted.
fn neighbour_classes(t: &Topology, map: &[Option<usize>], k: usize) -> Vec<Class> {
    let p = map.len();
    let mut v: Vec<Class> = (0..p)
        .flat_map(|i| (1..=k).map(move |d| (i, (i + d) % p)))
        .map(|(a, b)| t.placement(map[a].unwrap(), map[b].unwrap()))
        .collect();
    v.sort();
    v
}

/// The seed's example (7 PEs, k = 3) on the large presets: both maps use 7 distinct CPUs;
/// `compact` keeps every neighbour pair within the anchor's L3 (SMT siblings first),
/// `spread` puts neighbours in the farthest class the machine has, alternating NUMA nodes
/// or packages, and its pairs are pair for pair at least as far as compact's.
#[test]
fn maps_follow_the_placement_classes_on_large_machines() {
    let cases = [
        // (machine, compact map, spread map, spread's farthest class)
        (
            SynthMachine::server_2s_192c(),
            vec![0, 192, 1, 2, 3, 4, 5],
            vec![0, 96, 8, 104, 16, 112, 24],
            Class::CrossNuma,
        ),
        (
            SynthMachine::skylake_4s_80c(),
            vec![0, 80, 1, 2, 3, 4, 5],
            vec![0, 20, 40, 60, 1, 21, 41],
            Class::CrossNuma,
        ),
        (
            SynthMachine::single_128c_8ccd(),
            vec![0, 128, 1, 2, 3, 4, 5],
            vec![0, 16, 32, 48, 64, 80, 96],
            Class::SamePackage,
        ),
    ];
    for (m, want_compact, want_spread, far) in cases {
        let t = synth(&m);
        let all = t.cpu_ids();
        let compact = Placement::Compact.map(7, &all, Some(&t));
        let spread = Placement::Spread.map(7, &all, Some(&t));
        assert_eq!(
            compact,
            want_compact.iter().map(|&c| Some(c)).collect::<Vec<_>>(),
            "{m:?}"
        );
        assert_eq!(
            spread,
            want_spread.iter().map(|&c| Some(c)).collect::<Vec<_>>(),
            "{m:?}"
        );
        for map in [&compact, &spread] {
            let mut distinct = map.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 7, "{m:?}: {map:?}");
        }
        // Compact: the anchor's SMT sibling is a neighbour, nothing leaves the L3.
        let near = neighbour_classes(&t, &compact, 3);
        assert_eq!(near[0], Class::SmtSibling, "{m:?}");
        assert!(
            near.iter().all(|&c| c <= Class::SharedL3),
            "{m:?}: {near:?}"
        );
        // Spread: neighbours as far as the machine allows, and all farther than compact's.
        let wide = neighbour_classes(&t, &spread, 3);
        assert_eq!(wide.last(), Some(&far), "{m:?}: {wide:?}");
        // 7 PEs with k = 3 make every pair neighbours: spread's classes dominate compact's.
        assert!(
            wide != near && wide.iter().zip(&near).all(|(w, n)| w >= n),
            "{m:?}: {wide:?} vs {near:?}"
        );
        // Fewer CPUs than PEs on a large machine: oversubscribed, every CPU used.
        let few = [0, 1, 96, 97];
        let c = Placement::Compact.map(7, &few, Some(&t));
        let s = Placement::Spread.map(7, &few, Some(&t));
        for map in [&c, &s] {
            let mut used: Vec<usize> = map.iter().map(|c| c.unwrap()).collect();
            used.sort();
            used.dedup();
            assert_eq!(used, few, "{m:?}: {map:?}");
        }
        // Compact puts consecutive PEs together (4 runs), spread alternates.
        assert_eq!(c.windows(2).filter(|w| w[0] != w[1]).count(), 3, "{c:?}");
        assert_eq!(s.windows(2).filter(|w| w[0] != w[1]).count(), 6, "{s:?}");
    }
}

#[test]
fn oversubscribed_threads_complete_and_verify() {
    // 7 PEs on one CPU: only adaptive/blocking waits let this finish.
    let cfg = Config {
        sizes: vec![100],
        iters: 20,
        reps: 2,
        runs: 1,
        cpus: vec![0],
        ..Config::for_report(true, &[0])
    };
    let tool = crate::machine::Tool::default();
    let machine = crate::machine::Machine::default();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut prog = crate::progress::Silent;
    let ctx = RunCtx {
        quick: true,
        machine: &machine,
        tool: &tool,
        exe: "/nonexistent".into(),
        args: vec![],
        allowed_cpus: &[0],
        cancel: &cancel,
        progress: &mut prog,
        transports: Vec::new(),
    };
    let (s, [checked, wrong]) =
        one_run(&cfg, 100, &Placement::Compact, Mode::Threads, &ctx).unwrap();
    assert!(
        checked > 0 && wrong == 0,
        "{checked} checked, {wrong} wrong"
    );
    assert_eq!(s.len(), 2);
    assert!(s.iter().all(|x| x.is_finite() && *x > 0.0));
}

#[test]
fn bad_configs_are_refused() {
    let good = Config::for_report(true, &[0, 1]);
    assert!(good.validate().is_ok());
    assert_each_refused(
        &good,
        Config::validate,
        &[
            |c| c.pes = 6,
            |c| c.k = 0,
            |c| c.sizes = vec![0],
            |c| c.iters = 0,
            |c| {
                c.pes = 256;
                c.k = 64;
                c.sizes = vec![16 << 20];
            },
        ],
    );
}

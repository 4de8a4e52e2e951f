//! `handoff run --map` and kNeighbor's maps (`topology::maps`) on the large synthetic
//! machines and on a 2-CPU one: compact fills the nearest classes first, spread the
//! farthest, and both use distinct CPUs until the machine is full.

use handoff_probe::topology::maps::{pe_cpus, Map};
use handoff_probe::topology::synth::SynthMachine;
use handoff_probe::topology::{Placement as Class, Topology};
use std::collections::BTreeSet;

/// The three presets' topologies (in memory: `tests/topology_big.rs` checks them against
/// their sysfs trees).
fn presets_parsed() -> Vec<Topology> {
    presets().iter().map(|(_, m, ..)| m.topology()).collect()
}

fn distinct(cpus: &[usize]) -> usize {
    cpus.iter().collect::<BTreeSet<_>>().len()
}

/// The classes of every PE's CPU relative to PE 0's, farthest last.
fn classes_from_first(t: &Topology, cpus: &[usize]) -> Vec<Class> {
    let mut v: Vec<Class> = cpus.iter().map(|&c| t.placement(cpus[0], c)).collect();
    v.sort();
    v
}

/// (name, machine, CPUs of one L3 domain, the farthest class, number of farthest domains)
fn presets() -> Vec<(&'static str, SynthMachine, usize, Class, usize)> {
    vec![
        (
            "2s192",
            SynthMachine::server_2s_192c(),
            16,
            Class::CrossNuma,
            2,
        ),
        (
            "4s80",
            SynthMachine::skylake_4s_80c(),
            40,
            Class::CrossNuma,
            4,
        ),
        (
            "1s128",
            SynthMachine::single_128c_8ccd(),
            32,
            Class::SamePackage,
            8,
        ),
    ]
}

#[test]
fn compact_fills_the_nearest_classes_first() {
    for ((name, _, per_l3, _, _), t) in presets().into_iter().zip(&presets_parsed()) {
        let all = t.cpu_ids();
        // One L3 domain's worth of PEs: all distinct, all within the anchor's L3, the SMT
        // sibling second.
        let c = pe_cpus(Some(t), &all, Map::Compact, per_l3);
        assert_eq!(distinct(&c), per_l3, "{name}: {c:?}");
        assert_eq!(t.placement(c[0], c[1]), Class::SmtSibling, "{name}: {c:?}");
        let cls = classes_from_first(t, &c);
        assert!(cls.iter().all(|&k| k <= Class::SharedL3), "{name}: {cls:?}");
        // Classes never get nearer along the ranks.
        let along: Vec<Class> = c.iter().map(|&x| t.placement(c[0], x)).collect();
        assert!(along.windows(2).all(|w| w[0] <= w[1]), "{name}: {along:?}");
        // The whole machine: a permutation of the CPUs.
        let full = pe_cpus(Some(t), &all, Map::Compact, all.len());
        let mut sorted = full.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, all, "{name}");
        // Twice as many PEs as CPUs: consecutive ranks pairwise on one CPU.
        let over = pe_cpus(Some(t), &all, Map::Compact, 2 * all.len());
        assert!(over.chunks(2).all(|p| p[0] == p[1]), "{name}");
        assert_eq!(distinct(&over), all.len(), "{name}");
    }
}

#[test]
fn spread_reaches_the_farthest_classes_first() {
    for ((name, _, per_l3, far, domains), t) in presets().into_iter().zip(&presets_parsed()) {
        let all = t.cpu_ids();
        // As many PEs as farthest domains: each pair is in the farthest class.
        let s = pe_cpus(Some(t), &all, Map::Spread, domains);
        for (i, &a) in s.iter().enumerate() {
            for &b in &s[i + 1..] {
                assert_eq!(t.placement(a, b), far, "{name}: {s:?}");
            }
        }
        // One PE per L3 domain: no two share an L3 (or anything nearer).
        let l3s = all.len() / per_l3;
        let s = pe_cpus(Some(t), &all, Map::Spread, l3s);
        for (i, &a) in s.iter().enumerate() {
            for &b in &s[i + 1..] {
                assert!(t.placement(a, b) > Class::SharedL3, "{name}: {a} {b}");
            }
        }
        // Compact's second PE is the SMT sibling; spread's is in the farthest class.
        let s2 = pe_cpus(Some(t), &all, Map::Spread, 2);
        assert_eq!(t.placement(s2[0], s2[1]), far, "{name}: {s2:?}");
        // The whole machine: a permutation; oversubscribed: round-robin.
        let over = pe_cpus(Some(t), &all, Map::Spread, all.len() + 3);
        let full = &over[..all.len()];
        assert_eq!(distinct(full), all.len(), "{name}");
        assert_eq!(over[all.len()..], full[..3], "{name}");
    }
}

/// Only part of the machine allowed (a cpuset): the maps stay inside it.
#[test]
fn maps_stay_inside_the_allowed_cpus() {
    let t = &SynthMachine::server_2s_192c().topology();
    // Two cores of socket 0's first CCD with their siblings, and two of socket 1's.
    let allowed = [0, 1, 96, 97, 192, 193, 288, 289];
    for map in [Map::Compact, Map::Spread] {
        let c = pe_cpus(Some(t), &allowed, map, 8);
        let mut sorted = c.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, allowed, "{map:?}");
    }
    let s = pe_cpus(Some(t), &allowed, Map::Spread, 2);
    assert_eq!(s, [0, 96]);
    let c = pe_cpus(Some(t), &allowed, Map::Compact, 2);
    assert_eq!(c, [0, 192]);
}

/// A 2-CPU machine (two cores of one package, like this one) and no topology at all.
#[test]
fn two_cpus_and_no_topology() {
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
    let t = m.topology();
    for topo in [Some(&t), None] {
        assert_eq!(pe_cpus(topo, &[1, 0], Map::Compact, 4), [0, 0, 1, 1]);
        assert_eq!(pe_cpus(topo, &[1, 0], Map::Spread, 4), [0, 1, 0, 1]);
        assert_eq!(pe_cpus(topo, &[0, 1], Map::Compact, 1), [0]);
        assert!(pe_cpus(topo, &[], Map::Spread, 4).is_empty());
    }
    assert!("diagonal".parse::<Map>().is_err());
    assert_eq!("spread".parse::<Map>().unwrap(), Map::Spread);
}

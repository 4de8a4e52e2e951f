//! Unit tests of the report's plan, its estimate and its folder.
use super::*;

use handoff_probe::topology::synth::SynthMachine;
use handoff_probe::topology::Placement;

/// The full plan on each large machine: consumers are at most CONSUMERS_PER_CLASS per
/// class and cover every class, and the estimate stays under 15 minutes.
#[test]
fn plans_for_large_machines_are_bounded() {
    let machines = [
        ("2s192", SynthMachine::server_2s_192c(), 5),
        ("4s80", SynthMachine::skylake_4s_80c(), 4),
        ("1s128", SynthMachine::single_128c_8ccd(), 4),
    ];
    for (name, m, n_classes) in machines {
        let t = m.topology();
        let allowed = t.cpu_ids();
        let llc = t.last_level_cache_bytes();
        let (p, cfg) = plan(false, &Overrides::default(), &t, &allowed, llc).unwrap();
        let by_class = t.representatives_per_class(0, &allowed, usize::MAX);
        assert_eq!(by_class.len(), n_classes, "{name}");
        for (class, members) in &by_class {
            let picked = cfg
                .consumer_cores
                .iter()
                .filter(|c| members.contains(c))
                .count();
            assert!(
                (1..=CONSUMERS_PER_CLASS).contains(&picked),
                "{name}: {picked} consumers in {class}"
            );
        }
        assert!(cfg.consumer_cores.len() <= n_classes * CONSUMERS_PER_CLASS);
        // One c2c pair per class other than the producer's own CPU.
        assert_eq!(p.c2c_pairs.len(), n_classes - 1, "{name}");
        let e = p.estimate();
        assert!(
            e.total_s() < 15.0 * 60.0,
            "{name}: {}",
            fmt_duration(e.total_s())
        );
        assert!(e.exchange_s > 0.0 && e.c2c_s > 0.0);
        let text = p.describe(&t, &allowed);
        assert!(text.contains("estimated duration"), "{text}");
        assert!(text.contains(Placement::SmtSibling.as_str()), "{text}");
    }
}

/// Every CPU of a small machine is a consumer (the per-class pick starts above 16), and
/// the estimate grows with the points: a machine with twice the CPUs plans longer.
#[test]
fn small_machines_measure_every_cpu() {
    let m = SynthMachine {
        packages: 1,
        nodes_per_package: 1,
        cores_per_package: 8,
        smt: 2,
        cores_per_l2: 1,
        cores_per_l3: 8,
        l1d_kib: 32,
        l2_kib: 512,
        l3_kib: 16384,
    };
    let t = m.topology();
    let all = t.cpu_ids();
    let (p16, cfg) = plan(false, &Overrides::default(), &t, &all, None).unwrap();
    assert_eq!(cfg.consumer_cores, all);
    let (p8, _) = plan(false, &Overrides::default(), &t, &all[..8], None).unwrap();
    assert!(p16.estimate().exchange_s > p8.estimate().exchange_s);
    assert_eq!(fmt_duration(3725.0), "1 h 02 min");
    assert_eq!(fmt_duration(200.0), "3 min 20 s");
}

#[test]
fn reps_scale_down_with_size() {
    assert_eq!(scaled_reps(100, 10, 4096), 100);
    assert_eq!(scaled_reps(100, 10, MIB), 100);
    assert_eq!(scaled_reps(100, 10, 4 * MIB), 25);
    assert_eq!(scaled_reps(100, 10, 128 * MIB), 10);
}

#[test]
fn sweep_is_powers_of_four_then_max() {
    assert_eq!(
        sweep_sizes(128 * MIB, 1),
        vec![
            4096,
            16384,
            65536,
            262144,
            MIB,
            4 * MIB,
            16 * MIB,
            64 * MIB,
            128 * MIB
        ]
    );
    assert_eq!(sweep_sizes(16 * MIB, 2), vec![4096, 65536, MIB, 16 * MIB]);
}

#[test]
fn rfc3339_by_hand() {
    // 1795000000 s = 20775 days (2026-11-18) + 40000 s = 11 h 6 min 40 s.
    assert_eq!(rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
    assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
}

#[test]
fn default_folder_is_never_an_earlier_one() {
    let base = std::env::temp_dir().join(format!("handoff-outdir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let first = default_out_dir(&base, "h", "2026-01-02");
    assert_eq!(first, base.join("handoff-report-h-2026-01-02"));
    std::fs::create_dir(&first).unwrap();
    let second = default_out_dir(&base, "h", "2026-01-02");
    assert_eq!(second, base.join("handoff-report-h-2026-01-02-2"));
    std::fs::create_dir(&second).unwrap();
    assert_eq!(
        default_out_dir(&base, "h", "2026-01-02"),
        base.join("handoff-report-h-2026-01-02-3")
    );
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn civil_dates() {
    assert_eq!(civil_date(0), "1970-01-01");
    assert_eq!(civil_date(1_795_000_000), "2026-11-18");
    assert_eq!(civil_date(951_782_400), "2000-02-29");
}

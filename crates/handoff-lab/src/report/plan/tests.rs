//! Unit tests of the report's plan, its estimate and its folder.
use super::*;
use crate::bench::experiment::ExperimentInfo;

use handoff_probe::topology::synth::SynthMachine;
use handoff_probe::topology::Placement;

/// The experiments `handoff report` runs beside exchange and c2c (all of them).
fn others() -> Vec<&'static ExperimentInfo> {
    crate::bench::registry::EXPERIMENTS
        .iter()
        .copied()
        .filter(|e| e.run.is_some())
        .collect()
}

fn request<'a>(
    protocol: Protocol,
    flags: &'a Overrides,
    experiments: &'a [&'static ExperimentInfo],
) -> Request<'a> {
    Request {
        protocol,
        flags,
        experiments,
        memory: None,
        speed: 1.0,
    }
}

/// The default plan on each large machine, the large-cache ones included: consumers are at
/// most CONSUMERS_PER_CLASS per class and cover every class, the sweep passes the
/// last-level cache, and the estimate (every experiment, c2c and writing included) fits the
/// default budget.
#[test]
fn plans_for_large_machines_fit_the_default_budget() {
    let n_classes = [5, 4, 4, 4, 3, 5];
    let all = others();
    assert!(all.len() >= 14, "{}", all.len());
    let flags = Overrides::default();
    for ((name, m), n_classes) in SynthMachine::presets().into_iter().zip(n_classes) {
        let t = m.topology();
        let allowed = t.cpu_ids();
        let llc = t.last_level_cache_bytes();
        let req = request(Protocol::Budget(DEFAULT_BUDGET_S), &flags, &all);
        let (p, cfg) = plan(&req, &t, &allowed, llc).unwrap();
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
            e.total_s() <= DEFAULT_BUDGET_S,
            "{name}: {}",
            fmt_duration(e.total_s())
        );
        assert!(e.exchange_s > 0.0 && e.c2c_s > 0.0 && e.others_s > 0.0 && e.write_s > 0.0);
        assert_eq!(p.others.len(), all.len(), "{name}");
        let largest = p.points.iter().map(|q| q.size).max().unwrap() as u64;
        assert!(largest > llc.unwrap(), "{name}: sweep stops at {largest}");
        let text = p.describe(&t, &allowed);
        assert!(text.contains("estimated duration"), "{text}");
        assert!(text.contains("budget 5 min 00 s"), "{text}");
        assert!(!text.contains("not included"), "{text}");
        assert!(text.contains(Placement::SmtSibling.as_str()), "{text}");
    }
}

/// A 2-CPU VM with a 300 MiB L3 (this project's Xeon guests): the default plan sweeps
/// past 300 MiB and fits 5 minutes by its estimate, with fewer repetitions than the seeds'
/// protocol and a note saying so; `--full` follows the seeds' 100 x 5 at every point,
/// estimates far longer and says it is long; the estimates include every experiment.
#[test]
fn a_large_cache_on_two_cpus_fits_the_budget_and_full_does_not() {
    let vm = SynthMachine {
        packages: 1,
        nodes_per_package: 1,
        cores_per_package: 2,
        smt: 1,
        cores_per_l2: 1,
        cores_per_l3: 2,
        l1d_kib: 48,
        l2_kib: 2048,
        l3_kib: 300 * 1024,
    };
    let t = vm.topology();
    let allowed = t.cpu_ids();
    let llc = t.last_level_cache_bytes();
    let all = others();
    let flags = Overrides::default();
    let req = request(Protocol::Budget(DEFAULT_BUDGET_S), &flags, &all);
    let (p, _) = plan(&req, &t, &allowed, llc).unwrap();
    let e = p.estimate().total_s();
    assert!(e <= DEFAULT_BUDGET_S, "{}", fmt_duration(e));
    assert_eq!(p.points.iter().map(|q| q.size).max(), Some(600 * MIB));
    assert!(p.step != budget::FULL);
    assert!(
        p.notes.iter().any(|n| n.contains("intervals are wider")),
        "{:?}",
        p.notes
    );
    let full_req = request(Protocol::Full, &flags, &all);
    let (f, _) = plan(&full_req, &t, &allowed, llc).unwrap();
    assert!(f.points.iter().all(|q| q.reps == 100 && q.runs == 5));
    assert!(f.estimate().total_s() > 4.0 * e);
    assert!(
        f.estimate_line().contains("a long run"),
        "{}",
        f.estimate_line()
    );
    assert!(!p.estimate_line().contains("a long run"));
    // A smaller budget picks a leaner step; a larger one a richer step.
    let small = request(Protocol::Budget(120.0), &flags, &all);
    let (s, _) = plan(&small, &t, &allowed, llc).unwrap();
    let large = request(Protocol::Budget(3600.0), &flags, &all);
    let (l, _) = plan(&large, &t, &allowed, llc).unwrap();
    let idx = |q: &Plan| budget::LADDER.iter().position(|st| *st == q.step).unwrap();
    assert!(
        idx(&s) >= idx(&p) && idx(&p) > idx(&l),
        "{} {} {}",
        idx(&s),
        idx(&p),
        idx(&l)
    );
    // A machine measured twice as slow as the model now: a leaner step, still within
    // the budget, and the plan says why.
    let slow_req = Request {
        speed: 2.0,
        ..request(Protocol::Budget(DEFAULT_BUDGET_S), &flags, &all)
    };
    let (slow, _) = plan(&slow_req, &t, &allowed, llc).unwrap();
    assert!(idx(&slow) > idx(&p), "{} {}", idx(&slow), idx(&p));
    assert!(slow.estimate().total_s() <= DEFAULT_BUDGET_S);
    assert!(
        slow.protocol().contains("2.00x the cost model"),
        "{}",
        slow.protocol()
    );
    // A budget nothing fits: the leanest step, and a note saying it is over.
    let tiny = request(Protocol::Budget(1.0), &flags, &all);
    let (z, _) = plan(&tiny, &t, &allowed, llc).unwrap();
    assert_eq!(z.step, budget::LADDER[budget::LADDER.len() - 1]);
    assert!(
        z.notes.iter().any(|n| n.contains("over the budget")),
        "{:?}",
        z.notes
    );
}

/// The largest block is bounded by the memory available (a third of 90% of it, for `file`'s
/// three copies) and by MAX_BLOCK, whatever the cache.
#[test]
fn the_sweep_is_bounded_by_memory() {
    let gib = 1u64 << 30;
    assert_eq!(sweep_max(Some(32 * MIB as u64), None), 64 * MIB);
    assert_eq!(sweep_max(Some(300 * MIB as u64), None), 600 * MIB);
    assert_eq!(sweep_max(Some(4 * gib), None), MAX_BLOCK);
    // 1 GiB available: 0.9 GiB / 3 = 307.2 MiB, rounded down to 4 KiB.
    let m = sweep_max(Some(300 * MIB as u64), Some(gib));
    assert!(m <= (gib / 10 * 9 / 3) as usize && m > 300 * MIB, "{m}");
    assert_eq!(m % 4096, 0);
    let flags = Overrides::default();
    let t = SynthMachine::granite_1s_128c().topology();
    let allowed = t.cpu_ids();
    let req = Request {
        memory: Some(gib),
        ..request(Protocol::Budget(DEFAULT_BUDGET_S), &flags, &[])
    };
    let (p, _) = plan(&req, &t, &allowed, t.last_level_cache_bytes()).unwrap();
    assert!(p.points.iter().all(|q| q.size <= m));
    assert!(
        p.notes.iter().any(|n| n.contains("memory available")),
        "{:?}",
        p.notes
    );
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
    let flags = Overrides::default();
    let req = request(Protocol::Full, &flags, &[]);
    let (p16, cfg) = plan(&req, &t, &all, None).unwrap();
    assert_eq!(cfg.consumer_cores, all);
    let (p8, _) = plan(&req, &t, &all[..8], None).unwrap();
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

//! Unit tests of the exchange's report plan, and of the report's plan and estimate with it.
use super::*;
use crate::bench::experiment::ExperimentInfo;
use crate::bench::experiment::ReportFlags;
use crate::report::plan::{
    budget, fmt_duration, plan as report, Plan, Protocol, Request, DEFAULT_BUDGET_S,
};

use handoff_probe::topology::synth::SynthMachine;
use handoff_probe::topology::Placement;

/// The experiments `handoff report` runs beside exchange and c2c (all of them).
fn others() -> Vec<&'static ExperimentInfo> {
    crate::bench::registry::select("all").unwrap()
}

fn request<'a>(
    protocol: Protocol,
    flags: &'a ReportFlags,
    experiments: &'a [&'static ExperimentInfo],
) -> Request<'a> {
    Request {
        protocol,
        flags,
        experiments,
        memory: None,
        speed: 1.0,
        stop_after_records: None,
        for_run: false,
    }
}

/// The report's plan for `req` and the exchange's points of the step it chose.
fn plan(req: &Request<'_>, t: &Topology, allowed: &[usize]) -> (Plan, ExchangePlan) {
    let p = report(req, t, allowed).unwrap();
    let ask = PlanAsk {
        quick: req.protocol == Protocol::Quick,
        step: &p.step,
        topology: t,
        allowed,
        memory: req.memory,
        flags: req.flags,
        stop_after_records: None,
        for_run: false,
    };
    let x = super::plan(&ask).unwrap();
    (p, x)
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
    let flags = ReportFlags::default();
    for ((name, m), n_classes) in SynthMachine::presets().into_iter().zip(n_classes) {
        let t = m.topology();
        let allowed = t.cpu_ids();
        let llc = t.last_level_cache_bytes();
        let req = request(Protocol::Budget(DEFAULT_BUDGET_S), &flags, &all);
        let (p, x) = plan(&req, &t, &allowed);
        let cfg = &x.cfg;
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
        assert_eq!(x.c2c_pairs.len(), n_classes - 1, "{name}");
        let e = p.estimate();
        assert!(
            e.total_s() <= DEFAULT_BUDGET_S,
            "{name}: {}",
            fmt_duration(e.total_s())
        );
        assert!(e.piece("exchange") > 0.0 && e.piece("c2c") > 0.0);
        assert!(e.others_s > 0.0 && e.write_s > 0.0);
        assert_eq!(p.others().count(), all.len(), "{name}");
        let largest = x.points.iter().map(|q| q.size).max().unwrap() as u64;
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
    let all = others();
    let flags = ReportFlags::default();
    let req = request(Protocol::Budget(DEFAULT_BUDGET_S), &flags, &all);
    let (p, x) = plan(&req, &t, &allowed);
    let e = p.estimate().total_s();
    assert!(e <= DEFAULT_BUDGET_S, "{}", fmt_duration(e));
    assert_eq!(x.points.iter().map(|q| q.size).max(), Some(600 * MIB));
    assert!(p.step != budget::FULL);
    assert!(
        p.notes.iter().any(|n| n.contains("intervals are wider")),
        "{:?}",
        p.notes
    );
    let full_req = request(Protocol::Full, &flags, &all);
    let (f, fx) = plan(&full_req, &t, &allowed);
    assert!(fx.points.iter().all(|q| q.reps == 100 && q.runs == 5));
    assert!(f.estimate().total_s() > 4.0 * e);
    assert!(
        f.estimate_line().contains("a long run"),
        "{}",
        f.estimate_line()
    );
    assert!(!p.estimate_line().contains("a long run"));
    // A smaller budget picks a leaner step; a larger one a richer step.
    let small = request(Protocol::Budget(120.0), &flags, &all);
    let (s, _) = plan(&small, &t, &allowed);
    let large = request(Protocol::Budget(3600.0), &flags, &all);
    let (l, _) = plan(&large, &t, &allowed);
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
    let (slow, _) = plan(&slow_req, &t, &allowed);
    assert!(idx(&slow) > idx(&p), "{} {}", idx(&slow), idx(&p));
    assert!(slow.estimate().total_s() <= DEFAULT_BUDGET_S);
    assert!(
        slow.protocol().contains("2.00x the cost model"),
        "{}",
        slow.protocol()
    );
    // A budget nothing fits: the leanest step, and a note saying it is over.
    let tiny = request(Protocol::Budget(1.0), &flags, &all);
    let (z, _) = plan(&tiny, &t, &allowed);
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
    let flags = ReportFlags::default();
    let t = SynthMachine::granite_1s_128c().topology();
    let allowed = t.cpu_ids();
    let req = Request {
        memory: Some(gib),
        ..request(Protocol::Budget(DEFAULT_BUDGET_S), &flags, &[])
    };
    let (p, x) = plan(&req, &t, &allowed);
    assert!(x.points.iter().all(|q| q.size <= m));
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
    let flags = ReportFlags::default();
    let req = request(Protocol::Full, &flags, &[]);
    let (p16, x16) = plan(&req, &t, &all);
    assert_eq!(x16.cfg.consumer_cores, all);
    let (p8, _) = plan(&req, &t, &all[..8]);
    assert!(p16.estimate().piece("exchange") > p8.estimate().piece("exchange"));
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

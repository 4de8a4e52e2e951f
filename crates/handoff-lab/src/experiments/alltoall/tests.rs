use super::*;
use crate::bench::experiment::assert_each_refused;
use crate::bench::BenchRecord;
use crate::machine::{Machine, Tool};

fn rec(method: Method, pes: usize, size: usize, run_means: &[f64]) -> BenchRecord {
    let metric = ("bandwidth_node_mbps", "MB/s", true);
    let series = format!("{}, {pes} PEs", method.name());
    crate::bench::findings::record_of_runs(series, size as f64, metric, run_means)
        .param("method", method.name())
        .param("size_bytes", size)
        .param("pes", pes)
}

#[test]
fn report_plan_goes_from_2_pes_to_twice_the_cpus() {
    let c = Config::for_report(false, &[0, 1]);
    assert_eq!(c.pes, vec![2, 4]);
    assert_eq!(c.sizes, vec![8, 64, 512, 4096, 32768, 262_144, 1 << 20]);
    c.validate().unwrap();
    assert_eq!(Config::for_report(true, &[0, 1, 2, 3]).pes, vec![2, 4, 8]);
    assert_eq!(Config::for_report(true, &[0]).pes, vec![2]);
    // Twice the CPUs of a 40-CPU machine fits a team (MAX_PES is far above it).
    let many: Vec<usize> = (0..40).collect();
    assert_eq!(Config::for_report(true, &many).pes, vec![2, 40, 80]);
}

#[test]
fn rounds_shrink_with_the_bytes_a_round_moves() {
    let c = Config {
        rounds: 400,
        ..Config::for_report(true, &[0, 1])
    };
    // 2 PEs × 1 × 8 B = 16 B per round: the full 400.
    assert_eq!(c.rounds_at(2, 8), 400);
    // 4 PEs × 3 × 1 MiB = 12 MiB per round: 32 MiB / 12 MiB = 2.
    assert_eq!(c.rounds_at(4, 1 << 20), 2);
    // 2 PEs × 64 KiB = 128 KiB per round: 256.
    assert_eq!(c.rounds_at(2, 64 << 10), 256);
}

#[test]
fn bad_configurations_are_refused() {
    let ok = Config::for_report(true, &[0, 1]);
    assert_each_refused(
        &ok,
        Config::validate,
        &[
            |c| c.pes = vec![1],
            |c| c.pes = vec![MAX_PES + 1],
            |c| c.sizes = vec![9],
            |c| {
                c.sizes = vec![64 << 20];
                c.pes = vec![4];
            },
            |c| c.methods = vec![],
            |c| c.samples = 0,
            |c| c.cpus = vec![],
        ],
    );
}

#[test]
fn findings_compare_counting_with_each_baseline_at_the_smallest_size() {
    let m = Machine {
        allowed_cpus: vec![0, 1],
        ..Machine::default()
    };
    let mut r = BenchResults::new(NAME, m, Tool::default(), serde_json::json!({}));
    // By hand, 8 B, 2 PEs: counting 30 MB/s, fence-flags 10 (3×: holds), barrier 20 (1.5×:
    // does not hold). 4 PEs: counting only beside barrier -> one judged, one not measured.
    r.records
        .push(rec(Method::Counting, 2, 8, &[30.0, 30.1, 29.9]));
    r.records
        .push(rec(Method::FenceFlags, 2, 8, &[10.0, 10.05, 9.95]));
    r.records
        .push(rec(Method::Barrier, 2, 8, &[20.0, 20.1, 19.9]));
    r.records
        .push(rec(Method::Counting, 2, 4096, &[1.0, 1.0, 1.0]));
    r.records
        .push(rec(Method::Counting, 4, 8, &[5.0, 5.1, 4.9]));
    r.records.push(rec(Method::Barrier, 4, 8, &[5.0, 5.1, 4.9]));
    let f = findings(&r);
    assert_eq!(f.len(), 4, "{f:#?}");
    assert_eq!(f[0].holds, crate::bench::Holds::Yes, "{}", f[0].sentence);
    assert!((f[0].ratio.unwrap().ratio - 3.0).abs() < 0.01);
    assert_eq!(f[1].holds, crate::bench::Holds::No, "{}", f[1].sentence);
    assert!((f[1].ratio.unwrap().ratio - 1.5).abs() < 0.01);
    assert!(
        f[2].claim.contains("4 PEs, oversubscribed"),
        "{}",
        f[2].claim
    );
    assert_eq!(f[2].holds, crate::bench::Holds::Inconclusive);
    assert!(f[2].ratio.is_none());
    assert_eq!(f[3].holds, crate::bench::Holds::No, "{}", f[3].sentence);
}

/// #23: `--wait spin` with a team size past the CPUs (PEs 0 and 2 pinned to one CPU) is
/// refused before anything runs, in one line offering the waits that work; the other waits,
/// and spin on a team that fits, are not.
#[test]
fn spin_is_refused_where_pes_share_a_cpu() {
    let ok = Config::for_report(true, &[0, 1]);
    let mut spin = Config {
        pes: vec![2, 4],
        ..ok.clone()
    };
    spin.team.wait = "spin".into();
    let e = spin.validate().unwrap_err().to_string();
    assert!(e.contains("spin-yield") && e.contains("adaptive"), "{e}");
    assert!(e.contains("4 PEs"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    for wait in ["spin-yield", "adaptive", "block"] {
        let mut c = spin.clone();
        c.team.wait = wait.into();
        c.validate().unwrap();
    }
    if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        let fits = Config {
            pes: vec![2],
            ..spin.clone()
        };
        fits.validate().unwrap();
    }
}

//! Busy-machine evidence on synthetic records: the `bench` table and the report open with a
//! warning, `compare` calls busy records inconclusive, and files without evidence still load.

mod common;

use common::quiet;
use handoff_lab::bench::busy::MachineLoad;
use handoff_lab::bench::text::Format;
use handoff_lab::bench::verdict::Verdict;
use handoff_lab::bench::{BenchRecord, BenchResults, MetricRecord};
use handoff_lab::machine::{Machine, Tool};

fn busy() -> MachineLoad {
    MachineLoad {
        others_cpus: Some(0.9),
        ..quiet()
    }
}

/// One record of latency `us` µs per run (tight runs).
fn file(us: f64, load: MachineLoad) -> BenchResults {
    let mut r = BenchResults::new(
        "pingpong",
        Machine::default(),
        Tool::default(),
        serde_json::json!({}),
    );
    let runs: Vec<Vec<f64>> = (0..5)
        .map(|i| vec![us * (1.0 + 0.001 * i as f64); 4])
        .collect();
    r.records.push(
        BenchRecord::new("put", 8.0, 5, 4, true)
            .param("size_bytes", 8)
            .metric(
                "latency_us",
                MetricRecord::from_runs("µs", false, &runs).unwrap(),
            ),
    );
    r.fill_load(&load);
    r
}

#[test]
fn the_table_opens_with_a_warning_only_when_busy() {
    let t = handoff_lab::bench::render::render(&file(1.0, busy()), Format::Table);
    let first = t.lines().next().unwrap();
    assert!(first.starts_with("WARNING: machine busy"), "{t}");
    assert!(first.contains("0.90 CPU"), "{first}");
    let t = handoff_lab::bench::render::render(&file(1.0, quiet()), Format::Table);
    assert!(!t.contains("busy"), "{t}");
}

#[test]
fn fill_load_keeps_evidence_an_experiment_set_itself() {
    let mut f = file(1.0, quiet());
    f.fill_load(&busy());
    assert_eq!(f.records[0].load, Some(quiet()));
    assert!(f.busy_warning().is_none());
}

#[test]
fn compare_calls_busy_records_inconclusive() {
    // 4 files per side, B twice as slow: a clear "slower" when both sides are quiet.
    let a: Vec<BenchResults> = (0..4)
        .map(|i| file(1.0 + 0.01 * i as f64, quiet()))
        .collect();
    let b: Vec<BenchResults> = (0..4)
        .map(|i| file(2.0 + 0.01 * i as f64, quiet()))
        .collect();
    let verdict = |a: &[BenchResults], b: &[BenchResults]| {
        let c = handoff_lab::bench::compare::compare_bench(a, b, Some(1.2), 0.05, 1.5).unwrap();
        let m = &c.matched[0].metrics[0];
        (
            m.verdict,
            m.reason.clone().unwrap_or_default(),
            c.exit_code(),
        )
    };
    let (v, _, code) = verdict(&a, &b);
    assert_eq!(v, Verdict::Slower);
    assert_ne!(code, 0);
    let mut b_busy = b.clone();
    b_busy[2] = file(2.02, busy());
    let (v, why, code) = verdict(&a, &b_busy);
    assert_eq!(v, Verdict::Inconclusive);
    assert!(why.contains("machine busy during B"), "{why}");
    assert_eq!(code, 0, "a busy record must not fail the gate");
}

#[test]
fn the_report_opens_with_a_busy_banner() {
    // The evidence is on the records (one measured point here).
    let one = common::rec("threads-spin", 4096, false, 50.0, &common::tight(1.0));
    let mut ex = common::results(Machine::default(), vec![one]);
    let md = handoff_lab::report::render_markdown(&ex);
    assert!(!md.contains("Machine busy"), "{md}");
    let busy = MachineLoad {
        steal_fraction: Some(0.2),
        ..quiet()
    };
    common::set_load(&mut ex, &busy);
    let md = handoff_lab::report::render_markdown(&ex);
    let banner = md
        .find("> ⚠ **Machine busy** during 1 of 1 experiments")
        .expect("a banner");
    assert!(md[banner..].contains("steal time 20.0%"), "{md}");
    assert!(banner < md.find("## Recommendation").unwrap());
    assert!(md.contains("Machine busy: rerun"), "{md}");
}

#[test]
fn files_without_evidence_still_load() {
    let f = file(1.0, quiet());
    let mut v: serde_json::Value = serde_json::from_str(&f.to_json_pretty()).unwrap();
    assert!(v["records"][0].get("load").is_some());
    v["records"][0].as_object_mut().unwrap().remove("load");
    let back = BenchResults::from_json_str(&v.to_string()).unwrap();
    assert_eq!(back.records[0].load, None);
    assert!(back.busy_warning().is_none());
}

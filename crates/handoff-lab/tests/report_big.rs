//! The report's tables on the large synthetic machines (`topology::synth`: 2 × 96 cores
//! SMT-2, 4 × 20 cores SMT-2, 1 × 128 cores with 8 CCDs), from records a fixture generator
//! places on the CPUs the real plan picks for that machine (no measurement): the per-CPU
//! tables have one row per placement class the machine has, each naming its representative
//! CPUs, and stay bounded however many CPUs the machine has.

use handoff_lab::bench::experiment::PlanAsk;
use handoff_lab::bench::experiment::ReportFlags;
use handoff_lab::bench::schema::C2cPair;
use handoff_lab::bench::{BenchRecord, BenchResults};
use handoff_lab::experiments::exchange::record::{
    self, time_metric, ExchangeRecord as _, PointKey,
};
use handoff_lab::experiments::exchange::report_plan::{self, CONSUMERS_PER_CLASS};
use handoff_lab::machine::*;
use handoff_lab::report;
use handoff_lab::report::plan::{plan, Protocol, Request, DEFAULT_BUDGET_S};
use handoff_probe::topology::synth::SynthMachine;
use handoff_probe::topology::{Placement, Topology};

/// A class's cost factor: farther classes are slower (so the rows differ).
fn far(class: Placement) -> f64 {
    1.0 + Placement::ALL.iter().position(|&p| p == class).unwrap() as f64 * 0.25
}

/// One record of `mode` at (size, consumer), its samples a deterministic function of the
/// placement class and the CPU (3 runs × 5 repetitions).
fn record(t: &Topology, mode: &str, size: u64, producer: usize, consumer: usize) -> BenchRecord {
    let class = t.placement(producer, consumer);
    let k = far(class) * (1.0 + consumer as f64 * 1e-4);
    let read = size as f64 / 20e3 * k;
    let lat = 5.0 * k;
    let runs: Vec<Vec<f64>> = (0..3)
        .map(|r| {
            (0..5)
                .map(|i| read * (1.0 + 0.01 * (r * 5 + i) as f64))
                .collect()
        })
        .collect();
    let lats: Vec<Vec<f64>> = (0..3)
        .map(|r| {
            (0..5)
                .map(|i| lat * (1.0 + 0.01 * (r * 5 + i) as f64))
                .collect()
        })
        .collect();
    let writes = runs.clone();
    let key = PointKey {
        mode,
        size_bytes: size,
        producer_core: producer,
        consumer_core: consumer,
        placement: class.as_str(),
        flush_cache: false,
    };
    let mut r = key
        .record(3, 5, true)
        .metric(record::READ, time_metric(&runs, true, true).unwrap())
        .metric(record::LATENCY, time_metric(&lats, true, false).unwrap())
        .metric(record::WRITE, time_metric(&writes, false, true).unwrap());
    r.info.insert("wait".into(), "spin".into());
    r.info.insert("consumer_cpu_pct".into(), 100.0.into());
    r
}

/// The results a full `handoff report` would record on `t`: one record per point of the
/// real plan (cached points; the per-CPU figure is what is tested), c2c per planned pair.
fn results_on(t: &Topology) -> BenchResults {
    let allowed = t.cpu_ids();
    let req = Request {
        protocol: Protocol::Budget(DEFAULT_BUDGET_S),
        flags: &ReportFlags::default(),
        experiments: &[],
        memory: None,
        speed: 1.0,
        stop_after_records: None,
        for_run: false,
    };
    let step = plan(&req, t, &allowed).unwrap().step;
    let p = report_plan::plan(&PlanAsk {
        quick: false,
        step: &step,
        topology: t,
        allowed: &allowed,
        memory: None,
        flags: req.flags,
        stop_after_records: None,
        for_run: false,
    })
    .unwrap();
    let machine = Machine {
        logical_cpus: t.logical_cpus(),
        allowed_cpus: allowed.clone(),
        hostname: "synthetic".into(),
        ..Machine::default()
    };
    let mut res = BenchResults::new(
        record::NAME,
        machine,
        Tool::default(),
        serde_json::json!({}),
    );
    for pt in p.points.iter().filter(|pt| !pt.flush) {
        res.records.push(record(
            t,
            pt.mode.as_str(),
            pt.size as u64,
            pt.producer_core,
            pt.consumer_core,
        ));
    }
    res.c2c = p
        .c2c_pairs
        .iter()
        .map(|&(a, b)| C2cPair {
            cpu_a: a,
            cpu_b: b,
            placement: t.placement(a, b).as_str().into(),
            one_way_ns: 40.0 * far(t.placement(a, b)),
        })
        .collect();
    res
}

/// The rows of the Markdown table that follows the heading containing `title`.
fn table_after<'a>(md: &'a str, title: &str) -> Vec<Vec<&'a str>> {
    let start = md
        .find(title)
        .unwrap_or_else(|| panic!("no {title:?} in report"));
    md[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect()
}

#[test]
fn per_cpu_tables_have_one_row_per_class_on_large_machines() {
    for (name, m) in [
        ("2s192", SynthMachine::server_2s_192c()),
        ("4s80", SynthMachine::skylake_4s_80c()),
        ("1s128", SynthMachine::single_128c_8ccd()),
    ] {
        let t = m.topology();
        let res = results_on(&t);
        let producer = res.records[0].producer_core();
        let md = report::render_markdown(&res);
        // Every class the machine has, relative to the producer, with the CPUs the plan
        // measured in it.
        let want: Vec<(Placement, Vec<usize>)> = t
            .representatives_per_class(producer, &t.cpu_ids(), CONSUMERS_PER_CLASS)
            .into_iter()
            .collect();
        for title in ["Read time of a 1 MiB block", "Latency (producer done"] {
            let rows = table_after(&md, title);
            let (header, body) = (&rows[0], &rows[2..]);
            assert_eq!(header[..2], ["placement class", "consumer CPUs"], "{name}");
            // One row per class, nearest first, none missing, none extra.
            let classes: Vec<&str> = body.iter().map(|r| r[0]).collect();
            let names: Vec<&str> = want.iter().map(|(c, _)| c.as_str()).collect();
            assert_eq!(classes, names, "{name}: {title}");
            for (row, (_, cpus)) in body.iter().zip(&want) {
                let list: Vec<String> = cpus.iter().map(|c| c.to_string()).collect();
                assert_eq!(row[1], list.join(", "), "{name}: {row:?}");
                assert_eq!(row.len(), header.len(), "{name}: {row:?}");
                // Every cell filled (single-thread modes only on the producer's own CPU).
                let filled = row[2..].iter().filter(|c| **c != "–").count();
                assert!(filled >= 1, "{name}: {row:?}");
                if cpus.len() > 1 {
                    assert!(row[2..].iter().any(|c| c.contains(" CPUs)")), "{row:?}");
                }
            }
            // Bounded: at most one row per class and one column per mode (+ c2c floor).
            assert!(body.len() <= Placement::ALL.len());
            assert!(
                header.len() <= 2 + handoff_lab::experiments::exchange::mode::MODES.len() + 1,
                "{header:?}"
            );
        }
        // The latency table's floor column comes from the planned c2c pairs: every class
        // other than the producer's own CPU has one.
        let rows = table_after(&md, "Latency (producer done");
        let floor = rows[0].len() - 1;
        assert!(rows[0][floor].contains("c2c floor"));
        for row in &rows[2..] {
            assert_eq!(row[floor] == "–", row[0] == "same-core", "{name}: {row:?}");
        }
        // The whole report stays small: the per-class tables do not grow with the CPUs.
        assert!(md.len() < 64 * 1024, "{name}: {} bytes", md.len());
    }
}

/// A small machine keeps the table with one column per CPU.
#[test]
fn small_machines_keep_one_column_per_cpu() {
    let m = SynthMachine {
        packages: 1,
        nodes_per_package: 1,
        cores_per_package: 4,
        smt: 2,
        cores_per_l2: 1,
        cores_per_l3: 4,
        l1d_kib: 32,
        l2_kib: 512,
        l3_kib: 16384,
    };
    let t = m.topology();
    let md = report::render_markdown(&results_on(&t));
    let rows = table_after(&md, "Read time of a 1 MiB block");
    assert_eq!(rows[0][0], "mode");
    assert_eq!(rows[0].len(), 1 + 8, "{:?}", rows[0]);
}

//! The report's first screen on hand-made records: the headline figure (processes vs threads
//! across cores, both times and the ratio), the c2c floor and what to use come before the
//! details, and on a busy machine the first line says so and no figure is drawn. Every
//! expected answer is set by the fixture (times chosen equal or far apart), not computed by
//! the code under test.

mod common;

use common::{quiet, tight, KIB, MIB};
use handoff_lab::bench::busy::MachineLoad;
use handoff_lab::bench::schema::C2cPair;
use handoff_lab::bench::{BenchRecord, BenchResults};
use handoff_lab::experiments::exchange::record::ExchangeRecord as _;
use handoff_lab::machine::placement;
use handoff_lab::report::headline::first_screen;
use handoff_lab::report::recommend::recommend;
use handoff_lab::report::render_markdown;

/// A cached, verified record on CPUs 0 → 1 whose runs read in `read_runs` µs each.
fn rec(mode: &str, size: u64, read_runs: &[f64]) -> BenchRecord {
    common::rec(mode, size, false, 50.0, read_runs)
}

/// Threads and processes at 4 KiB and 1 MiB across cores; processes read 1 MiB in
/// `proc_1m` µs, threads in 100 µs. `processes-futex` is far cheaper at 4 KiB.
fn results(proc_1m: f64) -> BenchResults {
    let mut r = common::results(
        common::machine(4 * MIB, &[0, 1]),
        vec![
            rec("threads-spin", 4 * KIB, &tight(20.0)),
            rec("processes-spin", 4 * KIB, &tight(20.0)),
            rec("processes-futex", 4 * KIB, &tight(2.0)),
            rec("threads-spin", MIB, &tight(100.0)),
            rec("processes-spin", MIB, &tight(proc_1m)),
        ],
    );
    r.c2c = vec![C2cPair {
        cpu_a: 0,
        cpu_b: 1,
        placement: placement::SHARED_L3.into(),
        one_way_ns: 70.0,
    }];
    r
}

#[test]
fn equal_times_read_as_fast_as_threads_with_both_figures() {
    let res = results(100.0);
    let s = first_screen(&res, &recommend(&res), &[]);
    assert!(s.busy.is_none());
    let head = &s.lines[0];
    assert!(
        head.starts_with("**Processes as fast as threads:**"),
        "{head}"
    );
    // The 1 MiB block (nearest the headline size), across cores, both times and the ratio.
    assert!(head.contains("1 MiB"), "{head}");
    assert!(head.contains("another core"), "{head}");
    assert!(
        head.contains("read in 100 µs between processes and 100 µs between threads"),
        "{head}"
    );
    assert!(
        head.contains("processes / threads = 1.00 (95% CI"),
        "{head}"
    );
    // The floor, then what to use by size: processes-futex for the small blocks.
    assert!(s.lines[1].contains("70.0 ns"), "{:?}", s.lines);
    let using = s
        .lines
        .iter()
        .find(|l| l.starts_with("**What to use**"))
        .unwrap();
    assert!(using.contains("≤ 32 KiB → **processes-futex**"), "{using}");
    assert!(using.contains("1 MiB"), "{using}");
}

#[test]
fn slower_processes_are_called_slower() {
    let res = results(200.0);
    let s = first_screen(&res, &recommend(&res), &[]);
    assert!(
        s.lines[0].starts_with("**Processes slower than threads:**"),
        "{}",
        s.lines[0]
    );
    assert!(
        s.lines[0].contains("processes / threads = 2.00"),
        "{}",
        s.lines[0]
    );
}

#[test]
fn the_first_screen_comes_before_the_details() {
    let md = render_markdown(&results(100.0));
    let head = md
        .find("Processes as fast as threads")
        .expect("the headline");
    for detail in [
        "logical CPUs",
        "## Recommendation",
        "## Machine",
        "## Method",
    ] {
        let at = md
            .find(detail)
            .unwrap_or_else(|| panic!("{detail} in {md}"));
        assert!(head < at, "the headline must precede {detail:?}:\n{md}");
    }
}

#[test]
fn a_busy_machine_is_said_first_and_draws_no_figure() {
    let mut res = results(100.0);
    let busy = MachineLoad {
        others_cpus: Some(0.9),
        ..quiet()
    };
    common::set_load(&mut res, &busy);
    let s = first_screen(&res, &recommend(&res), &[]);
    assert!(s.lines.is_empty(), "{:?}", s.lines);
    let term = s.terminal();
    assert!(term[0].starts_with("Machine busy: rerun."), "{term:?}");
    assert!(!term.join(" ").contains("**"), "plain text: {term:?}");
    let md = render_markdown(&res);
    let busy = md.find("MACHINE BUSY").expect("the busy banner");
    assert!(busy < md.find("logical CPUs").unwrap(), "{md}");
    assert!(!md.contains("Processes as fast as threads"), "{md}");

    // The same records on a quiet machine do get their headline.
    common::set_load(&mut res, &quiet());
    let s = first_screen(&res, &recommend(&res), &[]);
    assert!(s.busy.is_none() && !s.lines.is_empty(), "{s:?}");
}

#[test]
fn without_both_modes_the_headline_says_what_is_missing() {
    let mut res = results(100.0);
    res.records.retain(|r| r.mode() != "threads-spin");
    res.c2c.clear();
    let s = first_screen(&res, &recommend(&res), &[]);
    assert!(s.lines[0].contains("not measured"), "{:?}", s.lines);
    assert!(
        s.lines.iter().all(|l| !l.contains("Floor")),
        "{:?}",
        s.lines
    );
}

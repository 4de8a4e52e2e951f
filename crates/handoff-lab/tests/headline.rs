//! The report's first screen on hand-made records, in `report.md` and `index.html` as written:
//! one line per placement class answering the paper's question, the figure, the picks for two
//! processes beside the best of every mode, the seeds' claims table, and one busy warning
//! only, all before the details. Every expected answer is set by the fixture (times chosen
//! equal or far apart, a claim 4× against its 2×), not computed by the code under test.

mod common;

use std::path::PathBuf;

use common::{quiet, tight, KIB, MIB};
use handoff_lab::bench::busy::MachineLoad;
use handoff_lab::bench::schema::C2cPair;
use handoff_lab::bench::{BenchRecord, BenchResults};
use handoff_lab::machine::placement;
use handoff_lab::report::headline::first_screen;
use handoff_lab::report::write_full_report;

/// A cached, verified record, consumer on CPU 1 (another core) or 0 (the same core).
fn rec(mode: &str, size: u64, same_core: bool, read_runs: &[f64]) -> BenchRecord {
    common::rec(mode, size, same_core, 50.0, read_runs)
}

/// The exchange on both placements at 4 KiB and 1 MiB (latency 0.1 µs everywhere):
/// threads-spin reads in 3 µs (4 KiB) / 100 µs (1 MiB), processes-spin in `proc_ratio` times
/// that, processes-futex in 3.5 µs / 100 µs, threads-blocking in 1 µs / 100 µs. So at 4 KiB
/// the best of every mode is threads-blocking (3× cheaper than the rest), and the two-process
/// pick is processes-futex (within noise of processes-spin when `proc_ratio` = 1, and it
/// does not busy-wait).
fn exchange(proc_ratio: f64) -> BenchResults {
    exchange_with(proc_ratio, tight)
}

/// [`exchange`] with processes-spin's runs spread by `runs` (`tight`: ±1%, `noisy`: ±30%).
fn exchange_with(proc_ratio: f64, runs: fn(f64) -> Vec<f64>) -> BenchResults {
    let mut records = Vec::new();
    for same_core in [false, true] {
        for (size, threads, futex, blocking) in
            [(4 * KIB, 3.0, 3.5, 1.0), (MIB, 100.0, 100.0, 100.0)]
        {
            records.push(rec("threads-blocking", size, same_core, &tight(blocking)));
            records.push(rec("threads-spin", size, same_core, &tight(threads)));
            records.push(rec(
                "processes-spin",
                size,
                same_core,
                &runs(threads * proc_ratio),
            ));
            records.push(rec("processes-futex", size, same_core, &tight(futex)));
        }
    }
    let mut r = common::results(common::machine(4 * MIB, &[0, 1]), records);
    r.c2c = vec![C2cPair {
        cpu_a: 0,
        cpu_b: 1,
        placement: placement::SHARED_L3.into(),
        one_way_ns: 70.0,
    }];
    common::set_load(&mut r, &quiet());
    r
}

/// Other processes used most of a CPU.
fn busy() -> MachineLoad {
    MachineLoad {
        others_cpus: Some(0.9),
        ..quiet()
    }
}

/// Writes the report of `ex` and `others` into a fresh folder; returns (report.md,
/// index.html).
fn write(tag: &str, ex: &BenchResults, others: &[BenchResults]) -> (String, String) {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("handoff-first-screen-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_full_report(ex, others, &dir).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(dir.join("processes_vs_threads.png").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
    (md, html)
}

/// Where `what` first occurs in `text` (panics naming it when absent).
fn at(text: &str, what: &str) -> usize {
    text.find(what)
        .unwrap_or_else(|| panic!("{what:?} is missing from:\n{text}"))
}

/// Asserts that the `marks` occur in `text` in this order.
fn in_order(text: &str, marks: &[&str]) {
    let pos: Vec<usize> = marks.iter().map(|m| at(text, m)).collect();
    for (w, m) in pos.windows(2).zip(marks.windows(2)) {
        assert!(
            w[0] < w[1],
            "{:?} must come before {:?}:\n{text}",
            m[0],
            m[1]
        );
    }
}

#[test]
fn the_first_screen_answers_before_the_details_in_markdown_and_html() {
    let mut pv = common::private_vars();
    for r in &mut pv.records {
        r.load = Some(busy());
    }
    let (md, html) = write("order", &exchange(1.0), &[pv]);

    // report.md: the warning, the answers per placement, the picks, the figure, the claims,
    // then the details.
    in_order(
        &md,
        &[
            "> ⚠ **Machine busy** during 1 of 2 experiments: `private-vars`. Why: other \
             processes used 0.90 CPU on average (limit 0.1) (`private-vars`).",
            "**Are two processes as fast as two threads?**",
            "- **Consumer on the same core:** processes / threads = 1.00 (95% CI",
            "- **Consumer on another core sharing the last-level cache:** processes / threads \
             = 1.00 (95% CI",
            "| block size | consumer | two processes (the paper's setting) | best of every mode |",
            "![",
            "(processes_vs_threads.png)",
            "**The seeds' claims on this machine**",
            "| experiment | claim | the paper's figure | this machine (95% CI) | verdict |",
            "logical CPUs",
            "## Recommendation",
            "## Machine",
            "## Figures",
        ],
    );
    // Equal, tight times: as fast, the interval within 5%.
    let same = &md[at(&md, "- **Consumer on the same core:**")..];
    let same = &same[..at(same, "\n")];
    assert!(
        same.contains("over 2 sizes, 4 KiB–1 MiB — as fast (the CI contains 1 and stays within 5%"),
        "{same}"
    );
    // The 4 KiB row across cores: two processes pick processes-futex (tied with
    // processes-spin, and it does not busy-wait), the best of every mode is threads-blocking,
    // and the cell says how they compare.
    let row = md
        .lines()
        .find(|l| l.starts_with("| ≤ 32 KiB | another core"))
        .unwrap_or_else(|| panic!("a 4 KiB row across cores:\n{md}"));
    let cells: Vec<&str> = row.trim_end_matches(" |").split(" | ").collect();
    assert!(
        cells[2].starts_with("**processes-futex** 3.60 µs at 4 KiB"),
        "{row}"
    );
    assert_eq!(
        cells[3], "**threads-blocking** 1.10 µs — processes-futex ×3.27",
        "{row}"
    );
    // The claim, the seed's figure, this machine's with its interval, the verdict (busy).
    let claim = md
        .lines()
        .find(|l| l.contains("shared per-thread array costs at least 2×"))
        .unwrap_or_else(|| panic!("the claim row:\n{md}"));
    assert!(claim.starts_with("| `private-vars` |"), "{claim}");
    assert!(
        claim.contains("| shared-array / tls ≥ 2× | 4.00× ("),
        "{claim}"
    );
    assert!(claim.ends_with("| holds (machine busy) |"), "{claim}");
    // One warning, once: no banner, no repeat in the experiment's section.
    assert_eq!(md.matches("Machine busy").count(), 1, "{md}");
    assert_eq!(md.matches("> ⚠").count(), 1, "{md}");
    // The figure is the first picture; its tables are the vs-size ones below.
    assert!(
        at(&md, "![") == at(&md, "![Two processes vs two threads"),
        "{md}"
    );

    // index.html: the same order, one notice, the figure embedded.
    let body = &html[at(&html, "<body>")..];
    in_order(
        body,
        &[
            "<div class=\"notice\">⚠ <strong>Machine busy</strong> during 1 of 2 experiments",
            "<strong>Are two processes as fast as two threads?</strong>",
            "<li><strong>Consumer on the same core:</strong> processes / threads = 1.00",
            "<th>two processes (the paper&#39;s setting)</th>",
            "<img src=\"data:image/png;base64,",
            "processes_vs_threads.svg",
            "<strong>The seeds&#39; claims on this machine</strong>",
            "<table>\n<thead><tr><th>experiment</th><th class=\"wrap\">claim</th><th>the paper&#39;s figure</th>",
            "<h2 id=\"recommendation\">",
            "<h2 id=\"figures\">",
        ],
    );
    assert_eq!(body.matches("class=\"notice\"").count(), 1, "{body}");
    assert_eq!(body.matches("class=\"banner\"").count(), 0, "{body}");
    assert_eq!(body.matches("Machine busy").count(), 1);
}

#[test]
fn slower_processes_are_called_slower_per_placement() {
    let ex = exchange(2.0);
    let s = first_screen(&ex, &[]);
    assert_eq!(s.lead.answers.len(), 2, "{:?}", s.lead.answers);
    for line in &s.lead.answers {
        assert!(
            line.contains("processes / threads = 2.00 (95% CI")
                && line.contains("— processes are slower by 100%")
                && line.contains("2 of 2 size(s) alone show processes slower, 0 faster"),
            "{line}"
        );
    }
    assert!(s.busy.is_none());
    // The terminal: plain text, the answers then the two-process picks across cores.
    let term = s.terminal();
    assert!(!term.join(" ").contains("**"), "{term:?}");
    assert!(
        term[0].starts_with("Consumer on the same core:"),
        "{term:?}"
    );
    let picks = term
        .iter()
        .find(|l| l.starts_with("What to use for two processes (consumer on another core"))
        .unwrap_or_else(|| panic!("{term:?}"));
    assert!(picks.contains("≤ 32 KiB → processes-futex"), "{picks}");
    assert!(term.iter().any(|l| l.contains("70.0 ns")), "{term:?}");
}

#[test]
fn equal_but_noisy_processes_are_inconclusive_not_as_fast() {
    let ex = exchange_with(1.0, common::noisy);
    let s = first_screen(&ex, &[]);
    assert_eq!(s.lead.answers.len(), 2, "{:?}", s.lead.answers);
    for line in &s.lead.answers {
        assert!(line.contains("— inconclusive (the CI contains 1"), "{line}");
    }
}

#[test]
fn a_busy_exchange_is_said_once_with_the_others_and_answers_nothing() {
    let mut ex = exchange(1.0);
    common::set_load(&mut ex, &busy());
    let mut pv = common::private_vars();
    for r in pv.records.iter_mut().take(2) {
        r.load = Some(MachineLoad {
            steal_fraction: Some(0.2),
            ..quiet()
        });
    }
    let s = first_screen(&ex, std::slice::from_ref(&pv));
    let w = s.busy.clone().expect("a warning");
    assert!(
        w.starts_with("**Machine busy** during 2 of 2 experiments:"),
        "{w}"
    );
    // Which experiments (how many records where not all), then each kind of reason once.
    assert!(
        w.contains(
            "experiments: `exchange`, `private-vars` (2 of 6 records). Why: other processes \
             used 0.90 CPU on average (limit 0.1) (`exchange`); steal time 20.0% (limit 5%) \
             (`private-vars`)."
        ),
        "{w}"
    );
    assert_eq!(s.lead.answers.len(), 1);
    assert!(s.lead.answers[0].starts_with("**Not answered:** the exchange ran on a busy machine"));
    assert!(
        s.lead.picks.is_empty(),
        "no pick from busy records: {:?}",
        s.lead.picks
    );
    let term = s.terminal();
    assert!(
        term[0].starts_with("Machine busy during 2 of 2"),
        "{term:?}"
    );
    // Both claims of the fixture hold (4.00× and 3.85× against 2×).
    assert!(
        term.last()
            .unwrap()
            .starts_with("The seeds' claims here: 2 hold, 0 do not, 0 inconclusive"),
        "{term:?}"
    );

    // The same records on a quiet machine: no warning, an answer per placement.
    common::set_load(&mut ex, &quiet());
    let s = first_screen(&ex, &[common::private_vars()]);
    assert!(s.busy.is_none(), "{s:?}");
    assert_eq!(s.lead.answers.len(), 2);
}

#[test]
fn without_both_modes_the_question_says_what_is_missing() {
    let mut ex = exchange(1.0);
    ex.records.retain(|r| {
        handoff_lab::experiments::exchange::record::ExchangeRecord::mode(r).starts_with("processes")
    });
    ex.c2c.clear();
    let s = first_screen(&ex, &[]);
    assert!(
        s.lead.answers[0].starts_with("**Not answered:** processes-spin and threads-spin"),
        "{:?}",
        s.lead.answers
    );
    assert!(
        s.lead.notes.iter().all(|l| !l.contains("Floor")),
        "{:?}",
        s.lead.notes
    );
    // With only process modes, both columns pick the same.
    assert!(
        s.lead
            .picks
            .iter()
            .all(|r| r[3].starts_with("the same: **processes-")),
        "{:?}",
        s.lead.picks
    );
}

#[test]
fn the_floor_line_reads_the_floors_measured_beside_the_records() {
    // The matrix at the run's start caught the host's slow state (150 ns); the floors
    // measured next to each cross-core record say 30 ns. The first screen must not claim
    // that no hand-off beats 150 ns beside latencies of 143 ns.
    let floor = |ex: &BenchResults| {
        let s = first_screen(ex, &[]);
        s.lead
            .notes
            .iter()
            .find(|l| l.contains("Floor"))
            .cloned()
            .unwrap_or_default()
    };
    let mut ex = exchange(1.0);
    ex.c2c[0].one_way_ns = 150.0;
    // Without floors beside the records, the matrix is all there is.
    let line = floor(&ex);
    assert!(
        line.contains("150 ns") && line.contains("c2c matrix"),
        "{line}"
    );
    let mut beside = 0;
    for r in &mut ex.records {
        use handoff_lab::experiments::exchange::record::ExchangeRecord as _;
        if r.producer_core() != r.consumer_core() {
            r.c2c_one_way_ns = Some(30.0);
            beside += 1;
        }
    }
    let line = floor(&ex);
    assert!(
        line.contains("30.0 ns") && line.contains(&format!("median of {beside} floors")),
        "{line}"
    );
}

//! `handoff report --plan [--sysfs DIR]`: the plan and its estimate for a large machine's
//! sysfs tree, nothing run; bad trees are one-line usage errors.

mod common;

use common::{handoff, tmpdir, usage_line};
use handoff_probe::topology::synth::SynthMachine;

#[test]
fn plan_for_a_192_core_server_prints_classes_and_an_estimate() {
    let dir = tmpdir("plan");
    SynthMachine::server_2s_192c().write(&dir).unwrap();
    let out = handoff(&["report", "--plan", "--sysfs", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "384 CPUs allowed of 384",
        "smt-sibling   1 of 1 CPUs: 192",
        "shared-l3     3 of 14 CPUs",
        "cross-numa    3 of 192 CPUs: 96,191,383",
        "estimated duration:",
    ] {
        assert!(text.contains(want), "{want:?} missing from:\n{text}");
    }
    // Nothing ran: no report folder was made.
    assert!(!text.contains("results.json"));
}

#[test]
fn plan_with_a_missing_sysfs_tree_is_a_usage_error() {
    usage_line(
        &["report", "--plan", "--sysfs", "/nonexistent-handoff-sysfs"],
        "--sysfs /nonexistent-handoff-sysfs",
    );
}

/// Minutes and seconds of an estimate as `fmt_duration` prints it ("1 h 02 min",
/// "3 min 20 s", "45 s").
fn seconds_of(text: &str) -> f64 {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .chunks(2)
        .map(|w| {
            let n: f64 = w[0].parse().unwrap_or_else(|_| panic!("{text:?}"));
            match w.get(1).copied() {
                Some("h") => n * 3600.0,
                Some("min") => n * 60.0,
                Some("s") => n,
                other => panic!("unit {other:?} in {text:?}"),
            }
        })
        .sum()
}

/// The plan's table on every large preset, through the command line: every placement class
/// of the machine (relative to the producer, CPU 0) has its row with the representative
/// CPUs the probe picks (at most `CONSUMERS_PER_CLASS`, both ends of the class), the
/// consumers counted in `points:` are exactly those rows' CPUs, and the estimate, every
/// experiment included, fits the default budget of 5 minutes.
#[test]
fn plan_tables_on_every_large_preset_show_each_class_and_fit_the_budget() {
    use handoff_lab::experiments::exchange::report_plan::CONSUMERS_PER_CLASS;
    use handoff_probe::topology::{format_cpu_list, Topology};
    let n_classes = [5, 4, 4, 4, 3, 5];
    for ((name, m), n_classes) in SynthMachine::presets().into_iter().zip(n_classes) {
        let dir = tmpdir(&format!("plan-{name}"));
        m.write(&dir).unwrap();
        let t = Topology::from_sysfs(&dir).unwrap();
        let out = handoff(&["report", "--plan", "--sysfs", dir.to_str().unwrap()]);
        std::fs::remove_dir_all(&dir).unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{name}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let all = t.cpu_ids();
        let classes = t.representatives_per_class(0, &all, usize::MAX);
        assert_eq!(classes.len(), n_classes, "{name}: {classes:?}");
        let rows: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("consumers by placement class:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .collect();
        assert_eq!(rows.len(), n_classes, "{name}:\n{text}");
        let mut consumers = 0;
        for (class, members) in &classes {
            let reps = t
                .representatives_per_class(0, &all, CONSUMERS_PER_CLASS)
                .into_iter()
                .find(|(c, _)| c == class)
                .map(|(_, r)| r)
                .unwrap();
            assert!((1..=CONSUMERS_PER_CLASS).contains(&reps.len()), "{name}");
            assert!(reps.contains(members.first().unwrap()), "{name}: {class}");
            assert!(reps.contains(members.last().unwrap()), "{name}: {class}");
            consumers += reps.len();
            let row = format!(
                "  {:<13} {} of {} CPUs: {}",
                class.as_str(),
                reps.len(),
                members.len(),
                format_cpu_list(&reps)
            );
            assert!(
                rows.contains(&row.as_str()),
                "{name}: {row:?} not in\n{text}"
            );
        }
        assert!(
            text.contains(&format!(", {consumers} consumers)")),
            "{name}: {consumers} consumers not in\n{text}"
        );
        let estimate = text
            .lines()
            .find_map(|l| l.strip_prefix("estimated duration: "))
            .and_then(|l| l.split(" (").next())
            .unwrap_or_else(|| panic!("{name}: no estimate in\n{text}"));
        let s = seconds_of(estimate);
        eprintln!("{name}: estimated {estimate}");
        assert!(s > 0.0 && s <= 5.0 * 60.0, "{name}: {estimate}\n{text}");
        assert!(text.contains("14 other experiments"), "{name}:\n{text}");
        assert!(text.contains("protocol: "), "{name}:\n{text}");
    }
}

/// `--full` plans the seeds' protocols and says the run is long; `--budget` takes a
/// duration, and a bad one is a one-line usage error.
#[test]
fn full_and_budget_flags_through_the_command_line() {
    let dir = tmpdir("plan-full");
    SynthMachine::emerald_2s_120c().write(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let full = handoff(&["report", "--plan", "--sysfs", d, "--full"]);
    let long = handoff(&["report", "--plan", "--sysfs", d, "--budget", "2h"]);
    std::fs::remove_dir_all(&dir).unwrap();
    let text = String::from_utf8_lossy(&full.stdout);
    assert!(full.status.success(), "{text}");
    assert!(
        text.contains("100 repetitions x 5 runs per point"),
        "{text}"
    );
    assert!(text.contains("a long run"), "{text}");
    let text = String::from_utf8_lossy(&long.stdout);
    assert!(text.contains("(budget 2 h 00 min)"), "{text}");
    usage_line(&["report", "--plan", "--budget", "5 days"], "--budget");
    usage_line(
        &["report", "--plan", "--budget", "5min", "--full"],
        "--full",
    );
}

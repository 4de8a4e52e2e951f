//! The common experiment kit from the command line, on `bench private-vars`: its JSON, its
//! flags' errors, `plot` and `compare` of its files, and `report --experiments`.

mod common;

use common::{handoff, serial, text, tmpdir};

#[test]
fn private_vars_writes_verified_records_that_plot_and_compare() {
    let _g = serial();
    let dir = tmpdir("pv");
    let json = dir.join("pv.json");
    let out = handoff(&[
        "bench",
        "private-vars",
        "--threads",
        "1,2",
        "--accesses",
        "1000",
        "--reps",
        "2",
        "--runs",
        "2",
        "--format",
        "json",
        "-q",
        "-o",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["schema"], "handoff.bench/1");
    assert_eq!(v["experiment"], "private-vars");
    let recs = v["records"].as_array().unwrap();
    // 3 methods x 2 thread counts, each verified, each with 2 run means.
    assert_eq!(recs.len(), 6);
    for r in recs {
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(
            r["metrics"]["access_ns"]["run_means"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
    }
    let plot = handoff(&[
        "plot",
        json.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(plot.status.success(), "{}", text(&plot.stderr));
    assert!(dir.join("private_vars.png").is_file());
    let cmp = handoff(&["compare", json.to_str().unwrap(), json.to_str().unwrap()]);
    assert_eq!(cmp.status.code(), Some(0), "{}", text(&cmp.stderr));
    let table = text(&cmp.stdout);
    assert!(table.contains("6 matched record(s)"), "{table}");
    // A file against itself is never slower or faster; whether the ratio's interval is
    // narrow enough to say "same" depends on the runs' spread (and a busy machine's records
    // are inconclusive by rule), so either verdict is right here.
    assert!(table.contains("summary: 0 slower, 0 faster, "), "{table}");
    assert!(
        !table.contains(" slower\n") && !table.contains(" faster\n"),
        "{table}"
    );
    // An exchange file against a bench file: a clear usage error.
    let csv = handoff(&[
        "bench",
        "private-vars",
        "--threads",
        "1",
        "--accesses",
        "10",
        "--reps",
        "1",
        "--runs",
        "1",
        "--format",
        "csv",
        "-q",
    ]);
    assert!(csv.status.success());
    let csv = text(&csv.stdout);
    assert_eq!(csv.lines().count(), 4, "header + 3 methods: {csv}");
    assert!(
        csv.lines().next().unwrap().contains("access_ns_mean"),
        "{csv}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_flags_are_usage_errors_before_anything_runs() {
    for (args, needle) in [
        (vec!["--method", "locks"], "--method locks"),
        (vec!["--threads", "0"], "--threads"),
        (vec!["--threads", "x"], "--threads x"),
        (vec!["--runs", "0"], "at least 1"),
        (vec!["--cpus", "999"], "999"),
        (vec!["--format", "xml"], "xml"),
    ] {
        let mut a = vec!["bench", "private-vars"];
        a.extend(args.iter());
        let out = handoff(&a);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(needle),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = handoff(&["report", "--experiments", "nope", "--quick"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("private-vars"),
        "{}",
        text(&out.stderr)
    );
}

//! The common experiment kit from the command line, on `bench private-vars`: its JSON, its
//! flags' errors, `plot` and `compare` of its files, and `report --experiments`.

mod common;

use common::{check_records, exits, read_json, records, serial, text, tmpdir, usage_error};
use common::{handoff, usage_errors, words, words_and_path};

#[test]
fn private_vars_writes_verified_records_that_plot_and_compare() {
    let _g = serial();
    let dir = tmpdir("pv");
    let json = dir.join("pv.json");
    let out = handoff(&words_and_path(
        "bench private-vars --threads 1,2 --accesses 1000 --reps 2 --runs 2 --format json -q -o",
        &json,
    ));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v = read_json(&json);
    assert_eq!(v["schema"], "handoff.bench/1");
    assert_eq!(v["experiment"], "private-vars");
    // 3 methods x 2 thread counts, each verified, each with 2 run means.
    assert_eq!(records(&v).len(), 6);
    check_records(&v, 2, &["access_ns"]);
    let plot = [
        "plot",
        json.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ];
    exits(&plot, 0);
    assert!(dir.join("private_vars.png").is_file());
    let cmp = exits(
        &["compare", json.to_str().unwrap(), json.to_str().unwrap()],
        0,
    );
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
    let csv = handoff(&words(
        "bench private-vars --threads 1 --accesses 10 --reps 1 --runs 1 --format csv -q",
    ));
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
    usage_errors(
        "bench private-vars",
        &[
            ("--method locks", "--method locks"),
            ("--threads 0", "--threads"),
            ("--threads x", "--threads x"),
            ("--runs 0", "at least 1"),
            ("--cpus 999", "999"),
            ("--format xml", "xml"),
        ],
    );
    usage_error(
        &["report", "--experiments", "nope", "--quick"],
        "private-vars",
    );
}

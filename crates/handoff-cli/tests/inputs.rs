//! #24 item 5 and the plot items of item 10: `compare` and `plot` read regular files only,
//! of bounded size, quote at most one short line of bad input, refuse numbers outside their
//! domain, and `plot` checks its input before creating its folder.

mod common;

use common::{exits, read_json, tmpdir as dir, usage_line as refused, words_and_path};
use std::path::{Path, PathBuf};

/// A small real results file (a few thousand increments).
fn results(d: &Path) -> PathBuf {
    let p = d.join("pv.json");
    exits(
        &words_and_path(
            "bench private-vars --method tls --threads 1 --accesses 1000 --reps 2 --runs 2 -q \
            --format json -o",
            &p,
        ),
        0,
    );
    p
}

#[test]
fn compare_refuses_fifos_devices_and_oversized_quotes() {
    let d = dir("compare");
    let good = results(&d);
    let g = good.to_str().unwrap();
    let fifo = d.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    refused(&["compare", g, fifo.to_str().unwrap()], "FIFO");
    refused(&["compare", g, "/dev/zero"], "device");

    let mut v = read_json(&good);
    v["schema"] = serde_json::Value::String("x".repeat(5 << 20));
    let big = d.join("big.json");
    std::fs::write(&big, v.to_string()).unwrap();
    refused(&["compare", g, big.to_str().unwrap()], "schema");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn numbers_outside_their_domain_are_refused() {
    let d = dir("domain");
    let good = results(&d);
    let mut v = read_json(&good);
    let metrics = v["records"][0]["metrics"].as_object_mut().unwrap();
    let name = metrics.keys().next().unwrap().clone();
    metrics.get_mut(&name).unwrap()["summary"]["mean"] = serde_json::json!(-1000.0);
    let neg = d.join("neg.json");
    std::fs::write(&neg, v.to_string()).unwrap();
    refused(
        &["compare", good.to_str().unwrap(), neg.to_str().unwrap()],
        "above 0",
    );
    let out = d.join("figs");
    refused(
        &[
            "plot",
            neg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "above 0",
    );
    assert!(!out.exists(), "plot created its folder for a bad input");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn an_unwritable_plot_folder_is_usage() {
    let d = dir("plot");
    let good = results(&d);
    let blocker = d.join("file");
    std::fs::write(&blocker, "").unwrap();
    let out = blocker.join("sub");
    refused(
        &[
            "plot",
            good.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "--out",
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// Issue #40: `compare` accepted edited files (an interval with low > high, `runs: 0`, wrong
/// counts marked verified, a mean of 1e308) and did not say an input was partial. Every
/// problem of every input is now one line on stderr, exit 2; a partial input is named.
#[test]
fn compare_lists_every_edited_number_and_names_a_partial_input() {
    let d = dir("edited");
    let good = d.join("pv2.json");
    exits(
        &words_and_path(
            "bench private-vars --method tls --threads 1,2 --accesses 1000 --reps 2 --runs 2 -q \
            --format json -o",
            &good,
        ),
        0,
    );
    let mut v = read_json(&good);
    assert!(v["records"].as_array().unwrap().len() >= 2, "{v}");
    let r0 = &mut v["records"][0];
    r0["runs"] = serde_json::json!(0);
    r0["verified"] = serde_json::json!(true);
    r0["checks"] = serde_json::json!({"item": "increments", "checked": 10, "wrong": 3});
    let name = r0["metrics"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let s0 = &mut r0["metrics"][&name]["summary"];
    let mean = s0["mean"].as_f64().unwrap();
    s0["ci95_low"] = serde_json::json!(mean * 2.0);
    s0["ci95_high"] = serde_json::json!(mean / 2.0);
    let name1 = v["records"][1]["metrics"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    v["records"][1]["metrics"][&name1]["summary"]["mean"] = serde_json::json!(1e308);
    let edited = d.join("edited.json");
    std::fs::write(&edited, v.to_string()).unwrap();
    let (g, e) = (good.to_str().unwrap(), edited.to_str().unwrap());
    let err = common::usage_error(&["compare", g, e], "edited.json");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "one line per problem: {err}");
    for needle in [
        "runs = 0",
        "verified true with 3 of 10",
        "95% interval",
        "= 1e308",
    ] {
        assert_eq!(
            lines.iter().filter(|l| l.contains(needle)).count(),
            1,
            "{needle}: {err}"
        );
    }
    assert!(lines
        .iter()
        .all(|l| l.starts_with("handoff: ") && l.contains("edited.json")));

    let mut v = read_json(&good);
    v["partial"] = serde_json::json!(true);
    v["stopped_early"] = serde_json::json!("interrupted after 1 of 2 points");
    let partial = d.join("partial.json");
    std::fs::write(&partial, v.to_string()).unwrap();
    let out = exits(&["compare", g, partial.to_str().unwrap()], 0);
    let err = common::text(&out.stderr);
    assert!(
        err.contains("partial.json is partial (interrupted after 1 of 2 points)"),
        "{err}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

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

//! `handoff bench rma-sync` and `atomics` (foMPI's synchronization modes and atomics on the
//! team's epochs): their JSON with fitted models, the report's figures, a corrupted value
//! caught by verification (exit 3), bad flags (exit 2).

mod common;

use common::{handoff, serial, text, tmpdir};

const SMALL: [&str; 8] = [
    "--iters", "50", "--reps", "2", "--runs", "2", "--pes", "2,3",
];

#[test]
fn rma_sync_writes_verified_records_with_models_that_plot() {
    let _g = serial();
    let dir = tmpdir("json");
    let json = dir.join("rma.json");
    let mut args = vec![
        "bench",
        "rma-sync",
        "--format",
        "json",
        "-q",
        "-o",
        json.to_str().unwrap(),
    ];
    args.extend(SMALL);
    let out = handoff(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["schema"], "handoff.bench/1");
    assert_eq!(v["experiment"], "rma-sync");
    let recs = v["records"].as_array().unwrap();
    // 7 modes × p ∈ {2, 3} + pscw-k with k ∈ {1, 2} at p = 3.
    assert_eq!(recs.len(), 7 * 2 + 2, "{recs:?}");
    for r in recs {
        assert_eq!(r["verified"], true, "{r}");
        // Every PE compares every value it moved: per synchronization 1 (k for PSCW; flush
        // reads back 2 at r = 64, 128 and the fault's iteration 76 of r = 1..=150), over
        // 2 runs × p PEs × (2 reps + warm-up) × 50 iterations.
        let p = r["params"]["pes"].as_u64().unwrap();
        let k = r["params"]["k"].as_u64().unwrap();
        let mode = r["params"]["mode"].as_str().unwrap();
        let per_pe = match mode {
            "flush" => 2 * 3,
            "pscw-ring" | "pscw-k" => k * 3 * 50,
            _ => 3 * 50,
        };
        assert_eq!(r["checks"]["item"], "values", "{r}");
        assert_eq!(r["checks"]["checked"], 2 * p * per_pe, "{mode}: {r}");
        assert_eq!(r["checks"]["wrong"], 0, "{r}");
        assert_eq!(r["metrics"]["sync_us"]["unit"], "µs");
        assert_eq!(
            r["metrics"]["sync_us"]["run_means"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
    }
    // One model per mode, each with a residual per point.
    let models = v["models"].as_array().unwrap();
    assert_eq!(models.len(), 8, "{models:?}");
    let fence = models.iter().find(|m| m["series"] == "fence").unwrap();
    assert_eq!(fence["form"], "log2");
    assert_eq!(fence["residuals"].as_array().unwrap().len(), 2);
    let plot = handoff(&[
        "plot",
        json.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(plot.status.success(), "{}", text(&plot.stderr));
    for f in [
        "rma_sync_fence.png",
        "rma_sync_pscw_k.svg",
        "rma_sync_locks.png",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_corrupted_value_is_caught_in_every_mode() {
    let _g = serial();
    for mode in [
        "fence",
        "pscw-ring",
        "pscw-k",
        "lock-exclusive",
        "lock-shared",
        "lock-all",
        "flush",
        "sync",
    ] {
        let out = handoff(&[
            "bench", "rma-sync", "--modes", mode, "--pes", "2", "--k", "1", "--iters", "40",
            "--reps", "1", "--runs", "1", "--fault", "-q",
        ]);
        assert_eq!(out.status.code(), Some(3), "{mode}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("FAILED verification"),
            "{mode}: {}",
            text(&out.stderr)
        );
        // The data column counts the wrong values among those checked.
        let table = text(&out.stdout);
        assert!(
            table.contains("FAILED (") && table.contains(" values wrong)"),
            "{mode}: {table}"
        );
    }
}

#[test]
fn bad_flags_are_usage_errors_before_anything_runs() {
    for (args, needle) in [
        (vec!["--modes", "barrier"], "--modes barrier"),
        (vec!["--pes", "1"], "--pes"),
        (vec!["--pes", "x"], "--pes x"),
        (vec!["--pes", "2,4", "--k", "4"], "--k 4"),
        (vec!["--runs", "0"], "at least 1"),
        (vec!["--cpus", "999"], "999"),
        (vec!["--format", "xml"], "xml"),
        (vec!["--wait", "sometimes"], "--wait sometimes"),
        // #23: both PEs pinned to CPU 0 cannot spin: refused, offering the waits that work.
        (
            vec![
                "--wait", "spin", "--cpus", "0", "--pes", "2", "--modes", "fence",
            ],
            "spin-yield",
        ),
    ] {
        let mut a = vec!["bench", "rma-sync"];
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
}

#[test]
fn atomics_verify_and_fit_the_accumulate_model() {
    let _g = serial();
    let out = handoff(&[
        "bench", "atomics", "--sizes", "1,16,256", "--pes", "2,3", "--iters", "512", "--reps", "2",
        "--runs", "2", "--format", "json", "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let recs = v["records"].as_array().unwrap();
    // 2 accumulate modes × 3 sizes + 4 one-word modes × 2 p.
    assert_eq!(recs.len(), 2 * 3 + 4 * 2);
    assert!(recs.iter().all(|r| r["verified"] == true), "{recs:?}");
    let models = v["models"].as_array().unwrap();
    assert!(models
        .iter()
        .any(|m| m["series"] == "acc-sum" && m["x_name"] == "s"));
    for mode in [
        "acc-sum",
        "acc-min",
        "fetch-add",
        "cas",
        "fetch-add-contended",
        "cas-contended",
    ] {
        let out = handoff(&[
            "bench", "atomics", "--modes", mode, "--sizes", "8", "--pes", "2", "--iters", "64",
            "--reps", "1", "--runs", "1", "--fault", "-q",
        ]);
        assert_eq!(out.status.code(), Some(3), "{mode}: {}", text(&out.stderr));
    }
    for (args, needle) in [
        (vec!["--modes", "swap"], "--modes swap"),
        (vec!["--sizes", "0"], "--sizes"),
        (vec!["--sizes", "40000"], "--sizes"),
        (vec!["--pes", "1"], "--pes"),
    ] {
        let mut a = vec!["bench", "atomics"];
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
}

#[test]
fn msgrate_and_overlap_verify_their_puts() {
    let _g = serial();
    for exp in ["msgrate", "overlap"] {
        let out = handoff(&[
            "bench", exp, "--sizes", "8,4K", "--reps", "2", "--runs", "2", "--format", "json", "-q",
        ]);
        assert!(out.status.success(), "{exp}: {}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
        let recs = v["records"].as_array().unwrap();
        // msgrate: put-nbi and put at 2 sizes; overlap: put-nbi at 2 sizes.
        assert_eq!(recs.len(), if exp == "msgrate" { 4 } else { 2 }, "{exp}");
        assert!(
            recs.iter().all(|r| r["verified"] == true),
            "{exp}: {recs:?}"
        );
        let out = handoff(&[
            "bench", exp, "--sizes", "4K", "--reps", "1", "--runs", "1", "--fault", "-q",
        ]);
        assert_eq!(out.status.code(), Some(3), "{exp}: {}", text(&out.stderr));
        // The shared team flags: a wait that cannot work and a transport it does not run on.
        let out = handoff(&["bench", exp, "--wait", "spin", "--cpus", "0"]);
        assert_eq!(out.status.code(), Some(2), "{exp}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("spin-yield"),
            "{}",
            text(&out.stderr)
        );
        let out = handoff(&["bench", exp, "--transport", "mpi-shm"]);
        assert_eq!(out.status.code(), Some(2), "{exp}: {}", text(&out.stderr));
        let out = handoff(&["bench", exp, "--sizes", "12Q"]);
        assert_eq!(out.status.code(), Some(2), "{exp}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("size '12Q' has an unknown unit"),
            "{}",
            text(&out.stderr)
        );
    }
}

//! `handoff bench rma-sync` and `atomics` (foMPI's synchronization modes and atomics on the
//! team's epochs): their JSON with fitted models, the report's figures, a corrupted value
//! caught by verification (exit 3), bad flags (exit 2).

mod common;

use common::{check_records, tmpdir, usage_error, usage_errors, words_and_path};
use common::{exits, fails_verification, json_out, read_json, records, serial, words};

const SMALL: [&str; 8] = [
    "--iters", "50", "--reps", "2", "--runs", "2", "--pes", "2,3",
];

#[test]
fn rma_sync_writes_verified_records_with_models_that_plot() {
    let _g = serial();
    let dir = tmpdir("json");
    let json = dir.join("rma.json");
    let mut args = words_and_path("bench rma-sync --format json -q -o", &json);
    args.extend(SMALL);
    exits(&args, 0);
    let v = read_json(&json);
    assert_eq!(v["schema"], "handoff.bench/1");
    assert_eq!(v["experiment"], "rma-sync");
    let recs = records(&v);
    // 7 modes × p ∈ {2, 3} + pscw-k with k ∈ {1, 2} at p = 3.
    assert_eq!(recs.len(), 7 * 2 + 2, "{recs:?}");
    for r in recs {
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
    }
    check_records(&v, 2, &["sync_us"]);
    // One model per mode, each with a residual per point.
    let models = v["models"].as_array().unwrap();
    assert_eq!(models.len(), 8, "{models:?}");
    let fence = models.iter().find(|m| m["series"] == "fence").unwrap();
    assert_eq!(fence["form"], "log2");
    assert_eq!(fence["residuals"].as_array().unwrap().len(), 2);
    exits(
        &[
            "plot",
            json.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ],
        0,
    );
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
        let table = fails_verification(&words(&format!(
            "bench rma-sync --modes {mode} --pes 2 --k 1 --iters 40 --reps 1 --runs 1 --fault -q"
        )));
        // The data column counts the wrong values among those checked.
        assert!(
            table.contains("FAILED (") && table.contains(" values wrong)"),
            "{mode}: {table}"
        );
    }
}

#[test]
fn bad_flags_are_usage_errors_before_anything_runs() {
    usage_errors(
        "bench rma-sync",
        &[
            ("--modes barrier", "--modes barrier"),
            ("--pes 1", "--pes"),
            ("--pes x", "--pes x"),
            ("--pes 2,4 --k 4", "--k 4"),
            ("--runs 0", "at least 1"),
            ("--cpus 999", "999"),
            ("--format xml", "xml"),
            ("--wait sometimes", "--wait sometimes"),
            // #23: both PEs pinned to CPU 0 cannot spin: refused, offering the waits that work.
            ("--wait spin --cpus 0 --pes 2 --modes fence", "spin-yield"),
        ],
    );
}

#[test]
fn atomics_verify_and_fit_the_accumulate_model() {
    let _g = serial();
    let v = json_out(&words(
        "bench atomics --sizes 1,16,256 --pes 2,3 --iters 512 --reps 2 --runs 2 --format json -q",
    ));
    // 2 accumulate modes × 3 sizes + 4 one-word modes × 2 p.
    assert_eq!(records(&v).len(), 2 * 3 + 4 * 2);
    check_records(&v, 2, &[]);
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
        exits(
            &words(&format!(
                "bench atomics --modes {mode} --sizes 8 --pes 2 --iters 64 --reps 1 --runs 1 \
                --fault -q"
            )),
            3,
        );
    }
    usage_errors(
        "bench atomics",
        &[
            ("--modes swap", "--modes swap"),
            ("--sizes 0", "--sizes"),
            ("--sizes 40000", "--sizes"),
            ("--pes 1", "--pes"),
        ],
    );
}

#[test]
fn msgrate_and_overlap_verify_their_puts() {
    let _g = serial();
    for exp in ["msgrate", "overlap"] {
        let v = json_out(&[
            "bench", exp, "--sizes", "8,4K", "--reps", "2", "--runs", "2", "--format", "json", "-q",
        ]);
        // msgrate: put-nbi and put at 2 sizes; overlap: put-nbi at 2 sizes.
        let count = if exp == "msgrate" { 4 } else { 2 };
        assert_eq!(records(&v).len(), count, "{exp}");
        check_records(&v, 2, &[]);
        exits(
            &words(&format!(
                "bench {exp} --sizes 4K --reps 1 --runs 1 --fault -q"
            )),
            3,
        );
        // The shared team flags: a wait that cannot work and a transport it does not run on.
        usage_error(
            &["bench", exp, "--wait", "spin", "--cpus", "0"],
            "spin-yield",
        );
        exits(&["bench", exp, "--transport", "mpi-shm"], 2);
        usage_error(
            &["bench", exp, "--sizes", "12Q"],
            "size '12Q' has an unknown unit",
        );
    }
}

//! `handoff bench rma-channels` from the command line: verified records of the expected
//! shape (counted by hand from the flags) on threads and processes, more threads than CPUs,
//! no segment left behind, a corrupted transfer exits 3 on every path, bad flags exit 2.

mod common;

use common::{handoff, segments_of, serial, text};

fn bench(args: &[&str]) -> std::process::Output {
    let mut a = vec!["bench", "rma-channels"];
    a.extend_from_slice(args);
    handoff(&a)
}

#[test]
fn threads_and_processes_verify_every_transfer() {
    let _g = serial();
    let out = bench(&[
        "--sizes", "64,8K", "--n", "1,3", "--runs", "2", "--bytes", "128K", "--format", "json",
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["experiment"], "rma-channels");
    let recs = v["records"].as_array().unwrap();
    // Per mode, layout and n: 64 B → msg, rma, rma 4K; 8 KiB → msg, rma (4K adds no padding;
    // --sizes drops the default crossover sizes). 2 modes × 2 layouts × 2 n × 5.
    assert_eq!(recs.len(), 40, "{v}");
    let mut modes = std::collections::BTreeSet::new();
    let mut layouts = std::collections::BTreeSet::new();
    for r in recs {
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["checks"]["wrong"], 0, "{r}");
        let n = r["params"]["n"].as_u64().unwrap();
        let per = r["params"]["transfers_per_producer"].as_u64().unwrap();
        // Every transfer of both runs checked.
        assert_eq!(r["checks"]["checked"].as_u64().unwrap(), 2 * n * per, "{r}");
        for m in [
            "bytes_per_s",
            "thread_lat_min_us",
            "thread_lat_max_us",
            "lat_p99_us",
        ] {
            let means = r["metrics"][m]["run_means"].as_array().unwrap();
            assert_eq!(means.len(), 2, "{m}: {r}");
            assert!(means.iter().all(|x| x.as_f64().unwrap() > 0.0), "{m}: {r}");
        }
        let series = r["series"].as_str().unwrap();
        let mode = series.split(',').next().unwrap().to_string();
        layouts.insert((
            mode.clone(),
            r["params"]["layout"].as_str().unwrap().to_string(),
        ));
        modes.insert(mode);
    }
    assert_eq!(
        modes.into_iter().collect::<Vec<_>>(),
        ["processes", "threads"]
    );
    // XPYC between processes too: n producer threads in one process or PE.
    assert_eq!(layouts.len(), 4, "{layouts:?}");
    assert!(segments_of(std::process::id()).is_empty());
}

#[test]
fn a_corrupted_transfer_exits_3_on_threads_and_processes() {
    let _g = serial();
    for (mode, layout) in [
        ("--threads-only", "xconn"),
        ("--processes-only", "xconn"),
        ("--processes-only", "xpyc"),
    ] {
        // n = 2: 8 transfers of 4 KiB per producer, 16 in all, the one of sender 0 flipped.
        let out = bench(&[
            mode,
            "--layout",
            layout,
            "--sizes",
            "4K",
            "--n",
            "2",
            "--runs",
            "1",
            "--bytes",
            "64K",
            "--corrupt-at",
            "3",
            "-q",
        ]);
        assert_eq!(out.status.code(), Some(3), "{mode}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("FAILED verification"),
            "{}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains("1 of 16 transfers wrong"),
            "{}",
            text(&out.stdout)
        );
    }
}

#[test]
fn bad_flags_are_usage_errors_before_anything_runs() {
    for (args, needle) in [
        (vec!["--sizes", "0"], "--sizes"),
        (vec!["--sizes", "x"], "--sizes"),
        (vec!["--rma-granularity", "3000"], "--rma-granularity"),
        (vec!["--n", "0"], "--n"),
        (vec!["--layout", "diagonal"], "--layout diagonal"),
        (
            vec!["--threads-only", "--processes-only"],
            "cannot be used with",
        ),
        (vec!["--runs", "0"], "--runs"),
        (vec!["--format", "xml"], "xml"),
    ] {
        let out = bench(&args);
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
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

//! `handoff bench rma-channels` from the command line: verified records of the expected
//! shape (counted by hand from the flags) on threads and processes, more threads than CPUs,
//! no segment left behind, a corrupted transfer exits 3 on every path, bad flags exit 2;
//! `handoff plot` and `handoff compare` on its result files.

mod common;

use common::{check_records, exits, fails_verification, json_out, read_json, records};
use common::{segments_of, serial, tmpdir, usage_errors, words, words_and_path};

fn bench<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["bench", "rma-channels"];
    a.extend_from_slice(args);
    a
}

#[test]
fn threads_and_processes_verify_every_transfer() {
    let _g = serial();
    let v = json_out(&bench(&words(
        "--sizes 64,8K --n 1,3 --runs 2 --bytes 128K --format json -q",
    )));
    assert_eq!(v["experiment"], "rma-channels");
    let recs = records(&v);
    // Per mode, layout and n: 64 B → msg, rma, rma 4K; 8 KiB → msg, rma (4K adds no padding;
    // --sizes drops the default crossover sizes). 2 modes × 2 layouts × 2 n × 5.
    assert_eq!(recs.len(), 40, "{v}");
    let mut modes = std::collections::BTreeSet::new();
    let mut layouts = std::collections::BTreeSet::new();
    check_records(
        &v,
        2,
        &[
            "bytes_per_s",
            "thread_lat_min_us",
            "thread_lat_max_us",
            "lat_p99_us",
        ],
    );
    for r in recs {
        assert_eq!(r["checks"]["wrong"], 0, "{r}");
        let n = r["params"]["n"].as_u64().unwrap();
        let per = r["params"]["transfers_per_producer"].as_u64().unwrap();
        // Every transfer of both runs checked.
        assert_eq!(r["checks"]["checked"].as_u64().unwrap(), 2 * n * per, "{r}");
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
        let stdout = fails_verification(&bench(&words(&format!(
            "{mode} --layout {layout} --sizes 4K --n 2 --runs 1 --bytes 64K --corrupt-at 3 -q"
        ))));
        assert!(
            stdout.contains("1 of 16 transfers wrong"),
            "{mode}: {stdout}"
        );
    }
}

#[test]
fn bad_flags_are_usage_errors_before_anything_runs() {
    usage_errors(
        "bench rma-channels",
        &[
            ("--sizes 0", "--sizes"),
            ("--sizes x", "--sizes"),
            ("--rma-granularity 3000", "--rma-granularity"),
            ("--n 0", "--n"),
            ("--layout diagonal", "--layout diagonal"),
            ("--threads-only --processes-only", "cannot be used with"),
            ("--runs 0", "--runs"),
            ("--format xml", "xml"),
        ],
    );
}

/// Sets every record's load to a quiet machine's and its bytes/s runs to ±1% around their
/// mean (so `compare` judges the numbers: a busy machine's runs can spread so wide that even
/// half the throughput is within their interval).
fn quiet(v: &mut serde_json::Value) {
    for r in v["records"].as_array_mut().unwrap() {
        let l = &mut r["load"];
        l["load1_before"] = 0.1.into();
        l["load1_after"] = 0.1.into();
        l["others_cpus"] = 0.0.into();
        l["steal_fraction"] = 0.0.into();
        let m = &mut r["metrics"]["bytes_per_s"];
        let mean = m["summary"]["mean"].as_f64().unwrap();
        m["run_means"] = serde_json::json!([mean * 0.99, mean, mean * 1.01]);
    }
}

#[test]
fn plot_and_compare_read_its_result_files() {
    let _g = serial();
    let dir = tmpdir("rmach-plot");
    let run = |name: &str| {
        let path = dir.join(name);
        exits(
            &bench(&words_and_path(
                "--threads-only --layout xconn --n 1 --sizes 64,4K --runs 3 --bytes 256K \
                --format json -q -o",
                &path,
            )),
            0,
        );
        path
    };
    let (a, b) = (run("a.json"), run("b.json"));

    // Plot: the crossover and per-thread figures, drawn from the file, as PNG and SVG.
    let plots = dir.join("plots");
    exits(
        &[
            "plot",
            a.to_str().unwrap(),
            "--out",
            plots.to_str().unwrap(),
        ],
        0,
    );
    for id in ["rma-channels-crossover", "rma-channels-thread-max"] {
        let png = std::fs::read(plots.join(format!("{id}.png"))).expect(id);
        assert_eq!(&png[..4], b"\x89PNG", "{id}");
        let svg = std::fs::read_to_string(plots.join(format!("{id}.svg"))).expect(id);
        for series in ["threads, XConn×1, msg", "threads, XConn×1, rma"] {
            assert!(svg.contains(series), "{id}: no {series}");
        }
    }
    let svg = std::fs::read_to_string(plots.join("rma-channels-crossover.svg")).unwrap();
    assert!(svg.contains("messages vs puts"), "the figure's title");

    // Compare two real runs: every record matched, each metric judged.
    let v = json_out(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(v["experiment"], "rma-channels");
    // Per size: msg, rma; 64 B also rma 4K.
    assert_eq!(v["matched"].as_array().unwrap().len(), 5, "{v}");
    for m in v["matched"].as_array().unwrap() {
        for x in m["metrics"].as_array().unwrap() {
            let verdict = x["verdict"].as_str().unwrap();
            assert!(
                ["slower", "faster", "same", "inconclusive"].contains(&verdict),
                "{x}"
            );
        }
    }

    // A change, a tie and a busy run named as such: B is A (on a quiet machine) with puts at
    // 4 KiB moving half the bytes/s and messages at 64 B measured on a busy machine.
    let mut va = read_json(&a);
    quiet(&mut va);
    let mut vb = va.clone();
    for r in vb["records"].as_array_mut().unwrap() {
        let (series, x) = (r["series"].as_str().unwrap().to_string(), r["x"].as_f64());
        if series == "threads, XConn×1, rma" && x == Some(4096.0) {
            let m = &mut r["metrics"]["bytes_per_s"];
            for k in [
                "mean",
                "ci95_low",
                "ci95_high",
                "median",
                "median_ci95_low",
                "median_ci95_high",
                "min",
                "max",
                "p99",
            ] {
                if let Some(f) = m["summary"][k].as_f64() {
                    m["summary"][k] = (f / 2.0).into();
                }
            }
            for y in m["run_means"].as_array_mut().unwrap() {
                *y = (y.as_f64().unwrap() / 2.0).into();
            }
        }
        if series == "threads, XConn×1, msg" && x == Some(64.0) {
            r["load"]["load1_before"] = 9.0.into();
            r["load"]["others_cpus"] = 1.5.into();
        }
    }
    let (qa, qb) = (dir.join("qa.json"), dir.join("qb.json"));
    std::fs::write(&qa, va.to_string()).unwrap();
    std::fs::write(&qb, vb.to_string()).unwrap();
    let v = json_out(&[
        "compare",
        qa.to_str().unwrap(),
        qb.to_str().unwrap(),
        "--drift",
        "1",
        "--format",
        "json",
    ]);
    let verdict = |series: &str, size: u64| -> (String, String) {
        let m = v["matched"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| {
                let k = m["key"].as_str().unwrap();
                k.starts_with(&format!("{series} [")) && k.contains(&format!("size_bytes={size},"))
            })
            .unwrap_or_else(|| panic!("{series} {size}: {v}"));
        let x = m["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["metric"] == "bytes_per_s")
            .unwrap();
        (
            x["verdict"].as_str().unwrap().to_string(),
            x["reason"].as_str().unwrap_or("").to_string(),
        )
    };
    assert_eq!(verdict("threads, XConn×1, rma", 4096).0, "slower", "{v}");
    assert_eq!(verdict("threads, XConn×1, rma", 64).0, "same", "{v}");
    let (busy, why) = verdict("threads, XConn×1, msg", 64);
    assert_eq!(busy, "inconclusive", "{v}");
    assert!(why.contains("busy"), "{why}");
    let _ = std::fs::remove_dir_all(dir);
}

//! The `handoff` command as a user runs it: argument errors, output schemas, a short run of
//! every mode, a worker killed mid-run, Ctrl-C, and the report. No timing assertions.

mod common;
use common::*;
use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn bad_input_is_one_line_and_exit_2_before_anything_runs() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["bench", "exchange", "--mode", "threads-spn"],
            "unknown mode",
        ),
        (&["bench", "exchange", "--size", "0"], "size 0"),
        (&["bench", "exchange", "--size", "6"], "multiple of 4"),
        (&["bench", "exchange", "--size", "4XB"], "unknown unit"),
        (&["bench", "exchange", "--consumer-core", "9999"], "9999"),
        (&["bench", "exchange", "--producer-core", "9999"], "9999"),
        (&["bench", "exchange", "--reps", "0"], "--reps"),
        (&["bench", "exchange", "--runs", "0"], "--runs"),
        (&["bench", "exchange", "--format", "xml"], "format"),
        (
            &["bench", "exchange", "--output", "/nonexistent-dir/x.json"],
            "/nonexistent-dir",
        ),
        (&["bench", "c2c", "--cores", "0,9999"], "9999"),
        (&["bench", "exchange", "--bogus"], "--bogus"),
    ];
    for (args, want) in cases {
        let err = usage_error(args, want);
        // Refused before measuring: no c2c or exchange progress was printed.
        assert!(
            !err.contains("exchange:"),
            "{args:?} started measuring: {err}"
        );
    }
}

#[test]
fn every_mode_runs_verified_with_the_json_schema() {
    let _g = serial();
    let v = json_out(&words(
        "bench exchange --mode all --size 64KiB --reps 5 --warmup 1 --runs 2 --format json -q",
    ));
    assert_eq!(v["schema"], "handoff.bench/1");
    assert_eq!(v["experiment"], "exchange");
    for key in ["machine", "tool", "config", "c2c", "records"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert!(v["machine"]["cpu_model"].is_string());
    assert!(v["machine"]["clock"]["source"].is_string());
    let records = records(&v);
    let n = cpus();
    // 2 single-thread modes once, 7 two-party modes per consumer CPU.
    assert_eq!(records.len(), 2 + 7 * n);
    let modes: std::collections::BTreeSet<&str> = records
        .iter()
        .map(|r| r["params"]["mode"].as_str().unwrap())
        .collect();
    assert_eq!(modes.len(), 9, "{modes:?}");
    for r in records {
        let p = &r["params"];
        assert_eq!(r["verified"], true, "{r}");
        assert!(r["checks"]["checked"].as_u64().unwrap() > 0, "{r}");
        assert_eq!(p["size_bytes"], 65536);
        assert_eq!(r["reps"], 5);
        assert_eq!(r["runs"], 2);
        assert!(
            r["load"].is_object(),
            "every record says how busy the machine was"
        );
        for metric in ["read_us", "latency_us", "write_us"] {
            let m = &r["metrics"][metric];
            assert_eq!(m["run_means"].as_array().unwrap().len(), 2);
            for stat in ["mean", "median", "min", "max", "p99"] {
                assert!(m["summary"][stat].is_number(), "{metric}.{stat} in {r}");
            }
            assert!(m["summary"]["ci95_low"].is_number(), "2 runs give a CI");
        }
        let wait = r["info"]["wait"].as_str().unwrap();
        assert!(
            [
                "none",
                "spin",
                "spin-yield",
                "futex",
                "adaptive",
                "semaphore",
                "condvar",
                "pipe"
            ]
            .contains(&wait),
            "{wait}"
        );
        assert!(p["placement"].is_string());
        // The floor is measured next to every cross-CPU record; none on one CPU.
        let cross = p["producer_core"] != p["consumer_core"];
        assert_eq!(
            r["c2c_one_way_ns"].as_f64().is_some_and(|f| f > 0.0),
            cross,
            "{r}"
        );
    }
    if n >= 2 {
        let c2c = v["c2c"].as_array().unwrap();
        assert!(!c2c.is_empty());
        assert!(c2c[0]["one_way_ns"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn csv_format() {
    let _g = serial();
    let dir = tmpdir("csv");
    let csv = dir.join("out.csv");
    let out = handoff(&words_and_path(
        "bench exchange --mode threads-spin,processes-futex --size 4KiB,16KiB --reps 3 --warmup 0 \
        --runs 1 --format csv -q --output",
        &csv,
    ));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let body = std::fs::read_to_string(&csv).unwrap();
    let mut lines = body.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for col in [
        "mode",
        "size_bytes",
        "read_us_mean",
        "latency_us_median",
        "write_us_p99",
        "verified",
    ] {
        assert!(header.contains(&col), "{col} missing from {header:?}");
    }
    assert_eq!(lines.count(), 2 * 2 * cpus());
    // The table format: exchange_inputs.rs's kernel test reads one.
    let _ = std::fs::remove_dir_all(dir);
}

/// The c2c matrix as JSON, and `plot` draws its heatmap from the file.
#[test]
fn c2c_matrix_json_and_its_heatmap() {
    if cpus() < 2 {
        eprintln!(
            "SKIP: c2c_matrix_json_and_its_heatmap: c2c needs two CPUs, this process may use one"
        );
        return;
    }
    let _g = serial();
    let dir = tmpdir("plotc2c");
    let c2c = dir.join("c2c.json");
    exits(
        &words_and_path(
            "bench c2c --samples 5 --round-trips 100 --format json -q --output",
            &c2c,
        ),
        0,
    );
    let v = read_json(&c2c);
    assert_eq!(v["schema"], "handoff.bench/1");
    assert_eq!(v["experiment"], "c2c");
    let pairs = v["c2c"].as_array().unwrap();
    assert_eq!(pairs.len(), cpus() * (cpus() - 1) / 2);
    assert!(pairs
        .iter()
        .all(|p| p["one_way_ns"].as_f64().unwrap() > 0.0));
    // One record per pair, its bounces counted as checked, the machine load attached.
    let recs = records(&v);
    assert_eq!(recs.len(), pairs.len());
    for r in recs {
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["checks"]["checked"], 5 * 100, "{r}");
        assert!(
            r["metrics"]["one_way_ns"]["summary"]["median"]
                .as_f64()
                .unwrap()
                > 0.0
        );
        assert!(r["load"].is_object(), "{r}");
    }
    exits(&["plot", c2c.to_str().unwrap()], 0);
    let png = std::fs::read(dir.join("c2c_heatmap.png")).expect("the heatmap was drawn");
    assert_eq!(&png[..4], b"\x89PNG");
    let _ = std::fs::remove_dir_all(dir);
}

/// The pids of `parent`'s direct children.
fn children_of(parent: u32) -> Vec<u32> {
    let mut kids = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
            continue;
        };
        let ppid: u32 = rest
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        if ppid == parent {
            kids.push(pid);
        }
    }
    kids
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| !s.contains(") Z"))
        .unwrap_or(false)
}

/// Starts a slow run (a 100 ms producer delay per repetition) and returns it once its
/// workers are up. The caller reaps it with `wait_child`.
#[allow(clippy::zombie_processes)]
fn start_slow_run(mode: &str, output: &Path) -> (std::process::Child, Vec<u32>) {
    let line = format!(
        "bench exchange --mode {mode} --size 4KiB --reps 100 --warmup 0 --runs 1 --consumer-core 0 \
        --producer-delay-us 100000 --format json -q --output"
    );
    let child = spawn(&words_and_path(&line, output));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let kids = children_of(child.id());
        if kids.len() >= 2 {
            std::thread::sleep(Duration::from_millis(300));
            return (child, kids);
        }
        assert!(Instant::now() < deadline, "workers never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Each of `kids` ends within 5 s (a hang guard) of its command's end.
fn assert_gone(kids: &[u32], what: &str) {
    for &k in kids {
        let deadline = Instant::now() + Duration::from_secs(5);
        while alive(k) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(k), "{what}: worker {k} outlived the command");
    }
}

#[test]
fn a_worker_killed_mid_run_fails_the_command_and_leaves_nothing_behind() {
    let _g = serial();
    let dir = tmpdir("kill");
    for mode in [
        "processes-futex",
        "processes-spin",
        "processes-semaphore",
        "pipe",
    ] {
        let (child, kids) = start_slow_run(mode, &dir.join("x.json"));
        let parent = child.id();
        // Kill the producer or the consumer (whichever listed first); the other must notice.
        signal(kids[0], "9");
        let (code, err) = wait_child(child, 30, "after its worker died");
        assert_eq!(code, Some(3), "{mode}: {err}");
        assert!(err.contains(mode) && err.contains("run 1"), "{mode}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_gone(&kids, mode);
        assert!(
            segments_of(parent).is_empty(),
            "{mode}: {:?}",
            segments_of(parent)
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Ctrl-C and SIGTERM stop the run with its partial output, each named in the last line and
/// with its own exit code (#40 item 9: SIGTERM was reported as "interrupted (Ctrl-C)" with
/// 130; `handoff run` says 143).
#[test]
fn ctrl_c_and_sigterm_stop_cleanly_with_partial_output() {
    let _g = serial();
    let dir = tmpdir("int");
    for (sig, code, name) in [("INT", 130, "Ctrl-C"), ("TERM", 143, "SIGTERM")] {
        let out = dir.join(format!("partial-{sig}.json"));
        let (child, kids) = start_slow_run("processes-adaptive", &out);
        let parent = child.id();
        signal(parent, sig);
        let (got, err) = wait_child(child, 30, &format!("after SIG{sig}"));
        assert_eq!(got, Some(code), "SIG{sig}: {err}");
        let last = err.lines().last().unwrap_or("");
        assert!(
            last.starts_with("handoff: ")
                && last.contains(name)
                && last.contains("points measured so far"),
            "SIG{sig}: {err}"
        );
        assert_eq!(read_json(&out)["partial"], true);
        assert_gone(&kids, sig);
        assert!(segments_of(parent).is_empty(), "{:?}", segments_of(parent));
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// #40 item 9: `report` stopped by SIGTERM during its exchange exits 143, names SIGTERM in
/// its last line and writes a partial report (before: 130, "interrupted (Ctrl-C)").
#[test]
fn sigterm_stops_a_report_with_143_and_says_so() {
    let _g = serial();
    let dir = tmpdir("report-term");
    let child = spawn(&words_and_path(
        "report --quick --mode processes-adaptive --reps 100 --runs 1 --out",
        &dir,
    ));
    let deadline = Instant::now() + Duration::from_secs(60);
    while children_of(child.id()).len() < 2 {
        assert!(
            Instant::now() < deadline,
            "the exchange workers never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    signal(child.id(), "TERM");
    let (code, err) = wait_child(child, 60, "report after SIGTERM");
    assert_eq!(code, Some(143), "{err}");
    let last = err.lines().last().unwrap_or("");
    assert!(last.starts_with("handoff: terminated (SIGTERM)"), "{err}");
    let v = read_json(&dir.join("results.json"));
    assert_eq!(v["partial"], true);
    let _ = std::fs::remove_dir_all(dir);
}

/// One partial report (stopped after 3 records) written twice into one folder: every file
/// says it is partial, `plot` redraws from its results, and the second run removes the
/// first's plots but keeps the user's files.
#[test]
fn a_partial_report_writes_every_file_and_twice_into_one_folder_leaves_nothing_stale() {
    let _g = serial();
    let dir = tmpdir("report");
    let run = || {
        exits(
            &words_and_path(
                "report --quick --stop-after-records 3 \
                --mode single-thread,threads-spin,processes-spin --reps 3 --runs 2 --out",
                &dir,
            ),
            0,
        )
    };
    let out = run();
    // The terminal gets the report's first screen (the headline), then the page.
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.ends_with("index.html"), "{stdout}");
    // The paper's question answered per placement, or why not (3 records cannot hold both
    // modes at two sizes; on a busy machine the exchange answers nothing).
    assert!(
        stdout.contains("- Consumer on ") || stdout.contains("- Not answered:"),
        "{stdout}"
    );
    let v = read_json(&dir.join("results.json"));
    assert_eq!(v["partial"], true);
    assert_eq!(records(&v).len(), 3);
    assert!(v["report"]["rep_scaling_description"].is_string());
    // results.json describes the whole plan and when it started.
    let started = v["report"]["started"].as_str().expect("started is set");
    assert!(started.ends_with('Z') && started.len() == 20, "{started}");
    let plan = v["config"]["plan"]
        .as_array()
        .expect("the plan is recorded");
    assert_eq!(plan.len() as u64, v["config"]["points"].as_u64().unwrap());
    let sizes = v["config"]["exchange"]["sizes"].as_array().unwrap();
    assert!(sizes.len() > 1, "every size of the sweep: {sizes:?}");
    assert!(plan.iter().all(|p| p["warmup"].as_u64().unwrap() >= 2));
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        md.to_lowercase().contains("partial"),
        "report.md must say it is partial"
    );
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.to_lowercase().contains("partial"));
    assert!(!html.contains("http://") && !html.contains("https://"));
    // The plot command redraws from the results file.
    let plots = dir.join("replot");
    exits(
        &[
            "plot",
            dir.join("results.json").to_str().unwrap(),
            "--out",
            plots.to_str().unwrap(),
        ],
        0,
    );

    // A stale plot of an earlier report (and a file of the user's) in the folder.
    std::fs::write(dir.join("read_vs_size_stale.png"), b"old").unwrap();
    std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
    let out = run();
    assert!(
        text(&out.stderr).contains("holds an earlier report"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("read_vs_size_stale.png").exists());
    assert!(dir.join("notes.txt").exists(), "the user's file is kept");
    assert!(dir.join("results.json").exists() && dir.join("index.html").exists());
    let _ = std::fs::remove_dir_all(dir);
}

// ---- kernels, verification, bad sizes and counts, worker deaths (issues 9 and 16) ----

/// An exchange results file draws and compares; a file of the older `handoff.exchange/1`
/// schema is a one-line usage error naming the command that writes the one schema.
#[test]
fn an_exchange_file_plots_and_compares_and_an_old_one_is_refused() {
    let old = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../handoff-lab/tests/fixtures/exchange_small.json");
    let old = old.to_str().unwrap();
    let dir = tmpdir("oldplot");
    exits(&["plot", old, "--out", dir.to_str().unwrap()], 0);
    assert!(dir.join("c2c_heatmap.png").is_file() && dir.join("read_per_cpu.png").is_file());
    let out = exits(&["compare", old, old], 0);
    assert!(text(&out.stdout).contains(" same"), "{}", text(&out.stdout));
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"schema":"handoff.exchange/1","records":"x"}"#).unwrap();
    let bad = bad.to_str().unwrap();
    usage_line(&["plot", bad], "handoff bench exchange");
    usage_line(&["compare", bad, old], "handoff bench exchange");
    // Files that are not results at all, or not there: bad usage too.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "not json").unwrap();
    let junk = junk.to_str().unwrap();
    for args in [
        &["plot", junk][..],
        &["plot", "/nonexistent/results.json"],
        &["compare", junk, junk],
    ] {
        assert!(!text(&exits(args, 2).stderr).is_empty(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue #40: a report that fails (here: one of its exchange workers is killed) used to leave
/// the empty output folder it had created; the folder goes again. A folder that was there
/// before the run stays.
#[test]
fn a_failed_report_leaves_no_empty_folder() {
    let _g = serial();
    let dir = tmpdir("failed-report");
    for existed in [false, true] {
        let out = dir.join(format!("report-{existed}"));
        if existed {
            std::fs::create_dir_all(&out).unwrap();
        }
        let line = "report --quick --experiments none -q --out";
        let mut child = spawn(&words_and_path(line, &out));
        let parent = child.id();
        // Every worker it starts is killed (one could end on its own before the signal).
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut killed = 0;
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            for k in children_of(parent) {
                signal(k, "KILL");
                killed += 1;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(killed > 0, "the report started no worker");
        let (code, err) = wait_child(child, 120, "after its worker was killed");
        assert_eq!(code, Some(3), "{err}");
        assert_eq!(out.exists(), existed, "{}: {err}", out.display());
    }
    let _ = std::fs::remove_dir_all(dir);
}

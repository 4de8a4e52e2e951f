//! The runtime-queue experiments from the command line: `bench malloc | kneighbor | queue |
//! aggregation | channels` write verified records of the expected shape (counted by hand
//! from the flags), cross-process runs work and leave no segment behind, a corrupted transfer
//! exits 3, bad flags exit 2.

mod common;

use common::{check_records, fails_verification, json_out, records, segments_of, serial};
use common::{exits, signal, spawn, usage_errors, wait_child, words};

/// Runs `bench NAME ARGS --format json -q` and returns the parsed results.
fn bench_json(name: &str, args: &[&str]) -> serde_json::Value {
    let mut a = vec!["bench", name];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--format", "json", "-q"]);
    let v = json_out(&a);
    assert_eq!(v["schema"], "handoff.bench/1");
    assert_eq!(v["experiment"], name);
    v
}

/// `count` records, every one verified, with `runs` run means of each metric in `metrics`.
fn check(v: &serde_json::Value, count: usize, runs: usize, metrics: &[&str]) {
    assert_eq!(records(v).len(), count, "{v}");
    check_records(v, runs, metrics);
}

#[test]
fn malloc_gives_one_record_per_allocator_and_thread_count() {
    let _g = serial();
    let v = bench_json(
        "malloc",
        &words("--threads 1,3 --count 2000 --reps 2 --runs 2"),
    );
    // 2 allocators × 2 thread counts.
    check(&v, 4, 2, &["op_us"]);
    let series: Vec<&str> = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["series"].as_str().unwrap())
        .collect();
    assert_eq!(series, ["system", "mimalloc", "system", "mimalloc"]);
}

#[test]
fn malloc_with_a_corrupted_block_exits_3_naming_it() {
    let _g = serial();
    let stdout = fails_verification(&words(
        "bench malloc --allocator mimalloc --threads 2 --count 500 --reps 1 --runs 1 \
        --fault corrupt@123 -q",
    ));
    // The output's notes name the block (64 B by default: its middle byte, 32).
    assert!(
        stdout.contains("thread 0, repetition 0: block 123: byte 32 of 64"),
        "{stdout}"
    );
    // A fault past --count is a usage error.
    exits(&words("bench malloc --count 500 --fault corrupt@500 -q"), 2);
}

#[test]
fn kneighbor_runs_threads_and_processes_oversubscribed() {
    let _g = serial();
    let v = bench_json(
        "kneighbor",
        &words(
            "--pes 7 --k 3 --sizes 64,1000 --iters 10 --reps 2 --runs 2 --placement compact,spread \
            --cpus 1,0",
        ),
    );
    // 2 modes × (compact, spread, the list) × 2 sizes.
    check(&v, 12, 2, &["iter_us"]);
    let r = &v["records"].as_array().unwrap()[11];
    assert_eq!(r["series"], "processes, cpus 1,0");
    assert_eq!(r["params"]["size_bytes"], 1000);
    assert!(segments_of(std::process::id()).is_empty());
}

#[test]
fn queue_lines_and_a_corrupted_message_exits_3() {
    let _g = serial();
    let v = bench_json(
        "queue",
        &words("--sizes 8,64 --count 2000 --rtt-iters 50 --reps 2 --runs 2"),
    );
    // Per size: SPSC handoff, rtrb, crossbeam, handoff processes; MPSC crossbeam, lanes,
    // array, locked, lanes processes, array processes = 10 lines.
    check(&v, 20, 2, &["msgs_per_s"]);
    for r in v["records"].as_array().unwrap() {
        let spsc = r["series"].as_str().unwrap().starts_with("spsc");
        assert_eq!(r["metrics"].get("rtt_us").is_some(), spsc, "{r}");
    }
    // The hidden fault corrupts one message: verification fails, exit 3, data column says so.
    fails_verification(&words(
        "bench queue --queues spsc --threads-only --sizes 8 --count 100 --rtt-iters 5 --reps 1 \
        --runs 1 --fault -q",
    ));
}

/// Issue #40, item 7: `--count 16777216` (the largest) with many blocks is minutes of one
/// point, and Ctrl-C was seen only between points: the command ended 6-18 s after it (here
/// it would run on for many minutes). Ctrl-C and SIGTERM are now seen inside a timed block:
/// the command ends at once (the 20 s watchdog is a hang guard), partial, without a panic,
/// for a threads line (producer and consumer threads told to stop) and a processes line
/// (its workers killed).
#[test]
fn queue_stops_inside_a_timed_block_at_ctrl_c_and_sigterm() {
    let _g = serial();
    for (sig, queues) in [
        ("INT", "spsc"),
        ("TERM", "spsc"),
        ("INT", "array --producers 2"),
    ] {
        let dir = common::tmpdir("queue-stop");
        let out = dir.join("q.json");
        let args = format!(
            "bench queue --queues {queues} --sizes 8 --count 16777216 \
             --rtt-iters 16777216 --reps 1000 --runs 1 -q --format json -o {}",
            out.display()
        );
        let child = spawn(&words(&args));
        let pid = child.id();
        // Into the first point's timed blocks (not a timing assertion: the run is minutes).
        std::thread::sleep(std::time::Duration::from_millis(1500));
        signal(pid, sig);
        let (code, err) = wait_child(child, 20, &format!("after SIG{sig} ({queues})"));
        assert!(!err.contains("panicked"), "{err}");
        // 128 + the signal: 130 for Ctrl-C (SIGINT), 143 for SIGTERM.
        let want: &[i32] = if sig == "INT" { &[130] } else { &[143] };
        assert!(
            code.is_some_and(|c| want.contains(&c)),
            "SIG{sig} ({queues}): exit {code:?}: {err}"
        );
        assert!(segments_of(pid).is_empty(), "{:?}", segments_of(pid));
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn aggregation_sweeps_frames_per_message_size() {
    let _g = serial();
    let v = bench_json(
        "aggregation",
        &words("--msg-sizes 16,64 --frame-sizes 64,512 --count 2000 --reps 2 --runs 2"),
    );
    // 16 B: 20 (one), 64, 512; 64 B: 68 (one), 512 (64 holds under two) = 5 records.
    check(
        &v,
        5,
        2,
        &["msgs_per_s", "lat_p50_us", "lat_p99_us", "lat_p999_us"],
    );
    let xs: Vec<f64> = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["x"].as_f64().unwrap())
        .collect();
    assert_eq!(xs, [20.0, 64.0, 512.0, 68.0, 512.0]);
}

#[test]
fn channels_xpyc_and_xconn_with_threads_and_processes() {
    let _g = serial();
    let v = bench_json(
        "channels",
        &["--n", "1,3", "--count", "3000", "--runs", "2"],
    );
    // 2 modes × 2 layouts × 2 values of n.
    check(
        &v,
        8,
        2,
        &[
            "msgs_per_s",
            "thread_lat_min_us",
            "thread_lat_max_us",
            "lat_p99_us",
            "lat_p999_us",
        ],
    );
    assert!(segments_of(std::process::id()).is_empty());
}

#[test]
fn bad_flags_are_usage_errors_before_anything_runs() {
    usage_errors(
        "bench",
        &[
            ("malloc --allocator jemalloc", "--allocator jemalloc"),
            ("malloc --size 4", "--size 4"),
            ("malloc --threads 0", "--threads"),
            ("kneighbor --pes 5", "2k+1"),
            ("kneighbor --placement diagonal", "--placement diagonal"),
            ("kneighbor --cpus 0,999", "999"),
            ("kneighbor --sizes 0", "--sizes"),
            ("queue --sizes 24", "--sizes"),
            ("queue --queues ringbuf", "--queues ringbuf"),
            ("queue --producers 0", "--producers"),
            ("aggregation --msg-sizes 8", "--msg-sizes"),
            ("aggregation --frame-sizes 1MiB", "--frame-sizes"),
            ("channels --n 0", "--n"),
            ("channels --n x", "--n x"),
            ("channels --format xml", "xml"),
        ],
    );
}

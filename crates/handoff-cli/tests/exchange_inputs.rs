//! `bench exchange` input and fault handling as a user meets it: the kernel chosen and named,
//! a stale block failing verification (exit 3), impossible counts and sizes refused before
//! anything runs (exit 2), the first worker's real cause of death named, and `compare`'s exit
//! codes on exchange files. No timing assertions.

mod common;
use common::*;

/// What /proc/cpuinfo says the widest kernel must be (an oracle independent of the lab's
/// detection).
fn widest_kernel_from_cpuinfo() -> &'static str {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags: Vec<&str> = info
        .lines()
        .find(|l| l.starts_with("flags") || l.starts_with("Features"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    if cfg!(target_arch = "aarch64") {
        "neon"
    } else if flags.contains(&"avx512f") {
        "avx512"
    } else if flags.contains(&"avx2") {
        "avx2"
    } else {
        "sse2"
    }
}

/// `bench exchange` of 4 KiB, 5 repetitions in one run, as JSON, with `extra` flags.
fn exchange_json<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args =
        words("bench exchange --size 4KiB --reps 5 --warmup 1 --runs 1 --format json -q");
    args.extend_from_slice(extra);
    args
}

#[test]
fn kernel_is_the_widest_by_default_forced_by_flag_and_named_in_records_and_footer() {
    let _g = serial();
    let v = json_out(&exchange_json(&["--mode", "single-thread"]));
    assert_eq!(
        v["records"][0]["info"]["kernel"].as_str(),
        Some(widest_kernel_from_cpuinfo())
    );
    for (kernel, modes) in [("scalar", "single-thread"), ("sse2", "processes-spin")] {
        if kernel == "sse2" && !cfg!(target_arch = "x86_64") {
            continue;
        }
        let v = json_out(&exchange_json(&["--mode", modes, "--kernel", kernel]));
        for r in records(&v) {
            assert_eq!(r["info"]["kernel"].as_str(), Some(kernel), "{r}");
        }
        check_records(&v, 1, &[]);
    }
    // The table format (the default): the mode, its read column, the kernel in the footer.
    let out = exits(
        &words(
            "bench exchange --mode single-thread --size 4KiB --reps 3 --runs 1 --kernel scalar -q",
        ),
        0,
    );
    let table = text(&out.stdout);
    assert!(
        table.contains("single-thread") && table.contains("read"),
        "{table}"
    );
    assert!(table.contains("fill and sum kernel: scalar"), "{table}");
    // A kernel this CPU lacks, and a name that is none: usage errors naming what exists.
    let missing = if cfg!(target_arch = "x86_64") {
        "neon"
    } else {
        "avx2"
    };
    for (k, want) in [
        (missing, "is not available on this CPU, which has: "),
        ("avx9", "unknown kernel 'avx9'"),
    ] {
        let err = usage_error(&["bench", "exchange", "--kernel", k], want);
        assert!(err.contains("scalar"), "{k}: {err}");
    }
}

#[test]
fn a_stale_block_fails_verification_with_exit_3_in_every_kind_of_mode() {
    let _g = serial();
    let two = cpus() >= 2;
    for mode in ["single-thread", "threads-spin", "processes-spin", "pipe"] {
        let out = handoff(&exchange_json(&[
            "--mode",
            mode,
            "--consumer-core",
            if two && mode != "single-thread" {
                "1"
            } else {
                "0"
            },
            "--fault",
            "skip-fill@3",
        ]));
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{mode}: {err}");
        // Repetition 3 holds repetition 2's ones instead of twos: 1024 instead of 2048.
        assert!(
            err.contains(
                "verification failed in repetition 3: the consumer summed 1024, expected 2048"
            ),
            "{mode}: {err}"
        );
        assert!(!err.contains("panicked"), "{mode}: {err}");
    }
}

#[test]
fn huge_counts_and_sizes_are_refused_before_anything_runs() {
    // Twice what this machine has available, in GiB (an oracle read here, not by the CLI).
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let avail_kib: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap();
    let too_big = format!("{}GiB", 2 * avail_kib / (1 << 20) + 1);
    let cases: &[(&[&str], &str)] = &[
        (
            &["bench", "exchange", "--reps", "4294967295"],
            "--reps 4294967295",
        ),
        (
            &["bench", "exchange", "--warmup", "4294967295"],
            "--warmup 4294967295",
        ),
        (
            &["bench", "exchange", "--runs", "4294967295"],
            "--runs 4294967295",
        ),
        (
            &["report", "--reps", "4294967295"],
            "more than 10000000 repetitions",
        ),
        (
            &[
                "bench",
                "exchange",
                "--mode",
                "threads-spin",
                "--size",
                &too_big,
            ],
            "available (MemAvailable)",
        ),
        (
            &[
                "bench",
                "exchange",
                "--mode",
                "processes-spin",
                "--size",
                &too_big,
            ],
            "available (MemAvailable)",
        ),
        (
            &["bench", "exchange", "--size", "4KB"],
            "write 4KiB for 4096 bytes",
        ),
        (
            &words("bench exchange --mode single-thread --consumer-core 1"),
            "use --producer-core 1",
        ),
    ];
    for (args, want) in cases {
        if args.contains(&"1") && cpus() < 2 {
            eprintln!(
                "SKIP: huge_counts_and_sizes_are_refused_before_anything_runs {args:?}: one CPU"
            );
            continue;
        }
        let err = usage_error(args, want);
        assert!(
            !err.contains("exchange:") && !err.contains("c2c"),
            "{args:?} ran: {err}"
        );
    }
}

#[test]
fn a_producer_killed_by_sigbus_is_named_rather_than_the_consumer_that_noticed() {
    let _g = serial();
    let consumer = if cpus() >= 2 { "1" } else { "0" };
    let out = exits(
        &exchange_json(&words(&format!(
            "--mode processes-spin --consumer-core {consumer} --fault producer-sigbus@3"
        ))),
        3,
    );
    let err = text(&out.stderr);
    let producer = err.find("producer worker").unwrap_or(usize::MAX);
    assert!(
        producer < err.find("consumer worker").unwrap_or(usize::MAX),
        "{err}"
    );
    assert!(err.contains("SIGBUS") && err.contains("/dev/shm"), "{err}");
    // The fault kills a process: refused where it would kill the CLI itself.
    exits(
        &exchange_json(&["--mode", "threads-spin", "--fault", "producer-sigbus@3"]),
        2,
    );
}

#[test]
fn compare_exit_codes() {
    let _g = serial();
    let dir = tmpdir("cmp");
    let a = dir.join("a.json");
    let out = handoff(&words_and_path(
        "bench exchange --mode single-thread --size 64KiB --reps 5 --runs 3 --format json -q \
        --output",
        &a,
    ));
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Pin A's per-run read times to known values (real runs on a noisy VM can spread widely,
    // which would widen the bootstrapped CI), then make B the same with reads doubled.
    let mut v = read_json(&a);
    // This test is about compare's evidence rules: drop the machine-load evidence of the real
    // run (a busy machine makes every verdict inconclusive; tests/busy.rs covers that).
    for r in v["records"].as_array_mut().unwrap() {
        r.as_object_mut().unwrap().remove("load");
    }
    std::fs::write(&a, serde_json::to_string(&v).unwrap()).unwrap();
    let set_reads = |v: &mut serde_json::Value, scale: f64| {
        for r in v["records"].as_array_mut().unwrap() {
            let read = &mut r["metrics"]["read_us"];
            let runs = read["run_means"].as_array_mut().unwrap();
            for (i, d) in runs.iter_mut().enumerate() {
                *d = serde_json::json!(scale * (10.0 + 0.1 * i as f64));
            }
            read["summary"]["mean"] = serde_json::json!(scale * 10.1);
            // An interval that holds the new mean (compare refuses one that does not).
            read["summary"]["ci95_low"] = serde_json::json!(scale * 10.0);
            read["summary"]["ci95_high"] = serde_json::json!(scale * 10.2);
        }
    };
    set_reads(&mut v, 1.0);
    std::fs::write(&a, serde_json::to_string(&v).unwrap()).unwrap();
    set_reads(&mut v, 2.0);
    let b = dir.join("b.json");
    std::fs::write(&b, serde_json::to_string(&v).unwrap()).unwrap();
    let ok = exits(&["compare", a.to_str().unwrap(), b.to_str().unwrap()], 0);
    // One file per side: 2x is within the drift between invocations (up to 3x), so the row
    // says inconclusive and even --fail-above 1.5 does not fail.
    let table = text(&ok.stdout);
    let row = table
        .lines()
        .find(|l| l.starts_with("single-thread") && l.contains(" read_us "))
        .unwrap_or_else(|| panic!("no single-thread row: {table}"));
    assert!(
        row.contains("2.00 (") && row.contains("inconclusive"),
        "{row}"
    );
    let gate = handoff(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--fail-above",
        "1.5",
    ]);
    assert_eq!(gate.status.code(), Some(0), "{}", text(&gate.stdout));
    // 4x from one invocation is beyond any drift: the row itself says slower (the summary
    // line names every verdict, so "slower" somewhere proves nothing), the summary counts
    // exactly one, and the gate fails.
    set_reads(&mut v, 4.0);
    let b4 = dir.join("b4.json");
    std::fs::write(&b4, serde_json::to_string(&v).unwrap()).unwrap();
    let slow = handoff(&["compare", a.to_str().unwrap(), b4.to_str().unwrap()]);
    let table = text(&slow.stdout);
    let row = table
        .lines()
        .find(|l| l.starts_with("single-thread") && l.contains(" read_us "))
        .unwrap_or_else(|| panic!("no single-thread row: {table}"));
    assert!(row.contains("4.00 (") && row.contains("slower"), "{row}");
    assert!(table.contains("summary: 1 slower, 0 faster,"), "{table}");
    let fail = handoff(&[
        "compare",
        a.to_str().unwrap(),
        b4.to_str().unwrap(),
        "--fail-above",
        "1.5",
    ]);
    assert_eq!(fail.status.code(), Some(1), "{}", text(&fail.stdout));
    // Several invocations per side: the CI is over the files (identical copies here, so
    // B/A = 2 exactly, CI [2, 2]) and the gate fails at 1.5.
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let multi = handoff(&["compare", a, a, "--vs", b, b, "--fail-above", "1.5"]);
    assert_eq!(multi.status.code(), Some(1), "{}", text(&multi.stderr));
    assert!(
        text(&multi.stdout).contains("2.00 (2.00–2.00)"),
        "{}",
        text(&multi.stdout)
    );
    // Three files without --vs: which side is which? Bad usage.
    usage_error(&["compare", a, b, a], "--vs");
    exits(&["compare", a], 2);
    // A missing or malformed input file is bad usage: 2, as the README says.
    exits(&["compare", a, "/nonexistent.json"], 2);
    let _ = std::fs::remove_dir_all(dir);
}

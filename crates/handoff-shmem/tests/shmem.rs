//! The C programs of `tests/c/`, compiled with `bin/oshcc` against this build's
//! `libhandoff_shmem.so` and run as teams of 1, 2 and 4 PEs (4 PEs: oversubscribed on a 2-CPU
//! machine) by the launcher `handoff run` uses (`handoff::team::Launch`), each PE's stdout and
//! stderr kept in files. A program checks its own data against closed forms and exits non-zero
//! with a `CHECK FAILED` line when one fails; the misuse cases check the one-line error each
//! misuse must produce and that the team ends.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use handoff::sync::Wait;
use handoff::team::{Launch, PeStatus, TeamReport};

/// The directory holding this build's `libhandoff_shmem.so`: `deps/`, beside the test
/// binary (`cargo test` builds the cdylib there but copies it up only on `cargo build`).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().to_path_buf();
    assert!(
        dir.join("libhandoff_shmem.so").exists(),
        "libhandoff_shmem.so not found in {}",
        dir.display()
    );
    dir
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn work_dir() -> PathBuf {
    let d = lib_dir().parent().unwrap().join("shmem-tests");
    std::fs::create_dir_all(&d).unwrap();
    d
}

static BUILD: Mutex<()> = Mutex::new(());

/// Compiles `tests/c/NAME.c` with `bin/oshcc` (once per test binary run).
fn build(name: &str) -> PathBuf {
    let _g = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let out = work_dir().join(format!("{name}-{}", std::process::id()));
    if out.exists() {
        return out;
    }
    let src = crate_dir().join("tests/c").join(format!("{name}.c"));
    let o = Command::new(crate_dir().join("bin/oshcc"))
        .env("HANDOFF_SHMEM_LIBDIR", lib_dir())
        .args([
            "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-pthread", "-o",
        ])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("run bin/oshcc (needs a C compiler, `cc`)");
    assert!(
        o.status.success(),
        "oshcc {name}.c failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// How a team run ended, with each PE's stdout and stderr.
struct Outcome {
    report: TeamReport,
    out: Vec<String>,
    err: Vec<String>,
}

impl Outcome {
    fn all_err(&self) -> String {
        self.err.join("")
    }
}

static RUNS: AtomicUsize = AtomicUsize::new(0);

/// Runs `prog ARGS` as a team of `n` PEs (a 60 s watchdog ends a hung team).
fn run(prog: &Path, n: usize, args: &[&str], wait: Wait) -> Outcome {
    run_heap(prog, n, args, wait, 16 << 20)
}

/// [`run`] with `heap` bytes of symmetric heap per PE.
fn run_heap(prog: &Path, n: usize, args: &[&str], wait: Wait, heap: usize) -> Outcome {
    let dir = work_dir().join(format!(
        "run-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    // Each PE's output into files: the launcher only inherits or pipes stdout.
    let script = r#"exec "$0" "$@" >"$SHMEM_TEST_OUT/$HANDOFF_RANK.out" 2>"$SHMEM_TEST_OUT/$HANDOFF_RANK.err""#;
    let mut argv = vec![
        "-c".to_string(),
        script.to_string(),
        prog.display().to_string(),
    ];
    argv.extend(args.iter().map(|s| s.to_string()));
    let report = Launch::new(n)
        .program("/bin/sh")
        .args(argv)
        .env("SHMEM_TEST_OUT", &dir)
        // cargo's LD_LIBRARY_PATH (searched before the program's RUNPATH) holds
        // target/debug, where a stale libhandoff_shmem.so from `cargo build` may lie.
        .env("LD_LIBRARY_PATH", lib_dir())
        .heap(heap)
        .wait(wait)
        .timeout(Duration::from_secs(60))
        .run()
        .unwrap_or_else(|e| panic!("team of {n} running {}: {e}", prog.display()));
    let read = |r: usize, ext: &str| {
        std::fs::read_to_string(dir.join(format!("{r}.{ext}"))).unwrap_or_default()
    };
    let out = (0..n).map(|r| read(r, "out")).collect();
    let err = (0..n).map(|r| read(r, "err")).collect();
    let _ = std::fs::remove_dir_all(&dir);
    Outcome { report, out, err }
}

/// Runs a test program on 1, 2 and 4 PEs; every PE must succeed and PE 0 print `OK NAME`.
fn passes(name: &str) {
    let prog = build(name);
    for n in [1, 2, 4] {
        let o = run(&prog, n, &[], Wait::ADAPTIVE);
        assert!(
            o.report.success(),
            "{name} on {n} PEs: {:?}\nstderr:\n{}",
            o.report.exits,
            o.all_err()
        );
        assert!(
            o.out[0].contains(&format!("OK {name} {n} PEs")),
            "{name} on {n} PEs printed {:?}",
            o.out[0]
        );
    }
}

#[test]
fn rma_setup_heap_and_ordering() {
    passes("rma");
}

#[test]
fn atomics() {
    passes("amo");
}

#[test]
fn put_with_signal_data_visible_with_the_signal() {
    passes("signal");
}

#[test]
fn put_with_signal_wakes_blocked_waiters() {
    // Every wait sleeps on the futex at once: only the signal's doorbell ring wakes it.
    let o = run(&build("signal"), 2, &[], Wait::Block);
    assert!(o.report.success(), "{:?}\n{}", o.report.exits, o.all_err());
}

#[test]
fn point_to_point_waits_and_fairness() {
    passes("wait");
}

#[test]
fn collectives() {
    passes("coll");
}

/// The collectives, barriers and puts at 256 PEs (oversubscribed here), blocking waits,
/// verified against closed forms; `passes` also runs them on 1, 2 and 4 PEs.
#[test]
fn collectives_at_256_pes() {
    passes("scale");
    // 2 MiB each: 512 MiB of /dev/shm for the team, not 4 GiB.
    let o = run_heap(&build("scale"), 256, &[], Wait::Block, 2 << 20);
    assert!(o.report.success(), "{:?}\n{}", o.report.exits, o.all_err());
    assert!(o.out[0].contains("OK scale 256 PEs"), "{:?}", o.out[0]);
}

#[test]
fn a_prk_style_pipelined_stencil() {
    passes("p2p");
}

#[test]
fn counting_puts() {
    passes("ct");
}

/// One misuse case: PE `pe` must exit with `code` after printing
/// `handoff-shmem: PE pe: CALL: ...TEXT...`, and the team must end.
fn misuse(case: &str, n: usize, pe: usize, call: &str, text: &str) {
    let o = run(&build("misuse"), n, &[case], Wait::ADAPTIVE);
    assert!(!o.report.success(), "{case}: the team succeeded");
    assert_eq!(
        o.report.exits[pe].status,
        PeStatus::Exited(1),
        "{case}: PE {pe}; stderr:\n{}",
        o.all_err()
    );
    let line = format!("handoff-shmem: PE {pe}: {call}: ");
    let err = &o.err[pe];
    assert!(
        err.lines()
            .any(|l| l.starts_with(&line) && l.contains(text)),
        "{case}: PE {pe}'s stderr lacks {line:?} ... {text:?}:\n{err}"
    );
    assert_eq!(err.lines().count(), 1, "{case}: one line, got:\n{err}");
    assert!(
        o.out.iter().all(|s| !s.contains("not reached")),
        "{case} ran on"
    );
}

#[test]
fn misuse_is_reported_naming_the_call() {
    misuse(
        "static",
        2,
        0,
        "shmem_long_put",
        "not in the symmetric heap",
    );
    misuse("pe", 2, 0, "shmem_long_put", "PE 2 does not exist");
    misuse("cmp", 2, 0, "shmem_long_wait_until", "comparison 99");
    misuse("sigop", 2, 0, "shmem_putmem_signal", "signal operation 7");
    misuse(
        "misaligned",
        2,
        0,
        "shmem_long_atomic_add",
        "not 8-byte aligned",
    );
    misuse("bounds", 2, 0, "shmem_putmem", "not in the symmetric heap");
    misuse(
        "free",
        2,
        0,
        "shmem_free",
        "was not returned by shmem_malloc",
    );
    misuse(
        "activeset",
        2,
        0,
        "shmem_barrier",
        "does not contain this PE (0)",
    );
    misuse(
        "thread",
        2,
        0,
        "shmem_barrier_all",
        "thread other than the one",
    );
    misuse("counter", 2, 0, "shmemx_ct_wait", "counter handle 5");
    misuse("noinit", 2, 0, "shmem_my_pe", "before shmem_init");
    misuse("after", 2, 1, "shmem_barrier_all", "after shmem_finalize");
    misuse(
        "mismatch",
        4,
        0,
        "shmem_malloc",
        "PE 1 called an allocation of 256 bytes",
    );
    misuse(
        "exhaust",
        2,
        1,
        "shmem_malloc",
        "no room for 1099511627776 bytes",
    );
}

#[test]
fn unsupported_calls_are_reported_naming_the_call() {
    misuse("team", 2, 0, "shmem_team_split_strided", "not supported");
    misuse("ctx", 2, 0, "shmem_ctx_create", "not supported");
}

#[test]
fn a_failed_pe_ends_the_team_and_names_itself_to_the_others() {
    let o = run(&build("misuse"), 4, &["pe"], Wait::ADAPTIVE);
    assert_eq!(o.report.first_failure, Some(0), "{:?}", o.report.exits);
    // The others were in a barrier: it fails naming PE 0, or the launcher stopped them.
    for r in 1..4 {
        let st = o.report.exits[r].status;
        assert!(
            st == PeStatus::Stopped || (st == PeStatus::Exited(1) && o.err[r].contains("PE 0")),
            "PE {r}: {st}: {}",
            o.err[r]
        );
    }
}

#[test]
fn global_exit_ends_every_pe_with_its_status() {
    let o = run(&build("misuse"), 2, &["exit"], Wait::ADAPTIVE);
    assert_eq!(
        o.report.exits[0].status,
        PeStatus::Exited(7),
        "{:?}",
        o.report.exits
    );
    assert_ne!(o.report.exits[1].status, PeStatus::Exited(0));
}

#[test]
fn oshcc_adds_the_include_dir_and_links_only_when_linking() {
    let show = |args: &[&str]| {
        let o = Command::new(crate_dir().join("bin/oshcc"))
            .env("HANDOFF_SHMEM_LIBDIR", lib_dir())
            .env("CC", "cc")
            .arg("--showme")
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let inc = format!("-I{}", crate_dir().join("include").display());
    let compile = show(&["-c", "x.c"]);
    assert_eq!(compile.trim(), format!("cc {inc} -c x.c"));
    let link = show(&["-o", "x", "x.c"]);
    let lib = lib_dir().display().to_string();
    assert_eq!(
        link.trim(),
        format!("cc {inc} -o x x.c -L{lib} -Wl,-rpath,{lib} -lhandoff_shmem")
    );
}

#[test]
fn a_program_not_started_by_the_launcher_is_told_how_to_start() {
    let o = Command::new(build("rma"))
        .env_remove(handoff::team::ENV_TEAM)
        .env("LD_LIBRARY_PATH", lib_dir())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("handoff-shmem: shmem_init: ") && err.contains("handoff run -n N"),
        "{err}"
    );
}

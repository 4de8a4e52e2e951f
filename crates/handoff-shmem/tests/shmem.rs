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

/// The whole 1.5 interface, the profiling interface and pshmem.h (issue #41).
mod api;

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

/// Compiles `tests/c/NAME.c` (or `NAME.cpp`) with `bin/oshcc` (once per test binary run).
fn build(name: &str) -> PathBuf {
    let c = format!("{name}.c");
    let file = if crate_dir().join("tests/c").join(&c).exists() {
        c
    } else {
        format!("{name}.cpp")
    };
    build_with(name, &file, "", &[], &[])
}

/// Compiles `tests/c/FILE` with `bin/oshcc` (`bin/oshc++` for C++) and `flags` (and `env`,
/// e.g. `OSHCC_STATIC=1`) into a program named after `name` and `variant` (once per run).
fn build_with(
    name: &str,
    file: &str,
    variant: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> PathBuf {
    let _g = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let out = work_dir().join(format!("{name}{variant}-{}", std::process::id()));
    if out.exists() {
        return out;
    }
    let src = crate_dir().join("tests/c").join(file);
    // FILE.c is C11; anything else is C++, compiled with oshc++ (the default back ends: cc,
    // c++).
    let (std, wrapper) = if file.ends_with(".c") {
        ("-std=c11", "bin/oshcc")
    } else {
        ("-std=c++17", "bin/oshc++")
    };
    let o = Command::new(crate_dir().join(wrapper))
        .env("HANDOFF_SHMEM_LIBDIR", lib_dir())
        .env_remove("HANDOFF_SHMEM_CC")
        .env_remove("HANDOFF_SHMEM_CXX")
        .env("CC", "cc")
        .env("CXX", "c++")
        .envs(env.iter().copied())
        .args([std, "-O1", "-Wall", "-Wextra", "-Werror", "-pthread"])
        .args(flags)
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .output()
        .unwrap_or_else(|e| panic!("run {wrapper} (needs cc and c++): {e}"));
    assert!(
        o.status.success(),
        "{wrapper} {file} {flags:?} failed:\n{}",
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
    run_env(prog, n, args, wait, &[])
}

/// [`run`] with `env` added to every PE's environment.
fn run_env(prog: &Path, n: usize, args: &[&str], wait: Wait, env: &[(&str, &str)]) -> Outcome {
    run_heap_env(prog, n, args, wait, 16 << 20, env)
}

/// [`run`] with `heap` bytes of symmetric heap per PE.
fn run_heap(prog: &Path, n: usize, args: &[&str], wait: Wait, heap: usize) -> Outcome {
    run_heap_env(prog, n, args, wait, heap, &[])
}

/// [`run`] with `heap` bytes of symmetric heap per PE and `env` added to every PE's
/// environment.
fn run_heap_env(
    prog: &Path,
    n: usize,
    args: &[&str],
    wait: Wait,
    heap: usize,
    env: &[(&str, &str)],
) -> Outcome {
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
    let mut launch = Launch::new(n);
    for (k, v) in env {
        launch = launch.env(k, v);
    }
    let report = launch
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
    passes_prog(name, &build(name));
}

/// [`passes`] for a program built by [`build_with`].
fn passes_prog(name: &str, prog: &Path) {
    for n in [1, 2, 4] {
        let o = run(prog, n, &[], Wait::ADAPTIVE);
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
fn static_and_global_variables_are_symmetric_pie() {
    passes("symdata");
}

#[test]
fn static_and_global_variables_are_symmetric_non_pie() {
    passes_prog(
        "symdata",
        &build_with("symdata", "symdata.c", "-nopie", &["-no-pie"], &[]),
    );
}

#[test]
fn static_and_global_variables_are_symmetric_with_the_static_library() {
    let prog = build_with(
        "symdata",
        "symdata.c",
        "-static",
        &[],
        &[("OSHCC_STATIC", "1")],
    );
    passes_prog("symdata", &prog);
    let prog = build_with(
        "symdata",
        "symdata.c",
        "-static-nopie",
        &["-no-pie"],
        &[("OSHCC_STATIC", "1")],
    );
    passes_prog("symdata", &prog);
}

#[test]
fn cxx_globals_static_members_and_constructed_objects_are_symmetric() {
    let prog = build_with("symdata_cxx", "symdata_cxx.cpp", "", &[], &[("CC", "c++")]);
    passes_prog("symdata_cxx", &prog);
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

/// Every collective algorithm (one-message and barrier paths, small and large sizes, every
/// reduction type and operator, in place too) on the world, a strided team and the world
/// reversed, at 1 PE, 3 and 4 (the one-message paths) and 9 (more than `FLAT_MAX`: barriers).
#[test]
fn collective_algorithms_at_every_size_and_team_shape() {
    let prog = build("coll_algos");
    for n in [1, 3, 4, 9] {
        // 9 PEs: only some types (each collective is a few barriers among 9 PEs on the CPUs).
        let args: &[&str] = if n > 4 { &["few"] } else { &[] };
        let o = run_heap(&prog, n, args, Wait::ADAPTIVE, 32 << 20);
        assert!(
            o.report.success(),
            "coll_algos on {n} PEs: {:?}\nstderr:\n{}",
            o.report.exits,
            o.all_err()
        );
        assert!(
            o.out[0].contains(&format!("OK coll_algos {n} PEs")),
            "{:?}",
            o.out[0]
        );
    }
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
        "local",
        2,
        0,
        "shmem_long_put",
        "not in the symmetric heap nor in the program's static data",
    );
    misuse("shlib", 2, 0, "shmem_long_put", "is in shared library /");
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
}

#[test]
fn invalid_teams_and_contexts_are_reported_naming_the_call() {
    misuse("team", 2, 0, "shmem_team_sync", "SHMEM_TEAM_INVALID");
    misuse("ctx", 2, 0, "shmem_ctx_*", "SHMEM_CTX_INVALID");
    misuse("ctxpe", 2, 0, "shmem_ctx_*", "PE 1");
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
    let o = run(&build("misuse"), 4, &["exit"], Wait::ADAPTIVE);
    assert_eq!(
        o.report.exits[0].status,
        PeStatus::Exited(7),
        "{:?}",
        o.report.exits
    );
    // The launcher knows it was a global exit (`handoff run` exits with its status).
    assert_eq!(o.report.global_exit, Some((0, 7)), "{:?}", o.report);
    assert_eq!(o.report.first_failure, Some(0));
    for r in 1..4 {
        assert_ne!(o.report.exits[r].status, PeStatus::Exited(0));
        assert!(
            o.err[r].is_empty(),
            "PE {r} printed after the global exit:\n{}",
            o.err[r]
        );
    }
}

#[test]
fn shmem_version_info_and_debug_print_at_init() {
    let prog = build("rma");
    let o = run_env(&prog, 2, &[], Wait::ADAPTIVE, &[("SHMEM_VERSION", "1")]);
    assert!(o.report.success(), "{}", o.all_err());
    assert!(
        o.err[0].starts_with("handoff OpenSHMEM 1.5 (handoff-shmem "),
        "{}",
        o.err[0]
    );
    assert!(
        o.err[1].is_empty(),
        "only PE 0 prints the version: {}",
        o.err[1]
    );
    let o = run_env(&prog, 2, &[], Wait::ADAPTIVE, &[("SHMEM_INFO", "1")]);
    assert!(o.report.success(), "{}", o.all_err());
    assert!(
        o.err[0].contains("symmetric heap 16777216 bytes per PE")
            && o.err[0].contains("SHMEM_SYMMETRIC_SIZE")
            && o.err[0].contains("SHMEM_DEBUG"),
        "{}",
        o.err[0]
    );
    let o = run_env(&prog, 2, &[], Wait::ADAPTIVE, &[("SHMEM_DEBUG", "1")]);
    assert!(o.report.success(), "{}", o.all_err());
    for r in 0..2 {
        assert!(
            o.err[r].contains(&format!("handoff-shmem: PE {r}: debug: heap "))
                && o.err[r].contains("static data 0x"),
            "{}",
            o.err[r]
        );
    }
    let o = run_env(&prog, 2, &[], Wait::ADAPTIVE, &[("SHMEM_DEBUG", "0")]);
    assert!(o.err.iter().all(|e| e.is_empty()), "{}", o.all_err());
}

#[test]
fn shmem_symmetric_size_above_the_teams_heap_is_an_error() {
    let prog = build("rma");
    let o = run_env(
        &prog,
        2,
        &[],
        Wait::ADAPTIVE,
        &[("SHMEM_SYMMETRIC_SIZE", "1G")],
    );
    assert!(!o.report.success());
    assert!(
        o.err[0].contains("shmem_init: SHMEM_SYMMETRIC_SIZE asks for 1073741824 bytes"),
        "{}",
        o.all_err()
    );
    let o = run_env(
        &prog,
        2,
        &[],
        Wait::ADAPTIVE,
        &[("SHMEM_SYMMETRIC_SIZE", "8M")],
    );
    assert!(o.report.success(), "{}", o.all_err());
    let o = run_env(
        &prog,
        1,
        &[],
        Wait::ADAPTIVE,
        &[("SHMEM_SYMMETRIC_SIZE", "lots")],
    );
    assert!(
        o.err[0].contains("SHMEM_SYMMETRIC_SIZE=\"lots\""),
        "{}",
        o.err[0]
    );
}

#[test]
fn an_error_line_is_written_in_one_write_call() {
    // strace shows each write(2): lines that several PEs write at once interleave only if
    // one is split into several writes.
    let Some(strace) = Command::new("sh")
        .args(["-c", "command -v strace"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    else {
        eprintln!("SKIP: an_error_line_is_written_in_one_write_call: strace is not installed");
        return;
    };
    let dir = work_dir().join(format!("strace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("trace");
    let prog = build("misuse");
    let args = [
        "-f",
        "-ff",
        "-e",
        "trace=write",
        "-s",
        "4096",
        "-o",
        trace.to_str().unwrap(),
        prog.to_str().unwrap(),
        "pe",
    ];
    let o = run(Path::new(&strace), 2, &args, Wait::ADAPTIVE);
    assert!(!o.report.success());
    let mut lines = Vec::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        lines.extend(
            text.lines()
                .filter(|l| l.starts_with("write(2,"))
                .map(str::to_string),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    let ours: Vec<_> = lines
        .iter()
        .filter(|l| l.contains("handoff-shmem"))
        .collect();
    assert!(
        ours.iter()
            .any(|l| l.contains("handoff-shmem: PE 0: shmem_long_put: PE 2 does not exist")),
        "no error line of PE 0 among the writes to stderr: {lines:#?}"
    );
    for l in &ours {
        assert!(
            l.starts_with("write(2, \"handoff-shmem: ") && l.contains("\\n\", "),
            "an error line split over several writes: {lines:#?}"
        );
    }
}

#[test]
fn a_program_not_started_by_the_launcher_is_told_how_to_start() {
    let o = Command::new(build("rma"))
        .env_remove(handoff::implementor::ENV_TEAM)
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

#[test]
fn created_teams_and_their_collectives() {
    passes("teams");
}

#[test]
fn contexts_and_the_rest_of_the_1_5_api() {
    passes("ctx");
}

#[test]
fn thread_multiple_four_threads_per_pe() {
    passes("threads");
}

#[test]
fn cxx_overloads_of_the_generic_names() {
    passes("cxx");
}

/// #40 items 1 and 9: PE 0 calls shmem_finalize while the others still need it: they call
/// one barrier more (PE 0's final barrier meets it, PE 0 exits 0, their finalize then waits
/// for PE 0), or wait for a signal after it. Before, they waited forever and printed nothing
/// (the 60 s watchdog of `run` ended it here). Now every PE that waited fails with one line
/// naming PE 0 as having finalized, PE 0 exits 0, and the report's last word names PE 0 as
/// the cause, as it does for a PE 0 that returns without finalize (exit 0) while the others
/// wait (before, the launcher's line named a PE that failed because of it).
#[test]
fn a_pe_that_finalizes_while_others_still_need_it_is_named() {
    let prog = build("finalize");
    let finalized = "called shmem_finalize (Team::finalize) while other PEs still needed it";
    let left = "left the team without finalize";
    for (case, n, wait, how) in [
        ("early", 2, Wait::ADAPTIVE, finalized),
        ("early", 3, Wait::Block, finalized),
        ("signal", 2, Wait::ADAPTIVE, finalized),
        ("signal", 3, Wait::ADAPTIVE, finalized),
        ("leave", 3, Wait::ADAPTIVE, left),
    ] {
        let o = run(&prog, n, &[case], wait);
        let what = format!("{case} on {n} PEs: {:?}\n{}", o.report, o.all_err());
        assert_eq!(o.report.exits[0].status, PeStatus::Exited(0), "{what}");
        assert!(!o.report.success(), "{what}");
        assert_eq!(
            o.report.left_early,
            Some(handoff::team::LeftEarly {
                rank: 0,
                finalized: how == finalized
            }),
            "{what}"
        );
        let cause = o.report.clone().into_result().unwrap_err().to_string();
        let said = if how == finalized {
            "called shmem_finalize"
        } else {
            "left the team without shmem_finalize"
        };
        assert!(
            cause.starts_with("PE 0 (pid ") && cause.contains(said),
            "the cause is PE 0: {cause}"
        );
        let mut named = 0;
        for r in 1..n {
            match o.report.exits[r].status {
                PeStatus::Exited(1) => {
                    let line = o.err[r].lines().next().unwrap_or("");
                    assert!(
                        line.starts_with(&format!("handoff-shmem: PE {r}: shmem_"))
                            && line.contains("PE 0 (pid ")
                            && line.contains(how),
                        "PE {r} names PE 0: {what}"
                    );
                    named += 1;
                }
                PeStatus::Stopped => {}
                st => panic!("PE {r} {st}: {what}"),
            }
        }
        assert!(named >= 1, "no PE named PE 0: {what}");
    }
}

/// #40 item 1: no false error where a PE finalized: PEs finalizing together (here 1 to 8
/// PEs, 8 on 2 CPUs, sleeping waits) and PEs that compute alone after the finalize while
/// PE 0 has exited all succeed.
#[test]
fn pes_that_finalize_together_or_compute_after_it_succeed() {
    let prog = build("finalize");
    for n in [1, 2, 3, 8] {
        for wait in [Wait::ADAPTIVE, Wait::Block] {
            let o = run(&prog, n, &["local"], wait);
            assert!(
                o.report.success(),
                "{n} PEs, {wait}: {:?}\n{}",
                o.report.exits,
                o.all_err()
            );
            for r in 1..n {
                assert_eq!(o.out[r], format!("OK finalize {n} PEs\n"), "PE {r}");
            }
        }
    }
}

/// #40 item 9: shmem_finalize before shmem_init is an error (OpenSHMEM 1.5, "Execution
/// Model": shmem_init comes before any other routine), not silently accepted.
#[test]
fn shmem_finalize_before_shmem_init_is_an_error() {
    let o = run(&build("finalize"), 2, &["noinit"], Wait::ADAPTIVE);
    for r in 0..2 {
        assert_eq!(
            o.report.exits[r].status,
            PeStatus::Exited(1),
            "{}",
            o.all_err()
        );
        assert_eq!(
            o.err[r],
            format!(
                "handoff-shmem: PE {r}: shmem_finalize: called before shmem_init; call \
                 shmem_init (or shmem_init_thread) first\n"
            )
        );
        assert!(!o.out[r].contains("not reached"), "{}", o.out[r]);
    }
}

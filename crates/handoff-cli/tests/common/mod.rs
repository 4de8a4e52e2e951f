//! What the CLI test binaries share: the binary, one-at-a-time measuring, a watchdogged run,
//! and the checks most tests make of a run: refused as bad usage (exit 2), failed
//! verification (exit 3), JSON results whose records are verified.
#![allow(dead_code)] // each test binary uses part of it

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_handoff");

/// Measuring tests run one at a time: they pin to the same CPUs.
pub static SERIAL: Mutex<()> = Mutex::new(());

pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

pub fn handoff(args: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    run_cmd(&mut cmd)
}

/// Runs `cmd` with its output captured and a 120 s watchdog (no test may hang).
pub fn run_cmd(cmd: &mut Command) -> Output {
    run_cmd_pid(cmd).0
}

/// [`run_cmd`], and the pid the command ran as (its segments and team carry it).
pub fn run_cmd_pid(cmd: &mut Command) -> (Output, u32) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start handoff");
    // Watchdog: no test may hang.
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let dog = std::thread::spawn(move || {
        if rx.recv_timeout(Duration::from_secs(120)).is_err() {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            // And its process group, when it leads one (an mpiexec job started with
            // `process_group(0)`), so no rank keeps the pipes open.
            let _ = Command::new("kill")
                .args(["-9", "--", &format!("-{pid}")])
                .stderr(Stdio::null())
                .status();
        }
    });
    let mut out = String::new();
    let mut err = String::new();
    use std::io::Read;
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t = std::thread::spawn(move || {
        let mut e = String::new();
        let _ = se.read_to_string(&mut e);
        e
    });
    let _ = so.read_to_string(&mut out);
    err.push_str(&t.join().unwrap());
    let status = child.wait().unwrap();
    let _ = tx.send(());
    dog.join().unwrap();
    let out = Output {
        status,
        stdout: out.into_bytes(),
        stderr: err.into_bytes(),
    };
    (out, pid)
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn cpus() -> usize {
    handoff::sys::allowed_cpus().unwrap().len()
}

pub fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("handoff-cli-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Our segments carry the creator pid: none of `pid`'s may be left in /dev/shm.
pub fn segments_of(pid: u32) -> Vec<String> {
    let prefix = format!("handoff-{pid}-");
    std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(&prefix) || n.starts_with(&format!("sem.{prefix}")))
                .collect()
        })
        .unwrap_or_default()
}

/// Sends `signal` (a name: `INT`, `TERM`, `KILL`...) to `pid`.
pub fn signal(pid: u32, signal: &str) {
    let _ = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status();
}

/// Starts `handoff ARGS` in the background (stdout dropped, stderr piped), for tests that
/// signal or kill it mid-run; [`wait_child`] reaps it.
#[allow(clippy::zombie_processes)] // wait_child reaps it
pub fn spawn(args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start handoff")
}

/// Waits up to `secs` for `child` to exit (a hang guard, not a timing assertion: it is
/// killed and the test fails after that); its exit code and stderr.
pub fn wait_child(mut child: Child, secs: u64, what: &str) -> (Option<i32>, String) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return (st.code(), err);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: handoff did not exit within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The arguments of a command line written as one string, split at spaces (no argument of
/// these tests holds one).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// [`words`] of `line`, then `path` (a file argument, which may hold a space).
pub fn words_and_path<'a>(line: &'a str, path: &'a Path) -> Vec<&'a str> {
    let mut w = words(line);
    w.push(path.to_str().unwrap());
    w
}

/// Runs `handoff ARGS`: it must exit with `code`.
pub fn exits(args: &[&str], code: i32) -> Output {
    let out = handoff(args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        text(&out.stderr)
    );
    out
}

/// `handoff ARGS` is refused as bad usage before anything runs: exit 2, `needle` on stderr,
/// no panic, nothing on stdout. Its stderr.
pub fn usage_error(args: &[&str], needle: &str) -> String {
    let out = exits(args, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains(needle),
        "{args:?}: {err:?} should mention {needle}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {:?}",
        text(&out.stdout)
    );
    err
}

/// [`usage_error`] for every row of `cases`: `prefix` then the row's arguments (command lines
/// as [`words`] splits them), and the text its error must contain.
pub fn usage_errors(prefix: &str, cases: &[(&str, &str)]) {
    for (args, needle) in cases {
        usage_error(&words(&format!("{prefix} {args}")), needle);
    }
}

/// [`usage_error`] in one short line (at most 600 bytes: bad input is quoted short).
pub fn usage_line(args: &[&str], needle: &str) -> String {
    let err = usage_error(args, needle);
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert!(err.len() < 600, "{args:?}: a {}-byte error", err.len());
    err
}

/// `handoff ARGS` ran and its data check failed: exit 3, `FAILED verification` on stderr.
/// Its stdout (the table, whose notes say what was wrong).
pub fn fails_verification(args: &[&str]) -> String {
    let out = exits(args, 3);
    let err = text(&out.stderr);
    assert!(err.contains("FAILED verification"), "{args:?}: {err}");
    text(&out.stdout)
}

/// Runs `handoff ARGS`, which must succeed and print one JSON document: that document.
pub fn json_out(args: &[&str]) -> Value {
    let out = handoff(args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON ({e}): {}", text(&out.stdout)))
}

/// A JSON file, parsed.
pub fn read_json(path: &Path) -> Value {
    let body = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

pub fn records(v: &Value) -> &Vec<Value> {
    v["records"].as_array().unwrap()
}

/// Every record verified, with `runs` run means of each metric in `metrics`, each above 0.
pub fn check_records(v: &Value, runs: usize, metrics: &[&str]) {
    for r in records(v) {
        assert_eq!(r["verified"], true, "{r}");
        for m in metrics {
            let means = r["metrics"][m]["run_means"]
                .as_array()
                .unwrap_or_else(|| panic!("{m} in {r}"));
            assert_eq!(means.len(), runs, "{m}: {r}");
            assert!(means.iter().all(|x| x.as_f64().unwrap() > 0.0), "{m}: {r}");
        }
    }
}

//! `handoff run`: bad input and failing PEs give one clear line, a distinct exit code, and
//! leave nothing in /dev/shm. The PEs here are shell one-liners (they need not join a team
//! to test the launcher); `crates/handoff/tests/team.rs` tests PEs that join.

use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_handoff");

struct Ran {
    code: Option<i32>,
    stderr: String,
    stdout: String,
    pid: u32,
}

/// Runs `handoff ARGS` under a 60 s watchdog.
fn handoff(args: &[&str]) -> Ran {
    let child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start handoff");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let dog = std::thread::spawn(move || {
        if rx.recv_timeout(Duration::from_secs(60)).is_err() {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
    });
    let out = child.wait_with_output().unwrap();
    let _ = tx.send(());
    dog.join().unwrap();
    Ran {
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        pid,
    }
}

/// The launcher's team segments still in /dev/shm (it names them `handoff-<pid>-team<k>`).
fn leftovers(pid: u32) -> Vec<String> {
    let prefix = format!("handoff-{pid}-team");
    std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(&prefix))
                .collect()
        })
        .unwrap_or_default()
}

/// One line on stderr, starting `handoff: run:` and containing every `needle`.
fn one_line(r: &Ran, needles: &[&str]) {
    let lines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("handoff:"))
        .collect();
    assert_eq!(lines.len(), 1, "stderr: {}", r.stderr);
    for n in needles {
        assert!(lines[0].contains(n), "{:?} lacks {n:?}", lines[0]);
    }
    assert!(
        leftovers(r.pid).is_empty(),
        "segment left: {:?}",
        leftovers(r.pid)
    );
}

#[test]
fn all_pes_succeed() {
    let r = handoff(&[
        "run",
        "-n",
        "3",
        "--",
        "sh",
        "-c",
        "echo rank=$HANDOFF_RANK size=$HANDOFF_SIZE",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let mut ranks: Vec<&str> = r.stdout.lines().collect();
    ranks.sort();
    assert_eq!(ranks, ["rank=0 size=3", "rank=1 size=3", "rank=2 size=3"]);
    assert!(leftovers(r.pid).is_empty());
}

#[test]
fn zero_pes_is_usage() {
    let r = handoff(&["run", "-n", "0", "--", "true"]);
    assert_eq!(r.code, Some(2));
    one_line(&r, &["0 PEs", "1 to 1048576"]);
}

#[test]
fn too_many_pes_says_the_limit_and_why() {
    let r = handoff(&["run", "-n", "1048577", "--", "true"]);
    assert_eq!(r.code, Some(2));
    one_line(&r, &["1048577 PEs", "1 to 1048576"]);
    // Below that bound, memory is the limit, and the error says how much is needed.
    let r = handoff(&["run", "-n", "100000", "--heap", "1G", "--", "true"]);
    assert_ne!(r.code, Some(0));
    one_line(&r, &["bytes of shared memory", "/dev/shm"]);
}

#[test]
fn missing_program_is_127() {
    let r = handoff(&[
        "run",
        "-n",
        "2",
        "--",
        "/nonexistent/handoff-no-such-program",
    ]);
    assert_eq!(r.code, Some(127));
    one_line(&r, &["no program", "handoff-no-such-program"]);
}

#[test]
fn a_core_that_does_not_exist_is_usage() {
    let r = handoff(&["run", "-n", "2", "--cores", "0,4095", "--", "true"]);
    assert_eq!(r.code, Some(2));
    one_line(&r, &["CPU 4095", "PE 1"]);
    let r = handoff(&["run", "-n", "2", "--map", "diagonal", "--", "true"]);
    assert_eq!(r.code, Some(2));
    one_line(&r, &["diagonal", "compact or spread"]);
    let r = handoff(&["run", "-n", "2", "--wait", "nap", "--", "true"]);
    assert_eq!(r.code, Some(2));
    one_line(&r, &["nap"]);
    let r = handoff(&["run", "-n", "2", "--heap", "1T", "--", "true"]);
    assert_eq!(r.code, Some(2));
    one_line(&r, &["1T"]);
}

#[test]
fn a_pe_exiting_early_with_a_code_ends_the_team() {
    // PE 1 fails at once; the others would sleep 30 s: the launcher must end them.
    let script = "if [ \"$HANDOFF_RANK\" = 1 ]; then exit 3; fi; exec sleep 30";
    let r = handoff(&["run", "-n", "3", "--", "sh", "-c", script]);
    assert_eq!(r.code, Some(4), "{}", r.stderr);
    one_line(&r, &["PE 1", "exited with code 3", "team was ended"]);
}

#[test]
fn a_pe_killed_by_a_signal_ends_the_team() {
    let script = "if [ \"$HANDOFF_RANK\" = 0 ]; then kill -9 $$; fi; exec sleep 30";
    let r = handoff(&["run", "-n", "2", "--", "sh", "-c", script]);
    assert_eq!(r.code, Some(5), "{}", r.stderr);
    one_line(&r, &["PE 0", "signal 9 (SIGKILL)"]);
}

#[test]
fn pinned_pes_get_their_cpu() {
    let allowed = handoff::sys::affinity::allowed_cpus().unwrap();
    let r = handoff(&[
        "run",
        "-n",
        "2",
        "--map",
        "compact",
        "--",
        "sh",
        "-c",
        "echo $HANDOFF_RANK:$HANDOFF_CPU",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let mut got: Vec<&str> = r.stdout.lines().collect();
    got.sort();
    let want = [
        format!("0:{}", allowed[0]),
        format!("1:{}", allowed[1 % allowed.len()]),
    ];
    assert_eq!(got, want);
}

#[test]
fn a_bad_heap_size_in_the_environment_is_usage() {
    let out = Command::new(BIN)
        .args(["run", "-n", "1", "--", "true"])
        .env("HANDOFF_HEAP_SIZE", "lots")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("HANDOFF_HEAP_SIZE=\"lots\""), "{err}");
}

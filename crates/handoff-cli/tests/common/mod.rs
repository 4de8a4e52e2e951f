//! What the CLI test binaries share: the binary, one-at-a-time measuring, a watchdogged run.
#![allow(dead_code)] // each test binary uses part of it

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::Duration;

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
    Output {
        status,
        stdout: out.into_bytes(),
        stderr: err.into_bytes(),
    }
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

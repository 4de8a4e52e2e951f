//! Error lines are written whole, each in one `write(2)`: a team's PEs and their launcher
//! share one stderr, and a line split over several writes can interleave mid-line with
//! another process's. The team here is `handoff run -n 3` of PEs that are themselves a
//! failing `handoff` command, so every PE and the launcher print an error line at about the
//! same time.

mod common;

use common::{run_cmd, text, BIN};
use std::process::Command;

const PES: usize = 3;

/// `cmd` (`handoff`, or strace's command line ending in `handoff`) with the arguments
/// `run -n PES -- handoff run -n 0 -- true`: each PE fails with a usage line, then the
/// launcher with its own line.
fn team_of_failing_pes(mut cmd: Command) -> Command {
    cmd.args([
        "run",
        "-n",
        &PES.to_string(),
        "--",
        BIN,
        "run",
        "-n",
        "0",
        "--",
        "true",
    ]);
    cmd
}

/// Runs `cmd` under the watchdog; its stderr.
fn run(mut cmd: Command) -> String {
    text(&run_cmd(&mut cmd).stderr)
}

fn strace() -> Option<String> {
    Command::new("sh")
        .args(["-c", "command -v strace"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

#[test]
fn every_error_line_of_the_pes_and_the_launcher_is_one_write() {
    let Some(strace) = strace() else {
        // Without strace: the lines must at least arrive whole through one shared pipe.
        for _ in 0..20 {
            let err = run(team_of_failing_pes(Command::new(BIN)));
            whole_lines(&err);
        }
        eprintln!(
            "SKIP: every_error_line_of_the_pes_and_the_launcher_is_one_write: strace is not \
             installed (checked whole lines through a pipe only)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("handoff-error-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("trace");
    let mut cmd = Command::new(strace);
    cmd.args(["-f", "-e", "trace=write", "-s", "4096", "-o"])
        .arg(&trace)
        .arg(BIN);
    let err = run(team_of_failing_pes(cmd));
    let text = std::fs::read_to_string(&trace).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    whole_lines(&err);
    // Every write to fd 2 that starts a "handoff: " line must end it ("\n" inside the call).
    let ours: Vec<&str> = text.lines().filter(|l| l.contains("write(2, ")).collect();
    let starts = ours
        .iter()
        .filter(|l| l.contains("write(2, \"handoff: "))
        .count();
    assert!(
        starts > PES,
        "expected an error line of each of the {PES} PEs and of the launcher: {ours:#?}\n{err}"
    );
    for l in &ours {
        assert!(
            l.contains("write(2, \"handoff: ") && l.contains("\\n\", "),
            "a line written in pieces (a write that is not one whole `handoff: ...\\n` \
             line): {l}\nall writes to stderr: {ours:#?}"
        );
    }
}

/// Every line of `stderr` is one whole error line: starts with `handoff: run:` and is
/// either a PE's usage error or the launcher's report.
fn whole_lines(stderr: &str) {
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), PES + 1, "{stderr}");
    for l in lines {
        assert!(
            l.starts_with("handoff: run: "),
            "a broken line {l:?} in:\n{stderr}"
        );
        assert_eq!(
            l.matches("handoff: ").count(),
            1,
            "two lines run together: {stderr}"
        );
    }
}

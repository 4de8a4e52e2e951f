//! `handoff run`: bad input and failing PEs give one clear line, a distinct exit code, and
//! leave nothing in /dev/shm. The PEs here are shell one-liners (they need not join a team
//! to test the launcher); `crates/handoff/tests/team.rs` tests PEs that join.

mod common;

use common::{run_cmd_pid, signal, text, words, BIN};
use std::process::{Command, Stdio};
use std::time::Duration;

struct Ran {
    code: Option<i32>,
    stderr: String,
    stdout: String,
    pid: u32,
}

/// Runs `handoff ARGS` under the watchdog.
fn handoff(args: &[&str]) -> Ran {
    let (out, pid) = run_cmd_pid(Command::new(BIN).args(args));
    Ran {
        code: out.status.code(),
        stderr: text(&out.stderr),
        stdout: text(&out.stdout),
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

/// Bad flags: exit 2 and one line naming what is wrong and what would do. The team size
/// says its limits (too many PEs: the limit and why).
#[test]
fn bad_flags_are_usage() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["-n", "0"], &["0 PEs", "1 to 1048576"]),
        (&["-n", "1048577"], &["1048577 PEs", "1 to 1048576"]),
        (&["-n", "2", "--cores", "0,4095"], &["CPU 4095", "PE 1"]),
        (
            &["-n", "2", "--map", "diagonal"],
            &["diagonal", "compact, spread or none"],
        ),
        (&["-n", "2", "--wait", "nap"], &["nap"]),
        (&["-n", "2", "--heap", "1T"], &["1T"]),
    ];
    for (flags, needles) in cases {
        let mut args = vec!["run"];
        args.extend_from_slice(flags);
        args.extend(["--", "true"]);
        let r = handoff(&args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        one_line(&r, needles);
    }
}

#[test]
fn too_many_pes_for_the_memory_says_how_much_is_needed() {
    // Below the bound on PEs, memory is the limit, and the error says how much is needed.
    let r = handoff(&["run", "-n", "100000", "--heap", "1G", "--", "true"]);
    assert_ne!(r.code, Some(0));
    one_line(&r, &["bytes of shared memory", "/dev/shm"]);
}

#[test]
fn missing_program_is_127() {
    let r = handoff(&words("run -n 2 -- /nonexistent/handoff-no-such-program"));
    assert_eq!(r.code, Some(127));
    one_line(&r, &["no program", "handoff-no-such-program"]);
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

/// `rank:cpu` lines of `handoff run -n 4 --map MAP`, sorted by rank.
fn cpus_by_map(map: &str) -> Vec<String> {
    let r = handoff(&[
        "run",
        "-n",
        "4",
        "--map",
        map,
        "--",
        "sh",
        "-c",
        "echo $HANDOFF_RANK:$HANDOFF_CPU",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let mut got: Vec<String> = r.stdout.lines().map(str::to_string).collect();
    got.sort();
    got
}

/// `--map` places PEs by the probe's placement classes. On 2 CPUs (this machine), 4 PEs
/// oversubscribe: compact keeps consecutive ranks together, spread deals them round-robin.
/// On a larger machine the launcher's CPUs are the probe's map of the live topology.
#[test]
fn pinned_pes_get_their_cpu() {
    use handoff_probe::topology::maps::{pe_cpus, Map};
    use handoff_probe::topology::Topology;
    let allowed = handoff::sys::allowed_cpus().unwrap();
    let lines = |cpus: &[usize]| -> Vec<String> {
        cpus.iter()
            .enumerate()
            .map(|(r, c)| format!("{r}:{c}"))
            .collect()
    };
    let (a, b) = (allowed[0], allowed[1 % allowed.len()]);
    let (compact, spread) = if allowed.len() == 2 {
        (vec![a, a, b, b], vec![a, b, a, b])
    } else {
        let topo = Topology::detect().ok();
        (
            pe_cpus(topo.as_ref(), &allowed, Map::Compact, 4),
            pe_cpus(topo.as_ref(), &allowed, Map::Spread, 4),
        )
    };
    assert_eq!(cpus_by_map("compact"), lines(&compact));
    assert_eq!(cpus_by_map("spread"), lines(&spread));
}

/// By default each PE gets a CPU of its own that no other launcher holds, while one holds
/// CPUs: a launcher of one PE that keeps its CPU (it sleeps) and a second one started
/// meanwhile never share a CPU. `--map none` leaves PEs unpinned. (Other tests of this
/// binary run launchers too, so a default launcher may find no CPU free and run unpinned:
/// only "never the same CPU" is certain, and `none` never pins.)
#[test]
fn default_pins_to_cpus_no_other_launcher_holds_and_none_does_not_pin() {
    let r = handoff(&[
        "run",
        "-n",
        "1",
        "--map",
        "none",
        "--",
        "sh",
        "-c",
        "echo :$HANDOFF_CPU:",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.trim(), "::", "--map none pins nothing");

    let first = Command::new(BIN)
        .args([
            "run",
            "-n",
            "1",
            "--",
            "sh",
            "-c",
            "echo $HANDOFF_CPU; sleep 2",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let second = handoff(&["run", "-n", "1", "--", "sh", "-c", "echo $HANDOFF_CPU"]);
    let first = first.wait_with_output().unwrap();
    assert!(
        first.status.success() && second.code == Some(0),
        "{}",
        second.stderr
    );
    let (a, b) = (text(&first.stdout), second.stdout.clone());
    let (a, b) = (a.trim(), b.trim());
    assert!(
        a.is_empty() || a != b,
        "two launchers at once pinned to CPU {a}"
    );
}

#[test]
fn a_bad_heap_size_in_the_environment_is_usage() {
    let out = common::run_cmd(
        Command::new(BIN)
            .args(["run", "-n", "1", "--", "true"])
            .env("HANDOFF_HEAP_SIZE", "lots"),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("HANDOFF_HEAP_SIZE=\"lots\""), "{err}");
}

/// Processes `sleep TOKEN` (the PEs' children in the tests below).
fn processes_with(token: &str) -> Vec<u32> {
    let cmdline = format!("sleep\0{token}\0");
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == cmdline.as_bytes())
        })
        .collect()
}

/// Fails if a `sleep TOKEN` is still running (after killing it, so a failing run leaves
/// no orphan behind).
fn assert_no_orphans(token: &str, what: &str) {
    if eventually(|| processes_with(token).is_empty()) {
        return;
    }
    let left = processes_with(token);
    for p in &left {
        signal(*p, "9");
    }
    panic!("{what}: orphans left: {left:?}");
}

/// Polls `done` every 10 ms for up to 10 s (a hang guard, not a timing assert).
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    for _ in 0..1000 {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    done()
}

/// `handoff run -n 3` of PEs that each start a child (`sleep TOKEN`), signalled by pid.
fn signal_the_launcher(sig: &str, token: &str) -> (Option<i32>, String, u32) {
    let script = format!("sleep {token} >/dev/null 2>&1 & wait");
    // A file, not a pipe: PEs that outlive the launcher (the bug) would hold a pipe open.
    let err_path = std::env::temp_dir().join(format!("handoff-run-{token}.err"));
    let err_file = std::fs::File::create(&err_path).unwrap();
    let mut child = Command::new(BIN)
        .args(["run", "-n", "3", "--", "sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err_file)
        .spawn()
        .expect("start handoff");
    let pid = child.id();
    assert!(
        eventually(|| processes_with(token).len() == 3),
        "the PEs' children did not start"
    );
    signal(pid, sig);
    let mut status = None;
    if !eventually(|| {
        status = child.try_wait().unwrap();
        status.is_some()
    }) {
        let _ = child.kill();
        assert_no_orphans(token, "after killing the launcher");
        panic!("the launcher ignored SIG{sig} sent to its pid");
    }
    let err = std::fs::read_to_string(&err_path).unwrap_or_default();
    let _ = std::fs::remove_file(&err_path);
    (status.unwrap().code(), err, pid)
}

/// #24 item 1: INT, TERM and HUP sent to the launcher's pid (as batch schedulers do) are
/// forwarded to the team, which ends with 128 + the signal; no PE, no PE child and no
/// segment remain.
#[test]
fn signals_to_the_launchers_pid_end_the_team() {
    for (signal, code) in [("TERM", 143), ("INT", 130), ("HUP", 129)] {
        let token = format!("{}.{code}1", 900 + std::process::id() % 97);
        let (got, err, pid) = signal_the_launcher(signal, &token);
        assert_eq!(got, Some(code), "SIG{signal}: {err}");
        assert!(err.contains("interrupted by signal"), "{err}");
        assert_no_orphans(&token, &format!("SIG{signal}"));
        assert!(
            leftovers(pid).is_empty(),
            "segment left: {:?}",
            leftovers(pid)
        );
    }
}

/// #24 item 1: a SIGKILLed launcher takes its PEs, their children and its segment with it.
#[test]
fn a_sigkilled_launcher_leaves_no_pe_and_no_segment() {
    let token = format!("{}.9", 800 + std::process::id() % 97);
    let (got, _, pid) = signal_the_launcher("KILL", &token);
    assert_eq!(got, None, "killed by a signal");
    assert_no_orphans(&token, "run");
    assert!(
        eventually(|| leftovers(pid).is_empty()),
        "segment left: {:?}",
        leftovers(pid)
    );
}

/// #24 item 10: a PE's own children (a PE that is `sh -c '... &'`) end with the team.
#[test]
fn a_pes_children_end_with_it() {
    let token = format!("{}.7", 700 + std::process::id() % 97);
    let script = format!("sleep {token} >/dev/null 2>&1 & exit 0");
    let r = handoff(&["run", "-n", "2", "--", "sh", "-c", &script]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_no_orphans(&token, "run");
}

/// #24 item 10 / #23: `--wait spin` with more PEs than CPUs is refused up front, in one line
/// that offers the waits that work (a spinning PE would hold the CPU its peer needs).
#[test]
fn spin_waits_on_too_few_cpus_are_refused() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n = (cpus + 1).to_string();
    let r = handoff(&["run", "-n", &n, "--wait", "spin", "--", "true"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("--wait spin"), "{}", r.stderr);
    assert!(r.stderr.contains("spin-yield"), "{}", r.stderr);
    let r = handoff(&["run", "-n", "1", "--wait", "spin", "--", "true"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// #24: a PE stopped with SIGSTOP holds the team until `--timeout`; the line then names it
/// as not responding (stopped), not as dead, and the team and its segment are gone.
#[test]
fn the_timeout_names_a_stopped_pe_as_not_responding() {
    let r = handoff(&[
        "run",
        "-n",
        "2",
        "--timeout",
        "2",
        "--",
        "sh",
        "-c",
        "if [ \"$HANDOFF_RANK\" = 1 ]; then kill -STOP $$; fi; sleep 30",
    ]);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    one_line(
        &r,
        &["PE 1", "not responding (stopped", "--timeout", "kill -CONT"],
    );
    for bad in ["0", "-1", "nan", "1e12"] {
        let flag = format!("--timeout={bad}");
        let r = handoff(&["run", "-n", "1", &flag, "--", "true"]);
        assert_eq!(r.code, Some(2), "--timeout {bad}: {}", r.stderr);
        one_line(&r, &["--timeout", "seconds above 0"]);
    }
}

/// #40 item 5: a launcher SIGKILLed at any early moment (before, while and after it creates
/// its 1 GiB segment and starts its PEs, each of which starts a child) leaves no segment, no
/// PE and no PE child. Before, the watcher started only after every PE was spawned: a kill
/// in the first ~0.13 s left the segment (13 of 13 times) and the children of the PEs
/// spawned so far.
#[test]
fn a_launcher_killed_at_any_early_moment_leaves_no_segment_and_no_pe() {
    let token = format!("{}.5", 600 + std::process::id() % 97);
    let script = format!("sleep {token} >/dev/null 2>&1 & wait");
    for delay_us in [
        0, 300, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000,
    ] {
        let mut child = Command::new(BIN)
            .args([
                "run", "-n", "4", "--heap", "256M", "--", "sh", "-c", &script,
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start handoff");
        let pid = child.id();
        std::thread::sleep(Duration::from_micros(delay_us));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let what = format!("launcher killed {delay_us} us after its start");
        assert!(
            eventually(|| leftovers(pid).is_empty()),
            "{what}: segment left: {:?}",
            leftovers(pid)
        );
        assert_no_orphans(&token, &what);
    }
}

/// #40 item 9: `--heap 0` (or a variable saying 0) is refused up front in one line (before,
/// the program's static data was added to it and every PE failed at `shmem_init`).
#[test]
fn a_heap_of_0_is_refused_up_front() {
    let r = handoff(&["run", "-n", "2", "--heap", "0", "--", "true"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    one_line(&r, &["--heap 0", "a heap of 0 bytes holds nothing"]);
    let out = common::run_cmd(
        Command::new(BIN)
            .args(["run", "-n", "1", "--", "true"])
            .env("SHMEM_SYMMETRIC_SIZE", "0K"),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("SHMEM_SYMMETRIC_SIZE=\"0K\"") && err.contains("holds nothing"),
        "{err}"
    );
}

/// #40 item 1: `--timeout` names the PEs it still waited for and how far each got (before:
/// "timed out waiting for every PE to exit", no PE named).
#[test]
fn the_timeout_names_the_pes_still_running() {
    let r = handoff(&[
        "run",
        "-n",
        "2",
        "--timeout",
        "1",
        "--",
        "sh",
        "-c",
        "if [ \"$HANDOFF_RANK\" = 1 ]; then exec sleep 30; fi",
    ]);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    one_line(
        &r,
        &[
            "did not end within 1s (--timeout)",
            "still running: PE 1 (pid ",
            "never joined the team",
            "ended: PE 0 (never joined the team, exited with code 0)",
        ],
    );
}

/// #40 item 6: the join deadline is the user's. A PE that joins and one that never does
/// (it could be reading its input): at `--join-timeout 1s` (or HANDOFF_JOIN_TIMEOUT=1s) the
/// team ends, and the line names the PE that did not join, the PEs that did, and how to
/// allow longer. Before, the deadline was a fixed 30 s with no flag or variable. Bad values
/// are usage errors.
#[test]
fn the_join_deadline_is_set_by_flag_or_variable_and_says_what_it_saw() {
    if handoff::team::in_team() {
        // The PEs: every rank but 1 joins; all wait to be ended.
        if std::env::var("HANDOFF_RANK").as_deref() != Ok("1") {
            let team = handoff::team::Team::from_env().expect("join");
            std::thread::sleep(Duration::from_secs(60));
            drop(team);
        }
        std::thread::sleep(Duration::from_secs(60));
        std::process::exit(0);
    }
    let me = std::env::current_exe().unwrap();
    let me = me.to_str().unwrap();
    let pe = [
        me,
        "--exact",
        "the_join_deadline_is_set_by_flag_or_variable_and_says_what_it_saw",
        "--nocapture",
        "--test-threads=1",
    ];
    let with_flag: Vec<&str> = ["run", "-n", "3", "--join-timeout", "1s", "--"]
        .into_iter()
        .chain(pe)
        .collect();
    let r = handoff(&with_flag);
    let with_var = common::run_cmd_pid(
        Command::new(BIN)
            .args(["run", "-n", "3", "--"])
            .args(pe)
            .env("HANDOFF_JOIN_TIMEOUT", "1s"),
    );
    let r2 = Ran {
        code: with_var.0.status.code(),
        stderr: text(&with_var.0.stderr),
        stdout: text(&with_var.0.stdout),
        pid: with_var.1,
    };
    for r in [r, r2] {
        assert_eq!(r.code, Some(3), "{}", r.stderr);
        one_line(
            &r,
            &[
                "PE 1 (pid ",
                "did not join the team within 1s",
                "joined: PEs 0, 2",
                "not joined: PE 1",
                "--join-timeout",
                "HANDOFF_JOIN_TIMEOUT",
            ],
        );
    }
    for bad in ["0", "-1", "soon", "2y"] {
        let flag = format!("--join-timeout={bad}");
        let r = handoff(&["run", "-n", "1", &flag, "--", "true"]);
        assert_eq!(r.code, Some(2), "{bad}: {}", r.stderr);
        one_line(&r, &["--join-timeout", "bad duration"]);
    }
    let out = common::run_cmd(
        Command::new(BIN)
            .args(["run", "-n", "1", "--", "true"])
            .env("HANDOFF_JOIN_TIMEOUT", "soon"),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("HANDOFF_JOIN_TIMEOUT=\"soon\""), "{err}");
}

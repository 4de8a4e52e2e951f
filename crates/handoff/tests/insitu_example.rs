//! The `insitu` example's pair ends cleanly whichever side is killed: the survivor reports the
//! other's death (or early stop) in one line, and the channel's segment is gone afterwards.
//! Each test kills one side of a long run (100000 steps) once the analysis has received a
//! block.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Every wait of these tests gives up (and fails the test) after this long.
const LIMIT: Duration = Duration::from_secs(60);

/// `target/<profile>`: this test runs from `target/<profile>/deps`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .and_then(Path::parent)
        .expect("test binary in target/<profile>/deps")
        .to_path_buf()
}

/// The example, built by cargo for this profile (a no-op after `cargo test`, which builds
/// the examples; needed after `cargo test --test insitu_example`).
fn insitu_exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let dir = profile_dir();
        let mut cargo = Command::new(env!("CARGO"));
        cargo
            .args(["build", "-q", "-p", "handoff", "--example", "insitu"])
            .arg("--target-dir")
            .arg(dir.parent().expect("target/<profile> has a parent"))
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if dir.file_name().is_some_and(|n| n == "release") {
            cargo.arg("--release");
        }
        let st = cargo
            .status()
            .expect("running cargo to build the insitu example");
        assert!(st.success(), "cargo build --example insitu: {st}");
        let exe = dir.join("examples").join("insitu");
        assert!(exe.exists(), "{} missing after the build", exe.display());
        exe
    })
}

/// A running pair: the simulation (our child) and its analysis (its child).
struct Pair {
    sim: Child,
    analysis: u32,
    /// The channel's full name (the analysis' first argument).
    channel: String,
    /// Lines of the pair's stdout and stderr (both sides write to the inherited pipes).
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

/// The pid of a process whose parent is `parent` (scanning /proc).
fn child_of(parent: u32) -> Option<u32> {
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|s| s.parse::<u32>().ok());
        if ppid == Some(parent) {
            return Some(pid);
        }
    }
    None
}

fn cmdline(pid: u32) -> Vec<String> {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .unwrap_or_default()
        .split(|&b| b == 0)
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

fn forward(r: impl Read + Send + 'static, tx: mpsc::Sender<String>) {
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
}

impl Pair {
    /// Starts the pair and waits until the analysis has received a block.
    fn start() -> Pair {
        let mut sim = Command::new(insitu_exe())
            .args(["100000", "64"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting the insitu example");
        let (tx, lines) = mpsc::channel();
        forward(sim.stdout.take().expect("piped"), tx.clone());
        forward(sim.stderr.take().expect("piped"), tx);
        let mut pair = Pair {
            analysis: 0,
            channel: String::new(),
            sim,
            lines,
            seen: Vec::new(),
        };
        pair.expect("analysis: step");
        let analysis = child_of(pair.sim.id()).expect("the simulation has its analysis child");
        let args = cmdline(analysis);
        assert_eq!(
            args.get(1).map(String::as_str),
            Some("--insitu-analysis"),
            "{args:?}"
        );
        pair.analysis = analysis;
        pair.channel = args[2].clone();
        assert!(
            segment_exists(&pair.channel),
            "{} should exist while running",
            pair.channel
        );
        pair
    }

    /// Reads lines until one contains `what`.
    fn expect(&mut self, what: &str) -> String {
        let t0 = Instant::now();
        while let Some(left) = LIMIT.checked_sub(t0.elapsed()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(what) {
                        return line;
                    }
                }
                Err(_) => break,
            }
        }
        panic!(
            "no line containing {what:?}; the pair wrote {:#?}",
            self.seen
        )
    }

    /// Every remaining line, until both sides closed their output (both exited).
    fn rest(&mut self) -> Vec<String> {
        let t0 = Instant::now();
        while let Some(left) = LIMIT.checked_sub(t0.elapsed()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(mpsc::RecvTimeoutError::Disconnected) => return self.seen.clone(),
                Err(mpsc::RecvTimeoutError::Timeout) => break,
            }
        }
        panic!("the pair did not end; it wrote {:#?}", self.seen)
    }

    fn wait_sim(&mut self) -> ExitStatus {
        let t0 = Instant::now();
        while t0.elapsed() < LIMIT {
            if let Some(st) = self.sim.try_wait().expect("try_wait") {
                return st;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the simulation did not exit; it wrote {:#?}", self.seen)
    }

    fn analysis_alive(&self) -> bool {
        cmdline(self.analysis)
            .get(1)
            .is_some_and(|a| a == "--insitu-analysis")
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        let _ = self.sim.kill();
        let _ = self.sim.wait();
        if self.analysis != 0 && self.analysis_alive() {
            // SAFETY: kill(2) has no memory effects; the pid was checked to be the analysis.
            unsafe { libc::kill(self.analysis as i32, libc::SIGKILL) };
        }
    }
}

fn segment_exists(full_name: &str) -> bool {
    Path::new(&format!("/dev/shm{full_name}")).exists()
}

fn signal(pid: u32, sig: i32) {
    // SAFETY: kill(2) has no memory effects; `pid` is a process this test started (or its
    // child, looked up a moment ago).
    let rc = unsafe { libc::kill(pid as i32, sig) };
    assert_eq!(rc, 0, "kill({pid}, {sig})");
}

#[test]
fn a_killed_simulation_is_reported_by_the_analysis_and_its_segment_removed() {
    let mut pair = Pair::start();
    signal(pair.sim.id(), libc::SIGKILL);
    pair.wait_sim();
    let line = pair.expect("analysis: simulation died");
    assert!(line.contains("died"), "{line}");
    pair.rest();
    assert!(
        !pair.analysis_alive(),
        "the analysis outlived the simulation"
    );
    assert!(
        !segment_exists(&pair.channel),
        "{} was left behind",
        pair.channel
    );
}

#[test]
fn a_terminated_simulation_removes_its_segment_and_the_analysis_reports_the_stop() {
    for sig in [libc::SIGTERM, libc::SIGINT] {
        let mut pair = Pair::start();
        signal(pair.sim.id(), sig);
        let st = pair.wait_sim();
        assert_eq!(
            st.code(),
            Some(128 + sig),
            "signal {sig}: {st}; {:#?}",
            pair.seen
        );
        let lines = pair.rest();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("analysis: the simulation stopped after")),
            "signal {sig}: {lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("simulation: stopped by signal")),
            "signal {sig}: {lines:#?}"
        );
        assert!(
            !segment_exists(&pair.channel),
            "{} was left behind",
            pair.channel
        );
    }
}

#[test]
fn a_killed_analysis_is_reported_by_the_simulation_and_the_segment_removed() {
    let mut pair = Pair::start();
    signal(pair.analysis, libc::SIGKILL);
    let st = pair.wait_sim();
    assert_eq!(st.code(), Some(1), "{st}");
    let lines = pair.rest();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("simulation: analysis died")),
        "{lines:#?}"
    );
    assert!(
        !segment_exists(&pair.channel),
        "{} was left behind",
        pair.channel
    );
}

//! Running this test binary as the ranks of an MPI job: `mpirun -n N <this binary> --exact
//! TEST`, each rank seeing `PE_ENV` set and playing its part. MPICH's Hydra and Open MPI's
//! launcher are both handled (Open MPI needs `--oversubscribe` for more ranks than CPUs, and
//! `--allow-run-as-root` as root). A job is bounded by the launcher's own timeout and by a
//! deadline here, after which the launcher is killed and the test fails.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use handoff::sys::Deadline;
use handoff::team::Team;
use handoff_mpi::MpiTransport;
use handoff_probe::proc::ChildGuard;

/// Set (to `1`) in the ranks' environment.
pub const PE_ENV: &str = "HANDOFF_MPI_TEST_PE";

/// Whether this process is a rank of a job a test started.
pub fn is_pe() -> bool {
    std::env::var_os(PE_ENV).is_some()
}

/// What a job did: its exit status and everything its ranks and launcher printed.
pub struct Job {
    pub status: Option<ExitStatus>,
    pub output: String,
}

/// Whether `mpirun` on `PATH` is Open MPI's, checked (once) against the MPI library this
/// binary runs on: a launcher of another library would start every rank as a job of its
/// own, so a mismatch fails the test with what to do (with Debian's MPICH and Open MPI both
/// installed, the alternatives pick one `mpirun`; `scripts/mpi-test mpich|openmpi` pins
/// both the build and the launcher).
fn launcher_is_open_mpi() -> bool {
    static OPEN_MPI: std::sync::OnceLock<Result<bool, String>> = std::sync::OnceLock::new();
    let checked = OPEN_MPI.get_or_init(|| {
        let version = Command::new("mpirun")
            .arg("--version")
            .output()
            .map(|o| {
                String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr)
            })
            .unwrap_or_default();
        let launcher = version.contains("Open MPI") || version.contains("OpenRTE");
        let library = MpiTransport::library_version();
        let built = library.contains("Open MPI");
        if launcher == built {
            Ok(launcher)
        } else {
            let name = |open: bool| {
                if open {
                    "Open MPI"
                } else {
                    "MPICH (not Open MPI)"
                }
            };
            Err(format!(
                "this test runs on {} ({}), but `mpirun` on PATH is {}'s; put that library's \
                 launcher first on PATH, e.g. scripts/mpi-test {}",
                name(built),
                library.lines().next().unwrap_or_default(),
                name(launcher),
                if built { "openmpi" } else { "mpich" }
            ))
        }
    });
    match checked {
        Ok(open) => *open,
        Err(e) => panic!("{e}"),
    }
}

/// Runs `test` of this binary on `n` ranks with `env`, at most `limit`.
///
/// Jobs run one at a time (libtest runs a binary's tests on several threads): the ranks of an
/// MPI job poll inside MPI calls, so two jobs at once on a 2-CPU machine put four pollers on two
/// CPUs, and every hand-off between ranks then waits for a scheduler tick. Over MPICH's TCP
/// path, where each RMA operation needs the target rank to run, that turned a 0.2 s job into
/// one that outlived its 60 s limit.
pub fn mpirun(test: &str, n: usize, env: &[(&str, &str)], limit: Duration) -> Job {
    static ONE_JOB_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    // A test that failed while holding the lock poisons it; the next job may still run.
    let _one = ONE_JOB_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let exe = std::env::current_exe().unwrap();
    let log: PathBuf =
        std::env::temp_dir().join(format!("handoff-mpi-{}-{test}-{n}.log", std::process::id()));
    let file = std::fs::File::create(&log).unwrap();
    let mut cmd = Command::new("mpirun");
    let secs = limit.as_secs().max(1).to_string();
    if launcher_is_open_mpi() {
        cmd.args(["--oversubscribe", "--timeout", &secs, "-x", PE_ENV]);
        if is_root() {
            cmd.arg("--allow-run-as-root");
        }
        for (k, _) in env {
            cmd.args(["-x", k]);
        }
    } else {
        // Hydra passes the whole environment and oversubscribes as asked.
        cmd.env("MPIEXEC_TIMEOUT", &secs);
    }
    cmd.args(["-n", &n.to_string()])
        .arg(&exe)
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(PE_ENV, "1")
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut guard = ChildGuard::spawn(&mut cmd).expect("start mpirun (is MPI installed?)");
    // The launcher's timeout ends a hung job first; this deadline is the last resort.
    let status = guard
        .wait_deadline(Deadline::after(limit + Duration::from_secs(15)))
        .unwrap();
    if status.is_none() {
        guard.kill().ok();
        guard.wait().ok();
    }
    let output = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    eprintln!("--- mpirun -n {n} {test}: {status:?}\n{output}---");
    Job { status, output }
}

/// What a rank prints after its checks passed, before `MPI_Finalize`.
pub const FINALIZING: &str = "checks passed, finalizing: PE";

/// [`mpirun`], run again (at most twice more) when the job timed out after every rank
/// printed [`FINALIZING`]: a hang inside `MPI_Finalize` itself. UCX's TCP transport (Debian's
/// UCX 1.13 under MPICH's ch4:ucx) can stop progressing an endpoint that the other rank's
/// finalize still flushes (openucx/ucx#8738), about one job in ten on a loaded machine. Our
/// checks have passed by then; a hang or a failure anywhere before still fails the test.
/// (Seen with a stack trace: one rank in `ucp_worker_progress` under `MPI_Finalize`, the other
/// in the PMI barrier after it.)
pub fn mpirun_finalize_retry(test: &str, n: usize, env: &[(&str, &str)], limit: Duration) -> Job {
    let mut job = mpirun(test, n, env, limit);
    for _ in 0..2 {
        let finalized = job.status.is_some_and(|s| s.success());
        let all_passed = (0..n).all(|r| job.output.contains(&format!("{FINALIZING} {r}\n")));
        if finalized || !all_passed {
            break;
        }
        eprintln!("NOTE: {test}: every rank passed, then the job hung in MPI_Finalize (openucx/ucx#8738); running it again");
        job = mpirun(test, n, env, limit);
    }
    job
}

/// Whether we run as root (the owner of `/proc/self` is our effective user).
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// A rank's part: join, run `f`, finalize; any failure prints one line and exits 1.
pub fn pe(f: impl FnOnce(&Team<MpiTransport>) -> Result<(), String>) -> ! {
    let mut team = handoff_mpi::join().unwrap_or_else(|e| {
        eprintln!("PE could not join: {e}");
        std::process::exit(1)
    });
    // A hang becomes an error naming the wait, well before the job's timeout.
    let patience = team.patience().with_timeout(Some(Duration::from_secs(40)));
    if let Err(e) = team.set_patience(patience) {
        eprintln!("PE could not set its timeout: {e}");
        std::process::exit(1);
    }
    if let Err(e) = f(&team) {
        eprintln!("PE {}: {e}", team.rank());
        std::process::exit(1);
    }
    // Marks the checks as done, so a job that then hangs inside `MPI_Finalize` (see
    // [`mpirun_finalize_retry`]) is told apart from one that hangs in our code.
    // One write, so the ranks' lines never interleave mid-line.
    let line = format!("{FINALIZING} {}\n", team.rank());
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    team.finalize().unwrap_or_else(|e| {
        eprintln!("finalize: {e}");
        std::process::exit(1)
    });
    std::process::exit(0)
}

/// Fails the test unless the job exited 0.
pub fn assert_ok(job: &Job, what: &str) {
    assert!(
        job.status.is_some_and(|s| s.success()),
        "{what}: the job failed ({:?}); its output is above",
        job.status
    );
}

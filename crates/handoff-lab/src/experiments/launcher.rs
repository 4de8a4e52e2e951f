//! The lab's launcher of worker processes (`handoff __worker NAME ARGS...`):
//! - a team of `p` PEs ([`run_team`]) through the core's
//!   [`handoff::team::Launch`] (pinned, heap, wait strategy, each PE's stdout captured,
//!   killed at the run's deadline) — or, for an MPI transport, through `mpiexec` (its
//!   process group killed at the deadline; what it is given: [`super::team_mpi`]), or,
//!   when the command itself runs under `mpirun`, as a phase of the job's team
//!   ([`super::team_session`]) — and the PE's side ([`worker_main`]);
//! - worker processes started one by one with their own arguments ([`Workers`], the
//!   runtime-queue experiments), each under the probe's [`ChildGuard`], with a start gate
//!   ([`gate_wait`]) and a deadline.
//!
//! # Failure ends a run, never hangs it
//!
//! A PE's team waits are bounded ([`Team::set_patience`], the body's
//! [`PeBody::WAIT_TIMEOUT`]), so a protocol that loses a message ends in
//! [`TeamError::Timeout`] and a non-zero exit; a PE that dies ends the others' waits with
//! `PeerDied`; the launcher then stops the rest. On top of that, the launcher kills every PE
//! still alive at the run's deadline ([`Launch::timeout`]).

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use handoff::sys::Deadline;
use handoff::team::{Launch, Placement, Team, TeamError, Transport};
use handoff_probe::proc::ChildGuard;

use super::team_mpi::{self, TransportKind};
use super::team_run::{finish, parse_output, run_body, PeBody, PeOutput, TeamSpec};
use super::team_session;
use crate::bench::experiment::{BenchError, EXIT_PEER_GONE};
use crate::bench::{BenchRecord, Checks};

/// Starts the team `spec` on handoff's shared-memory transport, waits for it (killing it at
/// the deadline) and returns every PE's whole stdout, by rank. The error says what went
/// wrong in words: the team could not start, the deadline passed, or which PE failed and how.
fn launch(spec: &TeamSpec) -> Result<Vec<String>, String> {
    let mut args = spec.args.clone();
    args.push(spec.experiment.into());
    args.push(spec.spec.clone().into());
    let mut running = Launch::new(spec.pes)
        .program(&spec.exe)
        .args(args)
        .cores(if spec.cpus.is_empty() {
            Placement::Unpinned
        } else {
            Placement::Cores(spec.cpus.clone())
        })
        .heap(spec.heap)
        .wait(spec.wait)
        .capture_stdout(true)
        .timeout(spec.deadline)
        .spawn()
        .map_err(|e| format!("cannot start {} PEs: {e}", spec.pes))?;
    let readers: Vec<_> = (0..spec.pes)
        .map(|r| drain(running.take_stdout(r)))
        .collect();
    let report = running.wait();
    let texts: Vec<String> = readers
        .into_iter()
        .map(|h| h.join().unwrap_or_default())
        .collect();
    if let Err(TeamError::TeamTimeout { running, .. }) = &report {
        return Err(format!(
            "the team of {} PEs did not finish within {:.0} s and was killed (a lost message \
             or a stuck PE; still running: {running}); rerun with fewer reps or a larger \
             deadline",
            spec.pes,
            spec.deadline.as_secs_f64()
        ));
    }
    let report = report.map_err(|e| format!("waiting for the PEs: {e}"))?;
    report.into_result().map_err(|e| e.to_string())?;
    Ok(texts)
}

/// Starts the team of `spec` under mpiexec, waits for it (the deadline kills the job) and
/// returns every rank's output, by rank.
fn run_mpiexec(spec: &TeamSpec) -> Result<Vec<PeOutput>, BenchError> {
    let fail = |message: String| {
        BenchError::failed(
            spec.experiment,
            format!("{} [{}]: {message}", spec.label, spec.transport.name()),
        )
    };
    team_mpi::check_available(spec.experiment, &[spec.transport])?;
    let exe = team_mpi::mpiexec(spec.experiment)?;
    let cpus: Vec<String> = spec.cpus.iter().map(usize::to_string).collect();
    let mut cmd = Command::new(&exe);
    cmd.arg("-n")
        .arg(spec.pes.to_string())
        .arg(&spec.exe)
        .args(&spec.args)
        .arg(spec.experiment)
        .arg(&spec.spec)
        .env(ENV_MPI_WINDOW, spec.transport.window().unwrap_or("auto"))
        // Whole pages: a window of 1 MiB + 8 B hangs MPICH's RMA path inside an MPI call
        // (seen with MPICH 4 and HANDOFF_MPI_WINDOW=rma), page multiples do not.
        .env(
            handoff::implementor::ENV_HEAP,
            spec.heap.next_multiple_of(1 << 16).to_string(),
        )
        .env(handoff::implementor::ENV_WAIT, spec.wait.to_string())
        .env(team_mpi::ENV_CPUS, cpus.join(","))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group: the deadline kills mpiexec and every rank at once.
        .process_group(0);
    // Under the probe's guard (not `ChildGuard::spawn`: the ranks are mpiexec's children,
    // and the parent pid it would hand down is not theirs), so an early return kills it.
    let mut child = ChildGuard::new(
        cmd.spawn()
            .map_err(|e| fail(format!("cannot start {}: {e}", exe.display())))?,
    );
    let pgid = child.id() as i32;
    let out = drain(child.child_mut().stdout.take());
    let err = drain(child.child_mut().stderr.take());
    let status = child
        .wait_deadline(Deadline::after(spec.deadline))
        .map_err(|e| fail(format!("waiting for mpiexec: {e}")))?;
    if status.is_none() {
        // SAFETY: kill(2) on the process group this function created (mpiexec's own pid);
        // no memory is involved.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
        let _ = child.wait();
    }
    let text = out.join().unwrap_or_default();
    let errors = err.join().unwrap_or_default();
    let tail = |s: &str| -> String {
        let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(6)..].join(" | ")
    };
    let Some(status) = status else {
        return Err(fail(format!(
            "the MPI job of {} ranks did not finish within {:.0} s and was killed (a lost \
             message or a stuck rank); rerun with fewer reps. stderr: {}",
            spec.pes,
            spec.deadline.as_secs_f64(),
            tail(&errors)
        )));
    };
    if !status.success() {
        return Err(fail(format!(
            "the MPI job failed ({status}); its stderr ends: {}",
            tail(&errors)
        )));
    }
    team_mpi::parse_merged(spec.pes, &text).map_err(|e| fail(e.to_string()))
}

/// The MPI transport's window variable (spelled here so a build without the feature needs
/// nothing of handoff-mpi's items).
const ENV_MPI_WINDOW: &str = "HANDOFF_MPI_WINDOW";

/// Reads `pipe` to its end on a thread of its own (so that no child blocks on a full pipe):
/// the first 64 MiB as text, far more than any worker prints; the rest is drained unread.
pub fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut p) = pipe {
            let _ = p.by_ref().take(64 << 20).read_to_string(&mut text);
            let _ = std::io::copy(&mut p, &mut std::io::sink());
        }
        text
    })
}

/// Which of a worker's standard streams are piped to us.
#[derive(Debug, Clone, Copy)]
pub enum Io {
    /// Stdin (the start gate's "go") and stdout (its result lines); stderr inherited.
    Gated,
    /// Only stderr (to explain its death); stdin and stdout closed.
    Stderr,
}

/// The one way the lab starts a worker process: `exe args... experiment worker_args...`
/// (`handoff __worker NAME ARGS...`) under the probe's [`ChildGuard`]: SIGKILLed and reaped
/// when the guard drops, and told our pid so that it dies with us.
pub fn spawn_worker(
    exe: &Path,
    args: &[OsString],
    experiment: &str,
    worker_args: &[String],
    io: Io,
) -> handoff_probe::Result<ChildGuard> {
    let (stdin, stdout, stderr) = match io {
        Io::Gated => (Stdio::piped(), Stdio::piped(), Stdio::inherit()),
        Io::Stderr => (Stdio::null(), Stdio::null(), Stdio::piped()),
    };
    ChildGuard::spawn(
        Command::new(exe)
            .args(args)
            .arg(experiment)
            .args(worker_args)
            .stdin(stdin)
            .stdout(stdout)
            .stderr(stderr),
    )
}

/// Worker processes of one point started one by one (`handoff __worker NAME ARGS...`, each
/// with its own arguments), each under the probe's [`ChildGuard`] (killed when dropped, and
/// told our pid so it can die with us), with a start gate and a deadline: a dead or stuck
/// worker is an error, never a hang.
#[derive(Debug)]
pub struct Workers<'a> {
    experiment: &'static str,
    exe: &'a Path,
    args: &'a [OsString],
    children: Vec<(ChildGuard, Option<BufReader<ChildStdout>>)>,
}

impl<'a> Workers<'a> {
    /// No workers yet; they will run `exe args... experiment WORKER_ARGS...`.
    pub fn new(experiment: &'static str, exe: &'a Path, args: &'a [OsString]) -> Workers<'a> {
        Workers {
            experiment,
            exe,
            args,
            children: Vec::new(),
        }
    }

    /// Starts a worker with `worker_args`, its stdin and stdout piped.
    pub fn spawn(&mut self, worker_args: &[String]) -> Result<(), BenchError> {
        let experiment = self.experiment;
        let mut child = spawn_worker(self.exe, self.args, experiment, worker_args, Io::Gated)
            .map_err(|e| {
                BenchError::failed(experiment, format!("starting a worker process: {e}"))
            })?;
        let out = child.child_mut().stdout.take().map(BufReader::new);
        self.children.push((child, out));
        Ok(())
    }

    /// The start gate: waits until every worker has printed `ready` (see [`gate_wait`]), then
    /// lets them all go at once. A worker that exits first is an error.
    pub fn gate(&mut self) -> Result<(), BenchError> {
        let experiment = self.experiment;
        for (i, (_, out)) in self.children.iter_mut().enumerate() {
            let mut line = String::new();
            let n = out.as_mut().map_or(Ok(0), |o| o.read_line(&mut line));
            if !matches!(n, Ok(n) if n > 0) || line.trim() != "ready" {
                return Err(BenchError::failed(
                    experiment,
                    format!("worker {i} ended before it was ready; its error is on stderr above"),
                ));
            }
        }
        for (i, (child, _)) in self.children.iter_mut().enumerate() {
            let sent = child
                .child_mut()
                .stdin
                .take()
                .map(|mut s| s.write_all(b"go\n"));
            if !matches!(sent, Some(Ok(()))) {
                return Err(BenchError::failed(
                    experiment,
                    format!("worker {i} is gone before the start"),
                ));
            }
        }
        Ok(())
    }

    /// Waits for every worker until `deadline` ([`reap`]) and returns each one's stdout, in
    /// start order. A worker that fails or is still running at the deadline (it is killed)
    /// is an error naming it.
    pub fn finish(mut self, deadline: Instant) -> Result<Vec<String>, BenchError> {
        let experiment = self.experiment;
        let mut named: Vec<(String, ChildGuard)> = Vec::new();
        let mut outs = Vec::new();
        for (i, (mut child, out)) in self.children.drain(..).enumerate() {
            drop(child.child_mut().stdin.take());
            named.push((format!("worker {i}"), child));
            outs.push(out);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        reap(&mut named, Deadline::after(left), &AtomicBool::new(false))
            .map_err(|e| BenchError::failed(experiment, e))?;
        Ok(outs
            .into_iter()
            .map(|out| {
                let mut text = String::new();
                if let Some(mut out) = out {
                    let _ = out.read_to_string(&mut text);
                }
                text
            })
            .collect())
    }
}

/// How a worker process failed, as its parent saw it: typed from its exit status (a signal,
/// or its exit code: [`EXIT_PEER_GONE`] when it only noticed its peer fail), never parsed
/// from what it printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Death {
    /// Which worker, e.g. "producer worker" or "worker 1".
    pub who: String,
    pub pid: u32,
    /// The signal that killed it, if a signal did.
    pub signal: Option<i32>,
    /// Its exit code, if it exited.
    pub code: Option<i32>,
    /// Its exit status, as printed.
    pub status: String,
    /// What it printed on stderr when that was piped to us (its error message), trimmed.
    pub stderr: String,
}

impl Death {
    /// True when the worker only noticed that its peer was gone (a consequence, not a cause).
    pub fn noticed_peer(&self) -> bool {
        self.code == Some(i32::from(EXIT_PEER_GONE))
    }

    fn describe(&self) -> String {
        let how = match self.signal {
            Some(libc::SIGBUS) => "was killed by SIGBUS, a bus error: usually /dev/shm ran out \
                                   of space for the shared block (check df -h /dev/shm)"
                .to_string(),
            _ => format!("failed ({})", self.status),
        };
        let sep = if self.stderr.is_empty() { "" } else { ": " };
        format!("{} (pid {}) {how}{sep}{}", self.who, self.pid, self.stderr)
    }
}

/// The message for workers that failed: the root cause first (a worker killed by a signal, or
/// one that failed on its own, rather than its peer that only noticed), then the others.
pub fn explain(deaths: &[Death]) -> String {
    let Some(first) = deaths
        .iter()
        .find(|d| d.signal.is_some())
        .or_else(|| deaths.iter().find(|d| !d.noticed_peer()))
        .or(deaths.first())
    else {
        return "a worker failed".into();
    };
    let mut msg = first.describe();
    for d in deaths.iter().filter(|d| *d != first) {
        msg.push_str("; then the ");
        msg.push_str(&d.describe());
    }
    msg
}

/// Why [`reap`] did not see every worker succeed.
#[derive(Debug, thiserror::Error)]
pub enum ReapError {
    /// Workers failed: the root cause first ([`explain`]).
    #[error("{}", explain(.0))]
    Died(Vec<Death>),
    /// Still running at the deadline, with none failed; they are killed.
    #[error(
        "the workers were still running at the run's deadline (a hang: a peer stuck or \
         starved of CPU); they were killed"
    )]
    Hung,
    /// The cancel flag was set.
    #[error("interrupted")]
    Interrupted,
    /// Waiting for a worker failed.
    #[error("waiting for a worker: {0}")]
    Wait(#[from] handoff::Error),
}

/// How long the peer of a failed worker gets to fail too (and say why) before being killed.
const PEER_GRACE: Duration = Duration::from_secs(2);

/// The one way the lab waits for its worker processes: every one of `children` (each with
/// the name its death is reported by) until `deadline`, or until `cancel` is set. When one
/// fails, the others get a moment to end too and say why; those still running then, or at
/// the deadline, are killed (their guards drop).
pub fn reap(
    children: &mut [(String, ChildGuard)],
    deadline: Deadline,
    cancel: &AtomicBool,
) -> Result<(), ReapError> {
    let mut done = vec![false; children.len()];
    let mut deaths: Vec<Death> = Vec::new();
    let mut grace: Option<Deadline> = None;
    while done.iter().any(|d| !d) {
        if cancel.load(Ordering::Relaxed) {
            return Err(ReapError::Interrupted);
        }
        if grace.is_some_and(|g| g.expired()) || deadline.expired() {
            break;
        }
        for (i, (who, child)) in children.iter_mut().enumerate() {
            if done[i] {
                continue;
            }
            // Short slices keep Ctrl-C responsive; the parent sleeps in between, so it does
            // not steal CPU from the workers.
            let slice = Deadline::after(Duration::from_millis(50))
                .min(grace.unwrap_or(deadline))
                .min(deadline);
            let Some(status) = child.wait_deadline(slice)? else {
                continue;
            };
            done[i] = true;
            if status.success() {
                continue;
            }
            let mut stderr = String::new();
            if let Some(mut e) = child.child_mut().stderr.take() {
                let _ = e.read_to_string(&mut stderr);
            }
            use std::os::unix::process::ExitStatusExt;
            deaths.push(Death {
                who: who.clone(),
                pid: child.id(),
                signal: status.signal(),
                code: status.code(),
                status: status.to_string(),
                stderr: stderr.trim().to_string(),
            });
            grace.get_or_insert_with(|| Deadline::after(PEER_GRACE));
        }
    }
    match (deaths.is_empty(), done.iter().all(|d| *d)) {
        (true, true) => Ok(()),
        (true, false) => Err(ReapError::Hung),
        (false, _) => Err(ReapError::Died(deaths)),
    }
}

/// The worker's side of [`Workers::gate`]: says `ready` and waits for the word to go (an
/// error when the parent is gone).
pub fn gate_wait(experiment: &'static str) -> Result<(), BenchError> {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "ready");
    let _ = stdout.flush();
    drop(stdout);
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(n) if n > 0 => Ok(()),
        _ => Err(BenchError::failed(
            experiment,
            "the parent went away before the start",
        )),
    }
}

/// Starts the team of `spec`, waits for it and returns every PE's output, by rank.
///
/// Errors (all [`BenchError::Failed`]): the team could not start, a PE failed (its rank and
/// how), the watchdog fired, or a PE printed no valid output line.
pub fn run_team(spec: &TeamSpec) -> Result<Vec<PeOutput>, BenchError> {
    if team_session::active() {
        return team_session::run_phase(spec.experiment, &spec.spec, spec.members.clone());
    }
    if spec.transport != TransportKind::Shm {
        return run_mpiexec(spec);
    }
    let fail =
        |message: String| BenchError::failed(spec.experiment, format!("{}: {message}", spec.label));
    let texts = launch(spec).map_err(fail)?;
    texts
        .iter()
        .enumerate()
        .map(|(rank, t)| parse_output(rank, t).map_err(|e| fail(e.to_string())))
        .collect()
}

/// What the runs of one point gave ([`super::team_config::TeamConfig::point`]).
#[derive(Debug)]
pub struct Runs {
    /// Rank 0's samples, one list per run that finished (at least one).
    pub per_run: Vec<Vec<f64>>,
    /// Every PE's counted checks over all runs ([`super::team_run::add_checks`]).
    pub checks: Checks,
    /// The `transport` param: the routes the PEs reported ([`transport_of`]).
    pub route: String,
    /// Rank 0's floors per sample ([`PeOutput::floors`]), one list per run.
    pub floors_per_run: Vec<Vec<[f64; 2]>>,
    /// The transport the team was asked for.
    pub transport: TransportKind,
}

impl Runs {
    /// A record of these runs: `x` of `series`, one run per list of samples, `reps` each,
    /// verified by every PE's checks.
    pub fn record(&self, series: impl Into<String>, x: f64, reps: u64) -> BenchRecord {
        BenchRecord::new(series, x, self.per_run.len() as u64, reps, false)
            .checked(self.checks.clone())
    }

    /// [`Runs::record`] of an experiment with a choice of transports: `series` named with the
    /// transport asked for ([`super::team_run::series`]), and the `transport` param.
    pub fn record_on(&self, series: String, x: f64, reps: u64) -> BenchRecord {
        let series = super::team_run::series(series, self.transport.name());
        self.record(series, x, reps)
            .param("transport", self.route.clone())
    }

    /// Rank 0's samples in another unit: `f` of each.
    pub fn scaled(&self, f: impl Fn(f64) -> f64) -> Vec<Vec<f64>> {
        let run = |s: &Vec<f64>| s.iter().map(|&v| f(v)).collect();
        self.per_run.iter().map(run).collect()
    }
}

/// The body of a worker process (`handoff __worker NAME SPEC`): parses the spec, joins the
/// team this process was started in — handoff's shared-memory team from `team::Launch`, or,
/// under `mpiexec`, the MPI team of the job ([`super::team_mpi`]) — runs `B`, prints this
/// PE's output line (with its routes) and ends its part of the team.
pub fn worker_main<B: PeBody>(args: &[String]) -> Result<(), BenchError> {
    let spec: B = args
        .first()
        .and_then(|a| serde_json::from_str(a).ok())
        .ok_or_else(|| {
            BenchError::usage(
                B::NAME,
                format!("the {} worker takes one JSON spec", B::NAME),
            )
        })?;
    if team_session::active() {
        return team_session::phase(&spec);
    }
    if std::env::var_os(handoff::implementor::ENV_RANK).is_none()
        && team_mpi::mpi_world_size().is_some()
    {
        return mpi_worker(&spec);
    }
    let team = Team::from_env()
        .map_err(|e| BenchError::failed(B::NAME, format!("joining the team: {e}")))?;
    run_and_finish(team, &spec)
}

#[cfg(feature = "mpi")]
fn mpi_worker<B: PeBody>(spec: &B) -> Result<(), BenchError> {
    let team = handoff_mpi::join()
        .map_err(|e| BenchError::failed(B::NAME, format!("joining the MPI team: {e}")))?;
    team_mpi::pin_from_env(team.rank());
    run_and_finish(team, spec)
}

#[cfg(not(feature = "mpi"))]
fn mpi_worker<B: PeBody>(_: &B) -> Result<(), BenchError> {
    Err(BenchError::usage(B::NAME, team_mpi::NO_MPI))
}

fn run_and_finish<B: PeBody, X: Transport>(mut team: Team<X>, spec: &B) -> Result<(), BenchError> {
    let out = run_body(&mut team, spec)?;
    finish(B::NAME, team, &out)
}

/// The `transport` param of a record from its runs' outputs: the routes the PEs reported,
/// summarized ([`team_mpi::summarize`]), or the kind that was asked for when no PE
/// reported routes.
pub fn transport_of(outs: &[PeOutput], asked: TransportKind) -> String {
    if outs.iter().any(|o| o.routes.is_empty()) {
        return asked.name().to_string();
    }
    let routes: Vec<Vec<String>> = outs.iter().map(|o| o.routes.clone()).collect();
    team_mpi::summarize(&routes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use handoff::sync::Wait;

    fn sh(script: &str) -> (std::path::PathBuf, Vec<OsString>) {
        ("/bin/sh".into(), vec!["-c".into(), script.into()])
    }

    #[test]
    fn a_worker_that_fails_or_hangs_is_an_error_not_a_hang() {
        let (exe, args) = sh("echo hello");
        let mut w = Workers::new("t", &exe, &args);
        w.spawn(&[]).unwrap();
        let out = w.finish(Instant::now() + Duration::from_secs(30)).unwrap();
        assert_eq!(out, vec!["hello\n".to_string()]);

        let (exe, args) = sh("exit 3");
        let mut w = Workers::new("t", &exe, &args);
        w.spawn(&[]).unwrap();
        let err = w
            .finish(Instant::now() + Duration::from_secs(30))
            .unwrap_err();
        assert!(err.to_string().contains("worker 0 (pid"), "{err}");
        assert!(err.to_string().contains("failed (exit status: 3)"), "{err}");

        // A stuck worker is killed at the deadline.
        let (exe, args) = sh("sleep 30");
        let mut w = Workers::new("t", &exe, &args);
        w.spawn(&[]).unwrap();
        let err = w
            .finish(Instant::now() + Duration::from_millis(200))
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("still running at the run's deadline"),
            "{err}"
        );
    }

    fn death(who: &str, signal: Option<i32>, code: Option<i32>) -> Death {
        Death {
            who: who.into(),
            pid: 100,
            signal,
            code,
            status: "exit status: 3".into(),
            stderr: String::new(),
        }
    }

    #[test]
    fn the_root_cause_is_named_not_the_peer_that_noticed() {
        let noticed = death("consumer worker", None, Some(EXIT_PEER_GONE.into()));
        let bus = death("producer worker", Some(libc::SIGBUS), None);
        let msg = explain(&[noticed.clone(), bus]);
        assert!(msg.starts_with("producer worker (pid 100)"), "{msg}");
        assert!(msg.contains("SIGBUS"), "{msg}");
        assert!(msg.contains("then the consumer worker"), "{msg}");
        let own = death("producer worker", None, Some(3));
        let msg = explain(&[noticed.clone(), own]);
        assert!(msg.starts_with("producer worker"), "{msg}");
        // Alone, the one that noticed is still reported.
        assert!(explain(&[noticed]).starts_with("consumer worker"));
    }

    /// Deaths are typed by exit status, not by what the workers print: the worker that exits
    /// first, with the peer-gone code, is named after the one that failed on its own, though
    /// neither says a word.
    #[test]
    fn reaped_deaths_are_typed_by_exit_code() {
        let spawn = |script: &str| {
            let (exe, args) = sh(script);
            spawn_worker(&exe, &args, "t", &[], Io::Stderr).unwrap()
        };
        let mut children = [
            ("noticing worker".to_string(), spawn("exit 4")),
            ("failing worker".to_string(), spawn("sleep 0.3; exit 3")),
        ];
        let deadline = Deadline::after(Duration::from_secs(30));
        let e = reap(&mut children, deadline, &AtomicBool::new(false)).unwrap_err();
        let ReapError::Died(deaths) = &e else {
            panic!("{e}")
        };
        assert_eq!(deaths.len(), 2, "{e}");
        assert!(deaths[0].noticed_peer() && !deaths[1].noticed_peer(), "{e}");
        assert!(e.to_string().starts_with("failing worker"), "{e}");
    }

    /// A team of `sh -c SCRIPT` processes (the experiment name and spec become `$0` and `$1`).
    fn shell_team(script: &str, pes: usize, deadline_ms: u64) -> TeamSpec {
        TeamSpec {
            exe: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            experiment: "pingpong",
            spec: "{}".into(),
            pes,
            cpus: Vec::new(),
            wait: Wait::ADAPTIVE,
            heap: 1 << 16,
            deadline: Duration::from_millis(deadline_ms),
            label: "test point".into(),
            transport: TransportKind::Shm,
            members: Vec::new(),
        }
    }

    #[test]
    fn run_team_collects_each_pes_line_and_names_what_went_wrong() {
        let line = r#"echo "{\"rank\":$HANDOFF_RANK,\"samples\":[$HANDOFF_RANK.5],\"verified\":true,\"failure\":\"\"}""#;
        let outs = run_team(&shell_team(line, 3, 20_000)).unwrap();
        assert_eq!(outs.len(), 3);
        for (r, o) in outs.iter().enumerate() {
            assert_eq!((o.rank, o.samples.clone()), (r, vec![r as f64 + 0.5]));
        }
        // No line: named. A PE that exits non-zero: its rank and code.
        let e = run_team(&shell_team("true", 2, 20_000))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("test point") && e.contains("no result line"),
            "{e}"
        );
        let e = run_team(&shell_team(
            r#"[ "$HANDOFF_RANK" = 1 ] && exit 7; true"#,
            2,
            20_000,
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("PE 1") && e.contains("code 7"), "{e}");
        // A PE that never ends: killed at the deadline, not waited for.
        let e = run_team(&shell_team("exec sleep 30", 2, 300))
            .unwrap_err()
            .to_string();
        assert!(e.contains("did not finish within"), "{e}");
    }
}

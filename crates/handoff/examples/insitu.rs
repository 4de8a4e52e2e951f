//! In-situ analysis over a zero-copy channel: a "simulation" process advances a 2-D heat
//! field and publishes it every step; an "analysis" process reduces each field in place
//! (total heat, min, max) without a copy, and checks it.
//!
//! `cargo run --release -p handoff --example insitu [STEPS] [GRID]` (defaults 2000 steps of a
//! 256 x 256 grid, a 512 KiB block per step).
//!
//! The analysis is this example re-executed (`--insitu-analysis NAME STEPS GRID`); it never
//! forks. The heat equation on a periodic grid conserves total heat, so every step's total
//! must equal the first one's (to rounding), and the simulation's own total, stored in the
//! block's header, must equal what the analysis computes from the field: a torn or stale
//! block fails the run.
//!
//! Either side ending early is reported by the other, and the channel's segment never
//! outlives the pair. The analysis runs in its own process group (a terminal's Ctrl-C reaches
//! the simulation only) and does not die with its parent: it learns of the simulation's end
//! through the channel. SIGINT/SIGTERM/SIGHUP stop the simulation at the next step: it closes
//! and removes the channel, the analysis reports "the simulation stopped after N of M steps",
//! and the simulation exits 128 + the signal. A SIGKILLed simulation is reported by the
//! analysis as "simulation died: ..." (the channel's peer watch), which then removes the dead
//! creator's segment; a dead analysis is reported by the simulation as "analysis died: ...".

use handoff::channel::{Channel, ChannelConfig, ChannelError};
use handoff::sys::Deadline;
use handoff_probe::proc::{ChildGuard, Watchdog};
use std::error::Error;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

const CHILD_ARG: &str = "--insitu-analysis";
/// Block header (f64s): step number, the simulation's total heat.
const HEADER: usize = 2;
/// A step that takes longer than this means the other side is stuck.
const STEP_LIMIT: Duration = Duration::from_secs(30);
/// Blocks in flight: the simulation may run this many steps ahead of the analysis.
const IN_FLIGHT: usize = 3;

fn config(grid: usize) -> ChannelConfig {
    ChannelConfig::new((HEADER + grid * grid) * 8, IN_FLIGHT)
}

/// How the run ended, when it did not simply succeed.
enum End {
    /// A signal stopped the simulation (the signal number).
    Stopped(i32),
    /// Anything else: the one-line message.
    Failed(String),
}

impl<E: Error> From<E> for End {
    fn from(e: E) -> End {
        End::Failed(e.to_string())
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (who, r) = if args.get(1).map(String::as_str) == Some(CHILD_ARG) {
        ("analysis", analysis(&args[2..]))
    } else {
        let num = |i: usize, default: usize| -> Result<usize, End> {
            args.get(i).map_or(Ok(default), |s| {
                s.parse::<usize>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(End::Failed(format!(
                        "argument {i} must be a positive integer, not {s:?}"
                    )))
            })
        };
        let r = num(1, 2000).and_then(|steps| simulation(steps, num(2, 256)?));
        ("simulation", r)
    };
    // Everything (the channel, the child) is dropped by now: one line, then the exit code.
    let (line, code) = match r {
        Ok(()) => return ExitCode::SUCCESS,
        Err(End::Stopped(sig)) => (
            format!("{who}: stopped by signal {sig}; the channel is removed\n"),
            ExitCode::from(128 + sig as u8),
        ),
        Err(End::Failed(msg)) => (format!("{who}: {msg}\n"), ExitCode::FAILURE),
    };
    // One write(2) for the line: both sides share the terminal.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
    code
}

/// The signal that asked the simulation to stop (0: none).
static STOP: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_stop(sig: libc::c_int) {
    // An atomic store is async-signal-safe; the step loop reads it (Relaxed: a flag, no data
    // goes with it).
    STOP.store(sig, Ordering::Relaxed);
}

/// SIGINT, SIGTERM and SIGHUP set [`STOP`] instead of killing the simulation, so it removes
/// its channel and reports.
fn catch_stop_signals() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value; the handler
        // only stores into an atomic (async-signal-safe).
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
            act.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }
}

/// `Err(Stopped)` once a stop signal came.
fn check_stop() -> Result<(), End> {
    match STOP.load(Ordering::Relaxed) {
        0 => Ok(()),
        sig => Err(End::Stopped(sig)),
    }
}

/// How long one wait lasts before the simulation checks for a stop signal.
const POLL: Duration = Duration::from_millis(100);

/// Advances the field and publishes it every step, written in place in the loaned block.
fn simulation(steps: usize, grid: usize) -> Result<(), End> {
    catch_stop_signals();
    let chan = Channel::create("insitu", config(grid))?;
    let mut tx = chan.producer()?;
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.args([
        CHILD_ARG,
        chan.name().expect("named channel"),
        &steps.to_string(),
        &grid.to_string(),
    ])
    // Its own process group: a terminal's Ctrl-C stops the simulation, which closes the
    // channel; the analysis then reports and ends by itself.
    .process_group(0);
    let mut child = ChildGuard::spawn(&mut cmd).map_err(|e| End::Failed(e.to_string()))?;
    let _dog = Watchdog::new([child.process_id()], STEP_LIMIT * 4);

    let ran = produce(&mut tx, steps, grid);
    drop(tx); // closes the channel: the analysis drains and stops
    drop(chan); // removes the segment (the analysis keeps its mapping)
                // Also after a stop signal or an error: the analysis reports (the early close) first.
    let status = child
        .wait_deadline(Deadline::after(STEP_LIMIT))
        .map_err(|e| End::Failed(e.to_string()))?
        .ok_or(End::Failed("the analysis did not finish".into()));
    let ran = ran?;
    let status = status?;
    if !status.success() {
        return Err(End::Failed(format!("the analysis failed: {status}")));
    }
    println!(
        "simulation: {steps} steps of {grid}x{grid} in {:.3} s ({:.1} µs per step; each field written once, into the loaned block)",
        ran.as_secs_f64(),
        ran.as_secs_f64() * 1e6 / steps as f64
    );
    Ok(())
}

/// The step loop: every step's field into a loaned block; stops early on a stop signal or a
/// dead analysis. Returns the time it took.
fn produce(
    tx: &mut handoff::channel::Producer,
    steps: usize,
    grid: usize,
) -> Result<Duration, End> {
    // A hot square in a cold field; `next` is scratch for the stencil.
    let mut field = vec![0.0f64; grid * grid];
    for y in grid / 4..grid / 2 {
        field[y * grid + grid / 4..y * grid + grid / 2].fill(100.0);
    }
    let mut next = field.clone();
    let t0 = Instant::now();
    for step in 0..steps {
        check_stop()?;
        diffuse(&field, &mut next, grid);
        std::mem::swap(&mut field, &mut next);
        let limit = Deadline::after(STEP_LIMIT);
        // In slices, so a stop signal is seen while the analysis holds every block.
        let mut block = loop {
            match tx.loan_timeout(limit.remaining().min(POLL)) {
                Err(ChannelError::Timeout { .. }) if !limit.expired() => check_stop()?,
                Err(e @ ChannelError::PeerGone { .. }) => {
                    return Err(End::Failed(format!("analysis died: {e}")))
                }
                Err(e @ ChannelError::Closed { .. }) => {
                    return Err(End::Failed(format!("analysis ended early: {e}")))
                }
                r => break r?,
            }
        };
        let data = block.as_mut_slice::<f64>();
        data[HEADER..].copy_from_slice(&field);
        data[0] = step as f64;
        data[1] = field.iter().sum();
        block.publish();
    }
    Ok(t0.elapsed())
}

/// One explicit step of the heat equation on a periodic grid (conserves total heat).
fn diffuse(u: &[f64], out: &mut [f64], n: usize) {
    const ALPHA: f64 = 0.2;
    for y in 0..n {
        let (up, down) = ((y + n - 1) % n, (y + 1) % n);
        for x in 0..n {
            let (left, right) = ((x + n - 1) % n, (x + 1) % n);
            let c = u[y * n + x];
            let lap =
                u[up * n + x] + u[down * n + x] + u[y * n + left] + u[y * n + right] - 4.0 * c;
            out[y * n + x] = c + ALPHA * lap;
        }
    }
}

/// Receives every step and reduces it in place.
fn analysis(args: &[String]) -> Result<(), End> {
    let [name, steps, grid] = args else {
        return Err(End::Failed(
            "usage: --insitu-analysis NAME STEPS GRID".into(),
        ));
    };
    let (steps, grid): (u64, usize) = (steps.parse()?, grid.parse()?);
    let chan = Channel::open(name, config(grid), Deadline::after(STEP_LIMIT))?;
    let mut rx = chan.consumer()?;
    let mut first_total = None;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    loop {
        let block = match rx.recv_timeout(STEP_LIMIT) {
            Ok(b) => b,
            Err(ChannelError::Closed { .. }) => break,
            Err(e @ ChannelError::PeerGone { .. }) => {
                // Its creator is dead, so nobody else removes the segment.
                handoff::shm::remove_if_stale(name);
                return Err(End::Failed(format!("simulation died: {e}")));
            }
            Err(e) => return Err(e.into()),
        };
        let data = block.as_slice::<f64>();
        let (step, claimed, field) = (data[0], data[1], &data[HEADER..]);
        if step != block.seq() as f64 {
            return Err(End::Failed(format!(
                "block {} holds step {step}: lost or stale",
                block.seq()
            )));
        }
        let total: f64 = field.iter().sum();
        if total != claimed {
            return Err(End::Failed(format!(
                "step {step}: total {total} but the simulation wrote {claimed} (torn block)"
            )));
        }
        let first = *first_total.get_or_insert(total);
        if ((total - first) / first).abs() > 1e-9 {
            return Err(End::Failed(format!(
                "step {step}: total heat {total} drifted from {first}"
            )));
        }
        for &v in field {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if block.seq() % (steps / 4).max(1) == 0 {
            println!(
                "analysis: step {step:>6}: total heat {total:.6e}, max {:.3}",
                field.iter().cloned().fold(f64::MIN, f64::max)
            );
        }
    }
    if rx.received() != steps {
        return Err(End::Failed(format!(
            "the simulation stopped after {} of {steps} steps",
            rx.received()
        )));
    }
    println!(
        "analysis: {steps} steps checked (heat conserved, every block whole), field range {lo:.3}..{hi:.3}"
    );
    Ok(())
}

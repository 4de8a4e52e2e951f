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

use handoff::channel::{Channel, ChannelConfig, ChannelError};
use handoff::sync::Wait;
use handoff::sys::Deadline;
use handoff_probe::proc::{die_with_parent, ChildGuard, Watchdog};
use std::error::Error;
use std::process::Command;
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

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(CHILD_ARG) {
        return analysis(&args[2..]);
    }
    let num = |i: usize, default: usize| -> Result<usize, String> {
        args.get(i).map_or(Ok(default), |s| {
            s.parse::<usize>().ok().filter(|&n| n > 0).ok_or(format!(
                "argument {i} must be a positive integer, not {s:?}"
            ))
        })
    };
    let (steps, grid) = (num(1, 2000)?, num(2, 256)?);
    simulation(steps, grid)
}

/// Advances the field and publishes it every step, written in place in the loaned block.
fn simulation(steps: usize, grid: usize) -> Result<(), Box<dyn Error>> {
    let chan = Channel::create("insitu", config(grid))?;
    let mut tx = chan.producer()?;
    let mut child = ChildGuard::spawn(Command::new(std::env::current_exe()?).args([
        CHILD_ARG,
        chan.name().expect("named channel"),
        &steps.to_string(),
        &grid.to_string(),
    ]))?;
    let _dog = Watchdog::new([child.process_id()], STEP_LIMIT * 4);

    // A hot square in a cold field; `next` is scratch for the stencil.
    let mut field = vec![0.0f64; grid * grid];
    for y in grid / 4..grid / 2 {
        field[y * grid + grid / 4..y * grid + grid / 2].fill(100.0);
    }
    let mut next = field.clone();
    let t0 = Instant::now();
    for step in 0..steps {
        diffuse(&field, &mut next, grid);
        std::mem::swap(&mut field, &mut next);
        let mut block = tx.loan(Wait::ADAPTIVE, Some(Deadline::after(STEP_LIMIT)))?;
        let data = block.as_mut_slice::<f64>();
        data[HEADER..].copy_from_slice(&field);
        data[0] = step as f64;
        data[1] = field.iter().sum();
        block.publish();
    }
    let elapsed = t0.elapsed();
    drop(tx); // closes the channel: the analysis drains and stops
    let status = child
        .wait_deadline(Deadline::after(STEP_LIMIT))?
        .ok_or("the analysis did not finish")?;
    if !status.success() {
        return Err(format!("the analysis failed: {status}").into());
    }
    println!(
        "simulation: {steps} steps of {grid}x{grid} in {:.3} s ({:.1} µs per step; each field written once, into the loaned block)",
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1e6 / steps as f64
    );
    Ok(())
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
fn analysis(args: &[String]) -> Result<(), Box<dyn Error>> {
    die_with_parent()?;
    let [name, steps, grid] = args else {
        return Err("usage: --insitu-analysis NAME STEPS GRID".into());
    };
    let (steps, grid): (u64, usize) = (steps.parse()?, grid.parse()?);
    let chan = Channel::open(name, config(grid), Deadline::after(STEP_LIMIT))?;
    let mut rx = chan.consumer()?;
    let mut first_total = None;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    loop {
        let block = match rx.recv(Wait::ADAPTIVE, Some(Deadline::after(STEP_LIMIT))) {
            Ok(b) => b,
            Err(ChannelError::Closed { .. }) => break,
            Err(e) => return Err(e.into()),
        };
        let data = block.as_slice::<f64>();
        let (step, claimed, field) = (data[0], data[1], &data[HEADER..]);
        if step != block.seq() as f64 {
            return Err(format!("block {} holds step {step}: lost or stale", block.seq()).into());
        }
        let total: f64 = field.iter().sum();
        if total != claimed {
            return Err(format!(
                "step {step}: total {total} but the simulation wrote {claimed} (torn block)"
            )
            .into());
        }
        let first = *first_total.get_or_insert(total);
        if ((total - first) / first).abs() > 1e-9 {
            return Err(format!("step {step}: total heat {total} drifted from {first}").into());
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
        return Err(format!("received {} steps of {steps}", rx.received()).into());
    }
    println!(
        "analysis: {steps} steps checked (heat conserved, every block whole), field range {lo:.3}..{hi:.3}"
    );
    Ok(())
}

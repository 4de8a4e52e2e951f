//! Whether a waiter that polls its word while the answer is on its way slows the hand-off
//! down: two threads bounce in the c2c pattern (one word both ways) and in the put pattern
//! (each spins on its own word, the other stores into it), and after each store the sender
//! executes `K` `pause`s before its first poll, for K = 0..=MAX_K, interleaved.
//!
//! On this project's VM (issue #23, docs/results.md session 9) the c2c pattern is fastest at
//! K = 0, while the put pattern's time is a sawtooth in K: in `bench/poll_delay.c`'s bare
//! loop it was ~25% faster at K = 3, when the first poll comes just as the answer lands, so
//! the "store floor" a waiter that polls at once measures is not the hardware's. This loop's
//! poll counter shifts the polls' phase: here K = 0 already lands near the best in some runs.
//!
//! `cargo run --release -p handoff-probe --example poll_delay [ROUNDS] [CPU_A,CPU_B]`
//! (defaults 5 and the first two allowed CPUs). Spins on both CPUs: run it on a quiet machine.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use handoff::sync::WaitError;
use handoff::sys::{pin_current_thread, Deadline};
use handoff_probe::topology::cpu_pair;

/// Round trips per cell.
const ROUND_TRIPS: u64 = 20_000;
/// The most `pause`s before the first poll.
const MAX_K: u32 = 6;
/// Polls between two reads of the clock for the deadline.
const CHECK_EVERY: u32 = 1 << 14;

#[repr(align(128))]
struct Word(AtomicU64);

#[derive(Clone, Copy, PartialEq)]
enum Pattern {
    C2c,
    Put,
}

/// The words: `[0]` is the c2c word and the first party's put word, `[1]` the other's.
struct Words([Word; 2]);

/// Spins until `w` holds `want`; [`WaitError::Timeout`] at `deadline` (the other CPU busy).
fn wait_eq(w: &AtomicU64, want: u64, deadline: Deadline) -> Result<(), WaitError> {
    let mut polls = 0u32;
    // Acquire pairs with the other party's Release store of `want`.
    while w.load(Ordering::Acquire) != want {
        polls = polls.wrapping_add(1);
        if polls.is_multiple_of(CHECK_EVERY) && deadline.expired() {
            return Err(WaitError::Timeout);
        }
        std::hint::spin_loop();
    }
    Ok(())
}

fn pauses(k: u32) {
    for _ in 0..k {
        std::hint::spin_loop();
    }
}

/// One cell's round trips from sequence number `base` for party `first` or the other;
/// returns the elapsed time.
fn cell(w: &Words, p: Pattern, k: u32, base: u64, first: bool) -> Result<Duration, WaitError> {
    let deadline = Deadline::after(Duration::from_secs(30));
    let (mine, theirs) = match (p, first) {
        (Pattern::C2c, _) => (&w.0[0].0, &w.0[0].0),
        (Pattern::Put, true) => (&w.0[0].0, &w.0[1].0),
        (Pattern::Put, false) => (&w.0[1].0, &w.0[0].0),
    };
    let t0 = Instant::now();
    for i in 0..ROUND_TRIPS {
        let (ping, pong) = (base + 2 * i + 1, base + 2 * i + 2);
        if first {
            // Release pairs with the other party's Acquire load in `wait_eq(ping)`.
            theirs.store(ping, Ordering::Release);
            pauses(k);
            wait_eq(mine, pong, deadline)?;
        } else {
            wait_eq(mine, ping, deadline)?;
            // Release pairs with the first party's Acquire load in `wait_eq(pong)`.
            theirs.store(pong, Ordering::Release);
            pauses(k);
        }
    }
    Ok(t0.elapsed())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(Ok(5), |a| a.parse())?;
    let pair = cpu_pair(args.next().as_deref())?;
    if rounds == 0 {
        return Err("ROUNDS: at least 1".into());
    }
    let Some([a, b]) = pair else {
        println!("SKIP: needs two allowed CPUs");
        return Ok(());
    };
    let words = Words([Word(AtomicU64::new(0)), Word(AtomicU64::new(0))]);
    let cells: Vec<(Pattern, u32)> = [Pattern::C2c, Pattern::Put]
        .into_iter()
        .flat_map(|p| (0..=MAX_K).map(move |k| (p, k)))
        .collect();
    let meet = Barrier::new(2);
    let schedule = || (0..rounds).flat_map(|_| cells.iter().copied()).enumerate();
    // Each cell starts above every value of the cells before it.
    let base = |c: usize| c as u64 * 2 * ROUND_TRIPS;
    let mut ns: Vec<Vec<f64>> = vec![Vec::new(); cells.len()];
    std::thread::scope(|s| -> Result<(), Box<dyn std::error::Error>> {
        let other = s.spawn(|| -> handoff::Result<()> {
            pin_current_thread(b)?;
            for (c, (p, k)) in schedule() {
                meet.wait();
                cell(&words, p, k, base(c), false)?;
            }
            Ok(())
        });
        pin_current_thread(a)?;
        for (c, (p, k)) in schedule() {
            meet.wait();
            let t = cell(&words, p, k, base(c), true)?;
            ns[c % cells.len()].push(t.as_secs_f64() * 1e9 / (2 * ROUND_TRIPS) as f64);
        }
        other.join().map_err(|_| "the other thread panicked")??;
        Ok(())
    })?;
    println!(
        "one-way ns, CPU {a} <-> CPU {b}, {ROUND_TRIPS} round trips per cell, median of \
         {rounds} (K pauses after each store before the first poll)"
    );
    for (i, (p, k)) in cells.iter().enumerate() {
        if *k == 0 {
            print!("{:<4}", if *p == Pattern::C2c { "c2c" } else { "put" });
        }
        let v = &mut ns[i];
        v.sort_by(f64::total_cmp);
        print!("  K={k}: {:6.1}", v[v.len() / 2]);
        if *k == MAX_K {
            println!();
        }
    }
    Ok(())
}

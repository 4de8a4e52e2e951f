//! Whether a cache line's one-way transfer time depends on where the line is: the c2c
//! pattern (one word, both directions; `handoff_probe::words::WordBounce`) on `LINES` lines
//! of one buffer, one per page at a different offset in each, swept `SWEEPS` times between
//! two CPUs. A line that is consistently faster or slower than the others across sweeps (the
//! spread across lines well above the spread of one line across sweeps) means a floor taken
//! on one line is a draw of that lottery for any other (issue #23; the lab's team floors
//! bounce on the hop's own lines for this reason).
//!
//! `cargo run --release -p handoff-probe --example c2c_lines [LINES] [SWEEPS] [CPU_A,CPU_B]`
//! (defaults 16, 5 and the first two allowed CPUs). Spins on both CPUs: run it on a quiet
//! machine, ideally under `chrt -f 10`.

use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use handoff::sys::{pin_current_thread, Deadline};
use handoff_probe::topology::cpu_pair;
use handoff_probe::words::WordBounce;

/// Round trips per line per sweep.
const ROUND_TRIPS: u64 = 5_000;
/// Bytes between two lines: a page and a line, so each line sits in its own page at its own
/// offset.
const STRIDE: usize = 4096 + 64;
const WORDS_PER_STRIDE: usize = STRIDE / 8;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    (v[(n - 1) / 2] + v[n / 2]) / 2.0
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let lines: usize = args.next().map_or(Ok(16), |a| a.parse())?;
    let sweeps: usize = args.next().map_or(Ok(5), |a| a.parse())?;
    let pair = cpu_pair(args.next().as_deref())?;
    if lines == 0 || sweeps == 0 {
        return Err("LINES and SWEEPS: at least 1 each".into());
    }
    let Some([a, b]) = pair else {
        println!("SKIP: needs two allowed CPUs");
        return Ok(());
    };
    // One word per stride, from the buffer's first 64-byte boundary: each a line's first.
    let words: Vec<AtomicU64> = (0..(lines + 1) * WORDS_PER_STRIDE)
        .map(|_| AtomicU64::new(0))
        .collect();
    let skip = (64 - (words.as_ptr() as usize % 64)) % 64 / 8;
    let word = |l: usize| &words[skip + l * WORDS_PER_STRIDE];
    let deadline = Deadline::after(Duration::from_secs(600));
    let mut ns = vec![vec![0.0; sweeps]; lines];
    std::thread::scope(
        |s| -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
            let answer = s.spawn(move || -> handoff::Result<()> {
                pin_current_thread(b)?;
                for sweep in 0..sweeps {
                    for l in 0..lines {
                        let w = word(l);
                        let base = 2 * ROUND_TRIPS * sweep as u64;
                        WordBounce::new(w, w, false).round_trips(base, ROUND_TRIPS, deadline)?;
                    }
                }
                Ok(())
            });
            pin_current_thread(a)?;
            for sweep in 0..sweeps {
                for (l, row) in ns.iter_mut().enumerate() {
                    let w = word(l);
                    let base = 2 * ROUND_TRIPS * sweep as u64;
                    let t0 = Instant::now();
                    WordBounce::new(w, w, true).round_trips(base, ROUND_TRIPS, deadline)?;
                    row[sweep] = t0.elapsed().as_secs_f64() * 1e9 / (2 * ROUND_TRIPS) as f64;
                }
            }
            answer
                .join()
                .map_err(|_| "the answering thread panicked")??;
            Ok(())
        },
    )
    .map_err(|e| e.to_string())?;

    println!("one-way ns, c2c pattern, CPU {a} <-> CPU {b}, {ROUND_TRIPS} round trips per cell");
    println!("{:>5} {:>8}  per sweep ... | median", "line", "offset");
    let mut medians = Vec::with_capacity(lines);
    let mut within = Vec::with_capacity(lines);
    for (l, row) in ns.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:6.1}")).collect();
        let mut sorted = row.clone();
        let m = median(&mut sorted);
        println!("{l:>5} {:>8}  {} | {m:6.1}", l * STRIDE, cells.join(" "));
        medians.push(m);
        within.push(sorted[sorted.len() - 1] / sorted[0]);
    }
    let mut sorted = medians.clone();
    let mid = median(&mut sorted);
    let (lo, hi) = (sorted[0], sorted[sorted.len() - 1]);
    println!(
        "across lines: per-line medians {lo:.1}-{hi:.1} ns (median {mid:.1}), max/min {:.2}",
        hi / lo
    );
    println!(
        "within a line across sweeps: max/min {:.2} at the median line",
        median(&mut within)
    );
    if sweeps >= 4 && lines >= 3 {
        // Even and odd sweeps interleave, so a drift of the host weighs on both halves alike.
        let half = |parity: usize| -> Vec<f64> {
            ns.iter()
                .map(|row| {
                    let mut v: Vec<f64> = row.iter().skip(parity).step_by(2).copied().collect();
                    median(&mut v)
                })
                .collect()
        };
        println!(
            "per-line medians of the even sweeps against the odd ones: Pearson r = {:.2} \
             (near 1: where a line lies decides its time; near 0: noise)",
            pearson(&half(0), &half(1))
        );
    }
    Ok(())
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum::<f64>().sqrt();
    let sy: f64 = y.iter().map(|b| (b - my).powi(2)).sum::<f64>().sqrt();
    cov / (sx * sy)
}

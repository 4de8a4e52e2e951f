//! Barrier and 8-byte all-to-all round time against team size, with fitted models.
//!
//! ```text
//! cargo run --release -p handoff --example team_scale_bench -- [MAX_PES] [WAIT]
//! ```
//!
//! The launcher (this program outside a team) starts teams of 2, 4, ... MAX_PES (default
//! 256) PEs of itself with wait WAIT (default `block`); each team times ROUNDS barriers and
//! ROUNDS all-to-all rounds (every PE puts 8 B to every other, then a barrier) on PE 0 after
//! a warm-up, and prints one line. The launcher fits `t = a + b x` by least squares with
//! x = `log2 p`, `p` (one PE's work) and `p log2 p`, `p²` (the team's total work, what a
//! machine with fewer CPUs than PEs pays), and prints each fit's R².

use handoff::sync::Wait;
use handoff::team::{in_team, Launch, Team};
use std::io::Read;
use std::time::Instant;

const ROUNDS: usize = 50;

fn pe() -> Result<(), handoff::Error> {
    let team = Team::from_env()?;
    let (me, p) = (team.rank(), team.size());
    let win = team.alloc::<u64>(p)?;
    for _ in 0..5 {
        team.barrier_all()?;
    }
    let t = Instant::now();
    for _ in 0..ROUNDS {
        team.barrier_all()?;
    }
    let barrier = t.elapsed().as_secs_f64() / ROUNDS as f64;
    let t = Instant::now();
    for r in 0..ROUNDS as u64 {
        for k in 1..p {
            team.put(&win, me, &[r], (me + k) % p)?;
        }
        team.barrier_all()?;
    }
    let a2a = t.elapsed().as_secs_f64() / ROUNDS as f64;
    if me == 0 {
        println!("{p} {barrier:.9} {a2a:.9}");
    }
    team.finalize()?;
    Ok(())
}

/// Least squares of y = a + b x; returns (a, b, R²).
fn fit(x: &[f64], y: &[f64]) -> (f64, f64, f64) {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let b = sxy / sxx;
    let a = my - b * mx;
    let ss_res: f64 = x
        .iter()
        .zip(y)
        .map(|(xi, yi)| (yi - a - b * xi).powi(2))
        .sum();
    let ss_tot: f64 = y.iter().map(|yi| (yi - my).powi(2)).sum();
    (a, b, 1.0 - ss_res / ss_tot)
}

type Model = (&'static str, fn(f64) -> f64);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if in_team() {
        return Ok(pe()?);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let max: usize = args.first().map_or(Ok(256), |s| s.parse())?;
    let wait: Wait = args.get(1).map_or(Ok(Wait::Block), |s| s.parse())?;
    let exe = std::env::current_exe()?;
    let (mut ps, mut bar, mut a2a) = (vec![], vec![], vec![]);
    let mut p = 2;
    while p <= max {
        let mut running = Launch::new(p)
            .program(&exe)
            .args(Vec::<String>::new())
            .wait(wait)
            .heap(64 << 10)
            .capture_stdout(true)
            .spawn()?;
        let mut line = String::new();
        if let Some(mut out) = running.take_stdout(0) {
            out.read_to_string(&mut line)?;
        }
        running.wait()?.into_result()?;
        let f: Vec<f64> = line
            .split_whitespace()
            .filter_map(|v| v.parse().ok())
            .collect();
        if f.len() == 3 {
            println!(
                "p={p:4}  barrier {:9.1} us  alltoall-8B {:9.1} us",
                f[1] * 1e6,
                f[2] * 1e6
            );
            ps.push(p as f64);
            bar.push(f[1]);
            a2a.push(f[2]);
        }
        p *= 2;
    }
    let models: [Model; 4] = [
        ("log2 p", |p| p.log2()),
        ("p", |p| p),
        ("p log2 p", |p| p * p.log2()),
        ("p^2", |p| p * p),
    ];
    for (name, y) in [("barrier", &bar), ("alltoall-8B", &a2a)] {
        let fits: Vec<String> = models
            .iter()
            .map(|(m, f)| {
                let x: Vec<f64> = ps.iter().map(|&p| f(p)).collect();
                let (a, b, r2) = fit(&x, y);
                format!("{m}: a {:.1} us b {:.3} us R² {r2:.3}", a * 1e6, b * 1e6)
            })
            .collect();
        println!("{name} = a + b x, x = {}", fits.join(" | "));
    }
    Ok(())
}

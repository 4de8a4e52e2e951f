//! Benchmark (not a test): what the mixed path buys a job over several nodes, measured on
//! one machine with pretend nodes. One run starts `mpirun -n 3` of itself with
//! `HANDOFF_MPI_NODES=2` (ranks {0,1} on one pretend node, {2} on the other) twice per
//! repetition — the default mixed window and `HANDOFF_MPI_WINDOW=rma` (every pair through
//! MPI RMA, what a multi-node job did before) — and prints both side by side.
//!
//! ```text
//! cargo build --release -p handoff-mpi --features mpi --example mixed_pairs
//! target/release/examples/mixed_pairs
//! ```
//!
//! Figures, for the node-mate pair (PE 0 ↔ 1) and the cross-node pair (PE 0 ↔ 2); the third
//! PE waits in a barrier meanwhile (yielding its CPU):
//! - `put-signal 8 B`: one-way latency, half the round trip of a ping-pong of
//!   `put_signal(Set(i))` and `signal_wait_until(>= i)`, median over iterations;
//! - `put 1 MiB`: a blocking put of 1 MiB then `quiet`, median time, as GB/s.
//!
//! Data are checked (each ping-pong's bytes, the last put's bytes); a wrong value aborts.

use std::io::Write;
use std::time::{Duration, Instant};

use handoff::team::{Cmp, SignalOp, Team, Transport};

const OUT_ENV: &str = "HANDOFF_BENCH_OUT";
const PE_ENV: &str = "HANDOFF_MIXED_BENCH_PE";
const REPS: usize = 3;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Half round trips of an 8 B put-signal ping-pong between PE 0 and `peer`, in ns.
fn pingpong<X: Transport>(team: &Team<X>, peer: usize, iters: u64) -> Result<f64, String> {
    let e = |err| format!("pingpong 0 <-> {peer}: {err}");
    let buf = team.alloc::<u64>(1).map_err(e)?;
    let sig = team.alloc::<u64>(1).map_err(e)?;
    let me = team.rank();
    team.barrier_all().map_err(e)?;
    let mut samples = Vec::with_capacity(iters as usize);
    if me == 0 || me == peer {
        let other = if me == 0 { peer } else { 0 };
        for i in 1..=iters {
            // The value just received: the sender writes again only after our reply.
            let check = |team: &Team<X>| match team.local(&buf)[0] {
                v if v == i => Ok(()),
                v => Err(format!("pingpong 0 <-> {peer}: iteration {i} read {v}")),
            };
            let t = Instant::now();
            if me == 0 {
                team.put_signal(&buf, 0, &[i], sig, SignalOp::Set(i), other)
                    .map_err(e)?;
                team.signal_wait_until(sig, Cmp::Ge, i).map_err(e)?;
                check(team)?;
            } else {
                team.signal_wait_until(sig, Cmp::Ge, i).map_err(e)?;
                check(team)?;
                team.put_signal(&buf, 0, &[i], sig, SignalOp::Set(i), other)
                    .map_err(e)?;
            }
            samples.push(t.elapsed().as_nanos() as f64 / 2.0);
        }
    }
    team.barrier_all().map_err(e)?;
    Ok(if samples.is_empty() {
        0.0
    } else {
        median(samples.split_off(samples.len() / 10))
    })
}

/// GB/s of a 1 MiB put + quiet from PE 0 to `peer` (median of `iters`).
fn put_1mib<X: Transport>(team: &Team<X>, peer: usize, iters: usize) -> Result<f64, String> {
    let e = |err| format!("put 1 MiB to {peer}: {err}");
    let big = team.alloc::<u64>(1 << 17).map_err(e)?;
    let mut samples = Vec::with_capacity(iters);
    team.barrier_all().map_err(e)?;
    if team.rank() == 0 {
        for i in 0..iters as u64 {
            let src = vec![i + 1; 1 << 17];
            let t = Instant::now();
            team.put(&big, 0, &src, peer).map_err(e)?;
            team.quiet();
            samples.push(t.elapsed().as_nanos() as f64);
        }
    }
    team.barrier_all().map_err(e)?;
    if team.rank() == peer {
        let got = team.local(&big);
        if got[0] != iters as u64 || got[(1 << 17) - 1] != iters as u64 {
            return Err(format!(
                "put 1 MiB to {peer}: the last put's data are wrong"
            ));
        }
    }
    Ok(if samples.is_empty() {
        0.0
    } else {
        (1 << 20) as f64 / median(samples)
    })
}

fn pe_main() -> ! {
    let team = handoff_mpi::join().expect("join the MPI team");
    let run = || -> Result<Vec<(String, f64, &'static str)>, String> {
        let mut out = Vec::new();
        for (peer, pair) in [(1, "node mates 0-1"), (2, "across nodes 0-2")] {
            let route = team.route(peer).ok_or("PE out of the team")?;
            let ns = pingpong(&team, peer, 4000)?;
            out.push((format!("put-signal 8 B, {pair} ({route})"), ns, "ns"));
            let gbs = put_1mib(&team, peer, 200)?;
            out.push((format!("put 1 MiB + quiet, {pair} ({route})"), gbs, "GB/s"));
        }
        Ok(out)
    };
    let res = run().unwrap_or_else(|e| {
        eprintln!("PE {}: {e}", team.rank());
        std::process::exit(1)
    });
    if team.rank() == 0 {
        let path = std::env::var(OUT_ENV).expect("the driver sets the output file");
        let mut f = std::fs::File::create(path).expect("create the result file");
        for (name, v, unit) in res {
            writeln!(f, "{name}\t{v}\t{unit}").unwrap();
        }
    }
    team.finalize().expect("finalize");
    std::process::exit(0)
}

fn main() {
    if std::env::var_os(PE_ENV).is_some() {
        pe_main();
    }
    let out = |side: &str| {
        std::env::temp_dir().join(format!("handoff-mixed-{side}-{}", std::process::id()))
    };
    const SIDES: [&str; 2] = ["mixed", "rma"];
    // Per side: rows of (figure, unit, one value per repetition), in the order measured.
    let mut rows: [Vec<(String, String, Vec<f64>)>; 2] = Default::default();
    for rep in 0..REPS {
        for (k, window) in SIDES.iter().enumerate() {
            eprintln!("repetition {}/{REPS}: {window}", rep + 1);
            let status = std::process::Command::new("mpirun")
                .args(["-n", "3"])
                .arg(std::env::current_exe().unwrap())
                .env(PE_ENV, "1")
                .env(OUT_ENV, out(window))
                .env(handoff_mpi::ENV_WINDOW, window)
                .env(handoff_mpi::ENV_NODES, "2")
                .env("HANDOFF_HEAP_SIZE", "8M")
                .env("MPIEXEC_TIMEOUT", "300")
                .status()
                .expect("run mpirun (is MPI installed?)");
            assert!(status.success(), "the MPI job ({window}) failed: {status}");
            let text = std::fs::read_to_string(out(window)).unwrap_or_default();
            let _ = std::fs::remove_file(out(window));
            for (i, line) in text.lines().enumerate() {
                let f: Vec<&str> = line.split('\t').collect();
                let v: f64 = f[1].parse().expect("a figure");
                if rep == 0 {
                    rows[k].push((f[0].to_string(), f[2].to_string(), vec![v]));
                } else {
                    rows[k][i].2.push(v);
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    println!(
        "median of {REPS} runs' medians [min-max]; 3 ranks on 2 pretend nodes ({{0,1}}, {{2}}); \
         load average at the end: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let cell = |v: &[f64], unit: &str| {
        let mut v = v.to_vec();
        v.sort_by(|a, b| a.total_cmp(b));
        let fmt = |x: f64| {
            if x >= 100.0 {
                format!("{x:.0}")
            } else {
                format!("{x:.2}")
            }
        };
        let (mid, lo, hi) = (v[v.len() / 2], v[0], v[v.len() - 1]);
        (
            mid,
            format!("{} {unit} [{}-{}]", fmt(mid), fmt(lo), fmt(hi)),
        )
    };
    println!(
        "{:<52} {:>26} {:>26} {:>14}",
        "figure (mixed run's route)", "mixed", "all RMA", "mixed gain"
    );
    for (m, r) in rows[0].iter().zip(&rows[1]) {
        let (a, ca) = cell(&m.2, &m.1);
        let (b, cb) = cell(&r.2, &r.1);
        // Lower is better for ns, higher for GB/s: the gain is how many times better.
        let gain = if m.1 == "ns" { b / a } else { a / b };
        println!("{:<52} {ca:>26} {cb:>26} {gain:>13.2}x", m.0);
    }
}

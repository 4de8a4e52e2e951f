//! Benchmark (not a test): the same team code over handoff's shared-memory transport and
//! over the MPI transport, on this node, side by side in one run.
//!
//! ```text
//! cargo build --release -p handoff-mpi --features mpi --example mpi_vs_shm
//! target/release/examples/mpi_vs_shm            # starts both teams itself
//! ```
//!
//! The driver starts a 2-PE shared-memory team (re-executing itself through
//! `handoff::team::Launch`), then `mpirun -n 2` of itself twice — with a shared window
//! (`HANDOFF_MPI_WINDOW=shared`, the default on one node) and with MPI RMA calls
//! (`HANDOFF_MPI_WINDOW=rma`, the inter-node path) — then all three again with 2 and 4 PEs
//! for the all-to-all; each team's rank 0 writes its figures to a file the driver reads. PEs are
//! unpinned, waits adaptive (MPI: polling, see the crate docs). Figures:
//! - `put-signal 8 B / 4 KiB`: one-way latency, half the round trip of a ping-pong of
//!   `put_signal(Set(i))` and `signal_wait_until(>= i)`, median over iterations;
//! - `put 1 MiB`: a blocking put of 1 MiB then `quiet`, median time, as GB/s;
//! - `fence`: an 8 B put then `fence`, median time of the pair;
//! - `alltoall S`: every PE counting-puts S bytes to every other PE and waits for its
//!   counter to reach p − 1, then a barrier; bandwidth per PE = (p − 1)·S over the median
//!   round (barrier included).
//!
//! Every figure is a median of per-iteration samples; data are checked (the ping-pong's
//! sequence, every all-to-all block's stamp), a wrong value aborts the run.

use std::io::Write;
use std::time::{Duration, Instant};

use handoff::team::{Cmp, SignalOp, Team, Transport};

const OUT_ENV: &str = "HANDOFF_BENCH_OUT";
const MPI_PE_ENV: &str = "HANDOFF_MPI_BENCH_PE";
const WHAT_ENV: &str = "HANDOFF_BENCH_WHAT";
/// Whole runs of every side, interleaved, so a burst of load on the machine hits one run
/// of each rather than one side.
const REPS: usize = 3;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Half round trips of put-signal of `size` bytes between PE 0 and PE 1, in ns.
fn pingpong<X: Transport>(team: &Team<X>, size: usize, iters: u64) -> Result<f64, String> {
    let e = |err| format!("pingpong {size} B: {err}");
    let buf = team.alloc::<u8>(size).map_err(e)?;
    let sig = team.alloc::<u64>(1).map_err(e)?;
    let me = team.rank();
    let src = vec![me as u8; size];
    team.barrier_all().map_err(e)?;
    let mut samples = Vec::with_capacity(iters as usize);
    if me < 2 {
        let other = 1 - me;
        for i in 1..=iters {
            let t = Instant::now();
            if me == 0 {
                team.put_signal(&buf, 0, &src, sig, SignalOp::Set(i), other)
                    .map_err(e)?;
                team.signal_wait_until(sig, Cmp::Ge, i).map_err(e)?;
            } else {
                team.signal_wait_until(sig, Cmp::Ge, i).map_err(e)?;
                team.put_signal(&buf, 0, &src, sig, SignalOp::Set(i), other)
                    .map_err(e)?;
            }
            samples.push(t.elapsed().as_nanos() as f64 / 2.0);
            let got = team.local(&buf);
            if got[0] != other as u8 || got[size - 1] != other as u8 {
                return Err(format!("pingpong {size} B: iteration {i} read wrong data"));
            }
        }
    }
    team.barrier_all().map_err(e)?;
    Ok(median(
        samples.split_off(samples.len().min(iters as usize / 10)),
    ))
}

/// Median ns of `op` over `iters` runs on PE 0 (others wait in the barrier).
fn timed<X: Transport>(
    team: &Team<X>,
    iters: usize,
    mut op: impl FnMut() -> Result<(), String>,
) -> Result<f64, String> {
    let mut samples = Vec::with_capacity(iters);
    if team.rank() == 0 {
        for _ in 0..iters {
            let t = Instant::now();
            op()?;
            samples.push(t.elapsed().as_nanos() as f64);
        }
    }
    team.barrier_all().map_err(|e| e.to_string())?;
    Ok(if samples.is_empty() {
        0.0
    } else {
        median(samples)
    })
}

/// All-to-all of `size` bytes with counting puts; bandwidth per PE in GB/s.
fn alltoall<X: Transport>(team: &Team<X>, size: usize, iters: u64) -> Result<f64, String> {
    let e = |err| format!("alltoall {size} B: {err}");
    let (me, p) = (team.rank(), team.size());
    let words = size / 8;
    let inbox = team.alloc::<u64>(words * p).map_err(e)?;
    let ct = team.ct_create().map_err(e)?;
    team.barrier_all().map_err(e)?;
    let mut samples = Vec::with_capacity(iters as usize);
    for it in 1..=iters {
        let block = vec![(it << 16) | me as u64; words];
        let t = Instant::now();
        for k in 1..p {
            let to = (me + k) % p;
            team.put_ct(&ct, &inbox, me * words, &block, to)
                .map_err(e)?;
        }
        team.ct_wait(&ct, (p - 1) as u64).map_err(e)?;
        let got = team.local(&inbox);
        for from in (0..p).filter(|&f| f != me) {
            let want = (it << 16) | from as u64;
            if got[from * words] != want || got[from * words + words - 1] != want {
                return Err(format!(
                    "alltoall {size} B: round {it} block from PE {from} is wrong"
                ));
            }
        }
        team.ct_set(&ct, 0);
        team.barrier_all().map_err(e)?;
        // The whole round, barrier included: with more PEs than CPUs a PE that runs late
        // would otherwise time only its own (already finished) part.
        samples.push(t.elapsed().as_nanos() as f64);
    }
    let ns = median(samples.split_off((iters / 10) as usize));
    Ok(((p - 1) * size) as f64 / ns)
}

/// Every figure this team measures, as (name, value, unit) lines of `what` ("pair" or
/// "alltoall").
fn measure<X: Transport>(
    team: &Team<X>,
    what: &str,
) -> Result<Vec<(String, f64, &'static str)>, String> {
    let mut out = Vec::new();
    if what == "pair" {
        out.push((
            "put-signal 8 B one-way".into(),
            pingpong(team, 8, 4000)?,
            "ns",
        ));
        out.push((
            "put-signal 4 KiB one-way".into(),
            pingpong(team, 4096, 2000)?,
            "ns",
        ));
        let big = team.alloc::<u8>(1 << 20).map_err(|e| e.to_string())?;
        let src = vec![7u8; 1 << 20];
        let ns = timed(team, 200, || {
            team.put(&big, 0, &src, 1).map_err(|e| e.to_string())?;
            team.quiet();
            Ok(())
        })?;
        out.push(("put 1 MiB + quiet".into(), (1 << 20) as f64 / ns, "GB/s"));
        let small = team.alloc::<u64>(1).map_err(|e| e.to_string())?;
        let ns = timed(team, 4000, || {
            team.put(&small, 0, &[1], 1).map_err(|e| e.to_string())?;
            team.fence();
            Ok(())
        })?;
        out.push(("8 B put + fence".into(), ns, "ns"));
    } else {
        let p = team.size();
        for size in [4096, 1 << 20] {
            let iters = match (size > 65536, p > 2) {
                (false, false) => 1000,
                (true, false) | (false, true) => 100,
                (true, true) => 30,
            };
            let label = if size == 4096 { "4 KiB" } else { "1 MiB" };
            out.push((
                format!("alltoall {label}, {p} PEs, per PE"),
                alltoall(team, size, iters)?,
                "GB/s",
            ));
        }
    }
    Ok(out)
}

fn pe_main<X: Transport>(team: Team<X>) {
    let what = std::env::var(WHAT_ENV).unwrap_or_else(|_| "pair".into());
    let res = measure(&team, &what).unwrap_or_else(|e| {
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
    std::process::exit(0);
}

fn read(path: &std::path::Path) -> Vec<(String, f64, String)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let mut it = l.split('\t');
            Some((
                it.next()?.to_string(),
                it.next()?.parse().ok()?,
                it.next()?.to_string(),
            ))
        })
        .collect()
}

fn main() {
    if handoff::team::in_team() {
        pe_main(Team::from_env().expect("join the shm team"));
    }
    if std::env::var_os(MPI_PE_ENV).is_some() {
        pe_main(handoff_mpi::join().expect("join the MPI team"));
    }
    let dir = std::env::temp_dir();
    let out = |side: &str, n: usize, what: &str| {
        dir.join(format!(
            "handoff-bench-{side}-{}-{n}-{what}",
            std::process::id()
        ))
    };
    // Figure name -> unit and, per side, one value per repetition.
    let mut rows: Vec<(String, String, [Vec<f64>; 3])> = Vec::new();
    const SIDES: [&str; 3] = ["shm", "shared", "rma"];
    for rep in 0..REPS {
        for (n, what) in [(2, "pair"), (2, "alltoall"), (4, "alltoall")] {
            eprintln!("repetition {}/{REPS}: {what} on {n} PEs", rep + 1);
            let report = handoff::team::Launch::new(n)
                .heap(16 << 20)
                .env(OUT_ENV, out("shm", n, what))
                .env(WHAT_ENV, what)
                .timeout(Duration::from_secs(300))
                .run()
                .expect("start the shm team");
            assert!(report.success(), "the shm team failed: {:?}", report.exits);
            for window in ["shared", "rma"] {
                let status = std::process::Command::new("mpirun")
                    .args(["-n", &n.to_string()])
                    .arg(std::env::current_exe().unwrap())
                    .env(MPI_PE_ENV, "1")
                    .env(OUT_ENV, out(window, n, what))
                    .env(WHAT_ENV, what)
                    .env(handoff_mpi::ENV_WINDOW, window)
                    .env("HANDOFF_HEAP_SIZE", "16M")
                    .env("MPIEXEC_TIMEOUT", "300")
                    .status()
                    .expect("run mpirun (is MPI installed?)");
                assert!(
                    status.success(),
                    "the MPI job ({window} window) failed: {status}"
                );
            }
            for (k, side) in SIDES.iter().enumerate() {
                let path = out(side, n, what);
                for (name, v, unit) in read(&path) {
                    let at = match rows.iter().position(|r| r.0 == name) {
                        Some(at) => at,
                        None => {
                            rows.push((name, unit, Default::default()));
                            rows.len() - 1
                        }
                    };
                    rows[at].2[k].push(v);
                }
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    println!(
        "median of {REPS} runs' medians [min-max]; load average at the end: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    println!(
        "{:<30} {:>24} {:>24} {:>24}",
        "figure", "handoff shm", "MPI shared window", "MPI RMA window"
    );
    for (name, unit, sides) in rows {
        let cell = |v: &Vec<f64>| {
            let mut v = v.clone();
            v.sort_by(|a, b| a.total_cmp(b));
            let fmt = |x: f64| {
                if x >= 100.0 {
                    format!("{x:.0}")
                } else {
                    format!("{x:.2}")
                }
            };
            format!(
                "{} {unit} [{}-{}]",
                fmt(v[v.len() / 2]),
                fmt(v[0]),
                fmt(v[v.len() - 1])
            )
        };
        println!(
            "{name:<30} {:>24} {:>24} {:>24}",
            cell(&sides[0]),
            cell(&sides[1]),
            cell(&sides[2])
        );
    }
}

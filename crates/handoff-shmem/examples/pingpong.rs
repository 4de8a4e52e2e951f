//! The ping-pong of `bench/pingpong.c` written on the Rust team API, and a driver that runs
//! both — the C program through the OpenSHMEM shim and this one — side by side, alternating
//! runs, and prints the one-way latency (half round trip) of each with the C/Rust ratio:
//!
//! ```text
//! cargo run --release -p handoff-shmem --example pingpong [-- RUNS]
//! ```
//!
//! As a PE (started by the driver with `METHOD SIZE ITERS`) it plays one side of the
//! ping-pong: `fence-flag` (put; fence; atomic increment of the peer's flag | wait until the
//! flag counts the message) or `put-signal` (put with signal | wait on the signal), the data
//! checked every iteration, and PE 0 prints `RESULT METHOD SIZE NS`: the median over
//! chunks of [`CHUNK`] iterations of each chunk's mean (a chunk another process preempted
//! does not move it: on a busy machine most chunks are clean).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use handoff::team::{in_team, Cmp, Launch, Placement, SignalOp, Team, TeamError};

/// Iterations per timed chunk (as in `bench/pingpong.c`).
const CHUNK: u64 = 64;

fn pe(method: &str, size: usize, iters: u64) -> Result<(), TeamError> {
    let team = Team::from_env()?;
    let (me, peer) = (team.rank(), 1 - team.rank());
    let words = size.max(8) / 8;
    let buf = team.alloc::<u64>(words)?;
    let flag = team.alloc::<u64>(1)?;
    let mut src = vec![0u64; words];
    let signal = method == "put-signal";
    let warm = iters / 10 + 1;
    let chunk = CHUNK;
    let iters = chunk * (iters / CHUNK).max(1);
    let mut chunks = Vec::with_capacity((iters / chunk) as usize);
    let mut t0 = Instant::now();
    for i in 1..=warm + iters {
        if i > warm && (i - warm - 1).is_multiple_of(chunk) {
            if i > warm + 1 {
                chunks.push(t0.elapsed().as_nanos() as f64 / chunk as f64);
            }
            t0 = Instant::now();
        }
        let sender = if i % 2 == 1 { 0 } else { 1 };
        if me == sender {
            src[0] = i;
            src[words - 1] = i;
            if signal {
                team.put_signal(&buf, 0, &src, flag, SignalOp::Set(i), peer)?;
            } else {
                team.put(&buf, 0, &src, peer)?;
                team.fence();
                team.atomic_add(flag, 1u64, peer)?;
            }
        } else {
            let want = if signal {
                i
            } else {
                (i + u64::from(me == 1)) / 2
            };
            team.signal_wait_until(flag, Cmp::Ge, want)?;
            let got = team.local(&buf);
            if got[0] != i || got[words - 1] != i {
                eprintln!("PE {me}: iteration {i}: data {}/{}", got[0], got[words - 1]);
                std::process::exit(3);
            }
        }
    }
    chunks.push(t0.elapsed().as_nanos() as f64 / chunk as f64);
    let ns = median(&mut chunks);
    if me == 0 {
        println!("RESULT {method} {size} {ns:.1}");
    }
    team.finalize()
}

/// Runs one team of 2 PEs pinned to CPUs 0 and 1 and returns PE 0's result (ns).
fn one_run(program: &Path, args: &[String], libdir: &Path) -> f64 {
    let mut running = Launch::new(2)
        .program(program)
        .args(args)
        .cores(Placement::Cores(vec![0, 1]))
        .env("LD_LIBRARY_PATH", libdir)
        .capture_stdout(true)
        .timeout(std::time::Duration::from_secs(120))
        .spawn()
        .expect("start the team");
    let mut out = String::new();
    running
        .take_stdout(0)
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut rest = String::new();
    if let Some(mut o) = running.take_stdout(1) {
        o.read_to_string(&mut rest).unwrap();
    }
    let report = running.wait().expect("wait for the team");
    assert!(report.success(), "{program:?} {args:?}: {:?}", report.exits);
    out.lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .and_then(|r| r.split_whitespace().nth(2)?.parse().ok())
        .unwrap_or_else(|| panic!("no RESULT line from {program:?}: {out:?}"))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn driver(runs: usize) {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/examples/pingpong -> target/<profile>/deps holds libhandoff_shmem.so.
    let libdir = exe.parent().unwrap().parent().unwrap().join("deps");
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let c_prog = exe.with_file_name("pingpong-c");
    let st = Command::new(crate_dir.join("bin/oshcc"))
        .env("HANDOFF_SHMEM_LIBDIR", &libdir)
        .args(["-O2", "-o"])
        .arg(&c_prog)
        .arg(crate_dir.join("bench/pingpong.c"))
        .status()
        .expect("run bin/oshcc");
    assert!(st.success(), "oshcc bench/pingpong.c failed");
    println!(
        "one-way latency (half round trip), 2 PEs on CPUs 0 and 1, median of {runs} runs \
         (min..max), C and Rust runs alternating"
    );
    println!(
        "{:<11} {:>7} {:>22} {:>22} {:>8}",
        "method", "size", "C shim ns", "Rust team ns", "C/Rust"
    );
    for method in ["fence-flag", "put-signal"] {
        for size in [8usize, 64, 4096, 65536] {
            let iters = (200_000 / (1 + size / 512)).max(2_000) as u64;
            let args = vec![method.to_string(), size.to_string(), iters.to_string()];
            let (mut c, mut r) = (Vec::new(), Vec::new());
            for _ in 0..runs {
                c.push(one_run(&c_prog, &args, &libdir));
                r.push(one_run(&exe, &args, &libdir));
            }
            let span = |v: &[f64]| {
                let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = v.iter().copied().fold(0.0, f64::max);
                format!("{lo:.0}..{hi:.0}")
            };
            let (cs, rs) = (span(&c), span(&r));
            let (cm, rm) = (median(&mut c), median(&mut r));
            println!(
                "{method:<11} {size:>7} {:>22} {:>22} {:>8.2}",
                format!("{cm:.0} ({cs})"),
                format!("{rm:.0} ({rs})"),
                cm / rm
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if in_team() {
        let (method, size, iters) = (&args[0], args[1].parse().unwrap(), args[2].parse().unwrap());
        if let Err(e) = pe(method, size, iters) {
            eprintln!("pingpong PE: {e}");
            std::process::exit(1);
        }
    } else {
        driver(args.first().and_then(|r| r.parse().ok()).unwrap_or(5));
    }
}

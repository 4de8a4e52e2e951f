//! Prints the machine's placement classes and the one-way cache-line latency (median, ns)
//! between every pair of allowed CPUs.
//!
//! `cargo run --release -p handoff --example c2c [CPU-LIST]`, e.g. `0-3,8`. With more than
//! 16 CPUs and no list, measures the first allowed CPU against every other one.

use handoff::sys::{allowed_cpus, format_cpu_list, parse_cpu_list};
use handoff_probe::clock::Clock;
use handoff_probe::floor::{c2c, C2cOptions};

/// Above this many CPUs, the full matrix takes too long by default.
const MATRIX_MAX: usize = 16;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let allowed = allowed_cpus()?;
    let (cpus, full) = match std::env::args().nth(1) {
        Some(list) => (parse_cpu_list(&list)?, true),
        None => (allowed.clone(), allowed.len() <= MATRIX_MAX),
    };
    let clock = Clock::detect();
    let cal = clock.calibration();
    println!(
        "allowed CPUs {}; clock {} ({:.3} ticks/ns, {:.1} ns per read)",
        format_cpu_list(&allowed),
        cal.source,
        cal.ticks_per_ns,
        cal.read_cost_ns
    );
    // The machine's placement classes: one example pair each.
    let topo = handoff_probe::topology::Topology::detect()?;
    println!("topology: {}", topo.summary());
    println!("placement classes (one example CPU pair each):");
    for (class, a, b) in topo.class_pairs(&allowed) {
        println!("  {:<13} CPU {a} <-> CPU {b}", class.as_str());
    }
    if cpus.len() < 2 {
        println!(
            "only one CPU ({}): no pair to measure",
            format_cpu_list(&cpus)
        );
        return Ok(());
    }
    let opts = C2cOptions::default();
    if !full {
        println!(
            "{} CPUs: CPU {} against each other CPU",
            cpus.len(),
            cpus[0]
        );
        for &b in &cpus[1..] {
            let r = c2c(cpus[0], b, &opts)?;
            println!(
                "{:>4} <-> {:<4} {:>8.1} ns",
                cpus[0], b, r.median_one_way_ns
            );
        }
        return Ok(());
    }
    println!("one-way latency, median ns (row pings, column pongs):");
    print!("{:>6}", "");
    for b in &cpus {
        print!("{b:>8}");
    }
    println!();
    for &a in &cpus {
        print!("{a:>6}");
        for &b in &cpus {
            if a == b {
                print!("{:>8}", "-");
            } else {
                print!("{:>8.1}", c2c(a, b, &opts)?.median_one_way_ns);
            }
        }
        println!();
    }
    Ok(())
}

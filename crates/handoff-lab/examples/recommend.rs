//! Prints the recommendation's picks for saved results: `cargo run --release -p handoff-lab
//! --example recommend -- A/results.json B/results.json ...` — one line per file, size class
//! and placement (`file|class|placement|mode`), then how many picks agree across the files.
//! This is how the recommendation's stability over repeated `handoff report` runs is measured.

use std::collections::BTreeMap;
use std::path::Path;

use handoff_lab::experiments::exchange::recommend::recommend;
use handoff_lab::experiments::exchange::record;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: recommend RESULTS.json...");
        std::process::exit(2);
    }
    let mut picks: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut whole: Vec<String> = Vec::new();
    for f in &files {
        let res = match record::load(Path::new(f)) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let rec = recommend(&res);
        let mut all = Vec::new();
        for p in &rec.picks {
            println!("{f}|{}|{}|{}", p.class.name, p.placement, p.mode);
            if std::env::var_os("VERBOSE").is_some() {
                println!(
                    "    best measured {}, tied {:?}, ranking {:?}",
                    p.best_measured, p.tied, p.ranking
                );
            }
            picks
                .entry((p.class.name.clone(), p.placement.clone()))
                .or_default()
                .push(p.mode.clone());
            all.push(p.mode.clone());
        }
        whole.push(all.join(","));
    }
    let mut stable = 0;
    for ((class, pl), modes) in &picks {
        let mut counts: BTreeMap<&String, usize> = BTreeMap::new();
        for m in modes {
            *counts.entry(m).or_default() += 1;
        }
        let (top, n) = counts
            .iter()
            .max_by_key(|(_, n)| **n)
            .map_or((None, 0), |(m, n)| (Some(*m), *n));
        if n * 5 >= modes.len() * 4 {
            stable += 1;
        }
        println!(
            "{n}/{} {class} | {pl}: {:?} (most: {top:?})",
            modes.len(),
            modes
        );
    }
    let mut counts: BTreeMap<&String, usize> = BTreeMap::new();
    for w in &whole {
        *counts.entry(w).or_default() += 1;
    }
    let best = counts.values().max().copied().unwrap_or(0);
    println!(
        "picks named by at least 4 of 5 files: {stable} of {}; whole recommendation identical in {best} of {} files",
        picks.len(),
        files.len()
    );
}

//! The per-CPU figure's table on a large machine: one row per placement class of the
//! consumer (relative to the producer) instead of one column per consumer CPU, so the table
//! stays at most seven rows however many CPUs were measured. Each row names the class's
//! representative CPUs; a cell is the median over them of each record's median, with their
//! range when there are several.

use super::figures::Figure;
use super::mode::ModeInfo;
use super::record::{ExchangeRecord as _, ExchangeResults as _};
use crate::bench::text::{fmt_ns, fmt_us};
use crate::bench::{BenchRecord, BenchResults};
use crate::machine::placement;
use crate::stats::{distinct, quantile_sorted, Metric};
use std::collections::BTreeMap;

use super::report_plan::MAX_ALL_CPUS;
use crate::report::doc::Block;

/// Whether the per-CPU table of `fig` is drawn per class: more consumer CPUs than a table
/// has room for, or a machine large enough that the plan measured representatives.
pub(super) fn wanted(results: &BenchResults, consumers: usize) -> bool {
    consumers > MAX_ALL_CPUS || results.machine.allowed_cpus.len() > MAX_ALL_CPUS
}

/// "26.1 µs" for one CPU, "26.1 µs (25.0–31.2 µs, 3 CPUs)" for several.
fn class_cell(mut values: Vec<f64>, fmt: fn(f64) -> String) -> String {
    if values.is_empty() {
        return "–".to_string();
    }
    let n = values.len();
    values.sort_by(f64::total_cmp);
    let m = fmt(quantile_sorted(&values, 0.5));
    let (lo, hi) = (fmt(values[0]), fmt(values[n - 1]));
    match n {
        1 => m,
        _ => format!("{m} ({lo}–{hi}, {n} CPUs)"),
    }
}

/// The per-class table of a per-CPU figure (`metric` of its records).
pub(super) fn per_class_table(results: &BenchResults, fig: &Figure, metric: Metric) -> Vec<Block> {
    let recs: Vec<&BenchRecord> = fig.records.iter().map(|&i| &results.records[i]).collect();
    // class (nearest first) -> its consumer CPUs and records
    let mut classes: BTreeMap<(u8, String), Vec<&BenchRecord>> = BTreeMap::new();
    for r in &recs {
        classes
            .entry((placement::rank(r.placement()), r.placement().to_string()))
            .or_default()
            .push(r);
    }
    let modes = ModeInfo::sorted(recs.iter().map(|r| r.mode()));
    let mut header = vec!["placement class".to_string(), "consumer CPUs".to_string()];
    header.extend(modes.iter().cloned());
    if metric == Metric::Latency {
        header.push("**c2c floor** (one-way)".to_string());
    }
    let mut rows = Vec::new();
    for ((_, class), members) in &classes {
        let cpus = distinct(members.iter().map(|r| r.consumer_core()));
        let list: Vec<String> = cpus.iter().map(|c| c.to_string()).collect();
        let mut row = vec![class.clone(), list.join(", ")];
        for m in &modes {
            let v: Vec<f64> = members
                .iter()
                .filter(|r| r.mode() == m)
                .map(|r| r.timed(metric).summary.median)
                .collect();
            row.push(class_cell(v, fmt_us));
        }
        if metric == Metric::Latency {
            let floors: BTreeMap<usize, f64> = members
                .iter()
                .filter_map(|r| Some((r.consumer_core(), results.floor_for(r)?)))
                .collect();
            row.push(class_cell(floors.into_values().collect(), fmt_ns));
        }
        rows.push(row);
    }
    let producer = recs.first().map_or(0, |r| r.producer_core());
    vec![
        Block::Table { header, rows },
        Block::Para(format!(
            "One row per placement class of the consumer relative to the producer (CPU \
             {producer}), nearest first; the plan measured a few representative CPUs per class \
             on this {}-CPU machine. Cells: the median over the class's CPUs of each record's \
             median, with the range across those CPUs; per-record intervals are in \
             `results.json`.",
            results.machine.allowed_cpus.len()
        )),
    ]
}

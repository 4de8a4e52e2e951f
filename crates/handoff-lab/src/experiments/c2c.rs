//! `bench c2c`: the hardware floor, one cache line bounced between every pair of CPUs.

use crate::schema::C2cPair;
use handoff_probe::floor::{c2c, C2cOptions};
use handoff_probe::topology::Topology;
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// Every unordered pair of distinct CPUs in `cpus` (one-way latency is symmetric).
pub fn all_pairs(cpus: &[usize]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for (i, &a) in cpus.iter().enumerate() {
        for &b in &cpus[i + 1..] {
            pairs.push((a, b));
        }
    }
    pairs
}

/// On a large machine, one pair per placement class from `from` instead of all pairs.
pub fn representative_pairs(
    topology: &Topology,
    from: usize,
    cpus: &[usize],
) -> Vec<(usize, usize)> {
    topology
        .representatives(from, cpus)
        .into_iter()
        .filter(|&(_, cpu)| cpu != from)
        .map(|(_, cpu)| (from, cpu))
        .collect()
}

/// Measuring the c2c floor between two CPUs failed.
#[derive(Debug, Error)]
#[error("c2c between CPUs {a} and {b}: {source}")]
pub struct C2cError {
    /// One CPU of the pair.
    pub a: usize,
    /// The other.
    pub b: usize,
    /// What the measurement reported.
    #[source]
    pub source: handoff::Error,
}

/// Measures each pair; `progress` is told after each. Stops early (returning what it has)
/// when `cancel` is set.
pub fn measure(
    pairs: &[(usize, usize)],
    opts: &C2cOptions,
    topology: &Topology,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<C2cPair>, C2cError> {
    let mut out = Vec::with_capacity(pairs.len());
    for (i, &(a, b)) in pairs.iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let r = c2c(a, b, opts).map_err(|source| C2cError { a, b, source })?;
        out.push(C2cPair {
            cpu_a: a,
            cpu_b: b,
            placement: topology.placement(a, b).as_str().to_string(),
            one_way_ns: r.median_one_way_ns,
        });
        progress(i + 1, pairs.len());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_unordered_and_distinct() {
        assert_eq!(all_pairs(&[0, 1, 2]), vec![(0, 1), (0, 2), (1, 2)]);
        assert!(all_pairs(&[5]).is_empty());
    }
}

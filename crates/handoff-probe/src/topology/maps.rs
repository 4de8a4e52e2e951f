//! The `compact` and `spread` maps of PEs on CPUs, by the placement classes (same core, SMT
//! sibling, shared L2, shared L3, same package, other package, other NUMA node). `handoff
//! run --map` and the kNeighbor experiment both place PEs with [`pe_cpus`].
//!
//! Both start at the lowest allowed CPU (the anchor). `compact` orders the CPUs nearest
//! class first (the anchor, its SMT siblings, its L2, its L3, its package, ...), `spread`
//! picks greedily the CPU whose nearest already-picked CPU is in the farthest class (ties:
//! the fewest picked CPUs at that class, then the lowest id), so the picks alternate between
//! NUMA nodes, then packages, then L3 domains. With at least as many CPUs as PEs, PE i runs
//! on the i-th CPU of the order; with fewer, PEs are oversubscribed: `compact` puts
//! consecutive PEs on one CPU (`order[i·n/p]`), `spread` deals them round-robin
//! (`order[i mod n]`). Without a topology the order is the allowed list, sorted.

use super::{Placement as Class, Topology};
use crate::{Error, Result};
use std::str::FromStr;

/// Which map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Map {
    /// Nearest class first; consecutive PEs share a CPU when oversubscribed.
    Compact,
    /// Farthest class first; PEs dealt round-robin when oversubscribed.
    Spread,
}

impl FromStr for Map {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s.trim() {
            "compact" => Ok(Map::Compact),
            "spread" => Ok(Map::Spread),
            other => Err(Error::Sys(handoff::sys::Error::InvalidArgument(format!(
                "unknown map {other:?}: use compact or spread"
            )))),
        }
    }
}

/// The CPU of each of `p` PEs on `cpus` (the CPUs allowed), by `map` and the classes of
/// `topo` (`None`: `cpus` sorted, as if every CPU were equally near). Empty when `cpus` is.
pub fn pe_cpus(topo: Option<&Topology>, cpus: &[usize], map: Map, p: usize) -> Vec<usize> {
    if cpus.is_empty() {
        return Vec::new();
    }
    match map {
        Map::Compact => {
            let order = compact_order(topo, cpus);
            (0..p).map(|i| compact_cpu(&order, i, p)).collect()
        }
        Map::Spread => {
            let order = spread_order(topo, cpus, p);
            (0..p).map(|i| spread_cpu(&order, i)).collect()
        }
    }
}

/// CPUs nearest class first from the lowest CPU of `cpus` (ties: lowest id).
pub fn compact_order(topo: Option<&Topology>, cpus: &[usize]) -> Vec<usize> {
    let mut ids = dedup(cpus);
    if let (Some(t), Some(&anchor)) = (topo, ids.first()) {
        ids.sort_by_key(|&c| (t.placement(anchor, c), c));
    }
    ids
}

/// Up to `want` CPUs of `cpus`, each the farthest (by class) from those picked before.
pub fn spread_order(topo: Option<&Topology>, cpus: &[usize], want: usize) -> Vec<usize> {
    let ids = dedup(cpus);
    let Some(t) = topo else { return ids };
    let want = want.min(ids.len());
    let mut picked: Vec<usize> = Vec::with_capacity(want);
    // Per candidate: its nearest class to the picked CPUs and how many picked CPUs are at it.
    let mut near: Vec<Option<(Class, usize)>> = vec![None; ids.len()];
    let mut taken = vec![false; ids.len()];
    while picked.len() < want {
        let Some(best) = (0..ids.len())
            .filter(|&i| !taken[i])
            .min_by_key(|&i| match near[i] {
                // No pick yet: the lowest id (the anchor).
                None => (std::cmp::Reverse(Class::CrossNuma), 0, ids[i]),
                Some((class, count)) => (std::cmp::Reverse(class), count, ids[i]),
            })
        else {
            break;
        };
        taken[best] = true;
        let cpu = ids[best];
        picked.push(cpu);
        for i in 0..ids.len() {
            if taken[i] {
                continue;
            }
            let c = t.placement(cpu, ids[i]);
            near[i] = match near[i] {
                Some((old, n)) if old < c => Some((old, n)),
                Some((old, n)) if old == c => Some((old, n + 1)),
                _ => Some((c, 1)),
            };
        }
    }
    picked
}

/// PE `i` of `p` on `order` (`compact`: consecutive PEs share a CPU when oversubscribed).
pub fn compact_cpu(order: &[usize], i: usize, p: usize) -> usize {
    if order.len() >= p {
        order[i]
    } else {
        order[i * order.len() / p.max(1)]
    }
}

/// PE `i` on `order` round-robin.
pub fn spread_cpu(order: &[usize], i: usize) -> usize {
    order[i % order.len()]
}

fn dedup(cpus: &[usize]) -> Vec<usize> {
    let mut ids = cpus.to_vec();
    ids.sort_unstable();
    ids.dedup();
    ids
}

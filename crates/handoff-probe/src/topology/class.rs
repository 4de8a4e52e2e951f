//! The placement classes: how close two logical CPUs are, and the rules that classify a
//! pair from what sysfs says about each.

use super::Cpu;
use crate::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// How close two logical CPUs are, from nearest to farthest. The order of the variants is
/// the order of closeness (`SameCore < SmtSibling < ... < CrossNuma`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Placement {
    /// The same logical CPU (both ends time-share one hardware thread).
    SameCore,
    /// Two hardware threads of one physical core (they share L1 and L2).
    SmtSibling,
    /// Different cores sharing an L2 (or L1) cache, e.g. an Intel E-core cluster.
    SharedL2,
    /// Different cores sharing a level-3 (or higher) cache, e.g. one AMD CCX.
    SharedL3,
    /// One package, no shared cache (e.g. two AMD CCXs, or cache information missing).
    SamePackage,
    /// Different packages (sockets) in one NUMA node.
    CrossPackage,
    /// Different NUMA nodes.
    CrossNuma,
}

impl Placement {
    /// Every class, nearest first.
    pub const ALL: [Placement; 7] = [
        Placement::SameCore,
        Placement::SmtSibling,
        Placement::SharedL2,
        Placement::SharedL3,
        Placement::SamePackage,
        Placement::CrossPackage,
        Placement::CrossNuma,
    ];

    /// The kebab-case name used in reports and on the command line (`shared-l3`).
    pub fn as_str(self) -> &'static str {
        match self {
            Placement::SameCore => "same-core",
            Placement::SmtSibling => "smt-sibling",
            Placement::SharedL2 => "shared-l2",
            Placement::SharedL3 => "shared-l3",
            Placement::SamePackage => "same-package",
            Placement::CrossPackage => "cross-package",
            Placement::CrossNuma => "cross-numa",
        }
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Placement {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let t = s.trim();
        Placement::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(t))
            .ok_or_else(|| {
                let names: Vec<_> = Placement::ALL.iter().map(|p| p.as_str()).collect();
                Error::Sys(handoff::sys::Error::InvalidArgument(format!(
                    "unknown placement class {s:?}; expected one of {}",
                    names.join(", ")
                )))
            })
    }
}

/// The placement rules, in priority order.
pub(super) fn classify(a: &Cpu, b: &Cpu) -> Placement {
    if a.id == b.id {
        return Placement::SameCore;
    }
    if a.node != b.node {
        return Placement::CrossNuma;
    }
    if let (Some(pa), Some(pb)) = (a.package_id, b.package_id) {
        if pa != pb {
            return Placement::CrossPackage;
        }
    }
    if a.siblings.contains(&b.id) || b.siblings.contains(&a.id) {
        return Placement::SmtSibling;
    }
    // The nearest level of data/unified cache the two share.
    // Either side may hold the evidence (one CPU may lack a shared_cpu_list), so ask both.
    // The levels present, as a bit set (no allocation: maps classify O(CPUs²) pairs).
    let levels: u64 = a
        .caches
        .iter()
        .chain(&b.caches)
        .fold(0, |m, c| m | 1u64 << c.level.min(63));
    match (0..64u8)
        .filter(|&l| levels & (1u64 << l) != 0)
        .find(|&l| a.shares_cache(b, l) || b.shares_cache(a, l))
    {
        Some(l) if l <= 2 => Placement::SharedL2,
        Some(_) => Placement::SharedL3,
        None => Placement::SamePackage,
    }
}

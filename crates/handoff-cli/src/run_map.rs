//! `handoff run --map compact|spread`: the PEs' CPUs by this machine's placement classes
//! (the probe's [`maps`](handoff_probe::topology::maps)), passed to the core's launcher as a
//! CPU list. The core places by CPU ids only; it does not read the topology.

use handoff::team::Placement;
use handoff_probe::topology::maps::{pe_cpus, Map};
use handoff_probe::topology::Topology;

/// Why `--map` cannot place the PEs (each a one-line usage error).
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// Neither `compact` nor `spread`.
    #[error("unknown --map {0:?}: use compact, spread or none (or --cores LIST)")]
    Unknown(String),
    /// The affinity mask could not be read.
    #[error("reading the CPUs this process may use: {0}")]
    Affinity(#[source] handoff::sys::Error),
    /// The affinity mask is empty.
    #[error("no CPU to place PEs on: this process may use none")]
    NoCpu,
}

/// The placement of `n` PEs by `map` (`compact` or `spread`) over the CPUs this process may
/// use, or a one-line usage error.
pub fn placement(map: &str, n: usize) -> Result<Placement, MapError> {
    let map: Map = map
        .parse()
        .map_err(|_| MapError::Unknown(map.to_string()))?;
    let allowed = handoff::sys::allowed_cpus().map_err(MapError::Affinity)?;
    // Without a readable sysfs the map falls back to the allowed CPUs in id order.
    let topo = Topology::detect().ok();
    let cpus = pe_cpus(topo.as_ref(), &allowed, map, n);
    if cpus.is_empty() {
        return Err(MapError::NoCpu);
    }
    Ok(Placement::Cores(cpus))
}

//! The `compact` and `spread` maps of PEs on CPUs live in the probe
//! ([`handoff_probe::topology::maps`]), shared with `handoff run --map`; this file only
//! reads the machine's topology once for the experiment.

use handoff_probe::topology::Topology;

/// The machine's topology, read once per process (`None` when sysfs cannot be read).
pub fn detected() -> Option<&'static Topology> {
    static TOPO: std::sync::OnceLock<Option<Topology>> = std::sync::OnceLock::new();
    TOPO.get_or_init(|| Topology::detect().ok()).as_ref()
}

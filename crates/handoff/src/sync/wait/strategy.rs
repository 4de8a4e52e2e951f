//! The wait strategies ([`Wait`]): their names, parsing and printing, and the check that
//! refuses [`Wait::Spin`] where spinning cannot work ([`check_spin`]). How each one waits is
//! the parent module's wait loop.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::sys::Error as SysError;

/// How a blocking call waits. Every blocking call in [`crate::sync`] takes one.
///
/// See [Waiting](crate::sync#waiting) for the trade-offs; [`Wait::default`] is
/// [`Wait::ADAPTIVE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wait {
    /// Busy-wait with a `pause` between reads. The lowest latency when waiter and peer run on
    /// different CPUs; a mistake when they share one (see the module docs).
    Spin,
    /// Busy-wait, giving the CPU to other runnable threads (`sched_yield`) between reads.
    SpinYield,
    /// Sleep on a futex until woken.
    Block,
    /// Spin for up to `spin_budget`, then sleep on a futex; when the peer last ran on the
    /// waiter's CPU, yield to it instead of spinning. The budget actually spun is learned
    /// per wait site.
    Adaptive {
        /// The longest a wait spins before it sleeps. Zero means "always block".
        spin_budget: Duration,
    },
}

impl Wait {
    /// The default adaptive budget. A wait given exactly this budget spins the machine's
    /// measured cost of a sleep + wake-up instead (`wake_cost`, a diagnostic); this figure (about
    /// one cross-CPU futex wake-up on a KVM VM) stands in until that is measured or where it
    /// cannot be. Either way a wait that outlasts the spin costs at most twice what blocking
    /// at once would have.
    pub const DEFAULT_SPIN_BUDGET: Duration = Duration::from_micros(20);

    /// `Adaptive` with the measured budget ([`Wait::DEFAULT_SPIN_BUDGET`] until measured).
    pub const ADAPTIVE: Wait = Wait::Adaptive {
        spin_budget: Self::DEFAULT_SPIN_BUDGET,
    };

    /// One of each strategy (adaptive with the default budget), for the crate's unit tests.
    #[cfg(all(test, not(loom)))]
    pub(crate) const ALL: [Wait; 4] = [Wait::Spin, Wait::SpinYield, Wait::Block, Wait::ADAPTIVE];

    /// The strategy's short name: `spin`, `spin-yield`, `block` or `adaptive`.
    pub fn name(&self) -> &'static str {
        match self {
            Wait::Spin => "spin",
            Wait::SpinYield => "spin-yield",
            Wait::Block => "block",
            Wait::Adaptive { .. } => "adaptive",
        }
    }

    /// Whether the strategy ever sleeps on a futex (`Block`, `Adaptive`).
    pub fn may_sleep(&self) -> bool {
        matches!(self, Wait::Block | Wait::Adaptive { .. })
    }
}

impl Default for Wait {
    fn default() -> Self {
        Wait::ADAPTIVE
    }
}

impl fmt::Display for Wait {
    /// `spin`, `spin-yield`, `block`, `adaptive` (default budget) or `adaptive:<N>ns`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Wait::Adaptive { spin_budget } if *spin_budget != Self::DEFAULT_SPIN_BUDGET => {
                write!(f, "adaptive:{}ns", spin_budget.as_nanos())
            }
            other => f.write_str(other.name()),
        }
    }
}

impl FromStr for Wait {
    type Err = SysError;

    /// Parses `spin`, `spin-yield` (or `yield`), `block` (or `futex`), `adaptive`, or
    /// `adaptive:<N><unit>` with unit `ns`, `us` or `ms` (e.g. `adaptive:5us`).
    fn from_str(s: &str) -> Result<Self, SysError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "spin" => return Ok(Wait::Spin),
            "spin-yield" | "spinyield" | "spin_yield" | "yield" => return Ok(Wait::SpinYield),
            "block" | "futex" => return Ok(Wait::Block),
            "adaptive" => return Ok(Wait::ADAPTIVE),
            _ => {}
        }
        let bad = || {
            SysError::InvalidArgument(format!(
                "unknown wait strategy {s:?}: expected spin, spin-yield, block, adaptive or \
                 adaptive:<N>(ns|us|ms), e.g. adaptive:20us"
            ))
        };
        let budget = t.strip_prefix("adaptive:").ok_or_else(bad)?;
        let (digits, scale) = if let Some(d) = budget.strip_suffix("ns") {
            (d, 1)
        } else if let Some(d) = budget.strip_suffix("us") {
            (d, 1_000)
        } else if let Some(d) = budget.strip_suffix("ms") {
            (d, 1_000_000)
        } else {
            return Err(bad());
        };
        let n: u64 = digits.trim().parse().map_err(|_| bad())?;
        let ns = n.checked_mul(scale).ok_or_else(bad)?;
        Ok(Wait::Adaptive {
            spin_budget: Duration::from_nanos(ns),
        })
    }
}

/// Refuses [`Wait::Spin`] where spinning cannot work: `parties` processes that spin for each
/// other, pinned to `pinned` (one entry per party, `None` = unpinned), with `available` CPUs.
/// Two parties pinned to one CPU, or more parties than CPUs, means a spinner holds the CPU
/// its peer needs until the scheduler preempts it — a whole scheduler tick (4 ms on these
/// VMs) per hand-off — so the error says so in one line and offers `spin-yield` and
/// `adaptive`. Every other strategy (and `Spin` where each party has a CPU) is `Ok`.
#[cfg_attr(not(feature = "implementor"), allow(dead_code))] // for launchers (`implementor`)
pub fn check_spin(
    how: Wait,
    parties: usize,
    pinned: &[Option<usize>],
    available: usize,
) -> Result<(), SysError> {
    if how != Wait::Spin {
        return Ok(());
    }
    let advice = "a spinning PE keeps its CPU from the peer it waits for until the scheduler \
                  preempts it (a 4 ms tick per hand-off); use --wait spin-yield or --wait \
                  adaptive, or give each PE a CPU of its own";
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for (party, cpu) in pinned.iter().enumerate() {
        if let Some(cpu) = cpu {
            if let Some((first, _)) = seen.iter().find(|(_, c)| c == cpu) {
                return Err(SysError::InvalidArgument(format!(
                    "--wait spin with PEs {first} and {party} both pinned to CPU {cpu}: {advice}"
                )));
            }
            seen.push((party, *cpu));
        }
    }
    if parties > available {
        return Err(SysError::InvalidArgument(format!(
            "--wait spin with {parties} PEs on {available} CPU{}: {advice}",
            if available == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

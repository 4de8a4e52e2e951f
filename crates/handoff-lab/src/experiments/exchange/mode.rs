//! The exchange experiment's modes: how producer and consumer are coupled.
//!
//! [`MODES`] is the one registry of modes: the runner, the results schema, the plots and the
//! report all read a mode's name, order, parties, wait and colour from it (results files hold
//! mode names, so the readers look a name up with [`ModeInfo::by_name`]).

pub use crate::plot::kit::Shape;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// How producer and consumer are coupled and synchronized (`--mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum Mode {
    /// Write then read on one thread: the baseline.
    SingleThread,
    /// Write a file, close, reopen, read, on one thread (no fsync).
    File,
    /// Two threads, release/acquire flags, spinning.
    ThreadsSpin,
    /// Two processes, release/acquire flags in a shared segment, spinning.
    ProcessesSpin,
    /// Two threads, std `Mutex` + `Condvar` one-shot pair (the paper's promises).
    ThreadsBlocking,
    /// Two processes, a pair of POSIX named semaphores (the paper's method).
    ProcessesSemaphore,
    /// Two processes, handoff's futex `Block` wait.
    ProcessesFutex,
    /// Two processes, handoff's `Adaptive` wait (spin, then futex).
    ProcessesAdaptive,
    /// Two processes, the block copied through a pipe.
    Pipe,
}

/// Who the two ends of a mode are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parties {
    /// Producer and consumer are one thread: one record per size, consumer core = producer core.
    OneThread,
    /// Two threads of one process.
    Threads,
    /// Two processes (workers re-executed from the binary).
    Processes,
}

/// Everything the lab knows about one mode: one row of [`MODES`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModeInfo {
    pub mode: Mode,
    pub name: &'static str,
    pub parties: Parties,
    /// The consumer's wait when producer and consumer have CPUs of their own (on one CPU a
    /// spin mode yields: see [`Mode::wait_kind`]).
    pub wait: WaitKind,
    /// The consumer polls while waiting (keeps its CPU busy however fast the producer is).
    pub busy_waits: bool,
    /// Colour in every figure, RGB.
    pub colour: (u8, u8, u8),
    /// Marker shape in line plots.
    pub shape: Shape,
}

const fn info(
    mode: Mode,
    name: &'static str,
    parties: Parties,
    wait: WaitKind,
    colour: (u8, u8, u8),
) -> ModeInfo {
    ModeInfo {
        mode,
        name,
        parties,
        wait,
        busy_waits: matches!(wait, WaitKind::Spin),
        colour,
        shape: match parties {
            Parties::Threads => Shape::Circle,
            Parties::Processes if !matches!(mode, Mode::Pipe) => Shape::Triangle,
            _ => Shape::Square,
        },
    }
}

/// The registry: every mode, in the order tables and plots show them.
pub const MODES: [ModeInfo; 9] = [
    info(
        Mode::SingleThread,
        "single-thread",
        Parties::OneThread,
        WaitKind::None,
        (0x6e, 0x6e, 0x6e),
    ),
    info(
        Mode::File,
        "file",
        Parties::OneThread,
        WaitKind::None,
        (0x8c, 0x56, 0x4b),
    ),
    info(
        Mode::ThreadsSpin,
        "threads-spin",
        Parties::Threads,
        WaitKind::Spin,
        (0x1f, 0x77, 0xb4),
    ),
    info(
        Mode::ProcessesSpin,
        "processes-spin",
        Parties::Processes,
        WaitKind::Spin,
        (0xff, 0x7f, 0x0e),
    ),
    info(
        Mode::ThreadsBlocking,
        "threads-blocking",
        Parties::Threads,
        WaitKind::Condvar,
        (0x2c, 0xa0, 0x2c),
    ),
    info(
        Mode::ProcessesSemaphore,
        "processes-semaphore",
        Parties::Processes,
        WaitKind::Semaphore,
        (0xd6, 0x27, 0x28),
    ),
    info(
        Mode::ProcessesFutex,
        "processes-futex",
        Parties::Processes,
        WaitKind::Futex,
        (0x94, 0x67, 0xbd),
    ),
    info(
        Mode::ProcessesAdaptive,
        "processes-adaptive",
        Parties::Processes,
        WaitKind::Adaptive,
        (0xe3, 0x77, 0xc2),
    ),
    info(
        Mode::Pipe,
        "pipe",
        Parties::Processes,
        WaitKind::Pipe,
        (0x17, 0xbe, 0xcf),
    ),
];

impl ModeInfo {
    /// The registry row of a mode name (as results files hold it); `None` for a name this
    /// version does not know.
    pub fn by_name(name: &str) -> Option<&'static ModeInfo> {
        MODES.iter().find(|i| i.name == name)
    }

    /// Sort rank of a mode name: the order of [`MODES`], unknown modes last.
    pub fn rank(name: &str) -> usize {
        MODES
            .iter()
            .position(|i| i.name == name)
            .unwrap_or(MODES.len())
    }

    /// The distinct mode names of `names` in the order of [`MODES`] (unknown names last,
    /// alphabetically): the order of every table and legend.
    pub fn sorted<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut modes: Vec<String> = names.into_iter().map(str::to_string).collect();
        modes.sort_by(|a, b| ModeInfo::rank(a).cmp(&ModeInfo::rank(b)).then(a.cmp(b)));
        modes.dedup();
        modes
    }

    /// Whether a mode name hands the block from one party to another; the one-thread
    /// baselines do not, and an unknown mode is taken to.
    pub fn is_two_party(name: &str) -> bool {
        ModeInfo::by_name(name).is_none_or(|i| i.parties != Parties::OneThread)
    }
}

/// A `--mode` text names no mode.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModeError {
    /// A name that is not in [`MODES`].
    #[error("unknown mode '{name}': choose from {} (or all)", MODES.map(|i| i.name).join(", "))]
    Unknown {
        /// The name given.
        name: String,
    },
    /// An empty list.
    #[error("no mode given: use e.g. --mode threads-spin,processes-spin")]
    Empty,
}

impl Mode {
    /// Every mode, in the order tables and plots show them.
    pub fn all() -> [Mode; MODES.len()] {
        MODES.map(|i| i.mode)
    }

    /// This mode's row of [`MODES`].
    pub fn info(self) -> &'static ModeInfo {
        // The registry is in the enum's order (checked by a test), so the index is the row.
        &MODES[self as usize]
    }

    /// The CLI / JSON name.
    pub fn as_str(self) -> &'static str {
        self.info().name
    }

    /// Producer and consumer are one thread: one record per size, consumer core = producer core.
    pub fn is_single_thread(self) -> bool {
        self.info().parties == Parties::OneThread
    }

    /// Producer and consumer are separate processes (workers re-executed from the binary).
    pub fn is_processes(self) -> bool {
        self.info().parties == Parties::Processes
    }

    /// Parses a comma-separated list; `all` means every mode.
    pub fn parse_list(text: &str) -> Result<Vec<Mode>, ModeError> {
        let mut modes = Vec::new();
        for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if part == "all" {
                return Ok(Mode::all().to_vec());
            }
            let m: Mode = part.parse()?;
            if !modes.contains(&m) {
                modes.push(m);
            }
        }
        if modes.is_empty() {
            return Err(ModeError::Empty);
        }
        Ok(modes)
    }

    /// The wait the consumer uses in this mode for a given placement: spinning against a peer
    /// on the same CPU burns a scheduler tick per hand-off, so there spin modes yield.
    pub fn wait_kind(self, same_cpu: bool) -> WaitKind {
        match self.info().wait {
            WaitKind::Spin if same_cpu => WaitKind::SpinYield,
            wait => wait,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Mode {
    type Err = ModeError;
    fn from_str(s: &str) -> Result<Self, ModeError> {
        ModeInfo::by_name(s)
            .map(|i| i.mode)
            .ok_or_else(|| ModeError::Unknown {
                name: s.to_string(),
            })
    }
}

impl TryFrom<String> for Mode {
    type Error = ModeError;
    fn try_from(s: String) -> Result<Self, ModeError> {
        s.parse()
    }
}

impl From<Mode> for &'static str {
    fn from(m: Mode) -> Self {
        m.as_str()
    }
}

/// What the consumer actually did while waiting (record field `wait`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitKind {
    /// Nothing to wait for (single thread, file).
    None,
    /// Pure spinning on a flag.
    Spin,
    /// Spinning with `sched_yield` (both parties share a CPU).
    SpinYield,
    /// Futex sleep.
    Futex,
    /// Spin for a budget, then futex.
    Adaptive,
    /// POSIX semaphore.
    Semaphore,
    /// `std::sync::Condvar`.
    Condvar,
    /// Blocking `read` on a pipe.
    Pipe,
}

impl WaitKind {
    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            WaitKind::None => "none",
            WaitKind::Spin => "spin",
            WaitKind::SpinYield => "spin-yield",
            WaitKind::Futex => "futex",
            WaitKind::Adaptive => "adaptive",
            WaitKind::Semaphore => "semaphore",
            WaitKind::Condvar => "condvar",
            WaitKind::Pipe => "pipe",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the CLI help and of results files (issue 4), written out by hand.
    const NAMES: [&str; 9] = [
        "single-thread",
        "file",
        "threads-spin",
        "processes-spin",
        "threads-blocking",
        "processes-semaphore",
        "processes-futex",
        "processes-adaptive",
        "pipe",
    ];

    #[test]
    fn every_mode_has_one_registry_row_in_enum_order() {
        assert_eq!(MODES.len(), NAMES.len());
        for (i, row) in MODES.iter().enumerate() {
            assert_eq!(
                row.mode as usize, i,
                "{} is out of the enum's order",
                row.name
            );
            assert_eq!(row.name, NAMES[i]);
            assert_eq!(Mode::all()[i].info(), row);
        }
        assert_eq!(MODES.map(|i| i.name), NAMES);
        let mut colours: Vec<_> = MODES.iter().map(|r| r.colour).collect();
        colours.sort_unstable();
        colours.dedup();
        assert_eq!(colours.len(), MODES.len(), "two modes share a colour");
    }

    #[test]
    fn names_round_trip() {
        for m in Mode::all() {
            assert_eq!(m.as_str().parse::<Mode>().unwrap(), m);
            assert_eq!(ModeInfo::by_name(m.as_str()).unwrap().mode, m);
            assert_eq!(m.to_string(), m.as_str());
        }
        for (i, name) in NAMES.iter().enumerate() {
            assert_eq!(ModeInfo::rank(name), i);
        }
        assert_eq!(ModeInfo::rank("teleport"), 9);
        assert!(ModeInfo::by_name("teleport").is_none());
        assert_eq!(Mode::parse_list("all").unwrap().len(), 9);
        assert_eq!(
            Mode::parse_list("pipe, file,pipe").unwrap(),
            vec![Mode::Pipe, Mode::File]
        );
        let err = Mode::parse_list("threads-spn").unwrap_err().to_string();
        assert!(err.contains("unknown mode 'threads-spn'") && err.contains("processes-futex"));
        assert_eq!(
            Mode::parse_list("").unwrap_err().to_string(),
            "no mode given: use e.g. --mode threads-spin,processes-spin"
        );
    }

    #[test]
    fn parties_and_shapes() {
        let one: Vec<_> = NAMES
            .iter()
            .filter(|n| !ModeInfo::is_two_party(n))
            .collect();
        assert_eq!(one, [&"single-thread", &"file"]);
        assert!(ModeInfo::is_two_party("teleport"));
        let procs: Vec<_> = Mode::all()
            .into_iter()
            .filter(|m| m.is_processes())
            .collect();
        assert_eq!(procs.len(), 5);
        assert_eq!(Mode::ThreadsBlocking.info().shape, Shape::Circle);
        assert_eq!(Mode::ProcessesFutex.info().shape, Shape::Triangle);
        assert_eq!(Mode::Pipe.info().shape, Shape::Square);
        assert_eq!(Mode::File.info().shape, Shape::Square);
    }

    #[test]
    fn wait_kinds() {
        assert_eq!(Mode::ProcessesSpin.wait_kind(true), WaitKind::SpinYield);
        assert_eq!(Mode::ProcessesSpin.wait_kind(false), WaitKind::Spin);
        assert_eq!(Mode::ThreadsSpin.wait_kind(true), WaitKind::SpinYield);
        assert_eq!(Mode::ProcessesFutex.wait_kind(true), WaitKind::Futex);
        assert_eq!(Mode::SingleThread.wait_kind(true), WaitKind::None);
        assert_eq!(Mode::Pipe.wait_kind(false).as_str(), "pipe");
        let busy: Vec<_> = MODES
            .iter()
            .filter(|r| r.busy_waits)
            .map(|r| r.name)
            .collect();
        assert_eq!(busy, ["threads-spin", "processes-spin"]);
    }
}

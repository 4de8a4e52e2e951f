//! The exchange experiment's modes: how producer and consumer are coupled.

use std::fmt;
use std::str::FromStr;

/// How producer and consumer are coupled and synchronized (`--mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

impl Mode {
    /// Every mode, in the order tables and plots show them.
    pub const ALL: [Mode; 9] = [
        Mode::SingleThread,
        Mode::File,
        Mode::ThreadsSpin,
        Mode::ProcessesSpin,
        Mode::ThreadsBlocking,
        Mode::ProcessesSemaphore,
        Mode::ProcessesFutex,
        Mode::ProcessesAdaptive,
        Mode::Pipe,
    ];

    /// The CLI / JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::SingleThread => "single-thread",
            Mode::File => "file",
            Mode::ThreadsSpin => "threads-spin",
            Mode::ProcessesSpin => "processes-spin",
            Mode::ThreadsBlocking => "threads-blocking",
            Mode::ProcessesSemaphore => "processes-semaphore",
            Mode::ProcessesFutex => "processes-futex",
            Mode::ProcessesAdaptive => "processes-adaptive",
            Mode::Pipe => "pipe",
        }
    }

    /// Producer and consumer are one thread: one record per size, consumer core = producer core.
    pub fn is_single_thread(self) -> bool {
        matches!(self, Mode::SingleThread | Mode::File)
    }

    /// Producer and consumer are separate processes (workers re-executed from the binary).
    pub fn is_processes(self) -> bool {
        matches!(
            self,
            Mode::ProcessesSpin
                | Mode::ProcessesSemaphore
                | Mode::ProcessesFutex
                | Mode::ProcessesAdaptive
                | Mode::Pipe
        )
    }

    /// Parses a comma-separated list; `all` means every mode.
    pub fn parse_list(text: &str) -> Result<Vec<Mode>, String> {
        let mut modes = Vec::new();
        for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if part == "all" {
                return Ok(Mode::ALL.to_vec());
            }
            let m: Mode = part.parse()?;
            if !modes.contains(&m) {
                modes.push(m);
            }
        }
        if modes.is_empty() {
            return Err("no mode given: use e.g. --mode threads-spin,processes-spin".into());
        }
        Ok(modes)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Mode::ALL.iter().map(|m| m.as_str()).collect();
                format!(
                    "unknown mode '{s}': choose from {} (or all)",
                    names.join(", ")
                )
            })
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

impl Mode {
    /// The wait the consumer uses in this mode for a given placement.
    pub fn wait_kind(self, same_cpu: bool) -> WaitKind {
        match self {
            Mode::SingleThread | Mode::File => WaitKind::None,
            // Spinning against a peer on the same CPU burns a scheduler tick per hand-off.
            Mode::ThreadsSpin | Mode::ProcessesSpin if same_cpu => WaitKind::SpinYield,
            Mode::ThreadsSpin | Mode::ProcessesSpin => WaitKind::Spin,
            Mode::ThreadsBlocking => WaitKind::Condvar,
            Mode::ProcessesSemaphore => WaitKind::Semaphore,
            Mode::ProcessesFutex => WaitKind::Futex,
            Mode::ProcessesAdaptive => WaitKind::Adaptive,
            Mode::Pipe => WaitKind::Pipe,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in Mode::ALL {
            assert_eq!(m.as_str().parse::<Mode>().unwrap(), m);
        }
        assert_eq!(Mode::parse_list("all").unwrap().len(), 9);
        assert_eq!(
            Mode::parse_list("pipe, file,pipe").unwrap(),
            vec![Mode::Pipe, Mode::File]
        );
        let err = Mode::parse_list("threads-spn").unwrap_err();
        assert!(err.contains("unknown mode 'threads-spn'") && err.contains("processes-futex"));
        assert!(Mode::parse_list("").is_err());
    }

    #[test]
    fn wait_kinds() {
        assert_eq!(Mode::ProcessesSpin.wait_kind(true), WaitKind::SpinYield);
        assert_eq!(Mode::ProcessesSpin.wait_kind(false), WaitKind::Spin);
        assert_eq!(Mode::Pipe.wait_kind(false).as_str(), "pipe");
    }
}

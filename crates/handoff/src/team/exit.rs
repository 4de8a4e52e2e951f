//! [`PeStatus`]: how a PE process ended, as the launcher saw it.

/// How a PE ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeStatus {
    /// Exited with this code.
    Exited(i32),
    /// Killed by this signal (not by the launcher).
    Signaled(i32),
    /// Killed by the launcher after another PE failed.
    Stopped,
}

impl PeStatus {
    /// Exited with code 0.
    pub fn success(&self) -> bool {
        *self == PeStatus::Exited(0)
    }
}

impl std::fmt::Display for PeStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PeStatus::Exited(c) => write!(f, "exited with code {c}"),
            PeStatus::Signaled(s) => write!(f, "was killed by signal {s}{}", signal_name(*s)),
            PeStatus::Stopped => f.write_str("was stopped by the launcher"),
        }
    }
}

fn signal_name(s: i32) -> &'static str {
    match s {
        1 => " (SIGHUP)",
        2 => " (SIGINT)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        15 => " (SIGTERM)",
        _ => "",
    }
}

//! Processes: identity that survives pid reuse (pid + start time), liveness checks.

use crate::{Error, Result};

/// A process identity that a reused pid cannot fake: the pid plus the process start time
/// (field 22 of `/proc/PID/stat`, clock ticks since boot).
///
/// `repr(C)` and pointer-free, so it may be stored in a shared segment; all-zero means "none".
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ProcessId {
    /// The pid.
    pub pid: u32,
    _pad: u32,
    /// Start time in clock ticks since boot, as the kernel reports it.
    pub start_time: u64,
}

/// What `/proc` says about a pid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Liveness {
    /// Running (or sleeping), and it is the same process (start time matches).
    Alive,
    /// No such process, a zombie, or the pid now belongs to another process.
    Gone,
}

impl ProcessId {
    /// Builds an identity from its parts.
    pub fn new(pid: u32, start_time: u64) -> Self {
        ProcessId {
            pid,
            _pad: 0,
            start_time,
        }
    }

    /// The calling process.
    pub fn current() -> Self {
        let pid = std::process::id();
        let (_, start) = read_stat(pid)
            .expect("reading /proc/self/stat failed: is /proc mounted?")
            .expect("our own /proc entry is missing");
        ProcessId::new(pid, start)
    }

    /// The identity of a live pid (e.g. a child just spawned).
    pub fn of(pid: u32) -> Result<Self> {
        match read_stat(pid)? {
            Some((state, start)) if state != 'Z' && state != 'X' => Ok(ProcessId::new(pid, start)),
            _ => Err(Error::io(
                format!("reading /proc/{pid}/stat"),
                std::io::Error::from_raw_os_error(libc::ESRCH),
            )),
        }
    }

    /// Whether this is the null identity (all zero).
    pub fn is_none(&self) -> bool {
        self.pid == 0
    }

    /// Whether the process still runs. A zombie counts as gone: it can no longer act.
    pub fn liveness(&self) -> Liveness {
        if self.pid == 0 {
            return Liveness::Gone;
        }
        match read_stat(self.pid) {
            Ok(Some((state, start))) if start == self.start_time && state != 'Z' && state != 'X' => {
                Liveness::Alive
            }
            Ok(_) => Liveness::Gone,
            // /proc unreadable for another reason (e.g. hidepid): fall back to kill(pid, 0),
            // which cannot detect pid reuse but never reports a live process as gone.
            Err(_) => {
                if kill0(self.pid) {
                    Liveness::Alive
                } else {
                    Liveness::Gone
                }
            }
        }
    }

    /// Shorthand for `liveness() == Alive`.
    pub fn is_alive(&self) -> bool {
        self.liveness() == Liveness::Alive
    }
}

fn kill0(pid: u32) -> bool {
    let Some(p) = rustix::process::Pid::from_raw(pid as i32) else {
        return false;
    };
    match rustix::process::test_kill_process(p) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    }
}

/// Reads state and start time from `/proc/PID/stat`; `Ok(None)` when there is no such pid.
fn read_stat(pid: u32) -> Result<Option<(char, u64)>> {
    let path = format!("/proc/{pid}/stat");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ESRCH) => return Ok(None),
        Err(e) => return Err(Error::io(format!("reading {path}"), e)),
    };
    Ok(parse_stat(&text))
}

/// Parses `pid (comm) state ... starttime ...`; comm may hold spaces and parentheses, so
/// fields are counted after the last `)`.
fn parse_stat(text: &str) -> Option<(char, u64)> {
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?.chars().next()?;
    // After the state (field 3), start time is field 22: 18 more fields to skip.
    let start = fields.nth(18)?.parse().ok()?;
    Some((state, start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_handles_odd_comm() {
        let line = "1234 (a) b (c)) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 424242 99 100";
        assert_eq!(parse_stat(line), Some(('S', 424242)));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn current_is_alive() {
        let me = ProcessId::current();
        assert_eq!(me.pid, std::process::id());
        assert!(me.start_time > 0);
        assert!(me.is_alive());
        assert_eq!(ProcessId::of(me.pid).unwrap(), me);
    }

    #[test]
    fn reused_pid_is_not_the_peer() {
        let me = ProcessId::current();
        let impostor = ProcessId::new(me.pid, me.start_time + 1);
        assert_eq!(impostor.liveness(), Liveness::Gone);
        assert_eq!(ProcessId::default().liveness(), Liveness::Gone);
    }

    #[test]
    fn exited_child_is_gone() {
        let mut child = std::process::Command::new("sleep").arg("10").spawn().unwrap();
        let id = ProcessId::of(child.id()).unwrap();
        assert!(id.is_alive());
        child.kill().unwrap();
        // Before reaping it is a zombie: already gone.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while id.is_alive() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(id.liveness(), Liveness::Gone);
        child.wait().unwrap();
        assert_eq!(id.liveness(), Liveness::Gone);
    }
}

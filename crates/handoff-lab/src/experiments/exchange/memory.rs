//! Refusing a plan whose blocks cannot fit in memory, before anything runs (a 64 GiB block on a
//! 23 GiB machine would wake the kernel's out-of-memory killer, which ends other processes too).

use super::samples::Layout;
use super::{Mode, Point};
use thiserror::Error;

/// Memory one run of a point needs at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    /// Bytes of RAM: the block's channel, the samples' segment, private buffers.
    pub memory: u64,
    /// Bytes of those in `/dev/shm` (process modes' channel and segment).
    pub shm: u64,
}

/// What the machine has free now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    /// `MemAvailable` of `/proc/meminfo`, bytes (`None` when unreadable).
    pub memory: Option<u64>,
    /// Free bytes of `/dev/shm` for an unprivileged writer (`None` when unreadable).
    pub shm: Option<u64>,
}

impl Room {
    /// Reads `/proc/meminfo` and `statvfs("/dev/shm")`.
    pub fn detect() -> Room {
        let memory = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|t| mem_available(&t));
        let shm = rustix::fs::statvfs("/dev/shm")
            .ok()
            .map(|s| s.f_bavail.saturating_mul(s.f_frsize));
        Room { memory, shm }
    }
}

/// `MemAvailable` in bytes from the text of `/proc/meminfo`.
pub fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// What one run of `p` needs (repetitions as validated: at most
/// [`super::config::MAX_REPS_PER_RUN`]).
pub fn need(p: &Point) -> Need {
    let block = p.size as u64;
    let samples = Layout::new(p.total_reps()).payload_len() as u64;
    // The block's 1-block channel: a header page, then the block padded to whole pages (an
    // upper bound of `handoff::channel`'s geometry, which pads small blocks to 128 bytes).
    let channel = |block_bytes: usize| (block_bytes as u64).div_ceil(4096).saturating_add(1) * 4096;
    let segment = |block_bytes: usize| match block_bytes {
        0 => samples,
        b => samples.saturating_add(channel(b)),
    };
    match p.mode {
        Mode::Pipe => Need {
            // The block lives in each party's private buffer; the segment holds samples.
            memory: segment(0).saturating_add(block.saturating_mul(2)),
            shm: segment(0),
        },
        Mode::File => Need {
            // The block, the read-back copy and the file in the page cache.
            memory: segment(p.size).saturating_add(block.saturating_mul(2)),
            shm: 0,
        },
        m if m.is_processes() => Need {
            memory: segment(p.size),
            shm: segment(p.size),
        },
        _ => Need {
            memory: segment(p.size),
            shm: 0,
        },
    }
}

/// Bytes as GiB or MiB with one decimal, for messages.
fn human(bytes: u64) -> String {
    let b = bytes as f64;
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", b / (1u64 << 30) as f64)
    } else {
        format!("{:.1} MiB", b / (1u64 << 20) as f64)
    }
}

/// A run of the plan does not fit in the memory free now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MemoryError {
    /// Not enough memory (MemAvailable).
    #[error(
        "one run of {what} needs {} of memory, but this machine has {} available \
         (MemAvailable): use a smaller --size or fewer --reps",
        human(*.need),
        human(*.available)
    )]
    Memory {
        /// The run: mode, size and repetitions.
        what: String,
        need: u64,
        available: u64,
    },
    /// Not enough room in /dev/shm.
    #[error(
        "one run of {what} needs {} of shared memory in /dev/shm, which has {} free: \
         use a smaller --size, or free /dev/shm (df -h /dev/shm; handoff cleanup)",
        human(*.need),
        human(*.available)
    )]
    Shm {
        /// The run: mode, size and repetitions.
        what: String,
        need: u64,
        /// Bytes free in /dev/shm.
        available: u64,
    },
}

/// Refuses the plan when one of its runs needs more than 90% of what is free (the rest is left
/// for everything else); the message says how much is available.
pub fn check(points: &[Point], room: &Room) -> Result<(), MemoryError> {
    let fits = |need: u64, free: Option<u64>| free.is_none_or(|f| need <= f / 10 * 9);
    for p in points {
        let n = need(p);
        let what = || {
            format!(
                "{} of {} ({} repetitions)",
                p.mode,
                crate::units::format_size(p.size),
                p.total_reps()
            )
        };
        if !fits(n.memory, room.memory) {
            return Err(MemoryError::Memory {
                what: what(),
                need: n.memory,
                available: room.memory.unwrap_or(0),
            });
        }
        if n.shm > 0 && !fits(n.shm, room.shm) {
            return Err(MemoryError::Shm {
                what: what(),
                need: n.shm,
                available: room.shm.unwrap_or(0),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(mode: Mode, size: usize) -> Point {
        Point {
            mode,
            size,
            producer_core: 0,
            consumer_core: 1,
            flush: false,
            reps: 90,
            warmup: 10,
            runs: 1,
        }
    }

    const GIB: u64 = 1 << 30;

    #[test]
    fn meminfo_is_parsed() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   22000000 kB\n";
        assert_eq!(mem_available(text), Some(22_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn needs_count_the_block_where_it_lives() {
        let mib = 1usize << 20;
        // 100 repetitions x 5 arrays x 8 bytes = 4000 B of samples, under one page more.
        let p = need(&point(Mode::ProcessesSpin, mib));
        assert_eq!(p.memory, p.shm);
        assert!(
            p.memory > mib as u64 && p.memory < mib as u64 + 64 * 1024,
            "{p:?}"
        );
        let t = need(&point(Mode::ThreadsSpin, mib));
        assert_eq!(t.shm, 0);
        let pipe = need(&point(Mode::Pipe, mib));
        assert!(
            pipe.shm < 64 * 1024 && pipe.memory >= 2 * mib as u64,
            "{pipe:?}"
        );
    }

    #[test]
    fn plans_that_do_not_fit_are_refused_with_what_is_free() {
        let room = Room {
            memory: Some(23 * GIB),
            shm: Some(12 * GIB),
        };
        let big = point(Mode::ThreadsSpin, 64 << 30);
        let e = check(&[big], &room).unwrap_err().to_string();
        assert!(e.contains("needs 64.0 GiB of memory"), "{e}");
        assert!(e.contains("23.0 GiB available"), "{e}");
        // 16 GiB fits in memory (< 90% of 23) but not in a 12 GiB /dev/shm.
        let shm = point(Mode::ProcessesFutex, 16 << 30);
        let e = check(&[point(Mode::ThreadsSpin, 4096), shm], &room)
            .unwrap_err()
            .to_string();
        assert!(e.contains("/dev/shm, which has 12.0 GiB free"), "{e}");
        // The same block in threads needs no /dev/shm.
        check(&[point(Mode::ThreadsSpin, 16 << 30)], &room).unwrap();
        // Unknown room: nothing to compare with, nothing refused.
        let unknown = Room {
            memory: None,
            shm: None,
        };
        check(&[point(Mode::ThreadsSpin, 64 << 30)], &unknown).unwrap();
    }
}

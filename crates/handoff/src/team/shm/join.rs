//! Joining a team: from the launcher's environment, then the segment's header checked against
//! what the PE was told, the plan's offsets, and this PE's control block marked `JOINED`.

use std::sync::atomic::{AtomicBool, AtomicU8};
use std::sync::Mutex;
use std::time::Duration;

use super::{ShmParts, ShmTransport};
use crate::atomic::Ordering;
use crate::shm::{OpenOptions, Segment};
use crate::sync::Wait;
use crate::sys::{Deadline, ProcessId};
use crate::team::layout::*;
use crate::team::mapped::MappedHeap;
use crate::team::quiet_bells::BELLS_UNDECIDED;
use crate::team::{env, shared_cpu, TeamError, ENV_RANK, ENV_SIZE, ENV_TEAM};

/// How long a PE waits for the launcher's segment to be ready when it joins.
const JOIN_TIMEOUT: Duration = Duration::from_secs(30);

impl ShmTransport {
    /// Joins from the environment (see [`Team::from_env`](crate::team::Team::from_env)); no
    /// barrier.
    pub fn from_env() -> Result<Self, TeamError> {
        let name = env::var(ENV_TEAM)?;
        let rank = env::number(ENV_RANK)?;
        let size = env::number(ENV_SIZE)?;
        let wait = env::wait_from_env()?;
        if let Some(c) = env::cpu()? {
            crate::sys::affinity::pin_current_thread(c)?;
        }
        Self::join(&name, rank, size, wait)
    }

    /// Opens team segment `name` as PE `rank` of `size`, waiting with `wait`.
    pub fn join(name: &str, rank: usize, size: usize, wait: Wait) -> Result<Self, TeamError> {
        let seg = Segment::open_with(name, Deadline::after(JOIN_TIMEOUT), &OpenOptions::new())?;
        let h: &TeamHeader = seg.get(0)?;
        let bad = |why: String| TeamError::BadEnv {
            var: ENV_TEAM,
            value: name.to_string(),
            why,
        };
        if h.magic != TEAM_MAGIC || h.version != TEAM_VERSION {
            return Err(bad("not a team segment of this handoff version".into()));
        }
        if h.size as usize != size {
            return Err(bad(format!(
                "the segment holds {} PEs, {} says {size}",
                h.size, ENV_SIZE
            )));
        }
        if rank >= size {
            return Err(TeamError::NoSuchPe { pe: rank, size });
        }
        let p =
            plan(size, h.heap_len as usize).ok_or_else(|| bad("header sizes overflow".into()))?;
        // Where this PE may run now (pinned by `from_env` or the launcher, or not at all);
        // not `allowed_cpus`, a snapshot that may predate the pinning.
        let mask = crate::sys::affinity::thread_affinity()
            .or_else(|_| crate::sys::affinity::allowed_cpus())
            .unwrap_or_default();
        if p.payload_len > seg.payload_len()
            || p.heap_offset as u64 != h.heap_offset
            || p.ctrl_offset as u64 != h.ctrl_offset
        {
            return Err(bad("header sizes do not match the segment".into()));
        }
        let base = seg.as_ptr();
        let parts = ShmParts {
            base,
            size,
            heap0: base.wrapping_add(p.heap_offset),
            heap_stride: p.heap_stride,
            ctrl_offset: p.ctrl_offset,
            ctrl_stride: p.ctrl_stride,
            bells: AtomicU8::new(BELLS_UNDECIDED),
        };
        let t = ShmTransport {
            rank,
            size,
            heap: MappedHeap::new(parts, size, h.heap_len as usize),
            local: base.wrapping_add(p.heap_offset + rank * p.heap_stride),
            wait,
            launcher: ProcessId::new(h.launcher_pid, h.launcher_start),
            seen: Mutex::new(vec![0; size]),
            finished: AtomicBool::new(false),
            crowded: AtomicU8::new(super::hints::UNDECIDED),
            mask: mask.clone(),
            scan_next: std::sync::atomic::AtomicUsize::new(0),
            seg,
        };
        let me = t.ctrl(rank);
        me.pid.set(ProcessId::current());
        // Relaxed: published by the Release CAS of the state just below.
        me.cpu.store(shared_cpu::placed(&mask), Ordering::Relaxed);
        // Release: pairs with the Acquire loads of the state in `is_gone` and `gone`.
        if me
            .state
            .compare_exchange(SPAWNED, JOINED, Ordering::Release, Ordering::Relaxed)
            .is_err()
        {
            t.finished.store(true, std::sync::atomic::Ordering::Relaxed); // not ours to mark LEFT
            return Err(bad(format!(
                "PE {rank} has joined already; each rank joins once"
            )));
        }
        // After the CAS, so a second joiner of the rank (refused above) cannot overwrite it.
        // Release: pairs with the Acquire load in `ShmParts::decide_rings_bells`.
        me.sleeps
            .store(crate::team::quiet_bells::published(wait), Ordering::Release);
        Ok(t)
    }
}

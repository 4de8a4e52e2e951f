//! Process modes: the parent creates the channel that holds the block, a segment for the
//! samples (and semaphores or pipes), starts a producer and a consumer worker by re-executing
//! this binary, waits for both, and reads the samples the workers left in the segment.

use super::lockstep::{ChannelLockStep, SemLockStep};
use super::roles::{ConsumerLoop, LockStep, ProducerLoop};
use super::samples::Layout;
use super::{block_channel, next_id, run_deadline, Env, Mode, Point, RunData, RunError};
use crate::experiments::launcher;
use handoff::channel::Channel;
use handoff::shm::Segment;
use handoff::sync::Wait;
use handoff::sys::Deadline;
use handoff_probe::clock::{Clock, ClockSource};
use handoff_probe::posix_sem::NamedSemaphore;
use handoff_probe::proc::ChildGuard;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
use std::time::Duration;

/// Which side a worker plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Fills the block.
    Producer,
    /// Sums the block.
    Consumer,
}

/// Everything a worker needs, passed as one JSON argument.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerSpec {
    pub role: Role,
    /// The point measured (the worker's CPU is its role's).
    pub point: Point,
    /// Full name of the segment of samples.
    pub segment: String,
    /// Full name of the channel that holds the block (every mode but pipe).
    #[serde(default)]
    pub channel: Option<String>,
    /// Slow-producer delay, microseconds.
    pub delay_us: u64,
    /// Absolute CLOCK_MONOTONIC deadline of the run, ns.
    pub deadline_ns: u64,
    /// Whether the parent reads the TSC (the worker must read the same clock).
    pub tsc: bool,
    /// Semaphore names (full, free) in semaphore mode.
    pub semaphores: Option<(String, String)>,
    /// Inherited pipe fds (data read, data write, ack read, ack write) in pipe mode.
    pub pipe_fds: Option<[i32; 4]>,
    /// The fill and sum kernel's name (the parent's choice; this CPU is the parent's).
    pub kernel: String,
    /// Test fault injected by the producer (see [`super::fault`]).
    #[serde(default)]
    pub fault: Option<super::fault::Fault>,
}

/// Entry point of the hidden worker subcommand; returns the error to print.
pub fn worker_main(spec_json: &str) -> Result<(), RunError> {
    handoff_probe::proc::die_with_parent()?;
    let spec: WorkerSpec =
        serde_json::from_str(spec_json).map_err(|e| RunError::BadSpec(e.to_string()))?;
    let (p, role) = (&spec.point, spec.role);
    let kernel = crate::kernels::Kernel::choose(&spec.kernel)?;
    let clock = Clock::detect();
    if (clock.source() == ClockSource::Tsc) != spec.tsc {
        return Err(RunError::ClockMismatch);
    }
    // Take the inherited pipe ends first (closing those this role does not use, so the peer's
    // death shows as end-of-file instead of a hang).
    let pipes = match spec.pipe_fds {
        Some(fds) => {
            let [data_r, data_w, ack_r, ack_w] = fds.map(handoff_probe::pipe::adopt_inherited_fd);
            let (data_r, data_w, ack_r, ack_w) = (data_r?, data_w?, ack_r?, ack_w?);
            Some(match role {
                Role::Producer => (File::from(data_w), File::from(ack_r)),
                Role::Consumer => (File::from(data_r), File::from(ack_w)),
            })
        }
        None => None,
    };
    handoff::sys::pin_current_thread(match role {
        Role::Producer => p.producer_core,
        Role::Consumer => p.consumer_core,
    })?;
    let deadline = Deadline::at_ns(spec.deadline_ns);
    let open_deadline = Deadline::after(Duration::from_secs(10)).min(deadline);
    let seg = Segment::open(&spec.segment, open_deadline).map_err(RunError::OpenSegment)?;
    let slots = Layout::new(p.total_reps()).slots(&seg)?;
    let mut producer = ProducerLoop {
        clock: &clock,
        flush: p.flush,
        delay_us: spec.delay_us,
        kernel,
        fault: spec.fault,
    };
    let mut consumer = ConsumerLoop {
        clock: &clock,
        warmup: p.warmup,
        kernel,
    };
    if let Some((mut data, mut ack)) = pipes {
        let elems = p.size / 4;
        return match role {
            Role::Producer => producer.run_pipe(&mut data, &mut ack, elems, &slots),
            Role::Consumer => consumer.run_pipe(&mut data, &mut ack, elems, &slots),
        };
    }
    let chan = Channel::open(
        spec.channel.as_deref().unwrap_or_default(),
        block_channel(p.size),
        open_deadline,
    )
    .map_err(RunError::OpenChannel)?;
    let mut flags;
    let mut sems;
    let sync: &mut dyn LockStep = match p.mode {
        Mode::ProcessesSemaphore => {
            let (full, free) = spec.semaphores.as_ref().ok_or(RunError::NoSemaphores)?;
            sems = SemLockStep {
                full: NamedSemaphore::open(full)?,
                free: NamedSemaphore::open(free)?,
                deadline,
                peers: &seg,
            };
            &mut sems
        }
        _ => {
            let wait = match p.mode {
                Mode::ProcessesFutex => Wait::Block,
                Mode::ProcessesAdaptive => Wait::ADAPTIVE,
                _ if p.producer_core == p.consumer_core => Wait::SpinYield,
                _ => Wait::Spin,
            };
            flags = ChannelLockStep::new(wait, deadline);
            &mut flags
        }
    };
    match role {
        Role::Producer => producer.run(&mut chan.producer()?, sync, &slots),
        Role::Consumer => consumer.run(&mut chan.consumer()?, sync, &slots),
    }
}

/// Runs one process-mode run and returns its samples.
pub(crate) fn run_processes(
    p: &Point,
    env: &Env<'_>,
    pipe_size: &mut Option<u64>,
) -> Result<RunData, RunError> {
    let layout = Layout::new(p.total_reps());
    let id = next_id();
    let seg = Segment::create(&format!("ex{id}"), layout.payload_len())?;
    seg.publish_ready();
    // The block, in a channel of its own (pipe mode copies it through the kernel instead).
    let chan = match p.mode {
        Mode::Pipe => None,
        _ => Some(Channel::create(&format!("exb{id}"), block_channel(p.size))?),
    };
    let deadline = run_deadline(p, env.cfg.producer_delay_us);

    let sems = (p.mode == Mode::ProcessesSemaphore)
        .then(Semaphores::create)
        .transpose()?;
    // Pipe mode: (data read, data write, ack read, ack write), inherited by the workers.
    let mut pipe_ends: Vec<OwnedFd> = Vec::new();
    if p.mode == Mode::Pipe {
        let (dr, dw, size) = handoff_probe::pipe::pipe_with_size(p.size)?;
        let (ar, aw, _) = handoff_probe::pipe::pipe_with_size(0)?;
        *pipe_size = Some(size as u64);
        pipe_ends = vec![dr, dw, ar, aw];
        for fd in &pipe_ends {
            handoff_probe::pipe::clear_cloexec(fd)?;
        }
    }
    let pipe_fds =
        (!pipe_ends.is_empty()).then(|| std::array::from_fn(|i| pipe_ends[i].as_raw_fd()));

    let spawn = |role: Role| -> Result<ChildGuard, RunError> {
        let spec = WorkerSpec {
            role,
            point: p.clone(),
            segment: seg.name().unwrap_or_default().to_string(),
            channel: chan.as_ref().and_then(|c| c.name()).map(str::to_string),
            delay_us: env.cfg.producer_delay_us,
            deadline_ns: deadline.as_ns(),
            tsc: env.rig.clock.source() == ClockSource::Tsc,
            semaphores: sems.as_ref().map(Semaphores::names),
            pipe_fds,
            kernel: env.kernel.name().to_string(),
            fault: env.cfg.fault,
        };
        let json = serde_json::to_string(&spec)?;
        let (exe, args) = (&env.launcher.0, &env.launcher.1);
        let io = launcher::Io::Stderr;
        launcher::spawn_worker(exe, args, super::record::NAME, &[json], io).map_err(RunError::Spawn)
    };
    let mut workers = [
        ("consumer worker".to_string(), spawn(Role::Consumer)?),
        ("producer worker".to_string(), spawn(Role::Producer)?),
    ];
    // The workers hold their own copies now; ours would keep a dead peer's pipe open.
    drop(pipe_ends);
    launcher::reap(&mut workers, deadline, env.cancel).map_err(RunError::Workers)?;
    Ok(RunData::from_slots(&layout.slots(&seg)?))
    // `chan` and `seg` drop here: the parent created them, so they are unlinked.
}

/// The `processes-semaphore` mode's two named semaphores ("full" at 0, "free" at 1),
/// unlinked when dropped. Their names carry a random part (`NamedSemaphore::create_unique`):
/// the old `/handoff-<pid>-sem<id>-{full,free}` could be planted in advance by another user,
/// and the run failed with "File exists" (issue #40).
struct Semaphores {
    full: NamedSemaphore,
    free: NamedSemaphore,
}

impl Semaphores {
    fn create() -> Result<Semaphores, RunError> {
        let id = next_id();
        let full = NamedSemaphore::create_unique(&format!("sem{id}-full"), 0)?;
        let free =
            NamedSemaphore::create_unique(&format!("sem{id}-free"), 1).inspect_err(|_| {
                let _ = NamedSemaphore::unlink(full.name());
            })?;
        Ok(Semaphores { full, free })
    }

    /// (full, free): the names the workers open.
    fn names(&self) -> (String, String) {
        (self.full.name().to_string(), self.free.name().to_string())
    }
}

impl Drop for Semaphores {
    fn drop(&mut self) {
        let _ = NamedSemaphore::unlink(self.full.name());
        let _ = NamedSemaphore::unlink(self.free.name());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #40: another user planted the names the old scheme picked
    /// (`/handoff-<pid>-sem<id>-{full,free}`, no random part) and the run failed with "File
    /// exists". Planted for the next 64 ids of this process, creation still succeeds, under
    /// other names, and leaves the planted ones alone.
    #[test]
    fn planted_old_scheme_semaphore_names_do_not_stop_a_run() {
        let first = next_id();
        let planted: Vec<String> = (first..first + 64)
            .flat_map(|id| {
                let base = format!("/handoff-{}-sem{id}", std::process::id());
                [format!("{base}-full"), format!("{base}-free")]
            })
            .collect();
        let held: Vec<NamedSemaphore> = planted
            .iter()
            .map(|n| NamedSemaphore::create(n, 0).unwrap())
            .collect();
        let made = Semaphores::create();
        for n in &planted {
            let _ = NamedSemaphore::unlink(n);
        }
        drop(held);
        let sems = made.expect("creation with the old names planted");
        let (full, free) = sems.names();
        assert!(
            !planted.contains(&full) && !planted.contains(&free),
            "{full} {free}"
        );
        assert!(
            full.contains('~') && free.contains('~'),
            "no random part: {full} {free}"
        );
        // The workers open them by these names.
        NamedSemaphore::open(&full).unwrap();
        NamedSemaphore::open(&free).unwrap();
        drop(sems);
        assert!(
            NamedSemaphore::open(&full).is_err(),
            "unlinked when dropped"
        );
    }
}

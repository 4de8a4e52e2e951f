//! Starting a team: [`Launch`] creates the team segment and starts N processes (PEs) that
//! join it through the environment; [`Running`] waits for them and ends the team when one
//! fails. `handoff run` is a thin command line over it.
//!
//! # One PE failing ends the team
//!
//! [`Running::wait`] polls the PEs every millisecond. When one exits with a non-zero code or
//! is killed by a signal, the others notice within about 50 ms (their waits return
//! [`TeamError::PeerDied`] naming it) and usually exit on their own; any still running after
//! [`Launch::grace`] (default 2 s) are killed. The report names the first PE that failed.
//! The segment is removed when the [`Running`] handle goes (the launcher created it).
//!
//! # A team cannot outlive its launcher
//!
//! Each PE runs in its own process group and dies with the launcher (see `orphans`): a
//! launcher killed even by SIGKILL leaves no PE, no PE child and no segment behind.
//! [`Running::wait_interruptible`] forwards a signal the launcher received (SIGINT, SIGTERM,
//! SIGHUP) to every PE's process group and ends the team within a second.
//!
//! # Joining has one deadline
//!
//! Once one PE has joined, every other PE still alive must join within
//! [`Launch::join_timeout`] of the start (default 30 s); otherwise the team ends with
//! [`TeamError::NotJoined`] naming the first PE that did not. (Programs of which no PE ever
//! joins are not team programs and are left alone.)

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Child, Command};
use std::str::FromStr;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering as StdOrdering};
use std::time::{Duration, Instant};

use super::exit::PeStatus;
use super::layout::*;
use super::orphans::{guard_pe, signal_group, Watcher};
use super::TeamError;
use crate::shm::{Segment, SegmentOptions};
use crate::sync::Wait;
use crate::sys::affinity;
use crate::sys::ProcessId;

/// Where PEs run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Placement {
    /// Not pinned: the scheduler decides.
    #[default]
    Unpinned,
    /// PE `r` on CPU `list[r % list.len()]`.
    Cores(Vec<usize>),
    /// PEs on consecutive allowed CPUs (PE `r` on the `r % n`-th), wrapping around.
    Compact,
    /// PEs spread evenly over the allowed CPUs (PE `r` on the `r * n / size`-th), wrapping
    /// around when there are more PEs than CPUs.
    Spread,
}

impl FromStr for Placement {
    type Err = TeamError;

    /// `compact`, `spread`, `none`, or a CPU list such as `0-3,8`.
    fn from_str(s: &str) -> Result<Self, TeamError> {
        match s.trim() {
            "compact" => Ok(Placement::Compact),
            "spread" => Ok(Placement::Spread),
            "none" | "unpinned" => Ok(Placement::Unpinned),
            list => {
                let cpus = affinity::parse_cpu_list(list).map_err(|e| {
                    TeamError::InvalidArgument(format!("{e}; or use compact, spread or none"))
                })?;
                if cpus.is_empty() {
                    return Err(TeamError::InvalidArgument(
                        "an empty CPU list; name at least one CPU (e.g. 0-3)".into(),
                    ));
                }
                Ok(Placement::Cores(cpus))
            }
        }
    }
}

impl Placement {
    /// The CPU of each of `size` PEs (`None`: unpinned), checked against the CPUs this
    /// process may use.
    pub fn cpus(&self, size: usize) -> Result<Vec<Option<usize>>, TeamError> {
        let allowed = affinity::allowed_cpus()?;
        let unavailable = |rank: usize, cpu: usize| TeamError::CpuUnavailable {
            rank,
            cpu,
            allowed: affinity::format_cpu_list(&allowed),
        };
        let n = allowed.len().max(1);
        if matches!(self, Placement::Cores(list) if list.is_empty()) {
            return Err(TeamError::InvalidArgument(
                "an empty CPU list places no PE; name at least one CPU (e.g. 0-3)".into(),
            ));
        }
        (0..size)
            .map(|r| {
                let cpu = match self {
                    Placement::Unpinned => return Ok(None),
                    Placement::Cores(list) => list[r % list.len()],
                    Placement::Compact => allowed[r % n],
                    Placement::Spread => allowed[(r * n / size.max(1)) % n],
                };
                if allowed.binary_search(&cpu).is_err() {
                    return Err(unavailable(r, cpu));
                }
                Ok(Some(cpu))
            })
            .collect()
    }
}

/// One PE's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeExit {
    /// Its rank.
    pub rank: usize,
    /// Its pid.
    pub pid: u32,
    /// How it ended.
    pub status: PeStatus,
}

/// How every PE of a team ended, in rank order, and which failed first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamReport {
    /// Each PE's end, by rank.
    pub exits: Vec<PeExit>,
    /// The rank of the first PE seen failing, if any (after a global exit: the PE that
    /// asked for it if its status is not 0, else none).
    pub first_failure: Option<usize>,
    /// `(rank, status)` of the PE that ended the whole team with a status (OpenSHMEM's
    /// `shmem_global_exit`, [`ShmTransport::global_exit`](super::ShmTransport::global_exit)).
    pub global_exit: Option<(usize, i32)>,
}

impl TeamReport {
    /// Whether every PE exited with code 0.
    pub fn success(&self) -> bool {
        self.first_failure.is_none()
    }

    /// `Ok` if every PE succeeded, else [`TeamError::PeFailed`] for the first failure.
    pub fn into_result(self) -> Result<(), TeamError> {
        match self.first_failure {
            None => Ok(()),
            Some(r) => {
                let e = &self.exits[r];
                Err(TeamError::PeFailed {
                    rank: e.rank,
                    pid: e.pid,
                    status: e.status,
                })
            }
        }
    }
}

/// A team to start: `Launch::new(4).cores(Placement::Compact).spawn()?.wait()?`.
#[derive(Debug, Clone)]
pub struct Launch {
    n: usize,
    placement: Placement,
    wait: Wait,
    heap: usize,
    program: Option<PathBuf>,
    args: Option<Vec<OsString>>,
    env: Vec<(OsString, OsString)>,
    grace: Duration,
    capture_stdout: bool,
    timeout: Option<Duration>,
    join_timeout: Duration,
    /// A bad `HANDOFF_HEAP_SIZE`, reported by `spawn` unless `heap` overrides it.
    heap_env_error: Option<(String, String)>,
}

/// Distinguishes the segments of several teams one process starts.
static TEAMS: AtomicUsize = AtomicUsize::new(0);

impl Launch {
    /// `n` PEs of the current executable with the current arguments, unpinned, adaptive
    /// waits, [`DEFAULT_HEAP`](super::DEFAULT_HEAP) (or `HANDOFF_HEAP_SIZE`) bytes of heap each.
    pub fn new(n: usize) -> Self {
        let (heap, heap_env_error) = match std::env::var(super::ENV_HEAP) {
            Ok(h) => match super::parse_size(&h) {
                Ok(bytes) => (bytes, None),
                Err(e) => (super::DEFAULT_HEAP, Some((h, e.to_string()))),
            },
            Err(_) => (super::DEFAULT_HEAP, None),
        };
        Launch {
            n,
            placement: Placement::Unpinned,
            wait: Wait::ADAPTIVE,
            heap,
            program: None,
            args: None,
            env: Vec::new(),
            grace: Duration::from_secs(2),
            capture_stdout: false,
            timeout: None,
            join_timeout: DEFAULT_JOIN_TIMEOUT,
            heap_env_error,
        }
    }

    /// Where the PEs run.
    pub fn cores(mut self, placement: Placement) -> Self {
        self.placement = placement;
        self
    }

    /// The wait strategy of every PE (`HANDOFF_WAIT`).
    pub fn wait(mut self, wait: Wait) -> Self {
        self.wait = wait;
        self
    }

    /// Bytes of symmetric heap per PE.
    pub fn heap(mut self, bytes: usize) -> Self {
        self.heap = bytes;
        self.heap_env_error = None;
        self
    }

    /// Ends the team if it has not ended within `timeout` of its start: [`Running::wait`]
    /// then kills every PE still running and returns [`TeamError::Timeout`] (a watchdog for
    /// tests and the lab). Default: no limit.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// How long after the start every PE must have joined, once one has (module docs,
    /// "Joining has one deadline"). Default 30 s.
    pub fn join_timeout(mut self, timeout: Duration) -> Self {
        self.join_timeout = timeout;
        self
    }

    /// Pipe each PE's stdout to the launcher instead of inheriting it; take the pipes with
    /// [`Running::take_stdout`] and read them while the PEs run (a PE blocks once a pipe it
    /// writes is full).
    pub fn capture_stdout(mut self, yes: bool) -> Self {
        self.capture_stdout = yes;
        self
    }

    /// The program to start (default: the current executable).
    pub fn program(mut self, program: impl Into<PathBuf>) -> Self {
        self.program = Some(program.into());
        self
    }

    /// Its arguments (default: the current process's arguments).
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args = Some(args.into_iter().map(Into::into).collect());
        self
    }

    /// An extra environment variable for every PE.
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// How long PEs may take to exit on their own after one failed before the launcher
    /// kills them.
    pub fn grace(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// Checks the request, creates the team segment and starts the PEs.
    ///
    /// The PEs die when the *thread* that calls `spawn` ends (`PR_SET_PDEATHSIG` follows
    /// the spawning thread): spawn from a thread that outlives the team, e.g. the main one.
    pub fn spawn(self) -> Result<Running, TeamError> {
        if self.n == 0 || self.n > MAX_PES {
            return Err(TeamError::TeamSize {
                n: self.n,
                max: MAX_PES,
            });
        }
        if let Some((value, why)) = &self.heap_env_error {
            return Err(TeamError::BadEnv {
                var: super::ENV_HEAP,
                value: value.clone(),
                why: format!("{why}; unset it or give a size"),
            });
        }
        if self.heap == 0 {
            return Err(TeamError::InvalidArgument(
                "a heap of 0 bytes holds nothing; ask for at least 1 byte (e.g. --heap 1M)".into(),
            ));
        }
        let cpus = self.placement.cpus(self.n)?;
        let p = plan(self.n, self.heap).ok_or_else(|| {
            TeamError::InvalidArgument(format!(
                "{} PEs of {} heap bytes overflow",
                self.n, self.heap
            ))
        })?;
        // The attached table: every PE and the launcher.
        let opts = SegmentOptions::new().slots(self.n + 1);
        let needed = opts.object_size(p.payload_len)? as u64;
        let available = crate::sys::mem::shm_available()?;
        if needed > available {
            return Err(TeamError::NoSpace { needed, available });
        }
        let id = TEAMS.fetch_add(1, StdOrdering::Relaxed);
        let seg = Segment::create_with(&format!("team{id}"), p.payload_len, &opts)?;
        let me = ProcessId::current();
        let h = seg.as_ptr().cast::<TeamHeader>();
        // SAFETY: the payload is page aligned and at least size_of::<TeamHeader>() long
        // (plan puts the control blocks after it); the segment is not READY yet, so no
        // other process reads it; raw writes make no reference to shared memory.
        unsafe {
            h.write(TeamHeader {
                magic: TEAM_MAGIC,
                version: TEAM_VERSION,
                size: self.n as u32,
                heap_len: self.heap as u64,
                heap_stride: p.heap_stride as u64,
                ctrl_offset: p.ctrl_offset as u64,
                heap_offset: p.heap_offset as u64,
                launcher_pid: me.pid,
                _pad: 0,
                launcher_start: me.start_time,
                first_gone: crate::atomic::AtomicU32::new(0),
                global_exit: crate::atomic::AtomicU64::new(0),
            });
        }
        seg.publish_ready();
        let name = seg.name().unwrap_or_default().to_string();
        let program = match &self.program {
            Some(p) => p.clone(),
            None => std::env::current_exe().map_err(|e| TeamError::Spawn {
                rank: 0,
                program: "the current executable".into(),
                source: e,
            })?,
        };
        let args = self
            .args
            .clone()
            .unwrap_or_else(|| std::env::args_os().skip(1).collect());
        let mut running = Running {
            seg,
            name,
            ctrl_offset: p.ctrl_offset,
            ctrl_stride: p.ctrl_stride,
            kids: Vec::with_capacity(self.n),
            pids: Vec::with_capacity(self.n),
            grace: self.grace,
            deadline: self.timeout.map(|t| Instant::now() + t),
            join_deadline: Instant::now() + self.join_timeout,
            join_timeout: self.join_timeout,
            watcher: None,
        };
        for (rank, cpu) in cpus.iter().enumerate() {
            let mut cmd = Command::new(&program);
            cmd.args(&args)
                .env(super::ENV_TEAM, &running.name)
                .env(super::ENV_RANK, rank.to_string())
                .env(super::ENV_SIZE, self.n.to_string())
                .env(super::ENV_WAIT, self.wait.to_string())
                .env_remove(super::ENV_CPU);
            if let Some(c) = cpu {
                cmd.env(super::ENV_CPU, c.to_string());
            }
            for (k, v) in &self.env {
                cmd.env(k, v);
            }
            if self.capture_stdout {
                cmd.stdout(std::process::Stdio::piped());
            }
            guard_pe(&mut cmd);
            let child = cmd.spawn().map_err(|e| TeamError::Spawn {
                rank,
                program: program.display().to_string(),
                source: e,
            })?;
            let pid = child.id();
            if let Some(c) = cpu {
                // Also pins programs that do not join (a PE that joins pins itself too); a
                // child that already exited cannot be pinned and needs no pinning.
                let _ = affinity::pin_process(pid, *c);
            }
            if let Ok(id) = ProcessId::of(pid) {
                running.ctrl(rank).launch_pid.set(id);
            }
            running.kids.push(Some(child));
            running.pids.push(pid);
        }
        running.watcher = Watcher::start(&running.name, &running.pids);
        Ok(running)
    }

    /// [`spawn`](Self::spawn), then [`Running::wait`].
    pub fn run(self) -> Result<TeamReport, TeamError> {
        self.spawn()?.wait()
    }
}

/// A started team. Dropping it kills and reaps PEs still running and removes the segment.
#[derive(Debug)]
pub struct Running {
    seg: Segment,
    name: String,
    ctrl_offset: usize,
    ctrl_stride: usize,
    kids: Vec<Option<Child>>,
    pids: Vec<u32>,
    grace: Duration,
    deadline: Option<Instant>,
    join_deadline: Instant,
    join_timeout: Duration,
    watcher: Option<Watcher>,
}

/// Default of [`Launch::join_timeout`].
pub const DEFAULT_JOIN_TIMEOUT: Duration = Duration::from_secs(30);

/// How long PEs may take to end after a forwarded signal before they are killed.
const SIGNAL_GRACE: Duration = Duration::from_millis(500);

/// Never set: [`Running::wait`] is not interruptible.
static NEVER: AtomicI32 = AtomicI32::new(0);

impl Running {
    fn ctrl(&self, rank: usize) -> &PeCtrl {
        // SAFETY: rank < size; the launcher laid out `size` control blocks from ctrl_offset
        // in the payload (plan), mapped as long as `self.seg`.
        unsafe { ctrl_at(self.seg.as_ptr(), self.ctrl_offset, self.ctrl_stride, rank) }
    }

    /// The team segment's full name (`HANDOFF_TEAM`).
    pub fn segment_name(&self) -> &str {
        &self.name
    }

    /// The PEs' pids, by rank.
    pub fn pids(&self) -> &[u32] {
        &self.pids
    }

    /// PE `rank`'s stdout pipe, once, if [`Launch::capture_stdout`] asked for it.
    pub fn take_stdout(&mut self, rank: usize) -> Option<std::process::ChildStdout> {
        self.kids.get_mut(rank)?.as_mut()?.stdout.take()
    }

    /// SIGKILLs PE `rank` (for tests of a dying PE).
    pub fn kill(&mut self, rank: usize) -> Result<(), TeamError> {
        let size = self.kids.len();
        let kid = self
            .kids
            .get_mut(rank)
            .ok_or(TeamError::NoSuchPe { pe: rank, size })?;
        if let Some(k) = kid {
            let _ = k.kill();
        }
        Ok(())
    }

    /// Waits for every PE; when one fails, gives the others [`Launch::grace`] to end, then
    /// kills the rest. Returns how each ended.
    pub fn wait(self) -> Result<TeamReport, TeamError> {
        self.wait_interruptible(&NEVER)
    }

    /// [`wait`](Self::wait), also watching `signal`: when it becomes non-zero (a signal
    /// handler stores the signal number it received), that signal goes to every PE's process
    /// group, PEs still running after half a second are killed, and the result is
    /// [`TeamError::Interrupted`].
    pub fn wait_interruptible(mut self, signal: &AtomicI32) -> Result<TeamReport, TeamError> {
        let n = self.kids.len();
        let mut join_checked = false;
        let mut status: Vec<Option<PeStatus>> = vec![None; n];
        let mut first_failure = None;
        let mut failed_at: Option<Instant> = None;
        loop {
            let mut running = 0;
            for (r, (st, slot)) in status.iter_mut().zip(self.kids.iter_mut()).enumerate() {
                let Some(kid) = slot.as_mut() else { continue };
                match kid.try_wait() {
                    Ok(Some(exit)) => {
                        // The PE's own children end with it.
                        signal_group(self.pids[r], libc::SIGKILL);
                        let s = status_of(exit);
                        if !s.success() && first_failure.is_none() {
                            first_failure = Some(r);
                            failed_at = Some(Instant::now());
                        }
                        *st = Some(s);
                        *slot = None;
                    }
                    Ok(None) => running += 1,
                    Err(e) => {
                        let op = format!("waitpid {}", self.pids[r]);
                        return Err(crate::sys::Error::io(op, e).into());
                    }
                }
            }
            if running == 0 {
                break;
            }
            let sig = signal.load(StdOrdering::Relaxed);
            if sig != 0 {
                self.forward(sig);
                return Err(TeamError::Interrupted { signal: sig });
            }
            if !join_checked && Instant::now() >= self.join_deadline {
                join_checked = true;
                if let Some(rank) = self.not_joined() {
                    let pid = self.pids[rank];
                    // Stopped before it could join: say so rather than "never called".
                    if crate::sys::ProcessId::of(pid).is_ok_and(|id| id.is_stopped()) {
                        return Err(TeamError::NotResponding {
                            rank,
                            pid,
                            what: "every PE to join the team",
                        });
                    }
                    return Err(TeamError::NotJoined {
                        rank,
                        pid,
                        after: self.join_timeout,
                    });
                }
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                // Drop kills and reaps the PEs still running, and removes the segment. A
                // stopped PE among them is named.
                let running = self.kids.iter().enumerate().filter(|(_, k)| k.is_some());
                return Err(super::stopped::timeout_error(
                    "every PE to exit (Launch::timeout)",
                    running.filter_map(|(r, _)| {
                        crate::sys::ProcessId::of(self.pids[r])
                            .ok()
                            .map(|id| (r, id))
                    }),
                ));
            }
            if failed_at.is_some_and(|t| t.elapsed() >= self.grace) {
                for (r, (st, slot)) in status.iter_mut().zip(self.kids.iter_mut()).enumerate() {
                    if let Some(mut kid) = slot.take() {
                        signal_group(self.pids[r], libc::SIGKILL);
                        let _ = kid.kill();
                        let _ = kid.wait();
                        *st = Some(PeStatus::Stopped);
                    }
                }
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // Acquire: pairs with the Release CAS in `ShmTransport::global_exit`.
        let word = self
            .seg
            .get::<TeamHeader>(0)
            .map_or(0, |h| h.global_exit.load(crate::atomic::Ordering::Acquire));
        let global_exit = (word >> 32)
            .checked_sub(1)
            .map(|r| (r as usize, word as u32 as i32));
        if let Some((r, status)) = global_exit {
            // The other PEs were ended by the caller: not failures of their own.
            first_failure = (status != 0).then_some(r);
        }
        let exits = (0..n)
            .map(|r| PeExit {
                rank: r,
                pid: self.pids[r],
                status: status[r].unwrap_or(PeStatus::Stopped),
            })
            .collect();
        Ok(TeamReport {
            exits,
            first_failure,
            global_exit,
        })
    }
}

impl Running {
    /// The first PE still running that has not joined while another has, if any.
    fn not_joined(&self) -> Option<usize> {
        // Acquire: pairs with the Release CAS to JOINED in `ShmTransport::join`.
        let state = |r: usize| self.ctrl(r).state.load(crate::atomic::Ordering::Acquire);
        let someone_joined = (0..self.kids.len()).any(|r| state(r) != SPAWNED);
        if !someone_joined {
            return None;
        }
        (0..self.kids.len()).find(|&r| self.kids[r].is_some() && state(r) == SPAWNED)
    }

    /// Forwards `sig` to every running PE's group, then kills those still running after
    /// [`SIGNAL_GRACE`].
    fn forward(&mut self, sig: i32) {
        for (r, kid) in self.kids.iter().enumerate() {
            if kid.is_some() {
                signal_group(self.pids[r], sig);
            }
        }
        let until = Instant::now() + SIGNAL_GRACE;
        while Instant::now() < until {
            let mut running = false;
            for (r, slot) in self.kids.iter_mut().enumerate() {
                if let Some(kid) = slot {
                    if matches!(kid.try_wait(), Ok(None)) {
                        running = true;
                    } else {
                        signal_group(self.pids[r], libc::SIGKILL);
                        *slot = None;
                    }
                }
            }
            if !running {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // Drop kills the rest.
    }
}

fn status_of(st: std::process::ExitStatus) -> PeStatus {
    use std::os::unix::process::ExitStatusExt;
    match (st.code(), st.signal()) {
        (Some(c), _) => PeStatus::Exited(c),
        (None, Some(s)) => PeStatus::Signaled(s),
        (None, None) => PeStatus::Exited(-1),
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        for (r, kid) in self.kids.iter_mut().enumerate() {
            if let Some(mut kid) = kid.take() {
                signal_group(self.pids[r], libc::SIGKILL);
                let _ = kid.kill();
                let _ = kid.wait();
            }
        }
        if let Some(w) = self.watcher.take() {
            w.dismiss();
        }
    }
}

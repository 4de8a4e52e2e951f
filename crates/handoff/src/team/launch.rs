//! Starting a team: [`Launch`] creates the team segment and starts N processes (PEs) that
//! join it through the environment, and returns the [`Running`] team, which supervises them
//! (see `running`: one PE failing ends the team, a team cannot outlive its launcher, joining
//! has one deadline). `handoff run` is a thin command line over it.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering as StdOrdering};
use std::time::{Duration, Instant};

use super::layout::*;
use super::orphans::{guard_pe, Watcher};
use super::running::{Running, TeamReport};
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
    /// A bad `HANDOFF_JOIN_TIMEOUT`, reported by `spawn` unless `join_timeout` overrides it.
    join_env_error: Option<(String, String)>,
}

/// Distinguishes the segments of several teams one process starts.
static TEAMS: AtomicUsize = AtomicUsize::new(0);

impl Launch {
    /// `n` PEs of the current executable with the current arguments, unpinned, adaptive
    /// waits, [`DEFAULT_HEAP`](super::DEFAULT_HEAP) (or `HANDOFF_HEAP_SIZE`) bytes of heap
    /// each, a join deadline of 30 s (or `HANDOFF_JOIN_TIMEOUT`).
    pub fn new(n: usize) -> Self {
        let (join_timeout, join_env_error) = match std::env::var(super::ENV_JOIN_TIMEOUT) {
            Ok(t) => match super::parse_duration(&t) {
                Ok(d) => (d, None),
                Err(e) => (DEFAULT_JOIN_TIMEOUT, Some((t, e.to_string()))),
            },
            Err(_) => (DEFAULT_JOIN_TIMEOUT, None),
        };
        let (heap, heap_env_error) = match super::env::heap_text() {
            Some((_, Ok(bytes))) => (bytes, None),
            Some((h, Err(e))) => (super::DEFAULT_HEAP, Some((h, e.to_string()))),
            None => (super::DEFAULT_HEAP, None),
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
            join_timeout,
            heap_env_error,
            join_env_error,
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
    /// then kills every PE still running and returns [`TeamError::TeamTimeout`] naming them
    /// (or [`TeamError::NotResponding`] naming a stopped one; a watchdog for
    /// tests and the lab). Default: no limit.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// How long after the start every PE must have joined, once one has (module docs of
    /// `running`, "Joining has one deadline"). Default 30 s, or `HANDOFF_JOIN_TIMEOUT`.
    pub fn join_timeout(mut self, timeout: Duration) -> Self {
        self.join_timeout = timeout;
        self.join_env_error = None;
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
        if let Some((value, why)) = &self.join_env_error {
            return Err(TeamError::BadEnv {
                var: super::ENV_JOIN_TIMEOUT,
                value: value.clone(),
                why: format!("{why}; unset it or give a duration"),
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
        // The name first, then its watcher, then the segment: a launcher killed at any
        // moment from here on leaves no segment (`orphans`).
        let full = crate::shm::segment_name(&format!("team{id}"))?;
        let watcher = Watcher::start(&full);
        let seg = Segment::create_with(&full, p.payload_len, &opts)?;
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
            timeout: self.timeout,
            join_deadline: Instant::now() + self.join_timeout,
            join_timeout: self.join_timeout,
            watcher,
        };
        let watcher_fd = running.watcher.as_ref().and_then(Watcher::fd);
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
            guard_pe(&mut cmd, watcher_fd);
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
        Ok(running)
    }

    /// [`spawn`](Self::spawn), then [`Running::wait`].
    pub fn run(self) -> Result<TeamReport, TeamError> {
        self.spawn()?.wait()
    }
}

/// Default of [`Launch::join_timeout`].
pub const DEFAULT_JOIN_TIMEOUT: Duration = Duration::from_secs(30);

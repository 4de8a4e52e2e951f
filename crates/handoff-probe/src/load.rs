//! What else the machine did while a measurement ran: the 1-minute load average before and
//! after, the CPU time other processes used (all CPUs' busy time in `/proc/stat` minus this
//! process tree's own time in `/proc/self/stat`), the hypervisor's steal time, and this
//! process tree's context switches (`getrusage`) and migrations (`se.nr_migrations` of the
//! threads alive at both samples, where the kernel shows `/proc/self/task/*/sched`).
//!
//! Take a [`Snapshot`] before the measurement and one after; [`Snapshot::until`] gives the
//! [`Usage`] in between. Every figure is `None` where the kernel does not provide it.
//!
//! "This process tree" is this process, the children it reaped (`cutime`, `cstime`) and its
//! live descendants (each one's own and reaped time, from `/proc/PID/stat`): a worker that
//! still runs, or has exited but is not yet reaped, at a snapshot is counted as ours, never
//! as another process's. A worker reaped between the snapshots moves from the descendants'
//! sum into `cutime`, so nothing is counted twice.

use std::time::Instant;

/// Counters read at one moment.
#[derive(Debug, Clone)]
pub struct Snapshot {
    at: Instant,
    load1: Option<f64>,
    cpu: Option<CpuTicks>,
    own_ticks: Option<u64>,
    switches: Option<(u64, u64)>,
    migrations: Option<u64>,
}

/// The aggregate `cpu` line of `/proc/stat`, in clock ticks (USER_HZ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuTicks {
    /// user + nice + system + irq + softirq: time some task (or interrupt) ran.
    pub busy: u64,
    /// Time a hypervisor ran something else while a virtual CPU wanted to run.
    pub steal: u64,
    /// Every field but guest time (which is already inside user time).
    pub total: u64,
    /// The number of `cpuN` lines: the online CPUs.
    pub cpus: usize,
}

/// What happened between two [`Snapshot`]s.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Usage {
    /// Wall time between the snapshots, in seconds.
    pub elapsed_s: f64,
    /// Online CPUs (from `/proc/stat`; 0 when unknown).
    pub cpus: usize,
    /// 1-minute load average at the first snapshot.
    pub load1_before: Option<f64>,
    /// 1-minute load average at the second snapshot.
    pub load1_after: Option<f64>,
    /// CPUs' worth of time used by everything outside this process tree, on average (0.25 =
    /// a quarter of one CPU).
    pub others_cpus: Option<f64>,
    /// CPUs' worth of time used by this process and the children it waited for.
    pub own_cpus: Option<f64>,
    /// Steal time as a fraction of all CPU time.
    pub steal_fraction: Option<f64>,
    /// Voluntary context switches of this process tree (blocking waits).
    pub voluntary_switches: Option<u64>,
    /// Involuntary context switches of this process tree (preempted by the scheduler).
    pub involuntary_switches: Option<u64>,
    /// CPU migrations of this process's threads alive at both snapshots.
    pub migrations: Option<u64>,
}

impl Snapshot {
    /// Reads every counter now.
    pub fn take() -> Snapshot {
        let read = |p: &str| std::fs::read_to_string(p).ok();
        Snapshot {
            load1: read("/proc/loadavg").and_then(|t| parse_loadavg(&t)),
            cpu: read("/proc/stat").and_then(|t| parse_proc_stat(&t)),
            own_ticks: read("/proc/self/stat")
                .and_then(|t| parse_self_ticks(&t))
                .map(|own| own + descendants().iter().map(|d| d.ticks).sum::<u64>()),
            switches: context_switches(),
            migrations: migrations(),
            at: Instant::now(),
        }
    }

    /// The usage from this snapshot to `later`.
    pub fn until(&self, later: &Snapshot) -> Usage {
        let elapsed_s = later.at.duration_since(self.at).as_secs_f64();
        let hz = rustix::param::clock_ticks_per_second() as f64;
        let d = |a: Option<u64>, b: Option<u64>| Some(b?.saturating_sub(a?));
        let (mut others, mut own, mut steal) = (None, None, None);
        if let (Some(a), Some(b)) = (self.cpu, later.cpu) {
            let busy = b.busy.saturating_sub(a.busy);
            let total = b.total.saturating_sub(a.total);
            if let Some(own_t) = d(self.own_ticks, later.own_ticks) {
                if elapsed_s > 0.0 && hz > 0.0 {
                    others = Some(busy.saturating_sub(own_t) as f64 / hz / elapsed_s);
                    own = Some(own_t as f64 / hz / elapsed_s);
                }
            }
            if total > 0 {
                steal = Some(b.steal.saturating_sub(a.steal) as f64 / total as f64);
            }
        }
        Usage {
            elapsed_s,
            cpus: later.cpu.map_or(0, |c| c.cpus),
            load1_before: self.load1,
            load1_after: later.load1,
            others_cpus: others,
            own_cpus: own,
            steal_fraction: steal,
            voluntary_switches: d(self.switches.map(|s| s.0), later.switches.map(|s| s.0)),
            involuntary_switches: d(self.switches.map(|s| s.1), later.switches.map(|s| s.1)),
            migrations: d(self.migrations, later.migrations),
        }
    }
}

/// The first field of `/proc/loadavg`.
pub fn parse_loadavg(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

/// The aggregate `cpu` line and the count of `cpuN` lines of `/proc/stat`.
pub fn parse_proc_stat(text: &str) -> Option<CpuTicks> {
    let mut lines = text.lines();
    let first = lines.next()?;
    let mut f = first.split_whitespace();
    if f.next()? != "cpu" {
        return None;
    }
    // user nice system idle iowait irq softirq steal [guest guest_nice]
    let v: Vec<u64> = f.take(8).map(|x| x.parse().ok()).collect::<Option<_>>()?;
    if v.len() < 4 {
        return None;
    }
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    let cpus = text
        .lines()
        .filter(|l| {
            l.strip_prefix("cpu")
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count();
    Some(CpuTicks {
        busy: at(0) + at(1) + at(2) + at(5) + at(6),
        steal: at(7),
        total: v.iter().sum(),
        cpus,
    })
}

/// utime + stime + cutime + cstime of `/proc/self/stat` (fields 14–17), in clock ticks.
pub fn parse_self_ticks(text: &str) -> Option<u64> {
    parse_stat(text).map(|s| s.ticks)
}

/// What this module reads of one `/proc/PID/stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcStat {
    /// The process id (field 1).
    pub pid: u32,
    /// The state letter (field 3): `R`, `S`, `D`, `Z` (exited, not yet reaped), ...
    pub state: char,
    /// The parent's process id (field 4).
    pub ppid: u32,
    /// utime + stime + cutime + cstime (fields 14–17), in clock ticks.
    pub ticks: u64,
}

/// Parses one `/proc/PID/stat` text.
pub fn parse_stat(text: &str) -> Option<ProcStat> {
    // The command name (field 2) may hold spaces and parentheses: fields restart after the
    // last ')'; the first of them is field 3.
    let close = text.rfind(')')?;
    let pid = text[..text.find('(')?].trim().parse().ok()?;
    let f: Vec<&str> = text[close + 1..].split_whitespace().collect();
    let field = |n: usize| -> Option<u64> { f.get(n - 3)?.parse::<i64>().ok()?.try_into().ok() };
    Some(ProcStat {
        pid,
        state: f.first()?.chars().next()?,
        ppid: u32::try_from(field(4)?).ok()?,
        ticks: field(14)? + field(15)? + field(16)? + field(17)?,
    })
}

/// The descendants of the process `root` among `procs` (children, their children, ...).
pub fn descendants_of(root: u32, procs: &[ProcStat]) -> Vec<ProcStat> {
    let mut tree = vec![root];
    let mut out = Vec::new();
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        for p in procs.iter().filter(|p| p.ppid == parent && p.pid != root) {
            if !tree.contains(&p.pid) {
                tree.push(p.pid);
                out.push(*p);
            }
        }
        i += 1;
    }
    out
}

/// This process's live descendants (every process of `/proc` whose ancestry leads here).
pub fn descendants() -> Vec<ProcStat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let procs: Vec<ProcStat> = dir
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter_map(|t| parse_stat(&t))
        .collect();
    descendants_of(std::process::id(), &procs)
}

/// How many of this process's descendants still run (exited but unreaped ones do not).
pub fn live_descendants() -> usize {
    descendants().iter().filter(|d| d.state != 'Z').count()
}

/// `se.nr_migrations` of one `/proc/.../sched` text.
pub fn parse_migrations(text: &str) -> Option<u64> {
    text.lines()
        .find(|l| l.trim_start().starts_with("se.nr_migrations"))
        .and_then(|l| l.split(':').nth(1))
        .and_then(|v| v.trim().parse().ok())
}

/// Voluntary and involuntary context switches of this process and its waited-for children.
fn context_switches() -> Option<(u64, u64)> {
    let get = |who: libc::c_int| -> Option<(u64, u64)> {
        // SAFETY: `ru` is a plain-data struct the kernel fills; zeroed is a valid value and
        // `getrusage` writes only inside it.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `who` is RUSAGE_SELF or RUSAGE_CHILDREN and `&mut ru` is a valid pointer.
        let rc = unsafe { libc::getrusage(who, &mut ru) };
        (rc == 0).then(|| (ru.ru_nvcsw.max(0) as u64, ru.ru_nivcsw.max(0) as u64))
    };
    let s = get(libc::RUSAGE_SELF)?;
    let c = get(libc::RUSAGE_CHILDREN)?;
    Some((s.0 + c.0, s.1 + c.1))
}

/// Sum of `se.nr_migrations` over this process's live threads (`None` without
/// `CONFIG_SCHED_DEBUG`'s sched files).
fn migrations() -> Option<u64> {
    let mut sum = 0;
    let mut any = false;
    for e in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        if let Some(n) = std::fs::read_to_string(e.path().join("sched"))
            .ok()
            .and_then(|t| parse_migrations(&t))
        {
            sum += n;
            any = true;
        }
    }
    any.then_some(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_proc_files() {
        assert_eq!(parse_loadavg("2.22 1.31 0.65 8/148 16940\n"), Some(2.22));
        assert_eq!(parse_loadavg(""), None);
        let stat = "cpu  100 2 30 500 4 5 6 7 0 0\ncpu0 50 1 15 250 2 2 3 3 0 0\n\
                    cpu1 50 1 15 250 2 3 3 4 0 0\nintr 1 2\nctxt 99\n";
        let t = parse_proc_stat(stat).unwrap();
        assert_eq!(t.busy, 100 + 2 + 30 + 5 + 6);
        assert_eq!(t.steal, 7);
        assert_eq!(t.total, 100 + 2 + 30 + 500 + 4 + 5 + 6 + 7);
        assert_eq!(t.cpus, 2);
        assert_eq!(parse_proc_stat("intr 1\n"), None);
        // A command name with spaces and a ')' of its own.
        let s = "42 (a b) c) R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18";
        // Fields after the last ')': 3=R, 4..13 = 1..10, 14=11, 15=12, 16=13, 17=14.
        assert_eq!(parse_self_ticks(s), Some(11 + 12 + 13 + 14));
        assert_eq!(parse_self_ticks("no paren"), None);
        let p = parse_stat("42 (a b) c) Z 7 2 3 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
        assert_eq!(
            (p.pid, p.state, p.ppid, p.ticks),
            (42, 'Z', 7, 11 + 12 + 13 + 14)
        );
        // 1 <- 5 <- 9, 1 <- 6; 2 <- 8 is not ours.
        let ps = |pid, ppid| ProcStat {
            pid,
            state: 'R',
            ppid,
            ticks: pid as u64,
        };
        let all = [ps(9, 5), ps(5, 1), ps(6, 1), ps(8, 2), ps(1, 0)];
        let mut d: Vec<u32> = descendants_of(1, &all).iter().map(|p| p.pid).collect();
        d.sort_unstable();
        assert_eq!(d, [5, 6, 9]);
        let sched = "x (1, #threads: 1)\n---\nse.exec_start : 1.5\nse.nr_migrations   :   17\n";
        assert_eq!(parse_migrations(sched), Some(17));
        assert_eq!(parse_migrations("se.exec_start : 1\n"), None);
    }

    /// This thread spins until it has used 0.1 s of CPU (10 s watchdog, not a timing
    /// assert): the process tree's own CPU time must show at least half of it.
    #[test]
    fn own_time_shows_a_busy_thread() {
        let a = Snapshot::take();
        let t0 = crate::usage::thread_cpu_ns();
        let watchdog = Instant::now() + std::time::Duration::from_secs(10);
        let mut x = 0u64;
        while crate::usage::thread_cpu_ns() < t0 + 100_000_000 && Instant::now() < watchdog {
            x = std::hint::black_box(x + 1);
        }
        let b = Snapshot::take();
        let u = a.until(&b);
        assert!(x > 0 && u.elapsed_s > 0.0 && u.cpus >= 1, "{u:?}");
        let own = u.own_cpus.expect("own CPU time on Linux");
        assert!(own * u.elapsed_s >= 0.05, "{u:?}");
        assert!(u.others_cpus.unwrap() >= 0.0);
        assert!((0.0..=1.0).contains(&u.steal_fraction.unwrap()));
        assert!(u.load1_before.is_some() && u.voluntary_switches.is_some());
    }
}

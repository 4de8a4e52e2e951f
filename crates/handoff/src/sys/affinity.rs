//! CPU affinity: which CPUs the process may use, pinning threads and child processes, and
//! which CPU a thread runs on.
//!
//! "CPU" (or "core") everywhere in handoff means the Linux *logical CPU id*, the number in
//! `/sys/devices/system/cpu/cpuN` and in `taskset -c`.
//!
//! # The process's allowed set
//!
//! [`allowed_cpus`] is the set the process may use as handoff first saw it: the affinity masks
//! of the main thread and of the calling thread, read once, before handoff pinned anything
//! (every pinning function here takes that snapshot first). Pinning one thread therefore does
//! not shrink the set the next pin is checked against: a thread pinned to CPU 0 may re-pin to
//! CPU 1, and a thread spawned by a pinned main thread may pin elsewhere. A process started
//! under `taskset -c 0` has the set `{0}`, and asking for CPU 1 is an error rather than a
//! silent escape from what the user asked for. [`thread_affinity`] is the calling thread's
//! mask right now.

use crate::sys::{Error, Result};
use std::sync::OnceLock;

/// Where the kernel lists the online CPUs.
const ONLINE_PATH: &str = "/sys/devices/system/cpu/online";

/// The CPUs this process may use (sorted, without duplicates); see the module docs for what
/// "the process" means once threads have been pinned.
///
/// Read once (from `sched_getaffinity` of the main thread and the calling thread) and cached.
pub fn allowed_cpus() -> Result<Vec<usize>> {
    static SNAPSHOT: OnceLock<Vec<usize>> = OnceLock::new();
    if let Some(v) = SNAPSHOT.get() {
        return Ok(v.clone());
    }
    let mut cpus = imp::process_mask()?;
    cpus.extend(imp::thread_mask()?);
    cpus.sort_unstable();
    cpus.dedup();
    // A racing thread may have set it first; both read the same masks, so either is right.
    let _ = SNAPSHOT.set(cpus);
    Ok(SNAPSHOT.get().cloned().unwrap_or_default())
}

/// The calling thread's affinity mask now (sorted).
pub fn thread_affinity() -> Result<Vec<usize>> {
    imp::thread_mask()
}

/// The CPUs the kernel lists as online (`/sys/devices/system/cpu/online`); when sysfs is
/// unavailable, [`allowed_cpus`].
pub fn online_cpus() -> Result<Vec<usize>> {
    match std::fs::read_to_string(ONLINE_PATH) {
        Ok(text) => parse_cpu_list(text.trim()),
        Err(_) => allowed_cpus(),
    }
}

/// Pins the calling thread to `cpu`.
///
/// Returns [`Error::CpuUnavailable`] when `cpu` does not exist, is offline, or is outside
/// [`allowed_cpus`].
pub fn pin_current_thread(cpu: usize) -> Result<()> {
    check_allowed(cpu)?;
    imp::set_thread(None, cpu)
}

/// Sets the calling thread's affinity mask to `cpus`, each checked against
/// [`allowed_cpus`] ([`Error::CpuUnavailable`]); an empty list is an I/O error (`EINVAL`),
/// as the kernel would say.
pub fn set_thread_affinity(cpus: &[usize]) -> Result<()> {
    if cpus.is_empty() {
        return Err(Error::io(
            "sched_setaffinity(this thread, no CPU)",
            rustix::io::Errno::INVAL,
        ));
    }
    for &cpu in cpus {
        check_allowed(cpu)?;
    }
    imp::set_thread_mask(cpus)
}

/// Pins every thread of process `pid` (typically a child just spawned) to `cpu`.
///
/// Each thread listed in `/proc/PID/task` is pinned; threads the process creates afterwards
/// inherit the mask of the thread that creates them. A thread created while this runs may
/// be missed, so pin a child before it starts threads (e.g. right after spawning it, before
/// telling it to go). The CPU is checked against *this* process's [`allowed_cpus`].
pub fn pin_process(pid: u32, cpu: usize) -> Result<()> {
    check_allowed(cpu)?;
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"));
    let Ok(tasks) = tasks else {
        // No /proc (or the process is gone): pin the main thread, which reports the error.
        return imp::set_thread(Some(pid), cpu);
    };
    let mut pinned_any = false;
    for entry in tasks.flatten() {
        let Some(tid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        match imp::set_thread(Some(tid), cpu) {
            Ok(()) => pinned_any = true,
            // The thread exited between the listing and the call.
            Err(Error::Io { ref source, .. }) if source.raw_os_error() == Some(libc::ESRCH) => {}
            Err(e) => return Err(e),
        }
    }
    if pinned_any {
        Ok(())
    } else {
        imp::set_thread(Some(pid), cpu)
    }
}

/// The CPU the calling thread is running on right now (`sched_getcpu`). Unless the thread is
/// pinned, it may have moved by the time the caller looks at the answer.
#[inline]
pub fn current_cpu() -> usize {
    imp::current_cpu()
}

// One parser and formatter for the kernel's CPU list format, shared with the topology code.
pub(crate) use super::cpulist::{format_cpu_list, parse_cpu_list};

/// Checks `cpu` against the process's allowed set.
fn check_allowed(cpu: usize) -> Result<()> {
    let allowed = allowed_cpus()?;
    if allowed.binary_search(&cpu).is_ok() {
        Ok(())
    } else {
        Err(unavailable(cpu, &allowed))
    }
}

fn unavailable(cpu: usize, allowed: &[usize]) -> Error {
    Error::CpuUnavailable {
        cpu,
        allowed: format_cpu_list(allowed),
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use super::*;
    use rustix::process::Pid;
    use rustix::thread::{sched_getaffinity, sched_setaffinity, CpuSet};

    fn to_vec(set: &CpuSet) -> Vec<usize> {
        (0..CpuSet::MAX_CPU).filter(|&c| set.is_set(c)).collect()
    }

    fn pid(raw: u32) -> Result<Pid> {
        i32::try_from(raw)
            .ok()
            .and_then(Pid::from_raw)
            .ok_or_else(|| Error::InvalidArgument(format!("{raw} is not a valid pid")))
    }

    pub fn process_mask() -> Result<Vec<usize>> {
        let me = rustix::process::getpid();
        let set = sched_getaffinity(Some(me))
            .map_err(|e| Error::io("sched_getaffinity of the process", e))?;
        Ok(to_vec(&set))
    }

    pub fn thread_mask() -> Result<Vec<usize>> {
        let set = sched_getaffinity(None)
            .map_err(|e| Error::io("sched_getaffinity of the calling thread", e))?;
        Ok(to_vec(&set))
    }

    pub fn set_thread(tid: Option<u32>, cpu: usize) -> Result<()> {
        if cpu >= CpuSet::MAX_CPU {
            return Err(unavailable(cpu, &allowed_cpus()?));
        }
        let target = tid.map(pid).transpose()?;
        let mut set = CpuSet::new();
        set.set(cpu);
        match sched_setaffinity(target, &set) {
            Ok(()) => Ok(()),
            // EINVAL: the CPU is offline or outside the cgroup's cpuset.
            Err(rustix::io::Errno::INVAL) => Err(unavailable(cpu, &allowed_cpus()?)),
            Err(e) => Err(Error::io(
                match tid {
                    Some(t) => format!("sched_setaffinity(tid {t}, CPU {cpu})"),
                    None => format!("sched_setaffinity(this thread, CPU {cpu})"),
                },
                e,
            )),
        }
    }

    pub fn set_thread_mask(cpus: &[usize]) -> Result<()> {
        let mut set = CpuSet::new();
        for &cpu in cpus {
            if cpu >= CpuSet::MAX_CPU {
                return Err(unavailable(cpu, &allowed_cpus()?));
            }
            set.set(cpu);
        }
        sched_setaffinity(None, &set)
            .map_err(|e| Error::io(format!("sched_setaffinity(this thread, CPUs {cpus:?})"), e))
    }

    #[inline]
    pub fn current_cpu() -> usize {
        rustix::thread::sched_getcpu()
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::*;

    pub fn process_mask() -> Result<Vec<usize>> {
        Err(Error::Unsupported("CPU affinity"))
    }

    pub fn thread_mask() -> Result<Vec<usize>> {
        Err(Error::Unsupported("CPU affinity"))
    }

    pub fn set_thread(_tid: Option<u32>, _cpu: usize) -> Result<()> {
        Err(Error::Unsupported("CPU affinity"))
    }

    pub fn set_thread_mask(_cpus: &[usize]) -> Result<()> {
        Err(Error::Unsupported("CPU affinity"))
    }

    pub fn current_cpu() -> usize {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn format_and_parse_examples() {
        assert_eq!(format_cpu_list(&[0, 1, 2, 3, 8]), "0-3,8");
        assert_eq!(format_cpu_list(&[8, 3, 2, 1, 0, 3]), "0-3,8");
        assert_eq!(format_cpu_list(&[]), "");
        assert_eq!(format_cpu_list(&[5]), "5");
        assert_eq!(format_cpu_list(&[1, 3, 4]), "1,3-4");
        assert_eq!(parse_cpu_list("0-3,8").unwrap(), vec![0, 1, 2, 3, 8]);
        assert_eq!(parse_cpu_list(" 8, 0-1 ,1").unwrap(), vec![0, 1, 8]);
        assert_eq!(parse_cpu_list("").unwrap(), Vec::<usize>::new());
        assert_eq!(parse_cpu_list("0\n").unwrap(), vec![0]);
    }

    #[test]
    fn parse_rejects_garbage() {
        for bad in [
            "all", "x", "3-1", "1,,2", "-1", "1-", "0-7:2", "99999999", "1 2",
        ] {
            match parse_cpu_list(bad) {
                Err(Error::InvalidArgument(msg)) => assert!(msg.contains("CPU list"), "{msg}"),
                other => panic!("{bad:?} gave {other:?}"),
            }
        }
    }

    proptest! {
        #[test]
        fn list_round_trip(mut cpus in proptest::collection::vec(0usize..300, 0..64)) {
            let text = format_cpu_list(&cpus);
            let back = parse_cpu_list(&text).unwrap();
            cpus.sort_unstable();
            cpus.dedup();
            prop_assert_eq!(back, cpus);
        }
    }

    #[test]
    fn allowed_and_online_are_sane() {
        let allowed = allowed_cpus().unwrap();
        assert!(!allowed.is_empty());
        let online = online_cpus().unwrap();
        assert!(!online.is_empty());
        assert!(
            allowed.iter().all(|c| online.contains(c)),
            "{allowed:?} vs {online:?}"
        );
        assert!(allowed.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn pin_round_trip() {
        // A fresh thread, so the test harness thread keeps its mask.
        std::thread::spawn(|| {
            for &cpu in &allowed_cpus().unwrap() {
                pin_current_thread(cpu).unwrap();
                assert_eq!(thread_affinity().unwrap(), vec![cpu]);
                assert_eq!(current_cpu(), cpu);
            }
            // Pinning did not shrink the set the next pin is checked against.
            let all = allowed_cpus().unwrap();
            pin_current_thread(all[0]).unwrap();
            assert_eq!(allowed_cpus().unwrap(), all);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn nonexistent_cpu_is_unavailable() {
        for cpu in [9999, usize::MAX] {
            match pin_current_thread(cpu) {
                Err(Error::CpuUnavailable { cpu: c, allowed }) => {
                    assert_eq!(c, cpu);
                    assert_eq!(allowed, format_cpu_list(&allowed_cpus().unwrap()));
                }
                other => panic!("pin to {cpu}: {other:?}"),
            }
        }
        let me = std::process::id();
        assert!(matches!(
            pin_process(me, 9999),
            Err(Error::CpuUnavailable { cpu: 9999, .. })
        ));
    }

    const CHILD_ENV: &str = "HANDOFF_TEST_AFFINITY_CHILD";

    /// Child half of `cpu_outside_mask_is_unavailable`: runs in a process whose threads the
    /// parent pinned to CPU 0 before writing a line to our stdin.
    #[test]
    fn narrowed_child() {
        let Ok(other) = std::env::var(CHILD_ENV) else {
            return; // Only meaningful when re-executed by the parent test.
        };
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).unwrap();
        let other: usize = other.parse().unwrap();
        assert_eq!(allowed_cpus().unwrap(), vec![0]);
        match pin_current_thread(other) {
            Err(Error::CpuUnavailable { cpu, allowed }) => {
                assert_eq!(cpu, other);
                assert_eq!(allowed, "0");
            }
            r => panic!("pin to {other} outside the mask gave {r:?}"),
        }
        pin_current_thread(0).unwrap();
        println!("NARROWED_CHILD_OK");
    }

    #[test]
    fn cpu_outside_mask_is_unavailable() {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let allowed = allowed_cpus().unwrap();
        if !allowed.contains(&0) || allowed.len() < 2 {
            eprintln!("SKIP: cpu_outside_mask_is_unavailable: needs CPU 0 and one more allowed CPU (have {allowed:?})");
            return;
        }
        let child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "sys::affinity::tests::narrowed_child",
                "--nocapture",
            ])
            .env(CHILD_ENV, allowed[1].to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        // The core has no child guard (that is the probe crate's); a watchdog by hand: the
        // child gets 30 s to exit, then it is killed and the test fails.
        let mut child = child;
        let id = crate::sys::ProcessId::of(child.id()).unwrap();
        pin_process(child.id(), 0).unwrap();
        child.stdin.take().unwrap().write_all(b"go\n").unwrap();
        let deadline = crate::sys::Deadline::after(std::time::Duration::from_secs(30));
        if !id.wait_exit(deadline).unwrap() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("watchdog: the narrowed child did not exit within 30 s");
        }
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "child failed: {stdout}");
        assert!(stdout.contains("NARROWED_CHILD_OK"), "{stdout}");
    }
}

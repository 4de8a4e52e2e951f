//! POSIX named semaphores (`sem_open`), the synchronization the paper's `processes-semaphore`
//! exchange mode uses; the lab compares handoff's own primitives against them.
//!
//! rustix has no semaphore API, so this is libc FFI. glibc implements named semaphores as a
//! shared mapping of `/dev/shm/sem.NAME` with a futex inside; `sem_post`/`sem_wait` are
//! thread- and process-safe.
//!
//! Deadlines: `sem_clockwait` (CLOCK_MONOTONIC) is glibc-only and absent from the `libc`
//! crate, so [`NamedSemaphore::wait_deadline`] converts the monotonic [`Deadline`] to an
//! absolute CLOCK_REALTIME time for `sem_timedwait`, and re-checks the monotonic deadline on
//! `ETIMEDOUT`: a wall-clock step can end a wait early (we wait again) or late (by at most the
//! step), never report a timeout before the deadline.

use crate::{Error, Result, WaitError};
use handoff::sys::Deadline;

/// `SEM_VALUE_MAX` on Linux (glibc and musl): `INT_MAX`.
const SEM_VALUE_MAX: u32 = i32::MAX as u32;

/// The longest name: `NAME_MAX` (255) minus the `sem.` prefix glibc adds in `/dev/shm`,
/// leading `/` included.
const MAX_NAME_LEN: usize = 251;

/// How many fresh names [`NamedSemaphore::create_unique`] tries before it gives up (each
/// taken one was a collision of 64 random bits, or someone filling `/dev/shm` with guesses).
const CREATE_TRIES: u32 = 8;

/// A POSIX named semaphore, open in this process. Dropping it closes the handle (the
/// semaphore itself lives on until [`NamedSemaphore::unlink`] and the last close).
#[derive(Debug)]
pub struct NamedSemaphore {
    #[cfg(target_os = "linux")]
    sem: std::ptr::NonNull<libc::sem_t>,
    #[cfg(not(target_os = "linux"))]
    never: std::convert::Infallible,
    name: String,
}

// SAFETY: a `sem_t*` from `sem_open` may be used from any thread: sem_post/sem_wait/
// sem_timedwait/sem_close are thread-safe (POSIX), and we hold no thread-local state.
unsafe impl Send for NamedSemaphore {}
// SAFETY: as above; every operation goes through the thread-safe libc calls on `&self`.
unsafe impl Sync for NamedSemaphore {}

/// Checks `name` is a valid portable semaphore name: a leading `/`, no other `/`, no NUL,
/// 2..=251 bytes.
fn validate_name(name: &str) -> Result<std::ffi::CString> {
    let why = if !name.starts_with('/') {
        Some("must start with '/'")
    } else if name[1..].contains('/') {
        Some("may contain no '/' after the first character")
    } else if name.len() < 2 {
        Some("needs at least one character after the '/'")
    } else if name.len() > MAX_NAME_LEN {
        Some("is longer than 251 bytes")
    } else if name.contains('\0') {
        Some("contains a NUL byte")
    } else {
        None
    };
    match why {
        Some(why) => Err(Error::Sys(handoff::sys::Error::InvalidArgument(format!(
            "semaphore name {name:?} {why} (use e.g. \"/handoff-1234-sem\")"
        )))),
        None => std::ffi::CString::new(name).map_err(|_| {
            Error::Sys(handoff::sys::Error::InvalidArgument(format!(
                "semaphore name {name:?} has a NUL"
            )))
        }),
    }
}

#[cfg(target_os = "linux")]
impl NamedSemaphore {
    /// Creates a new semaphore (`O_CREAT | O_EXCL`, mode 0600) with value `initial`.
    /// Fails with an `Io` error of kind `AlreadyExists` if the name is taken: unlink stale
    /// names first.
    pub fn create(name: &str, initial: u32) -> Result<Self> {
        let cname = validate_name(name)?;
        if initial > SEM_VALUE_MAX {
            return Err(Error::Sys(handoff::sys::Error::InvalidArgument(format!(
                "semaphore initial value {initial} exceeds SEM_VALUE_MAX ({SEM_VALUE_MAX})"
            ))));
        }
        let mode: libc::c_uint = 0o600;
        // SAFETY: `cname` is a valid NUL-terminated string that outlives the call; with
        // O_CREAT, sem_open(3) reads exactly two variadic arguments, a mode_t (passed
        // promoted as unsigned int) and an unsigned int value.
        let sem = unsafe {
            libc::sem_open(
                cname.as_ptr(),
                libc::O_CREAT | libc::O_EXCL,
                mode,
                initial as libc::c_uint,
            )
        };
        Self::from_raw(sem, name, "create")
    }

    /// Creates a new semaphore under a fresh name nobody can guess in advance:
    /// `/handoff-<pid>-<user>~<16 random hex digits>` (the library's segment names,
    /// [`handoff::implementor::segment_name`]), `O_CREAT | O_EXCL`, mode 0600. A taken name (planted
    /// by another user, or a collision) is retried with a new random part, up to 8 times.
    /// [`NamedSemaphore::name`] is the name to give the other process;
    /// [`cleanup_stale`] removes it once this process is gone.
    pub fn create_unique(user: &str, initial: u32) -> Result<Self> {
        let mut taken = Vec::new();
        for _ in 0..CREATE_TRIES {
            let name = handoff::implementor::segment_name(user)?;
            match Self::create(&name, initial) {
                Err(Error::Sys(handoff::sys::Error::Io { source, .. }))
                    if source.kind() == std::io::ErrorKind::AlreadyExists =>
                {
                    taken.push(name)
                }
                done => return done,
            }
        }
        Err(Error::io(
            format!(
                "sem_open for a new semaphore {user:?} ({} random names were all taken, the \
                 last {}: someone is filling /dev/shm with guesses)",
                taken.len(),
                taken.last().map_or("", String::as_str)
            ),
            std::io::Error::from(std::io::ErrorKind::AlreadyExists),
        ))
    }

    /// Opens an existing semaphore created by another process (or this one).
    pub fn open(name: &str) -> Result<Self> {
        let cname = validate_name(name)?;
        // SAFETY: `cname` is a valid NUL-terminated string; without O_CREAT no variadic
        // arguments are read.
        let sem = unsafe { libc::sem_open(cname.as_ptr(), 0) };
        Self::from_raw(sem, name, "open")
    }

    fn from_raw(sem: *mut libc::sem_t, name: &str, what: &str) -> Result<Self> {
        if sem == libc::SEM_FAILED {
            return Err(Error::io(
                format!("sem_open {name} ({what})"),
                std::io::Error::last_os_error(),
            ));
        }
        match std::ptr::NonNull::new(sem) {
            Some(sem) => Ok(NamedSemaphore {
                sem,
                name: name.to_string(),
            }),
            None => Err(Error::io(
                format!("sem_open {name} ({what})"),
                std::io::Error::other("sem_open returned a null pointer"),
            )),
        }
    }

    /// Removes the name; processes that have it open keep using it. An `Io` error of kind
    /// `NotFound` when there is no such semaphore.
    pub fn unlink(name: &str) -> Result<()> {
        let cname = validate_name(name)?;
        // SAFETY: `cname` is a valid NUL-terminated string that outlives the call.
        let rc = unsafe { libc::sem_unlink(cname.as_ptr()) };
        if rc == 0 {
            Ok(())
        } else {
            Err(Error::io(
                format!("sem_unlink {name}"),
                std::io::Error::last_os_error(),
            ))
        }
    }

    /// The name this semaphore was opened with.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Increments the value, waking one waiter. Fails only when the value would exceed
    /// `SEM_VALUE_MAX` (`EOVERFLOW`).
    #[inline]
    pub fn post(&self) -> Result<()> {
        // SAFETY: `self.sem` came from a successful sem_open and stays valid until Drop.
        let rc = unsafe { libc::sem_post(self.sem.as_ptr()) };
        if rc == 0 {
            Ok(())
        } else {
            Err(self.os_error("sem_post"))
        }
    }

    /// Decrements the value, blocking while it is zero. Retries after signals (`EINTR`).
    #[inline]
    pub fn wait(&self) -> Result<()> {
        loop {
            // SAFETY: `self.sem` came from a successful sem_open and stays valid until Drop.
            let rc = unsafe { libc::sem_wait(self.sem.as_ptr()) };
            if rc == 0 {
                return Ok(());
            }
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() != Some(libc::EINTR) {
                return Err(Error::io(format!("sem_wait {}", self.name), err));
            }
        }
    }

    /// Decrements the value if it is positive; `Ok(false)` when it is zero.
    pub fn try_wait(&self) -> Result<bool> {
        loop {
            // SAFETY: `self.sem` came from a successful sem_open and stays valid until Drop.
            let rc = unsafe { libc::sem_trywait(self.sem.as_ptr()) };
            if rc == 0 {
                return Ok(true);
            }
            let err = std::io::Error::last_os_error();
            match err.raw_os_error() {
                Some(libc::EAGAIN) => return Ok(false),
                Some(libc::EINTR) => continue,
                _ => return Err(Error::io(format!("sem_trywait {}", self.name), err)),
            }
        }
    }

    /// Decrements the value, blocking while it is zero until `deadline`
    /// ([`WaitError::Timeout`] then). Like `sem_timedwait`, a positive value is taken even
    /// when the deadline has already passed. Retries after signals.
    pub fn wait_deadline(&self, deadline: Deadline) -> Result<(), WaitError> {
        loop {
            if deadline.expired() {
                return match self.try_wait() {
                    Ok(true) => Ok(()),
                    _ => Err(WaitError::Timeout),
                };
            }
            let abs = realtime_after(deadline.remaining());
            // SAFETY: `self.sem` came from a successful sem_open and stays valid until Drop;
            // `abs` is a valid timespec (tv_nsec < 1e9) living across the call.
            let rc = unsafe { libc::sem_timedwait(self.sem.as_ptr(), &abs) };
            if rc == 0 {
                return Ok(());
            }
            match std::io::Error::last_os_error().raw_os_error() {
                // Signal, or a wall-clock step ended the wait: the loop re-checks the
                // monotonic deadline.
                Some(libc::EINTR) | Some(libc::ETIMEDOUT) => continue,
                // EINVAL with a valid handle and timespec cannot happen; report it as a
                // timeout rather than panic in a waiting path.
                _ => return Err(WaitError::Timeout),
            }
        }
    }

    /// The current value (`sem_getvalue`); for tests and diagnostics only, since it may
    /// change right after the call.
    pub fn value(&self) -> Result<u32> {
        let mut v: libc::c_int = 0;
        // SAFETY: `self.sem` is valid until Drop; `v` is a valid out-pointer for the call.
        let rc = unsafe { libc::sem_getvalue(self.sem.as_ptr(), &mut v) };
        if rc == 0 {
            // Linux reports 0 (never a negative count of waiters).
            Ok(v.max(0) as u32)
        } else {
            Err(self.os_error("sem_getvalue"))
        }
    }

    fn os_error(&self, op: &str) -> Error {
        Error::io(
            format!("{op} {}", self.name),
            std::io::Error::last_os_error(),
        )
    }
}

/// CLOCK_REALTIME `d` from now, as a libc timespec.
#[cfg(target_os = "linux")]
fn realtime_after(d: std::time::Duration) -> libc::timespec {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::Realtime);
    let now_ns = now.tv_sec as u128 * 1_000_000_000 + now.tv_nsec as u128;
    let abs = now_ns.saturating_add(d.as_nanos());
    // Clamp far-future deadlines to what time_t holds.
    let sec = (abs / 1_000_000_000).min(libc::time_t::MAX as u128);
    libc::timespec {
        tv_sec: sec as libc::time_t,
        tv_nsec: (abs % 1_000_000_000) as _,
    }
}

#[cfg(target_os = "linux")]
impl Drop for NamedSemaphore {
    fn drop(&mut self) {
        // SAFETY: `self.sem` came from a successful sem_open and is closed exactly once,
        // here; no borrow of `self` outlives the drop.
        unsafe {
            libc::sem_close(self.sem.as_ptr());
        }
    }
}

#[cfg(not(target_os = "linux"))]
impl NamedSemaphore {
    /// Unsupported off Linux.
    pub fn create(name: &str, _initial: u32) -> Result<Self> {
        validate_name(name)?;
        Err(Error::Sys(handoff::sys::Error::Unsupported(
            "POSIX named semaphores",
        )))
    }
    /// Unsupported off Linux.
    pub fn open(name: &str) -> Result<Self> {
        validate_name(name)?;
        Err(Error::Sys(handoff::sys::Error::Unsupported(
            "POSIX named semaphores",
        )))
    }
    /// Unsupported off Linux.
    pub fn unlink(name: &str) -> Result<()> {
        validate_name(name)?;
        Err(Error::Sys(handoff::sys::Error::Unsupported(
            "POSIX named semaphores",
        )))
    }
    /// The name this semaphore was opened with.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Never reached: no value of this type exists off Linux.
    pub fn post(&self) -> Result<()> {
        match self.never {}
    }
    /// Never reached: no value of this type exists off Linux.
    pub fn wait(&self) -> Result<()> {
        match self.never {}
    }
    /// Never reached: no value of this type exists off Linux.
    pub fn try_wait(&self) -> Result<bool> {
        match self.never {}
    }
    /// Never reached: no value of this type exists off Linux.
    pub fn wait_deadline(&self, _deadline: Deadline) -> Result<(), WaitError> {
        match self.never {}
    }
    /// Never reached: no value of this type exists off Linux.
    pub fn value(&self) -> Result<u32> {
        match self.never {}
    }
}

/// Where glibc keeps named semaphores (as `sem.<name>`).
const SHM_DIR: &str = "/dev/shm";

/// Whether `pid` certainly no longer runs (no `/proc` entry, or a zombie). When `/proc`
/// cannot tell (e.g. `hidepid`), `false`: a live process is never called dead.
fn pid_is_gone(pid: u32) -> bool {
    match handoff::sys::ProcessId::of(pid) {
        Err(handoff::sys::Error::Io { source, .. }) => source.raw_os_error() == Some(libc::ESRCH),
        _ => false,
    }
}

/// Removes named semaphores `/handoff-<pid>-...` whose creating process is gone (glibc keeps
/// them as `/dev/shm/sem.<name>`); returns the names removed. Semaphores of live processes
/// and of other programs are left alone.
pub fn cleanup_stale() -> Result<Vec<String>> {
    let dir = match std::fs::read_dir(SHM_DIR) {
        Ok(d) => d,
        Err(e) => return Err(Error::io(format!("listing {SHM_DIR}"), e)),
    };
    let mut removed = Vec::new();
    for entry in dir.flatten() {
        // Only regular files are semaphores: a FIFO, symlink or device planted at a
        // semaphore's name is left alone (the entry's type, not following symlinks).
        if !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let file = entry.file_name();
        let Some(name) = file.to_str().and_then(|f| f.strip_prefix("sem.")) else {
            continue;
        };
        let Some((pid, _)) = handoff::implementor::parse_segment_name(name) else {
            continue;
        };
        let full = format!("/{name}");
        if pid_is_gone(pid) && NamedSemaphore::unlink(&full).is_ok() {
            removed.push(full);
        }
    }
    removed.sort();
    Ok(removed)
}

#[cfg(all(test, target_os = "linux", not(loom)))]
mod tests {
    use super::*;
    use crate::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    fn unique(tag: &str) -> String {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        format!("/handoff-test-{}-{tag}-{n}", std::process::id())
    }

    /// Unlinks the name when the test ends, pass or fail.
    struct Unlink(String);
    impl Drop for Unlink {
        fn drop(&mut self) {
            let _ = NamedSemaphore::unlink(&self.0);
        }
    }

    #[test]
    fn names_are_validated() {
        for bad in ["noslash", "/", "/a/b", "", "/a\0b"] {
            let e = NamedSemaphore::create(bad, 0).unwrap_err();
            assert!(
                matches!(e, Error::Sys(handoff::sys::Error::InvalidArgument(_))),
                "{bad:?}: {e}"
            );
        }
        let long = format!("/{}", "x".repeat(251));
        assert!(matches!(
            NamedSemaphore::open(&long),
            Err(Error::Sys(handoff::sys::Error::InvalidArgument(_)))
        ));
        let name = unique("big");
        assert!(matches!(
            NamedSemaphore::create(&name, u32::MAX),
            Err(Error::Sys(handoff::sys::Error::InvalidArgument(_)))
        ));
    }

    #[test]
    fn post_and_wait_across_threads() {
        let name = unique("pingpong");
        let _guard = Unlink(name.clone());
        let ping = Arc::new(NamedSemaphore::create(&name, 0).unwrap());
        let pong_name = unique("pong");
        let _guard2 = Unlink(pong_name.clone());
        let pong = NamedSemaphore::create(&pong_name, 0).unwrap();
        const ROUNDS: u32 = 1000;
        let t = {
            let pong_name = pong_name.clone();
            let name = name.clone();
            std::thread::spawn(move || {
                // Open by name, as another process would.
                let ping = NamedSemaphore::open(&name).unwrap();
                let pong = NamedSemaphore::open(&pong_name).unwrap();
                for _ in 0..ROUNDS {
                    ping.wait_deadline(Deadline::after(Duration::from_secs(10)))
                        .expect("ping never came");
                    pong.post().unwrap();
                }
            })
        };
        for _ in 0..ROUNDS {
            ping.post().unwrap();
            pong.wait_deadline(Deadline::after(Duration::from_secs(10)))
                .expect("pong never came");
        }
        t.join().unwrap();
        assert_eq!(ping.value().unwrap(), 0);
        assert_eq!(pong.value().unwrap(), 0);
    }

    #[test]
    fn deadlines_and_try_wait() {
        let name = unique("deadline");
        let _guard = Unlink(name.clone());
        let sem = NamedSemaphore::create(&name, 1).unwrap();
        assert_eq!(sem.name(), name);
        assert_eq!(sem.value().unwrap(), 1);
        // A positive value is taken even past the deadline.
        assert_eq!(sem.wait_deadline(Deadline::at_ns(0)), Ok(()));
        assert_eq!(
            sem.wait_deadline(Deadline::at_ns(0)),
            Err(WaitError::Timeout)
        );
        assert_eq!(
            sem.wait_deadline(Deadline::after(Duration::from_millis(20))),
            Err(WaitError::Timeout)
        );
        assert!(!sem.try_wait().unwrap());
        sem.post().unwrap();
        assert!(sem.try_wait().unwrap());
        sem.post().unwrap();
        sem.wait().unwrap();
    }

    #[test]
    fn create_twice_open_missing_unlink_missing() {
        let name = unique("excl");
        let _guard = Unlink(name.clone());
        let _a = NamedSemaphore::create(&name, 0).unwrap();
        let e = NamedSemaphore::create(&name, 0).unwrap_err();
        assert!(
            matches!(&e, Error::Sys(handoff::sys::Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::AlreadyExists),
            "{e}"
        );
        NamedSemaphore::unlink(&name).unwrap();
        let e = NamedSemaphore::open(&name).unwrap_err();
        assert!(
            matches!(&e, Error::Sys(handoff::sys::Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound),
            "{e}"
        );
        assert!(NamedSemaphore::unlink(&name).is_err());
    }

    /// Issue #40: a created name carries 64 random bits (nobody can plant it in advance),
    /// a fresh one each time, under our pid (so `cleanup_stale` finds it once we are gone).
    #[test]
    fn unique_names_are_fresh_and_ours() {
        let a = NamedSemaphore::create_unique("semtest-unique", 0).unwrap();
        let b = NamedSemaphore::create_unique("semtest-unique", 1).unwrap();
        let _guards = (Unlink(a.name().into()), Unlink(b.name().into()));
        assert_ne!(a.name(), b.name());
        for s in [&a, &b] {
            let (pid, user) = handoff::implementor::parse_segment_name(s.name()).unwrap();
            assert_eq!(
                (pid, user),
                (std::process::id(), "semtest-unique"),
                "{}",
                s.name()
            );
            assert!(s.name().contains('~'), "{}", s.name());
        }
        b.post().unwrap();
        assert!(NamedSemaphore::open(b.name()).unwrap().try_wait().unwrap());
    }

    /// #24 item 10: only regular files are removed: a FIFO and a symlink planted at stale
    /// semaphore names stay.
    #[test]
    fn planted_fifos_and_symlinks_are_left_alone() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let fifo = format!("/dev/shm/sem.handoff-{dead}-planted-fifo");
        let link = format!("/dev/shm/sem.handoff-{dead}-planted-link");
        let _ = std::fs::remove_file(&fifo);
        let _ = std::fs::remove_file(&link);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        std::os::unix::fs::symlink("/nonexistent", &link).unwrap();
        let removed = cleanup_stale().unwrap();
        let fifo_left = std::fs::symlink_metadata(&fifo).is_ok();
        let link_left = std::fs::symlink_metadata(&link).is_ok();
        let _ = std::fs::remove_file(&fifo);
        let _ = std::fs::remove_file(&link);
        assert!(fifo_left, "a FIFO was removed: {removed:?}");
        assert!(link_left, "a symlink was removed: {removed:?}");
    }

    #[test]
    fn stale_semaphores_of_dead_creators_are_removed() {
        // A pid that certainly exited: a reaped child's.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let name = format!("/handoff-{dead}-semtest{}", std::process::id());
        let sem = NamedSemaphore::create(&name, 0).unwrap();
        drop(sem);
        let removed = cleanup_stale().unwrap();
        assert!(removed.contains(&name), "{removed:?} should hold {name}");
        assert!(NamedSemaphore::open(&name).is_err());
        // A live creator's semaphore stays.
        let mine = format!("/handoff-{}-semlive", std::process::id());
        let _ = NamedSemaphore::unlink(&mine);
        let _s = NamedSemaphore::create(&mine, 0).unwrap();
        assert!(!cleanup_stale().unwrap().contains(&mine));
        NamedSemaphore::unlink(&mine).unwrap();
    }
}

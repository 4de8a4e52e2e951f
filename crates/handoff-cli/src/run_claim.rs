//! `handoff run`'s default placement: one PE per CPU, on CPUs that no other running
//! `handoff run` has claimed, as Open MPI binds each rank to a core by default.
//!
//! Unpinned, two PEs that wake each other are pulled onto one CPU by the scheduler from time
//! to time (wake-affine), and every hand-off then costs a context switch: a 2-PE
//! `shmem_broadcast` of 8-128 B flipped between 0.15 and 2.5 µs from run to run, and
//! `--wait spin-yield` between 0.12 and 10 µs, while pinned runs stayed at 0.12-0.17 µs
//! (2026-11-28, issue #44). Pinning every job to CPUs 0..n-1, though, would stack concurrent
//! jobs (and a test suite's parallel runs) on the same CPUs. So each launcher claims its CPUs:
//! an exclusive `flock` on `handoff-cpu-<id>.lock` in the temporary folder, held until the
//! launcher exits (the kernel drops it even on SIGKILL). A CPU another launcher holds is
//! skipped; when fewer than `n` CPUs are free, or the claims cannot be made at all (no
//! writable temporary folder, a foreign file in the way), the PEs run unpinned, as before.
//! `--map none` asks for unpinned PEs.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use handoff::team::Placement;

/// CPUs this launcher claimed: released when dropped (or when the process ends).
#[derive(Debug)]
pub struct Claims {
    _locks: Vec<File>,
}

/// An exclusive, non-blocking lock on CPU `cpu`'s claim file in `dir`: `Ok(Some)` claimed,
/// `Ok(None)` held by another launcher, `Err` when the file cannot be opened.
fn claim(dir: &Path, cpu: usize) -> std::io::Result<Option<File>> {
    let path = dir.join(format!("handoff-cpu-{cpu}.lock"));
    // No symlinks (O_NOFOLLOW: the temporary folder is everyone's, and a planted link must
    // not make us open, lock or create another file), and the mode set at creation only:
    // nothing is changed on a file that is already there.
    let file = match OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(&path)
    {
        Ok(f) => f,
        // Another user's claim file: a read-only descriptor locks as well.
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&path)?,
        Err(e) => return Err(e),
    };
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(e)) => Err(e),
    }
}

/// `n` PEs pinned one per CPU to the first `n` of `allowed` (in id order: Linux numbers
/// distinct cores before SMT siblings) that no other launcher holds, with the claims to keep
/// for the job's life; unpinned when that many are not free or claiming fails.
pub fn default_placement(n: usize, allowed: &[usize]) -> (Placement, Option<Claims>) {
    placement_in(&std::env::temp_dir(), n, allowed)
}

fn placement_in(dir: &Path, n: usize, allowed: &[usize]) -> (Placement, Option<Claims>) {
    if n > allowed.len() {
        return (Placement::Unpinned, None);
    }
    let mut cpus = Vec::with_capacity(n);
    let mut locks = Vec::with_capacity(n);
    for &cpu in allowed {
        match claim(dir, cpu) {
            Ok(Some(lock)) => {
                cpus.push(cpu);
                locks.push(lock);
                if cpus.len() == n {
                    return (Placement::Cores(cpus), Some(Claims { _locks: locks }));
                }
            }
            Ok(None) => {}
            Err(_) => return (Placement::Unpinned, None),
        }
    }
    (Placement::Unpinned, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("handoff-claims-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Two launchers at once get different CPUs; a third that finds too few free runs
    /// unpinned; a released claim is free again.
    #[test]
    fn concurrent_launchers_claim_different_cpus() {
        let dir = scratch("concurrent");
        let allowed: Vec<usize> = (0..4).collect();
        let (a, ca) = placement_in(&dir, 2, &allowed);
        let (b, cb) = placement_in(&dir, 2, &allowed);
        assert_eq!(a, Placement::Cores(vec![0, 1]));
        assert_eq!(b, Placement::Cores(vec![2, 3]));
        let (c, cc) = placement_in(&dir, 1, &allowed);
        assert_eq!(c, Placement::Unpinned, "every CPU is claimed");
        assert!(cc.is_none());
        drop(ca);
        let (d, cd) = placement_in(&dir, 2, &allowed);
        assert_eq!(d, Placement::Cores(vec![0, 1]), "released claims");
        drop((cb, cd));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// More PEs than allowed CPUs: unpinned, nothing claimed; a claim file that is not a
    /// regular file (a folder or a FIFO in the way) or a planted symlink makes it unpinned
    /// too, never a hang, and the link's target is left alone.
    #[test]
    fn too_few_cpus_or_a_foreign_file_run_unpinned() {
        let dir = scratch("few");
        let (p, c) = placement_in(&dir, 3, &[0, 1]);
        assert_eq!(p, Placement::Unpinned);
        assert!(c.is_none());
        std::fs::create_dir(dir.join("handoff-cpu-5.lock")).unwrap();
        let (p, c) = placement_in(&dir, 1, &[5]);
        assert_eq!(p, Placement::Unpinned);
        assert!(c.is_none());
        // A FIFO: opened without blocking, refused as not a regular file.
        let fifo =
            std::ffi::CString::new(dir.join("handoff-cpu-6.lock").to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only reads it.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        assert_eq!(placement_in(&dir, 1, &[6]).0, Placement::Unpinned);
        // A planted symlink is not followed: its target is neither locked nor changed.
        let target = dir.join("victim");
        std::fs::write(&target, "x").unwrap();
        std::fs::set_permissions(&target, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .unwrap();
        std::os::unix::fs::symlink(&target, dir.join("handoff-cpu-7.lock")).unwrap();
        assert_eq!(placement_in(&dir, 1, &[7]).0, Placement::Unpinned);
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(
            std::fs::metadata(&target).unwrap().permissions().mode() & 0o777,
            0o600,
            "the link's target was changed"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

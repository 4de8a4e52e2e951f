//! Finding handoff's objects in [`SHM_DIR`] and removing those of dead processes (what
//! `handoff cleanup` runs, with the lab's semaphores). Only regular files are considered: `lstat` first, so a FIFO,
//! symlink or device planted at a handoff name is never opened or removed.

use super::names::parse_segment_name;
use super::{published_creator, Result, SegmentError, HEADER_SIZE};
use crate::sys::mem::{lstat, pid_is_gone, unlink, FileInfo, FileKind, ShmFile, SHM_DIR};

/// The full names (`/handoff-<pid>-<user>`) of every handoff object in `/dev/shm`.
pub fn list_segments() -> Result<Vec<String>> {
    if !cfg!(target_os = "linux") {
        return Err(SegmentError::unsupported("shared memory segments"));
    }
    let dir = match std::fs::read_dir(SHM_DIR) {
        Ok(d) => d,
        Err(e) => return Err(SegmentError::io(format!("listing {SHM_DIR}"), e)),
    };
    let mut names = Vec::new();
    for entry in dir.flatten() {
        if let Some(file) = entry.file_name().to_str() {
            if parse_segment_name(file).is_some() {
                names.push(format!("/{file}"));
            }
        }
    }
    names.sort();
    Ok(names)
}

/// Whether the object behind `name` was made by a process that is gone.
///
/// Conservative: `false` whenever it cannot be sure (unreadable object of a live pid, or an
/// object still being initialized by a live pid).
fn is_stale(name: &str, pid: u32) -> bool {
    // Only regular files are ours to judge: a FIFO, symlink or device planted at a handoff
    // name is never opened (a FIFO open would block) nor removed (it is not a segment).
    if !matches!(
        lstat(name),
        Ok(Some(FileInfo {
            kind: FileKind::Regular,
            ..
        }))
    ) {
        return false;
    }
    if pid_is_gone(pid) {
        return true;
    }
    // The pid runs, but it may be a new process that reused the pid: a published header
    // names the creator with its start time.
    let Ok(file) = ShmFile::open_read_only(name) else {
        return false;
    };
    let mut buf = vec![0u8; HEADER_SIZE];
    match file.read_at(&mut buf, 0) {
        Ok(n) if n == buf.len() => match published_creator(&buf) {
            Some(creator) if creator.pid == pid => !creator.is_alive(),
            _ => false,
        },
        _ => false,
    }
}

/// Unlinks `name` if its creator is dead (see [`cleanup_stale`]); returns whether it did.
pub fn remove_if_stale(name: &str) -> bool {
    match parse_segment_name(name) {
        Some((pid, _)) => is_stale(name, pid) && unlink(name).is_ok(),
        None => false,
    }
}

/// Unlinks every handoff object in `/dev/shm` whose creator process is dead (by pid, and by
/// pid + start time when the segment header is readable, so a reused pid does not protect a
/// stale object). Returns the full names removed.
///
/// Only regular files are considered (checked with `lstat`; nothing else is opened or
/// removed). Processes still mapping a removed object keep their mapping; only the name
/// goes. Objects this user may not remove (another user's, in the sticky `/dev/shm`) are left alone.
pub fn cleanup_stale() -> Result<Vec<String>> {
    let mut removed = Vec::new();
    for name in list_segments()? {
        let Some((pid, _)) = parse_segment_name(&name) else {
            continue;
        };
        if is_stale(&name, pid) && unlink(&name).is_ok() {
            removed.push(name);
        }
    }
    Ok(removed)
}

//! Pipes with a chosen buffer size: the `pipe` exchange mode (the copy users fall back on)
//! needs a buffer large enough for a block, and a child re-executed by the lab inherits the
//! descriptors.

use crate::{Error, Result};
use rustix::fd::{AsFd, OwnedFd};

/// Where the kernel publishes the largest size an unprivileged process may give a pipe.
const PIPE_MAX_SIZE_PATH: &str = "/proc/sys/fs/pipe-max-size";

/// The largest pipe buffer an unprivileged process may ask for
/// (`/proc/sys/fs/pipe-max-size`), when readable.
pub fn pipe_max_size() -> Option<usize> {
    std::fs::read_to_string(PIPE_MAX_SIZE_PATH)
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Creates a pipe (both ends close-on-exec) whose buffer holds at least `bytes`, as far as
/// the system allows, and returns `(read end, write end, actual buffer size)`.
///
/// The kernel rounds sizes up to a power-of-two number of pages. A request above
/// `/proc/sys/fs/pipe-max-size` is capped to that maximum (check the returned size);
/// `bytes == 0` keeps the default (64 KiB on Linux). Fails when the per-user pipe buffer
/// limit (`/proc/sys/fs/pipe-user-pages-soft`) is exhausted.
#[cfg(target_os = "linux")]
pub fn pipe_with_size(bytes: usize) -> Result<(OwnedFd, OwnedFd, usize)> {
    use rustix::pipe::{fcntl_getpipe_size, fcntl_setpipe_size, pipe_with, PipeFlags};
    let (r, w) = pipe_with(PipeFlags::CLOEXEC).map_err(|e| Error::io("pipe2(O_CLOEXEC)", e))?;
    if bytes == 0 {
        let size = fcntl_getpipe_size(&r).map_err(|e| Error::io("fcntl(F_GETPIPE_SZ)", e))?;
        return Ok((r, w, size));
    }
    let want = match pipe_max_size() {
        Some(max) => bytes.min(max),
        None => bytes,
    };
    let size = match fcntl_setpipe_size(&w, want) {
        Ok(n) => n,
        Err(e) => {
            return Err(Error::io(
                format!(
                    "fcntl(F_SETPIPE_SZ, {want}) (EPERM: the per-user pipe buffer limit \
                     /proc/sys/fs/pipe-user-pages-soft is used up; EBUSY: data in the pipe)"
                ),
                e,
            ))
        }
    };
    // F_SETPIPE_SZ returns the size it set; read it back to report what the kernel keeps.
    let actual = fcntl_getpipe_size(&w).unwrap_or(size);
    Ok((r, w, actual))
}

/// Unsupported off Linux (no `F_SETPIPE_SZ`).
#[cfg(not(target_os = "linux"))]
pub fn pipe_with_size(_bytes: usize) -> Result<(OwnedFd, OwnedFd, usize)> {
    Err(Error::Sys(handoff::sys::Error::Unsupported(
        "pipes with a set buffer size",
    )))
}

/// Clears close-on-exec on `fd` so a child started with `exec` inherits it (at the same
/// descriptor number; pass the number to the child, e.g. in an environment variable).
pub fn clear_cloexec(fd: impl AsFd) -> Result<()> {
    use rustix::io::{fcntl_getfd, fcntl_setfd, FdFlags};
    let flags = fcntl_getfd(&fd).map_err(|e| Error::io("fcntl(F_GETFD)", e))?;
    fcntl_setfd(&fd, flags - FdFlags::CLOEXEC).map_err(|e| Error::io("fcntl(F_SETFD)", e))
}

/// Whether close-on-exec is set on `fd`.
pub fn is_cloexec(fd: impl AsFd) -> Result<bool> {
    let flags = rustix::io::fcntl_getfd(&fd).map_err(|e| Error::io("fcntl(F_GETFD)", e))?;
    Ok(flags.contains(rustix::io::FdFlags::CLOEXEC))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn adopting_a_closed_or_negative_fd_is_an_error() {
        let e = adopt_inherited_fd(-1).unwrap_err();
        assert!(e.to_string().contains("negative"), "{e}");
        let e = adopt_inherited_fd(987_654).unwrap_err();
        assert!(e.to_string().contains("not open"), "{e}");
        let (r, _w, _) = pipe_with_size(0).unwrap();
        let raw = std::os::fd::IntoRawFd::into_raw_fd(r);
        let owned = adopt_inherited_fd(raw).unwrap();
        assert_eq!(std::os::fd::AsRawFd::as_raw_fd(&owned), raw);
    }

    #[test]
    fn size_is_set_and_reported() {
        let (r, w, size) = pipe_with_size(1 << 20).unwrap();
        let max = pipe_max_size().unwrap_or(usize::MAX);
        assert!(
            size >= (1usize << 20).min(max),
            "asked 1 MiB, got {size}, max {max}"
        );
        assert!(is_cloexec(&r).unwrap() && is_cloexec(&w).unwrap());

        let (_r, _w, default) = pipe_with_size(0).unwrap();
        assert!(default > 0);

        // Rounded up to a power-of-two number of pages.
        let (_r, _w, odd) = pipe_with_size(100_000).unwrap();
        assert!(odd >= 100_000 && odd.is_power_of_two(), "{odd}");
    }

    #[test]
    fn above_max_is_capped() {
        let Some(max) = pipe_max_size() else {
            eprintln!("SKIP: above_max_is_capped: {PIPE_MAX_SIZE_PATH} unreadable");
            return;
        };
        let (_r, _w, size) = pipe_with_size(max.saturating_mul(4)).unwrap();
        assert_eq!(size, max);
    }

    #[test]
    fn cloexec_can_be_cleared() {
        let (r, _w, _) = pipe_with_size(0).unwrap();
        assert!(is_cloexec(&r).unwrap());
        clear_cloexec(&r).unwrap();
        assert!(!is_cloexec(&r).unwrap());
    }

    #[test]
    fn data_flows() {
        use std::io::{Read, Write};
        let (r, w, _) = pipe_with_size(1 << 16).unwrap();
        let mut w = std::fs::File::from(w);
        let mut r = std::fs::File::from(r);
        w.write_all(b"handoff").unwrap();
        drop(w);
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, "handoff");
    }
}

/// Takes ownership of a file descriptor this process inherited by number (a worker re-executed
/// with a pipe end left open). Fails if `raw` is not an open descriptor.
pub fn adopt_inherited_fd(raw: i32) -> Result<OwnedFd> {
    if raw < 0 {
        return Err(Error::Sys(handoff::sys::Error::InvalidArgument(format!(
            "fd {raw} is negative"
        ))));
    }
    // SAFETY: F_GETFD only reads the descriptor's flags; an invalid number yields EBADF.
    let borrowed = unsafe { rustix::fd::BorrowedFd::borrow_raw(raw) };
    rustix::io::fcntl_getfd(borrowed)
        .map_err(|e| Error::io(format!("inherited fd {raw} is not open"), e))?;
    // SAFETY: the descriptor is open (checked above) and was handed to this process to own:
    // nothing else in the process refers to it by number.
    Ok(unsafe { <OwnedFd as rustix::fd::FromRawFd>::from_raw_fd(raw) })
}

//! Shared memory: named POSIX shm objects and anonymous memfds, mapped read-write `MAP_SHARED`.
//!
//! This is the raw layer under [`crate::shm::Segment`]: it knows files, sizes, owners and
//! mappings, not headers, names or cleanup (those are `shm`'s policy).
//!
//! Objects are created owner-only (`0600`) unless the caller asks otherwise, with
//! `O_CREAT | O_EXCL` so two creators never share one by accident. Sizes are rounded up to
//! whole pages; a zero size is refused with [`Error::InvalidArgument`].
//!
//! Linux only: elsewhere every constructor returns [`Error::Unsupported`].

use crate::sys::ProcessId;
use crate::sys::{Error, Result};
use std::ptr::NonNull;

/// Where Linux exposes POSIX shm objects as files.
pub const SHM_DIR: &str = "/dev/shm";

/// Default permission bits: owner read/write only.
pub const DEFAULT_MODE: u32 = 0o600;

/// The system page size in bytes.
pub fn page_size() -> usize {
    rustix::param::page_size()
}

/// `len` rounded up to a whole number of pages; `None` on overflow.
pub fn round_up_to_pages(len: usize) -> Option<usize> {
    let page = page_size();
    len.checked_add(page - 1).map(|v| v / page * page)
}

/// The effective uid of the calling process (the owner of the objects it creates).
pub fn current_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Whether a pid certainly no longer runs (no `/proc` entry, or a zombie). When `/proc`
/// cannot tell (e.g. `hidepid`), the answer is `false`: never call a live process dead.
pub fn pid_is_gone(pid: u32) -> bool {
    match ProcessId::of(pid) {
        Ok(_) => false,
        Err(Error::Io { source, .. }) => source.raw_os_error() == Some(libc::ESRCH),
        Err(_) => false,
    }
}

/// What `fstat` says about a shared object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileInfo {
    /// Size in bytes. Compare it with what a header claims to detect truncation.
    pub size: u64,
    /// Owner uid.
    pub uid: u32,
    /// Permission bits (`st_mode & 0o7777`).
    pub mode: u32,
    /// Device id; with `ino`, identifies the object behind a name.
    pub dev: u64,
    /// Inode number.
    pub ino: u64,
    /// What kind of file it is (segments must be [`FileKind::Regular`]).
    pub kind: FileKind,
}

/// The type of a file in `/dev/shm`, as `lstat` / `fstat` tell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file: what every shm object is.
    Regular,
    /// A symbolic link (never followed).
    Symlink,
    /// A named pipe (never opened: opening one blocks).
    Fifo,
    /// A directory.
    Directory,
    /// A device node or socket.
    Other,
}

impl FileKind {
    /// A short description for messages: `FIFO (named pipe)`, `symbolic link`...
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Regular => "regular file",
            FileKind::Symlink => "symbolic link",
            FileKind::Fifo => "FIFO (named pipe)",
            FileKind::Directory => "directory",
            FileKind::Other => "device node or socket",
        }
    }
}

/// The path of a full name's file: `/dev/shm/handoff-...`.
pub fn path_of(name: &str) -> String {
    format!("{SHM_DIR}/{}", name.trim_start_matches('/'))
}

/// An open shared-memory object: a named POSIX shm object or an anonymous memfd.
///
/// Closing it (drop) does not unlink the name; see [`unlink`].
#[derive(Debug)]
pub struct ShmFile {
    #[cfg(target_os = "linux")]
    fd: rustix::fd::OwnedFd,
    name: Option<String>,
}

/// A read-write `MAP_SHARED` mapping; unmapped on drop.
#[derive(Debug)]
pub struct Mapping {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: a Mapping is an address range owned by this value; it holds no thread-bound state,
// and accesses through the pointer are the users' responsibility (atomics / ShmSafe types).
unsafe impl Send for Mapping {}
// SAFETY: `&Mapping` only hands out the base pointer and length, which are immutable.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// The base address (page aligned).
    #[inline]
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// The mapped length in bytes (a whole number of pages).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: `ptr`/`len` describe a mapping this value created with mmap and owns;
            // nothing borrowed from it outlives `self` (borrows are tied to the owner's life).
            let r = unsafe { rustix::mm::munmap(self.ptr.as_ptr().cast(), self.len) };
            debug_assert!(r.is_ok(), "munmap failed: {r:?}");
        }
    }
}

fn refuse_zero(len: usize) -> Result<usize> {
    if len == 0 {
        return Err(Error::InvalidArgument(
            "a shared segment of size 0 is meaningless; ask for at least 1 byte".into(),
        ));
    }
    round_up_to_pages(len).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "size {len} overflows when rounded up to pages; ask for less"
        ))
    })
}

#[cfg(target_os = "linux")]
mod imp {
    use super::*;
    use rustix::fs::Mode;
    use rustix::io::Errno;
    use rustix::mm::{MapFlags, ProtFlags};
    use rustix::shm;

    fn name_error(name: &str, e: Errno, op: &str) -> Error {
        match e {
            Errno::NOENT => Error::NotFound {
                name: name.to_string(),
            },
            Errno::EXIST => Error::AlreadyExists {
                name: name.to_string(),
            },
            Errno::NAMETOOLONG | Errno::INVAL => Error::BadName {
                name: name.to_string(),
                reason: e.to_string(),
            },
            _ => Error::io(format!("{op} {name}"), e),
        }
    }

    impl ShmFile {
        /// Creates a new named object (`O_CREAT | O_EXCL`, read-write) of `len` bytes rounded
        /// up to pages, with exactly the permission bits `mode` (the umask is overridden).
        ///
        /// `name` is a full name such as [`segment_name`] returns. On failure after the
        /// object exists it is unlinked again.
        pub fn create(name: &str, len: usize, mode: u32) -> Result<ShmFile> {
            let len = refuse_zero(len)?;
            if mode & !0o777 != 0 {
                return Err(Error::InvalidArgument(format!(
                    "mode {mode:#o} has bits beyond 0o777; pass permission bits only"
                )));
            }
            let fd = shm::open(
                name,
                shm::OFlags::CREATE | shm::OFlags::EXCL | shm::OFlags::RDWR,
                Mode::from_bits_truncate(mode),
            )
            .map_err(|e| name_error(name, e, "shm_open"))?;
            let file = ShmFile {
                fd,
                name: Some(name.to_string()),
            };
            let setup = || -> Result<()> {
                // The umask may have cleared bits of `mode`; set them exactly.
                rustix::fs::fchmod(&file.fd, Mode::from_bits_truncate(mode))
                    .map_err(|e| Error::io(format!("fchmod {name}"), e))?;
                file.set_len(len as u64)?;
                file.reserve(len as u64)
            };
            if let Err(e) = setup() {
                let _ = shm::unlink(name);
                return Err(e);
            }
            Ok(file)
        }

        /// Opens an existing named object read-write.
        ///
        /// Never follows a symbolic link and never blocks: the name must be a regular file
        /// (a FIFO, symlink or device planted at the name gives [`Error::NotRegular`]
        /// at once, checked with `lstat` before the open and `fstat` after it).
        pub fn open(name: &str) -> Result<ShmFile> {
            Self::open_checked(name, shm::OFlags::RDWR)
        }

        /// Opens an existing named object read-only (enough for [`ShmFile::read_at`]), with
        /// the same checks as [`ShmFile::open`].
        pub fn open_read_only(name: &str) -> Result<ShmFile> {
            Self::open_checked(name, shm::OFlags::RDONLY)
        }

        fn open_checked(name: &str, access: shm::OFlags) -> Result<ShmFile> {
            // lstat first, so a FIFO or device is never opened at all (opening a device can
            // have side effects); fstat after, in case the name was swapped in between.
            if let Some(info) = lstat(name)? {
                if info.kind != FileKind::Regular {
                    return Err(not_regular(name, &info));
                }
            }
            let flags = access
                | shm::OFlags::from_bits_retain(
                    (rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits(),
                );
            let fd = shm::open(name, flags, Mode::empty()).map_err(|e| match e {
                // O_NOFOLLOW on a symbolic link.
                Errno::LOOP => Error::NotRegular {
                    name: name.to_string(),
                    kind: "symbolic link".into(),
                    uid: 0,
                },
                e => name_error(name, e, "shm_open"),
            })?;
            let file = ShmFile {
                fd,
                name: Some(name.to_string()),
            };
            let info = file.stat()?;
            if info.kind != FileKind::Regular {
                return Err(not_regular(name, &info));
            }
            Ok(file)
        }

        /// Creates an anonymous memfd of `len` bytes rounded up to pages (close-on-exec).
        pub fn anonymous(len: usize) -> Result<ShmFile> {
            let len = refuse_zero(len)?;
            let fd = rustix::fs::memfd_create("handoff-anon", rustix::fs::MemfdFlags::CLOEXEC)
                .map_err(|e| Error::io("memfd_create", e))?;
            let file = ShmFile { fd, name: None };
            file.set_len(len as u64)?;
            file.reserve(len as u64)?;
            Ok(file)
        }

        /// `fstat`: size, owner, mode and identity.
        pub fn stat(&self) -> Result<FileInfo> {
            let st = rustix::fs::fstat(&self.fd)
                .map_err(|e| Error::io(format!("fstat {}", self.describe()), e))?;
            Ok(info_of(&st))
        }

        /// Reserves the object's first `len` bytes (`fallocate`; on tmpfs this allocates
        /// the pages now), so a full `/dev/shm` or memory is a [`Error::NoSpace`]
        /// error here instead of a SIGBUS at the first write. The free space is checked
        /// first (free space of the file system, memory available), so a size that cannot fit is refused before the
        /// kernel starts reclaiming memory for it.
        pub fn reserve(&self, len: u64) -> Result<()> {
            let what = self.describe().to_string();
            let available = available_bytes(&self.fd)?;
            if len > available {
                return Err(Error::NoSpace {
                    name: what,
                    needed: len,
                    available,
                });
            }
            match rustix::fs::fallocate(&self.fd, rustix::fs::FallocateFlags::empty(), 0, len) {
                Ok(()) => Ok(()),
                Err(Errno::NOSPC) | Err(Errno::NOMEM) => Err(Error::NoSpace {
                    name: what,
                    needed: len,
                    available: available_bytes(&self.fd).unwrap_or(0),
                }),
                // A file system without fallocate: the space check above is all we can do.
                Err(Errno::OPNOTSUPP) | Err(Errno::NOSYS) => Ok(()),
                Err(e) => Err(Error::io(format!("fallocate {len} bytes of {what}"), e)),
            }
        }

        /// `ftruncate` to `len` bytes. Shrinking an object others map makes their accesses
        /// past the new end fault (SIGBUS): only tests and creators should call this.
        pub fn set_len(&self, len: u64) -> Result<()> {
            rustix::fs::ftruncate(&self.fd, len)
                .map_err(|e| Error::io(format!("ftruncate {}", self.describe()), e))
        }

        /// `pread`: copies bytes at `offset` into `buf`; returns how many were read (fewer at
        /// the end of the object). Never maps, so it cannot fault on a truncated object.
        pub fn read_at(&self, buf: &mut [u8], offset: u64) -> Result<usize> {
            rustix::io::pread(&self.fd, buf, offset)
                .map_err(|e| Error::io(format!("pread {}", self.describe()), e))
        }

        /// `pwrite`: writes `buf` at `offset`; returns how many bytes were written.
        #[cfg(test)]
        pub fn write_at(&self, buf: &[u8], offset: u64) -> Result<usize> {
            rustix::io::pwrite(&self.fd, buf, offset)
                .map_err(|e| Error::io(format!("pwrite {}", self.describe()), e))
        }

        /// Maps the first `len` bytes (rounded up to pages) read-write and shared.
        ///
        /// The caller checks `len` against [`ShmFile::stat`] first: touching mapped pages
        /// beyond the end of the object raises SIGBUS.
        pub fn map(&self, len: usize) -> Result<Mapping> {
            let len = refuse_zero(len)?;
            // SAFETY: a fresh mapping at an address the kernel picks (null hint) aliases no
            // Rust object; the fd is valid for the duration of the call.
            let ptr = unsafe {
                rustix::mm::mmap(
                    std::ptr::null_mut(),
                    len,
                    ProtFlags::READ | ProtFlags::WRITE,
                    MapFlags::SHARED,
                    &self.fd,
                    0,
                )
            }
            .map_err(|e| Error::io(format!("mmap {len} bytes of {}", self.describe()), e))?;
            let ptr = NonNull::new(ptr.cast::<u8>())
                .ok_or_else(|| Error::io("mmap", std::io::Error::other("returned null")))?;
            Ok(Mapping { ptr, len })
        }
    }

    pub fn unlink(name: &str) -> Result<()> {
        shm::unlink(name).map_err(|e| name_error(name, e, "shm_unlink"))
    }

    fn info_of(st: &rustix::fs::Stat) -> FileInfo {
        use rustix::fs::FileType;
        let kind = match FileType::from_raw_mode(st.st_mode) {
            FileType::RegularFile => FileKind::Regular,
            FileType::Symlink => FileKind::Symlink,
            FileType::Fifo => FileKind::Fifo,
            FileType::Directory => FileKind::Directory,
            _ => FileKind::Other,
        };
        FileInfo {
            size: st.st_size.max(0) as u64,
            uid: st.st_uid,
            mode: st.st_mode & 0o7777,
            dev: st.st_dev,
            ino: st.st_ino,
            kind,
        }
    }

    /// `lstat` of the file behind a full name; `None` if there is none.
    pub fn lstat(name: &str) -> Result<Option<FileInfo>> {
        let path = path_of(name);
        match rustix::fs::lstat(&path) {
            Ok(st) => Ok(Some(info_of(&st))),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(Error::io(format!("lstat {path}"), e)),
        }
    }

    /// Bytes a new object may still take: the file system's free space (`fstatvfs`, the
    /// tmpfs size limit; none if it has no limit) and, as tmpfs pages are memory, at most
    /// the memory the kernel reports available plus free swap.
    pub fn available_bytes(fd: &rustix::fd::OwnedFd) -> Result<u64> {
        let st = rustix::fs::fstatvfs(fd).map_err(|e| Error::io("fstatvfs", e))?;
        // A tmpfs without a size limit (memfds' internal mount, `size=0`) reports 0 blocks.
        let fs_free = if st.f_blocks == 0 {
            u64::MAX
        } else {
            st.f_bavail.saturating_mul(st.f_frsize)
        };
        Ok(match memory_available() {
            Some(mem) => fs_free.min(mem),
            None => fs_free,
        })
    }
}

/// Why a name does not hold a regular file: the error for it.
fn not_regular(name: &str, info: &FileInfo) -> Error {
    Error::NotRegular {
        name: name.to_string(),
        kind: info.kind.describe().into(),
        uid: info.uid,
    }
}

/// `MemAvailable + SwapFree` from `/proc/meminfo`, in bytes; `None` if unreadable.
fn memory_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |key: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(key))?;
        let kib: u64 = line[key.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kib.saturating_mul(1024))
    };
    Some(field("MemAvailable:")?.saturating_add(field("SwapFree:").unwrap_or(0)))
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::*;

    const WHAT: &str = "shared memory segments";

    impl ShmFile {
        /// Unsupported here.
        pub fn create(_name: &str, _len: usize, _mode: u32) -> Result<ShmFile> {
            Err(Error::Unsupported(WHAT))
        }
        /// Unsupported here.
        pub fn open(_name: &str) -> Result<ShmFile> {
            Err(Error::Unsupported(WHAT))
        }
        /// Unsupported here.
        pub fn open_read_only(_name: &str) -> Result<ShmFile> {
            Err(Error::Unsupported(WHAT))
        }
        /// Unsupported here.
        pub fn anonymous(_len: usize) -> Result<ShmFile> {
            Err(Error::Unsupported(WHAT))
        }
        /// Unsupported here.
        pub fn stat(&self) -> Result<FileInfo> {
            Err(Error::Unsupported(WHAT))
        }
        /// Unsupported here.
        pub fn set_len(&self, _len: u64) -> Result<()> {
            Err(Error::Unsupported(WHAT))
        }
        /// Unsupported here.
        pub fn read_at(&self, _buf: &mut [u8], _offset: u64) -> Result<usize> {
            Err(Error::Unsupported(WHAT))
        }
        /// Unsupported here.
        #[cfg(test)]
        pub fn write_at(&self, _buf: &[u8], _offset: u64) -> Result<usize> {
            Err(Error::Unsupported(WHAT))
        }
        /// Unsupported here.
        pub fn map(&self, _len: usize) -> Result<Mapping> {
            Err(Error::Unsupported(WHAT))
        }
    }

    pub fn unlink(_name: &str) -> Result<()> {
        Err(Error::Unsupported(WHAT))
    }

    pub fn lstat(_name: &str) -> Result<Option<FileInfo>> {
        Err(Error::Unsupported(WHAT))
    }

    impl ShmFile {
        /// Unsupported here.
        pub fn reserve(&self, _len: u64) -> Result<()> {
            Err(Error::Unsupported(WHAT))
        }
    }
}

impl ShmFile {
    /// The full name, or `None` for an anonymous memfd.
    #[cfg(test)]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn describe(&self) -> &str {
        self.name.as_deref().unwrap_or("<memfd>")
    }
}

/// Removes a named object (`shm_unlink`). Mappings and open descriptors stay valid; only the
/// name goes. A missing name is [`Error::NotFound`].
pub fn unlink(name: &str) -> Result<()> {
    imp::unlink(name)
}

/// `lstat` of the file behind a full name (`/handoff-...`); `None` if there is none.
pub fn lstat(name: &str) -> Result<Option<FileInfo>> {
    imp::lstat(name)
}

/// Bytes a new shared-memory object may still take in `/dev/shm`: its free space
/// (`statvfs`; none if it has no limit), at most the memory available plus free swap.
/// Without a `/dev/shm` (other platforms), memory alone, or `u64::MAX` if unknown.
pub fn shm_available() -> Result<u64> {
    let fs_free = match rustix::fs::statvfs("/dev/shm") {
        Ok(st) if st.f_blocks != 0 => st.f_bavail.saturating_mul(st.f_frsize),
        Ok(_) => u64::MAX,
        Err(rustix::io::Errno::NOENT) => u64::MAX,
        Err(e) => return Err(Error::io("statvfs /dev/shm", e)),
    };
    Ok(match memory_available() {
        Some(mem) => fs_free.min(mem),
        None => fs_free,
    })
}

#[cfg(test)]
mod tests;

//! Raw access to a segment's shared-memory object, for the tests that forge or break one:
//! the file behind a name in `/dev/shm` (plain `std::fs`), and the header layout as byte
//! offsets. The layout is private to the crate; the numbers here are the ones its unit test
//! `shm::tests::header_layout_is_stable` pins, so a layout change fails that test first.
#![allow(dead_code)] // each test file uses part of it

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{FileExt, OpenOptionsExt};

/// Where Linux shows POSIX shm objects as files.
pub const SHM_DIR: &str = "/dev/shm";
/// The magic bytes at offset 0 of every segment.
pub const MAGIC: [u8; 8] = *b"HNDOFSEG";
/// The layout version the crate writes and accepts.
pub const LAYOUT_VERSION: u32 = 3;
/// Bytes of the fixed header; the attached table follows it.
pub const HEADER_SIZE: usize = 72;
/// Bytes per attached-table slot.
pub const SLOT_SIZE: usize = 16;

/// Byte offsets of the header fields.
pub mod offsets {
    pub const MAGIC: usize = 0;
    pub const VERSION: usize = 8;
    pub const HEADER_SIZE: usize = 12;
    pub const TOTAL_SIZE: usize = 16;
    pub const PAYLOAD_OFFSET: usize = 24;
    pub const PAYLOAD_LEN: usize = 32;
    pub const CREATOR_UID: usize = 40;
    pub const SLOT_COUNT: usize = 44;
    pub const CREATOR: usize = 48;
    pub const READY: usize = 64;
    pub const SLOTS: usize = 72;
}

/// The file behind a full name (`/handoff-...`).
pub fn path_of(name: &str) -> String {
    format!("{SHM_DIR}{name}")
}

/// The effective uid of this process.
pub fn current_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Removes the object behind a full name.
pub fn unlink(name: &str) -> io::Result<()> {
    std::fs::remove_file(path_of(name))
}

/// An open shared-memory object, read and written with `pread`/`pwrite` (never mapped, so
/// a test that truncates it cannot fault).
pub struct RawShm(File);

impl RawShm {
    /// Opens an existing object read-write.
    pub fn open(name: &str) -> io::Result<RawShm> {
        OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path_of(name))
            .map(RawShm)
    }

    /// Creates a new object of `len` bytes with permission bits `mode`.
    pub fn create(name: &str, len: u64, mode: u32) -> io::Result<RawShm> {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(path_of(name))?;
        f.set_len(len)?;
        Ok(RawShm(f))
    }

    /// Writes all of `buf` at `offset`.
    pub fn write_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        self.0.write_all_at(buf, offset)
    }

    /// Reads exactly `buf.len()` bytes at `offset`.
    pub fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.0.read_exact_at(buf, offset)
    }

    /// Truncates or extends the object.
    pub fn set_len(&self, len: u64) -> io::Result<()> {
        self.0.set_len(len)
    }

    /// The object's size in bytes.
    pub fn size(&self) -> io::Result<u64> {
        Ok(self.0.metadata()?.len())
    }

    /// Gives the object to `uid` (group unchanged): needs root.
    pub fn set_owner(&self, uid: u32) -> io::Result<()> {
        std::os::unix::fs::fchown(&self.0, Some(uid), None)
    }
}

//! Segment layout: shared segments with a validated header, and the [`ShmSafe`] marker for
//! types that may live in one.
//!
//! A [`Segment`] is one shared-memory object (named POSIX shm, or an anonymous memfd for
//! threads of one process) laid out as a header page followed by a page-aligned payload:
//!
//! ```text
//! offset 0                 header (repr(C), HEADER_SIZE bytes): magic, layout version,
//!                          sizes, creator uid + ProcessId, ready word, attached table
//! payload_offset (page)    payload: payload_len bytes, addressed by offsets (never pointers)
//! total_size (page)        end of the object
//! ```
//!
//! # Ready state
//!
//! The header's ready word tells openers whether the creator has finished initializing:
//!
//! | state          | value | set by                                   | an opener                |
//! |----------------|-------|------------------------------------------|--------------------------|
//! | `INITIALIZING` | 0     | `ftruncate` (zero fill) at creation      | waits (futex, deadline)  |
//! | `READY`        | 1     | the creator's [`Segment::publish_ready`] | validates and attaches   |
//! | `ABANDONED`    | 2     | the creator dropping it before `READY`   | gets `Abandoned`         |
//!
//! Transitions: `INITIALIZING -> READY` and `INITIALIZING -> ABANDONED`, each once, each
//! followed by a futex wake of all waiters. An opener whose wait outlives the creator (a
//! creator killed while `INITIALIZING`) also gets `Abandoned`.
//!
//! # Memory ordering
//!
//! The creator writes the header fields and initializes the payload with plain stores, then
//! stores `READY` with `Release`; an opener loads the ready word with `Acquire` before reading
//! any other header field, so it sees everything the creator wrote before publishing. The
//! attached table uses one slot per process: a slot is claimed by a CAS of its pid word
//! from 0 (`Acquire`, pairs with the `Release` store of 0 by the previous holder), then the
//! start time is stored with `Release` (pairs with the `Acquire` load in readers).
//!
//! Both protocols are small private functions on the atomic facade's words
//! (`publish_ready_word`, `abandon_ready_word`, `await_ready_word`; `claim_slot`,
//! `release_slot`, `read_slot`) that the segment calls on its header, so the module's
//! `loom_tests` model-check exactly that code under `cfg(loom)`.
//!
//! # Unlink policy
//!
//! A named segment's name is removed (`shm_unlink`) when
//! - its creator drops it (openers keep their mapping; later opens fail with `NotFound`), or
//! - any other process drops it and finds the creator dead or itself the last attached live
//!   process,
//!
//! so a survivor leaves nothing behind after a SIGKILLed peer. Before unlinking, the dropper
//! checks that the name still refers to the same object (device + inode), so it never
//! removes a newer segment that reused the name. Segments whose every user was killed are
//! removed by [`crate::sys::mem::cleanup_stale`].
//!
//! Linux only; elsewhere (and under `cfg(loom)`, where shared memory cannot hold loom's
//! atomics) every constructor returns [`crate::Error::Unsupported`].

use crate::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use crate::sync::PeerWatch;
use crate::sys::mem::{self, Mapping, ShmFile};
use crate::sys::{futex, Deadline, ProcessId};
use crate::{Error, Result, WaitError};
use std::mem::{align_of, size_of};
use std::time::Duration;

/// Marker for types that may live in a shared segment and be reached through
/// [`Segment::get`] / [`Segment::slice`].
///
/// # Safety
///
/// Implementors guarantee that the type
/// - is `repr(C)` (or a primitive / array of such), so every process agrees on its layout;
/// - holds no pointers or references (addresses differ between processes; use offsets);
/// - is valid when all its bytes are zero (a fresh segment is zero-filled);
/// - is shared only through atomics or other interior mutability that works between
///   processes (hence the `Sync` bound): plain fields are read-only once the segment is
///   published.
pub unsafe trait ShmSafe: Sync {}

// SAFETY: integers are pointer-free, valid at zero, and have one layout per target.
unsafe impl ShmSafe for u8 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for u16 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for u32 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for u64 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for i32 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for i64 {}
// SAFETY: an array of ShmSafe elements is laid out contiguously with no padding between
// elements, holds no pointers, and is zero-valid when its elements are.
unsafe impl<T: ShmSafe, const N: usize> ShmSafe for [T; N] {}
// SAFETY: ProcessId is repr(C) { u32, u32, u64 }: no pointers; all-zero means "none".
unsafe impl ShmSafe for ProcessId {}
// SAFETY: std's atomics have the layout of their integer (documented), no pointers, zero is
// a valid value, and shared mutation goes through atomic instructions that work across
// processes. Not under loom: loom's atomics are handles into the model, not plain memory.
#[cfg(not(loom))]
unsafe impl ShmSafe for AtomicU32 {}
// SAFETY: as for AtomicU32.
#[cfg(not(loom))]
unsafe impl ShmSafe for AtomicU64 {}
// SAFETY: as for AtomicU32 (one byte, 0 = false).
#[cfg(not(loom))]
unsafe impl ShmSafe for crate::sync::atomic::AtomicBool {}

/// Why a segment could not be created, opened or accessed. Each message says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SegmentError {
    /// The object does not start with handoff's magic bytes.
    #[error(
        "not a handoff segment (magic is {found:?}, expected {MAGIC:?}): another program uses \
         this name, or the segment was overwritten; pick another name or run cleanup_stale"
    )]
    BadMagic {
        /// The first 8 bytes found.
        found: [u8; 8],
    },
    /// The header was written by a different layout version of handoff.
    #[error(
        "segment layout version {found} but this handoff speaks version {expected}: build both \
         programs with the same handoff version"
    )]
    BadVersion {
        /// The version in the header.
        found: u32,
        /// Our [`LAYOUT_VERSION`].
        expected: u32,
    },
    /// The header's size field disagrees with ours (a different build or corruption).
    #[error(
        "segment header is {found} bytes but this handoff expects {expected}: build both \
         programs with the same handoff version"
    )]
    HeaderSizeMismatch {
        /// The header size recorded in the segment.
        found: u32,
        /// Our [`HEADER_SIZE`].
        expected: u32,
    },
    /// The object is smaller than its header says (someone truncated it).
    #[error(
        "segment is truncated: the object holds {file_len} bytes but {needed} are needed; \
         recreate it (and find out who truncated it)"
    )]
    Truncated {
        /// The object's size per `fstat`.
        file_len: u64,
        /// How many bytes the header (or the header itself) needs.
        needed: u64,
    },
    /// The payload length is not what the opener expected.
    #[error(
        "segment payload is {found} bytes but {expected} were expected: the two programs \
         disagree on the layout; use the same configuration in both"
    )]
    SizeMismatch {
        /// What the opener asked for.
        expected: u64,
        /// What the segment holds.
        found: u64,
    },
    /// Another user owns the object.
    #[error(
        "segment is owned by uid {uid}, not by us (uid {ours}): refusing to share memory with \
         another user; pick another name, or open with OpenOptions::any_owner if intended",
        ours = mem::current_uid()
    )]
    ForeignOwner {
        /// The owner's uid.
        uid: u32,
    },
    /// No object has this name.
    #[error(
        "no segment named {name}: start the creator first, or check the name (openers take \
         the full name Segment::name() returns)"
    )]
    NotFound {
        /// The name looked up.
        name: String,
    },
    /// The name is taken.
    #[error(
        "segment {name} already exists: this process made it already, or an earlier process \
         with the same pid left it behind; pick another name or run cleanup_stale"
    )]
    AlreadyExists {
        /// The full name.
        name: String,
    },
    /// Every slot of the attached-process table is taken by a live process.
    #[error(
        "all {slots} attached-process slots of the segment are taken by live processes; \
         detach some processes first"
    )]
    TableFull {
        /// The number of slots ([`MAX_ATTACHED`]).
        slots: usize,
    },
    /// The name is not acceptable.
    #[error("invalid segment name {name:?}: {reason}")]
    InvalidName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A short name matches segments of several live creators.
    #[error(
        "segment name {name:?} is ambiguous: it matches {candidates:?}; open one of them by \
         its full name"
    )]
    Ambiguous {
        /// The short name given.
        name: String,
        /// The full names that match.
        candidates: Vec<String>,
    },
    /// The creator died or gave up before publishing the segment.
    #[error(
        "segment {name} was abandoned by its creator (pid {pid}) before it became ready; \
         restart the creator, and run cleanup_stale to remove the leftover"
    )]
    Abandoned {
        /// The full name.
        name: String,
        /// The creator's pid.
        pid: u32,
    },
    /// The ready word holds a value that is no state.
    #[error(
        "segment ready word holds {found}, which is no valid state: the header is corrupt; \
         recreate the segment"
    )]
    BadState {
        /// The value found.
        found: u32,
    },
    /// Header fields contradict each other.
    #[error("segment header is corrupt ({detail}); recreate the segment")]
    Corrupt {
        /// Which fields disagree.
        detail: String,
    },
    /// A typed access reaches past the payload.
    #[error(
        "access of {size} bytes at payload offset {offset} is out of bounds (payload is \
         {payload_len} bytes); check the layout"
    )]
    OutOfBounds {
        /// The requested offset.
        offset: usize,
        /// The size in bytes of the access.
        size: usize,
        /// The payload length.
        payload_len: usize,
    },
    /// A typed access at an offset not aligned for its type.
    #[error(
        "payload offset {offset} is not aligned to {align} bytes as the type needs; round \
         the offset up"
    )]
    Misaligned {
        /// The requested offset.
        offset: usize,
        /// The type's alignment.
        align: usize,
    },
}

/// The magic bytes at offset 0 of every segment.
pub const MAGIC: [u8; 8] = *b"HNDOFSEG";

/// The layout version this build writes and accepts.
pub const LAYOUT_VERSION: u32 = 1;

/// Slots in the attached-process table (creator included).
pub const MAX_ATTACHED: usize = 64;

/// Ready word: the creator has not yet published the segment.
pub const INITIALIZING: u32 = 0;
/// Ready word: header and payload initialized; openers may attach.
pub const READY: u32 = 1;
/// Ready word: the creator dropped the segment before publishing it.
pub const ABANDONED: u32 = 2;

/// Size of the header in bytes (the payload starts at the next page boundary).
pub const HEADER_SIZE: usize = size_of::<Header>();

/// Byte offsets of the header fields, for tools and tests that inspect raw objects.
pub mod offsets {
    use super::Header;
    use std::mem::offset_of;

    /// `magic: [u8; 8]`.
    pub const MAGIC: usize = offset_of!(Header, magic);
    /// `version: u32`.
    pub const VERSION: usize = offset_of!(Header, version);
    /// `header_size: u32`.
    pub const HEADER_SIZE: usize = offset_of!(Header, header_size);
    /// `total_size: u64`.
    pub const TOTAL_SIZE: usize = offset_of!(Header, total_size);
    /// `payload_offset: u64`.
    pub const PAYLOAD_OFFSET: usize = offset_of!(Header, payload_offset);
    /// `payload_len: u64`.
    pub const PAYLOAD_LEN: usize = offset_of!(Header, payload_len);
    /// `creator_uid: u32`.
    pub const CREATOR_UID: usize = offset_of!(Header, creator_uid);
    /// `creator: ProcessId` (pid u32, pad u32, start time u64).
    pub const CREATOR: usize = offset_of!(Header, creator);
    /// `ready: AtomicU32`.
    pub const READY: usize = offset_of!(Header, ready);
    /// `slots: [Slot; MAX_ATTACHED]`, 16 bytes each (pid u32, pad u32, start time u64).
    pub const SLOTS: usize = offset_of!(Header, slots);
}

/// One entry of the attached-process table; same layout as [`ProcessId`].
#[repr(C)]
struct Slot {
    /// Claimed by CAS from 0; 0 = free.
    pid: AtomicU32,
    _pad: u32,
    /// Written after the pid is claimed; 0 while a claim is in progress.
    start_time: AtomicU64,
}

/// The segment header at offset 0.
#[repr(C)]
struct Header {
    magic: [u8; 8],
    version: u32,
    header_size: u32,
    total_size: u64,
    payload_offset: u64,
    payload_len: u64,
    creator_uid: u32,
    slot_count: u32,
    creator: ProcessId,
    ready: AtomicU32,
    _reserved: u32,
    slots: [Slot; MAX_ATTACHED],
}

#[cfg(not(loom))]
const _: () = {
    assert!(
        HEADER_SIZE <= 4096,
        "the header must fit in the smallest page"
    );
    assert!(size_of::<Slot>() == size_of::<ProcessId>());
    assert!(align_of::<Header>() == 8);
};

/// Reads the creator of a *published* segment from raw header bytes (e.g. `pread` of an
/// object we do not map); `None` unless magic, version and `READY` all check out.
pub(crate) fn published_creator(bytes: &[u8]) -> Option<ProcessId> {
    if cfg!(loom) || bytes.len() < HEADER_SIZE || bytes[..8] != MAGIC {
        return None;
    }
    let u32_at = |o: usize| u32::from_ne_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_ne_bytes(bytes[o..o + 8].try_into().unwrap());
    if u32_at(offsets::VERSION) != LAYOUT_VERSION || u32_at(offsets::READY) != READY {
        return None;
    }
    let pid = u32_at(offsets::CREATOR);
    let start = u64_at(offsets::CREATOR + 8);
    (pid != 0).then(|| ProcessId::new(pid, start))
}

/// Options for [`Segment::create_with`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentOptions {
    mode: u32,
}

impl Default for SegmentOptions {
    fn default() -> Self {
        SegmentOptions {
            mode: mem::DEFAULT_MODE,
        }
    }
}

impl SegmentOptions {
    /// Defaults: mode `0600` (owner read/write only).
    pub fn new() -> Self {
        Self::default()
    }

    /// Permission bits of the object (exactly these; the umask does not apply).
    /// Openers of another uid still need [`OpenOptions::any_owner`].
    pub fn mode(mut self, mode: u32) -> Self {
        self.mode = mode;
        self
    }
}

/// Options for [`Segment::open_with`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenOptions {
    payload_len: Option<usize>,
    any_owner: bool,
}

impl OpenOptions {
    /// Defaults: any payload length, owner must be our uid.
    pub fn new() -> Self {
        Self::default()
    }

    /// Require exactly this payload length (else [`SegmentError::SizeMismatch`]).
    pub fn payload_len(mut self, len: usize) -> Self {
        self.payload_len = Some(len);
        self
    }

    /// Accept a segment created by another uid (needs a mode that lets us read and write).
    pub fn any_owner(mut self, yes: bool) -> Self {
        self.any_owner = yes;
        self
    }
}

/// A mapped shared segment: validated header + payload. Unmapped (and, per the unlink
/// policy in the module docs, possibly unlinked) on drop.
///
/// Share it between threads by reference or `Arc`; between processes by name.
pub struct Segment {
    map: Mapping,
    name: Option<String>,
    /// (dev, ino) of the object, so drop unlinks the name only while it still means us.
    file_id: (u64, u64),
    me: ProcessId,
    creator: ProcessId,
    is_creator: bool,
    slot: usize,
    payload_offset: usize,
    payload_len: usize,
}

impl std::fmt::Debug for Segment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Segment")
            .field("name", &self.name)
            .field("payload_len", &self.payload_len)
            .field("creator", &self.creator)
            .field("is_creator", &self.is_creator)
            .field("slot", &self.slot)
            .finish_non_exhaustive()
    }
}

fn seg_err(e: SegmentError) -> Error {
    Error::Segment(e)
}

fn unsupported() -> Result<()> {
    if cfg!(loom) {
        return Err(Error::Unsupported(
            "shared segments under cfg(loom) (loom's atomics cannot live in shared memory)",
        ));
    }
    if !cfg!(target_os = "linux") {
        return Err(Error::Unsupported("shared memory segments"));
    }
    Ok(())
}

/// Payload offset and total size for a payload of `payload_len` bytes.
fn sizes(payload_len: usize) -> Result<(usize, usize)> {
    if payload_len == 0 {
        return Err(Error::InvalidArgument(
            "a segment payload of 0 bytes is meaningless; ask for at least 1 byte".into(),
        ));
    }
    let offset = mem::round_up_to_pages(HEADER_SIZE).expect("header fits a page");
    let total = mem::round_up_to_pages(payload_len)
        .and_then(|p| p.checked_add(offset))
        .ok_or_else(|| {
            Error::InvalidArgument(format!(
                "payload of {payload_len} bytes overflows when rounded up to pages; ask for less"
            ))
        })?;
    Ok((offset, total))
}

/// How long one futex sleep lasts at most while waiting for `READY`, so a dead creator is
/// noticed.
const READY_POLL: Duration = Duration::from_millis(50);

impl Segment {
    /// Creates a named segment `/handoff-<pid>-<name>` with `payload_len` payload bytes
    /// (rounded up to pages), mode `0600`. Call [`Segment::publish_ready`] after
    /// initializing the payload; openers wait until then.
    pub fn create(name: &str, payload_len: usize) -> Result<Segment> {
        Self::create_with(name, payload_len, &SegmentOptions::default())
    }

    /// [`Segment::create`] with options (permission bits).
    pub fn create_with(name: &str, payload_len: usize, opts: &SegmentOptions) -> Result<Segment> {
        unsupported()?;
        let (payload_offset, total) = sizes(payload_len)?;
        let full = mem::segment_name(name)?;
        let file = match ShmFile::create(&full, total, opts.mode) {
            Err(Error::Segment(SegmentError::AlreadyExists { .. }))
                if mem::remove_if_stale(&full) =>
            {
                ShmFile::create(&full, total, opts.mode)?
            }
            r => r?,
        };
        let built = Self::build(
            &file,
            Some(full.clone()),
            payload_offset,
            payload_len,
            total,
        );
        if built.is_err() {
            let _ = mem::unlink(&full);
        }
        built
    }

    /// An anonymous segment (memfd) for threads of one process: no name, never unlinked,
    /// `READY` at once.
    pub fn anonymous(payload_len: usize) -> Result<Segment> {
        unsupported()?;
        let (payload_offset, total) = sizes(payload_len)?;
        let file = ShmFile::anonymous(total)?;
        let seg = Self::build(&file, None, payload_offset, payload_len, total)?;
        seg.publish_ready();
        Ok(seg)
    }

    /// Maps a fresh zero-filled object of `total` bytes and writes the header (not ready).
    fn build(
        file: &ShmFile,
        name: Option<String>,
        payload_offset: usize,
        payload_len: usize,
        total: usize,
    ) -> Result<Segment> {
        let info = file.stat()?;
        if info.size < total as u64 {
            return Err(seg_err(SegmentError::Truncated {
                file_len: info.size,
                needed: total as u64,
            }));
        }
        let map = file.map(total)?;
        let me = ProcessId::current();
        let h = map.as_ptr().cast::<Header>();
        // SAFETY: the mapping is page aligned (>= align_of::<Header>()), at least one page
        // (>= HEADER_SIZE) long, and freshly created by us: no reference into it exists yet
        // and no other process reads the plain fields before READY (which we do not set
        // here). Raw writes, so no `&mut` aliases the atomics other processes may load.
        unsafe {
            std::ptr::addr_of_mut!((*h).version).write(LAYOUT_VERSION);
            std::ptr::addr_of_mut!((*h).header_size).write(HEADER_SIZE as u32);
            std::ptr::addr_of_mut!((*h).total_size).write(total as u64);
            std::ptr::addr_of_mut!((*h).payload_offset).write(payload_offset as u64);
            std::ptr::addr_of_mut!((*h).payload_len).write(payload_len as u64);
            std::ptr::addr_of_mut!((*h).creator_uid).write(info.uid);
            std::ptr::addr_of_mut!((*h).slot_count).write(MAX_ATTACHED as u32);
            std::ptr::addr_of_mut!((*h).creator).write(me);
            std::ptr::addr_of_mut!((*h).magic).write(MAGIC);
        }
        let mut seg = Segment {
            map,
            name,
            file_id: (info.dev, info.ino),
            me,
            creator: me,
            is_creator: true,
            slot: usize::MAX,
            payload_offset,
            payload_len,
        };
        seg.slot = claim_table_slot(seg.header(), me)?;
        Ok(seg)
    }

    /// Marks the segment `READY` and wakes waiting openers. The creator calls it once, after
    /// initializing the payload; later calls (and calls on opened segments) do nothing.
    pub fn publish_ready(&self) {
        publish_ready_word(&self.header().ready);
    }

    /// Opens the segment `name`, waiting until `deadline` for its creator to publish it,
    /// validates the header against the object's size and owner, and registers this
    /// process in the attached table.
    ///
    /// `name` is the full name [`Segment::name`] returns (`/handoff-<pid>-<name>`), or just
    /// the part the creator passed to [`Segment::create`] when exactly one live creator
    /// has such a segment. A missing name fails at once with [`SegmentError::NotFound`]; a
    /// segment not yet `READY` at the deadline gives [`WaitError::Timeout`].
    pub fn open(name: &str, deadline: Deadline) -> Result<Segment> {
        Self::open_with(name, deadline, &OpenOptions::default())
    }

    /// [`Segment::open`] that also requires the payload to be exactly `payload_len` bytes.
    pub fn open_expect(name: &str, payload_len: usize, deadline: Deadline) -> Result<Segment> {
        Self::open_with(name, deadline, &OpenOptions::new().payload_len(payload_len))
    }

    /// [`Segment::open`] with options.
    pub fn open_with(name: &str, deadline: Deadline, opts: &OpenOptions) -> Result<Segment> {
        unsupported()?;
        let full = resolve_name(name)?;
        let creator_pid = mem::parse_segment_name(&full).map_or(0, |(pid, _)| pid);
        let file = ShmFile::open(&full)?;
        let uid = mem::current_uid();

        // 1. Owner and size, before mapping anything.
        let mut info = file.stat()?;
        if !opts.any_owner && info.uid != uid {
            return Err(seg_err(SegmentError::ForeignOwner { uid: info.uid }));
        }
        let abandoned = || {
            seg_err(SegmentError::Abandoned {
                name: full.clone(),
                pid: creator_pid,
            })
        };
        while info.size == 0 {
            // The creator made the object but has not sized it yet.
            if mem::pid_is_gone(creator_pid) {
                return Err(abandoned());
            }
            if deadline.expired() {
                return Err(Error::Wait(WaitError::Timeout));
            }
            std::thread::sleep(Duration::from_millis(1));
            info = file.stat()?;
        }
        if info.size < HEADER_SIZE as u64 {
            return Err(seg_err(SegmentError::Truncated {
                file_len: info.size,
                needed: HEADER_SIZE as u64,
            }));
        }

        // 2. Map the header only, wait for READY, validate.
        let head = file.map(HEADER_SIZE)?;
        // SAFETY: the mapping is page aligned and at least HEADER_SIZE bytes, all within the
        // object (checked above), and a Header is valid for any bytes (integers, atomics).
        let h = unsafe { &*head.as_ptr().cast::<Header>() };
        wait_ready(h, &full, creator_pid, deadline)?;
        let v = validate(h, &file, uid, opts)?;
        drop(head);

        // 3. Map the whole validated size and attach.
        let map = file.map(v.total)?;
        let me = ProcessId::current();
        let mut seg = Segment {
            map,
            name: Some(full),
            file_id: (info.dev, info.ino),
            me,
            creator: v.creator,
            is_creator: false,
            slot: usize::MAX,
            payload_offset: v.payload_offset,
            payload_len: v.payload_len,
        };
        seg.slot = claim_table_slot(seg.header(), me)?;
        Ok(seg)
    }

    #[inline]
    fn header(&self) -> &Header {
        // SAFETY: every Segment maps at least HEADER_SIZE bytes at a page-aligned address,
        // validated against the object's size; the header lives as long as `self.map`.
        unsafe { &*self.map.as_ptr().cast::<Header>() }
    }

    /// Payload length in bytes (as requested at creation; the mapping may be longer).
    #[inline]
    pub fn payload_len(&self) -> usize {
        self.payload_len
    }

    /// Payload base address (page aligned). Writing through it needs care: other processes
    /// see the same bytes; prefer [`Segment::get`] with atomics.
    #[inline]
    pub fn as_ptr(&self) -> *mut u8 {
        self.map.as_ptr().wrapping_add(self.payload_offset)
    }

    /// A `T` at payload offset `offset`, bounds- and alignment-checked.
    pub fn get<T: ShmSafe>(&self, offset: usize) -> Result<&T> {
        self.check(offset, size_of::<T>(), align_of::<T>())?;
        // SAFETY: `check` proved the range lies in the payload (mapped, within the validated
        // object size) and is aligned for T; T: ShmSafe is valid for zero bytes and any
        // state other processes leave it in, and is shared only through interior mutability.
        Ok(unsafe { &*self.as_ptr().add(offset).cast::<T>() })
    }

    /// `len` consecutive `T`s starting at payload offset `offset`, bounds- and
    /// alignment-checked.
    pub fn slice<T: ShmSafe>(&self, offset: usize, len: usize) -> Result<&[T]> {
        let size = size_of::<T>().checked_mul(len).ok_or_else(|| {
            seg_err(SegmentError::OutOfBounds {
                offset,
                size: usize::MAX,
                payload_len: self.payload_len,
            })
        })?;
        self.check(offset, size, align_of::<T>())?;
        // SAFETY: as in `get`, for the whole `size`-byte range.
        Ok(unsafe { std::slice::from_raw_parts(self.as_ptr().add(offset).cast::<T>(), len) })
    }

    fn check(&self, offset: usize, size: usize, align: usize) -> Result<()> {
        if offset
            .checked_add(size)
            .is_none_or(|end| end > self.payload_len)
        {
            return Err(seg_err(SegmentError::OutOfBounds {
                offset,
                size,
                payload_len: self.payload_len,
            }));
        }
        // The payload base is page aligned, so offset alignment is address alignment.
        if !offset.is_multiple_of(align) || align > mem::page_size() {
            return Err(seg_err(SegmentError::Misaligned { offset, align }));
        }
        Ok(())
    }

    /// The full name (`/handoff-<pid>-<name>`), or `None` for an anonymous segment.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The process that created the segment.
    pub fn creator(&self) -> ProcessId {
        self.creator
    }

    /// Whether this handle created the segment.
    pub fn is_creator(&self) -> bool {
        self.is_creator
    }

    /// Whether the creator has published the segment.
    pub fn is_ready(&self) -> bool {
        // Acquire: pairs with the Release CAS in `publish_ready_word`.
        self.header().ready.load(Ordering::Acquire) == READY
    }

    /// The other processes attached now (creator included while attached), not this one.
    pub fn attached(&self) -> Vec<ProcessId> {
        self.header()
            .slots
            .iter()
            .filter_map(read_slot)
            .filter(|p| p.pid != self.me.pid)
            .collect()
    }

    /// Unlinks our name if it still refers to our object.
    fn unlink_if_ours(&self) {
        let Some(name) = &self.name else { return };
        let same = ShmFile::open_read_only(name)
            .and_then(|f| f.stat())
            .is_ok_and(|i| (i.dev, i.ino) == self.file_id);
        if same {
            let _ = mem::unlink(name);
        }
    }
}

impl Drop for Segment {
    fn drop(&mut self) {
        let h = self.header();
        if self.is_creator {
            // An opener then fails with Abandoned instead of waiting for its deadline; a no-op
            // once published.
            abandon_ready_word(&h.ready);
        }
        if let Some(slot) = h.slots.get(self.slot) {
            release_slot(slot);
        }
        if self.name.is_none() {
            return;
        }
        let unlink = self.is_creator
            || !self.creator.is_alive()
            || h.slots.iter().filter_map(read_slot).all(|p| gone(&p));
        if unlink {
            self.unlink_if_ours();
        }
    }
}

impl PeerWatch for Segment {
    /// `Err(PeerGone)` if any other attached process (the creator included) is dead.
    fn check_peers(&self) -> Result<(), WaitError> {
        for p in self.header().slots.iter().filter_map(read_slot) {
            if p.pid != self.me.pid && gone(&p) {
                return Err(WaitError::PeerGone { pid: p.pid });
            }
        }
        Ok(())
    }
}

/// Whether a table entry's process is gone; a start time of 0 means its claim is still in
/// progress, so only the pid can be checked.
fn gone(p: &ProcessId) -> bool {
    if p.start_time == 0 {
        mem::pid_is_gone(p.pid)
    } else {
        !p.is_alive()
    }
}

// ---------------------------------------------------------------------------------------
// The two lock-free protocols of the header, as small functions on the facade's atomics
// (std's in a real segment, loom's in the `loom_tests` models below).
// ---------------------------------------------------------------------------------------

/// Ready protocol, creator side: `INITIALIZING -> READY`, then wakes every waiting opener.
/// Returns whether this call made the transition (false once published or abandoned).
fn publish_ready_word(ready: &AtomicU32) -> bool {
    // Release: pairs with the Acquire load in `await_ready_word` (and `Segment::is_ready`),
    // so an opener that sees READY also sees the header and payload written before.
    let won = ready
        .compare_exchange(INITIALIZING, READY, Ordering::Release, Ordering::Relaxed)
        .is_ok();
    if won {
        futex::wake_all(ready);
    }
    won
}

/// Ready protocol, creator giving up before publishing: `INITIALIZING -> ABANDONED`, then
/// wakes every waiting opener. Returns whether this call made the transition.
fn abandon_ready_word(ready: &AtomicU32) -> bool {
    // Release: pairs with the Acquire load in `await_ready_word` (an opener then fails with
    // Abandoned instead of waiting for its deadline).
    let won = ready
        .compare_exchange(
            INITIALIZING,
            ABANDONED,
            Ordering::Release,
            Ordering::Relaxed,
        )
        .is_ok();
    if won {
        futex::wake_all(ready);
    }
    won
}

/// How [`await_ready_word`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadyWait {
    /// `READY`: everything the creator wrote before publishing is visible.
    Ready,
    /// `ABANDONED`: the creator dropped the segment before publishing it.
    Abandoned,
    /// Still `INITIALIZING`, but `creator_gone` said the creator is dead.
    CreatorGone,
    /// Still `INITIALIZING` at the deadline.
    TimedOut,
    /// The word holds no state (a foreign or corrupt object).
    BadState(u32),
}

/// Ready protocol, opener side: waits (futex) until the ready word leaves `INITIALIZING`,
/// `creator_gone()` returns true, or `deadline` passes (`None`: no deadline).
///
/// Sleeps in slices of at most [`READY_POLL`] so a dead creator is noticed; under loom (no
/// time in the model) it sleeps untimed when there is no deadline, so a lost wake-up shows
/// up as a deadlock.
fn await_ready_word(
    ready: &AtomicU32,
    deadline: Option<Deadline>,
    mut creator_gone: impl FnMut() -> bool,
) -> ReadyWait {
    loop {
        // Acquire: pairs with the Release CAS in `publish_ready_word` (and the one in
        // `abandon_ready_word`): the header fields read after READY are the creator's.
        match ready.load(Ordering::Acquire) {
            READY => return ReadyWait::Ready,
            INITIALIZING => {}
            ABANDONED => return ReadyWait::Abandoned,
            found => return ReadyWait::BadState(found),
        }
        if creator_gone() {
            return ReadyWait::CreatorGone;
        }
        if deadline.is_some_and(Deadline::expired) {
            return ReadyWait::TimedOut;
        }
        let slice = if cfg!(loom) {
            deadline
        } else {
            let poll = Deadline::after(READY_POLL);
            Some(deadline.map_or(poll, |d| d.min(poll)))
        };
        futex::wait(ready, INITIALIZING, slice);
    }
}

/// A consistent (pid, start time) snapshot of a slot, `None` if free.
fn read_slot(s: &Slot) -> Option<ProcessId> {
    loop {
        // Acquire: pairs with the Release store of 0 in `release_slot` (a free slot).
        let pid = s.pid.load(Ordering::Acquire);
        if pid == 0 {
            return None;
        }
        // Acquire: pairs with the Release store of the start time in `claim_slot`.
        let start = s.start_time.load(Ordering::Acquire);
        // Re-check: if the pid changed meanwhile, the start time may belong to another
        // process; read again.
        if s.pid.load(Ordering::Relaxed) == pid {
            return Some(ProcessId::new(pid, start));
        }
    }
}

/// Attached-table protocol: gives a slot back (start time first, then the pid word).
fn release_slot(s: &Slot) {
    s.start_time.store(0, Ordering::Relaxed);
    // Release: pairs with the Acquire CAS in `claim_slot`, so the next holder's start time
    // store is ordered after our reset of it.
    s.pid.store(0, Ordering::Release);
}

/// Attached-table protocol: claims a free slot of `slots` for `me` (CAS of the pid word
/// from 0), reclaiming slots of processes `is_dead` says are gone if none is free.
/// `None` when every slot is held by a live process.
fn claim_slot(
    slots: &[Slot],
    me: ProcessId,
    is_dead: impl Fn(&ProcessId) -> bool,
) -> Option<usize> {
    for pass in 0..2 {
        for (i, s) in slots.iter().enumerate() {
            if pass == 1 {
                // Reclaim a dead process's slot: whoever resets its start time first owns
                // the reclaim, then frees the slot for the normal claim below.
                if let Some(p) = read_slot(s) {
                    if p.start_time != 0
                        && is_dead(&p)
                        && s.start_time
                            .compare_exchange(p.start_time, 0, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                    {
                        // Release: pairs with the Acquire CAS below / in other claimers.
                        s.pid.store(0, Ordering::Release);
                    }
                }
            }
            // Acquire: pairs with the Release store of 0 in `release_slot` (or the reclaim
            // above).
            if s.pid
                .compare_exchange(0, me.pid, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                // Release: pairs with the Acquire load of the start time in `read_slot`.
                s.start_time.store(me.start_time, Ordering::Release);
                return Some(i);
            }
        }
    }
    None
}

/// Claims a slot of the header's attached table for `me` (dead processes' slots are
/// reclaimed when the table is full).
fn claim_table_slot(h: &Header, me: ProcessId) -> Result<usize> {
    claim_slot(&h.slots, me, |p| !p.is_alive()).ok_or_else(|| {
        seg_err(SegmentError::TableFull {
            slots: MAX_ATTACHED,
        })
    })
}

/// Waits until the ready word says `READY` (or fails: deadline, abandoned, bad state).
fn wait_ready(h: &Header, name: &str, creator_pid: u32, deadline: Deadline) -> Result<()> {
    let abandoned = || {
        seg_err(SegmentError::Abandoned {
            name: name.to_string(),
            pid: creator_pid,
        })
    };
    match await_ready_word(&h.ready, Some(deadline), || mem::pid_is_gone(creator_pid)) {
        ReadyWait::Ready => Ok(()),
        ReadyWait::Abandoned | ReadyWait::CreatorGone => Err(abandoned()),
        ReadyWait::TimedOut => Err(Error::Wait(WaitError::Timeout)),
        ReadyWait::BadState(found) => {
            // A foreign object most likely: its magic tells.
            let magic = h.magic;
            if magic != MAGIC {
                return Err(seg_err(SegmentError::BadMagic { found: magic }));
            }
            Err(seg_err(SegmentError::BadState { found }))
        }
    }
}

/// What validation established.
struct Validated {
    total: usize,
    payload_offset: usize,
    payload_len: usize,
    creator: ProcessId,
}

/// Checks a `READY` header against our layout and the object's current size and owner.
fn validate(h: &Header, file: &ShmFile, uid: u32, opts: &OpenOptions) -> Result<Validated> {
    if h.magic != MAGIC {
        return Err(seg_err(SegmentError::BadMagic { found: h.magic }));
    }
    if h.version != LAYOUT_VERSION {
        return Err(seg_err(SegmentError::BadVersion {
            found: h.version,
            expected: LAYOUT_VERSION,
        }));
    }
    if h.header_size != HEADER_SIZE as u32 || h.slot_count != MAX_ATTACHED as u32 {
        return Err(seg_err(SegmentError::HeaderSizeMismatch {
            found: h.header_size,
            expected: HEADER_SIZE as u32,
        }));
    }
    if !opts.any_owner && h.creator_uid != uid {
        return Err(seg_err(SegmentError::ForeignOwner { uid: h.creator_uid }));
    }
    let (total, payload_offset, payload_len) = (h.total_size, h.payload_offset, h.payload_len);
    let page = mem::page_size() as u64;
    let consistent = payload_offset >= HEADER_SIZE as u64
        && payload_offset % page == 0
        && payload_len > 0
        && total % page == 0
        && payload_offset
            .checked_add(payload_len)
            .is_some_and(|end| end <= total && total - end < page)
        && usize::try_from(total).is_ok();
    if !consistent {
        return Err(seg_err(SegmentError::Corrupt {
            detail: format!(
                "payload offset {payload_offset}, payload length {payload_len}, total size \
                 {total}, page size {page}"
            ),
        }));
    }
    let info = file.stat()?;
    if info.size < total {
        return Err(seg_err(SegmentError::Truncated {
            file_len: info.size,
            needed: total,
        }));
    }
    if let Some(expected) = opts.payload_len {
        if expected as u64 != payload_len {
            return Err(seg_err(SegmentError::SizeMismatch {
                expected: expected as u64,
                found: payload_len,
            }));
        }
    }
    Ok(Validated {
        total: total as usize,
        payload_offset: payload_offset as usize,
        payload_len: payload_len as usize,
        creator: h.creator,
    })
}

/// A full name as is; a short name resolved among live creators' segments.
fn resolve_name(name: &str) -> Result<String> {
    if name.starts_with('/') || mem::parse_segment_name(name).is_some() {
        return mem::canonical_name(name);
    }
    mem::validate_user_name(name)?;
    let candidates: Vec<String> = mem::list_segments()?
        .into_iter()
        .filter(|full| {
            mem::parse_segment_name(full)
                .is_some_and(|(pid, user)| user == name && !mem::pid_is_gone(pid))
        })
        .collect();
    match candidates.len() {
        0 => Err(seg_err(SegmentError::NotFound {
            name: name.to_string(),
        })),
        1 => Ok(candidates.into_iter().next().unwrap()),
        _ => Err(seg_err(SegmentError::Ambiguous {
            name: name.to_string(),
            candidates,
        })),
    }
}

#[cfg(all(test, not(loom), target_os = "linux"))]
mod tests {
    use super::*;
    use crate::sync::atomic::AtomicU32;

    fn unique(tag: &str) -> String {
        static N: AtomicU32 = AtomicU32::new(0);
        format!("unit-{tag}-{}", N.fetch_add(1, Ordering::Relaxed))
    }

    #[test]
    fn segment_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Segment>();
        check::<Mapping>();
    }

    #[test]
    fn header_layout_is_stable() {
        assert_eq!(offsets::MAGIC, 0);
        assert_eq!(offsets::VERSION, 8);
        assert_eq!(offsets::TOTAL_SIZE, 16);
        assert_eq!(offsets::CREATOR, 48);
        assert_eq!(offsets::READY, 64);
        assert_eq!(offsets::SLOTS, 72);
        assert_eq!(HEADER_SIZE, 72 + 16 * MAX_ATTACHED);
    }

    #[test]
    fn anonymous_get_and_bounds() {
        let seg = Segment::anonymous(100).unwrap();
        assert!(seg.is_ready() && seg.is_creator() && seg.name().is_none());
        assert_eq!(seg.payload_len(), 100);
        assert_eq!(seg.as_ptr() as usize % mem::page_size(), 0);
        let w = seg.get::<AtomicU32>(96).unwrap();
        w.store(7, Ordering::Relaxed);
        assert_eq!(seg.slice::<u32>(0, 25).unwrap()[24], 7);
        assert!(matches!(
            seg.get::<AtomicU32>(97),
            Err(Error::Segment(SegmentError::OutOfBounds { .. }))
        ));
        assert!(matches!(
            seg.get::<AtomicU32>(2),
            Err(Error::Segment(SegmentError::Misaligned { .. }))
        ));
        assert!(seg.slice::<u64>(0, usize::MAX).is_err());
        assert!(seg.attached().is_empty());
        assert!(seg.check_peers().is_ok());
    }

    #[test]
    fn published_creator_parses_header() {
        let name = unique("pc");
        let seg = Segment::create(&name, 1).unwrap();
        let file = ShmFile::open_read_only(seg.name().unwrap()).unwrap();
        let mut buf = vec![0; HEADER_SIZE];
        file.read_at(&mut buf, 0).unwrap();
        assert_eq!(published_creator(&buf), None, "not ready yet");
        seg.publish_ready();
        file.read_at(&mut buf, 0).unwrap();
        assert_eq!(published_creator(&buf), Some(ProcessId::current()));
        assert_eq!(published_creator(&buf[..10]), None);
    }

    #[test]
    fn open_in_same_process_and_unlink_on_creator_drop() {
        let seg = Segment::create(&unique("same"), 4096 * 2 + 1).unwrap();
        seg.get::<AtomicU32>(0)
            .unwrap()
            .store(42, Ordering::Relaxed);
        seg.publish_ready();
        let name = seg.name().unwrap().to_string();
        let other = Segment::open_expect(&name, 4096 * 2 + 1, Deadline::at_ns(0)).unwrap();
        assert_eq!(
            other.get::<AtomicU32>(0).unwrap().load(Ordering::Relaxed),
            42
        );
        assert!(!other.is_creator());
        assert_eq!(other.creator(), ProcessId::current());
        drop(seg);
        assert!(matches!(
            Segment::open(&name, Deadline::at_ns(0)),
            Err(Error::Segment(SegmentError::NotFound { .. }))
        ));
        assert_eq!(
            other.get::<AtomicU32>(0).unwrap().load(Ordering::Relaxed),
            42
        );
    }

    #[test]
    fn creator_drop_before_ready_abandons() {
        let seg = Segment::create(&unique("ab"), 8).unwrap();
        let name = seg.name().unwrap().to_string();
        let file = ShmFile::open(&name).unwrap();
        let head = file.map(HEADER_SIZE).unwrap();
        drop(seg);
        // SAFETY: mapped header page of a segment object (still alive through `file`).
        let h = unsafe { &*head.as_ptr().cast::<Header>() };
        assert!(matches!(
            wait_ready(h, &name, std::process::id(), Deadline::at_ns(0)),
            Err(Error::Segment(SegmentError::Abandoned { .. }))
        ));
    }

    #[test]
    fn slots_claim_release_and_fill() {
        let seg = Segment::anonymous(8).unwrap();
        let h = seg.header();
        let fake = ProcessId::current();
        let mut claimed = vec![];
        for _ in 1..MAX_ATTACHED {
            claimed.push(claim_table_slot(h, fake).unwrap());
        }
        assert!(matches!(
            claim_table_slot(h, fake),
            Err(Error::Segment(SegmentError::TableFull { .. }))
        ));
        release_slot(&h.slots[claimed[3]]);
        assert_eq!(claim_table_slot(h, fake).unwrap(), claimed[3]);
        // A dead process's slot is reclaimed when the table is full.
        let dead = ProcessId::new(fake.pid, fake.start_time + 1);
        release_slot(&h.slots[claimed[5]]);
        assert_eq!(claim_table_slot(h, dead).unwrap(), claimed[5]);
        assert_eq!(claim_table_slot(h, fake).unwrap(), claimed[5]);
        for i in claimed {
            release_slot(&h.slots[i]);
        }
    }
}

/// Loom models of the header's two protocols, on the same functions the real segment calls
/// (the segment itself cannot be built under loom). Payload / header fields are modelled as
/// loom `UnsafeCell`s (plain memory), so a missing happens-before edge is a loom failure.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::cell::UnsafeCell;
    use loom::sync::Arc;

    /// Two fake processes (the models never ask the OS about them).
    fn a() -> ProcessId {
        ProcessId::new(10, 11)
    }
    fn b() -> ProcessId {
        ProcessId::new(20, 22)
    }

    fn table(n: usize) -> Vec<Slot> {
        (0..n)
            .map(|_| Slot {
                pid: AtomicU32::new(0),
                _pad: 0,
                start_time: AtomicU64::new(0),
            })
            .collect()
    }

    fn never_dead(_: &ProcessId) -> bool {
        false
    }

    /// The creator writes a plain header/payload word and publishes; an opener blocked on the
    /// futex (no deadline) must wake (a lost wake-up is a loom deadlock) and read the word
    /// without a race. Dropping after publishing abandons nothing.
    #[test]
    fn loom_ready_publish_wakes_opener_and_shows_payload() {
        loom::model(|| {
            let seg = Arc::new((AtomicU32::new(INITIALIZING), UnsafeCell::new(0u64)));
            let creator = {
                let seg = seg.clone();
                loom::thread::spawn(move || {
                    // SAFETY: no opener reads the payload before READY (that is the model).
                    seg.1.with_mut(|p| unsafe { *p = 42 });
                    assert!(publish_ready_word(&seg.0));
                    assert!(!abandon_ready_word(&seg.0), "drop after publish is a no-op");
                })
            };
            assert_eq!(await_ready_word(&seg.0, None, || false), ReadyWait::Ready);
            // SAFETY: READY was seen with Acquire; the creator writes the payload only before.
            assert_eq!(seg.1.with(|p| unsafe { *p }), 42);
            creator.join().unwrap();
        });
    }

    /// A creator that gives up before publishing: a blocked opener wakes with `Abandoned`,
    /// and a late publish cannot resurrect the segment.
    #[test]
    fn loom_ready_abandon_wakes_opener() {
        loom::model(|| {
            let ready = Arc::new(AtomicU32::new(INITIALIZING));
            let creator = {
                let ready = ready.clone();
                loom::thread::spawn(move || {
                    assert!(abandon_ready_word(&ready));
                    assert!(!publish_ready_word(&ready));
                })
            };
            assert_eq!(
                await_ready_word(&ready, None, || false),
                ReadyWait::Abandoned
            );
            creator.join().unwrap();
        });
    }

    /// Two processes claim concurrently while a third reads a slot: distinct slots, each
    /// holder reads back its own identity, a reader never sees a torn (pid, start time)
    /// pair, and releasing frees the table.
    #[test]
    fn loom_slots_concurrent_claims_are_distinct() {
        loom::model(|| {
            let t = Arc::new(table(2));
            let claimer = |me: ProcessId| {
                let t = t.clone();
                loom::thread::spawn(move || {
                    let i = claim_slot(&t, me, never_dead).expect("two slots for two claimers");
                    assert_eq!(read_slot(&t[i]), Some(me));
                    i
                })
            };
            let (ta, tb) = (claimer(a()), claimer(b()));
            let seen = read_slot(&t[0]);
            let in_progress = |p: ProcessId| Some(ProcessId::new(p.pid, 0));
            assert!(
                seen.is_none()
                    || [Some(a()), Some(b()), in_progress(a()), in_progress(b())].contains(&seen),
                "torn slot {seen:?}"
            );
            let (ia, ib) = (ta.join().unwrap(), tb.join().unwrap());
            assert_ne!(ia, ib);
            release_slot(&t[ia]);
            release_slot(&t[ib]);
            assert!(t.iter().all(|s| read_slot(s).is_none()));
        });
    }

    /// One slot, two processes: at most one holds it at a time (each holder writes plain
    /// per-slot data; loom reports a race if two hold it or the release -> claim hand-over
    /// lacks a happens-before edge), a full table gives `None`, and the slot ends free.
    #[test]
    fn loom_slots_release_hands_over_exclusively() {
        loom::model(|| {
            let shared = Arc::new((table(1), UnsafeCell::new(0u32)));
            let user = |me: ProcessId| {
                let shared = shared.clone();
                loom::thread::spawn(move || {
                    let Some(i) = claim_slot(&shared.0, me, never_dead) else {
                        return false;
                    };
                    // SAFETY: the slot is ours until `release_slot`; loom checks exclusivity.
                    shared.1.with_mut(|p| unsafe { *p = me.pid });
                    assert_eq!(read_slot(&shared.0[i]), Some(me));
                    release_slot(&shared.0[i]);
                    true
                })
            };
            let (ta, tb) = (user(a()), user(b()));
            let (got_a, got_b) = (ta.join().unwrap(), tb.join().unwrap());
            assert!(
                got_a || got_b,
                "the first claimer always finds the slot free"
            );
            assert_eq!(read_slot(&shared.0[0]), None);
        });
    }

    /// A full table whose only entry is dead: two concurrent claimers reclaim it exactly once
    /// (one wins, the other finds the table full).
    #[test]
    fn loom_slots_dead_entry_reclaimed_once() {
        loom::model(|| {
            let t = Arc::new(table(1));
            let dead = ProcessId::new(9, 99);
            assert_eq!(claim_slot(&t, dead, never_dead), Some(0));
            let is_dead = move |p: &ProcessId| *p == dead;
            let claimer = |me: ProcessId| {
                let t = t.clone();
                loom::thread::spawn(move || claim_slot(&t, me, is_dead))
            };
            let (ta, tb) = (claimer(a()), claimer(b()));
            let (ga, gb) = (ta.join().unwrap(), tb.join().unwrap());
            let winner = match (ga, gb) {
                (Some(0), None) => a(),
                (None, Some(0)) => b(),
                other => panic!("reclaimed {other:?}"),
            };
            assert_eq!(read_slot(&t[0]), Some(winner));
        });
    }
}

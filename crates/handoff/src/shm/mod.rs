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
//! # Peers that leave
//!
//! A segment is a [`PeerWatch`]: waits that pass it as their peers end with
//! [`WaitError::PeerGone`] naming a process when another **peer** has left. The rule:
//!
//! - Every attacher is a *peer* (the creator always), unless it opens with
//!   [`OpenOptions::observer`]: an observer (a monitoring tool) is never waited on, so its
//!   exit, death or detach never fails anyone's wait.
//! - A peer has left when it died attached (killed, or exited without dropping its
//!   segment), or when it *detached*: dropped its [`Segment`] — after an early return with
//!   an error, or while unwinding from a panic. Detaching leaves a departure record in its
//!   table slot ([`Segment::departed`] says which peer and how).
//! - Every later wait on the segment fails while a record is kept: a peer that left can no
//!   longer do what the waiter waits for. A wait whose condition holds still succeeds: the
//!   loop polls once more after a failed peer check, so a peer that publishes and then
//!   leaves (the normal end of a protocol) ends nothing.
//! - Records go away when the same process attaches again, when the table runs full, or by
//!   [`Segment::forget_departed`] (a supervisor that replaced a worker). Dropping a
//!   segment thus ends the *peers'* waits, never an observer's leaving.
//!
//! # Hostile names
//!
//! `/dev/shm` is writable by every user. Opens never follow a symbolic link (`O_NOFOLLOW`)
//! and never block (`O_NONBLOCK`); the name must be a regular file (`lstat` before, `fstat`
//! after), else [`SegmentError::NotRegular`]. The header's creator must be our uid (unless
//! [`OpenOptions::any_owner`]), the object's owner, and the pid in the name
//! ([`SegmentError::CreatorMismatch`]). Creation reserves the memory (`fallocate`), so a
//! full `/dev/shm` is [`SegmentError::NoSpace`] at creation, not a SIGBUS at the first
//! write.
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
//! removed by [`cleanup_stale`].
//!
//! Linux only; elsewhere (and under `cfg(loom)`, where shared memory cannot hold loom's
//! atomics) every constructor returns [`crate::Error::Unsupported`].

use crate::atomic::{AtomicU32, Ordering};
pub use crate::layout::ShmSafe;
use crate::peers::PeerWatch;
use crate::sys::mem::{self, Mapping, ShmFile};
use crate::sys::{futex, Deadline, ProcessId};
use crate::{Error, Result, WaitError};
use std::mem::{align_of, size_of};
use std::time::Duration;

mod cleanup;
mod error;
mod names;
mod open;
mod ready;
mod table;
pub use cleanup::{cleanup_stale, list_segments};
pub use error::SegmentError;
pub use names::{canonical_name, parse_segment_name, segment_name, MAX_USER_NAME_LEN, NAME_PREFIX};
use open::*;
use ready::*;
use table::*;
pub use table::{Departure, DepartureKind};

/// The magic bytes at offset 0 of every segment.
pub const MAGIC: [u8; 8] = *b"HNDOFSEG";

/// The layout version this build writes and accepts.
pub const LAYOUT_VERSION: u32 = 2;

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
    /// `slot_count: u32` (the attached table's length, [`super::MAX_ATTACHED`]).
    pub const SLOT_COUNT: usize = offset_of!(Header, slot_count);
    /// `creator: ProcessId` (pid u32, pad u32, start time u64).
    pub const CREATOR: usize = offset_of!(Header, creator);
    /// `ready: AtomicU32`.
    pub const READY: usize = offset_of!(Header, ready);
    /// `slots: [Slot; MAX_ATTACHED]`, 16 bytes each (pid u32, state bits u32, start time
    /// u64).
    pub const SLOTS: usize = offset_of!(Header, slots);
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
    observer: bool,
    wait_for_creation: bool,
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

    /// Attach as an observer instead of a peer: a tool that only looks at the segment.
    /// Observers watch the peers like anyone else, but their own exit, death or detach
    /// never ends another process's wait (module docs, "Peers that leave").
    pub fn observer(mut self, yes: bool) -> Self {
        self.observer = yes;
        self
    }

    /// If no segment has the name yet, wait (polling every millisecond) until its creator
    /// makes it or the open's deadline passes ([`SegmentError::OpenTimedOut`], naming the
    /// segment), instead of failing at once with [`SegmentError::NotFound`]. For an opener
    /// started before, or at the same time as, the creator.
    pub fn wait_for_creation(mut self, yes: bool) -> Self {
        self.wait_for_creation = yes;
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
    /// Our role bits in the attached table ([`OBSERVER`] or 0).
    role: u32,
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
        let full = names::segment_name(name)?;
        let file = match ShmFile::create(&full, total, opts.mode) {
            Err(crate::sys::Error::AlreadyExists { .. }) if cleanup::remove_if_stale(&full) => {
                ShmFile::create(&full, total, opts.mode)?
            }
            Err(crate::sys::Error::AlreadyExists { name }) => return Err(explain_taken(name)),
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
            role: 0,
        };
        seg.slot = claim_table_slot(&seg.header().slots, me, 0)?;
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
    /// has such a segment. A missing name fails at once with [`SegmentError::NotFound`]
    /// (or, with [`OpenOptions::wait_for_creation`], is waited for until the deadline); a
    /// segment not yet `READY` at the deadline gives [`SegmentError::OpenTimedOut`], which
    /// names it.
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
        let (full, file) = open_file(name, deadline, opts.wait_for_creation)?;
        let creator_pid = parse_segment_name(&full).map_or(0, |(pid, _)| pid);
        let uid = mem::current_uid();
        let role = if opts.observer { OBSERVER } else { 0 };
        let not_ready = || {
            seg_err(SegmentError::OpenTimedOut {
                name: full.clone(),
                state: NOT_READY,
            })
        };

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
                return Err(not_ready());
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
        wait_ready(h, &full, creator_pid, deadline).map_err(|e| match e {
            Error::Wait(WaitError::Timeout) => not_ready(),
            e => e,
        })?;
        let v = validate(h, &file, &full, uid, opts)?;
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
            role,
        };
        seg.slot = claim_table_slot(&seg.header().slots, me, role)?;
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

    /// The other processes in the attached table (creator included), not this one: those
    /// attached now, and those that died attached (listed until their slot is reclaimed).
    /// Peers that detached are not listed; see [`Segment::departed`].
    pub fn attached(&self) -> Vec<ProcessId> {
        self.entries()
            .filter(|e| e.state & LEFT == 0)
            .map(|e| e.id)
            .collect()
    }

    /// The other peers that left the segment while their record is kept (detached,
    /// panicked, or died attached), oldest slot first; observers are never listed. Any
    /// such record makes [`PeerWatch::check_peers`] fail (module docs, "Peers that leave").
    pub fn departed(&self) -> Vec<Departure> {
        self.entries()
            .filter_map(|e| {
                e.departure().map(|kind| Departure {
                    process: e.id,
                    kind,
                })
            })
            .collect()
    }

    /// Forgets the departure records (see [`Segment::departed`]), e.g. after replacing a
    /// worker that left, so later waits on the segment no longer fail because of them.
    /// Returns the departures forgotten.
    pub fn forget_departed(&self) -> Vec<Departure> {
        let mut forgotten = Vec::new();
        for s in self.header().slots.iter() {
            let Some(e) = read_entry(s) else { continue };
            if e.id.pid == self.me.pid {
                continue;
            }
            if let Some(kind) = e.departure() {
                if reclaim(s, e.id) {
                    forgotten.push(Departure {
                        process: e.id,
                        kind,
                    });
                }
            }
        }
        forgotten
    }

    /// The table's entries of other processes.
    fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.header()
            .slots
            .iter()
            .filter_map(read_entry)
            .filter(|e| e.id.pid != self.me.pid)
    }

    /// Unlinks our name if it still refers to our object (same device and inode per
    /// `lstat`: a symlink or another object planted at the name is left alone).
    fn unlink_if_ours(&self) {
        let Some(name) = &self.name else { return };
        let same = mem::lstat(name).is_ok_and(|i| {
            i.is_some_and(|i| (i.dev, i.ino) == self.file_id && i.kind == mem::FileKind::Regular)
        });
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
            if self.role & OBSERVER != 0 || self.name.is_none() {
                release_slot(slot);
            } else {
                // A peer leaves a record, so the processes waiting on it learn it left
                // (module docs, "Peers that leave").
                depart_slot(slot, std::thread::panicking());
            }
        }
        if self.name.is_none() {
            return;
        }
        let unlink = self.is_creator
            || !self.creator.is_alive()
            || h.slots.iter().filter_map(read_entry).all(|e| !e.attached());
        if unlink {
            self.unlink_if_ours();
        }
    }
}

impl PeerWatch for Segment {
    /// `Err(PeerGone { pid })` if another peer (the creator included) left: it died
    /// attached, or detached (dropped its segment, also while panicking) and its record is
    /// still kept. Observers never count (module docs, "Peers that leave").
    fn check_peers(&self) -> Result<(), WaitError> {
        match self.entries().find(|e| e.departure().is_some()) {
            Some(e) => Err(WaitError::PeerGone { pid: e.id.pid }),
            None => Ok(()),
        }
    }
}

#[cfg(all(test, not(loom), target_os = "linux"))]
mod tests;

#[cfg(all(test, loom))]
mod loom_tests;

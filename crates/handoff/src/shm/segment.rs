//! [`Segment`]: creating, opening, accessing and dropping a mapped segment, and its
//! options. The protocols it runs live in the sibling files: `header` (layout and
//! validation), `ready` (the ready word), `table` (attached processes), `names` and
//! `cleanup` (names and stale objects), `open` (finding a name to open).

use super::header::*;
use super::names::parse_segment_name;
use super::open::*;
use super::ready::*;
use super::table::*;
use super::{Result, SegmentError, ShmSafe, MAGIC};
use crate::atomic::Ordering;
use crate::sync::{PeerWatch, WaitError};
use crate::sys::mem::{self, Mapping, ShmFile};
use crate::sys::{Deadline, ProcessId};
use std::mem::{align_of, size_of};
use std::time::Duration;

/// Options for [`Segment::create_with`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentOptions {
    mode: u32,
    slots: usize,
}

impl Default for SegmentOptions {
    fn default() -> Self {
        SegmentOptions {
            mode: mem::DEFAULT_MODE,
            slots: DEFAULT_SLOTS,
        }
    }
}

impl SegmentOptions {
    /// Defaults: mode `0600` (owner read/write only), [`DEFAULT_SLOTS`] attached-process
    /// slots.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many processes may be attached at once, the creator included (the attached
    /// table's length, fixed at creation). The table takes 16 bytes per slot in the pages
    /// before the payload; 0 is an error at creation.
    pub fn slots(mut self, slots: usize) -> Self {
        self.slots = slots;
        self
    }

    /// Bytes of shared memory (header, attached table and payload, each rounded up to
    /// pages) a segment created with these options and `payload_len` payload bytes takes;
    /// an error where creation would fail for the sizes.
    pub fn object_size(&self, payload_len: usize) -> Result<usize> {
        sizes(payload_len, self.slots).map(|(_, total)| total)
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
    pub(super) payload_len: Option<usize>,
    pub(super) any_owner: bool,
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

    /// Accept a segment created by another uid (needs a mode that lets us read and write),
    /// and let a short name match other users' segments too (by default it considers only
    /// ours, so another user cannot take or confuse the lookup).
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
    pub(super) slot: usize,
    payload_offset: usize,
    payload_len: usize,
    /// Our role bits in the attached table ([`OBSERVER`] or 0).
    role: u32,
    /// The attached table's length (validated against the mapping; never re-read from the
    /// shared header, which another process could change).
    slot_count: usize,
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

fn unsupported() -> Result<()> {
    if cfg!(loom) {
        return Err(SegmentError::unsupported(
            "shared segments under cfg(loom) (loom's atomics cannot live in shared memory)",
        ));
    }
    if !cfg!(target_os = "linux") {
        return Err(SegmentError::unsupported("shared memory segments"));
    }
    Ok(())
}

/// Payload offset and total size for a payload of `payload_len` bytes after a header with
/// an attached table of `slots` slots.
fn sizes(payload_len: usize, slots: usize) -> Result<(usize, usize)> {
    if payload_len == 0 {
        return Err(SegmentError::invalid(
            "a segment payload of 0 bytes is meaningless; ask for at least 1 byte",
        ));
    }
    if slots == 0 {
        return Err(SegmentError::invalid(
            "an attached-process table of 0 slots holds not even the creator; ask for at least 1",
        ));
    }
    let offset = table_end(slots)
        .filter(|_| u32::try_from(slots).is_ok())
        .and_then(mem::round_up_to_pages)
        .ok_or_else(|| {
            SegmentError::invalid(format!(
                "an attached-process table of {slots} slots overflows; ask for fewer"
            ))
        })?;
    let total = mem::round_up_to_pages(payload_len)
        .and_then(|p| p.checked_add(offset))
        .ok_or_else(|| {
            SegmentError::invalid(format!(
                "payload of {payload_len} bytes overflows when rounded up to pages; ask for less"
            ))
        })?;
    Ok((offset, total))
}

impl Segment {
    /// Creates a named segment with `payload_len` payload bytes (rounded up to pages),
    /// mode `0600`. Call [`Segment::publish_ready`] after initializing the payload; openers
    /// wait until then.
    ///
    /// `name` is a short name (ASCII letters, digits, `.`, `_`, `-`): the segment gets the
    /// unguessable full name `/handoff-<pid>-<name>~<random>` ([`Segment::name`]; openers
    /// take it, or the short name). Or a full name `/handoff-<pid>-<name>` with this
    /// process's pid, used exactly as given: for a name other programs must know in
    /// advance (anyone may squat a known name; a taken one is an error).
    pub fn create(name: &str, payload_len: usize) -> Result<Segment> {
        Self::create_with(name, payload_len, &SegmentOptions::default())
    }

    /// [`Segment::create`] with options (permission bits).
    pub fn create_with(name: &str, payload_len: usize, opts: &SegmentOptions) -> Result<Segment> {
        unsupported()?;
        let (payload_offset, total) = sizes(payload_len, opts.slots)?;
        let (full, file) = create_file(name, total, opts.mode)?;
        let built = Self::build(
            &file,
            Some(full.clone()),
            payload_offset,
            payload_len,
            total,
            opts.slots,
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
        let (payload_offset, total) = sizes(payload_len, DEFAULT_SLOTS)?;
        let file = ShmFile::anonymous(total)?;
        let seg = Self::build(
            &file,
            None,
            payload_offset,
            payload_len,
            total,
            DEFAULT_SLOTS,
        )?;
        seg.publish_ready();
        Ok(seg)
    }

    /// Maps a fresh zero-filled object of `total` bytes and writes the header (not ready)
    /// with an attached table of `slots` slots (`sizes` checked that it ends before
    /// `payload_offset`).
    fn build(
        file: &ShmFile,
        name: Option<String>,
        payload_offset: usize,
        payload_len: usize,
        total: usize,
        slots: usize,
    ) -> Result<Segment> {
        let info = file.stat()?;
        if info.size < total as u64 {
            return Err(SegmentError::Truncated {
                file_len: info.size,
                needed: total as u64,
            });
        }
        let map = file.map(total)?;
        let me = ProcessId::current();
        let h = map.as_ptr().cast::<Header>();
        // SAFETY: the mapping is page aligned (>= align_of::<Header>()), at least
        // payload_offset (>= HEADER_SIZE) bytes long, and freshly created by us: no reference into it exists yet
        // and no other process reads the plain fields before READY (which we do not set
        // here). Raw writes, so no `&mut` aliases the atomics other processes may load.
        unsafe {
            std::ptr::addr_of_mut!((*h).version).write(LAYOUT_VERSION);
            std::ptr::addr_of_mut!((*h).header_size).write(HEADER_SIZE as u32);
            std::ptr::addr_of_mut!((*h).total_size).write(total as u64);
            std::ptr::addr_of_mut!((*h).payload_offset).write(payload_offset as u64);
            std::ptr::addr_of_mut!((*h).payload_len).write(payload_len as u64);
            std::ptr::addr_of_mut!((*h).creator_uid).write(info.uid);
            std::ptr::addr_of_mut!((*h).slot_count).write(slots as u32);
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
            slot_count: slots,
        };
        seg.slot = claim_table_slot(seg.slots(), me, 0)?;
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
    /// `name` is the full name [`Segment::name`] returns (`/handoff-<pid>-<name>~<random>`), or just
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
        let (full, file) = open_file(name, deadline, opts.wait_for_creation, opts.any_owner)?;
        let creator_pid = parse_segment_name(&full).map_or(0, |(pid, _)| pid);
        let uid = mem::current_uid();
        let role = if opts.observer { OBSERVER } else { 0 };
        let not_ready = || SegmentError::OpenTimedOut {
            name: full.clone(),
            state: NOT_READY,
        };

        // 1. Owner and size, before mapping anything.
        let mut info = file.stat()?;
        if !opts.any_owner && info.uid != uid {
            return Err(SegmentError::ForeignOwner { uid: info.uid });
        }
        let abandoned = || SegmentError::Abandoned {
            name: full.clone(),
            pid: creator_pid,
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
            return Err(SegmentError::Truncated {
                file_len: info.size,
                needed: HEADER_SIZE as u64,
            });
        }

        // 2. Map the header only, wait for READY, validate.
        let head = file.map(HEADER_SIZE)?;
        // SAFETY: the mapping is page aligned and at least HEADER_SIZE bytes, all within the
        // object (checked above), and a Header is valid for any bytes (integers, atomics).
        let h = unsafe { &*head.as_ptr().cast::<Header>() };
        wait_ready(h, &full, creator_pid, deadline)?;
        let v = validate(h, &file, &full, uid, opts.any_owner, opts.payload_len)?;
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
            slot_count: v.slot_count,
        };
        seg.slot = claim_table_slot(seg.slots(), me, role)?;
        Ok(seg)
    }

    #[inline]
    pub(super) fn header(&self) -> &Header {
        // SAFETY: every Segment maps at least HEADER_SIZE bytes at a page-aligned address,
        // validated against the object's size; the header lives as long as `self.map`.
        unsafe { &*self.map.as_ptr().cast::<Header>() }
    }

    /// The attached-process table.
    #[inline]
    pub(super) fn slots(&self) -> &[Slot] {
        // SAFETY: the table's `slot_count` slots end before the payload offset (checked by
        // `sizes` at creation, by `validate` at open), so they lie in our mapping; the
        // offset is 8-byte aligned in a page-aligned mapping (Slot's alignment); a Slot is
        // atomics, valid for any bytes, shared only through them.
        unsafe {
            std::slice::from_raw_parts(
                self.map.as_ptr().add(offsets::SLOTS).cast::<Slot>(),
                self.slot_count,
            )
        }
    }

    /// The attached table's length: how many processes may be attached at once.
    pub fn slot_count(&self) -> usize {
        self.slot_count
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
        let size = size_of::<T>()
            .checked_mul(len)
            .ok_or(SegmentError::OutOfBounds {
                offset,
                size: usize::MAX,
                payload_len: self.payload_len,
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
            return Err(SegmentError::OutOfBounds {
                offset,
                size,
                payload_len: self.payload_len,
            });
        }
        // The payload base is page aligned, so offset alignment is address alignment.
        if !offset.is_multiple_of(align) || align > mem::page_size() {
            return Err(SegmentError::Misaligned { offset, align });
        }
        Ok(())
    }

    /// The full name (`/handoff-<pid>-<name>~<random>`, or the full name the creator
    /// chose), or `None` for an anonymous segment.
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
        for s in self.slots() {
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
        self.slots()
            .iter()
            .filter_map(read_entry)
            .filter(|e| e.id.pid != self.me.pid)
    }

    /// Whether this handle was made by another process: this one is a `fork`ed copy of it.
    /// Whatever such a copy does to the shared state (closing a channel, leaving the
    /// attached table, unlinking) would be done in its maker's name.
    pub(crate) fn forked_away(&self) -> bool {
        std::process::id() != self.me.pid
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
        if self.forked_away() {
            // A copy inherited through `fork`: only the mapping is this process's (module
            // docs, "Unlink policy").
            return;
        }
        let h = self.header();
        if self.is_creator {
            // An opener then fails with Abandoned instead of waiting for its deadline; a no-op
            // once published.
            abandon_ready_word(&h.ready);
        }
        if let Some(slot) = self.slots().get(self.slot) {
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
            || self
                .slots()
                .iter()
                .filter_map(read_entry)
                .all(|e| !e.attached());
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
        self.check_departures(|_| true)
    }
}

impl Segment {
    /// As [`PeerWatch::check_peers`], but a peer that detached cleanly does not count: only
    /// one that panicked or died attached. For protocols whose every end records its clean
    /// leaving in the shared state itself (each queue end closes on drop, ringing its
    /// waiters), where one peer's leaving says nothing about the others: a producer of an
    /// MPSC queue that finished must not end another producer's wait for room, nor the
    /// consumer's wait for the others' data.
    pub(crate) fn check_unclean_departures(&self) -> Result<(), WaitError> {
        self.check_departures(|k| k != DepartureKind::Detached)
    }

    /// `Err(PeerGone)` naming the first other peer whose departure `counts`.
    fn check_departures(&self, counts: impl Fn(DepartureKind) -> bool) -> Result<(), WaitError> {
        match self.entries().find(|e| e.departure().is_some_and(&counts)) {
            Some(e) => Err(WaitError::PeerGone { pid: e.id.pid }),
            None => Ok(()),
        }
    }
}

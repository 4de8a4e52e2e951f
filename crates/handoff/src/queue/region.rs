//! Where a queue lives — a page-aligned zeroed heap block (threads) or a named segment
//! (processes) — and the header every queue starts with, which an opener validates.
//!
//! The same bytes either way (iceoryx2's habit: one type, `memory_size` + in-place init):
//!
//! ```text
//! offset 0      QueueHeader: magic, version, kind, unit size, capacity, lanes, role claims
//! offset 128    the kind's shared words (indices, doorbells, lane table)
//! data_offset   the data (slots or frame bytes), aligned to 128 bytes
//! ```
//!
//! # Memory ordering
//!
//! The creator stores the header words (Relaxed) before [`Segment::publish_ready`], whose
//! Release store of `READY` pairs with every opener's Acquire load: openers see them. A
//! heap region is shared with other threads only by moving or cloning its `Arc`, which
//! orders the stores. Side claims are one `fetch_or` each (AcqRel), so two claimants of one
//! role cannot both win.

use std::alloc::Layout;
use std::ptr::NonNull;

use super::error::{QueueError, Side};
use crate::atomic::{AtomicU32, AtomicU64, Ordering};
use crate::shm::Segment;
use crate::sync::PeerWatch;
use crate::sync::WaitError;
use crate::sys::Deadline;

/// "HNDFQUEU", little-endian: the first word of every queue header.
const QUEUE_MAGIC: u64 = u64::from_le_bytes(*b"HNDFQUEU");
/// Version of the header layout; an opener refuses any other.
const QUEUE_VERSION: u64 = 1;
/// Alignment of the data area and of the heap block.
pub(crate) const DATA_ALIGN: usize = 128;
const PAGE: usize = 4096;

/// What a queue is, as recorded in its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A typed SPSC ring.
    Spsc = 1,
    /// A byte-frame SPSC ring.
    Frames = 2,
    /// One SPSC lane per producer.
    Lanes = 3,
    /// Vyukov's bounded MPSC array.
    Array = 4,
}

impl Kind {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Kind::Spsc => "SPSC queue",
            Kind::Frames => "frame queue",
            Kind::Lanes => "per-producer MPSC queue",
            Kind::Array => "array MPSC queue",
        }
    }
}

/// The shape both sides must agree on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    pub(crate) kind: Kind,
    /// Bytes per unit (element size, 8 for frames, slot stride for the array queue).
    pub(crate) unit: u64,
    /// Units per ring.
    pub(crate) capacity: u64,
    /// Producer lanes (1 for SPSC kinds).
    pub(crate) lanes: u64,
    /// Total bytes of the region.
    pub(crate) len: usize,
}

/// The header at offset 0.
#[repr(C, align(128))]
#[derive(Debug)]
pub(crate) struct QueueHeader {
    magic: AtomicU64,
    version: AtomicU64,
    kind: AtomicU64,
    unit: AtomicU64,
    capacity: AtomicU64,
    lanes: AtomicU64,
    len: AtomicU64,
    roles: AtomicU32,
}

// SAFETY: repr(C), atomics only, all-zero = "no queue yet" (magic 0), which openers refuse.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for QueueHeader {}

const PRODUCER_CLAIMED: u32 = 1;
const CONSUMER_CLAIMED: u32 = 2;

impl QueueHeader {
    fn init(&self, s: &Shape) {
        // Relaxed: published by the segment's READY Release store or the Arc (module docs).
        self.version.store(QUEUE_VERSION, Ordering::Relaxed);
        self.kind.store(s.kind as u64, Ordering::Relaxed);
        self.unit.store(s.unit, Ordering::Relaxed);
        self.capacity.store(s.capacity, Ordering::Relaxed);
        self.lanes.store(s.lanes, Ordering::Relaxed);
        self.len.store(s.len as u64, Ordering::Relaxed);
        self.magic.store(QUEUE_MAGIC, Ordering::Relaxed);
    }

    fn validate(&self, name: &str, want: &Shape) -> Result<(), QueueError> {
        // Relaxed: ordered after the creator's stores by the READY Acquire load.
        if self.magic.load(Ordering::Relaxed) != QUEUE_MAGIC
            || self.kind.load(Ordering::Relaxed) != want.kind as u64
        {
            return Err(QueueError::NotAQueue {
                name: name.into(),
                kind: want.kind.label(),
            });
        }
        let fields = [
            ("layout version", QUEUE_VERSION, &self.version),
            ("unit size (bytes)", want.unit, &self.unit),
            ("capacity", want.capacity, &self.capacity),
            ("producer lanes", want.lanes, &self.lanes),
            ("size (bytes)", want.len as u64, &self.len),
        ];
        for (what, expected, word) in fields {
            let found = word.load(Ordering::Relaxed);
            if found != expected {
                return Err(QueueError::Mismatch {
                    name: name.into(),
                    what,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }

    /// Claims `role` once per queue (SPSC kinds: both roles; MPSC kinds: the consumer).
    pub(crate) fn claim(&self, role: Side, name: &str) -> Result<(), QueueError> {
        let bit = match role {
            Side::Producer => PRODUCER_CLAIMED,
            Side::Consumer => CONSUMER_CLAIMED,
        };
        // AcqRel: the RMW makes claims of one role exclusive; it publishes nothing else.
        if self.roles.fetch_or(bit, Ordering::AcqRel) & bit != 0 {
            return Err(QueueError::RoleTaken {
                role,
                name: name.into(),
            });
        }
        Ok(())
    }
}

/// Rounds `n` up to a multiple of `to` (a power of two), or `None` on overflow.
pub(crate) fn round_up(n: usize, to: usize) -> Option<usize> {
    n.checked_next_multiple_of(to)
}

/// The error for a size computation that overflowed.
pub(crate) fn too_big(what: impl std::fmt::Display) -> QueueError {
    QueueError::InvalidConfig(format!(
        "{what} overflows the address space; ask for a smaller queue"
    ))
}

enum Backing {
    Heap { ptr: NonNull<u8>, layout: Layout },
    Segment(Segment),
}

/// The memory of one queue, mapped in this process.
pub(crate) struct Region {
    backing: Backing,
    /// The first byte (of the heap block or the segment's payload).
    base: *mut u8,
    /// The segment's name, or "heap", for messages.
    pub(crate) label: String,
    pub(crate) shape: Shape,
}

// SAFETY: the heap block is owned by the region and freed only in its Drop; every access to
// its bytes goes through atomics or through the queue protocols, which hand each byte to one
// side at a time. A Segment is Send + Sync already.
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}

impl std::fmt::Debug for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Region")
            .field("label", &self.label)
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

impl Region {
    /// A zeroed, page-aligned heap block holding a fresh queue of `shape`.
    pub(crate) fn heap(shape: Shape) -> Result<Region, QueueError> {
        let layout = Layout::from_size_align(shape.len.max(1), PAGE)
            .map_err(|_| too_big(format!("a queue of {} bytes", shape.len)))?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(ptr) = NonNull::new(raw) else {
            return Err(QueueError::InvalidConfig(format!(
                "cannot allocate {} bytes for the queue: out of memory; ask for a smaller one",
                shape.len
            )));
        };
        let r = Region {
            base: ptr.as_ptr(),
            backing: Backing::Heap { ptr, layout },
            label: "heap".into(),
            shape,
        };
        r.header().init(&shape);
        Ok(r)
    }

    /// Creates the named segment `/handoff-<pid>-<name>` holding a fresh queue.
    pub(crate) fn create(name: &str, shape: Shape) -> Result<Region, QueueError> {
        let seg = Segment::create(name, shape.len)?;
        seg.get::<QueueHeader>(0)?.init(&shape);
        // Release (the segment's ready protocol): publishes the header to openers.
        seg.publish_ready();
        let label = seg.name().unwrap_or(name).to_string();
        Ok(Region {
            base: seg.as_ptr(),
            backing: Backing::Segment(seg),
            label,
            shape,
        })
    }

    /// Opens the queue `name` and checks it has `shape`.
    pub(crate) fn open(name: &str, shape: Shape, deadline: Deadline) -> Result<Region, QueueError> {
        let seg = Segment::open(name, deadline)?;
        if seg.payload_len() < std::mem::size_of::<QueueHeader>() {
            return Err(QueueError::NotAQueue {
                name: name.into(),
                kind: shape.kind.label(),
            });
        }
        seg.get::<QueueHeader>(0)?.validate(name, &shape)?;
        if seg.payload_len() < shape.len {
            return Err(QueueError::Mismatch {
                name: name.into(),
                what: "payload size (bytes)",
                expected: shape.len as u64,
                found: seg.payload_len() as u64,
            });
        }
        Ok(Region {
            base: seg.as_ptr(),
            backing: Backing::Segment(seg),
            label: name.into(),
            shape,
        })
    }

    /// The first byte.
    #[inline]
    pub(crate) fn base(&self) -> *mut u8 {
        self.base
    }

    /// A shared-word struct at `offset` (within `shape.len`, aligned: checked by the
    /// callers' layout computations, asserted in debug builds).
    #[inline]
    pub(crate) fn at<T: crate::layout::ShmSafe>(&self, offset: usize) -> &T {
        debug_assert!(offset + std::mem::size_of::<T>() <= self.shape.len);
        debug_assert!(offset.is_multiple_of(std::mem::align_of::<T>()));
        // SAFETY: the region maps `shape.len` bytes (checked at open against the segment),
        // page aligned; callers pass offsets from their layout, which keeps `T` inside and
        // aligned; T: ShmSafe is valid for any state a peer leaves it in and is shared only
        // through atomics.
        unsafe { &*self.base().add(offset).cast::<T>() }
    }

    /// `n` shared-word structs from `offset` on (same contract as [`at`](Self::at)).
    #[inline]
    pub(crate) fn slice_at<T: crate::layout::ShmSafe>(&self, offset: usize, n: usize) -> &[T] {
        debug_assert!(offset + n * std::mem::size_of::<T>() <= self.shape.len);
        debug_assert!(offset.is_multiple_of(std::mem::align_of::<T>()));
        // SAFETY: as in `at`, for `n` consecutive values.
        unsafe { std::slice::from_raw_parts(self.base().add(offset).cast::<T>(), n) }
    }

    /// The header.
    #[inline]
    pub(crate) fn header(&self) -> &QueueHeader {
        self.at(0)
    }

    /// The segment's full name; `None` on the heap.
    pub(crate) fn name(&self) -> Option<&str> {
        match &self.backing {
            Backing::Heap { .. } => None,
            Backing::Segment(s) => s.name(),
        }
    }
}

/// A queue's waits end with `PeerGone` when a peer died attached or panicked, not when one
/// detached cleanly: every queue end closes in the queue's own words on drop (and rings), so a
/// waiter whose only partner left sees `Closed`, and a waiter with other partners (another
/// producer of an MPSC queue, the consumer while other producers run) keeps waiting on them.
impl PeerWatch for Region {
    #[inline]
    fn check_peers(&self) -> Result<(), WaitError> {
        match &self.backing {
            Backing::Heap { .. } => Ok(()),
            Backing::Segment(s) => s.check_unclean_departures(),
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if let Backing::Heap { ptr, layout } = self.backing {
            // SAFETY: allocated in `heap` with this layout, freed once (here).
            unsafe { std::alloc::dealloc(ptr.as_ptr(), layout) };
        }
    }
}

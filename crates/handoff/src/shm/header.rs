//! The segment header and its validation: the layout at offset 0 of every segment (magic,
//! layout version, sizes, creator, ready word), the attached-process table right after it
//! (`slot_count` slots, chosen by the creator), the constants and byte offsets tools read
//! raw objects with, and the checks an opener makes before it trusts a header (module
//! docs, "Hostile names").

use super::names::parse_segment_name;
use super::table::Slot;
use super::{Result, SegmentError, MAGIC};
use crate::atomic::AtomicU32;
use crate::sys::mem::{self, ShmFile};
use crate::sys::ProcessId;
use std::mem::size_of;

/// The layout version this build writes and accepts (3: the attached table follows the
/// fixed header and has `slot_count` slots; 2 had 64 slots inside the header).
pub const LAYOUT_VERSION: u32 = 3;

/// Ready word: the creator has not yet published the segment.
pub const INITIALIZING: u32 = 0;
/// Ready word: header and payload initialized; openers may attach.
pub const READY: u32 = 1;
/// Ready word: the creator dropped the segment before publishing it.
pub const ABANDONED: u32 = 2;

/// Size of the fixed header in bytes. The attached table follows at [`offsets::SLOTS`]
/// (`slot_count` slots of [`SLOT_SIZE`] bytes); the payload starts at the next page
/// boundary after it.
pub const HEADER_SIZE: usize = size_of::<Header>();

/// Bytes per attached-table slot (pid u32, state bits u32, start time u64).
pub const SLOT_SIZE: usize = size_of::<Slot>();

/// Bytes from offset 0 to the end of an attached table of `slots` slots, `None` on
/// overflow.
pub(super) fn table_end(slots: usize) -> Option<usize> {
    slots.checked_mul(SLOT_SIZE)?.checked_add(offsets::SLOTS)
}

/// Byte offsets of the header fields: the whole layout, for reading raw objects (some are
/// used by the unit tests only; `tests.rs` pins them).
#[allow(dead_code)]
pub mod offsets {
    use super::Header;
    use std::mem::{offset_of, size_of};

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
    /// `slot_count: u32` (the attached table's length, chosen at creation).
    pub const SLOT_COUNT: usize = offset_of!(Header, slot_count);
    /// `creator: ProcessId` (pid u32, pad u32, start time u64).
    pub const CREATOR: usize = offset_of!(Header, creator);
    /// `ready: AtomicU32`.
    pub const READY: usize = offset_of!(Header, ready);
    /// The attached table, right after the fixed header: `slot_count` slots of 16 bytes
    /// each (pid u32, state bits u32, start time u64).
    pub const SLOTS: usize = size_of::<Header>();
}

/// The segment header at offset 0; the attached table (`slot_count` [`Slot`]s) follows it.
#[repr(C)]
pub(super) struct Header {
    pub(super) magic: [u8; 8],
    pub(super) version: u32,
    pub(super) header_size: u32,
    pub(super) total_size: u64,
    pub(super) payload_offset: u64,
    pub(super) payload_len: u64,
    pub(super) creator_uid: u32,
    pub(super) slot_count: u32,
    pub(super) creator: ProcessId,
    pub(super) ready: AtomicU32,
    pub(super) _reserved: u32,
}

#[cfg(not(loom))]
const _: () = {
    assert!(
        HEADER_SIZE <= 4096,
        "the header must fit in the smallest page"
    );
    assert!(size_of::<Slot>() == size_of::<ProcessId>());
    assert!(std::mem::align_of::<Header>() == 8);
    assert!(std::mem::align_of::<Slot>() <= 8 && HEADER_SIZE.is_multiple_of(8));
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

/// What validation established.
pub(super) struct Validated {
    pub(super) total: usize,
    pub(super) payload_offset: usize,
    pub(super) payload_len: usize,
    pub(super) creator: ProcessId,
    pub(super) slot_count: usize,
}

/// Checks a `READY` header against our layout and the object's current size and owner.
pub(super) fn validate(
    h: &Header,
    file: &ShmFile,
    name: &str,
    uid: u32,
    any_owner: bool,
    expected_payload_len: Option<usize>,
) -> Result<Validated> {
    if h.magic != MAGIC {
        return Err(SegmentError::BadMagic { found: h.magic });
    }
    if h.version != LAYOUT_VERSION {
        return Err(SegmentError::BadVersion {
            found: h.version,
            expected: LAYOUT_VERSION,
        });
    }
    if h.header_size != HEADER_SIZE as u32 {
        return Err(SegmentError::HeaderSizeMismatch {
            found: h.header_size,
            expected: HEADER_SIZE as u32,
        });
    }
    // The creator: our uid (unless any_owner), the object's owner, and the pid in the name.
    let info = file.stat()?;
    if !any_owner && h.creator_uid != uid {
        return Err(SegmentError::ForeignOwner { uid: h.creator_uid });
    }
    if h.creator_uid != info.uid {
        return Err(SegmentError::Corrupt {
            detail: format!(
                "the header names uid {} as creator but uid {} owns the object",
                h.creator_uid, info.uid
            ),
        });
    }
    let name_pid = parse_segment_name(name).map_or(0, |(pid, _)| pid);
    if h.creator.pid != name_pid {
        return Err(SegmentError::CreatorMismatch {
            name: name.to_string(),
            name_pid,
            header_pid: h.creator.pid,
        });
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
        return Err(SegmentError::Corrupt {
            detail: format!(
                "payload offset {payload_offset}, payload length {payload_len}, total size \
                 {total}, page size {page}"
            ),
        });
    }
    // The attached table must lie in the header area, before the payload (so within the
    // validated size): a corrupt or foreign count is an error, never a read out of bounds.
    let slot_count = h.slot_count;
    let room = (payload_offset as usize).saturating_sub(offsets::SLOTS) / SLOT_SIZE;
    if slot_count == 0 || slot_count as usize > room {
        return Err(SegmentError::SlotCountMismatch {
            found: slot_count,
            room: room as u64,
        });
    }
    if info.size < total {
        return Err(SegmentError::Truncated {
            file_len: info.size,
            needed: total,
        });
    }
    if let Some(expected) = expected_payload_len {
        if expected as u64 != payload_len {
            return Err(SegmentError::SizeMismatch {
                expected: expected as u64,
                found: payload_len,
            });
        }
    }
    Ok(Validated {
        total: total as usize,
        payload_offset: payload_offset as usize,
        payload_len: payload_len as usize,
        creator: h.creator,
        slot_count: slot_count as usize,
    })
}

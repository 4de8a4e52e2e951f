//! Where a channel lives in its segment, and how an opener validates it.
//!
//! ```text
//! payload offset 0    ChannelHeader: magic, version, geometry, role claims, the Ring
//!                     (two counters and the producer's check block)
//! blocks_offset       block 0 (page aligned)
//! + k * stride        block k; stride = block size rounded up to 128 bytes (blocks under a
//!                     page) or to pages, so two blocks never share a cache line
//! ```
//!
//! # Memory ordering
//!
//! The creator stores the geometry words (Relaxed) before [`crate::shm::Segment::publish_ready`];
//! the segment's ready protocol (Release store of `READY`, Acquire load by every opener)
//! orders them before any opener's loads. Role claims are one `fetch_or` each (AcqRel), so
//! two claimants of one role cannot both win.

use super::ring::Ring;
use super::{ChannelConfig, ChannelError, Role};
use crate::atomic::{AtomicU32, AtomicU64, Ordering};

/// "HNDFCHAN", little-endian: the first word of every channel header.
pub(crate) const CHANNEL_MAGIC: u64 = u64::from_le_bytes(*b"HNDFCHAN");
/// Version of this header layout; an opener refuses any other.
pub(crate) const CHANNEL_VERSION: u64 = 2;
/// Role-claim bits in `roles`.
const PRODUCER_CLAIMED: u32 = 1;
const CONSUMER_CLAIMED: u32 = 2;
/// Blocks at least this large are page aligned and padded to whole pages.
const PAGE: usize = 4096;
/// Smaller blocks are padded to this many bytes (two cache lines: no false sharing with the
/// adjacent-line prefetcher).
const LINE: usize = 128;

/// The header at payload offset 0.
#[repr(C, align(128))]
#[derive(Debug)]
pub(crate) struct ChannelHeader {
    magic: AtomicU64,
    version: AtomicU64,
    block_size: AtomicU64,
    blocks: AtomicU64,
    stride: AtomicU64,
    blocks_offset: AtomicU64,
    roles: AtomicU32,
    pub(crate) ring: Ring,
}

// SAFETY: repr(C); only atomics and `Signal`s (ShmSafe: pointer-free, all-zero valid, shared
// through atomics only); all-zero is "no channel yet" (magic 0), which openers refuse.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for ChannelHeader {}

/// Offsets of one channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Geometry {
    pub(crate) block_size: usize,
    pub(crate) blocks: usize,
    pub(crate) stride: usize,
    pub(crate) blocks_offset: usize,
    pub(crate) payload_len: usize,
}

impl Geometry {
    /// The geometry of `cfg`, or why it is impossible.
    pub(crate) fn of(cfg: &ChannelConfig) -> Result<Geometry, ChannelError> {
        if cfg.block_size == 0 || cfg.blocks == 0 {
            return Err(ChannelError::InvalidConfig(format!(
                "a channel needs at least one block of at least one byte (asked for {} blocks \
                 of {} bytes)",
                cfg.blocks, cfg.block_size
            )));
        }
        let pad = if cfg.block_size >= PAGE { PAGE } else { LINE };
        let too_big = || {
            ChannelError::InvalidConfig(format!(
                "{} blocks of {} bytes overflow the address space; ask for fewer or smaller blocks",
                cfg.blocks, cfg.block_size
            ))
        };
        let stride = cfg
            .block_size
            .checked_next_multiple_of(pad)
            .ok_or_else(too_big)?;
        let blocks_offset = std::mem::size_of::<ChannelHeader>().next_multiple_of(PAGE);
        let payload_len = stride
            .checked_mul(cfg.blocks)
            .and_then(|b| b.checked_add(blocks_offset))
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(too_big)?;
        Ok(Geometry {
            block_size: cfg.block_size,
            blocks: cfg.blocks,
            stride,
            blocks_offset,
            payload_len,
        })
    }

    /// Payload offset of slot `i`.
    pub(crate) fn block_offset(&self, i: usize) -> usize {
        debug_assert!(i < self.blocks);
        self.blocks_offset + i * self.stride
    }
}

impl ChannelHeader {
    /// Writes the header of a fresh (zero-filled, not yet published) segment.
    pub(crate) fn init(&self, g: &Geometry) {
        // Relaxed: published to openers by the segment's READY Release store (module docs).
        self.version.store(CHANNEL_VERSION, Ordering::Relaxed);
        self.block_size
            .store(g.block_size as u64, Ordering::Relaxed);
        self.blocks.store(g.blocks as u64, Ordering::Relaxed);
        self.stride.store(g.stride as u64, Ordering::Relaxed);
        self.blocks_offset
            .store(g.blocks_offset as u64, Ordering::Relaxed);
        self.magic.store(CHANNEL_MAGIC, Ordering::Relaxed);
    }

    /// Checks an opened header against the geometry this side expects.
    pub(crate) fn validate(&self, name: &str, want: &Geometry) -> Result<(), ChannelError> {
        // Relaxed: ordered after the creator's stores by the segment's READY Acquire load.
        if self.magic.load(Ordering::Relaxed) != CHANNEL_MAGIC {
            return Err(ChannelError::NotAChannel {
                name: name.to_string(),
            });
        }
        let fields = [
            ("layout version", CHANNEL_VERSION, &self.version),
            (
                "block size (bytes)",
                want.block_size as u64,
                &self.block_size,
            ),
            ("block count", want.blocks as u64, &self.blocks),
            ("block stride (bytes)", want.stride as u64, &self.stride),
            (
                "blocks offset",
                want.blocks_offset as u64,
                &self.blocks_offset,
            ),
        ];
        for (what, expected, word) in fields {
            let found = word.load(Ordering::Relaxed);
            if found != expected {
                return Err(ChannelError::Mismatch {
                    name: name.to_string(),
                    what,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }

    /// Claims `role` for the caller; fails if another handle holds it.
    pub(crate) fn claim(&self, role: Role, name: &str) -> Result<(), ChannelError> {
        let bit = match role {
            Role::Producer => PRODUCER_CLAIMED,
            Role::Consumer => CONSUMER_CLAIMED,
        };
        // AcqRel: the RMW makes claims of one role mutually exclusive; nothing else is
        // published through `roles`.
        if self.roles.fetch_or(bit, Ordering::AcqRel) & bit != 0 {
            return Err(ChannelError::RoleTaken {
                role,
                name: name.to_string(),
            });
        }
        Ok(())
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn header_layout_and_zero_init() {
        assert_eq!(std::mem::align_of::<ChannelHeader>(), 128);
        // 6 words + roles, padded to 128, then the ring's two 128-byte signals and its
        // 128-byte check block (`written` and the corruption report).
        assert_eq!(std::mem::size_of::<ChannelHeader>(), 128 + 3 * 128);
        // SAFETY: all-zero is a valid header (see the ShmSafe impl).
        let h: ChannelHeader = unsafe { std::mem::zeroed() };
        let g = Geometry::of(&ChannelConfig::new(64, 2)).unwrap();
        assert!(matches!(
            h.validate("x", &g),
            Err(ChannelError::NotAChannel { .. })
        ));
        assert_eq!(h.ring.published.load(), 0);
    }

    #[test]
    fn geometry_pads_blocks_apart() {
        // Hand-computed: 100 B -> 128 B stride; 5000 B -> 8192 B; blocks after one page.
        let g = Geometry::of(&ChannelConfig::new(100, 3)).unwrap();
        assert_eq!((g.stride, g.blocks_offset), (128, 4096));
        assert_eq!(g.payload_len, 4096 + 3 * 128);
        assert_eq!(g.block_offset(2), 4096 + 256);
        let g = Geometry::of(&ChannelConfig::new(5000, 2)).unwrap();
        assert_eq!(g.stride, 8192);
        assert_eq!(g.payload_len, 4096 + 2 * 8192);
    }

    #[test]
    fn impossible_geometries_are_refused() {
        for cfg in [
            ChannelConfig::new(0, 1),
            ChannelConfig::new(8, 0),
            ChannelConfig::new(usize::MAX - 10, 1),
            ChannelConfig::new(1 << 40, 1 << 30),
        ] {
            assert!(
                matches!(Geometry::of(&cfg), Err(ChannelError::InvalidConfig(_))),
                "{cfg:?}"
            );
        }
    }

    #[test]
    fn validation_names_the_first_difference() {
        // SAFETY: all-zero is a valid header.
        let h: ChannelHeader = unsafe { std::mem::zeroed() };
        h.init(&Geometry::of(&ChannelConfig::new(64, 2)).unwrap());
        h.validate("c", &Geometry::of(&ChannelConfig::new(64, 2)).unwrap())
            .unwrap();
        let e = h
            .validate("c", &Geometry::of(&ChannelConfig::new(64, 3)).unwrap())
            .unwrap_err();
        assert!(
            matches!(
                &e,
                ChannelError::Mismatch {
                    name,
                    what: "block count",
                    expected: 3,
                    found: 2
                } if name == "c"
            ),
            "{e}"
        );
        let e = h
            .validate("c", &Geometry::of(&ChannelConfig::new(32, 2)).unwrap())
            .unwrap_err();
        assert!(e.to_string().contains("block size"), "{e}");
    }

    #[test]
    fn each_role_is_claimed_once() {
        // SAFETY: all-zero is a valid header.
        let h: ChannelHeader = unsafe { std::mem::zeroed() };
        h.claim(Role::Producer, "c").unwrap();
        h.claim(Role::Consumer, "c").unwrap();
        assert!(matches!(
            h.claim(Role::Producer, "c"),
            Err(ChannelError::RoleTaken {
                role: Role::Producer,
                ..
            })
        ));
        assert!(h.claim(Role::Consumer, "c").is_err());
    }
}

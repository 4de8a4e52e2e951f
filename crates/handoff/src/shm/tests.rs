use super::header::{published_creator, Header};
use super::ready::wait_ready;
use super::table::{claim_table_slot, release_slot};
use super::*;
use crate::atomic::{AtomicU32, Ordering};
use crate::sync::PeerWatch;
use crate::sys::mem::{self, Mapping, ShmFile};
use crate::sys::{Deadline, ProcessId};

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
    assert_eq!(offsets::SLOT_COUNT, 44);
    assert_eq!(offsets::SLOTS, 72);
    assert_eq!(HEADER_SIZE, 72);
    assert_eq!(SLOT_SIZE, 16);
    // The rest of the layout `tests/raw/mod.rs` (the integration tests' forger) hard-codes.
    assert_eq!(offsets::HEADER_SIZE, 12);
    assert_eq!(offsets::PAYLOAD_OFFSET, 24);
    assert_eq!(offsets::PAYLOAD_LEN, 32);
    assert_eq!(offsets::CREATOR_UID, 40);
    assert_eq!(LAYOUT_VERSION, 3);
    assert_eq!(&MAGIC, b"HNDOFSEG");
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
        Err(SegmentError::OutOfBounds { .. })
    ));
    assert!(matches!(
        seg.get::<AtomicU32>(2),
        Err(SegmentError::Misaligned { .. })
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
        Err(SegmentError::NotFound { .. })
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
        Err(SegmentError::Abandoned { .. })
    ));
}

#[test]
fn slots_claim_release_and_fill() {
    let seg = Segment::anonymous(8).unwrap();
    let slots = seg.slots();
    assert_eq!(slots.len(), DEFAULT_SLOTS);
    let fake = ProcessId::current();
    let mut claimed = vec![];
    for _ in 1..DEFAULT_SLOTS {
        claimed.push(claim_table_slot(slots, fake, 0).unwrap());
    }
    assert!(matches!(
        claim_table_slot(slots, fake, 0),
        Err(SegmentError::TableFull {
            slots: DEFAULT_SLOTS
        })
    ));
    release_slot(&slots[claimed[3]]);
    assert_eq!(claim_table_slot(slots, fake, 0).unwrap(), claimed[3]);
    // A dead process's slot is reclaimed when the table is full.
    let dead = ProcessId::new(fake.pid, fake.start_time + 1);
    release_slot(&slots[claimed[5]]);
    assert_eq!(claim_table_slot(slots, dead, 0).unwrap(), claimed[5]);
    assert_eq!(claim_table_slot(slots, fake, 0).unwrap(), claimed[5]);
    for i in claimed {
        release_slot(&slots[i]);
    }
}

/// How a live peer's table entry reads, state bit by state bit: an observer never counts as
/// departed; panicked wins over detached; a live, attached peer has not departed.
#[test]
fn departure_follows_the_state_bits() {
    use super::table::{Entry, LEFT, OBSERVER, PANICKED};
    let id = ProcessId::current(); // alive: only the bits decide
    let got: Vec<_> = [
        0,
        OBSERVER,
        LEFT,
        PANICKED | LEFT,
        OBSERVER | LEFT | PANICKED,
    ]
    .into_iter()
    .map(|state| Entry { id, state }.departure())
    .collect();
    assert_eq!(
        got,
        [
            None,
            None,
            Some(DepartureKind::Detached),
            Some(DepartureKind::Panicked),
            None
        ]
    );
}

/// The table is as long as the creator asked: a named segment with 1500 slots holds 1500
/// attached handles (the creator's and 1499 opens), the next open finds it full, and the
/// payload starts after the table's pages. A segment with 2 slots holds two.
#[test]
fn table_is_sized_at_creation() {
    let opts = SegmentOptions::new().slots(1500);
    let seg = Segment::create_with(&unique("big"), 8, &opts).unwrap();
    seg.publish_ready();
    assert_eq!(seg.slot_count(), 1500);
    let name = seg.name().unwrap().to_string();
    // The table (72 + 1500 * 16 = 24072 bytes) ends before the payload.
    let page = mem::page_size();
    let table = (HEADER_SIZE + 1500 * SLOT_SIZE).next_multiple_of(page);
    assert_eq!(
        seg.as_ptr() as usize - seg.header() as *const _ as usize,
        table
    );
    assert_eq!(opts.object_size(8).unwrap(), table + page);
    // Our own opens reuse our pid's slot only after detaching; hold 1499 handles.
    let opened: Vec<Segment> = (1..1500)
        .map(|_| Segment::open(&name, Deadline::after(std::time::Duration::from_secs(5))).unwrap())
        .collect();
    assert!(opened.iter().all(|s| s.slot_count() == 1500));
    let mut slots: Vec<usize> = opened.iter().map(|s| s.slot).chain([seg.slot]).collect();
    slots.sort_unstable();
    slots.dedup();
    assert_eq!(slots.len(), 1500, "every handle has its own slot");
    assert!(matches!(
        Segment::open(&name, Deadline::at_ns(0)),
        Err(SegmentError::TableFull { slots: 1500 })
    ));
    drop(opened);

    let two = Segment::create_with(&unique("two"), 8, &SegmentOptions::new().slots(2)).unwrap();
    two.publish_ready();
    let name = two.name().unwrap().to_string();
    let _b = Segment::open(&name, Deadline::at_ns(0)).unwrap();
    assert!(matches!(
        Segment::open(&name, Deadline::at_ns(0)),
        Err(SegmentError::TableFull { slots: 2 })
    ));
}

#[test]
fn table_sizes_that_cannot_be_made_are_errors() {
    for slots in [0, usize::MAX / 8, u32::MAX as usize + 1] {
        let opts = SegmentOptions::new().slots(slots);
        assert!(
            matches!(
                Segment::create_with(&unique("bad"), 8, &opts),
                Err(SegmentError::Sys(crate::sys::Error::InvalidArgument(_)))
            ),
            "{slots} slots"
        );
        assert!(opts.object_size(8).is_err());
    }
}

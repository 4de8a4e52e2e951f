//! Shared segments between real processes (the test binary re-executes itself as the child)
//! and every kind of bad input: corrupt magic, wrong version, truncation, size mismatch,
//! zero size, bad names, foreign owner, expired deadline, dead peers and stale cleanup.
//!
//! Every child is guarded (`ChildGuard` kills it on drop) and watched (`Watchdog` kills it
//! after 20 s); no test asserts on timing. Each test checks that it leaves no
//! `/dev/shm/handoff-*` object behind.
#![cfg(all(target_os = "linux", not(loom)))]

mod raw;

use handoff::shm::{OpenOptions, Segment, SegmentError};
use handoff::sync::PeerWatch;
use handoff::sync::WaitError;
use handoff::sys::{Deadline, ProcessId};
use handoff_probe::proc::die_with_parent;
use handoff_testkit::Kid;
use raw::{offsets, RawShm, HEADER_SIZE, LAYOUT_VERSION, MAGIC};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

const ROLE_ENV: &str = "HANDOFF_SEGMENT_TEST_ROLE";
const NAME_ENV: &str = "HANDOFF_SEGMENT_TEST_NAME";
const WATCHDOG: Duration = Duration::from_secs(20);
const VALUE_FROM_PARENT: u64 = 0x5eed_f00d_1234_5678;
const VALUE_FROM_CHILD: u64 = 0xc41d_0000_0000_0042;

/// Tests that SIGKILL a creator and then look at its leftovers run one at a time, so one
/// test's `cleanup_stale` never removes what another is about to check.
static KILL_TESTS: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    KILL_TESTS.lock().unwrap_or_else(|p| p.into_inner())
}

/// A name unique to this process and call (the creator's pid is added by `Segment`).
fn unique(tag: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!("t-{tag}-{}", N.fetch_add(1, Ordering::Relaxed))
}

fn role() -> Option<String> {
    std::env::var(ROLE_ENV).ok()
}

fn deadline() -> Deadline {
    Deadline::after(WATCHDOG)
}

fn exists(full: &str) -> bool {
    std::path::Path::new(&format!("{}{full}", raw::SHM_DIR)).exists()
}

/// A child running `test` of this binary in `role` on segment `name`.
fn kid(test: &str, role: &str, name: &str) -> Kid {
    Kid::spawn(
        test,
        ROLE_ENV,
        role,
        &[(NAME_ENV, name.to_string())],
        WATCHDOG,
    )
}

#[track_caller]
fn assert_gone(full: &str) {
    assert!(!exists(full), "{full} was left behind in {}", raw::SHM_DIR);
}

/// No object of this process under the short name `user` (with any random part).
fn assert_none_named(user: &str) {
    let me = std::process::id();
    let left: Vec<String> = handoff::shm::list_segments()
        .unwrap()
        .into_iter()
        .filter(|n| handoff::implementor::parse_segment_name(n) == Some((me, user)))
        .collect();
    assert!(left.is_empty(), "left behind in /dev/shm: {left:?}");
}

/// In a child: die with the parent, and never outlive the watchdog.
fn child_setup() -> String {
    die_with_parent().unwrap();
    std::env::var(NAME_ENV).unwrap()
}

fn child_park() -> ! {
    let end = deadline();
    while !end.expired() {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::process::exit(3);
}

#[test]
fn round_trip_between_processes() {
    if let Some(role) = role() {
        assert_eq!(role, "open");
        let name = child_setup();
        // Opened while (probably) still INITIALIZING: waits on the ready futex.
        let seg = Segment::open_expect(&name, 3 * 4096 + 8, deadline()).unwrap();
        assert!(!seg.is_creator());
        let creator = std::os::unix::process::parent_id();
        assert_eq!(seg.creator().pid, creator);
        assert!(seg.attached().iter().any(|p| p.pid == creator));
        assert!(seg.check_peers().is_ok());
        let v = seg.get::<AtomicU64>(0).unwrap();
        assert_eq!(v.load(Ordering::Relaxed), VALUE_FROM_PARENT);
        seg.get::<AtomicU64>(3 * 4096)
            .unwrap()
            .store(VALUE_FROM_CHILD, Ordering::Release);
        println!("CHILD-DONE");
        return;
    }
    let seg = Segment::create(&unique("rt"), 3 * 4096 + 8).unwrap();
    let name = seg.name().unwrap().to_string();
    let mut kid = kid("round_trip_between_processes", "open", &name);
    seg.get::<AtomicU64>(0)
        .unwrap()
        .store(VALUE_FROM_PARENT, Ordering::Relaxed);
    seg.publish_ready();
    kid.expect_line("CHILD-DONE");
    kid.wait_success();
    // Acquire: pairs with the child's Release store (the child has exited anyway).
    let got = seg
        .get::<AtomicU64>(3 * 4096)
        .unwrap()
        .load(Ordering::Acquire);
    assert_eq!(got, VALUE_FROM_CHILD);
    // The child detached cleanly; the creator is alive, so the name stays until we drop.
    assert!(seg.attached().is_empty());
    assert!(exists(&name));
    drop(seg);
    assert_gone(&name);
}

#[test]
fn expired_deadline_times_out_while_initializing() {
    let seg = Segment::create(&unique("dl"), 64).unwrap();
    let name = seg.name().unwrap().to_string();
    for d in [
        Deadline::at_ns(0),
        Deadline::after(Duration::from_millis(20)),
    ] {
        match Segment::open(&name, d) {
            Err(e @ SegmentError::OpenTimedOut { .. }) => {
                let msg = e.to_string();
                assert!(
                    msg.contains(&name) && msg.contains("not yet ready"),
                    "{msg}"
                );
            }
            other => panic!("expected a timeout, got {other:?}"),
        }
    }
    seg.publish_ready();
    // Ready: an expired deadline does not matter any more.
    let other = Segment::open(&name, Deadline::at_ns(0)).unwrap();
    drop(other);
    drop(seg);
    assert_gone(&name);
}

#[test]
fn creator_dropping_before_ready_abandons_waiters() {
    let seg = Segment::create(&unique("ab"), 64).unwrap();
    let name = seg.name().unwrap().to_string();
    let n2 = name.clone();
    let waiter = std::thread::spawn(move || Segment::open(&n2, deadline()));
    std::thread::sleep(Duration::from_millis(10));
    drop(seg);
    match waiter.join().unwrap() {
        // Abandoned if the waiter was waiting; NotFound if it came after the unlink.
        Err(SegmentError::Abandoned { pid, .. }) => {
            assert_eq!(pid, std::process::id())
        }
        Err(SegmentError::NotFound { .. }) => {}
        other => panic!("expected Abandoned, got {other:?}"),
    }
    assert_gone(&name);
}

/// A published segment and a raw handle on its object, for corrupting it.
fn published(tag: &str, payload: usize) -> (Segment, String, RawShm) {
    let seg = Segment::create(&unique(tag), payload).unwrap();
    seg.publish_ready();
    let name = seg.name().unwrap().to_string();
    let raw = RawShm::open(&name).unwrap();
    (seg, name, raw)
}

#[test]
fn corrupt_magic_is_refused() {
    let (seg, name, raw) = published("magic", 64);
    raw.write_at(b"NOTOURS!", offsets::MAGIC as u64).unwrap();
    match Segment::open(&name, deadline()) {
        Err(SegmentError::BadMagic { found }) => assert_eq!(&found, b"NOTOURS!"),
        other => panic!("expected BadMagic, got {other:?}"),
    }
    raw.write_at(&MAGIC, 0).unwrap();
    drop(Segment::open(&name, deadline()).unwrap());
    drop(seg);
    assert_gone(&name);
}

/// A payload offset that is not page aligned is corrupt even when every size adds up (the
/// payload still ends within the last page of the object): mapping it would misalign every
/// value the peers share.
#[test]
fn misaligned_payload_offset_is_corrupt() {
    let (seg, name, raw) = published("misaligned", 64);
    let mut word = [0u8; 8];
    raw.read_at(&mut word, offsets::PAYLOAD_OFFSET as u64)
        .unwrap();
    let offset = u64::from_ne_bytes(word);
    assert_eq!(offset % 4096, 0, "the creator page-aligns the payload");
    // 64 bytes later: the 64-byte payload still ends in the object's last page.
    raw.write_at(&(offset + 64).to_ne_bytes(), offsets::PAYLOAD_OFFSET as u64)
        .unwrap();
    match Segment::open(&name, deadline()) {
        Err(SegmentError::Corrupt { detail }) => {
            assert!(
                detail.contains(&format!("payload offset {}", offset + 64)),
                "{detail}"
            )
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
    drop(seg);
    assert_gone(&name);
}

#[test]
fn wrong_version_and_header_size_are_refused() {
    let (seg, name, raw) = published("ver", 64);
    let v = offsets::VERSION as u64;
    raw.write_at(&(LAYOUT_VERSION + 1).to_ne_bytes(), v)
        .unwrap();
    match Segment::open(&name, deadline()) {
        Err(SegmentError::BadVersion { found, expected }) => {
            assert_eq!((found, expected), (LAYOUT_VERSION + 1, LAYOUT_VERSION))
        }
        other => panic!("expected BadVersion, got {other:?}"),
    }
    raw.write_at(&LAYOUT_VERSION.to_ne_bytes(), v).unwrap();
    raw.write_at(&7u32.to_ne_bytes(), offsets::HEADER_SIZE as u64)
        .unwrap();
    assert!(matches!(
        Segment::open(&name, deadline()),
        Err(SegmentError::HeaderSizeMismatch { found: 7, .. })
    ));
    raw.write_at(
        &(HEADER_SIZE as u32).to_ne_bytes(),
        offsets::HEADER_SIZE as u64,
    )
    .unwrap();
    // Contradicting sizes.
    raw.write_at(&1u64.to_ne_bytes(), offsets::PAYLOAD_OFFSET as u64)
        .unwrap();
    assert!(matches!(
        Segment::open(&name, deadline()),
        Err(SegmentError::Corrupt { .. })
    ));
    // A ready word that is no state.
    raw.write_at(&77u32.to_ne_bytes(), offsets::READY as u64)
        .unwrap();
    assert!(matches!(
        Segment::open(&name, deadline()),
        Err(SegmentError::BadState { found: 77 })
    ));
    drop(seg);
    assert_gone(&name);
}

#[test]
fn truncated_segment_is_refused() {
    let page = handoff::sys::page_size();
    let (seg, name, raw) = published("trunc", 3 * page);
    let total = raw.size().unwrap();
    // Cut the payload (the creator only touches its header page from now on).
    raw.set_len(2 * page as u64).unwrap();
    match Segment::open(&name, deadline()) {
        Err(SegmentError::Truncated { file_len, needed }) => {
            assert_eq!((file_len, needed), (2 * page as u64, total))
        }
        other => panic!("expected Truncated, got {other:?}"),
    }
    drop(seg);
    assert_gone(&name);

    // An object too small to hold even the header: refused before anything is mapped.
    let raw_name = handoff::implementor::segment_name(&unique("tiny")).unwrap();
    let tiny = RawShm::create(&raw_name, 1, 0o600).unwrap();
    tiny.set_len(40).unwrap();
    match Segment::open(&raw_name, deadline()) {
        Err(SegmentError::Truncated { file_len, needed }) => {
            assert_eq!((file_len, needed), (40, HEADER_SIZE as u64))
        }
        other => panic!("expected Truncated, got {other:?}"),
    }
    raw::unlink(&raw_name).unwrap();
    assert_gone(&raw_name);
}

#[test]
fn payload_size_mismatch_is_refused() {
    let (seg, name, _raw) = published("size", 1000);
    match Segment::open_expect(&name, 2000, deadline()) {
        Err(SegmentError::SizeMismatch { expected, found }) => {
            assert_eq!((expected, found), (2000, 1000))
        }
        other => panic!("expected SizeMismatch, got {other:?}"),
    }
    let ok = Segment::open_expect(&name, 1000, deadline()).unwrap();
    assert_eq!(ok.payload_len(), 1000);
    drop(ok);
    drop(seg);
    assert_gone(&name);
}

#[test]
fn zero_size_is_refused() {
    let user = unique("zero");
    assert!(matches!(
        Segment::create(&user, 0),
        Err(SegmentError::Sys(handoff::sys::Error::InvalidArgument(_)))
    ));
    assert_none_named(&user);
    assert!(matches!(
        Segment::anonymous(0),
        Err(SegmentError::Sys(handoff::sys::Error::InvalidArgument(_)))
    ));
    assert!(matches!(
        Segment::create(&user, usize::MAX),
        Err(SegmentError::Sys(handoff::sys::Error::InvalidArgument(_)))
    ));
    assert_none_named(&user);
}

#[test]
fn bad_names_are_refused() {
    let long = "n".repeat(handoff::implementor::MAX_USER_NAME_LEN + 1);
    for bad in ["", "a/b", "/handoff-1-x", "sp ace", "..", long.as_str()] {
        match Segment::create(bad, 64) {
            Err(e @ SegmentError::InvalidName { .. }) => {
                assert!(!e.to_string().is_empty())
            }
            other => panic!("{bad:?}: expected InvalidName, got {other:?}"),
        }
    }
    for bad in ["/not-ours", "/handoff-x-y", "a/b", ""] {
        assert!(
            matches!(
                Segment::open(bad, deadline()),
                Err(SegmentError::InvalidName { .. })
            ),
            "{bad:?}"
        );
    }
    let missing = handoff::implementor::segment_name(&unique("missing")).unwrap();
    assert!(matches!(
        Segment::open(&missing, deadline()),
        Err(SegmentError::NotFound { .. })
    ));
    assert!(matches!(
        Segment::open(&unique("missing"), deadline()),
        Err(SegmentError::NotFound { .. })
    ));

    // Taken names, and opening by the short name.
    let user = unique("taken");
    let seg = Segment::create(&user, 64).unwrap();
    // Under its full name (used as given); by the short name a second creation would get a
    // fresh random name.
    match Segment::create(seg.name().unwrap(), 64) {
        Err(e @ SegmentError::AlreadyExists { .. }) => {
            assert!(e.to_string().contains("cleanup"), "{e}")
        }
        other => panic!("expected AlreadyExists, got {other:?}"),
    }
    seg.publish_ready();
    let by_short = Segment::open(&user, deadline()).unwrap();
    assert_eq!(by_short.name(), seg.name());
    let name = seg.name().unwrap().to_string();
    drop(by_short);
    drop(seg);
    assert_gone(&name);
}

/// The foreign-owner check on the header (testable without root): a header naming another
/// uid as creator is refused; with `any_owner` it is still refused, because the object's
/// owner (us) contradicts the header.
#[test]
fn foreign_owner_in_header_is_refused() {
    const NOBODY: u32 = 65534;
    assert_ne!(
        raw::current_uid(),
        NOBODY,
        "run the tests as a uid other than nobody"
    );
    let (seg, name, raw) = published("foreignhdr", 64);
    raw.write_at(&NOBODY.to_ne_bytes(), offsets::CREATOR_UID as u64)
        .unwrap();
    match Segment::open(&name, deadline()) {
        Err(SegmentError::ForeignOwner { uid: NOBODY }) => {}
        other => panic!("expected ForeignOwner, got {other:?}"),
    }
    match Segment::open_with(&name, deadline(), &OpenOptions::new().any_owner(true)) {
        Err(SegmentError::Corrupt { detail }) => {
            assert!(detail.contains(&NOBODY.to_string()), "{detail}")
        }
        other => panic!("expected Corrupt (header uid vs owner), got {other:?}"),
    }
    drop(seg);
    assert_gone(&name);
}

/// The foreign-owner check on the object's owner: needs root to give it away.
#[test]
fn foreign_owner_is_refused() {
    const NOBODY: u32 = 65534;
    if raw::current_uid() != 0 {
        eprintln!("SKIP: foreign_owner_is_refused: only root can give a segment to another uid");
        return;
    }
    let (seg, name, raw) = published("foreign", 64);
    raw.set_owner(NOBODY).unwrap();
    raw.write_at(&NOBODY.to_ne_bytes(), offsets::CREATOR_UID as u64)
        .unwrap();
    match Segment::open(&name, deadline()) {
        Err(e @ SegmentError::ForeignOwner { uid: NOBODY }) => {
            println!("refused as expected: {e}")
        }
        other => panic!("expected ForeignOwner, got {other:?}"),
    }
    // Explicitly allowed: opens.
    let ok = Segment::open_with(&name, deadline(), &OpenOptions::new().any_owner(true)).unwrap();
    drop(ok);
    drop(seg);
    assert_gone(&name);
}

#[test]
fn attached_table_and_peer_gone_after_sigkill() {
    if let Some(role) = role() {
        assert_eq!(role, "attach");
        let name = child_setup();
        let seg = Segment::open(&name, deadline()).unwrap();
        assert!(seg.attached().contains(&seg.creator()));
        println!("ATTACHED");
        let _keep = seg;
        child_park();
    }
    let seg = Segment::create(&unique("peer"), 64).unwrap();
    seg.publish_ready();
    let name = seg.name().unwrap().to_string();
    assert!(seg.attached().is_empty());
    let mut kid = kid(
        "attached_table_and_peer_gone_after_sigkill",
        "attach",
        &name,
    );
    kid.expect_line("ATTACHED");
    let child = ProcessId::of(kid.pid()).unwrap();
    assert_eq!(seg.attached(), vec![child]);
    assert_eq!(seg.check_peers(), Ok(()));
    kid.kill();
    assert_eq!(
        seg.check_peers(),
        Err(WaitError::PeerGone { pid: child.pid })
    );
    // The dead child's slot still lists it (nobody released it); it is reclaimed when the
    // table runs full.
    assert_eq!(seg.attached(), vec![child]);
    drop(seg);
    assert_gone(&name);
}

#[test]
fn stale_cleanup_after_sigkilled_creator() {
    if let Some(role) = role() {
        assert_eq!(role, "create");
        let user = child_setup();
        let seg = Segment::create(&user, 64).unwrap();
        seg.publish_ready();
        println!("NAME={}", seg.name().unwrap());
        let _keep = seg;
        child_park();
    }
    let _serial = serial();
    let mut kid = kid(
        "stale_cleanup_after_sigkilled_creator",
        "create",
        &unique("stale"),
    );
    let name = kid.expect_line("NAME=");
    assert_eq!(
        handoff::implementor::parse_segment_name(&name).map(|(pid, _)| pid),
        Some(kid.pid())
    );
    assert!(exists(&name));
    // A live creator's segment is not stale.
    assert!(!handoff::shm::cleanup_stale().unwrap().contains(&name));
    assert!(exists(&name));
    kid.kill();
    let removed = handoff::shm::cleanup_stale().unwrap();
    if !removed.contains(&name) {
        // Only possible when another process ran cleanup_stale in between (e.g. a second
        // copy of this test binary): then it must be gone already.
        println!("note: {name} was removed by another process's cleanup_stale");
    }
    assert_gone(&name);
}

#[test]
fn survivor_unlinks_after_sigkilled_creator() {
    if let Some(role) = role() {
        assert_eq!(role, "create");
        let user = child_setup();
        let seg = Segment::create(&user, 64).unwrap();
        seg.get::<AtomicU64>(0)
            .unwrap()
            .store(VALUE_FROM_CHILD, Ordering::Relaxed);
        seg.publish_ready();
        println!("NAME={}", seg.name().unwrap());
        let _keep = seg;
        child_park();
    }
    let _serial = serial();
    let user = unique("surv");
    // We make a segment under the same short name: opening by short name is then ambiguous.
    let mine = Segment::create(&user, 64).unwrap();
    let mut kid = kid("survivor_unlinks_after_sigkilled_creator", "create", &user);
    let name = kid.expect_line("NAME=");
    match Segment::open(&user, deadline()) {
        Err(SegmentError::Ambiguous { candidates, .. }) => {
            assert!(
                candidates.contains(&name)
                    && candidates.iter().any(|c| Some(c.as_str()) == mine.name())
            )
        }
        other => panic!("expected Ambiguous, got {other:?}"),
    }
    let my_name = mine.name().unwrap().to_string();
    drop(mine);
    assert_gone(&my_name);
    let seg = Segment::open(&name, deadline()).unwrap();
    assert_eq!(seg.creator().pid, kid.pid());
    assert_eq!(
        seg.get::<AtomicU64>(0).unwrap().load(Ordering::Relaxed),
        VALUE_FROM_CHILD
    );
    kid.kill();
    assert_eq!(
        seg.check_peers(),
        Err(WaitError::PeerGone { pid: kid.pid() })
    );
    // The mapping outlives the creator.
    assert_eq!(
        seg.get::<AtomicU64>(0).unwrap().load(Ordering::Relaxed),
        VALUE_FROM_CHILD
    );
    if !exists(&name) {
        println!("note: {name} was removed by another process's cleanup_stale");
    }
    drop(seg);
    assert_gone(&name);
}

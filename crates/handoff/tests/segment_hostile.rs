//! What a hostile local user or a full machine can do to segments: a FIFO, a symlink or
//! another user's file planted at a name handoff uses, forged headers, a full `/dev/shm`,
//! and the stale leftovers `handoff cleanup` removes.
//!
//! Calls that used to hang run under [`within`], a watchdog that fails the test if the
//! call has not returned after [`WATCHDOG`] (never a timing assert: a correct call returns
//! in microseconds, a broken one never).
#![cfg(all(target_os = "linux", not(loom)))]

mod raw;

use handoff::shm::{OpenOptions, Segment, SegmentError, DEFAULT_SLOTS};
use handoff::sys::Deadline;
use handoff_probe::posix_sem::NamedSemaphore;
use handoff_testkit::Kid;
use raw::{offsets, RawShm};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Tests that run `cleanup_all_stale` take turns: one's cleanup would otherwise remove the
/// dead-pid objects another is about to check it removes.
static CLEANUP: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn cleanup_turn() -> std::sync::MutexGuard<'static, ()> {
    CLEANUP.lock().unwrap_or_else(|p| p.into_inner())
}

const WATCHDOG: Duration = Duration::from_secs(10);
const ROLE_ENV: &str = "HANDOFF_HOSTILE_TEST_ROLE";
const NOBODY: u32 = 65534;

fn unique(tag: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!("h-{tag}-{}", N.fetch_add(1, Ordering::Relaxed))
}

fn full(user: &str) -> String {
    format!("/handoff-{}-{user}", std::process::id())
}

/// Runs `f` on a thread and fails the test if it has not returned within [`WATCHDOG`].
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    handoff_testkit::within(what, WATCHDOG, f)
}

fn mkfifo(name: &str) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        raw::path_of(name).as_str(),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_bits_truncate(0o600),
        0,
    )
    .unwrap();
}

fn remove(name: &str) {
    std::fs::remove_file(raw::path_of(name)).unwrap();
}

fn expect_not_regular(r: Result<impl std::fmt::Debug, SegmentError>, kind: &str, what: &str) {
    match r {
        Err(e @ SegmentError::NotRegular { .. }) => {
            let msg = e.to_string();
            assert!(
                msg.contains(kind) && msg.contains("rm /dev/shm/"),
                "{what}: {msg}"
            );
        }
        other => panic!("{what}: expected NotRegular ({kind}), got {other:?}"),
    }
}

#[test]
fn fifo_at_a_segment_name_is_refused_without_hanging() {
    let _turn = cleanup_turn();
    let user = unique("fifo");
    let name = full(&user);
    mkfifo(&name);
    let n = name.clone();
    within("Segment::create over a FIFO", move || {
        // A chosen full name is used as given: the FIFO there is refused, never opened.
        expect_not_regular(Segment::create(&n, 64), "FIFO", "create")
    });
    let n2 = name.clone();
    within("Segment::open of a FIFO", move || {
        expect_not_regular(
            Segment::open(&n2, Deadline::after(WATCHDOG)),
            "FIFO",
            "open",
        )
    });
    // (The platform layer's own refusal is a unit test: `sys::mem::tests`.)
    // cleanup neither hangs nor removes what is not a segment.
    let removed = within(
        "cleanup_all_stale with a FIFO",
        handoff_probe::cleanup::cleanup_all_stale,
    )
    .unwrap();
    assert!(!removed.segments.contains(&name), "{removed:?}");
    assert!(std::path::Path::new(&raw::path_of(&name)).exists());
    remove(&name);
}

#[test]
fn fifo_planted_after_creation_does_not_hang_drop() {
    let seg = Segment::create(&unique("dropfifo"), 64).unwrap();
    seg.publish_ready();
    let name = seg.name().unwrap().to_string();
    raw::unlink(&name).unwrap();
    mkfifo(&name);
    within("Segment drop with a FIFO at its name", move || drop(seg));
    // Not ours: left in place.
    assert!(std::path::Path::new(&raw::path_of(&name)).exists());
    remove(&name);
}

#[test]
fn fifo_of_a_dead_pid_does_not_hang_cleanup() {
    let _turn = cleanup_turn();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let name = format!("/handoff-{dead}-{}", unique("deadfifo"));
    mkfifo(&name);
    let removed = within("cleanup_all_stale with a dead pid's FIFO", || {
        handoff_probe::cleanup::cleanup_all_stale()
    })
    .unwrap();
    assert!(!removed.segments.contains(&name));
    remove(&name);
}

#[test]
fn symlink_is_never_followed() {
    let target = Segment::create(&unique("target"), 64).unwrap();
    target
        .get::<AtomicU32>(0)
        .unwrap()
        .store(7, Ordering::Relaxed);
    target.publish_ready();
    let link_user = unique("link");
    let link = full(&link_user);
    std::os::unix::fs::symlink(raw::path_of(target.name().unwrap()), raw::path_of(&link)).unwrap();
    let l = link.clone();
    within("Segment::open of a symlink", move || {
        expect_not_regular(
            Segment::open(&l, Deadline::after(WATCHDOG)),
            "symbolic link",
            "open",
        )
    });
    expect_not_regular(Segment::create(&link, 64), "symbolic link", "create");
    remove(&link);
    drop(target);
}

/// A published segment and a raw handle on its object.
fn published(tag: &str) -> (Segment, String, RawShm) {
    let seg = Segment::create(&unique(tag), 64).unwrap();
    seg.publish_ready();
    let name = seg.name().unwrap().to_string();
    let raw = RawShm::open(&name).unwrap();
    (seg, name, raw)
}

#[test]
fn header_naming_another_creator_pid_is_refused() {
    let (seg, name, raw) = published("forged");
    let other = std::process::id() + 1;
    raw.write_at(&other.to_ne_bytes(), offsets::CREATOR as u64)
        .unwrap();
    match Segment::open(&name, Deadline::after(WATCHDOG)) {
        Err(SegmentError::CreatorMismatch {
            name_pid,
            header_pid,
            ..
        }) => assert_eq!((name_pid, header_pid), (std::process::id(), other)),
        other => panic!("expected CreatorMismatch, got {other:?}"),
    }
    drop(seg);
}

#[test]
fn wrong_slot_count_is_reported_as_such() {
    // The default table (64 slots, 72 + 64 * 16 bytes) sits in the first page; a count
    // that would run past the header area into the payload (or beyond the object), or 0,
    // is corruption, never read.
    let page = handoff::sys::page_size() as u64;
    let room = (page - offsets::SLOTS as u64) / 16;
    for bad in [0, room as u32 + 1, u32::MAX] {
        let (seg, name, raw) = published("slots");
        raw.write_at(&bad.to_ne_bytes(), offsets::SLOT_COUNT as u64)
            .unwrap();
        match Segment::open(&name, Deadline::after(WATCHDOG)) {
            Err(e @ SegmentError::SlotCountMismatch { .. }) => {
                assert!(
                    matches!(e, SegmentError::SlotCountMismatch { found, room: r } if found == bad && r == room),
                    "{e}"
                );
                let msg = e.to_string();
                assert!(
                    msg.contains(&format!("claims {bad} attached-process slots"))
                        && msg.contains(&format!("holds 1 to {room}"))
                        && msg.contains("corrupt"),
                    "{msg}"
                );
            }
            other => panic!("expected SlotCountMismatch for {bad}, got {other:?}"),
        }
        drop(seg);
    }
    // A smaller count than the creator's is consistent (the rest of the area is unused).
    let (seg, name, raw) = published("slots-small");
    raw.write_at(&2u32.to_ne_bytes(), offsets::SLOT_COUNT as u64)
        .unwrap();
    let opened = Segment::open(&name, Deadline::after(WATCHDOG)).unwrap();
    assert_eq!(opened.slot_count(), 2);
    assert_eq!(seg.slot_count(), DEFAULT_SLOTS);
}

#[test]
fn name_squatted_by_another_user_says_who_and_what_to_do() {
    if raw::current_uid() != 0 {
        eprintln!("SKIP: name_squatted_by_another_user_says_who_and_what_to_do: needs root to make another user's file");
        return;
    }
    let user = unique("squat");
    let name = full(&user);
    let f = RawShm::create(&name, 64, 0o600).unwrap();
    f.set_owner(NOBODY).unwrap();
    // A chosen full name is used as given (a generated one would avoid the squat).
    match Segment::create(&name, 64) {
        Err(e @ SegmentError::Squatted { uid: NOBODY, .. }) => {
            let msg = e.to_string();
            assert!(
                msg.contains("65534") && msg.contains("cannot remove"),
                "{msg}"
            );
        }
        other => panic!("expected Squatted, got {other:?}"),
    }
    raw::unlink(&name).unwrap();
}

#[test]
fn open_can_wait_for_the_creation() {
    let user = unique("late");
    let name = full(&user);
    // Without the option: NotFound at once.
    assert!(matches!(
        Segment::open(&name, Deadline::after(WATCHDOG)),
        Err(SegmentError::NotFound { .. })
    ));
    // With it, until the deadline: a timeout that names the segment.
    let opts = OpenOptions::new().wait_for_creation(true);
    match Segment::open_with(&name, Deadline::after(Duration::from_millis(20)), &opts) {
        Err(e @ SegmentError::OpenTimedOut { .. }) => {
            let msg = e.to_string();
            assert!(
                msg.contains(&name) && msg.contains("not yet created"),
                "{msg}"
            );
        }
        other => panic!("expected OpenTimedOut, got {other:?}"),
    }
    // A creator that comes later (after the opener started waiting) is found.
    // By the short name: the creator's full name has a random part nobody knows yet.
    let short = user.clone();
    let (tx, rx) = mpsc::channel::<()>();
    let creator = std::thread::spawn(move || {
        rx.recv().unwrap();
        let seg = Segment::create(&user, 64).unwrap();
        seg.get::<AtomicU32>(0)
            .unwrap()
            .store(99, Ordering::Relaxed);
        seg.publish_ready();
        seg
    });
    let opener =
        std::thread::spawn(move || Segment::open_with(&short, Deadline::after(WATCHDOG), &opts));
    std::thread::sleep(Duration::from_millis(5));
    tx.send(()).unwrap();
    let opened = opener.join().unwrap().unwrap();
    assert_eq!(
        opened.get::<AtomicU32>(0).unwrap().load(Ordering::Relaxed),
        99
    );
    drop(opened);
    drop(creator.join().unwrap());
}

#[test]
fn cleanup_removes_dead_processes_segments_and_semaphores() {
    let _turn = cleanup_turn();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let seg_name = format!("/handoff-{dead}-{}", unique("deadseg"));
    let sem_name = format!("/handoff-{dead}-{}", unique("deadsem"));
    drop(RawShm::create(&seg_name, 64, 0o600).unwrap());
    drop(NamedSemaphore::create(&sem_name, 0).unwrap());
    let live_sem = full(&unique("livesem"));
    let _live = NamedSemaphore::create(&live_sem, 0).unwrap();
    let removed = handoff_probe::cleanup::cleanup_all_stale().unwrap();
    assert!(removed.segments.contains(&seg_name), "{removed:?}");
    assert!(removed.semaphores.contains(&sem_name), "{removed:?}");
    assert!(!removed.semaphores.contains(&live_sem), "{removed:?}");
    assert!(!std::path::Path::new(&raw::path_of(&seg_name)).exists());
    assert!(NamedSemaphore::open(&sem_name).is_err());
    NamedSemaphore::unlink(&live_sem).unwrap();
}

/// In a private mount namespace with a 16 MiB tmpfs on /dev/shm, a 64 MiB segment is a
/// clear NoSpace error at creation (no SIGBUS), and a segment that fits is usable to its
/// last byte.
#[test]
fn full_dev_shm_is_no_space_at_creation() {
    if std::env::var(ROLE_ENV).as_deref() == Ok("small-tmpfs") {
        small_tmpfs_child();
        return;
    }
    if raw::current_uid() != 0 {
        eprintln!("SKIP: full_dev_shm_is_no_space_at_creation: needs root for a private mount namespace with a small tmpfs");
        return;
    }
    let mut kid = Kid::spawn(
        "full_dev_shm_is_no_space_at_creation",
        ROLE_ENV,
        "small-tmpfs",
        &[],
        Duration::from_secs(20),
    );
    let verdict = kid.expect_line("VERDICT=");
    assert_eq!(verdict, "ok");
    kid.wait_success();
}

fn small_tmpfs_child() {
    // SAFETY: unshare(CLONE_NEWNS) only gives this thread a private copy of the mount
    // table; it touches no memory of ours.
    let r = unsafe { libc::unshare(libc::CLONE_NEWNS) };
    assert_eq!(r, 0, "unshare: {}", std::io::Error::last_os_error());
    let c = |s: &str| std::ffi::CString::new(s).unwrap();
    let (none, root, shm, tmpfs, opts) =
        (c("none"), c("/"), c("/dev/shm"), c("tmpfs"), c("size=16m"));
    // SAFETY: valid NUL-terminated strings that outlive the calls; making every mount
    // private first keeps the tmpfs below from propagating to the parent namespace.
    unsafe {
        let r = libc::mount(
            none.as_ptr(),
            root.as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        );
        assert_eq!(
            r,
            0,
            "mount --make-rprivate /: {}",
            std::io::Error::last_os_error()
        );
        let r = libc::mount(
            tmpfs.as_ptr(),
            shm.as_ptr(),
            tmpfs.as_ptr(),
            0,
            opts.as_ptr().cast(),
        );
        assert_eq!(r, 0, "mount tmpfs: {}", std::io::Error::last_os_error());
    }
    match Segment::create("big", 64 << 20) {
        Err(e @ SegmentError::NoSpace { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("handoff cleanup"), "{msg}");
            if let SegmentError::NoSpace {
                needed, available, ..
            } = e
            {
                assert!(
                    needed > 64 << 20 && available <= 16 << 20,
                    "{needed} {available}"
                );
            }
        }
        other => panic!("expected NoSpace, got {other:?}"),
    }
    assert!(
        handoff::shm::list_segments().unwrap().is_empty(),
        "the failed create left its object"
    );
    // One that fits is reserved and usable to its last byte (a SIGBUS would kill us).
    let len = 8 << 20;
    let seg = Segment::create("fits", len).unwrap();
    let bytes = seg.slice::<AtomicU32>(0, len / 4).unwrap();
    for w in bytes.iter().step_by(1024) {
        w.store(1, Ordering::Relaxed);
    }
    bytes[len / 4 - 1].store(1, Ordering::Relaxed);
    // A second one no longer fits.
    assert!(matches!(
        Segment::create("second", len),
        Err(SegmentError::NoSpace { .. })
    ));
    drop(seg);
    println!("VERDICT=ok");
}

//! Names another user cannot squat or confuse (issue #24, item 6): every name the library
//! makes has a random part (so planting objects at the names of the next pids denies
//! nothing), a full name the caller chooses is used as given (a taken one is a clear
//! error), and a short-name lookup considers only the caller's own segments unless asked.
//!
//! The planted objects are FIFOs (any user can make them) and, when the test runs as root,
//! regular files handed to another uid with `fchown` (else those parts print `SKIP:`).
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::shm::{list_segments, OpenOptions, Segment, SegmentError};
mod raw;
use handoff::sys::Deadline;
use handoff_testkit::{run_team, team_launch, Kid};
use raw::RawShm;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

const ROLE_ENV: &str = "HANDOFF_NAMES_TEST_ROLE";
const NAME_ENV: &str = "HANDOFF_NAMES_TEST_NAME";
const WATCHDOG: Duration = Duration::from_secs(60);
const NOBODY: u32 = 65534;

fn unique(tag: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "n-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
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

/// Objects planted at names, removed on drop (even when the test fails).
struct Planted(Vec<String>);

impl Drop for Planted {
    fn drop(&mut self) {
        for n in &self.0 {
            let _ = std::fs::remove_file(raw::path_of(n));
        }
    }
}

/// A regular object of another user at `name` (root only).
fn plant_foreign_file(name: &str) {
    let f = RawShm::create(name, 4096, 0o600).unwrap();
    f.set_owner(NOBODY).unwrap();
}

fn is_root() -> bool {
    raw::current_uid() == 0
}

/// The hostile trial: objects planted at every team name this process's launches would
/// have used (`/handoff-<pid>-team<k>`) made every launch fail. The launch now succeeds,
/// under a name that is none of them.
#[test]
fn planted_team_names_do_not_deny_a_launch() {
    if handoff::team::in_team() {
        let team = handoff::team::Team::from_env().unwrap();
        team.barrier_all().unwrap();
        team.finalize().unwrap();
        std::process::exit(0);
    }
    let me = std::process::id();
    let mut planted = Planted(Vec::new());
    for k in 0..64 {
        let name = format!("/handoff-{me}-team{k}");
        if k % 2 == 1 && is_root() {
            plant_foreign_file(&name);
        } else {
            mkfifo(&name);
        }
        planted.0.push(name);
    }
    let report = run_team(
        team_launch("planted_team_names_do_not_deny_a_launch", 2),
        WATCHDOG,
    );
    assert!(report.success(), "a PE failed: {:?}", report.exits);
    // Every planted object is still there, untouched.
    for n in &planted.0 {
        assert!(
            std::fs::symlink_metadata(raw::path_of(n)).is_ok(),
            "{n} was removed"
        );
    }
}

/// Generated names differ on every creation and carry the user part; a planted object at
/// the old predictable name does not stop creation.
#[test]
fn generated_names_are_fresh_and_unsquattable() {
    let user = unique("fresh");
    let predictable = format!("/handoff-{}-{user}", std::process::id());
    mkfifo(&predictable);
    let _planted = Planted(vec![predictable.clone()]);
    let a = Segment::create(&user, 64).unwrap();
    let b = Segment::create(&user, 64).unwrap();
    let (na, nb) = (a.name().unwrap(), b.name().unwrap());
    assert_ne!(na, nb);
    assert_ne!(na, predictable);
    for n in [na, nb] {
        assert!(n.starts_with(&format!("{predictable}~")), "{n}");
        let (pid, short) = handoff::implementor::parse_segment_name(n).unwrap();
        assert_eq!((pid, short), (std::process::id(), user.as_str()));
    }
    // Two live segments of ours under one short name: a lookup by it is ambiguous.
    a.publish_ready();
    b.publish_ready();
    assert!(matches!(
        Segment::open(&user, Deadline::after(WATCHDOG)),
        Err(SegmentError::Ambiguous { .. })
    ));
}

/// A full name the caller chooses is used exactly; a taken one is an error that says what
/// took it (never a silent second name).
#[test]
fn explicit_full_names_are_used_as_given() {
    let name = format!("/handoff-{}-{}", std::process::id(), unique("explicit"));
    let seg = Segment::create(&name, 64).unwrap();
    assert_eq!(seg.name(), Some(name.as_str()));
    match Segment::create(&name, 64) {
        Err(SegmentError::AlreadyExists { name: n }) => assert_eq!(n, name),
        other => panic!("expected AlreadyExists, got {other:?}"),
    }
    drop(seg);
    let fifo = format!("/handoff-{}-{}", std::process::id(), unique("explicitfifo"));
    mkfifo(&fifo);
    let _planted = Planted(vec![fifo.clone()]);
    assert!(matches!(
        Segment::create(&fifo, 64),
        Err(SegmentError::NotRegular { .. })
    ));
    // Another process's pid in a chosen name is refused (the pid traces stale objects).
    let other = format!("/handoff-{}-x", std::process::id() + 1);
    assert!(matches!(
        Segment::create(&other, 64),
        Err(SegmentError::InvalidName { .. })
    ));
}

/// Another user's live segment of the same short name neither takes the lookup nor makes it
/// ambiguous; `any_owner` considers it again. The segment to find is made by another
/// process (a child), the foreign one is planted with the child's pid.
#[test]
fn short_name_lookup_considers_only_our_own_segments() {
    if std::env::var(ROLE_ENV).as_deref() == Ok("creator") {
        let short = std::env::var(NAME_ENV).unwrap();
        let seg = Segment::create(&short, 64).unwrap();
        seg.get::<AtomicU32>(0)
            .unwrap()
            .store(42, Ordering::Relaxed);
        seg.publish_ready();
        println!("created {}", seg.name().unwrap());
        std::thread::sleep(WATCHDOG);
        return;
    }
    if !is_root() {
        eprintln!(
            "SKIP: short_name_lookup_considers_only_our_own_segments: needs root to plant \
             another user's segment"
        );
        return;
    }
    let short = unique("short");
    // Another user's object under the short name, alone: not found (it used to be opened
    // and refused as ForeignOwner).
    let lone = format!("/handoff-{}-{short}", std::process::id());
    plant_foreign_file(&lone);
    let mut planted = Planted(vec![lone.clone()]);
    assert!(
        matches!(
            Segment::open(&short, Deadline::after(WATCHDOG)),
            Err(SegmentError::NotFound { .. })
        ),
        "another user's segment alone must not be found by a short name"
    );
    let mut kid = Kid::spawn(
        "short_name_lookup_considers_only_our_own_segments",
        ROLE_ENV,
        "creator",
        &[(NAME_ENV, short.clone())],
        WATCHDOG,
    );
    let theirs = kid.expect_line("created ");
    let foreign = format!("/handoff-{}-{short}~fedcba9876543210", kid.pid());
    let foreign_plain = format!("/handoff-{}-{short}", kid.pid());
    plant_foreign_file(&foreign_plain);
    planted.0.push(foreign_plain.clone());
    plant_foreign_file(&foreign);
    planted.0.push(foreign.clone());
    let seg = Segment::open(&short, Deadline::after(WATCHDOG)).unwrap();
    assert_eq!(seg.name(), Some(theirs.as_str()));
    assert_eq!(seg.get::<AtomicU32>(0).unwrap().load(Ordering::Relaxed), 42);
    drop(seg);
    // Asked to, the lookup considers every owner: now four candidates.
    let any = OpenOptions::new().any_owner(true);
    match Segment::open_with(&short, Deadline::after(WATCHDOG), &any) {
        Err(SegmentError::Ambiguous { candidates, .. }) => {
            assert!(
                candidates.contains(&foreign) && candidates.len() == 4,
                "{candidates:?}"
            )
        }
        other => panic!("expected Ambiguous among 4 with any_owner, got {other:?}"),
    }
    kid.kill();
    // The killed child's segment is ours to remove.
    raw::unlink(&theirs).unwrap();
    drop(planted);
    assert!(!list_segments()
        .unwrap()
        .iter()
        .any(|n| [&lone, &foreign, &foreign_plain, &theirs].contains(&n)));
}

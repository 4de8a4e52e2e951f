//! A stranger rewriting a live channel's ring counters (issue #24, item 7): the hostile
//! trial added 17,154 to the `published` counter and the consumer received 17,154 blocks
//! that were never published. Three processes: a producer (child), a stranger (child) that
//! maps the segment and moves a counter, and the consumer or producer under test (this
//! process). The moved counter must be an error naming the channel, never a block.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::channel::{Channel, ChannelConfig, ChannelError};
use handoff::shm::{OpenOptions, Segment};
use handoff::sync::{Patience, Wait};
use handoff::sys::Deadline;
use handoff_testkit::Kid;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

const ROLE_ENV: &str = "HANDOFF_CORRUPT_TEST_ROLE";
const NAME_ENV: &str = "HANDOFF_CORRUPT_TEST_NAME";
const MOVE_ENV: &str = "HANDOFF_CORRUPT_TEST_MOVE";
const WATCHDOG: Duration = Duration::from_secs(60);
const BLOCKS: usize = 4;
const PUBLISHED: u64 = 3;

/// Payload offsets of the ring counters: the channel header is 128-byte aligned and its
/// `Ring` (two 128-byte `Signal`s) follows the 52 bytes of magic, geometry and roles. The
/// stranger checks the value it finds there before moving it.
const PUBLISHED_AT: usize = 128;
const RELEASED_AT: usize = 256;

fn cfg() -> ChannelConfig {
    ChannelConfig::new(64, BLOCKS)
}

const LIMIT: Duration = Duration::from_secs(20);

/// The child roles; `None` in the test process itself.
fn child_role() -> Option<String> {
    let role = std::env::var(ROLE_ENV).ok()?;
    match role.as_str() {
        "producer" => {
            let ch = Channel::create("corrupt", cfg()).unwrap();
            let mut tx = ch.producer().unwrap();
            tx.set_patience(Patience::new(Wait::Block));
            for seq in 0..PUBLISHED {
                let mut loan = tx.loan_timeout(LIMIT).unwrap();
                loan.as_mut_slice::<u64>()[0] = seq;
                loan.publish();
            }
            println!("name {}", ch.name().unwrap());
            match std::env::var(MOVE_ENV).as_deref() {
                // Close once a stranger lowered `published` (issue #40: the consumer lost
                // the last block in silence, as if the producer had closed normally).
                Ok("published-1") => {
                    let name = ch.name().unwrap();
                    let word = observe(name, PUBLISHED_AT);
                    while word.load(Ordering::Acquire) == PUBLISHED {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    drop(tx);
                    println!("closed");
                }
                // Loan again once a stranger moved `released`: the producer finds it corrupt
                // and closes; the consumer must hear that as an error, not a close.
                Ok("released+4") => {
                    let name = ch.name().unwrap();
                    let word = observe(name, RELEASED_AT);
                    while word.load(Ordering::Acquire) == 0 {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    let e = tx.loan_timeout(LIMIT).unwrap_err();
                    assert!(matches!(e, ChannelError::Corrupt { .. }), "{e}");
                    drop(tx);
                    println!("producer saw corrupt");
                }
                // Stay alive (attached) until the test kills us.
                _ => std::thread::sleep(WATCHDOG),
            }
        }
        "stranger" => {
            let name = std::env::var(NAME_ENV).unwrap();
            let (at, expect, by): (usize, u64, u64) =
                match std::env::var(MOVE_ENV).unwrap().as_str() {
                    "published+17154" => (PUBLISHED_AT, PUBLISHED, 17_154),
                    "published+1" => (PUBLISHED_AT, PUBLISHED, 1),
                    "published+2" => (PUBLISHED_AT, PUBLISHED, 2),
                    "published-1" => (PUBLISHED_AT, PUBLISHED, u64::MAX),
                    "released+2" => (RELEASED_AT, 0, 2),
                    "released+4" => (RELEASED_AT, 0, 4),
                    other => panic!("unknown move {other}"),
                };
            let word = observe(&name, at);
            assert_eq!(word.load(Ordering::Acquire), expect, "counter layout moved");
            word.fetch_add(by, Ordering::AcqRel);
            println!("moved");
        }
        other => panic!("unknown role {other}"),
    }
    Some(role)
}

/// The counter at payload offset `at` of segment `name`, mapped as an observer (the
/// mapping is leaked: the child process ends soon).
fn observe(name: &str, at: usize) -> &'static AtomicU64 {
    let seg = Segment::open_with(
        name,
        Deadline::after(WATCHDOG),
        &OpenOptions::new().observer(true),
    )
    .unwrap();
    let seg: &'static Segment = Box::leak(Box::new(seg));
    seg.get::<AtomicU64>(at).unwrap()
}

fn stranger(name: &str, how: &str) {
    let mut kid = Kid::spawn(
        "a_moved_published_counter_is_an_error_never_data",
        ROLE_ENV,
        "stranger",
        &[(NAME_ENV, name.to_string()), (MOVE_ENV, how.to_string())],
        WATCHDOG,
    );
    kid.expect_line("moved");
    kid.wait_success();
}

#[test]
fn a_moved_published_counter_is_an_error_never_data() {
    if child_role().is_some() {
        return;
    }
    let mut producer = Kid::spawn(
        "a_moved_published_counter_is_an_error_never_data",
        ROLE_ENV,
        "producer",
        &[],
        WATCHDOG,
    );
    let name = producer.expect_line("name ");
    let ch = Channel::open(&name, cfg(), Deadline::after(WATCHDOG)).unwrap();
    let mut rx = ch.consumer().unwrap();
    rx.set_patience(Patience::new(Wait::Block));
    {
        let first = rx.recv_timeout(LIMIT).unwrap();
        assert_eq!(first.as_slice::<u64>()[0], 0);
    }
    stranger(&name, "published+17154");
    // Every later receive (blocking or polling) is the error; never one of the 17,154
    // blocks that were not published.
    for attempt in 0..3 {
        let got = if attempt == 0 {
            rx.recv_timeout(LIMIT).map(|b| b.seq())
        } else {
            match rx.try_recv() {
                Err(ChannelError::Timeout { .. }) => Ok(u64::MAX),
                got => got.map(|b| b.seq()),
            }
        };
        match got {
            Err(e @ ChannelError::Corrupt { .. }) => {
                let msg = e.to_string();
                assert!(
                    msg.contains(&name) && msg.contains("published") && msg.contains("17157"),
                    "{msg}"
                );
            }
            other => panic!("attempt {attempt}: expected Corrupt, got {other:?}"),
        }
    }
    assert_eq!(rx.received(), 1, "nothing was handed out after the move");
    producer.kill();
}

/// The producer's side: a consumer count moved past what was published would let the
/// producer overwrite blocks nobody read; it is an error instead.
#[test]
fn a_moved_released_counter_is_an_error_for_the_producer() {
    if std::env::var(ROLE_ENV).is_ok() {
        return;
    }
    let ch = Channel::create("corrupt-rel", cfg()).unwrap();
    let name = ch.name().unwrap().to_string();
    let mut tx = ch.producer().unwrap();
    tx.set_patience(Patience::new(Wait::Block));
    tx.loan_timeout(LIMIT).unwrap().publish();
    stranger(&name, "released+2");
    match tx.loan_timeout(LIMIT) {
        Err(e @ ChannelError::Corrupt { .. }) => {
            assert!(e.to_string().contains("released"), "{e}")
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
}

/// A producer child that published `PUBLISHED` blocks (block `s` holds `s`) and then acts
/// on the move `how` (see `child_role`).
fn producer_kid(how: &str) -> (Kid, String) {
    let mut kid = Kid::spawn(
        "a_moved_published_counter_is_an_error_never_data",
        ROLE_ENV,
        "producer",
        &[(MOVE_ENV, how.to_string())],
        WATCHDOG,
    );
    let name = kid.expect_line("name ");
    (kid, name)
}

/// Issue #40: `published` moved by +1 or +2 stays inside the window the counters alone
/// allow (`tail..=tail + blocks`), so the consumer used to receive 1-2 blocks that were
/// never published, with no error. Every receive after the move is now a block the
/// producer published (with its contents) or `Corrupt`; never a block past the last one.
#[test]
fn published_moved_inside_the_window_never_hands_out_an_unpublished_block() {
    if std::env::var(ROLE_ENV).is_ok() {
        return;
    }
    for how in ["published+1", "published+2"] {
        let (mut producer, name) = producer_kid("");
        let ch = Channel::open(&name, cfg(), Deadline::after(WATCHDOG)).unwrap();
        let mut rx = ch.consumer().unwrap();
        rx.set_patience(Patience::new(Wait::Block));
        {
            let first = rx.recv_timeout(LIMIT).unwrap();
            assert_eq!(first.as_slice::<u64>()[0], 0);
        }
        stranger(&name, how);
        let mut corrupt = None;
        for _ in 0..BLOCKS + 2 {
            match rx.recv_timeout(LIMIT) {
                Ok(b) => {
                    let seq = b.seq();
                    assert!(
                        seq < PUBLISHED,
                        "{how}: received block {seq}, which was never published"
                    );
                    assert_eq!(b.as_slice::<u64>()[0], seq, "{how}: block {seq}'s contents");
                }
                Err(e @ ChannelError::Corrupt { .. }) => {
                    corrupt = Some(e.to_string());
                    break;
                }
                Err(e) => panic!("{how}: expected a published block or Corrupt, got {e}"),
            }
        }
        let msg = corrupt.unwrap_or_else(|| panic!("{how}: no error"));
        assert!(msg.contains(&name) && msg.contains("published"), "{msg}");
        producer.kill();
    }
}

/// Issue #40: `published - 1` made the consumer lose the producer's last block in silence
/// (it drained one block short, then saw a normal close). At the close the producer's own
/// count says a block is missing: `Corrupt`, not `Closed`.
#[test]
fn a_lowered_published_counter_is_an_error_at_close_not_a_lost_block() {
    if std::env::var(ROLE_ENV).is_ok() {
        return;
    }
    let (mut producer, name) = producer_kid("published-1");
    let ch = Channel::open(&name, cfg(), Deadline::after(WATCHDOG)).unwrap();
    let mut rx = ch.consumer().unwrap();
    rx.set_patience(Patience::new(Wait::Block));
    stranger(&name, "published-1");
    producer.expect_line("closed");
    producer.wait_success();
    let mut got = Vec::new();
    let end = loop {
        match rx.recv_timeout(LIMIT) {
            Ok(b) => got.push(b.as_slice::<u64>()[0]),
            Err(e) => break e,
        }
    };
    assert!(
        matches!(end, ChannelError::Corrupt { .. }),
        "after blocks {got:?}: expected Corrupt, got {end}"
    );
    assert!(got.len() < PUBLISHED as usize, "{got:?}");
}

/// Issue #40: corruption the producer found (a `released` count past what it published)
/// (4 released of 3 published) reached the consumer as a normal close. The producer's close carries it: the consumer's
/// next receive is `Corrupt`, naming the counter the producer found wrong.
#[test]
fn corruption_the_producer_found_reaches_the_consumer_as_an_error() {
    if std::env::var(ROLE_ENV).is_ok() {
        return;
    }
    let (mut producer, name) = producer_kid("released+4");
    let ch = Channel::open(&name, cfg(), Deadline::after(WATCHDOG)).unwrap();
    let mut rx = ch.consumer().unwrap();
    rx.set_patience(Patience::new(Wait::Block));
    stranger(&name, "released+4");
    producer.expect_line("producer saw corrupt");
    producer.wait_success();
    let mut got = Vec::new();
    let end = loop {
        match rx.recv_timeout(LIMIT) {
            Ok(b) => got.push(b.as_slice::<u64>()[0]),
            Err(e) => break e,
        }
    };
    match end {
        ChannelError::Corrupt {
            counter: "released",
            found: 4,
            ..
        } => {}
        other => panic!("after blocks {got:?}: expected Corrupt (released 4), got {other}"),
    }
}

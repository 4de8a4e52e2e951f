//! A stranger rewriting a live channel's ring counters (issue #24, item 7): the hostile
//! trial added 17,154 to the `published` counter and the consumer received 17,154 blocks
//! that were never published. Three processes: a producer (child), a stranger (child) that
//! maps the segment and moves a counter, and the consumer or producer under test (this
//! process). The moved counter must be an error naming the channel, never a block.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::channel::{Channel, ChannelConfig, ChannelError};
use handoff::shm::{OpenOptions, Segment};
use handoff::sync::Wait;
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

fn limit() -> Option<Deadline> {
    Some(Deadline::after(Duration::from_secs(20)))
}

/// The child roles; `None` in the test process itself.
fn child_role() -> Option<String> {
    let role = std::env::var(ROLE_ENV).ok()?;
    match role.as_str() {
        "producer" => {
            let ch = Channel::create("corrupt", cfg()).unwrap();
            let mut tx = ch.producer().unwrap();
            for seq in 0..PUBLISHED {
                let mut loan = tx.loan(Wait::Block, limit()).unwrap();
                loan.as_mut_slice::<u64>()[0] = seq;
                loan.publish();
            }
            println!("name {}", ch.name().unwrap());
            // Stay alive (attached) until the test kills us.
            std::thread::sleep(WATCHDOG);
        }
        "stranger" => {
            let name = std::env::var(NAME_ENV).unwrap();
            let (at, expect, by): (usize, u64, u64) =
                match std::env::var(MOVE_ENV).unwrap().as_str() {
                    "published+17154" => (PUBLISHED_AT, PUBLISHED, 17_154),
                    "released+2" => (RELEASED_AT, 0, 2),
                    other => panic!("unknown move {other}"),
                };
            let seg = Segment::open_with(
                &name,
                Deadline::after(WATCHDOG),
                &OpenOptions::new().observer(true),
            )
            .unwrap();
            let word = seg.get::<AtomicU64>(at).unwrap();
            assert_eq!(word.load(Ordering::Acquire), expect, "counter layout moved");
            word.fetch_add(by, Ordering::AcqRel);
            println!("moved");
        }
        other => panic!("unknown role {other}"),
    }
    Some(role)
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
    {
        let first = rx.recv(Wait::Block, limit()).unwrap();
        assert_eq!(first.as_slice::<u64>()[0], 0);
    }
    stranger(&name, "published+17154");
    // Every later receive (blocking or polling) is the error; never one of the 17,154
    // blocks that were not published.
    for attempt in 0..3 {
        let got = if attempt == 0 {
            rx.recv(Wait::Block, limit()).map(|b| b.seq())
        } else {
            rx.try_recv().map(|b| b.map_or(u64::MAX, |b| b.seq()))
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
    tx.loan(Wait::Block, limit()).unwrap().publish();
    stranger(&name, "released+2");
    match tx.loan(Wait::Block, limit()) {
        Err(e @ ChannelError::Corrupt { .. }) => {
            assert!(e.to_string().contains("released"), "{e}")
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
}

//! Channels between real processes: a million blocks with sequence numbers and checksums
//! (none lost, duplicated or torn), and each side killed mid-stream.
//!
//! The child is this test binary re-executed (`--exact <test>` with [`ROLE_ENV`] set), guarded
//! and watched (see `handoff_testkit::Kid`); every wait has a deadline. No test asserts on timing.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::channel::{Channel, ChannelConfig, ChannelError, Role};
use handoff::sync::{Patience, Wait};
use handoff::sys::Deadline;
use handoff_testkit::{within, Kid};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const ROLE_ENV: &str = "HANDOFF_CHANNEL_TEST_ROLE";
const NAME_ENV: &str = "HANDOFF_CHANNEL_TEST_NAME";
const COUNT_ENV: &str = "HANDOFF_CHANNEL_TEST_COUNT";
const WATCHDOG: Duration = Duration::from_secs(60);
const WAIT_LIMIT: Duration = Duration::from_secs(30);
/// 64-byte blocks: 7 pattern words and a checksum word, so a torn block shows.
const BLOCK: usize = 64;
const WORDS: usize = BLOCK / 8;
const MILLION: u64 = 1_000_000;

/// One cross-process test at a time (two spinning pairs on 2 CPUs only measure each other).
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

fn cfg() -> ChannelConfig {
    ChannelConfig::new(BLOCK, 4)
}

fn role() -> Option<String> {
    std::env::var(ROLE_ENV).ok()
}

fn env(key: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| panic!("child needs {key}"))
}

/// Word `w` of block `seq`: distinct per block and word.
fn pattern(seq: u64, w: usize) -> u64 {
    seq.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((w as u64) << 56) ^ seq
}

/// Fills a block: words 0..7 from `pattern`, word 7 their wrapping sum.
fn write_block(words: &mut [u64], seq: u64) {
    let mut sum = 0u64;
    for (w, x) in words[..WORDS - 1].iter_mut().enumerate() {
        *x = pattern(seq, w);
        sum = sum.wrapping_add(*x);
    }
    words[WORDS - 1] = sum;
}

/// Checks a block against `seq`: the first word says which block it is, the checksum that
/// it is whole.
fn check_block(words: &[u64], seq: u64) -> Result<(), String> {
    if words[0] != pattern(seq, 0) {
        return Err(format!(
            "block {seq}: holds another block's data (lost or duplicated)"
        ));
    }
    let sum = words[..WORDS - 1]
        .iter()
        .fold(0u64, |a, &x| a.wrapping_add(x));
    if sum != words[WORDS - 1] || (0..WORDS - 1).any(|w| words[w] != pattern(seq, w)) {
        return Err(format!("block {seq}: torn (checksum or pattern mismatch)"));
    }
    Ok(())
}

/// Consumes `n` blocks, checking each; returns the count seen.
fn consume(rx: &mut handoff::channel::Consumer, n: u64, how: Wait) -> Result<u64, String> {
    rx.set_patience(Patience::new(how).with_timeout(Some(WAIT_LIMIT)));
    for seq in 0..n {
        let b = rx.recv().map_err(|e| format!("block {seq}: {e}"))?;
        if b.seq() != seq {
            return Err(format!("expected block {seq}, received {}", b.seq()));
        }
        check_block(b.as_slice::<u64>(), seq)?;
    }
    Ok(n)
}

fn produce(tx: &mut handoff::channel::Producer, n: u64, how: Wait) -> Result<(), ChannelError> {
    tx.set_patience(Patience::new(how).with_timeout(Some(WAIT_LIMIT)));
    for seq in 0..n {
        let mut b = tx.loan()?;
        write_block(b.as_mut_slice::<u64>(), seq);
        b.publish();
    }
    Ok(())
}

/// The checker catches what it must (so the stress test below can fail).
#[test]
fn block_checker_catches_loss_and_tearing() {
    let mut w = [0u64; WORDS];
    write_block(&mut w, 5);
    assert!(check_block(&w, 5).is_ok());
    assert!(check_block(&w, 6)
        .unwrap_err()
        .contains("lost or duplicated"));
    w[3] ^= 1;
    assert!(check_block(&w, 5).unwrap_err().contains("torn"));
}

/// The child producer: opens the channel by name and publishes COUNT blocks.
fn child_producer() {
    let d = Deadline::after(WAIT_LIMIT);
    let chan = Channel::open(&env(NAME_ENV), cfg(), d).unwrap();
    let mut tx = chan.producer().unwrap();
    let n: u64 = env(COUNT_ENV).parse().unwrap();
    println!("producing");
    produce(&mut tx, n, Wait::ADAPTIVE).unwrap();
    // Drop closes: the parent drains, then sees Closed.
}

/// A million blocks from a child process to the parent, through a 4-block ring: every block
/// arrives once, in order, whole; then the producer's close arrives.
#[test]
fn a_million_blocks_between_processes() {
    if role().as_deref() == Some("producer") {
        return child_producer();
    }
    let _s = serial();
    let chan = Channel::create("chan-million", cfg()).unwrap();
    let mut rx = chan.consumer().unwrap();
    let mut kid = Kid::spawn(
        "a_million_blocks_between_processes",
        ROLE_ENV,
        "producer",
        &[
            (NAME_ENV, chan.name().unwrap().to_string()),
            (COUNT_ENV, MILLION.to_string()),
        ],
        WATCHDOG,
    );
    let t0 = Instant::now();
    let seen = consume(&mut rx, MILLION, Wait::ADAPTIVE).unwrap();
    let el = t0.elapsed();
    assert_eq!(seen, MILLION);
    assert_eq!(rx.received(), MILLION);
    let end = rx.recv_timeout(WAIT_LIMIT);
    assert!(
        matches!(end, Err(ChannelError::Closed { by: Role::Producer })),
        "{end:?}"
    );
    kid.wait_success();
    println!(
        "{MILLION} blocks in {el:?} ({:.0} ns per block)",
        el.as_nanos() as f64 / MILLION as f64
    );
}

/// The child producer of the three-forms test: fills the 2-block ring with `loan()` and
/// `loan_timeout`, finds `try_loan` and a short `loan_timeout` refused while it is full,
/// then (once the parent received one block) loans the freed block with the endpoint's
/// patience and closes.
fn child_three_forms_producer() {
    let chan = Channel::open(
        &env(NAME_ENV),
        ChannelConfig::new(BLOCK, 2),
        Deadline::after(WAIT_LIMIT),
    )
    .unwrap();
    let mut tx = chan.producer().unwrap();
    tx.set_patience(Patience::new(Wait::ADAPTIVE).with_timeout(Some(WAIT_LIMIT)));
    let mut b = tx.loan().unwrap();
    write_block(b.as_mut_slice::<u64>(), 0);
    b.publish();
    let mut b = tx.loan_timeout(WAIT_LIMIT).unwrap();
    write_block(b.as_mut_slice::<u64>(), 1);
    b.publish();
    // No default timeout: a `try_` or `_timeout` form that waited with it would hang (and
    // fail the parent's watchdog).
    tx.set_patience(Patience::new(Wait::Block));
    let full = tx.try_loan().map(|_| ());
    assert!(
        matches!(full, Err(ChannelError::Timeout { what: "free block" })),
        "{full:?}"
    );
    let full = tx.loan_timeout(Duration::from_millis(5)).map(|_| ());
    assert!(
        matches!(full, Err(ChannelError::Timeout { .. })),
        "{full:?}"
    );
    // A default form with a short default timeout times out too.
    tx.set_patience(Patience::new(Wait::Block).with_timeout(Some(Duration::from_millis(5))));
    let full = tx.loan().map(|_| ());
    assert!(
        matches!(full, Err(ChannelError::Timeout { .. })),
        "{full:?}"
    );
    println!("full");
    tx.set_patience(Patience::new(Wait::Block).with_timeout(Some(WAIT_LIMIT)));
    let mut b = tx.loan().unwrap(); // waits for the parent to release block 0
    write_block(b.as_mut_slice::<u64>(), 2);
    b.publish();
    // Drop closes.
}

/// Each of the three forms of `recv` (and of `loan`, in the child) across processes: `try_`
/// answers `Timeout` at once on an empty ring, `_timeout` and a short default timeout end
/// with `Timeout`, the waiting forms receive what the other process publishes, and all
/// three report the producer's close. Every wait is bounded (a form that ignores its
/// timeout fails the watchdog instead of hanging).
#[test]
fn recv_and_loan_in_their_three_forms_between_processes() {
    if role().as_deref() == Some("three-forms") {
        return child_three_forms_producer();
    }
    let _s = serial();
    within("the three forms of recv", Duration::from_secs(60), || {
        let chan = Channel::create("chan-forms", ChannelConfig::new(BLOCK, 2)).unwrap();
        let mut rx = chan.consumer().unwrap();
        rx.set_patience(Patience::new(Wait::Block)); // no default timeout (see the child)
        let empty = rx.try_recv().map(|_| ());
        assert!(
            matches!(
                empty,
                Err(ChannelError::Timeout {
                    what: "published block"
                })
            ),
            "{empty:?}"
        );
        let empty = rx.recv_timeout(Duration::from_millis(5)).map(|_| ());
        assert!(
            matches!(empty, Err(ChannelError::Timeout { .. })),
            "{empty:?}"
        );
        rx.set_patience(Patience::new(Wait::Spin).with_timeout(Some(Duration::from_millis(5))));
        let empty = rx.recv().map(|_| ());
        assert!(
            matches!(empty, Err(ChannelError::Timeout { .. })),
            "{empty:?}"
        );

        let mut kid = Kid::spawn(
            "recv_and_loan_in_their_three_forms_between_processes",
            ROLE_ENV,
            "three-forms",
            &[(NAME_ENV, chan.name().unwrap().to_string())],
            WATCHDOG,
        );
        // The default form waits (with the endpoint's patience) for the child's block.
        rx.set_patience(Patience::new(Wait::ADAPTIVE).with_timeout(Some(WAIT_LIMIT)));
        let b = rx.recv().unwrap();
        check_block(b.as_slice::<u64>(), 0).unwrap();
        kid.expect_line("full");
        drop(b); // frees a block for the child's last loan
        let b = rx.try_recv().unwrap(); // block 1 was published before "full"
        check_block(b.as_slice::<u64>(), 1).unwrap();
        drop(b);
        let b = rx.recv_timeout(WAIT_LIMIT).unwrap();
        check_block(b.as_slice::<u64>(), 2).unwrap();
        drop(b);
        kid.wait_success();
        let closed = |r: Result<(), ChannelError>| {
            assert!(
                matches!(r, Err(ChannelError::Closed { by: Role::Producer })),
                "{r:?}"
            )
        };
        closed(rx.try_recv().map(|_| ()));
        closed(rx.recv_timeout(WAIT_LIMIT).map(|_| ()));
        closed(rx.recv().map(|_| ()));
    });
}

/// The child consumer for the kill test: receives forever (until killed).
fn child_consumer() {
    let d = Deadline::after(WAIT_LIMIT);
    let chan = Channel::open(&env(NAME_ENV), cfg(), d).unwrap();
    let mut rx = chan.consumer().unwrap();
    let mut seq = 0u64;
    loop {
        let b = rx.recv_timeout(WAIT_LIMIT).unwrap();
        check_block(b.as_slice::<u64>(), seq).unwrap();
        seq += 1;
        if seq == 1000 {
            println!("consumed 1000");
        }
    }
}

/// The child producer for the kill test: publishes forever (until killed).
fn child_endless_producer() {
    let d = Deadline::after(WAIT_LIMIT);
    let chan = Channel::open(&env(NAME_ENV), cfg(), d).unwrap();
    let mut tx = chan.producer().unwrap();
    let mut seq = 0u64;
    loop {
        let mut b = tx.loan_timeout(WAIT_LIMIT).unwrap();
        write_block(b.as_mut_slice::<u64>(), seq);
        b.publish();
        seq += 1;
        if seq == 1000 {
            println!("produced 1000");
        }
    }
}

/// A producer process SIGKILLed mid-stream: the consumer's wait ends with `PeerGone`
/// naming it (not a timeout, not a hang), after every block it published was received.
#[test]
fn killed_producer_is_reported_to_the_consumer() {
    if role().as_deref() == Some("producer") {
        return child_endless_producer();
    }
    let _s = serial();
    let chan = Channel::create("chan-kill-p", cfg()).unwrap();
    let mut rx = chan.consumer().unwrap();
    let mut kid = Kid::spawn(
        "killed_producer_is_reported_to_the_consumer",
        ROLE_ENV,
        "producer",
        &[(NAME_ENV, chan.name().unwrap().to_string())],
        WATCHDOG,
    );
    let pid = kid.pid();
    // Consume until the producer has made progress, then kill it while it runs.
    consume(&mut rx, 1000, Wait::ADAPTIVE).unwrap();
    kid.expect_line("produced 1000");
    kid.kill();
    let mut seq = 1000;
    let err = loop {
        match rx.recv_timeout(WAIT_LIMIT) {
            Ok(b) => {
                check_block(b.as_slice::<u64>(), seq).unwrap();
                seq += 1;
            }
            Err(e) => break e,
        }
    };
    assert!(
        matches!(err, ChannelError::PeerGone { pid: p } if p == pid),
        "{err}"
    );
    assert!(err.to_string().contains(&pid.to_string()), "{err}");
}

/// A consumer process SIGKILLed mid-stream: the producer, blocked on a full ring, gets
/// `PeerGone` naming it.
#[test]
fn killed_consumer_is_reported_to_the_producer() {
    if role().as_deref() == Some("consumer") {
        return child_consumer();
    }
    let _s = serial();
    let chan = Channel::create("chan-kill-c", cfg()).unwrap();
    let mut tx = chan.producer().unwrap();
    let mut kid = Kid::spawn(
        "killed_consumer_is_reported_to_the_producer",
        ROLE_ENV,
        "consumer",
        &[(NAME_ENV, chan.name().unwrap().to_string())],
        WATCHDOG,
    );
    let pid = kid.pid();
    produce(&mut tx, 1000, Wait::ADAPTIVE).unwrap();
    kid.expect_line("consumed 1000");
    kid.kill();
    // The ring fills within 4 blocks; the next loan must report the dead consumer.
    let err = produce(&mut tx, 100, Wait::ADAPTIVE).unwrap_err();
    assert!(
        matches!(err, ChannelError::PeerGone { pid: p } if p == pid),
        "{err}"
    );
}

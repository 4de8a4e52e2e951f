//! The handles between threads: ordering, wrap-around, closing, errors.

use super::*;
use crate::sync::Wait;
use std::time::Duration;

/// A watchdog for waits that should end at once: a broken ring fails within seconds (under
/// cargo-mutants' 60 s test timeout, with several such tests in a row), not by hanging.
const SOON: Duration = Duration::from_secs(5);

/// Tiny rings force wrap-around: every block arrives once, in order, with its contents.
#[test]
fn blocks_arrive_in_order_through_tiny_rings() {
    const N: u64 = 20_000;
    for (blocks, how) in [(1, Wait::SpinYield), (2, Wait::Block), (3, Wait::ADAPTIVE)] {
        let (mut tx, mut rx) = Channel::anonymous(ChannelConfig::new(24, blocks))
            .unwrap()
            .split()
            .unwrap();
        tx.set_patience(Patience::new(how));
        rx.set_patience(Patience::new(how));
        let t = std::thread::spawn(move || {
            for i in 0..N {
                let mut b = tx.loan_timeout(SOON).unwrap();
                assert_eq!(b.seq(), i);
                b.as_mut_slice::<u64>()
                    .copy_from_slice(&[i, !i, i.wrapping_mul(31)]);
                b.publish();
            }
        });
        for i in 0..N {
            let b = rx.recv_timeout(SOON).unwrap();
            assert_eq!(b.seq(), i);
            assert_eq!(b.as_slice::<u64>(), &[i, !i, i.wrapping_mul(31)], "{how}");
        }
        assert_eq!(rx.received(), N);
        t.join().unwrap();
        // The producer's drop closed the channel after the last block.
        assert!(matches!(
            rx.recv_timeout(SOON),
            Err(ChannelError::Closed { by: Role::Producer })
        ));
    }
}

/// The producer may run `blocks` ahead and no further; an unpublished loan is not sent.
#[test]
fn producer_runs_at_most_blocks_ahead() {
    let (mut tx, mut rx) = Channel::anonymous(ChannelConfig::new(8, 2))
        .unwrap()
        .split()
        .unwrap();
    tx.loan_timeout(SOON).unwrap().publish();
    let _unpublished = tx.loan_timeout(SOON).unwrap(); // dropped at once, not published
    tx.try_loan().unwrap().publish();
    assert_eq!(tx.published(), 2);
    assert!(
        matches!(tx.try_loan(), Err(ChannelError::Timeout { .. })),
        "both blocks in flight"
    );
    assert!(matches!(
        tx.loan_timeout(Duration::ZERO),
        Err(ChannelError::Timeout { what: "free block" })
    ));
    drop(rx.try_recv().unwrap());
    assert!(tx.try_loan().is_ok(), "a released block is free again");
    assert_eq!(rx.try_recv().unwrap().seq(), 1);
    assert!(matches!(rx.try_recv(), Err(ChannelError::Timeout { .. })));
    assert!(matches!(
        rx.recv_timeout(Duration::ZERO),
        Err(ChannelError::Timeout {
            what: "published block"
        })
    ));
}

/// A loan's bytes are the block the consumer receives: zero copies, same address.
#[test]
fn received_block_is_the_loaned_memory() {
    let (mut tx, mut rx) = Channel::anonymous(ChannelConfig::new(5000, 2))
        .unwrap()
        .split()
        .unwrap();
    let mut loan = tx.loan_timeout(SOON).unwrap();
    assert_eq!(loan.len(), 5000);
    loan[4999] = 7;
    let addr = loan.as_ptr();
    assert_eq!(
        addr as usize % 4096,
        0,
        "blocks of a page or more are page aligned"
    );
    loan.publish();
    let got = rx.recv_timeout(SOON).unwrap();
    assert_eq!(got.as_ptr(), addr);
    assert_eq!(got[4999], 7);
    // 5000 / 8 = 625 whole u64s; the 0-byte remainder rule on a size that is not a multiple.
    assert_eq!(got.as_slice::<u64>().len(), 625);
    assert_eq!(got.as_slice::<[u8; 3]>().len(), 1666);
}

#[test]
fn a_consumer_that_leaves_closes_the_channel_for_the_producer() {
    let (mut tx, rx) = Channel::anonymous(ChannelConfig::new(8, 4))
        .unwrap()
        .split()
        .unwrap();
    let t = std::thread::spawn(move || {
        let _rx = rx;
        panic!("consumer panics (unwinds, dropping its end)");
    });
    assert!(t.join().is_err());
    assert!(matches!(
        tx.loan_timeout(SOON),
        Err(ChannelError::Closed { by: Role::Consumer })
    ));
}

/// A producer blocked on a full ring wakes when the consumer closes.
#[test]
fn closing_wakes_a_blocked_producer() {
    let (mut tx, rx) = Channel::anonymous(ChannelConfig::new(8, 1))
        .unwrap()
        .split()
        .unwrap();
    tx.loan_timeout(SOON).unwrap().publish();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        drop(rx);
    });
    let got = tx.loan_timeout(SOON);
    assert!(
        matches!(got, Err(ChannelError::Closed { by: Role::Consumer })),
        "{got:?}"
    );
    t.join().unwrap();
}

#[test]
fn each_side_is_claimed_once() {
    let chan = Channel::anonymous(ChannelConfig::new(8, 1)).unwrap();
    let _tx = chan.producer().unwrap();
    let e = chan.producer().unwrap_err();
    assert!(matches!(
        e,
        ChannelError::RoleTaken {
            role: Role::Producer,
            ..
        }
    ));
    assert!(
        e.to_string().contains("one producer and one consumer"),
        "{e}"
    );
    let _rx = chan.consumer().unwrap();
    assert!(chan.consumer().is_err());
}

#[test]
fn bad_configurations_are_refused() {
    for cfg in [ChannelConfig::new(0, 1), ChannelConfig::new(1, 0)] {
        let e = Channel::anonymous(cfg).unwrap_err();
        assert!(matches!(e, ChannelError::InvalidConfig(_)), "{e}");
    }
}

/// Opening by name: the same shape works, any other is refused with what differs.
#[test]
fn named_open_checks_the_shape() {
    let chan = Channel::create("chan-shape", ChannelConfig::new(4096, 3)).unwrap();
    let name = chan.name().unwrap().to_string();
    let d = Deadline::after(Duration::from_secs(5));
    let other = Channel::open(&name, ChannelConfig::new(4096, 3), d).unwrap();
    assert_eq!(other.config(), ChannelConfig::new(4096, 3));
    let e = Channel::open(&name, ChannelConfig::new(4096, 2), d).unwrap_err();
    match &e {
        ChannelError::Mismatch {
            what,
            expected,
            found,
            ..
        } => {
            assert_eq!((*what, *expected, *found), ("block count", 2, 3));
        }
        e => panic!("{e}"),
    }
    assert!(e.to_string().contains("same ChannelConfig"), "{e}");
    assert!(
        e.to_string()
            .contains(crate::shm::ApiOption::ChannelShape.rust()),
        "{e}"
    );
    let e = Channel::open(&name, ChannelConfig::new(1024, 3), d).unwrap_err();
    assert!(
        matches!(
            e,
            ChannelError::Mismatch {
                what: "block size (bytes)",
                ..
            }
        ),
        "{e}"
    );
    // The two mappings are one channel.
    let mut tx = chan.producer().unwrap();
    let mut rx = other.consumer().unwrap();
    tx.loan_timeout(SOON).unwrap()[..4].copy_from_slice(b"abcd");
    // (the loan above was dropped unpublished; publish one for real)
    let mut l = tx.loan_timeout(SOON).unwrap();
    l[..4].copy_from_slice(b"wxyz");
    l.publish();
    assert_eq!(&rx.recv_timeout(SOON).unwrap()[..4], b"wxyz");
}

#[test]
fn a_plain_segment_is_not_a_channel() {
    let seg = Segment::create("chan-not", 8192).unwrap();
    seg.publish_ready();
    let d = Deadline::after(Duration::from_secs(5));
    let e = Channel::open(seg.name().unwrap(), ChannelConfig::new(64, 1), d).unwrap_err();
    assert!(matches!(e, ChannelError::NotAChannel { .. }), "{e}");
}

/// Both ends report the block size the channel was created with (not the padded stride).
#[test]
fn both_ends_report_the_block_size() {
    let (tx, rx) = Channel::anonymous(ChannelConfig::new(100, 2))
        .unwrap()
        .split()
        .unwrap();
    // Hand-set: 100 bytes asked for; the stride (128) is internal.
    assert_eq!((tx.block_size(), rx.block_size()), (100, 100));
}

/// The "side already taken" message names the side in words, for each side.
#[test]
fn role_taken_message_names_the_side() {
    let chan = Channel::anonymous(ChannelConfig::new(8, 1)).unwrap();
    let (_tx, _rx) = (chan.producer().unwrap(), chan.consumer().unwrap());
    let p = chan.producer().unwrap_err().to_string();
    let c = chan.consumer().unwrap_err().to_string();
    assert!(
        p.starts_with("the producer side of channel anonymous"),
        "{p}"
    );
    assert!(
        c.starts_with("the consumer side of channel anonymous"),
        "{c}"
    );
}

/// A segment too small to hold a channel header is "not a channel", not an out-of-bounds
/// error from the segment.
#[test]
fn a_segment_smaller_than_the_header_is_not_a_channel() {
    let seg = Segment::create("chan-tiny", 64).unwrap();
    seg.publish_ready();
    let d = Deadline::after(Duration::from_secs(5));
    let e = Channel::open(seg.name().unwrap(), ChannelConfig::new(64, 1), d).unwrap_err();
    assert!(matches!(e, ChannelError::NotAChannel { .. }), "{e}");
}

/// A valid header over a payload too short for its blocks (a truncated or lying creator) is
/// refused with the payload size (also one that holds the header and nothing else); a payload
/// with room to spare opens.
#[test]
fn a_payload_shorter_than_the_blocks_is_refused() {
    let cfg = ChannelConfig::new(64, 4);
    let geo = Geometry::of(&cfg).unwrap();
    // Hand-computed: header page (4096) + 4 blocks of 128 bytes.
    assert_eq!(geo.payload_len, 4096 + 4 * 128);
    let d = Deadline::after(Duration::from_secs(5));
    for (label, len, ok) in [
        ("chan-short", 4096 + 3 * 128, false),
        (
            "chan-header-only",
            std::mem::size_of::<ChannelHeader>(),
            false,
        ),
        ("chan-roomy", 4096 + 8 * 128, true),
    ] {
        let seg = Segment::create(label, len).unwrap();
        seg.get::<ChannelHeader>(0).unwrap().init(&geo);
        seg.publish_ready();
        let got = Channel::open(seg.name().unwrap(), cfg, d);
        match (ok, got) {
            (true, Ok(c)) => assert_eq!(c.config(), cfg),
            (
                false,
                Err(ChannelError::Mismatch {
                    what: "payload size (bytes)",
                    expected,
                    found,
                    ..
                }),
            ) => assert_eq!((expected, found), (4096 + 512, len as u64)),
            (ok, got) => panic!("{label}: want ok={ok}, got {got:?}"),
        }
    }
}

/// What the C and Python bindings rely on (documented on `Loan` and `Received`): an ended
/// loan keeps its block for the next loan, and a forgotten `Received` is received again.
#[test]
fn ended_loans_and_forgotten_receipts_return_the_same_block() {
    let (mut tx, mut rx) = Channel::anonymous(ChannelConfig::new(64, 2))
        .unwrap()
        .split()
        .unwrap();
    let first = {
        let mut l = tx.loan_timeout(SOON).unwrap();
        l[0] = 42;
        l.as_ptr()
    };
    let again = tx.try_loan().expect("the block is still free");
    assert_eq!((again.as_ptr(), again[0], again.seq()), (first, 42, 0));
    again.publish();

    let got = rx.recv_timeout(SOON).unwrap();
    let (at, seq) = (got.as_ptr(), got.seq());
    std::mem::forget(got);
    let got = rx.try_recv().expect("a forgotten block is received again");
    assert_eq!((got.as_ptr(), got.seq(), got[0]), (at, seq, 42));
    assert_eq!((at, seq), (first, 0));
    drop(got); // now released: nothing more to receive
    assert!(matches!(rx.try_recv(), Err(ChannelError::Timeout { .. })));
    assert_eq!(rx.received(), 1);
}

//! Loom models of the record protocol: the real `reserve` / `commit` / `next` / `release` over
//! words in loom's `UnsafeCell`, in rings so small that frames of mixed sizes force PAD
//! records (of several units, and of a bare header). A missing happens-before shows as a
//! race on a word; a lost, torn, duplicated or reordered frame fails the consumer's checks.

use super::*;
use crate::sync::NoPeers;
use loom::cell::UnsafeCell;
use loom::sync::Arc;

struct Model {
    ix: Indices,
    words: Vec<UnsafeCell<u64>>,
}

impl Words for Model {
    fn units(&self) -> u64 {
        self.words.len() as u64
    }

    unsafe fn write_word(&self, u: u64, word: u64) {
        let i = (u % self.units()) as usize;
        // SAFETY (model): the protocol gives the producer this word; loom reports a race if
        // it does not.
        self.words[i].with_mut(|p| unsafe { *p = word });
    }

    unsafe fn read_word(&self, u: u64) -> u64 {
        let i = (u % self.units()) as usize;
        // SAFETY (model): as above, for the consumer's turn.
        self.words[i].with(|p| unsafe { *p })
    }
}

fn blocking() -> Waiting<'static, NoPeers> {
    Waiting {
        how: Some(Wait::Block),
        deadline: None,
        peers: &NoPeers,
    }
}

/// Payload word `j` of frame `k`: names both, so a word of another frame or a stale one
/// (torn frame) fails the check.
fn payload(k: usize, j: usize) -> u64 {
    0xF00 + 16 * k as u64 + j as u64
}

/// Frames of `lens` bytes through a ring of `units` words, then a close; the consumer
/// checks that it receives exactly these frames, in order, each with its own length and
/// payload, then `Closed`. All frames but the last are sent before the producer's thread
/// starts (fewer interleavings to explore); the last one, which needs the PAD, races with
/// the consumer reading the earlier ones (both wait blocking).
fn stream(units: usize, lens: &'static [usize]) {
    fn send(p: &mut ProducerIndex, m: &Model, k: usize, len: usize) {
        let at = reserve(p, &m.ix, m, len, blocking()).expect("reserve");
        for j in 0..len / UNIT {
            // SAFETY (model): the frame's words after its header were reserved.
            unsafe { m.write_word(at + 1 + j as u64, payload(k, j)) };
        }
        commit(p, &m.ix, m, at, len);
    }
    loom::model(move || {
        let m = Arc::new(Model {
            ix: Indices::default(),
            words: (0..units).map(|_| UnsafeCell::new(0)).collect(),
        });
        let mut p = ProducerIndex::new(m.units());
        let (last, first) = lens.split_last().expect("frames");
        for (k, &len) in first.iter().enumerate() {
            send(&mut p, &m, k, len);
        }
        let m2 = m.clone();
        let t = loom::thread::spawn(move || {
            send(&mut p, &m2, first.len(), *last);
            p.close(&m2.ix);
        });
        let mut c = ConsumerIndex::new(m.units());
        for (k, &want) in lens.iter().enumerate() {
            let (at, len) = next(&mut c, &m.ix, &*m, blocking()).expect("next");
            assert_eq!(len, want, "frame {k}: length");
            for j in 0..len / UNIT {
                // SAFETY (model): the frame's words were committed with it.
                let got = unsafe { m.read_word(at + 1 + j as u64) };
                assert_eq!(got, payload(k, j), "frame {k}: word {j}");
            }
            release(&mut c, &m.ix, len);
        }
        assert_eq!(
            next(&mut c, &m.ix, &*m, blocking()),
            Err(RecordError::Closed),
            "no frame after the last"
        );
        t.join().unwrap();
    });
}

/// Ring of 4 words; frames of 8 then 16 bytes (2 and 3 units): the second does not fit in
/// the 2 words left before the end, so a PAD of 2 units (header + 1 word) precedes it, and
/// the producer must wait until the consumer released the first frame and the PAD.
#[test]
fn loom_frame_pad_of_two_units_before_a_wrap() {
    stream(4, &[8, 16]);
}

/// Ring of 3 words; two frames of 8 bytes (2 units each): the second does not fit in the
/// 1 word left, so a PAD that is a bare header (length 0) precedes it.
#[test]
fn loom_frame_pad_of_a_bare_header() {
    stream(3, &[8, 8]);
}

/// The hand computation behind the two models above (no threads): where each record goes.
/// Ring of 4: frame A (2 units) at 0; PAD of 2 at 2; frame B (3 units) at 4, i.e. words
/// 0..3; the consumer's position after everything is 7. B has room only once the consumer
/// released A and skipped the PAD.
#[test]
fn loom_frame_positions_by_hand() {
    loom::model(|| {
        let m = Model {
            ix: Indices::default(),
            words: (0..4).map(|_| UnsafeCell::new(0)).collect(),
        };
        let mut p = ProducerIndex::new(4);
        let mut c = ConsumerIndex::new(4);
        let poll = || Waiting {
            how: None,
            deadline: None,
            peers: &NoPeers,
        };
        let a = reserve(&mut p, &m.ix, &m, 8, poll()).unwrap();
        assert_eq!(a, 0);
        commit(&mut p, &m.ix, &m, a, 8);
        // No room for B (a PAD of 2 then 3 units: 5 > 4 - 2 free) until A is released.
        assert_eq!(
            reserve(&mut p, &m.ix, &m, 16, poll()),
            Err(RecordError::Wait(WaitError::Timeout))
        );
        assert_eq!(p.tail(), 4, "the PAD (units 2..4) was committed alone");
        assert_eq!(next(&mut c, &m.ix, &m, poll()), Ok((0, 8)));
        release(&mut c, &m.ix, 8);
        assert_eq!(
            next(&mut c, &m.ix, &m, poll()),
            Err(RecordError::Wait(WaitError::Timeout)),
            "nothing after the PAD yet"
        );
        assert_eq!(c.head(), 4, "the PAD was released on the way");
        let b = reserve(&mut p, &m.ix, &m, 16, poll()).unwrap();
        assert_eq!(b, 4, "B goes to word 0, after the PAD");
        commit(&mut p, &m.ix, &m, b, 16);
        assert_eq!(next(&mut c, &m.ix, &m, poll()), Ok((4, 16)), "PAD skipped");
        release(&mut c, &m.ix, 16);
        assert_eq!(c.head(), 7);
    });
}

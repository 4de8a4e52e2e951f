//! The counting rules of the collectives' one-way messages (`coll_msgs`), apart from the
//! transport so the loom model below runs exactly this code: a receiver's wait for the next
//! message of each sender ([`arrived`]), and the slot a sender's `c`-th slot message to a
//! receiver uses ([`slot_of`]). `coll_msgs` documents why two slots per sender suffice: only
//! exchanges use slots, and in an exchange every member waits for every other member's
//! message, so a sender is never two slot messages ahead of what the receiver consumed.
//!
//! Ordering: the sender's counter update is a Release RMW after its data (the transport's
//! signal); the receiver's counter load is Acquire and pairs with it.

#![cfg_attr(loom, allow(dead_code))] // under loom only the model below uses it

/// The slot (0 or 1) of a sender's slot message number `count` (0, 1, ...) to one receiver.
#[inline]
pub fn slot_of(count: u64) -> u64 {
    count % 2
}

/// Whether the next message of every sender in `from` is here: its counter (the number of
/// messages it has sent here, read with Acquire by `counter`) passes `seen` (the number this
/// PE has consumed from it).
#[inline]
pub fn arrived(
    from: &[usize],
    counter: impl Fn(usize) -> u64,
    seen: impl Fn(usize) -> u64,
) -> bool {
    from.iter().all(|&f| counter(f) > seen(f))
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::cell::UnsafeCell;
    use loom::sync::atomic::{AtomicU64, Ordering};
    use loom::sync::Arc;

    /// Two PEs' message blocks: `counters[r][s]`, `slots[r][s][k]` (at receiver `r`, for
    /// sender `s`, slot `k`).
    struct Blocks {
        counters: [[AtomicU64; 2]; 2],
        slots: [[[UnsafeCell<u64>; 2]; 2]; 2],
    }

    /// Three exchanges in a row between two PEs, as back-to-back small reductions make them:
    /// each sends its operand to the other's slot with a message, waits for the other's, and
    /// reads it. A slot written while its reader still reads it is a race loom reports; a
    /// message met early shows as a wrong value.
    #[test]
    fn loom_exchanges_reuse_two_slots_without_a_race() {
        loom::model(|| {
            let b = Arc::new(Blocks {
                counters: Default::default(),
                slots: Default::default(),
            });
            let pe = |me: usize| {
                let b = b.clone();
                loom::thread::spawn(move || {
                    let peer = 1 - me;
                    let (mut sent, mut seen, mut got) = (0u64, 0u64, 0u64);
                    for round in 0..3u64 {
                        let slot = &b.slots[peer][me][slot_of(sent) as usize];
                        // SAFETY: loom's cell pointer is valid; exclusion is what is checked.
                        slot.with_mut(|p| unsafe { *p = 100 * me as u64 + round });
                        // Release: the transport's signal after the data.
                        b.counters[peer][me].fetch_add(1, Ordering::Release);
                        sent += 1;
                        // Acquire: pairs with the sender's Release add.
                        let counter = |f: usize| b.counters[me][f].load(Ordering::Acquire);
                        while !arrived(&[peer], counter, |_| seen) {
                            loom::thread::yield_now();
                        }
                        seen += 1;
                        let slot = &b.slots[me][peer][slot_of(got) as usize];
                        // SAFETY: as above.
                        let v = slot.with(|p| unsafe { *p });
                        got += 1;
                        assert_eq!(v, 100 * peer as u64 + round, "PE {me} round {round}");
                    }
                })
            };
            let (a, c) = (pe(0), pe(1));
            a.join().unwrap();
            c.join().unwrap();
        });
    }
}

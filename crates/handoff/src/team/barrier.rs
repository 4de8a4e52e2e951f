//! The team barrier: dissemination (Hensgen, Finkel and Manber), ⌈log2 p⌉ rounds over the
//! members' per-sender arrival counters, waiting on each PE's doorbell.
//!
//! # Protocol
//!
//! Members `set[0..n]` (sorted ranks); this PE is `set[i]`. In round `k` (distance
//! `d = 2^k < n`) it signals `set[(i + d) % n]` and waits for `set[(i - d) mod n]`:
//!
//! 1. `to.arrivals[me].fetch_add(1, Release)`, then ring `to`'s doorbell;
//! 2. `seen[from] += 1` (local), wait until `me.arrivals[from] >= seen[from]` (Acquire).
//!
//! Why counters per *sender* instead of one flag per round: a sender `s` reaches receiver
//! `r` at most once per barrier (the distances `1, 2, 4, ... < n` differ mod `n`), and both
//! run the barriers they share in the same order, so `r`'s `k`-th wait for `s` is met
//! exactly by `s`'s `k`-th arrival, whichever subsets the barriers were over. A fast sender
//! already in the next barrier only makes the count larger: never a lost or stolen arrival.
//!
//! # Memory ordering
//!
//! The Release RMW in step 1 pairs with the Acquire load in step 2's wait on the receiver.
//! Happens-before is transitive along the rounds, and after ⌈log2 n⌉ rounds every member
//! has a chain from every other member's arrival, so every write a member made before the
//! barrier (its puts into any partition) is visible to every member after it. The doorbell's
//! own SeqCst pairing (see [`crate::sync::doorbell`]) only decides sleeping and waking.

#![cfg_attr(loom, allow(dead_code))] // the transport that calls these is not built under loom

use crate::atomic::{AtomicU64, Ordering};
use crate::sync::WaitError;
use crate::sync::{Doorbell, Wait};
use crate::sync::{NoPeers, PeerWatch};
use crate::sys::Deadline;

/// What the barrier touches of one member: its arrival counters (indexed by sender rank)
/// and its doorbell.
pub(crate) struct Node<'a> {
    pub arrivals: &'a [AtomicU64],
    pub bell: &'a Doorbell,
}

/// A barrier's peer watch, told before each round's wait whom that round waits for: PE
/// `from`, until this PE's arrival counter for it reaches `target`. The team's watch uses it
/// to name a PE that finalized before that arrival (it never comes: `watch`).
pub(crate) trait RoundWatch: PeerWatch {
    /// The round about to wait waits for `from`'s arrival number `target`.
    fn round(&self, from: usize, target: u64);
}

impl RoundWatch for NoPeers {
    fn round(&self, _from: usize, _target: u64) {}
}

/// Runs one dissemination barrier for `me` over `set` (sorted, containing `me`); `seen` is
/// this PE's local count of arrivals consumed per sender rank; `peer_cpu` is the hint for
/// adaptive waits (see [`crate::sync::CpuHint`]). An error names nothing: the caller maps
/// it (a peer check already names the PE).
#[allow(clippy::too_many_arguments)] // the barrier's inputs; a struct would only rename them
pub(crate) fn dissemination<'a, P: RoundWatch + ?Sized>(
    me: usize,
    set: &[usize],
    seen: &mut [u64],
    node: impl Fn(usize) -> Node<'a>,
    how: Wait,
    deadline: Option<Deadline>,
    peers: &P,
    peer_cpu: Option<u32>,
) -> Result<(), WaitError> {
    let n = set.len();
    let Ok(i) = set.binary_search(&me) else {
        return Ok(()); // callers check membership; nothing to do for a non-member
    };
    let mine = node(me);
    let mut d = 1;
    while d < n {
        let to = node(set[(i + d) % n]);
        let from = set[(i + n - d) % n];
        // Release: pairs with the Acquire load in the receiver's wait (step 2 below).
        to.arrivals[me].fetch_add(1, Ordering::Release);
        to.bell.ring();
        seen[from] += 1;
        let target = seen[from];
        let word = &mine.arrivals[from];
        peers.round(from, target);
        mine.bell.wait(
            // Acquire: pairs with the Release fetch_add of the sender (step 1 above).
            || (word.load(Ordering::Acquire) >= target).then_some(()),
            how,
            deadline,
            peers,
            peer_cpu,
        )?;
        d *= 2;
    }
    Ok(())
}

/// Rounds a dissemination barrier over `n` members takes: ⌈log2 n⌉.
#[cfg(test)]
pub(crate) fn rounds(n: usize) -> u32 {
    if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::sync::NoPeers;
    use std::sync::Arc;

    #[test]
    fn rounds_are_ceil_log2() {
        // Hand-computed: ⌈log2 n⌉.
        let want = [
            (1, 0),
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (8, 3),
            (9, 4),
            (16, 4),
            (63, 6),
        ];
        for (n, r) in want {
            assert_eq!(rounds(n), r, "n = {n}");
        }
    }

    struct Nodes {
        arrivals: Vec<Vec<AtomicU64>>,
        bells: Vec<Doorbell>,
    }

    /// Threads as members: every member's pre-barrier write is seen by all after it, over
    /// many barriers, with subsets interleaved (all, then the even ranks only).
    #[test]
    fn threads_see_every_write_after_each_barrier() {
        const N: usize = 5;
        const ITERS: u64 = 300;
        let nodes = Arc::new(Nodes {
            arrivals: (0..N)
                .map(|_| (0..N).map(|_| AtomicU64::new(0)).collect())
                .collect(),
            bells: (0..N).map(|_| Doorbell::new()).collect(),
        });
        let data: Arc<Vec<AtomicU64>> = Arc::new((0..N).map(|_| AtomicU64::new(0)).collect());
        let threads: Vec<_> = (0..N)
            .map(|me| {
                let (nodes, data) = (nodes.clone(), data.clone());
                std::thread::spawn(move || {
                    let mut seen = vec![0u64; N];
                    let node = |r: usize| Node {
                        arrivals: &nodes.arrivals[r],
                        bell: &nodes.bells[r],
                    };
                    let all: Vec<usize> = (0..N).collect();
                    let evens: Vec<usize> = (0..N).step_by(2).collect();
                    for it in 1..=ITERS {
                        data[me].store(it, Ordering::Relaxed);
                        dissemination(
                            me,
                            &all,
                            &mut seen,
                            node,
                            Wait::ADAPTIVE,
                            None,
                            &NoPeers,
                            None,
                        )
                        .unwrap();
                        for (r, d) in data.iter().enumerate() {
                            assert!(
                                d.load(Ordering::Relaxed) >= it,
                                "PE {me} iter {it}: PE {r} behind"
                            );
                        }
                        dissemination(me, &all, &mut seen, node, Wait::Block, None, &NoPeers, None)
                            .unwrap();
                        if me % 2 == 0 {
                            dissemination(
                                me,
                                &evens,
                                &mut seen,
                                node,
                                Wait::SpinYield,
                                None,
                                &NoPeers,
                                None,
                            )
                            .unwrap();
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::sync::NoPeers;
    use loom::cell::UnsafeCell;
    use loom::sync::Arc;

    struct Shared {
        arrivals: Vec<Vec<AtomicU64>>,
        bells: Vec<Doorbell>,
        data: Vec<UnsafeCell<u64>>,
    }

    /// Three members, one barrier, blocking waits: each writes its data cell before the
    /// barrier (plain, loom-tracked) and reads every other's after it. A lost wake-up shows
    /// up as a deadlock, a missing happens-before as a data race — with one limit: loom
    /// orders all `SeqCst` fences globally (stronger than C11), and the doorbell's fences
    /// then carry the data too, so this model alone would not notice the arrival's Release
    /// weakened to Relaxed (checked by hand: it then still passes). The Release is what
    /// C11 needs (module docs).
    #[test]
    fn loom_team_barrier_three_members() {
        loom::model(|| {
            const N: usize = 3;
            let s = Arc::new(Shared {
                arrivals: (0..N)
                    .map(|_| (0..N).map(|_| AtomicU64::new(0)).collect())
                    .collect(),
                bells: (0..N).map(|_| Doorbell::new()).collect(),
                data: (0..N).map(|_| UnsafeCell::new(0)).collect(),
            });
            let run = |s: Arc<Shared>, me: usize| {
                s.data[me].with_mut(|p| {
                    // SAFETY: only `me` writes its cell, before the barrier.
                    unsafe { *p = me as u64 + 1 }
                });
                let mut seen = vec![0; N];
                let node = |r: usize| Node {
                    arrivals: &s.arrivals[r],
                    bell: &s.bells[r],
                };
                dissemination(
                    me,
                    &[0, 1, 2],
                    &mut seen,
                    node,
                    Wait::Block,
                    None,
                    &NoPeers,
                    None,
                )
                .unwrap();
                for r in 0..N {
                    // SAFETY: every write happened before the barrier (what the model checks).
                    let v = s.data[r].with(|p| unsafe { *p });
                    assert_eq!(v, r as u64 + 1);
                }
            };
            let ts: Vec<_> = (1..N)
                .map(|me| {
                    let s = s.clone();
                    loom::thread::spawn(move || run(s, me))
                })
                .collect();
            run(s.clone(), 0);
            for t in ts {
                t.join().unwrap();
            }
        });
    }
}

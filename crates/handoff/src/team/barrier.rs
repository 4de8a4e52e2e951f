//! The team barrier: dissemination (Hensgen, Finkel and Manber), ⌈log2 p⌉ rounds over the
//! members' per-sender arrival counters, waiting on each PE's doorbell; a hub over the same
//! counters when the members outnumber the CPUs ("Shapes" below).
//!
//! # Protocol
//!
//! Members `set[0..n]` (sorted ranks); this PE is `set[i]`. In round `k` (distance
//! `d = 2^k < n`) it signals `set[(i + d) % n]` and waits for `set[(i - d) mod n]`:
//!
//! 1. bump `to.arrivals[me]` (Release store: [`next_arrival`]), then ring `to`'s doorbell;
//! 2. `seen[from] += 1` (local), wait until [`arrived`]`(me.arrivals[from]) >= seen[from]`
//!    (Acquire).
//!
//! An arrival word holds the sender's arrival count (low 48 bits) and the CPU it arrived
//! from + 1 (high 16 bits; 0: unknown). Only the sender writes it (one word per sender and
//! receiver), so step 1 is a load of its own last store and a plain store, not a locked
//! read-modify-write. The CPU is the partner knowledge of the round's wait (the `sync`
//! docs, "The same-CPU trap"): a PE whose sender last arrived from its own CPU yields to it
//! instead of pausing, so two unpinned PEs the scheduler put on one CPU stay runnable side
//! by side and the load balancer moves one away; the barrier used to pass no hint, spun on
//! its peer's CPU until the spin budget ran out and slept, and the pair then stayed on one
//! CPU at a sleep and a wake-up per barrier (a run's `shmem_barrier_all` at 1.4-13 µs
//! instead of 0.1-0.3 µs, issue #44). 2^48 arrivals between two PEs (years of back-to-back
//! barriers) would wrap the count into the CPU bits.
//!
//! Yielding keeps the pair runnable, but the balancer may still leave two busy PEs on one
//! CPU (each ran a moment ago, so neither is "cache cold" enough to move), at a yield and a
//! switch per hand-off (2-5 µs per barrier measured on a loaded 2-CPU VM). So when the team
//! says each PE has a CPU of its own (it gives no hint) and a PE's sender arrived from its
//! own CPU a few rounds in a row ([`STACKED_ROUNDS`], then more after each move), the
//! higher-ranked of the two moves to another CPU of its affinity mask and gives the mask
//! back unchanged ([`unstack`]): then the two spin side by side, as pinned PEs do.
//!
//! Why counters per *sender* instead of one flag per round: a sender `s` reaches receiver
//! `r` at most once per barrier (the distances `1, 2, 4, ... < n` differ mod `n`; in a hub
//! barrier each member reaches the hub and the hub each member once), and both run the
//! barriers they share in the same order, so `r`'s `k`-th wait for `s` is met exactly by
//! `s`'s `k`-th arrival, whichever subsets and shapes the barriers had. A fast sender already
//! in the next barrier only makes the count larger: never a lost or stolen arrival.
//!
//! # Shapes
//!
//! The same arrivals make a second shape, the **hub**: every other member arrives at the
//! first member of the set and waits for it; the first member waits for all of them, then
//! arrives at each. It is used when the members cannot all run at once: more members than
//! the machine has online CPUs (more than two, at most 16; [`shape`], the same answer on
//! every member: the machine's CPU count and the set's size; a job that affinity alone
//! confines to fewer CPUs keeps dissemination). Each member other than the hub then waits
//! once per barrier instead of ⌈log2 n⌉ times, and on shared CPUs each wait is a yield and a
//! context switch. The hub also leaves the barrier first, while still running (it releases
//! the others, who run only when it yields): a collective rooted at the first member right
//! after the barrier, OSU's broadcast loop, finds the root's data already in place instead of
//! waiting for a root the scheduler has set aside (a 4-PE broadcast on 2 CPUs after a
//! dissemination barrier waited 1.5-2.6 µs for it, issue #44). With a CPU per member,
//! dissemination keeps its one hop per round with no member waiting on a hub.
//!
//! # Memory ordering
//!
//! The Release store in step 1 pairs with the Acquire load in step 2's wait on the receiver.
//! Happens-before is transitive along the rounds, and after ⌈log2 n⌉ rounds (in a hub
//! barrier: the hub's waits for every member, then its arrival at each) every member
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

/// Bits of an arrival word that count arrivals (module docs); the CPU slot is above them.
const COUNT_BITS: u32 = 48;
const COUNT_MASK: u64 = (1 << COUNT_BITS) - 1;

/// The arrivals an arrival word counts.
#[inline]
pub(crate) fn arrived(word: u64) -> u64 {
    word & COUNT_MASK
}

/// The CPU the sender of arrival word `word` last arrived from, if known.
#[inline]
fn sender_cpu(word: u64) -> Option<u32> {
    ((word >> COUNT_BITS) as u32).checked_sub(1)
}

/// The arrival word after one more arrival from CPU `cpu` (`None`: unknown; CPUs past
/// 65,534 read as unknown).
#[inline]
fn next_arrival(word: u64, cpu: Option<u32>) -> u64 {
    let slot = cpu
        .and_then(|c| c.checked_add(1))
        .filter(|&c| c <= 0xFFFF)
        .map_or(0, u64::from);
    (slot << COUNT_BITS) | (arrived(word).wrapping_add(1) & COUNT_MASK)
}

/// The CPU hint of a round's wait: the transport's (`team`: this CPU when the PE shares its
/// CPU with another PE of the team) when it has one, else the CPU the round's sender last
/// arrived from (`word`, this PE's arrival word of the sender).
#[inline]
fn round_hint(team_hint: Option<u32>, word: u64) -> Option<u32> {
    team_hint.or_else(|| sender_cpu(word))
}

/// The calling thread's CPU for an arrival word (loom: unknown; the hint is not part of the
/// models).
#[inline]
fn my_cpu() -> Option<u32> {
    #[cfg(not(loom))]
    {
        u32::try_from(crate::sys::affinity::current_cpu()).ok()
    }
    #[cfg(loom)]
    None
}

/// Rounds in a row in which an unpinned PE waited for a sender that arrived from its own
/// CPU, though the team gave each PE a CPU of its own, before its first move to another CPU
/// of its mask ([`unstack`]): few, as a benchmark may time only a hundred barriers right
/// after the start, when the PEs are still where the launcher's CPU spawned them. Each move
/// doubles the rounds before the next, up to [`MAX_STACKED_ROUNDS`], so a scheduler that
/// keeps putting the two back on one CPU costs a move (two `sched_setaffinity` calls and a
/// migration, tens of µs) per thousand barriers at most.
const STACKED_ROUNDS: u32 = 4;
/// The most rounds in a row before a move.
const MAX_STACKED_ROUNDS: u32 = 1024;

#[cfg(not(loom))]
std::thread_local! {
    /// This thread's stacked rounds in a row so far, and the rounds its next move waits for.
    static STACKED: std::cell::Cell<(u32, u32)> = const { std::cell::Cell::new((0, STACKED_ROUNDS)) };
}

/// After one more round (`stacked`: its sender arrived from this CPU) with `n` such rounds in
/// a row so far and a move due at `due`: the new count and due, and whether to move now
/// (then the count starts again and the next move waits twice as long).
#[inline]
fn count_stacked(n: u32, due: u32, stacked: bool) -> (u32, u32, bool) {
    match (stacked, n + 1 >= due) {
        (false, _) => (0, due, false),
        (true, false) => (n + 1, due, false),
        (true, true) => (0, (due * 2).min(MAX_STACKED_ROUNDS), true),
    }
}

/// Counts a round whose wait found its sender on this CPU (`stacked`) or elsewhere, and
/// moves this thread off its CPU when a move is due (loom: nothing).
#[inline]
fn note_stacked(stacked: bool) {
    #[cfg(not(loom))]
    STACKED.with(|c| {
        let (n, due) = c.get();
        let (n, due, move_now) = count_stacked(n, due, stacked);
        c.set((n, due));
        if move_now {
            unstack();
        }
    });
    #[cfg(loom)]
    let _ = stacked;
}

/// Moves the calling thread to another CPU of its affinity mask and gives the mask back
/// unchanged: the kernel migrates a thread whose mask loses its CPU at once, and leaves it
/// where it is when the mask comes back. Two unpinned PEs of a team with a CPU each that the
/// scheduler keeps on one CPU (both busy there, neither "cache cold" enough for the load
/// balancer to move) then run side by side, as pinned PEs do. Nothing when the mask holds
/// one CPU or cannot be read or set.
#[cfg(not(loom))]
#[cold]
#[inline(never)]
fn unstack() {
    use crate::sys::affinity;
    let Ok(mask) = affinity::thread_affinity() else {
        return;
    };
    let here = affinity::current_cpu();
    let elsewhere: Vec<usize> = mask.iter().copied().filter(|&c| c != here).collect();
    if !elsewhere.is_empty() && affinity::set_thread_affinity(&elsewhere).is_ok() {
        let _ = affinity::set_thread_affinity(&mask);
    }
}

/// How a barrier's members reach each other (module docs, "Shapes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// ⌈log2 n⌉ rounds, each member arriving at one other and waiting for one other.
    Dissemination,
    /// Every other member arrives at the first one and waits for it; the first one waits for
    /// them all, then arrives at each.
    Hub,
}

/// The largest set a hub barrier serves: its hub reads every other member's arrival and
/// writes one to each, in turn; past a few dozen that serial work outweighs the waits it
/// saves, and dissemination's ⌈log2 n⌉ rounds take over.
const HUB_MAX: usize = 16;

/// The shape of a barrier over `n` members on a machine with `online` CPUs: a hub when the
/// members cannot all run at once (more of them than CPUs, more than two, at most
/// [`HUB_MAX`]), else dissemination (module docs, "Shapes"). It depends on `n` and the
/// machine only, so every member picks the same.
pub(crate) fn shape(n: usize, online: usize) -> Shape {
    if n > 2 && n > online.max(1) && n <= HUB_MAX {
        Shape::Hub
    } else {
        Shape::Dissemination
    }
}

/// The machine's online CPUs, read once per process (loom: 1).
fn online_cpus() -> usize {
    #[cfg(not(loom))]
    {
        static ONLINE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *ONLINE.get_or_init(|| crate::sys::affinity::online_cpus().map_or(1, |c| c.len()))
    }
    #[cfg(loom)]
    1
}

/// Runs one barrier for `me` over `set` (sorted, containing `me`) in the shape its size
/// calls for on this machine ([`shape`]); the arguments as [`barrier`].
#[allow(clippy::too_many_arguments)] // the barrier's inputs; a struct would only rename them
pub(crate) fn run<'a, P: RoundWatch + ?Sized>(
    me: usize,
    set: &[usize],
    seen: &mut [u64],
    node: impl Fn(usize) -> Node<'a>,
    how: Wait,
    deadline: Option<Deadline>,
    peers: &P,
    peer_cpu: Option<u32>,
) -> Result<(), WaitError> {
    let shape = shape(set.len(), online_cpus());
    barrier(shape, me, set, seen, node, how, deadline, peers, peer_cpu)
}

/// Runs one barrier of `shape` for `me` over `set` (sorted, containing `me`); `seen` is
/// this PE's local count of arrivals consumed per sender rank; `peer_cpu` is the team's
/// hint for adaptive waits (see [`crate::sync::CpuHint`]), which each wait completes with
/// the CPU its sender arrived from ([`round_hint`]). An error names nothing: the caller
/// maps it (a peer check already names the PE).
#[allow(clippy::too_many_arguments)] // the barrier's inputs; a struct would only rename them
pub(crate) fn barrier<'a, P: RoundWatch + ?Sized>(
    shape: Shape,
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
    let cpu = my_cpu();
    let w = Await {
        me,
        mine: &mine,
        cpu,
        how,
        deadline,
        peers,
        peer_cpu,
    };
    match shape {
        Shape::Dissemination => {
            let mut d = 1;
            while d < n {
                arrive(me, &node(set[(i + d) % n]), cpu);
                w.next(set[(i + n - d) % n], seen)?;
                d *= 2;
            }
        }
        Shape::Hub if i == 0 => {
            for &from in &set[1..] {
                w.next(from, seen)?;
            }
            for &to in &set[1..] {
                arrive(me, &node(to), cpu);
            }
        }
        Shape::Hub => {
            arrive(me, &node(set[0]), cpu);
            w.next(set[0], seen)?;
        }
    }
    Ok(())
}

/// Step 1 (module docs): `me`'s next arrival at `to`, from CPU `cpu`.
#[inline]
fn arrive(me: usize, to: &Node<'_>, cpu: Option<u32>) {
    let out = &to.arrivals[me];
    // Relaxed: this PE is the word's only writer, so it reads its own last store.
    let last = out.load(Ordering::Relaxed);
    // Release: pairs with the Acquire loads in the receiver's wait ([`Await::next`]).
    out.store(next_arrival(last, cpu), Ordering::Release);
    to.bell.ring();
}

/// What step 2's waits of one barrier share.
struct Await<'n, 'a, P: ?Sized> {
    me: usize,
    mine: &'n Node<'a>,
    cpu: Option<u32>,
    how: Wait,
    deadline: Option<Deadline>,
    peers: &'n P,
    peer_cpu: Option<u32>,
}

impl<P: RoundWatch + ?Sized> Await<'_, '_, P> {
    /// Step 2 (module docs): waits for `from`'s next arrival at this PE.
    fn next(&self, from: usize, seen: &mut [u64]) -> Result<(), WaitError> {
        seen[from] += 1;
        let target = seen[from];
        let word = &self.mine.arrivals[from];
        // Acquire: pairs with the Release store of the sender ([`arrive`]).
        let now = word.load(Ordering::Acquire);
        self.peers.round(from, target);
        if arrived(now) >= target {
            return Ok(());
        }
        let hint = round_hint(self.peer_cpu, now);
        // The team says each PE has a CPU of its own (no hint of its own), yet the sender
        // arrived from this one: one of the two moves after a while (the higher rank, so
        // that they do not both move to the same CPU).
        if self.peer_cpu.is_none() && self.me > from {
            note_stacked(hint.is_some() && hint == self.cpu);
        }
        self.mine.bell.wait(
            // Acquire: as above.
            || (arrived(word.load(Ordering::Acquire)) >= target).then_some(()),
            crate::sync::Until {
                wait: self.how,
                deadline: self.deadline,
            },
            self.peers,
            hint,
        )
    }
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

    /// An arrival word counts in its low 48 bits and carries the sender's CPU + 1 above
    /// them (hand-computed words).
    #[test]
    fn arrival_words_count_and_carry_the_senders_cpu() {
        assert_eq!(next_arrival(0, Some(0)), (1 << 48) | 1);
        assert_eq!(next_arrival(0, Some(3)), (4 << 48) | 1);
        // The count goes on whatever the CPU was; the CPU is the latest arrival's.
        let w = next_arrival((4 << 48) | 41, Some(1));
        assert_eq!(w, (2 << 48) | 42);
        assert_eq!((arrived(w), sender_cpu(w)), (42, Some(1)));
        // Unknown CPUs (none given, or past the 16-bit slot) leave the slot empty.
        assert_eq!(next_arrival((2 << 48) | 42, None), 43);
        assert_eq!(sender_cpu(43), None);
        assert_eq!(next_arrival(7, Some(0xFFFE)), (0xFFFF << 48) | 8);
        assert_eq!(next_arrival(7, Some(0xFFFF)), 8);
        assert_eq!(arrived(u64::MAX), (1 << 48) - 1);
    }

    /// A round's wait takes the team's hint when it has one, else the CPU its sender last
    /// arrived from: the partner it waits for, never the machine's load.
    #[test]
    fn a_round_waits_with_its_senders_cpu() {
        let from_cpu_5 = next_arrival(9, Some(5));
        assert_eq!(round_hint(None, from_cpu_5), Some(5));
        assert_eq!(
            round_hint(Some(1), from_cpu_5),
            Some(1),
            "the team's verdict first"
        );
        assert_eq!(round_hint(None, 9), None, "no arrival with a CPU yet");
        assert_eq!(round_hint(Some(0), 0), Some(0));
    }

    /// Two threads pinned to one CPU: each round's wait finds its sender's CPU in the
    /// arrival word and yields to it (before the word carried it, the barrier passed no
    /// hint and every wait paused on the CPU its peer needed).
    #[test]
    fn members_on_one_cpu_yield_to_each_other() {
        use crate::sync::wait::{adaptive_stats, reset_adaptive_stats};
        let cpu = crate::sys::affinity::thread_affinity().unwrap()[0];
        let nodes = Arc::new(Nodes {
            arrivals: (0..2)
                .map(|_| (0..2).map(|_| AtomicU64::new(0)).collect())
                .collect(),
            bells: (0..2).map(|_| Doorbell::new()).collect(),
        });
        let threads: Vec<_> = (0..2)
            .map(|me| {
                let nodes = nodes.clone();
                std::thread::spawn(move || {
                    crate::sys::affinity::pin_current_thread(cpu).unwrap();
                    let node = |r: usize| Node {
                        arrivals: &nodes.arrivals[r],
                        bell: &nodes.bells[r],
                    };
                    let mut seen = vec![0u64; 2];
                    reset_adaptive_stats();
                    for _ in 0..2_000 {
                        barrier(
                            Shape::Dissemination,
                            me,
                            &[0, 1],
                            &mut seen,
                            node,
                            Wait::ADAPTIVE,
                            None,
                            &NoPeers,
                            None,
                        )
                        .unwrap();
                    }
                    adaptive_stats()
                })
            })
            .collect();
        for t in threads {
            let st = t.join().unwrap();
            assert!(st.same_cpu > 0, "no wait yielded to its sender: {st:?}");
        }
    }

    /// Hand-computed: a hub only for 3..=16 members that outnumber the online CPUs.
    #[test]
    fn a_hub_when_the_members_outnumber_the_cpus() {
        use Shape::{Dissemination as D, Hub as H};
        let want = [
            ((2, 1), D),
            ((3, 2), H),
            ((4, 2), H),
            ((4, 4), D),
            ((5, 4), H),
            ((16, 2), H),
            ((17, 2), D),
            ((256, 2), D),
            ((8, 64), D),
            ((3, 0), H),
        ];
        for ((n, online), sh) in want {
            assert_eq!(shape(n, online), sh, "{n} members, {online} CPUs");
        }
    }

    /// Four members on two CPUs: one barrier in the shape the transport picks sends one
    /// arrival from each member to the first and one from the first to each, nothing
    /// between the others (a dissemination barrier would have each reach two others), and
    /// each member's write before it is seen by all after it.
    #[test]
    fn four_members_on_two_cpus_meet_at_the_first() {
        const N: usize = 4;
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
                    let node = |r: usize| Node {
                        arrivals: &nodes.arrivals[r],
                        bell: &nodes.bells[r],
                    };
                    let mut seen = vec![0u64; N];
                    data[me].store(1, Ordering::Relaxed);
                    let all: Vec<usize> = (0..N).collect();
                    let sh = shape(N, 2);
                    barrier(
                        sh,
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
                        assert_eq!(d.load(Ordering::Relaxed), 1, "PE {me}: PE {r}'s write");
                    }
                    seen
                })
            })
            .collect();
        let seen: Vec<Vec<u64>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        for (to, (words, waits)) in nodes.arrivals.iter().zip(&seen).enumerate() {
            for (from, (word, &waited)) in words.iter().zip(waits).enumerate() {
                let want = u64::from(to != from && (to == 0 || from == 0));
                let got = arrived(word.load(Ordering::Relaxed));
                assert_eq!(got, want, "arrivals from PE {from} at PE {to}");
                assert_eq!(waited, want, "PE {to}'s waits for PE {from}");
            }
        }
    }

    /// A move comes after 4 stacked rounds in a row, then after 8, 16, ... up to 1024; a
    /// round whose sender is elsewhere starts the count again.
    #[test]
    fn stacked_rounds_in_a_row_move_with_backoff() {
        let (mut n, mut due) = (0, STACKED_ROUNDS);
        let mut moves_at = Vec::new();
        for round in 1..=20_000u32 {
            let (n2, due2, moved) = count_stacked(n, due, true);
            if moved {
                moves_at.push(round);
            }
            (n, due) = (n2, due2);
        }
        // Hand-computed: moves after 4, 8, 16, ..., 1024 rounds, then every 1024.
        let mut want = Vec::new();
        let (mut at, mut gap) = (0, 4);
        while at + gap <= 20_000 {
            at += gap;
            want.push(at);
            gap = (gap * 2).min(1024);
        }
        assert_eq!(moves_at, want);
        assert_eq!(&moves_at[..4], &[4, 12, 28, 60]);
        // A round with the sender elsewhere resets the count, not the backoff.
        assert_eq!(count_stacked(3, 4, false), (0, 4, false));
        assert_eq!(count_stacked(2, 4, true), (3, 4, false));
        assert_eq!(count_stacked(3, 4, true), (0, 8, true));
        assert_eq!(count_stacked(1023, 1024, true), (0, 1024, true));
    }

    /// `unstack` moves a thread whose mask holds two CPUs to the other one and leaves its
    /// mask as it was; a thread pinned to one CPU stays.
    #[test]
    fn unstack_moves_to_another_cpu_of_the_mask() {
        use crate::sys::affinity;
        let cpus = affinity::allowed_cpus().unwrap();
        if cpus.len() < 2 {
            eprintln!("SKIP: unstack_moves_to_another_cpu_of_the_mask: needs 2 CPUs");
            return;
        }
        let (a, b) = (cpus[0], cpus[1]);
        std::thread::spawn(move || {
            affinity::pin_current_thread(a).unwrap();
            unstack();
            assert_eq!(affinity::current_cpu(), a, "pinned to one CPU: stays");
            affinity::set_thread_affinity(&[a, b]).unwrap();
            // Widening the mask leaves the thread on CPU a (nothing moves a running thread
            // whose CPU stays allowed), until `unstack` moves it.
            if affinity::current_cpu() == a {
                unstack();
                assert_eq!(affinity::current_cpu(), b, "moved to the other CPU");
            }
            assert_eq!(
                affinity::thread_affinity().unwrap(),
                vec![a, b],
                "mask kept"
            );
        })
        .join()
        .unwrap();
    }

    struct Nodes {
        arrivals: Vec<Vec<AtomicU64>>,
        bells: Vec<Doorbell>,
    }

    /// Threads as members: every member's pre-barrier write is seen by all after it, over
    /// many barriers, with subsets and shapes interleaved (all in dissemination, all around
    /// a hub, then the even ranks only around a hub).
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
        let late: Arc<Vec<AtomicU64>> = Arc::new((0..N).map(|_| AtomicU64::new(0)).collect());
        let threads: Vec<_> = (0..N)
            .map(|me| {
                let (nodes, data, late) = (nodes.clone(), data.clone(), late.clone());
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
                        barrier(
                            Shape::Dissemination,
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
                        late[me].store(it, Ordering::Relaxed);
                        barrier(
                            Shape::Hub,
                            me,
                            &all,
                            &mut seen,
                            node,
                            Wait::Block,
                            None,
                            &NoPeers,
                            None,
                        )
                        .unwrap();
                        for (r, d) in late.iter().enumerate() {
                            assert!(
                                d.load(Ordering::Relaxed) >= it,
                                "PE {me} iter {it}: PE {r} behind the hub barrier"
                            );
                        }
                        if me % 2 == 0 {
                            barrier(
                                Shape::Hub,
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

    /// Three members, one barrier of `shape`, blocking waits: each writes its data cell before the
    /// barrier (plain, loom-tracked) and reads every other's after it. A lost wake-up shows
    /// up as a deadlock, a missing happens-before as a data race — with one limit: loom
    /// orders all `SeqCst` fences globally (stronger than C11), and the doorbell's fences
    /// then carry the data too, so this model alone would not notice the arrival's Release
    /// weakened to Relaxed (checked by hand: it then still passes). The Release is what
    /// C11 needs (module docs).
    fn three_members(shape: Shape) {
        loom::model(move || {
            const N: usize = 3;
            let s = Arc::new(Shared {
                arrivals: (0..N)
                    .map(|_| (0..N).map(|_| AtomicU64::new(0)).collect())
                    .collect(),
                bells: (0..N).map(|_| Doorbell::new()).collect(),
                data: (0..N).map(|_| UnsafeCell::new(0)).collect(),
            });
            let run = move |s: Arc<Shared>, me: usize| {
                s.data[me].with_mut(|p| {
                    // SAFETY: only `me` writes its cell, before the barrier.
                    unsafe { *p = me as u64 + 1 }
                });
                let mut seen = vec![0; N];
                let node = |r: usize| Node {
                    arrivals: &s.arrivals[r],
                    bell: &s.bells[r],
                };
                barrier(
                    shape,
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

    #[test]
    fn loom_team_barrier_three_members() {
        three_members(Shape::Dissemination);
    }

    /// The hub shape (module docs, "Shapes"): member 0 waits for 1 and 2, then arrives at
    /// each.
    #[test]
    fn loom_team_barrier_three_members_around_a_hub() {
        three_members(Shape::Hub);
    }
}

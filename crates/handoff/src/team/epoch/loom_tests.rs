//! Loom models of the epoch protocols on their real code: the lock word functions of
//! [`super::lockword`] on a loom atomic through `ops::apply_atomic64` (what the team's
//! remote atomic runs on the target's word), and the PSCW matching of [`super::matching`]
//! on signal words through `ops::apply_signal` / `ops::load_signal` (what the team's
//! `signal` and local polls run), and the fence's rounds of [`super::fence`] on the same
//! signal words. Payloads are loom `UnsafeCell`s: a missing
//! happens-before is a reported race. Waits spin with `yield_now` (the team's waits add
//! only sleeping, which the team's own models check), but for the lock's wake-ups
//! (`loom_epoch_lock_wakes_the_next_writer`), whose waiters sleep until a release wakes them.

use super::fence::{self, FenceWords};
use super::lockword::{self, LockWord, WaiterMap};
use super::matching::{Matching, PscwWords};
use crate::atomic::{fence, AtomicU64, Ordering};
use crate::team::ops::{apply_signal, load_signal};
use crate::team::SignalOp;
use loom::cell::UnsafeCell;
use loom::sync::Arc;

fn ok<T>(r: Result<T, std::convert::Infallible>) -> T {
    match r {
        Ok(v) => v,
    }
}

/// What `Epochs::acquire` does for a writer: the free-word CAS, else announce and retry.
fn lock_exclusive(w: &AtomicU64) {
    if ok(lockword::try_free_exclusive(w)) {
        return;
    }
    ok(lockword::announce_writer(w));
    while !ok(lockword::try_exclusive(w)) {
        loom::thread::yield_now();
    }
}

fn lock_shared(w: &AtomicU64) {
    while !ok(lockword::try_shared(w)) {
        loom::thread::yield_now();
    }
}

/// Two exclusive lockers increment an unprotected cell: no race, both increments land, the
/// word returns to 0.
#[test]
fn loom_epoch_lock_two_writers_exclude() {
    loom::model(|| {
        let s = Arc::new((AtomicU64::new(0), UnsafeCell::new(0u64)));
        let ts: Vec<_> = (0..2)
            .map(|_| {
                let s = s.clone();
                loom::thread::spawn(move || {
                    lock_exclusive(&s.0);
                    // SAFETY: the exclusive lock is held (what loom checks).
                    s.1.with_mut(|p| unsafe { *p += 1 });
                    ok(lockword::unlock_exclusive(&s.0));
                })
            })
            .collect();
        for t in ts {
            t.join().unwrap();
        }
        // SAFETY: both writers joined.
        assert_eq!(s.1.with(|p| unsafe { *p }), 2);
        assert_eq!(ok(s.0.rmw(crate::team::AtomicOp::Fetch)), 0);
    });
}

/// A reader and a writer: the reader sees the cell before or after the writer's whole
/// update (never during: loom reports the race), and the word returns to 0.
#[test]
fn loom_epoch_lock_reader_and_writer() {
    loom::model(|| {
        let s = Arc::new((AtomicU64::new(0), UnsafeCell::new(0u64)));
        let s2 = s.clone();
        let w = loom::thread::spawn(move || {
            lock_exclusive(&s2.0);
            // SAFETY: exclusive lock held.
            s2.1.with_mut(|p| unsafe { *p = 7 });
            ok(lockword::unlock_exclusive(&s2.0));
        });
        lock_shared(&s.0);
        // SAFETY: shared lock held: no writer inside.
        let seen = s.1.with(|p| unsafe { *p });
        ok(lockword::unlock_shared(&s.0));
        assert!(seen == 0 || seen == 7);
        w.join().unwrap();
        assert_eq!(ok(s.0.rmw(crate::team::AtomicOp::Fetch)), 0);
    });
}

/// One PE's lock as three PEs see it: the lock word, the waiter map (one word of writers'
/// bits, one of readers'), each PE's wake word, and a cell the lock protects.
struct LockPe {
    lock: AtomicU64,
    map: [AtomicU64; 2],
    wakes: [AtomicU64; 3],
    cell: UnsafeCell<u64>,
}

impl WaiterMap for LockPe {
    type Err = std::convert::Infallible;
    fn size(&self) -> usize {
        3
    }
    fn fetch(&self, i: usize) -> Result<u64, Self::Err> {
        self.map[i].rmw(crate::team::AtomicOp::Fetch)
    }
    fn wake(&self, pe: usize) -> Result<(), Self::Err> {
        apply_signal(&self.wakes[pe], SignalOp::Add(1));
        Ok(())
    }
}

/// What `Epochs::acquire` / `wait_for` do for a writer, on the real lock word and map
/// functions: the free-word CAS; else announce, try; else set the bit, fence, and retry around sleeps that only a
/// wake ends (the sleeper reads its wake word before each retry and sleeps while it is
/// unchanged, as the bell's registration does).
fn lock_exclusive_sleeping(s: &LockPe, me: usize) {
    if ok(lockword::try_free_exclusive(&s.lock)) {
        return;
    }
    ok(lockword::announce_writer(&s.lock));
    if ok(lockword::try_exclusive(&s.lock)) {
        return;
    }
    let (i, bit) = lockword::waiter_bit(me, true, 1);
    ok(s.map[i].rmw(crate::team::AtomicOp::FetchOr(bit)));
    fence(Ordering::SeqCst); // quiet
    loop {
        let seen = load_signal(&s.wakes[me]);
        if ok(lockword::try_exclusive(&s.lock)) {
            break;
        }
        while load_signal(&s.wakes[me]) == seen {
            loom::thread::yield_now(); // asleep: only a wake ends it
        }
    }
    ok(s.map[i].rmw(crate::team::AtomicOp::FetchAnd(!bit)));
}

/// What `Epochs::acquire` / `wait_for` do for a reader: one try; else set the bit, fence,
/// and retry (flagging RWAIT on each failure) around sleeps that only a wake ends.
fn lock_shared_sleeping(s: &LockPe, me: usize) {
    if ok(lockword::try_shared(&s.lock)) {
        return;
    }
    let (i, bit) = lockword::waiter_bit(me, false, 1);
    ok(s.map[i].rmw(crate::team::AtomicOp::FetchOr(bit)));
    fence(Ordering::SeqCst); // quiet
    loop {
        let seen = load_signal(&s.wakes[me]);
        if ok(lockword::try_shared_or_flag(&s.lock)) {
            break;
        }
        while load_signal(&s.wakes[me]) == seen {
            loom::thread::yield_now(); // asleep: only a wake ends it
        }
    }
    ok(s.map[i].rmw(crate::team::AtomicOp::FetchAnd(!bit)));
}

/// What `Epochs::release` does after a hold (`before` what the unlock's fetch-add
/// returned, `after` the word it left): when the word showed a waiter, fence and wake.
fn wake_after_release(s: &LockPe, me: usize, before: u64, after: u64) {
    if !lockword::must_wake(before) {
        return;
    }
    fence(Ordering::SeqCst); // quiet
    ok(lockword::wake_next(&s.lock, s, after, me));
}

/// What `Epochs::release` does after an exclusive hold.
fn unlock_exclusive_waking(s: &LockPe, me: usize) {
    let before = ok(lockword::unlock_exclusive(&s.lock));
    wake_after_release(s, me, before, before - lockword::WRITER);
}

/// What `Epochs::release` does after a shared hold.
fn unlock_shared_waking(s: &LockPe, me: usize) {
    let before = ok(lockword::unlock_shared(&s.lock));
    wake_after_release(s, me, before, before - 1);
}

/// PE 0 holds the lock; PEs 1 and 2 lock it exclusively, sleeping until woken. Every
/// release wakes at most one writer, yet none sleeps forever (a lost wake-up never ends:
/// loom reports the endless sleep), the cell sees every increment without a race, and the
/// word and the map end empty.
#[test]
fn loom_epoch_lock_wakes_the_next_writer() {
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(2);
    b.check(|| {
        let s = Arc::new(LockPe {
            lock: AtomicU64::new(lockword::WRITER),
            map: Default::default(),
            wakes: Default::default(),
            cell: UnsafeCell::new(0),
        });
        let ts: Vec<_> = (1..3)
            .map(|me| {
                let s = s.clone();
                loom::thread::spawn(move || {
                    lock_exclusive_sleeping(&s, me);
                    // SAFETY: the exclusive lock is held (what loom checks).
                    s.cell.with_mut(|p| unsafe { *p += 1 });
                    unlock_exclusive_waking(&s, me);
                })
            })
            .collect();
        // SAFETY: PE 0 holds the lock from the start.
        s.cell.with_mut(|p| unsafe { *p += 1 });
        unlock_exclusive_waking(&s, 0);
        for t in ts {
            t.join().unwrap();
        }
        // SAFETY: every PE joined.
        assert_eq!(s.cell.with(|p| unsafe { *p }), 3);
        assert_eq!(ok(s.lock.rmw(crate::team::AtomicOp::Fetch)), 0);
        assert_eq!(ok(s.fetch(0)), 0);
    });
}

/// PE 0 holds the lock exclusively; PE 1 locks it shared and PE 2 exclusively, both
/// sleeping until woken. The reader's only wake-up is a release that saw RWAIT in the word
/// (an uncontended release reads no map), so a reader that flagged itself too late, or a
/// RWAIT cleared while a writer announced itself, is an endless sleep that loom reports.
/// The reader sees the cell before or after the writer's whole update (no race), and the
/// word ends free of holders and waiting writers (a stale RWAIT is allowed: it costs the
/// next release one empty scan) and the map empty.
#[test]
fn loom_epoch_lock_wakes_a_sleeping_reader() {
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(2);
    b.check(|| {
        let s = Arc::new(LockPe {
            lock: AtomicU64::new(lockword::WRITER),
            map: Default::default(),
            wakes: Default::default(),
            cell: UnsafeCell::new(0),
        });
        let s1 = s.clone();
        let reader = loom::thread::spawn(move || {
            lock_shared_sleeping(&s1, 1);
            // SAFETY: the shared lock is held: no writer inside (what loom checks).
            let seen = s1.cell.with(|p| unsafe { *p });
            unlock_shared_waking(&s1, 1);
            seen
        });
        let s2 = s.clone();
        let writer = loom::thread::spawn(move || {
            lock_exclusive_sleeping(&s2, 2);
            // SAFETY: the exclusive lock is held (what loom checks).
            s2.cell.with_mut(|p| unsafe { *p += 10 });
            unlock_exclusive_waking(&s2, 2);
        });
        // SAFETY: PE 0 holds the lock from the start.
        s.cell.with_mut(|p| unsafe { *p += 1 });
        unlock_exclusive_waking(&s, 0);
        let seen = reader.join().unwrap();
        writer.join().unwrap();
        assert!(seen == 1 || seen == 11, "the reader saw {seen}");
        // SAFETY: every PE joined.
        assert_eq!(s.cell.with(|p| unsafe { *p }), 11);
        let word = ok(s.lock.rmw(crate::team::AtomicOp::Fetch));
        assert_eq!(word & !lockword::RWAIT, 0, "{word:#x}");
        assert_eq!((ok(s.fetch(0)), ok(s.fetch(1))), (0, 0));
    });
}

/// Two PEs' PSCW words: `posts[pe][from]`, `completions[pe]`, and the target's window.
struct Shared {
    posts: [[AtomicU64; 2]; 2],
    completions: [AtomicU64; 2],
    window: UnsafeCell<u64>,
}

struct Pe {
    me: usize,
    s: Arc<Shared>,
}

impl PscwWords for Pe {
    type Err = std::convert::Infallible;
    fn post_to(&self, origin: usize) -> Result<(), Self::Err> {
        apply_signal(&self.s.posts[origin][self.me], SignalOp::Add(1));
        Ok(())
    }
    fn posts_from(&self, target: usize) -> u64 {
        load_signal(&self.s.posts[self.me][target])
    }
    fn complete_to(&self, target: usize) -> Result<(), Self::Err> {
        apply_signal(&self.s.completions[target], SignalOp::Add(1));
        Ok(())
    }
    fn completions(&self) -> u64 {
        load_signal(&self.s.completions[self.me])
    }
}

/// Target 0 exposes its window to origin 1 for two epochs in a row; in each the origin
/// reads what the target wrote before posting and puts a new value; the target reads it
/// after `wait`. No race (loom), no epoch crossing (the values), for the real matching code.
#[test]
fn loom_epoch_pscw_two_epochs() {
    loom::model(|| {
        let s = Arc::new(Shared {
            posts: Default::default(),
            completions: Default::default(),
            window: UnsafeCell::new(0),
        });
        let origin = Pe {
            me: 1,
            s: s.clone(),
        };
        let o = loom::thread::spawn(move || {
            let mut m = Matching::new(2);
            for epoch in 1..=2u64 {
                while !m.posted(&origin, 0) {
                    loom::thread::yield_now();
                }
                m.consume_post(0);
                // SAFETY: inside the access epoch the target does not touch its window.
                let before = origin.s.window.with(|p| unsafe { *p });
                assert_eq!(
                    before,
                    10 * epoch,
                    "epoch {epoch}: the target's pre-post write"
                );
                origin.s.window.with_mut(|p| unsafe { *p = 10 * epoch + 1 });
                fence(Ordering::SeqCst); // quiet
                ok(m.complete(&origin, &[0]));
            }
        });
        let target = Pe {
            me: 0,
            s: s.clone(),
        };
        let mut m = Matching::new(2);
        for epoch in 1..=2u64 {
            // SAFETY: outside an exposure epoch only the target touches its window.
            s.window.with_mut(|p| unsafe { *p = 10 * epoch });
            ok(m.post(&target, &[1]));
            while !m.completed(&target, 1) {
                loom::thread::yield_now();
            }
            m.consume_completions(1);
            // SAFETY: after wait the origin's epoch is over.
            assert_eq!(s.window.with(|p| unsafe { *p }), 10 * epoch + 1);
        }
        o.join().unwrap();
    });
}

/// `p` PEs' fence words: `arrivals[r][s]`, a bell per word (the team's wake-up of a
/// sleeper on that word), and each PE's window cell.
struct FenceTable {
    arrivals: Vec<Vec<AtomicU64>>,
    bells: Vec<Vec<loom::sync::Notify>>,
    cells: Vec<UnsafeCell<u64>>,
}

struct FencePe {
    me: usize,
    t: Arc<FenceTable>,
}

impl FenceWords for FencePe {
    type Err = std::convert::Infallible;
    fn size(&self) -> usize {
        self.t.cells.len()
    }
    fn rank(&self) -> usize {
        self.me
    }
    fn arrive(&self, to: usize, n: u64) -> Result<(), Self::Err> {
        apply_signal(&self.t.arrivals[to][self.me], SignalOp::Set(n));
        Ok(())
    }
    fn ring(&self, to: usize) -> Result<(), Self::Err> {
        self.t.bells[to][self.me].notify(); // the signal's ring
        Ok(())
    }
    fn spins(&self) -> u32 {
        1 // one poll between the store and the ring (each is a model yield)
    }
    fn arrived(&self, from: usize) -> u64 {
        load_signal(&self.t.arrivals[self.me][from])
    }
    fn wait_arrived(&self, from: usize, n: u64) -> Result<(), Self::Err> {
        // Asleep until the sender's ring (spinning PEs take loom too long at four PEs). A
        // PE that saw the word without sleeping got its ordering from the atomics alone.
        while self.arrived(from) < n {
            self.t.bells[self.me][from].wait();
        }
        Ok(())
    }
}

/// `p` PEs run `body` (given each PE's words) on the real `dissemination`, under loom
/// with at most `preemptions` preemptions per execution.
fn fence_model(p: usize, preemptions: usize, body: fn(&FencePe)) {
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(preemptions);
    b.check(move || {
        let t = Arc::new(FenceTable {
            arrivals: (0..p)
                .map(|_| (0..p).map(|_| AtomicU64::new(0)).collect())
                .collect(),
            bells: (0..p)
                .map(|_| (0..p).map(|_| loom::sync::Notify::new()).collect())
                .collect(),
            cells: (0..p).map(|_| UnsafeCell::new(0)).collect(),
        });
        let ts: Vec<_> = (1..p)
            .map(|me| {
                let t = t.clone();
                loom::thread::spawn(move || body(&FencePe { me, t }))
            })
            .collect();
        body(&FencePe {
            me: 0,
            t: t.clone(),
        });
        for h in ts {
            h.join().unwrap();
        }
    });
}

/// A PE's put into its own cell (the data a fence publishes), then `quiet` and fence `n`.
fn put_and_fence(pe: &FencePe, value: u64, n: u64) {
    // SAFETY: outside the reading phase only PE `me` touches its cell (what loom checks).
    pe.t.cells[pe.me].with_mut(|p| unsafe { *p = value });
    fence(Ordering::SeqCst); // quiet
    ok(fence::dissemination(pe, n));
}

/// Two PEs: each puts, fences, reads both cells, fences, and puts again. The first puts
/// are visible after the first fence (the values; loom reports a missing happens-before
/// as a race), and the second put waits until the other PE has read (a read racing a
/// later put is a reported race).
#[test]
fn loom_epoch_fence_orders_puts() {
    fence_model(2, 2, |pe| {
        put_and_fence(pe, 1, 1);
        for c in &pe.t.cells {
            // SAFETY: between the fences nobody writes (what loom checks).
            assert_eq!(c.with(|p| unsafe { *p }), 1);
        }
        fence(Ordering::SeqCst); // quiet
        ok(fence::dissemination(pe, 2));
        // SAFETY: after the second fence every PE has read (what loom checks).
        pe.t.cells[pe.me].with_mut(|p| unsafe { *p = 2 });
    });
}

/// Four PEs, one fence (two rounds): PE 3 hears of PE 0 only through PE 1 (round 1: 0 → 1;
/// round 2: 1 → 3), so visibility must pass along the chain of stores and loads. No
/// preemptions (switches only where a PE sleeps or ends): loom's race check follows
/// happens-before, not the schedule, so one execution in which PE 3 reads PE 0's cell
/// without the chain is a reported race; four PEs with preemptions take minutes.
#[test]
fn loom_epoch_fence_publishes_through_a_middle_pe() {
    fence_model(4, 0, |pe| {
        put_and_fence(pe, 1, 1);
        for c in &pe.t.cells {
            // SAFETY: after the fence nobody writes (what loom checks).
            assert_eq!(c.with(|p| unsafe { *p }), 1);
        }
    });
}

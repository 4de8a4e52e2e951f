//! The team transport contract as a test suite: every [`Transport`] must pass it.
//!
//! Each check is collective (every PE of a started team calls it, in the same order) and
//! returns `Err` saying what broke. Expected values come from closed forms written here (a
//! PE's rank, sums over ranks), never from the transport. A transport's test starts a team
//! of its kind (for the shared-memory one: `tests/team.rs` via [`crate::team_launch`]) and
//! calls [`run_all`] on every PE.

use std::sync::atomic::Ordering;

use handoff::team::{
    AtomicOp, Cmp, Line, Route, SignalOp, Team, TeamError, Transport, LINE_PAYLOAD, LINE_WORDS,
};

/// `Err(what)` unless `cond`.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

fn e(what: &str) -> impl Fn(TeamError) -> String + '_ {
    move |err| format!("{what}: {err}")
}

/// Runs every check, in order.
pub fn run_all<X: Transport>(team: &Team<X>) -> Result<(), String> {
    put_get(team)?;
    put_signal(team)?;
    counters(team)?;
    wait_forms(team)?;
    lines(team)?;
    atomics(team)?;
    barriers(team)?;
    bounds(team)?;
    transport_bounds(team)?;
    peer_pointers(team)?;
    wait_any_is_fair(team)?;
    alloc_mismatch(team)?;
    Ok(())
}

/// The value PE `from` puts at element `i` for PE `to` (an oracle, not the transport).
fn stamp(from: usize, to: usize, i: usize) -> u64 {
    ((from as u64) << 40) | ((to as u64) << 20) | i as u64
}

/// Every PE puts a block to every PE (itself included) and gets one back; the data land at
/// the same symmetric offset on every PE.
pub fn put_get<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    const N: usize = 33;
    let inbox = team.alloc::<u64>(N * p).map_err(e("alloc"))?;
    for to in 0..p {
        let block: Vec<u64> = (0..N).map(|i| stamp(me, to, i)).collect();
        if to % 2 == 0 {
            team.put(&inbox, me * N, &block, to).map_err(e("put"))?;
        } else {
            team.put_nbi(&inbox, me * N, &block, to)
                .map_err(e("put_nbi"))?;
        }
    }
    team.quiet();
    team.barrier_all().map_err(e("barrier"))?;
    let local = team.local(&inbox);
    for from in 0..p {
        for i in 0..N {
            let want = stamp(from, me, i);
            ensure!(
                local[from * N + i] == want,
                "PE {me}: element {i} from PE {from} is {:#x}, want {want:#x}",
                local[from * N + i]
            );
        }
    }
    // get: read what PE `right` received from PE `me`.
    let right = (me + 1) % p;
    let mut back = vec![0u64; N];
    team.get(&inbox, me * N, &mut back, right)
        .map_err(e("get"))?;
    for (i, v) in back.iter().enumerate() {
        ensure!(
            *v == stamp(me, right, i),
            "PE {me}: get from PE {right} element {i} is {v:#x}"
        );
    }
    team.barrier_all().map_err(e("barrier"))
}

/// A ring of put-with-signal, both `Add` and `Set`, many times: the receiver waits on the
/// signal and must find the data that came with it.
pub fn put_signal<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    let (right, left) = ((me + 1) % p, (me + p - 1) % p);
    const ROUNDS: u64 = 200;
    const N: usize = 16;
    let data = team.alloc::<u64>(N).map_err(e("alloc"))?;
    let sig = team.alloc::<u64>(2).map_err(e("alloc"))?;
    let ack = team.alloc::<u64>(1).map_err(e("alloc"))?;
    for k in 1..=ROUNDS {
        let block: Vec<u64> = (0..N as u64).map(|i| k * 1000 + i + me as u64).collect();
        let op = if k % 2 == 0 {
            SignalOp::Add(1)
        } else {
            SignalOp::Set(k)
        };
        let at = if k % 2 == 0 { sig.at(0) } else { sig.at(1) };
        team.put_signal(&data, 0, &block, at, op, right)
            .map_err(e("put_signal"))?;
        let seen = if k % 2 == 0 {
            team.signal_wait_until(sig.at(0), Cmp::Ge, k / 2)
                .map_err(e("signal_wait_until"))?
        } else {
            team.signal_wait_until(sig.at(1), Cmp::Eq, k)
                .map_err(e("signal_wait_until"))?
        };
        ensure!(
            seen == if k % 2 == 0 { k / 2 } else { k },
            "PE {me}: round {k} saw signal {seen}"
        );
        let got = team.local(&data);
        for (i, v) in got.iter().enumerate() {
            let want = k * 1000 + i as u64 + left as u64;
            ensure!(
                *v == want,
                "PE {me}: round {k} element {i} is {v}, want {want} (data after signal)"
            );
        }
        // Let the left neighbour send the next round only after we read this one.
        team.signal(ack, SignalOp::Add(1), left)
            .map_err(e("signal"))?;
        team.signal_wait_until(ack, Cmp::Ge, k)
            .map_err(e("ack wait"))?;
    }
    ensure!(
        team.signal_fetch(ack).map_err(e("signal_fetch"))? == ROUNDS,
        "PE {me}: ack count"
    );
    team.barrier_all().map_err(e("barrier"))
}

/// The seed's counters: every PE sends `K` counting puts to every other PE; each waits for
/// (p − 1)·K, then resets its counter (receiver-managed) and repeats.
pub fn counters<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    const K: usize = 8;
    let ct = team.ct_create().map_err(e("ct_create"))?;
    let slots = team.alloc::<u64>(p * K).map_err(e("alloc"))?;
    for round in 1..=3u64 {
        for to in (0..p).filter(|&t| t != me) {
            for k in 0..K {
                let v = [round << 32 | (me * K + k) as u64];
                team.put_ct(&ct, &slots, me * K + k, &v, to)
                    .map_err(e("put_ct"))?;
            }
        }
        let want = ((p - 1) * K) as u64;
        let got = team.ct_wait(&ct, want).map_err(e("ct_wait"))?;
        ensure!(got == want, "PE {me}: counter {got}, want exactly {want}");
        let local = team.local(&slots);
        for from in (0..p).filter(|&f| f != me) {
            for k in 0..K {
                let want = round << 32 | (from * K + k) as u64;
                ensure!(
                    local[from * K + k] == want,
                    "PE {me}: round {round} slot from PE {from} #{k}"
                );
            }
        }
        team.ct_set(&ct, 0);
        ensure!(team.ct_get(&ct) == 0, "PE {me}: ct_set(0) did not stick");
        team.barrier_all().map_err(e("barrier"))?;
    }
    Ok(())
}

/// The three forms of a team wait (issue #43) over the transport's waits: before anything
/// is sent, `try_` answers [`TeamError::WouldBlock`] and `_timeout` ends with
/// [`TeamError::Timeout`] (the transport honours the call's deadline); after each PE signals
/// and counts to its right neighbour, `_timeout` returns what arrived and `try_` sees it.
pub fn wait_forms<X: Transport>(team: &Team<X>) -> Result<(), String> {
    use handoff::team::{SignalOp, TeamError};
    use std::time::Duration;
    let (me, p) = (team.rank(), team.size());
    let sig = team.alloc::<u64>(1).map_err(e("alloc"))?;
    let ct = team.ct_create().map_err(e("ct_create"))?;
    let short = Duration::from_millis(50);
    let r = team.try_signal_wait_until(sig, Cmp::Ge, 1);
    ensure!(
        matches!(r, Err(TeamError::WouldBlock { .. })),
        "PE {me}: try_signal_wait_until before the signal: {r:?}"
    );
    let r = team.try_ct_wait(&ct, 1);
    ensure!(
        matches!(r, Err(TeamError::WouldBlock { .. })),
        "PE {me}: try_ct_wait before the count: {r:?}"
    );
    let r = team.signal_wait_until_timeout(sig, Cmp::Ge, 1, short);
    ensure!(
        matches!(r, Err(TeamError::Timeout { .. })),
        "PE {me}: signal_wait_until_timeout before the signal: {r:?}"
    );
    let r = team.ct_wait_timeout(&ct, 1, short);
    ensure!(
        matches!(r, Err(TeamError::Timeout { .. })),
        "PE {me}: ct_wait_timeout before the count: {r:?}"
    );
    team.barrier_all().map_err(e("barrier"))?;
    let right = (me + 1) % p;
    team.signal(sig, SignalOp::Set(7), right)
        .map_err(e("signal"))?;
    team.ct_add(&ct, 1, right).map_err(e("ct_add"))?;
    let long = Duration::from_secs(60);
    let v = team
        .signal_wait_until_timeout(sig, Cmp::Ge, 1, long)
        .map_err(e("signal_wait_until_timeout"))?;
    ensure!(v == 7, "PE {me}: signal {v}, want 7");
    let n = team
        .ct_wait_timeout(&ct, 1, long)
        .map_err(e("ct_wait_timeout"))?;
    ensure!(n == 1, "PE {me}: counter {n}, want 1");
    let r = team.try_signal_wait_until(sig, Cmp::Eq, 7);
    ensure!(
        matches!(r, Ok(7)),
        "PE {me}: try_signal_wait_until after: {r:?}"
    );
    let r = team.try_ct_wait(&ct, 1);
    ensure!(matches!(r, Ok(1)), "PE {me}: try_ct_wait after: {r:?}");
    team.barrier_all_timeout(long)
        .map_err(e("barrier_all_timeout"))
}

/// Lines: payload and sequence in one cache line, a ring of 100 messages.
pub fn lines<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    let (right, left) = ((me + 1) % p, (me + p - 1) % p);
    let line = team.alloc::<Line>(1).map_err(e("alloc"))?;
    let ack = team.alloc::<u64>(1).map_err(e("alloc"))?;
    let mut out = [0u8; LINE_PAYLOAD];
    for seq in 1..=100u64 {
        let msg: Vec<u8> = (0..LINE_PAYLOAD)
            .map(|i| (seq as usize * 7 + i + me) as u8)
            .collect();
        team.put_line(line, &msg, seq, right)
            .map_err(e("put_line"))?;
        let seen = team
            .wait_line(line, seq, &mut out)
            .map_err(e("wait_line"))?;
        ensure!(seen == seq, "PE {me}: line seq {seen}, want {seq}");
        for (i, b) in out.iter().enumerate() {
            ensure!(
                *b == (seq as usize * 7 + i + left) as u8,
                "PE {me}: line {seq} byte {i}"
            );
        }
        team.signal(ack, SignalOp::Add(1), left)
            .map_err(e("signal"))?;
        team.signal_wait_until(ack, Cmp::Ge, seq)
            .map_err(e("ack"))?;
    }
    // The words view is the same memory: the last message's first eight bytes, then its
    // sequence number last.
    let words = team.local(&line.words());
    let first = u64::from_le_bytes(std::array::from_fn(|i| (100 * 7 + i + left) as u8));
    ensure!(
        words.len() == LINE_WORDS && words[0] == first && words[LINE_WORDS - 1] == 100,
        "PE {me}: the line's words read {words:?}"
    );
    match team.put_line(line, &[0u8; LINE_PAYLOAD + 1], 1, right) {
        Err(TeamError::LineTooLong { len: 57, max: 56 }) => {}
        other => return Err(format!("PE {me}: a 57-byte line gave {other:?}")),
    }
    team.barrier_all().map_err(e("barrier"))
}

/// Remote atomics on PE 0's words from every PE; results against closed forms.
pub fn atomics<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    const ADDS: u64 = 500;
    let w64 = team.alloc::<u64>(4).map_err(e("alloc"))?;
    let w32 = team.alloc::<u32>(4).map_err(e("alloc"))?;
    for _ in 0..ADDS {
        team.atomic_add(w64.at(0), 1u64, 0)
            .map_err(e("atomic_add"))?;
        team.atomic_fetch_add(w32.at(0), 3u32, 0)
            .map_err(e("fetch_add32"))?;
    }
    // Each PE sets its own bit with or; xor toggles bit 40 / bit 20 once per PE.
    team.atomic_fetch_or(w64.at(1), 1u64 << me, 0)
        .map_err(e("fetch_or"))?;
    team.atomic_fetch_xor(w64.at(2), 1u64 << 40, 0)
        .map_err(e("fetch_xor"))?;
    team.atomic_fetch_or(w32.at(1), 1u32 << (me % 32), 0)
        .map_err(e("fetch_or32"))?;
    // A CAS race: exactly one PE moves word 3 from 0 to its rank + 1.
    let won = team
        .atomic_compare_swap(w64.at(3), 0u64, me as u64 + 1, 0)
        .map_err(e("cas"))?
        == 0;
    let winners = team.alloc::<u64>(1).map_err(e("alloc"))?;
    if won {
        team.atomic_add(winners, 1u64, 0).map_err(e("add"))?;
    }
    team.barrier_all().map_err(e("barrier"))?;
    let pp = p as u64;
    let sum = team.atomic_fetch(w64.at(0), 0).map_err(e("fetch"))?;
    ensure!(
        sum == pp * ADDS,
        "PE {me}: 64-bit sum {sum}, want {}",
        pp * ADDS
    );
    let sum32 = team.atomic_fetch(w32.at(0), 0).map_err(e("fetch32"))?;
    ensure!(
        u64::from(sum32) == 3 * pp * ADDS,
        "PE {me}: 32-bit sum {sum32}"
    );
    let bits = team.atomic_fetch(w64.at(1), 0).map_err(e("fetch"))?;
    let want_bits = if p == 64 { u64::MAX } else { (1u64 << p) - 1 };
    ensure!(
        bits == want_bits,
        "PE {me}: or-bits {bits:#x}, want {want_bits:#x}"
    );
    let x = team.atomic_fetch(w64.at(2), 0).map_err(e("fetch"))?;
    ensure!(
        x == if p % 2 == 1 { 1 << 40 } else { 0 },
        "PE {me}: xor word {x:#x}"
    );
    ensure!(
        team.atomic_fetch(winners, 0).map_err(e("fetch"))? == 1,
        "PE {me}: CAS winners != 1"
    );
    let cas = team.atomic_fetch(w64.at(3), 0).map_err(e("fetch"))?;
    ensure!((1..=pp).contains(&cas), "PE {me}: CAS word {cas}");
    team.barrier_all().map_err(e("barrier"))?;
    // Swap / set / and on our own word at PE `me`, by ourselves: sequential semantics.
    let mine = w64.at(0);
    if me != 0 {
        team.atomic_set(mine, 0b1111u64, me).map_err(e("set"))?;
        ensure!(
            team.atomic_swap(mine, 0b1010u64, me).map_err(e("swap"))? == 0b1111,
            "swap old"
        );
        ensure!(
            team.atomic_fetch_and(mine, 0b0110u64, me)
                .map_err(e("and"))?
                == 0b1010,
            "and old"
        );
        ensure!(
            team.atomic_fetch(mine, me).map_err(e("fetch"))? == 0b0010,
            "and result"
        );
        let r = team
            .atomic(
                mine,
                AtomicOp::CompareSwap {
                    expected: 7,
                    new: 9,
                },
                me,
            )
            .map_err(e("cas"))?;
        ensure!(
            r == 0b0010 && team.atomic_fetch(mine, me).map_err(e("fetch"))? == 0b0010,
            "failed CAS changed the word"
        );
    }
    team.barrier_all().map_err(e("barrier"))
}

/// Barriers over all and over subsets, interleaved; writes before are seen after.
pub fn barriers<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    let board = team.alloc::<u64>(p).map_err(e("alloc"))?;
    let evens: Vec<usize> = (0..p).step_by(2).collect();
    for it in 1..=50u64 {
        for to in 0..p {
            team.put(&board, me, &[it], to).map_err(e("put"))?;
        }
        team.barrier_all().map_err(e("barrier_all"))?;
        for (r, v) in team.local(&board).iter().enumerate() {
            ensure!(
                *v >= it,
                "PE {me}: after barrier {it}, PE {r}'s write is {v}"
            );
        }
        team.barrier_all().map_err(e("barrier_all"))?;
        if me % 2 == 0 {
            team.barrier(&evens).map_err(e("barrier(evens)"))?;
        }
    }
    match team.barrier(&[(me + 1) % p.max(2)]) {
        Err(TeamError::InvalidArgument(_)) | Err(TeamError::NoSuchPe { .. }) => {}
        other => return Err(format!("PE {me}: a barrier without this PE gave {other:?}")),
    }
    team.barrier_all().map_err(e("barrier"))
}

/// Accesses outside an object or the team are errors, never writes.
pub fn bounds<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    let obj = team.alloc::<u32>(10).map_err(e("alloc"))?;
    let guard = team.alloc::<u32>(10).map_err(e("alloc"))?;
    let oob = |r: Result<(), TeamError>, what: &str| match r {
        Err(TeamError::OutOfBounds { .. }) => Ok(()),
        other => Err(format!("PE {me}: {what} gave {other:?}, want OutOfBounds")),
    };
    oob(
        team.put(&obj, 9, &[1, 2], me),
        "a put of 2 at element 9 of 10",
    )?;
    oob(team.put(&obj, usize::MAX, &[1], me), "a put at usize::MAX")?;
    oob(
        team.get(&obj, 5, &mut [0; 6], me),
        "a get of 6 at element 5 of 10",
    )?;
    oob(
        team.atomic_add(obj.at(10), 1u32, me),
        "an atomic at element 10 of 10",
    )?;
    let sigs = team.alloc::<u64>(2).map_err(e("alloc"))?;
    oob(
        team.signal(sigs.at(2), SignalOp::Add(1), me),
        "a signal at element 2 of 2",
    )?;
    match team.put(&obj, 0, &[1], p) {
        Err(TeamError::NoSuchPe { pe, size }) if pe == p && size == p => {}
        other => return Err(format!("PE {me}: a put to PE {p} gave {other:?}")),
    }
    // Zero-sized elements move nothing and never fail inside the object.
    let units = team.alloc::<()>(3).map_err(e("alloc"))?;
    team.put(&units, 1, &[(), ()], me)
        .map_err(e("a put of ()"))?;
    oob(
        team.put(&units, 2, &[(), ()], me),
        "a put of 2 () at element 2 of 3",
    )?;
    ensure!(
        team.local(&guard).iter().all(|v| *v == 0),
        "PE {me}: an out-of-bounds put wrote the next object"
    );
    team.barrier_all().map_err(e("barrier"))
}

/// The transport's own checks, under the typed API's object bounds (which would otherwise
/// catch these first): a raw offset past the end of the heap partition or a PE past the team
/// is refused by every operation, the partition's last word is not, and a misaligned word is
/// refused, before anything is written.
pub fn transport_bounds<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p, x, end) = (team.rank(), team.size(), team.transport(), team.heap_len());
    let oob = |r: Result<(), TeamError>, what: &str| match r {
        Err(TeamError::OutOfBounds { .. }) => Ok(()),
        other => Err(format!("PE {me}: {what} gave {other:?}, want OutOfBounds")),
    };
    let past = "8 bytes from 4 before the heap's end";
    oob(
        x.put(me, end - 4, &[1; 8]),
        &format!("a transport put of {past}"),
    )?;
    oob(
        x.get(me, end - 4, &mut [0; 8]),
        &format!("a transport get of {past}"),
    )?;
    oob(
        x.put_signal(me, end - 4, &[1; 8], end - 8, SignalOp::Add(1)),
        &format!("a transport put_signal of {past}"),
    )?;
    oob(
        x.put_signal(me, end - 16, &[1; 8], end, SignalOp::Add(1)),
        "a transport put_signal with its signal word past the heap",
    )?;
    oob(
        x.atomic64(me, end, AtomicOp::Fetch).map(drop),
        "a transport atomic at the heap's end",
    )?;
    oob(
        x.signal(me, end, SignalOp::Add(1)),
        "a transport signal at the heap's end",
    )?;
    x.get(me, end - 8, &mut [0; 8])
        .map_err(e("a transport get of the heap's last word"))?;
    match x.atomic64(me, 4, AtomicOp::Fetch) {
        Err(TeamError::InvalidArgument(_)) => {}
        other => return Err(format!("PE {me}: an atomic at heap byte 4 gave {other:?}")),
    }
    match x.put_signal(me, end - 16, &[1; 8], 4, SignalOp::Add(1)) {
        Err(TeamError::InvalidArgument(_)) => {}
        other => {
            return Err(format!(
                "PE {me}: a put_signal with its signal word at heap byte 4 gave {other:?}"
            ))
        }
    }
    match x.get(p, 0, &mut [0; 8]) {
        Err(TeamError::NoSuchPe { pe, size }) if pe == p && size == p => {}
        other => {
            return Err(format!(
                "PE {me}: a transport get from PE {p} gave {other:?}"
            ))
        }
    }
    team.barrier_all().map_err(e("barrier"))
}

/// `peer_atomic` (`shmem_ptr`): a PE's own copy always, every PE's on a route that maps the
/// peer's heap ([`Route::SharedSegment`], [`Route::MpiSharedWindow`]), nothing past the
/// team; stores through it land in the owner's copy, and the owner's stores are read
/// through it. Where a PE is not mapped, `put` stands in, so every word is written.
pub fn peer_pointers<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    let words = team.alloc::<u64>(p + 1).map_err(e("alloc"))?;
    ensure!(
        team.peer_atomic(&words, p).is_none(),
        "PE {me}: peer_atomic of PE {p} in a team of {p} is not None"
    );
    let own = team.peer_atomic(&words, me);
    ensure!(
        own.is_some_and(|w| std::ptr::eq(w, team.local_atomic(&words))),
        "PE {me}: peer_atomic of this PE is not its own copy"
    );
    // Word `p` of each copy: its owner's stamp, read by the others after the barrier.
    team.local_atomic(&words)[p].store(stamp(me, me, p), Ordering::Relaxed);
    for to in 0..p {
        let mapped = matches!(
            team.route(to),
            Some(Route::SharedSegment | Route::MpiSharedWindow)
        );
        match team.peer_atomic(&words, to) {
            Some(w) => w[me].store(stamp(me, to, 0), Ordering::Relaxed),
            None if mapped => {
                return Err(format!(
                    "PE {me}: PE {to}'s route {:?} maps its heap, but peer_atomic is None",
                    team.route(to)
                ))
            }
            None => team
                .put(&words, me, &[stamp(me, to, 0)], to)
                .map_err(e("put"))?,
        }
    }
    team.barrier_all().map_err(e("barrier"))?;
    for (from, w) in team.local_atomic(&words)[..p].iter().enumerate() {
        let got = w.load(Ordering::Relaxed);
        ensure!(
            got == stamp(from, me, 0),
            "PE {me}: word {from} (PE {from}'s store) is {got:#x}, want {:#x}",
            stamp(from, me, 0)
        );
    }
    for pe in 0..p {
        if let Some(w) = team.peer_atomic(&words, pe) {
            let got = w[p].load(Ordering::Relaxed);
            ensure!(
                got == stamp(pe, pe, p),
                "PE {me}: PE {pe}'s own word read through peer_atomic is {got:#x}, want {:#x}",
                stamp(pe, pe, p)
            );
        }
    }
    team.barrier_all().map_err(e("barrier"))
}

/// `wait_until_any` is fair: with every word true, successive calls return each index in
/// turn; `wait_until_some` returns all true indices; `status` excludes.
pub fn wait_any_is_fair<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let me = team.rank();
    let sigs = team.alloc::<u64>(4).map_err(e("alloc"))?;
    for i in 0..4 {
        team.signal(sigs.at(i), SignalOp::Set(5), me)
            .map_err(e("signal"))?;
    }
    let mut hits = [0usize; 4];
    for _ in 0..8 {
        let i = team
            .wait_until_any(&sigs, None, Cmp::Ge, 5)
            .map_err(e("any"))?;
        hits[i.ok_or("any returned None")?] += 1;
    }
    ensure!(
        hits == [2, 2, 2, 2],
        "PE {me}: wait_until_any picked {hits:?} over 8 calls, want 2 each"
    );
    let status = [false, true, false, true];
    let some = team
        .wait_until_some(&sigs, Some(&status), Cmp::Eq, 5)
        .map_err(e("some"))?;
    ensure!(some == vec![0, 2], "PE {me}: wait_until_some gave {some:?}");
    team.wait_until_all(&sigs, None, Cmp::Ge, 5)
        .map_err(e("all"))?;
    ensure!(
        team.wait_until_any(&sigs, Some(&[true; 4]), Cmp::Eq, 0)
            .map_err(e("any"))?
            .is_none(),
        "all excluded"
    );
    team.barrier_all().map_err(e("barrier"))
}

/// PEs that allocate different sizes all get `Mismatch`, and the heap stays usable.
pub fn alloc_mismatch<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let (me, p) = (team.rank(), team.size());
    if p < 2 {
        return Ok(());
    }
    let free = team.heap_free();
    match team.alloc::<u8>(if me == 0 { 100 } else { 200 }) {
        Err(TeamError::Mismatch { ours, theirs, .. }) => {
            let want = if me == 0 { (100, 200) } else { (200, 100) };
            ensure!(
                (ours, theirs) == want,
                "PE {me}: mismatch reported {ours} vs {theirs}"
            );
        }
        other => return Err(format!("PE {me}: mismatched alloc gave {other:?}")),
    }
    ensure!(
        team.heap_free() == free,
        "PE {me}: a failed alloc used heap"
    );
    let ok = team.alloc::<u8>(64).map_err(e("alloc after mismatch"))?;
    ensure!(ok.len() == 64, "len");
    team.barrier_all().map_err(e("barrier"))
}

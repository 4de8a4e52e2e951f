//! MPI-3 epochs across processes (`handoff::team::Epochs`): every mode moves data whose
//! checksum the receiver verifies against a closed form — fence, PSCW on a ring with two
//! neighbours, exclusive / shared locks and lock_all with flush, accumulates of every type —
//! on 3–4 PEs and oversubscribed (6 PEs on 2 CPUs); misuse returns typed errors; a lock
//! holder that dies ends the waiters' waits naming it.

use handoff::team::{AccOp, Epochs, LockKind};
use handoff::team::{PeStatus, Team, TeamError};
use handoff_testkit::{run_team, team_launch};
use std::time::Duration;

fn pe(f: impl FnOnce(&Team) -> Result<(), String>) {
    let team = Team::from_env().unwrap_or_else(|e| {
        eprintln!("PE could not join: {e}");
        std::process::exit(1)
    });
    if let Err(e) = f(&team) {
        eprintln!("PE {}: {e}", team.rank());
        std::process::exit(1);
    }
    team.finalize().unwrap_or_else(|e| {
        eprintln!("finalize: {e}");
        std::process::exit(1)
    });
    std::process::exit(0);
}

fn s<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn check(test: &str, n: usize) {
    let r = run_team(team_launch(test, n), Duration::from_secs(120));
    assert!(r.success(), "a PE failed: {:?}", r.exits);
}

/// The value PE `from` writes into slot `i` in round `round` (an independent oracle).
fn val(round: u64, from: usize, i: usize) -> u64 {
    (round.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (from as u64) << 20 ^ i as u64).rotate_left(13)
}

const WORDS: usize = 16;

/// Fence epochs: each round every PE puts a block into each other PE's window (its own
/// slot), fences, and checks every slot of its window holds this round's values.
#[test]
fn fence_epochs_move_verified_data() {
    if handoff::team::in_team() {
        pe(|team| {
            let (me, p) = (team.rank(), team.size());
            let win = team.alloc::<u64>(p * WORDS).map_err(s)?;
            let ep = Epochs::new(team).map_err(s)?;
            for round in 1..=200u64 {
                for to in (0..p).filter(|&t| t != me) {
                    let block: Vec<u64> = (0..WORDS).map(|i| val(round, me, i)).collect();
                    team.put(&win, me * WORDS, &block, to).map_err(s)?;
                }
                ep.fence().map_err(s)?;
                let w = team.local(&win);
                for from in (0..p).filter(|&f| f != me) {
                    for i in 0..WORDS {
                        if w[from * WORDS + i] != val(round, from, i) {
                            return Err(format!("round {round}: slot {from}/{i} wrong"));
                        }
                    }
                }
                ep.fence().map_err(s)?; // nobody overwrites before everyone checked
            }
            ep.close().map_err(s)
        });
    }
    check("fence_epochs_move_verified_data", 3);
    check("fence_epochs_move_verified_data", 6); // oversubscribed
}

/// The fence rings a partner asleep on its arrival word (`Wait::Block`: every wait sleeps at
/// once). The fence stores its arrival, polls, and only then rings (`epoch/fence.rs`); PE 1
/// fences first and sleeps, PE 0 fences 20 ms later and must make a futex wake-up call for
/// it: over ten rounds at least one (a PE 1 not yet asleep needs none, so not every round),
/// where a fence that never rang would make none and leave PE 1 to its 50 ms sleep slices.
/// The data each round puts before its fence must be there after it.
#[test]
fn fence_wakes_a_partner_asleep_on_its_arrival() {
    const ROUNDS: u64 = 10;
    if handoff::team::in_team() {
        pe(|team| {
            let (me, other) = (team.rank(), 1 - team.rank());
            let win = team.alloc::<u64>(1).map_err(s)?;
            let ep = Epochs::new(team).map_err(s)?;
            let mut wakes = 0;
            for round in 1..=ROUNDS {
                team.put(&win, 0, &[val(round, me, 0)], other).map_err(s)?;
                if me == 0 {
                    std::thread::sleep(Duration::from_millis(20));
                    let before = handoff::sync::futex_wakes();
                    ep.fence().map_err(s)?;
                    wakes += handoff::sync::futex_wakes() - before;
                } else {
                    ep.fence().map_err(s)?;
                }
                let got = team.local(&win)[0];
                if got != val(round, other, 0) {
                    return Err(format!("round {round}: window holds {got:#x}"));
                }
                ep.fence().map_err(s)?; // nobody overwrites before the other read
            }
            if me == 0 && wakes == 0 {
                return Err(format!(
                    "{ROUNDS} fences with PE 1 asleep made no wake-up call"
                ));
            }
            ep.close().map_err(s)
        });
    }
    let l = team_launch("fence_wakes_a_partner_asleep_on_its_arrival", 2)
        .wait(handoff::sync::Wait::Block);
    let r = run_team(l, Duration::from_secs(60));
    assert!(r.success(), "a PE failed: {:?}", r.exits);
}

/// PSCW on a ring, k = 2 (the seed's benchmark): each PE exposes its window to its two
/// neighbours and writes into theirs; after `wait` both neighbours' blocks are there.
#[test]
fn pscw_ring_two_neighbours() {
    if handoff::team::in_team() {
        pe(|team| {
            let (me, p) = (team.rank(), team.size());
            let win = team.alloc::<u64>(p * WORDS).map_err(s)?;
            let mut ep = Epochs::new(team).map_err(s)?;
            let left = (me + p - 1) % p;
            let right = (me + 1) % p;
            let group = [left, right];
            for round in 1..=300u64 {
                ep.post(&group).map_err(s)?;
                ep.start(&group).map_err(s)?;
                for &t in &group {
                    let block: Vec<u64> = (0..WORDS).map(|i| val(round, me, i)).collect();
                    team.put(&win, me * WORDS, &block, t).map_err(s)?;
                }
                ep.complete().map_err(s)?;
                if round % 2 == 0 {
                    // The `try_` form: WouldBlock until every origin completed.
                    loop {
                        match ep.try_wait() {
                            Ok(()) => break,
                            Err(TeamError::WouldBlock { .. }) => std::thread::yield_now(),
                            Err(e) => return Err(s(e)),
                        }
                    }
                } else {
                    ep.wait().map_err(s)?;
                }
                let w = team.local(&win);
                for &from in &group {
                    for i in 0..WORDS {
                        if w[from * WORDS + i] != val(round, from, i) {
                            return Err(format!("round {round}: block from {from} wrong at {i}"));
                        }
                    }
                }
            }
            ep.close().map_err(s)
        });
    }
    check("pscw_ring_two_neighbours", 4);
    check("pscw_ring_two_neighbours", 6);
}

const ITER: u64 = 300;

/// Exclusive locks around a non-atomic read-modify-write of a pair (n, checksum(n)) on
/// PE 0: no update lost (final n = p · ITER), and shared-lock readers (and lock_all
/// readers, with flush) never see a torn pair.
#[test]
fn locks_exclude_and_share() {
    if handoff::team::in_team() {
        pe(|team| {
            let (me, p) = (team.rank(), team.size());
            let pair = team.alloc::<u64>(2).map_err(s)?;
            let mut ep = Epochs::new(team).map_err(s)?;
            let mut got = [0u64; 2];
            for it in 0..ITER {
                ep.lock(0, LockKind::Exclusive).map_err(s)?;
                team.get(&pair, 0, &mut got, 0).map_err(s)?;
                std::thread::yield_now(); // widen the window a broken lock would let others into
                if got[1] != val(got[0], 0, 0) && got[0] != 0 {
                    return Err(format!("exclusive: torn pair {got:?}"));
                }
                let n = got[0] + 1;
                team.put(&pair, 0, &[n, val(n, 0, 0)], 0).map_err(s)?;
                ep.flush(0).map_err(s)?;
                ep.unlock(0).map_err(s)?;
                let shared = it % 2 == 0;
                if shared {
                    ep.lock(0, LockKind::Shared).map_err(s)?;
                } else {
                    ep.lock_all().map_err(s)?;
                }
                team.get(&pair, 0, &mut got, 0).map_err(s)?;
                if got[1] != val(got[0], 0, 0) || got[0] == 0 {
                    return Err(format!("shared: torn pair {got:?}"));
                }
                if shared {
                    ep.unlock(0).map_err(s)?;
                } else {
                    ep.flush_all().map_err(s)?;
                    ep.unlock_all().map_err(s)?;
                }
            }
            ep.fence().map_err(s)?;
            if me == 0 {
                let w = team.local(&pair);
                if w[0] != p as u64 * ITER {
                    return Err(format!("{} updates, want {}", w[0], p as u64 * ITER));
                }
            }
            ep.close().map_err(s)
        });
    }
    check("locks_exclude_and_share", 4);
    check("locks_exclude_and_share", 6);
}

const N: usize = 64;

/// Every PE accumulates into PE 0 (and gets-accumulates), all types: the results equal the
/// closed forms (sum over ranks r of f(r, i); min/max over ranks; product of small factors).
#[test]
fn accumulates_of_every_type_are_atomic_per_element() {
    if handoff::team::in_team() {
        pe(|team| {
            let (me, p) = (team.rank(), team.size());
            let ri = me as i64 + 1;
            let a64 = team.alloc::<i64>(N).map_err(s)?;
            let a32 = team.alloc::<i32>(N).map_err(s)?;
            let u64s = team.alloc::<u64>(N).map_err(s)?;
            let f64s = team.alloc::<f64>(N).map_err(s)?;
            let f32s = team.alloc::<f32>(N).map_err(s)?;
            let prod = team.alloc::<u32>(N).map_err(s)?;
            let ep = Epochs::new(team).map_err(s)?;
            if me == 0 {
                team.put(&prod, 0, &[1u32; N], 0).map_err(s)?;
                team.put(&a32, 0, &[1000i32; N], 0).map_err(s)?; // min starts high
            }
            ep.fence().map_err(s)?;
            for rep in 0..10 {
                let sum: Vec<i64> = (0..N).map(|i| -ri * (i as i64 + 1)).collect();
                team.accumulate(&a64, 0, &sum, AccOp::Sum, 0).map_err(s)?;
                let f: Vec<f64> = (0..N).map(|i| 0.5 * (i as f64 + ri as f64)).collect();
                team.accumulate(&f64s, 0, &f, AccOp::Sum, 0).map_err(s)?;
                let g: Vec<f32> = (0..N).map(|i| (i as f32) - ri as f32).collect();
                team.accumulate(&f32s, 0, &g, AccOp::Max, 0).map_err(s)?;
                let m: Vec<i32> = (0..N).map(|i| (i as i32) * 10 - me as i32 - rep).collect();
                team.accumulate(&a32, 0, &m, AccOp::Min, 0).map_err(s)?;
                let x: Vec<u64> = (0..N).map(|i| 1u64 << ((me * 7 + i) % 64)).collect();
                team.accumulate(&u64s, 0, &x, AccOp::BitXor, 0).map_err(s)?;
            }
            team.accumulate(&prod, 0, &[2u32; N], AccOp::Prod, 0)
                .map_err(s)?;
            ep.fence().map_err(s)?;
            let mut now = vec![0i64; N];
            team.get_accumulate(&a64, 0, &vec![0; N], &mut now, AccOp::NoOp, 0)
                .map_err(s)?;
            let ranks_sum: i64 = (1..=p as i64).sum();
            for (i, &v) in now.iter().enumerate() {
                let want = -10 * ranks_sum * (i as i64 + 1);
                if v != want {
                    return Err(format!("i64 sum [{i}] = {v}, want {want}"));
                }
            }
            if me == 0 {
                for i in 0..N {
                    let f = team.local(&f64s)[i];
                    let want = 10.0 * (0.5 * (p as f64 * i as f64 + ranks_sum as f64));
                    if f != want {
                        return Err(format!("f64 sum [{i}] = {f}, want {want}"));
                    }
                    let g = team.local(&f32s)[i];
                    if g != (i as f32 - 1.0).max(0.0) {
                        return Err(format!("f32 max [{i}] = {g}"));
                    }
                    let m = team.local(&a32)[i];
                    let want = (i as i32 * 10 - (p as i32 - 1) - 9).min(1000);
                    if m != want {
                        return Err(format!("i32 min [{i}] = {m}, want {want}"));
                    }
                    // Each PE's bit flipped 10 times (even): all cancel.
                    if team.local(&u64s)[i] != 0 {
                        return Err(format!("u64 xor [{i}] = {:#x}", team.local(&u64s)[i]));
                    }
                    if team.local(&prod)[i] != 1 << p {
                        return Err(format!("u32 prod [{i}] = {}", team.local(&prod)[i]));
                    }
                }
            }
            ep.fence().map_err(s)?;
            ep.close().map_err(s)
        });
    }
    check("accumulates_of_every_type_are_atomic_per_element", 3);
    check("accumulates_of_every_type_are_atomic_per_element", 6);
}

/// Misuse on 2 PEs: each call returns its typed error, none hangs; a start without a post
/// times out naming the target.
#[test]
fn misuse_is_a_typed_error() {
    if handoff::team::in_team() {
        pe(|team| {
            let me = team.rank();
            let other = 1 - me;
            let f = team.alloc::<f64>(4).map_err(s)?;
            let mut ep = Epochs::new(team).map_err(s)?;
            let want = |what: &str, ok: bool| if ok { Ok(()) } else { Err(what.to_string()) };
            let r = ep.unlock(other);
            want(
                "unlock without lock",
                matches!(r, Err(TeamError::NotLocked { pe, .. }) if pe == other),
            )?;
            ep.lock(me, LockKind::Exclusive).map_err(s)?;
            let r = ep.lock(me, LockKind::Shared);
            want(
                "nested lock",
                matches!(
                    r,
                    Err(TeamError::AlreadyLocked {
                        held: LockKind::Exclusive,
                        ..
                    })
                ),
            )?;
            want(
                "fence in a lock epoch",
                matches!(ep.fence(), Err(TeamError::EpochOpen { .. })),
            )?;
            want(
                "start in a lock epoch",
                matches!(
                    ep.start(&[other]),
                    Err(TeamError::EpochOpen {
                        open: "a lock epoch",
                        ..
                    })
                ),
            )?;
            want(
                "lock_all in a lock epoch",
                matches!(ep.lock_all(), Err(TeamError::EpochOpen { .. })),
            )?;
            ep.unlock(me).map_err(s)?;
            want(
                "complete without start",
                matches!(ep.complete(), Err(TeamError::NoEpoch { .. })),
            )?;
            want(
                "wait without post",
                matches!(ep.wait(), Err(TeamError::NoEpoch { .. })),
            )?;
            want(
                "unlock_all without lock_all",
                matches!(ep.unlock_all(), Err(TeamError::NoEpoch { .. })),
            )?;
            want(
                "flush without lock",
                matches!(ep.flush(other), Err(TeamError::NotLocked { .. })),
            )?;
            want(
                "bad group",
                matches!(ep.post(&[other, other]), Err(TeamError::BadGroup { .. })),
            )?;
            want(
                "group outside",
                matches!(ep.start(&[7]), Err(TeamError::BadGroup { .. })),
            )?;
            want(
                "lock outside",
                matches!(
                    ep.lock(9, LockKind::Shared),
                    Err(TeamError::NoSuchPe { pe: 9, .. })
                ),
            )?;
            let r = team.accumulate(&f, 0, &[1.0], AccOp::BitAnd, other);
            want(
                "bitand on f64",
                matches!(r, Err(TeamError::UndefinedOp { ty: "f64", .. })),
            )?;
            let r = team.accumulate(&f, 3, &[1.0, 2.0], AccOp::Sum, other);
            want(
                "accumulate out of bounds",
                matches!(r, Err(TeamError::OutOfBounds { .. })),
            )?;
            let mut res = [0.0; 1];
            let r = team.get_accumulate(&f, 0, &[1.0, 2.0], &mut res, AccOp::Sum, other);
            want(
                "result too short",
                matches!(r, Err(TeamError::Length { .. })),
            )?;
            // Start without a matching post: a timeout naming the target, not a hang.
            let r = ep.try_start(&[other]);
            want(
                "try_start without post",
                matches!(r, Err(TeamError::WouldBlock { what: "a post" })),
            )?;
            let r = ep.start_timeout(&[other], Duration::from_millis(200));
            want(
                "start without post",
                matches!(r, Err(TeamError::EpochTimeout { pe: Some(p), after, .. })
                    if p == other && after == Duration::from_millis(200)),
            )?;
            // An epoch's misuse stays matchable in the crate's error, with its advice.
            let e: handoff::Error = TeamError::NotLocked {
                op: "unlock",
                pe: 1,
            }
            .into();
            want(
                "into handoff::Error",
                e.to_string().contains("lock(pe")
                    && matches!(e, handoff::Error::Team(TeamError::NotLocked { pe: 1, .. })),
            )?;
            team.barrier_all().map_err(s)?;
            // An epoch left open: close() says so (and releases the lock).
            ep.lock(other, LockKind::Shared).map_err(s)?;
            want(
                "close with a lock held",
                matches!(ep.close(), Err(TeamError::EpochOpen { .. })),
            )?;
            Ok(())
        });
    }
    check("misuse_is_a_typed_error", 2);
}

/// The exit code of a survivor whose lock wait ended with `PeerDied` naming `rank`.
fn died(rank: usize) -> i32 {
    40 + rank as i32
}

/// PE 1 takes PE 0's lock exclusively and dies holding it: PE 0 and PE 2, waiting for the
/// lock, get `PeerDied` naming rank 1.
#[test]
fn dead_lock_holder_is_named_to_the_waiters() {
    if handoff::team::in_team() {
        let team = Team::from_env().expect("join");
        let mut ep = Epochs::new(&team).expect("epochs");
        if team.rank() == 1 {
            ep.lock(0, LockKind::Exclusive).expect("lock");
            team.barrier_all().expect("barrier");
            std::thread::sleep(Duration::from_millis(100));
            std::process::exit(7);
        }
        team.barrier_all().expect("barrier");
        let kind = if team.rank() == 0 {
            LockKind::Shared
        } else {
            LockKind::Exclusive
        };
        match ep.lock(0, kind) {
            Err(TeamError::PeerDied { rank, .. }) => std::process::exit(died(rank)),
            other => {
                eprintln!("lock returned {other:?}, want PeerDied");
                std::process::exit(1)
            }
        }
    }
    let r = run_team(
        team_launch("dead_lock_holder_is_named_to_the_waiters", 3),
        Duration::from_secs(60),
    );
    assert_eq!(r.exits[1].status, PeStatus::Exited(7), "{r:?}");
    assert_eq!(r.exits[0].status, PeStatus::Exited(died(1)), "{r:?}");
    assert_eq!(r.exits[2].status, PeStatus::Exited(died(1)), "{r:?}");
}

/// An `Epochs` dropped with a lock held says so on stderr and, in debug builds, panics (an
/// epoch left open is a bug); release builds go on.
#[test]
fn epoch_open_at_drop_fails_loudly() {
    if handoff::team::in_team() {
        pe(|team| {
            let me = team.rank();
            let mut ep = Epochs::new(team).map_err(s)?;
            ep.lock(0, LockKind::Shared).map_err(s)?;
            team.barrier_all().map_err(s)?; // both hold PE 0's lock shared
            let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(ep)));
            if cfg!(debug_assertions) != dropped.is_err() {
                return Err(format!(
                    "PE {me}: drop with a lock held panicked: {}",
                    dropped.is_err()
                ));
            }
            team.barrier_all().map_err(s)?;
            Ok(())
        });
    }
    check("epoch_open_at_drop_fails_loudly", 2);
}

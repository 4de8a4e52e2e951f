//! Teams across processes: the transport conformance suite on 1, 2 and 4 PEs, a stress of
//! ≥ 10^6 signalled puts, 16 PEs on 2 CPUs, and PEs that die. Each test re-executes this
//! binary as its PEs (`handoff_testkit::team_launch`); a PE runs the test's PE body when
//! `handoff::team::in_team()` and exits non-zero on any failure.

use handoff::sync::Wait;
use handoff::team::{Cmp, PeStatus, SignalOp, Team, TeamError};
use handoff_testkit::{conformance, run_team, team_launch};
use std::time::Duration;

/// A PE body: runs `f`, exits 0 after `finalize`, or prints the error and exits 1.
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

fn assert_all_ok(report: &handoff::team::TeamReport) {
    assert!(report.success(), "a PE failed: {:?}", report.exits);
}

#[test]
fn conformance_shm_1_2_4_pes() {
    if handoff::team::in_team() {
        pe(conformance::run_all);
    }
    for n in [1, 2, 4] {
        let r = run_team(
            team_launch("conformance_shm_1_2_4_pes", n),
            Duration::from_secs(120),
        );
        assert_all_ok(&r);
    }
}

#[test]
fn conformance_shm_block_and_spin_waits() {
    if handoff::team::in_team() {
        pe(conformance::run_all);
    }
    for wait in [Wait::Block, Wait::SpinYield] {
        let l = team_launch("conformance_shm_block_and_spin_waits", 3).wait(wait);
        assert_all_ok(&run_team(l, Duration::from_secs(120)));
    }
}

/// Messages per (sender, receiver) pair per round in the stress test.
const BATCH: usize = 64;
/// Words per message: round, sender, index, checksum.
const WORDS: usize = 4;

fn checksum(round: u64, from: u64, i: u64) -> u64 {
    (round.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ from.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ i)
        .rotate_left(17)
}

/// 4 PEs, every round each puts BATCH signalled messages into every other PE's inbox (half
/// the rounds with put_signal, half with counting puts), the receiver waits for exactly
/// (p − 1)·BATCH more, verifies every message (round, sender, index, checksum), then a
/// barrier. ≥ 10^6 signalled puts in all; none lost (exact counts), duplicated (each slot
/// holds this round's message and the count is exact) or torn (checksum).
#[test]
fn stress_a_million_signalled_puts() {
    const P: usize = 4;
    const ROUNDS: u64 = 1_310; // 1310 · 4 · 3 · 64 = 1,006,080 puts
    if handoff::team::in_team() {
        pe(|team| {
            let (me, p) = (team.rank(), team.size());
            let inbox = team
                .alloc::<u64>(p * BATCH * WORDS)
                .map_err(|e| e.to_string())?;
            let sig = team.alloc::<u64>(1).map_err(|e| e.to_string())?;
            let ct = team.ct_create().map_err(|e| e.to_string())?;
            let (mut signalled, mut counted) = (0u64, 0u64);
            for round in 1..=ROUNDS {
                let by_counter = round % 2 == 0;
                for k in 1..p {
                    let to = (me + k) % p;
                    for i in 0..BATCH {
                        let msg = [
                            round,
                            me as u64,
                            i as u64,
                            checksum(round, me as u64, i as u64),
                        ];
                        let at = (me * BATCH + i) * WORDS;
                        if by_counter {
                            team.put_ct(&ct, &inbox, at, &msg, to)
                                .map_err(|e| e.to_string())?;
                        } else {
                            team.put_signal(&inbox, at, &msg, sig, SignalOp::Add(1), to)
                                .map_err(|e| e.to_string())?;
                        }
                    }
                }
                let want = ((p - 1) * BATCH) as u64;
                if by_counter {
                    counted += want;
                    let got = team.ct_wait(&ct, counted).map_err(|e| e.to_string())?;
                    if got != counted {
                        return Err(format!("round {round}: counter {got}, want {counted}"));
                    }
                } else {
                    signalled += want;
                    let got = team
                        .signal_wait_until(sig, Cmp::Ge, signalled)
                        .map_err(|e| e.to_string())?;
                    if got != signalled {
                        return Err(format!("round {round}: signal {got}, want {signalled}"));
                    }
                }
                let local = team.local(&inbox);
                for from in (0..p).filter(|&f| f != me) {
                    for i in 0..BATCH {
                        let m = &local[(from * BATCH + i) * WORDS..][..WORDS];
                        let want = [
                            round,
                            from as u64,
                            i as u64,
                            checksum(round, from as u64, i as u64),
                        ];
                        if m != want {
                            return Err(format!(
                                "round {round}: message {i} from PE {from} is {m:?}, want {want:?}"
                            ));
                        }
                    }
                }
                team.barrier_all().map_err(|e| e.to_string())?;
            }
            let total = signalled + counted;
            if me == 0 {
                println!(
                    "stress: PE 0 received {total} signalled puts; {} in the team",
                    total * p as u64
                );
            }
            Ok(())
        });
    }
    let l = team_launch("stress_a_million_signalled_puts", P);
    assert_all_ok(&run_team(l, Duration::from_secs(300)));
    assert!(ROUNDS * (P * (P - 1) * BATCH) as u64 >= 1_000_000);
}

/// 16 PEs on this machine's CPUs (2 here) with the default wait: barriers and a ring of
/// signalled puts complete (a watchdog, not a timing assertion).
#[test]
fn sixteen_pes_oversubscribed() {
    if handoff::team::in_team() {
        pe(|team| {
            let (me, p) = (team.rank(), team.size());
            let data = team.alloc::<u64>(1).map_err(|e| e.to_string())?;
            let sig = team.alloc::<u64>(1).map_err(|e| e.to_string())?;
            for it in 1..=300u64 {
                team.put_signal(
                    &data,
                    0,
                    &[it * 100 + me as u64],
                    sig,
                    SignalOp::Set(it),
                    (me + 1) % p,
                )
                .map_err(|e| e.to_string())?;
                team.signal_wait_until(sig, Cmp::Ge, it)
                    .map_err(|e| e.to_string())?;
                let got = team.local(&data)[0];
                let want = it * 100 + ((me + p - 1) % p) as u64;
                if got != want {
                    return Err(format!("iteration {it}: {got}, want {want}"));
                }
                team.barrier_all().map_err(|e| e.to_string())?;
            }
            Ok(())
        });
    }
    let l = team_launch("sixteen_pes_oversubscribed", 16);
    assert_all_ok(&run_team(l, Duration::from_secs(60)));
}

/// A put between overlapping ranges of a PE's own heap (the source a view of the heap,
/// `Team::local`; OpenSHMEM's `shmem_putmem` to itself) moves the bytes as `memmove` does: the
/// mapped heap's copies allow the overlap (a `memcpy` there is undefined behaviour, which a
/// debug build reports as a panic).
#[test]
fn a_put_to_itself_may_overlap_its_source() {
    if handoff::team::in_team() {
        pe(|team| {
            let err = |e: TeamError| e.to_string();
            let me = team.rank();
            let x = team.alloc::<u64>(64).map_err(err)?;
            let first: Vec<u64> = (0..64).collect();
            team.put(&x, 0, &first, me).map_err(err)?;
            // Forward by one word: x[1..33] = old x[0..32].
            team.put(&x, 1, &team.local(&x)[0..32], me).map_err(err)?;
            let want: Vec<u64> = [0].into_iter().chain(0..32).chain(33..64).collect();
            if team.local(&x) != want.as_slice() {
                return Err(format!("after the put: {:?}", team.local(&x)));
            }
            Ok(())
        });
    }
    let l = team_launch("a_put_to_itself_may_overlap_its_source", 1);
    assert_all_ok(&run_team(l, Duration::from_secs(30)));
}

/// With `Wait::Block`, every kind of remote update wakes the sleeping target itself: 1000
/// ping-pongs each by put_signal, counting put, remote atomic (a flag) and barrier. A
/// missing wake would leave each wait of its kind to its 50 ms sleep slice (≥ 50 s), so the 20 s
/// watchdog catches it (a watchdog, not a timing assertion: this takes well under a second).
#[test]
fn blocked_waiters_are_woken_by_remote_updates() {
    const N: u64 = 1000;
    if handoff::team::in_team() {
        pe(|team| {
            let (me, other) = (team.rank(), 1 - team.rank());
            let err = |e: TeamError| e.to_string();
            let sig = team.alloc::<u64>(1).map_err(err)?;
            let flag = team.alloc::<u64>(1).map_err(err)?;
            let data = team.alloc::<u64>(1).map_err(err)?;
            let ct = team.ct_create().map_err(err)?;
            for k in 1..=N {
                // Ping-pong: PE 0 sends first; each waits for the other's k-th message.
                if me == 0 {
                    team.put_signal(&data, 0, &[k], sig, SignalOp::Set(k), other)
                        .map_err(err)?;
                }
                team.signal_wait_until(sig, Cmp::Ge, k).map_err(err)?;
                if me == 1 {
                    team.put_signal(&data, 0, &[k], sig, SignalOp::Set(k), other)
                        .map_err(err)?;
                }
                if me == 0 {
                    team.put_ct(&ct, &data, 0, &[k], other).map_err(err)?;
                }
                team.ct_wait(&ct, k).map_err(err)?;
                if me == 1 {
                    team.put_ct(&ct, &data, 0, &[k], other).map_err(err)?;
                }
                if me == 0 {
                    team.atomic_add(flag, 1u64, other).map_err(err)?;
                }
                team.signal_wait_until(flag, Cmp::Ge, k).map_err(err)?;
                if me == 1 {
                    team.atomic_add(flag, 1u64, other).map_err(err)?;
                }
                team.barrier_all().map_err(err)?;
            }
            Ok(())
        });
    }
    let l = team_launch("blocked_waiters_are_woken_by_remote_updates", 2).wait(Wait::Block);
    assert_all_ok(&run_team(l, Duration::from_secs(20)));
}

/// With `Wait::Block`, a plain `put` of a word the target waits on (OpenSHMEM's `p` then
/// `wait_until`) wakes the sleeping target: 1000 ping-pongs by put + quiet, then 1000 by put
/// alone. A missing wake would leave each wait to its 50 ms sleep slice (≥ 50 s per phase);
/// the 20 s watchdog catches it.
#[test]
fn blocked_waiters_are_woken_by_plain_puts() {
    const N: u64 = 1000;
    if handoff::team::in_team() {
        pe(|team| {
            let (me, other) = (team.rank(), 1 - team.rank());
            let err = |e: TeamError| e.to_string();
            let word = team.alloc::<u64>(1).map_err(err)?;
            for phase in 0..2u64 {
                for k in 1..=N {
                    let v = phase * N + k;
                    let send = |team: &Team| -> Result<(), String> {
                        team.put(&word, 0, &[v], other).map_err(err)?;
                        if phase == 0 {
                            team.quiet();
                        }
                        Ok(())
                    };
                    if me == 0 {
                        send(team)?;
                    }
                    let got = team.signal_wait_until(word, Cmp::Ge, v).map_err(err)?;
                    if got != v {
                        return Err(format!("round {v}: read {got}"));
                    }
                    if me == 1 {
                        send(team)?;
                    }
                }
            }
            Ok(())
        });
    }
    let l = team_launch("blocked_waiters_are_woken_by_plain_puts", 2).wait(Wait::Block);
    assert_all_ok(&run_team(l, Duration::from_secs(20)));
}

/// The exit code a surviving PE uses when its wait ended with `PeerDied` naming `rank`.
fn code_for_peer_died(rank: usize) -> i32 {
    40 + rank as i32
}

/// A PE SIGKILLed while the others wait for it: each survivor's wait returns `PeerDied`
/// naming it (the survivors report the rank through their exit code), nothing hangs, and the
/// launcher reports the killed PE first.
#[test]
fn killed_pe_ends_the_others_waits_naming_it() {
    if handoff::team::in_team() {
        let team = Team::from_env().unwrap();
        let sig = team.alloc::<u64>(1).unwrap();
        team.barrier_all().unwrap();
        if team.rank() == 1 {
            let me = handoff::sys::ProcessId::current();
            me.kill(handoff::sys::UnixSignal::Kill).unwrap();
        }
        // Nobody ever signals: only the death of PE 1 ends this wait.
        match team.signal_wait_until(sig, Cmp::Ge, 1) {
            Err(TeamError::PeerDied { rank, .. }) => std::process::exit(code_for_peer_died(rank)),
            other => {
                eprintln!("PE {}: wait ended with {other:?}", team.rank());
                std::process::exit(1)
            }
        }
    }
    let l =
        team_launch("killed_pe_ends_the_others_waits_naming_it", 3).grace(Duration::from_secs(20));
    let r = run_team(l, Duration::from_secs(60));
    assert_eq!(r.first_failure, Some(1), "{r:?}");
    assert_eq!(r.exits[1].status, PeStatus::Signaled(9));
    assert_eq!(
        r.exits[0].status,
        PeStatus::Exited(code_for_peer_died(1)),
        "{r:?}"
    );
    assert_eq!(
        r.exits[2].status,
        PeStatus::Exited(code_for_peer_died(1)),
        "{r:?}"
    );
}

/// A PE that returns early with an error (drops its team without finalize) ends the
/// others' barrier with `PeerDied` naming it, and the launcher names it first although it
/// exits last (it lingers after leaving; the others exit at once).
#[test]
fn pe_leaving_early_ends_the_others_barrier() {
    if handoff::team::in_team() {
        let team = Team::from_env().unwrap();
        if team.rank() == 2 {
            drop(team);
            std::thread::sleep(Duration::from_millis(500));
            std::process::exit(7);
        }
        match team.barrier_all() {
            Err(TeamError::PeerDied { rank, .. }) => std::process::exit(code_for_peer_died(rank)),
            other => {
                eprintln!("PE {}: barrier ended with {other:?}", team.rank());
                std::process::exit(1)
            }
        }
    }
    let l =
        team_launch("pe_leaving_early_ends_the_others_barrier", 4).grace(Duration::from_secs(20));
    let r = run_team(l, Duration::from_secs(60));
    assert_eq!(r.exits[2].status, PeStatus::Exited(7), "{r:?}");
    assert_eq!(r.first_failure, Some(2), "{r:?}");
    for rank in [0, 1, 3] {
        assert_eq!(
            r.exits[rank].status,
            PeStatus::Exited(code_for_peer_died(2)),
            "{r:?}"
        );
    }
}

/// `capture_stdout` hands the launcher each PE's output (how the lab collects results).
#[test]
fn launch_captures_each_pes_stdout() {
    if handoff::team::in_team() {
        pe(|team| {
            println!("result-line rank={} size={}", team.rank(), team.size());
            Ok(())
        });
    }
    use std::io::Read;
    let mut running = team_launch("launch_captures_each_pes_stdout", 3)
        .capture_stdout(true)
        .spawn()
        .unwrap();
    let mut outs = Vec::new();
    for r in 0..3 {
        let mut text = String::new();
        running
            .take_stdout(r)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        outs.push(text);
    }
    assert!(running.take_stdout(0).is_none(), "a pipe is taken once");
    assert!(running.wait().unwrap().success());
    for (r, text) in outs.iter().enumerate() {
        assert!(
            text.contains(&format!("result-line rank={r} size=3")),
            "PE {r}: {text}"
        );
    }
}

/// Joining a segment that is not a team, a name that does not exist, or a rank outside the
/// team is an error that says so, never a crash.
#[test]
fn joining_with_bad_input_is_an_error() {
    use handoff::team::ShmTransport;
    let e = ShmTransport::join("/handoff-1-no-such-team", 0, 2, Wait::ADAPTIVE).unwrap_err();
    assert!(e.to_string().contains("no segment named"), "{e}");
    let plain = handoff::shm::Segment::create("not-a-team", 1 << 16).unwrap();
    plain.publish_ready();
    let e = ShmTransport::join(plain.name().unwrap(), 0, 2, Wait::ADAPTIVE).unwrap_err();
    assert!(
        matches!(
            e,
            TeamError::BadEnv {
                var: "HANDOFF_TEAM",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("not a team segment"), "{e}");
}

/// A PE whose environment is bad (a rank that is not a number, a rank outside the team)
/// fails to join with `BadEnv` / `NoSuchPe` (reported through its exit code).
#[test]
fn bad_team_environment_is_reported() {
    if handoff::team::in_team() {
        let code = match Team::from_env() {
            Err(TeamError::BadEnv {
                var: "HANDOFF_RANK",
                ..
            }) => 21,
            Err(TeamError::NoSuchPe { pe: 5, size: 1 }) => 22,
            other => {
                eprintln!("from_env gave {other:?}");
                1
            }
        };
        std::process::exit(code);
    }
    for (rank, code) in [("x", 21), ("5", 22)] {
        let l = team_launch("bad_team_environment_is_reported", 1).env("HANDOFF_RANK", rank);
        let r = run_team(l, Duration::from_secs(30));
        assert_eq!(
            r.exits[0].status,
            PeStatus::Exited(code),
            "rank {rank}: {r:?}"
        );
    }
}

/// The launcher sleeps while its PEs run: `Running::wait` blocks on the PEs' pidfds (with a
/// 10 ms tick for its deadlines and signals) instead of waking every millisecond, which
/// preempted PEs pinned to the launcher's CPUs ~900 times a second. Counted as the waiting
/// thread's voluntary context switches over 400 ms (no timing): ~400 with a 1 ms poll.
#[test]
fn the_launcher_sleeps_while_its_pes_run() {
    if handoff::team::in_team() {
        let team = Team::from_env().unwrap();
        std::thread::sleep(Duration::from_millis(400));
        team.finalize().unwrap();
        std::process::exit(0);
    }
    let running = team_launch("the_launcher_sleeps_while_its_pes_run", 2)
        .spawn()
        .unwrap();
    let switches = || {
        // SAFETY: all-zero is a valid `rusage` (plain integers).
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `ru` is a valid, writable rusage that outlives the call.
        assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) }, 0);
        ru.ru_nvcsw
    };
    let before = switches();
    let report = running.wait().unwrap();
    let woke = switches() - before;
    assert_all_ok(&report);
    assert!(
        woke < 150,
        "the waiting thread woke {woke} times in ~400 ms"
    );
}

/// `Launch::timeout` ends a team that does not finish: every PE killed, `TeamTimeout` naming
/// the PEs still running, and the segment gone.
#[test]
fn launch_timeout_ends_a_hung_team() {
    if handoff::team::in_team() {
        let team = Team::from_env().unwrap();
        let never = team.alloc::<u64>(1).unwrap();
        if team.rank() == 0 {
            let _ = team.barrier_all(); // PE 1 never comes
        } else {
            let _ = team.signal_wait_until(never, Cmp::Ge, 1); // nobody signals
        }
        std::process::exit(1);
    }
    // Long enough for both PEs to be in their waits (a peer check, 50 ms, says what each
    // waits for) on a loaded machine.
    let l = team_launch("launch_timeout_ends_a_hung_team", 2).timeout(Duration::from_secs(5));
    let running = l.spawn().unwrap();
    let name = running.segment_name().to_string();
    let pids = running.pids().to_vec();
    let e = handoff_testkit::within(
        "Running::wait with a timeout",
        Duration::from_secs(30),
        move || running.wait().unwrap_err(),
    );
    // #40: the line names the PEs the launcher still waited for, and how far each got.
    assert!(matches!(e, TeamError::TeamTimeout { .. }), "{e}");
    let text = e.to_string();
    for pe in [
        format!(
            "PE 0 (pid {}, in the team, in a barrier waiting for PE 1)",
            pids[0]
        ),
        format!(
            "PE 1 (pid {}, in the team, waiting on its own symmetric heap",
            pids[1]
        ),
    ] {
        assert!(text.contains(&pe), "{pe:?} not in {text}");
    }
    for pid in pids {
        let alive = handoff::sys::ProcessId::of(pid).is_ok_and(|p| p.is_alive());
        assert!(!alive, "PE pid {pid} still runs");
    }
    assert!(
        !std::path::Path::new(&format!("/dev/shm{name}")).exists(),
        "{name} left behind"
    );
}

/// #24 item 3: a PE that is alive but never joins (never calls `Team::from_env`) ends the
/// team at the join deadline, and the launcher names it, not a PE that waited for it.
#[test]
fn a_pe_that_never_joins_is_named_at_the_join_deadline() {
    if handoff::team::in_team() {
        if std::env::var("HANDOFF_RANK").as_deref() == Ok("1") {
            std::thread::sleep(Duration::from_secs(120)); // alive, never joins
            std::process::exit(0);
        }
        pe(|_| Ok(()));
    }
    let l = team_launch("a_pe_that_never_joins_is_named_at_the_join_deadline", 3)
        .join_timeout(Duration::from_secs(2));
    let running = l.spawn().unwrap();
    let name = running.segment_name().to_string();
    let pids = running.pids().to_vec();
    let e = handoff_testkit::within("Running::wait", Duration::from_secs(60), move || {
        running.wait().unwrap_err()
    });
    assert!(
        matches!(e, TeamError::NotJoined { rank: 1, .. }),
        "expected PE 1 named: {e}"
    );
    assert!(e.to_string().contains("did not join"), "{e}");
    // #40 item 6: what was seen, and how to allow longer.
    for part in [
        "within 2s",
        "joined: PEs 0, 2; not joined: PE 1;",
        "--join-timeout",
        "HANDOFF_JOIN_TIMEOUT",
    ] {
        assert!(e.to_string().contains(part), "{part:?} not in {e}");
    }
    for pid in pids {
        let alive = handoff::sys::ProcessId::of(pid).is_ok_and(|p| p.is_alive());
        assert!(!alive, "PE pid {pid} still runs");
    }
    assert!(
        !std::path::Path::new(&format!("/dev/shm{name}")).exists(),
        "{name} left behind"
    );
}

/// Wake only who waits on what was written, across processes (`Wait::Block`): PE 1 sleeps
/// in a wait on word A while PE 0 puts 2000 times into word B of PE 1 (half with `quiet`
/// after each), does 200 remote atomics on word C, and then, with PE 1 asleep in a barrier,
/// 2000 more puts: none of it may make a futex wake-up call (PE 0 counts its own). Then PE 0
/// puts A and PE 1 must wake (the 20 s watchdog catches a lost wake-up: each sleep slice is
/// 50 ms, and the test loops). Ten rounds.
#[test]
fn writers_do_not_wake_pes_waiting_on_other_words() {
    const ROUNDS: u64 = 10;
    if handoff::team::in_team() {
        pe(|team| {
            let (me, other) = (team.rank(), 1 - team.rank());
            let err = |e: TeamError| e.to_string();
            let a = team.alloc::<u64>(1).map_err(err)?;
            let b = team.alloc::<u64>(16).map_err(err)?;
            let c = team.alloc::<u64>(1).map_err(err)?;
            for round in 1..=ROUNDS {
                if me == 1 {
                    let got = team.signal_wait_until(a, Cmp::Ge, round).map_err(err)?;
                    if got != round {
                        return Err(format!("round {round}: A read {got}"));
                    }
                    team.barrier_all().map_err(err)?;
                    team.barrier_all().map_err(err)?;
                    continue;
                }
                // Let PE 1 fall asleep on A (not needed for correctness: a PE 1 still awake
                // only makes the zero below easier to reach).
                std::thread::sleep(Duration::from_millis(20));
                let before = handoff::sync::futex_wakes();
                for i in 0..2000u64 {
                    team.put(&b, (i % 16) as usize, &[i], other).map_err(err)?;
                    if i % 2 == 0 {
                        team.quiet();
                    }
                }
                for _ in 0..200 {
                    team.atomic_add(c, 1u64, other).map_err(err)?;
                }
                let wakes = handoff::sync::futex_wakes() - before;
                if wakes != 0 {
                    return Err(format!(
                        "round {round}: {wakes} futex wakes for writes PE 1 does not wait on"
                    ));
                }
                team.put(&a, 0, &[round], other).map_err(err)?;
                team.quiet();
                team.barrier_all().map_err(err)?;
                // PE 1 is now asleep in (or on its way to) the second barrier.
                std::thread::sleep(Duration::from_millis(20));
                let before = handoff::sync::futex_wakes();
                for i in 0..2000u64 {
                    team.put(&b, (i % 16) as usize, &[i], other).map_err(err)?;
                }
                team.quiet();
                let wakes = handoff::sync::futex_wakes() - before;
                if wakes != 0 {
                    return Err(format!(
                        "round {round}: {wakes} futex wakes for puts while PE 1 is in a barrier"
                    ));
                }
                team.barrier_all().map_err(err)?;
            }
            Ok(())
        });
    }
    let l = team_launch("writers_do_not_wake_pes_waiting_on_other_words", 2).wait(Wait::Block);
    assert_all_ok(&run_team(l, Duration::from_secs(20)));
}

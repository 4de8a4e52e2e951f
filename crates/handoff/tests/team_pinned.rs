//! Adaptive waits and where the PEs run: two PEs on two CPUs of their own spin (no wait of
//! theirs takes the same-CPU yield path), two PEs on one CPU yield to each other, whether
//! the launcher pinned them there or the scheduler put them there, and teams of more PEs
//! than CPUs finish their barriers well within a watchdog. Counted with
//! `handoff::sync::adaptive_stats` (each PE's own waits), no timing. Each test re-executes
//! this binary as its PEs (`handoff_testkit::team_launch`).

use handoff::sync::{adaptive_stats, reset_adaptive_stats, AdaptiveStats};
use handoff::team::{Cmp, Placement, SignalOp, Team, TeamError};
use handoff_testkit::{run_team, team_launch};
use std::time::Duration;

/// Hand-offs per test: put-with-signal ping-pongs, a barrier every `BARRIER_EVERY`.
const ROUNDS: u64 = 2_000;
const BARRIER_EVERY: u64 = 10;

/// A PE's body: ping-pongs with the other PE, then checks its adaptive counts with `check`
/// (exit 1 with the counts on failure).
fn pe(check: fn(&AdaptiveStats) -> bool, what: &str) -> ! {
    pe_with(false, check, what)
}

/// [`pe`], with counting puts when `counting`: `put_ct` to the peer, `ct_wait` for 1 and
/// `ct_set` back to 0 (the receiver-managed counter of the pingpong bench and of
/// `shmemx_ct_set` users).
fn pe_with(counting: bool, check: fn(&AdaptiveStats) -> bool, what: &str) -> ! {
    let team = Team::from_env().unwrap_or_else(|e| {
        eprintln!("PE could not join: {e}");
        std::process::exit(1)
    });
    let run = || -> Result<AdaptiveStats, TeamError> {
        let me = team.rank();
        let other = 1 - me;
        let buf = team.alloc::<u64>(1)?;
        let sig = team.alloc::<u64>(1)?;
        let ct = team.ct_create()?;
        let send = |i: u64| {
            if counting {
                team.put_ct(&ct, &buf, 0, &[i], other)
            } else {
                team.put_signal(&buf, 0, &[i], sig, SignalOp::Set(i), other)
            }
        };
        team.barrier_all()?;
        reset_adaptive_stats();
        // A late message now and then (each PE every 10th round): the other PE's wait then
        // outlasts its quick polls and reaches the adaptive policy (on a machine whose
        // answers all came within them, no wait did, and `waited` failed the test).
        let late = |i: u64| {
            if (i + me as u64 * 5).is_multiple_of(10) {
                let until = std::time::Instant::now() + Duration::from_micros(5);
                while std::time::Instant::now() < until {
                    std::hint::spin_loop();
                }
            }
        };
        for i in 1..=ROUNDS {
            if me == 0 {
                late(i);
                send(i)?;
            }
            if counting {
                team.ct_wait(&ct, 1)?;
                team.ct_set(&ct, 0);
            } else {
                team.signal_wait_until(sig, Cmp::Ge, i)?;
            }
            if me == 1 {
                late(i);
                send(i)?;
            }
            if i % BARRIER_EVERY == 0 {
                team.barrier_all()?;
            }
        }
        Ok(adaptive_stats())
    };
    match run() {
        Ok(st) if check(&st) => {}
        Ok(st) => {
            eprintln!("PE {}: expected {what}, counted {st:?}", team.rank());
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("PE {}: {e}", team.rank());
            std::process::exit(1);
        }
    }
    team.finalize().unwrap_or_else(|e| {
        eprintln!("finalize: {e}");
        std::process::exit(1)
    });
    std::process::exit(0);
}

/// Whether any wait reached the adaptive policy (a ping-pong's waits nearly all do; none
/// would make the checks below say nothing).
fn waited(st: &AdaptiveStats) -> bool {
    st.spun + st.blocked > 0
}

/// Runs test `name` as two PEs pinned to two distinct CPUs (a `SKIP:` line with fewer).
fn run_on_two_cpus(name: &str) {
    handoff_testkit::run_on_two_cpus(name, Duration::from_secs(120));
}

/// Two PEs pinned to two distinct CPUs (`--map spread`, the pingpong bench's placements):
/// each PE's mask holds one CPU, which must not count as "more PEs than CPUs". Before the
/// fix every wait here took the same-CPU path and yielded (a `sched_yield` per hand-off:
/// the default wait 5× slower than spinning).
#[test]
fn pes_pinned_to_distinct_cpus_do_not_yield() {
    if handoff::team::in_team() {
        pe(
            |st| waited(st) && st.same_cpu == 0,
            "no same-CPU wait (the PEs have a CPU each)",
        );
    }
    run_on_two_cpus("pes_pinned_to_distinct_cpus_do_not_yield");
}

/// The same with counting puts whose receiver resets its counter (`ct_set`): the reset is
/// not a publication. Before `Signal::reset`, it recorded the receiver's own CPU as the last
/// publisher's, so every next `ct_wait` took the same-CPU path and yielded (the default wait
/// 7.6× a spinning one in the pingpong bench).
#[test]
fn counting_puts_reset_by_their_receiver_do_not_yield() {
    if handoff::team::in_team() {
        pe_with(
            true,
            |st| waited(st) && st.same_cpu == 0,
            "no same-CPU wait (the PEs have a CPU each; a reset is not a publication)",
        );
    }
    run_on_two_cpus("counting_puts_reset_by_their_receiver_do_not_yield");
}

/// Two PEs pinned to one CPU: their waits still find the peer on their CPU and yield to
/// it (instead of pausing until the scheduler's tick).
#[test]
fn pes_pinned_to_one_cpu_yield_to_each_other() {
    if handoff::team::in_team() {
        pe(
            |st| waited(st) && st.same_cpu > 0,
            "same-CPU waits (both PEs on one CPU)",
        );
    }
    let cpu = handoff::sys::allowed_cpus().expect("allowed CPUs")[0];
    let l = team_launch("pes_pinned_to_one_cpu_yield_to_each_other", 2)
        .cores(Placement::Cores(vec![cpu, cpu]));
    let r = run_team(l, Duration::from_secs(120));
    assert!(r.success(), "a PE failed: {:?}", r.exits);
}

/// Barriers per PE in the tests below.
const BARRIERS: u64 = 5_000;

/// A PE's body for the barrier tests: pins itself to `cpu` first when given (after joining:
/// the team sees an unpinned PE), runs [`BARRIERS`] barriers with a put to its right
/// neighbour before each (checked after it), then checks its adaptive counts.
fn barrier_pe(cpu: Option<usize>, check: fn(&AdaptiveStats) -> bool, what: &str) -> ! {
    let team = Team::from_env().unwrap_or_else(|e| {
        eprintln!("PE could not join: {e}");
        std::process::exit(1)
    });
    if let Some(cpu) = cpu {
        let mut set = rustix::thread::CpuSet::new();
        set.set(cpu);
        rustix::thread::sched_setaffinity(None, &set).expect("pin the PE");
    }
    let run = || -> Result<AdaptiveStats, TeamError> {
        let (me, p) = (team.rank(), team.size());
        let slot = team.alloc::<u64>(1)?;
        team.barrier_all()?;
        reset_adaptive_stats();
        for i in 1..=BARRIERS {
            team.put(&slot, 0, &[i * 64 + me as u64], (me + 1) % p)?;
            team.barrier_all()?;
            let want = i * 64 + ((me + p - 1) % p) as u64;
            let got = team.local(&slot)[0];
            if got != want {
                eprintln!("PE {me}: barrier {i}: {got}, want {want}");
                std::process::exit(1);
            }
            team.barrier_all()?;
        }
        Ok(adaptive_stats())
    };
    match run() {
        Ok(st) if check(&st) => {}
        Ok(st) => {
            eprintln!("PE {}: expected {what}, counted {st:?}", team.rank());
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("PE {}: {e}", team.rank());
            std::process::exit(1);
        }
    }
    team.finalize().unwrap_or_else(|e| {
        eprintln!("finalize: {e}");
        std::process::exit(1)
    });
    std::process::exit(0);
}

/// Two unpinned PEs (the default launch) that the scheduler put on one CPU (here: they pin
/// themselves after joining, so the team still takes them for unpinned PEs with a CPU each):
/// their barrier waits find the sender's CPU in its arrival and yield to it, which keeps
/// both runnable so that the load balancer can move one away. Before, a barrier passed no
/// CPU hint: its waits paused on the CPU the peer needed until the spin budget ran out, then
/// slept, and two such PEs stayed on one CPU at a sleep and a wake-up per barrier (the slow
/// mode of a bimodal `shmem_barrier_all`, issue #44).
#[test]
fn unpinned_pes_on_one_cpu_yield_in_barriers() {
    let cpus = handoff::sys::allowed_cpus().expect("allowed CPUs");
    if handoff::team::in_team() {
        barrier_pe(
            Some(cpus[0]),
            |st| waited(st) && st.same_cpu > 0,
            "barrier waits that yield to the sender on this CPU",
        );
    }
    if cpus.len() < 2 {
        eprintln!(
            "SKIP: unpinned_pes_on_one_cpu_yield_in_barriers: needs 2 CPUs (with one, the \
             team itself says its PEs share it)"
        );
        return;
    }
    let l = team_launch("unpinned_pes_on_one_cpu_yield_in_barriers", 2);
    let r = run_team(l, Duration::from_secs(120));
    assert!(r.success(), "a PE failed: {:?}", r.exits);
}

/// Runs `test` as `n` PEs pinned round-robin to two CPUs, or unpinned when the process may
/// use exactly two (the team then counts more PEs than CPUs itself), with a watchdog of
/// `limit`; with fewer than two CPUs prints a `SKIP:` line.
fn run_on_two_shared_cpus(test: &str, n: usize, pinned: bool, limit: Duration) {
    let cpus = handoff::sys::allowed_cpus().expect("allowed CPUs");
    if cpus.len() < 2 || (!pinned && cpus.len() != 2) {
        eprintln!(
            "SKIP: {test}: needs 2 CPUs ({} unpinned), this process may use {cpus:?}",
            if pinned { "or more" } else { "exactly, when" }
        );
        return;
    }
    let mut l = team_launch(test, n);
    if pinned {
        l = l.cores(Placement::Cores(vec![cpus[0], cpus[1]]));
    }
    let r = run_team(l, limit);
    assert!(
        r.success(),
        "a PE failed or the watchdog fired: {:?}",
        r.exits
    );
}

/// 4 PEs pinned two to a CPU: 10,000 barriers (2 rounds each) and their puts finish within
/// the watchdog, and the waits yield to the PEs they share a CPU with. A wait that spun on
/// its CPU until the scheduler preempted it would cost a 4 ms tick per round: 80 s, past
/// the 60 s watchdog (a watchdog, not a timing assertion: this takes a second or two).
#[test]
fn four_pes_on_two_cpus_finish_their_barriers() {
    if handoff::team::in_team() {
        barrier_pe(
            None,
            |st| waited(st) && st.same_cpu > 0,
            "waits that yield to PEs on this CPU",
        );
    }
    run_on_two_shared_cpus(
        "four_pes_on_two_cpus_finish_their_barriers",
        4,
        true,
        Duration::from_secs(60),
    );
}

/// 8 unpinned PEs on a 2-CPU process (the machine's load, not the team's, used to decide
/// whether its waits yield): 10,000 barriers of 3 rounds each finish within the watchdog
/// (a tick per round would take 120 s), and the waits yield, the team knowing it has more
/// PEs than CPUs.
#[test]
fn eight_unpinned_pes_on_two_cpus_finish_their_barriers() {
    if handoff::team::in_team() {
        barrier_pe(
            None,
            |st| waited(st) && st.same_cpu > 0,
            "waits that yield (8 PEs on 2 CPUs)",
        );
    }
    run_on_two_shared_cpus(
        "eight_unpinned_pes_on_two_cpus_finish_their_barriers",
        8,
        false,
        Duration::from_secs(90),
    );
}

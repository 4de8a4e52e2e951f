//! Adaptive waits of PEs pinned by the launcher: two PEs on two CPUs of their own spin
//! (no wait of theirs takes the same-CPU yield path), two PEs on one CPU yield to each
//! other. Counted with `handoff::sync::adaptive_stats` (each PE's own waits), no timing.
//! Each test re-executes this binary as its PEs (`handoff_testkit::team_launch`).

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
        for i in 1..=ROUNDS {
            if me == 0 {
                send(i)?;
            }
            if counting {
                team.ct_wait(&ct, 1)?;
                team.ct_set(&ct, 0);
            } else {
                team.signal_wait_until(sig, Cmp::Ge, i)?;
            }
            if me == 1 {
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

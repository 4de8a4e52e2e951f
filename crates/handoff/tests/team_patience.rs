//! The team's and the epochs' wait convention across processes (issue #43): a call's default
//! form waits with the stored patience (its timeout ends it), the `_timeout` form waits with
//! its own limit for that call only, and the `try_` form does not wait. No timing bound
//! decides a result: a form that ignored its limit hangs, and the watchdog fails the test.
//!
//! Each test re-executes this binary as its PEs (`handoff_testkit::team_launch`); a PE runs
//! the test's body when `handoff::team::in_team()` and exits non-zero on any failure.

use handoff::sync::{Patience, Wait};
use handoff::team::{Cmp, Epochs, LockKind, SignalOp, Team, TeamError, EPOCH_TIMEOUT};
use handoff_testkit::{run_team, team_launch};
use std::time::Duration;

/// The stored timeout the waits that must time out run with.
const SHORT: Duration = Duration::from_millis(200);
/// A limit no wait of these tests reaches.
const LONG: Duration = Duration::from_secs(3600);
/// How long a PE lets the other wait before it sends what that one waits for: several times
/// [`SHORT`], so a waiter that used the stored timeout instead of its call's own has given up
/// by then (a slower machine only makes the check weaker, never wrong).
const LATE: Duration = Duration::from_millis(900);

fn s<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// A PE body: runs `f` on its team, exits 0 after `finalize_timeout`, or prints the error
/// and exits 1.
fn pe(f: impl FnOnce(&mut Team) -> Result<(), String>) {
    let mut team = Team::from_env().unwrap_or_else(|e| {
        eprintln!("PE could not join: {e}");
        std::process::exit(1)
    });
    if let Err(e) = f(&mut team) {
        eprintln!("PE {}: {e}", team.rank());
        std::process::exit(1);
    }
    // Not `finalize()`: a test may have stored a short timeout, and the other PE may still
    // be busy with its waits.
    team.finalize_timeout(LONG).unwrap_or_else(|e| {
        eprintln!("finalize: {e}");
        std::process::exit(1)
    });
    std::process::exit(0);
}

fn want(what: &str, ok: bool) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("{what}: not as expected"))
    }
}

fn timed_out<T: std::fmt::Debug>(r: &Result<T, TeamError>) -> bool {
    matches!(r, Err(TeamError::Timeout { .. }))
}

fn would_block<T: std::fmt::Debug>(r: &Result<T, TeamError>) -> bool {
    matches!(r, Err(TeamError::WouldBlock { .. }))
}

/// PE 0 waits on words PE 1 writes only when told: the default form ends after the stored
/// timeout, `_timeout` waits past it for that call only (PE 1 signals after [`LATE`]), the
/// next default call ends after the stored timeout again, and `try_` answers at once.
#[test]
fn team_waits_take_the_stored_timeout_and_per_call_overrides() {
    if handoff::team::in_team() {
        pe(|team| {
            want(
                "the patience the team joined with",
                team.patience() == Patience::new(Wait::Block),
            )?;
            team.set_patience(team.patience().with_timeout(Some(SHORT)))
                .map_err(s)?;
            want(
                "set_patience keeps it",
                team.patience().timeout == Some(SHORT),
            )?;
            let sig = team.alloc::<u64>(2).map_err(s)?;
            let line = team.alloc::<handoff::team::Line>(1).map_err(s)?;
            let ct = team.ct_create().map_err(s)?;
            let mut out = [0u8; 8];
            if team.rank() == 0 {
                // Nothing is sent yet: PE 1 waits in the barrier below.
                let r = team.signal_wait_until(sig, Cmp::Ge, 1);
                want("signal_wait_until after the stored timeout", timed_out(&r))?;
                let r = team.ct_wait(&ct, 1);
                want("ct_wait after the stored timeout", timed_out(&r))?;
                let r = team.wait_line(line, 1, &mut out);
                want("wait_line after the stored timeout", timed_out(&r))?;
                let r = team.wait_until_all(&sig, None, Cmp::Ge, 1);
                want("wait_until_all after the stored timeout", timed_out(&r))?;
                let r = team.wait_until_any_timeout(&sig, None, Cmp::Ge, 1, SHORT);
                want("wait_until_any_timeout", timed_out(&r))?;
                let r = team.try_signal_wait_until(sig, Cmp::Ge, 1);
                want("try_signal_wait_until", would_block(&r))?;
                want("try_ct_wait", would_block(&team.try_ct_wait(&ct, 1)))?;
                let r = team.try_wait_line(line, 1, &mut out);
                want("try_wait_line", would_block(&r))?;
                let r = team.try_wait_until_some(&sig, None, Cmp::Ge, 1);
                want("try_wait_until_some", would_block(&r))?;
                team.barrier_all_timeout(LONG).map_err(s)?;
                // PE 1 now sends everything, each after LATE: the `_timeout` forms must
                // outwait the stored SHORT.
                let v = team
                    .signal_wait_until_timeout(sig, Cmp::Ge, 1, LONG)
                    .map_err(|e| format!("signal_wait_until_timeout: {e}"))?;
                want("the signal's value", v == 1)?;
                let v = team
                    .ct_wait_timeout(&ct, 1, LONG)
                    .map_err(|e| format!("ct_wait_timeout: {e}"))?;
                want("the counter's value", v == 1)?;
                let v = team
                    .wait_line_timeout(line, 1, &mut out, LONG)
                    .map_err(|e| format!("wait_line_timeout: {e}"))?;
                want("the line", v == 1 && out == *b"patience")?;
                team.wait_until_all_timeout(&sig, None, Cmp::Ge, 1, LONG)
                    .map_err(|e| format!("wait_until_all_timeout: {e}"))?;
                // For that call only: the default form has the stored timeout again.
                let r = team.signal_wait_until(sig.at(0), Cmp::Ge, 2);
                want("the default form after a _timeout call", timed_out(&r))?;
                // And `try_` sees what is there.
                let r = team.try_signal_wait_until(sig.at(0), Cmp::Ge, 1);
                want("try_signal_wait_until on a sent signal", matches!(r, Ok(1)))?;
                want(
                    "try_ct_wait on a counted put",
                    matches!(team.try_ct_wait(&ct, 1), Ok(1)),
                )?;
                let r = team.try_wait_until_any(&sig, None, Cmp::Ge, 1);
                want("try_wait_until_any", matches!(r, Ok(Some(_))))?;
                team.try_wait_until_all(&sig, None, Cmp::Ge, 1).map_err(s)?;
            } else {
                // Not `barrier_all()`: PE 0's timeouts above outlast the stored SHORT.
                team.barrier_all_timeout(LONG).map_err(s)?;
                std::thread::sleep(LATE);
                team.signal(sig, SignalOp::Set(1), 0).map_err(s)?;
                std::thread::sleep(LATE);
                team.put_ct(&ct, &sig, 1, &[1u64], 0).map_err(s)?;
                std::thread::sleep(LATE);
                team.put_line(line, b"patience", 1, 0).map_err(s)?;
            }
            Ok(())
        });
    }
    let l = team_launch(
        "team_waits_take_the_stored_timeout_and_per_call_overrides",
        2,
    )
    .wait(Wait::Block);
    let r = run_team(l, Duration::from_secs(120));
    assert!(r.success(), "a PE failed: {:?}", r.exits);
}

/// A PE that joined spinning told the others it never sleeps (their writers skip its
/// wake-ups): its patience may not take a strategy that sleeps.
#[test]
fn a_spinning_pe_refuses_a_sleeping_patience() {
    if handoff::team::in_team() {
        pe(|team| {
            want("joined spinning", team.patience().wait == Wait::Spin)?;
            let r = team.set_patience(Patience::new(Wait::Block));
            want(
                "set_patience(Block) refused",
                matches!(&r, Err(TeamError::InvalidArgument(m)) if m.contains("never sleeps")),
            )?;
            want("patience unchanged", team.patience().wait == Wait::Spin)?;
            team.set_patience(Patience::new(Wait::SpinYield).with_timeout(Some(LONG)))
                .map_err(s)?;
            let mut ep = Epochs::new(team).map_err(s)?;
            let r = ep.set_patience(Patience::new(Wait::ADAPTIVE));
            want(
                "Epochs::set_patience(adaptive) refused",
                matches!(r, Err(TeamError::InvalidArgument(_))),
            )?;
            ep.close().map_err(s)
        });
    }
    let l = team_launch("a_spinning_pe_refuses_a_sleeping_patience", 2).wait(Wait::Spin);
    let r = run_team(l, Duration::from_secs(120));
    assert!(r.success(), "a PE failed: {:?}", r.exits);
}

fn epoch_timeout(r: &Result<(), TeamError>, pe: usize, after: Duration) -> bool {
    matches!(r, Err(TeamError::EpochTimeout { pe: Some(p), after: a, .. }) if *p == pe && *a == after)
}

fn epoch_would_block(r: &Result<(), TeamError>) -> bool {
    matches!(r, Err(TeamError::WouldBlock { .. }))
}

/// The epochs' own patience: `start`, `lock` and `fence` end after the stored epoch timeout
/// (not the team's: none), their `_timeout` forms wait past it for that call only, and
/// `try_start` / `try_lock` do not wait (`try_wait`: `tests/epochs.rs`).
#[test]
fn epoch_waits_take_their_own_timeout_and_per_call_overrides() {
    if handoff::team::in_team() {
        pe(|team| {
            let me = team.rank();
            let team: &Team = team;
            let mut ep = Epochs::new(team).map_err(s)?;
            want(
                "the epochs' default timeout",
                ep.patience() == team.patience().with_timeout(Some(EPOCH_TIMEOUT)),
            )?;
            ep.set_patience(ep.patience().with_timeout(Some(SHORT)))
                .map_err(s)?;
            if me == 0 {
                // PE 1 posts nothing and sits in the barrier below.
                let r = ep.start(&[1]);
                want(
                    "start after the epochs' timeout",
                    epoch_timeout(&r, 1, SHORT),
                )?;
                want(
                    "try_start without a post",
                    epoch_would_block(&ep.try_start(&[1])),
                )?;
                team.barrier_all().map_err(s)?;
                // PE 1 posts after LATE: the `_timeout` form outwaits the stored SHORT.
                ep.start_timeout(&[1], LONG)
                    .map_err(|e| format!("start_timeout: {e}"))?;
                ep.complete().map_err(s)?;
                // For that call only: no second post, so `start` times out again.
                let r = ep.start(&[1]);
                want("start after a start_timeout", epoch_timeout(&r, 1, SHORT))?;
                let r = ep.start_timeout(&[1], SHORT / 2);
                want(
                    "start_timeout names its own limit",
                    epoch_timeout(&r, 1, SHORT / 2),
                )?;
                team.barrier_all().map_err(s)?;
                team.barrier_all().map_err(s)?;
                // PE 1 holds its lock exclusively now.
                let r = ep.lock(1, LockKind::Shared);
                want(
                    "lock after the epochs' timeout",
                    epoch_timeout(&r, 1, SHORT),
                )?;
                let r = ep.try_lock(1, LockKind::Exclusive);
                want("try_lock on a held lock", epoch_would_block(&r))?;
                team.barrier_all().map_err(s)?;
                // PE 1 unlocks after LATE.
                ep.lock_timeout(1, LockKind::Exclusive, LONG)
                    .map_err(|e| format!("lock_timeout: {e}"))?;
                ep.unlock(1).map_err(s)?;
                ep.try_lock(1, LockKind::Shared).map_err(s)?;
                ep.unlock(1).map_err(s)?;
                team.barrier_all().map_err(s)?;
                // A fence PE 1 joins only after LATE: the `_timeout` form waits for it, the
                // default one (PE 1 never fences again) ends after SHORT.
                ep.fence_timeout(LONG)
                    .map_err(|e| format!("fence_timeout: {e}"))?;
                let r = ep.fence();
                want(
                    "fence after the epochs' timeout",
                    epoch_timeout(&r, 1, SHORT),
                )?;
            } else {
                team.barrier_all().map_err(s)?;
                std::thread::sleep(LATE);
                ep.post(&[0]).map_err(s)?;
                ep.wait_timeout(LONG)
                    .map_err(|e| format!("wait_timeout: {e}"))?;
                team.barrier_all().map_err(s)?;
                ep.lock(1, LockKind::Exclusive).map_err(s)?;
                team.barrier_all().map_err(s)?;
                team.barrier_all().map_err(s)?;
                std::thread::sleep(LATE);
                ep.unlock(1).map_err(s)?;
                team.barrier_all().map_err(s)?;
                std::thread::sleep(LATE);
                ep.fence_timeout(LONG).map_err(s)?;
            }
            // PE 0's last fence timed out: its fence count is one ahead, so no fence after
            // this; close reports no open epoch.
            ep.close().map_err(s)
        });
    }
    let l = team_launch(
        "epoch_waits_take_their_own_timeout_and_per_call_overrides",
        2,
    )
    .wait(Wait::Block);
    let r = run_team(l, Duration::from_secs(120));
    assert!(r.success(), "a PE failed: {:?}", r.exits);
}

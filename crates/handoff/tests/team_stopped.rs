//! A PE stopped with SIGSTOP is alive, so no peer check calls it dead: a wait on it ends at
//! its deadline, and the error names it as "not responding (stopped)" instead of a bare
//! timeout. Across processes: each test re-executes this binary as its PEs, and PE 0 stops
//! PE 1 with SIGSTOP (PE 1 put its pid into PE 0's heap).

use handoff::sys::ProcessId;
use handoff::sys::UnixSignal as Signal;
use handoff::team::{Cmp, PeStatus, Team, TeamError};
use handoff_testkit::{run_team, team_launch};
use std::time::Duration;

/// PE 0's exit code when its barrier ended with `NotResponding` naming PE 1.
const NAMED_STOPPED_PE: i32 = 50;

/// Joins; PE 1 hands its pid to PE 0 and then idles (it is about to be stopped); PE 0
/// returns the team, the stopped PE 1's identity and a word nobody signals.
fn join_and_stop_pe1() -> (Team, ProcessId, handoff::team::Sym<u64>) {
    let team = Team::from_env().unwrap();
    let pid = team.alloc::<u64>(1).unwrap();
    let never = team.alloc::<u64>(1).unwrap();
    if team.rank() == 1 {
        team.put(&pid, 0, &[u64::from(std::process::id())], 0)
            .unwrap();
        team.quiet();
    }
    team.barrier_all().unwrap();
    if team.rank() == 1 {
        // Stopped by PE 0 here; killed by PE 0 or the launcher, never resumed.
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    let pe1 = ProcessId::of(team.local(&pid)[0] as u32).unwrap();
    pe1.kill(Signal::Stop).unwrap();
    // The stop takes effect asynchronously: wait until /proc shows it.
    while !pe1.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
    (team, pe1, never)
}

/// PE 0's second barrier, with a 1 s team timeout, must end naming the stopped PE 1 as not
/// responding. PE 0 then resumes and kills it (SIGCONT, SIGKILL) so the team ends.
#[test]
fn a_wait_on_a_stopped_pe_names_it_as_not_responding() {
    if handoff::team::in_team() {
        let (team, pe1, _) = join_and_stop_pe1();
        let r = team.barrier_all_timeout(Duration::from_secs(1));
        let code = match &r {
            Err(e @ TeamError::NotResponding { rank: 1, pid, .. }) if *pid == pe1.pid => {
                let msg = e.to_string();
                if msg.contains("PE 1") && msg.contains("not responding (stopped") {
                    NAMED_STOPPED_PE
                } else {
                    eprintln!("PE 0: unexpected message {msg:?}");
                    1
                }
            }
            other => {
                eprintln!("PE 0: the barrier ended with {other:?}");
                1
            }
        };
        let _ = pe1.kill(Signal::Cont);
        let _ = pe1.kill(Signal::Kill);
        std::process::exit(code);
    }
    let l = team_launch("a_wait_on_a_stopped_pe_names_it_as_not_responding", 2)
        .grace(Duration::from_secs(1));
    let r = run_team(l, Duration::from_secs(60));
    assert_eq!(
        r.exits[0].status,
        PeStatus::Exited(NAMED_STOPPED_PE),
        "{r:?}"
    );
}

/// `Launch::timeout` passing while a PE is stopped: the launcher's error names that PE as
/// not responding (PE 0 waits for a signal nobody sends, PE 1 is stopped), every PE is
/// killed and the segment removed.
#[test]
fn the_launch_timeout_names_a_stopped_pe() {
    if handoff::team::in_team() {
        let (team, _pe1, never) = join_and_stop_pe1();
        let r = team.signal_wait_until(never, Cmp::Ge, 1); // nobody signals
        eprintln!("PE 0: the wait ended with {r:?}");
        std::process::exit(1);
    }
    let l = team_launch("the_launch_timeout_names_a_stopped_pe", 2).timeout(Duration::from_secs(3));
    let running = l.spawn().unwrap();
    let name = running.segment_name().to_string();
    let pids = running.pids().to_vec();
    let e = handoff_testkit::within("Running::wait", Duration::from_secs(60), move || {
        running.wait().unwrap_err()
    });
    // Cleanup first (the assertions may fail): nothing of the team may stay stopped.
    for &pid in &pids {
        if let Ok(p) = ProcessId::of(pid) {
            let _ = p.kill(Signal::Cont);
            let _ = p.kill(Signal::Kill);
        }
    }
    assert!(
        matches!(e, TeamError::NotResponding { rank: 1, .. }),
        "expected PE 1 named as not responding: {e}"
    );
    assert!(e.to_string().contains("not responding (stopped"), "{e}");
    assert!(
        !std::path::Path::new(&format!("/dev/shm{name}")).exists(),
        "{name} left behind"
    );
}

/// A PE stopped before it joined: at the join deadline the launcher names it as not
/// responding (stopped), not as a PE that never called `Team::from_env`. The test stops PE 1
/// right after the spawn, while PE 1 still sleeps before joining.
#[test]
fn a_pe_stopped_before_joining_is_named_at_the_join_deadline() {
    if handoff::team::in_team() {
        if std::env::var("HANDOFF_RANK").as_deref() == Ok("1") {
            std::thread::sleep(Duration::from_secs(3)); // stopped during this sleep
        }
        let team = Team::from_env().unwrap();
        let _ = team.barrier_all();
        std::process::exit(0);
    }
    let l = team_launch(
        "a_pe_stopped_before_joining_is_named_at_the_join_deadline",
        2,
    )
    .join_timeout(Duration::from_secs(5))
    .timeout(Duration::from_secs(30));
    let running = l.spawn().unwrap();
    let pids = running.pids().to_vec();
    let pe1 = ProcessId::of(pids[1]).unwrap();
    pe1.kill(Signal::Stop).unwrap();
    let e = handoff_testkit::within("Running::wait", Duration::from_secs(60), move || {
        running.wait().unwrap_err()
    });
    for &pid in &pids {
        if let Ok(p) = ProcessId::of(pid) {
            let _ = p.kill(Signal::Cont);
            let _ = p.kill(Signal::Kill);
        }
    }
    assert!(
        matches!(
            e,
            TeamError::NotResponding {
                rank: 1,
                what: "every PE to join the team",
                ..
            }
        ),
        "expected PE 1 named as not responding at the join deadline: {e}"
    );
}

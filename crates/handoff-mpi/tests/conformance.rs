//! The team transport contract (`handoff_testkit::conformance`, the suite the shared-memory
//! transport passes) over MPI, under `mpirun` with 2 ranks and with 4 ranks on this
//! machine's 2 CPUs (oversubscribed), and with each wait strategy; and a rank that dies or
//! leaves after an error ends the job with a clear line instead of a hang.

#![cfg(feature = "mpi")]

mod common;

use std::time::Duration;

use common::{assert_ok, is_pe, mpirun, mpirun_finalize_retry, pe};
use handoff::team::{Cmp, SignalOp};
use handoff_mpi::MpiTransport;
use handoff_testkit::conformance;

#[test]
fn conformance_mpi_2_and_4_ranks() {
    const NAME: &str = "conformance_mpi_2_and_4_ranks";
    if is_pe() {
        pe(|team| {
            // One node here: `auto` picks the shared window.
            if team.transport().window_kind() != "shared" {
                return Err(format!(
                    "window {}, want shared",
                    team.transport().window_kind()
                ));
            }
            conformance::run_all(team)
        });
    }
    // The 4-rank job staggers the window parts (`HANDOFF_MPI_STAGGER`): each rank's part at
    // another offset into its memory, which every other rank's mapping must follow.
    for (n, stagger) in [(2, "0"), (4, "1")] {
        let env = [
            ("HANDOFF_HEAP_SIZE", "4M"),
            ("HANDOFF_MPI_STAGGER", stagger),
        ];
        let job = mpirun(NAME, n, &env, Duration::from_secs(60));
        assert_ok(&job, &format!("conformance on {n} ranks"));
    }
}

/// A PE of the RMA-window tests: the suite, on a team that really has an RMA window.
fn conformance_on_rma_window(team: &handoff::team::Team<MpiTransport>) -> Result<(), String> {
    let kind = team.transport().window_kind();
    if kind != "rma" {
        return Err(format!("window {kind}, want rma"));
    }
    conformance::run_all(team)
}

/// The same over `MPI_Win_allocate` and MPI's RMA calls (as between nodes), forced here.
#[test]
fn conformance_mpi_rma_window_2_and_4_ranks() {
    const NAME: &str = "conformance_mpi_rma_window_2_and_4_ranks";
    if is_pe() {
        pe(conformance_on_rma_window);
    }
    // Staggered parts on 4 ranks (`HANDOFF_MPI_STAGGER`): every displacement must add the
    // target's own offset.
    for (n, stagger) in [(2, "0"), (4, "1")] {
        let env = [
            ("HANDOFF_HEAP_SIZE", "4M"),
            ("HANDOFF_MPI_WINDOW", "rma"),
            ("HANDOFF_MPI_STAGGER", stagger),
        ];
        let job = mpirun(NAME, n, &env, Duration::from_secs(60));
        assert_ok(&job, &format!("conformance over RMA windows on {n} ranks"));
    }
}

#[test]
fn conformance_mpi_every_wait_strategy() {
    const NAME: &str = "conformance_mpi_every_wait_strategy";
    if is_pe() {
        pe(conformance::run_all);
    }
    for wait in ["spin-yield", "block"] {
        let job = mpirun(
            NAME,
            3,
            &[("HANDOFF_HEAP_SIZE", "4M"), ("HANDOFF_WAIT", wait)],
            Duration::from_secs(60),
        );
        assert_ok(&job, &format!("conformance on 3 ranks with {wait} waits"));
    }
}

/// Rank 1 crashes (SIGABRT) while the others wait for a signal that never comes, with no
/// timeout: the launcher must end the job, non-zero, naming the rank that died, long
/// before the watchdog.
#[test]
fn a_dying_rank_ends_the_job() {
    const NAME: &str = "a_dying_rank_ends_the_job";
    if is_pe() {
        let team = handoff_mpi::join().expect("join");
        let sig = team.alloc::<u64>(1).expect("alloc");
        if team.rank() == 1 {
            eprintln!("PE 1: dying now");
            std::process::abort();
        }
        let r = team.signal_wait_until(sig, Cmp::Ge, 1);
        eprintln!("PE {}: the wait returned {r:?}", team.rank());
        std::process::exit(0);
    }
    let job = mpirun(
        NAME,
        3,
        &[("HANDOFF_HEAP_SIZE", "1M")],
        Duration::from_secs(30),
    );
    let status = job.status.expect("the job hung until the watchdog");
    assert!(!status.success(), "a job whose rank died exited 0");
    assert!(
        job.output.contains("BAD TERMINATION") || job.output.contains("exited on signal"),
        "the launcher did not report the dead rank: {}",
        job.output
    );
    assert!(
        job.output.contains("PE 1: dying now"),
        "rank 1 did not run: {}",
        job.output
    );
}

/// A rank whose team hits an error and is dropped without finalize aborts the whole job
/// (MPI_Abort) with one line naming it, instead of leaving the others in a barrier.
#[test]
fn a_rank_that_leaves_after_an_error_aborts_the_job() {
    const NAME: &str = "a_rank_that_leaves_after_an_error_aborts_the_job";
    if is_pe() {
        let team = handoff_mpi::join().expect("join");
        let sig = team.alloc::<u64>(1).expect("alloc");
        if team.rank() == 0 {
            // A put to a PE that does not exist: an error, then the team is dropped.
            let err = team.signal(sig, SignalOp::Add(1), 99).unwrap_err();
            eprintln!("PE 0: {err}");
            drop(team);
            unreachable!("MPI_Abort returned");
        }
        let r = team.barrier_all();
        eprintln!("PE {}: the barrier returned {r:?}", team.rank());
        std::process::exit(0);
    }
    let job = mpirun(
        NAME,
        2,
        &[("HANDOFF_HEAP_SIZE", "1M")],
        Duration::from_secs(30),
    );
    let status = job.status.expect("the job hung until the watchdog");
    assert!(!status.success(), "an aborted job exited 0");
    assert!(
        job.output
            .contains("PE 0 of 2 left its team without Team::finalize"),
        "no line named the rank that left: {}",
        job.output
    );
    assert!(
        job.output.contains("PE 99 is not in the team"),
        "the error was not reported: {}",
        job.output
    );
}

/// On the shared-window path a waiter asleep (the `block` strategy) is woken by the put
/// itself (the doorbell), not by its futex slice running out: 300 round trips of
/// put-with-signal finish well within the job's limit, where 600 slices of 50 ms (30 s)
/// would not.
#[test]
fn a_sleeping_waiter_is_woken_by_the_put() {
    const NAME: &str = "a_sleeping_waiter_is_woken_by_the_put";
    const ROUNDS: u64 = 300;
    if is_pe() {
        pe(|team| {
            let e = |err: handoff::team::TeamError| err.to_string();
            let (me, other) = (team.rank(), 1 - team.rank());
            let data = team.alloc::<u64>(1).map_err(e)?;
            let sig = team.alloc::<u64>(1).map_err(e)?;
            for i in 1..=ROUNDS {
                if (i % 2 == 1) == (me == 0) {
                    team.put_signal(&data, 0, &[i], sig, SignalOp::Set(i), other)
                        .map_err(e)?;
                } else {
                    team.signal_wait_until(sig, Cmp::Eq, i).map_err(e)?;
                    if team.local(&data)[0] != i {
                        return Err(format!("round {i}: data {}", team.local(&data)[0]));
                    }
                }
            }
            Ok(())
        });
    }
    let env = [("HANDOFF_HEAP_SIZE", "1M"), ("HANDOFF_WAIT", "block")];
    let job = mpirun(NAME, 2, &env, Duration::from_secs(12));
    assert_ok(
        &job,
        "300 round trips with block waits (a missed wake-up costs 50 ms)",
    );
}

/// A barrier with a deadline still gives up on the RMA and mixed paths (a barrier with none
/// is MPI's blocking `MPI_Barrier`, which cannot; one with a deadline must stay the polled
/// `MPI_Ibarrier`): rank 0's `barrier_all_timeout` ends in a timeout while the other ranks
/// wait for rank 0's signal instead of coming; then they come to that barrier (MPI matches
/// it with rank 0's abandoned one), and all meet again and finalize.
#[test]
fn a_barrier_with_a_deadline_gives_up_on_mpi_rma() {
    const NAME: &str = "a_barrier_with_a_deadline_gives_up_on_mpi_rma";
    if is_pe() {
        pe(|team| {
            let e = |err: handoff::team::TeamError| err.to_string();
            let sig = team.alloc::<u64>(1).map_err(e)?;
            if team.rank() == 0 {
                let r = team.barrier_all_timeout(Duration::from_millis(300));
                if !matches!(r, Err(handoff::team::TeamError::Timeout { .. })) {
                    return Err(format!(
                        "barrier_all_timeout while the other ranks stay away: {r:?}"
                    ));
                }
                for pe in 1..team.size() {
                    team.signal(sig, SignalOp::Set(1), pe).map_err(e)?;
                }
            } else {
                team.signal_wait_until(sig, Cmp::Ge, 1).map_err(e)?;
                team.barrier_all().map_err(e)?;
            }
            team.barrier_all().map_err(e)
        });
    }
    for (n, env) in [
        (
            2,
            [("HANDOFF_HEAP_SIZE", "1M"), ("HANDOFF_MPI_WINDOW", "rma")],
        ),
        (4, [("HANDOFF_HEAP_SIZE", "1M"), ("HANDOFF_MPI_NODES", "2")]),
    ] {
        let job = mpirun(NAME, n, &env, Duration::from_secs(60));
        assert_ok(&job, &format!("a barrier's deadline on {n} ranks {env:?}"));
    }
}

/// A put-with-signal wakes only who waits on the data or the signal, not a rank asleep on a
/// word between them (the shared-window path runs the core's mapped heap: the signal's bytes
/// rung with the fence, the data's after it; it used to ring their whole hull): rank 1
/// sleeps on word A, laid out between the data and the signal word, while rank 0 does 200
/// put-with-signals around it, which may make no futex wake-up call (rank 0 counts its own).
/// Then rank 0 signals A, and rank 1 must wake.
#[test]
fn a_put_with_signal_wakes_nobody_between_its_data_and_signal() {
    const NAME: &str = "a_put_with_signal_wakes_nobody_between_its_data_and_signal";
    const ROUNDS: u64 = 5;
    if is_pe() {
        pe(|team| {
            let e = |err: handoff::team::TeamError| err.to_string();
            let (me, other) = (team.rank(), 1 - team.rank());
            // Allocated in this order, so A lies between the data and the signal word,
            // a line or more from each.
            let data = team.alloc::<u64>(16).map_err(e)?;
            let a = team.alloc::<u64>(16).map_err(e)?;
            let sig = team.alloc::<u64>(1).map_err(e)?;
            for round in 1..=ROUNDS {
                if me == 1 {
                    let got = team.signal_wait_until(a, Cmp::Ge, round).map_err(e)?;
                    if got != round {
                        return Err(format!("round {round}: A read {got}"));
                    }
                    team.barrier_all().map_err(e)?;
                    continue;
                }
                // Let rank 1 fall asleep on A.
                std::thread::sleep(Duration::from_millis(20));
                let before = handoff::sync::futex_wakes();
                for i in 0..200u64 {
                    team.put_signal(&data, 0, &[i], sig, SignalOp::Add(1), other)
                        .map_err(e)?;
                }
                let wakes = handoff::sync::futex_wakes() - before;
                if wakes != 0 {
                    return Err(format!(
                        "round {round}: {wakes} futex wakes for put-with-signals around the \
                         word rank 1 waits on"
                    ));
                }
                team.signal(a, SignalOp::Set(round), other).map_err(e)?;
                team.barrier_all().map_err(e)?;
            }
            Ok(())
        });
    }
    let env = [("HANDOFF_HEAP_SIZE", "1M"), ("HANDOFF_WAIT", "block")];
    let job = mpirun(NAME, 2, &env, Duration::from_secs(20));
    assert_ok(
        &job,
        "put-with-signals around a word wake nobody; the signal of the word wakes rank 1",
    );
}

/// Wake only who waits on what was written, on the shared-window path (`block` waits):
/// rank 1 sleeps in a wait on word A while rank 0 puts 2000 times into word B of rank 1
/// (half with `quiet`) and does 200 atomics on word C: none of it may make a futex wake-up
/// call (rank 0 counts its own). Then rank 0 puts and signals A, and rank 1 must wake (a
/// lost wake-up costs a 50 ms slice per round: the job's time limit catches a steady one).
#[test]
fn writers_do_not_wake_ranks_waiting_on_other_words() {
    const NAME: &str = "writers_do_not_wake_ranks_waiting_on_other_words";
    const ROUNDS: u64 = 10;
    if is_pe() {
        pe(|team| {
            let e = |err: handoff::team::TeamError| err.to_string();
            let (me, other) = (team.rank(), 1 - team.rank());
            let a = team.alloc::<u64>(1).map_err(e)?;
            let b = team.alloc::<u64>(16).map_err(e)?;
            let c = team.alloc::<u64>(1).map_err(e)?;
            for round in 1..=ROUNDS {
                if me == 1 {
                    let got = team.signal_wait_until(a, Cmp::Ge, round).map_err(e)?;
                    if got != round {
                        return Err(format!("round {round}: A read {got}"));
                    }
                    team.barrier_all().map_err(e)?;
                    continue;
                }
                // Let rank 1 fall asleep on A (a rank 1 still awake only makes the zero
                // below easier to reach).
                std::thread::sleep(Duration::from_millis(20));
                let before = handoff::sync::futex_wakes();
                for i in 0..2000u64 {
                    team.put(&b, (i % 16) as usize, &[i], other).map_err(e)?;
                    if i % 2 == 0 {
                        team.quiet();
                    }
                }
                for _ in 0..200 {
                    team.atomic_add(c, 1u64, other).map_err(e)?;
                }
                let wakes = handoff::sync::futex_wakes() - before;
                if wakes != 0 {
                    return Err(format!(
                        "round {round}: {wakes} futex wakes for writes rank 1 does not wait on"
                    ));
                }
                team.signal(a, SignalOp::Set(round), other).map_err(e)?;
                team.barrier_all().map_err(e)?;
            }
            Ok(())
        });
    }
    let env = [("HANDOFF_HEAP_SIZE", "1M"), ("HANDOFF_WAIT", "block")];
    let job = mpirun(NAME, 2, &env, Duration::from_secs(20));
    assert_ok(
        &job,
        "writes to other words wake nobody; the signal wakes rank 1",
    );
}

/// Bad settings are errors that say what to do, on every rank, not panics or hangs: an
/// unknown window kind, more pretend nodes than ranks, a shared window over (pretend)
/// nodes, an empty heap, and a heap the node cannot hold (naming the rank and node).
#[test]
fn bad_settings_are_clear_errors() {
    const NAME: &str = "bad_settings_are_clear_errors";
    if is_pe() {
        let want = std::env::var("WANT").unwrap();
        match MpiTransport::from_env() {
            Err(e) if e.to_string().contains(&want) => {
                eprintln!("PE-ERROR: {e}");
                std::process::exit(0)
            }
            Err(e) => {
                eprintln!("wrong error: {e}");
                std::process::exit(1)
            }
            Ok(_) => {
                eprintln!("a bad setting was accepted");
                std::process::exit(1)
            }
        }
    }
    let cases = [
        (
            [("HANDOFF_MPI_WINDOW", "bogus"), ("HANDOFF_HEAP_SIZE", "1M")],
            "HANDOFF_MPI_WINDOW=\"bogus\": expected auto, shared, mixed or rma",
        ),
        (
            [("HANDOFF_MPI_NODES", "3"), ("HANDOFF_HEAP_SIZE", "1M")],
            "HANDOFF_MPI_NODES=\"3\": expected a node count from 1 to the job's 2 ranks",
        ),
        (
            [("HANDOFF_MPI_WINDOW", "shared"), ("HANDOFF_MPI_NODES", "2")],
            "more than one node; a shared window needs one (use mixed or auto)",
        ),
        (
            [("HANDOFF_MPI_WINDOW", "auto"), ("HANDOFF_HEAP_SIZE", "0")],
            "a heap of 0 bytes holds nothing",
        ),
        // A heap no node here can hold: the rank and node are named, nothing is allocated.
        (
            [
                ("HANDOFF_MPI_WINDOW", "auto"),
                ("HANDOFF_HEAP_SIZE", "65536GiB"),
            ],
            "2 ranks there with a heap of 70368744177664 bytes each need",
        ),
    ];
    for (env, want) in cases {
        let env = [env[0], env[1], ("WANT", want)];
        let job = mpirun(NAME, 2, &env, Duration::from_secs(30));
        assert_ok(&job, &format!("ranks expecting {want:?}"));
        assert_eq!(job.output.matches("PE-ERROR:").count(), 2, "{}", job.output);
        if want.contains("each need") {
            for rank in 0..2 {
                let line = format!("rank {rank} on node ");
                assert!(job.output.contains(&line), "no {line:?}: {}", job.output);
            }
        }
    }
}

/// A heap that is not a multiple of the page or of 64 KiB (1 MiB + 8 B) on the RMA path:
/// MPI windows of any byte length work.
#[test]
fn conformance_mpi_rma_window_odd_heap() {
    const NAME: &str = "conformance_mpi_rma_window_odd_heap";
    if is_pe() {
        pe(conformance::run_all);
    }
    let env = [
        ("HANDOFF_HEAP_SIZE", "1048584"),
        ("HANDOFF_MPI_WINDOW", "rma"),
    ];
    let job = mpirun(NAME, 2, &env, Duration::from_secs(60));
    assert_ok(&job, "conformance on 2 ranks, heap 1 MiB + 8 B");
}

/// The RMA path over the MPI library's TCP transport, as between nodes without a fast
/// network: `UCX_TLS=tcp,self` for MPICH's ch4:ucx (an unknown transport there fails
/// `MPI_Init`, so the setting is honoured), `OMPI_MCA_btl=tcp,self` for Open MPI (Debian's
/// 4.1 then serves a one-node RMA window by osc/sm: it has no one-sided path over TCP).
#[test]
fn conformance_mpi_rma_window_over_tcp() {
    const NAME: &str = "conformance_mpi_rma_window_over_tcp";
    if is_pe() {
        pe(conformance_on_rma_window);
    }
    let env = [
        ("HANDOFF_HEAP_SIZE", "4M"),
        ("HANDOFF_MPI_WINDOW", "rma"),
        ("UCX_TLS", "tcp,self"),
        ("OMPI_MCA_btl", "tcp,self"),
    ];
    // The checks take well under a second on an idle machine, tens of seconds on one with
    // load 13 (every RMA operation waits for the target rank to be scheduled).
    let job = mpirun_finalize_retry(NAME, 2, &env, Duration::from_secs(60));
    assert_ok(&job, "conformance on 2 ranks over TCP");
}

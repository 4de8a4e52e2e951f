//! The mixed path (a job over several nodes, some holding two ranks or more), on this one
//! machine through pretend nodes (`HANDOFF_MPI_NODES`): the transport conformance suite on
//! 2+2 and 2+1 ranks, the route of every pair against a hand-written node layout, and a
//! put-with-signal stress across both kinds of pairs whose every block is checked.

#![cfg(feature = "mpi")]

mod common;

use std::time::Duration;

use common::{assert_ok, is_pe, mpirun, pe};
use handoff::team::{Cmp, Route, SignalOp, Team};
use handoff_mpi::MpiTransport;
use handoff_testkit::conformance;

fn kind_is(team: &Team<MpiTransport>, want: &str, nodes: usize) -> Result<(), String> {
    let x = team.transport();
    if x.window_kind() != want || x.nodes() != nodes {
        return Err(format!(
            "window {} on {} nodes, want {want} on {nodes}",
            x.window_kind(),
            x.nodes()
        ));
    }
    Ok(())
}

#[test]
fn conformance_mixed_on_2_pretend_nodes_of_2_2_and_2_1_ranks() {
    const NAME: &str = "conformance_mixed_on_2_pretend_nodes_of_2_2_and_2_1_ranks";
    if is_pe() {
        pe(|team| {
            kind_is(team, "mixed", 2)?;
            conformance::run_all(team)
        });
    }
    // The 4-rank job staggers the window parts (`HANDOFF_MPI_STAGGER`): node mates' parts
    // at different offsets into their memory, which each mapping must follow.
    for (n, stagger) in [(4, "1"), (3, "0")] {
        let env = [
            ("HANDOFF_HEAP_SIZE", "4M"),
            ("HANDOFF_MPI_NODES", "2"),
            ("HANDOFF_MPI_STAGGER", stagger),
        ];
        let job = mpirun(NAME, n, &env, Duration::from_secs(60));
        assert_ok(
            &job,
            &format!("conformance, mixed, {n} ranks on 2 pretend nodes"),
        );
    }
}

/// Every PE checks `route(pe)`, `same_node(pe)`, `nodes()` and `window_kind()` for every
/// pair against `LAYOUT` (each rank's node, written out by hand below) and `KIND`.
#[test]
fn route_and_same_node_are_right_for_every_pair() {
    const NAME: &str = "route_and_same_node_are_right_for_every_pair";
    if is_pe() {
        pe(|team| {
            let layout: Vec<usize> = std::env::var("LAYOUT")
                .unwrap()
                .split(',')
                .map(|s| s.parse().unwrap())
                .collect();
            let kind = std::env::var("KIND").unwrap();
            let mut nodes = layout.clone();
            nodes.dedup();
            kind_is(team, &kind, nodes.len())?;
            let me = team.rank();
            for pe in 0..team.size() {
                let mates = layout[pe] == layout[me];
                let want = match kind.as_str() {
                    "shared" => Route::MpiSharedWindow,
                    "mixed" if mates => Route::MpiSharedWindow,
                    _ => Route::MpiRma,
                };
                if team.route(pe) != Some(want) || team.transport().same_node(pe) != mates {
                    return Err(format!(
                        "PE {me} -> {pe}: route {:?}, same_node {}; want {want}, {mates}",
                        team.route(pe),
                        team.transport().same_node(pe)
                    ));
                }
            }
            if team.route(team.size()).is_some() {
                return Err("a PE outside the team has a route".into());
            }
            if team.transport().same_node(team.size()) {
                return Err("a PE outside the team is on this node".into());
            }
            Ok(())
        });
    }
    // (ranks, HANDOFF_MPI_NODES, HANDOFF_MPI_WINDOW, each rank's node, the window kind)
    let cases = [
        (4, "2", "auto", "0,0,1,1", "mixed"),
        (3, "2", "auto", "0,0,1", "mixed"),
        (4, "3", "auto", "0,0,1,2", "mixed"),
        // One rank per node: nothing to map, so plain RMA.
        (3, "3", "auto", "0,1,2", "rma"),
        (2, "1", "auto", "0,0", "shared"),
        // Mixed forced on one node: all data through the mapping, atomics through MPI.
        (2, "1", "mixed", "0,0", "mixed"),
        (4, "2", "rma", "0,0,1,1", "rma"),
    ];
    for (n, nodes, window, layout, kind) in cases {
        let env = [
            ("HANDOFF_HEAP_SIZE", "1M"),
            ("HANDOFF_MPI_NODES", nodes),
            ("HANDOFF_MPI_WINDOW", window),
            ("LAYOUT", layout),
            ("KIND", kind),
        ];
        let job = mpirun(NAME, n, &env, Duration::from_secs(30));
        assert_ok(&job, &format!("{n} ranks, nodes {layout}, window {window}"));
    }
}

/// The words PE `from` puts to PE `to` in round `round` (an oracle independent of the
/// transport: a mix of the three, different in every word, round and pair).
fn word(from: usize, to: usize, round: u64, i: usize) -> u64 {
    let x = (round << 32) ^ ((from as u64) << 24) ^ ((to as u64) << 16) ^ i as u64;
    x.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29) ^ round
}

/// Round sizes in words (8 B to 256 KiB): big blocks take long enough to copy that a
/// signal that overtook its data would be seen with the previous round's bytes.
const SIZES: [usize; 6] = [1, 3, 512, 8193, 32_768, 65];

/// On 2+2 ranks, every round every PE put-signals a block to every other PE (node mates by
/// copies through the node window, the others by MPI_Put; every signal an MPI accumulate)
/// and checks each block it receives word by word as soon as its signal says it is there;
/// then acknowledges it to the sender, which waits for all acknowledgements before the
/// next round reuses the buffers.
#[test]
fn put_signal_stress_across_both_kinds_of_pairs() {
    const NAME: &str = "put_signal_stress_across_both_kinds_of_pairs";
    const ROUNDS: u64 = 120;
    if is_pe() {
        pe(|team| {
            kind_is(team, "mixed", 2)?;
            let e = |err: handoff::team::TeamError| err.to_string();
            let (me, p) = (team.rank(), team.size());
            let max = *SIZES.iter().max().unwrap();
            let inbox = team.alloc::<u64>(max * p).map_err(e)?;
            let sig = team.alloc::<u64>(p).map_err(e)?;
            let ack = team.alloc::<u64>(1).map_err(e)?;
            let kinds: Vec<Route> = (0..p)
                .map(|pe| team.route(pe))
                .collect::<Option<_>>()
                .ok_or("a PE of the team has no route")?;
            if !kinds.contains(&Route::MpiSharedWindow) || !kinds.contains(&Route::MpiRma) {
                return Err(format!("routes {kinds:?}: want both kinds"));
            }
            let mut block = Vec::with_capacity(max);
            for round in 1..=ROUNDS {
                let n = SIZES[round as usize % SIZES.len()];
                for k in 1..p {
                    let to = (me + k) % p;
                    block.clear();
                    block.extend((0..n).map(|i| word(me, to, round, i)));
                    team.put_signal(&inbox, me * max, &block, sig.at(me), SignalOp::Add(1), to)
                        .map_err(e)?;
                }
                for k in 1..p {
                    let from = (me + p - k) % p;
                    team.signal_wait_until(sig.at(from), Cmp::Eq, round)
                        .map_err(e)?;
                    let got = &team.local(&inbox)[from * max..from * max + n];
                    // The value as first read (a late copy may land before the message).
                    let bad = (0..n).find_map(|i| {
                        let (v, want) = (got[i], word(from, me, round, i));
                        (v != want).then_some((i, v, want))
                    });
                    if let Some((i, v, want)) = bad {
                        return Err(format!(
                            "round {round}: word {i} of {n} from PE {from} ({}) is {v:#x}, \
                             want {want:#x}: the signal overtook its data",
                            kinds[from]
                        ));
                    }
                    team.signal(ack, SignalOp::Add(1), from).map_err(e)?;
                }
                team.signal_wait_until(ack, Cmp::Eq, round * (p as u64 - 1))
                    .map_err(e)?;
            }
            Ok(())
        });
    }
    let env = [("HANDOFF_HEAP_SIZE", "4M"), ("HANDOFF_MPI_NODES", "2")];
    let job = mpirun(NAME, 4, &env, Duration::from_secs(90));
    assert_ok(&job, "put-signal stress, 4 ranks on 2 pretend nodes");
}

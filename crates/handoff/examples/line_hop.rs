//! The one-way hop of the team's hand-off calls in tight loops, to see where a hop's time
//! goes beyond the c2c floor (issue #23): an 8-byte `put` the receiver spins on (the
//! model), `put_line`/`wait_line`, an 8-byte `put_signal` (`Set` of a sequence number) and
//! `signal_wait_until`, the line loop written as `handoff bench pingpong` writes it (a
//! parity test per turn, a stamped source vector, a receive vector, a check), and the c2c
//! floor's own pattern through the API (one word, PE 0's, carries both directions: `put` to
//! it, PE 0 spins on it locally, PE 1 with `get`), and two 8-byte `put`s into one line (words
//! 0 and 7; the receiver spins on word 7, then reads word 0): whether a line written by two
//! stores, as `put_line` writes it, costs a second transfer when the spinning reader takes the
//! line between them (on this VM it does not: it reads as one `put`), and the c2c floor's own
//! pattern between these two processes (one word of the segment, plain loads and stores
//! through `Team::peer_atomic`). Then `put_line` with the receiver spinning on the line's
//! sequence word instead of `wait_line`; two puts into a line with `wait_line`; `put_line` +
//! `wait_line` and `put_line` + spin again on lines allocated in the other order (whether
//! the line's place or the call decides); and `put_line` followed by 2, 3 or 4 `pause`s
//! before `wait_line`, which shows the hop's time depends on when the waiter's polls fall
//! against the line's arrival (a sawtooth with the pause's period; issue #23, session 9).
//!
//! ```text
//! cargo build --release -p handoff --example line_hop
//! handoff run -n 2 --cores 0,1 --wait spin -- target/release/examples/line_hop [ROUND_TRIPS] [SAMPLES]
//! handoff run -n 1 --wait spin -- target/release/examples/line_hop 200000   # the calls alone
//! ```
//!
//! On 2 PEs the messages go back and forth; on 1 PE each message goes to the PE itself, so
//! no line moves and the figure is the calls' own cost (send + receive). Variants alternate
//! per sample; the first sample warms up. PE 0 prints the minimum and median one-way time
//! per variant over `SAMPLES` samples of `ROUND_TRIPS` round trips. Every message's value is
//! checked; a wrong one ends the run with an error. Compare with the c2c floor of the same
//! CPUs measured just before or after (`handoff bench pingpong` prints it).

use std::sync::atomic::Ordering;
use std::time::Instant;

use handoff::team::{Cmp, Line, SignalOp, Sym, Team};

/// The variants, in the order they alternate.
const VARIANTS: [&str; 15] = [
    "put 8 B + spin on it",
    "put_line/wait_line",
    "put_signal 8 B",
    "lab-style line loop",
    "one word both ways",
    "two puts in one line",
    "the c2c floor in the team",
    "raw store into the peer's word",
    "put_line + spin on its seq",
    "2 puts into a line + wait_line",
    "put_line + wait_line, again",
    "put_line + seq spin, again",
    "put_line, 2 pauses, wait_line",
    "put_line, 3 pauses, wait_line",
    "put_line, 4 pauses, wait_line",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let round_trips: u64 = args.next().map_or(Ok(20_000), |s| s.parse())?;
    let samples: usize = args.next().map_or(Ok(31), |s| s.parse())?;
    let team = Team::from_env()?;
    if team.size() > 2 {
        return Err(
            "line_hop runs on 2 PEs (handoff run -n 2), or on 1 to time the calls alone".into(),
        );
    }
    // On one PE it hands each message to itself: the calls' own cost, no line moves.
    let alone = team.size() == 1;
    let (me, peer) = (team.rank(), if alone { 0 } else { 1 - team.rank() });
    let o = Objects {
        line: team.alloc::<Line>(1)?,
        raw: team.alloc::<u64>(1)?,
        word: team.alloc::<u64>(1)?,
        data: team.alloc::<u64>(1)?,
        flag: team.alloc::<u64>(1)?,
        two: team.alloc::<u64>(8)?,
        floor: team.alloc::<u64>(1)?,
        raw2: team.alloc::<u64>(1)?,
        line2: team.alloc::<Line>(1)?,
        line3: team.alloc::<Line>(1)?,
        line5: team.alloc::<Line>(1)?,
        line4: team.alloc::<Line>(1)?,
        lk: [
            team.alloc::<Line>(1)?,
            team.alloc::<Line>(1)?,
            team.alloc::<Line>(1)?,
        ],
    };
    let lab_line = team.alloc::<Line>(1)?; // its own: its sequence numbers restart
    let mut seq = [0u64; VARIANTS.len()];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); VARIANTS.len()];
    team.barrier_all()?;
    for s in 0..samples + 1 {
        for (v, times) in times.iter_mut().enumerate() {
            team.barrier_all()?;
            let t0 = Instant::now();
            if v == 3 {
                lab_style(&team, me, peer, &lab_line, round_trips, &mut seq[v])?;
            }
            for _ in 0..if v == 3 { 0 } else { round_trips } {
                for turn in 0..2 {
                    seq[v] += 1;
                    let n = seq[v];
                    if turn == me || alone {
                        send(&team, v, n, peer, &o)?;
                    }
                    if turn != me || alone {
                        let got = receive(&team, v, n, &o)?;
                        if got != n {
                            return Err(format!("{}: message {n} read {got}", VARIANTS[v]).into());
                        }
                    }
                }
            }
            let ns = t0.elapsed().as_secs_f64() * 1e9 / (2 * round_trips) as f64;
            if s > 0 {
                times.push(ns); // sample 0 warms up
            }
        }
    }
    team.barrier_all()?;
    if me == 0 {
        println!("one-way ns over {samples} samples of {round_trips} round trips (every message checked)");
        for (v, t) in times.iter_mut().enumerate() {
            t.sort_by(f64::total_cmp);
            println!(
                "{:<30} min {:>7.1}  median {:>7.1}",
                VARIANTS[v],
                t[0],
                t[t.len() / 2]
            );
        }
    }
    team.finalize()?;
    Ok(())
}

/// The symmetric objects the variants hand messages through.
struct Objects {
    line: Sym<Line>,
    /// The model's word: a plain put, the receiver spins on it.
    raw: Sym<u64>,
    /// PE 0's copy is the one both PEs write and read.
    word: Sym<u64>,
    data: Sym<u64>,
    flag: Sym<u64>,
    /// Words 0 and 7: two puts into one line.
    two: Sym<u64>,
    /// PE 0's copy carries both directions by plain loads and stores (`peer_atomic`): the
    /// probe's c2c pattern between these two processes, in the team's segment.
    floor: Sym<u64>,
    /// The model's word again, stored into by plain stores (`peer_atomic`), not `put`.
    raw2: Sym<u64>,
    line2: Sym<Line>,
    line3: Sym<Line>,
    line4: Sym<Line>,
    line5: Sym<Line>,
    lk: [Sym<Line>; 3],
}

#[inline(always)]
fn send(
    team: &Team,
    v: usize,
    n: u64,
    peer: usize,
    o: &Objects,
) -> Result<(), handoff::team::TeamError> {
    match v {
        8 => team.put_line(o.line2.at(0), &n.to_ne_bytes(), n, peer),
        10 => team.put_line(o.line4.at(0), &n.to_ne_bytes(), n, peer),
        12..=14 => {
            team.put_line(o.lk[v - 12].at(0), &n.to_ne_bytes(), n, peer)?;
            for _ in 0..v - 10 {
                std::hint::spin_loop();
            }
            Ok(())
        }
        11 => team.put_line(o.line5.at(0), &n.to_ne_bytes(), n, peer),
        9 => {
            team.put(&o.line3.words(), 0, &[n], peer)?;
            team.put(&o.line3.words(), 7, &[n], peer)
        }
        6 | 7 => {
            let (sym, pe) = if v == 6 {
                (&o.floor, 0)
            } else {
                (&o.raw2, peer)
            };
            // Release pairs with the Acquire load in the receiver's `spin_on`.
            mapped(team, sym, pe)?.store(n, Ordering::Release);
            Ok(())
        }
        5 => {
            team.put(&o.two, 0, &[n], peer)?;
            team.put(&o.two, 7, &[n], peer)
        }
        // The c2c floor's pattern through the API: one word (PE 0's) carries both
        // directions, so one line moves per hop as in the probe's floor.
        4 => team.put(&o.word, 0, &[n], 0),
        // The model: one plain 8-byte put of the sequence number, which the receiver spins
        // on (the team has no raw peer pointer; a put is its closest plain store).
        0 => team.put(&o.raw, 0, &[n], peer),
        1 => team.put_line(o.line.at(0), &n.to_ne_bytes(), n, peer),
        _ => team.put_signal(&o.data, 0, &[n], o.flag, SignalOp::Set(n), peer),
    }
}

#[inline(always)]
fn receive(team: &Team, v: usize, n: u64, o: &Objects) -> Result<u64, handoff::team::TeamError> {
    match v {
        12..=14 => {
            let mut out = [0u8; 8];
            team.wait_line(o.lk[v - 12].at(0), n, &mut out)?;
            Ok(u64::from_ne_bytes(out))
        }
        10 => {
            let mut out = [0u8; 8];
            team.wait_line(o.line4.at(0), n, &mut out)?;
            Ok(u64::from_ne_bytes(out))
        }
        11 => {
            let w = team.local_atomic(&o.line5.words());
            spin_on(&w[7], n)?;
            Ok(w[0].load(Ordering::Relaxed))
        }
        8 => {
            let w = team.local_atomic(&o.line2.words());
            spin_on(&w[7], n)?;
            Ok(w[0].load(Ordering::Relaxed))
        }
        9 => {
            let mut out = [0u8; 8];
            team.wait_line(o.line3.at(0), n, &mut out)?;
            Ok(u64::from_ne_bytes(out))
        }
        7 => spin_on(&team.local_atomic(&o.raw2)[0], n),
        6 => spin_on(mapped(team, &o.floor, 0)?, n),
        5 => {
            spin_on(&team.local_atomic(&o.two)[7], n)?;
            Ok(team.local_atomic(&o.two)[0].load(Ordering::Relaxed))
        }
        4 if team.rank() == 0 => spin_on(&team.local_atomic(&o.word)[0], n),
        4 => {
            let mut w = [0u64];
            loop {
                team.get(&o.word, 0, &mut w, 0)?;
                if w[0] >= n {
                    return Ok(w[0]);
                }
                std::hint::spin_loop();
            }
        }
        0 => spin_on(&team.local_atomic(&o.raw)[0], n),
        1 => {
            let mut out = [0u8; 8];
            team.wait_line(o.line.at(0), n, &mut out)?;
            Ok(u64::from_ne_bytes(out))
        }
        _ => {
            team.signal_wait_until(o.flag, Cmp::Ge, n)?;
            Ok(team.local(&o.data)[0])
        }
    }
}

/// The lab's pingpong step for the line method, as written there: a parity test per turn,
/// a source vector stamped with the message number, a receive vector and a check.
fn lab_style(
    team: &Team,
    me: usize,
    peer: usize,
    line: &handoff::team::Sym<Line>,
    round_trips: u64,
    iteration: &mut u64,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut src = [vec![0u64; 1], vec![0u64; 1]];
    let mut got = vec![0u64; 1];
    let mut checked = 0u64;
    let base = *iteration;
    let mut step = || -> Result<(), Box<dyn std::error::Error>> {
        let m = *iteration / 2;
        if *iteration % 2 == me as u64 {
            let s = &mut src[(m % 2) as usize];
            s[0] = m;
            let bytes: &[u8] = bytemuck::cast_slice(s);
            team.put_line(line.at(0), bytes, m + 1, peer)?;
        } else {
            team.wait_line(line.at(0), m + 1, bytemuck::cast_slice_mut(&mut got))?;
            checked += 1;
            if got[0] != m {
                return Err(format!("lab-style: message {m} read {}", got[0]).into());
            }
        }
        *iteration += 1;
        Ok(())
    };
    for _ in 0..2 * round_trips {
        step()?;
    }
    debug_assert!(checked > 0 || base == u64::MAX);
    Ok(())
}

/// Word 0 of PE `pe`'s `sym`, loaded and stored directly (`Team::peer_atomic`); an error on
/// a transport that does not map it (the variants that need it run on the shared segment).
fn mapped<'t>(
    team: &'t Team,
    sym: &Sym<u64>,
    pe: usize,
) -> Result<&'t std::sync::atomic::AtomicU64, handoff::team::TeamError> {
    team.peer_atomic(sym, pe).map(|w| &w[0]).ok_or_else(|| {
        handoff::team::TeamError::InvalidArgument(format!(
            "PE {pe}'s heap is not mapped here: run line_hop under `handoff run`"
        ))
    })
}

/// Spins until `w` holds at least `n`; returns what it holds.
fn spin_on(w: &std::sync::atomic::AtomicU64, n: u64) -> Result<u64, handoff::team::TeamError> {
    loop {
        // Acquire pairs with the sender's store of the word (a plain copy: this is a
        // timing model, x86's stores are seen in order).
        let got = w.load(Ordering::Acquire);
        if got >= n {
            return Ok(got);
        }
        std::hint::spin_loop();
    }
}

//! `pingpong` (counting puts, seed 003): the seed's half round trip between 2 PEs that switch
//! sender and receiver roles every iteration, per synchronization method, message size and
//! placement, with the c2c floor of the CPU pair beside it: probed just before and just after
//! the point's runs (`info.c2c_before_ns`, `info.c2c_after_ns`), and given as the record's
//! floor only when the two agree ([`super::floor::Around`]; else a note says the host changed
//! state during the point). On two CPUs the PEs also measure the floors themselves just before
//! each sample, in the line the receiver waits on ([`super::team_floor`]): `over_c2c_floor`
//! and `over_store_floor` are each sample's latency over them, whatever state the host was
//! in and wherever the lines landed.
//!
//! Methods (the sender's calls; the receiver's wait):
//! - `fence-flag`: `put`; `fence`; remote atomic add of 1 to the peer's flag — the receiver
//!   waits until the flag is ≥ 1 and resets it to 0 (the seed's "Fence + Flags");
//! - `put-signal`: `put_signal(.., Add(1))` — the receiver waits on the signal and resets it;
//! - `counting-put`: `put_ct` — the receiver `ct_wait(ct, 1)`, then `ct_set(ct, 0)` (the
//!   seed's counting put, receiver-managed);
//! - `line`: `put_line` (payload and sequence word in one cache line, sizes ≤ 56 B) — the
//!   receiver `wait_line`s for the next sequence number.
//!
//! Every message is verified by its receiver the moment it arrives: word 0 carries the
//! message number, and one word of every cache line plus the last word must match the
//! sender's pattern for that message (a stale, torn or misplaced copy fails). The receiver's
//! check is inside the timed loop for every method alike: a message is received to be read.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use handoff::team::{Cmp, Counter, Line, SignalOp, Sym, Team, TeamError, Transport, LINE_PAYLOAD};
use serde::{Deserialize, Serialize};

use super::launcher;
use super::team_config::TeamConfig;
use super::team_floor::{SampleRatios, TeamFloor};
use super::team_run::{self, payloads, PeOutput, TeamSpec};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::schema::C2cPair;
use crate::bench::BenchResults;

const NAME: &str = "pingpong";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Ping-pong: half round-trip latency of put + fence + flag vs counting puts",
    section: team_run::SECTION,
    seed: team_run::SEED,
    what: "Two PEs (processes of one team) send a message back and forth, switching sender \
           and receiver every iteration; half the round trip per method (`fence-flag`: put, \
           fence, atomic increment; `put-signal`; `counting-put`; `line`: payload and \
           sequence in one cache line), message size and placement, with the c2c floor of \
           the pair. Every message is checked by its receiver (a stamp and one word per \
           cache line).",
    figures: &[FigureSpec {
        floor: true,
        ..FigureSpec::vs_size(
            "pingpong-latency",
            "Ping-pong: half round trip vs message size",
            "latency_us",
        )
    }],
    findings,
    run: Some(|ctx| {
        let mut cfg = Config::for_report(ctx.quick, ctx.allowed_cpus);
        cfg.team.plan_transports(ctx);
        run(&cfg, ctx)
    }),
    worker: Some(launcher::worker_main::<WorkerSpec>),
    report_cost: ReportCost::per_class(36.6, 1.0),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// How a message and its completion travel.
    pub enum Method {
        /// put; fence; atomic add to the peer's flag.
        FenceFlag = "fence-flag",
        /// put with signal (Add 1).
        PutSignal = "put-signal",
        /// counting put on a counter.
        CountingPut = "counting-put",
        /// payload and sequence in one cache line.
        Line = "line",
    }
}

impl Method {
    /// Whether the method can send `size` bytes.
    pub fn fits(self, size: usize) -> bool {
        self != Method::Line || size <= LINE_PAYLOAD
    }
}

/// Where the two PEs run: a placement class and its CPU pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairPlacement {
    /// The class (`same-core`, `smt-sibling`, `same-package`, …).
    pub class: String,
    /// PE 0's and PE 1's CPU.
    pub cpus: [usize; 2],
}

/// The placement class under `mpirun`, which places and pins the ranks itself.
pub const MPIRUN: &str = "mpirun";

impl PairPlacement {
    /// Whether the PEs run on two CPUs we pinned them to (not one, not `mpirun`'s): where
    /// their floors are measured.
    fn two_cpus(&self) -> bool {
        self.cpus[0] != self.cpus[1] && self.class != MPIRUN
    }

    /// The pair's c2c floor probed now ([`super::floor::adjacent_c2c`]); `None` unless on
    /// [`PairPlacement::two_cpus`].
    fn c2c(&self) -> Option<f64> {
        self.two_cpus()
            .then(|| super::floor::adjacent_c2c(self.cpus[0], self.cpus[1]))
            .flatten()
    }
}

/// One CPU pair per placement class among `cpus` (same core first), or the first two CPUs as
/// `other-core` when the topology cannot be read.
pub fn placements(cpus: &[usize]) -> Vec<PairPlacement> {
    match handoff_probe::topology::Topology::detect() {
        Ok(t) => t
            .class_pairs(cpus)
            .into_iter()
            .map(|(p, a, b)| PairPlacement {
                class: p.as_str().to_string(),
                cpus: [a, b],
            })
            .collect(),
        Err(_) => [("same-core", 0), ("other-core", 1)]
            .into_iter()
            .filter(|&(_, i)| i < cpus.len())
            .map(|(class, i)| PairPlacement {
                class: class.into(),
                cpus: [cpus[0], cpus[i]],
            })
            .collect(),
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Config {
    pub methods: Vec<Method>,
    /// Message sizes in bytes (multiples of 8).
    pub sizes: Vec<usize>,
    /// CPU pairs.
    pub placements: Vec<PairPlacement>,
    /// Round trips per sample for small messages (fewer for large, at least 2).
    pub round_trips: u64,
    /// Samples per run.
    pub samples: u64,
    /// Round trips discarded before the samples.
    pub warmup: u64,
    /// Runs, the PEs' wait, the transports and the fault (test only): `skip-put@N` (PE 0 sends its
    /// message N without the data, the flag or signal only) or `exit@N` (PE 1 exits with code 9 at
    /// message N).
    #[serde(flatten)]
    pub team: TeamConfig<Option<team_run::Fault>>,
}

/// The biggest message.
pub const MAX_SIZE: usize = 64 << 20;

impl Config {
    /// The report's plan: other-core and same-core; every method; 8 B .. 4 MiB (quick: 8 B,
    /// 4 KiB, 256 KiB on the other core only).
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        let mut placements = placements(cpus);
        if quick && placements.len() > 1 {
            placements.retain(|p| p.cpus[0] != p.cpus[1]);
            placements.truncate(1);
        }
        let sizes = if quick {
            vec![8, 4 << 10, 256 << 10]
        } else {
            let mut v: Vec<usize> = (0..11).map(|k| 8usize << (2 * k)).collect();
            v.retain(|&s| s < 4 << 20);
            v.push(4 << 20);
            v
        };
        Config {
            methods: Method::ALL.to_vec(),
            sizes,
            placements,
            round_trips: if quick { 500 } else { 2000 },
            samples: if quick { 5 } else { 10 },
            warmup: 100,
            team: TeamConfig::plan(if quick { 3 } else { 5 }, true),
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.methods.is_empty() {
            return Err(bad(
                "no method: use --method fence-flag,put-signal,counting-put,line".into(),
            ));
        }
        if self.sizes.is_empty() {
            return Err(bad("no size: use e.g. --sizes 8,4K,1M".into()));
        }
        if let Some(s) = self
            .sizes
            .iter()
            .find(|&&s| s == 0 || s % 8 != 0 || s > MAX_SIZE)
        {
            return Err(bad(format!(
                "--sizes {s}: sizes are multiples of 8 bytes from 8 to {} (64M)",
                MAX_SIZE
            )));
        }
        if self.placements.is_empty() {
            return Err(bad("no placement to run on".into()));
        }
        self.team.check(NAME)?;
        if self.round_trips == 0 || self.samples == 0 || self.team.runs == 0 {
            return Err(bad(
                "--round-trips, --samples and --runs must be at least 1".into(),
            ));
        }
        for p in &self.placements {
            self.team.wait_for(NAME, [2], &p.cpus)?;
        }
        if !self
            .sizes
            .iter()
            .any(|&s| self.methods.iter().any(|m| m.fits(s)))
        {
            return Err(bad(format!(
                "method line carries at most {LINE_PAYLOAD} bytes: add a size ≤ {LINE_PAYLOAD} or another method"
            )));
        }
        Ok(())
    }

    /// Round trips per sample at `size`: `round_trips`, fewer for large messages (about
    /// 16 MiB moved per sample), at least 2.
    pub fn round_trips_at(&self, size: usize) -> u64 {
        self.round_trips.min((16 << 20) / size as u64).max(2)
    }
}

/// What one worker PE runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerSpec {
    pub method: Method,
    /// Message bytes.
    pub size: usize,
    /// Round trips per sample.
    pub round_trips: u64,
    pub samples: u64,
    /// Warm-up round trips.
    pub warmup: u64,
    pub fault: Option<team_run::Fault>,
    /// Whether the PEs measure their floors before each sample ([`super::team_floor`]): on
    /// two CPUs of their own only (the floors spin).
    #[serde(default)]
    pub floors: bool,
}

// The body of a PE (`handoff __worker pingpong SPEC`, under `team::Launch` or mpiexec).
/// The bound on every wait of a PE.
const PE_WAIT: Duration = Duration::from_secs(20);

team_run::pe_body!(WorkerSpec, pe_main, PE_WAIT);

fn pe_main<X: Transport>(team: &Team<X>, spec: &WorkerSpec) -> Result<PeOutput, TeamError> {
    let (me, peer) = (team.rank(), 1 - team.rank());
    let words = spec.size / 8;
    let buf = team.alloc::<u64>(words)?;
    // The flag's second word shares its line and is the floors' word there.
    let flag = team.alloc::<u64>(2)?;
    let line = team.alloc::<Line>(1)?;
    let ct = team.ct_create()?;
    // The floors bounce in the line the receiver waits on (its first payload word, or the
    // flag's neighbour); counting-put's counter lives in the team's own words, so its
    // floors are the flag line's.
    let floor_word = match spec.method {
        Method::Line => line.words().at(0),
        _ => flag.at(1),
    };
    let floor = match spec.floors {
        true => TeamFloor::on(team, peer, floor_word, PE_WAIT)?,
        false => None,
    };
    // Two source buffers, message parity 0 and 1; salt = rank + 1.
    let src = payloads(words, me as u64 + 1);
    let mut pe = Pe {
        team,
        spec,
        me,
        peer,
        buf,
        flag,
        line,
        ct,
        src,
        got: vec![0u64; words],
        out: PeOutput::of(me),
        iteration: 0,
        floor,
    };
    team.barrier_all()?;
    // The timed loop is compiled once per method, and without the fault tests when no fault
    // is injected: with every method's calls and the fault tests in it, and a check that
    // returned its words inlined, a hop measured 5-16 ns slower (issue #23, `examples/line_hop`).
    match (spec.method, spec.fault.is_some()) {
        (Method::FenceFlag, false) => pe.exchange::<FENCE_FLAG, false>(),
        (Method::FenceFlag, true) => pe.exchange::<FENCE_FLAG, true>(),
        (Method::PutSignal, false) => pe.exchange::<PUT_SIGNAL, false>(),
        (Method::PutSignal, true) => pe.exchange::<PUT_SIGNAL, true>(),
        (Method::CountingPut, false) => pe.exchange::<COUNTING_PUT, false>(),
        (Method::CountingPut, true) => pe.exchange::<COUNTING_PUT, true>(),
        (Method::Line, false) => pe.exchange::<LINE, false>(),
        (Method::Line, true) => pe.exchange::<LINE, true>(),
    }?;
    Ok(pe.out)
}

/// [`Method`]s as const generic arguments of [`Pe::exchange`].
const FENCE_FLAG: u8 = 0;
const PUT_SIGNAL: u8 = 1;
const COUNTING_PUT: u8 = 2;
const LINE: u8 = 3;

/// One PE's side of the exchange: its team, the symmetric objects, its buffers and output.
struct Pe<'a, X: Transport> {
    team: &'a Team<X>,
    spec: &'a WorkerSpec,
    me: usize,
    peer: usize,
    buf: Sym<u64>,
    flag: Sym<u64>,
    line: Sym<Line>,
    ct: Counter,
    /// The messages of parity 0 and 1 this PE sends.
    src: [Vec<u64>; 2],
    /// Where `line` copies a received message.
    got: Vec<u64>,
    out: PeOutput,
    /// Steps taken: message `iteration / 2`, this PE's turn to send when the parity is its rank.
    iteration: u64,
    /// The floors measured before each sample, when the spec asks for them.
    floor: Option<TeamFloor<'a>>,
}

impl<X: Transport> Pe<'_, X> {
    /// The warm-up, then the timed samples, of method `METHOD`; `FAULTS`: whether the spec's
    /// fault is tested for.
    fn exchange<const METHOD: u8, const FAULTS: bool>(&mut self) -> Result<(), TeamError> {
        for _ in 0..2 * self.spec.warmup {
            self.step::<METHOD, FAULTS>()?;
        }
        for _ in 0..self.spec.samples {
            if let Some(f) = &mut self.floor {
                let f = f.measure()?;
                self.out.floors.push([f.c2c_ns, f.store_ns]);
            }
            let t0 = Instant::now();
            for _ in 0..2 * self.spec.round_trips {
                self.step::<METHOD, FAULTS>()?;
            }
            let us = t0.elapsed().as_secs_f64() * 1e6 / (2 * self.spec.round_trips) as f64;
            self.out.samples.push(us);
        }
        Ok(())
    }

    /// One step: send message `iteration / 2` on this PE's turn, else receive and check it.
    #[inline(always)]
    fn step<const METHOD: u8, const FAULTS: bool>(&mut self) -> Result<(), TeamError> {
        let (team, me, peer) = (self.team, self.me, self.peer);
        let step = self.iteration;
        self.iteration += 1;
        let m = step / 2;
        if step % 2 == me as u64 {
            let s = &mut self.src[(m % 2) as usize];
            s[0] = m;
            let skip = FAULTS && me == 0 && team_run::hits(&self.spec.fault, "skip-put", m);
            match METHOD {
                FENCE_FLAG => {
                    if !skip {
                        team.put(&self.buf, 0, s, peer)?;
                    }
                    team.fence();
                    team.atomic_add(self.flag, 1u64, peer)?;
                }
                PUT_SIGNAL if skip => team.signal(self.flag, SignalOp::Add(1), peer)?,
                PUT_SIGNAL => {
                    team.put_signal(&self.buf, 0, s, self.flag, SignalOp::Add(1), peer)?
                }
                COUNTING_PUT if skip => team.ct_add(&self.ct, 1, peer)?,
                COUNTING_PUT => team.put_ct(&self.ct, &self.buf, 0, s, peer)?,
                _ => {
                    // The skipped message's line: zeros, which fail the stamp check.
                    const STALE: [u8; LINE_PAYLOAD] = [0; LINE_PAYLOAD];
                    let bytes: &[u8] = if skip {
                        &STALE[..self.spec.size]
                    } else {
                        bytemuck::cast_slice(s)
                    };
                    team.put_line(self.line, bytes, m + 1, peer)?;
                }
            }
            return Ok(());
        }
        if FAULTS {
            team_run::maybe_exit(&self.spec.fault, me, m);
        }
        let received: &[u64] = match METHOD {
            FENCE_FLAG | PUT_SIGNAL => {
                team.signal_wait_until(self.flag, Cmp::Ge, 1)?;
                // The peer's next update to the flag follows our next message (which it
                // waits for), so this reset cannot overwrite it; Relaxed suffices.
                team.local_atomic(&self.flag)[0].store(0, Ordering::Relaxed);
                team.local(&self.buf)
            }
            COUNTING_PUT => {
                team.ct_wait(&self.ct, 1)?;
                team.ct_set(&self.ct, 0);
                team.local(&self.buf)
            }
            _ => {
                team.wait_line(self.line, m + 1, bytemuck::cast_slice_mut(&mut self.got))?;
                &self.got
            }
        };
        self.out.checked += 1;
        if let Some(i) = team_run::first_wrong(received, peer as u64 + 1, m) {
            wrong(&mut self.out, received, peer as u64 + 1, m, i);
        }
        Ok(())
    }
}

/// Records word `i` of message `m` (from `salt`) as wrong; out of the timed loop's line.
#[cold]
#[inline(never)]
fn wrong(out: &mut PeOutput, received: &[u64], salt: u64, m: u64, i: usize) {
    let why = team_run::describe_wrong(received, salt, m, i);
    out.fail(format!("PE {}: {why}", out.rank));
}

/// Runs `cfg` from `exe args`; stops early (partial) when `cancel` is set.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let started = Instant::now();
    // Under mpirun: rank 0 with each other rank in turn (the job's ranks as pairs).
    let world = super::team_session::world().map_or(2, |(_, w)| w);
    let mut points = Vec::new();
    for p in &cfg.placements {
        for &size in &cfg.sizes {
            for &m in cfg.methods.iter().filter(|m| m.fits(size)) {
                for &t in cfg.team.transports() {
                    points.extend((1..world).map(|j| ((p, size, m, t), j)));
                }
            }
        }
    }
    let c2c: Vec<C2cPair> = cfg
        .placements
        .iter()
        .filter_map(|p| {
            Some(C2cPair {
                cpu_a: p.cpus[0],
                cpu_b: p.cpus[1],
                placement: p.class.clone(),
                one_way_ns: p.c2c()?,
            })
        })
        .collect();
    let mut res = ctx.run_points(
        NAME,
        cfg,
        &points,
        |ctx, res, &((p, size, method, transport), peer)| {
            let spec = WorkerSpec {
                method,
                size,
                round_trips: cfg.round_trips_at(size),
                samples: cfg.samples,
                warmup: cfg.warmup.min(cfg.round_trips_at(size)),
                fault: cfg.team.fault.clone(),
                floors: p.two_cpus(),
            };
            let label = format!("{} {size} B {}", method.name(), p.class);
            let team = TeamSpec {
                cpus: p.cpus.to_vec(),
                heap: size + (1 << 20),
                transport,
                members: if world > 2 { vec![0, peer] } else { Vec::new() },
                ..TeamSpec::new(ctx, NAME, &spec, 2, label.clone())
            };
            // The floor before and after the runs: a record whose host changed state in
            // between carries none (`floor::Around`).
            let before = p.c2c();
            cfg.team.point(ctx, res, team, "messages", |runs, notes| {
                let after = before.and_then(|_| p.c2c());
                let around = super::floor::Around::of(before, after);
                let floors = SampleRatios::of(&runs.per_run, &runs.floors_per_run);
                let m = metric(NAME, "µs", false, &runs.per_run)?;
                let series = series_name(method, &p.class, &runs.route);
                let series = match world > 2 {
                    true => format!("{series} (0-{peer})"),
                    false => series,
                };
                let mut rec = runs
                    .record(series, size as f64, spec.samples * spec.round_trips * 2)
                    .param("method", method.name())
                    .param("size_bytes", size)
                    .param("placement", p.class.clone())
                    .param(
                        "cpus",
                        if p.class == MPIRUN {
                            MPIRUN.to_string()
                        } else {
                            format!("{},{}", p.cpus[0], p.cpus[1])
                        },
                    )
                    .param("transport", runs.route.clone())
                    .metric("latency_us", m);
                if let Some(f) = &floors {
                    rec = rec
                        .metric("over_c2c_floor", metric(NAME, "×", false, &f.over_c2c)?)
                        .metric("over_store_floor", metric(NAME, "×", false, &f.over_store)?);
                    rec.info.insert("c2c_in_team_ns".into(), f.c2c_ns.into());
                    rec.info.insert("store_floor_ns".into(), f.store_ns.into());
                }
                if super::team_session::active() {
                    // Under mpirun: which ranks were the pair (rank 0 with each other in turn).
                    rec = rec.param("pair", format!("0-{peer}"));
                }
                rec.c2c_one_way_ns = around.floor();
                for (key, ns) in [("c2c_before_ns", before), ("c2c_after_ns", after)] {
                    if let Some(ns) = ns {
                        rec.info.insert(key.into(), ns.into());
                    }
                }
                notes.extend(around.note(&label).map(|n| match floors {
                    Some(_) => format!(
                        "{n}; its over_c2c_floor still compares each sample with the floor its \
                         PEs measured just before it"
                    ),
                    None => n,
                }));
                Ok(rec)
            })
        },
    )?;
    res.c2c = c2c;
    if res
        .records
        .iter()
        .any(|r| r.metrics.contains_key("over_c2c_floor"))
    {
        res.notes.push(
            "over_c2c_floor, over_store_floor: each sample's latency over the floors the two PEs \
             measured just before it, in the line the receiver waits on (a line's, or the \
             flag's; info c2c_in_team_ns, store_floor_ns): one word carrying both directions \
             (the c2c probe's pattern), and a plain store into the word the peer spins on (what a \
             put costs when the waiter polls at once). On this VM a line's transfer time depends on its address, \
             so a floor on other lines would not be the hop's"
                .into(),
        );
    }
    if cfg.placements.iter().any(|p| p.cpus[0] == p.cpus[1]) {
        res.notes.push(
            "same-core: both PEs share one CPU, so every hand-off is a context switch (the \
             adaptive wait yields), not a cache-line transfer; no c2c floor applies"
                .into(),
        );
    }
    // From before the c2c floors were measured.
    res.elapsed_s = Some(started.elapsed().as_secs_f64());
    Ok(res)
}

/// A record's series: "method, placement", with the route that served the pair
/// ([`team_run::series`]).
fn series_name(method: Method, class: &str, route: &str) -> String {
    team_run::series(format!("{}, {class}", method.name()), route)
}

mod findings;
use findings::findings;

#[cfg(test)]
mod tests;

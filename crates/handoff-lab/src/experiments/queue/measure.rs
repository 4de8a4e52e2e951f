//! One run of one point of the `queue` experiment: a stream (throughput) or a ping-pong
//! (round trip), between threads over any [`Tx`]/[`Rx`], or with worker processes over
//! handoff's queues in shared segments.
//!
//! # Stopping
//!
//! A timed block can take seconds (`--count` up to 2^24 messages, slow queues, many
//! producers), so Ctrl-C and SIGTERM (the run's `stop` flag) are seen inside it, every
//! [`CHECK_EVERY`] messages: a relaxed load, nothing on the measured path in between. A run
//! that stops measures nothing (`Ok(None)`). Threads are told with a [`STOP_SEQ`] message
//! so that none is left blocked on a full or empty queue: a producer that sees the flag
//! sends it and returns; the consumer then drains (untimed) until every producer sent it
//! or its last message; a pinger sends it to the echo, which returns. Worker processes
//! are killed (their guards drop) instead.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crossbeam_queue::ArrayQueue;
use handoff::queue::{ArrayMpsc, LaneMpsc, QueueError, Spsc};
use handoff::sync::{Patience, Wait};

use super::ends::{make, read, Crossbeam, Locked, Msg, Rx, TransferError, Tx, CAPACITY};
use super::{Config, Kind, NAME};
use crate::bench::experiment::{BenchError, RunCtx};
use crate::experiments::launcher::{gate_wait, Workers};
use crate::experiments::rt_common::{arg, open_deadline, pin, run_id, POINT_DEADLINE};

/// What one run gives: per-repetition samples and the messages checked and found wrong.
pub type Samples = (Vec<f64>, [u64; 2]);

/// One run of a point: its samples, `None` when Ctrl-C or SIGTERM stopped it (it measured
/// nothing), or why it failed.
pub type Run = Result<Option<Samples>, BenchError>;

/// Messages between two looks at the stop flag (about 50 µs at 50 ns a message).
const CHECK_EVERY: u64 = 1024;

/// The sequence number of the message that says "stopped" (never a real one: sequences
/// stay below 2^24 x (MAX_REPS + 1) < 2^48 - 1).
pub const STOP_SEQ: u64 = (1 << 48) - 1;

/// Whether the run was told to stop; looked at every [`CHECK_EVERY`] messages (`i`).
#[inline]
fn stopping(stop: &AtomicBool, i: u64) -> bool {
    // Relaxed: a flag with no data behind it (set by the Ctrl-C/SIGTERM handler).
    i.is_multiple_of(CHECK_EVERY) && stop.load(Ordering::Relaxed)
}

/// The experiment's failure with `e`'s message.
fn failed(e: impl std::fmt::Display) -> BenchError {
    BenchError::failed(NAME, e)
}

/// Runs `f` on a fresh thread pinned to `cpu` (the caller's own affinity stays as it was).
fn on_cpu<R: Send>(cpu: usize, f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|s| {
        s.spawn(move || {
            pin(cpu);
            f()
        })
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// Sends messages `0..n` of producer `pid` (message 5 of producer 0 corrupted under
/// `fault`); on `stop`, sends [`STOP_SEQ`] instead and returns early.
pub fn produce<const W: usize>(
    tx: &mut dyn Tx<Msg<W>>,
    pid: u64,
    n: u64,
    fault: bool,
    stop: &AtomicBool,
) -> Result<(), TransferError> {
    for seq in 0..n {
        if stopping(stop, seq) {
            return tx.send(make::<W>(pid, STOP_SEQ));
        }
        let mut m = make::<W>(pid, seq);
        if fault && pid == 0 && seq == 5 {
            m[W - 1] ^= 1;
        }
        tx.send(m)?;
    }
    Ok(())
}

/// Messages each of `producers` sends in a stream of `cfg`: its share of every block (the
/// warm-up and `reps` timed ones).
fn per_producer(cfg: &Config, producers: usize) -> u64 {
    cfg.count / producers as u64 * (cfg.reps + 1)
}

/// Receives a stream of `cfg` from `producers` producers: a warm-up block and `reps` timed
/// ones of `count` messages (rounded down to a multiple of the producers), checking each
/// one's sequence; messages/s of every timed block. On `stop` (the flag, or a producer's
/// [`STOP_SEQ`]): `None`, after draining until each producer sent [`STOP_SEQ`] or its last
/// message, when `drain`; at once when not (worker processes, which are killed).
pub fn consume<const W: usize>(
    rx: &mut dyn Rx<Msg<W>>,
    cfg: &Config,
    producers: usize,
    stop: &AtomicBool,
    drain: bool,
) -> Result<Option<Samples>, TransferError> {
    let mut next = vec![0u64; producers];
    let (mut checked, mut wrong) = (0, 0);
    let mut samples = Vec::new();
    let mut last = None;
    let (blocks, per_producer) = (cfg.reps + 1, per_producer(cfg, producers));
    let per_block = cfg.count / producers as u64 * producers as u64;
    let mut stopped = vec![false; producers];
    for _ in 0..blocks {
        for i in 0..per_block {
            if stopping(stop, i) {
                if drain {
                    drain_until_stopped(rx, &mut next, &mut stopped, per_producer)?;
                }
                return Ok(None);
            }
            let m = rx.recv()?;
            checked += 1;
            match read(&m) {
                Some((pid, STOP_SEQ)) if (pid as usize) < producers => {
                    stopped[pid as usize] = true;
                    drain_until_stopped(rx, &mut next, &mut stopped, per_producer)?;
                    return Ok(None);
                }
                Some((pid, seq)) if (pid as usize) < producers && next[pid as usize] == seq => {
                    next[pid as usize] += 1
                }
                // Out of sequence: wrong, and the producer's count resumes after it (a
                // corrupt message, unreadable, also puts its successor out of sequence).
                Some((pid, seq)) if (pid as usize) < producers => {
                    wrong += 1;
                    next[pid as usize] = seq + 1;
                }
                _ => wrong += 1,
            }
        }
        let now = Instant::now();
        if let Some(t) = last {
            samples.push(per_block as f64 / now.duration_since(t).as_secs_f64());
        }
        last = Some(now);
    }
    Ok(Some((samples, [checked, wrong])))
}

/// A stopped stream's end, untimed: receives until every producer sent [`STOP_SEQ`] or its
/// last message, so that no producer thread stays blocked on a full queue.
fn drain_until_stopped<const W: usize>(
    rx: &mut dyn Rx<Msg<W>>,
    next: &mut [u64],
    stopped: &mut [bool],
    per_producer: u64,
) -> Result<(), TransferError> {
    let done = |next: &[u64], stopped: &[bool]| {
        (0..next.len()).all(|p| stopped[p] || next[p] >= per_producer)
    };
    while !done(next, stopped) {
        match read(&rx.recv()?) {
            Some((pid, STOP_SEQ)) if (pid as usize) < next.len() => stopped[pid as usize] = true,
            Some((pid, seq)) if (pid as usize) < next.len() => next[pid as usize] = seq + 1,
            _ => {}
        }
    }
    Ok(())
}

/// Round trips: µs per round trip of each of `cfg`'s `reps` blocks of `rtt_iters` after a
/// warm-up block. On `stop`: sends [`STOP_SEQ`] (the echo returns) and returns `None`.
pub fn ping<const W: usize>(
    tx: &mut dyn Tx<Msg<W>>,
    rx: &mut dyn Rx<Msg<W>>,
    cfg: &Config,
    stop: &AtomicBool,
) -> Result<Option<Samples>, TransferError> {
    let (iters, blocks) = (cfg.rtt_iters, cfg.reps + 1);
    let (mut checked, mut wrong) = (0, 0);
    let mut samples = Vec::new();
    let mut seq = 0;
    for b in 0..blocks {
        let t0 = Instant::now();
        for i in 0..iters {
            if stopping(stop, i) {
                tx.send(make::<W>(0, STOP_SEQ))?;
                return Ok(None);
            }
            let m = make::<W>(0, seq);
            tx.send(m)?;
            checked += 1;
            wrong += u64::from(rx.recv()? != m);
            seq += 1;
        }
        if b > 0 {
            samples.push(t0.elapsed().as_secs_f64() * 1e6 / iters as f64);
        }
    }
    Ok(Some((samples, [checked, wrong])))
}

/// Sends back `n` messages; returns early at a [`STOP_SEQ`] message (the pinger stopped).
pub fn echo<const W: usize>(
    rx: &mut dyn Rx<Msg<W>>,
    tx: &mut dyn Tx<Msg<W>>,
    n: u64,
) -> Result<(), TransferError> {
    for _ in 0..n {
        let m = rx.recv()?;
        if matches!(read(&m), Some((_, STOP_SEQ))) {
            return Ok(());
        }
        tx.send(m)?;
    }
    Ok(())
}

type Ends<const W: usize> = (Vec<Box<dyn Tx<Msg<W>>>>, Box<dyn Rx<Msg<W>>>);

/// `producers` sending ends and one receiving end of a fresh queue of `kind` on the heap.
fn ends<const W: usize>(kind: Kind, producers: usize) -> Result<Ends<W>, QueueError> {
    let mut txs: Vec<Box<dyn Tx<Msg<W>>>> = Vec::new();
    let rx: Box<dyn Rx<Msg<W>>> = match kind {
        Kind::Spsc | Kind::SpscSpin => {
            let (mut tx, mut rx) = Spsc::<Msg<W>>::new(CAPACITY)?;
            if kind == Kind::SpscSpin {
                tx.set_patience(Patience::new(Wait::Spin));
                rx.set_patience(Patience::new(Wait::Spin));
            }
            txs.push(Box::new(tx));
            Box::new(rx)
        }
        Kind::Rtrb => {
            let (tx, rx) = rtrb::RingBuffer::<Msg<W>>::new(CAPACITY);
            txs.push(Box::new(tx));
            Box::new(rx)
        }
        Kind::Crossbeam => {
            let q = Arc::new(ArrayQueue::new(CAPACITY));
            for _ in 0..producers {
                txs.push(Box::new(Crossbeam(q.clone())));
            }
            Box::new(Crossbeam(q))
        }
        Kind::Lanes => {
            let q = LaneMpsc::<Msg<W>>::on_heap(producers, CAPACITY)?;
            for _ in 0..producers {
                txs.push(Box::new(q.producer()?));
            }
            Box::new(q.consumer()?)
        }
        Kind::Array => {
            let q = ArrayMpsc::<Msg<W>>::on_heap(CAPACITY)?;
            for _ in 0..producers {
                txs.push(Box::new(q.producer()?));
            }
            Box::new(q.consumer()?)
        }
        Kind::Locked => {
            let q = Arc::new(Mutex::new(VecDeque::with_capacity(CAPACITY)));
            for _ in 0..producers {
                txs.push(Box::new(Locked(q.clone())));
            }
            Box::new(Locked(q))
        }
    };
    Ok((txs, rx))
}

/// Throughput between threads: the consumer on `cpus[0]`, producer i on `cpus[(i+1) mod n]`;
/// `None` when `stop` was set.
pub fn stream_threads<const W: usize>(
    cfg: &Config,
    kind: Kind,
    producers: usize,
    stop: &AtomicBool,
) -> Run {
    let (txs, mut rx) = ends::<W>(kind, producers).map_err(failed)?;
    let per_producer = per_producer(cfg, producers);
    let cpus = &cfg.cpus;
    std::thread::scope(|s| {
        let hs: Vec<_> = txs
            .into_iter()
            .enumerate()
            .map(|(i, mut tx)| {
                let cpu = cpus[(i + 1) % cpus.len()];
                s.spawn(move || {
                    pin(cpu);
                    produce::<W>(tx.as_mut(), i as u64, per_producer, cfg.fault, stop)
                })
            })
            .collect();
        // The receiving end closes on its thread when the stream is done (the closure owns it).
        let got = on_cpu(cpus[0], move || {
            consume::<W>(rx.as_mut(), cfg, producers, stop, true)
        });
        for h in hs {
            h.join()
                .map_err(|_| failed("a producer thread panicked"))?
                .map_err(failed)?;
        }
        got.map_err(failed)
    })
}

/// Round trip between two threads over two queues of `kind`; `None` when `stop` was set.
pub fn rtt_threads<const W: usize>(cfg: &Config, kind: Kind, stop: &AtomicBool) -> Run {
    let (mut txa, mut rxa) = ends::<W>(kind, 1).map_err(failed)?;
    let (mut txb, mut rxb) = ends::<W>(kind, 1).map_err(failed)?;
    let (mut ta, mut tb) = (txa.remove(0), txb.remove(0));
    let cpus = &cfg.cpus;
    std::thread::scope(|s| {
        let h = s.spawn(move || {
            pin(cpus[1 % cpus.len()]);
            echo::<W>(rxa.as_mut(), tb.as_mut(), cfg.rtt_iters * (cfg.reps + 1))
        });
        let got = on_cpu(cpus[0], move || {
            ping::<W>(ta.as_mut(), rxb.as_mut(), cfg, stop)
        });
        h.join()
            .map_err(|_| failed("the echo thread panicked"))?
            .map_err(failed)?;
        got.map_err(failed)
    })
}

/// Throughput with producer processes: this process consumes; `None` on `ctx.cancel` (the
/// workers are killed).
pub fn stream_processes<const W: usize>(
    cfg: &Config,
    kind: Kind,
    producers: usize,
    ctx: &RunCtx<'_>,
) -> Run {
    let id = run_id();
    let name = format!("q{id}");
    let per_producer = per_producer(cfg, producers);
    // The segment's full name, its receiving end, and the queue handle, kept alive until the
    // workers are done.
    macro_rules! created {
        ($q:expr) => {{
            let q = $q.map_err(failed)?;
            let rx: Box<dyn Rx<Msg<W>>> = Box::new(q.consumer().map_err(failed)?);
            let name: String = q.name().unwrap_or_default().into();
            (name, rx, Box::new(q) as Box<dyn std::any::Any>)
        }};
    }
    let (full_name, mut rx, _keep) = match kind {
        Kind::Spsc => created!(Spsc::<Msg<W>>::create(&name, CAPACITY)),
        Kind::Lanes => created!(LaneMpsc::<Msg<W>>::create(&name, producers, CAPACITY)),
        Kind::Array => created!(ArrayMpsc::<Msg<W>>::create(&name, CAPACITY)),
        _ => return Err(failed(format!("{} has no cross-process form", kind.name()))),
    };
    let mut w = Workers::new(NAME, &ctx.exe, &ctx.args);
    for i in 0..producers {
        let cpu = cfg.cpus[(i + 1) % cfg.cpus.len()];
        let args = [
            "produce",
            kind.name(),
            &(W * 8).to_string(),
            &per_producer.to_string(),
            &i.to_string(),
            &cpu.to_string(),
            &full_name,
            if cfg.fault { "fault" } else { "-" },
            &producers.to_string(),
        ];
        w.spawn(&args.map(String::from))?;
    }
    // Every producer joins before any starts (a queue whose producers all left is closed).
    w.gate()?;
    let stop = ctx.cancel;
    let got = on_cpu(cfg.cpus[0], move || {
        consume::<W>(rx.as_mut(), cfg, producers, stop, false)
    });
    // Stopped (or a worker killed by the same Ctrl-C): dropping `w` kills the workers.
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    w.finish(Instant::now() + POINT_DEADLINE)?;
    got.map_err(failed)
}

/// Round trip with an echo process over two SPSC queues in segments; `None` on
/// `ctx.cancel`.
pub fn rtt_processes<const W: usize>(cfg: &Config, ctx: &RunCtx<'_>) -> Run {
    let id = run_id();
    let a = Spsc::<Msg<W>>::create(&format!("q{id}a"), CAPACITY).map_err(failed)?;
    let b = Spsc::<Msg<W>>::create(&format!("q{id}b"), CAPACITY).map_err(failed)?;
    let mut w = Workers::new(NAME, &ctx.exe, &ctx.args);
    let cpu = cfg.cpus[1 % cfg.cpus.len()];
    let args = [
        "echo",
        "spsc",
        &(W * 8).to_string(),
        &(cfg.rtt_iters * (cfg.reps + 1)).to_string(),
        "0",
        &cpu.to_string(),
        a.name().unwrap_or_default(),
        b.name().unwrap_or_default(),
    ];
    w.spawn(&args.map(String::from))?;
    let mut tx = a.producer().map_err(failed)?;
    let mut rx = b.consumer().map_err(failed)?;
    let stop = ctx.cancel;
    let got = on_cpu(cfg.cpus[0], move || ping::<W>(&mut tx, &mut rx, cfg, stop));
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    w.finish(Instant::now() + POINT_DEADLINE)?;
    got.map_err(failed)
}

/// A worker's stop flag: never set (the parent kills its workers when it stops).
static NEVER: AtomicBool = AtomicBool::new(false);

/// A worker process: `produce KIND SIZE N PID CPU NAME fault|- PRODUCERS` or
/// `echo spsc SIZE N 0 CPU IN OUT`.
pub fn worker_body<const W: usize>(args: &[String]) -> Result<(), BenchError> {
    let role: String = arg(NAME, args, 0)?;
    let kind = Kind::parse(&arg::<String>(NAME, args, 1)?)
        .ok_or_else(|| failed("worker: unknown kind"))?;
    let n: u64 = arg(NAME, args, 3)?;
    let pid: u64 = arg(NAME, args, 4)?;
    pin(arg::<usize>(NAME, args, 5)?);
    let name: String = arg(NAME, args, 6)?;
    if role == "echo" {
        let out: String = arg(NAME, args, 7)?;
        let a = Spsc::<Msg<W>>::open(&name, CAPACITY, open_deadline()).map_err(failed)?;
        let b = Spsc::<Msg<W>>::open(&out, CAPACITY, open_deadline()).map_err(failed)?;
        let (mut rx, mut tx) = (a.consumer().map_err(failed)?, b.producer().map_err(failed)?);
        return echo::<W>(&mut rx, &mut tx, n).map_err(failed);
    }
    let fault = args.get(7).is_some_and(|f| f == "fault");
    let producers: usize = arg(NAME, args, 8)?;
    // Opens the queue, joins as a producer, waits for the start and sends.
    macro_rules! produce_into {
        ($q:expr) => {{
            let q = $q.map_err(failed)?;
            let mut tx = q.producer().map_err(failed)?;
            gate_wait(NAME)?;
            produce::<W>(&mut tx, pid, n, fault, &NEVER).map_err(failed)
        }};
    }
    let open = open_deadline();
    match kind {
        Kind::Spsc => produce_into!(Spsc::<Msg<W>>::open(&name, CAPACITY, open)),
        Kind::Lanes => produce_into!(LaneMpsc::<Msg<W>>::open(&name, producers, CAPACITY, open)),
        Kind::Array => produce_into!(ArrayMpsc::<Msg<W>>::open(&name, CAPACITY, open)),
        _ => Err(failed("worker: this kind has no cross-process form")),
    }
}

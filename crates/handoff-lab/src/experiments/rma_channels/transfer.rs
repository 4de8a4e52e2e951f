//! How one transfer moves on each path, and the statistics of a producer's transfer times.
//!
//! - Messages (the seed's `scif_send` / `scif_recv`): the payload is copied into frames of
//!   handoff's byte-frame queue (at most [`CHUNK`] bytes each, every frame with the 8-byte
//!   tag as its first word) and copied out of them into the consumer's buffer, which is then
//!   checked.
//! - RMA (the seed's `scif_writeto` into a registered window): the producer writes the
//!   payload straight into the consumer's window slot and signals it; the consumer checks it
//!   in place and frees the slot (see [`super::window`]).

use std::time::{Duration, Instant};

use handoff::queue::{FrameConsumer, FrameProducer, QueueError};

use super::payload::{fill, tag};

/// The largest frame of a message (a bigger payload goes as several frames).
pub const CHUNK: usize = 64 << 10;
/// Bytes of a connection's queue, and about the bytes of its window (at least 2 slots).
pub const BUFFER: usize = 1 << 20;
/// How long any one wait may take before the run is declared stuck.
pub const STUCK: Duration = Duration::from_secs(30);

/// Slots of a window of `slot` bytes: about [`BUFFER`] bytes, 2 to 1024 slots.
pub fn depth(slot: usize) -> usize {
    (BUFFER / slot.max(1)).clamp(2, 1024)
}

/// `size` rounded up to the RMA granularity `gran`.
pub fn put_len(size: usize, gran: usize) -> usize {
    size.div_ceil(gran.max(1)) * gran.max(1)
}

/// Sends `payload` as one message tagged `tag` (copy in).
pub fn send_msg(tx: &mut FrameProducer, tag: u64, payload: &[u8]) -> Result<(), QueueError> {
    for chunk in payload.chunks(CHUNK) {
        let mut f = tx.loan_timeout(8 + chunk.len(), STUCK)?;
        f[..8].copy_from_slice(&tag.to_le_bytes());
        f[8..].copy_from_slice(chunk);
        f.commit();
    }
    Ok(())
}

/// Receives one message of `buf.len()` bytes into `buf` (copy out) and returns its tag
/// (`u64::MAX`, which names no sender, when its frames disagree or do not fill `buf`
/// exactly).
pub fn recv_msg(rx: &mut FrameConsumer, buf: &mut [u8]) -> Result<u64, QueueError> {
    let mut tag = None;
    let mut at = 0;
    let mut good = true;
    while at < buf.len() {
        let f = rx.recv_timeout(STUCK)?;
        if f.len() < 8 {
            good = false;
            break;
        }
        let t = u64::from_le_bytes(f[..8].try_into().unwrap_or([0xFF; 8]));
        good &= *tag.get_or_insert(t) == t;
        let body = &f[8..];
        let n = body.len().min(buf.len() - at);
        good &= n == body.len() && n > 0;
        buf[at..at + n].copy_from_slice(&body[..n]);
        at += n;
        if n == 0 {
            break;
        }
    }
    Ok(if good {
        tag.unwrap_or(u64::MAX)
    } else {
        u64::MAX
    })
}

/// Producer `p`'s `per` transfers of `size` payload bytes from `buf`, timed: before each,
/// `buf` gets transfer `k`'s pattern (after its 8-byte tag when `tagged`: a slot that
/// carries its tag; producer 0 flips the last payload byte of transfer `corrupt_at`, test
/// only), then `send(k, buf, until)` moves it, `until` its deadline ([`STUCK`] from its
/// start). The transfer times' mean and p99 (nearest rank) in µs.
pub fn produce<E>(
    buf: &mut [u8],
    tagged: bool,
    size: usize,
    p: u64,
    per: u64,
    corrupt_at: Option<u64>,
    mut send: impl FnMut(u64, &[u8], Instant) -> Result<(), E>,
) -> Result<(f64, f64), E> {
    let at = if tagged { 8 } else { 0 };
    let mut us = Vec::with_capacity(per as usize);
    for k in 0..per {
        let t = tag(p, k);
        if tagged {
            buf[..8].copy_from_slice(&t.to_le_bytes());
        }
        fill(&mut buf[at..at + size], t);
        if p == 0 && corrupt_at == Some(k) {
            buf[at + size - 1] ^= 1;
        }
        let t0 = Instant::now();
        send(k, buf, t0 + STUCK)?;
        us.push(t0.elapsed().as_nanos() as f64 / 1e3);
    }
    us.sort_by(f64::total_cmp);
    let p99 = super::super::rt_common::quantile(&us, 0.99);
    Ok((crate::stats::mean(&us), p99))
}

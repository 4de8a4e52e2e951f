//! `pipe` mode: the block is copied through a pipe from the producer's private buffer into
//! the consumer's; a one-byte pipe back tells the producer the consumer is done.
//!
//! `t_done` is stamped just before the first write, `t_start` when the first read returns, so
//! latency is the time until the first bytes arrive and read time includes copying the rest.

use super::roles::{as_bytes, as_bytes_mut, ConsumerLoop, ProducerLoop};
use super::samples::{SampleSlots, UsageMeter};
use super::RunError;
use std::fs::File;
use std::io::{Read, Write};

const CONSUMER_GONE: &str = " (consumer gone?)";
const PRODUCER_GONE: &str = " (producer gone?)";

fn pipe_error(what: &'static str, hint: &'static str) -> impl FnOnce(std::io::Error) -> RunError {
    move |source| RunError::Pipe { what, source, hint }
}

impl ProducerLoop<'_> {
    /// The pipe's producer: fill, stamp, write the whole block; wait for the consumer's byte.
    pub fn run_pipe(
        &self,
        data: &mut File,
        ack: &mut File,
        elems: usize,
        slots: &SampleSlots<'_>,
    ) -> Result<(), RunError> {
        let mut buf = vec![0i32; elems];
        let mut wait_ack = |what| {
            ack.read_exact(&mut [0u8; 1])
                .map_err(pipe_error(what, CONSUMER_GONE))
        };
        for rep in 0..slots.write.len() as u32 {
            if rep > 0 {
                wait_ack("producer waiting for the consumer's ack")?;
            }
            slots.produced(rep, self.produce(&mut buf, rep));
            data.write_all(as_bytes(&buf))
                .map_err(pipe_error("producer writing the block", CONSUMER_GONE))?;
        }
        // The last acknowledgement: the consumer checked the last block before we leave.
        wait_ack("producer waiting for the final ack")
    }
}

impl ConsumerLoop<'_> {
    /// The pipe's consumer: read the block into its own buffer, sum, check, send one byte
    /// back.
    pub fn run_pipe(
        &self,
        data: &mut File,
        ack: &mut File,
        elems: usize,
        slots: &SampleSlots<'_>,
    ) -> Result<(), RunError> {
        let ConsumerLoop { clock, warmup, .. } = *self;
        let mut buf = vec![0i32; elems];
        let mut usage = UsageMeter::start(clock);
        for rep in 0..slots.read.len() as u32 {
            if rep == warmup {
                usage = UsageMeter::start(clock);
            }
            let bytes = as_bytes_mut(&mut buf);
            let first = loop {
                match data.read(bytes) {
                    Ok(0) => return Err(RunError::PipeClosed),
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(pipe_error("consumer reading the block", "")(e)),
                }
            };
            let t_start = clock.now();
            data.read_exact(&mut bytes[first..])
                .map_err(pipe_error("consumer reading the block", PRODUCER_GONE))?;
            self.consume(&buf, rep, t_start, slots)?;
            ack.write_all(&[1])
                .map_err(pipe_error("consumer acknowledging", PRODUCER_GONE))?;
        }
        usage.record(clock, slots);
        Ok(())
    }
}

//! Single-thread modes: one thread, pinned to the producer's CPU, fills and sums the block in
//! turn (`single-thread`), or writes it to a file and reads it back (`file`).

use super::{block_channel, fault, on_cpu, roles, samples, Env, Mode, Point, RunData, RunError};
use handoff::channel::Channel;
use handoff::shm::Segment;

pub(super) fn single_thread(p: &Point, env: &Env<'_>) -> Result<RunData, RunError> {
    let total = p.total_reps();
    let layout = samples::Layout::new(total);
    let seg = Segment::anonymous(layout.payload_len())?;
    let slots = layout.slots(&seg)?;
    // The block: the same kind of memory as the two-party modes' (a 1-block channel), loaned
    // once for the whole run, since one thread plays both roles.
    let (mut tx, _rx) = Channel::anonymous(block_channel(p.size))?.split()?;
    let mut loan = tx.try_loan()?; // a new channel's block is free
    let clock = env.rig.clock;
    let file = (p.mode == Mode::File).then(|| {
        env.cfg
            .file_dir
            .join(format!("handoff-exchange-{}.bin", std::process::id()))
    });
    let result = on_cpu(p.producer_core, || {
        let b = loan.as_mut_slice::<i32>();
        let mut scratch = vec![0i32; if file.is_some() { b.len() } else { 0 }];
        let usage = samples::UsageMeter::start(&clock);
        for rep in 0..total as u32 {
            let t0 = clock.now();
            if !fault::before_fill(env.cfg.fault, rep) {
                roles::fill(env.kernel, b, roles::fill_value(rep));
            }
            if let Some(path) = &file {
                write_file(path, roles::as_bytes(b))?;
            }
            let t1 = clock.now();
            if p.flush {
                handoff_probe::cache::flush(roles::as_bytes(b));
            }
            let t_done = clock.now();
            let t_start = clock.now();
            let s = match &file {
                Some(path) => {
                    read_file(path, &mut scratch)?;
                    roles::sum(env.kernel, std::hint::black_box(&scratch))
                }
                None => roles::sum(env.kernel, std::hint::black_box(b)),
            };
            let t_end = clock.now();
            roles::check_sum(rep, std::hint::black_box(s), b.len())?;
            slots.produced(rep, [t0, t1, t_done]);
            slots.consumed(rep, t_start, t_end);
        }
        usage.record(&clock, &slots);
        Ok(())
    });
    if let Some(path) = &file {
        let _ = std::fs::remove_file(path);
    }
    result?;
    Ok(RunData::from_slots(&slots))
}

fn file_error(
    what: &'static str,
    path: &std::path::Path,
) -> impl FnOnce(std::io::Error) -> RunError {
    let path = path.to_path_buf();
    move |source| RunError::File { what, path, source }
}

fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), RunError> {
    use std::io::Write;
    let mut f = std::fs::File::create(path).map_err(file_error("creating", path))?;
    f.write_all(bytes).map_err(file_error("writing", path))
    // Closed on drop, no fsync: the paper measures the page cache, not the disk.
}

fn read_file(path: &std::path::Path, into: &mut [i32]) -> Result<(), RunError> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(file_error("opening", path))?;
    f.read_exact(roles::as_bytes_mut(into))
        .map_err(file_error("reading", path))
}

//! The PE side of `stencil`: one team member's columns of the wavefront, its boundary
//! values in and out, and the checks against the closed form (module docs of `stencil`).

use std::time::{Duration, Instant};

use handoff::team::{Cmp, Counter, SignalOp, Sym, Team, TeamError, Transport};
use serde::{Deserialize, Serialize};

use super::{cell, columns, corner, Grid, Method, NAME};
use crate::experiments::team_run::{self, PeOutput};

/// What one worker PE runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerSpec {
    pub method: Method,
    /// The grid (and PEs).
    pub grid: Grid,
    pub iterations: u64,
    pub fault: Option<team_run::Fault>,
}

// The body of a PE (`handoff __worker stencil SPEC`, under `team::Launch` or mpiexec).
team_run::pe_body!(WorkerSpec, pe_main, Duration::from_secs(30));

/// A value with its flag (or counter): one direction of the pipeline.
struct Channel {
    data: Sym<f64>,
    flag: Sym<u64>,
    ct: Counter,
}

impl Channel {
    fn new<X: Transport>(team: &Team<X>, len: usize) -> Result<Channel, TeamError> {
        Ok(Channel {
            data: team.alloc::<f64>(len)?,
            flag: team.alloc::<u64>(1)?,
            ct: team.ct_create()?,
        })
    }

    /// Sends `v` into `pe`'s element `at`.
    fn send<X: Transport>(
        &self,
        t: &Team<X>,
        method: Method,
        at: usize,
        v: f64,
        pe: usize,
    ) -> Result<(), TeamError> {
        match method {
            Method::FenceFlag => {
                t.put(&self.data, at, &[v], pe)?;
                t.fence();
                t.atomic_add(self.flag, 1u64, pe)
            }
            Method::PutSignal => {
                t.put_signal(&self.data, at, &[v], self.flag, SignalOp::Add(1), pe)
            }
            Method::CountingPut => t.put_ct(&self.ct, &self.data, at, &[v], pe),
        }
    }

    /// Waits until `count` values have arrived in all; returns element `at`.
    fn recv<X: Transport>(
        &self,
        t: &Team<X>,
        method: Method,
        at: usize,
        count: u64,
    ) -> Result<f64, TeamError> {
        match method {
            Method::FenceFlag | Method::PutSignal => {
                t.signal_wait_until(self.flag, Cmp::Ge, count)?;
            }
            Method::CountingPut => {
                t.ct_wait(&self.ct, count)?;
            }
        }
        Ok(t.local(&self.data)[at])
    }
}

fn pe_main<X: Transport>(team: &Team<X>, spec: &WorkerSpec) -> Result<PeOutput, TeamError> {
    let (r, p) = (team.rank(), team.size());
    let Grid { m, n, .. } = spec.grid;
    let (lo, hi) = columns(n, p, r);
    let ghost = Channel::new(team, m)?;
    let feedback = Channel::new(team, 1)?;
    // Local columns g0..hi: the left neighbour's last column first (r > 0), or column 0.
    let g0 = lo.saturating_sub(1);
    let w = hi - g0;
    let mut a = vec![0f64; m * w];
    for (jl, x) in a[..w].iter_mut().enumerate() {
        *x = (g0 + jl) as f64;
    }
    if r == 0 {
        for i in 0..m {
            a[i * w] = i as f64;
        }
    }
    let mut out = PeOutput::of(r);
    let mut stamps = Vec::with_capacity(spec.iterations as usize);
    let k_corner = |k: u64| corner(m, n, k);
    team.barrier_all()?;
    for it in 0..spec.iterations {
        if r == 0 && it > 0 && p > 1 {
            let v = feedback.recv(team, spec.method, 0, it)?;
            stamps.push(Instant::now());
            out.verify(v == -k_corner(it), || {
                format!(
                    "iteration {it}: A(0,0) arrived as {v}, expected {}",
                    -k_corner(it)
                )
            });
            a[0] = v;
        }
        for i in 1..m {
            team_run::maybe_exit(&spec.fault, r, i as u64);
            if r > 0 {
                let v = ghost.recv(team, spec.method, i, it * (m as u64 - 1) + i as u64)?;
                let want = cell(m, n, it + 1, i, lo - 1);
                out.verify(v == want, || {
                    format!(
                        "iteration {}, row {i}: boundary value {v}, expected {want}",
                        it + 1
                    )
                });
                a[i * w] = v;
            }
            let (up, row) = a[(i - 1) * w..(i + 1) * w].split_at_mut(w);
            for j in 1..w {
                row[j] = up[j] + row[j - 1] - up[j - 1];
            }
            if r + 1 < p {
                let mut v = row[w - 1];
                if r == 0 && it == 0 && team_run::hits(&spec.fault, "wrong-value", i as u64) {
                    v += 1.0;
                }
                ghost.send(team, spec.method, i, v, r + 1)?;
            }
        }
        if r + 1 == p {
            let c = a[m * w - 1];
            out.verify(c == k_corner(it + 1), || {
                format!(
                    "iteration {}: corner {c}, expected {}",
                    it + 1,
                    k_corner(it + 1)
                )
            });
            if p == 1 {
                stamps.push(Instant::now());
                a[0] = -c;
            } else {
                feedback.send(team, spec.method, 0, -c, 0)?;
            }
        }
    }
    if r == 0 && p > 1 {
        let v = feedback.recv(team, spec.method, 0, spec.iterations)?;
        stamps.push(Instant::now());
        out.verify(v == -k_corner(spec.iterations), || {
            format!("last iteration: A(0,0) arrived as {v}")
        });
    }
    out.samples = stamps
        .windows(2)
        .map(|s| s[1].duration_since(s[0]).as_secs_f64() * 1e6)
        .collect();
    Ok(out)
}

//! The findings of `channels`: the many-core seed's Findings 3 (separate channels beat one
//! shared channel) and 2 (more threads on one channel do not raise its throughput), judged on
//! the run means of messages/s at the n nearest the seed's 4–6.

use crate::bench::findings::at_least_if;
use crate::bench::findings::run_means;
use crate::bench::{BenchResults, Finding};

pub(super) fn findings(res: &BenchResults) -> Vec<Finding> {
    let mut out = Vec::new();
    let runs_of = |series: &str, n: f64| run_means(res, series, n, "msgs_per_s");
    // The n nearest 4–6 (the seed's sweet spot): the largest measured up to 6.
    let Some(n) = res
        .records
        .iter()
        .map(|r| r.x)
        .filter(|&x| x <= 6.0)
        .max_by(f64::total_cmp)
    else {
        return out;
    };
    for mode in ["threads", "processes"] {
        out.extend(at_least_if(
            &format!("{n} separate channels beat {n} producers and consumers on one channel ({mode}; seed Finding 3)"),
            "XConn / XPYC messages/s",
            runs_of(&format!("XConn, {mode}"), n),
            runs_of(&format!("XPYC, {mode}"), n),
            1.0,
        ));
        if n > 1.0 {
            out.extend(at_least_if(
                &format!("more threads on one channel do not raise its throughput: {n} pairs gain under 20% over one ({mode}; seed Finding 2)"),
                &format!("XPYC messages/s at 1 / at {n}"),
                runs_of(&format!("XPYC, {mode}"), 1.0),
                runs_of(&format!("XPYC, {mode}"), n),
                0.83,
            ));
        }
    }
    out
}

//! A ring of PEs: each puts its rank and a greeting into its right neighbour's inbox with
//! one put-with-signal, waits for its own, and checks it came from its left neighbour.
//!
//! ```text
//! cargo build --release --examples
//! target/release/handoff run -n 4 -- target/release/examples/team_ring
//! ```

use handoff::team::{Cmp, SignalOp, Team};

fn main() -> Result<(), handoff::Error> {
    let team = Team::from_env()?;
    let (me, n) = (team.rank(), team.size());
    let inbox = team.alloc::<u64>(2)?; // symmetric: the same object on every PE
    let arrived = team.alloc::<u64>(1)?;

    let right = (me + 1) % n;
    team.put_signal(
        &inbox,
        0,
        &[me as u64, 1000 + me as u64],
        arrived,
        SignalOp::Set(1),
        right,
    )?;
    team.signal_wait_until(arrived, Cmp::Eq, 1)?; // the data are visible once the signal is

    let [from, token] = [team.local(&inbox)[0], team.local(&inbox)[1]];
    let left = (me + n - 1) % n;
    assert_eq!((from, token), (left as u64, 1000 + left as u64));
    println!("PE {me} of {n}: got token {token} from PE {from}");
    team.finalize()?; // a barrier; then this PE's exit ends nobody's wait
    Ok(())
}

//! Writes a synthetic sysfs tree of a large machine (for `handoff report --plan --sysfs`):
//! `cargo run -p handoff-probe --example synth_sysfs -- NAME DIR`, NAME one of
//! `SynthMachine::presets()`: 2s192, 4s80, 1s128, emerald, granite, genoa-x.

use handoff_probe::topology::synth::SynthMachine;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let presets = SynthMachine::presets();
    let names: Vec<&str> = presets.iter().map(|(n, _)| *n).collect();
    let usage = || {
        eprintln!("usage: synth_sysfs {} DIR", names.join("|"));
        std::process::exit(2);
    };
    let Some(m) = args
        .first()
        .and_then(|a| presets.iter().find(|(n, _)| n == a))
        .map(|(_, m)| m)
    else {
        usage()
    };
    let Some(dir) = args.get(1) else { usage() };
    if let Err(e) = m.write(std::path::Path::new(dir)) {
        eprintln!("synth_sysfs: writing {dir}: {e}");
        std::process::exit(1);
    }
}

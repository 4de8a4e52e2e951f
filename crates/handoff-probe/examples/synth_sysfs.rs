//! Writes a synthetic sysfs tree of a large machine (for `handoff report --plan --sysfs`):
//! `cargo run -p handoff-probe --example synth_sysfs -- 2s192|4s80|1s128 DIR`.

use handoff_probe::topology::synth::SynthMachine;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let m = match args.first().map(String::as_str) {
        Some("2s192") => SynthMachine::server_2s_192c(),
        Some("4s80") => SynthMachine::skylake_4s_80c(),
        Some("1s128") => SynthMachine::single_128c_8ccd(),
        _ => {
            eprintln!("usage: synth_sysfs 2s192|4s80|1s128 DIR");
            std::process::exit(2);
        }
    };
    let Some(dir) = args.get(1) else {
        eprintln!("usage: synth_sysfs 2s192|4s80|1s128 DIR");
        std::process::exit(2);
    };
    if let Err(e) = m.write(std::path::Path::new(dir)) {
        eprintln!("synth_sysfs: writing {dir}: {e}");
        std::process::exit(1);
    }
}

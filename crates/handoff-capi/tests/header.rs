//! `include/handoff.h` is what cbindgen makes of the crate now: fails when it is stale.
//! `HANDOFF_BLESS=1 cargo test -p handoff-capi --test header` rewrites it.

use std::path::Path;

#[test]
fn header_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not read the crate")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("cbindgen writes UTF-8");
    let path = dir.join("include/handoff.h");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != generated {
        if std::env::var_os("HANDOFF_BLESS").is_some() {
            std::fs::write(&path, &generated).expect("write include/handoff.h");
            eprintln!("rewrote {}", path.display());
        } else {
            panic!(
                "include/handoff.h is stale (the C ABI changed): regenerate it with \
                 HANDOFF_BLESS=1 cargo test -p handoff-capi --test header, and commit it"
            );
        }
    }
}

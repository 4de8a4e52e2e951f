//! Writes `handoff.pc` (pkg-config) for this build into `target/<profile>/pkgconfig/`, next to
//! `libhandoff_c.so` / `libhandoff_c.a`:
//! `PKG_CONFIG_PATH=target/<profile>/pkgconfig pkg-config --cflags --libs handoff`.

mod pkgconfig;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=pkgconfig.rs");
    pkgconfig::write(&pkgconfig::PcFile {
        name: "handoff",
        description: "shared-memory channels and synchronization between processes (C ABI)",
        lib: "handoff_c",
    });
}

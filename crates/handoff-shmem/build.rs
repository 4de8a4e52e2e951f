//! Writes `handoff-shmem.pc` (pkg-config) for this build into `target/<profile>/pkgconfig/`,
//! next to `libhandoff_shmem.so` / `.a`, with handoff-capi's writer:
//! `PKG_CONFIG_PATH=target/<profile>/pkgconfig pkg-config --cflags --libs handoff-shmem`
//! gives what `bin/oshcc --showme:compile` / `--showme:link` give.

#[path = "../handoff-capi/pkgconfig.rs"]
mod pkgconfig;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../handoff-capi/pkgconfig.rs");
    pkgconfig::write(&pkgconfig::PcFile {
        name: "handoff-shmem",
        description: "OpenSHMEM 1.5 (shmem.h, shmemx.h) over handoff's team; run programs with `handoff run -n N`",
        lib: "handoff_shmem",
    });
}

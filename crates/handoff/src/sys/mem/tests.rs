use super::*;

#[test]
fn rounding() {
    let p = page_size();
    assert_eq!(round_up_to_pages(1), Some(p));
    assert_eq!(round_up_to_pages(p), Some(p));
    assert_eq!(round_up_to_pages(p + 1), Some(2 * p));
    assert_eq!(round_up_to_pages(usize::MAX), None);
}

#[cfg(target_os = "linux")]
#[test]
fn create_map_unlink() {
    let name = format!("/handoff-{}-mem-unit-create", std::process::id());
    assert!(matches!(
        ShmFile::create(&name, 0, DEFAULT_MODE),
        Err(Error::InvalidArgument(_))
    ));
    let f = ShmFile::create(&name, 10, DEFAULT_MODE).unwrap();
    let info = f.stat().unwrap();
    assert_eq!(info.size, page_size() as u64);
    assert_eq!(info.mode, 0o600);
    assert_eq!(info.uid, current_uid());
    assert!(matches!(
        ShmFile::create(&name, 10, DEFAULT_MODE),
        Err(Error::AlreadyExists { .. })
    ));
    let m = f.map(10).unwrap();
    assert_eq!(m.len(), page_size());
    assert_eq!(m.as_ptr() as usize % page_size(), 0);
    let g = ShmFile::open(&name).unwrap();
    assert_eq!(g.write_at(b"hi", 3).unwrap(), 2);
    let mut buf = [0u8; 2];
    assert_eq!(f.read_at(&mut buf, 3).unwrap(), 2);
    assert_eq!(&buf, b"hi");
    unlink(&name).unwrap();
    assert!(matches!(unlink(&name), Err(Error::NotFound { .. })));
    assert!(matches!(ShmFile::open(&name), Err(Error::NotFound { .. })));
    drop(m);
}

#[cfg(target_os = "linux")]
#[test]
fn anonymous_memfd() {
    let f = ShmFile::anonymous(1).unwrap();
    assert!(f.name().is_none());
    assert_eq!(f.stat().unwrap().size, page_size() as u64);
    assert!(matches!(
        ShmFile::anonymous(0),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn live_pid_is_not_gone() {
    assert!(!pid_is_gone(std::process::id()));
}

/// A FIFO or a symbolic link planted at a name is refused as not a regular file, without
/// blocking on the FIFO's open and without following the link.
#[cfg(target_os = "linux")]
#[test]
fn fifo_and_symlink_are_not_opened() {
    let fifo = format!("/handoff-{}-mem-unit-fifo", std::process::id());
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path_of(&fifo).as_str(),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_bits_truncate(0o600),
        0,
    )
    .unwrap();
    let r = ShmFile::open_read_only(&fifo);
    std::fs::remove_file(path_of(&fifo)).unwrap();
    assert!(
        matches!(&r, Err(Error::NotRegular { kind, .. }) if kind.contains("FIFO")),
        "{r:?}"
    );

    let target = format!("/handoff-{}-mem-unit-target", std::process::id());
    let link = format!("/handoff-{}-mem-unit-link", std::process::id());
    let f = ShmFile::create(&target, 10, DEFAULT_MODE).unwrap();
    std::os::unix::fs::symlink(path_of(&target), path_of(&link)).unwrap();
    let r = ShmFile::open(&link);
    std::fs::remove_file(path_of(&link)).unwrap();
    unlink(&target).unwrap();
    drop(f);
    assert!(
        matches!(&r, Err(Error::NotRegular { kind, .. }) if kind.contains("symbolic link")),
        "{r:?}"
    );
}

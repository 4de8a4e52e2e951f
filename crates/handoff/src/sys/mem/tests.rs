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

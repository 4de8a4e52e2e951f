//! Which file system a path lives on (`statfs` `f_type`): the `file` exchange mode reports
//! whether its file sat on tmpfs or a disk, and `/dev/shm` should be tmpfs for segments.

use crate::{Error, Result};
use std::path::Path;

/// Known `f_type` magic numbers (from `linux/magic.h` and the file systems' sources).
const MAGIC: &[(u64, &str)] = &[
    // ext2, ext3 and ext4 share one magic number; the ext4 driver mounts all three.
    (0xEF53, "ext4"),
    (0x5846_5342, "xfs"),
    (0x9123_683E, "btrfs"),
    (0x0102_1994, "tmpfs"),
    (0x858_458F6, "ramfs"),
    (0x958_458F6, "hugetlbfs"),
    (0x794C_7630, "overlayfs"),
    (0x6969, "nfs"),
    (0x2FC1_2FC1, "zfs"),
    (0xF2F5_2010, "f2fs"),
    (0xCA45_1A4E, "bcachefs"),
    (0x7371_7368, "squashfs"),
    (0x6573_5546, "fuse"),
    (0x0102_1997, "9p"),
    (0xFF53_4D42, "cifs"),
    (0xFE53_4D42, "smb2"),
    (0x00C3_6400, "ceph"),
    (0x0BD0_0BD0, "lustre"),
    (0x4750_4653, "gpfs"),
    (0x9FA0, "proc"),
    (0x6265_6572, "sysfs"),
    (0x6367_7270, "cgroup2"),
    (0x1CD1, "devpts"),
];

/// The name of a file system type by its `statfs` magic number, or `0x...` in hex when
/// it is not one we know.
pub fn filesystem_name(magic: u64) -> String {
    MAGIC
        .iter()
        .find(|(m, _)| *m == magic)
        .map_or_else(|| format!("{magic:#x}"), |(_, n)| (*n).to_string())
}

/// The type of the file system holding `path`: `tmpfs`, `ext4` (also for ext2/ext3),
/// `xfs`, `btrfs`, `overlayfs`, `nfs`, `zfs`, `f2fs`..., or the magic number in hex.
#[cfg(target_os = "linux")]
pub fn filesystem_type(path: impl AsRef<Path>) -> Result<String> {
    let path = path.as_ref();
    let st =
        rustix::fs::statfs(path).map_err(|e| Error::io(format!("statfs {}", path.display()), e))?;
    // f_type is a signed word on some targets; the magic is its 32-bit pattern.
    #[allow(clippy::unnecessary_cast)]
    let magic = (st.f_type as i64 as u64) & 0xFFFF_FFFF;
    Ok(filesystem_name(magic))
}

/// Unsupported off Linux.
#[cfg(not(target_os = "linux"))]
pub fn filesystem_type(path: impl AsRef<Path>) -> Result<String> {
    let _ = path;
    Err(Error::Sys(handoff::sys::Error::Unsupported(
        "filesystem_type (statfs f_type)",
    )))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn dev_shm_is_tmpfs_and_tmp_has_a_type() {
        if Path::new("/dev/shm").is_dir() {
            assert_eq!(filesystem_type("/dev/shm").unwrap(), "tmpfs");
        } else {
            eprintln!("SKIP: dev_shm_is_tmpfs_and_tmp_has_a_type (/dev/shm part): no /dev/shm");
        }
        let tmp = filesystem_type(std::env::temp_dir()).unwrap();
        assert!(!tmp.is_empty());
        assert_eq!(filesystem_type("/proc/self").unwrap(), "proc");
    }

    #[test]
    fn names_and_errors() {
        assert_eq!(filesystem_name(0xEF53), "ext4");
        assert_eq!(filesystem_name(0x5846_5342), "xfs");
        assert_eq!(filesystem_name(0x1234_5678), "0x12345678");
        let e = filesystem_type("/nonexistent/handoff-fsinfo").unwrap_err();
        assert!(
            e.to_string().contains("statfs /nonexistent/handoff-fsinfo"),
            "{e}"
        );
    }
}

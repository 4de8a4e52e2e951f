//! Bounded reading of input files (results files given to `compare`, `plot`, `report`):
//! regular files only, at most [`MAX_INPUT_BYTES`], and error messages that quote at most
//! one short line of what was read.
//!
//! A FIFO or a device is refused without blocking: the file is opened with `O_NONBLOCK`
//! (an open of a FIFO without a writer would otherwise wait forever) and checked with
//! `fstat` on the opened descriptor (no race between a check and the open).

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The largest input file read (results files are kilobytes to a few megabytes).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The longest quote of input text in an error message, in characters.
pub const MAX_QUOTE_CHARS: usize = 80;

/// Reads `path` as UTF-8 text: a regular file of at most [`MAX_INPUT_BYTES`]. Errors are
/// `std::io::Error`s whose message says what the file is and what to give instead.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    read_text_capped(path, MAX_INPUT_BYTES)
}

/// [`read_text`] with another size cap.
pub fn read_text_capped(path: &Path, cap: u64) -> std::io::Result<String> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    let kind = meta.file_type();
    if !kind.is_file() {
        let what = if kind.is_fifo() {
            "a FIFO (named pipe)"
        } else if kind.is_char_device() || kind.is_block_device() {
            "a device"
        } else if kind.is_dir() {
            "a directory"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        return Err(invalid(format!(
            "it is {what}; give a results file (a regular file)"
        )));
    }
    if meta.len() > cap {
        return Err(too_large(meta.len(), cap));
    }
    read_bounded(file, cap)
}

fn read_bounded(file: File, cap: u64) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    // Take one byte more than the cap: a file that grew after fstat is caught too.
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(bytes.len() as u64, cap));
    }
    String::from_utf8(bytes).map_err(|e| {
        invalid(format!(
            "it is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn invalid(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, message)
}

fn too_large(len: u64, cap: u64) -> std::io::Error {
    invalid(format!(
        "it is larger than {} MiB (at least {len} bytes); results files are far smaller: is it the right file?",
        cap >> 20
    ))
}

/// At most one line of `text`, at most [`MAX_QUOTE_CHARS`] characters, with `…` where it
/// was cut: what an error message may quote of its input.
pub fn quote(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let mut out: String = line.chars().take(MAX_QUOTE_CHARS).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("handoff-input-{}-{name}", std::process::id()))
    }

    #[test]
    fn reads_a_regular_file_and_refuses_what_is_not_one() {
        let p = temp("ok.json");
        std::fs::write(&p, "{\"a\": 1}\n").unwrap();
        assert_eq!(read_text(&p).unwrap(), "{\"a\": 1}\n");
        let e = read_text_capped(&p, 4).unwrap_err();
        assert!(e.to_string().contains("larger than"), "{e}");
        std::fs::remove_file(&p).unwrap();

        let e = read_text(Path::new("/dev/zero")).unwrap_err();
        assert!(e.to_string().contains("a device"), "{e}");
        let e = read_text(Path::new("/tmp")).unwrap_err();
        assert!(e.to_string().contains("directory"), "{e}");

        let fifo = temp("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_text(&fifo).unwrap_err(); // must not block: no writer
        assert!(e.to_string().contains("FIFO"), "{e}");
        std::fs::remove_file(&fifo).unwrap();
    }

    #[test]
    fn quotes_one_short_line() {
        assert_eq!(quote("abc"), "abc");
        assert_eq!(quote("abc\ndef"), "abc…");
        let long = "x".repeat(10_000);
        let q = quote(&long);
        assert_eq!(q.chars().count(), MAX_QUOTE_CHARS + 1);
        assert!(q.ends_with('…'));
    }
}

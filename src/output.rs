//! Everything about where output goes: the one progress-bar factory (stderr, hidden with
//! `--quiet` or when stderr is not a terminal) and atomic file writes that never leave a
//! half-written file and never clobber one by accident.

use std::io::Write;
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::error::{Error, Result};

/// A progress bar over `len` steps with an ETA, drawn on stderr; hidden when `quiet`
/// (indicatif also draws nothing when stderr is not a terminal).
pub fn progress(len: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} (ETA {eta}) {msg}",
        )
        .expect("template is valid")
        .progress_chars("=> "),
    );
    bar
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, then a rename.
/// With `overwrite` false an existing file is an error that says to pass `--force`.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> Result<()> {
    if !overwrite && path.exists() {
        return Err(Error::Invalid(format!(
            "{} exists; pass --force to overwrite it, or choose another name",
            path.display()
        )));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    // tempfile creates 0600; a report is an ordinary file others may read.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(io)?;
    }
    tmp.write_all(bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_refuses_to_clobber() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.json");
        write_atomic(&path, b"one", false).unwrap();
        let err = write_atomic(&path, b"two", false).unwrap_err().to_string();
        assert!(err.contains("--force"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one");
        write_atomic(&path, b"two", true).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
    }
}

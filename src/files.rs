//! gpulab's files: atomic writes that never leave a half-written file and never clobber one by
//! accident, the header every JSON file opens with (schema, version, who wrote it, when), and
//! the loader of the embedded TOML catalogues (errors name the file, line and column).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::error::{Error, Result};

/// The first fields of every JSON file gpulab writes (flattened into it, so the keys stay at the
/// top level): what the file is, in which version of its schema, and who wrote it when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// "gpulab.check", "gpulab.bench", "gpulab.measure", "gpulab.calibration", "gpulab.report".
    pub schema: String,
    /// The schema's version: fields are only ever added within a version.
    pub schema_version: u32,
    /// gpulab's version.
    pub gpulab_version: String,
    /// candle-core's version, for files whose numbers Candle produced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candle_version: Option<String>,
    /// Seconds since the Unix epoch when the file's content was made.
    pub created_unix_s: u64,
}

impl Header {
    /// A header for a file made now by this gpulab.
    pub fn new(schema: &str, schema_version: u32) -> Header {
        Header {
            schema: schema.into(),
            schema_version,
            gpulab_version: env!("CARGO_PKG_VERSION").into(),
            candle_version: None,
            created_unix_s: crate::units::now_unix_s(),
        }
    }

    /// The same, for numbers Candle produced: records its version.
    pub fn with_candle(schema: &str, schema_version: u32) -> Header {
        Header {
            candle_version: Some(crate::probe::framework::candle_version().into()),
            ..Header::new(schema, schema_version)
        }
    }

    /// An error unless this is `schema` at `schema_version`; `name` labels the file, `redo` says
    /// how to make a current one.
    pub fn expect(&self, schema: &str, schema_version: u32, name: &str, redo: &str) -> Result<()> {
        if self.schema != schema {
            return Err(crate::bad!(
                "schema-wrong",
                name = name,
                found = format!("{:?}", self.schema),
                expected = format!("{schema:?}")
            ));
        }
        if self.schema_version != schema_version {
            return Err(crate::bad!(
                "schema-version-wrong",
                name = name,
                schema = schema,
                found = self.schema_version,
                expected = schema_version,
                redo = redo
            ));
        }
        Ok(())
    }
}

/// The error for one field of one entry of a data file (data/gpus.toml, data/lessons.toml):
/// where it is, which entry and field, and why the value cannot be.
pub fn field_error(
    file: &str,
    line: usize,
    kind: String,
    id: &str,
    field: &str,
    why: String,
) -> Error {
    crate::bad!(
        "data-field",
        file = file,
        line = line,
        kind = kind,
        id = format!("{id:?}"),
        field = field,
        why = why
    )
}

/// Reads a whole text file; the error names the path and what to do.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses an embedded TOML catalogue; `file` names it in errors (toml's message carries the line
/// and column).
pub fn parse_toml<T: DeserializeOwned>(text: &str, file: &str) -> Result<T> {
    toml::from_str(text).map_err(|e| crate::bad!("toml-error", file = file, error = e))
}

/// The line (1-based) where `needle` first appears in `text`, for errors about a checked value.
pub fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap_or(0)].lines().count() + 1
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, then a rename.
/// With `overwrite` false an existing file is an error that says to pass `--force`.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> Result<()> {
    if !overwrite && path.exists() {
        return Err(crate::bad!("file-exists", path = path.display()));
    }
    // A device or a pipe (/dev/stdout, a FIFO, /dev/full) is written into, never replaced by a
    // rename: that would swap the device node for a plain file.
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() && !meta.is_dir() {
            let io = |source: std::io::Error| Error::Io {
                path: path.to_path_buf(),
                source: os_reason(source),
            };
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io)?;
            return file
                .write_all(bytes)
                .and_then(|()| file.flush())
                .map_err(io);
        }
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    ensure_dir(dir, &t!("dir-for-file", path = path.display()))?;
    // tempfile's errors carry the temporary file's name, which means nothing to the user: keep
    // the OS's reason and name the file they asked for.
    let io = |source: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        source: os_reason(source),
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
    if overwrite {
        tmp.persist(path).map_err(|e| io(e.error))?;
    } else {
        // No-clobber in one step: two writers racing for the same name cannot both win (the
        // check above only spares the work).
        tmp.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                crate::bad!("file-exists", path = path.display())
            } else {
                io(e.error)
            }
        })?;
    }
    Ok(())
}

/// Output files claimed before a long run: each created empty with `create_new` (so a second
/// run cannot claim them too), and removed again unless the run keeps them, so a failed run
/// neither leaves half a set behind nor blocks the next one.
pub struct Claim {
    created: Vec<PathBuf>,
    kept: bool,
}

impl Claim {
    /// Claims `paths`; with `force` existing files are left to be replaced instead. A name the
    /// file system refuses (too long, a bad character) is refused here, before any work.
    pub fn new(paths: &[&Path], force: bool) -> Result<Claim> {
        let mut claim = Claim {
            created: Vec::new(),
            kept: false,
        };
        for path in paths {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(_) => claim.created.push(path.to_path_buf()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && force => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    return Err(crate::bad!("file-exists", path = path.display()));
                }
                Err(source) => {
                    return Err(Error::Io {
                        path: path.to_path_buf(),
                        source: os_reason(source),
                    })
                }
            }
        }
        Ok(claim)
    }

    /// The run succeeded: its files stay.
    pub fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        if !self.kept {
            for path in &self.created {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// Makes sure `dir` is a folder this process can write files into (creating it if needed), so a
/// command can refuse before its work rather than fail after it.
pub fn writable_dir(dir: &Path) -> Result<()> {
    ensure_dir(dir, &t!("dir-for-output"))?;
    tempfile::NamedTempFile::new_in(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source: os_reason(source),
    })?;
    Ok(())
}

/// `dir` as a folder, created if missing: a file in its place is refused (`what` says what the
/// folder was for), and the OS's error names the folder.
fn ensure_dir(dir: &Path, what: &str) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(crate::bad!(
            "dir-is-file",
            path = dir.display(),
            what = what
        ));
    }
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source: os_reason(source),
    })
}

/// The OS's own error inside one of tempfile's, which wraps it with the temporary file's path
/// ("Permission denied (os error 13) at path \"/dir/.tmpXYZ\""): the bare reason, by its kind
/// when the code is not reachable.
fn os_reason(err: std::io::Error) -> std::io::Error {
    if err.raw_os_error().is_some() || err.get_ref().is_none() {
        return err;
    }
    let code = err
        .get_ref()
        .and_then(|e| e.source())
        .and_then(|inner| inner.downcast_ref::<std::io::Error>())
        .and_then(std::io::Error::raw_os_error);
    match (code, err.kind()) {
        (Some(code), _) => std::io::Error::from_raw_os_error(code),
        (None, std::io::ErrorKind::Other) => err,
        (None, kind) => std::io::Error::from(kind),
    }
}

#[cfg(test)]
mod tests {

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_into_never_replaced() {
        let full = Path::new("/dev/full");
        if full.exists() {
            assert!(
                write_atomic(full, b"x", true).is_err(),
                "no space on /dev/full"
            );
            use std::os::unix::fs::FileTypeExt;
            assert!(std::fs::metadata(full)
                .unwrap()
                .file_type()
                .is_char_device());
        }
        write_atomic(Path::new("/dev/null"), b"x", true).unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    use super::*;

    #[test]
    fn a_wrapped_os_error_loses_the_temporary_path() {
        let wrapped = std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "Permission denied (os error 13) at path \"/x/.tmpAB12\"",
        );
        let bare = os_reason(wrapped).to_string();
        assert!(!bare.contains(".tmp"), "{bare}");
        let plain = std::io::Error::from_raw_os_error(2);
        assert_eq!(os_reason(plain).raw_os_error(), Some(2));
    }

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

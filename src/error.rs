//! The library's one error type. Environment facts ("no GPU") are never errors; these are the
//! things a user must fix: bad input, unreadable files, a Candle failure mid-measurement.

use std::path::PathBuf;

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A tensor operation failed.
    #[error("candle: {0}")]
    Candle(#[from] candle_core::Error),
    /// A file could not be read or written. The message names the path, the OS's reason and
    /// what to do; `source` stays the io::Error so callers can tell its kind.
    #[error("{path}: {source}{}", io_hint(source))]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// JSON could not be written or read.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    /// The user asked for something that cannot be done; the message says what to do instead.
    #[error("{0}")]
    Invalid(String),
}

/// Shorthand.
pub type Result<T> = std::result::Result<T, Error>;

/// What to do about an I/O failure, by its kind (empty where the OS's words say it all).
fn io_hint(err: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match err.kind() {
        NotFound => t!("io-not-found"),
        PermissionDenied | ReadOnlyFilesystem => t!("io-permission"),
        NotADirectory => t!("io-not-a-directory"),
        IsADirectory => t!("io-is-a-directory"),
        StorageFull => t!("io-storage-full"),
        _ => String::new(),
    }
}

//! The library's one error type. Environment facts ("no GPU") are never errors; these are the
//! things a user must fix: bad input, unreadable files, a Candle failure mid-measurement.

use std::path::PathBuf;

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A tensor operation failed.
    #[error("candle: {0}")]
    Candle(#[from] candle_core::Error),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
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

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
    /// The user asked for something that cannot be done: a catalogue message, kept as its key
    /// and arguments and translated when shown (so a stored error follows the reader's
    /// language, and a caller matches on [`Message::key`]). Built with [`crate::bad!`].
    #[error("{0}")]
    Rejected(Message),
    /// The `cuda` feature was not compiled in (the default build is CPU-only).
    #[error("{}", t!("cuda-not-built"))]
    NotCompiledWithCuda,
}

/// A catalogue message not yet rendered: its id in data/locales/*.ftl and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The message id.
    pub key: &'static str,
    /// Named arguments, already formatted.
    pub args: Vec<(&'static str, String)>,
}

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::i18n::text(
            crate::i18n::current(),
            self.key,
            &self.args,
        ))
    }
}

impl Error {
    /// The catalogue id of a rejected request (None for other failures).
    pub fn key(&self) -> Option<&'static str> {
        match self {
            Error::Rejected(m) => Some(m.key),
            Error::NotCompiledWithCuda => Some("cuda-not-built"),
            _ => None,
        }
    }
}

/// A rejected request as a catalogue message: `bad!("device-unknown", given = text)`, with the
/// arguments of [`t!`](crate::t).
#[macro_export]
macro_rules! bad {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::error::Error::Rejected($crate::error::Message {
            key: $id,
            args: vec![$((stringify!($name), ($value).to_string())),*],
        })
    };
}

/// The library's result type.
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

#[cfg(test)]
mod tests {
    use crate::i18n::{scoped, Lang};

    #[test]
    fn a_stored_error_is_shown_in_the_readers_language() {
        // Built once, shown twice: the words follow the language at display time.
        let err = crate::bad!("device-unknown", given = "\"tpu\"");
        assert_eq!(err.key(), Some("device-unknown"));
        let en = scoped(Lang::En, || err.to_string());
        let ko = scoped(Lang::Ko, || err.to_string());
        assert!(
            en.contains("\"tpu\"") && ko.contains("\"tpu\""),
            "{en} / {ko}"
        );
        assert_ne!(en, ko);
        assert_eq!(
            super::Error::NotCompiledWithCuda.key(),
            Some("cuda-not-built")
        );
    }
}

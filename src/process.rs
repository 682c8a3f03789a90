//! Running another program (nvidia-smi, python) the way gpulab must: bounded by a timeout, its
//! output read on threads so a full pipe cannot stall it, killed when it hangs.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use wait_timeout::ChildExt;

/// What one run of a program gave back.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// Exit code (None when killed by a signal).
    pub exit_code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `program args` with a timeout. `Ok(None)` means it timed out (and was killed).
///
/// The pipes are drained on their own threads so a chatty child never blocks on a full pipe;
/// after a timeout those threads are left behind rather than joined, because a grandchild may
/// still hold the pipe open.
pub fn run_with_timeout(
    program: &Path,
    args: &[&str],
    input: Option<&[u8]>,
    timeout: Duration,
) -> std::io::Result<Option<RunOutput>> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        // A child that exits without reading its input is its own business.
        let _ = stdin.write_all(bytes);
    }
    let mut out_pipe = child.stdout.take().expect("stdout was piped");
    let mut err_pipe = child.stderr.take().expect("stderr was piped");
    let out_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out_pipe.read_to_end(&mut buf);
        buf
    });
    let err_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err_pipe.read_to_end(&mut buf);
        buf
    });
    match child.wait_timeout(timeout)? {
        Some(status) => {
            let stdout = out_thread.join().unwrap_or_default();
            let stderr = err_thread.join().unwrap_or_default();
            Ok(Some(RunOutput {
                exit_code: status.code(),
                stdout: String::from_utf8_lossy(&stdout).into_owned(),
                stderr: String::from_utf8_lossy(&stderr).into_owned(),
            }))
        }
        None => {
            let _ = child.kill();
            let _ = child.wait();
            Ok(None)
        }
    }
}

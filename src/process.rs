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
    let mut command = Command::new(program);
    // Its own process group, so a timeout can end it and everything it started (a hung
    // nvidia-smi's helper, python's workers) in one signal.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command
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
            kill_group(&mut child);
            let _ = child.wait();
            Ok(None)
        }
    }
}

/// Ends a timed-out child and its process group (it leads one: `process_group(0)` above).
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{killpg, Signal};
        use nix::unistd::Pid;
        if let Ok(pid) = i32::try_from(child.id()) {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
    let _ = child.kill();
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Alive means running or sleeping; a killed process whose parent is gone may linger as a
    /// zombie (`Z`) where PID 1 does not reap, which is not alive.
    fn alive(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|stat| {
                let state = stat.rsplit(')').next().unwrap_or("").trim_start();
                !state.starts_with('Z') && !state.starts_with('X')
            })
            .unwrap_or(false)
    }

    #[test]
    fn a_timeout_ends_the_child_and_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("grandchild.pid");
        // A hung tool whose helper process would outlive it if only the tool were killed.
        let script = format!("sleep 300 & echo $! > {}; wait", pid_file.display());
        let out = run_with_timeout(
            Path::new("/bin/sh"),
            &["-c", &script],
            None,
            Duration::from_millis(500),
        )
        .unwrap();
        assert!(out.is_none(), "the script must time out");
        let pid: u32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let gone = (0..50).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !alive(pid)
        });
        assert!(
            gone,
            "the grandchild {pid} is still running after the timeout"
        );
    }
}

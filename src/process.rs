//! Running another program (nvidia-smi, python) the way gpulab must: bounded in time and in
//! output, its pipes read on threads so a full pipe cannot stall it, killed with everything it
//! started when it hangs, when it leaves a helper holding its output, or when gpulab itself is
//! interrupted (Ctrl-C, SIGTERM), and its temporary files removed then too.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// The most of a child's stdout or stderr kept: nvidia-smi and python answer in kilobytes, so a
/// child that prints more is broken; the rest is read and dropped so it cannot block.
pub const CAPTURE_LIMIT: usize = 1 << 20;

/// At most `max` characters of a program's text, cut with "…": what gpulab repeats of another
/// program's words (a 100 MB line or a 5 MB traceback is named, not printed back).
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// What one run of a program gave back.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// Exit code (None when killed by a signal).
    pub exit_code: Option<i32>,
    /// Standard output (at most [`CAPTURE_LIMIT`] bytes).
    pub stdout: String,
    /// Standard error (at most [`CAPTURE_LIMIT`] bytes).
    pub stderr: String,
    /// Output past the limit was dropped.
    pub truncated: bool,
}

/// Process groups of the children running now, ended if gpulab is interrupted.
static CHILDREN: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// Temporary folders in use now, removed if gpulab is interrupted.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Ends every running child's process group and removes the temporary folders: what an
/// interrupted gpulab must not leave behind. The binary calls it from its Ctrl-C handler.
pub fn clean_up_after_interrupt() {
    for pid in locked(&CHILDREN).drain(..) {
        kill_pid_group(pid);
    }
    remove_temporary_folders();
}

fn remove_temporary_folders() {
    for dir in locked(&TEMPORARY).drain(..) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A temporary folder that is removed when dropped and also on an interrupt.
pub struct TempFolder {
    dir: Option<tempfile::TempDir>,
}

impl TempFolder {
    /// A new temporary folder.
    pub fn new() -> std::io::Result<TempFolder> {
        let dir = tempfile::tempdir()?;
        locked(&TEMPORARY).push(dir.path().to_path_buf());
        Ok(TempFolder { dir: Some(dir) })
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new(""), |d| d.path())
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            locked(&TEMPORARY).retain(|p| p != dir.path());
            let _ = dir.close();
        }
    }
}

/// A pipe drained on its own thread into a buffer shared with the caller: the caller can take
/// what has arrived at any time, so a helper that keeps the pipe open cannot hold gpulab.
struct Drain {
    buffer: Arc<Mutex<(Vec<u8>, bool)>>,
    done: std::sync::mpsc::Receiver<()>,
}

impl Drain {
    fn start(mut pipe: impl Read + Send + 'static) -> Drain {
        let buffer = Arc::new(Mutex::new((Vec::new(), false)));
        let (tx, done) = std::sync::mpsc::channel();
        let shared = Arc::clone(&buffer);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            loop {
                match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let mut b = locked(&shared);
                        let room = CAPTURE_LIMIT.saturating_sub(b.0.len());
                        b.0.extend_from_slice(&chunk[..n.min(room)]);
                        b.1 |= n > room;
                    }
                }
            }
            let _ = tx.send(());
        });
        Drain { buffer, done }
    }

    /// What arrived, after waiting up to `wait` for the pipe to close.
    fn take(self, wait: Duration) -> (Vec<u8>, bool) {
        let _ = self.done.recv_timeout(wait);
        std::mem::take(&mut *locked(&self.buffer))
    }
}

/// Runs `program args` with a timeout. `Ok(None)` means it timed out (and was killed).
///
/// The output is read on threads, capped at [`CAPTURE_LIMIT`] each; after the program exits
/// its pipes get what is left of the timeout to close, and a helper still holding them is
/// ended with the program's process group.
pub fn run_with_timeout(
    program: &Path,
    args: &[&str],
    input: Option<&[u8]>,
    timeout: Duration,
) -> std::io::Result<Option<RunOutput>> {
    let started = Instant::now();
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
    let pid = i32::try_from(child.id()).unwrap_or(0);
    locked(&CHILDREN).push(pid);
    let forget = || locked(&CHILDREN).retain(|&p| p != pid);
    let out = child.stdout.take().map(Drain::start);
    let err = child.stderr.take().map(Drain::start);
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        // A child that exits without reading its input is its own business.
        let _ = stdin.write_all(bytes);
    }
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => status,
        Ok(None) => {
            kill_group(&mut child);
            let _ = child.wait();
            forget();
            return Ok(None);
        }
        Err(e) => {
            kill_group(&mut child);
            forget();
            return Err(e);
        }
    };
    // The program has exited; its pipes may still be held by something it started.
    let left = timeout
        .saturating_sub(started.elapsed())
        .max(Duration::from_millis(200));
    let (stdout, cut_out) = out.map_or_else(Default::default, |d| d.take(left));
    let (stderr, cut_err) =
        err.map_or_else(Default::default, |d| d.take(Duration::from_millis(200)));
    // Whatever of its group is left (a helper holding the pipes) goes with it.
    kill_pid_group(pid);
    forget();
    Ok(Some(RunOutput {
        exit_code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        truncated: cut_out || cut_err,
    }))
}

/// Ends a timed-out child and its process group (it leads one: `process_group(0)` above).
fn kill_group(child: &mut std::process::Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        kill_pid_group(pid);
    }
    let _ = child.kill();
}

fn kill_pid_group(pid: i32) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{killpg, Signal};
        use nix::unistd::Pid;
        if pid > 0 {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
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
    fn endless_output_is_capped_and_a_helper_holding_the_pipe_cannot_hang_us() {
        // `yes`: output without end, bounded by the cap and the timeout.
        let started = Instant::now();
        let out = run_with_timeout(
            Path::new("/bin/sh"),
            &["-c", "yes"],
            None,
            Duration::from_millis(800),
        )
        .unwrap();
        assert!(out.is_none(), "yes never ends: a timeout");
        assert!(started.elapsed() < Duration::from_secs(5));
        // A big answer that ends: kept up to the cap, said to be cut.
        let out = run_with_timeout(
            Path::new("/bin/sh"),
            &["-c", "head -c 3000000 /dev/zero | tr '\\0' x"],
            None,
            Duration::from_secs(10),
        )
        .unwrap()
        .unwrap();
        assert_eq!(out.stdout.len(), CAPTURE_LIMIT);
        assert!(out.truncated);
        // Exits at once, but leaves a child holding stdout for 30 s.
        let started = Instant::now();
        let out = run_with_timeout(
            Path::new("/bin/sh"),
            &["-c", "echo hello; sleep 30 &"],
            None,
            Duration::from_secs(2),
        )
        .unwrap()
        .unwrap();
        assert!(out.stdout.starts_with("hello"));
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn an_interrupt_removes_temporary_folders() {
        // (Ending the children is the timeout's killpg, tested below; here it would end other
        // tests' children too.)
        let folder = TempFolder::new().unwrap();
        let path = folder.path().to_path_buf();
        std::fs::write(path.join("torch-step.py"), "x").unwrap();
        remove_temporary_folders();
        assert!(!path.exists());
        drop(folder);
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

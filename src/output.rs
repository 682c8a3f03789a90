//! The terminal's side of output: the one progress-bar factory (stderr, hidden with `--quiet` or
//! when stderr is not a terminal), and stdout fitted to the terminal's width. Files are
//! [`crate::files`]'.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar over `len` units of work on stderr, shown as a percentage and the time
/// elapsed. No ETA: one from uneven work grows while the bar stands. Hidden when `quiet`
/// (indicatif also draws nothing when stderr is not a terminal).
pub fn progress(len: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        // The template is the catalogue's, so a language can order its parts.
        ProgressStyle::with_template(&crate::t!("progress-template"))
            .expect("template is valid")
            .progress_chars("=> "),
    );
    // Redrawn on a timer, not only when a point ends: a 2048³ point or a measure step runs for
    // seconds, and a bar that stands still looks like a hang.
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// Columns a text takes in a terminal: Hangul and other wide characters take two, so Korean
/// headers and labels line up with English ones.
pub fn width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// Columns of the terminal that output is fitted to: `COLUMNS` when set (the shell's own, or a
/// test's), else stdout's terminal width, else 80. At least 40, so a narrow pane still reads.
pub fn columns() -> usize {
    let from_env = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0);
    let from_tty = || {
        console::Term::stdout()
            .size_checked()
            .map(|(_, cols)| cols as usize)
    };
    from_env.or_else(from_tty).unwrap_or(80).clamp(40, 1000)
}

/// Where a wrapped line's continuation starts: after a label column (text, then two or more
/// spaces, within the first half of the line) when there is one, else under the line's indent.
fn hanging_indent(line: &str, max: usize) -> usize {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let body = &line[indent..];
    if let Some(gap) = body.find("  ") {
        let after = body[gap..].len() - body[gap..].trim_start_matches(' ').len();
        let column = width(&line[..indent + gap]) + after;
        if gap > 0 && column <= max / 2 && indent + gap + after < line.len() {
            return column;
        }
    }
    indent.min(max / 2)
}

/// One line of output fitted to `max` terminal columns: broken at spaces (a word longer than a
/// line is cut between characters), continuations indented under the label column.
pub fn wrap_line(line: &str, max: usize) -> Vec<String> {
    let max = max.max(10);
    if width(line) <= max {
        return vec![line.to_string()];
    }
    wrap_hanging(line, max, hanging_indent(line, max))
}

/// A table cell's text fitted to `max` columns, continuations flush left.
pub fn wrap_cell(text: &str, max: usize) -> Vec<String> {
    if width(text) <= max {
        return vec![text.to_string()];
    }
    wrap_hanging(text, max.max(1), 0)
}

fn wrap_hanging(line: &str, max: usize, hang: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut current_width = 0usize;
    // Leading indent stays with the first word.
    // An indent wider than half the line cannot be kept: the text starts at the half.
    let lead = line.len() - line.trim_start_matches(' ').len();
    let kept = lead.min(max / 2);
    current.push_str(&line[..kept]);
    current_width += kept;
    let mut first_word = true;
    for word in line[lead..].split(' ') {
        let w = width(word);
        let space = if first_word { 0 } else { 1 };
        if !first_word && current_width + space + w > max && current.trim().is_empty() {
            // Only indent so far: the word starts here and is cut below.
        } else if !first_word && current_width + space + w > max {
            out.push(current.trim_end().to_string());
            current = " ".repeat(hang);
            current_width = hang;
        } else if !first_word {
            current.push(' ');
            current_width += 1;
        }
        first_word = false;
        if current_width + w <= max {
            current.push_str(word);
            current_width += w;
            continue;
        }
        for ch in word.chars() {
            let cw = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
            if current_width + cw > max && !current.trim().is_empty() {
                // A path or an id breaks after its last '/' or '-' on the line, else anywhere.
                let start = current.len() - current.trim_start_matches(' ').len();
                let tail = current[start..]
                    .rfind(['/', '-'])
                    .map(|i| start + i + 1)
                    .filter(|&i| i < current.len() && 2 * width(&current[i..]) <= max - hang)
                    .map(|i| current.split_off(i))
                    .unwrap_or_default();
                out.push(current.trim_end().to_string());
                current = " ".repeat(hang) + &tail;
                current_width = hang + width(&tail);
            }
            current.push(ch);
            current_width += cw;
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim_end().to_string());
    }
    out
}

/// A text fitted to `max` columns, line by line (see [`wrap_line`]).
pub fn wrap(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        out.push_str(&wrap_line(line, max).join("\n"));
        if lines.peek().is_some() {
            out.push('\n');
        }
    }
    out
}

/// Stdout fitted to the terminal: whole lines are wrapped to [`columns`] as they complete; a
/// line still open is written on `flush`. Every command's and lab's result text goes through it.
pub struct Fitted {
    open: Vec<u8>,
    max: usize,
}

impl Fitted {
    /// Stdout, fitted to this terminal's width.
    pub fn stdout() -> Fitted {
        Fitted {
            open: Vec::new(),
            max: columns(),
        }
    }
}

/// The complete lines waiting in `open`, fitted to `max` columns (None while no line is
/// complete); what follows the last newline stays in `open`.
fn complete_lines(open: &mut Vec<u8>, max: usize) -> Option<String> {
    let end = open.iter().rposition(|&b| b == b'\n')?;
    let done: Vec<u8> = open.drain(..=end).collect();
    let text = String::from_utf8_lossy(&done);
    // Only the last newline is the line's end: the ones before it are blank lines.
    Some(wrap(text.strip_suffix('\n').unwrap_or(&text), max) + "\n")
}

impl std::io::Write for Fitted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.open.extend_from_slice(buf);
        if let Some(fitted) = complete_lines(&mut self.open, self.max) {
            std::io::stdout().write_all(fitted.as_bytes())?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.open.is_empty() {
            let open = std::mem::take(&mut self.open);
            let text = String::from_utf8_lossy(&open);
            std::io::stdout().write_all(wrap(&text, self.max).as_bytes())?;
        }
        std::io::stdout().flush()
    }
}

impl Drop for Fitted {
    fn drop(&mut self) {
        use std::io::Write as _;
        let _ = self.flush();
    }
}

/// Prints a line fitted to the terminal (the labs' `println!`): a closed stdout ends the
/// output quietly instead of panicking.
#[macro_export]
macro_rules! outln {
    () => {{
        use std::io::Write as _;
        let _ = writeln!($crate::output::Fitted::stdout());
    }};
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!($crate::output::Fitted::stdout(), $($t)*);
    }};
}

/// Prints text fitted to the terminal, without a newline of its own (the labs' `print!`).
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!($crate::output::Fitted::stdout(), $($t)*);
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_lines_fit_and_keep_their_label_column() {
        let line = "GPU memory    the largest model that fits by the two-byte rule is about twelve billion parameters";
        let lines = wrap_line(line, 40);
        assert!(lines.len() > 2);
        for l in &lines {
            assert!(width(l) <= 40, "{l:?}");
        }
        for l in &lines[1..] {
            assert!(
                l.starts_with("              ") && !l.starts_with("               "),
                "{l:?}"
            );
        }
        let words: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
        assert_eq!(words, line.split_whitespace().collect::<Vec<_>>());
    }

    #[test]
    fn blank_lines_survive_the_fitting() {
        let mut open = b"a\n\nb\n\nc".to_vec();
        assert_eq!(complete_lines(&mut open, 80).unwrap(), "a\n\nb\n\n");
        assert_eq!(open, b"c");
        assert_eq!(complete_lines(&mut open, 80), None);
    }

    #[test]
    fn korean_and_unbroken_text_fit_too() {
        let korean = "이 컴퓨터에서 학습할 수 있는 가장 큰 모델은 대략 120억 개의 매개변수입니다";
        for l in wrap_line(korean, 30) {
            assert!(width(&l) <= 30, "{l:?}");
        }
        let deep = format!("{}(", " ".repeat(81));
        assert!(wrap_line(&deep, 80).iter().all(|l| width(l) <= 80));
        let path = format!("  {}", "x".repeat(95));
        let lines = wrap_line(&path, 40);
        assert!(lines.iter().all(|l| width(l) <= 40));
        assert_eq!(lines.concat().replace(' ', ""), "x".repeat(95));
        assert_eq!(wrap_line("short", 80), vec!["short".to_string()]);
    }
}

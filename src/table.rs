//! One table type for every tabular output: the terminal, Markdown and CSV render the same rows,
//! so they cannot drift apart (hyperfine's MarkupExporter idea).

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text, aligned left.
    Left,
    /// Numbers, aligned right.
    Right,
}

/// A table: a header and rows of cells, all strings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Per-column alignment (defaults to left).
    pub align: Vec<Align>,
    /// Rows; each as long as the header.
    pub rows: Vec<Vec<String>>,
}

pub use crate::output::width;

/// `text` padded with spaces to `columns` terminal columns (a label column).
pub fn pad(text: &str, columns: usize) -> String {
    format!("{text}{}", " ".repeat(columns.saturating_sub(width(text))))
}

impl Table {
    /// A table with these columns; names ending in a space-separated unit stay as written.
    pub fn new(header: &[&str], align: &[Align]) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            align: align.to_vec(),
            rows: Vec::new(),
        }
    }

    /// A table whose alignment is spelled as letters, one per column: `l` left, `r` right
    /// (e.g. "llrr" for two text columns and two numbers).
    pub fn aligned(header: &[&str], spec: &str) -> Table {
        Table::titled(header.iter().map(|h| h.to_string()).collect(), spec)
    }

    /// The same with the header already made (its names come from the message catalogue).
    pub fn titled(header: Vec<String>, spec: &str) -> Table {
        let align: Vec<Align> = spec
            .chars()
            .map(|c| if c == 'r' { Align::Right } else { Align::Left })
            .collect();
        Table {
            header,
            align,
            rows: Vec::new(),
        }
    }

    /// Adds a row.
    pub fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.header.len(), "row width");
        self.rows.push(row);
    }

    fn widths(&self) -> Vec<usize> {
        let mut w: Vec<usize> = self.header.iter().map(|h| width(h)).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                w[i] = w[i].max(width(cell));
            }
        }
        w
    }

    fn pad(&self, i: usize, cell: &str, width: usize) -> String {
        let fill = width.saturating_sub(self::width(cell));
        match self.align.get(i).copied().unwrap_or(Align::Left) {
            Align::Left => format!("{cell}{}", " ".repeat(fill)),
            Align::Right => format!("{}{cell}", " ".repeat(fill)),
        }
    }

    /// Aligned plain text for the terminal, fitted to its width ([`crate::output::columns`]).
    pub fn to_text(&self) -> String {
        self.to_text_within(crate::output::columns())
    }

    /// Aligned plain text within `max` columns: when the natural widths do not fit, the widest
    /// columns give up room and their cells wrap inside the column, so no row loses its place.
    pub fn to_text_within(&self, max: usize) -> String {
        let w = self.fitted_widths(max);
        let line = |cells: &[String]| {
            let wrapped: Vec<Vec<String>> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| crate::output::wrap_cell(c, w[i]))
                .collect();
            let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
            (0..height)
                .map(|k| {
                    wrapped
                        .iter()
                        .enumerate()
                        .map(|(i, parts)| {
                            self.pad(i, parts.get(k).map(String::as_str).unwrap_or(""), w[i])
                        })
                        .collect::<Vec<_>>()
                        .join("  ")
                        .trim_end()
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let mut out = line(&self.header);
        out.push('\n');
        out.push_str(
            &w.iter()
                .map(|n| "-".repeat(*n))
                .collect::<Vec<_>>()
                .join("  "),
        );
        out.push('\n');
        for row in &self.rows {
            out.push_str(&line(row));
            out.push('\n');
        }
        out
    }

    /// Column widths within `max`: natural widths when they fit; else each column keeps at
    /// least its longest word (up to 14 columns, fewer on a narrow terminal) and the rest of the
    /// room goes to the columns that lose most, in proportion.
    fn fitted_widths(&self, max: usize) -> Vec<usize> {
        let natural = self.widths();
        let seps = 2 * natural.len().saturating_sub(1);
        if natural.iter().sum::<usize>() + seps <= max {
            return natural;
        }
        let longest_word = |i: usize| {
            std::iter::once(&self.header)
                .chain(self.rows.iter())
                .filter_map(|r| r.get(i))
                .flat_map(|c| c.split(' '))
                .map(width)
                .max()
                .unwrap_or(1)
        };
        // Each column keeps its longest word when it can; on a narrow terminal the cap on that
        // floor comes down until the table fits (a long word is then cut inside its cell).
        let words: Vec<usize> = (0..natural.len()).map(longest_word).collect();
        let floor_at = |cap: usize| -> Vec<usize> {
            natural
                .iter()
                .zip(&words)
                .map(|(&n, &w)| n.min(w.clamp(3, cap)))
                .collect()
        };
        let floor = [14, 12, 10, 8, 6, 5, 4, 3]
            .into_iter()
            .map(floor_at)
            .find(|f| f.iter().sum::<usize>() + seps <= max)
            .unwrap_or_else(|| floor_at(3));
        let room = max.saturating_sub(seps + floor.iter().sum::<usize>());
        let want: usize = natural.iter().zip(&floor).map(|(n, f)| n - f).sum();
        let mut widths: Vec<usize> = natural
            .iter()
            .zip(&floor)
            .map(|(n, f)| f + (n - f) * room / want.max(1))
            .collect();
        // Rounding leaves a few columns; give them to the columns still short, left to right.
        let mut left = room.saturating_sub(widths.iter().zip(&floor).map(|(w, f)| w - f).sum());
        for (w, n) in widths.iter_mut().zip(&natural) {
            while left > 0 && *w < *n {
                *w += 1;
                left -= 1;
            }
        }
        widths
    }

    /// A GitHub-flavoured Markdown table.
    pub fn to_markdown(&self) -> String {
        let esc = |c: &str| c.replace('|', "\\|");
        let mut out = format!(
            "| {} |\n",
            self.header
                .iter()
                .map(|h| esc(h))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        out.push_str(&format!(
            "|{}|\n",
            (0..self.header.len())
                .map(|i| match self.align.get(i) {
                    Some(Align::Right) => "---:",
                    _ => "---",
                })
                .collect::<Vec<_>>()
                .join("|")
        ));
        for row in &self.rows {
            out.push_str(&format!(
                "| {} |\n",
                row.iter().map(|c| esc(c)).collect::<Vec<_>>().join(" | ")
            ));
        }
        out
    }

    /// RFC 4180 CSV: fields with a comma, quote or newline are quoted, quotes doubled.
    pub fn to_csv(&self) -> String {
        let field = |c: &str| {
            if c.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.to_string()
            }
        };
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(self.rows.iter()) {
            out.push_str(&row.iter().map(|c| field(c)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(&["name", "GFLOP/s"], &[Align::Left, Align::Right]);
        t.push(vec!["cpu".into(), "207.1".into()]);
        t.push(vec!["a, \"b\"|c".into(), "9".into()]);
        t
    }

    #[test]
    fn renders_the_same_rows_three_ways() {
        let t = sample();
        assert_eq!(
            t.to_text_within(80),
            "name      GFLOP/s\n--------  -------\ncpu         207.1\na, \"b\"|c        9\n"
        );
        assert_eq!(
            t.to_markdown(),
            "| name | GFLOP/s |\n|---|---:|\n| cpu | 207.1 |\n| a, \"b\"\\|c | 9 |\n"
        );
        assert_eq!(
            t.to_csv(),
            "name,GFLOP/s\ncpu,207.1\n\"a, \"\"b\"\"|c\",9\n"
        );
    }

    #[test]
    fn a_wide_table_wraps_its_cells_inside_their_columns() {
        let mut t = Table::aligned(&["what", "why it matters", "GiB"], "llr");
        t.push(vec![
            "weights".into(),
            "every parameter in the chosen precision, kept for the whole step".into(),
            "14.9".into(),
        ]);
        t.push(vec!["activations".into(), "short".into(), "3.2".into()]);
        let text = t.to_text_within(40);
        for line in text.lines() {
            assert!(width(line) <= 40, "{line:?}");
        }
        assert!(text.lines().count() > 4, "{text}");
        // The numbers stay in their column, right-aligned at the same place.
        let ends: Vec<usize> = text
            .lines()
            .filter(|l| l.ends_with("14.9") || l.ends_with("3.2"))
            .map(width)
            .collect();
        assert_eq!(ends.len(), 2);
        assert_eq!(ends[0], ends[1]);
    }
}

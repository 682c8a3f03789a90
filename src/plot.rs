//! SVG charts (plotters' SVG backend: no system libraries, text-based, diffable). One helper
//! draws stacked line charts; the bench and measure modules say what goes in them.

use std::path::Path;

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::*;

use crate::error::{Error, Result};

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    /// A line through its points, each marked (measurements along a sweep).
    #[default]
    LinePoints,
    /// A line only (a model or a ceiling).
    Line,
    /// Marks only (measurements that are not a sweep).
    Points,
}

/// One line on a chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// (x, y) points, in x order.
    pub points: Vec<(f64, f64)>,
    /// How it is drawn.
    pub style: Style,
    /// Colour by index, so related series (a roof and its points) share one; None: by position.
    pub color: Option<usize>,
}

impl Series {
    /// A measured sweep: a line with marked points, coloured by position.
    pub fn sweep(label: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.into(),
            points,
            style: Style::LinePoints,
            color: None,
        }
    }
}

/// One chart panel.
#[derive(Debug, Clone)]
pub struct Panel {
    /// The panel's title.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// Logarithmic x axis (sizes double from point to point).
    pub log_x: bool,
    /// Logarithmic y axis (a roofline spans orders of magnitude).
    pub log_y: bool,
    /// The x values to label on a logarithmic x axis (the sizes measured); empty: 1-2-5 steps.
    pub x_ticks: Vec<f64>,
    /// The lines.
    pub series: Vec<Series>,
}

const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Renders the panels one above the other into an SVG string.
pub fn render_svg(panels: &[Panel]) -> Result<String> {
    let mut svg = String::new();
    let height = 360 * panels.len().max(1) as u32;
    {
        let root = SVGBackend::with_string(&mut svg, (860, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let areas = root.split_evenly((panels.len().max(1), 1));
        for (panel, area) in panels.iter().zip(areas.iter()) {
            draw_panel(panel, area)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// Writes the panels as an SVG file (atomically).
pub fn write_svg(path: &Path, panels: &[Panel], overwrite: bool) -> Result<()> {
    let svg = render_svg(panels)?;
    crate::files::write_atomic(path, svg.as_bytes(), overwrite)
}

/// 1, 2, 5 × powers of ten inside [lo, hi] (at least the two ends when none falls inside).
fn ticks_125(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return out;
    }
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        for m in [1.0, 2.0, 5.0] {
            let v = decade * m;
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        decade *= 10.0;
    }
    if out.len() < 2 {
        out = vec![lo, hi];
    }
    out
}

/// A tick's text: whole numbers without ".0" (a batch of 2, not 2.0), small ones with the
/// digits they need.
fn tick_label(v: f64) -> String {
    if v.abs() >= 10.0 || (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn plot_err(e: impl std::fmt::Display) -> Error {
    crate::bad!("plot-failed", error = e)
}

fn draw_panel<'a>(
    panel: &Panel,
    area: &DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
) -> Result<()> {
    let points = panel.series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0f64);
    let mut y0 = f64::MAX;
    for &(x, y) in points {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
        if y > 0.0 {
            y0 = y0.min(y);
        }
    }
    if x0 > x1 {
        // Nothing to draw: say so on the panel instead of failing.
        area.draw(&Text::new(
            t!("plot-no-data", title = panel.title),
            (20, 20),
            (FONT, 16),
        ))
        .map_err(plot_err)?;
        return Ok(());
    }
    if x0 == x1 {
        x0 *= 0.5;
        x1 *= 2.0;
    }
    // A linear axis keeps its top third free for the legend (upper left), so the legend never
    // covers a line that rises to the right.
    let legend_rows = panel.series.len() as f64;
    let y1 = if y1 > 0.0 {
        y1 * if panel.log_y {
            1.1
        } else {
            1.1 + 0.08 * legend_rows
        }
    } else {
        1.0
    };
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(&panel.title, (FONT, 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60);
    let y0 = if y0 < y1 { y0 / 2.0 } else { y1 / 10.0 };
    // Log axes are labelled at chosen values only (plotters' own log labels collide, "900.01000.0").
    let x_ticks = if panel.x_ticks.is_empty() {
        ticks_125(x0, x1)
    } else {
        panel.x_ticks.clone()
    };
    // Room above the highest value on a log axis (×1.1 is invisible there).
    let y1_log = y1 * 1.6;
    let y_ticks = ticks_125(y0, y1_log);
    match (panel.log_x, panel.log_y) {
        (true, true) => {
            let chart = builder
                .build_cartesian_2d(
                    (x0..x1).log_scale().with_key_points(x_ticks),
                    (y0..y1_log).log_scale().with_key_points(y_ticks),
                )
                .map_err(plot_err)?;
            draw_lines(chart, panel)
        }
        (true, false) => {
            let chart = builder
                .build_cartesian_2d((x0..x1).log_scale().with_key_points(x_ticks), 0f64..y1)
                .map_err(plot_err)?;
            draw_lines(chart, panel)
        }
        (false, true) => {
            let chart = builder
                .build_cartesian_2d(x0..x1, (y0..y1_log).log_scale().with_key_points(y_ticks))
                .map_err(plot_err)?;
            draw_lines(chart, panel)
        }
        (false, false) => {
            let chart = builder
                .build_cartesian_2d(x0..x1, 0f64..y1)
                .map_err(plot_err)?;
            draw_lines(chart, panel)
        }
    }
}

/// The plots' font: Korean faces first, so Hangul titles and labels render (not as boxes) on
/// Linux (Noto CJK, Nanum), macOS and Windows alike; any sans-serif after them.
const FONT: &str =
    "Noto Sans CJK KR, Noto Sans KR, NanumGothic, Apple SD Gothic Neo, Malgun Gothic, sans-serif";

/// Mesh, lines, points and legend, for any kind of axes.
fn draw_lines<'a, X, Y>(
    mut chart: ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    panel: &Panel,
) -> Result<()>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    // Whole-number x values over a short span (optimizer states, a few batch sizes): one label
    // per value, not 0.2 steps between them.
    let xs: Vec<f64> = panel
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    let whole = !xs.is_empty() && xs.iter().all(|x| (x - x.round()).abs() < 1e-9);
    let span =
        xs.iter().cloned().fold(f64::MIN, f64::max) - xs.iter().cloned().fold(f64::MAX, f64::min);
    let x_labels = if whole && !panel.log_x && span <= 12.0 {
        span as usize + 1
    } else {
        10
    };
    // A light grid at the labelled values only: the fine grid hid the data.
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.12))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .x_labels(x_labels)
        .x_desc(&panel.x_label)
        .y_desc(&panel.y_label)
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .draw()
        .map_err(plot_err)?;
    for (i, s) in panel.series.iter().enumerate() {
        let color = COLORS[s.color.unwrap_or(i) % COLORS.len()];
        if s.style != Style::Points {
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(plot_err)?
                .label(&s.label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        }
        if s.style != Style::Line {
            let marks = chart
                .draw_series(s.points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(plot_err)?;
            if s.style == Style::Points {
                marks
                    .label(&s.label)
                    .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
            }
        }
    }
    chart
        .configure_series_labels()
        .label_font((FONT, 13))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        // A roofline's roof runs along the top left; its legend goes where no line is.
        .position(if panel.log_y {
            SeriesLabelPosition::LowerRight
        } else {
            SeriesLabelPosition::UpperLeft
        })
        .draw()
        .map_err(plot_err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_an_svg_with_the_labels() {
        let panel = Panel {
            title: "GFLOP/s".into(),
            x_label: "n".into(),
            y_label: "GFLOP/s".into(),
            log_x: true,
            log_y: false,
            x_ticks: vec![256.0, 512.0],
            series: vec![Series::sweep(
                "cpu f32",
                vec![(256.0, 100.0), (512.0, 150.0)],
            )],
        };
        let empty = Panel {
            series: vec![],
            ..panel.clone()
        };
        let svg = render_svg(&[panel, empty]).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("cpu f32"));
        assert!(svg.contains("no data"));
        assert!(!svg.contains("256.0"), "whole sizes without decimals");
    }

    #[test]
    fn ticks_are_round_and_labels_plain() {
        assert_eq!(ticks_125(3.0, 60.0), vec![5.0, 10.0, 20.0, 50.0]);
        assert_eq!(tick_label(2.0), "2");
        assert_eq!(tick_label(1024.0), "1024");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(2.5), "2.5");
    }
}

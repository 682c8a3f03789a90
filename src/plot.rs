//! SVG charts (plotters' SVG backend: no system libraries, text-based, diffable). One helper
//! draws stacked line charts; the bench and measure modules say what goes in them.

use std::path::Path;

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::error::{Error, Result};

/// One line on a chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// (x, y) points, in x order.
    pub points: Vec<(f64, f64)>,
}

/// One chart panel.
#[derive(Debug, Clone)]
pub struct Panel {
    /// Title.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// Logarithmic x axis (sizes double from point to point).
    pub log_x: bool,
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

fn plot_err(e: impl std::fmt::Display) -> Error {
    Error::Invalid(format!("drawing the plot failed: {e}"))
}

fn draw_panel<'a>(
    panel: &Panel,
    area: &DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
) -> Result<()> {
    let points = panel.series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0f64);
    for &(x, y) in points {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        // Nothing to draw: say so on the panel instead of failing.
        area.draw(&Text::new(
            format!("{}: no data", panel.title),
            (20, 20),
            ("sans-serif", 16),
        ))
        .map_err(plot_err)?;
        return Ok(());
    }
    if x0 == x1 {
        x0 *= 0.5;
        x1 *= 2.0;
    }
    let y1 = if y1 > 0.0 { y1 * 1.1 } else { 1.0 };
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(&panel.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60);
    if panel.log_x {
        let chart = builder
            .build_cartesian_2d((x0..x1).log_scale(), 0f64..y1)
            .map_err(plot_err)?;
        draw_lines(chart, panel)
    } else {
        let chart = builder
            .build_cartesian_2d(x0..x1, 0f64..y1)
            .map_err(plot_err)?;
        draw_lines(chart, panel)
    }
}

/// Mesh, lines, points and legend, for either kind of x axis.
fn draw_lines<'a, X>(
    mut chart: ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, RangedCoordf64>>,
    panel: &Panel,
) -> Result<()>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .x_desc(&panel.x_label)
        .y_desc(&panel.y_label)
        .draw()
        .map_err(plot_err)?;
    for (i, s) in panel.series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label(&s.label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        chart
            .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(plot_err)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
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
            series: vec![Series {
                label: "cpu f32".into(),
                points: vec![(256.0, 100.0), (512.0, 150.0)],
            }],
        };
        let empty = Panel {
            series: vec![],
            ..panel.clone()
        };
        let svg = render_svg(&[panel, empty]).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("cpu f32"));
        assert!(svg.contains("no data"));
    }
}

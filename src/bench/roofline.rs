//! The roofline (Williams, Waterman & Patterson 2009): a matmul point's attainable speed is the
//! lower of the device's compute ceiling (its peak FLOP/s for the dtype) and its memory ceiling
//! (arithmetic intensity × the measured bandwidth). Intensity is FLOPs per byte the product must
//! at least move: 2·m·k·n over (m·k + k·n + m·n) elements × the dtype's bytes. Below the ridge
//! point (peak ÷ bandwidth) a product is memory-bound and a faster ALU would not help; for a
//! square n×n×n product of s-byte elements the intensity is 2n / 3s, so the ridge is at
//! n = 1.5 · s · peak / bandwidth.

use candle_core::DType;
use serde::{Deserialize, Serialize};

use crate::bench::{bandwidth, BenchReport, PointStatus};
use crate::probe::device::DeviceSpec;

/// What sets the pace of a product or a step: the arithmetic, the bytes moved, or (for a step)
/// the fixed cost of launching it. Serialized as "compute", "memory", "overhead".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The arithmetic units.
    Compute,
    /// Memory traffic.
    Memory,
    /// A per-step floor (launches, Python, synchronisation).
    Overhead,
}

impl Bound {
    /// The serialized name.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Compute => "compute",
            Bound::Memory => "memory",
            Bound::Overhead => "overhead",
        }
    }
}

/// Lets a test or a reader compare with the serialized name (`bound == "memory"`).
impl PartialEq<&str> for Bound {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

/// One matmul point on its device's roofline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RooflineRow {
    /// Where the product ran.
    pub device: DeviceSpec,
    /// Its element type.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// The product.
    pub shape: crate::bench::MatmulShape,
    /// FLOPs per byte moved at least.
    pub intensity: f64,
    /// Measured GFLOP/s (median).
    pub gflops: f64,
    /// Compute ceiling, GFLOP/s.
    pub peak_gflops: f64,
    /// Memory ceiling at this intensity, GFLOP/s (intensity × measured GB/s).
    pub memory_gflops: f64,
    /// min(peak, memory ceiling).
    pub attainable_gflops: f64,
    /// Which ceiling binds (memory or compute).
    pub bound: Bound,
    /// gflops / attainable.
    pub fraction_of_roof: f64,
}

/// A device × dtype's two ceilings and its ridge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ceilings {
    /// Where the product ran.
    pub device: DeviceSpec,
    /// Its element type.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// Compute ceiling, GFLOP/s, and where it comes from.
    pub peak_gflops: f64,
    /// Its source (measured FMA loop, or the datasheet).
    pub peak_source: String,
    /// Memory ceiling, GB/s (measured).
    pub bandwidth_gbs: f64,
    /// Ridge intensity, FLOP/byte.
    pub ridge_intensity: f64,
    /// The square size where a product stops being memory-bound.
    pub ridge_n: f64,
}

/// FLOPs per byte a product must at least move.
pub fn intensity(shape: &crate::bench::MatmulShape, dtype: DType) -> f64 {
    let (m, k, n) = (shape.m as f64, shape.k as f64, shape.n as f64);
    2.0 * m * k * n / ((m * k + k * n + m * n) * dtype.size_in_bytes() as f64)
}

/// The ceilings of every device × dtype that has a peak and a measured bandwidth.
pub fn ceilings(report: &BenchReport) -> Vec<Ceilings> {
    let mut out: Vec<Ceilings> = Vec::new();
    for r in report
        .results
        .iter()
        .filter(|r| r.status == PointStatus::Ok)
    {
        if out
            .iter()
            .any(|c| c.device == r.device && c.dtype == r.dtype)
        {
            continue;
        }
        let (Some(peak), Some(bw)) = (
            r.peak.as_ref(),
            bandwidth::ceiling_gbs(&report.bandwidth, r.device),
        ) else {
            continue;
        };
        let ridge = peak.gflops / bw;
        out.push(Ceilings {
            device: r.device,
            dtype: r.dtype,
            peak_gflops: peak.gflops,
            peak_source: peak.source.clone(),
            bandwidth_gbs: bw,
            ridge_intensity: ridge,
            ridge_n: 1.5 * r.dtype.size_in_bytes() as f64 * ridge,
        });
    }
    out
}

/// Every measured point against its ceilings.
pub fn rows(report: &BenchReport) -> Vec<RooflineRow> {
    let ceilings = ceilings(report);
    report
        .results
        .iter()
        .filter(|r| r.status == PointStatus::Ok)
        .filter_map(|r| {
            let c = ceilings
                .iter()
                .find(|c| c.device == r.device && c.dtype == r.dtype)?;
            let gflops = r.gflops?;
            let i = intensity(&r.shape, r.dtype);
            let memory = i * c.bandwidth_gbs;
            let attainable = memory.min(c.peak_gflops);
            Some(RooflineRow {
                device: r.device,
                dtype: r.dtype,
                shape: r.shape,
                intensity: i,
                gflops,
                peak_gflops: c.peak_gflops,
                memory_gflops: memory,
                attainable_gflops: attainable,
                bound: if memory < c.peak_gflops {
                    Bound::Memory
                } else {
                    Bound::Compute
                },
                fraction_of_roof: gflops / attainable,
            })
        })
        .collect()
}

/// The roofline as a table: one row per point, and one line per device × dtype naming the ridge.
pub fn to_text(report: &BenchReport) -> String {
    use crate::table::Table;
    let rows = rows(report);
    if rows.is_empty() {
        return String::new();
    }
    let mut out = t!("roof-heading") + "\n";
    for c in ceilings(report) {
        out.push_str(&format!(
            "  {}\n",
            t!(
                "roof-ridge",
                device = c.device,
                dtype = crate::dtype::name(c.dtype),
                peak = format!("{:.0}", c.peak_gflops),
                source = c.peak_source,
                bandwidth = format!("{:.1}", c.bandwidth_gbs),
                ridge = format!("{:.1}", c.ridge_intensity),
                n = format!("{:.0}", c.ridge_n)
            )
        ));
    }
    let mut t = Table::titled(
        vec![
            t!("col-device"),
            t!("col-dtype"),
            t!("col-size"),
            t!("col-intensity"),
            t!("col-gflops"),
            t!("col-roof"),
            t!("col-bound"),
            t!("col-of-roof"),
        ],
        "llrrrrlr",
    );
    for r in &rows {
        t.push(vec![
            r.device.to_string(),
            crate::dtype::name(r.dtype).into(),
            r.shape.to_string(),
            format!("{:.1}", r.intensity),
            format!("{:.1}", r.gflops),
            format!("{:.1}", r.attainable_gflops),
            if r.bound == Bound::Memory {
                t!("roof-memory")
            } else {
                t!("roof-compute")
            },
            format!("{:.0}%", r.fraction_of_roof * 100.0),
        ]);
    }
    out.push_str(&t.to_text());
    out
}

/// The roofline plot: log-log, intensity against GFLOP/s; each device × dtype's roof as a line
/// (flat at the peak, sloped at the bandwidth) and its measured points in the same colour.
pub fn plot_panel(report: &BenchReport) -> Option<crate::plot::Panel> {
    let rows = rows(report);
    if rows.is_empty() {
        return None;
    }
    // The x range spans the points and every ridge, so the knee of each roof is in view.
    let all = ceilings(report);
    let lo = rows
        .iter()
        .map(|r| r.intensity)
        .chain(all.iter().map(|c| c.ridge_intensity))
        .fold(f64::MAX, f64::min)
        / 4.0;
    let hi = rows
        .iter()
        .map(|r| r.intensity)
        .chain(all.iter().map(|c| c.ridge_intensity))
        .fold(0f64, f64::max)
        * 4.0;
    let mut series = Vec::new();
    for (i, c) in all.into_iter().enumerate() {
        let label = format!("{} {}", c.device, crate::dtype::name(c.dtype));
        let mut roof = vec![(lo, (lo * c.bandwidth_gbs).min(c.peak_gflops))];
        if c.ridge_intensity > lo && c.ridge_intensity < hi {
            roof.push((c.ridge_intensity, c.peak_gflops));
        }
        roof.push((hi, (hi * c.bandwidth_gbs).min(c.peak_gflops)));
        series.push(crate::plot::Series {
            label: t!(
                "roof-series",
                label = label,
                bandwidth = format!("{:.0}", c.bandwidth_gbs),
                peak = format!("{:.0}", c.peak_gflops)
            ),
            points: roof,
            style: crate::plot::Style::Line,
            color: Some(i),
        });
        series.push(crate::plot::Series {
            label: t!("roof-series-measured", label = label),
            points: rows
                .iter()
                .filter(|r| r.device == c.device && r.dtype == c.dtype)
                .map(|r| (r.intensity, r.gflops))
                .collect(),
            style: crate::plot::Style::Points,
            color: Some(i),
        });
    }
    Some(crate::plot::Panel {
        title: t!("plot-roofline-title"),
        x_label: t!("plot-roofline-x"),
        y_label: t!("plot-roofline-y"),
        log_x: true,
        log_y: true,
        x_ticks: Vec::new(),
        series,
    })
}

/// Lab 02's roofline sentence for an n×n×n f32 product measured at `gflops` on this CPU: the
/// CPU's bandwidth and peak measured now (about 0.6 s), the product's intensity, which ceiling
/// binds, the share of the roof reached, and the size below which memory would set the pace.
pub fn explain_cpu(n: usize, gflops: f64) -> String {
    let threads = candle_core::utils::get_num_threads();
    let measured = bandwidth::measure_cpu(threads, std::time::Duration::from_millis(200));
    let bw = bandwidth::ceiling_gbs(&measured, DeviceSpec::Cpu).unwrap_or(10.0);
    let peak =
        crate::bench::peak::measure_cpu_peak(threads, std::time::Duration::from_millis(300)).gflops;
    let i = intensity(&crate::bench::MatmulShape::square(n), DType::F32);
    let memory = i * bw;
    let roof = memory.min(peak);
    t!(
        "roof-explain",
        bandwidth = format!("{bw:.1}"),
        peak = format!("{peak:.0}"),
        n = n,
        intensity = format!("{i:.0}"),
        memory = format!("{memory:.0}"),
        roof = format!("{roof:.0}"),
        bound = if memory < peak {
            t!("roof-explain-memory")
        } else {
            t!("roof-explain-compute")
        },
        share = format!("{:.0}", 100.0 * gflops / roof),
        ridge_n = format!("{:.0}", 1.5 * 4.0 * peak / bw)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::MatmulShape;

    #[test]
    fn square_intensity_and_ridge_follow_the_formulas() {
        let i = intensity(&MatmulShape::square(1024), DType::F32);
        assert!((i - 2.0 * 1024.0 / 12.0).abs() < 1e-9);
        // A bf16 product of 8192 on an H200 (989 TFLOP/s, 4800 GB/s): ridge at 206 FLOP/byte,
        // n ≈ 618 — everything in the default GPU sweep above 512 is compute-bound.
        let ridge: f64 = 989_000.0 / 4800.0;
        assert!((1.5 * 2.0 * ridge - 618.1).abs() < 0.5);
    }

    #[test]
    fn recorded_points_sit_under_their_roof() {
        // The bench of a report recorded on the project's CPU machine (peak measured), with a
        // bandwidth figure of the size measured there beside it.
        let path = format!(
            "{}/data/fixtures/report/cpu-2threads.json",
            env!("CARGO_MANIFEST_DIR")
        );
        // The report's bench section alone: the report stage comes after this one.
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut bench: crate::bench::BenchReport =
            serde_json::from_value(report["bench"].clone()).unwrap();
        assert!(rows(&bench).is_empty(), "no bandwidth, no roofline");
        bench
            .bandwidth
            .push(crate::bench::bandwidth::BandwidthResult {
                device: DeviceSpec::Cpu,
                transfer: crate::bench::bandwidth::Transfer::Triad,
                bytes: crate::units::Bytes(3 << 27),
                gbs: Some(25.0),
                gbs_best: Some(30.0),
                datasheet_gbs: None,
                fraction_of_datasheet: None,
                reason: None,
            });
        let rows = rows(&bench);
        assert_eq!(rows.len(), 4);
        for r in &rows {
            assert!(r.attainable_gflops <= r.peak_gflops);
            assert!(
                r.fraction_of_roof > 0.0 && r.fraction_of_roof <= 1.0,
                "{r:?}"
            );
            assert_eq!(
                r.bound, "compute",
                "f32 256-2048 on a CPU is past the ridge"
            );
        }
        let c = &ceilings(&bench)[0];
        assert!((c.ridge_intensity - c.peak_gflops / 25.0).abs() < 1e-9);
        let text = to_text(&bench);
        assert!(text.contains("memory-bound"), "{text}");
        assert!(plot_panel(&bench).is_some());
    }
}

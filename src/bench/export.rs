//! Bench outputs: the terminal and Markdown tables (one row builder for both), a raw CSV with
//! every number, and JSON (serde on [`BenchReport`]).

use std::fmt::Write as _;

use super::{BenchReport, PointResult, PointStatus};
use crate::table::Table;

fn ms(seconds: f64) -> String {
    let v = seconds * 1e3;
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

fn opt<T>(value: Option<T>, f: impl Fn(T) -> String) -> String {
    value.map(f).unwrap_or_else(|| "-".into())
}

/// The results as people read them (terminal and Markdown).
pub fn results_table(report: &BenchReport) -> Table {
    let mut t = Table::titled(
        vec![
            t!("col-device"),
            t!("col-dtype"),
            t!("col-size"),
            t!("col-median-ms"),
            t!("col-range-ms"),
            t!("col-iqr"),
            t!("col-outliers"),
            t!("col-gflops"),
            t!("col-peak-share"),
            t!("col-cold-ms"),
            t!("col-check"),
        ],
        "llrrrrrrrrl",
    );
    for r in &report.results {
        t.push(row(r));
    }
    t
}

fn row(r: &PointResult) -> Vec<String> {
    let status = match r.status {
        PointStatus::Ok => t!("bench-ok"),
        PointStatus::Skipped => t!("bench-skipped", reason = r.reason.as_deref().unwrap_or("")),
        PointStatus::Failed => t!("bench-failed", reason = r.reason.as_deref().unwrap_or("")),
    };
    let check = match (r.status, r.correctness) {
        (PointStatus::Ok, Some(c)) => {
            t!("bench-ok-error", error = format!("{:.0e}", c.max_rel_error))
        }
        _ => status,
    };
    vec![
        r.device.to_string(),
        crate::dtype::name(r.dtype).to_string(),
        r.shape.to_string(),
        opt(r.time, |t| ms(t.median)),
        opt(r.time, |t| format!("{}…{}", ms(t.min), ms(t.max))),
        opt(r.time, |t| format!("{:.1}%", t.relative_iqr() * 100.0)),
        opt(r.time, |t| t.outliers.to_string()),
        opt(r.gflops, |g| format!("{g:.1}")),
        opt(r.efficiency, |e| format!("{:.0}%", e * 100.0)),
        opt(r.cold_s, ms),
        check,
    ]
}

/// Speedups over the CPU.
pub fn speedup_table(report: &BenchReport) -> Table {
    let mut t = Table::titled(
        vec![
            t!("col-device"),
            t!("col-dtype"),
            t!("col-size"),
            t!("col-speedup"),
            t!("col-spread"),
        ],
        "llrrr",
    );
    for s in &report.speedups {
        t.push(vec![
            s.device.to_string(),
            crate::dtype::name(s.dtype).to_string(),
            s.shape.to_string(),
            format!("{:.1}×", s.ratio.median),
            format!("{:.1}×…{:.1}×", s.ratio.low, s.ratio.high),
        ]);
    }
    t
}

/// Every number, one row per point, for spreadsheets and plotting scripts.
pub fn to_csv(report: &BenchReport) -> String {
    let header = [
        "device",
        "device_name",
        "dtype",
        "m",
        "k",
        "n",
        "status",
        "reason",
        "threads",
        "input_sets",
        "runs",
        "median_s",
        "p25_s",
        "p75_s",
        "min_s",
        "max_s",
        "mean_s",
        "stddev_s",
        "outliers",
        "gflops",
        "gflops_best",
        "peak_gflops",
        "efficiency",
        "cold_s",
        "unsynced_s",
        "h2d_gbs",
        "d2h_gbs",
        "max_rel_error",
        "tolerance",
    ];
    let mut t = Table::new(&header, &[]);
    let num = |v: Option<f64>| v.map(|x| format!("{x:e}")).unwrap_or_default();
    for r in &report.results {
        let time = r.time;
        t.push(vec![
            r.device.to_string(),
            r.device_name.clone(),
            crate::dtype::name(r.dtype).to_string(),
            r.shape.m.to_string(),
            r.shape.k.to_string(),
            r.shape.n.to_string(),
            format!("{:?}", r.status).to_lowercase(),
            r.reason.clone().unwrap_or_default(),
            r.threads.map(|n| n.to_string()).unwrap_or_default(),
            r.input_sets.to_string(),
            time.map(|t| t.count.to_string()).unwrap_or_default(),
            num(time.map(|t| t.median)),
            num(time.map(|t| t.p25)),
            num(time.map(|t| t.p75)),
            num(time.map(|t| t.min)),
            num(time.map(|t| t.max)),
            num(time.map(|t| t.mean)),
            num(time.map(|t| t.stddev)),
            time.map(|t| t.outliers.to_string()).unwrap_or_default(),
            num(r.gflops),
            num(r.gflops_best),
            num(r.peak.as_ref().map(|p| p.gflops)),
            num(r.efficiency),
            num(r.cold_s),
            num(r.unsynced_s),
            num(r.h2d_gbs),
            num(r.d2h_gbs),
            num(r.correctness.map(|c| c.max_rel_error)),
            num(r.correctness.map(|c| c.tolerance)),
        ]);
    }
    t.to_csv()
}

/// A Markdown section: setup, results, speedups.
pub fn to_markdown(report: &BenchReport) -> String {
    let mut out = String::from("# gpulab bench\n\n");
    let _ = writeln!(out, "{}\n", setup_line(report));
    out.push_str(&results_table(report).to_markdown());
    if !report.speedups.is_empty() {
        let _ = write!(out, "\n## {}\n\n", t!("bench-md-speedup"));
        out.push_str(&speedup_table(report).to_markdown());
    }
    if !report.bandwidth.is_empty() {
        let _ = write!(out, "\n## {}\n\n", t!("bench-md-bandwidth"));
        out.push_str(&bandwidth_table(report).to_markdown());
        out.push_str(&host_copies_note(report));
    }
    let roof = crate::bench::roofline::to_text(report);
    if !roof.is_empty() {
        let _ = write!(out, "\n## {}\n\n```\n{roof}```\n", t!("bench-md-roofline"));
    }
    out
}

/// Says why no host↔device row is there when no CUDA device was measured.
fn host_copies_note(report: &BenchReport) -> String {
    let any_gpu = report
        .bandwidth
        .iter()
        .any(|b| b.device != crate::probe::device::DeviceSpec::Cpu);
    if any_gpu {
        String::new()
    } else {
        t!("bench-no-host-copies") + "\n"
    }
}

/// Bandwidth figures: device, what moved, GB/s median and best, datasheet and fraction.
pub fn bandwidth_table(report: &BenchReport) -> Table {
    let mut t = Table::titled(
        vec![
            t!("col-device"),
            t!("col-transfer"),
            "MiB".to_string(),
            "GB/s".to_string(),
            t!("col-best-gbs"),
            t!("col-datasheet"),
            t!("col-of-datasheet"),
            t!("col-note"),
        ],
        "llrrrrrl",
    );
    for b in &report.bandwidth {
        let f = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.1}"));
        t.push(vec![
            b.device.to_string(),
            b.transfer.label(),
            format!("{:.0}", b.bytes.0 as f64 / 1048576.0),
            f(b.gbs),
            f(b.gbs_best),
            f(b.datasheet_gbs),
            b.fraction_of_datasheet
                .map_or("-".into(), |x| format!("{:.0}%", x * 100.0)),
            b.reason.clone().unwrap_or_default(),
        ]);
    }
    t
}

fn setup_line(report: &BenchReport) -> String {
    t!(
        "bench-setup",
        cpu = report.cpu_model,
        simd = report.cpu_simd,
        threads = report.cpu_threads,
        peak = report
            .cpu_peak
            .as_ref()
            .map(|p| {
                t!(
                    "bench-setup-peak",
                    gflops = format!("{:.0}", p.gflops),
                    source = p.source
                )
            })
            .unwrap_or_default(),
        kernel = match report.cpu_kernel {
            Some(kernel) if kernel.is_gpulab() => t!("bench-setup-kernel", kernel = kernel.name()),
            _ => String::new(),
        },
        candle = report.header.candle_version.as_deref().unwrap_or("?")
    )
}

/// The terminal summary, with the naive-vs-proper comparison when asked for.
pub fn to_text(report: &BenchReport, naive: bool) -> String {
    let mut out = format!("{}\n\n", setup_line(report));
    out.push_str(&results_table(report).to_text());
    if !report.speedups.is_empty() {
        out.push('\n');
        out.push_str(&speedup_table(report).to_text());
    }
    if !report.bandwidth.is_empty() {
        let _ = writeln!(out, "\n{}", t!("bench-bandwidth-heading"));
        out.push_str(&bandwidth_table(report).to_text());
        out.push_str(&host_copies_note(report));
    }
    let roof = crate::bench::roofline::to_text(report);
    if !roof.is_empty() {
        out.push('\n');
        out.push_str(&roof);
    }
    let outliers: usize = report
        .results
        .iter()
        .filter_map(|r| r.time.map(|t| t.outliers))
        .sum();
    if outliers > 0 {
        let _ = writeln!(out, "\n{}", t!("bench-outliers", count = outliers));
    }
    if naive {
        let _ = writeln!(out, "\n{}", t!("bench-naive-heading"));
        for r in report
            .results
            .iter()
            .filter(|r| r.status == PointStatus::Ok)
        {
            if let (Some(cold), Some(t)) = (r.cold_s, r.time) {
                let _ = write!(
                    out,
                    "  {}",
                    t!(
                        "bench-naive-line",
                        point = format!("{} {} {}", r.device, crate::dtype::name(r.dtype), r.shape),
                        cold = ms(cold),
                        median = ms(t.median),
                        ratio = format!("{:.1}", cold / t.median)
                    )
                );
                if let Some(u) = r.unsynced_s {
                    let _ = write!(out, "{}", t!("bench-naive-unsynced", time = ms(u)));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// Two panels: GFLOP/s against size for each device and dtype, and the speedup over the CPU.
pub fn plot_panels(report: &BenchReport) -> Vec<crate::plot::Panel> {
    use crate::plot::{Panel, Series};
    let mut lines: Vec<Series> = Vec::new();
    for r in report
        .results
        .iter()
        .filter(|r| r.status == PointStatus::Ok)
    {
        let label = format!("{} {}", r.device, crate::dtype::name(r.dtype));
        let x = (r.shape.m as f64 * r.shape.k as f64 * r.shape.n as f64).cbrt();
        let point = (x, r.gflops.unwrap_or(0.0));
        match lines.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.push(point),
            None => lines.push(Series::sweep(label, vec![point])),
        }
    }
    let mut speed: Vec<Series> = Vec::new();
    for s in &report.speedups {
        let label = t!(
            "plot-speedup-series",
            device = s.device,
            dtype = crate::dtype::name(s.dtype)
        );
        let x = (s.shape.m as f64 * s.shape.k as f64 * s.shape.n as f64).cbrt();
        match speed.iter_mut().find(|l| l.label == label) {
            Some(l) => l.points.push((x, s.ratio.median)),
            None => speed.push(Series::sweep(label, vec![(x, s.ratio.median)])),
        }
    }
    for series in lines.iter_mut().chain(speed.iter_mut()) {
        series.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    // Label the sizes measured, nothing else.
    let mut sizes: Vec<f64> = lines
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    let mut panels = vec![Panel {
        title: t!("plot-throughput-title"),
        x_label: t!("plot-size-axis"),
        y_label: "GFLOP/s".into(),
        log_x: true,
        log_y: false,
        x_ticks: sizes.clone(),
        series: lines,
    }];
    // No GPU measured: no speedup panel (the text says why there is none), not an empty one.
    if !speed.is_empty() {
        panels.push(Panel {
            title: t!("plot-speedup-title"),
            x_label: t!("plot-size-axis-short"),
            y_label: t!("plot-speedup-axis"),
            log_x: true,
            log_y: false,
            x_ticks: sizes,
            series: speed,
        });
    }
    panels.extend(crate::bench::roofline::plot_panel(report));
    panels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::peak::Peak;
    use crate::bench::{Correctness, MatmulShape, PointResult, PointStatus, Speedup};
    use crate::stats::{Ratio, Summary};
    use crate::units::Bytes;

    /// A fixed report: the numbers are made up for the snapshot, not measurements.
    fn fixed() -> BenchReport {
        let time = Summary::of(&[0.010, 0.011, 0.012, 0.0105]).unwrap();
        let point = |device: &str, t: Summary| PointResult {
            device: crate::probe::device::DeviceSpec::parse(device).unwrap(),
            device_name: "X".into(),
            dtype: candle_core::DType::F32,
            shape: MatmulShape::square(1024),
            status: PointStatus::Ok,
            reason: None,
            threads: Some(2),
            kernel: None,
            input_sets: 4,
            bytes_needed: Bytes(12 << 20),
            cold_s: Some(0.05),
            unsynced_s: None,
            time: Some(t),
            gflops: Some(2.0 * 1024f64.powi(3) / t.median / 1e9),
            gflops_best: Some(2.0 * 1024f64.powi(3) / t.min / 1e9),
            peak: Some(Peak {
                gflops: 250.0,
                source: "measured".into(),
            }),
            efficiency: Some(0.8),
            h2d_gbs: None,
            d2h_gbs: None,
            correctness: Some(Correctness {
                samples: 64,
                max_rel_error: 1e-7,
                tolerance: 1e-4,
            }),
        };
        BenchReport {
            header: crate::files::Header {
                schema: "gpulab.bench".into(),
                schema_version: 1,
                gpulab_version: "0.1.0".into(),
                candle_version: Some("0.11.1".into()),
                created_unix_s: 0,
            },
            cpu_model: "Test CPU".into(),
            cpu_simd: "AVX2+FMA".into(),
            cpu_threads: 2,
            cpu_kernel: Some(crate::bench::sgemm::CpuKernel::GpulabAvx2),
            cpu_peak: None,
            results: vec![point("cpu", time)],
            bandwidth: vec![],
            elementwise_gbs: None,
            speedups: vec![Speedup {
                device: crate::probe::device::DeviceSpec::Cuda(0),
                dtype: candle_core::DType::F32,
                shape: MatmulShape::square(1024),
                ratio: Ratio {
                    median: 40.0,
                    low: 35.5,
                    high: 44.25,
                },
            }],
        }
    }

    #[test]
    fn markdown_snapshot() {
        let md = to_markdown(&fixed());
        assert_eq!(
            md,
            "# gpulab bench\n\n\
             CPU: Test CPU (AVX2+FMA, 2 matmul threads, f32 on the gpulab-avx2 kernel (src/bench/sgemm.rs; --cpu-kernel candle for Candle's)); candle 0.11.1. Times are medians of synchronized calls after warm-up on random inputs; `cold` is the first call alone.\n\n\
             | device | dtype | size | median ms | min…max ms | ±IQR | outl. | GFLOP/s | % peak | cold ms | check |\n\
             |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n\
             | cpu | f32 | 1024 | 10.75 | 10.00…12.00 | 8.1% | 0 | 199.8 | 80% | 50.00 | ok (1e-7) |\n\
             \n## Speedup over the CPU\n\n\
             | device | dtype | size | speedup vs cpu | spread (IQR) |\n\
             |---|---|---:|---:|---:|\n\
             | cuda:0 | f32 | 1024 | 40.0× | 35.5×…44.2× |\n"
        );
    }

    #[test]
    fn csv_snapshot() {
        let csv = to_csv(&fixed());
        let mut lines = csv.lines();
        assert_eq!(
            lines.next().unwrap(),
            "device,device_name,dtype,m,k,n,status,reason,threads,input_sets,runs,median_s,p25_s,p75_s,min_s,max_s,mean_s,stddev_s,outliers,gflops,gflops_best,peak_gflops,efficiency,cold_s,unsynced_s,h2d_gbs,d2h_gbs,max_rel_error,tolerance"
        );
        assert_eq!(
            lines.next().unwrap(),
            "cpu,X,f32,1024,1024,1024,ok,,2,4,4,1.075e-2,1.0375e-2,1.125e-2,1e-2,1.2e-2,1.0875e-2,8.539125638299664e-4,0,1.9976592074418608e2,2.147483648e2,2.5e2,8e-1,5e-2,,,,1e-7,1e-4"
        );
        assert!(lines.next().is_none());
    }

    #[test]
    fn json_round_trips() {
        let report = fixed();
        let json = serde_json::to_string(&report).unwrap();
        let back: BenchReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back, report);
    }
}

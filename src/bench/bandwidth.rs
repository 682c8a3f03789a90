//! Memory bandwidth, measured: why GPUs are fast is as much bytes per second as FLOPs.
//!
//! - On the CPU: a large copy and a STREAM-style triad (`a = b + s·c`) over arrays far larger
//!   than any cache, split over the matmul threads; bytes counted as STREAM counts them (copy
//!   2 × N × 4, triad 3 × N × 4: what the loop must read and write, not the cache's extra
//!   write-allocate traffic).
//! - On a CUDA device: a device-to-device copy (`Tensor::copy`) and a triad made of Candle's own
//!   kernels (`c·s` then `+ b`: two kernels, 5 × N × 4 bytes moved, counted as such), and the
//!   host↔device copies CUDA's `bandwidthTest` reports: pageable and pinned, both directions
//!   (pinned host memory through cudarc, in `probe/cuda.rs`).
//!
//! Each figure is the median of repeated calls after a warm-up (and the best call beside it), in
//! GB/s (10⁹ bytes/s, as datasheets count), with the datasheet figure and the fraction reached
//! where a datasheet exists (`data/gpus.toml`; a CPU model has none: DRAM channels and DIMMs
//! vary by machine).

use std::time::{Duration, Instant};

use candle_core::{DType, Device, Tensor};
use serde::{Deserialize, Serialize};

use crate::probe::device::DeviceSpec;
use crate::units::Bytes;

/// What was moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transfer {
    /// Copy one array into another in the device's own memory.
    Copy,
    /// a = b + s·c in the device's own memory.
    Triad,
    /// Host (pageable memory) → device.
    HostToDevicePageable,
    /// Host (pinned memory) → device.
    HostToDevicePinned,
    /// Device → host (pageable memory).
    DeviceToHostPageable,
    /// Device → host (pinned memory).
    DeviceToHostPinned,
}

impl Transfer {
    /// The probe's host↔device copy as bench names it.
    pub fn of(copy: crate::probe::cuda_facts::HostCopy) -> Transfer {
        use crate::probe::cuda_facts::HostCopy::*;
        match copy {
            ToDevicePageable => Transfer::HostToDevicePageable,
            FromDevicePageable => Transfer::DeviceToHostPageable,
            ToDevicePinned => Transfer::HostToDevicePinned,
            FromDevicePinned => Transfer::DeviceToHostPinned,
        }
    }

    /// Name as a person reads it.
    pub fn label(self) -> String {
        match self {
            Transfer::Copy => t!("transfer-copy"),
            Transfer::Triad => t!("transfer-triad"),
            Transfer::HostToDevicePageable => t!("transfer-h2d-pageable"),
            Transfer::HostToDevicePinned => t!("transfer-h2d-pinned"),
            Transfer::DeviceToHostPageable => t!("transfer-d2h-pageable"),
            Transfer::DeviceToHostPinned => t!("transfer-d2h-pinned"),
        }
    }

    /// Copies within one memory (what a roofline's memory ceiling is).
    pub fn is_local(self) -> bool {
        matches!(self, Transfer::Copy | Transfer::Triad)
    }
}

/// One bandwidth figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BandwidthResult {
    /// "cpu" or "cuda:N".
    pub device: DeviceSpec,
    /// What was moved.
    pub transfer: Transfer,
    /// Bytes one call moves (as counted above).
    pub bytes: Bytes,
    /// GB/s at the median call; None when not measured (`reason` says why).
    pub gbs: Option<f64>,
    /// GB/s at the fastest call.
    pub gbs_best: Option<f64>,
    /// The datasheet's memory bandwidth, GB/s, where there is one (local transfers only).
    pub datasheet_gbs: Option<f64>,
    /// gbs / datasheet_gbs.
    pub fraction_of_datasheet: Option<f64>,
    /// Why there is no figure.
    pub reason: Option<String>,
}

impl BandwidthResult {
    fn measured(
        device: DeviceSpec,
        transfer: Transfer,
        bytes: u64,
        times: &[f64],
        datasheet_gbs: Option<f64>,
    ) -> BandwidthResult {
        let mut sorted = times.to_vec();
        sorted.sort_by(f64::total_cmp);
        let rate = |t: f64| (t > 0.0).then(|| bytes as f64 / t / 1e9);
        let gbs = sorted.get(sorted.len() / 2).copied().and_then(rate);
        let datasheet_gbs = datasheet_gbs.filter(|_| transfer.is_local());
        BandwidthResult {
            device,
            transfer,
            bytes: Bytes(bytes),
            gbs,
            gbs_best: sorted.first().copied().and_then(rate),
            fraction_of_datasheet: gbs.zip(datasheet_gbs).map(|(g, d)| g / d),
            datasheet_gbs,
            reason: None,
        }
    }

    /// A figure that could not be measured, and why.
    pub fn not_measured(device: DeviceSpec, transfer: Transfer, reason: String) -> BandwidthResult {
        BandwidthResult {
            device,
            transfer,
            bytes: Bytes(0),
            gbs: None,
            gbs_best: None,
            datasheet_gbs: None,
            fraction_of_datasheet: None,
            reason: Some(reason),
        }
    }
}

/// Times `call` after one warm-up call, at least `min_runs` times and until `budget` has passed
/// (at most 200 calls): seconds per call.
pub(crate) fn time_calls(
    budget: Duration,
    min_runs: usize,
    mut call: impl FnMut() -> candle_core::Result<()>,
) -> candle_core::Result<Vec<f64>> {
    call()?;
    let started = Instant::now();
    let mut times = Vec::new();
    while times.len() < min_runs || (started.elapsed() < budget && times.len() < 200) {
        let t = Instant::now();
        call()?;
        times.push(t.elapsed().as_secs_f64());
    }
    Ok(times)
}

/// Array length for the CPU: 32 Mi floats (128 MiB) per array, far past any L3 (the largest
/// are 1 GiB on EPYC 9684X, where the figure would still read DRAM mostly), fewer when RAM is
/// short: the triad needs three arrays.
fn cpu_len() -> usize {
    let want = 32 << 20;
    let free = crate::probe::host::available_ram().0 as usize / 4;
    want.min(free / 8).max(1 << 20)
}

/// The CPU's copy and triad bandwidth on `threads` threads for about `budget` each.
pub fn measure_cpu(threads: usize, budget: Duration) -> Vec<BandwidthResult> {
    let threads = threads.max(1);
    let n = cpu_len();
    let b: Vec<f32> = (0..n).map(|i| (i % 1024) as f32).collect();
    let c: Vec<f32> = (0..n).map(|i| (i % 512) as f32).collect();
    let mut a = vec![0f32; n];
    let chunk = n.div_ceil(threads);
    let copy = |a: &mut [f32]| {
        std::thread::scope(|s| {
            for (dst, src) in a.chunks_mut(chunk).zip(b.chunks(chunk)) {
                s.spawn(move || dst.copy_from_slice(src));
            }
        });
    };
    let triad = |a: &mut [f32]| {
        std::thread::scope(|s| {
            for ((dst, x), y) in a
                .chunks_mut(chunk)
                .zip(b.chunks(chunk))
                .zip(c.chunks(chunk))
            {
                s.spawn(move || {
                    for ((d, x), y) in dst.iter_mut().zip(x).zip(y) {
                        *d = x + 3.0 * y;
                    }
                });
            }
        });
    };
    // STREAM's counting: a copy reads one array and writes one, the triad reads two.
    let bytes = (n * 4) as u64;
    [(Transfer::Copy, 2), (Transfer::Triad, 3)]
        .into_iter()
        .map(|(transfer, arrays)| {
            let times = time_calls(budget, 5, || {
                match transfer {
                    Transfer::Copy => copy(&mut a),
                    _ => triad(&mut a),
                }
                Ok(())
            })
            .unwrap_or_default();
            std::hint::black_box(&a);
            BandwidthResult::measured(DeviceSpec::Cpu, transfer, arrays * bytes, &times, None)
        })
        .collect()
}

/// Copy and triad in a CUDA device's own memory through Candle's kernels, and host↔device copies
/// pageable and pinned. `datasheet_gbs` from the catalogue when the GPU is known.
pub fn measure_device(
    spec: DeviceSpec,
    dev: &Device,
    datasheet_gbs: Option<f64>,
    budget: Duration,
) -> Vec<BandwidthResult> {
    // 256 MiB per array: far beyond any GPU's L2 (an H200's is 60 MiB), and three arrays fit
    // every GPU a learner meets.
    let n = 64usize << 20;
    let bytes = (n * 4) as u64;
    let mut results = Vec::new();
    let local = (|| -> candle_core::Result<Vec<BandwidthResult>> {
        let b = Tensor::ones(n, DType::F32, dev)?;
        let c = Tensor::ones(n, DType::F32, dev)?;
        let copy = time_calls(budget, 5, || {
            let a = b.copy()?;
            dev.synchronize()?;
            drop(a);
            Ok(())
        })?;
        let triad = time_calls(budget, 5, || {
            let a = c.affine(3.0, 0.0)?.add(&b)?;
            dev.synchronize()?;
            drop(a);
            Ok(())
        })?;
        Ok(vec![
            BandwidthResult::measured(spec, Transfer::Copy, 2 * bytes, &copy, datasheet_gbs),
            // Two kernels: c·s reads c and writes a temporary, + b reads both and writes a.
            BandwidthResult::measured(spec, Transfer::Triad, 5 * bytes, &triad, datasheet_gbs),
        ])
    })();
    match local {
        Ok(r) => results.extend(r),
        Err(e) => {
            for t in [Transfer::Copy, Transfer::Triad] {
                results.push(BandwidthResult::not_measured(spec, t, first_line(&e)));
            }
        }
    }
    // 64 MiB host↔device, as bandwidthTest's default range ends in this region.
    let mut time = |call: &mut dyn FnMut() -> candle_core::Result<()>| time_calls(budget, 5, call);
    match crate::probe::cuda::host_copies(dev, 16 << 20, &mut time) {
        Ok(copies) => {
            for (copy, bytes, times) in copies {
                results.push(BandwidthResult::measured(
                    spec,
                    Transfer::of(copy),
                    bytes,
                    &times,
                    None,
                ));
            }
        }
        Err(e) => {
            for t in [
                Transfer::HostToDevicePageable,
                Transfer::HostToDevicePinned,
                Transfer::DeviceToHostPageable,
                Transfer::DeviceToHostPinned,
            ] {
                results.push(BandwidthResult::not_measured(spec, t, first_line(&e)));
            }
        }
    }
    results
}

fn first_line(e: &dyn std::fmt::Display) -> String {
    e.to_string().lines().next().unwrap_or("").to_string()
}

/// What an element-wise kernel of the framework reaches on `dev`: Candle's `affine` (y = a·x + b:
/// read 4 bytes, write 4) over 4 Mi floats, output allocated each call as a framework's
/// activations are, GB/s (median). 16 MiB is the size of one activation tensor of the course's
/// small models (e.g. 16 × 128 tokens × 4·128 wide); much larger tensors pay page faults on
/// every fresh allocation on a CPU and read slower still.
pub fn measure_elementwise(dev: &Device, budget: Duration) -> Option<f64> {
    let n = 4usize << 20;
    let x = Tensor::ones(n, DType::F32, dev).ok()?;
    let times = time_calls(budget, 5, || {
        let y = x.affine(1.5, 0.5)?;
        dev.synchronize()?;
        drop(y);
        Ok(())
    })
    .ok()?;
    let mut sorted = times;
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    (median > 0.0).then(|| (8 * n) as f64 / median / 1e9)
}

/// The memory ceiling of a device for the roofline: its best local bandwidth measured (copy or
/// triad, the median), GB/s.
pub fn ceiling_gbs(results: &[BandwidthResult], device: DeviceSpec) -> Option<f64> {
    results
        .iter()
        .filter(|r| r.device == device && r.transfer.is_local())
        .filter_map(|r| r.gbs)
        .reduce(f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_bandwidth_is_measured_and_plausible() {
        let r = measure_cpu(2, Duration::from_millis(100));
        assert_eq!(r.len(), 2);
        for x in &r {
            let gbs = x.gbs.expect("measured");
            // Any machine that runs the tests moves between 0.5 and 2000 GB/s.
            assert!((0.5..2000.0).contains(&gbs), "{x:?}");
            assert!(x.gbs_best.unwrap() >= gbs);
            assert_eq!(x.datasheet_gbs, None, "a CPU has no datasheet figure");
        }
        assert_eq!(
            ceiling_gbs(&r, DeviceSpec::Cpu),
            r.iter().filter_map(|x| x.gbs).reduce(f64::max)
        );
    }

    #[test]
    fn figures_follow_the_median_and_the_datasheet() {
        let r = BandwidthResult::measured(
            DeviceSpec::Cuda(0),
            Transfer::Copy,
            4_000_000_000,
            &[2.0, 1.0, 4.0],
            Some(4.0),
        );
        assert_eq!(r.gbs, Some(2.0));
        assert_eq!(r.gbs_best, Some(4.0));
        assert_eq!(r.fraction_of_datasheet, Some(0.5));
        let h2d = BandwidthResult::measured(
            DeviceSpec::Cuda(0),
            Transfer::HostToDevicePinned,
            1_000_000_000,
            &[1.0],
            Some(4.0),
        );
        assert_eq!(
            h2d.datasheet_gbs, None,
            "PCIe copies are not the HBM's figure"
        );
    }
}

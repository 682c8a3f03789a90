//! Every cudarc call gpulab makes, in one file, compiled only with the `cuda` feature. A CPU
//! build compiles `cuda_stub.rs` in its place, with the same functions answering "none" (the
//! switch is in `probe.rs`, candle's `dummy_cuda_backend.rs` pattern), so no other module needs
//! a `cfg`.
//!
//! What is read here: the device count and the driver's CUDA version (driver API), each device's
//! name, UUID, PCI bus id, compute capability and free/total memory (through the `CudaContext`
//! Candle opened), the default memory pool's used-bytes counters for `measure`, and timed
//! host↔device copies from pageable and pinned host memory for `bench` (Candle has no pinned
//! host memory of its own).
#![allow(unsafe_code)]

use std::sync::Arc;

use candle_core::cuda_backend::cudarc::driver::{result, sys, CudaContext, CudaStream};
use candle_core::Device;

use crate::error::Result;
use crate::probe::cuda_facts::{format_uuid, CudaProblem};
use crate::probe::nvidia_smi::ComputeCap;
use crate::units::Bytes;

/// Was this binary built with the `cuda` feature?
pub const COMPILED: bool = true;

/// How many CUDA devices the driver API counts, or why it could not count them.
pub fn device_count() -> std::result::Result<usize, CudaProblem> {
    CudaContext::device_count()
        .map(|n| n.max(0) as usize)
        .map_err(|err| CudaProblem::from_error(&err))
}

/// The highest CUDA version the installed driver supports (`cuDriverGetVersion`, e.g. 12040).
pub fn driver_version() -> Option<i32> {
    let mut version: std::ffi::c_int = 0;
    // SAFETY: cuDriverGetVersion writes one int through a valid pointer and needs no
    // initialised context; device_count() has already called cuInit.
    let result = unsafe { sys::cuDriverGetVersion(&mut version) };
    (result == sys::CUresult::CUDA_SUCCESS).then_some(version)
}

fn context(device: &Device) -> Option<Arc<CudaContext>> {
    device
        .as_cuda_device()
        .ok()
        .map(|cuda| cuda.cuda_stream().context().clone())
}

/// The GPU's product name (None for the CPU).
pub fn device_name(device: &Device) -> Option<String> {
    context(device)?.name().ok()
}

/// Compute capability (None for the CPU).
pub fn compute_cap(device: &Device) -> Option<ComputeCap> {
    context(device)?
        .compute_capability()
        .ok()
        .map(|(major, minor)| ComputeCap {
            major: major as u32,
            minor: minor as u32,
        })
}

/// (free, total) device memory as CUDA reports it (None for the CPU).
pub fn memory_info(device: &Device) -> Option<(Bytes, Bytes)> {
    context(device)?
        .mem_get_info()
        .ok()
        .map(|(free, total)| (Bytes(free as u64), Bytes(total as u64)))
}

/// `GPU-…` UUID in nvidia-smi's spelling (the key that lines the device up with its row).
pub fn uuid(device: &Device) -> Option<String> {
    context(device)?.uuid().ok().map(|u| {
        let bytes: [u8; 16] = u.bytes.map(|b| b as u8);
        format_uuid(&bytes)
    })
}

/// PCI bus id in nvidia-smi's spelling (`00000000:01:00.0`).
pub fn pci_bus_id(device: &Device) -> Option<String> {
    use sys::CUdevice_attribute as A;
    let ctx = context(device)?;
    let attr = |a| ctx.attribute(a).ok();
    let (domain, bus, dev) = (
        attr(A::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)?,
        attr(A::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
        attr(A::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)?,
    );
    Some(format!("{domain:08X}:{bus:02X}:{dev:02X}.0"))
}

/// Reads the CUDA default memory pool's counters: cudarc allocates with cuMemAllocAsync from
/// that pool when the device supports it, so USED_MEM_CURRENT is the bytes of live tensors and
/// USED_MEM_HIGH its high-water mark, resettable (data/docs/memory.md, "Reading CUDA memory").
pub struct PoolMeter {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    pool: sys::CUmemoryPool,
}

impl PoolMeter {
    /// The meter of `device`'s default pool; an error when the device has none.
    pub fn new(device: &Device) -> Result<PoolMeter> {
        let cuda = device.as_cuda_device()?;
        let stream = cuda.cuda_stream();
        let ctx = stream.context().clone();
        if !ctx.has_async_alloc() {
            return Err(crate::bad!("cuda-no-pool"));
        }
        ctx.bind_to_thread().map_err(candle_core::Error::wrap)?;
        // SAFETY: the device handle comes from a live context.
        let pool = unsafe { result::device::get_default_mem_pool(ctx.cu_device()) }
            .map_err(candle_core::Error::wrap)?;
        Ok(PoolMeter { ctx, stream, pool })
    }

    fn attr(&self, attr: sys::CUmemPool_attribute) -> u64 {
        let _ = self.stream.synchronize();
        let mut value: u64 = 0;
        // SAFETY: the pool is the device's default pool, and these attributes are cuuint64_t.
        let ok = unsafe {
            result::mem_pool::get_attribute(self.pool, attr, &mut value as *mut u64 as *mut _)
        };
        if ok.is_ok() {
            value
        } else {
            0
        }
    }

    /// Bytes of live allocations in the pool.
    pub fn current(&self) -> u64 {
        self.attr(sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT)
    }

    /// High-water mark since the last reset.
    pub fn peak(&self) -> u64 {
        self.attr(sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_HIGH)
    }

    /// Resets the high-water mark to the current level.
    pub fn reset_peak(&self) {
        let _ = self.stream.synchronize();
        let mut zero: u64 = 0;
        // SAFETY: as above; setting USED_MEM_HIGH to 0 resets it to the current level.
        let _ = unsafe {
            result::mem_pool::set_attribute(
                self.pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_HIGH,
                &mut zero as *mut u64 as *mut _,
            )
        };
    }

    /// Device memory in use by anyone (context, libraries, other processes).
    pub fn device_used(&self) -> Bytes {
        match self.ctx.mem_get_info() {
            Ok((free, total)) => Bytes((total - free) as u64),
            Err(_) => Bytes(0),
        }
    }
}

/// Host↔device copies of `floats` f32 values, pageable and pinned, both directions, each timed
/// call by call (synchronised) by `time`: (what, bytes per call, seconds per call).
pub fn host_copies(
    device: &Device,
    floats: usize,
    time: &mut crate::probe::cuda_facts::Timer,
) -> Result<Vec<(crate::probe::cuda_facts::HostCopy, u64, Vec<f64>)>> {
    use crate::probe::cuda_facts::HostCopy;
    let stream = device.as_cuda_device()?.cuda_stream();
    let ctx = stream.context().clone();
    let wrap = candle_core::Error::wrap;
    let mut on_device = stream.alloc_zeros::<f32>(floats).map_err(wrap)?;
    let mut pageable = vec![1f32; floats];
    // SAFETY: the pinned buffer is filled below before any copy reads it. Flags 0: plain
    // page-locked memory, as bandwidthTest allocates it (write-combined memory is slow for the
    // CPU to read back).
    let mut pinned = unsafe { ctx.alloc_pinned_with_flags::<f32>(floats, 0) }.map_err(wrap)?;
    pinned.as_mut_slice().map_err(wrap)?.fill(1.0);
    let bytes = (floats * 4) as u64;
    let mut out = Vec::new();
    let h2d_pageable = time(&mut || {
        stream
            .memcpy_htod(&pageable, &mut on_device)
            .map_err(wrap)?;
        stream.synchronize().map_err(wrap)
    })?;
    out.push((HostCopy::ToDevicePageable, bytes, h2d_pageable));
    let d2h_pageable = time(&mut || {
        stream
            .memcpy_dtoh(&on_device, &mut pageable)
            .map_err(wrap)?;
        stream.synchronize().map_err(wrap)
    })?;
    out.push((HostCopy::FromDevicePageable, bytes, d2h_pageable));
    let h2d_pinned = time(&mut || {
        stream.memcpy_htod(&pinned, &mut on_device).map_err(wrap)?;
        stream.synchronize().map_err(wrap)
    })?;
    out.push((HostCopy::ToDevicePinned, bytes, h2d_pinned));
    let d2h_pinned = time(&mut || {
        stream.memcpy_dtoh(&on_device, &mut pinned).map_err(wrap)?;
        stream.synchronize().map_err(wrap)
    })?;
    out.push((HostCopy::FromDevicePinned, bytes, d2h_pinned));
    Ok(out)
}

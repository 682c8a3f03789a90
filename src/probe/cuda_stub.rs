//! The CPU build's stand-in for `cuda.rs`: the same functions, answering "no CUDA here". The
//! device count asks Candle for real (`Device::new_cuda(0)`), so the reason a learner reads is
//! Candle's own refusal, not ours.

use candle_core::Device;

use crate::error::Result;
use crate::probe::cuda_facts::CudaProblem;
use crate::probe::nvidia_smi::ComputeCap;
use crate::units::Bytes;

/// Was this binary built with the `cuda` feature?
pub const COMPILED: bool = false;

/// Always an error on a CPU build: Candle's own refusal to open `cuda:0`.
pub fn device_count() -> std::result::Result<usize, CudaProblem> {
    match Device::new_cuda(0) {
        Err(err) => Err(CudaProblem::from_error(&err)),
        Ok(_) => Ok(0),
    }
}

/// None: no driver API in a CPU build.
pub fn driver_version() -> Option<i32> {
    None
}

/// None: only CUDA devices have a product name here.
pub fn device_name(_device: &Device) -> Option<String> {
    None
}

/// None: only CUDA devices have a compute capability.
pub fn compute_cap(_device: &Device) -> Option<ComputeCap> {
    None
}

/// None: only CUDA devices report device memory.
pub fn memory_info(_device: &Device) -> Option<(Bytes, Bytes)> {
    None
}

/// None: only CUDA devices have a UUID.
pub fn uuid(_device: &Device) -> Option<String> {
    None
}

/// None: only CUDA devices have a PCI bus id here.
pub fn pci_bus_id(_device: &Device) -> Option<String> {
    None
}

/// No memory pool without CUDA: this type has no values, so code that holds one is never run.
pub enum PoolMeter {}

impl PoolMeter {
    /// Always an error: this binary has no CUDA.
    pub fn new(_device: &Device) -> Result<PoolMeter> {
        Err(crate::error::Error::NotCompiledWithCuda)
    }

    /// Never called (no value exists).
    pub fn current(&self) -> u64 {
        match *self {}
    }

    /// Never called (no value exists).
    pub fn peak(&self) -> u64 {
        match *self {}
    }

    /// Never called (no value exists).
    pub fn reset_peak(&self) {
        match *self {}
    }

    /// Never called (no value exists).
    pub fn device_used(&self) -> Bytes {
        match *self {}
    }
}

/// Always an error: host↔device copies need CUDA.
pub fn host_copies(
    _device: &Device,
    _floats: usize,
    _time: &mut crate::probe::cuda_facts::Timer,
) -> Result<Vec<(crate::probe::cuda_facts::HostCopy, u64, Vec<f64>)>> {
    Err(crate::bad!("cuda-no-host-copies"))
}

//! What the machine is: the host ([`host`]), the driver's view ([`nvidia_smi`]), Candle's view
//! ([`framework`]), PyTorch's view ([`pytorch`]), where it runs ([`platform`]), devices by name ([`device`]), the two views lined up with causes and fixes
//! ([`diagnose`]), and `gpulab check` itself ([`check`]). Every cudarc call lives in [`cuda`];
//! the types it shares with its stub and Candle's view in [`cuda_facts`].
//! The facts later stages look up live here too: the GPU catalogue ([`gpus`]) and this session
//! on a rented or lent machine, its cost and limits ([`session`]).

pub mod check;
// The one place the `cuda` feature is read: a real module or a stub with the same functions
// (candle's `dummy_cuda_backend.rs` pattern), so the rest of the code has no `cfg`.
#[cfg(feature = "cuda")]
pub mod cuda;
#[cfg(not(feature = "cuda"))]
#[path = "probe/cuda_stub.rs"]
pub mod cuda;
pub mod cuda_facts;
pub mod device;
pub mod diagnose;
pub mod framework;
pub mod gpus;
pub mod host;
pub mod nvidia_smi;
pub mod platform;
pub mod pytorch;
pub mod session;

//! gpulab: what can my machine actually train, and why?
//!
//! A lab kit on Candle for the GPU-setup lesson of an AI-engineering course. Each concern is one
//! module; the `gpulab` binary only parses arguments and calls these:
//!
//! - [`check`]: is there a usable NVIDIA GPU? Lines up the driver's view ([`nvidia_smi`]) with
//!   the framework's ([`framework`]) and names the cause of any disagreement ([`diagnose`]).
//! - [`host`]: the CPU, RAM and environment facts everything else is measured against.
//! - [`units`]: quantities that must not be mixed up ([`units::Bytes`]).

pub mod check;
pub mod diagnose;
pub mod error;
pub mod framework;
pub mod host;
pub mod nvidia_smi;
pub mod units;

pub use error::{Error, Result};
pub mod alloc;
pub mod bench;
pub mod calibration;
pub mod device;
pub mod estimate;
pub mod fit;
pub mod gpus;
pub mod labs;
pub mod lessons;
pub mod measure;
pub mod models;
pub mod optim;
pub mod output;
pub mod peak;
pub mod plot;
pub mod report;
pub mod stats;
pub mod table;
pub mod verdict;

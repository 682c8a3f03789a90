//! gpulab: what can my machine actually train, and why?
//!
//! A lab kit on Candle for the GPU-setup lesson of an AI-engineering course. Each concern is one
//! module; the `gpulab` binary only parses arguments and calls these.
//!
//! - Is there a usable GPU? [`check`] lines up the driver's view ([`nvidia_smi`]) with the
//!   framework's ([`framework`]) and names causes and fixes ([`diagnose`]); [`host`] and
//!   [`device`] describe the machine.
//! - How fast? [`bench`] measures matmul properly, with [`stats`] and the CPU's [`peak`];
//!   on AVX2-only CPUs its f32 baseline runs on [`sgemm`].
//! - How much memory? [`measure`] runs real training steps of [`models`] with [`optim`], counting
//!   bytes with [`alloc`]; [`fit`] fits scaling laws; [`calibration`] stores the result.
//! - Will it fit? [`estimate`] compares the 2-byte rule, textbook formulas and measurements;
//!   [`verdict`] judges every course workload ([`lessons`]) on every target ([`gpus`]).
//! - The deliverable: [`report`]; the learner's path: [`labs`].
//! - Shared: [`table`], [`plot`], [`output`], [`units`], [`suggest`], [`error`].

pub mod bench;
pub mod dtype;
pub mod error;
pub mod files;
pub mod labs;
pub mod memory;
pub mod output;
pub mod plan;
pub mod plot;
pub mod probe;
pub mod report;
pub mod stats;
pub mod suggest;
pub mod table;
pub mod units;

pub use error::{Error, Result};

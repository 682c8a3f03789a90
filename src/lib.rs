//! gpulab: what can my machine actually train, and why?
//!
//! A lab kit on Candle for the GPU-setup lesson of an AI-engineering course. Each concern is one
//! module; the `gpulab` binary only parses arguments and calls these.
//!
//! The pipeline, one folder per stage:
//! - [`probe`] — what the machine is: the driver's and Candle's views lined up per GPU, with
//!   causes and fixes (`gpulab check`).
//! - [`bench`](mod@bench) — how fast: matmul measured properly, the CPU's peak, gpulab's own f32 kernel.
//! - [`memory`] — how many bytes: real training steps measured phase by phase, the calibration
//!   file, and the textbook's formulas ([`memory::formulas`]).
//! - [`plan`] — will it fit: estimates, and every course lesson judged on every target.
//! - [`report`] — the lesson's environment report, and `compare`.
//! - The learner's path: [`labs`].
//! - Shared: [`i18n`] (the message catalogue: every sentence in Korean and English), [`dtype`], [`units`], [`files`], [`process`], [`stats`], [`table`], [`plot`], [`output`],
//!   [`suggest`], [`error`].

// First, so its `t!`/`tl!` macros are in scope in every module below.
#[macro_use]
pub mod i18n;

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
pub mod process;
pub mod report;
pub mod stats;
pub mod suggest;
pub mod table;
pub mod units;

pub use error::{Error, Result};

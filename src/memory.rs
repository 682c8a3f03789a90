//! How many bytes a training step holds: real Candle steps of small [`models`] with their
//! [`optim`]izers, measured phase by phase ([`measure`]) with the counting allocator type
//! ([`alloc`]), swept over batch and sequence ([`suite`]), judged on held-out shapes
//! ([`validate`]), shown ([`export`]) and saved as a calibration file ([`calibration`]); the
//! same step in PyTorch ([`torch`], written as [`variant`] says); the fitted model
//! ([`empirical`]) and the textbook's formulas ([`formulas`]); the step on CUDA derived tensor
//! by tensor ([`cuda_step`]) and the published GPU steps that judge it ([`published`]).

pub mod alloc;
pub mod calibration;
pub mod cuda_step;
pub mod empirical;
pub mod export;
pub mod formulas;
pub mod measure;
pub mod models;
pub mod optim;
pub mod published;
pub mod suite;
pub mod torch;
pub mod validate;
pub mod variant;

//! Will it fit: memory estimates three ways ([`estimate`]), and for every course workload
//! ([`lessons`]) on every target from the GPU catalogue ([`crate::probe::gpus`]) a memory, time
//! and cost verdict ([`fit`]); how long a step takes where ([`timing`]), a lesson's own recorded
//! run ([`recorded`]); a ZeRO-3 plan with its configs when no single GPU holds a workload
//! ([`multi_gpu`]).

pub mod estimate;
pub mod fit;
pub mod lessons;
pub mod multi_gpu;
pub mod recorded;
pub mod timing;

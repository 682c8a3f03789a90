//! Will it fit: memory estimates three ways ([`estimate`]), and for every course workload
//! ([`lessons`]) on every target from the GPU catalogue ([`gpus`]) a memory, time and cost
//! verdict ([`fit`]); and this session on a rented or lent machine, its cost and limits
//! ([`session`]); how long a step takes where ([`timing`]); a ZeRO-3 plan with its configs
//! when no single GPU holds a workload ([`multi_gpu`]).

pub mod estimate;
pub mod fit;
pub mod gpus;
pub mod lessons;
pub mod multi_gpu;
pub mod recorded;
pub mod session;
pub mod timing;

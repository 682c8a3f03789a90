//! Will it fit: memory estimates three ways ([`estimate`]), and for every course workload
//! ([`lessons`]) on every target from the GPU catalogue ([`gpus`]) a memory, time and cost
//! verdict ([`fit`]).

pub mod estimate;
pub mod fit;
pub mod gpus;
pub mod lessons;

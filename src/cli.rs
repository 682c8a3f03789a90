//! The binary's half: clap's definitions ([`args`]) and the dispatch that turns them into
//! library calls ([`dispatch`], and [`measure`] for `gpulab measure`'s many modes). Nothing here decides anything a lab or a test also needs.

pub mod args;
pub mod dispatch;
pub mod measure;

//! The binary's half: clap's definitions ([`args`]) and the dispatch that turns them into
//! library calls ([`dispatch`]). Nothing here decides anything a lab or a test also needs.

pub mod args;
pub mod dispatch;

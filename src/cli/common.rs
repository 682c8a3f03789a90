//! Flag handling `gpulab measure` and the other commands share: output files claimed before
//! any work, the PyTorch step the flags describe, notes on old spellings.

use std::path::{Path, PathBuf};

use anyhow::bail;
use gpulab::t;

/// Output files of a command: refused up front if they exist (unless --force), then rewritten
/// freely during the run.
pub(super) fn claim_outputs(paths: &[&Option<PathBuf>], force: bool) -> anyhow::Result<()> {
    let given: Vec<&PathBuf> = paths.iter().filter_map(|p| p.as_ref()).collect();
    // Two formats into one stream (or one file) would interleave into something no reader can
    // parse: one output each.
    for (i, path) in given.iter().enumerate() {
        if given[..i].contains(path) {
            if *path == Path::new("-") {
                bail!("{}", t!("out-one-stdout"));
            }
            bail!("{}", t!("out-same-file", path = path.display()));
        }
    }
    for path in given {
        // A folder that cannot be written is refused now, not after the measuring.
        if path != Path::new("-") {
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
            gpulab::files::writable_dir(parent.unwrap_or(Path::new(".")))?;
        }
        if path != Path::new("-") && path.exists() && !force {
            bail!("{}", t!("out-exists", path = path.display()));
        }
    }
    Ok(())
}

/// The PyTorch step `--impl`, `--attn`, `--update` and `--lora-targets` describe, on a GPU
/// (`cuda`: the update's default is foreach there) or a CPU.
pub(super) fn torch_variant(
    args: &super::args::TorchArgs,
    cuda: bool,
) -> anyhow::Result<gpulab::memory::torch::Variant> {
    use gpulab::memory::torch::Variant;
    let foreach = args.update.foreach(cuda);
    Ok(Variant {
        implementation: args.implementation,
        attention: args.attn,
        foreach,
        checkpointing: false,
        // A list of layers (q,k,v,o) is the GPU column's alone: the measured variants are qv
        // and all-linear.
        lora: match args.lora_targets.as_deref() {
            None => None,
            Some(text) => match gpulab::memory::models::LoraTargets::parse(text) {
                Ok(targets) => Some(targets),
                Err(e) => {
                    gpulab::memory::models::Projections::parse(text).map_err(|_| e)?;
                    None
                }
            },
        },
        autocast: None,
        quant: None,
    })
}

/// A note on stderr for each old spelling used (`(old, new, used)`): accepted, but said once so
/// the learner moves to the one vocabulary `measure` and `estimate` share.
pub(super) fn say_old_spellings(flags: &[(&str, &str, bool)]) {
    for (old, new, used) in flags {
        if *used {
            note!("{}", t!("old-spelling", old = *old, new = *new));
        }
    }
}

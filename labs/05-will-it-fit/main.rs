//! Lab 05: every course lesson against this CPU, your GPUs, Colab's free T4 and the cloud.
use gpulab::plan::fit::{judge, table, targets, this_cpu};
use gpulab::probe::nvidia_smi;
use gpulab::t; // every sentence comes from the catalogue, data/locales/*.ftl

fn main() -> anyhow::Result<()> {
    let catalog = gpulab::probe::gpus::Catalog::shipped();
    let driver = nvidia_smi::query("nvidia-smi".as_ref(), std::time::Duration::from_secs(10));
    let targets = targets(this_cpu(false), &driver, &catalog); // measured once, then cached in data/runs
    let mut lessons = gpulab::plan::lessons::shipped();
    if gpulab::labs::LabArgs::parse(std::env::args()).fast {
        lessons.truncate(8);
    }
    let verdicts: Vec<_> = lessons.iter().map(|w| judge(w, &targets)).collect();
    gpulab::out!("{}", table(&verdicts).to_text());
    let first_not_on_t4 = verdicts.iter().find(|v| {
        v.cells
            .iter()
            .any(|c| c.target == gpulab::plan::fit::COLAB_FREE_T4 && c.runnable && !c.fits)
    });
    if let Some(v) = first_not_on_t4 {
        gpulab::outln!(
            "\n{}",
            t!("lab05-first-not-t4", id = v.id, needs = v.memory.total())
        );
    }
    gpulab::labs::save_result("lab05-will-it-fit", &verdicts)?;
    Ok(())
}

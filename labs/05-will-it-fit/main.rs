//! Lab 05: every course lesson against this CPU, Colab's free T4 and the cloud.
use gpulab::plan::fit::{judge, table, this_cpu, Target};

fn main() -> anyhow::Result<()> {
    let catalog = gpulab::plan::gpus::Catalog::shipped();
    let mut targets = vec![this_cpu()]; // measures this CPU's matmul speed (~0.3 s)
    targets.extend(Target::cloud(&catalog));
    let mut lessons = gpulab::plan::lessons::shipped();
    if gpulab::labs::LabArgs::parse(std::env::args()).fast {
        lessons.truncate(8);
    }
    let verdicts: Vec<_> = lessons.iter().map(|w| judge(w, &targets)).collect();
    print!("{}", table(&verdicts).to_text());
    let first_not_on_t4 = verdicts.iter().find(|v| {
        v.cells
            .iter()
            .any(|c| c.target.starts_with("T4") && c.runnable && !c.fits)
    });
    if let Some(v) = first_not_on_t4 {
        println!(
            "\nFirst workload that does not fit the free T4: {} (needs {})",
            v.id,
            v.memory.total()
        );
    }
    gpulab::labs::save_result("lab05-will-it-fit", &verdicts)?;
    Ok(())
}

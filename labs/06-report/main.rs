//! Lab 06: write the lesson's environment report, then compare it with another one.
use gpulab::report::{compare, gather, to_markdown, Lang};

// gpulab counts every byte this program allocates: that is how it measures CPU memory.
#[global_allocator]
static ALLOC: gpulab::memory::alloc::CountingAllocator = gpulab::memory::alloc::CountingAllocator;

fn main() -> anyhow::Result<()> {
    let korean = gpulab::labs::LabArgs::parse(std::env::args()).korean;
    let python = Some(std::path::PathBuf::from("python3")); // PyTorch's view, when this python has torch
    let report = gather(std::time::Duration::from_secs(10), python, |stage| {
        eprintln!("… {stage}")
    });
    let lang = if korean { Lang::Ko } else { Lang::En };
    print!("{}", to_markdown(&report, lang, &[]));
    // Exercise 2: compare with a report from another machine (Colab!). Until you have one, the
    // kit's recorded CPU report stands in.
    let other = gpulab::report::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/fixtures/report/cpu-1thread.json"
    )))?;
    println!("\n{}", compare(&report, &other, lang));
    gpulab::labs::save_result("lab06-report", &report)?;
    Ok(())
}

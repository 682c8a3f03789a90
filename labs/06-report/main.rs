//! Lab 06: write the lesson's environment report, then compare it with another one.
use gpulab::report::{compare, gather, summary, to_markdown, Lang};

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
    // The whole report goes to a file (open it in an editor); the terminal gets its summary.
    let markdown = std::path::PathBuf::from(gpulab::labs::RUNS_DIR).join("lab06-report.md");
    gpulab::files::write_atomic(&markdown, to_markdown(&report, lang, &[]).as_bytes(), true)?;
    gpulab::out!(
        "{}",
        summary(&report, lang, &[markdown.display().to_string()])
    );
    // Exercise 2: compare with a report from another machine (Colab!). Until you have one, the
    // kit's recorded CPU report stands in, and the output says so.
    let other = gpulab::report::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/fixtures/report/cpu-1thread.json"
    )))?;
    gpulab::outln!("\n{}", gpulab::t!("lab06-sample-stands-in"));
    gpulab::outln!("{}", compare(&report, &other, lang));
    gpulab::labs::save_result("lab06-report", &report)?;
    Ok(())
}

//! The `gpulab` binary: parse, dispatch, map the outcome to an exit code. No logic lives here.

// Notes and errors go to stderr through this, not eprintln!: eprintln! panics when stderr is
// closed or full (`gpulab check 2>&-`); a note that cannot be written is dropped.
macro_rules! note {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        // Fitted to the terminal like every result line (src/output.rs).
        let text = gpulab::output::wrap(&format!($($t)*), gpulab::output::columns());
        let _ = writeln!(std::io::stderr(), "{text}");
    }};
}

mod cli;

use std::process::ExitCode;

use clap::FromArgMatches;

// `measure` reads CPU memory from this allocator's counts (src/memory/alloc.rs); the binary
// chooses it, not the library (ripgrep's main.rs does the same with its allocator).
#[global_allocator]
static ALLOC: gpulab::memory::alloc::CountingAllocator = gpulab::memory::alloc::CountingAllocator;

fn main() -> ExitCode {
    // Interrupted, gpulab leaves nothing running and no temporary file behind; 130 is the
    // shell's code for "ended by Ctrl-C". A handler that cannot be set only loses that tidying.
    let _ = ctrlc::set_handler(|| {
        gpulab::process::clean_up_after_interrupt();
        std::process::exit(130);
    });
    // clap's command with its texts in the learner's language (src/cli/help.rs), then the
    // derive structs filled from what it parsed.
    // Arguments as the OS gives them: a file name that is not UTF-8 reaches clap, which refuses
    // a text flag it cannot read with an error instead of a panic, and keeps a path as it is.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let readable: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let lang = cli::help::lang_from_args(&readable);
    gpulab::i18n::set(lang);
    let matches = match cli::help::command(lang).try_get_matches_from(&args) {
        Ok(m) => m,
        // --help and --version arrive here too: clap prints them (already in the language).
        Err(e) => match (lang, cli::help::korean_error(&e)) {
            (gpulab::i18n::Lang::Ko, Some(text)) => {
                note!("{text}");
                return ExitCode::from(2);
            }
            _ => e.exit(),
        },
    };
    let cli = match cli::args::Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli::dispatch::run(cli) {
        Ok(code) => code,
        // A closed pipe (`gpulab fit | head -1`) ends the output, not the program's success:
        // quietly, as ripgrep does.
        Err(err)
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            note!(
                "{}",
                gpulab::t!("error-prefix", message = one_sentence(&err))
            );
            ExitCode::from(2)
        }
    }
}

/// The context chain on one line, without repeating a cause whose words an outer message
/// already carries (an I/O error's message includes its OS reason, which is also its source).
fn one_sentence(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

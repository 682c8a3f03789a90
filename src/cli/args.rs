//! The command line, and nothing else: clap derive structs whose doc comments are the help text.
//! `help.rs` replaces the texts from the message catalogue; `dispatch.rs` turns these into
//! library calls.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// gpulab: what can my machine actually train, and why?
#[derive(Debug, Parser)]
#[command(name = "gpulab", version, about, long_about = None)]
pub struct Cli {
    /// Hide progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Language of everything printed and written: ko or en (default: from the locale).
    #[arg(long, global = true, value_parser = gpulab::i18n::Lang::parse)]
    pub lang: Option<gpulab::i18n::Lang>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Is there a usable NVIDIA GPU? Asks nvidia-smi and Candle, and says why they disagree.
    Check(CheckArgs),
    /// CPU vs GPU matrix multiplication, measured properly (warm-up, sync, repeats, median).
    Bench(BenchArgs),
    /// Run real training steps and measure where every byte goes (weights, activations, gradients, optimizer state).
    Measure(MeasureArgs),
    /// How much memory a model needs (2-byte rule, textbook, measured), and what fits a budget.
    Estimate(EstimateArgs),
    /// For every course lesson: does it fit on this CPU, your GPU, Colab, the cloud — how long, what cost.
    Fit(FitArgs),
    /// The lesson's environment report, filled in: check + bench + measure + fit, Markdown and JSON.
    Report(ReportArgs),
    /// Two reports side by side (e.g. this laptop and a Colab T4).
    Compare(CompareArgs),
    /// The labs, with your progress (a lab is done when its result is in data/runs/).
    Labs,
    /// Run a lab's program: an id (1-6), a slug, or next.
    Lab(LabArgs),
    /// Show a lab's hints (default: the next lab's).
    Hint(HintArgs),
}

/// `gpulab lab`.
#[derive(Debug, Args)]
pub struct LabArgs {
    /// Which lab: 1-6, a slug, or next.
    #[arg(default_value = "next")]
    pub which: String,
    /// The quick version (small sizes), as CI runs it.
    #[arg(long)]
    pub fast: bool,
}

/// `gpulab hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// Which lab: 1-6, a slug, or next.
    #[arg(default_value = "next")]
    pub which: String,
    /// Also show the answers to the lab's questions.
    #[arg(long)]
    pub answers: bool,
}

/// `gpulab report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Folder for the report files.
    #[arg(long, default_value = gpulab::labs::RUNS_DIR, value_name = "DIR")]
    pub out: PathBuf,
    /// Base file name (default: gpulab-report-<date>-<host>).
    #[arg(long)]
    pub name: Option<String>,
    /// Overwrite an existing report of the same name.
    #[arg(long)]
    pub force: bool,
    /// Seconds to wait for nvidia-smi.
    #[arg(long, default_value_t = 10.0)]
    pub smi_timeout: f64,
    /// The python whose PyTorch to ask (default: python3 on PATH).
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// Do not ask PyTorch.
    #[arg(long, conflicts_with = "python")]
    pub no_torch: bool,
}

/// `gpulab compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// First report (JSON written by `gpulab report`).
    pub a: PathBuf,
    /// Second report.
    pub b: PathBuf,
}

/// `gpulab fit`.
#[derive(Debug, Args)]
pub struct FitArgs {
    /// One lesson in detail (id or a unique part of it, e.g. 05-transfer-learning).
    #[arg(long)]
    pub lesson: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Leave out the doc-only recipes (they are judged by default).
    #[arg(long)]
    pub no_recipes: bool,
    /// Also judge on this GPU from data/gpus.toml (repeatable: --gpu RTX-3090 --gpu RTX-4090).
    /// The machine's own GPUs are always targets.
    #[arg(long, value_name = "NAME")]
    pub gpu: Vec<String>,
    /// Measure this CPU's rates again instead of reading data/runs/cpu-rates.json.
    #[arg(long)]
    pub remeasure: bool,
    /// With --lesson: write its multi-GPU plan's ds_config.json and accelerate_fsdp.json here.
    #[arg(long, value_name = "DIR", requires = "lesson")]
    pub configs: Option<PathBuf>,
    /// Overwrite existing config files.
    #[arg(long)]
    pub force: bool,
}

/// A transformer's shape: one vocabulary for `measure` and `estimate` (the same flags describe
/// the same model in both, GPT tied by default as GPT-2 is).
#[derive(Debug, Args)]
pub struct ShapeArgs {
    /// Transformer layers (blocks).
    #[arg(long)]
    pub layers: Option<u64>,
    /// Transformer width d (hidden size).
    #[arg(long)]
    pub d_model: Option<u64>,
    /// Attention heads.
    #[arg(long)]
    pub heads: Option<u64>,
    /// Key/value heads (grouped-query attention, llama; must divide --heads).
    #[arg(long)]
    pub kv_heads: Option<u64>,
    /// FFN width (default 4·d for gpt, 8·d/3 for llama).
    #[arg(long)]
    pub ffn: Option<u64>,
    /// Vocabulary size.
    #[arg(long)]
    pub vocab: Option<u64>,
    /// Sequence length.
    #[arg(long)]
    pub seq_len: Option<u64>,
    /// GPT: tie the head to the token embedding, as GPT-2 does (the default).
    #[arg(long, conflicts_with = "untied")]
    pub tied: bool,
    /// GPT: an untied head (adds vocab × d parameters).
    #[arg(long)]
    pub untied: bool,
}

/// How the PyTorch step is written: `measure --pytorch` measures it so, `estimate`'s PyTorch
/// column assumes it.
#[derive(Debug, Args)]
pub struct TorchArgs {
    /// PyTorch implementation: transformers (Hugging Face's GPT2LMHeadModel / LlamaForCausalLM,
    /// what people train) or gpulab (data/torch-step.py's own modules).
    #[arg(
        long = "impl",
        default_value = "transformers",
        value_name = "transformers|gpulab",
        value_parser = gpulab::memory::torch::Implementation::parse
    )]
    pub implementation: gpulab::memory::torch::Implementation,
    /// transformers' attention: sdpa (its default) or eager.
    #[arg(
        long,
        default_value = "sdpa",
        value_name = "sdpa|eager",
        value_parser = gpulab::memory::torch::Attention::parse
    )]
    pub attn: gpulab::memory::torch::Attention,
    /// The optimizer's update: auto (the device's default: foreach on CUDA, for-loop on the
    /// CPU), foreach or for-loop.
    #[arg(
        long,
        default_value = "auto",
        value_name = "auto|foreach|for-loop",
        value_parser = gpulab::memory::torch::UpdateChoice::parse
    )]
    pub update: gpulab::memory::torch::UpdateChoice,
    /// Which layers LoRA adapts: qv (the attention's query and value), all-linear, attention,
    /// mlp, or a list such as q,k,v,o,gate,up,down (estimate's GPU column; the CPU-measured
    /// column knows qv and all-linear).
    #[arg(long, value_name = "TARGETS")]
    pub lora_targets: Option<String>,
}

/// `gpulab estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// A model preset (gpt2 … gpt2-xl, llama-2-7b, llama-2-13b, llama-3-8b, llama-3.2-1b/3b,
    /// qwen2.5-0.5b … 7b, mistral-7b, gemma-2-2b, phi-3-mini, smollm2-135m/360m/1.7b) or a
    /// parameter count (7B, 124M, 11_181_642); optional when --config or the shape flags give it.
    #[arg(allow_hyphen_values = true, value_name = "MODEL")]
    pub params: Option<String>,
    /// A model's Hugging Face config.json (llama, mistral, qwen2, qwen3, gemma, gemma2, phi3,
    /// gpt2): its shape, biases, head width, norms and tied head.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["params", "arch"])]
    pub config: Option<PathBuf>,
    /// train or inference.
    #[arg(long, default_value = "train", value_parser = parse_mode)]
    pub mode: gpulab::plan::estimate::Mode,
    /// Precision recipe: f32; bf16 (end to end, as Candle trains: no fp32 master copy); mixed
    /// (16-bit with fp32 master copy and optimizer state, as PyTorch AMP); f16; nf4 (QLoRA base).
    #[arg(long, default_value = "bf16", value_parser = gpulab::plan::estimate::Precision::parse)]
    pub dtype: gpulab::plan::estimate::Precision,
    /// sgd, momentum, adamw, adamw-fused, paged-adamw, adamw-8bit, paged-adamw-8bit or
    /// adafactor.
    #[arg(long, default_value = "adamw", value_parser = gpulab::memory::optim::OptimizerRecipe::parse)]
    pub optimizer: gpulab::memory::optim::OptimizerRecipe,
    /// Architecture for the shape flags: gpt (GPT-2 style) or llama (Llama style).
    #[arg(long, value_parser = gpulab::memory::models::Family::parse)]
    pub arch: Option<gpulab::memory::models::Family>,
    /// The transformer's shape, spelled as `measure` spells it.
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Old spelling of --d-model (accepted, with a note).
    #[arg(long, hide = true, conflicts_with = "d_model")]
    pub hidden: Option<u64>,
    /// Batch size per GPU.
    #[arg(long, default_value_t = 1)]
    pub batch: u64,
    /// LoRA rank (adapters on --lora-targets, default q and v, of every layer).
    #[arg(long)]
    pub lora_rank: Option<u64>,
    /// LoRA dropout probability, as peft's lora_dropout (default 0): above 0 every adapted
    /// input keeps a mask and a dropped copy.
    #[arg(long = "lora-dropout", value_name = "P")]
    pub dropout: Option<f64>,
    /// What QLoRA's preparation leaves fp32 (--dtype nf4): peft (prepare_model_for_kbit_training,
    /// the default), trl-bf16 (TRL's SFTTrainer under --bf16) or none.
    #[arg(long, value_name = "HOW", value_parser = parse_kbit_prep)]
    pub kbit_prep: Option<gpulab::memory::cuda_step::KbitPrep>,
    /// bitsandbytes' 4-bit blocks without double quantization (`BitsAndBytesConfig`'s default;
    /// QLoRA recipes usually set `bnb_4bit_use_double_quant=True`, which gpulab assumes).
    #[arg(long)]
    pub no_double_quant: bool,
    /// How the PyTorch column's step is written.
    #[command(flatten)]
    pub torch: TorchArgs,
    /// Full activation checkpointing.
    #[arg(long)]
    pub checkpointing: bool,
    /// Micro-batches each optimizer step accumulates gradients over (the GPU column: every
    /// gradient stays alive through the later micro-batches).
    #[arg(long, default_value_t = 1)]
    pub grad_accum: u64,
    /// The training loop keeps the model's output through backward (`out = model(...)`, then
    /// `out.loss.backward()`), as hand-written loops do; Trainer drops it first.
    #[arg(long)]
    pub keep_outputs: bool,
    /// Data-parallel GPUs.
    #[arg(long, default_value_t = 1)]
    pub gpus: u64,
    /// ZeRO stage 0-3 (3 = FSDP full sharding).
    #[arg(long, default_value_t = 0)]
    pub zero: u8,
    /// Check against a GPU from data/gpus.toml (T4, A100-80GB, ...).
    #[arg(long)]
    pub gpu: Option<String>,
    /// Check against a memory budget (16GiB, 24GB).
    #[arg(long)]
    pub memory: Option<String>,
    /// Calibration from `gpulab measure --save` (default: the ones shipped, Candle's and
    /// PyTorch's, measured on a CPU). Repeat to add columns.
    #[arg(long, value_name = "FILE")]
    pub calibration: Vec<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `gpulab measure`.
#[derive(Debug, Args)]
pub struct MeasureArgs {
    /// Architectures: mlp, gpt (GPT-2 style), llama (Llama style), cnn.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "mlp,gpt,llama,cnn",
        value_parser = gpulab::memory::models::Family::parse
    )]
    pub arch: Vec<gpulab::memory::models::Family>,
    /// Old spelling of --arch (accepted, with a note).
    #[arg(
        long,
        value_delimiter = ',',
        hide = true,
        conflicts_with = "arch",
        value_parser = gpulab::memory::models::Family::parse
    )]
    pub model: Vec<gpulab::memory::models::Family>,
    /// dtypes: f32, bf16, f16.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "f32,bf16",
        value_parser = gpulab::dtype::parse
    )]
    pub dtype: Vec<candle_core::DType>,
    /// Optimizers: sgd, momentum, adamw.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "sgd,momentum,adamw",
        value_parser = gpulab::memory::optim::OptimizerKind::parse
    )]
    pub optimizer: Vec<gpulab::memory::optim::OptimizerKind>,
    /// Device: cpu or cuda:N.
    #[arg(long, default_value = "cpu", value_parser = gpulab::probe::device::DeviceSpec::parse)]
    pub device: gpulab::probe::device::DeviceSpec,
    /// Batch size (default per architecture: mlp 64, gpt and llama 8, cnn 32).
    #[arg(long)]
    pub batch: Option<usize>,
    /// MLP hidden widths, e.g. 512,512.
    #[arg(long, value_delimiter = ',')]
    pub mlp_widths: Vec<usize>,
    /// Old spelling of --mlp-widths (accepted, with a note).
    #[arg(
        long,
        value_delimiter = ',',
        hide = true,
        conflicts_with = "mlp_widths"
    )]
    pub hidden: Vec<usize>,
    /// The transformer's shape, spelled as `estimate` spells it.
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// CNN image side (multiple of 4).
    #[arg(long)]
    pub image_size: Option<usize>,
    /// Batch sizes of the batch sweep (3 or more; empty with --no-sweep).
    #[arg(long, value_delimiter = ',', default_value = "2,4,8")]
    pub batches: Vec<usize>,
    /// Sequence lengths of the GPT sweep (3 or more).
    #[arg(long, value_delimiter = ',', default_value = "16,32,48,64")]
    pub seq_lens: Vec<usize>,
    /// Skip the sweeps.
    #[arg(long)]
    pub no_sweep: bool,
    /// Validate gpulab's empirical memory model: fit it on some shapes, predict and measure others.
    #[arg(long)]
    pub validate: bool,
    /// Measure each step twice: as a Candle program ordinarily writes it, and as gpulab's lean
    /// step (graph and non-parameters' gradients dropped before the update, lean optimizers).
    #[arg(long)]
    pub lean: bool,
    /// Run the same step in PyTorch (GPT and Llama) instead of Candle, with --save or --validate.
    #[arg(long)]
    pub pytorch: bool,
    /// The python that has torch (default: python3 on PATH).
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// How the PyTorch step is written (with --pytorch).
    #[command(flatten)]
    pub torch: TorchArgs,
    /// PyTorch: activation checkpointing (transformers' gradient_checkpointing_enable()).
    #[arg(long)]
    pub checkpointing: bool,
    /// PyTorch: LoRA of this rank through peft (the base frozen; --lora-targets picks the
    /// layers). With --save or --validate the rank varies over the shapes.
    #[arg(long)]
    pub lora_rank: Option<usize>,
    /// PyTorch: mixed precision, the forward pass under torch.autocast in bf16 or f16 (weights
    /// and optimizer in --dtype, normally f32).
    #[arg(long, value_name = "bf16|f16", value_parser = gpulab::memory::torch::Autocast::parse)]
    pub autocast: Option<gpulab::memory::torch::Autocast>,
    /// PyTorch: QLoRA's 4-bit base (nf4: bitsandbytes' NF4 with double quantization) under LoRA
    /// (with --lora-rank or --lora-targets); --dtype is its compute dtype, normally bf16.
    #[arg(long, value_name = "nf4", value_parser = gpulab::memory::torch::Quant::parse)]
    pub quant: Option<gpulab::memory::torch::Quant>,
    /// Write the full report as JSON here ('-' for stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Save the calibration for `estimate`: the run's bytes per parameter and the memory models,
    /// fitted on 40 small shapes per family × dtype × optimizer (a few minutes on a CPU).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Draw memory against batch and sequence length into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// With --pytorch --save: add this run's models to the PyTorch calibration FILE already
    /// there (a model of the same family, dtype, optimizer and step is replaced).
    #[arg(long, requires = "save", conflicts_with = "force")]
    pub append: bool,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
}

/// `gpulab bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Devices: cpu, cuda:N, or all (every device that opens). Repeat or comma-separate.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub device: Vec<String>,
    /// dtypes: f32, f16, bf16. Repeat or comma-separate.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "f32",
        value_parser = gpulab::dtype::parse
    )]
    pub dtype: Vec<candle_core::DType>,
    /// Sizes: N for N×N×N, or MxKxN (e.g. 256,1024,512x1024x256). Default: a sweep per device.
    #[arg(long, value_delimiter = ',')]
    pub sizes: Vec<String>,
    /// Seconds of timed calls per point (at least --min-runs calls are made).
    #[arg(long, default_value_t = 0.5, value_name = "SECONDS")]
    pub budget: f64,
    /// Fewest timed calls per point.
    #[arg(long, default_value_t = 10)]
    pub min_runs: usize,
    /// CPU threads for the matmul (default: physical cores, as candle picks).
    #[arg(long)]
    pub threads: Option<usize>,
    /// CPU f32 kernel: auto (gpulab's own, AVX-512 or AVX2, where the CPU has one; else
    /// Candle's), candle, gpulab, gpulab-avx2 or gpulab-avx512.
    #[arg(
        long,
        default_value = "auto",
        value_name = "auto|candle|gpulab",
        value_parser = gpulab::bench::sgemm::CpuKernel::parse_for_this_cpu
    )]
    pub cpu_kernel: gpulab::bench::sgemm::CpuKernel,
    /// Also show the lesson's naive timing (one cold call; on a GPU, one call without synchronize).
    #[arg(long)]
    pub naive: bool,
    /// Write JSON here ('-' for stdout), updated after every point.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write CSV here ('-' for stdout), updated after every point.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write Markdown here ('-' for stdout), updated after every point.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Draw GFLOP/s and speedup against size into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
}

/// `gpulab check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Print the result as JSON (schema gpulab.check, versioned) instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Seconds to wait for nvidia-smi before calling it hung.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub smi_timeout: f64,
    /// The nvidia-smi program to ask.
    #[arg(long, default_value = "nvidia-smi", value_name = "PATH")]
    pub nvidia_smi: PathBuf,
    /// Exit with status 1 unless a GPU is ready (for scripts).
    #[arg(long)]
    pub require_gpu: bool,
    /// The python whose PyTorch to ask (default: python3 on PATH, the active environment's).
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// Do not ask PyTorch (it takes a second or two to import).
    #[arg(long, conflicts_with = "python")]
    pub no_torch: bool,
}

/// `--mode`, parsed by clap so a wrong name is refused with the catalogue's message.
fn parse_mode(s: &str) -> Result<gpulab::plan::estimate::Mode, String> {
    gpulab::plan::estimate::Mode::parse(s).map_err(|e| e.to_string())
}

/// `--kbit-prep`, parsed by clap so a wrong name is refused with the catalogue's message.
fn parse_kbit_prep(s: &str) -> Result<gpulab::memory::cuda_step::KbitPrep, String> {
    gpulab::memory::cuda_step::KbitPrep::parse(s).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}

//! Named models with their published shapes (GPT-2, Llama 2, Llama 3, and the small models
//! recipes pick: Qwen2.5, Mistral, Gemma 2, Phi-3, SmolLM2), each checked against its published
//! parameter count in the tests. Shapes are the models' own Hugging Face `config.json` values.

use super::{BlockExtras, Family, ModelConfig};

/// The preset names.
pub const PRESETS: &[&str] = &[
    "gpt2",
    "gpt2-medium",
    "gpt2-large",
    "gpt2-xl",
    "llama-2-7b",
    "llama-2-13b",
    "llama-3-8b",
    "llama-3.2-1b",
    "llama-3.2-3b",
    "qwen2.5-0.5b",
    "qwen2.5-1.5b",
    "qwen2.5-3b",
    "qwen2.5-7b",
    "mistral-7b",
    "gemma-2-2b",
    "phi-3-mini",
    "smollm2-135m",
    "smollm2-360m",
    "smollm2-1.7b",
];

/// The shape of a named model (see [`PRESETS`]), at batch 1 and its full context; `None` for
/// an unknown name. GPT-2 (Radford et al. 2019; the Hugging Face configs): vocabulary 50,257,
/// context 1,024, head tied to the token embedding. Llama 2 (Touvron et al. 2023) and Llama 3
/// (Meta's model cards and configs): vocabulary 32,000 / 128,256, untied head, SwiGLU widths
/// as published, grouped-query attention with 8 key/value heads in Llama 3 (and 2-70B).
pub fn preset(name: &str) -> Option<ModelConfig> {
    let gpt2 = |d: usize, layers: usize, heads: usize| ModelConfig {
        family: Family::Gpt,
        batch: 1,
        vocab: 50257,
        d_model: d,
        heads,
        layers,
        seq_len: 1024,
        ffn: None,
        kv_heads: None,
        tied: true,
        context: Some(1024),
        ..ModelConfig::default_for(Family::Gpt)
    };

    Some(match name.trim().to_ascii_lowercase().as_str() {
        "gpt2" | "gpt2-small" => gpt2(768, 12, 12),
        "gpt2-medium" => gpt2(1024, 24, 16),
        "gpt2-large" => gpt2(1280, 36, 20),
        "gpt2-xl" => gpt2(1600, 48, 25),
        "llama-2-7b" => llama(32000, 4096, 32, 32, 32, 11008, 4096),
        "llama-2-13b" => llama(32000, 5120, 40, 40, 40, 13824, 4096),
        "llama-3-8b" | "llama-3.1-8b" => llama(128256, 4096, 32, 32, 8, 14336, 8192),
        // Llama 3.2 1B and 3B tie their head to the token embedding (tie_word_embeddings).
        "llama-3.2-1b" => tied(llama(128256, 2048, 16, 32, 8, 8192, 8192)),
        "llama-3.2-3b" => tied(llama(128256, 3072, 28, 24, 8, 8192, 8192)),
        // Qwen2.5: biases on q, k and v; the small ones tie their head.
        "qwen2.5-0.5b" => qwen(151936, 896, 24, 14, 2, 4864, true),
        "qwen2.5-1.5b" => qwen(151936, 1536, 28, 12, 2, 8960, true),
        "qwen2.5-3b" => qwen(151936, 2048, 36, 16, 2, 11008, true),
        "qwen2.5-7b" => qwen(152064, 3584, 28, 28, 4, 18944, false),
        "mistral-7b" | "mistral-7b-v0.1" => llama(32000, 4096, 32, 32, 8, 14336, 4096),
        // Gemma 2: head width 256 (not d / heads), four norms per block, tied head.
        "gemma-2-2b" => ModelConfig {
            extras: BlockExtras {
                head_dim: Some(256),
                norms_per_block: Some(4),
                ..BlockExtras::default()
            },
            ..tied(llama(256000, 2304, 26, 8, 4, 9216, 8192))
        },
        "phi-3-mini" | "phi-3-mini-4k" => llama(32064, 3072, 32, 32, 32, 8192, 4096),
        "smollm2-135m" => tied(llama(49152, 576, 30, 9, 3, 1536, 8192)),
        "smollm2-360m" => tied(llama(49152, 960, 32, 15, 5, 2560, 8192)),
        "smollm2-1.7b" => tied(llama(49152, 2048, 24, 32, 32, 8192, 8192)),
        _ => return None,
    })
}

/// `m` with its head tied to the token embedding (`tie_word_embeddings`).
fn tied(m: ModelConfig) -> ModelConfig {
    ModelConfig { tied: true, ..m }
}

/// A Qwen2/2.5 shape: the Llama block with biases on q, k and v, trained at 4,096 tokens here
/// (its context is 32 k).
fn qwen(
    vocab: usize,
    d: usize,
    layers: usize,
    heads: usize,
    kv: usize,
    ffn: usize,
    tied: bool,
) -> ModelConfig {
    ModelConfig {
        tied,
        extras: BlockExtras {
            qkv_bias: true,
            ..BlockExtras::default()
        },
        ..llama(vocab, d, layers, heads, kv, ffn, 4096)
    }
}

/// A Llama-style shape at batch 1: untied head, SwiGLU width `ffn`, `kv` key/value heads,
/// trained at `seq` tokens.
fn llama(
    vocab: usize,
    d: usize,
    layers: usize,
    heads: usize,
    kv: usize,
    ffn: usize,
    seq: usize,
) -> ModelConfig {
    ModelConfig {
        family: Family::Llama,
        batch: 1,
        vocab,
        d_model: d,
        heads,
        layers,
        seq_len: seq,
        ffn: Some(ffn),
        kv_heads: Some(kv),
        tied: false,
        ..ModelConfig::default_for(Family::Llama)
    }
}

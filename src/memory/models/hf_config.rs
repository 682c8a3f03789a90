//! A model's Hugging Face `config.json` read into a shape: the fields that change parameters or
//! memory for the families `estimate` models, and a clear refusal for anything else.

use serde_json::Value;

use super::{BlockExtras, Family, ModelConfig};
use crate::error::Result;

/// The `model_type`s read, each as the block it builds.
pub const SUPPORTED: &[&str] = &[
    "llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3", "gpt2",
];

/// The training sequence length a config's model is judged at unless `--seq-len` says otherwise:
/// its context, capped at 4,096 tokens (a config names what the model can read, not what a
/// recipe trains on).
pub const DEFAULT_SEQ_CAP: usize = 4096;

/// Reads `text` (the contents of `source`, a config.json) into a model at batch 1.
pub fn from_hf_config(text: &str, source: &str) -> Result<ModelConfig> {
    let json: Value = serde_json::from_str(text)
        .map_err(|e| crate::bad!("hf-config-json", file = source, error = e.to_string()))?;
    let field = |name: &str| -> Result<Option<usize>> {
        match json.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .filter(|&n| n > 0 && n <= 1 << 24)
                .map(|n| Some(n as usize))
                .ok_or_else(|| {
                    crate::bad!(
                        "hf-config-field",
                        file = source,
                        field = name,
                        given = v.to_string()
                    )
                }),
        }
    };
    let need = |name: &str| -> Result<usize> {
        field(name)?.ok_or_else(|| crate::bad!("hf-config-missing", file = source, field = name))
    };
    let flag = |name: &str, default: bool| -> Result<bool> {
        match json.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(crate::bad!(
                "hf-config-field",
                file = source,
                field = name,
                given = v.to_string()
            )),
        }
    };
    let kind = json
        .get("model_type")
        .and_then(Value::as_str)
        .ok_or_else(|| crate::bad!("hf-config-missing", file = source, field = "model_type"))?;
    if !SUPPORTED.contains(&kind) {
        return Err(crate::bad!(
            "hf-config-type",
            file = source,
            given = kind,
            supported = SUPPORTED.join(", ")
        ));
    }
    // Experts change which weights a token touches and what the optimizer holds: not modelled.
    for moe in ["num_local_experts", "num_experts", "n_routed_experts"] {
        if field(moe)?.is_some_and(|n| n > 1) {
            return Err(crate::bad!("hf-config-moe", file = source, field = moe));
        }
    }
    if kind == "gpt2" {
        let d = need("n_embd")?;
        let context = field("n_positions")?.or(field("n_ctx")?);
        let m = ModelConfig {
            family: Family::Gpt,
            batch: 1,
            vocab: need("vocab_size")?,
            d_model: d,
            heads: need("n_head")?,
            layers: need("n_layer")?,
            seq_len: context.unwrap_or(1024).min(DEFAULT_SEQ_CAP),
            ffn: field("n_inner")?,
            tied: flag("tie_word_embeddings", true)?,
            context,
            ..ModelConfig::default_for(Family::Gpt)
        };
        m.validate()?;
        return Ok(m);
    }
    let d = need("hidden_size")?;
    let heads = need("num_attention_heads")?;
    let gemma = kind.starts_with("gemma");
    let head_dim = field("head_dim")?.filter(|&h| h * heads != d);
    let extras = BlockExtras {
        head_dim,
        // Qwen2 always biases q, k and v; Llama, Mistral and Qwen3 say so in `attention_bias`.
        qkv_bias: kind == "qwen2" || flag("attention_bias", false)?,
        norms_per_block: (kind == "gemma2").then_some(4),
        qk_norm: kind == "qwen3",
    };
    let context = field("max_position_embeddings")?;
    let m = ModelConfig {
        family: Family::Llama,
        batch: 1,
        vocab: need("vocab_size")?,
        d_model: d,
        heads,
        layers: need("num_hidden_layers")?,
        seq_len: context.unwrap_or(2048).min(DEFAULT_SEQ_CAP),
        ffn: Some(need("intermediate_size")?),
        kv_heads: field("num_key_value_heads")?,
        tied: flag("tie_word_embeddings", gemma)?,
        extras,
        ..ModelConfig::default_for(Family::Llama)
    };
    m.validate()?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_configs_give_the_published_counts() {
        // The fields of each model's config.json on the Hugging Face Hub.
        let cases = [
            (
                r#"{"model_type":"qwen2","hidden_size":896,"intermediate_size":4864,"num_attention_heads":14,"num_hidden_layers":24,"num_key_value_heads":2,"vocab_size":151936,"tie_word_embeddings":true,"max_position_embeddings":32768}"#,
                494_032_768u64,
            ),
            (
                r#"{"model_type":"llama","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":16,"num_key_value_heads":8,"vocab_size":128256,"tie_word_embeddings":true,"head_dim":64,"attention_bias":false}"#,
                1_235_814_400,
            ),
            (
                r#"{"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":32000,"tie_word_embeddings":false,"sliding_window":4096}"#,
                7_241_732_096,
            ),
            (
                r#"{"model_type":"gemma2","hidden_size":2304,"intermediate_size":9216,"num_attention_heads":8,"num_hidden_layers":26,"num_key_value_heads":4,"head_dim":256,"vocab_size":256000}"#,
                2_614_341_888,
            ),
            (
                r#"{"model_type":"phi3","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"vocab_size":32064,"tie_word_embeddings":false}"#,
                3_821_079_552,
            ),
            (
                r#"{"model_type":"qwen3","hidden_size":1024,"intermediate_size":3072,"num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":true}"#,
                596_049_920,
            ),
            (
                r#"{"model_type":"gpt2","n_embd":768,"n_head":12,"n_layer":12,"n_positions":1024,"vocab_size":50257}"#,
                124_439_808,
            ),
        ];
        for (text, count) in cases {
            let m = from_hf_config(text, "config.json").unwrap();
            assert_eq!(m.param_count(), count, "{text}");
        }
    }

    #[test]
    fn what_it_cannot_read_is_named() {
        let err = |text: &str| from_hf_config(text, "c.json").unwrap_err().to_string();
        assert!(err(r#"{"model_type":"mamba"}"#).contains("mamba"));
        assert!(err(r#"{"model_type":"llama","hidden_size":64}"#).contains("num_attention_heads"));
        assert!(err(r#"{"model_type":"mistral","hidden_size":64,"num_attention_heads":4,"num_hidden_layers":2,"intermediate_size":128,"vocab_size":10,"num_local_experts":8}"#).contains("num_local_experts"));
        assert!(err(r#"{"model_type":"llama","hidden_size":-3}"#).contains("hidden_size"));
        assert!(err("not json").contains("c.json"));
    }
}

//! Tests of `models.rs`: parameter counts against the built models and the published presets.
use super::*;
use candle_nn::VarMap;

fn counted(config: &ModelConfig) -> u64 {
    let map = VarMap::new();
    let vb = VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu);
    let model = Model::build(config, vb).unwrap();
    let (x, y) = random_batch(config, DType::F32, &Device::Cpu).unwrap();
    let loss = model.loss(&x, &y).unwrap();
    assert!(loss.to_scalar::<f32>().unwrap().is_finite());
    map.all_vars().iter().map(|v| v.elem_count() as u64).sum()
}

#[test]
fn formulas_match_the_built_models() {
    for family in [Family::Mlp, Family::Gpt, Family::Llama, Family::Cnn] {
        let mut config = ModelConfig::default_for(family);
        config.batch = 2;
        config.seq_len = 8;
        assert_eq!(config.param_count(), counted(&config), "{family:?}");
    }
    // The variants: a tied GPT head, an explicit FFN width, grouped-query attention.
    let tied = ModelConfig {
        tied: true,
        ffn: Some(96),
        seq_len: 8,
        batch: 2,
        ..ModelConfig::default_for(Family::Gpt)
    };
    assert_eq!(tied.param_count(), counted(&tied));
    let gqa = ModelConfig {
        kv_heads: Some(2),
        ffn: Some(200),
        seq_len: 8,
        batch: 2,
        ..ModelConfig::default_for(Family::Llama)
    };
    assert_eq!(gqa.param_count(), counted(&gqa));
}

#[test]
fn presets_have_their_published_parameter_counts() {
    // GPT-2: the Hugging Face checkpoints' parameter counts (tied head); Llama: the counts
    // of the released checkpoints (Llama 2 paper, Meta's Llama 3 model card).
    for (name, count) in [
        ("gpt2", 124_439_808),
        ("gpt2-medium", 354_823_168),
        ("gpt2-large", 774_030_080),
        ("gpt2-xl", 1_557_611_200),
        ("llama-2-7b", 6_738_415_616),
        ("llama-2-13b", 13_015_864_320),
        ("llama-3-8b", 8_030_261_248),
        // Meta's Llama 3.2 model cards (safetensors metadata): tied heads, counted once.
        ("llama-3.2-1b", 1_235_814_400),
        ("llama-3.2-3b", 3_212_749_824),
        // The models' Hugging Face cards (safetensors parameter counts).
        ("qwen2.5-0.5b", 494_032_768),
        ("qwen2.5-1.5b", 1_543_714_304),
        ("qwen2.5-3b", 3_085_938_688),
        ("qwen2.5-7b", 7_615_616_512),
        ("mistral-7b", 7_241_732_096),
        ("gemma-2-2b", 2_614_341_888),
        ("phi-3-mini", 3_821_079_552),
        ("smollm2-135m", 134_515_008),
        ("smollm2-360m", 361_821_120),
        ("smollm2-1.7b", 1_711_376_384),
    ] {
        let m = preset(name).unwrap();
        m.validate().unwrap();
        assert_eq!(m.param_count(), count, "{name}");
    }
    for name in PRESETS {
        assert!(preset(name).is_some(), "{name}");
    }
    assert!(preset("gpt5").is_none());
}

#[test]
fn gpt2_small_count_matches_the_course() {
    // data/docs/lessons.md: GPT-2 small with an untied head is 163,037,184 parameters.
    let config = ModelConfig {
        vocab: 50257,
        d_model: 768,
        heads: 12,
        layers: 12,
        seq_len: 1024,
        ..ModelConfig::default_for(Family::Gpt)
    };
    assert_eq!(config.param_count(), 163_037_184);
}

#[test]
fn every_parameter_gets_a_gradient() {
    let gqa = ModelConfig {
        kv_heads: Some(2),
        ..ModelConfig::default_for(Family::Llama)
    };
    let tied = ModelConfig {
        tied: true,
        ..ModelConfig::default_for(Family::Gpt)
    };
    for mut config in [Family::Mlp, Family::Gpt, Family::Llama, Family::Cnn]
        .map(ModelConfig::default_for)
        .into_iter()
        .chain([gqa, tied])
    {
        let family = config.family;
        config.batch = 2;
        config.seq_len = 8;
        let map = VarMap::new();
        let vb = VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu);
        let model = Model::build(&config, vb).unwrap();
        let (x, y) = random_batch(&config, DType::F32, &Device::Cpu).unwrap();
        let grads = model.loss(&x, &y).unwrap().backward().unwrap();
        for var in map.all_vars() {
            assert!(
                grads.get(var.as_tensor()).is_some(),
                "{family:?}: a parameter has no gradient"
            );
        }
    }
}

#[test]
fn nonsense_shapes_are_refused() {
    let mut c = ModelConfig::default_for(Family::Gpt);
    c.heads = 3;
    assert!(c
        .validate()
        .unwrap_err()
        .to_string()
        .contains("multiple of heads"));
    let mut c = ModelConfig::default_for(Family::Cnn);
    c.image_size = 30;
    assert!(c.validate().is_err());
    let mut c = ModelConfig::default_for(Family::Mlp);
    c.batch = 0;
    assert!(c.validate().is_err());
    assert!(Family::parse("rnn").is_err());
}

#[test]
fn lora_adapters_count_as_peft_builds_them() {
    // The course's recipe: r16 on q and v of Llama-3 8B trains 6,815,744 parameters (its doc;
    // data/lessons.toml), 0.085 % of the model.
    let mut llama = preset("llama-3-8b").unwrap();
    let base = llama.param_count();
    llama.lora = Some(LoraShape {
        rank: 16,
        targets: LoraTargets::Qv,
    });
    assert_eq!(llama.trainable_count(), 6_815_744);
    assert_eq!(llama.param_count(), base + 6_815_744);
    assert_eq!(llama.base_param_count(), base);
    // GPT-2's fused c_attn is adapted whole (d → 3d); all-linear adds c_proj, c_fc and the
    // MLP's c_proj: r·(4d + 2d + 2(d + f)) per block, 12 blocks of GPT-2 small at r8.
    let mut gpt2 = preset("gpt2").unwrap();
    gpt2.lora = Some(LoraShape {
        rank: 8,
        targets: LoraTargets::AllLinear,
    });
    let (d, f) = (768u64, 3072u64);
    assert_eq!(
        gpt2.trainable_count(),
        12 * 8 * (4 * d + 2 * d + 2 * (d + f))
    );
    assert!(gpt2.describe().ends_with(" lora r8 all-linear"));
    assert!(LoraTargets::parse("bogus").is_err());
    // Without LoRA every parameter trains.
    assert_eq!(
        ModelConfig::default_for(Family::Gpt).trainable_count(),
        ModelConfig::default_for(Family::Gpt).param_count()
    );
}

/// NF4's storage formula ([`ModelConfig::nf4_bytes`]) against every step recorded on a real
/// 4-bit base (data/fixtures/torch/replies/, jobs with "quant": "nf4"): the measured weights are
/// the 16-bit frozen ones, the adapters' bytes and the formula's, to the byte.
#[test]
fn nf4_storage_is_what_bitsandbytes_holds() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fixtures/torch/replies");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(hash) = name.strip_suffix(".job.json") else {
            continue;
        };
        let job: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if job["quant"] != "nf4" {
            continue;
        }
        let reply: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{hash}.json"))).unwrap(),
        )
        .unwrap();
        let bytes_16 = if job["dtype"] == "bf16" { 2 } else { 4 };
        for (shape, step) in job["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .zip(reply["steps"].as_array().unwrap())
        {
            let n = |k: &str| shape[k].as_u64().unwrap() as usize;
            let lora = &shape["lora"];
            let config = ModelConfig {
                family: Family::parse(shape["family"].as_str().unwrap()).unwrap(),
                batch: n("batch"),
                layers: n("layers"),
                d_model: n("d_model"),
                heads: n("heads"),
                kv_heads: Some(n("kv_heads")),
                ffn: Some(n("ffn")),
                vocab: n("vocab"),
                seq_len: n("seq_len"),
                tied: shape["tied"].as_bool().unwrap(),
                lora: Some(LoraShape {
                    rank: lora["rank"].as_u64().unwrap() as usize,
                    targets: LoraTargets::parse(lora["targets"].as_str().unwrap()).unwrap(),
                }),
                ..ModelConfig::default_for(Family::Llama)
            };
            let frozen_16 =
                config.param_count() - config.trainable_count() - config.block_linear_params();
            let expected = frozen_16 * bytes_16
                + config.nf4_bytes()
                + step["trainable_bytes"].as_u64().unwrap();
            assert_eq!(
                step["weights"].as_u64().unwrap(),
                expected,
                "{}",
                config.describe()
            );
            checked += 1;
        }
    }
    // Calibration (40) and held-out (11) shapes, GPT-2 and Llama, with and without
    // checkpointing.
    assert!(checked >= 200, "only {checked} recorded 4-bit steps");
}

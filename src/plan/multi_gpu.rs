//! When no single GPU holds a workload: a plan on N × H100 80 GB with ZeRO-3 / FSDP full
//! sharding (model states split N ways, activations per GPU at the micro-batch), its time and
//! cost, and the configs a learner launches it with — a DeepSpeed config and the equivalent
//! Accelerate FSDP config (Accelerate reads JSON config files as well as YAML), with the launch
//! commands. The keys are the engines' documented ones (data/docs/multi-gpu.md, which also says
//! how the files were checked against the engines' own loaders).

use serde::{Deserialize, Serialize};

use crate::memory::formulas::CUDA_CONTEXT_TYPICAL;
use crate::plan::lessons::Workload;
use crate::plan::lessons::WorkloadMemory;
use crate::units::Bytes;

/// Share of N GPUs' speed a ZeRO-3 run keeps after its all-gathers and reduce-scatters: stated
/// (DeepSpeed and FSDP report 80-95 % scaling within one NVLink node), not measured here.
pub const ZERO3_SCALING: f64 = 0.85;
/// GPUs in one node: past 8 the plan says so rather than size a cluster.
pub const MAX_GPUS: u64 = 8;

/// The plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MultiGpuPlan {
    /// GPUs of the plan (its ZeRO-3 shards).
    pub gpus: u64,
    /// Which GPU.
    pub gpu: String,
    /// ZeRO stage (3: parameters, gradients and optimizer state sharded).
    pub zero_stage: u8,
    /// Optimizer state offloaded to CPU memory (when N ≤ 8 GPUs cannot hold it).
    pub offload_optimizer: bool,
    /// Samples per GPU per micro-step.
    pub micro_batch: u64,
    /// Micro-steps per optimizer step.
    pub grad_accum: u64,
    /// Memory per GPU: states / N + activations at the micro-batch + the CUDA context.
    pub memory_per_gpu: Bytes,
    /// Hours for the run.
    pub hours: f64,
    /// Cost range (USD).
    pub cost: (f64, f64),
}

impl MultiGpuPlan {
    /// One line for tables and reports.
    pub fn summary(&self) -> String {
        t!(
            "mg-summary",
            count = self.gpus,
            gpu = self.gpu,
            offload = if self.offload_optimizer {
                t!("mg-offload")
            } else {
                String::new()
            },
            memory = self.memory_per_gpu,
            micro = self.micro_batch,
            accumulation = self.grad_accum,
            hours = format!("{:.1}", self.hours),
            cost = crate::probe::session::usd_range(self.cost)
        )
    }

    /// The DeepSpeed config (ds_config.json).
    pub fn deepspeed_config(&self) -> serde_json::Value {
        let mut zero = serde_json::json!({
            "stage": self.zero_stage,
            "overlap_comm": true,
            "contiguous_gradients": true,
            "reduce_bucket_size": "auto",
            "stage3_prefetch_bucket_size": "auto",
            "stage3_param_persistence_threshold": "auto",
            "stage3_gather_16bit_weights_on_model_save": true
        });
        if self.offload_optimizer {
            zero["offload_optimizer"] = serde_json::json!({ "device": "cpu", "pin_memory": true });
        }
        serde_json::json!({
            "train_batch_size": self.micro_batch * self.grad_accum * self.gpus,
            "train_micro_batch_size_per_gpu": self.micro_batch,
            "gradient_accumulation_steps": self.grad_accum,
            "gradient_clipping": 1.0,
            "bf16": { "enabled": true },
            "zero_optimization": zero
        })
    }

    /// The equivalent Accelerate config with FSDP (accelerate_fsdp.json).
    pub fn accelerate_fsdp_config(&self) -> serde_json::Value {
        serde_json::json!({
            "compute_environment": "LOCAL_MACHINE",
            "distributed_type": "FSDP",
            "mixed_precision": "bf16",
            "num_machines": 1,
            "num_processes": self.gpus,
            "machine_rank": 0,
            "main_training_function": "main",
            "rdzv_backend": "static",
            "same_network": true,
            "use_cpu": false,
            "fsdp_config": {
                "fsdp_sharding_strategy": "FULL_SHARD",
                "fsdp_offload_params": self.offload_optimizer,
                "fsdp_auto_wrap_policy": "TRANSFORMER_BASED_WRAP",
                "fsdp_backward_prefetch": "BACKWARD_PRE",
                "fsdp_state_dict_type": "SHARDED_STATE_DICT",
                "fsdp_cpu_ram_efficient_loading": true,
                "fsdp_sync_module_states": true,
                "fsdp_use_orig_params": true
            }
        })
    }

    /// The launch commands, one per engine (`train.py` standing for the lesson's script).
    pub fn launch_commands(&self) -> [String; 2] {
        [
            format!(
                "deepspeed --num_gpus {} train.py --deepspeed ds_config.json",
                self.gpus
            ),
            "accelerate launch --config_file accelerate_fsdp.json train.py".to_string(),
        ]
    }
}

/// Reads a plan, or the sentence older reports held in its place (as no plan).
pub fn plan_or_legacy<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<MultiGpuPlan>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Plan(MultiGpuPlan),
        Legacy(#[allow(dead_code)] String),
    }
    Ok(match Option::<Either>::deserialize(d)? {
        Some(Either::Plan(p)) => Some(p),
        _ => None,
    })
}

/// The plan for a workload whose memory no single GPU holds, on H100 80 GB GPUs; `hours_one`
/// is how long the run would take on one of them if it fitted (from `timing`); `price` the
/// GPU's hourly range. None when even 8 GPUs with offloading cannot hold it.
pub fn plan(
    w: &Workload,
    mem: &WorkloadMemory,
    hours_one: f64,
    price: (f64, f64),
) -> Option<MultiGpuPlan> {
    let gpu_memory = 80.0 * Bytes::GIB as f64;
    let budget = gpu_memory - CUDA_CONTEXT_TYPICAL.0 as f64;
    let states = (mem.weights.0 + mem.gradients.0 + mem.optimizer_state.0) as f64;
    let batch = w.batch.max(1);
    for offload in [false, true] {
        // Offloading moves the optimizer state (and its fp32 master copy) to CPU memory.
        let on_gpu = if offload {
            (mem.weights.0 + mem.gradients.0) as f64
        } else {
            states
        };
        for gpus in 2..=MAX_GPUS {
            // The largest micro-batch (a divisor of the per-GPU share) whose activations fit.
            let per_gpu_share = batch.div_ceil(gpus);
            for micro in (1..=per_gpu_share).rev() {
                let acts = mem.activations.0 as f64 * micro as f64 / batch as f64;
                let need = on_gpu / gpus as f64 + acts;
                if need <= budget {
                    let accum = batch.div_ceil(micro * gpus);
                    // Offloaded optimizer steps run on the CPU: a further stated 1.5× slower.
                    let slowdown = if offload { 1.5 } else { 1.0 };
                    let hours = hours_one / (gpus as f64 * ZERO3_SCALING) * slowdown;
                    return Some(MultiGpuPlan {
                        gpus,
                        gpu: "H100 80 GB".into(),
                        zero_stage: 3,
                        offload_optimizer: offload,
                        micro_batch: micro,
                        grad_accum: accum,
                        memory_per_gpu: Bytes((need + CUDA_CONTEXT_TYPICAL.0 as f64) as u64),
                        hours,
                        cost: (hours * gpus as f64 * price.0, hours * gpus as f64 * price.1),
                    });
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DeepSpeed's documented top-level and zero_optimization keys (deepspeed.ai/docs/config-json).
    const DEEPSPEED_KEYS: [&str; 6] = [
        "train_batch_size",
        "train_micro_batch_size_per_gpu",
        "gradient_accumulation_steps",
        "gradient_clipping",
        "bf16",
        "zero_optimization",
    ];
    const ZERO_KEYS: [&str; 8] = [
        "stage",
        "overlap_comm",
        "contiguous_gradients",
        "reduce_bucket_size",
        "stage3_prefetch_bucket_size",
        "stage3_param_persistence_threshold",
        "stage3_gather_16bit_weights_on_model_save",
        "offload_optimizer",
    ];
    /// Accelerate's config-file keys and FSDP plugin keys (accelerate's `ClusterConfig` and its
    /// FSDP usage guide).
    const ACCELERATE_KEYS: [&str; 11] = [
        "compute_environment",
        "distributed_type",
        "mixed_precision",
        "num_machines",
        "num_processes",
        "machine_rank",
        "main_training_function",
        "rdzv_backend",
        "same_network",
        "use_cpu",
        "fsdp_config",
    ];
    const FSDP_KEYS: [&str; 8] = [
        "fsdp_sharding_strategy",
        "fsdp_offload_params",
        "fsdp_auto_wrap_policy",
        "fsdp_backward_prefetch",
        "fsdp_state_dict_type",
        "fsdp_cpu_ram_efficient_loading",
        "fsdp_sync_module_states",
        "fsdp_use_orig_params",
    ];

    fn keys(v: &serde_json::Value) -> Vec<String> {
        v.as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn an_8b_full_fine_tune_is_planned_on_h100s_with_valid_configs() {
        let w = crate::plan::lessons::shipped();
        let full = crate::plan::lessons::find(&w, "recipe/full-ft-llama3-8b").unwrap();
        let mem = crate::plan::fit::memory(full);
        let p = plan(full, &mem, 10.0, (2.0, 4.0)).expect("8 GPUs hold an 8B model");
        assert!(p.gpus >= 2 && p.gpus <= MAX_GPUS);
        assert!(p.memory_per_gpu <= Bytes(80 << 30));
        assert!(
            p.micro_batch * p.grad_accum * p.gpus >= full.batch,
            "the global batch is kept"
        );
        let ds = p.deepspeed_config();
        for k in keys(&ds) {
            assert!(
                DEEPSPEED_KEYS.contains(&k.as_str()),
                "undocumented DeepSpeed key {k}"
            );
        }
        for k in keys(&ds["zero_optimization"]) {
            assert!(ZERO_KEYS.contains(&k.as_str()), "undocumented ZeRO key {k}");
        }
        assert_eq!(
            ds["train_batch_size"].as_u64().unwrap(),
            ds["train_micro_batch_size_per_gpu"].as_u64().unwrap()
                * ds["gradient_accumulation_steps"].as_u64().unwrap()
                * p.gpus,
            "DeepSpeed checks this identity at start"
        );
        let acc = p.accelerate_fsdp_config();
        for k in keys(&acc) {
            assert!(
                ACCELERATE_KEYS.contains(&k.as_str()),
                "undocumented Accelerate key {k}"
            );
        }
        for k in keys(&acc["fsdp_config"]) {
            assert!(FSDP_KEYS.contains(&k.as_str()), "undocumented FSDP key {k}");
        }
        assert_eq!(acc["num_processes"].as_u64().unwrap(), p.gpus);
        assert!(p.launch_commands()[0].contains(&format!("--num_gpus {}", p.gpus)));
        assert!(p.summary().contains("ZeRO-3"));
    }
}

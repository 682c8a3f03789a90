//! The optimizers a training step can use: candle-nn's SGD and AdamW as they are (their memory is
//! what we measure), and SGD with momentum, which candle-nn lacks.
//!
//! State per parameter, in the parameter's dtype (candle keeps no fp32 master copy):
//! SGD 0, momentum 1 (velocity), AdamW 2 (first and second moments).

use candle_core::{DType, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, SGD};
use serde::{Deserialize, Serialize};

use crate::error::Result;

/// Which optimizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptimizerKind {
    /// Plain SGD: no state.
    Sgd,
    /// SGD with momentum 0.9: one velocity per parameter.
    Momentum,
    /// AdamW: two moments per parameter.
    Adamw,
}

/// An optimizer as recipes name it: the kind whose step was measured, and the bytes its state
/// holds per trainable parameter when they differ from that kind's (bitsandbytes' 8-bit
/// moments, Adafactor's factored second moment).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptimizerRecipe {
    /// The measured kind it is modelled on.
    pub kind: OptimizerKind,
    /// Its name as given on the command line, canonical.
    pub name: &'static str,
    /// State bytes per trainable parameter (None: the kind's own).
    pub state_bytes: Option<f64>,
}

impl OptimizerRecipe {
    /// Parses sgd, momentum, adamw (adam), adamw-fused, paged-adamw, adamw-8bit,
    /// paged-adamw-8bit and adafactor.
    pub fn parse(text: &str) -> Result<OptimizerRecipe> {
        // bitsandbytes' 8-bit Adam: two uint8 moments plus an fp32 scale per 2,048-element
        // block of each (its blockwise quantization).
        const EIGHT_BIT: f64 = 2.0 + 2.0 * 4.0 / 2048.0;
        let (kind, name, state_bytes) =
            match text.trim().to_ascii_lowercase().replace('_', "-").as_str() {
                "adamw-fused" | "fused-adamw" => (OptimizerKind::Adamw, "adamw-fused", None),
                // Paged: the same fp32 moments in unified memory (they can spill to the host under
                // pressure; counted on the GPU here).
                "paged-adamw" | "paged-adamw-32bit" => (OptimizerKind::Adamw, "paged-adamw", None),
                "adamw-8bit" | "adamw8bit" | "adam8bit" | "8bit-adamw" => {
                    (OptimizerKind::Adamw, "adamw-8bit", Some(EIGHT_BIT))
                }
                "paged-adamw-8bit" | "paged-adamw8bit" => {
                    (OptimizerKind::Adamw, "paged-adamw-8bit", Some(EIGHT_BIT))
                }
                // Transformers' Adafactor defaults: no first moment, the second factored into a
                // row and a column vector per matrix: next to nothing per parameter.
                "adafactor" => (OptimizerKind::Adamw, "adafactor", Some(0.0)),
                other => {
                    let kind = OptimizerKind::parse(other)?;
                    (kind, kind.name(), None)
                }
            };
        Ok(OptimizerRecipe {
            kind,
            name,
            state_bytes,
        })
    }
}

impl OptimizerKind {
    /// Parses "sgd", "momentum", "adamw" (or "adam").
    pub fn parse(text: &str) -> Result<OptimizerKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "sgd" => Ok(OptimizerKind::Sgd),
            "momentum" | "sgd-momentum" | "sgdm" => Ok(OptimizerKind::Momentum),
            "adamw" | "adam" => Ok(OptimizerKind::Adamw),
            other => Err(crate::bad!(
                "optimizer-unknown",
                given = format!("{other:?}")
            )),
        }
    }

    /// Name as printed.
    pub fn name(self) -> &'static str {
        match self {
            OptimizerKind::Sgd => "sgd",
            OptimizerKind::Momentum => "momentum",
            OptimizerKind::Adamw => "adamw",
        }
    }

    /// State tensors per parameter.
    pub fn states_per_param(self) -> u64 {
        match self {
            OptimizerKind::Sgd => 0,
            OptimizerKind::Momentum => 1,
            OptimizerKind::Adamw => 2,
        }
    }
}

/// SGD with (heavy-ball) momentum: v ← μ·v + g; w ← w − lr·v. Updates run on detached tensors so
/// the step holds only a few temporaries the size of one parameter.
pub struct SgdMomentum {
    vars: Vec<(Var, Var)>,
    lr: f64,
    momentum: f64,
}

impl SgdMomentum {
    /// One velocity per float parameter, zero-initialised in the parameter's dtype.
    pub fn new(vars: Vec<Var>, lr: f64, momentum: f64) -> candle_core::Result<SgdMomentum> {
        let vars = vars
            .into_iter()
            .filter(|v| v.dtype().is_float())
            .map(|v| {
                let velocity = Var::zeros(v.shape(), v.dtype(), v.device())?;
                Ok((v, velocity))
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(SgdMomentum { vars, lr, momentum })
    }

    /// One update.
    pub fn step(&mut self, grads: &candle_core::backprop::GradStore) -> candle_core::Result<()> {
        for (var, velocity) in &self.vars {
            if let Some(g) = grads.get(var) {
                let v = ((velocity.as_tensor().detach() * self.momentum)? + g.detach())?;
                let w = (var.as_tensor().detach() - (&v * self.lr)?)?;
                velocity.set(&v)?;
                var.set(&w)?;
            }
        }
        Ok(())
    }
}

/// Gradients of the parameters only, by parameter: what a lean step keeps of Candle's gradient
/// store (which also holds gradients of non-parameter leaves such as the causal mask).
pub type VarGrads = std::collections::HashMap<candle_core::TensorId, Tensor>;

/// The parameters' gradients out of a gradient store, detached (they share its storage, so
/// dropping the store afterwards frees only what is not a parameter's gradient).
pub fn var_grads(vars: &[Var], grads: &candle_core::backprop::GradStore) -> VarGrads {
    vars.iter()
        .filter_map(|v| {
            grads
                .get(v.as_tensor())
                .map(|g| (v.as_tensor().id(), g.detach()))
        })
        .collect()
}

/// gpulab's lean optimizers: SGD, momentum and AdamW over [`VarGrads`], each update computed on
/// detached tensors one parameter at a time, so the step holds a few temporaries the size of
/// one parameter. candle-nn's AdamW runs its update on tensors that still track the graph and
/// briefly holds ~14× the largest parameter (data/docs/measured.md); this one holds ~4×.
pub struct LeanOpt {
    kind: OptimizerKind,
    /// (parameter, first moment or velocity, second moment)
    vars: Vec<(Var, Option<Var>, Option<Var>)>,
    lr: f64,
    eps: f64,
    t: i32,
}

impl LeanOpt {
    /// State in the parameter's dtype, as candle-nn keeps it (eps as in [`Opt::new`]).
    pub fn new(kind: OptimizerKind, vars: Vec<Var>, dtype: DType) -> candle_core::Result<LeanOpt> {
        let zeros = |v: &Var| Var::zeros(v.shape(), v.dtype(), v.device());
        let vars = vars
            .into_iter()
            .filter(|v| v.dtype().is_float())
            .map(|v| {
                let first = match kind {
                    OptimizerKind::Sgd => None,
                    _ => Some(zeros(&v)?),
                };
                let second = match kind {
                    OptimizerKind::Adamw => Some(zeros(&v)?),
                    _ => None,
                };
                Ok((v, first, second))
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(LeanOpt {
            kind,
            vars,
            lr: 1e-3,
            eps: if dtype == DType::F16 { 1e-4 } else { 1e-8 },
            t: 0,
        })
    }

    /// One update (AdamW: β₁ 0.9, β₂ 0.999, weight decay 0.01, as candle-nn's defaults).
    pub fn step(&mut self, grads: &VarGrads) -> candle_core::Result<()> {
        self.t += 1;
        let (b1, b2, wd) = (0.9f64, 0.999f64, 0.01f64);
        for (var, first, second) in &self.vars {
            let Some(g) = grads.get(&var.as_tensor().id()) else {
                continue;
            };
            let w = var.as_tensor().detach();
            let next = match (self.kind, first, second) {
                (OptimizerKind::Sgd, _, _) => (w - (g * self.lr)?)?,
                (OptimizerKind::Momentum, Some(v), _) => {
                    let v_new = ((v.as_tensor().detach() * 0.9)? + g)?;
                    v.set(&v_new)?;
                    (w - (v_new * self.lr)?)?
                }
                (OptimizerKind::Adamw, Some(m), Some(v)) => {
                    let m_new = ((m.as_tensor().detach() * b1)? + (g * (1.0 - b1))?)?;
                    m.set(&m_new)?;
                    let v_new = ((v.as_tensor().detach() * b2)? + (g.sqr()? * (1.0 - b2))?)?;
                    v.set(&v_new)?;
                    let m_hat = (m_new / (1.0 - b1.powi(self.t)))?;
                    let denom = ((v_new / (1.0 - b2.powi(self.t)))?.sqrt()? + self.eps)?;
                    let update = (m_hat / denom)?;
                    ((w * (1.0 - self.lr * wd))? - (update * self.lr)?)?
                }
                _ => continue,
            };
            var.set(&next)?;
        }
        Ok(())
    }
}

/// A built optimizer.
pub enum Opt {
    /// candle-nn SGD.
    Sgd(SGD),
    /// gpulab's own SGD with momentum.
    Momentum(SgdMomentum),
    /// candle-nn AdamW.
    Adamw(AdamW),
}

impl Opt {
    /// Builds `kind` over `vars`. f16's AdamW gets eps 1e-4: the default 1e-8 rounds to 0 in f16
    /// and gives NaN from the second step (data/docs/measured.md).
    pub fn new(kind: OptimizerKind, vars: Vec<Var>, dtype: DType) -> candle_core::Result<Opt> {
        let lr = 1e-3;
        Ok(match kind {
            OptimizerKind::Sgd => Opt::Sgd(SGD::new(vars, lr)?),
            OptimizerKind::Momentum => Opt::Momentum(SgdMomentum::new(vars, lr, 0.9)?),
            OptimizerKind::Adamw => Opt::Adamw(AdamW::new(
                vars,
                ParamsAdamW {
                    lr,
                    eps: if dtype == DType::F16 { 1e-4 } else { 1e-8 },
                    ..Default::default()
                },
            )?),
        })
    }

    /// One update from `grads`.
    pub fn step(&mut self, grads: &candle_core::backprop::GradStore) -> candle_core::Result<()> {
        match self {
            Opt::Sgd(o) => o.step(grads),
            Opt::Momentum(o) => o.step(grads),
            Opt::Adamw(o) => o.step(grads),
        }
    }
}

/// The loss after `steps` updates on one fixed batch, to show an optimizer really trains.
pub fn train_steps(
    kind: OptimizerKind,
    vars: Vec<Var>,
    dtype: DType,
    steps: usize,
    mut loss: impl FnMut() -> candle_core::Result<Tensor>,
) -> candle_core::Result<Vec<f32>> {
    let mut opt = Opt::new(kind, vars, dtype)?;
    let mut losses = Vec::new();
    for _ in 0..steps {
        let l = loss()?;
        losses.push(l.to_scalar::<f32>()?);
        opt.step(&l.backward()?)?;
    }
    Ok(losses)
}

#[cfg(test)]
mod tests {

    #[test]
    fn recipes_name_their_measured_kind_and_state() {
        let r = OptimizerRecipe::parse("paged_adamw_8bit").unwrap();
        assert_eq!((r.kind, r.name), (OptimizerKind::Adamw, "paged-adamw-8bit"));
        assert!((r.state_bytes.unwrap() - 2.0).abs() < 0.01);
        assert_eq!(
            OptimizerRecipe::parse("adafactor").unwrap().state_bytes,
            Some(0.0)
        );
        assert_eq!(
            OptimizerRecipe::parse("adamw-fused").unwrap().state_bytes,
            None
        );
        assert_eq!(
            OptimizerRecipe::parse("sgd").unwrap().kind,
            OptimizerKind::Sgd
        );
        assert!(OptimizerRecipe::parse("lion").is_err());
    }

    use super::*;
    use crate::memory::models::{random_batch, Family, Model, ModelConfig};
    use candle_core::Device;
    use candle_nn::{VarBuilder, VarMap};

    const KINDS: [OptimizerKind; 3] = [
        OptimizerKind::Sgd,
        OptimizerKind::Momentum,
        OptimizerKind::Adamw,
    ];

    /// A small MLP, its parameters and one fixed batch.
    fn small_mlp() -> (Model, VarMap, Tensor, Tensor) {
        let mut config = ModelConfig::default_for(Family::Mlp);
        config.batch = 16;
        config.mlp_hidden = vec![32];
        let map = VarMap::new();
        let vb = VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu);
        let model = Model::build(&config, vb).unwrap();
        let (x, y) = random_batch(&config, DType::F32, &Device::Cpu).unwrap();
        (model, map, x, y)
    }

    #[test]
    fn lean_optimizers_lower_the_loss_too() {
        for kind in KINDS {
            let (model, map, x, y) = small_mlp();
            let vars = map.all_vars();
            let mut opt = LeanOpt::new(kind, vars.clone(), DType::F32).unwrap();
            let mut losses = Vec::new();
            for _ in 0..30 {
                let l = model.loss(&x, &y).unwrap();
                losses.push(l.to_scalar::<f32>().unwrap());
                let grads = var_grads(&vars, &l.backward().unwrap());
                opt.step(&grads).unwrap();
            }
            assert!(losses[29] < losses[0] * 0.9, "{kind:?}: {losses:?}");
        }
    }

    #[test]
    fn every_optimizer_lowers_the_loss() {
        for kind in KINDS {
            let (model, map, x, y) = small_mlp();
            let losses =
                train_steps(kind, map.all_vars(), DType::F32, 30, || model.loss(&x, &y)).unwrap();
            assert!(losses.iter().all(|l| l.is_finite()), "{kind:?}");
            assert!(losses[29] < losses[0], "{kind:?}: {losses:?}");
        }
        assert!(OptimizerKind::parse("lion").is_err());
    }
}

//! The Llama-style block's parts: RMSNorm, rotary positions and grouped-query attention, written
//! with differentiable ops (data/docs/measured.md: some of candle-nn's fused ops have no
//! backward).

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::Linear;

pub(super) struct LlamaBlock {
    pub(super) norm1: Tensor,
    pub(super) q: Linear,
    pub(super) k: Linear,
    pub(super) v: Linear,
    pub(super) o: Linear,
    pub(super) norm2: Tensor,
    pub(super) gate: Linear,
    pub(super) up: Linear,
    pub(super) down: Linear,
}

/// RMSNorm written with differentiable ops: x / sqrt(mean(x²) + ε) · w.
pub(super) fn rms_norm(x: &Tensor, weight: &Tensor) -> candle_core::Result<Tensor> {
    let mean_square = x.sqr()?.mean_keepdim(D::Minus1)?;
    x.broadcast_div(&(mean_square + 1e-5)?.sqrt()?)?
        .broadcast_mul(weight)
}

/// Rotary position tables (the "rotate half" form): cos and sin of position × frequency, for
/// each of the head's width, θ = 10000.
pub(super) struct Rope {
    cos: Tensor,
    sin: Tensor,
}

impl Rope {
    pub(super) fn new(
        s: usize,
        head_dim: usize,
        dtype: DType,
        device: &Device,
    ) -> candle_core::Result<Rope> {
        let half = head_dim / 2;
        let angles: Vec<f32> = (0..s)
            .flat_map(|p| {
                (0..head_dim).map(move |i| {
                    let freq = 1.0 / 10000f32.powf((i % half) as f32 * 2.0 / head_dim as f32);
                    p as f32 * freq
                })
            })
            .collect();
        let angles = Tensor::from_vec(angles, (s, head_dim), device)?;
        Ok(Rope {
            cos: angles.cos()?.to_dtype(dtype)?,
            sin: angles.sin()?.to_dtype(dtype)?,
        })
    }

    /// x·cos + rotate_half(x)·sin, for x of shape (b, heads, s, head_dim).
    pub(super) fn apply(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let hd = x.dim(D::Minus1)?;
        let (x1, x2) = (
            x.narrow(D::Minus1, 0, hd / 2)?,
            x.narrow(D::Minus1, hd / 2, hd / 2)?,
        );
        let rotated = Tensor::cat(&[&x2.neg()?, &x1], D::Minus1)?;
        x.broadcast_mul(&self.cos)? + rotated.broadcast_mul(&self.sin)?
    }
}

pub(super) fn llama_attention(
    x: &Tensor,
    block: &LlamaBlock,
    (heads, kv_heads): (usize, usize),
    mask: &Tensor,
    rope: &Rope,
) -> candle_core::Result<Tensor> {
    let (b, s, d) = x.dims3()?;
    let hd = d / heads;
    let split = |t: Tensor, n: usize| t.reshape((b, s, n, hd))?.transpose(1, 2)?.contiguous();
    let q = rope.apply(&split(block.q.forward(x)?, heads)?)?;
    let k = rope.apply(&split(block.k.forward(x)?, kv_heads)?)?;
    let v = split(block.v.forward(x)?, kv_heads)?;
    // Grouped-query attention: each key/value head serves heads / kv_heads query heads
    // (candle-transformers' repeat_kv).
    let repeat = |t: Tensor| -> candle_core::Result<Tensor> {
        let n = heads / kv_heads;
        if n == 1 {
            return Ok(t);
        }
        Tensor::cat(&vec![&t; n], 2)?.reshape((b, heads, s, hd))
    };
    let (k, v) = (repeat(k)?, repeat(v)?);
    let scores = (q.matmul(&k.t()?)? / (hd as f64).sqrt())?.broadcast_add(mask)?;
    let weights = candle_nn::ops::softmax(&scores, D::Minus1)?;
    let out = weights.matmul(&v)?.transpose(1, 2)?.reshape((b, s, d))?;
    block.o.forward(&out)
}

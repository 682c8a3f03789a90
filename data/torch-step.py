"""gpulab's training step in PyTorch, with the bytes PyTorch holds measured per phase. Two
implementations of the same GPT-2- and Llama-style models (src/memory/models.rs):
- "gpulab": this file's own modules, the same layers as gpulab's Candle step;
- "transformers": Hugging Face's GPT2LMHeadModel / LlamaForCausalLM built from a config (no
  download), with the library's defaults (SDPA attention unless "attn" says "eager", GPT-2's
  dropout 0.1, train mode), the loss through `labels=` as users write it.
Recipes on top: activation checkpointing (`gradient_checkpointing_enable()`), LoRA through peft
(rank, target modules "qv" or "all-linear"; only the adapters train), and mixed precision
(torch.autocast around the forward pass, the weights and optimizer in f32), and QLoRA's 4-bit
base ("quant": "nf4": the blocks' linear layers as bitsandbytes' Linear4bit, NF4 with double
quantisation, computing in the step's dtype, under the LoRA adapters; as
`BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
bnb_4bit_use_double_quant=True)` loads a model, without `prepare_model_for_kbit_training`).

`gpulab measure --pytorch` writes this file to a temporary folder and runs it with the chosen
python; the job arrives as JSON on stdin, the result leaves as JSON on stdout (one line).

Memory is read from PyTorch itself:
- CPU: the profiler's memory events (profile_memory=True): every allocation and free of a
  tensor's storage with its size, so their running total is the bytes of live tensors, exactly.
- CUDA: torch.cuda.memory_allocated / max_memory_allocated, reset per phase.
Bytes are relative to the step's start plus the tensors alive then (weights, optimizer state,
the batch), counted from their storages.

Job: {"device": "cpu"|"cuda", "dtype": "f32"|"bf16", "optimizer": "sgd"|"momentum"|"adamw",
      "impl": "gpulab"|"transformers" (default gpulab), "attn": "sdpa"|"eager",
      "foreach": true|false (AdamW's multi-tensor update; CUDA's default, not the CPU's),
      "checkpointing": bool,
      "autocast": null | "bf16"|"f16" (mixed precision: weights in "dtype", the forward in this),
      "quant": absent | null | "nf4" (QLoRA's 4-bit base; LoRA shapes only),
      "shapes": [{"family": "gpt"|"llama", "batch", "layers", "d_model", "heads", "kv_heads",
                  "ffn", "vocab", "seq_len", "context", "tied",
                  "lora": absent | {"rank", "targets": "qv"|"all-linear"}}]}
Result: {"torch": version, "transformers": version|null, "device": name,
         "steps": [{"params", "trainable", "trainable_bytes", "weights", "optimizer_state", "batch",
                    "forward_live", "backward_peak", "step_peak", "peak"} | {"error": text}]}
"""
import json
import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class GptBlock(nn.Module):
    def __init__(s, d, heads, ffn):
        super().__init__()
        s.heads = heads
        s.ln1, s.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        s.qkv, s.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        s.fc1, s.fc2 = nn.Linear(d, ffn), nn.Linear(ffn, d)

    def forward(s, x, mask):
        b, t, d = x.shape
        q, k, v = s.qkv(s.ln1(x)).view(b, t, 3, s.heads, d // s.heads).unbind(2)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // s.heads) + mask, -1)
        x = x + s.proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + s.fc2(F.gelu(s.fc1(s.ln2(x))))


class Gpt(nn.Module):
    def __init__(s, c):
        super().__init__()
        d = c["d_model"]
        s.tok = nn.Embedding(c["vocab"], d)
        s.pos = nn.Embedding(c.get("context") or c["seq_len"], d)
        s.blocks = nn.ModuleList(GptBlock(d, c["heads"], c["ffn"]) for _ in range(c["layers"]))
        s.ln_f = nn.LayerNorm(d)
        s.head = None if c["tied"] else nn.Linear(d, c["vocab"], bias=False)

    def forward(s, x):
        t = x.shape[1]
        h = s.tok(x) + s.pos(torch.arange(t, device=x.device))
        mask = torch.full((t, t), float("-inf"), device=x.device, dtype=h.dtype).triu(1)
        for blk in s.blocks:
            h = blk(h, mask)
        h = s.ln_f(h)
        return h @ s.tok.weight.t() if s.head is None else s.head(h)


class RmsNorm(nn.Module):
    def __init__(s, d):
        super().__init__()
        s.weight = nn.Parameter(torch.ones(d))

    def forward(s, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * s.weight


def rope(x, cos, sin):
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), -1)
    return x * cos + rotated * sin


class LlamaBlock(nn.Module):
    def __init__(s, d, heads, kv, ffn):
        super().__init__()
        s.heads, s.kv, hd = heads, kv, d // heads
        s.norm1, s.norm2 = RmsNorm(d), RmsNorm(d)
        s.q, s.k = nn.Linear(d, d, bias=False), nn.Linear(d, kv * hd, bias=False)
        s.v, s.o = nn.Linear(d, kv * hd, bias=False), nn.Linear(d, d, bias=False)
        s.gate = nn.Linear(d, ffn, bias=False)
        s.up = nn.Linear(d, ffn, bias=False)
        s.down = nn.Linear(ffn, d, bias=False)

    def forward(s, x, mask, cos, sin):
        b, t, d = x.shape
        hd = d // s.heads
        n = s.norm1(x)
        q = rope(s.q(n).view(b, t, s.heads, hd).transpose(1, 2), cos, sin)
        k = rope(s.k(n).view(b, t, s.kv, hd).transpose(1, 2), cos, sin)
        v = s.v(n).view(b, t, s.kv, hd).transpose(1, 2)
        if s.kv != s.heads:
            k = k.repeat_interleave(s.heads // s.kv, dim=1)
            v = v.repeat_interleave(s.heads // s.kv, dim=1)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(hd) + mask, -1)
        x = x + s.o((att @ v).transpose(1, 2).reshape(b, t, d))
        n = s.norm2(x)
        return x + s.down(F.silu(s.gate(n)) * s.up(n))


class Llama(nn.Module):
    def __init__(s, c):
        super().__init__()
        d = c["d_model"]
        s.heads = c["heads"]
        s.tok = nn.Embedding(c["vocab"], d)
        s.blocks = nn.ModuleList(
            LlamaBlock(d, c["heads"], c["kv_heads"], c["ffn"]) for _ in range(c["layers"])
        )
        s.norm = RmsNorm(d)
        s.head = nn.Linear(d, c["vocab"], bias=False)

    def forward(s, x):
        t = x.shape[1]
        h = s.tok(x)
        hd = h.shape[-1] // s.heads
        half = hd // 2
        freq = 1.0 / 10000 ** (torch.arange(hd, device=x.device) % half * 2.0 / hd)
        angles = torch.arange(t, device=x.device)[:, None] * freq[None, :]
        cos, sin = angles.cos().to(h.dtype), angles.sin().to(h.dtype)
        mask = torch.full((t, t), float("-inf"), device=x.device, dtype=h.dtype).triu(1)
        for blk in s.blocks:
            h = blk(h, mask, cos, sin)
        return s.head(s.norm(h))


def storage_bytes(tensors):
    seen, total = set(), 0
    for t in tensors:
        if t is None:
            continue
        key = t.untyped_storage().data_ptr()
        if key not in seen:
            seen.add(key)
            total += t.untyped_storage().nbytes()
    return total


class CpuMeter:
    """The profiler's memory events over the whole step: each allocation and free with its size,
    in order, so their running total is the bytes of live tensors allocated during the step;
    phases are `record_function` ranges. (Summing the ops' own memory columns would count a
    nested op's bytes again in its parent.)"""

    def __init__(s):
        s.names = []

    def run(s, name, fn):
        s.names.append(name)
        with torch.profiler.record_function("gpulab:" + name):
            return fn()

    def measure(s, step):
        import os
        import tempfile

        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                    profile_memory=True) as prof:
            step(s)
        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        try:
            prof.export_chrome_trace(path)
            with open(path) as f:
                events = json.load(f)["traceEvents"]
        finally:
            os.remove(path)
        mem = sorted((e for e in events if e.get("name") == "[memory]"), key=lambda e: e["ts"])
        ranges = {e["name"][len("gpulab:"):]: (e["ts"], e["ts"] + e.get("dur", 0))
                  for e in events if e.get("name", "").startswith("gpulab:")}
        phases, live, i = [], 0, 0
        for name in s.names:
            start, end = ranges[name]
            before = peak = live
            while i < len(mem) and mem[i]["ts"] <= end:
                live += mem[i]["args"]["Bytes"]
                if mem[i]["ts"] >= start:
                    peak = max(peak, live)
                i += 1
            phases.append((name, live - before, peak - before))
        return phases


class CudaMeter:
    def __init__(s):
        s.phases = []

    def measure(s, step):
        step(s)
        return s.phases

    def run(s, name, fn):
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        out = fn()
        torch.cuda.synchronize()
        s.phases.append((name, torch.cuda.memory_allocated() - before,
                         torch.cuda.max_memory_allocated() - before))
        return out


def hf_model(job, c):
    """Hugging Face's own model for the shape, from a config (random weights, no download)."""
    import transformers

    attn = job.get("attn") or "sdpa"
    ctx = c.get("context") or c["seq_len"]
    if c["family"] == "gpt":
        config = transformers.GPT2Config(
            vocab_size=c["vocab"], n_positions=ctx, n_embd=c["d_model"], n_layer=c["layers"],
            n_head=c["heads"], n_inner=c["ffn"], tie_word_embeddings=c["tied"],
            bos_token_id=0, eos_token_id=0)
        cls = transformers.GPT2LMHeadModel
    else:
        config = transformers.LlamaConfig(
            vocab_size=c["vocab"], hidden_size=c["d_model"], intermediate_size=c["ffn"],
            num_hidden_layers=c["layers"], num_attention_heads=c["heads"],
            num_key_value_heads=c["kv_heads"], max_position_embeddings=ctx,
            tie_word_embeddings=c["tied"], bos_token_id=0, eos_token_id=0, pad_token_id=None)
        cls = transformers.LlamaForCausalLM
    config._attn_implementation = attn
    config.use_cache = False
    return cls(config)


def lora(model, job, c):
    """peft's LoRA on the model: only the adapters train."""
    import peft

    spec = c["lora"]
    if spec["targets"] == "all-linear":
        targets = "all-linear"
    elif c["family"] == "gpt":
        targets = ["c_attn"]  # GPT-2's q, k and v are one Conv1D: peft adapts it whole
    else:
        targets = ["q_proj", "v_proj"]
    config = peft.LoraConfig(r=spec["rank"], lora_alpha=2 * spec["rank"], lora_dropout=0.05,
                             target_modules=targets, fan_in_fan_out=c["family"] == "gpt")
    return peft.get_peft_model(model, config)


def quantize_nf4(model, dtype):
    """The blocks' linear layers (transformers' Conv1D for GPT-2) as bitsandbytes' NF4
    Linear4bit with double quantisation, the head and embeddings left in `dtype`, as
    transformers' 4-bit loading does. Returns the bytes of the quantisation constants (absmax
    and their own constants, codebooks), which are tensors outside the parameters."""
    import bitsandbytes as bnb
    from transformers.pytorch_utils import Conv1D

    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name == "lm_head" or not isinstance(child, (nn.Linear, Conv1D)):
                continue
            # Conv1D keeps its weight as (in, out): transposed, it is a Linear's (out, in).
            w = child.weight.data.t() if isinstance(child, Conv1D) else child.weight.data
            q = bnb.nn.Linear4bit(w.shape[1], w.shape[0], bias=child.bias is not None,
                                  compute_dtype=dtype, compress_statistics=True,
                                  quant_type="nf4")
            q.weight = bnb.nn.Params4bit(w.float().contiguous(), requires_grad=False,
                                         compress_statistics=True, quant_type="nf4")
            if child.bias is not None:
                q.bias = nn.Parameter(child.bias.data, requires_grad=child.bias.requires_grad)
            setattr(module, name, q.to(w.device))
    constants = []
    for p in model.parameters():
        state = getattr(p, "quant_state", None)
        while state is not None:
            constants += [state.absmax, state.code, getattr(state, "offset", None)]
            state = getattr(state, "state2", None)
    return storage_bytes([t for t in constants if torch.is_tensor(t)])


def one_step(job, c):
    dev = job["device"]
    dtypes = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    dtype = dtypes[job["dtype"]]
    hf = job.get("impl", "gpulab") == "transformers"
    torch.manual_seed(0)
    if hf:
        model = hf_model(job, c)
    else:
        model = Gpt(c) if c["family"] == "gpt" else Llama(c)
    model = model.to(dev, dtype)
    all_params = list(model.parameters())
    # The shape's parameter count, whatever storage a quantised base packs them in.
    base_count = sum(p.numel() for p in all_params)
    constants = 0
    if job.get("quant"):
        if not (hf and c.get("lora")):
            raise ValueError("a 4-bit base is measured under LoRA on the transformers implementation")
        constants = quantize_nf4(model, dtype)
    if job.get("checkpointing"):
        if not hf:
            raise ValueError("checkpointing is measured on the transformers implementation")
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if c.get("lora"):
        if not hf:
            raise ValueError("LoRA is measured on the transformers implementation (peft)")
        model = lora(model, job, c)
        all_params = list(model.parameters())
        base_count = base_count + sum(p.numel() for p in all_params if p.requires_grad)
    model.train()
    params = [p for p in all_params if p.requires_grad]
    foreach = bool(job.get("foreach", False))
    opt = {
        "sgd": lambda: torch.optim.SGD(params, lr=1e-3, foreach=foreach),
        "momentum": lambda: torch.optim.SGD(params, lr=1e-3, momentum=0.9, foreach=foreach),
        # foreach=False is the single-tensor update, PyTorch's default on the CPU; True the
        # multi-tensor one, its default on CUDA.
        "adamw": lambda: torch.optim.AdamW(params, lr=1e-3, foreach=foreach),
    }[job["optimizer"]]()
    b, t, v = c["batch"], c["seq_len"], c["vocab"]
    x = torch.randint(0, v, (b, t), device=dev)
    y = torch.randint(0, v, (b * t,), device=dev)
    autocast = job.get("autocast")

    def forward():
        if autocast:
            with torch.autocast(dev, dtype=dtypes[autocast]):
                return model(input_ids=x, labels=x).loss if hf else model(x)
        return model(input_ids=x, labels=x).loss if hf else model(x)

    def step(meter):
        if hf:
            # As users write it: the loss from labels= (the model shifts them), outputs dropped.
            loss = meter.run("forward", forward)
            loss = meter.run("forward_loss", lambda: loss)
        else:
            logits = meter.run("forward", lambda: forward().reshape(b * t, v).float())
            loss = meter.run("forward_loss", lambda: F.cross_entropy(logits, y))
            del logits
        meter.run("backward", lambda: loss.backward())
        del loss
        meter.run("step", lambda: opt.step())
        opt.zero_grad(set_to_none=True)

    class Quiet:
        def run(s, name, fn):
            return fn()

    step(Quiet())  # AdamW creates its state in the first step: measure the second
    state = [t for s in opt.state.values() for t in s.values() if torch.is_tensor(t)]
    weights = storage_bytes(all_params) + constants
    base = weights + storage_bytes(state) + storage_bytes([x, y])
    meter = CudaMeter() if dev == "cuda" else CpuMeter()
    live, peaks = 0, {}
    forward_live = None
    for name, delta, peak in meter.measure(step):
        peaks[name] = base + live + peak
        live += delta
        if name == "forward_loss":
            forward_live = base + live
    return {
        "params": base_count,
        "trainable": sum(p.numel() for p in params),
        "trainable_bytes": sum(p.numel() * p.element_size() for p in params),
        "weights": weights,
        "optimizer_state": storage_bytes(state),
        "batch": storage_bytes([x, y]),
        "forward_live": forward_live,
        "backward_peak": peaks["backward"],
        "step_peak": peaks["step"],
        "peak": max(peaks.values()),
    }


def main():
    job = json.load(sys.stdin)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    steps = []
    for c in job["shapes"]:
        try:
            steps.append(one_step(job, c))
        except Exception as e:  # a shape that cannot run is data, not a crash
            steps.append({"error": f"{type(e).__name__}: {e}"})
    name = torch.cuda.get_device_name(0) if job["device"] == "cuda" else "cpu"
    try:
        import transformers
        hf_version = transformers.__version__
    except ImportError:
        hf_version = None
    print(json.dumps({"torch": torch.__version__, "transformers": hf_version, "device": name,
                      "steps": steps}))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Counts the bytes a Hugging Face training step saves for backward, op by op as autograd keeps
them, for small Llama and GPT-2 shapes: the recorded check of src/memory/cuda_step.rs's rules
(which tensors each op keeps, in which type). Saved tensors do not depend on the device except
in the attention kernel, so the CPU's flash kernel (causal, no dropout) stands in for CUDA's.

Usage: .ci/census-torch.py > data/fixtures/torch/census.json   (needs torch, transformers, peft)
"""
import json
import sys

import torch
import transformers
import peft

torch.manual_seed(0)
B, S = 2, 64


def build(family, layers, attn, dtype):
    if family == "llama":
        cfg = transformers.LlamaConfig(
            vocab_size=512, hidden_size=256, intermediate_size=512, num_hidden_layers=layers,
            num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=S,
            tie_word_embeddings=False, attn_implementation=attn)
        model = transformers.LlamaForCausalLM(cfg)
    else:
        # Dropout off: the CPU's flash kernel takes no dropout (CUDA's does, keeping no mask).
        cfg = transformers.GPT2Config(
            vocab_size=512, n_embd=256, n_layer=layers, n_head=4, n_positions=S,
            resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, attn_implementation=attn)
        model = transformers.GPT2LMHeadModel(cfg)
    return model.to(dtype)


def saved_bytes(model, autocast):
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen = {}

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in params:
            seen[ptr] = t.untyped_storage().nbytes()
        return t

    ids = torch.randint(0, 512, (B, S))
    model.train()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        ctx = torch.autocast("cpu", dtype=torch.bfloat16) if autocast else torch.autocast("cpu", enabled=False)
        with ctx:
            out = model(input_ids=ids, labels=ids)
    out.loss.backward()
    return sum(seen.values())


def case(family, recipe, lora, dropout, attn):
    dtype = torch.bfloat16 if recipe == "pure16" else torch.float32
    counts = []
    for layers in (1, 2):
        torch.manual_seed(0)
        model = build(family, layers, attn, dtype)
        if lora:
            targets = {"qv": ["q_proj", "v_proj"] if family == "llama" else ["c_attn"],
                       "all-linear": "all-linear"}[lora]
            model = peft.get_peft_model(model, peft.LoraConfig(
                r=8, target_modules=targets, lora_dropout=dropout))
        counts.append(saved_bytes(model, recipe == "amp"))
    tokens = B * S
    return {
        "family": family, "recipe": recipe, "lora": lora, "dropout": dropout > 0,
        "attention": attn, "batch": B, "seq_len": S,
        "per_block_per_token": (counts[1] - counts[0]) / tokens,
        "one_block_total": counts[0],
    }


cases = []
for family in ("llama", "gpt2"):
    for recipe in ("f32", "pure16", "amp"):
        for lora, dropout in ((None, 0.0), ("qv", 0.0), ("all-linear", 0.05)):
            for attn in ("sdpa", "eager"):
                cases.append(case(family, recipe, lora, dropout, attn))
json.dump({
    "torch": torch.__version__, "transformers": transformers.__version__, "peft": peft.__version__,
    "cases": cases,
}, sys.stdout, indent=1)
print()

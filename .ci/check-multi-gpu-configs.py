#!/usr/bin/env python3
"""Loads gpulab's multi-GPU configs with the engines' own loaders (DeepSpeed's DeepSpeedConfig,
Accelerate's load_config_from_file). Needs a python with torch, deepspeed and accelerate (too
large for CI's budget: CI checks the documented keys instead, src/plan/multi_gpu.rs).

Usage: gpulab fit --lesson recipe/full-ft-llama3-8b --configs DIR
       .ci/check-multi-gpu-configs.py DIR
"""
import json
import os
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
acc_path = os.path.join(d, "accelerate_fsdp.json")
ds_path = os.path.join(d, "ds_config.json")

from accelerate.commands.config.config_args import load_config_from_file

acc = load_config_from_file(acc_path)
n = acc.num_processes
print(f"accelerate: {type(acc).__name__} {acc.distributed_type} num_processes={n} "
      f"sharding={acc.fsdp_config.get('fsdp_sharding_strategy')}")

import deepspeed
import deepspeed.runtime.config as dsc

# No process group here: DeepSpeedConfig asks dist for the rank and, given an mpu, the data
# parallel world size, which is the plan's GPU count.
dsc.dist.get_rank = lambda *a, **k: 0


class Mpu:
    def get_data_parallel_world_size(self):
        return n

    def get_data_parallel_rank(self):
        return 0

    def get_model_parallel_world_size(self):
        return 1

    def get_model_parallel_rank(self):
        return 0


c = dsc.DeepSpeedConfig(json.load(open(ds_path)), mpu=Mpu())
print(f"deepspeed {deepspeed.__version__}: world={c.world_size} train_batch={c.train_batch_size} "
      f"micro={c.train_micro_batch_size_per_gpu} accum={c.gradient_accumulation_steps} "
      f"zero_stage={c.zero_optimization_stage}")

"""PyTorch references for the GPU proof run (issue 8), on the same GPU as gpulab:
1. torch.matmul at the sizes and dtypes gpulab's bench uses, timed with CUDA events after
   warm-up, random inputs, median of repeats (TF32 off, as Candle's default strict f32 GEMM);
2. one training step of the same GPT-style model gpulab's measure uses by default
   (vocab 512, d 128, 4 heads, 2 blocks, seq 64, batch 8, untied head, AdamW), reporting
   torch.cuda.max_memory_allocated per phase.
Usage: python3 torch-reference.py OUT.json"""
import json, statistics, sys, time
import torch

torch.backends.cuda.matmul.allow_tf32 = False
dev = "cuda"
out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "matmul": [], "train_step": {}}

for dtype_name, dtype in [("f32", torch.float32), ("f16", torch.float16), ("bf16", torch.bfloat16)]:
    for n in [1024, 2048, 4096, 8192, 16384]:
        if n == 16384 and dtype_name != "bf16":
            continue
        a = torch.randn(n, n, device=dev, dtype=dtype)
        b = torch.randn(n, n, device=dev, dtype=dtype)
        for _ in range(3):
            a @ b
        torch.cuda.synchronize()
        times = []
        t_end = time.time() + 1.0
        while time.time() < t_end or len(times) < 10:
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record(); a @ b; stop.record(); stop.synchronize()
            times.append(start.elapsed_time(stop) / 1e3)
        med = statistics.median(times)
        row = {"dtype": dtype_name, "n": n, "median_s": med, "tflops": 2 * n**3 / med / 1e12, "runs": len(times)}
        out["matmul"].append(row)
        print(f"torch.matmul {dtype_name:4} n={n:5}: {med*1e3:8.3f} ms  {row['tflops']:7.1f} TFLOP/s")
        del a, b
torch.cuda.empty_cache()

V, D, H, L, S, B = 512, 128, 4, 2, 64, 8
class Block(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.ln1, s.ln2 = torch.nn.LayerNorm(D), torch.nn.LayerNorm(D)
        s.qkv, s.proj = torch.nn.Linear(D, 3 * D), torch.nn.Linear(D, D)
        s.fc1, s.fc2 = torch.nn.Linear(D, 4 * D), torch.nn.Linear(4 * D, D)
    def forward(s, x, mask):
        b, t, d = x.shape
        q, k, v = s.qkv(s.ln1(x)).view(b, t, 3, H, d // H).unbind(2)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))
        att = torch.softmax(q @ k.transpose(-1, -2) / (d // H) ** 0.5 + mask, -1)
        x = x + s.proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + s.fc2(torch.nn.functional.gelu(s.fc1(s.ln2(x))))
class GPT(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.wte, s.wpe = torch.nn.Embedding(V, D), torch.nn.Embedding(S, D)
        s.blocks = torch.nn.ModuleList(Block() for _ in range(L))
        s.ln_f, s.head = torch.nn.LayerNorm(D), torch.nn.Linear(D, V, bias=False)
    def forward(s, idx):
        mask = torch.full((S, S), float("-inf"), device=idx.device).triu(1)
        x = s.wte(idx) + s.wpe(torch.arange(S, device=idx.device))
        for blk in s.blocks:
            x = blk(x, mask)
        return s.head(s.ln_f(x))

def mem():
    torch.cuda.synchronize()
    return torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated()

torch.cuda.reset_peak_memory_stats()
base = torch.cuda.memory_allocated()
model = GPT().to(dev)
params = sum(p.numel() for p in model.parameters())
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
idx = torch.randint(0, V, (B, S), device=dev)
y = torch.randint(0, V, (B * S,), device=dev)
phases = {}
def phase(name, fn):
    torch.cuda.reset_peak_memory_stats()
    r = fn()
    cur, peak = mem()
    phases[name] = {"live": cur - base, "peak": peak - base}
    return r
loss = phase("forward", lambda: torch.nn.functional.cross_entropy(model(idx).view(-1, V), y))
phase("backward", lambda: loss.backward())
phase("optimizer_step", lambda: opt.step())
out["train_step"] = {"params": params, "phases": phases, "step_peak": max(p["peak"] for p in phases.values())}
print(json.dumps(out["train_step"], indent=1))
json.dump(out, open(sys.argv[1], "w"), indent=1)

"""gpulab's question to PyTorch (src/probe/torch.rs runs it with the learner's python, bounded
by a timeout): which torch, built for which CUDA, does it see a GPU, which ones, how much memory.
Prints one JSON line; never raises (a missing torch is an answer too)."""
import json
import sys
import warnings

out = {"python": sys.version.split()[0]}
try:
    import torch
except Exception as e:  # ImportError, or a broken install
    out["import_error"] = f"{type(e).__name__}: {e}"
    print(json.dumps(out))
    sys.exit(0)

out["torch"] = torch.__version__
out["cuda_built"] = torch.version.cuda  # None on a CPU-only wheel
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        out["available"] = bool(torch.cuda.is_available())
        out["device_count"] = int(torch.cuda.device_count())
        devices = []
        for i in range(out["device_count"] if out["available"] else 0):
            p = torch.cuda.get_device_properties(i)
            # `total_memory` is the attribute; the lesson's snippet reads `total_mem`, which
            # PyTorch does not have (AttributeError on any GPU machine).
            devices.append({"index": i, "name": p.name, "total_memory": int(p.total_memory),
                            "major": int(p.major), "minor": int(p.minor)})
        out["devices"] = devices
    except Exception as e:
        out["cuda_error"] = f"{type(e).__name__}: {e}"
out["warnings"] = [str(w.message).splitlines()[0] for w in caught]
print(json.dumps(out))

# gpulab message catalogue — English side. Every message here has its Korean twin in ko.ftl
# with the same arguments (tested in src/i18n/tests.rs). Arguments arrive formatted.

## Language
lang-unknown = unknown language { $given }: use ko or en

## Readiness (src/probe/diagnose.rs)
ready-no-gpu = no GPU
ready-not-usable = not usable
ready-limited = usable, with limits
ready-ready = ready

## Causes and fixes (src/probe/diagnose.rs)
advice-no-gpu = This CPU runs the course's Phase 1-3 lessons and every small training loop in the code (MNIST MLP, tiny GPTs, small CNNs) fine. For GPU lessons (Phase 4 on: ResNet fine-tuning, Stable Diffusion, LoRA) use Colab's free T4 (Runtime > Change runtime type > T4 GPU) or rent a cloud GPU, and stop the instance when done.
diag-built-without-cuda = nvidia-smi sees { $count } GPU(s) but this gpulab binary was built without CUDA
fix-rebuild-with-cuda = rebuild with `cargo run --release --features cuda -- check` (needs the CUDA toolkit's nvcc on PATH and CUDA_COMPUTE_CAP set to your GPU's compute capability, e.g. 86)
diag-driver-too-old = the driver supports CUDA up to { $driver }, but this binary's kernels were compiled with CUDA { $toolkit }
fix-driver-too-old = update the NVIDIA driver to one that supports CUDA { $toolkit }, or rebuild with a CUDA toolkit no newer than { $driver }
head-no-gpu-unknown = No NVIDIA GPU found to use: { $reason }; whether this machine has one is unknown.
head-no-gpu-because = No NVIDIA GPU to use: { $reason }.
head-no-gpu = No NVIDIA GPU on this machine.
diag-gpu-unusable = the GPU cannot be used
head-not-usable = GPU present but not usable: { $reason }.
head-ready = Ready to train on { $gpus }.
head-limited = Usable with limits: { $gpus } ({ $limit }).
fix-nothing-ready = nothing to fix; next, `gpulab bench` to see how fast it is
diag-smi-missing-cuda-ok = nvidia-smi is not on PATH, but CUDA sees devices
fix-smi-missing-cuda-ok = optional: add the driver's bin folder to PATH so nvidia-smi can report memory and versions
fix-no-driver = nothing to fix for the CPU lessons; if this machine has an NVIDIA GPU, install its driver (e.g. `sudo ubuntu-drivers install`), then run `nvidia-smi`
fix-driver-not-loaded = load the kernel driver: reboot after installing it; with Secure Boot on, enrol the module's key (or sign it); check `lsmod | grep nvidia` and `dmesg | grep -i nvidia`
fix-driver-mismatch = reboot: the driver was updated but the old kernel module is still loaded (or reinstall one driver version for both parts)
fix-container-lost-gpu = restart the container with the NVIDIA Container Toolkit (`--gpus all`); if it happens after `systemctl daemon-reload`, switch Docker to the cgroupfs driver or use CDI devices
fix-driver-libraries-missing = install the driver's user-space libraries (e.g. the nvidia-utils / libnvidia-compute packages of the same version); in a container, start it with the NVIDIA Container Toolkit; on WSL, use /usr/lib/wsl/lib/nvidia-smi
fix-no-devices = check the GPU is attached (`lspci | grep -i nvidia`; in a VM, GPU passthrough), and look for 'fallen off the bus' Xid errors in `dmesg`
fix-smi-permission = check the permissions of /dev/nvidia* and of nvidia-smi, and that your user may use the GPU (e.g. the video group)
fix-smi-timed-out = the driver or GPU is hung or very slow to wake: enable persistence mode (`sudo nvidia-smi -pm 1`), check `dmesg | grep -i xid`, and reboot if it persists
fix-smi-unreadable = run `nvidia-smi` yourself; if it looks normal, report the output to gpulab so the parser learns it
fix-smi-failed = run `nvidia-smi` yourself and read its message; most fixes are a driver reinstall or a reboot
diag-hidden-by-cvd = CUDA sees no device because CUDA_VISIBLE_DEVICES={ $value } hides them
fix-hidden-by-cvd = unset CUDA_VISIBLE_DEVICES, or set it to an index or UUID that nvidia-smi lists
diag-not-visible-to-cuda = nvidia-smi lists GPUs but CUDA finds none
fix-not-visible-to-cuda = check that this process may open /dev/nvidia* (containers need `--gpus all`), and that no MIG configuration hides the GPU
diag-cuda-no-device = CUDA finds no device
fix-cpu-lessons-ok = nothing to fix for the CPU lessons; use Colab or a cloud GPU for GPU lessons
diag-ptx-too-new = the driver supports CUDA { $driver } but the kernels were built with CUDA { $toolkit } ({ $message })
fix-ptx-too-new = update the NVIDIA driver to one that supports CUDA { $toolkit }, or rebuild with an older toolkit; after switching toolkits run `cargo clean -p candle-kernels` so no stale PTX is reused
diag-no-bf16-kernels = compute capability { $cc } has no bf16 kernels
fix-no-bf16-kernels = train in f32 (or f16) on this GPU; bf16 needs compute capability 8.0 or newer (A100, RTX 30xx and later)
diag-kernels-other-arch = the kernels were built for compute capability { $built }, not for this GPU's { $cc } ({ $message })
fix-kernels-other-arch = rebuild with CUDA_COMPUTE_CAP={ $cap } (the GPU's compute capability without the dot)
diag-cuda-library-missing = a CUDA library could not be loaded ({ $message })
fix-cuda-library-missing = put the CUDA libraries on the loader path, e.g. `export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH` (or the nvidia/*/lib folders of a pip-installed toolkit)
diag-cuda-driver-mismatch = the CUDA driver library and the kernel module are out of step ({ $message })
fix-cuda-driver-mismatch = reboot, or reinstall one driver version for all its parts (a forward-compatibility libcuda only works on data-centre GPUs)
diag-out-of-memory = the GPU is out of memory ({ $message })
fix-out-of-memory = close the other processes using the GPU (see `nvidia-smi`), or pick another GPU
diag-context-refused = the GPU refused a context ({ $message })
fix-context-refused = the GPU may be in exclusive-process or prohibited compute mode, or busy: check `nvidia-smi -q -d COMPUTE`
fix-wrong-result = do not trust this GPU's results: update the driver, check `dmesg` for Xid errors, and report it
diag-built-without-cuda-plain = this gpulab binary was built without CUDA
fix-features-cuda = rebuild with `--features cuda`
diag-cuda-failed = CUDA failed: { $message }
fix-cuda-failed = run again with CUDA_LAUNCH_BLOCKING=1 to see the failing call, and check the driver with `nvidia-smi`
gpu-unknown-name = unknown GPU
diag-mig-whole = MIG mode is on: CUDA sees slices of this GPU, never the whole of it
diag-mig-slices = MIG mode is on: the GPU is split into { $count } slice(s) ({ $profiles }); CUDA sees slices, each with only its share of memory
fix-mig-pick = pick one slice with CUDA_VISIBLE_DEVICES={ $uuid }, and size models for the slice's memory, not the GPU's
fix-mig-pick-any = pick a slice with CUDA_VISIBLE_DEVICES=MIG-<uuid> (see `nvidia-smi -L`)
diag-gpu-not-in-cuda = nvidia-smi lists this GPU but CUDA does not{ $hidden }
fix-gpu-not-in-cuda = unset CUDA_VISIBLE_DEVICES or add this GPU's index/UUID to it
diag-build-no-cuda-gpu = this build has no CUDA, so it cannot use this GPU
diag-bf16-check-failed = bf16 check failed
diag-gpu-busy = only { $free } of { $total } is free: other processes hold the rest
fix-gpu-busy = see who holds it with `nvidia-smi`, and stop it before training
diag-no-bf16 = compute capability { $cc } has no bf16
fix-no-bf16 = train in f32 or f16 here; bf16 needs compute capability 8.0+ (A100, RTX 30xx and later)
diag-kernels-newer = kernels were built for compute capability { $built }, newer than this GPU's { $cc }
fix-rebuild-cap = rebuild with CUDA_COMPUTE_CAP={ $cap }
diag-memory-mismatch = nvidia-smi reports { $smi } but CUDA sees { $cuda } ({ $gap } % apart; the driver's reserve explains a few %)
fix-memory-mismatch = check that both views are the same GPU (CUDA_DEVICE_ORDER=PCI_BUS_ID) and whether it is a MIG slice or vGPU
diag-ready = device opened; f32 and bf16 matmuls ran and matched the CPU reference

## The driver's failures (src/probe/nvidia_smi.rs)
smi-not-installed = nvidia-smi is not installed (no NVIDIA driver on this machine)
smi-cannot-start = nvidia-smi exists but could not be started: { $message }
smi-cannot-communicate = nvidia-smi cannot talk to the NVIDIA kernel driver (module not loaded)
smi-no-devices = the driver is loaded but sees no NVIDIA GPU
smi-version-mismatch = the driver's kernel module and its user-space library have different versions
smi-nvml-unknown = NVML failed with 'Unknown Error' (usually a container that lost access to the GPU device files)
smi-nvml-missing = nvidia-smi cannot find libnvidia-ml.so (driver libraries missing or not mounted)
smi-permission-denied = nvidia-smi was refused access to the GPU (insufficient permissions)
smi-timed-out = nvidia-smi did not answer within { $seconds } s
smi-unparseable = nvidia-smi's output could not be read: { $detail }
smi-failed-exit = nvidia-smi failed (exit { $code })
smi-killed = nvidia-smi was stopped by a signal
smi-printed-nothing = { $how } and printed nothing
smi-failed-with = { $how }: { $message }
device-unknown = unknown device { $given }: use cpu, cuda:N (e.g. cuda:0) or all
cuda-not-built = this gpulab was built without CUDA; rebuild with `--features cuda` to measure on a GPU
cuda-no-host-copies = this gpulab was built without CUDA: no host↔device copies to time
cuda-empty-error = (empty error)
cuda-matmul-off = matmul result off by { $error } (tolerance { $tolerance })

## PyTorch's view (src/probe/pytorch.rs)
torch-no-result = the probe printed no result
torch-crashed = { $reason }: it exited with { $code } ("{ $said }")
torch-by-signal = a signal
torch-unreadable = the probe's result is not readable: { $error }
torch-no-version = the probe's result names no torch version
torch-found = torch { $version } ({ $python }) · built with CUDA { $cuda } · is_available() { $available } · { $count } device(s)
torch-cpu-wheel = none (a CPU-only wheel)
torch-no-python = no python at { $python } (pass --python PATH to ask another environment)
torch-missing = { $python } has no torch ({ $reason }): the later lessons need `pip install torch`
torch-timed-out = { $python } did not answer within { $seconds } s (importing torch or initialising CUDA hung)
torch-snippet-note = the lesson's snippet reads torch.cuda.get_device_properties(0).total_mem, an attribute PyTorch does not have (AttributeError on any GPU machine): the working spelling is .total_memory
torch-diag-cpu-only = torch { $version } is a CPU-only wheel, but the driver lists { $gpus } GPU(s)
torch-fix-cpu-only = install a CUDA build of torch in this environment: `pip install torch --index-url https://download.pytorch.org/whl/cu{ $tag }` (a CUDA no newer than the driver's { $driver })
torch-see-warning = see the warning
torch-diag-too-new = torch { $version } was built for CUDA { $built }, newer than this driver supports ({ $driver })
torch-fix-too-new = update the NVIDIA driver, or install a torch wheel for the driver's CUDA: `pip install torch --index-url https://download.pytorch.org/whl/cu{ $tag }`
torch-diag-unavailable = the driver lists { $gpus } GPU(s) but torch.cuda.is_available() is False{ $detail }
torch-fix-unavailable = run `python -c "import torch; torch.zeros(1).cuda()"` to see CUDA's own error; check CUDA_VISIBLE_DEVICES and that this environment's torch matches the driver
torch-diag-other-devices = torch sees { $torch } device(s), the driver lists { $gpus }
torch-fix-other-devices = CUDA_VISIBLE_DEVICES (or a container's device list) decides what torch sees: set it to the GPUs you mean to use

## check's screen (src/probe/check.rs)
check-title = gpulab check: is there a usable NVIDIA GPU?
check-container = container ({ $kind })
check-host = Host        { $os } { $arch }{ $place }
check-host-cpu = { $cpu } · { $cores } cores / { $threads } threads · { $simd }
check-host-ram = RAM { $total } total, { $available } available
check-place = Place
check-driver = Driver
check-driver-line = nvidia-smi: { $count } GPU(s) · driver { $driver } · supports CUDA up to { $cuda }{ $dropped }
check-dropped-fields = {" "}· this driver does not know: { $fields }
check-framework = Framework
check-framework-cuda = candle { $version } with CUDA { $cuda } for compute capability { $cc } · { $count } device(s){ $error }
check-framework-no-cuda = candle { $version } built without cuda · Device::new_cuda(0): { $error }
check-torch-device = cuda:{ $index } { $name } · cc { $cc } · { $memory } (get_device_properties({ $index }).total_memory)
check-warning = warning: { $text }
check-note = note: { $text }
check-fix = fix: { $text }
check-gpu-line = GPU { $smi } / { $cuda }  { $name } · cc { $cc } · memory { $smi_memory } (nvidia-smi) / { $cuda_memory } (CUDA) · { $readiness }
check-verdict = Verdict
check-next = Next
check-also = Also
check-meanwhile = Meanwhile

## fit (src/plan/fit.rs)
fit-intro = Will each lesson fit? On this CPU, a lesson recorded here (data/lessons-measured.json) is judged by its own run: its peak memory and its time, scaled to this CPU. Otherwise, and on GPUs ("needs"): memory by textbook formula; time = steps × (compute time + memory time + a per-step floor: { $cpu_floor } ms on a CPU, { $gpu_floor } ms on a GPU). Impractical: over { $cpu_hours } h on a CPU, over Colab's { $colab_hours } h session on its free T4.
fit-target-line = { $name }: { $memory } memory, { $source }
fit-caveat-legend = ✓*: fits, but the lesson's code as written runs on the CPU (it hard-codes device="cpu")
fit-datasheet = datasheet ({ $name }): { $f32 } TFLOP/s f32, { $half } TFLOP/s 16-bit at { $share }% for large matrices, { $bandwidth } GB/s
fit-unknown-gpu-rates = unknown GPU: assumed 5 TFLOP/s f32, 10 TFLOP/s 16-bit, 300 GB/s
target-this-cpu = this CPU
target-colab-free-t4 = T4 (Colab free)
fit-detail-params = { $params } params{ $trainable } · { $dtype } · { $optimizer } · batch { $batch } · { $mode }{ $note }
fit-trainable = {" "}({ $count } trainable)
fit-no-optimizer = no optimizer
fit-note = note: { $text }
fit-memory-heading = Memory (weights, gradients and state by formula; activations as the total line says):
mem-weights = weights
mem-gradients = gradients
mem-optimizer-state = optimizer state
mem-activations = activations
mem-total = total
fit-total-line = { $total } (activations: { $source })
fit-cuda-context = + CUDA context on a GPU, typically { $size }
fit-work = Work: { $flops } FLOPs for the whole run
fit-targets = Targets:
fit-state-na = n/a
fit-state-too-small = too small
fit-state-too-slow = too slow
fit-state-fits = fits
fit-target-detail = { $name } { $state } needs { $needed } of { $memory } · { $time } · { $cost } · { $source }
fit-step = a step: { $compute } ms compute (n ≈ { $n }), { $memory } ms memory, { $floor } ms floor → { $bound }
bound-compute = compute-bound
bound-memory = memory-bound
bound-overhead = overhead-bound (the per-step floor)
fit-doc-says = (the lesson's doc says about { $hours } h on { $gpu })
fit-recommended = Recommended: { $text }
fit-multi-gpu = Multi-GPU: { $text }
fit-configs =
    ds_config.json (DeepSpeed):
    { $deepspeed }

    accelerate_fsdp.json (Accelerate + FSDP):
    { $accelerate }

    Launch with one of:
      { $first }
      { $second }
    (`gpulab fit --lesson { $id } --configs DIR` writes both files.)
act-formula = formula (Korthikanti et al. 2022)
act-formula-layer = formula (one layer at a time)
act-lessons-toml = lessons.toml per-sample estimate
act-rough = rough (batch · 16·√P values)
act-measured = measured { $framework } model ({ $file })
fit-too-slow-cpu = { $time } on this CPU: past { $limit } h a run is no lesson to wait for
fit-too-slow-colab = { $time } is longer than Colab's free session ({ $limit } h at most)
fit-caveat-cpu-pinned = the lesson's code hard-codes device="cpu": as written it runs on the CPU; change it to "cuda" for this time
rec-nothing-to-train = nothing to train in the lesson's code; see its recipe
rec-this-cpu = this CPU ({ $time }, free)
rec-not-free-t4 = ; not the free T4: { $why }
rec-free = { $target } ({ $time }, free)
rec-paid = { $target } ({ $time }, about { $cost }){ $note }
rec-cpu-slowly = this CPU, slowly ({ $time })
rec-multi-gpu = no single GPU: see the multi-GPU plan
col-lesson = lesson
col-needs = needs
col-recommended = recommended
cell-na = n/a
cell-memory = ✗ memory
cell-too-slow = ✗ too slow ({ $time })
fit-more-detail = Detail for one lesson: gpulab fit --lesson <id>
fit-no-plan = { $id } fits one GPU: there is no multi-GPU plan to write configs for

## The report (src/report/markdown.rs)
# The template's headings and field names stay exactly as the lesson writes them (data/report-template.md;
# the English side adds a translation in parentheses): a learner hands the template in.
rep-title = GPU/Cloud 환경 점검 결과 (GPU/cloud environment check)
rep-date = 날짜 (date)
rep-local-gpu = local GPU
rep-smi = `nvidia-smi` 결과 (result)
rep-framework = framework CUDA (Candle)
rep-memory = GPU memory
rep-colab = Colab 실행 여부 (Colab used)
rep-cloud = cloud GPU 사용 여부 (cloud GPU used)
rep-bandwidth = Memory bandwidth
rep-roofline = Roofline
rep-multi-gpu = Multi-GPU plan (no single GPU holds these)
rep-multi-gpu-line = { $id }: { $plan } — `gpulab fit --lesson { $id } --configs DIR` writes its DeepSpeed and Accelerate/FSDP configs
rep-bench = 벤치마크(Benchmark)
rep-bench-detail = Benchmark
rep-size = matmul size
rep-size-value = { $n }³ f32 (median)
rep-cpu-time = CPU time
rep-gpu-time = GPU time
rep-speedup = speedup
rep-judgement = 판단 (judgement)
rep-runs-here = 이 환경으로 가능한 강의 (lessons this environment can run)
rep-nothing-to-train = Lessons whose code trains no network (their doc recipes are judged above)
rep-legend = ✓ fits (time for the whole run) · ✓* fits, but the lesson's code as written runs on the CPU · ✗ memory: does not fit · ✗ too slow: fits, but longer than a day on a CPU or Colab's 12 h session · n/a: cannot run there (no GPU path in the code, or nothing to train)
rep-needs = Colab/클라우드가 필요한 강의 (lessons that need Colab/cloud)
rep-none = none
rep-yes = yes
rep-no = no
rep-why = empty because
rep-why-above = empty for the reason above
rep-per-param = Bytes per parameter, measured here (Candle, one real training step)
rep-per-param-note = The lesson's rule of thumb is 2 bytes per parameter (fp16 weights only); training also keeps gradients, optimizer state and activations.
rep-kernel-note = CPU f32 ran on the { $kernel } kernel: Candle's own CPU matmul was 0.7-0.9× numpy where it was measured, and a slow CPU baseline would inflate every GPU speedup (`gpulab bench --cpu-kernel candle` to compare).
rep-table = Every lesson, every target
rep-next = What to do next
rep-next-no-gpu = Run the CPU lessons here. For GPU lessons open Colab (Runtime > Change runtime type > T4 GPU), run `gpulab report` there with a cuda build (the notebook `labs/colab/gpulab.ipynb` does every step), and compare the two reports with `gpulab compare`.
rep-summary-lessons = Lessons: { $here } run on this machine, { $elsewhere } need a GPU elsewhere (the list is in the report; `gpulab fit` shows each)
rep-summary-files = Written (open the .md for the whole report):
report-kept = the measurements are kept in { $path }; free some space and run `gpulab report` again
report-bad-numbers = { $name } holds a time, speed-up or rate that no measurement gives (negative, zero, infinite or absurd): was it edited? Write it again with `gpulab report`
lab06-sample-stands-in = Compared with a sample report bundled with gpulab (a 1-thread CPU), until you have your own from Colab: gpulab compare THIS.json COLAB.json
rep-next-gpu = This GPU is ready: run the GPU lessons here; for what does not fit, use the recommended cloud GPU and stop the instance when done.
rep-details = Details
rep-footer = Generated by gpulab { $version } · { $cpu } · { $host }
rep-smi-ok = { $count } GPU(s), driver { $driver }, CUDA { $cuda }
rep-framework-no-cuda = candle { $version }: built without CUDA (Device::new_cuda fails by design)
rep-framework-cuda = candle { $version } with CUDA { $cuda } (cc { $cc }): { $count } device(s), { $readiness }
rep-torch-not-asked = not asked
cmp-best-gflops = CPU f32 GFLOP/s (best)
cmp-changed = Lessons whose verdict changes: { $count }

## Where this runs (src/plan/session.rs)
hours = { $hours } h
sess-cloud = { $what } (rented, billed until stopped; { $evidence })
sess-cloud-price = {" "}· { $gpus } { $price }/h
sess-up-cost = {" "}· up { $hours } ≈ { $cost } so far
sess-up = {" "}· up { $hours }
sess-unpriced = no price in data/gpus.toml for: { $gpus }
sess-stop = Stop it when done, or it keeps costing: { $command }
sess-colab-runtime = { $gpu } runtime
sess-colab-cpu-runtime = CPU runtime
sess-tier-free = the free tier's GPU (also on paid plans)
sess-tier-paid = a paid plan or compute units
sess-tier-none = no GPU
sess-colab = Google Colab, { $runtime } ({ $tier }); a session ends after at most { $limit } h, sooner when idle{ $up }
sess-colab-no-gpu = No GPU in this runtime: Runtime > Change runtime type > T4 GPU, then run the cells again
sess-colab-save = Save the report to Google Drive or download it: the runtime's disk is wiped when the session ends
sess-notebook = { $provider } notebook ({ $evidence })
sess-wsl = WSL on a Windows PC ({ $evidence }); no cloud or Colab
sess-laptop = a laptop ({ $evidence }); no cloud or Colab
sess-own-machine = a machine of its own ({ $evidence }); no cloud or Colab
sess-vm = a virtual machine that names no cloud ({ $evidence })
sess-nothing = no cloud or Colab detected ({ $evidence })
usd-free = free

## Evidence for the place (src/probe/platform.rs)
plat-env-set = { $name } is set
plat-wsl-kernel = kernel { $release } is WSL's
plat-container-no-dmi = a { $kind } container on a host that gives no DMI
plat-no-signs = no DMI and no platform variables

## The command line (src/cli/dispatch.rs, src/main.rs)
error-prefix = error: { $message }
labs-next = Next: gpulab lab next   ·   hints: gpulab hint next
cpu-kernel-no-avx2 = --cpu-kernel gpulab needs a CPU with AVX2 and FMA, and this one lacks them; use --cpu-kernel candle (or auto)
cpu-kernel-unknown = --cpu-kernel { $given } is not a kernel: use auto, candle, gpulab, gpulab-avx2 or gpulab-avx512
cpu-kernel-cannot = --cpu-kernel { $kernel } needs instructions this CPU lacks; use --cpu-kernel gpulab (the widest this CPU runs) or auto
seconds-positive = { $name } must be a positive number of seconds, at most { $max }; got { $value }
check-json-failed = writing the check as JSON
out-one-stdout = only one output can go to stdout ('-'): write the others to files
out-same-file = { $path } is named for two outputs: give each its own file
out-exists = { $path } exists; pass --force to overwrite it, or choose another name
out-exists-report = { $path } exists; pass --force to overwrite it, or --name for another name
threads-zero = --threads must be at least 1
threads-too-many = --threads { $asked } is more than this machine's { $cpus } logical CPUs: use at most { $cpus }
min-runs-zero = --min-runs must be at least 1
wrote = wrote { $path }
mode-unknown = --mode must be train or inference, got { $given }
zero-range = --zero must be 0, 1, 2 or 3 (3 = FSDP full sharding)
counts-zero = --gpus, --batch and --seq-len must be at least 1
lora-rank-range = --lora-rank must be between 1 and the width ({ $width }), got { $rank }
lora-rank-zero = --lora-rank must be at least 1
gpu-or-memory = give --gpu or --memory, not both
zero-one-gpu = --zero { $stage } on one GPU changes nothing: ZeRO shards across GPUs (add --gpus N).
name-plain = --name must be a plain file name without folders, got { $given }
lab-outside-repo = the labs are cargo examples of the gpulab repository: run `gpulab lab` from inside it (the folder with Cargo.toml and labs/), e.g. `cd gpulab && cargo run --release -- lab next`
lab-banner =
    == Lab { $id }: { $title }
       { $other }
       source: labs/{ $dir }/main.rs
lab-needs-gpu = This lab's main part needs a GPU and this build sees none: the CPU half runs now; for the GPU half use Colab or a cloud GPU with `--features cuda`.
lab-first-build = The first run of a lab compiles it (a minute or two while cargo builds); later runs start at once.
lab-cargo-failed = running cargo (the labs are cargo examples: run gpulab from the repository with a Rust toolchain)
stage-check = check
stage-bench = bench
stage-measure = measure
stage-fit = fit

## bench (src/bench/export.rs, src/bench/*.rs)
col-device = device
col-dtype = dtype
col-size = size
col-median-ms = median ms
col-range-ms = min…max ms
col-iqr = ±IQR
col-outliers = outl.
col-gflops = GFLOP/s
col-peak-share = % peak
col-cold-ms = cold ms
col-check = check
bench-ok = ok
bench-ok-error = ok ({ $error })
bench-skipped = skipped: { $reason }
bench-failed = FAILED: { $reason }
col-speedup = speedup vs cpu
col-spread = spread (IQR)
bench-md-speedup = Speedup over the CPU
bench-md-bandwidth = Memory bandwidth
bench-md-roofline = Roofline
bench-no-host-copies = (host↔device copies, pageable and pinned in both directions, are measured on a CUDA device: none was measured here)
col-transfer = transfer
col-best-gbs = best GB/s
col-datasheet = datasheet
col-of-datasheet = of datasheet
col-note = note
bench-setup = CPU: { $cpu } ({ $simd }, { $threads } matmul threads{ $peak }{ $kernel }); candle { $candle }. Times are medians of synchronized calls after warm-up on random inputs; `cold` is the first call alone.
bench-setup-peak = , peak { $gflops } GFLOP/s { $source }
bench-setup-kernel = , f32 on the { $kernel } kernel (src/bench/sgemm.rs; --cpu-kernel candle for Candle's)
bench-bandwidth-heading = Memory bandwidth (median of repeated calls; copy counts read+write, triad 3 arrays):
bench-outliers = Note: { $count } timing(s) were outliers (another process, a clock change); the medians are robust to them, but re-run on a quiet machine for tight numbers.
bench-naive-heading = The lesson's way (one cold call, wall clock) next to the proper one:
bench-naive-line = { $point }: cold { $cold } ms vs median { $median } ms ({ $ratio }× slower cold)
bench-naive-unsynced = ; without synchronize the clock reads { $time } ms, only the launch
plot-speedup-series = { $device } { $dtype } over cpu
plot-throughput-title = Matmul throughput (median)
plot-size-axis = size n (cube root of m·k·n)
plot-speedup-title = Speedup over the CPU (same size and dtype)
plot-size-axis-short = size n
plot-speedup-axis = × faster than cpu
shape-invalid = size { $given } is not N or MxKxN (e.g. 1024 or 512x1024x256)
shape-zero = size { $given } has a zero dimension
bench-cannot-open = cannot open { $device }: { $error }
bench-datasheet-peak = datasheet: { $name } ({ $source })
point-no-bf16 = compute capability { $cc } has no bf16 (needs 8.0+)
point-no-room = needs { $needed }, but only { $free } is free on { $device }
point-oom = out of memory: { $message }
point-no-isa = the { $kernel } kernel needs instructions this CPU lacks: use --cpu-kernel candle
point-timer-nan = timer returned a non-finite time
point-peak-below = not measured: the FMA loop ({ $gflops } GFLOP/s) ran below this matmul, so it is not a peak
point-wrong = wrong result: sampled error { $error } exceeds the { $dtype } tolerance { $tolerance }
peak-source = measured: { $kind } FMA loop on { $threads } thread(s)
roof-memory = memory
roof-compute = compute
roof-heading = Roofline: each point against min(peak, intensity × measured bandwidth)
roof-ridge = { $device } { $dtype }: peak { $peak } GFLOP/s ({ $source }), memory { $bandwidth } GB/s → ridge at { $ridge } FLOP/byte: square products below n ≈ { $n } are memory-bound
col-intensity = FLOP/byte
col-roof = roof
col-bound = bound
col-of-roof = of roof
roof-series = { $label } roof ({ $bandwidth } GB/s, { $peak } GFLOP/s)
roof-series-measured = { $label } measured
plot-roofline-title = Roofline: matmul speed against arithmetic intensity
plot-roofline-x = FLOPs per byte moved (log)
plot-roofline-y = GFLOP/s (log)
roof-explain = roofline: memory { $bandwidth } GB/s and peak { $peak } GFLOP/s on this CPU. An n={ $n } f32 product does { $intensity } FLOPs per byte it must move, so memory alone would allow { $memory } GFLOP/s: the roof here is { $roof } GFLOP/s ({ $bound }), and you reached { $share }% of it. Below n ≈ { $ridge_n } memory, not arithmetic, would set the pace.
roof-explain-memory = memory-bound
roof-explain-compute = compute-bound: the arithmetic units set the pace
transfer-copy = copy
transfer-triad = triad
transfer-h2d-pageable = host→device pageable
transfer-h2d-pinned = host→device pinned
transfer-d2h-pageable = device→host pageable
transfer-d2h-pinned = device→host pinned

## Durations (src/plan/fit.rs)
dur-seconds = { $n }s
dur-minutes = { $n }m
dur-hours = { $n }h

## measure (src/cli/measure.rs, src/memory/*.rs)
sweep-too-short = { $name } needs at least 3 positive values for a fit (or pass --no-sweep)
opening-device = opening { $device }
measure-fitting = fitting the memory models on the calibration shapes
not-calibrated = not calibrated: { $what }
lean-heading = The same step, ordinary (candle-nn optimizers, the loss held through the update) and lean (graph and non-parameters' gradients dropped first, gpulab's optimizers):
not-measured = not measured: { $what }
torch-families = the PyTorch step builds gpt and llama models: pass --arch gpt,llama
recipe-needs-pytorch = checkpointing, LoRA, autocast and a quantized base are measured on the PyTorch step: add --pytorch (Candle's step trains every parameter and keeps every activation)
append-not-torch = { $path } is not a PyTorch calibration: --append adds PyTorch models to a file `gpulab measure --pytorch --save` wrote
impl-unknown = --impl { $given } is not an implementation: use transformers (Hugging Face's models) or gpulab (gpulab's own modules)
attn-unknown = --attn { $given } is not an attention implementation: use sdpa or eager
update-unknown = --update { $given } is not an optimizer update: use auto, foreach or for-loop
autocast-unknown = --autocast { $given } is not a 16-bit type: use bf16 or f16
quant-unknown = --quant { $given } is not a quantization gpulab measures: use nf4 (QLoRA's 4-bit base, with --lora-rank or --lora-targets)
quant-needs-lora = --quant freezes the base in 4 bits, so only adapters can train: add --lora-rank R or --lora-targets qv|all-linear
torch-variant = the PyTorch step: { $variant }
variant-attention = { $name } attention
variant-foreach = foreach { $optimizer } (CUDA's default)
variant-for-loop = for-loop { $optimizer } (the CPU's default)
variant-checkpointing = activation checkpointing
variant-lora = LoRA on { $targets } (peft)
variant-autocast = autocast { $dtype }
variant-quant = 4-bit { $quant } base (bitsandbytes)
old-spelling = note: { $old } is now { $new } (the same flag in `measure` and `estimate`); { $old } still works
torch-same-step = PyTorch { $version } ({ $python }): the same step, on { $device }
fitted = fitted { $what }
wrote-torch-models = wrote { $path } ({ $count } PyTorch models)
col-shape = shape
col-optimizer = optimizer
col-forward = forward
col-backward-peak = backward peak
col-step-peak = step peak
col-peak = peak
col-model-predicts = model predicts
col-error = error
torch-step-heading = PyTorch's step (bytes alive, from PyTorch's own counters):
measure-validate-bar = { $family } calibration and held-out shapes
col-weights = weights
col-grads = grads
col-opt-state = opt state
col-measured-total = measured total
col-two-byte = 2-byte rule
col-textbook = textbook
col-vs-textbook = vs textbook
col-peak-per-param = peak/param
measure-not-run = not run
col-phase = phase
col-live-after = live after
col-temporaries = temporaries
col-at-peak = at the peak
col-bytes = bytes
col-share = share
ledger-unexplained = unexplained (non-tensor overhead)
ledger-measured-peak = measured peak
measure-title = gpulab measure on { $device } ({ $name }), candle { $candle }: one real training step per configuration.
measure-headline =
    == { $model } · { $params } params · { $dtype } { $optimizer } · peak { $peak } in the { $phase } phase
       memory read by: { $method }
measure-workspace = (a first warm-up step left { $size } of library workspace behind; not counted below)
measure-per-param-heading = == Bytes per parameter, measured ({ $family }), against the lesson's 2-byte rule and the textbook
measure-textbook-note =
    textbook = 4+4+4/state in f32; 2+2+4 (fp32 master)+4/state in mixed precision. Candle keeps
    optimizer state in the parameter's dtype and no master copy, so bf16 AdamW lands near 8, not 16.
    peak/param includes activations, so it depends on batch and sequence length.
measure-scaling = == Scaling (f32, AdamW)
measure-fit-batch = { $family } activations = { $a } + { $b } B × batch   (R² = { $r2 }, { $points } points; peak slope { $slope } B/sample)
measure-fit-seq = { $family } activations = { $a } + { $b } B × s + { $c } B × s²   (R² = { $r2 }, { $points } points over seq_len)
measure-not-measured = Not measured:
plot-activations-series = { $family } activations (MiB)
plot-step-peak-series = { $family } step peak (MiB)
plot-measured-memory-title = Measured memory against { $variable } (f32, AdamW)
var-batch = batch
var-seq-len = sequence length
col-step = step
col-ordinary-peak = ordinary peak
col-in = in
col-lean-peak = lean peak
col-saved = saved
phase-weights = weights
phase-optimizer-state = optimizer state
phase-batch = batch
phase-forward = forward
phase-backward = backward
phase-optimizer-step = optimizer step
phase-after-step = after step
meter-cpu = counting allocator (every heap byte of the process)
meter-cuda = CUDA stream-ordered pool: USED_MEM_CURRENT / USED_MEM_HIGH
loss-broken = the loss is { $loss }: { $dtype } training is numerically broken for this configuration
lean-step-name = { $model } (lean step)
preflight-no-bf16 = { $device } has compute capability { $cc }, which has no bf16: use --dtype f32 or f16
preflight-too-big = { $model } with { $dtype } and { $optimizer } needs roughly { $estimate }, but { $device } has { $free } free: lower the batch or the model size
ledger-weights = weights
ledger-optimizer-state = optimizer state
ledger-batch = batch
ledger-activations = activations (kept by the graph)
ledger-param-grads = gradients of parameters
ledger-other-grads = gradients of non-parameters
ledger-graph = backward graph held by gradients
ledger-temporaries = temporaries ({ $phase })
validate-section =
    == { $family } in { $framework } ({ $recipe }, on { $device }): fitted on { $fitted } shapes, judged on { $judged } others

    The fitted model (bytes per unit of each term):
    { $model }
    { $table }median |error|: gpulab { $median }% (worst { $worst }%), 2-byte rule { $rule }%, textbook { $textbook }%
validate-goal = Goal (median ≤ { $median } %, worst ≤ { $worst } %): { $verdict }
goal-met = met
goal-not-met = NOT met
col-held-out = held-out shape
col-measured = measured
model-forward-ends = forward ends with  { $form }
model-backward-adds = backward adds { $open }  { $form }
model-backward-states = backward holds { $open }model states + { $form }
model-backward-block = backward holds { $open }a block's known bytes (gradients, kept inputs) + { $form }
model-step = optimizer step     { $form }

## estimate (src/plan/estimate.rs, src/plan/estimate/render.rs)
est-fits = fits, { $spare } to spare
est-short = does not fit, { $short } short
est-against = Against { $label }:
est-rule-verdict = 2-byte rule: { $verdict }
est-textbook-verdict = textbook ({ $recipe }): { $verdict }
est-measured-verdict = { $framework } measured ({ $recipe }): { $verdict }
est-measured-none = { $framework } measured: not measured ({ $why })
est-no-calibration = no calibration
est-batch-none = even batch 1 does not fit by the textbook: shorten --seq-len, add --checkpointing, or use --lora-rank
est-batch-best = largest power-of-two batch that fits by the textbook: { $batch }
est-largest-model = largest model that fits: { $rule }B by the 2-byte rule, { $textbook }B by the textbook for this set-up
est-col-textbook = textbook
est-col-measured = { $framework } measured
est-col-recipe = { $column } column: { $recipe }
est-which-to-trust = Which to trust: for a Hugging Face/PyTorch run, the PyTorch column (measured steps, fitted to their structure); for Candle's own step, the Candle column (it keeps the whole attention matrix, so long sequences cost far more); the textbook column is the formulas' upper view; the 2-byte rule counts only the weights, a floor, never an answer for training.
est-budget-units = { $given } = { $gb } GB = { $gib } GiB (GB counts 10⁹ bytes, GiB 2³⁰: a card sold as 24 GB shows about 22.4 GiB in nvidia-smi).
est-budget-rule = The lesson's rule (fp16 = 2 bytes per parameter, weights only): { $params }B parameters. Enough to load a model for inference, not to train it.
est-budget-textbook = Training, textbook ({ $recipe }: weights, gradients and optimizer state, activations not counted): { $params }B parameters.
est-budget-measured = Training, measured (a PyTorch step at batch 1, sequence { $seq }): the largest preset that fits is { $name }, peak { $peak }.
est-budget-measured-none = Training, measured (a PyTorch step at batch 1, sequence { $seq }): no preset fits; LoRA (--lora-rank 16) or --checkpointing with a named model needs less.
est-budget-next = For one model: gpulab estimate llama-3.2-1b --memory { $given }
est-row-weights = weights
est-row-gradients = gradients
est-row-optimizer = optimizer state
est-row-activations = activations (+ temporaries at the peak)
est-row-kv = KV cache
est-row-context = CUDA context (typical)
est-row-total = total at the peak
est-row-phase = peak falls in
est-sum-of-terms = (a sum of terms)
est-head = { $params } parameters ({ $trainable } trainable) · { $mode } · { $recipe }{ $lora }{ $checkpointing }{ $gpus }
mode-training = training
mode-inference = inference
est-checkpointing = {" "}· checkpointing
est-gpus = {" "}· { $gpus } GPUs, ZeRO-{ $stage }
est-needs-shape = Activations need the model's shape: name a preset (gpt2, llama-3-8b, …) or add --layers, --d-model, --heads and --seq-len.
est-not-measured-why = { $framework } measured: not measured: { $why }.
est-measured-from = { $framework } measured: from { $source }.
nm-no-variant = { $source } has no PyTorch model for { $family } { $dtype } with this step ({ $variant }): measure it with `gpulab measure --pytorch --save FILE` and the same flags
est-measured-from-assuming = { $framework } measured: from { $source }; the step: { $assumes }.
assumes-nf4 = QLoRA's 4-bit base by formula: the LoRA step measured on a bf16 base, the blocks' linear weights then counted as bitsandbytes stores NF4 (0.516 bytes each plus 1,092 bytes per layer; checked against its real 4-bit step on held-out shapes: .ci/qlora-check)
assumes-state = the optimizer state counted at { $bytes } B per trained parameter in place of AdamW's measured fp32 moments (not measured)
assumes-cuda-fused = on CUDA: SDPA's fused kernel (flash or memory-efficient) keeps no s×s scores, only a log-sum-exp per row (derived from the kernels, not measured on a GPU)
assumes-cuda-fp16 = this GPU has no bf16, so the 16-bit step is counted as fp16 (the same bytes)
est-no-bf16 = { $gpu } (compute capability { $cap }) has no bf16 units: PyTorch emulates bf16 there, slowly, and has no fused bf16 attention. Train with fp16 autocast (AMP) on this GPU; `--dtype mixed` counts the same bytes.
nm-inference = the measured steps are training steps
nm-shape = a measured model needs the shape: name a preset (gpt2, llama-3-8b, …) or give --layers, --d-model and --heads
nm-lora = LoRA adapters are not measured yet: the measured step trains every parameter
nm-checkpointing = checkpointing is not measured: gpulab's Candle step keeps every activation
nm-multi-gpu = several GPUs and ZeRO are not measured: the model is one device's step
nm-precision = { $name } ({ $recipe }) was not measured in { $framework }
nm-no-optimizer = training without an optimizer is not measured
nm-no-model = { $source } has no { $family } { $dtype } { $optimizer } model ({ $framework })
params-invalid = { $given } is not a parameter count: use e.g. 7B, 124M, 1.5k or 11_181_642
params-zero = { $given }: a model needs at least one parameter
params-too-many = { $given } is more parameters than any model has
memory-no-unit = { $given } has no unit: say { $n }GiB (binary, as nvidia-smi and CUDA count) or { $n }GB (decimal, as GPUs are sold)
memory-invalid = { $given } is not a memory size ({ $error }): use e.g. 16GiB or 24GB
memory-zero = { $given } is no memory at all
model-unknown = { $given } is neither a model preset, a transformer lesson nor a parameter count: use one of { $presets } (did you mean { $guess }?), a lesson id of `gpulab fit`, or a count like 7B
shape-incomplete = give all of --layers, --d-model and --heads (or a preset such as gpt2)
arch-not-transformer = --arch { $arch } is not a transformer: use gpt or llama
count-shape-disagree = the count { $count } and the shape ({ $shape }: { $own } parameters) disagree by more than { $tolerance } %: give one or the other
model-missing = name a model: a preset (gpt2, llama-3-8b, …), a parameter count (7B), or a shape (--layers --d-model --heads)
recipe-f64 = f64 everywhere
recipe-f32 = f32 everywhere
recipe-f16 = fp16 end to end
recipe-bf16 = bf16 end to end, no fp32 master copy
recipe-mixed = mixed: 16-bit + fp32 master copy and state
recipe-nf4 = QLoRA: NF4 base, mixed-precision adapters
precision-unknown = unknown precision { $given }: use f32, bf16 (end to end), mixed (16-bit with fp32 master copy and state), f16, f64 or nf4
optimizer-unknown = unknown optimizer { $given }: use sgd, momentum, adamw, adamw-fused, paged-adamw, adamw-8bit, paged-adamw-8bit or adafactor
model-family-unknown = unknown model { $given }: use mlp, gpt, llama or cnn
mv-batch = batch must be at least 1
mv-mlp = MLP widths and classes must be at least 1
mv-transformer = a transformer needs vocab ≥ 2 and d_model, layers, seq_len ≥ 1
mv-heads = d_model ({ $d }) must be a multiple of heads ({ $heads })
mv-kv-heads = kv-heads ({ $kv }) must divide heads ({ $heads }): each key/value head serves a whole group of query heads
mv-gpt-gqa = GPT-2-style attention has as many key/value heads as query heads; grouped-query attention is --arch llama
mv-positions = the learned position table has { $rows } rows, so a sequence of { $tokens } tokens does not fit it: shorten the sequence
mv-ffn = the FFN width must be at least 1
mv-llama-tied = gpulab's own Llama-style model has an untied head: a tied Llama (Llama-3.2) is estimated, and measured in PyTorch (--pytorch), not in Candle
mv-too-large = a dimension of { $given } is larger than gpulab models (at most { $limit } per batch, width, head count, layer count, sequence or vocabulary)
mv-too-many-params = this shape has about { $given } parameters, more than any model has (the limit is { $limit }, as for a count)
mv-llama-extras = gpulab's own Llama-style model builds the plain Llama block: a model with biases, its own head width or extra norms (Qwen, Gemma) is estimated, not measured in Candle
hf-config-json = { $file } is not a model config (JSON): { $error }
hf-config-field = { $file }: { $field } is { $given }; a positive whole number (or true/false) was expected
hf-config-missing = { $file } has no { $field }: give the model's own config.json from the Hugging Face Hub
hf-config-type = { $file }: model_type { $given } is not modelled; gpulab reads { $supported } (pass --arch and the shape flags for another decoder)
hf-config-moe = { $file }: { $field } says this is a mixture-of-experts model, which gpulab's memory model does not cover
read-failed = cannot read { $path }
mv-rotary = rotary positions need an even head width; d_model / heads = { $width }
mv-image = image size must be a multiple of 4 (two 2×2 poolings), got { $size }
mv-cnn = CNN channels and classes must be at least 1
torch-available = PyTorch { $version } ({ $python })
torch-need-python = no python at { $python }: install Python 3 with PyTorch, or pass --python PATH
torch-need-torch = { $python } cannot import torch ({ $reason }): `pip install torch` in that environment, or pass --python PATH
torch-import-slow = `import torch` did not finish in 30 s
no-message = no message
run-lora = LoRA training (frozen base)
run-train = training
run-forward-backward = one forward and backward pass
run-forward = forward passes
run-inference = inference
run-none = no training
lesson-unknown = unknown lesson { $given }; did you mean: { $guesses }?
lesson-ambiguous = ambiguous lesson { $given }; did you mean: { $guesses }?
mg-summary = { $count }× { $gpu } with ZeRO-3 / FSDP full sharding{ $offload }: { $memory } per GPU, micro-batch { $micro } × { $accumulation } accumulation steps, about { $hours } h, { $cost }
mg-offload = {" "}and the optimizer state offloaded to CPU memory
rates-measured = measured on { $cpu }: f32 matmul { $points } GFLOP/s at n = { $sizes }, { $memory }{ $elementwise }
rates-memory = memory { $gbs } GB/s
rates-memory-assumed = memory not measured (10 GB/s assumed)
rates-elementwise = , element-wise { $gbs } GB/s
rates-elementwise-assumed = , element-wise not measured (half the bandwidth: { $gbs } GB/s)
rates-cached = { $source } (cached in { $path })
rates-bad-values = a rate is not a positive finite number, or the sizes are out of order
rates-collapse = the matmul rate falls from { $fast } GFLOP/s at n = { $small } to { $slow } at n = { $large }, which no CPU does: something else was using the cores
rates-cache-invalid = the cached rates were not usable ({ $why }), so they were measured again
rates-cache-busy = the cached rates were measured on a busy machine and this one is quiet now, so they were measured again
rates-busy = measured while the machine was busy (load { $load }): each size's best of three runs, times may read long
rates-not-cached = not cached ({ $why }); close other programs and run `gpulab fit --remeasure`
gpu-unknown = unknown GPU { $given }; did you mean { $guess }? (all: { $all })

## Labs (src/labs.rs, labs/*/main.rs)
labs-all-done = every lab is done; run any again with `gpulab lab <id>`
labs-answers-later = Try the questions first; the answers: gpulab hint { $id } --answers
labs-finished = All six labs are done: your machine is checked, measured and reported. Next: the course's GPU lessons on Colab (labs/colab/gpulab.ipynb), `gpulab fit` for every lesson, or `gpulab lab <id>` to run one again.
labs-unknown = no lab { $given }: use an id 01-{ $last }, a slug ({ $slugs }), or next
labs-progress = Progress
labs-gpu-optional = {" "} (GPU part optional on a CPU)
lab01-driver-failed = driver:    { $why }
lab01-driver = driver:    { $count } GPU(s), CUDA up to { $cuda }
lab01-framework = framework: candle { $version } built with cuda: { $cuda }
lab01-new-cuda = {"           "}Device::new_cuda(0) -> { $error }
lab01-verdict =
    verdict:   { $headline }
    next:      { $fix }
lab-saved = saved { $path }
yes-no-yes = yes
yes-no-no = no
lab02-no-gpu = No usable GPU here: the GPU half needs a cuda build on a GPU machine (Colab: Runtime > Change runtime type > T4 GPU, then `cargo run --release --features cuda --example lab02-matmul-bench`).
lab02-line = { $dev }: cold { $cold } ms, median of 20 { $median } ms ({ $gflops } GFLOP/s)
lab02-speedup = speedup (medians): { $ratio }x
lab03-no-gpu = No local GPU: using the GPUs the course mentions.
lab03-line = { $gpu } { $memory }  2-byte rule: { $rule }B params   training (mixed-precision Adam): { $train }B
lab03-seven-b = A 7B model: { $rule } by the rule, { $train } to train with Adam (before activations).
lab04-headline = { $model } · { $params } params · peak { $peak } in the { $phase } phase
lab04-per-param = bytes per parameter: weights { $weights }, gradients { $gradients }, AdamW state { $state } (the lesson's rule: 2)
lab05-first-not-t4 = First workload that does not fit the free T4: { $id } (needs { $needs })

## Files and errors (src/files.rs, src/error.rs, src/plot.rs, ...)
schema-wrong = { $name }: schema is { $found }, expected { $expected }
schema-version-wrong = { $name }: { $schema } version { $found } is not { $expected }; { $redo }
file-exists = { $path } exists; pass --force to overwrite it, or choose another name
dir-for-file = for { $path }
dir-for-output = for the output
dir-is-file = { $path } is a file, not a folder: choose another path { $what }
io-not-found = {" "}(check the path, or write the file first)
io-permission = {" "}(choose a folder you can write to, e.g. with --out, or fix its permissions)
io-not-a-directory = {" "}(a part of the path is a file, not a folder: choose another path)
io-is-a-directory = {" "}(that is a folder: name a file inside it)
io-storage-full = {" "}(free some disk space or choose another disk)
dtype-unknown = unknown dtype { $given }: use f32, f16 or bf16
cal-shipped = { $file }, measured in { $framework } { $version } on { $device } (run `{ $command }` on your machine and pass --calibration FILE)
cal-given = { $file }, measured in { $framework } { $version } on { $device } ({ $spec })
cal-not-a-file = { $name }: not a gpulab calibration file: { $error }
cal-redo = re-run `gpulab measure --save { $name }`
cal-impossible = { $name }: entry { $entry }: { $field } = { $value } is impossible
report-not-a-file = { $name }: not a gpulab report (write one with `gpulab report`): { $error }
report-redo = write a current one with `gpulab report`
plot-failed = drawing the plot failed: { $error }
plot-no-data = { $title }: no data
plot-measured-states = { $dtype } measured (weights + gradients + state)
plot-textbook-series = { $dtype } textbook
plot-two-byte-series = the lesson's 2-byte rule (fp16 weights only)
plot-per-param-title = Bytes per parameter of one training step (GPT): measured, textbook, 2-byte rule
plot-states-axis = optimizer states per parameter (0 SGD, 1 momentum, 2 AdamW)
plot-bytes-axis = bytes / parameter
cpu-unknown = unknown CPU
cuda-no-pool = this GPU has no stream-ordered memory pool, so its peaks cannot be read exactly; measure on the CPU instead
progress-template = {"{"}spinner{"}"} [{"{"}elapsed_precise{"}"}] {"{"}bar:30{"}"} {"{"}percent{"}"}% done {"{"}msg{"}"}
fw-not-compiled = the candle crate has not been built with cuda support

## --help (src/cli/args.rs; applied by src/cli/help.rs)
about-gpulab = What can my machine actually train, and why? A Candle lab kit: GPU check, matmul bench, measured training memory, fit and report.
help-default = [default: { $value }]
help-heading-usage = Usage
help-heading-commands = Commands
help-heading-options = Options
help-heading-arguments = Arguments
help-help = Print help
help-version = Print version
help-subcommand-help = Print this message or the help of the given subcommand(s)
help-gpulab-quiet = Hide progress bars.
help-gpulab-lang = Language of everything printed and written: ko or en (default: from the locale).
help-lab-which = Which lab: 1-6, a slug, or next.
help-lab-fast = The quick version (small sizes), as CI runs it.
help-hint-which = Which lab: 1-6, a slug, or next.
help-hint-answers = Also show the answers to the lab's questions.
help-report-out = Folder for the report files.
help-report-name = Base file name (default: gpulab-report-<date>-<host>).
help-report-force = Overwrite an existing report of the same name.
help-report-smi_timeout = Seconds to wait for nvidia-smi.
help-report-python = The python whose PyTorch to ask (default: python3 on PATH).
help-report-no_torch = Do not ask PyTorch.
help-compare-a = First report (JSON written by `gpulab report`).
help-compare-b = Second report.
help-fit-lesson = One lesson in detail (id or a unique part of it, e.g. 05-transfer-learning).
help-fit-json = Print JSON.
help-fit-no_recipes = Leave out the doc-only recipes (they are judged by default).
help-fit-gpu = Also judge on this GPU from data/gpus.toml (repeatable: --gpu RTX-3090 --gpu RTX-4090). The machine's own GPUs are always targets.
help-fit-remeasure = Measure this CPU's rates again instead of reading data/runs/cpu-rates.json.
help-fit-configs = With --lesson: write its multi-GPU plan's ds_config.json and accelerate_fsdp.json here.
help-fit-force = Overwrite existing config files.
help-estimate-params = A model preset (gpt2 … gpt2-xl, llama-2-7b, llama-2-13b, llama-3-8b, llama-3.2-1b/3b, qwen2.5-0.5b … 7b, mistral-7b, gemma-2-2b, phi-3-mini, smollm2-135m/360m/1.7b) or a parameter count (7B, 124M, 11_181_642); optional when --config or the shape flags give it.
help-estimate-config = A model's Hugging Face config.json (llama, mistral, qwen2, qwen3, gemma, gemma2, phi3, gpt2): its shape, biases, head width, norms and tied head.
help-estimate-mode = train or inference.
help-estimate-dtype = Precision recipe: f32; bf16 (end to end, as Candle trains: no fp32 master copy); mixed (16-bit with fp32 master copy and optimizer state, as PyTorch AMP); f16; nf4 (QLoRA base).
help-estimate-optimizer = sgd, momentum, adamw, adamw-fused, paged-adamw, adamw-8bit, paged-adamw-8bit or adafactor.
help-estimate-arch = Architecture for the shape flags: gpt (GPT-2 style) or llama (Llama style).
help-estimate-layers = Transformer layers (blocks).
help-estimate-d_model = Transformer width d (hidden size).
help-estimate-hidden = Old spelling of --d-model (accepted, with a note).
help-estimate-heads = Attention heads.
help-estimate-kv_heads = Key/value heads (grouped-query attention, llama; must divide --heads).
help-estimate-ffn = FFN width (default 4·d for gpt, 8·d/3 for llama).
help-estimate-untied = GPT: an untied head (adds vocab × d parameters; GPT-2 ties it to the token embedding).
help-estimate-tied = GPT: tie the head to the token embedding, as GPT-2 does (the default).
help-estimate-seq_len = Sequence length (default: a preset's context, else 2048).
help-estimate-vocab = Vocabulary (default 50257 for shape flags).
help-estimate-batch = Batch size per GPU.
help-estimate-lora_rank = LoRA rank (adapters on q and v of every layer).
help-estimate-dropout = LoRA dropout probability, as peft's lora_dropout (default 0): above 0 every adapted input keeps a mask and a dropped copy.
help-estimate-checkpointing = Full activation checkpointing.
help-estimate-gpus = Data-parallel GPUs.
help-estimate-zero = ZeRO stage 0-3 (3 = FSDP full sharding).
help-estimate-gpu = Check against a GPU from data/gpus.toml (T4, A100-80GB, ...).
help-estimate-memory = Check against a memory budget (16GiB, 24GB).
help-estimate-calibration = Calibration from `gpulab measure --save` (default: the ones shipped, Candle's and PyTorch's, measured on a CPU). Repeat to add columns.
help-estimate-json = Print JSON.
help-measure-model = Old spelling of --arch (accepted, with a note).
help-measure-arch = Architectures: mlp, gpt (GPT-2 style), llama (Llama style), cnn.
help-measure-dtype = dtypes: f32, bf16, f16.
help-measure-optimizer = Optimizers: sgd, momentum, adamw.
help-measure-device = Device: cpu or cuda:N.
help-measure-batch = Batch size (default per architecture: mlp 64, gpt and llama 8, cnn 32).
help-measure-hidden = Old spelling of --mlp-widths (accepted, with a note).
help-measure-mlp_widths = MLP hidden widths, e.g. 512,512.
help-measure-d_model = Transformer width d (hidden size; default 128).
help-measure-layers = Transformer layers (blocks; default 2).
help-measure-heads = Attention heads (default 4).
help-measure-vocab = Vocabulary (default 512).
help-measure-seq_len = Sequence length (default 64).
help-measure-ffn = FFN width (default 4·d for gpt, 8·d/3 for llama).
help-measure-kv_heads = Key/value heads (grouped-query attention, llama; must divide --heads).
help-measure-tied = GPT: tie the head to the token embedding, as GPT-2 does (the default).
help-measure-untied = GPT: an untied head (adds vocab × d parameters).
help-measure-image_size = CNN image side (multiple of 4).
help-measure-batches = Batch sizes of the batch sweep (3 or more; empty with --no-sweep).
help-measure-seq_lens = Sequence lengths of the GPT sweep (3 or more).
help-measure-no_sweep = Skip the sweeps.
help-measure-validate = Validate gpulab's empirical memory model: fit it on some shapes, predict and measure others.
help-measure-lean = Measure each step twice: as a Candle program ordinarily writes it, and as gpulab's lean step (graph and non-parameters' gradients dropped before the update, lean optimizers).
help-measure-pytorch = Run the same step in PyTorch (GPT and Llama) instead of Candle, with --save or --validate.
help-measure-python = The python that has torch (default: python3 on PATH).
help-measure-json = Write the full report as JSON here ('-' for stdout).
help-measure-save = Save the calibration for `estimate`: the run's bytes per parameter and the memory models, fitted on 40 small shapes per family × dtype × optimizer (a few minutes on a CPU).
help-measure-plot = Draw memory against batch and sequence length into this SVG file.
help-measure-force = Overwrite existing output files.
help-measure-append = With --pytorch --save: add this run's models to the PyTorch calibration FILE already there (a model of the same family, dtype, optimizer and step is replaced).
help-measure-implementation = PyTorch implementation: transformers (Hugging Face's GPT2LMHeadModel / LlamaForCausalLM, what people train) or gpulab (data/torch-step.py's own modules).
help-measure-attn = transformers' attention: sdpa (its default) or eager.
help-measure-update = The optimizer's update: auto (the device's default: foreach on CUDA, for-loop on the CPU), foreach or for-loop.
help-measure-lora_targets = Which layers LoRA adapts: qv (the attention's query and value) or all-linear.
help-measure-checkpointing = PyTorch: activation checkpointing (transformers' gradient_checkpointing_enable()).
help-measure-lora_rank = PyTorch: LoRA of this rank through peft (the base frozen; --lora-targets picks the layers). With --save or --validate the rank varies over the shapes.
help-measure-autocast = PyTorch: mixed precision, the forward pass under torch.autocast in bf16 or f16 (weights and optimizer in --dtype, normally f32).
help-measure-quant = PyTorch: QLoRA's 4-bit base (nf4: bitsandbytes' NF4 with double quantization) under LoRA (with --lora-rank or --lora-targets); --dtype is its compute dtype, normally bf16.
help-estimate-implementation = The PyTorch column's implementation: transformers (Hugging Face's models, the default) or gpulab (data/torch-step.py's own modules).
help-estimate-attn = The PyTorch column's attention (transformers): sdpa (its default) or eager.
help-estimate-update = The PyTorch column's optimizer update: auto (foreach on a GPU, for-loop on the CPU), foreach or for-loop.
help-estimate-lora_targets = Which layers LoRA adapts: qv (query and value, the default), all-linear, attention, mlp, or a list such as q,k,v,o,gate,up,down (a list is for the GPU column; the CPU-measured column knows qv and all-linear).
help-bench-device = Devices: cpu, cuda:N, or all (every device that opens). Repeat or comma-separate.
help-bench-dtype = dtypes: f32, f16, bf16. Repeat or comma-separate.
help-bench-sizes = Sizes: N for N×N×N, or MxKxN (e.g. 256,1024,512x1024x256). Default: a sweep per device.
help-bench-budget = Seconds of timed calls per point (at least --min-runs calls are made).
help-bench-min_runs = Fewest timed calls per point.
help-bench-threads = CPU threads for the matmul (default: physical cores, as candle picks).
help-bench-cpu_kernel = CPU f32 kernel: auto (gpulab's own, AVX-512 or AVX2, where the CPU has one; else Candle's), candle, gpulab, gpulab-avx2 or gpulab-avx512.
help-bench-naive = Also show the lesson's naive timing (one cold call; on a GPU, one call without synchronize).
help-bench-json = Write JSON here ('-' for stdout), updated after every point.
help-bench-csv = Write CSV here ('-' for stdout), updated after every point.
help-bench-markdown = Write Markdown here ('-' for stdout), updated after every point.
help-bench-plot = Draw GFLOP/s and speedup against size into this SVG file.
help-bench-force = Overwrite existing output files.
help-check-json = Print the result as JSON (schema gpulab.check, versioned) instead of a summary.
help-check-smi_timeout = Seconds to wait for nvidia-smi before calling it hung.
help-check-nvidia_smi = The nvidia-smi program to ask.
help-check-require_gpu = Exit with status 1 unless a GPU is ready (for scripts).
help-check-python = The python whose PyTorch to ask (default: python3 on PATH, the active environment's).
help-check-no_torch = Do not ask PyTorch (it takes a second or two to import).
about-check = Is there a usable NVIDIA GPU? Asks nvidia-smi and Candle, and says why they disagree.
about-bench = CPU vs GPU matrix multiplication, measured properly (warm-up, sync, repeats, median).
about-measure = Run real training steps and measure where every byte goes (weights, activations, gradients, optimizer state).
about-estimate = How much memory a model needs (2-byte rule, textbook, measured), and what fits a budget.
about-fit = For every course lesson: does it fit on this CPU, your GPU, Colab, the cloud — how long, what cost.
about-report = The lesson's environment report, filled in: check + bench + measure + fit, Markdown and JSON.
about-compare = Two reports side by side (e.g. this laptop and a Colab T4).
about-labs = The labs, with your progress (a lab is done when its result is in data/runs/).
about-lab = Run a lab's program: an id (1-6), a slug, or next.
about-hint = Show a lab's hints (default: the next lab's).

## Data files and the PyTorch step (src/plan/lessons.rs, src/plan/gpus.rs, src/memory/torch.rs, src/probe/nvidia_smi.rs)
data-field = { $file }:{ $line }: { $kind } { $id }, field `{ $field }`: { $why }
data-duplicate = duplicate id
data-at-least-one = must be at least 1
data-trainable = cannot exceed params
data-heads = d_model must be a multiple of heads
data-steps = a run that trains or infers needs steps or tokens
data-positive = must be a positive number
data-bf16-nonnegative = must be 0 (no bf16) or positive
data-compute-cap = must look like 8.0
data-bf16-cap = bf16 throughput must be 0 exactly when compute_cap < 8.0
data-price = needs 0 <= low <= high
data-match = needs at least one name fragment
data-usable = must be positive and at most the memory sold
data-usable-source = say where the usable size was seen
data-optimizer = unknown optimizer { $given }: use sgd, momentum, adamw or none
kind-workload = workload
kind-gpu = gpu
toml-error = { $file }: { $error }
tstep-no-result = the PyTorch step printed no result
tstep-unreadable = the PyTorch step's result is not readable: { $error }
tstep-count = the PyTorch step answered { $answered } shapes of { $asked }
tstep-other-model = PyTorch's model has { $theirs } parameters, gpulab's { $ours }: not the same model
tstep-family = the PyTorch step builds GPT and Llama models, not { $family }
tstep-timeout = the PyTorch step did not finish in { $seconds } s; try fewer or smaller shapes
tstep-failed = the PyTorch step failed (exit { $code }): { $last }
smi-no-name-column = no name column in header { $header }
smi-row-fields = row has { $cells } fields, header has { $columns }: { $line }
smi-index-nan = GPU index { $given } is not a number

## Stopping the meter (src/probe/platform.rs) and fitting (src/memory/empirical.rs)
stop-colab = Runtime > Disconnect and delete runtime
stop-kaggle = Run > Stop session (the weekly GPU quota keeps counting otherwise)
stop-digitalocean = doctl compute droplet delete { $id } (a powered-off Droplet is still billed)
stop-hetzner = hcloud server delete { $id } (a stopped server is still billed)
fit-no-steps = no measured steps to fit a memory model on
fit-mixed-steps = a memory model is fitted on steps of one family, dtype and optimizer
fit-too-alike = cannot fit the { $family } memory model: { $count } calibration shapes are too few or too alike

## clap's parse errors, said in Korean (src/cli/help.rs; English keeps clap's own)
cli-unknown-argument = unexpected argument { $arg } found
cli-unknown-command = unrecognized subcommand { $command }
cli-invalid-value = invalid value { $value } for { $arg }
cli-value-needed = a value is required for { $arg } but none was supplied
cli-missing = the following required arguments were not provided: { $args }
cli-conflict = { $arg } cannot be used with { $other }
cli-suggest = tip: a similar one exists: { $suggestion }
cli-more = For more information, try '--help'.
labs-answers = Answers to the README's questions

## The derived CUDA step (src/memory/cuda_step.rs, src/memory/published.rs)
cuda-bad-release = transformers release { $given } is not a version like 4.48.1
cuda-not-transformer = the CUDA step is derived for transformers (GPT-2 and Llama families) only
cuda-qlora-needs-lora = QLoRA trains adapters on a frozen 4-bit base: give --lora-rank
cuda-gpt-gate = GPT-2 has no gate projection: drop gate from --lora-targets (c_fc is up)
cuda-source = gpulab's CUDA model of the step, derived from the code that runs it (not measured on a GPU)
cuda-assumes = CUDA step derived tensor by tensor ({ $recipe }, { $kernel } attention{ $lora }{ $loop }, the loss as transformers ≥ 4.50 computes it): allocated peak { $allocated }, allocator reserve { $reserved }, plus CUDA context { $context } = the total
lora-targets-unknown = LoRA target { $given } is not known: use qv, all-linear, attention, mlp, or a list of q, k, v, o, gate, up, down (e.g. q,k,v,o)
lora-dropout-range = --lora-dropout { $given } is not a probability: give a number from 0 up to (not including) 1, e.g. 0.05
measure-lora-list = measure runs LoRA on qv or all-linear only, not { $given }: the list is for estimate's GPU column
published-bad = the published rows cannot be read: { $error }
published-model = published row names model { $given }, which is not a gpulab preset
published-field = published row has { $field } = { $given }, which gpulab does not know
est-col-cuda = PyTorch CUDA derived
est-row-allocated = allocated at the peak (max_memory_allocated)
est-row-reserved = reserved by PyTorch's caching allocator
act-cuda-recipe = derived for CUDA from the code of a Hugging Face step ({ $model }, { $recipe }, fused attention, foreach AdamW), with the caching allocator's reserve of { $reserve } (not measured on a GPU)
est-which-on-cuda = On a GPU, the PyTorch CUDA column counts the tensors CUDA's kernels keep (the CPU-measured PyTorch column holds the CPU's), and its total adds what the caching allocator reserves: it is the one an out-of-memory error follows.
est-cuda-from = PyTorch CUDA derived: { $source }; the step: { $assumes }.
est-cuda-verdict = PyTorch CUDA derived ({ $recipe }): { $verdict }
help-estimate-grad_accum = Micro-batches each optimizer step accumulates gradients over (the GPU column: every gradient stays alive through the later micro-batches).
help-estimate-keep_outputs = The training loop keeps the model's output through backward (out = model(...), then out.loss.backward()), as hand-written loops do; Trainer drops it first.
cuda-accumulates = gradients accumulated over { $steps } micro-batches
cuda-keeps-outputs = the loop keeps its output through backward
fit-recorded = timed: the lesson's own code ran { $wall } s on { $cpu } (imports, data and evaluation included), × { $scale } for this CPU; it held { $rss } at most
fit-recorded-failed = the lesson's own code did not finish on { $cpu }: { $why } (time and memory here are the model's)
cuda-bad-kbit-prep = QLoRA preparation { $given } is not one of peft (prepare_model_for_kbit_training), trl-bf16 (TRL's SFTTrainer under --bf16) or none
cuda-kbit-prep = QLoRA prepared as --kbit-prep { $prep } says: peft's prepare_model_for_kbit_training leaves norms, embeddings and head fp32, so the residual stream runs fp32 (trl-bf16: TRL casts embeddings and head back; none: all 16-bit)
kbit-prep-needs-nf4 = --kbit-prep and --no-double-quant describe QLoRA: use them with --dtype nf4, or leave them out
help-estimate-kbit_prep = What QLoRA's preparation leaves fp32 (--dtype nf4): peft (prepare_model_for_kbit_training, the default), trl-bf16 (TRL's SFTTrainer under --bf16) or none.
help-estimate-no_double_quant = bitsandbytes' 4-bit blocks without double quantization (BitsAndBytesConfig's default; QLoRA recipes usually set bnb_4bit_use_double_quant=True, which gpulab assumes).
cuda-nf4-double = The 4-bit blocks are double-quantized (bnb_4bit_use_double_quant=True; --no-double-quant if yours is not)
cuda-nf4-single = The 4-bit blocks keep an f32 absmax per 64 weights (no double quantization)
measure-no-counting-allocator = this program does not count its allocations, so CPU memory cannot be measured: add `#[global_allocator] static ALLOC: gpulab::memory::alloc::CountingAllocator = gpulab::memory::alloc::CountingAllocator;` to its main.rs
cal-unknown-term = { $name }: a { $family } model uses the term { $term }, which gpulab does not know (a hand-edited or newer file?); measure again with `gpulab measure --save FILE`

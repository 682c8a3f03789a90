# gpulab 메시지 카탈로그 — 한국어. 모든 메시지는 en.ftl에 같은 인자를 가진 짝이 있습니다
# (src/i18n/tests.rs가 확인). 인자는 이미 서식이 적용된 문자열로 들어옵니다.

## Language
lang-unknown = 알 수 없는 언어 { $given }: ko 또는 en을 쓰세요

## Readiness (src/probe/diagnose.rs)
ready-no-gpu = GPU 없음
ready-not-usable = 사용 불가
ready-limited = 제한적으로 사용 가능
ready-ready = 준비됨

## Causes and fixes (src/probe/diagnose.rs)
advice-no-gpu = 이 CPU로도 과정의 Phase 1-3 강의와 코드 속 작은 학습 루프(MNIST MLP, 작은 GPT, 작은 CNN)는 충분히 돌아갑니다. GPU 강의(Phase 4부터: ResNet 파인튜닝, Stable Diffusion, LoRA)는 Colab의 무료 T4(런타임 > 런타임 유형 변경 > T4 GPU)를 쓰거나 클라우드 GPU를 빌리세요. 다 쓰면 인스턴스를 꼭 멈추세요.
diag-built-without-cuda = nvidia-smi는 GPU { $count }개를 보지만 이 gpulab 실행 파일은 CUDA 없이 빌드되었습니다
fix-rebuild-with-cuda = `cargo run --release --features cuda -- check`로 다시 빌드하세요 (CUDA 툴킷의 nvcc가 PATH에 있어야 하고, CUDA_COMPUTE_CAP을 GPU의 compute capability로 지정해야 합니다. 예: 86)
diag-driver-too-old = 드라이버는 CUDA { $driver }까지 지원하는데, 이 실행 파일의 커널은 CUDA { $toolkit }로 컴파일되었습니다
fix-driver-too-old = CUDA { $toolkit }를 지원하는 NVIDIA 드라이버로 업데이트하거나, { $driver } 이하의 CUDA 툴킷으로 다시 빌드하세요
head-no-gpu-unknown = 쓸 수 있는 NVIDIA GPU를 찾지 못했습니다: { $reason }. 이 컴퓨터에 GPU가 있는지는 알 수 없습니다.
head-no-gpu-because = 쓸 수 있는 NVIDIA GPU가 없습니다: { $reason }.
head-no-gpu = 이 컴퓨터에는 NVIDIA GPU가 없습니다.
diag-gpu-unusable = GPU를 사용할 수 없습니다
head-not-usable = GPU는 있지만 쓸 수 없습니다: { $reason }.
head-ready = { $gpus }에서 학습할 준비가 되었습니다.
head-limited = 제한적으로 사용 가능: { $gpus } ({ $limit }).
fix-nothing-ready = 고칠 것이 없습니다. 다음으로 `gpulab bench`로 얼마나 빠른지 확인하세요
diag-smi-missing-cuda-ok = nvidia-smi가 PATH에 없지만 CUDA는 장치를 봅니다
fix-smi-missing-cuda-ok = 선택 사항: 드라이버의 bin 폴더를 PATH에 넣으면 nvidia-smi가 메모리와 버전을 알려 줍니다
fix-no-driver = CPU 강의에는 고칠 것이 없습니다. 이 컴퓨터에 NVIDIA GPU가 있다면 드라이버를 설치한 뒤(예: `sudo ubuntu-drivers install`) `nvidia-smi`를 실행하세요
fix-driver-not-loaded = 커널 드라이버를 올리세요: 설치 후 재부팅하고, Secure Boot가 켜져 있으면 모듈 키를 등록(또는 서명)하세요. `lsmod | grep nvidia`와 `dmesg | grep -i nvidia`로 확인합니다
fix-driver-mismatch = 재부팅하세요: 드라이버는 업데이트되었지만 예전 커널 모듈이 아직 올라와 있습니다(또는 두 부분을 같은 버전으로 다시 설치하세요)
fix-container-lost-gpu = NVIDIA Container Toolkit(`--gpus all`)으로 컨테이너를 다시 시작하세요. `systemctl daemon-reload` 뒤에 생긴다면 Docker를 cgroupfs 드라이버로 바꾸거나 CDI 장치를 쓰세요
fix-driver-libraries-missing = 드라이버의 사용자 공간 라이브러리를 설치하세요(예: 같은 버전의 nvidia-utils / libnvidia-compute 패키지). 컨테이너라면 NVIDIA Container Toolkit으로 시작하고, WSL이라면 /usr/lib/wsl/lib/nvidia-smi를 쓰세요
fix-no-devices = GPU가 연결되어 있는지 확인하고(`lspci | grep -i nvidia`, VM이라면 GPU 패스스루), `dmesg`에서 'fallen off the bus' Xid 오류를 찾아보세요
fix-smi-permission = /dev/nvidia*와 nvidia-smi의 권한, 그리고 내 사용자가 GPU를 쓸 수 있는지(예: video 그룹) 확인하세요
fix-smi-timed-out = 드라이버나 GPU가 멈췄거나 깨어나는 데 아주 오래 걸립니다: persistence 모드를 켜고(`sudo nvidia-smi -pm 1`), `dmesg | grep -i xid`를 확인한 뒤, 계속되면 재부팅하세요
fix-smi-unreadable = `nvidia-smi`를 직접 실행해 보세요. 정상으로 보이면 그 출력을 gpulab에 알려 주세요(파서가 배우도록)
fix-smi-failed = `nvidia-smi`를 직접 실행해 메시지를 읽어 보세요. 대부분 드라이버 재설치나 재부팅으로 해결됩니다
diag-hidden-by-cvd = CUDA_VISIBLE_DEVICES={ $value }가 장치를 가려서 CUDA가 아무 장치도 보지 못합니다
fix-hidden-by-cvd = CUDA_VISIBLE_DEVICES를 지우거나, nvidia-smi가 보여 주는 번호나 UUID로 지정하세요
diag-not-visible-to-cuda = nvidia-smi는 GPU를 보여 주는데 CUDA는 하나도 찾지 못합니다
fix-not-visible-to-cuda = 이 프로세스가 /dev/nvidia*를 열 수 있는지(컨테이너는 `--gpus all` 필요), MIG 설정이 GPU를 가리고 있지 않은지 확인하세요
diag-cuda-no-device = CUDA가 장치를 찾지 못합니다
fix-cpu-lessons-ok = CPU 강의에는 고칠 것이 없습니다. GPU 강의는 Colab이나 클라우드 GPU에서 하세요
diag-ptx-too-new = 드라이버는 CUDA { $driver }를 지원하는데 커널은 CUDA { $toolkit }로 빌드되었습니다 ({ $message })
fix-ptx-too-new = CUDA { $toolkit }를 지원하는 NVIDIA 드라이버로 업데이트하거나 더 오래된 툴킷으로 다시 빌드하세요. 툴킷을 바꾼 뒤에는 `cargo clean -p candle-kernels`로 예전 PTX가 재사용되지 않게 하세요
diag-no-bf16-kernels = compute capability { $cc }에는 bf16 커널이 없습니다
fix-no-bf16-kernels = 이 GPU에서는 f32(또는 f16)로 학습하세요. bf16은 compute capability 8.0 이상(A100, RTX 30xx 이후)이 필요합니다
diag-kernels-other-arch = 커널이 이 GPU의 { $cc }가 아니라 compute capability { $built }용으로 빌드되었습니다 ({ $message })
fix-kernels-other-arch = CUDA_COMPUTE_CAP={ $cap }(GPU의 compute capability에서 점을 뺀 값)로 다시 빌드하세요
diag-cuda-library-missing = CUDA 라이브러리를 불러오지 못했습니다 ({ $message })
fix-cuda-library-missing = CUDA 라이브러리를 로더 경로에 넣으세요. 예: `export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH` (pip로 설치한 툴킷이면 nvidia/*/lib 폴더)
diag-cuda-driver-mismatch = CUDA 드라이버 라이브러리와 커널 모듈의 버전이 맞지 않습니다 ({ $message })
fix-cuda-driver-mismatch = 재부팅하거나, 드라이버의 모든 부분을 같은 버전으로 다시 설치하세요 (forward-compatibility libcuda는 데이터센터 GPU에서만 동작합니다)
diag-out-of-memory = GPU 메모리가 부족합니다 ({ $message })
fix-out-of-memory = GPU를 쓰는 다른 프로세스를 닫거나(`nvidia-smi`로 확인), 다른 GPU를 고르세요
diag-context-refused = GPU가 컨텍스트 생성을 거부했습니다 ({ $message })
fix-context-refused = GPU가 exclusive-process나 prohibited compute 모드이거나 사용 중일 수 있습니다: `nvidia-smi -q -d COMPUTE`로 확인하세요
fix-wrong-result = 이 GPU의 결과를 믿지 마세요: 드라이버를 업데이트하고 `dmesg`에서 Xid 오류를 확인한 뒤 알려 주세요
diag-built-without-cuda-plain = 이 gpulab 실행 파일은 CUDA 없이 빌드되었습니다
fix-features-cuda = `--features cuda`로 다시 빌드하세요
diag-cuda-failed = CUDA 실패: { $message }
fix-cuda-failed = CUDA_LAUNCH_BLOCKING=1로 다시 실행해 실패한 호출을 확인하고, `nvidia-smi`로 드라이버를 점검하세요
gpu-unknown-name = 알 수 없는 GPU
diag-mig-whole = MIG 모드가 켜져 있습니다: CUDA는 이 GPU 전체가 아니라 조각(slice)만 봅니다
diag-mig-slices = MIG 모드가 켜져 있습니다: GPU가 조각 { $count }개({ $profiles })로 나뉘어 있고, CUDA는 각자 몫의 메모리만 가진 조각을 봅니다
fix-mig-pick = CUDA_VISIBLE_DEVICES={ $uuid }로 조각 하나를 고르고, 모델 크기는 GPU 전체가 아니라 그 조각의 메모리에 맞추세요
fix-mig-pick-any = CUDA_VISIBLE_DEVICES=MIG-<uuid>로 조각을 고르세요 (`nvidia-smi -L`로 확인)
diag-gpu-not-in-cuda = nvidia-smi에는 이 GPU가 보이지만 CUDA에는 보이지 않습니다{ $hidden }
fix-gpu-not-in-cuda = CUDA_VISIBLE_DEVICES를 지우거나 이 GPU의 번호/UUID를 넣으세요
diag-build-no-cuda-gpu = 이 빌드에는 CUDA가 없어서 이 GPU를 쓸 수 없습니다
diag-bf16-check-failed = bf16 확인 실패
diag-gpu-busy = { $total } 중 { $free }만 비어 있습니다: 나머지는 다른 프로세스가 쓰고 있습니다
fix-gpu-busy = `nvidia-smi`로 누가 쓰는지 보고, 학습 전에 멈추세요
diag-no-bf16 = compute capability { $cc } 버전은 bf16을 지원하지 않습니다
fix-no-bf16 = 여기서는 f32나 f16으로 학습하세요. bf16은 compute capability 8.0 이상(A100, RTX 30xx 이후)이 필요합니다
diag-kernels-newer = 커널이 compute capability { $built }용으로 빌드되어 이 GPU의 { $cc }보다 새롭습니다
fix-rebuild-cap = CUDA_COMPUTE_CAP={ $cap }로 다시 빌드하세요
diag-memory-mismatch = nvidia-smi는 { $smi }라고 하는데 CUDA는 { $cuda }를 봅니다 ({ $gap } % 차이. 드라이버 예약분으로는 몇 %만 설명됩니다)
fix-memory-mismatch = nvidia-smi와 CUDA가 같은 GPU를 보는지(CUDA_DEVICE_ORDER=PCI_BUS_ID), MIG 조각이나 vGPU인지 확인하세요
diag-ready = 장치를 열었고 f32와 bf16 행렬곱이 실행되어 CPU 기준값과 일치했습니다

## The driver's failures (src/probe/nvidia_smi.rs)
smi-not-installed = nvidia-smi가 설치되어 있지 않습니다 (이 컴퓨터에 NVIDIA 드라이버가 없음)
smi-cannot-start = nvidia-smi는 있지만 실행하지 못했습니다: { $message }
smi-cannot-communicate = nvidia-smi가 NVIDIA 커널 드라이버와 통신하지 못합니다 (모듈이 올라와 있지 않음)
smi-no-devices = 드라이버는 올라와 있지만 NVIDIA GPU가 보이지 않습니다
smi-version-mismatch = 드라이버의 커널 모듈과 사용자 공간 라이브러리의 버전이 다릅니다
smi-nvml-unknown = NVML이 'Unknown Error'로 실패했습니다 (대개 컨테이너가 GPU 장치 파일에 대한 접근을 잃은 경우)
smi-nvml-missing = nvidia-smi가 libnvidia-ml.so를 찾지 못합니다 (드라이버 라이브러리가 없거나 마운트되지 않음)
smi-permission-denied = nvidia-smi의 GPU 접근이 거부되었습니다 (권한 부족)
smi-timed-out = nvidia-smi가 { $seconds }초 안에 응답하지 않았습니다
smi-unparseable = nvidia-smi의 출력을 읽지 못했습니다: { $detail }
smi-failed-exit = nvidia-smi 실패 (종료 코드 { $code })
smi-killed = nvidia-smi가 시그널로 중단되었습니다
smi-printed-nothing = { $how }, 아무것도 출력하지 않았습니다
smi-failed-with = { $how }: { $message }
device-unknown = 알 수 없는 장치 { $given }: cpu, cuda:N(예: cuda:0), all 중 하나를 쓰세요
cuda-not-built = 이 gpulab은 CUDA 없이 빌드되었습니다. GPU에서 재려면 `--features cuda`로 다시 빌드하세요
cuda-no-host-copies = 이 gpulab은 CUDA 없이 빌드되어 호스트↔장치 복사를 잴 수 없습니다
cuda-empty-error = (빈 오류 메시지)
cuda-matmul-off = 행렬곱 결과가 { $error }만큼 틀렸습니다 (허용 오차 { $tolerance })

## PyTorch's view (src/probe/pytorch.rs)
torch-no-result = 검사 스크립트가 결과를 출력하지 않았습니다
torch-crashed = { $reason }: 종료 코드 { $code } ("{ $said }")
torch-by-signal = 시그널
torch-unreadable = 검사 스크립트의 결과를 읽을 수 없습니다: { $error }
torch-no-version = 검사 결과에 torch 버전이 없습니다
torch-found = torch { $version } ({ $python }) · 빌드 CUDA { $cuda } · is_available() { $available } · 장치 { $count }개
torch-cpu-wheel = 없음 (CPU 전용 wheel)
torch-no-python = { $python }에 python이 없습니다 (다른 환경을 보려면 --python PATH)
torch-missing = { $python }에 torch가 없습니다 ({ $reason }): 이후 강의에는 `pip install torch`가 필요합니다
torch-timed-out = { $python } 실행 파일이 { $seconds }초 안에 응답하지 않았습니다 (torch import나 CUDA 초기화가 멈춤)
torch-snippet-note = 강의의 코드 조각은 torch.cuda.get_device_properties(0).total_mem을 읽는데, PyTorch에는 그런 속성이 없습니다(GPU가 있는 컴퓨터에서 AttributeError). 동작하는 이름은 .total_memory입니다
torch-diag-cpu-only = torch { $version } 버전은 CPU 전용 wheel인데 드라이버에는 GPU { $gpus }개가 있습니다
torch-fix-cpu-only = 이 환경에 CUDA용 torch를 설치하세요: `pip install torch --index-url https://download.pytorch.org/whl/cu{ $tag }` (드라이버의 { $driver }보다 새롭지 않은 CUDA)
torch-see-warning = 경고 참고
torch-diag-too-new = torch { $version } 버전은 CUDA { $built }용으로 빌드되어 이 드라이버가 지원하는 것({ $driver })보다 새롭습니다
torch-fix-too-new = NVIDIA 드라이버를 업데이트하거나, 드라이버의 CUDA에 맞는 torch wheel을 설치하세요: `pip install torch --index-url https://download.pytorch.org/whl/cu{ $tag }`
torch-diag-unavailable = 드라이버에는 GPU { $gpus }개가 있는데 torch.cuda.is_available()이 False입니다{ $detail }
torch-fix-unavailable = `python -c "import torch; torch.zeros(1).cuda()"`로 CUDA의 오류를 직접 보고, CUDA_VISIBLE_DEVICES와 이 환경의 torch가 드라이버에 맞는지 확인하세요
torch-diag-other-devices = torch는 장치 { $torch }개를 보고, 드라이버에는 { $gpus }개가 있습니다
torch-fix-other-devices = torch가 무엇을 볼지는 CUDA_VISIBLE_DEVICES(또는 컨테이너의 장치 목록)가 정합니다: 쓰려는 GPU로 지정하세요

## check's screen (src/probe/check.rs)
check-title = gpulab check: 쓸 수 있는 NVIDIA GPU가 있나요?
check-container = 컨테이너 ({ $kind })
check-host = 호스트      { $os } { $arch }{ $place }
check-host-cpu = { $cpu } · 코어 { $cores }개 / 스레드 { $threads }개 · { $simd }
check-host-ram = RAM 전체 { $total }, 사용 가능 { $available }
check-place = 위치
check-driver = 드라이버
check-driver-line = nvidia-smi: GPU { $count }개 · 드라이버 { $driver } · CUDA { $cuda }까지 지원{ $dropped }
check-dropped-fields = {" "}· 이 드라이버가 모르는 필드: { $fields }
check-framework = 프레임워크
check-framework-cuda = candle { $version } · CUDA { $cuda }, compute capability { $cc }용 · 장치 { $count }개{ $error }
check-framework-no-cuda = candle { $version } · cuda 없이 빌드 · Device::new_cuda(0): { $error }
check-torch-device = cuda:{ $index } { $name } · cc { $cc } · { $memory } (get_device_properties({ $index }).total_memory)
check-warning = 경고: { $text }
check-note = 참고: { $text }
check-fix = 해결: { $text }
check-gpu-line = GPU { $smi } / { $cuda }  { $name } · cc { $cc } · 메모리 { $smi_memory } (nvidia-smi) / { $cuda_memory } (CUDA) · { $readiness }
check-verdict = 판정
check-next = 다음
check-also = 또한
check-meanwhile = 그동안

## fit (src/plan/fit.rs)
fit-intro = 각 강의가 들어갈까요? 이 CPU에서는 여기서 기록한 강의(data/lessons-measured.json)를 그 실행 자체로 판단합니다: 최고 메모리와, 이 CPU에 맞춰 환산한 시간. 그 밖의 경우와 GPU("필요량")는 메모리를 교과서 공식으로, 시간은 스텝 수 × (연산 시간 + 메모리 시간 + 스텝당 고정 비용: CPU { $cpu_floor } ms, GPU { $gpu_floor } ms)로 계산합니다. CPU에서 { $cpu_hours }시간, Colab 무료 T4에서 세션 한도 { $colab_hours }시간을 넘으면 현실적이지 않다고 봅니다.
fit-target-line = { $name }: 메모리 { $memory }, { $source }
fit-caveat-legend = ✓*: 들어가지만 강의 코드가 그대로는 CPU에서 실행됩니다 (device="cpu"로 고정되어 있음)
fit-datasheet = 데이터시트 ({ $name }): f32 { $f32 } TFLOP/s, 16비트 { $half } TFLOP/s (큰 행렬에서 { $share }%), { $bandwidth } GB/s
fit-unknown-gpu-rates = 알 수 없는 GPU: f32 5 TFLOP/s, 16비트 10 TFLOP/s, 300 GB/s로 가정
target-this-cpu = 이 CPU
target-colab-free-t4 = T4 (Colab 무료)
fit-detail-params = 파라미터 { $params }개{ $trainable } · { $dtype } · { $optimizer } · 배치 { $batch } · { $mode }{ $note }
fit-trainable = {" "}(학습 대상 { $count }개)
fit-no-optimizer = 옵티마이저 없음
fit-note = 참고: { $text }
fit-memory-heading = 메모리 (가중치·기울기·옵티마이저 상태는 공식으로, 활성값은 합계 줄에 적힌 방법으로):
mem-weights = 가중치
mem-gradients = 기울기
mem-optimizer-state = 옵티마이저 상태
mem-activations = 활성값
mem-total = 합계
fit-total-line = { $total } (활성값: { $source })
fit-cuda-context = + GPU에서는 CUDA 컨텍스트가 보통 { $size }
fit-work = 연산량: 전체 실행에 { $flops } FLOPs
fit-targets = 실행 환경:
fit-state-na = n/a
fit-state-too-small = 메모리 부족
fit-state-too-slow = 너무 느림
fit-state-fits = 들어감
fit-target-detail = { $name } { $state } { $memory } 중 { $needed } 필요 · { $time } · { $cost } · { $source }
fit-step = 한 스텝: 연산 { $compute } ms (n ≈ { $n }), 메모리 { $memory } ms, 고정 비용 { $floor } ms → { $bound }
bound-compute = 연산 한계
bound-memory = 메모리 한계
bound-overhead = 고정 비용 한계 (스텝당 고정 비용)
fit-doc-says = (강의 문서는 { $gpu }에서 약 { $hours }시간이라고 합니다)
fit-recommended = 추천: { $text }
fit-multi-gpu = 여러 GPU: { $text }
fit-configs =
    ds_config.json (DeepSpeed):
    { $deepspeed }

    accelerate_fsdp.json (Accelerate + FSDP):
    { $accelerate }

    다음 중 하나로 실행하세요:
      { $first }
      { $second }
    (`gpulab fit --lesson { $id } --configs DIR`가 두 파일을 씁니다.)
act-formula = 공식 (Korthikanti et al. 2022)
act-formula-layer = 공식 (한 번에 한 층씩)
act-lessons-toml = lessons.toml의 샘플당 추정값
act-rough = 대략값 (배치 · 16·√P개 값)
act-measured = 측정한 { $framework } 모델 ({ $file })
fit-too-slow-cpu = 이 CPU로 { $time }: { $limit }시간이 넘는 실행은 기다릴 만한 실습이 아닙니다
fit-too-slow-colab = { $time } 시간은 Colab 무료 세션(최대 { $limit }시간)보다 깁니다
fit-caveat-cpu-pinned = 강의 코드가 device="cpu"로 고정되어 있어 그대로는 CPU에서 실행됩니다. 이 시간을 얻으려면 "cuda"로 바꾸세요
rec-nothing-to-train = 강의 코드에는 학습할 것이 없습니다. 레시피를 참고하세요
rec-this-cpu = 이 CPU ({ $time }, 무료)
rec-not-free-t4 = ; 무료 T4가 아닌 이유: { $why }
rec-free = { $target } ({ $time }, 무료)
rec-paid = { $target } ({ $time }, 약 { $cost }){ $note }
rec-cpu-slowly = 이 CPU, 느리게 ({ $time })
rec-multi-gpu = GPU 한 장으로는 불가: 여러 GPU 계획을 보세요
col-lesson = 강의
col-needs = 필요량
col-recommended = 추천
cell-na = n/a
cell-memory = ✗ 메모리
cell-too-slow = ✗ 너무 느림 ({ $time })
fit-more-detail = 강의 하나의 자세한 내용: gpulab fit --lesson <id>
fit-no-plan = { $id } 강의는 GPU 한 장에 들어가서 설정 파일을 쓸 여러 GPU 계획이 없습니다

## The report (src/report/markdown.rs)
# The template's headings and field names stay exactly as the lesson writes them (data/report-template.md;
# the English side adds a translation in parentheses): a learner hands the template in.
rep-title = GPU/Cloud 환경 점검 결과
rep-date = 날짜
rep-local-gpu = local GPU
rep-smi = `nvidia-smi` 결과
rep-framework = 프레임워크 CUDA (Candle)
rep-memory = GPU memory
rep-colab = Colab 실행 여부
rep-cloud = cloud GPU 사용 여부
rep-bandwidth = 메모리 대역폭
rep-roofline = 루프라인(Roofline)
rep-multi-gpu = 여러 GPU 계획 (GPU 한 장에 들어가지 않는 강의)
rep-multi-gpu-line = { $id }: { $plan } — `gpulab fit --lesson { $id } --configs DIR`로 DeepSpeed와 Accelerate/FSDP 설정 파일을 씁니다
rep-bench = 벤치마크(Benchmark)
rep-bench-detail = 벤치마크
rep-size = 행렬곱 크기
rep-size-value = { $n }³ f32 (중앙값)
rep-cpu-time = CPU time
rep-gpu-time = GPU time
rep-speedup = speedup
rep-judgement = 판단
rep-runs-here = 이 환경으로 가능한 강의
rep-nothing-to-train = 코드가 신경망을 학습하지 않는 강의 (문서의 레시피는 위에서 판단)
rep-legend = ✓ 들어감 (전체 실행 시간) · ✓* 들어가지만 강의 코드가 그대로는 CPU에서 실행됨 · ✗ 메모리: 메모리에 안 들어감 · ✗ 너무 느림: 들어가지만 CPU에서 하루 넘게, 또는 Colab 세션 12시간보다 오래 걸림 · n/a: 거기서 실행할 수 없음 (코드에 GPU 경로가 없거나 학습할 것이 없음)
rep-needs = Colab/클라우드가 필요한 강의
rep-none = 없음
rep-yes = 예
rep-no = 아니요
rep-why = 비어 있는 이유
rep-why-above = 위와 같은 이유로 비어 있음
rep-per-param = 파라미터당 바이트, 이 컴퓨터에서 측정 (Candle, 실제 학습 스텝 1회)
rep-per-param-note = 강의의 경험칙은 파라미터당 2바이트(fp16 가중치만)입니다. 실제 학습에서는 기울기, 옵티마이저 상태, 활성값이 더 필요합니다.
rep-kernel-note = CPU f32는 { $kernel } 커널로 측정했습니다. 측정한 곳에서 Candle 자체 CPU 행렬곱은 numpy의 0.7-0.9배였고, 느린 CPU 기준값은 모든 GPU 속도 향상을 부풀립니다(비교: `gpulab bench --cpu-kernel candle`).
rep-table = 모든 강의 × 모든 실행 환경
rep-next = 다음에 할 일
rep-next-no-gpu = CPU 강의는 여기서 실행하세요. GPU 강의는 Colab에서 런타임 > 런타임 유형 변경 > T4 GPU를 고른 뒤 cuda 빌드로 `gpulab report`를 실행하고(노트북 `labs/colab/gpulab.ipynb`가 모든 단계를 해 줍니다), `gpulab compare`로 두 보고서를 비교하세요.
rep-summary-lessons = 강의: { $here }개는 이 컴퓨터에서 돌아가고, { $elsewhere }개는 다른 GPU가 필요합니다 (목록은 보고서에, 강의별로는 `gpulab fit`)
rep-summary-files = 쓴 파일 (보고서 전체는 .md 파일을 여세요):
report-kept = 측정 결과는 { $path }에 남겼습니다. 공간을 비우고 `gpulab report`를 다시 실행하세요
report-bad-numbers = { $name } 안에 측정으로는 나올 수 없는 시간, 속도 향상, 속도 값(음수, 0, 무한대, 터무니없는 값)이 있습니다: 손으로 고쳤나요? `gpulab report`로 다시 만드세요
lab06-sample-stands-in = Colab에서 만든 보고서가 생기기 전까지는 gpulab에 든 예시 보고서(1스레드 CPU)와 비교합니다: gpulab compare 이것.json COLAB.json
rep-next-gpu = 이 GPU는 준비되었습니다. GPU 강의는 여기서 실행하고, 들어가지 않는 강의는 추천된 클라우드 GPU를 쓰되 끝나면 인스턴스를 꼭 멈추세요.
rep-details = 자세한 내용
rep-footer = gpulab { $version } 버전으로 생성 · { $cpu } · { $host }
rep-smi-ok = GPU { $count }개, 드라이버 { $driver }, CUDA { $cuda }
rep-framework-no-cuda = candle { $version }: CUDA 없이 빌드됨 (Device::new_cuda는 설계상 실패)
rep-framework-cuda = candle { $version } · CUDA { $cuda } (cc { $cc }): 장치 { $count }개, { $readiness }
rep-torch-not-asked = 묻지 않음
cmp-best-gflops = CPU f32 GFLOP/s (최고)
cmp-changed = 판단이 바뀐 강의: { $count }개

## Where this runs (src/plan/session.rs)
hours = { $hours }시간
sess-cloud = { $what } (임대한 머신, 멈출 때까지 과금; { $evidence })
sess-cloud-price = {" "}· { $gpus } 시간당 { $price }
sess-up-cost = {" "}· 켜진 지 { $hours }, 지금까지 약 { $cost }
sess-up = {" "}· 켜진 지 { $hours }
sess-unpriced = data/gpus.toml에 가격이 없는 GPU: { $gpus }
sess-stop = 다 쓰면 꼭 멈추세요. 켜 두면 계속 과금됩니다: { $command }
sess-colab-runtime = { $gpu } 런타임
sess-colab-cpu-runtime = CPU 런타임
sess-tier-free = 무료 등급의 GPU (유료 요금제에도 있음)
sess-tier-paid = 유료 요금제 또는 컴퓨팅 단위 필요
sess-tier-none = GPU 없음
sess-colab = Google Colab, { $runtime } ({ $tier }); 세션은 최대 { $limit }시간이고, 쉬고 있으면 더 일찍 끝납니다{ $up }
sess-colab-no-gpu = 이 런타임에는 GPU가 없습니다: 런타임 > 런타임 유형 변경 > T4 GPU를 고른 뒤 셀을 다시 실행하세요
sess-colab-save = 보고서는 Google Drive에 저장하거나 내려받으세요. 세션이 끝나면 런타임의 디스크는 지워집니다
sess-notebook = { $provider } 노트북 ({ $evidence })
sess-wsl = Windows PC의 WSL ({ $evidence }); 클라우드나 Colab 아님
sess-laptop = 노트북 컴퓨터 ({ $evidence }); 클라우드나 Colab 아님
sess-own-machine = 개인 컴퓨터 ({ $evidence }); 클라우드나 Colab 아님
sess-vm = 클라우드를 밝히지 않는 가상 머신 ({ $evidence })
sess-nothing = 클라우드나 Colab이 감지되지 않음 ({ $evidence })
usd-free = 무료

## Evidence for the place (src/probe/platform.rs)
plat-env-set = { $name } 변수가 있음
plat-wsl-kernel = 커널 { $release } 버전은 WSL의 것
plat-container-no-dmi = DMI를 주지 않는 호스트 위의 { $kind } 컨테이너
plat-no-signs = DMI도 플랫폼 변수도 없음

## The command line (src/cli/dispatch.rs, src/main.rs)
error-prefix = 오류: { $message }
labs-next = 다음: gpulab lab next   ·   힌트: gpulab hint next
cpu-kernel-no-avx2 = --cpu-kernel gpulab에는 AVX2와 FMA가 있는 CPU가 필요한데 이 CPU에는 없습니다. --cpu-kernel candle(또는 auto)을 쓰세요
cpu-kernel-unknown = --cpu-kernel { $given } 값은 커널 이름이 아닙니다: auto, candle, gpulab, gpulab-avx2, gpulab-avx512 중 하나를 쓰세요
cpu-kernel-cannot = --cpu-kernel { $kernel }에는 이 CPU에 없는 명령어가 필요합니다. --cpu-kernel gpulab(이 CPU가 돌리는 가장 넓은 커널) 또는 auto를 쓰세요
seconds-positive = { $name } 값은 { $max } 이하의 양수(초)여야 합니다 (받은 값: { $value })
check-json-failed = 점검 결과를 JSON으로 쓰는 중
out-one-stdout = 표준 출력('-')으로는 출력 하나만 보낼 수 있습니다. 나머지는 파일로 쓰세요
out-same-file = { $path } 경로가 두 출력에 쓰였습니다. 출력마다 다른 파일을 주세요
out-exists = { $path } 경로가 이미 있습니다. 덮어쓰려면 --force를 주거나 다른 이름을 고르세요
out-exists-report = { $path } 경로가 이미 있습니다. 덮어쓰려면 --force를, 다른 이름은 --name을 쓰세요
threads-zero = --threads는 1 이상이어야 합니다
threads-too-many = --threads { $asked } 값은 이 컴퓨터의 논리 CPU { $cpus }개보다 많습니다: { $cpus } 이하로 쓰세요
min-runs-zero = --min-runs는 1 이상이어야 합니다
wrote = { $path }에 썼습니다
mode-unknown = --mode는 train 또는 inference여야 합니다 (받은 값: { $given })
zero-range = --zero는 0, 1, 2, 3 중 하나여야 합니다 (3 = FSDP 전체 샤딩)
counts-zero = --gpus, --batch, --seq-len은 1 이상이어야 합니다
lora-rank-range = --lora-rank는 1에서 너비({ $width }) 사이여야 합니다 (받은 값: { $rank })
lora-rank-zero = --lora-rank는 1 이상이어야 합니다
gpu-or-memory = --gpu와 --memory 중 하나만 주세요
zero-one-gpu = GPU 한 장에서 --zero { $stage } 값은 아무것도 바꾸지 않습니다: ZeRO는 여러 GPU에 나눠 담습니다 (--gpus N을 더하세요).
name-plain = --name은 폴더 없는 파일 이름이어야 합니다 (받은 값: { $given })
lab-outside-repo = 실습은 gpulab 저장소의 cargo 예제입니다: 저장소 안(Cargo.toml과 labs/가 있는 폴더)에서 `gpulab lab`을 실행하세요. 예: `cd gpulab && cargo run --release -- lab next`
lab-banner =
    == 실습 { $id }: { $title }
       { $other }
       소스: labs/{ $dir }/main.rs
lab-needs-gpu = 이 실습의 중심은 GPU인데 이 빌드는 GPU를 보지 못합니다: 지금은 CPU 부분만 실행합니다. GPU 부분은 Colab이나 클라우드 GPU에서 `--features cuda`로 하세요.
lab-first-build = 실습을 처음 실행하면 cargo가 컴파일합니다(1~2분). 다음부터는 바로 시작합니다.
lab-cargo-failed = cargo 실행 중 (실습은 cargo 예제입니다: Rust 툴체인이 있는 저장소에서 gpulab을 실행하세요)
stage-check = 점검
stage-bench = 벤치마크
stage-measure = 측정
stage-fit = 적합성 판단

## bench (src/bench/export.rs, src/bench/*.rs)
col-device = 장치
col-dtype = 자료형
col-size = 크기
col-median-ms = 중앙값 ms
col-range-ms = 최소…최대 ms
col-iqr = ±IQR
col-outliers = 이상값
col-gflops = GFLOP/s
col-peak-share = 최고치 대비
col-cold-ms = 첫 호출 ms
col-check = 검증
bench-ok = 정상
bench-ok-error = 정상 ({ $error })
bench-skipped = 건너뜀: { $reason }
bench-failed = 실패: { $reason }
col-speedup = CPU 대비 속도 향상
col-spread = 퍼짐 (IQR)
bench-md-speedup = CPU 대비 속도 향상
bench-md-bandwidth = 메모리 대역폭
bench-md-roofline = 루프라인(Roofline)
bench-no-host-copies = (호스트↔장치 복사는 pageable/pinned, 양방향 모두 CUDA 장치에서 잽니다: 여기서는 잰 장치가 없습니다)
col-transfer = 전송
col-best-gbs = 최고 GB/s
col-datasheet = 데이터시트
col-of-datasheet = 데이터시트 대비
col-note = 비고
bench-setup = CPU: { $cpu } ({ $simd }, 행렬곱 스레드 { $threads }개{ $peak }{ $kernel }); candle { $candle }. 시간은 무작위 입력으로 워밍업한 뒤 동기화한 호출들의 중앙값이고, '첫 호출'은 맨 처음 한 번만 잰 값입니다.
bench-setup-peak = , 최고치 { $gflops } GFLOP/s { $source }
bench-setup-kernel = , f32는 { $kernel } 커널 (src/bench/sgemm.rs; Candle 것은 --cpu-kernel candle)
bench-bandwidth-heading = 메모리 대역폭 (반복 호출의 중앙값; copy는 읽기+쓰기, triad는 배열 3개를 셉니다):
bench-outliers = 참고: 측정값 { $count }개가 이상값이었습니다(다른 프로세스, 클럭 변화). 중앙값은 이런 값에 흔들리지 않지만, 정밀한 숫자가 필요하면 조용한 컴퓨터에서 다시 재세요.
bench-naive-heading = 강의의 방식(첫 호출 한 번, 벽시계)과 제대로 잰 값을 나란히:
bench-naive-line = { $point }: 첫 호출 { $cold } ms, 중앙값 { $median } ms (첫 호출이 { $ratio }배 느림)
bench-naive-unsynced = ; synchronize 없이 재면 { $time } ms로, 실행 요청 시간만 잽니다
plot-speedup-series = { $device } { $dtype } (CPU 대비)
plot-throughput-title = 행렬곱 처리량 (중앙값)
plot-size-axis = 크기 n (m·k·n의 세제곱근)
plot-speedup-title = CPU 대비 속도 향상 (같은 크기와 자료형)
plot-size-axis-short = 크기 n
plot-speedup-axis = CPU보다 몇 배 빠른가
shape-invalid = 크기 { $given } 값은 N이나 MxKxN 꼴이 아닙니다 (예: 1024, 512x1024x256)
shape-zero = 크기 { $given }에 0인 차원이 있습니다
bench-cannot-open = { $device } 장치를 열 수 없습니다: { $error }
bench-datasheet-peak = 데이터시트: { $name } ({ $source })
point-no-bf16 = compute capability { $cc } 버전은 bf16을 지원하지 않습니다 (8.0 이상 필요)
point-no-room = { $needed } 크기가 필요한데 { $device }에는 { $free }만 비어 있습니다
point-oom = 메모리 부족: { $message }
point-no-isa = { $kernel } 커널에는 이 CPU에 없는 명령어가 필요합니다: --cpu-kernel candle을 쓰세요
point-timer-nan = 타이머가 유한하지 않은 시간을 돌려주었습니다
point-peak-below = 재지 않음: FMA 루프({ $gflops } GFLOP/s)가 이 행렬곱보다 느려서 최고치가 아닙니다
point-wrong = 결과가 틀렸습니다: 표본 오차 { $error }가 { $dtype } 허용 오차 { $tolerance }를 넘습니다
peak-source = 측정: { $kind } FMA 루프, 스레드 { $threads }개
roof-memory = 메모리
roof-compute = 연산
roof-heading = 루프라인: 각 점을 min(최고치, 연산 강도 × 측정 대역폭)과 비교
roof-ridge = { $device } { $dtype }: 최고치 { $peak } GFLOP/s ({ $source }), 메모리 { $bandwidth } GB/s → 꺾이는 점 { $ridge } FLOP/byte: n ≈ { $n }보다 작은 정사각 행렬곱은 메모리 한계
col-intensity = FLOP/byte
col-roof = 지붕
col-bound = 한계
col-of-roof = 지붕 대비
roof-series = { $label } 지붕 ({ $bandwidth } GB/s, { $peak } GFLOP/s)
roof-series-measured = { $label } 측정값
plot-roofline-title = 루프라인: 연산 강도에 따른 행렬곱 속도
plot-roofline-x = 옮긴 바이트당 FLOPs (로그)
plot-roofline-y = GFLOP/s (로그)
roof-explain = 루프라인: 이 CPU의 메모리는 { $bandwidth } GB/s, 최고치는 { $peak } GFLOP/s입니다. n={ $n } f32 행렬곱은 옮겨야 하는 바이트마다 { $intensity } FLOPs를 계산하므로 메모리만 보면 { $memory } GFLOP/s까지 가능합니다: 여기서 지붕은 { $roof } GFLOP/s({ $bound })이고, 그중 { $share }%에 도달했습니다. n ≈ { $ridge_n }보다 작으면 연산이 아니라 메모리가 속도를 정합니다.
roof-explain-memory = 메모리 한계
roof-explain-compute = 연산 한계: 연산 장치가 속도를 정함
transfer-copy = copy (복사)
transfer-triad = triad (a = b + s·c, 배열 세 개)
transfer-h2d-pageable = 호스트→장치 pageable
transfer-h2d-pinned = 호스트→장치 pinned
transfer-d2h-pageable = 장치→호스트 pageable
transfer-d2h-pinned = 장치→호스트 pinned

## Durations (src/plan/fit.rs)
dur-seconds = { $n }초
dur-minutes = { $n }분
dur-hours = { $n }시간

## measure (src/cli/measure.rs, src/memory/*.rs)
sweep-too-short = { $name }에는 맞춤(fit)을 위해 양수 값이 3개 이상 필요합니다 (또는 --no-sweep)
opening-device = { $device } 여는 중
measure-fitting = 보정용 모양들로 메모리 모델을 맞추는 중
not-calibrated = 보정하지 못함: { $what }
lean-heading = 같은 스텝을 보통 방식(candle-nn 옵티마이저, 업데이트 동안 loss 유지)과 가벼운 방식(그래프와 파라미터가 아닌 텐서의 기울기를 먼저 버리고 gpulab 옵티마이저 사용)으로:
not-measured = 재지 않음: { $what }
torch-families = PyTorch 스텝은 gpt와 llama 모델만 만듭니다: --arch gpt,llama를 주세요
recipe-needs-pytorch = 체크포인팅, LoRA, autocast, 양자화된 기반은 PyTorch 스텝에서 측정합니다: --pytorch를 더하세요 (Candle 스텝은 모든 파라미터를 학습하고 모든 활성값을 보관합니다)
append-not-torch = { $path } 경로는 PyTorch 보정 파일이 아닙니다: --append는 `gpulab measure --pytorch --save`로 쓴 파일에 PyTorch 모델을 더합니다
impl-unknown = --impl { $given } 값은 구현 이름이 아닙니다: transformers(Hugging Face 모델) 또는 gpulab(gpulab 자체 모듈)을 쓰세요
attn-unknown = --attn { $given } 값은 어텐션 구현이 아닙니다: sdpa 또는 eager를 쓰세요
update-unknown = --update { $given } 값은 옵티마이저 업데이트 방식이 아닙니다: auto, foreach, for-loop 중 하나를 쓰세요
autocast-unknown = --autocast { $given } 값은 16비트 자료형이 아닙니다: bf16 또는 f16을 쓰세요
quant-unknown = --quant { $given }는 gpulab이 측정하는 양자화가 아닙니다: nf4를 쓰세요 (QLoRA의 4비트 기반, --lora-rank나 --lora-targets와 함께)
quant-needs-lora = --quant는 기반을 4비트로 얼려 어댑터만 학습할 수 있습니다: --lora-rank R이나 --lora-targets qv|all-linear를 더하세요
torch-variant = PyTorch 스텝: { $variant }
variant-attention = { $name } 어텐션
variant-foreach = foreach { $optimizer } (CUDA 기본값)
variant-for-loop = for-loop { $optimizer } (CPU 기본값)
variant-checkpointing = 활성값 체크포인팅
variant-lora = { $targets }에 LoRA (peft)
variant-autocast = { $dtype } autocast(혼합 정밀도)
variant-quant = 4비트 { $quant } 기반 (bitsandbytes)
old-spelling = 안내: { $old }는 이제 { $new }입니다 (`measure`와 `estimate`에서 같은 옵션); { $old }도 아직 받아들입니다
torch-same-step = PyTorch { $version } ({ $python }): 같은 스텝을 { $device }에서
fitted = 맞춤 완료: { $what }
wrote-torch-models = { $path }에 썼습니다 (PyTorch 모델 { $count }개)
col-shape = 모양
col-optimizer = 옵티마이저
col-forward = 순전파
col-backward-peak = 역전파 최고치
col-step-peak = 스텝 최고치
col-peak = 최고치
col-model-predicts = 모델 예측
col-error = 오차
torch-step-heading = PyTorch의 스텝 (살아 있는 바이트, PyTorch 자체 카운터 기준):
measure-validate-bar = { $family } 보정용 모양과 검증용 모양
col-weights = 가중치
col-grads = 기울기
col-opt-state = 옵티마이저 상태
col-measured-total = 측정 합계
col-two-byte = 2바이트 규칙
col-textbook = 교과서
col-vs-textbook = 교과서 대비
col-peak-per-param = 최고치/파라미터
measure-not-run = 실행 안 됨
col-phase = 단계
col-live-after = 단계 후 살아 있음
col-temporaries = 임시 텐서
col-at-peak = 최고치 시점
col-bytes = 바이트
col-share = 비율
ledger-unexplained = 설명 안 됨 (텐서 밖 오버헤드)
ledger-measured-peak = 측정 최고치
measure-title = gpulab measure, { $device } ({ $name }), candle { $candle }: 설정마다 실제 학습 스텝 1회.
measure-headline =
    == { $model } · 파라미터 { $params }개 · { $dtype } { $optimizer } · 최고치 { $peak } ({ $phase } 단계)
       메모리 측정 방법: { $method }
measure-workspace = (첫 워밍업 스텝이 라이브러리 작업 공간 { $size }를 남겼습니다. 아래에서는 세지 않습니다)
measure-per-param-heading = == 파라미터당 바이트 측정값 ({ $family }), 강의의 2바이트 규칙 및 교과서와 비교
measure-textbook-note =
    교과서 = f32에서 4+4+상태마다 4, 혼합 정밀도에서 2+2+4(fp32 마스터)+상태마다 4. Candle은
    옵티마이저 상태를 파라미터의 자료형으로 두고 마스터 복사본이 없어서 bf16 AdamW가 16이 아니라 8 근처입니다.
    최고치/파라미터에는 활성값이 들어 있어서 배치와 시퀀스 길이에 따라 달라집니다.
measure-scaling = == 크기에 따른 변화 (f32, AdamW)
measure-fit-batch = { $family } 활성값 = { $a } + { $b } B × 배치   (R² = { $r2 }, 점 { $points }개; 최고치의 기울기: 샘플 하나당 { $slope } B)
measure-fit-seq = { $family } 활성값 = { $a } + { $b } B × s + { $c } B × s²   (R² = { $r2 }, seq_len에 걸친 점 { $points }개)
measure-not-measured = 재지 않은 것:
plot-activations-series = { $family } 활성값 (MiB)
plot-step-peak-series = { $family } 스텝 최고치 (MiB)
plot-measured-memory-title = { $variable }에 따른 측정 메모리 (f32, AdamW)
var-batch = 배치
var-seq-len = 시퀀스 길이
col-step = 스텝
col-ordinary-peak = 보통 최고치
col-in = 단계
col-lean-peak = 가벼운 최고치
col-saved = 절약
phase-weights = 가중치
phase-optimizer-state = 옵티마이저 상태
phase-batch = 배치
phase-forward = 순전파
phase-backward = 역전파
phase-optimizer-step = 옵티마이저 스텝
phase-after-step = 스텝 후
meter-cpu = 세는 할당자 (프로세스의 모든 힙 바이트)
meter-cuda = CUDA 스트림 순서 풀: USED_MEM_CURRENT / USED_MEM_HIGH
loss-broken = loss가 { $loss }입니다: 이 설정에서 { $dtype } 학습은 수치적으로 망가졌습니다
lean-step-name = { $model } (가벼운 스텝)
preflight-no-bf16 = { $device }의 compute capability { $cc } 버전은 bf16을 지원하지 않습니다: --dtype f32나 f16을 쓰세요
preflight-too-big = { $dtype }, { $optimizer }의 { $model }에는 대략 { $estimate }가 필요한데 { $device }에는 { $free }만 비어 있습니다: 배치나 모델 크기를 줄이세요
ledger-weights = 가중치
ledger-optimizer-state = 옵티마이저 상태
ledger-batch = 배치
ledger-activations = 활성값 (그래프가 보관)
ledger-param-grads = 파라미터의 기울기
ledger-other-grads = 파라미터가 아닌 텐서의 기울기
ledger-graph = 기울기가 붙잡고 있는 역전파 그래프
ledger-temporaries = 임시 텐서 ({ $phase })
validate-section =
    == { $framework }의 { $family } ({ $recipe }, { $device }): 모양 { $fitted }개로 맞추고 다른 { $judged }개로 평가

    맞춘 모델 (각 항의 단위당 바이트):
    { $model }
    { $table }오차 중앙값 |error|: gpulab { $median }% (최악 { $worst }%), 2바이트 규칙 { $rule }%, 교과서 { $textbook }%
validate-goal = 목표 (중앙값 ≤ { $median } %, 최악 ≤ { $worst } %): { $verdict }
goal-met = 달성
goal-not-met = 미달
col-held-out = 검증용 모양
col-measured = 측정값
model-forward-ends = 순전파 끝에  { $form }
model-backward-adds = 역전파 추가 { $open }  { $form }
model-backward-states = 역전파 보유 { $open }모델 상태 + { $form }
model-backward-block = 역전파 보유 { $open }블록의 알려진 바이트(그래디언트, 보관된 입력) + { $form }
model-step = 옵티마이저 스텝     { $form }

## estimate (src/plan/estimate.rs, src/plan/estimate/render.rs)
est-fits = 들어감, { $spare } 남음
est-short = 안 들어감, { $short } 부족
est-against = { $label } 기준:
est-rule-verdict = 2바이트 규칙: { $verdict }
est-textbook-verdict = 교과서 ({ $recipe }): { $verdict }
est-measured-verdict = { $framework } 측정 모델 ({ $recipe }): { $verdict }
est-measured-none = { $framework } 측정 모델: 재지 않음 ({ $why })
est-no-calibration = 보정 파일 없음
est-batch-none = 교과서 기준으로는 배치 1도 들어가지 않습니다: --seq-len을 줄이거나, --checkpointing을 더하거나, --lora-rank를 쓰세요
est-batch-best = 교과서 기준으로 들어가는 가장 큰 2의 거듭제곱 배치: { $batch }
est-largest-model = 들어가는 가장 큰 모델: 2바이트 규칙으로 { $rule }B, 이 설정의 교과서 공식으로 { $textbook }B
est-col-textbook = 교과서
est-col-measured = { $framework } 측정
est-col-recipe = { $column } 열: { $recipe }
est-which-to-trust = 어느 열을 믿을까: Hugging Face/PyTorch로 학습한다면 PyTorch 열(실제 스텝을 재서 그 구조에 맞춘 값), Candle로 학습한다면 Candle 열(어텐션 행렬 전체를 들고 있어 시퀀스가 길면 훨씬 큼)을 보세요. 교과서 열은 공식으로 본 값이고, 2바이트 규칙은 가중치만 세므로 학습에서는 하한일 뿐 답이 아닙니다.
est-budget-units = { $given } = { $gb } GB = { $gib } GiB (GB는 10⁹바이트, GiB는 2³⁰바이트: 24 GB로 팔리는 카드는 nvidia-smi에서 약 22.4 GiB로 보입니다).
est-budget-rule = 수업의 규칙(fp16 = 파라미터당 2바이트, 가중치만): 파라미터 { $params }B개. 추론용으로 모델을 올리는 크기이지, 학습할 수 있는 크기는 아닙니다.
est-budget-textbook = 학습, 교과서 공식({ $recipe }: 가중치, 기울기, 옵티마이저 상태; 활성값 제외): 파라미터 { $params }B개.
est-budget-measured = 학습, 측정 모델(배치 1, 시퀀스 { $seq }의 PyTorch 스텝): 들어가는 가장 큰 프리셋은 { $name }, 최고치 { $peak }.
est-budget-measured-none = 학습, 측정 모델(배치 1, 시퀀스 { $seq }의 PyTorch 스텝): 들어가는 프리셋이 없습니다. 모델을 정하고 LoRA(--lora-rank 16)나 --checkpointing을 쓰면 덜 듭니다.
est-budget-next = 모델 하나를 보려면: gpulab estimate llama-3.2-1b --memory { $given }
est-row-weights = 가중치
est-row-gradients = 기울기
est-row-optimizer = 옵티마이저 상태
est-row-activations = 활성값 (+ 최고치 시점의 임시 텐서)
est-row-kv = KV 캐시
est-row-context = CUDA 컨텍스트 (보통)
est-row-total = 최고치 시점 합계
est-row-phase = 최고치가 나오는 단계
est-sum-of-terms = (항들의 합)
est-head = 파라미터 { $params }개 (학습 대상 { $trainable }개) · { $mode } · { $recipe }{ $lora }{ $checkpointing }{ $gpus }
mode-training = 학습
mode-inference = 추론
est-checkpointing = {" "}· 체크포인팅
est-gpus = {" "}· GPU { $gpus }장, ZeRO-{ $stage }
est-needs-shape = 활성값을 계산하려면 모델 모양이 필요합니다: 프리셋(gpt2, llama-3-8b, …)을 쓰거나 --layers, --d-model, --heads, --seq-len을 더하세요.
est-not-measured-why = { $framework } 측정 모델: 재지 않음: { $why }.
est-measured-from = { $framework } 측정 모델의 출처: { $source }
nm-no-variant = { $source }에는 { $family } { $dtype }, 이 스텝({ $variant })의 PyTorch 모델이 없습니다: 같은 옵션으로 `gpulab measure --pytorch --save FILE`을 실행해 측정하세요
est-measured-from-assuming = { $framework } 측정값의 출처: { $source }. 스텝: { $assumes }.
assumes-nf4 = QLoRA의 4비트 기반은 공식으로: bf16 기반에서 LoRA 스텝을 측정한 뒤, 블록의 선형층 가중치를 bitsandbytes가 NF4를 저장하는 대로 셈 (개당 0.516바이트에 층마다 1,092바이트; 검증용 모양에서 실제 4비트 스텝과 대조함: .ci/qlora-check)
assumes-state = 옵티마이저 상태를 AdamW의 fp32 모멘트 대신 학습 파라미터당 { $bytes } B로 셈 (잰 값 아님)
assumes-cuda-fused = CUDA에서: SDPA의 융합 커널(flash 또는 memory-efficient)은 s×s 점수를 남기지 않고 행마다 log-sum-exp만 남깁니다 (커널 구조에서 유도, GPU에서 잰 값 아님)
assumes-cuda-fp16 = 이 GPU에는 bf16이 없어 16비트 스텝을 fp16으로 셈 (바이트는 같음)
est-no-bf16 = { $gpu }(compute capability { $cap })에는 bf16 연산 장치가 없습니다: PyTorch가 느리게 흉내 내며, bf16 융합 어텐션도 없습니다. 이 GPU에서는 fp16 autocast(AMP)로 학습하세요; `--dtype mixed`가 같은 바이트를 셉니다.
nm-inference = 측정한 스텝은 학습 스텝입니다
nm-shape = 측정 모델에는 모양이 필요합니다: 프리셋(gpt2, llama-3-8b, …)을 쓰거나 --layers, --d-model, --heads를 주세요
nm-lora = LoRA 어댑터는 아직 재지 않았습니다: 측정한 스텝은 모든 파라미터를 학습합니다
nm-checkpointing = 체크포인팅은 재지 않았습니다: gpulab의 Candle 스텝은 모든 활성값을 보관합니다
nm-multi-gpu = 여러 GPU와 ZeRO는 재지 않았습니다: 모델은 장치 하나의 스텝입니다
nm-precision = { $name } ({ $recipe }) 방식은 { $framework }에서 재지 않았습니다
nm-no-optimizer = 옵티마이저 없는 학습은 재지 않았습니다
nm-no-model = { $source }에는 { $family } { $dtype } { $optimizer } 모델이 없습니다 ({ $framework })
params-invalid = { $given } 값은 파라미터 수가 아닙니다: 예를 들어 7B, 124M, 1.5k, 11_181_642처럼 쓰세요
params-zero = { $given }: 모델에는 파라미터가 하나 이상 있어야 합니다
params-too-many = { $given } 값은 어떤 모델보다도 많은 파라미터 수입니다
memory-no-unit = { $given }에 단위가 없습니다: { $n }GiB(nvidia-smi와 CUDA처럼 이진) 또는 { $n }GB(GPU 판매 표기처럼 십진)로 쓰세요
memory-invalid = { $given } 값은 메모리 크기가 아닙니다 ({ $error }): 예를 들어 16GiB나 24GB처럼 쓰세요
memory-zero = { $given } 값은 메모리가 전혀 없습니다
model-unknown = { $given } 값은 모델 프리셋도, 트랜스포머 강의도, 파라미터 수도 아닙니다: { $presets } 중 하나(혹시 { $guess }?), `gpulab fit`의 강의 id, 또는 7B 같은 수를 쓰세요
shape-incomplete = --layers, --d-model, --heads를 모두 주세요 (또는 gpt2 같은 프리셋)
arch-not-transformer = --arch { $arch } 값은 트랜스포머가 아닙니다: gpt나 llama를 쓰세요
count-shape-disagree = 수 { $count }와 모양({ $shape }: 파라미터 { $own }개)이 { $tolerance } % 넘게 다릅니다: 둘 중 하나만 주세요
model-missing = 모델을 정하세요: 프리셋(gpt2, llama-3-8b, …), 파라미터 수(7B), 또는 모양(--layers --d-model --heads)
recipe-f64 = 모두 f64
recipe-f32 = 모두 f32
recipe-f16 = 처음부터 끝까지 fp16
recipe-bf16 = 처음부터 끝까지 bf16, fp32 마스터 복사본 없음
recipe-mixed = 혼합: 16비트 + fp32 마스터 복사본과 상태
recipe-nf4 = QLoRA: NF4 기반 모델, 혼합 정밀도 어댑터
precision-unknown = 알 수 없는 정밀도 { $given }: f32, bf16(처음부터 끝까지), mixed(16비트 + fp32 마스터 복사본과 상태), f16, f64, nf4 중 하나를 쓰세요
optimizer-unknown = 알 수 없는 옵티마이저 { $given }: sgd, momentum, adamw, adamw-fused, paged-adamw, adamw-8bit, paged-adamw-8bit, adafactor 중 하나를 쓰세요
model-family-unknown = 알 수 없는 모델 { $given }: mlp, gpt, llama, cnn 중 하나를 쓰세요
mv-batch = 배치는 1 이상이어야 합니다
mv-mlp = MLP 너비와 클래스 수는 1 이상이어야 합니다
mv-transformer = 트랜스포머에는 vocab ≥ 2, d_model·layers·seq_len ≥ 1이 필요합니다
mv-heads = d_model({ $d })은 heads({ $heads })의 배수여야 합니다
mv-kv-heads = kv-heads({ $kv })는 heads({ $heads })를 나누어떨어지게 해야 합니다: key/value 헤드 하나가 query 헤드 한 묶음 전체를 맡습니다
mv-gpt-gqa = GPT-2식 어텐션은 key/value 헤드 수가 query 헤드 수와 같습니다. grouped-query attention은 --arch llama입니다
mv-positions = 학습된 위치 표에는 { $rows }행만 있어서 토큰 { $tokens }개짜리 시퀀스는 들어가지 않습니다: 시퀀스를 줄이세요
mv-ffn = FFN 너비는 1 이상이어야 합니다
mv-llama-tied = gpulab의 Llama식 모델은 헤드가 묶여 있지 않습니다: 묶인 Llama(Llama-3.2)는 추정하거나 PyTorch(--pytorch)로 재세요. Candle로는 잴 수 없습니다
mv-too-large = { $given }: gpulab이 다루는 크기보다 큽니다 (배치, 폭, 헤드 수, 층 수, 시퀀스, 어휘 각각 최대 { $limit })
mv-too-many-params = 이 모양은 파라미터가 약 { $given }개로, 어떤 모델보다도 많습니다 (한도는 파라미터 수와 같은 { $limit })
mv-llama-extras = gpulab의 Llama식 모델은 기본 Llama 블록만 만듭니다: 편향, 별도 헤드 폭, 추가 정규화가 있는 모델(Qwen, Gemma)은 추정만 하고 Candle로 재지는 않습니다
hf-config-json = { $file } 파일은 모델 설정(JSON)이 아닙니다: { $error }
hf-config-field = { $file }: { $field } 값이 { $given }입니다. 양의 정수(또는 true/false)여야 합니다
hf-config-missing = { $file }에 { $field }가 없습니다: Hugging Face Hub에 있는 그 모델의 config.json을 주세요
hf-config-type = { $file }: model_type { $given } 값은 모델링하지 않습니다. 읽을 수 있는 것: { $supported } (다른 디코더는 --arch와 모양 옵션으로)
hf-config-moe = { $file }: { $field }를 보면 전문가 혼합(MoE) 모델인데, gpulab의 메모리 모델은 이를 다루지 않습니다
read-failed = { $path } 파일을 읽을 수 없습니다
mv-rotary = rotary 위치에는 짝수인 헤드 너비가 필요합니다. d_model / heads = { $width }
mv-image = 이미지 크기는 4의 배수여야 합니다 (2×2 풀링 두 번). 받은 값: { $size }
mv-cnn = CNN 채널과 클래스 수는 1 이상이어야 합니다
torch-available = PyTorch { $version } ({ $python })
torch-need-python = { $python }에 python이 없습니다: PyTorch가 있는 Python 3를 설치하거나 --python PATH를 주세요
torch-need-torch = { $python } 실행 파일이 torch를 import하지 못합니다 ({ $reason }): 그 환경에서 `pip install torch`를 하거나 --python PATH를 주세요
torch-import-slow = `import torch`가 30초 안에 끝나지 않았습니다
no-message = 메시지 없음
run-lora = LoRA 학습 (기반 모델은 고정)
run-train = 학습
run-forward-backward = 순전파와 역전파 한 번
run-forward = 순전파
run-inference = 추론
run-none = 학습 없음
lesson-unknown = 강의 { $given } 값을 찾지 못했습니다. 혹시 이것인가요: { $guesses }?
lesson-ambiguous = 강의 { $given }에 맞는 것이 여러 개입니다. 어느 것인가요: { $guesses }?
mg-summary = { $gpu } { $count }장, ZeRO-3 / FSDP 전체 샤딩{ $offload }: GPU마다 { $memory }, 마이크로 배치 { $micro } × 누적 { $accumulation }스텝, 약 { $hours }시간, { $cost }
mg-offload = {" "}+ 옵티마이저 상태는 CPU 메모리로 오프로드
rates-measured = { $cpu }에서 측정: f32 행렬곱 n = { $sizes }에서 { $points } GFLOP/s, { $memory }{ $elementwise }
rates-memory = 메모리 { $gbs } GB/s
rates-memory-assumed = 메모리는 재지 않음 (10 GB/s로 가정)
rates-elementwise = , 원소별 연산 { $gbs } GB/s
rates-elementwise-assumed = , 원소별 연산은 재지 않음 (대역폭의 절반: { $gbs } GB/s)
rates-cached = { $source } ({ $path }에 캐시됨)
rates-bad-values = 속도 값이 유한한 양수가 아니거나 크기 순서가 맞지 않습니다
rates-collapse = 행렬곱 속도가 n = { $small }에서 { $fast } GFLOP/s, n = { $large }에서 { $slow } GFLOP/s로 떨어지는데, 이런 CPU는 없습니다: 다른 작업이 코어를 쓰고 있었습니다
rates-cache-invalid = 캐시된 속도를 쓸 수 없어({ $why }) 다시 쟀습니다
rates-cache-busy = 캐시된 속도는 바쁜 컴퓨터에서 잰 것이고 지금은 한가하므로 다시 쟀습니다
rates-busy = 컴퓨터가 바쁠 때 잼(부하 { $load }): 크기마다 세 번 중 가장 좋은 값, 시간이 길게 나올 수 있음
rates-not-cached = 캐시하지 않음({ $why }). 다른 프로그램을 닫고 `gpulab fit --remeasure`를 실행하세요
gpu-unknown = 알 수 없는 GPU { $given }. 혹시 { $guess }? (전체: { $all })

## Labs (src/labs.rs, labs/*/main.rs)
labs-all-done = 모든 실습을 마쳤습니다. 다시 하려면 `gpulab lab <id>`
labs-answers-later = 먼저 질문을 풀어 보세요. 답은: gpulab hint { $id } --answers
labs-finished = 실습 여섯 개를 모두 마쳤습니다: 이 컴퓨터를 확인하고, 재고, 보고서를 썼습니다. 다음은 Colab에서 과정의 GPU 강의(labs/colab/gpulab.ipynb), 강의마다 `gpulab fit`, 다시 하려면 `gpulab lab <id>`.
labs-unknown = 실습 { $given } 값이 없습니다: 01-{ $last } 번호, 이름({ $slugs }), 또는 next를 쓰세요
labs-progress = 진행
labs-gpu-optional = {" "} (GPU 부분은 CPU에서는 건너뛰어도 됨)
lab01-driver-failed = 드라이버:   { $why }
lab01-driver = 드라이버:   GPU { $count }개, CUDA { $cuda }까지
lab01-framework = 프레임워크: candle { $version }, cuda로 빌드: { $cuda }
lab01-new-cuda = {"            "}Device::new_cuda(0) 결과: { $error }
lab01-verdict =
    판정:       { $headline }
    다음:       { $fix }
lab-saved = { $path }에 저장했습니다
yes-no-yes = 예
yes-no-no = 아니요
lab02-no-gpu = 여기에는 쓸 수 있는 GPU가 없습니다: GPU 부분은 GPU가 있는 컴퓨터에서 cuda 빌드로 하세요 (Colab: 런타임 > 런타임 유형 변경 > T4 GPU, 그다음 `cargo run --release --features cuda --example lab02-matmul-bench`).
lab02-line = { $dev }: 첫 호출 { $cold } ms, 20번의 중앙값 { $median } ms ({ $gflops } GFLOP/s)
lab02-speedup = 속도 향상 (중앙값 기준): { $ratio }배
lab03-no-gpu = 로컬 GPU가 없습니다: 과정에 나오는 GPU로 계산합니다.
lab03-line = { $gpu } { $memory }  2바이트 규칙: 파라미터 { $rule }B   학습 (혼합 정밀도 Adam): { $train }B
lab03-seven-b = 7B 모델: 규칙으로는 { $rule }, Adam으로 학습하려면 { $train } (활성값 전).
lab04-headline = { $model } · 파라미터 { $params }개 · 최고치 { $peak } ({ $phase } 단계)
lab04-per-param = 파라미터당 바이트: 가중치 { $weights }, 기울기 { $gradients }, AdamW 상태 { $state } (강의의 규칙: 2)
lab05-first-not-t4 = 무료 T4에 들어가지 않는 첫 작업: { $id } ({ $needs } 필요)

## Files and errors (src/files.rs, src/error.rs, src/plot.rs, ...)
schema-wrong = { $name }: 스키마가 { $found }인데 { $expected }여야 합니다
schema-version-wrong = { $name }: { $schema } 버전 { $found } 버전은 { $expected }가 아닙니다. { $redo }
file-exists = { $path } 경로가 이미 있습니다. 덮어쓰려면 --force를 주거나 다른 이름을 고르세요
dir-for-file = { $path } 경로를 위한
dir-for-output = 출력을 위한
dir-is-file = { $path } 경로는 폴더가 아니라 파일입니다: { $what } 다른 경로를 고르세요
io-not-found = {" "}(경로를 확인하거나, 먼저 파일을 만드세요)
io-permission = {" "}(쓸 수 있는 폴더를 고르거나(예: --out), 권한을 고치세요)
io-not-a-directory = {" "}(경로의 일부가 폴더가 아니라 파일입니다: 다른 경로를 고르세요)
io-is-a-directory = {" "}(폴더입니다: 그 안의 파일 이름을 주세요)
io-storage-full = {" "}(디스크 공간을 비우거나 다른 디스크를 고르세요)
dtype-unknown = 알 수 없는 자료형 { $given }: f32, f16, bf16 중 하나를 쓰세요
cal-shipped = { $file }, { $device }에서 { $framework } { $version }로 측정 (내 컴퓨터에서 `{ $command }`를 실행하고 --calibration FILE로 넘기세요)
cal-given = { $file }, { $device }({ $spec })에서 { $framework } { $version }로 측정
cal-not-a-file = { $name }: gpulab 보정 파일이 아닙니다: { $error }
cal-redo = `gpulab measure --save { $name }`를 다시 실행하세요
cal-impossible = { $name }: 항목 { $entry }: { $field } = { $value } 값은 불가능한 값입니다
report-not-a-file = { $name }: gpulab 보고서가 아닙니다 (`gpulab report`로 만드세요): { $error }
report-redo = `gpulab report`로 새로 만드세요
plot-failed = 그래프를 그리지 못했습니다: { $error }
plot-no-data = { $title }: 데이터 없음
plot-measured-states = { $dtype } 측정값 (가중치 + 기울기 + 상태)
plot-textbook-series = { $dtype } 교과서
plot-two-byte-series = 강의의 2바이트 규칙 (fp16 가중치만)
plot-per-param-title = 학습 스텝 한 번의 파라미터당 바이트 (GPT): 측정값, 교과서, 2바이트 규칙
plot-states-axis = 파라미터당 옵티마이저 상태 수 (0 SGD, 1 momentum, 2 AdamW)
plot-bytes-axis = 바이트 / 파라미터
cpu-unknown = 알 수 없는 CPU
cuda-no-pool = 이 GPU에는 스트림 순서 메모리 풀이 없어서 최고치를 정확히 읽을 수 없습니다. 대신 CPU에서 재세요
progress-template = {"{"}spinner{"}"} [{"{"}elapsed_precise{"}"}] {"{"}bar:30{"}"} {"{"}percent{"}"}% 완료 {"{"}msg{"}"}
fw-not-compiled = 이 candle은 cuda 지원 없이 빌드되었습니다

## --help (src/cli/args.rs; applied by src/cli/help.rs)
about-gpulab = 내 컴퓨터로 무엇을 학습할 수 있고, 왜 그런가? Candle로 만든 실습 도구: GPU 점검, 행렬곱 벤치마크, 학습 메모리 측정, 적합성 판단과 보고서.
help-default = [기본값: { $value }]
help-heading-usage = 사용법
help-heading-commands = 명령
help-heading-options = 옵션
help-heading-arguments = 인자
help-help = 도움말 보기
help-version = 버전 보기
help-subcommand-help = 이 도움말이나 주어진 명령의 도움말 보기
help-gpulab-quiet = 진행 막대를 숨깁니다.
help-gpulab-lang = 출력하고 쓰는 모든 것의 언어: ko 또는 en (기본값: 로캘에서).
help-lab-which = 어느 실습인지: 1-6, 이름(slug), 또는 next.
help-lab-fast = 빠른 버전 (작은 크기), CI가 돌리는 것과 같음.
help-hint-which = 어느 실습인지: 1-6, 이름(slug), 또는 next.
help-hint-answers = 실습 질문의 답도 보여 줍니다.
help-report-out = 보고서 파일을 둘 폴더.
help-report-name = 기본 파일 이름 (기본값: gpulab-report-<날짜>-<호스트>).
help-report-force = 같은 이름의 보고서가 있으면 덮어씁니다.
help-report-smi_timeout = nvidia-smi를 기다릴 초.
help-report-python = PyTorch를 물어볼 python (기본값: PATH의 python3).
help-report-no_torch = PyTorch에게 묻지 않습니다.
help-compare-a = 첫 번째 보고서 (`gpulab report`가 쓴 JSON).
help-compare-b = 두 번째 보고서.
help-fit-lesson = 강의 하나를 자세히 (id 또는 그 일부, 예: 05-transfer-learning).
help-fit-json = JSON으로 출력합니다.
help-fit-no_recipes = 문서에만 있는 레시피는 빼고 판단합니다 (기본값은 포함).
help-fit-gpu = data/gpus.toml의 이 GPU에서도 판단합니다 (여러 번 가능: --gpu RTX-3090 --gpu RTX-4090). 이 컴퓨터의 GPU는 항상 대상입니다.
help-fit-remeasure = data/runs/cpu-rates.json을 읽지 않고 이 CPU의 속도를 다시 잽니다.
help-fit-configs = --lesson과 함께: 그 강의의 여러 GPU 계획으로 ds_config.json과 accelerate_fsdp.json을 여기에 씁니다.
help-fit-force = 있는 설정 파일을 덮어씁니다.
help-estimate-params = 모델 프리셋(gpt2 … gpt2-xl, llama-2-7b, llama-2-13b, llama-3-8b, llama-3.2-1b/3b, qwen2.5-0.5b … 7b, mistral-7b, gemma-2-2b, phi-3-mini, smollm2-135m/360m/1.7b) 또는 파라미터 수(7B, 124M, 11_181_642). --config나 모양 옵션으로 주면 생략 가능.
help-estimate-config = 모델의 Hugging Face config.json(llama, mistral, qwen2, qwen3, gemma, gemma2, phi3, gpt2): 모양, 편향, 헤드 폭, 정규화, 묶인 헤드를 읽습니다.
help-estimate-mode = train(학습) 또는 inference(추론).
help-estimate-dtype = 정밀도 방식: f32; bf16 (처음부터 끝까지, Candle의 학습처럼 fp32 마스터 복사본 없음); mixed (16비트 + fp32 마스터 복사본과 옵티마이저 상태, PyTorch AMP처럼); f16; nf4 (QLoRA 기반 모델).
help-estimate-optimizer = sgd, momentum, adamw, adamw-fused, paged-adamw, adamw-8bit, paged-adamw-8bit, adafactor 중 하나.
help-estimate-arch = 모양 옵션의 구조: gpt (GPT-2식) 또는 llama (Llama식).
help-estimate-layers = 트랜스포머 층(블록) 수.
help-estimate-d_model = 트랜스포머 너비 d (은닉 크기).
help-estimate-hidden = --d-model의 옛 이름 (받아들이고 안내를 보여 줌).
help-estimate-heads = 어텐션 헤드 수.
help-estimate-kv_heads = key/value 헤드 수 (grouped-query attention, llama; --heads를 나누어떨어지게 해야 함).
help-estimate-ffn = FFN 너비 (기본값: gpt는 4·d, llama는 8·d/3).
help-estimate-untied = GPT: 묶지 않은 출력 헤드 (어휘 × d 파라미터가 늘어남; GPT-2는 토큰 임베딩과 묶음).
help-estimate-tied = GPT: GPT-2처럼 출력 헤드를 토큰 임베딩과 묶습니다 (기본값).
help-estimate-seq_len = 시퀀스 길이 (기본값: 프리셋의 문맥 길이, 없으면 2048).
help-estimate-vocab = 어휘 크기 (모양 옵션의 기본값 50257).
help-estimate-batch = GPU당 배치 크기.
help-estimate-lora_rank = LoRA 랭크 (모든 층의 q와 v에 어댑터).
help-estimate-dropout = LoRA 드롭아웃 확률, peft의 lora_dropout과 같음 (기본 0): 0보다 크면 적응된 입력마다 마스크와 드롭된 사본이 남습니다.
help-estimate-checkpointing = 활성값 전체 체크포인팅.
help-estimate-gpus = 데이터 병렬 GPU 수.
help-estimate-zero = ZeRO 단계 0-3 (3 = FSDP 전체 샤딩).
help-estimate-gpu = data/gpus.toml의 GPU 기준으로 확인 (T4, A100-80GB, ...).
help-estimate-memory = 메모리 예산 기준으로 확인 (16GiB, 24GB).
help-estimate-calibration = `gpulab measure --save`로 만든 보정 파일 (기본값: 함께 배포된 Candle과 PyTorch의 CPU 측정값). 여러 번 주면 열이 늘어납니다.
help-estimate-json = JSON으로 출력합니다.
help-measure-model = --arch의 옛 이름 (받아들이고 안내를 보여 줌).
help-measure-arch = 구조: mlp, gpt (GPT-2식), llama (Llama식), cnn.
help-measure-dtype = 자료형: f32, bf16, f16.
help-measure-optimizer = 옵티마이저: sgd, momentum, adamw.
help-measure-device = 장치: cpu 또는 cuda:N.
help-measure-batch = 배치 크기 (구조별 기본값: mlp 64, gpt와 llama 8, cnn 32).
help-measure-hidden = --mlp-widths의 옛 이름 (받아들이고 안내를 보여 줌).
help-measure-mlp_widths = MLP 은닉층 너비, 예: 512,512.
help-measure-d_model = 트랜스포머 너비 d (은닉 크기; 기본값 128).
help-measure-layers = 트랜스포머 층(블록) 수 (기본값 2).
help-measure-heads = 어텐션 헤드 수 (기본값 4).
help-measure-vocab = 어휘 크기 (기본값 512).
help-measure-seq_len = 시퀀스 길이 (기본값 64).
help-measure-ffn = FFN 너비 (기본값: gpt는 4·d, llama는 8·d/3).
help-measure-kv_heads = key/value 헤드 수 (grouped-query attention, llama; --heads를 나누어떨어지게 해야 함).
help-measure-tied = GPT: GPT-2처럼 출력 헤드를 토큰 임베딩과 묶습니다 (기본값).
help-measure-untied = GPT: 묶지 않은 출력 헤드 (어휘 × d 파라미터가 늘어남).
help-measure-image_size = CNN 이미지 한 변 (4의 배수).
help-measure-batches = 배치 스윕의 배치 크기들 (3개 이상; --no-sweep이면 비움).
help-measure-seq_lens = GPT 스윕의 시퀀스 길이들 (3개 이상).
help-measure-no_sweep = 스윕을 건너뜁니다.
help-measure-validate = gpulab의 경험적 메모리 모델을 검증합니다: 몇몇 모양으로 맞추고, 다른 모양을 예측해 측정값과 비교.
help-measure-lean = 각 스텝을 두 번 잽니다: 보통의 Candle 프로그램 방식과 gpulab의 가벼운 스텝 (업데이트 전에 그래프와 파라미터가 아닌 텐서의 기울기를 버리고 가벼운 옵티마이저 사용).
help-measure-pytorch = Candle 대신 PyTorch로 같은 스텝을 돌립니다 (GPT와 Llama; --save나 --validate와 함께).
help-measure-python = torch가 있는 python (기본값: PATH의 python3).
help-measure-json = 전체 결과를 JSON으로 여기에 씁니다 ('-'는 표준 출력).
help-measure-save = `estimate`용 보정 파일을 저장합니다: 이번 실행의 파라미터당 바이트와, 계열 × 자료형 × 옵티마이저마다 작은 모양 40개로 맞춘 메모리 모델 (CPU에서 몇 분).
help-measure-plot = 배치와 시퀀스 길이에 따른 메모리를 이 SVG 파일에 그립니다.
help-measure-force = 있는 출력 파일을 덮어씁니다.
help-measure-append = --pytorch --save와 함께: 이 실행의 모델을 이미 있는 PyTorch 보정 파일 FILE에 더합니다(가족·자료형·옵티마이저·스텝이 같은 모델은 바뀜).
help-measure-implementation = PyTorch 구현: transformers(Hugging Face의 GPT2LMHeadModel / LlamaForCausalLM, 사람들이 실제로 학습하는 것) 또는 gpulab(data/torch-step.py 자체 모듈).
help-measure-attn = transformers의 어텐션: sdpa(기본값) 또는 eager.
help-measure-update = 옵티마이저 업데이트 방식: auto(장치 기본값: CUDA는 foreach, CPU는 for-loop), foreach, for-loop.
help-measure-lora_targets = LoRA를 붙일 층: qv(어텐션의 query와 value) 또는 all-linear.
help-measure-checkpointing = PyTorch: 활성값 체크포인팅(transformers의 gradient_checkpointing_enable()).
help-measure-lora_rank = PyTorch: 이 랭크의 LoRA를 peft로 붙입니다(기반 모델은 고정; 층은 --lora-targets). --save나 --validate에서는 모양마다 랭크가 달라집니다.
help-measure-autocast = PyTorch: 혼합 정밀도, 순전파를 bf16 또는 f16 torch.autocast로(가중치와 옵티마이저는 --dtype, 보통 f32).
help-measure-quant = PyTorch: LoRA 아래 QLoRA의 4비트 기반 (nf4: bitsandbytes의 이중 양자화 NF4; --lora-rank나 --lora-targets와 함께); --dtype은 계산 자료형, 보통 bf16.
help-estimate-implementation = PyTorch 열의 구현: transformers(Hugging Face 모델, 기본값) 또는 gpulab(data/torch-step.py 자체 모듈).
help-estimate-attn = PyTorch 열의 어텐션(transformers): sdpa(기본값) 또는 eager.
help-estimate-update = PyTorch 열의 옵티마이저 업데이트: auto(GPU는 foreach, CPU는 for-loop), foreach, for-loop.
help-estimate-lora_targets = LoRA를 붙일 층: qv(query와 value, 기본값), all-linear, attention, mlp 또는 q,k,v,o,gate,up,down 같은 목록 (목록은 GPU 열용; CPU에서 잰 열은 qv와 all-linear만 압니다).
help-bench-device = 장치: cpu, cuda:N, 또는 all (열리는 모든 장치). 여러 번 주거나 쉼표로 구분.
help-bench-dtype = 자료형: f32, f16, bf16. 여러 번 주거나 쉼표로 구분.
help-bench-sizes = 크기: N×N×N이면 N, 또는 MxKxN (예: 256,1024,512x1024x256). 기본값: 장치별 스윕.
help-bench-budget = 점마다 시간을 재는 초 (적어도 --min-runs번은 호출).
help-bench-min_runs = 점마다 시간을 잴 최소 호출 수.
help-bench-threads = 행렬곱에 쓸 CPU 스레드 수 (기본값: candle이 고르는 대로 물리 코어 수).
help-bench-cpu_kernel = CPU f32 커널: auto (CPU에 AVX-512나 AVX2가 있으면 gpulab 것, 아니면 Candle 것), candle, gpulab, gpulab-avx2, gpulab-avx512.
help-bench-naive = 강의의 순진한 측정도 보여 줍니다 (첫 호출 한 번; GPU에서는 synchronize 없는 호출 한 번).
help-bench-json = JSON을 여기에 씁니다 ('-'는 표준 출력), 점마다 갱신.
help-bench-csv = CSV를 여기에 씁니다 ('-'는 표준 출력), 점마다 갱신.
help-bench-markdown = Markdown을 여기에 씁니다 ('-'는 표준 출력), 점마다 갱신.
help-bench-plot = 크기에 따른 GFLOP/s와 속도 향상을 이 SVG 파일에 그립니다.
help-bench-force = 있는 출력 파일을 덮어씁니다.
help-check-json = 요약 대신 결과를 JSON(스키마 gpulab.check, 버전 있음)으로 출력합니다.
help-check-smi_timeout = nvidia-smi가 멈췄다고 보기 전에 기다릴 초.
help-check-nvidia_smi = 물어볼 nvidia-smi 프로그램.
help-check-require_gpu = GPU가 준비되지 않았으면 상태 1로 끝냅니다 (스크립트용).
help-check-python = PyTorch를 물어볼 python (기본값: PATH의 python3, 즉 지금 활성화된 환경의 것).
help-check-no_torch = PyTorch에게 묻지 않습니다 (import에 1-2초 걸림).
about-check = 쓸 수 있는 NVIDIA GPU가 있나요? nvidia-smi와 Candle에게 묻고, 둘이 다르면 왜 다른지 말합니다.
about-bench = CPU와 GPU 행렬 곱셈을 제대로 잽니다 (워밍업, 동기화, 반복, 중앙값).
about-measure = 실제 학습 스텝을 돌려 바이트가 어디에 쓰이는지 잽니다 (가중치, 활성값, 기울기, 옵티마이저 상태).
about-estimate = 모델에 메모리가 얼마나 필요한지 (2바이트 규칙, 교과서, 측정 모델), 그리고 예산에 무엇이 들어가는지.
about-fit = 과정의 모든 강의에 대해: 이 CPU, 내 GPU, Colab, 클라우드에 들어가는지 — 얼마나 걸리고 얼마가 드는지.
about-report = 강의의 환경 점검 보고서를 채웁니다: check + bench + measure + fit, Markdown과 JSON.
about-compare = 보고서 두 개를 나란히 (예: 이 노트북과 Colab T4).
about-labs = 실습 목록과 진행 상황 (결과가 data/runs/에 있으면 끝난 실습).
about-lab = 실습 프로그램을 실행합니다: 번호(1-6), 이름(slug), 또는 next.
about-hint = 실습의 힌트를 보여 줍니다 (기본값: 다음 실습).

## Data files and the PyTorch step (src/plan/lessons.rs, src/plan/gpus.rs, src/memory/torch.rs, src/probe/nvidia_smi.rs)
data-field = { $file }:{ $line }: { $kind } { $id }, 필드 `{ $field }`: { $why }
data-duplicate = 중복된 id
data-at-least-one = 1 이상이어야 합니다
data-trainable = params보다 클 수 없습니다
data-heads = d_model은 heads의 배수여야 합니다
data-steps = 학습이나 추론을 하는 실행에는 steps나 tokens가 필요합니다
data-positive = 양수여야 합니다
data-bf16-nonnegative = 0(bf16 없음)이거나 양수여야 합니다
data-compute-cap = 8.0 같은 꼴이어야 합니다
data-bf16-cap = bf16 처리량은 compute_cap < 8.0일 때만 0이어야 합니다
data-price = 0 <= low <= high여야 합니다
data-match = 이름 조각이 하나 이상 필요합니다
data-usable = 양수이고 판매 메모리 이하여야 합니다
data-usable-source = 사용 가능한 크기를 어디서 봤는지 적으세요
data-optimizer = 알 수 없는 옵티마이저 { $given }: sgd, momentum, adamw, none 중 하나를 쓰세요
kind-workload = 작업
kind-gpu = GPU
toml-error = { $file }: { $error }
tstep-no-result = PyTorch 스텝이 결과를 출력하지 않았습니다
tstep-unreadable = PyTorch 스텝의 결과를 읽을 수 없습니다: { $error }
tstep-count = PyTorch 스텝이 모양 { $asked }개 중 { $answered }개에만 답했습니다
tstep-other-model = PyTorch 모델의 파라미터는 { $theirs }개, gpulab 모델은 { $ours }개입니다: 같은 모델이 아닙니다
tstep-family = PyTorch 스텝은 GPT와 Llama 모델만 만듭니다 ({ $family } 모델는 아님)
tstep-timeout = PyTorch 스텝이 { $seconds }초 안에 끝나지 않았습니다. 모양을 줄이거나 더 작게 해 보세요
tstep-failed = PyTorch 스텝이 실패했습니다 (종료 코드 { $code }): { $last }
smi-no-name-column = 머리줄 { $header }에 name 열이 없습니다
smi-row-fields = 행에는 필드가 { $cells }개, 머리줄에는 { $columns }개 있습니다: { $line }
smi-index-nan = GPU 번호 { $given } 값은 숫자가 아닙니다

## Stopping the meter (src/probe/platform.rs) and fitting (src/memory/empirical.rs)
stop-colab = 런타임 > 런타임 연결 해제 및 삭제
stop-kaggle = Run > Stop session (그러지 않으면 주간 GPU 할당량이 계속 줄어듭니다)
stop-digitalocean = doctl compute droplet delete { $id } (전원을 끈 Droplet도 과금됩니다)
stop-hetzner = hcloud server delete { $id } (멈춘 서버도 과금됩니다)
fit-no-steps = 메모리 모델을 맞출 측정 스텝이 없습니다
fit-mixed-steps = 메모리 모델은 계열, 자료형, 옵티마이저가 하나인 스텝들로 맞춥니다
fit-too-alike = { $family } 메모리 모델을 맞출 수 없습니다: 보정용 모양 { $count }개가 너무 적거나 너무 비슷합니다

## clap's parse errors, said in Korean (src/cli/help.rs; English keeps clap's own)
cli-unknown-argument = 알 수 없는 인자 { $arg }
cli-unknown-command = 알 수 없는 명령 { $command }
cli-invalid-value = { $arg }에 쓸 수 없는 값 { $value }
cli-value-needed = { $arg }에는 값이 필요한데 주지 않았습니다
cli-missing = 꼭 필요한 인자가 빠졌습니다: { $args }
cli-conflict = { $arg } 옵션은 { $other } 옵션과 함께 쓸 수 없습니다
cli-suggest = 도움말: 비슷한 것이 있습니다: { $suggestion }
cli-more = 자세한 내용은 '--help'로 보세요.
labs-answers = README 질문의 답

## The derived CUDA step (src/memory/cuda_step.rs, src/memory/published.rs)
cuda-bad-release = transformers 릴리스 { $given }은(는) 4.48.1 같은 버전 형식이 아닙니다
cuda-not-transformer = CUDA 단계는 transformers 모델(GPT-2와 Llama 계열)에 대해서만 유도합니다
cuda-qlora-needs-lora = QLoRA는 고정된 4비트 기반 위에서 어댑터를 학습합니다: --lora-rank를 주세요
cuda-gpt-gate = GPT-2에는 gate 투영이 없습니다: --lora-targets에서 gate를 빼세요 (c_fc가 up입니다)
cuda-source = 단계를 실행하는 코드에서 유도한 gpulab의 CUDA 모델 (GPU에서 잰 값 아님)
cuda-assumes = 텐서 단위로 유도한 CUDA 단계 ({ $recipe }, { $kernel } 어텐션{ $lora }{ $loop }, transformers ≥ 4.50의 손실 계산): 할당 최고치 { $allocated }, 할당기 예약 { $reserved }, 여기에 CUDA 컨텍스트 { $context }를 더한 값이 합계
lora-targets-unknown = LoRA 대상 { $given }을(를) 모릅니다: qv, all-linear, attention, mlp 또는 q, k, v, o, gate, up, down의 목록(예: q,k,v,o)을 쓰세요
lora-dropout-range = --lora-dropout { $given }은(는) 확률이 아닙니다: 0 이상 1 미만의 수를 주세요 (예: 0.05)
measure-lora-list = measure는 LoRA를 qv 또는 all-linear로만 실행합니다 ({ $given } 아님): 목록은 estimate의 GPU 열에서 씁니다
published-bad = 공개 측정 행을 읽을 수 없습니다: { $error }
published-model = 공개 측정 행의 모델 { $given }은(는) gpulab 프리셋이 아닙니다
published-field = 공개 측정 행의 { $field } = { $given }을(를) gpulab이 모릅니다
est-col-cuda = PyTorch CUDA 유도
est-row-allocated = 최고치의 할당량 (max_memory_allocated)
est-row-reserved = PyTorch 캐싱 할당기가 예약한 양
act-cuda-recipe = Hugging Face 단계의 코드에서 CUDA 기준으로 유도 ({ $model }, { $recipe }, 융합 어텐션, foreach AdamW), 캐싱 할당기 예약분 { $reserve } 포함 (GPU에서 잰 값 아님)
est-which-on-cuda = GPU에서는 PyTorch CUDA 열이 CUDA 커널이 남기는 텐서를 셉니다 (CPU에서 잰 PyTorch 열은 CPU의 텐서). 그 합계에는 캐싱 할당기의 예약분이 들어 있어, 메모리 부족 오류가 따르는 것은 이 값입니다.
est-cuda-from = PyTorch CUDA 유도값: { $source }. 스텝: { $assumes }.
est-cuda-verdict = PyTorch CUDA 유도값 ({ $recipe }): { $verdict }
help-estimate-grad_accum = 옵티마이저 스텝마다 기울기를 누적할 마이크로 배치 수 (GPU 열: 모든 기울기가 뒤따르는 마이크로 배치 동안 살아 있음).
help-estimate-keep_outputs = 학습 루프가 역전파 동안 모델 출력을 들고 있음 (out = model(...) 후 out.loss.backward()): 직접 쓴 루프가 흔히 그렇고, Trainer는 먼저 버립니다.
cuda-accumulates = 마이크로 배치 { $steps }개에 걸쳐 기울기 누적
cuda-keeps-outputs = 루프가 역전파 동안 출력을 들고 있음
fit-recorded = 실측: 강의 코드가 { $cpu }에서 { $wall }초 걸렸고 (import, 데이터, 평가 포함) 이 CPU에 맞춰 × { $scale }, 메모리는 최대 { $rss }
fit-recorded-failed = 강의 코드가 { $cpu }에서 끝나지 않았습니다: { $why } (여기 시간과 메모리는 모델 값)
cuda-bad-kbit-prep = QLoRA 준비 방식 { $given }은(는) peft(prepare_model_for_kbit_training), trl-bf16(--bf16인 TRL SFTTrainer), none 중 하나가 아닙니다
cuda-kbit-prep = QLoRA 준비는 --kbit-prep { $prep } 기준: peft의 prepare_model_for_kbit_training은 norm·임베딩·헤드를 fp32로 두므로 잔차 스트림이 fp32로 흐릅니다 (trl-bf16: TRL이 임베딩과 헤드를 bf16으로 되돌림, none: 모두 16비트)
kbit-prep-needs-nf4 = --kbit-prep과 --no-double-quant는 QLoRA 설정입니다: --dtype nf4와 함께 쓰거나 빼세요
help-estimate-kbit_prep = QLoRA 준비가 fp32로 남기는 것 (--dtype nf4): peft(prepare_model_for_kbit_training, 기본값), trl-bf16(--bf16인 TRL SFTTrainer), none.
help-estimate-no_double_quant = 이중 양자화 없는 bitsandbytes 4비트 블록 (BitsAndBytesConfig 기본값; QLoRA 레시피는 보통 bnb_4bit_use_double_quant=True를 쓰며 gpulab도 이를 가정).
cuda-nf4-double = 4비트 블록은 이중 양자화됨 (bnb_4bit_use_double_quant=True; 아니라면 --no-double-quant)
cuda-nf4-single = 4비트 블록은 가중치 64개마다 f32 absmax를 둡니다 (이중 양자화 없음)
measure-no-counting-allocator = 이 프로그램은 할당을 세지 않아 CPU 메모리를 잴 수 없습니다: main.rs에 `#[global_allocator] static ALLOC: gpulab::memory::alloc::CountingAllocator = gpulab::memory::alloc::CountingAllocator;`를 넣으세요
cal-unknown-term = { $name }: { $family } 모델이 gpulab이 모르는 항 { $term }을(를) 씁니다 (손으로 고쳤거나 더 새 파일인가요?). `gpulab measure --save FILE`로 다시 측정하세요

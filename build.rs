//! Build script: records which CUDA toolkit and compute capability a `cuda` build was made for,
//! so `gpulab check` can tell "driver too old for this toolkit" and "kernels built for another
//! GPU" apart at run time. A CPU build records nothing and needs no CUDA.
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=CUDA_COMPUTE_CAP");
    println!("cargo:rerun-if-env-changed=CUDARC_CUDA_VERSION");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.lock");
    // The candle-core version actually resolved, for reports ("measured with candle X").
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let candle = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"candle-core\""))
        .and_then(|p| p.split("version = \"").nth(1))
        .and_then(|v| v.split('"').next())
        .unwrap_or("unknown");
    println!("cargo:rustc-env=GPULAB_CANDLE_VERSION={candle}");
    if std::env::var_os("CARGO_FEATURE_CUDA").is_none() {
        return;
    }
    // candle-kernels compiles its PTX with the nvcc on PATH and for CUDA_COMPUTE_CAP; read the
    // same two facts the same way.
    let toolkit = Command::new("nvcc")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|text| {
            text.split("release ")
                .nth(1)
                .and_then(|rest| rest.split(',').next())
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_default();
    println!("cargo:rustc-env=GPULAB_BUILD_CUDA_TOOLKIT={toolkit}");
    let cap = std::env::var("CUDA_COMPUTE_CAP").unwrap_or_default();
    println!("cargo:rustc-env=GPULAB_BUILD_COMPUTE_CAP={cap}");
}

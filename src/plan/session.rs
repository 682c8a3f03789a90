//! This session on a rented or lent machine: on a cloud GPU, what it costs per hour (the GPUs'
//! price range from data/gpus.toml), how long it has been up, what it has cost so far and how to
//! stop it; on Colab, which runtime this is, its session limit and what to do without a GPU.
//! Colab's limits and their sources are in data/docs/platforms.md.

use serde::{Deserialize, Serialize};

use crate::plan::gpus::Catalog;
use crate::probe::platform::{PlaceKind, Platform, Provider};

/// The cost side of a cloud session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CloudCost {
    /// The GPUs billed, "1× A10G" (catalogue names; unknown GPUs are left out and say so).
    pub gpus: Vec<String>,
    /// GPUs nvidia-smi named that the catalogue does not know (no price for them).
    pub unpriced: Vec<String>,
    /// Price range per hour of all priced GPUs together (USD), when any is priced.
    pub usd_per_hour: Option<(f64, f64)>,
    /// Hours up so far.
    pub hours_up: Option<f64>,
    /// What the session has cost so far (USD), when both are known.
    pub usd_so_far: Option<(f64, f64)>,
    /// The command (or console step) that stops the billing.
    pub stop: Option<String>,
}

/// A Colab runtime.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColabRuntime {
    /// The runtime's accelerator by catalogue id (T4, L4, A100-40GB, …), or None on a CPU runtime.
    pub gpu: Option<String>,
    /// True when that accelerator is only on paid plans (L4, A100, H100); a T4 is the free tier's.
    pub paid: bool,
    /// The longest a session runs, hours (free 12, paid 24: Colab's FAQ).
    pub max_session_h: f64,
    /// Hours this runtime has been up, when known.
    pub hours_up: Option<f64>,
}

/// What the learner should know about this session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Session {
    /// A rented machine, billed until stopped.
    Cloud(CloudCost),
    /// Google Colab.
    Colab(ColabRuntime),
    /// Nothing billed or limited that gpulab can see.
    Own,
}

/// Colab's free tier: sessions up to 12 h (Colab FAQ, data/docs/platforms.md).
pub const COLAB_FREE_SESSION_H: f64 = 12.0;
/// Colab's paid plans: up to 24 h.
pub const COLAB_PAID_SESSION_H: f64 = 24.0;

/// The session, from where the machine runs, how long it has been up and the GPU names
/// nvidia-smi gave.
pub fn describe(
    platform: &Platform,
    uptime_s: Option<f64>,
    gpu_names: &[String],
    catalog: &Catalog,
) -> Session {
    let hours_up = uptime_s.map(|s| s / 3600.0);
    match (platform.kind, platform.provider) {
        (PlaceKind::Notebook, Some(Provider::Colab)) => {
            let gpu = gpu_names
                .first()
                .and_then(|n| catalog.recognise(n))
                .map(|g| g.id.clone());
            let paid = gpu.as_deref().is_some_and(|id| id != "T4");
            Session::Colab(ColabRuntime {
                max_session_h: if paid {
                    COLAB_PAID_SESSION_H
                } else {
                    COLAB_FREE_SESSION_H
                },
                gpu,
                paid,
                hours_up,
            })
        }
        (PlaceKind::Cloud, _) => {
            let mut counts: Vec<(String, usize, (f64, f64))> = Vec::new();
            let mut unpriced = Vec::new();
            for name in gpu_names {
                match catalog.recognise(name) {
                    Some(g) => match counts.iter_mut().find(|(id, _, _)| *id == g.id) {
                        Some(entry) => entry.1 += 1,
                        None => counts.push((
                            g.id.clone(),
                            1,
                            (g.price_usd_hour_low, g.price_usd_hour_high),
                        )),
                    },
                    None => unpriced.push(name.clone()),
                }
            }
            let usd_per_hour = (!counts.is_empty()).then(|| {
                counts.iter().fold((0.0, 0.0), |(lo, hi), (_, n, (l, h))| {
                    (lo + *n as f64 * l, hi + *n as f64 * h)
                })
            });
            let usd_so_far = usd_per_hour
                .zip(hours_up)
                .map(|((lo, hi), h)| (lo * h, hi * h));
            Session::Cloud(CloudCost {
                gpus: counts
                    .iter()
                    .map(|(id, n, _)| format!("{n}× {id}"))
                    .collect(),
                unpriced,
                usd_per_hour,
                hours_up,
                usd_so_far,
                stop: platform.stop_hint(),
            })
        }
        _ => Session::Own,
    }
}

/// Where this runs and what it means, as lines for a person (the first says where; the others
/// what to do). English or Korean.
pub fn lines(platform: &Platform, session: &Session, lang: crate::report::Lang) -> Vec<String> {
    use crate::report::Lang::{En, Ko};
    let hours = |h: f64| format!("{h:.1} h");
    let mut out = Vec::new();
    match session {
        Session::Cloud(c) => {
            let what = match (&platform.provider, &platform.instance_type) {
                (Some(p), Some(t)) => format!("{} {t}", p.name()),
                (Some(p), None) => p.name().to_string(),
                _ => "?".into(),
            };
            let mut first = match lang {
                En => format!(
                    "{what} (rented, billed until stopped; {})",
                    platform.evidence
                ),
                Ko => format!(
                    "{what} (임대한 머신, 멈출 때까지 과금; {})",
                    platform.evidence
                ),
            };
            if let Some(range) = c.usd_per_hour {
                first += &format!(" · {} {}/h", c.gpus.join(" + "), usd_range(range));
            }
            if let Some(h) = c.hours_up {
                first += &match (lang, c.usd_so_far) {
                    (En, Some(so_far)) => {
                        format!(" · up {} ≈ {} so far", hours(h), usd_range(so_far))
                    }
                    (Ko, Some(so_far)) => {
                        format!(" · 켜진 지 {}, 지금까지 약 {}", hours(h), usd_range(so_far))
                    }
                    (En, None) => format!(" · up {}", hours(h)),
                    (Ko, None) => format!(" · 켜진 지 {}", hours(h)),
                };
            }
            out.push(first);
            if !c.unpriced.is_empty() {
                out.push(match lang {
                    En => format!("no price in data/gpus.toml for: {}", c.unpriced.join(", ")),
                    Ko => format!(
                        "data/gpus.toml에 가격이 없는 GPU: {}",
                        c.unpriced.join(", ")
                    ),
                });
            }
            if let Some(stop) = &c.stop {
                out.push(match lang {
                    En => format!("Stop it when done, or it keeps costing: {stop}"),
                    Ko => format!("다 쓰면 꼭 멈추세요. 켜 두면 계속 과금됩니다: {stop}"),
                });
            }
        }
        Session::Colab(r) => {
            let runtime = match (&r.gpu, lang) {
                (Some(g), En) => format!("{g} runtime"),
                (Some(g), Ko) => format!("{g} 런타임"),
                (None, En) => "CPU runtime".into(),
                (None, Ko) => "CPU 런타임".into(),
            };
            let tier = match (r.gpu.is_some(), r.paid, lang) {
                (true, false, En) => "the free tier's GPU (also on paid plans)",
                (true, false, Ko) => "무료 등급의 GPU (유료 요금제에도 있음)",
                (true, true, En) => "a paid plan or compute units",
                (true, true, Ko) => "유료 요금제 또는 컴퓨팅 단위 필요",
                (false, _, En) => "no GPU",
                (false, _, Ko) => "GPU 없음",
            };
            let up = r.hours_up.map(hours);
            out.push(match lang {
                En => format!(
                    "Google Colab, {runtime} ({tier}); a session ends after at most {} h, sooner when idle{}",
                    r.max_session_h,
                    up.map(|u| format!(" · up {u}")).unwrap_or_default()
                ),
                Ko => format!(
                    "Google Colab, {runtime} ({tier}); 세션은 최대 {}시간, 유휴 상태면 더 일찍 끝납니다{}",
                    r.max_session_h,
                    up.map(|u| format!(" · 켜진 지 {u}")).unwrap_or_default()
                ),
            });
            if r.gpu.is_none() {
                out.push(match lang {
                    En => "No GPU in this runtime: Runtime > Change runtime type > T4 GPU, then run the cells again".into(),
                    Ko => "이 런타임에는 GPU가 없습니다: 런타임 > 런타임 유형 변경 > T4 GPU를 고른 뒤 셀을 다시 실행하세요".into(),
                });
            }
            out.push(match lang {
                En => "Save the report to Google Drive or download it: the runtime's disk is wiped when the session ends".into(),
                Ko => "보고서는 Google Drive에 저장하거나 내려받으세요. 세션이 끝나면 런타임의 디스크는 지워집니다".into(),
            });
        }
        Session::Own => out.push(match (platform.kind, lang) {
            (PlaceKind::Notebook, En) => format!(
                "{} notebook ({})",
                platform.provider.map_or("?", Provider::name),
                platform.evidence
            ),
            (PlaceKind::Notebook, Ko) => format!(
                "{} 노트북 ({})",
                platform.provider.map_or("?", Provider::name),
                platform.evidence
            ),
            (PlaceKind::Wsl, En) => format!(
                "WSL on a Windows PC ({}); no cloud or Colab",
                platform.evidence
            ),
            (PlaceKind::Wsl, Ko) => format!(
                "Windows PC의 WSL ({}); 클라우드나 Colab 아님",
                platform.evidence
            ),
            (PlaceKind::Laptop, En) => {
                format!("a laptop ({}); no cloud or Colab", platform.evidence)
            }
            (PlaceKind::Laptop, Ko) => format!(
                "노트북 컴퓨터 ({}); 클라우드나 Colab 아님",
                platform.evidence
            ),
            (PlaceKind::OwnMachine, En) => format!(
                "a machine of its own ({}); no cloud or Colab",
                platform.evidence
            ),
            (PlaceKind::OwnMachine, Ko) => format!(
                "직접 가진 머신 ({}); 클라우드나 Colab 아님",
                platform.evidence
            ),
            (PlaceKind::VirtualMachine, En) => format!(
                "a virtual machine that names no cloud ({})",
                platform.evidence
            ),
            (PlaceKind::VirtualMachine, Ko) => {
                format!("클라우드를 밝히지 않는 가상 머신 ({})", platform.evidence)
            }
            (_, En) => format!("no cloud or Colab detected ({})", platform.evidence),
            (_, Ko) => format!("클라우드나 Colab이 감지되지 않음 ({})", platform.evidence),
        }),
    }
    out
}

/// "$1.00–1.30": a price range, never "$0.00–0.00" (a zero range is "free").
pub fn usd_range((lo, hi): (f64, f64)) -> String {
    if hi <= 0.0 {
        "free".into()
    } else if hi < 0.01 {
        "< $0.01".into()
    } else if (hi - lo).abs() < 0.005 {
        format!("${lo:.2}")
    } else {
        format!("${lo:.2}–{hi:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn platform(kind: PlaceKind, provider: Option<Provider>) -> Platform {
        Platform {
            kind,
            provider,
            instance_type: None,
            instance_id: Some("i-0abc".into()),
            evidence: "test".into(),
        }
    }

    #[test]
    fn a_cloud_session_is_priced_per_gpu_and_hour() {
        let catalog = Catalog::shipped();
        let names = vec![
            "NVIDIA A10G".to_string(),
            "NVIDIA A10G".to_string(),
            "Mystery GPU 9000".to_string(),
        ];
        let s = describe(
            &platform(PlaceKind::Cloud, Some(Provider::Aws)),
            Some(2.0 * 3600.0),
            &names,
            &catalog,
        );
        let Session::Cloud(c) = s else {
            panic!("{s:?}")
        };
        let a10g = catalog.get("A10G").unwrap();
        let (lo, hi) = c.usd_per_hour.unwrap();
        assert!((lo - 2.0 * a10g.price_usd_hour_low).abs() < 1e-9);
        assert!((hi - 2.0 * a10g.price_usd_hour_high).abs() < 1e-9);
        let (so_far_lo, _) = c.usd_so_far.unwrap();
        assert!((so_far_lo - 2.0 * lo).abs() < 1e-9, "two hours");
        assert_eq!(c.gpus, vec!["2× A10G"]);
        assert_eq!(c.unpriced, vec!["Mystery GPU 9000"]);
        assert!(c.stop.unwrap().contains("i-0abc"));
    }

    #[test]
    fn colab_runtimes_name_their_tier_and_limit() {
        let catalog = Catalog::shipped();
        let colab = platform(PlaceKind::Notebook, Some(Provider::Colab));
        let t4 = describe(&colab, None, &["Tesla T4".into()], &catalog);
        assert!(
            matches!(&t4, Session::Colab(r) if r.gpu.as_deref() == Some("T4") && !r.paid && r.max_session_h == 12.0),
            "{t4:?}"
        );
        let a100 = describe(&colab, None, &["NVIDIA A100-SXM4-40GB".into()], &catalog);
        assert!(
            matches!(&a100, Session::Colab(r) if r.paid && r.max_session_h == 24.0),
            "{a100:?}"
        );
        let cpu = describe(&colab, None, &[], &catalog);
        assert!(
            matches!(&cpu, Session::Colab(r) if r.gpu.is_none()),
            "{cpu:?}"
        );
        let laptop = describe(&platform(PlaceKind::Laptop, None), None, &[], &catalog);
        assert_eq!(laptop, Session::Own);
    }

    #[test]
    fn prices_never_read_zero_to_zero() {
        assert_eq!(usd_range((0.0, 0.0)), "free");
        assert_eq!(usd_range((1.0, 1.3)), "$1.00–1.30");
        assert_eq!(usd_range((2.5, 2.5)), "$2.50");
        assert_eq!(usd_range((0.003, 0.006)), "< $0.01");
    }
}

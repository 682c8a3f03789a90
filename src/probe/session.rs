//! This session on a rented or lent machine: on a cloud GPU, what it costs per hour (the GPUs'
//! price range from data/gpus.toml), how long it has been up, what it has cost so far and how to
//! stop it; on Colab, which runtime this is, its session limit and what to do without a GPU.
//! Colab's limits and their sources are in data/docs/platforms.md.

use serde::{Deserialize, Serialize};

use crate::probe::gpus::Catalog;
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
/// what to do), in `lang`.
pub fn lines(platform: &Platform, session: &Session, lang: crate::i18n::Lang) -> Vec<String> {
    let hours = |h: f64| tl!(lang, "hours", hours = format!("{h:.1}"));
    let evidence = &platform.evidence;
    let mut out = Vec::new();
    match session {
        Session::Cloud(c) => {
            let what = match (&platform.provider, &platform.instance_type) {
                (Some(p), Some(t)) => format!("{} {t}", p.name()),
                (Some(p), None) => p.name().to_string(),
                _ => "?".into(),
            };
            let mut first = tl!(lang, "sess-cloud", what = what, evidence = evidence);
            if let Some(range) = c.usd_per_hour {
                first += &tl!(
                    lang,
                    "sess-cloud-price",
                    gpus = c.gpus.join(" + "),
                    price = usd_range(range)
                );
            }
            if let Some(h) = c.hours_up {
                first += &match c.usd_so_far {
                    Some(so_far) => tl!(
                        lang,
                        "sess-up-cost",
                        hours = hours(h),
                        cost = usd_range(so_far)
                    ),
                    None => tl!(lang, "sess-up", hours = hours(h)),
                };
            }
            out.push(first);
            if !c.unpriced.is_empty() {
                out.push(tl!(lang, "sess-unpriced", gpus = c.unpriced.join(", ")));
            }
            if let Some(stop) = &c.stop {
                out.push(tl!(lang, "sess-stop", command = stop));
            }
        }
        Session::Colab(r) => {
            let runtime = match &r.gpu {
                Some(g) => tl!(lang, "sess-colab-runtime", gpu = g),
                None => tl!(lang, "sess-colab-cpu-runtime"),
            };
            let tier = match (r.gpu.is_some(), r.paid) {
                (true, false) => tl!(lang, "sess-tier-free"),
                (true, true) => tl!(lang, "sess-tier-paid"),
                (false, _) => tl!(lang, "sess-tier-none"),
            };
            let up = r
                .hours_up
                .map(|h| tl!(lang, "sess-up", hours = hours(h)))
                .unwrap_or_default();
            out.push(tl!(
                lang,
                "sess-colab",
                runtime = runtime,
                tier = tier,
                limit = r.max_session_h,
                up = up
            ));
            if r.gpu.is_none() {
                out.push(tl!(lang, "sess-colab-no-gpu"));
            }
            out.push(tl!(lang, "sess-colab-save"));
        }
        Session::Own => out.push(match platform.kind {
            PlaceKind::Notebook => tl!(
                lang,
                "sess-notebook",
                provider = platform.provider.map_or("?", Provider::name),
                evidence = evidence
            ),
            PlaceKind::Wsl => tl!(lang, "sess-wsl", evidence = evidence),
            PlaceKind::Laptop => tl!(lang, "sess-laptop", evidence = evidence),
            PlaceKind::OwnMachine => tl!(lang, "sess-own-machine", evidence = evidence),
            PlaceKind::VirtualMachine => tl!(lang, "sess-vm", evidence = evidence),
            _ => tl!(lang, "sess-nothing", evidence = evidence),
        }),
    }
    out
}

/// "$1.00–1.30": a price range, never "$0.00–0.00" (a zero range is "free").
pub fn usd_range((lo, hi): (f64, f64)) -> String {
    if hi <= 0.0 {
        t!("usd-free")
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
        assert_eq!(
            crate::i18n::scoped(crate::i18n::Lang::En, || usd_range((0.0, 0.0))),
            "free"
        );
        assert_eq!(usd_range((1.0, 1.3)), "$1.00–1.30");
        assert_eq!(usd_range((2.5, 2.5)), "$2.50");
        assert_eq!(usd_range((0.003, 0.006)), "< $0.01");
    }
}

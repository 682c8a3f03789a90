//! The report as Markdown, in Korean or English: the lesson's template filled in, then the
//! details, the fit table and the plots. Every label comes from the catalogue (data/locales/);
//! the sentences the stages wrote (causes, fixes, recommendations) are in the language the
//! report was gathered in, which `gpulab report` makes the report's own.

use std::fmt::Write as _;

use super::{EnvironmentReport, Lang};
use crate::probe::diagnose::Readiness;

pub(super) fn secs(v: Option<f64>) -> Option<String> {
    v.map(|s| {
        if s < 1.0 {
            format!("{:.2} ms", s * 1e3)
        } else {
            format!("{s:.3} s")
        }
    })
}

/// The Markdown report in `lang`. `plots` are file names (next to the Markdown) to link.
pub fn to_markdown(r: &EnvironmentReport, lang: Lang, plots: &[String]) -> String {
    // The tables below (bench, fit) speak the thread's language: make it the report's.
    crate::i18n::scoped(lang, || render(&super::localized(r), lang, plots))
}

fn render(r: &EnvironmentReport, lang: Lang, plots: &[String]) -> String {
    let w = |id: &str| crate::i18n::text(lang, id, &[]);
    let f = &r.fields;
    let why_empty = f.why_empty.clone();
    // The reason GPU fields are empty is said once, under the first empty field; the others
    // point at it (it was repeated four times).
    let said = std::cell::Cell::new(false);
    let empty = |v: Option<String>| -> String {
        v.unwrap_or_else(|| match &why_empty {
            Some(why) if !said.get() => {
                said.set(true);
                format!("— ({}: {why})", w("rep-why"))
            }
            Some(_) => format!("— ({})", w("rep-why-above")),
            None => "—".into(),
        })
    };
    let yn = |b: bool| if b { w("rep-yes") } else { w("rep-no") };
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", w("rep-title"));
    let _ = writeln!(out, "- {}: {}", w("rep-date"), f.date);
    let _ = writeln!(
        out,
        "- {}: {}",
        w("rep-local-gpu"),
        empty(f.local_gpu.clone())
    );
    let _ = writeln!(out, "- {}: {}", w("rep-smi"), f.nvidia_smi);
    let _ = writeln!(out, "- {}: {}", w("rep-framework"), f.framework_cuda);
    // Reports written before gpulab asked PyTorch have no such line.
    if !f.pytorch_cuda.is_empty() {
        let _ = writeln!(out, "- PyTorch CUDA: {}", f.pytorch_cuda);
        if r.check.torch.as_ref().is_some_and(|t| t.facts().is_some()) {
            let _ = writeln!(out, "  - {}", tl!(lang, "torch-snippet-note"));
        }
        for finding in &r.check.torch_findings {
            let _ = writeln!(out, "  - {} → {}", finding.summary, finding.fix);
        }
    }
    let _ = writeln!(
        out,
        "- {}: {}",
        w("rep-memory"),
        empty(f.gpu_memory.clone())
    );
    let _ = writeln!(out, "- {}: {}", w("rep-colab"), yn(f.colab));
    let _ = writeln!(out, "- {}: {}", w("rep-cloud"), yn(f.cloud_gpu));
    // Where this runs, what it costs and how to stop it (or Colab's limits), from the check.
    for line in crate::probe::session::lines(&r.check.host.platform, &r.check.session, lang) {
        let _ = writeln!(out, "  - {line}");
    }
    let _ = writeln!(out, "\n## {}\n", w("rep-bench"));
    if let Some(size) = &f.bench_size {
        let _ = writeln!(
            out,
            "- {}: {}",
            w("rep-size"),
            tl!(lang, "rep-size-value", n = size)
        );
    }
    let _ = writeln!(
        out,
        "- {}: {}",
        w("rep-cpu-time"),
        secs(f.cpu_time_s).unwrap_or_else(|| "—".into())
    );
    let _ = writeln!(
        out,
        "- {}: {}",
        w("rep-gpu-time"),
        empty(secs(f.gpu_time_s))
    );
    let _ = writeln!(
        out,
        "- {}: {}",
        w("rep-speedup"),
        empty(
            f.speedup
                .map(|(m, lo, hi)| format!("{m:.1}× ({lo:.1}×…{hi:.1}×)"))
        )
    );
    let _ = writeln!(out, "\n## {}\n", w("rep-judgement"));
    // In course order (phase, then lesson; the doc recipes and gpulab's own lab after), and every
    // lesson in one of the three lists.
    let mut runs_here: Vec<&str> = f.runs_here.iter().map(String::as_str).collect();
    let mut elsewhere: Vec<(&str, &str)> = f
        .needs_elsewhere
        .iter()
        .map(|(id, rec)| (id.as_str(), rec.as_str()))
        .collect();
    let mut nothing: Vec<&str> = r
        .fit
        .iter()
        .filter(|v| super::trains_nothing(v))
        .map(|v| v.id.as_str())
        .collect();
    let course_order = |id: &str| {
        (
            crate::plan::lessons::Origin::of(id) != crate::plan::lessons::Origin::Lesson,
            id.to_string(),
        )
    };
    runs_here.sort_by_key(|id| course_order(id));
    elsewhere.sort_by_key(|(id, _)| course_order(id));
    nothing.sort_by_key(|id| course_order(id));
    let list = |items: Vec<String>| {
        if items.is_empty() {
            w("rep-none")
        } else {
            items.join(", ")
        }
    };
    let _ = writeln!(
        out,
        "- {}: {}",
        w("rep-runs-here"),
        list(runs_here.iter().map(|s| s.to_string()).collect())
    );
    let _ = writeln!(
        out,
        "- {}: {}",
        w("rep-needs"),
        if elsewhere.is_empty() {
            w("rep-none")
        } else {
            elsewhere
                .iter()
                .map(|(id, rec)| format!("{id} → {rec}"))
                .collect::<Vec<_>>()
                .join("; ")
        }
    );
    if !nothing.is_empty() {
        let _ = writeln!(
            out,
            "- {}: {}",
            w("rep-nothing-to-train"),
            list(nothing.iter().map(|s| s.to_string()).collect())
        );
    }
    let _ = writeln!(out, "\n## {}\n", w("rep-next"));
    let ready = matches!(
        r.check.diagnosis.overall,
        Readiness::Ready | Readiness::Limited
    );
    let _ = writeln!(
        out,
        "{}",
        if ready {
            w("rep-next-gpu")
        } else {
            w("rep-next-no-gpu")
        }
    );
    if !r.check.diagnosis.fix.is_empty() {
        let _ = writeln!(out, "\n> {}", r.check.diagnosis.fix);
    }
    let _ = writeln!(out, "\n## {}\n", w("rep-details"));
    let _ = writeln!(out, "### {}\n", w("rep-per-param"));
    let family = if r
        .measure
        .results
        .iter()
        .any(|x| x.config.model.family == crate::memory::models::Family::Gpt)
    {
        crate::memory::models::Family::Gpt
    } else {
        crate::memory::models::Family::Mlp
    };
    out.push_str(&crate::memory::export::per_param_table(&r.measure.results, family).to_markdown());
    let _ = writeln!(out, "\n{}\n", w("rep-per-param-note"));
    let _ = writeln!(out, "### {}\n", w("rep-bench-detail"));
    out.push_str(&crate::bench::export::results_table(&r.bench).to_markdown());
    if let Some(kernel) = r.bench.cpu_kernel.filter(|k| k.is_gpulab()) {
        let _ = writeln!(
            out,
            "\n{}",
            tl!(lang, "rep-kernel-note", kernel = kernel.name())
        );
    }
    // Why GPUs are fast is bytes per second as much as FLOPs: the measured bandwidth and each
    // matmul point on its roofline (reports written before gpulab measured them have neither).
    if !r.bench.bandwidth.is_empty() {
        let _ = writeln!(out, "\n### {}\n", w("rep-bandwidth"));
        out.push_str(&crate::bench::export::bandwidth_table(&r.bench).to_markdown());
    }
    let roof = crate::bench::roofline::to_text(&r.bench);
    if !roof.is_empty() {
        let _ = writeln!(out, "\n### {}\n\n```\n{roof}```", w("rep-roofline"));
    }
    let _ = writeln!(out, "\n### {}\n", w("rep-table"));
    out.push_str(&crate::plan::fit::table(&r.fit).to_markdown());
    let _ = writeln!(out, "\n{}", w("rep-legend"));
    // The lessons no single GPU holds, with the plan the table's "see the multi-GPU plan" means.
    let plans: Vec<_> = r
        .fit
        .iter()
        .filter_map(|v| v.multi_gpu.as_ref().map(|p| (v, p)))
        .collect();
    if !plans.is_empty() {
        let _ = writeln!(out, "\n### {}\n", w("rep-multi-gpu"));
        for (v, p) in plans {
            let _ = writeln!(
                out,
                "- {}",
                tl!(lang, "rep-multi-gpu-line", id = v.id, plan = p.summary())
            );
        }
    }
    for p in plots {
        let _ = writeln!(out, "\n![{p}]({p})");
    }
    // Word order is the catalogue's: "Generated by gpulab 0.1.0" / "gpulab 0.1.0(으)로 생성".
    let _ = writeln!(
        out,
        "\n---\n{}",
        tl!(
            lang,
            "rep-footer",
            version = r.header.gpulab_version,
            cpu = r.check.host.cpu_model,
            host = r.host_name
        )
    );
    out
}

/// What `report` prints on the terminal: the verdict, the timings, how many lessons run here,
/// the next step and where the files are; the full report stays in the Markdown file.
pub fn summary(r: &EnvironmentReport, lang: Lang, written: &[String]) -> String {
    crate::i18n::scoped(lang, || {
        let w = |id: &str| crate::i18n::text(lang, id, &[]);
        let f = &r.fields;
        let mut out = String::new();
        let _ = writeln!(out, "{}", w("rep-title"));
        let _ = writeln!(out, "  {}: {}", w("rep-date"), f.date);
        let _ = writeln!(
            out,
            "  {}: {}",
            w("rep-local-gpu"),
            f.local_gpu.clone().unwrap_or_else(|| w("rep-no"))
        );
        let _ = writeln!(out, "  {}: {}", w("rep-framework"), f.framework_cuda);
        if let Some(size) = &f.bench_size {
            let _ = writeln!(
                out,
                "  {}: {}",
                w("rep-size"),
                tl!(lang, "rep-size-value", n = size)
            );
        }
        let _ = writeln!(
            out,
            "  {}: {}",
            w("rep-cpu-time"),
            secs(f.cpu_time_s).unwrap_or_else(|| "—".into())
        );
        if let Some(gpu) = secs(f.gpu_time_s) {
            let _ = writeln!(out, "  {}: {gpu}", w("rep-gpu-time"));
        }
        if let Some((m, lo, hi)) = f.speedup {
            let _ = writeln!(out, "  {}: {m:.1}× ({lo:.1}×…{hi:.1}×)", w("rep-speedup"));
        }
        let _ = writeln!(
            out,
            "  {}",
            tl!(
                lang,
                "rep-summary-lessons",
                here = f.runs_here.len(),
                elsewhere = f.needs_elsewhere.len()
            )
        );
        let ready = matches!(
            r.check.diagnosis.overall,
            Readiness::Ready | Readiness::Limited
        );
        let _ = writeln!(out, "\n{}", w("rep-next"));
        let next = if ready {
            w("rep-next-gpu")
        } else {
            w("rep-next-no-gpu")
        };
        let _ = writeln!(out, "  {next}");
        if !r.check.diagnosis.fix.is_empty() {
            let _ = writeln!(out, "  {}", r.check.diagnosis.fix);
        }
        let _ = writeln!(out, "\n{}", w("rep-summary-files"));
        for path in written {
            let _ = writeln!(out, "  {path}");
        }
        out
    })
}

//! `gpulab compare`: two reports side by side (the lesson's exercise 2: this laptop against a
//! Colab T4).

use std::fmt::Write as _;

use super::markdown::secs;
use super::{EnvironmentReport, Lang};

/// Two reports side by side, in `lang`.
pub fn compare(a: &EnvironmentReport, b: &EnvironmentReport, lang: Lang) -> String {
    crate::i18n::scoped(lang, || {
        render(&super::localized(a), &super::localized(b), lang)
    })
}

fn render(a: &EnvironmentReport, b: &EnvironmentReport, lang: Lang) -> String {
    use crate::table::{Align, Table};
    let w = |id: &str| crate::i18n::text(lang, id, &[]);
    let name =
        |tag: &str, r: &EnvironmentReport| format!("{tag}: {} ({})", r.host_name, r.fields.date);
    let (na, nb) = (name("A", a), name("B", b));
    let mut t = Table::new(&["", &na, &nb], &[Align::Left, Align::Left, Align::Left]);
    let dev = |r: &EnvironmentReport| r.fields.local_gpu.clone().unwrap_or_else(|| w("rep-none"));
    let cell = |v: Option<String>| v.unwrap_or_else(|| "—".into());
    t.push(vec![
        "CPU".into(),
        a.check.host.cpu_model.clone(),
        b.check.host.cpu_model.clone(),
    ]);
    t.push(vec![w("rep-local-gpu"), dev(a), dev(b)]);
    t.push(vec![
        w("rep-memory"),
        cell(a.fields.gpu_memory.clone()),
        cell(b.fields.gpu_memory.clone()),
    ]);
    let yes_no = |b: bool| if b { w("rep-yes") } else { w("rep-no") };
    t.push(vec![
        w("rep-colab"),
        yes_no(a.fields.colab),
        yes_no(b.fields.colab),
    ]);
    t.push(vec![
        w("rep-cloud"),
        yes_no(a.fields.cloud_gpu),
        yes_no(b.fields.cloud_gpu),
    ]);
    t.push(vec![
        format!("{} ({})", w("rep-cpu-time"), w("rep-size")),
        cell(
            secs(a.fields.cpu_time_s)
                .map(|s| format!("{s} @ {}", a.fields.bench_size.clone().unwrap_or_default())),
        ),
        cell(
            secs(b.fields.cpu_time_s)
                .map(|s| format!("{s} @ {}", b.fields.bench_size.clone().unwrap_or_default())),
        ),
    ]);
    t.push(vec![
        w("rep-gpu-time"),
        cell(secs(a.fields.gpu_time_s)),
        cell(secs(b.fields.gpu_time_s)),
    ]);
    t.push(vec![
        w("rep-speedup"),
        cell(a.fields.speedup.map(|s| format!("{:.1}×", s.0))),
        cell(b.fields.speedup.map(|s| format!("{:.1}×", s.0))),
    ]);
    let best_cpu = |r: &EnvironmentReport| {
        r.bench
            .results
            .iter()
            .filter(|x| {
                x.device == crate::probe::device::DeviceSpec::Cpu
                    && x.dtype == candle_core::DType::F32
            })
            .filter_map(|x| x.gflops)
            .fold(0f64, f64::max)
    };
    t.push(vec![
        w("cmp-best-gflops"),
        format!("{:.1}", best_cpu(a)),
        format!("{:.1}", best_cpu(b)),
    ]);
    let mut out = format!("{}\n", t.to_markdown());
    // Lessons whose recommendation differs between the two environments.
    // Only a change of target counts, not a change of the estimated minutes (`Verdict::target`
    // reads older reports' sentences too).
    let lesson = w("col-lesson");
    let mut changed = Table::new(
        &[&lesson, &na, &nb],
        &[Align::Left, Align::Left, Align::Left],
    );
    for va in &a.fit {
        if let Some(vb) = b.fit.iter().find(|v| v.id == va.id) {
            if va.target() != vb.target() {
                changed.push(vec![
                    va.id.clone(),
                    crate::plan::fit::recommendation_text(va),
                    crate::plan::fit::recommendation_text(vb),
                ]);
            }
        }
    }
    let _ = writeln!(
        out,
        "\n{}\n",
        tl!(lang, "cmp-changed", count = changed.rows.len())
    );
    if !changed.rows.is_empty() {
        out.push_str(&changed.to_markdown());
    }
    out
}

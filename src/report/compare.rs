//! `gpulab compare`: two reports side by side (the lesson's exercise 2: this laptop against a
//! Colab T4).

use std::fmt::Write as _;

use super::markdown::{secs, words};
use super::{EnvironmentReport, Lang};

/// Two reports side by side.
pub fn compare(a: &EnvironmentReport, b: &EnvironmentReport, lang: Lang) -> String {
    use crate::table::{Align, Table};
    let w = words(lang);
    let name =
        |tag: &str, r: &EnvironmentReport| format!("{tag}: {} ({})", r.host_name, r.fields.date);
    let (na, nb) = (name("A", a), name("B", b));
    let mut t = Table::new(&["", &na, &nb], &[Align::Left, Align::Left, Align::Left]);
    let dev = |r: &EnvironmentReport| r.fields.local_gpu.clone().unwrap_or_else(|| w.none.into());
    let cell = |v: Option<String>| v.unwrap_or_else(|| "—".into());
    t.push(vec![
        "CPU".into(),
        a.check.host.cpu_model.clone(),
        b.check.host.cpu_model.clone(),
    ]);
    t.push(vec![w.local_gpu.into(), dev(a), dev(b)]);
    t.push(vec![
        w.memory.into(),
        cell(a.fields.gpu_memory.clone()),
        cell(b.fields.gpu_memory.clone()),
    ]);
    let yes_no = |b: bool| if b { w.yes } else { w.no }.to_string();
    t.push(vec![
        w.colab.into(),
        yes_no(a.fields.colab),
        yes_no(b.fields.colab),
    ]);
    t.push(vec![
        w.cloud.into(),
        yes_no(a.fields.cloud_gpu),
        yes_no(b.fields.cloud_gpu),
    ]);
    t.push(vec![
        format!("{} ({})", w.cpu_time, w.size),
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
        w.gpu_time.into(),
        cell(secs(a.fields.gpu_time_s)),
        cell(secs(b.fields.gpu_time_s)),
    ]);
    t.push(vec![
        w.speedup.into(),
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
        "CPU f32 GFLOP/s (best)".into(),
        format!("{:.1}", best_cpu(a)),
        format!("{:.1}", best_cpu(b)),
    ]);
    let mut out = format!("{}\n", t.to_markdown());
    // Lessons whose recommendation differs between the two environments.
    // Only a change of target counts, not a change of the estimated minutes.
    let target = |rec: &str| rec.split(" (").next().unwrap_or(rec).to_string();
    let mut changed = Table::new(
        &["lesson", &na, &nb],
        &[Align::Left, Align::Left, Align::Left],
    );
    for va in &a.fit {
        if let Some(vb) = b.fit.iter().find(|v| v.id == va.id) {
            if target(&va.recommendation) != target(&vb.recommendation) {
                changed.push(vec![
                    va.id.clone(),
                    va.recommendation.clone(),
                    vb.recommendation.clone(),
                ]);
            }
        }
    }
    let _ = writeln!(
        out,
        "\n{}: {}\n",
        match lang {
            Lang::Ko => "판단이 바뀐 강의",
            Lang::En => "Lessons whose verdict changes",
        },
        changed.rows.len()
    );
    if !changed.rows.is_empty() {
        out.push_str(&changed.to_markdown());
    }
    out
}

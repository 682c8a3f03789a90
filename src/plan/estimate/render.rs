//! What `estimate` prints: the columns side by side, each headed with its recipe, and the
//! verdicts against a memory budget.

use super::{largest_batch, max_params_textbook, Estimate, EstimateInput, MeasuredColumn, Mode};
use crate::units::Bytes;

/// The verdicts of an estimate against a memory budget (`label` names it: a GPU or a size):
/// each column's fit, the largest batch (with a shape) and the largest model.
pub fn against_budget(
    input: &EstimateInput,
    e: &Estimate,
    measured: &[MeasuredColumn],
    budget: Bytes,
    label: &str,
) -> String {
    let verdict = |total: Bytes| {
        if total <= budget {
            format!("fits, {} to spare", Bytes(budget.0 - total.0))
        } else {
            format!("does not fit, {} short", Bytes(total.0 - budget.0))
        }
    };
    let mut out = format!("\nAgainst {label}:\n");
    out.push_str(&format!("  2-byte rule: {}\n", verdict(e.rule_total)));
    out.push_str(&format!(
        "  textbook ({}): {}\n",
        input.precision.recipe(),
        verdict(e.textbook_total)
    ));
    for c in measured {
        match c.total {
            Some(total) => out.push_str(&format!(
                "  {} measured ({}): {}\n",
                c.framework.name(),
                c.recipe,
                verdict(total)
            )),
            None => out.push_str(&format!(
                "  {} measured: not measured ({})\n",
                c.framework.name(),
                c.not_measured.as_deref().unwrap_or("no calibration")
            )),
        }
    }
    if input.shape.is_some() {
        match largest_batch(input, budget) {
            0 => out.push_str("  even batch 1 does not fit by the textbook: shorten --seq-len, add --checkpointing, or use --lora-rank\n"),
            best => out.push_str(&format!(
                "  largest power-of-two batch that fits by the textbook: {best}\n"
            )),
        }
    }
    out.push_str(&format!(
        "  largest model that fits: {:.2}B by the 2-byte rule, {:.2}B by the textbook for this set-up\n",
        budget.0 as f64 / 2.0 / 1e9,
        max_params_textbook(input, budget) as f64 / 1e9
    ));
    out
}

/// The terminal table of an estimate: the 2-byte rule, the textbook and each measured column,
/// every column headed with its recipe.
pub fn render(e: &Estimate, measured: &[MeasuredColumn], notes: &[String]) -> String {
    use crate::table::Table;
    let i = &e.input;
    let textbook_head = format!("textbook ({})", i.precision.recipe());
    let heads: Vec<String> = measured
        .iter()
        .map(|c| format!("{} measured ({})", c.framework.name(), c.recipe))
        .collect();
    let mut header = vec!["", "2-byte rule", textbook_head.as_str()];
    header.extend(heads.iter().map(String::as_str));
    let mut t = Table::aligned(&header, &format!("lrr{}", "r".repeat(measured.len())));
    let dash = || "-".to_string();
    let cell = |c: &MeasuredColumn, f: &dyn Fn(&crate::memory::empirical::Prediction) -> Bytes| {
        c.prediction
            .as_ref()
            .map(|p| f(p).to_string())
            .unwrap_or_else(dash)
    };
    let textbook_of = |category: &str| {
        e.lines
            .iter()
            .find(|l| l.category.starts_with(category))
            .map(|l| l.textbook.to_string())
            .unwrap_or_else(dash)
    };
    let rule_of = |category: &str| {
        e.lines
            .iter()
            .find(|l| l.category.starts_with(category) && l.rule.0 > 0)
            .map(|l| l.rule.to_string())
            .unwrap_or_else(dash)
    };
    type Getter = fn(&crate::memory::empirical::Prediction) -> Bytes;
    let rows: [(&str, &str, Getter); 4] = [
        ("weights", "weights", |p| p.weights),
        ("gradients", "gradients", |p| p.gradients),
        ("optimizer state", "optimizer state", |p| p.optimizer_state),
        (
            "activations (+ temporaries at the peak)",
            "activations",
            |p| p.activations_and_temporaries(),
        ),
    ];
    for (label, category, get) in rows {
        if i.mode == Mode::Inference && matches!(category, "gradients" | "optimizer state") {
            continue;
        }
        let mut row = vec![label.to_string(), rule_of(category), textbook_of(category)];
        row.extend(measured.iter().map(|c| cell(c, &get)));
        t.push(row);
    }
    if i.mode == Mode::Inference {
        let mut row = vec!["KV cache".into(), dash(), textbook_of("KV cache")];
        row.extend(measured.iter().map(|_| dash()));
        t.push(row);
    }
    if i.on_gpu {
        let mut row = vec![
            "CUDA context (typical)".into(),
            dash(),
            textbook_of("CUDA context"),
        ];
        row.extend(measured.iter().map(|c| c.context.to_string()));
        t.push(row);
    }
    let mut total = vec![
        "total at the peak".into(),
        e.rule_total.to_string(),
        e.textbook_total.to_string(),
    ];
    total.extend(
        measured
            .iter()
            .map(|c| c.total.map(|b| b.to_string()).unwrap_or_else(dash)),
    );
    t.push(total);
    let mut phase = vec!["peak falls in".into(), dash(), "(a sum of terms)".into()];
    phase.extend(measured.iter().map(|c| {
        c.prediction
            .map(|p| p.peak_phase.label().to_string())
            .unwrap_or_else(dash)
    }));
    t.push(phase);
    let mut out = format!(
        "{} parameters ({} trainable) · {} · {}{}{}{}\n\n",
        i.params,
        e.trainable,
        match i.mode {
            Mode::Train => "training",
            Mode::Inference => "inference",
        },
        i.precision.recipe(),
        i.lora_rank
            .map(|r| format!(" · LoRA r{r}"))
            .unwrap_or_default(),
        if i.checkpointing {
            " · checkpointing"
        } else {
            ""
        },
        if i.gpus > 1 {
            format!(" · {} GPUs, ZeRO-{}", i.gpus, i.zero_stage)
        } else {
            String::new()
        },
    );
    out.push_str(&t.to_text());
    if i.shape.is_none() {
        out.push_str(
            "Activations need the model's shape: name a preset (gpt2, llama-3-8b, …) or add --layers, --hidden, --heads and --seq-len.\n",
        );
    }
    for c in measured {
        match &c.not_measured {
            Some(why) => out.push_str(&format!(
                "{} measured: not measured: {why}.\n",
                c.framework.name()
            )),
            None => out.push_str(&format!(
                "{} measured: from {}.\n",
                c.framework.name(),
                c.source
            )),
        }
    }
    for n in notes {
        out.push_str(n);
        out.push('\n');
    }
    out
}

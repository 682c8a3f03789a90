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
            t!("est-fits", spare = Bytes(budget.0 - total.0))
        } else {
            t!("est-short", short = Bytes(total.0 - budget.0))
        }
    };
    let mut lines = vec![
        t!("est-rule-verdict", verdict = verdict(e.rule_total)),
        t!(
            "est-textbook-verdict",
            recipe = input.precision.recipe(),
            verdict = verdict(e.textbook_total)
        ),
    ];
    for c in measured {
        lines.push(match c.total {
            Some(total) if c.cuda.is_some() => t!(
                "est-cuda-verdict",
                recipe = c.recipe,
                verdict = verdict(total)
            ),
            Some(total) => t!(
                "est-measured-verdict",
                framework = c.framework.name(),
                recipe = c.recipe,
                verdict = verdict(total)
            ),
            None => t!(
                "est-measured-none",
                framework = c.framework.name(),
                why = c
                    .not_measured
                    .clone()
                    .unwrap_or_else(|| t!("est-no-calibration"))
            ),
        });
    }
    if input.shape.is_some() {
        lines.push(match largest_batch(input, budget) {
            0 => t!("est-batch-none"),
            best => t!("est-batch-best", batch = best),
        });
    }
    lines.push(t!(
        "est-largest-model",
        rule = format!("{:.2}", budget.0 as f64 / 2.0 / 1e9),
        textbook = format!("{:.2}", max_params_textbook(input, budget) as f64 / 1e9)
    ));
    let mut out = format!("\n{}\n", t!("est-against", label = label));
    for line in lines {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// The terminal table of an estimate: the 2-byte rule, the textbook and each measured column,
/// every column headed with its recipe.
pub fn render(e: &Estimate, measured: &[MeasuredColumn], notes: &[String]) -> String {
    use crate::table::Table;
    let i = &e.input;
    // Short headers keep the table within 80 columns; the recipe is said once in the headline,
    // and a column whose recipe differs from it gets a legend line beneath the table.
    let textbook_head = t!("est-col-textbook");
    let heads: Vec<String> = measured
        .iter()
        .map(|c| match c.cuda {
            Some(_) => t!("est-col-cuda"),
            None => t!("est-col-measured", framework = c.framework.name()),
        })
        .collect();
    let rule_head = t!("col-two-byte");
    let mut header = vec!["", rule_head.as_str(), textbook_head.as_str()];
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
    // The categories are the estimate's own keys (its JSON); the labels are the catalogue's.
    let rows: [(String, &str, Getter); 4] = [
        (t!("est-row-weights"), "weights", |p| p.weights),
        (t!("est-row-gradients"), "gradients", |p| p.gradients),
        (t!("est-row-optimizer"), "optimizer state", |p| {
            p.optimizer_state
        }),
        (t!("est-row-activations"), "activations", |p| {
            p.activations_and_temporaries()
        }),
    ];
    for (label, category, get) in rows {
        if i.mode == Mode::Inference && matches!(category, "gradients" | "optimizer state") {
            continue;
        }
        let mut row = vec![label, rule_of(category), textbook_of(category)];
        row.extend(measured.iter().map(|c| cell(c, &get)));
        t.push(row);
    }
    if i.mode == Mode::Inference {
        let mut row = vec![t!("est-row-kv"), dash(), textbook_of("KV cache")];
        row.extend(measured.iter().map(|_| dash()));
        t.push(row);
    }
    // The derived CUDA column says allocated and reserved apart: the caching allocator's
    // reserve plus the context is what an out-of-memory error is decided by.
    if measured.iter().any(|c| c.cuda.is_some()) {
        type Pick = fn(&crate::memory::cuda_step::CudaPeaks) -> Bytes;
        let picks: [(String, Pick); 2] = [
            (t!("est-row-allocated"), |p| p.allocated),
            (t!("est-row-reserved"), |p| p.reserved),
        ];
        for (label, pick) in picks {
            let mut row = vec![label, dash(), dash()];
            row.extend(measured.iter().map(|c| {
                c.cuda
                    .as_ref()
                    .map(|p| pick(p).to_string())
                    .unwrap_or_else(dash)
            }));
            t.push(row);
        }
    }
    if i.on_gpu {
        let mut row = vec![t!("est-row-context"), dash(), textbook_of("CUDA context")];
        row.extend(measured.iter().map(|c| c.context.to_string()));
        t.push(row);
    }
    let mut total = vec![
        t!("est-row-total"),
        e.rule_total.to_string(),
        e.textbook_total.to_string(),
    ];
    total.extend(
        measured
            .iter()
            .map(|c| c.total.map(|b| b.to_string()).unwrap_or_else(dash)),
    );
    t.push(total);
    let mut phase = vec![t!("est-row-phase"), dash(), t!("est-sum-of-terms")];
    phase.extend(measured.iter().map(|c| {
        c.prediction
            .map(|p| p.peak_phase.label())
            .unwrap_or_else(dash)
    }));
    t.push(phase);
    let mut out = t!(
        "est-head",
        params = i.params,
        trainable = e.trainable,
        mode = match i.mode {
            Mode::Train => t!("mode-training"),
            Mode::Inference => t!("mode-inference"),
        },
        recipe = i.precision.recipe(),
        lora = i
            .lora_rank
            .map(|r| format!(" · LoRA r{r}"))
            .unwrap_or_default(),
        checkpointing = if i.checkpointing {
            t!("est-checkpointing")
        } else {
            String::new()
        },
        gpus = if i.gpus > 1 {
            t!("est-gpus", gpus = i.gpus, stage = i.zero_stage)
        } else {
            String::new()
        }
    ) + "\n\n";
    out.push_str(&t.to_text());
    for (head, c) in heads.iter().zip(measured) {
        if c.recipe != i.precision.recipe() {
            out.push_str(
                &(t!(
                    "est-col-recipe",
                    column = head.as_str(),
                    recipe = c.recipe.as_str()
                ) + "\n"),
            );
        }
    }
    if i.shape.is_none() {
        out.push_str(&(t!("est-needs-shape") + "\n"));
    }
    for c in measured {
        let line = match &c.not_measured {
            Some(why) => t!(
                "est-not-measured-why",
                framework = c.framework.name(),
                why = why
            ),
            None => match &c.assumes {
                Some(assumes) if c.cuda.is_some() => {
                    t!("est-cuda-from", source = c.source, assumes = assumes)
                }
                Some(assumes) => t!(
                    "est-measured-from-assuming",
                    framework = c.framework.name(),
                    source = c.source,
                    assumes = assumes
                ),
                None => t!(
                    "est-measured-from",
                    framework = c.framework.name(),
                    source = c.source
                ),
            },
        };
        out.push_str(&(line + "\n"));
    }
    for n in notes {
        out.push_str(n);
        out.push('\n');
    }
    if i.mode == Mode::Train && !measured.is_empty() {
        out.push_str(&(t!("est-which-to-trust") + "\n"));
        if measured.iter().any(|c| c.cuda.is_some()) {
            out.push_str(&(t!("est-which-on-cuda") + "\n"));
        }
    }
    out
}

/// A bare budget's answer (`estimate --memory 24GB`): the units said once, then the rule's,
/// the textbook's and the measured count, each with what it counts.
pub fn render_budget(a: &super::BudgetAnswer, given: &str, recipe: &str) -> String {
    let billions = |n: u64| format!("{:.2}", n as f64 / 1e9);
    let mut out = vec![
        t!(
            "est-budget-units",
            given = given,
            gb = format!("{:.1}", a.budget.0 as f64 / 1e9),
            gib = format!("{:.1}", a.budget.gib())
        ),
        t!("est-budget-rule", params = billions(a.rule_params)),
        t!(
            "est-budget-textbook",
            recipe = recipe,
            params = billions(a.textbook_params)
        ),
    ];
    out.push(match &a.measured {
        Some((name, peak)) => t!(
            "est-budget-measured",
            name = name.as_str(),
            peak = peak.to_string(),
            seq = a.seq_len
        ),
        None => t!("est-budget-measured-none", seq = a.seq_len),
    });
    out.push(t!("est-budget-next", given = given));
    out.join("\n") + "\n"
}

//! "Did you mean": ranks the names gpulab knows by how close they are to what the user typed.

/// The `count` names closest to `query`, best first. Each name comes with the forms it may be
/// typed as (itself, a slug, a short id); its best-scoring form counts. Jaro-Winkler on
/// lower-cased text, so "a100" finds "A100-80GB" and a typo near the start weighs most.
pub fn closest<'a>(
    query: &str,
    names: impl IntoIterator<Item = (&'a str, Vec<&'a str>)>,
    count: usize,
) -> Vec<&'a str> {
    let query = query.to_lowercase();
    let mut scored: Vec<(f64, &str)> = names
        .into_iter()
        .map(|(name, forms)| {
            let score = forms
                .iter()
                .map(|f| strsim::jaro_winkler(&f.to_lowercase(), &query))
                .fold(0f64, f64::max);
            (score, name)
        })
        .collect();
    // Stable sort: equal scores keep the catalogue's order.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(count).map(|(_, n)| n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_form_wins_and_case_is_ignored() {
        let names = [
            ("phase1/01-mlp", vec!["phase1/01-mlp", "01-mlp", "mlp"]),
            ("phase2/03-gpt", vec!["phase2/03-gpt", "03-gpt", "gpt"]),
            ("A100-80GB", vec!["A100-80GB"]),
        ];
        assert_eq!(closest("GPT", names.clone(), 1), vec!["phase2/03-gpt"]);
        assert_eq!(closest("a100", names.clone(), 1), vec!["A100-80GB"]);
        assert_eq!(closest("mlp", names, 3).len(), 3);
    }
}

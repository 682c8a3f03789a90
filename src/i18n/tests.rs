//! The catalogue's own checks: both sides parse, hold the same messages with the same arguments,
//! the Korean side is Korean, and every message the code names exists with the arguments it
//! passes (a source scan of src/ and labs/).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use fluent_syntax::ast;

use super::{text, Lang, EN_FTL, KO_FTL};

/// id → argument names, for one side; panics with the file's errors when it does not parse.
fn catalogue(name: &str, source: &str) -> BTreeMap<String, BTreeSet<String>> {
    let resource = match fluent_syntax::parser::parse(source) {
        Ok(r) => r,
        Err((_, errors)) => panic!("{name} does not parse: {errors:?}"),
    };
    let mut out = BTreeMap::new();
    for entry in resource.body {
        match entry {
            ast::Entry::Message(m) => {
                let mut vars = BTreeSet::new();
                if let Some(p) = &m.value {
                    collect(p, &mut vars);
                }
                let id = m.id.name.to_string();
                assert!(m.value.is_some(), "{name}: {id} has no text");
                assert!(
                    out.insert(id.clone(), vars).is_none(),
                    "{name}: {id} is defined twice"
                );
            }
            ast::Entry::Junk { content } => panic!("{name}: cannot read {content:?}"),
            _ => {}
        }
    }
    out
}

fn collect(pattern: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_vars(expression, vars);
        }
    }
}

fn expression_vars(expression: &ast::Expression<&str>, vars: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Inline(inline) => inline_vars(inline, vars),
        ast::Expression::Select { selector, variants } => {
            inline_vars(selector, vars);
            for v in variants {
                collect(&v.value, vars);
            }
        }
    }
}

fn inline_vars(inline: &ast::InlineExpression<&str>, vars: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_string());
        }
        ast::InlineExpression::Placeable { expression } => expression_vars(expression, vars),
        _ => {}
    }
}

#[test]
fn both_sides_hold_the_same_messages_with_the_same_arguments() {
    let ko = catalogue("data/locales/ko.ftl", KO_FTL);
    let en = catalogue("data/locales/en.ftl", EN_FTL);
    let only_ko: Vec<&String> = ko.keys().filter(|k| !en.contains_key(*k)).collect();
    let only_en: Vec<&String> = en.keys().filter(|k| !ko.contains_key(*k)).collect();
    assert!(only_ko.is_empty(), "no English for: {only_ko:?}");
    assert!(only_en.is_empty(), "no Korean for: {only_en:?}");
    for (id, vars) in &ko {
        assert_eq!(
            vars, &en[id],
            "{id}: Korean and English take different arguments"
        );
    }
    assert!(ko.len() > 100, "the catalogue holds {} messages", ko.len());
}

/// Messages whose Korean is rightly the same Latin text as the English (names, units, symbols):
/// anything else with Latin letters and no Hangul on the Korean side is an untranslated line.
const SAME_IN_BOTH: &[&str] = &[
    "cell-na",
    "fit-state-na",
    "col-gflops",
    "col-intensity",
    "col-iqr",
    "check-torch-device",
    "torch-available",
    "kind-gpu",
    // The lesson's report template names these fields in English inside its Korean text
    // (data/report-template.md): the report keeps them as written there.
    "rep-local-gpu",
    "rep-memory",
    "rep-cpu-time",
    "rep-gpu-time",
    "rep-speedup",
];

#[test]
fn the_korean_side_is_korean() {
    let ko = super::messages(Lang::Ko);
    let mut untranslated = Vec::new();
    for (id, value) in &ko {
        let letters = value.chars().any(|c| c.is_ascii_alphabetic());
        let hangul = value
            .chars()
            .any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
        if letters && !hangul && !SAME_IN_BOTH.contains(&id.as_str()) {
            untranslated.push(format!("{id} = {value}"));
        }
    }
    untranslated.sort();
    assert!(
        untranslated.is_empty(),
        "Korean side not in Korean: {untranslated:#?}"
    );
}

/// Every `t!("id", a = …)` / `tl!(lang, "id", …)` in the code: (file, id, argument names).
fn uses() -> Vec<(String, String, BTreeSet<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "labs"] {
        walk(&root.join(dir), &mut files);
    }
    let mut out = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root).unwrap().display().to_string();
        for (start, _) in source.match_indices("t!(") {
            let before = source[..start].chars().last();
            // `t!(` or `tl!(`, not `assert!(`/`format!(`: the character before must end a path.
            if matches!(before, Some(c) if c.is_alphanumeric() || c == '_') {
                continue;
            }
            out.extend(parse_call(&name, &source[start + 3..], false));
        }
        for (start, _) in source.match_indices("bad!(") {
            let before = source[..start].chars().last();
            if matches!(before, Some(c) if c.is_alphanumeric() || c == '_') {
                continue;
            }
            out.extend(parse_call(&name, &source[start + 5..], false));
        }
        for (start, _) in source.match_indices("tl!(") {
            let before = source[..start].chars().last();
            if matches!(before, Some(c) if c.is_alphanumeric() || c == '_') {
                continue;
            }
            out.extend(parse_call(&name, &source[start + 4..], true));
        }
    }
    out
}

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("i18n/tests.rs") {
            files.push(path);
        }
    }
}

/// The call's arguments up to its closing parenthesis, split at top-level commas.
fn parse_call(
    file: &str,
    rest: &str,
    has_lang: bool,
) -> Option<(String, String, BTreeSet<String>)> {
    let mut depth = 0;
    let mut parts = vec![String::new()];
    let mut in_str = false;
    let mut prev = ' ';
    for c in rest.chars() {
        if in_str {
            if c == '"' && prev != '\\' {
                in_str = false;
            }
            parts.last_mut().unwrap().push(c);
            prev = if prev == '\\' && c == '\\' { ' ' } else { c };
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(String::new());
                prev = c;
                continue;
            }
            _ => {}
        }
        parts.last_mut().unwrap().push(c);
        prev = c;
    }
    let mut parts = parts.into_iter().map(|p| p.trim().to_string());
    if has_lang {
        parts.next()?;
    }
    let id = parts.next()?;
    // A macro's own definition (`$id:literal`) is not a use.
    let id = id.strip_prefix('"')?.strip_suffix('"')?.to_string();
    let names = parts
        .filter(|p| !p.is_empty())
        .map(|p| {
            // A comment above an argument is not part of its name.
            let code: String = p
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            code.split('=').next().unwrap().trim().to_string()
        })
        .collect();
    Some((file.to_string(), id, names))
}

#[test]
fn every_message_the_code_names_exists_with_its_arguments() {
    let ko = catalogue("data/locales/ko.ftl", KO_FTL);
    let uses = uses();
    assert!(
        uses.len() > 100,
        "found only {} uses: the scan is broken",
        uses.len()
    );
    let mut wrong = Vec::new();
    for (file, id, args) in &uses {
        match ko.get(id) {
            None => wrong.push(format!("{file}: {id} is not in the catalogue")),
            Some(vars) if vars != args => wrong.push(format!(
                "{file}: {id} is given {args:?} but its text uses {vars:?}"
            )),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn every_message_is_used_somewhere() {
    let ko = catalogue("data/locales/ko.ftl", KO_FTL);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "labs"] {
        walk(&root.join(dir), &mut files);
    }
    let all: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    // `--help`'s texts are named from clap's commands and options (src/cli/help.rs, whose own
    // test checks both ways that they match).
    let unused: Vec<&String> = ko
        .keys()
        .filter(|id| !id.starts_with("help-") && !id.starts_with("about-"))
        .filter(|id| !all.contains(&format!("\"{id}\"")))
        .collect();
    assert!(unused.is_empty(), "messages no code uses: {unused:?}");
}

#[test]
fn arguments_are_filled_and_marks_are_not_added() {
    let out = text(Lang::En, "lang-unknown", &[("given", "\"fr\"".into())]);
    assert!(out.contains("\"fr\""), "{out}");
    assert!(!out.contains('\u{2068}'), "isolation marks leaked: {out:?}");
    // A message that is missing falls back to its id rather than panicking.
    assert_eq!(text(Lang::Ko, "no-such-message", &[]), "no-such-message");
}

#[test]
fn the_locale_picks_the_language() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(Lang::from_env(env(&[("LANG", "ko_KR.UTF-8")])), Lang::Ko);
    assert_eq!(Lang::from_env(env(&[("LANG", "en_US.UTF-8")])), Lang::En);
    // LC_ALL wins over LANG, as POSIX says; an empty one is skipped.
    assert_eq!(
        Lang::from_env(env(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "ko_KR.UTF-8")])),
        Lang::En
    );
    assert_eq!(
        Lang::from_env(env(&[("LC_ALL", ""), ("LANG", "ko_KR.UTF-8")])),
        Lang::Ko
    );
    assert_eq!(Lang::from_env(env(&[])), Lang::En);
    assert_eq!(Lang::parse("KO").unwrap(), Lang::Ko);
    assert!(Lang::parse("fr").is_err());
}

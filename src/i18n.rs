//! The message catalogue: every sentence a person reads, in Korean and in English
//! (`data/locales/ko.ftl`, `data/locales/en.ftl`, Fluent syntax, built into the binary), and the
//! language the program speaks — from `--lang`, else the locale.
//!
//! Code never writes a human sentence itself: it names a message, `t!("check-title")`, with its
//! arguments, `t!("threads-too-many", asked = n, cpus = c)`. Both files hold every message
//! with the same arguments (a test below fails otherwise, and another checks that every message
//! the code names exists), so a changed word can never fall back to English in silence.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};

/// The catalogue's two sides, as shipped.
pub const KO_FTL: &str = include_str!("../data/locales/ko.ftl");
/// English side.
pub const EN_FTL: &str = include_str!("../data/locales/en.ftl");

/// A language the program speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    /// 한국어 (the course's language).
    Ko,
    /// English.
    En,
}

impl Lang {
    /// Parses "ko" / "en" (and a few spellings of each).
    pub fn parse(text: &str) -> crate::Result<Lang> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ko" | "kr" | "korean" | "한국어" => Ok(Lang::Ko),
            "en" | "english" => Ok(Lang::En),
            other => Err(crate::bad!("lang-unknown", given = format!("{other:?}"))),
        }
    }

    /// From the locale (LC_ALL, LC_MESSAGES, LANG, first one set wins, as POSIX orders them):
    /// Korean when it says ko, else English.
    pub fn from_locale() -> Lang {
        Self::from_env(|name| std::env::var(name).ok())
    }

    /// [`Lang::from_locale`] over any variable source (tested without touching the process).
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Lang {
        for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Some(v) = get(var).filter(|v| !v.is_empty()) {
                return if v.to_ascii_lowercase().starts_with("ko") {
                    Lang::Ko
                } else {
                    Lang::En
                };
            }
        }
        Lang::En
    }

    /// The other language.
    pub fn other(self) -> Lang {
        match self {
            Lang::Ko => Lang::En,
            Lang::En => Lang::Ko,
        }
    }
}

// 0 = not chosen yet (the locale decides on first use), 1 = Korean, 2 = English.
static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Chooses the language for the rest of the run (the binary calls this once, from `--lang`).
pub fn set(lang: Lang) {
    CURRENT.store(
        match lang {
            Lang::Ko => 1,
            Lang::En => 2,
        },
        Ordering::Relaxed,
    );
}

thread_local! {
    // A language for one piece of work on this thread (a report written in Korean from an
    // English terminal; tests of both languages running side by side).
    static SCOPED: Cell<Option<Lang>> = const { Cell::new(None) };
}

/// Runs `work` with `lang` as this thread's language, then restores the one before (also when
/// `work` panics).
pub fn scoped<R>(lang: Lang, work: impl FnOnce() -> R) -> R {
    struct Restore(Option<Lang>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SCOPED.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(SCOPED.with(|s| s.replace(Some(lang))));
    work()
}

/// The language: this thread's scoped one, else the one chosen, else the locale's.
pub fn current() -> Lang {
    if let Some(lang) = SCOPED.with(|s| s.get()) {
        return lang;
    }
    // Unit tests read English whatever the machine's locale (a Korean learner runs them too)
    // and whatever another test chose; a test of Korean says so with `scoped`.
    if cfg!(test) {
        return Lang::En;
    }
    match CURRENT.load(Ordering::Relaxed) {
        1 => Lang::Ko,
        2 => Lang::En,
        _ => {
            let lang = Lang::from_locale();
            set(lang);
            lang
        }
    }
}

fn bundle(lang: Lang) -> &'static FluentBundle<FluentResource> {
    static KO: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    static EN: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    let (cell, source, id) = match lang {
        Lang::Ko => (&KO, KO_FTL, "ko"),
        Lang::En => (&EN, EN_FTL, "en"),
    };
    cell.get_or_init(|| {
        // The files are part of the binary and tested to parse: a syntax error cannot ship.
        let resource =
            FluentResource::try_new(source.to_string()).unwrap_or_else(|(resource, _)| resource);
        let langid: unic_langid::LanguageIdentifier =
            id.parse().expect("ko and en are language ids");
        let mut bundle = FluentBundle::new_concurrent(vec![langid]);
        // Fluent wraps every argument in Unicode isolation marks for right-to-left scripts;
        // in a terminal and in Markdown they are invisible bytes that break copy-paste.
        bundle.set_use_isolating(false);
        // Duplicates are caught by the tests; the first definition wins here.
        let _ = bundle.add_resource(resource);
        bundle
    })
}

/// Message `id` in `lang`, with its arguments (each already formatted as text: numbers are
/// formatted by the code, with their units, so both languages show the same figures).
///
/// A message missing from `lang` falls back to the other language, then to the id itself —
/// never a panic; the tests make sure neither fallback happens in what ships.
pub fn text(lang: Lang, id: &str, args: &[(&str, String)]) -> String {
    for l in [lang, lang.other()] {
        let bundle = bundle(l);
        if let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) {
            let mut fluent_args = FluentArgs::new();
            for (name, value) in args {
                fluent_args.set(*name, FluentValue::from(value.as_str()));
            }
            let mut errors = Vec::new();
            let out = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
            return out.into_owned();
        }
    }
    id.to_string()
}

/// Whether the catalogue has message `id` (in Korean; the tests keep both sides equal).
pub fn has(id: &str) -> bool {
    bundle(Lang::Ko).has_message(id)
}

/// Every message's id and text in one language, arguments left as `{ $name }` (for the CLI test
/// that looks for catalogue English in Korean output).
pub fn messages(lang: Lang) -> HashMap<String, String> {
    let source = match lang {
        Lang::Ko => KO_FTL,
        Lang::En => EN_FTL,
    };
    let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(r, _)| r);
    let mut out = HashMap::new();
    for entry in resource.entries() {
        if let fluent_syntax::ast::Entry::Message(m) = entry {
            if let Some(value) = &m.value {
                let mut text = String::new();
                for element in &value.elements {
                    match element {
                        fluent_syntax::ast::PatternElement::TextElement { value } => {
                            text.push_str(value)
                        }
                        fluent_syntax::ast::PatternElement::Placeable { .. } => text.push('\u{1}'),
                    }
                }
                out.insert(m.id.name.to_string(), text);
            }
        }
    }
    out
}

/// A message in the chosen language: `t!("check-title")`, `t!("wrote", path = p.display())`.
/// Each value is formatted with `Display`.
#[macro_export]
macro_rules! t {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::i18n::text(
            $crate::i18n::current(),
            $id,
            &[$((stringify!($name), ($value).to_string())),*],
        )
    };
}

/// A message in a given language: `tl!(lang, "rep-footer", version = v, cpu = c, host = h)`
/// (the report is written in the language asked for, which need not be the terminal's).
#[macro_export]
macro_rules! tl {
    ($lang:expr, $id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::i18n::text(
            $lang,
            $id,
            &[$((stringify!($name), ($value).to_string())),*],
        )
    };
}

#[cfg(test)]
mod tests;

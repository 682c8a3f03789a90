//! `--help` in the learner's language: clap's command built from the derive structs in
//! `args.rs`, then every text a person reads — the commands' descriptions, each option's help,
//! the headings, the defaults — replaced from the message catalogue (data/locales/); and the parse
//! errors a learner meets said in Korean (clap has no catalogue: English keeps clap's wording).

use clap::{Arg, Command, CommandFactory};

use super::args::Cli;
use gpulab::i18n::{self, Lang};

/// The language asked for on the command line (`--lang ko`, `--lang=ko`), else the locale's:
/// known before clap parses, so the help it prints is already in it.
pub fn lang_from_args(args: &[String]) -> Lang {
    let mut asked = None;
    for (i, a) in args.iter().enumerate() {
        if let Some(v) = a.strip_prefix("--lang=") {
            asked = Some(v.to_string());
        } else if a == "--lang" {
            asked = args.get(i + 1).cloned();
        }
    }
    asked
        .and_then(|l| Lang::parse(&l).ok())
        .unwrap_or_else(Lang::from_locale)
}

/// The command line, its texts in `lang`.
pub fn command(lang: Lang) -> Command {
    // Help wraps at the width the rest of the output is fitted to (src/output.rs).
    let mut cmd = Cli::command().term_width(gpulab::output::columns());
    // Built first, so clap's own --help, --version and `help` exist to be translated too.
    cmd.build();
    localize(cmd, "gpulab", lang)
}

/// The catalogue id of an option's help: clap's own flags by their name, the global options once
/// under the top command, every other option under its command.
fn help_key(command: &str, id: &str) -> String {
    match id {
        "help" | "version" => format!("help-{id}"),
        "quiet" | "lang" => format!("help-gpulab-{id}"),
        _ => format!("help-{command}-{id}"),
    }
}

/// A catalogue text as clap shows help: clap drops a one-line doc comment's final period, and
/// the catalogue's texts read the same.
fn clap_text(lang: Lang, id: &str) -> String {
    let text = i18n::text(lang, id, &[]);
    text.strip_suffix('.').map(str::to_string).unwrap_or(text)
}

fn localize(mut cmd: Command, name: &str, lang: Lang) -> Command {
    let say = |id: &str| clap_text(lang, id);
    if i18n::has(&format!("about-{name}")) {
        cmd = cmd.about(say(&format!("about-{name}")));
    } else if name == "help" {
        cmd = cmd.about(say("help-subcommand-help"));
    }
    cmd = cmd
        .help_template(format!(
            "{{about-with-newline}}\n{}: {{usage}}\n\n{{all-args}}{{after-help}}",
            say("help-heading-usage")
        ))
        .subcommand_help_heading(say("help-heading-commands"));
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        let key = help_key(name, &id);
        if !i18n::has(&key) {
            continue;
        }
        let heading = say("help-heading-options");
        let arguments = say("help-heading-arguments");
        cmd = cmd.mut_arg(&id, |a: Arg| {
            localize_arg(a, &key, lang, heading, arguments)
        });
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for sub in subs {
        cmd = cmd.mut_subcommand(&sub, |s| localize(s, &sub, lang));
    }
    cmd
}

/// One option's help in `lang`, its default said by the catalogue (clap would print
/// "[default: …]" in English), under the heading for options or for arguments.
fn localize_arg(a: Arg, key: &str, lang: Lang, heading: String, arguments: String) -> Arg {
    let mut help = clap_text(lang, key);
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    // (A flag's "false" is no default worth saying.)
    let a = if defaults.is_empty() || !a.get_action().takes_values() {
        a
    } else {
        help.push(' ');
        help.push_str(&i18n::text(
            lang,
            "help-default",
            &[("value", defaults.join(","))],
        ));
        a.hide_default_value(true)
    };
    let heading = if a.is_positional() {
        arguments
    } else {
        heading
    };
    a.help(help).help_heading(heading)
}

/// clap's parse error in Korean, for the kinds a learner meets (a mistyped option or command, a
/// bad or missing value, two options that exclude each other); None leaves clap's own (English)
/// text, which English runs always use.
pub fn korean_error(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ErrorKind};
    let get = |kind: ContextKind| e.get(kind).map(|v| v.to_string()).unwrap_or_default();
    let ko = |id: &str, args: &[(&str, String)]| i18n::text(Lang::Ko, id, args);
    let main = match e.kind() {
        ErrorKind::UnknownArgument => ko(
            "cli-unknown-argument",
            &[("arg", get(ContextKind::InvalidArg))],
        ),
        ErrorKind::InvalidSubcommand => ko(
            "cli-unknown-command",
            &[("command", get(ContextKind::InvalidSubcommand))],
        ),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
            if e.get(ContextKind::InvalidValue)
                .is_some_and(|v| !v.to_string().is_empty()) =>
        {
            let said = ko(
                "cli-invalid-value",
                &[
                    ("value", get(ContextKind::InvalidValue)),
                    ("arg", get(ContextKind::InvalidArg)),
                ],
            );
            // A value our parser refused carries the catalogue's reason (already Korean).
            match std::error::Error::source(e) {
                Some(why) if e.kind() == ErrorKind::ValueValidation => format!("{said}: {why}"),
                _ => said,
            }
        }
        ErrorKind::InvalidValue => ko("cli-value-needed", &[("arg", get(ContextKind::InvalidArg))]),
        ErrorKind::MissingRequiredArgument => {
            ko("cli-missing", &[("args", get(ContextKind::InvalidArg))])
        }
        ErrorKind::ArgumentConflict => ko(
            "cli-conflict",
            &[
                ("arg", get(ContextKind::InvalidArg)),
                ("other", get(ContextKind::PriorArg)),
            ],
        ),
        _ => return None,
    };
    let mut out = ko("error-prefix", &[("message", main)]);
    for kind in [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ] {
        if let Some(s) = e.get(kind) {
            out.push_str("\n  ");
            out.push_str(&ko("cli-suggest", &[("suggestion", s.to_string())]));
        }
    }
    out.push_str("\n\n");
    out.push_str(&ko("cli-more", &[]));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option of every command has its help in the catalogue (both sides, by the
    /// catalogue's own test), so no English doc comment reaches a Korean `--help`; and no help
    /// text is left for a command or option that is gone.
    #[test]
    fn every_option_has_its_help_in_the_catalogue() {
        fn walk(cmd: &Command, name: &str, keys: &mut Vec<String>) {
            if name != "help" {
                keys.push(format!("about-{name}"));
            }
            for a in cmd.get_arguments() {
                keys.push(help_key(name, a.get_id().as_str()));
            }
            for s in cmd.get_subcommands() {
                walk(s, s.get_name(), keys);
            }
        }
        let mut cmd = Cli::command();
        cmd.build();
        let mut keys = Vec::new();
        walk(&cmd, "gpulab", &mut keys);
        let missing: Vec<&String> = keys.iter().filter(|k| !i18n::has(k)).collect();
        assert!(
            missing.is_empty(),
            "no help in the catalogue for: {missing:?}"
        );
        // The texts help.rs names itself, beside the per-option ones.
        keys.extend(
            [
                "help-heading-usage",
                "help-heading-commands",
                "help-heading-options",
                "help-heading-arguments",
                "help-default",
                "help-subcommand-help",
            ]
            .map(String::from),
        );
        let stale: Vec<String> = i18n::messages(Lang::En)
            .into_keys()
            .filter(|id| id.starts_with("help-") || id.starts_with("about-"))
            .filter(|id| !keys.contains(id))
            .collect();
        assert!(stale.is_empty(), "help texts for nothing: {stale:?}");
    }

    #[test]
    fn korean_help_is_korean() {
        let mut cmd = command(Lang::Ko);
        let top = cmd.render_help().to_string();
        assert!(
            top.contains("사용법:") && top.contains("명령:") && top.contains("옵션:"),
            "{top}"
        );
        assert!(!top.contains("Print help"), "{top}");
        let check = cmd
            .find_subcommand_mut("check")
            .unwrap()
            .render_help()
            .to_string();
        assert!(check.contains("[기본값: 10]"), "{check}");
        assert!(!check.contains("[default:"), "{check}");
        // English stays what the derive structs say.
        let mut en = command(Lang::En);
        assert!(en.render_help().to_string().contains("Usage:"));
    }

    #[test]
    fn a_mistyped_command_line_is_explained_in_korean() {
        let err = |a: &[&str]| command(Lang::Ko).try_get_matches_from(a).unwrap_err();
        let unknown = korean_error(&err(&["gpulab", "chek"])).unwrap();
        assert!(
            unknown.contains("알 수 없는 명령") && unknown.contains("check"),
            "{unknown}"
        );
        let flag = korean_error(&err(&["gpulab", "check", "--jsn"])).unwrap();
        assert!(
            flag.contains("알 수 없는 인자") && flag.contains("--json"),
            "{flag}"
        );
        let conflict =
            korean_error(&err(&["gpulab", "check", "--python", "x", "--no-torch"])).unwrap();
        assert!(conflict.contains("함께 쓸 수 없습니다"), "{conflict}");
        let value = korean_error(&err(&["gpulab", "bench", "--budget", "abc"])).unwrap();
        assert!(value.contains("abc"), "{value}");
    }

    #[test]
    fn the_language_is_read_before_parsing() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            lang_from_args(&args(&["gpulab", "--lang", "ko", "check"])),
            Lang::Ko
        );
        assert_eq!(
            lang_from_args(&args(&["gpulab", "check", "--lang=en"])),
            Lang::En
        );
    }
}

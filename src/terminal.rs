//! Untrusted text made safe to print: tool arguments, commands, session keys, messages, hook
//! names and paths reach terminals and text logs through here.
//!
//! A terminal obeys the control characters it is sent: `ESC [ 2 J` clears the screen,
//! `ESC ] 0 ; … BEL` retitles the window, a carriage return lets the rest of a line overwrite
//! what came before it, and the C1 control U+009B is a one-character `ESC [` to some
//! terminals. Unicode's bidirectional formatting characters reorder what is shown, so a
//! command can read differently from what runs ("Trojan Source", CVE-2021-42574). Each such
//! character is written as a visible escape instead: `\x1b`, `\u{9b}`, `\u{202e}`; tab,
//! newline and carriage return as `\t`, `\n`, `\r`. Everything else, backslashes included,
//! is left as it is, so paths and patterns stay readable; an escape is therefore not
//! reversible, and a `\x1b` in the output may have been those four characters already.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` is written as an escape: a C0 control (U+0000–U+001F), DEL, a C1 control
/// (U+0080–U+009F), or a bidirectional formatting character (the embeddings and overrides
/// U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C).
pub fn is_escaped(c: char) -> bool {
    matches!(
        c,
        '\0'..='\x1f'
            | '\x7f'..='\u{9f}'
            | '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// `text` with every [escaped](is_escaped) character, newlines included, as a visible
/// escape: for one line of output (a table cell, a log field, a title), so a value cannot
/// end the line and forge the next. Borrowed when there is nothing to escape.
#[cfg(any(feature = "server", test))]
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    escape_except(text, |_| false)
}

/// JSON text (as `serde_json` writes it) with DEL, the C1 controls and the bidirectional
/// formatting characters written as `\u` escapes too (`serde_json` escapes only U+0000–U+001F):
/// the same JSON value, safe to `cat` or `tail -f`. A C0 control other than the whitespace a
/// pretty printer writes between tokens is escaped as well; valid JSON holds none.
pub(crate) fn escape_json(json: &str) -> Cow<'_, str> {
    let keep = |c: char| matches!(c, '\n' | '\r' | '\t');
    if !json.chars().any(|c| is_escaped(c) && !keep(c)) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_escaped(c) && !keep(c) {
            // Each of these is in the Basic Multilingual Plane: one `\uXXXX` is the whole
            // character. Outside strings JSON holds only ASCII punctuation, digits, letters and
            // whitespace, so every other one is inside a string, where the escape is valid.
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape_json`] of an owned string: the same string back when there is nothing to escape.
pub(crate) fn into_escaped_json(json: String) -> String {
    match escape_json(&json) {
        Cow::Borrowed(_) => json,
        Cow::Owned(escaped) => escaped,
    }
}

#[cfg(any(feature = "server", test))]
fn escape_except(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_escaped(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !is_escaped(c) || keep(c) {
            out.push(c);
            continue;
        }
        // Writing to a String cannot fail.
        let _ = match c {
            '\n' => out.write_str("\\n"),
            '\r' => out.write_str("\\r"),
            '\t' => out.write_str("\\t"),
            c if c.is_ascii() => write!(out, "\\x{:02x}", u32::from(c)),
            c => write!(out, "\\u{{{:x}}}", u32::from(c)),
        };
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        for text in [
            "",
            "rm -rf /srv",
            r"C:\Users\x1b and \u{202e} written out",
            "ünïcödé ✓ 日本語 עברית العربية",
            "emoji 🦀 and combining e\u{301}",
        ] {
            assert!(
                matches!(escape(text), Cow::Borrowed(t) if t == text),
                "{text:?}"
            );
            assert!(matches!(escape_json(text), Cow::Borrowed(t) if t == text));
        }
    }

    #[test]
    fn c0_controls_are_escaped() {
        assert_eq!(escape("a\x1b[2Jb"), r"a\x1b[2Jb");
        assert_eq!(escape("\x1b]0;title\x07"), r"\x1b]0;title\x07");
        assert_eq!(
            escape("\0\x01\x08\x0b\x0c\x1f"),
            r"\x00\x01\x08\x0b\x0c\x1f"
        );
        assert_eq!(escape("a\tb\nc\rd"), r"a\tb\nc\rd");
        for c in '\0'..='\x1f' {
            let escaped = escape(&c.to_string()).into_owned();
            assert!(escaped.starts_with('\\'), "{c:?} -> {escaped:?}");
            assert!(!escaped.contains(c), "{c:?} -> {escaped:?}");
        }
    }

    #[test]
    fn del_and_c1_controls_are_escaped() {
        assert_eq!(escape("\x7f"), r"\x7f");
        assert_eq!(
            escape("\u{80}x\u{85}\u{9b}2J\u{9d}\u{9f}"),
            r"\u{80}x\u{85}\u{9b}2J\u{9d}\u{9f}"
        );
        // The neighbours are text.
        assert_eq!(escape("~\u{a0}é"), "~\u{a0}é");
    }

    #[test]
    fn bidi_formatting_characters_are_escaped() {
        let all = "\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{200e}\u{200f}\u{61c}";
        assert_eq!(
            escape(all),
            r"\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{200e}\u{200f}\u{61c}"
        );
        // The classic: a comment that reads as code.
        assert_eq!(
            escape("ls /tmp \u{202e} }\u{2066}rm -rf ~\u{2069} {"),
            r"ls /tmp \u{202e} }\u{2066}rm -rf ~\u{2069} {"
        );
        // Right-to-left text itself is not a control.
        assert_eq!(escape("שלום"), "שלום");
        assert_eq!(
            escape("\u{2065}\u{206a}\u{200d}"),
            "\u{2065}\u{206a}\u{200d}"
        );
    }

    #[test]
    fn escaped_output_holds_nothing_escaped() {
        let hostile: String = ('\0'..='\u{a0}')
            .chain([
                '\u{61c}', '\u{200e}', '\u{200f}', '\u{202e}', '\u{2066}', '\u{2069}',
            ])
            .collect();
        assert!(!escape(&hostile).chars().any(is_escaped));
    }

    #[test]
    fn escaped_json_is_the_same_value() {
        let value = serde_json::json!({
            "command": "echo \x1b[2J\x1b]0;title\x07 \x7f \u{9b}31m \u{202e}gnp.exe",
            "nested": ["\u{2066}x\u{2069}", "\u{200e}\u{200f}\u{61c}", "plain ✓"],
        });
        for json in [
            serde_json::to_string(&value).expect("json"),
            serde_json::to_string_pretty(&value).expect("json"),
        ] {
            let safe = escape_json(&json);
            assert!(!safe.chars().any(|c| is_escaped(c) && c != '\n'), "{safe}");
            assert!(
                safe.contains(r"\u007f") && safe.contains(r"\u009b"),
                "{safe}"
            );
            assert!(
                safe.contains(r"\u202e") && safe.contains(r"\u2066"),
                "{safe}"
            );
            assert!(
                safe.contains(r"\u001b[2J"),
                "serde's own escapes stay: {safe}"
            );
            let parsed: serde_json::Value = serde_json::from_str(&safe).expect("still JSON");
            assert_eq!(parsed, value);
        }
        let json = serde_json::to_string(&value).expect("json");
        assert_eq!(into_escaped_json(json.clone()), escape_json(&json));
        assert_eq!(into_escaped_json("{}".to_owned()), "{}");
        // Whitespace between tokens stays whitespace.
        assert_eq!(escape_json("{\n\t\"a\": 1\r\n}"), "{\n\t\"a\": 1\r\n}");
    }
}

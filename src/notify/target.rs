//! The chat a session key names, for Telegram delivery, and for gateways that deliver
//! notices themselves.

/// A Telegram chat, and the forum topic within it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TelegramTarget {
    /// The chat id (`-100123…` for groups).
    pub chat_id: String,
    /// The forum topic (`message_thread_id`).
    pub thread_id: Option<i64>,
}

/// The chat a session key names, as the seed reads it: `telegram:group:<id>:topic:<n>`,
/// `telegram:group:<id>`, or a key ending in `telegram:<numeric id>`.
pub(crate) fn parse_target(session_key: &str) -> Option<TelegramTarget> {
    if let Some(at) = session_key.find("telegram:group:") {
        let rest = &session_key[at + "telegram:group:".len()..];
        let id_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        if id_len > 0 {
            let (chat_id, after) = rest.split_at(id_len);
            let thread_id = after.strip_prefix(":topic:").and_then(|t| {
                let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
                t[..digits].parse().ok()
            });
            return Some(TelegramTarget {
                chat_id: chat_id.to_owned(),
                thread_id,
            });
        }
    }
    let at = session_key.rfind("telegram:")?;
    let id = &session_key[at + "telegram:".len()..];
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then(|| TelegramTarget {
        chat_id: id.to_owned(),
        thread_id: None,
    })
}

/// The target of chat `id` and topic `thread_id`, for tests.
#[cfg(test)]
pub(super) fn chat(id: &str, thread_id: Option<i64>) -> Option<TelegramTarget> {
    Some(TelegramTarget {
        chat_id: id.to_owned(),
        thread_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_keys_name_chats_as_in_the_seed() {
        assert_eq!(
            parse_target("agent:main:telegram:group:-100123:topic:42"),
            chat("-100123", Some(42))
        );
        assert_eq!(
            parse_target("agent:main:telegram:group:-100123"),
            chat("-100123", None)
        );
        assert_eq!(
            parse_target("agent:main:telegram:987654321"),
            chat("987654321", None)
        );
        assert_eq!(parse_target("agent:main:telegram:98x"), None);
        assert_eq!(parse_target("agent:main:subagent:7f3a"), None);
        assert_eq!(parse_target("agent:main:main"), None);
    }
}

//! Telegram delivery: `sendMessage` on the Bot API, to the chat a session key names.

use serde::Serialize;

use super::Notice;
use crate::config::TelegramSettings;

/// The Bot API, unless `baseUrl` says otherwise.
pub(super) const DEFAULT_BASE_URL: &str = "https://api.telegram.org";
/// The variable holding the bot token, unless `tokenEnv` says otherwise.
pub(super) const DEFAULT_TOKEN_ENV: &str = "TELEGRAM_BOT_TOKEN";

/// A Telegram chat, and the forum topic within it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TelegramTarget {
    /// The chat id (`-100123…` for groups).
    pub chat_id: String,
    /// The forum topic (`message_thread_id`).
    pub thread_id: Option<i64>,
}

/// The chat a session key names, as the seed reads it: `telegram:group:<id>:topic:<n>`,
/// `telegram:group:<id>`, or a key ending in `telegram:<numeric id>`.
pub fn parse_target(session_key: &str) -> Option<TelegramTarget> {
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

/// Where a notice goes: the session's chat, else the fallback target (a session key, or a
/// bare chat id).
fn target(notice: &Notice) -> Option<TelegramTarget> {
    parse_target(&notice.session_key).or_else(|| {
        let fallback = notice.fallback_target.as_deref()?.trim();
        parse_target(fallback).or_else(|| {
            let bare = fallback.strip_prefix('-').unwrap_or(fallback);
            (!bare.is_empty() && bare.bytes().all(|b| b.is_ascii_digit())).then(|| TelegramTarget {
                chat_id: fallback.to_owned(),
                thread_id: None,
            })
        })
    })
}

#[derive(Serialize)]
struct SendMessage<'a> {
    chat_id: ChatId<'a>,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message_thread_id: Option<i64>,
}

/// A numeric id is sent as a number, anything else (`@channel`) as a string.
#[derive(Serialize)]
#[serde(untagged)]
enum ChatId<'a> {
    Number(i64),
    Name(&'a str),
}

/// Sends `notice`; returns what happened, for the log and the metrics.
pub(super) async fn send(
    client: &reqwest::Client,
    settings: &TelegramSettings,
    notice: &Notice,
) -> Result<(), String> {
    let Some(target) = target(notice) else {
        return Err(format!(
            "no Telegram chat in session key \"{}\" or notificationTarget",
            notice.session_key
        ));
    };
    let env = settings.token_env.as_deref().unwrap_or(DEFAULT_TOKEN_ENV);
    let token = std::env::var(env)
        .ok()
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| format!("{env} is not set"))?;
    let base = settings
        .base_url
        .as_deref()
        .unwrap_or(DEFAULT_BASE_URL)
        .trim_end_matches('/');
    let body = SendMessage {
        chat_id: target
            .chat_id
            .parse()
            .map_or(ChatId::Name(&target.chat_id), ChatId::Number),
        text: &notice.message,
        message_thread_id: target.thread_id,
    };
    let response = client
        .post(format!("{base}/bot{}/sendMessage", token.trim()))
        .json(&body)
        .send()
        .await
        // The URL holds the token: never let it reach the log.
        .map_err(|e| format!("request failed: {}", e.without_url()))?;
    let status = response.status();
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("the Bot API answered {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(chat: &str, thread: Option<i64>) -> Option<TelegramTarget> {
        Some(TelegramTarget {
            chat_id: chat.to_owned(),
            thread_id: thread,
        })
    }

    #[test]
    fn session_keys_name_chats_as_in_the_seed() {
        assert_eq!(
            parse_target("agent:main:telegram:group:-100123:topic:42"),
            t("-100123", Some(42))
        );
        assert_eq!(
            parse_target("agent:main:telegram:group:-100123"),
            t("-100123", None)
        );
        assert_eq!(
            parse_target("agent:main:telegram:987654321"),
            t("987654321", None)
        );
        assert_eq!(parse_target("agent:main:telegram:98x"), None);
        assert_eq!(parse_target("agent:main:subagent:7f3a"), None);
        assert_eq!(parse_target("agent:main:main"), None);
    }

    #[test]
    fn the_fallback_target_is_used_when_the_session_names_no_chat() {
        let mut notice = Notice {
            hook: "h".into(),
            point: crate::point::Point::TurnPre,
            session_key: "agent:main:subagent:1".into(),
            fallback_target: Some("telegram:group:-100999:topic:7".into()),
            message: "m".into(),
            channels: None,
        };
        assert_eq!(target(&notice), t("-100999", Some(7)));
        notice.fallback_target = Some("-100555".into());
        assert_eq!(target(&notice), t("-100555", None));
        notice.fallback_target = None;
        assert_eq!(target(&notice), None);
    }
}

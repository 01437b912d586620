//! Telegram delivery: `sendMessage` on the Bot API, to the chat a session key names.

use serde::Serialize;

use super::{Notice, TelegramTarget, parse_target};
use crate::config::TelegramSettings;

/// The Bot API, unless `baseUrl` says otherwise.
pub(super) const DEFAULT_BASE_URL: &str = "https://api.telegram.org";
/// The variable holding the bot token, unless `tokenEnv` says otherwise.
pub(super) const DEFAULT_TOKEN_ENV: &str = "TELEGRAM_BOT_TOKEN";

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
    use crate::notify::target::chat;

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
        assert_eq!(target(&notice), chat("-100999", Some(7)));
        notice.fallback_target = Some("-100555".into());
        assert_eq!(target(&notice), chat("-100555", None));
        notice.fallback_target = None;
        assert_eq!(target(&notice), None);
    }
}

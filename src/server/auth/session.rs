//! The console's login: a one-time link that `hookgate serve` prints to its own terminal, and
//! the sessions it opens.
//!
//! This is how a person approves without an approver token: the link's code goes only to the
//! daemon's terminal (never to a log, never over the API), is good for one use, and is
//! replaced by a new one as soon as it is used. A session is a random cookie
//! (`HttpOnly`, `SameSite=Strict`), so a page on another site can neither read it nor make the
//! browser send it. Only digests of codes and sessions are kept.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The session cookie's name.
pub(crate) const COOKIE: &str = "hookgate_session";
/// How long a console session lasts.
pub(crate) const LIFETIME: Duration = Duration::from_secs(12 * 60 * 60);
/// Most sessions open at once; a new login past it ends the oldest.
const MAX_SESSIONS: usize = 16;

/// Receives each new one-time login code, to show it to the operator (`hookgate serve`
/// prints `http://<listen>/login?code=<code>` on its standard error).
#[derive(Clone)]
pub(crate) struct LoginAnnouncer(Arc<dyn Fn(&str) + Send + Sync>);

impl LoginAnnouncer {
    /// An announcer that calls `show` with each code.
    pub(crate) fn new(show: impl Fn(&str) + Send + Sync + 'static) -> LoginAnnouncer {
        LoginAnnouncer(Arc::new(show))
    }
}

impl std::fmt::Debug for LoginAnnouncer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LoginAnnouncer(..)")
    }
}

type Digest32 = [u8; 32];

#[derive(Default)]
struct State {
    code: Option<Digest32>,
    /// Open sessions and when each ends, oldest first.
    sessions: Vec<(Digest32, Instant)>,
}

/// The login code in force and the open sessions.
pub(crate) struct Sessions {
    state: Mutex<State>,
    announcer: Option<LoginAnnouncer>,
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sessions(..)")
    }
}

impl Sessions {
    /// Sessions whose login codes go to `announcer`; without one, no console login exists.
    pub(crate) fn new(announcer: Option<LoginAnnouncer>) -> Sessions {
        Sessions {
            state: Mutex::new(State::default()),
            announcer,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes a new one-time code (the previous one stops working) and announces it.
    pub(crate) fn issue_code(&self) {
        let Some(announcer) = &self.announcer else {
            return;
        };
        let Some(code) = secret() else {
            tracing::error!("no randomness from the OS: the console login link is not issued");
            return;
        };
        self.state().code = Some(digest(&code));
        (announcer.0)(&code);
    }

    /// Uses `code`: when it is the code in force, opens a session and returns its secret (for
    /// the cookie), and announces a new code.
    pub(crate) fn login(&self, code: &str) -> Option<String> {
        let session = {
            let mut state = self.state();
            let current = state.code?;
            if !bool::from(digest(code).ct_eq(&current)) {
                return None;
            }
            state.code = None;
            let session = secret()?;
            let now = Instant::now();
            state.sessions.retain(|(_, end)| *end > now);
            if state.sessions.len() >= MAX_SESSIONS {
                state.sessions.remove(0);
            }
            state.sessions.push((digest(&session), now + LIFETIME));
            session
        };
        self.issue_code();
        Some(session)
    }

    /// Whether `session` is open.
    pub(crate) fn valid(&self, session: &str) -> bool {
        let presented = digest(session);
        let now = Instant::now();
        // Every entry is compared, so the time taken does not say which one matched.
        self.state().sessions.iter().fold(false, |found, (d, end)| {
            found | (bool::from(d.ct_eq(&presented)) & (*end > now))
        })
    }

    /// Ends `session`.
    pub(crate) fn logout(&self, session: &str) {
        let presented = digest(session);
        self.state()
            .sessions
            .retain(|(d, _)| !bool::from(d.ct_eq(&presented)));
    }
}

/// 256 random bits from the OS, as 64 hex digits.
fn secret() -> Option<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn digest(text: &str) -> Digest32 {
    Sha256::digest(text.as_bytes()).into()
}

/// The value of the session cookie in a `Cookie` header, if any.
pub(crate) fn cookie(header: &str) -> Option<&str> {
    header.split(';').find_map(|pair| {
        let (name, value) = pair.trim().split_once('=')?;
        (name == COOKIE)
            .then_some(value.trim())
            .filter(|v| !v.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn announced() -> (Sessions, Arc<Mutex<Vec<String>>>) {
        let codes = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&codes);
        let sessions = Sessions::new(Some(LoginAnnouncer::new(move |code| {
            sink.lock().unwrap().push(code.to_owned());
        })));
        sessions.issue_code();
        (sessions, codes)
    }

    #[test]
    fn a_code_opens_one_session_and_is_replaced() {
        let (sessions, codes) = announced();
        let first = codes.lock().unwrap()[0].clone();
        assert_eq!(first.len(), 64);
        assert_eq!(sessions.login("wrong"), None);
        let session = sessions.login(&first).expect("the announced code logs in");
        assert!(sessions.valid(&session));
        assert!(!sessions.valid("other"));
        assert_eq!(sessions.login(&first), None, "a code is good once");
        let second = codes.lock().unwrap()[1].clone();
        assert_ne!(first, second);
        assert!(sessions.login(&second).is_some());
        sessions.logout(&session);
        assert!(!sessions.valid(&session));
    }

    #[test]
    fn sessions_are_bounded() {
        let (sessions, codes) = announced();
        let mut opened = Vec::new();
        for i in 0..=MAX_SESSIONS {
            let code = codes.lock().unwrap()[i].clone();
            opened.push(sessions.login(&code).unwrap());
        }
        assert!(!sessions.valid(&opened[0]), "the oldest session ended");
        assert!(opened[1..].iter().all(|s| sessions.valid(s)));
    }

    #[test]
    fn without_an_announcer_nobody_logs_in() {
        let sessions = Sessions::new(None);
        sessions.issue_code();
        assert_eq!(sessions.login(""), None);
    }

    #[test]
    fn finds_the_session_cookie() {
        assert_eq!(cookie("a=1; hookgate_session=abc; b=2"), Some("abc"));
        assert_eq!(cookie("hookgate_session="), None);
        assert_eq!(cookie("xhookgate_session=abc"), None);
    }
}

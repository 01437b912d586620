//! Grants: the standing permissions a decision leaves behind (always, for the session,
//! once), compiled to globs and looked up before a call is asked about.

use globset::{GlobBuilder, GlobMatcher};

use super::{Approvals, Change, DecideError, Grant, GrantMatch, Inner, StoreError};

impl Approvals {
    /// The grant that lets this call through without asking, if any. A one-time approval is
    /// used up by the call it lets through. It answers once the grant, and its use, are
    /// stored.
    pub async fn use_grant(
        &self,
        session_key: &str,
        tool: Option<&str>,
        subject: &str,
    ) -> Result<Option<GrantMatch>, StoreError> {
        if self.unavailable.is_some() {
            return Ok(None);
        }
        self.writable()?;
        let (found, upto) = {
            let mut inner = self.lock();
            let found = self.find_grant(&mut inner, session_key, tool.unwrap_or(""), subject);
            (found, inner.submitted)
        };
        self.stored(upto).await?;
        Ok(found)
    }

    fn find_grant(
        &self,
        inner: &mut Inner,
        session_key: &str,
        tool: &str,
        subject: &str,
    ) -> Option<GrantMatch> {
        for (id, grant_tool, glob) in &inner.always {
            if grant_tool == tool && glob.is_match(subject) {
                let pattern = inner
                    .state
                    .grants
                    .iter()
                    .find_map(|g| match g {
                        Grant::Always {
                            id: gid, pattern, ..
                        } if gid == id => Some(pattern.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                return Some(GrantMatch {
                    description: format!("always grant `{pattern}`"),
                });
            }
        }
        let found = inner.state.grants.iter().find(|g| match g {
            Grant::Session {
                session_key: s,
                tool: t,
                subject: sub,
                ..
            }
            | Grant::Once {
                session_key: s,
                tool: t,
                subject: sub,
                ..
            } => s == session_key && t == tool && sub == subject,
            Grant::Always { .. } => false,
        })?;
        match found {
            Grant::Once { id, by, .. } => {
                let description = format!("one-time approval by {by}");
                let grant_id = id.clone();
                self.record(inner, Change::GrantUsed { grant_id });
                Some(GrantMatch { description })
            }
            Grant::Session { by, .. } => Some(GrantMatch {
                description: format!("session grant by {by}"),
            }),
            Grant::Always { .. } => None,
        }
    }

    /// Removes a grant, once stored; false when there is none with this id.
    pub async fn revoke(&self, grant_id: &str) -> Result<bool, StoreError> {
        let upto = {
            let mut inner = self.lock();
            if !inner.state.grants.iter().any(|g| g.id() == grant_id) {
                return Ok(false);
            }
            self.writable()?;
            self.record(
                &mut inner,
                Change::Revoked {
                    grant_id: grant_id.to_owned(),
                },
            );
            inner.always.retain(|(id, _, _)| id != grant_id);
            inner.submitted
        };
        self.stored(upto).await?;
        Ok(true)
    }
}

impl Inner {
    /// Recompiles the always-grants (patterns were validated when granted; a pattern that
    /// no longer compiles is skipped with a warning, never matched loosely).
    pub(super) fn compile(&mut self) {
        self.always = self
            .state
            .grants
            .iter()
            .filter_map(|g| match g {
                Grant::Always { id, tool, glob, .. } => match compile_glob(glob) {
                    Ok(matcher) => Some((id.clone(), tool.clone(), matcher)),
                    Err(e) => {
                        tracing::warn!(grant = %id, error = %e, "skipping an always-grant that does not compile");
                        None
                    }
                },
                _ => None,
            })
            .collect();
    }
}

/// `tool:glob` → the tool and the glob. The request's own tool is recognised even when its
/// name contains `:` (`github:create_issue:*`); any other tool ends at the first `:`.
pub(super) fn split_pattern(
    pattern: &str,
    request_tool: &str,
) -> Result<(String, String), DecideError> {
    if let Some(glob) = pattern
        .strip_prefix(request_tool)
        .and_then(|rest| rest.strip_prefix(':'))
        .filter(|_| !request_tool.is_empty())
    {
        return Ok((request_tool.to_owned(), glob.to_owned()));
    }
    pattern
        .split_once(':')
        .map(|(tool, glob)| (tool.to_owned(), glob.to_owned()))
        .ok_or_else(|| DecideError::BadPattern {
            pattern: pattern.to_owned(),
            reason: "expected `tool:glob`, e.g. `exec:ls *`".to_owned(),
        })
}

/// The glob on the subject (`*` also matches `/`: subjects are commands and paths alike).
pub(super) fn compile_glob(glob: &str) -> Result<GlobMatcher, String> {
    GlobBuilder::new(glob)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| e.to_string())
}

/// `subject` as a glob that matches exactly it.
pub(super) fn glob_literal(subject: &str) -> String {
    let mut out = String::with_capacity(subject.len());
    for c in subject.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

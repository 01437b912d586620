//! Roles: what each credential may do, and what each route needs.
//!
//! The gated agent's gateway holds the *evaluate* token; people who decide approvals hold the
//! *approve* token; whoever runs the gate holds the *admin* token. None of them implies the
//! gateway's: the agent, which can read what its gateway can, must never be able to approve
//! its own request or switch a hook off.

use super::token::BearerToken;

/// A class of routes, by what they let a caller do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Ask for decisions: `/v1/evaluate` and the gateway adapters.
    Evaluate,
    /// Read state: status, metrics, recent decisions, pending approvals, grants, history.
    Read,
    /// Decide approval requests and revoke grants.
    Approve,
    /// Reload the policy, switch hooks on and off.
    Admin,
}

impl Access {
    const fn bit(self) -> u8 {
        match self {
            Access::Evaluate => 1,
            Access::Read => 2,
            Access::Approve => 4,
            Access::Admin => 8,
        }
    }

    /// The role that grants this access, as the operator names it.
    pub(crate) const fn role(self) -> &'static str {
        match self {
            Access::Evaluate => "evaluate",
            Access::Read => "read",
            Access::Approve => "approve",
            Access::Admin => "admin",
        }
    }
}

/// A set of [`Access`] classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Grants(u8);

impl Grants {
    /// What the evaluate token (and, with no evaluate token, a local request) may do.
    pub(crate) const GATEWAY: Grants = Grants(Access::Evaluate.bit() | Access::Read.bit());
    /// What the approve token may do.
    pub(crate) const APPROVER: Grants = Grants(Access::Approve.bit() | Access::Read.bit());
    /// What a console session (opened with the one-time login link) may do.
    pub(crate) const CONSOLE: Grants =
        Grants(Access::Approve.bit() | Access::Admin.bit() | Access::Read.bit());
    /// What the admin token may do: everything.
    pub(crate) const ADMIN: Grants = Grants(
        Access::Evaluate.bit() | Access::Read.bit() | Access::Approve.bit() | Access::Admin.bit(),
    );

    pub(crate) fn allows(self, access: Access) -> bool {
        self.0 & access.bit() != 0
    }

    pub(crate) fn with(self, other: Grants) -> Grants {
        Grants(self.0 | other.0)
    }
}

/// The daemon's tokens, one per role; a role without a token is reached otherwise (see
/// [`Tokens::grants_of`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Tokens {
    /// The gateway's: evaluate, and read state.
    pub evaluate: Option<BearerToken>,
    /// People's: decide approvals and revoke grants, and read state.
    pub approve: Option<BearerToken>,
    /// The operator's: everything.
    pub admin: Option<BearerToken>,
}

/// Why a set of tokens was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("the {first} and {second} tokens are the same; each role needs its own")]
pub(crate) struct SharedToken {
    first: &'static str,
    second: &'static str,
}

impl Tokens {
    /// Checks that no two roles share a token: a shared token would hand the gateway (and so
    /// the agent) the approver's or the admin's power.
    pub(crate) fn check(&self) -> Result<(), SharedToken> {
        let named = self.named();
        for (i, (first, a)) in named.iter().enumerate() {
            for (second, b) in &named[i + 1..] {
                if let (Some(a), Some(b)) = (a, b)
                    && a.same_as(b)
                {
                    return Err(SharedToken { first, second });
                }
            }
        }
        Ok(())
    }

    /// Whether any role has a token.
    pub(crate) fn any(&self) -> bool {
        self.named().iter().any(|(_, t)| t.is_some())
    }

    /// The grants of a presented bearer token; `None` when it is no role's token. Every
    /// token is compared, so the time taken does not say which role matched.
    pub(crate) fn grants_of(&self, presented: &str) -> Option<Grants> {
        let mut grants = None;
        for (token, role) in [
            (&self.evaluate, Grants::GATEWAY),
            (&self.approve, Grants::APPROVER),
            (&self.admin, Grants::ADMIN),
        ] {
            if token.as_ref().is_some_and(|t| t.verify(presented)) {
                grants = Some(role);
            }
        }
        grants
    }

    fn named(&self) -> [(&'static str, &Option<BearerToken>); 3] {
        [
            ("evaluate", &self.evaluate),
            ("approve", &self.approve),
            ("admin", &self.admin),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(s: &str) -> Option<BearerToken> {
        Some(BearerToken::new(s).unwrap())
    }

    #[test]
    fn each_token_grants_its_role_only() {
        let tokens = Tokens {
            evaluate: token("e"),
            approve: token("p"),
            admin: token("a"),
        };
        let gateway = tokens.grants_of("e").unwrap();
        assert!(gateway.allows(Access::Evaluate) && gateway.allows(Access::Read));
        assert!(!gateway.allows(Access::Approve) && !gateway.allows(Access::Admin));
        let approver = tokens.grants_of("p").unwrap();
        assert!(approver.allows(Access::Approve) && !approver.allows(Access::Admin));
        assert!(!approver.allows(Access::Evaluate));
        let admin = tokens.grants_of("a").unwrap();
        for access in [
            Access::Evaluate,
            Access::Read,
            Access::Approve,
            Access::Admin,
        ] {
            assert!(admin.allows(access));
        }
        assert_eq!(tokens.grants_of("x"), None);
        assert!(!Grants::CONSOLE.allows(Access::Evaluate));
    }

    #[test]
    fn roles_may_not_share_a_token() {
        let shared = Tokens {
            evaluate: token("same"),
            approve: None,
            admin: token("same"),
        };
        assert_eq!(
            shared.check().unwrap_err().to_string(),
            "the evaluate and admin tokens are the same; each role needs its own"
        );
        assert!(Tokens::default().check().is_ok());
        assert!(!Tokens::default().any());
    }
}

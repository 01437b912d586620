//! A role's bearer token.
//!
//! Only the token's SHA-256 digest is kept, and the presented token is hashed and compared with
//! it in constant time: neither the content nor the length of the token leaks through timing.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The most a token file may hold, in bytes: a token is a line of printable ASCII, and a
/// token file is read only if it is a regular file no larger than this (see
/// [`regular_file`](crate::regular_file)).
pub(crate) const MAX_TOKEN_FILE_BYTES: u64 = 4096;

/// The daemon's shared secret.
#[derive(Clone)]
pub(crate) struct BearerToken {
    digest: [u8; 32],
}

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(..)")
    }
}

/// Why a token was refused at start-up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum TokenError {
    /// Empty, or only whitespace.
    #[error("the token is empty")]
    Empty,
    /// Holds characters an HTTP header cannot carry.
    #[error("the token must be printable ASCII without spaces")]
    NotPrintable,
}

impl BearerToken {
    /// A token from its text; surrounding whitespace (a file's trailing newline) is ignored.
    pub(crate) fn new(secret: &str) -> Result<BearerToken, TokenError> {
        let secret = secret.trim();
        if secret.is_empty() {
            return Err(TokenError::Empty);
        }
        if !secret.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(TokenError::NotPrintable);
        }
        Ok(BearerToken {
            digest: Sha256::digest(secret.as_bytes()).into(),
        })
    }

    /// Whether `presented` is the token.
    pub(crate) fn verify(&self, presented: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        digest.ct_eq(&self.digest).into()
    }

    /// Whether two tokens are the same secret (two roles must never share one).
    pub(crate) fn same_as(&self, other: &BearerToken) -> bool {
        self.digest.ct_eq(&other.digest).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verifies_only_the_exact_token() {
        let token = BearerToken::new("s3cret-token\n").unwrap();
        assert!(token.verify("s3cret-token"));
        assert!(!token.verify("s3cret-toke"));
        assert!(!token.verify("s3cret-token2"));
        assert!(!token.verify(""));
        assert!(token.same_as(&BearerToken::new("s3cret-token").unwrap()));
        assert!(!token.same_as(&BearerToken::new("other").unwrap()));
    }

    #[test]
    fn refuses_empty_and_unprintable_tokens() {
        assert_eq!(BearerToken::new(" \n").unwrap_err(), TokenError::Empty);
        assert_eq!(
            BearerToken::new("a b").unwrap_err(),
            TokenError::NotPrintable
        );
        assert_eq!(BearerToken::new("é").unwrap_err(), TokenError::NotPrintable);
    }
}

//! Random ids and secrets: run ids (short links), tokens and session cookies. A secret is a
//! type that does not print ([`Secret`]); the store keeps only its SHA-256 ([`digest`]).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

/// Random bytes of a run id: 128 bits (a short link must not be guessable; the issue asks for
/// at least 96).
pub const RUN_ID_BYTES: usize = 16;
/// Characters of a run id: base64url of [`RUN_ID_BYTES`], no padding.
pub const RUN_ID_CHARS: usize = 22;
/// Random bytes of a token or a session cookie: 256 bits.
pub const SECRET_BYTES: usize = 32;
/// What every token starts with, so a leaked one is recognised by secret scanners.
pub const TOKEN_PREFIX: &str = "figeval_";

/// `n` bytes from the operating system's generator, as base64url without padding.
fn random_text(n: usize) -> Result<String, String> {
    let mut bytes = vec![0u8; n];
    getrandom::getrandom(&mut bytes)
        .map_err(|e| format!("the operating system gave no random bytes: {e}"))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// A new run id: 22 characters of base64url, 128 random bits.
pub fn new_run_id() -> Result<String, String> {
    random_text(RUN_ID_BYTES)
}

/// Whether `text` has the form of a run id (the short links accept nothing else).
pub fn is_run_id(text: &str) -> bool {
    text.len() == RUN_ID_CHARS
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A token or a session cookie's value. No `Display`, and `Debug` shows no value: it is
/// printed once, by `figeval serve token create` through [`Secret::expose`], and never logged.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

impl Secret {
    /// A new token: [`TOKEN_PREFIX`] and 256 random bits.
    pub fn new_token() -> Result<Secret, String> {
        Ok(Secret(format!(
            "{TOKEN_PREFIX}{}",
            random_text(SECRET_BYTES)?
        )))
    }

    /// A new session cookie value: 256 random bits.
    pub fn new_session() -> Result<Secret, String> {
        random_text(SECRET_BYTES).map(Secret)
    }

    /// A secret received from a client.
    pub fn from_client(text: &str) -> Secret {
        Secret(text.to_string())
    }

    /// The value itself, to hand to the one who asked for it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the store keeps of it: the SHA-256, hex. Tokens and cookies are 256 random bits,
    /// so a fast hash is enough: nothing to guess from it.
    pub fn digest(&self) -> String {
        digest(&self.0)
    }
}

/// The SHA-256 of `text`, as 64 lowercase hex digits.
pub fn digest(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_ids_are_22_url_safe_characters_and_differ() {
        let a = new_run_id().unwrap();
        let b = new_run_id().unwrap();
        assert!(is_run_id(&a) && is_run_id(&b), "{a} {b}");
        assert_ne!(a, b);
        assert!(!is_run_id("../../etc/passwd"));
        assert!(!is_run_id("short"));
    }

    #[test]
    fn a_secret_does_not_debug_print_its_value() {
        let t = Secret::new_token().unwrap();
        assert!(t.expose().starts_with(TOKEN_PREFIX));
        assert_eq!(t.expose().len(), TOKEN_PREFIX.len() + 43);
        assert!(!format!("{t:?}").contains(t.expose()));
        assert_eq!(t.digest().len(), 64);
    }
}

//! The deployment settings of a live run, as the form holds them (text, so a half-typed value
//! survives a re-render and a reload) and as a validated [`RunConfig`].

use figeval::live::{self, DEFAULT_BASE_URL};
use figeval::CacheMode;
use serde::{Deserialize, Serialize};

/// The settings form, remembered across visits (localStorage).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The deployment's API base (`…/api`); `/search` is appended.
    pub base_url: String,
    /// How many matches to ask for.
    pub top_k: String,
    /// `default`, `bypass` or `refresh`.
    pub cache_mode: String,
    /// Per-request timeout in seconds.
    pub timeout_s: String,
    /// How many searches may be in flight at once.
    pub concurrency: String,
    /// How many times a 429/502/503/504 or a connection error is retried.
    pub retries: String,
    /// The widest span, in pages, that still counts as a precise hit.
    pub max_precise_span: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            base_url: DEFAULT_BASE_URL.into(),
            top_k: live::DEFAULT_TOP_K.to_string(),
            cache_mode: CacheMode::default().name().into(),
            timeout_s: live::DEFAULT_TIMEOUT_S.to_string(),
            concurrency: live::DEFAULT_CONCURRENCY.to_string(),
            retries: live::DEFAULT_RETRIES.to_string(),
            max_precise_span: figeval::ScoreConfig::default()
                .max_precise_span_pages
                .to_string(),
        }
    }
}

/// Validated settings, ready for a run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    /// The base URL without a trailing `/`.
    pub base_url: String,
    /// ≥ 5.
    pub top_k: u32,
    /// The cache mode sent.
    pub cache_mode: CacheMode,
    /// Per-request timeout in milliseconds.
    pub timeout_ms: u32,
    /// In [`live::CONCURRENCY`].
    pub concurrency: usize,
    /// In [`live::RETRIES`].
    pub retries: u32,
    /// ≥ 1.
    pub max_precise_span_pages: u32,
}

impl RunConfig {
    /// Whether a capture collected with `self` may be completed with `other`: the search
    /// parameters that decide the responses must agree.
    pub fn same_search(&self, other: &RunConfig) -> bool {
        self.base_url == other.base_url
            && self.top_k == other.top_k
            && self.cache_mode == other.cache_mode
            && self.max_precise_span_pages == other.max_precise_span_pages
    }
}

/// One problem with a settings field: which field, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsError {
    /// The field's name in [`Settings`].
    pub field: &'static str,
    /// What was expected.
    pub message: String,
}

fn int_in(text: &str, lo: u64, hi: u64) -> Option<u64> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
}

impl Settings {
    /// The spread of a `max precise span` setting alone (offline scoring needs only this).
    pub fn max_precise_span_pages(&self) -> Result<u32, SettingsError> {
        int_in(&self.max_precise_span, 1, u64::from(u32::MAX))
            .map(|n| n as u32)
            .ok_or(SettingsError {
                field: "max_precise_span",
                message: "max precise span must be a whole number of pages, at least 1".into(),
            })
    }

    /// Validates every field; all problems are returned, not just the first.
    pub fn validate(&self) -> Result<RunConfig, Vec<SettingsError>> {
        let mut errors = Vec::new();
        // One `to_string` for every message, through `dyn Display`: a call per error type
        // would compile one copy per type into the page's bundle.
        let mut err = |field: &'static str, message: &dyn std::fmt::Display| {
            errors.push(SettingsError {
                field,
                message: message.to_string(),
            })
        };
        let base = match live::check_base_url(&self.base_url) {
            Ok(b) => b,
            Err(e) => {
                err("base_url", &e);
                String::new()
            }
        };
        let top_k = match self.top_k.trim().parse::<u32>() {
            Ok(n) => match figeval::check_top_k(n) {
                Ok(()) => Some(n),
                Err(e) => {
                    err("top_k", &e);
                    None
                }
            },
            _ => {
                err("top_k", &"top_k must be a whole number, at least 5");
                None
            }
        };
        let cache_mode = match self.cache_mode.parse::<CacheMode>() {
            Ok(m) => Some(m),
            Err(e) => {
                err("cache_mode", &e);
                None
            }
        };
        let timeout_ms = match figeval::decimal::parse(self.timeout_s.trim()) {
            Ok(s) => match live::check_timeout(s) {
                Ok(s) => Some((s * 1000.0).round() as u32),
                Err(e) => {
                    err("timeout_s", &e);
                    None
                }
            },
            Err(_) => {
                err("timeout_s", &"the timeout must be a number of seconds");
                None
            }
        };
        let concurrency = live::check_in("concurrency", &self.concurrency, &live::CONCURRENCY)
            .map_err(|e| err("concurrency", &e))
            .ok()
            .map(|n| n as usize);
        let retries = live::check_in("retries", &self.retries, &live::RETRIES)
            .map_err(|e| err("retries", &e))
            .ok();
        let span = self.max_precise_span_pages();
        if let Err(e) = &span {
            err(e.field, &e.message);
        }
        match (top_k, cache_mode, timeout_ms, concurrency, retries, span) {
            (
                Some(top_k),
                Some(cache_mode),
                Some(timeout_ms),
                Some(concurrency),
                Some(retries),
                Ok(span),
            ) if errors.is_empty() => Ok(RunConfig {
                base_url: base,
                top_k,
                cache_mode,
                timeout_ms,
                concurrency,
                retries,
                max_precise_span_pages: span,
            }),
            _ => Err(errors),
        }
    }

    /// Reads remembered settings; anything unreadable falls back to the defaults.
    pub fn from_stored(text: Option<&str>) -> Settings {
        text.and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default()
    }

    /// The settings as stored.
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).expect("settings always serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(f: impl FnOnce(&mut Settings)) -> Settings {
        let mut s = Settings::default();
        f(&mut s);
        s
    }

    #[test]
    fn the_defaults_are_the_spec_defaults_and_valid() {
        let c = Settings::default().validate().unwrap();
        assert_eq!(c.base_url, DEFAULT_BASE_URL);
        assert_eq!(c.top_k, 5);
        assert_eq!(c.cache_mode, CacheMode::Bypass);
        assert_eq!(c.timeout_ms, 120_000);
        assert_eq!(c.concurrency, 4);
        assert_eq!(c.retries, 2);
        assert_eq!(c.max_precise_span_pages, 3);
    }

    #[test]
    fn a_trailing_slash_on_the_base_url_is_ignored() {
        let c = with(|s| s.base_url = "http://h:1/api/ ".into())
            .validate()
            .unwrap();
        assert_eq!(c.base_url, "http://h:1/api");
    }

    #[test]
    fn top_k_below_five_is_refused_with_the_reason() {
        let errs = with(|s| s.top_k = "3".into()).validate().unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "top_k");
        assert!(errs[0].message.contains("page_hit_at_5 reads rank 5"));
    }

    #[test]
    fn every_bad_field_is_reported_at_once() {
        let errs = with(|s| {
            s.base_url = "ftp://x".into();
            s.top_k = "five".into();
            s.timeout_s = "0".into();
            s.concurrency = "0".into();
            s.retries = "-1".into();
            s.cache_mode = "sometimes".into();
        })
        .validate()
        .unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "base_url",
                "top_k",
                "cache_mode",
                "timeout_s",
                "concurrency",
                "retries"
            ]
        );
    }

    #[test]
    fn a_fractional_timeout_is_kept_in_milliseconds() {
        let c = with(|s| s.timeout_s = "0.25".into()).validate().unwrap();
        assert_eq!(c.timeout_ms, 250);
    }

    #[test]
    fn stored_settings_round_trip_and_garbage_falls_back_to_defaults() {
        let s = with(|s| s.top_k = "10".into());
        assert_eq!(Settings::from_stored(Some(&s.to_stored())), s);
        assert_eq!(
            Settings::from_stored(Some("{not json")),
            Settings::default()
        );
        assert_eq!(Settings::from_stored(None), Settings::default());
        // A stored object from an older version keeps what it has and defaults the rest.
        let partial = Settings::from_stored(Some(r#"{"top_k":"7"}"#));
        assert_eq!(partial.top_k, "7");
        assert_eq!(partial.base_url, DEFAULT_BASE_URL);
    }

    #[test]
    fn a_resume_needs_the_same_search_parameters() {
        let a = Settings::default().validate().unwrap();
        let more_workers = with(|s| s.concurrency = "8".into()).validate().unwrap();
        let other_k = with(|s| s.top_k = "10".into()).validate().unwrap();
        assert!(a.same_search(&more_workers));
        assert!(!a.same_search(&other_k));
    }
}

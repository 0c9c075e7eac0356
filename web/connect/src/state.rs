//! What the connector dialog decides, without the browser: the mapping as typed and its
//! problems, the secrets it needs, and what one of the app's searches asks (the app hands over
//! its own `/search` URL and body, contract §14.9). Pure, so it has native unit tests.

use std::cell::RefCell;

use figeval::{CacheMode, Connector};
use serde_json::Value;

/// The connector file of a preset, as the dialog shows it for editing.
pub fn preset_text(name: &str) -> String {
    let c = Connector::preset(name).unwrap_or_else(Connector::ragweld);
    serde_json::to_string_pretty(&c.to_value()).unwrap_or_default()
}

/// The connector a typed mapping is, or every problem with it (`where: what`, as the command
/// line lists them). A file whose text is a preset's reads as that preset, so a capture
/// records it by name.
pub fn check(text: &str) -> Result<Connector, Vec<String>> {
    let c = Connector::parse(text)
        .map_err(|e| e.0.iter().map(|e| e.to_string()).collect::<Vec<_>>())?;
    if let Some(p) = Connector::preset(&c.name) {
        if p.to_value() == c.to_value() {
            return Ok(p);
        }
    }
    Ok(c)
}

/// The names of the `{{env.NAME}}` values the connector's headers send, in order, each once.
pub fn secret_names(c: &Connector) -> Vec<String> {
    let names = RefCell::new(Vec::<String>::new());
    let _ = c.secrets(|name| {
        let mut n = names.borrow_mut();
        if !n.iter().any(|x| x == name) {
            n.push(name.to_string());
        }
        Some("x".to_string())
    });
    names.into_inner()
}

/// What one search of the app asks: the question, the corpus, `top_k` and the cache mode, read
/// from the body the app would send to `/search` (`{"query", "repo_id", "top_k",
/// "cache_mode"}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// The deployment's base URL: the app's search URL without its `/search`.
    pub base_url: String,
    /// The question.
    pub question: String,
    /// The dataset's corpus.
    pub corpus_id: String,
    /// How many hits to ask for.
    pub top_k: u32,
    /// The cache mode.
    pub cache_mode: CacheMode,
}

impl Asked {
    /// Reads what the app asks from its search URL and body; `None` when they are not the
    /// app's.
    pub fn of_search(url: &str, body: &str) -> Option<Asked> {
        let v: Value = serde_json::from_str(body).ok()?;
        Some(Asked {
            base_url: url.strip_suffix("/search")?.to_string(),
            question: v["query"].as_str()?.to_string(),
            corpus_id: v["repo_id"].as_str().unwrap_or_default().to_string(),
            top_k: u32::try_from(v["top_k"].as_u64()?).ok()?,
            cache_mode: v["cache_mode"].as_str()?.parse().ok()?,
        })
    }

    /// The core's view of it, for the connector's templates.
    pub fn as_core(&self) -> figeval::connector::Asked<'_> {
        figeval::connector::Asked {
            base_url: self.base_url.trim_end_matches('/'),
            question: &self.question,
            corpus_id: &self.corpus_id,
            top_k: self.top_k,
            cache_mode: self.cache_mode,
        }
    }
}

/// Why a connector cannot be used yet: a secret left empty (named, with the header that needs
/// it).
pub fn missing_secret(names: &[String], value_of: impl Fn(&str) -> String) -> Option<String> {
    names
        .iter()
        .find(|n| value_of(n).is_empty())
        .map(|n| format!("give the value of {n}: a header of this connector sends it"))
}

/// What the page says when a deployment answers, but not to this page (CORS): the headers the
/// deployment must send, and what to do instead (the core's words, [`figeval::live::cors_words`]).
pub fn cors_message(url: &str, origin: &str, headers: &[(String, String)]) -> String {
    let names: Vec<&str> = headers.iter().map(|(n, _)| n.as_str()).collect();
    figeval::live::cors_words(url, origin, &names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_shown_and_read_back_is_that_preset() {
        for name in Connector::preset_names() {
            let c = check(&preset_text(name)).unwrap();
            assert!(c.is_preset(), "{name}");
            assert_eq!(c.name, name);
        }
        let mut edited: Value = serde_json::from_str(&preset_text("langserve")).unwrap();
        edited["response"]["numbering"] = "1".into();
        let c = check(&edited.to_string()).unwrap();
        assert!(!c.is_preset(), "an edited preset is recorded whole");
    }

    #[test]
    fn every_problem_of_a_typed_mapping_is_listed_with_where() {
        let e = check(r#"{"name": "x", "request": {"url": "{{nope}}/q"}, "response": {}}"#)
            .unwrap_err();
        assert!(e.len() >= 3, "{e:?}");
        assert!(e.iter().any(|l| l.starts_with("request.body")), "{e:?}");
        assert!(e.iter().any(|l| l.starts_with("response.hits")), "{e:?}");
        assert!(e.iter().any(|l| l.contains("nope")), "{e:?}");
        let syntax = check("{").unwrap_err();
        assert!(syntax[0].starts_with("line 1"), "{syntax:?}");
    }

    #[test]
    fn the_secrets_a_connector_needs_are_named_once() {
        let mut v: Value = serde_json::from_str(&preset_text("langserve")).unwrap();
        v["request"]["headers"] = serde_json::json!({
            "Authorization": "Bearer {{env.TOKEN}}", "X-Key": "{{env.KEY}}", "X-Again": "{{env.TOKEN}}"});
        let c = check(&v.to_string()).unwrap();
        let names = secret_names(&c);
        assert_eq!(names, ["TOKEN", "KEY"]);
        let given = |n: &str| {
            if n == "TOKEN" {
                "t".into()
            } else {
                String::new()
            }
        };
        assert_eq!(
            missing_secret(&names, given).as_deref(),
            Some("give the value of KEY: a header of this connector sends it")
        );
        assert!(secret_names(&Connector::preset("langserve").unwrap()).is_empty());
    }

    #[test]
    fn what_the_app_asks_is_read_from_its_search_url_and_body() {
        let a = Asked::of_search(
            "http://127.0.0.1:9/octave/search",
            r#"{"query":"Which figure?","repo_id":"octave-manual","top_k":5,"cache_mode":"bypass"}"#,
        )
        .unwrap();
        assert_eq!(a.base_url, "http://127.0.0.1:9/octave");
        assert_eq!((a.question.as_str(), a.top_k), ("Which figure?", 5));
        let c = Connector::preset("langserve").unwrap();
        assert_eq!(c.url(&a.as_core()), "http://127.0.0.1:9/octave/invoke");
        assert_eq!(
            c.body(&a.as_core()).unwrap(),
            r#"{"input":"Which figure?"}"#
        );
        assert_eq!(Asked::of_search("http://h/other", "{}"), None);
    }

    #[test]
    fn the_cors_message_names_the_headers_the_deployment_must_send() {
        let m = cors_message("http://h/invoke", "http://127.0.0.1:8080", &[]);
        assert!(
            m.contains("Access-Control-Allow-Origin: http://127.0.0.1:8080"),
            "{m}"
        );
        let m = cors_message(
            "http://h/invoke",
            "http://p",
            &[("Authorization".into(), "secret".into())],
        );
        assert!(m.contains("Content-Type, Authorization"), "{m}");
        assert!(!m.contains("secret"), "{m}");
    }
}

//! A connector file (contract §14) on arbitrary input: `Connector::parse` never panics. An
//! `Err` lists at least one problem, each saying where and what. An `Ok` connector writes
//! itself out and reads back the same (`to_value`, through its text too), states its record
//! (a preset's name, or the connector with every header value redacted), compiles into a
//! reader unless it reads labels (which a reader refuses without the PDF's, saying so), and
//! fills in its URL and body for a question without panicking. Every preset passes the same.
#![no_main]

use figeval::connector::{Asked, Numbering, Reader};
use figeval::{CacheMode, Connector};
use libfuzzer_sys::fuzz_target;

fn check(c: &Connector) {
    let written = c.to_value();
    let back = Connector::from_value(&written)
        .unwrap_or_else(|e| panic!("a connector's own value does not read back: {e}\n{written}"));
    assert_eq!(back.to_value(), written, "to_value round trip");
    let text = written.to_string();
    let again = Connector::parse(&text)
        .unwrap_or_else(|e| panic!("a connector's own text does not read back: {e}\n{text}"));
    assert_eq!(again.to_value(), written, "text round trip");

    // A capture and a report never hold a header value: the record redacts every one.
    let record = c.record();
    if !c.is_preset() {
        for (name, _) in c.request.headers.iter() {
            assert_eq!(
                record["request"]["headers"][name], "[redacted]",
                "header {name:?} is not redacted in the record"
            );
        }
    }
    let _ = c.stated_record();

    match Reader::new(c, None) {
        Ok(r) => {
            assert_ne!(c.response.numbering, Numbering::Label);
            assert_eq!(r.name(), c.name);
        }
        Err(why) => {
            assert_eq!(c.response.numbering, Numbering::Label, "refused: {why}");
            assert!(why.to_string().contains("label"), "{why}");
        }
    }
    for question in ["Where is Figure 15.1?", "", "\"}{\\u0000 ~ {{question}}"] {
        let asked = Asked {
            base_url: "http://127.0.0.1:1/api",
            question,
            corpus_id: "c",
            top_k: 10,
            cache_mode: CacheMode::DeploymentDefault,
        };
        let _ = c.url(&asked);
        if let Some(body) = c.body(&asked) {
            assert!(
                serde_json::from_str::<serde_json::Value>(&body).is_ok(),
                "a body that is not JSON: {body}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match Connector::parse(&text) {
        Ok(c) => check(&c),
        Err(errors) => {
            assert!(!errors.0.is_empty(), "an Err without a problem");
            for e in &errors.0 {
                assert!(
                    !e.message.is_empty(),
                    "a problem without a message at {:?}",
                    e.at
                );
                let _ = e.to_string();
            }
            let _ = errors.to_string();
        }
    }
    // The presets, one per input byte's choice (cheap, and a change to one is caught at once).
    let names = Connector::preset_names();
    if let Some(&b) = data.first() {
        let name = names[usize::from(b) % names.len()];
        let preset = Connector::preset(name).expect("a listed preset exists");
        assert!(preset.is_preset());
        check(&preset);
    }
});

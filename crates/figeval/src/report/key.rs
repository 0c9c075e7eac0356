//! The dataset key (contract §15.3): which dataset a report was scored on, from what the report
//! itself carries, so runs of the same questions group together whatever the dataset file was
//! called. The server files every stored run under it, and the page its locally kept runs.

use sha2::{Digest, Sha256};

use crate::score::ItemRecord;
use crate::stats::stable_order;

/// Hex digits of a dataset key: the first 128 bits of the SHA-256.
pub const DATASET_KEY_HEX: usize = 32;

/// The dataset key of a report's items: 32 lowercase hex digits, the first 128 bits of the
/// SHA-256 of the items' canonical lines sorted bytewise and joined by `\n`.
///
/// One line per item, compact JSON as `serde_json` writes it:
/// - a scored item (`per_item`): `[question, group, expected]`, where `expected` is its
///   `expected_pages` sorted and without repeats, or, for an item of a several-file dataset,
///   its `expected_locations` as `[path, start, end]` triples sorted;
/// - an unscored item (`unscored`): `[question]`.
///
/// The item order, the file's name, its `figure_ref`s and tags other than `prose` do not
/// change the key; a question, a group (kind or the `prose` tag) or an expected page does.
pub fn dataset_key(per_item: &[ItemRecord], unscored: &[String]) -> String {
    let mut lines: Vec<String> = Vec::with_capacity(per_item.len() + unscored.len());
    for r in per_item {
        lines.push(scored_line(r));
    }
    for q in unscored {
        lines.push(serde_json::json!([q]).to_string());
    }
    let order = stable_order(lines.len(), &|a, b| {
        lines[a].as_bytes() < lines[b].as_bytes()
    });
    let mut hash = Sha256::new();
    for (i, &at) in order.iter().enumerate() {
        if i > 0 {
            hash.update(b"\n");
        }
        hash.update(lines[at].as_bytes());
    }
    let digest = hash.finalize();
    let mut key = String::with_capacity(DATASET_KEY_HEX);
    for b in &digest[..DATASET_KEY_HEX / 2] {
        key.push(char::from(HEX[usize::from(b >> 4)]));
        key.push(char::from(HEX[usize::from(b & 15)]));
    }
    key
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Whether `text` has the form of a dataset key (32 lowercase hex digits).
pub fn is_dataset_key(text: &str) -> bool {
    text.len() == DATASET_KEY_HEX && text.bytes().all(|b| HEX.contains(&b))
}

fn scored_line(r: &ItemRecord) -> String {
    if !r.expected_locations.is_empty() {
        let mut locations: Vec<serde_json::Value> = r
            .expected_locations
            .iter()
            .map(|l| serde_json::json!([l.path, l.start.get(), l.end.get()]))
            .collect();
        let texts: Vec<String> = locations.iter().map(|v| v.to_string()).collect();
        let order = stable_order(texts.len(), &|a, b| {
            texts[a].as_bytes() < texts[b].as_bytes()
        });
        locations = order.iter().map(|&i| locations[i].take()).collect();
        return serde_json::json!([r.question, r.group.name(), locations]).to_string();
    }
    let order = stable_order(r.expected_pages.len(), &|a, b| {
        r.expected_pages[a] < r.expected_pages[b]
    });
    let mut pages: Vec<u32> = Vec::with_capacity(order.len());
    for i in order {
        let p = r.expected_pages[i];
        if pages.last() != Some(&p) {
            pages.push(p);
        }
    }
    serde_json::json!([r.question, r.group.name(), pages]).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Group, Kind};

    fn record(question: &str, group: Group, pages: &[u32]) -> ItemRecord {
        ItemRecord {
            question: question.into(),
            figure_ref: "Figure 1".into(),
            kind: Kind::Locate,
            group,
            tags: vec![],
            expected_pages: pages.to_vec(),
            expected_locations: vec![],
            matches_returned: 0,
            page_hit_at_3: false,
            page_hit_at_5: false,
            precise_page_hit_at_3: false,
            figure_chunk_at_3: false,
            first_hit_rank: None,
            expected_page_ranks: vec![],
            top: vec![],
            figure_summaries_at_3: vec![],
        }
    }

    #[test]
    fn the_key_of_a_known_item_is_the_sha256_of_its_canonical_line() {
        // sha256('["Where is Figure 1?","locate",[3,4]]'), first 16 bytes.
        let key = dataset_key(
            &[record("Where is Figure 1?", Group::Locate, &[4, 3, 4])],
            &[],
        );
        let line = r#"["Where is Figure 1?","locate",[3,4]]"#;
        let full = Sha256::digest(line.as_bytes());
        let hex: String = full[..16].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(key, hex);
        assert!(is_dataset_key(&key));
    }

    #[test]
    fn item_order_and_figure_refs_do_not_change_the_key_but_pages_and_questions_do() {
        let a = record("a?", Group::Locate, &[1]);
        let b = record("b?", Group::Content, &[2, 3]);
        let key = dataset_key(&[a.clone(), b.clone()], &["c?".into()]);
        let mut renamed = b.clone();
        renamed.figure_ref = "Fig. 2".into();
        assert_eq!(key, dataset_key(&[renamed, a.clone()], &["c?".into()]));
        assert_ne!(
            key,
            dataset_key(
                &[a.clone(), record("b?", Group::Content, &[2])],
                &["c?".into()]
            )
        );
        assert_ne!(key, dataset_key(&[a.clone(), b.clone()], &["d?".into()]));
        assert_ne!(
            key,
            dataset_key(&[a, record("b?", Group::Prose, &[2, 3])], &["c?".into()])
        );
    }

    #[test]
    fn an_unscored_question_is_not_the_same_item_as_a_scored_one() {
        let scored = dataset_key(&[record("a?", Group::Locate, &[1])], &[]);
        let unscored = dataset_key(&[], &["a?".into()]);
        assert_ne!(scored, unscored);
        assert!(!is_dataset_key("0123"));
        assert!(!is_dataset_key(&"A".repeat(32)));
    }
}

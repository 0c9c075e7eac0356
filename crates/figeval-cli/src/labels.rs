//! The page labels of a PDF (its printed page numbers), read natively.
//!
//! poppler prints no page labels, so the `/PageLabels` number tree is read with qpdf
//! (`qpdf --json=2 --json-key=pagelabels`, 0.05 s of qpdf's own time on the 1,158-page Octave
//! manual) and the page count with `pdfinfo` (`pagetext`); the core turns the ranges into one
//! label per page (`figeval::PageLabels::from_ranges`).

use std::path::Path;
use std::process::Command;

use figeval::connector::{LabelRange, LabelStyle};
use figeval::PageLabels;
use serde_json::Value;

use crate::fail::Failure;

/// The labels of every page of `pdf`.
pub fn read(pdf: &Path) -> Result<PageLabels, Failure> {
    let count = pagetext::pdf_page_count(pdf).map_err(|e| Failure::Input(e.to_string()))?;
    let limit = pagetext::tool_limit(count);
    let out = pagetext::output_within(
        Command::new("qpdf")
            .args(["--json=2", "--json-key=pagelabels"])
            .arg(pdf),
        limit,
    )
    .map_err(|e| {
        Failure::Input(if e.kind() == std::io::ErrorKind::NotFound {
            "`qpdf` was not found on PATH: it reads the PDF's page labels for \
                 \"numbering\": \"label\" (apt-get install qpdf)"
                .to_string()
        } else {
            format!("could not run `qpdf`: {e}")
        })
    })?
    .ok_or_else(|| {
        Failure::Input(format!(
            "`qpdf` took longer than {} s on {} and was stopped: the PDF is damaged or built \
             to stall a reader",
            limit.as_secs(),
            pdf.display()
        ))
    })?;
    // qpdf exits 3 for warnings, with its JSON complete.
    if !(out.status.success() || out.status.code() == Some(3)) {
        return Err(Failure::Input(format!(
            "`qpdf` could not read the page labels of {}: {}",
            pdf.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let json: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        Failure::Input(format!("`qpdf` printed no JSON for {}: {e}", pdf.display()))
    })?;
    Ok(PageLabels::from_ranges(ranges(&json), count))
}

/// The label ranges of qpdf's JSON (`pagelabels: [{index, label: {/S, /P, /St}}]`).
fn ranges(json: &Value) -> Vec<LabelRange> {
    let Some(entries) = json["pagelabels"].as_array() else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|e| {
            let start = u32::try_from(e["index"].as_u64()?).ok()?;
            let label = &e["label"];
            Some(LabelRange {
                start,
                style: label["/S"]
                    .as_str()
                    .and_then(|s| LabelStyle::from_name(s.trim_start_matches('/'))),
                prefix: label["/P"].as_str().map(qpdf_string).unwrap_or_default(),
                first: label["/St"]
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .unwrap_or(1),
            })
        })
        .collect()
}

/// A string as qpdf's JSON v2 writes it: `u:` then UTF-8 text, or `b:` then hex bytes (UTF-16BE
/// after a byte order mark, else one character per byte).
fn qpdf_string(s: &str) -> String {
    if let Some(text) = s.strip_prefix("u:") {
        return text.to_string();
    }
    let Some(hex) = s.strip_prefix("b:") else {
        return s.to_string();
    };
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    if let Some(rest) = bytes.strip_prefix(&[0xfe, 0xff]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qpdf_strings_are_read_in_both_forms() {
        assert_eq!(qpdf_string("u:T-"), "T-");
        assert_eq!(qpdf_string("b:feff0041"), "A");
        assert_eq!(qpdf_string("b:41"), "A");
    }

    #[test]
    fn ranges_are_read_from_qpdf_json() {
        let json = serde_json::json!({"pagelabels": [
            {"index": 0, "label": {"/P": "u:T-", "/S": "/D", "/St": 1}},
            {"index": 2, "label": {"/S": "/r", "/St": 1}},
            {"index": 16, "label": {"/S": "/D", "/St": 1}}]});
        let labels = PageLabels::from_ranges(ranges(&json), 400);
        assert_eq!(labels.page_of("T-1").map(|p| p.get()), Some(1));
        assert_eq!(labels.page_of("i").map(|p| p.get()), Some(3));
        assert_eq!(labels.page_of("316").map(|p| p.get()), Some(332));
    }
}

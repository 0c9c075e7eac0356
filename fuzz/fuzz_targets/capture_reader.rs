//! The one capture reader (`CaptureReader`, contract §6.2) on arbitrary bytes fed in arbitrary
//! chunks: never panics; how the bytes are cut into chunks never changes what is read; text
//! fed as `&str` reads like the same bytes; a cut-off last line is only ever a last line
//! without a line break, and cutting the capture back to its whole lines reads the same
//! records with nothing cut off.
//!
//! Input: the first byte picks the chunk sizes (1 + byte % 64, then growing), the rest is the
//! capture, paired to a fixed 3-item dataset with short questions the fuzzer can find.
#![no_main]

use figeval::{CaptureErrors, CaptureReader, CutOff, Dataset, Pairing, ScoreConfig, Scored};
use libfuzzer_sys::fuzz_target;

const FIXED: &str = r#"{"corpus_id":"c","items":[
{"question":"a?","expected_pages":[1],"figure_ref":"Figure 1","kind":"locate","tags":["figure"]},
{"question":"b?","expected_pages":[2,3],"figure_ref":"Figure 2","kind":"content"},
{"question":"c?","expected_pages":[4],"figure_ref":"Section 1","kind":"locate","tags":["prose"]}]}"#;

type Outcome = (Result<Scored, CaptureErrors>, Option<CutOff>);

/// Reads `bytes` fed in chunks whose sizes start at `first` and grow by one each time.
fn read(d: &Dataset, bytes: &[u8], first: usize) -> Outcome {
    let mut r = CaptureReader::new(Pairing::new(d, ScoreConfig::default()));
    let (mut at, mut size) = (0, first);
    while at < bytes.len() && r.wants_more() {
        let end = (at + size).min(bytes.len());
        r.feed(&bytes[at..end]);
        at = end;
        size += 1;
    }
    let read = r.end();
    (read.pairing.finish(true), read.cut_off)
}

fuzz_target!(|data: &[u8]| {
    let Some((&seed, capture)) = data.split_first() else {
        return;
    };
    let d = Dataset::parse(FIXED).expect("the fixed dataset is valid");
    let whole = read(&d, capture, capture.len().max(1));
    let chunked = read(&d, capture, 1 + usize::from(seed % 64));
    assert_eq!(whole, chunked, "the chunking changed what was read");

    if let Ok(text) = std::str::from_utf8(capture) {
        let read = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), text);
        let as_text = (read.pairing.finish(true), read.cut_off);
        assert_eq!(as_text, whole, "text read unlike the same bytes");
    }

    if let (Ok(scored), Some(cut)) = &whole {
        let offset = usize::try_from(cut.offset).expect("an offset inside the input");
        assert!(offset < capture.len(), "a cut-off line holds something");
        assert!(
            offset == 0 || capture[offset - 1] == b'\n',
            "a cut-off line starts a line"
        );
        assert!(
            !capture[offset..].contains(&b'\n'),
            "a cut-off line is the last and has no line break"
        );
        assert_eq!(
            cut.line,
            1 + capture[..offset].iter().filter(|&&b| b == b'\n').count(),
            "a cut-off line is named by its line number"
        );
        // What a resume keeps: the capture cut back to its whole lines.
        let (kept, cut_again) = read(&d, &capture[..offset], 7);
        assert_eq!(cut_again, None, "whole lines have nothing cut off");
        match kept {
            Ok(kept) => assert_eq!(&kept.records, &scored.records, "the whole lines lost a record"),
            Err(e) => assert!(
                e.0 == [figeval::CaptureError::Empty],
                "whole lines of an accepted capture refused: {e}"
            ),
        }
    }
});

//! The commit-msg check `cargo xtask setup` installs (`.githooks/commit-msg`): a subject of at
//! most 72 characters, counted as characters, not bytes; a message with no subject refused.

use std::path::Path;
use std::process::Command;

/// Runs the hook on `message`; its exit status and stderr.
fn check(message: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("COMMIT_EDITMSG");
    std::fs::write(&file, message).unwrap();
    let hook = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.githooks/commit-msg");
    let o = Command::new(hook)
        .arg(&file)
        .output()
        .expect("the hook runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_subject_of_72_characters_passes_and_73_fail_naming_the_length() {
    let (ok, err) = check(&format!(
        "{}\n\nThe body may be as long as it likes.\n",
        "a".repeat(72)
    ));
    assert!(ok, "{err}");
    let (ok, err) = check(&format!("{}\n", "a".repeat(73)));
    assert!(!ok);
    assert!(
        err.contains("the subject is 73 characters, at most 72"),
        "{err}"
    );
}

#[test]
fn characters_are_counted_not_bytes() {
    let (ok, err) = check(&format!("{}\n", "é".repeat(72)));
    assert!(ok, "{err}");
}

#[test]
fn an_empty_message_or_only_comments_is_refused() {
    for message in ["", "\n\n", "# Please enter the commit message\n#\n"] {
        let (ok, err) = check(message);
        assert!(!ok, "{message:?}");
        assert!(err.contains("no subject line"), "{err}");
    }
}

#[test]
fn comment_lines_and_leading_blank_lines_are_not_the_subject() {
    let (ok, err) = check(&format!("# {}\n\nFix the reader\n", "x".repeat(100)));
    assert!(ok, "{err}");
}

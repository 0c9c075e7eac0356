//! Shared helpers for figeval's end-to-end tests: locating the repository, its data and the
//! binaries the tests start.

use std::path::PathBuf;

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits inside the repository")
        .to_path_buf()
}

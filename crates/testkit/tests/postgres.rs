//! The tests' PostgreSQL cluster starts wherever the checkout is, and stops on drop.

use std::os::unix::fs::PermissionsExt;

use testkit::postgres::Cluster;

#[test]
fn a_cluster_starts_even_below_a_folder_the_postgres_user_cannot_pass_and_stops_on_drop() {
    let closed = tempfile::tempdir().unwrap();
    std::fs::set_permissions(closed.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let cluster = Cluster::start(&closed.path().join("target/postgres/here")).unwrap();
    let url = cluster.database("probe");
    assert!(url.starts_with("postgres://postgres@127.0.0.1:"), "{url}");
    let db = url.rsplit('/').next().unwrap();
    assert_eq!(cluster.sql(db, "SELECT 40 + 2").unwrap(), "42");
    let port = cluster.port();
    drop(cluster);
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the postmaster still listens after the drop"
    );
}

mod support;

use support::{MockConfig, MockWorld, Source};

#[test]
fn starts() {
    let world = MockWorld::start(MockConfig::fixtures());
    assert!(world.base_url(Source::Crossref).starts_with("http://127.0.0.1:"));
}

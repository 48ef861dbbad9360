//! Tests of the mock scholarly world in tests/support: response shapes against the recorded
//! bodies, which works each service holds, searches, and the knobs (faults, rate limits,
//! down switch, request log).

mod support;

#[path = "mock_world/helpers.rs"]
mod helpers;
#[path = "mock_world/knobs.rs"]
mod knobs;
#[path = "mock_world/lookups.rs"]
mod lookups;
#[path = "mock_world/records.rs"]
mod records;
#[path = "mock_world/shapes_json.rs"]
mod shapes_json;
#[path = "mock_world/shapes_xml.rs"]
mod shapes_xml;

use serde_json::json;

use super::*;

fn sealer(ttl: Duration) -> StateSealer {
    StateSealer::new(b"0123456789abcdef0123456789abcdef", ttl).expect("a 32-byte key")
}

fn arguments(value: Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

#[test]
fn opens_what_it_sealed_for_the_same_binding() {
    let sealer = sealer(Duration::from_secs(60));
    let args = arguments(json!({"b": 1, "a": {"y": 2, "x": 1}}));
    let binding = Binding {
        principal: "alice",
        tool: "deploy",
        arguments: Some(&args),
    };
    let sealed = sealer.seal(binding, &json!({"round": 2})).expect("sealed");
    let opened: Value = sealer.open(binding, &sealed).expect("opened");
    assert_eq!(opened, json!({"round": 2}));
}

#[test]
fn refuses_another_user_tool_or_arguments() {
    let sealer = sealer(Duration::from_secs(60));
    let args = arguments(json!({"region": "eu"}));
    let other_args = arguments(json!({"region": "us"}));
    let binding = Binding {
        principal: "alice",
        tool: "deploy",
        arguments: Some(&args),
    };
    let sealed = sealer.seal(binding, &json!(1)).expect("sealed");
    for rebound in [
        Binding {
            principal: "bob",
            ..binding
        },
        Binding {
            tool: "book_table",
            ..binding
        },
        Binding {
            arguments: Some(&other_args),
            ..binding
        },
    ] {
        let error = sealer
            .open::<Value>(rebound, &sealed)
            .expect_err("rebound state refused");
        assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(error.message.contains("integrity"), "{}", error.message);
    }
}

#[test]
fn refuses_a_tampered_or_garbled_state() {
    let sealer = sealer(Duration::from_secs(60));
    let binding = Binding {
        principal: "local",
        tool: "deploy",
        arguments: None,
    };
    let sealed = sealer.seal(binding, &json!({"round": 1})).expect("sealed");
    let mut tampered = sealed.clone().into_bytes();
    let middle = tampered.len() / 2;
    tampered[middle] = if tampered[middle] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).expect("ascii");
    assert!(sealer.open::<Value>(binding, &tampered).is_err());
    let garbled = sealer
        .open::<Value>(binding, "not a state")
        .expect_err("garbled");
    assert!(garbled.message.contains("malformed"), "{}", garbled.message);
}

#[test]
fn refuses_an_expired_state() {
    let sealer = sealer(Duration::from_millis(1));
    let binding = Binding {
        principal: "local",
        tool: "deploy",
        arguments: None,
    };
    let sealed = sealer.seal(binding, &json!(1)).expect("sealed");
    std::thread::sleep(Duration::from_millis(20));
    let error = sealer.open::<Value>(binding, &sealed).expect_err("expired");
    assert!(error.message.contains("expired"), "{}", error.message);
}

#[test]
fn key_file_is_created_once_and_reused() {
    let dir = std::env::temp_dir().join(format!("holdbay-key-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let first = load_or_create_key(None, &dir).expect("created");
    let second = load_or_create_key(None, &dir).expect("reused");
    assert_eq!(first, second);
    assert_eq!(first.len(), 32);
    assert!(load_or_create_key(Some("too short"), &dir).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

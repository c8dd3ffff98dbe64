//! RFC 6570 §3.2's own examples (levels 1–3, and the prefix modifier).

use std::collections::BTreeMap;

use super::{UriTemplate, UriTemplateError};

fn rfc_values() -> BTreeMap<String, String> {
    [
        ("var", "value"),
        ("hello", "Hello World!"),
        ("path", "/foo/bar"),
        ("empty", ""),
        ("x", "1024"),
        ("y", "768"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect()
}

fn expands(template: &str, expected: &str) {
    let parsed = UriTemplate::parse(template).unwrap_or_else(|e| panic!("{template}: {e}"));
    assert_eq!(parsed.expand(&rfc_values()), expected, "{template}");
}

#[test]
fn level_1_simple_strings_encode_everything_but_unreserved() {
    expands("{var}", "value");
    expands("{hello}", "Hello%20World%21");
    expands("{path}", "%2Ffoo%2Fbar");
}

#[test]
fn level_2_reserved_and_fragment_keep_reserved_characters() {
    expands("{+var}", "value");
    expands("{+hello}", "Hello%20World!");
    expands("{+path}/here", "/foo/bar/here");
    expands("here?ref={+path}", "here?ref=/foo/bar");
    expands("X{#var}", "X#value");
    expands("X{#hello}", "X#Hello%20World!");
}

#[test]
fn level_3_multiple_variables_and_every_operator() {
    expands("map?{x,y}", "map?1024,768");
    expands("{x,hello,y}", "1024,Hello%20World%21,768");
    expands("{+x,hello,y}", "1024,Hello%20World!,768");
    expands("{+path,x}/here", "/foo/bar,1024/here");
    expands("{#x,hello,y}", "#1024,Hello%20World!,768");
    expands("{#path,x}/here", "#/foo/bar,1024/here");
    expands("X{.var}", "X.value");
    expands("X{.x,y}", "X.1024.768");
    expands("{/var}", "/value");
    expands("{/var,x}/here", "/value/1024/here");
    expands("{;x,y}", ";x=1024;y=768");
    expands("{;x,y,empty}", ";x=1024;y=768;empty");
    expands("{?x,y}", "?x=1024&y=768");
    expands("{?x,y,empty}", "?x=1024&y=768&empty=");
    expands("?fixed=yes{&x}", "?fixed=yes&x=1024");
    expands("{&x,y,empty}", "&x=1024&y=768&empty=");
}

#[test]
fn undefined_variables_vanish_with_their_operator() {
    expands("a{undef}b", "ab");
    expands("{?undef}", "");
    expands("{?x,undef,y}", "?x=1024&y=768");
    expands("{/undef}/here", "/here");
    expands("{#undef}", "");
}

#[test]
fn prefix_and_explode_modifiers() {
    expands("{var:3}", "val");
    expands("{var:30}", "value");
    expands("{/var*}", "/value");
}

#[test]
fn utf8_is_percent_encoded_by_byte() {
    let template = UriTemplate::parse("notes://{name}").unwrap();
    let values = BTreeMap::from([("name".to_owned(), "café ø".to_owned())]);
    assert_eq!(template.expand(&values), "notes://caf%C3%A9%20%C3%B8");
}

#[test]
fn reserved_expansion_keeps_percent_triplets_but_simple_encodes_them() {
    let values = BTreeMap::from([("v".to_owned(), "a%20b%zz".to_owned())]);
    let reserved = UriTemplate::parse("{+v}").unwrap();
    assert_eq!(reserved.expand(&values), "a%20b%25zz");
    let simple = UriTemplate::parse("{v}").unwrap();
    assert_eq!(simple.expand(&values), "a%2520b%25zz");
}

#[test]
fn variables_are_listed_once_in_order() {
    let template = UriTemplate::parse("demo://{team}/notes/{+path}{?lang,team}{#section}").unwrap();
    assert_eq!(template.variables(), ["team", "path", "lang", "section"]);
    assert!(
        UriTemplate::parse("test://static")
            .unwrap()
            .variables()
            .is_empty()
    );
}

#[test]
fn broken_templates_are_errors_not_panics() {
    assert_eq!(
        UriTemplate::parse("a{b"),
        Err(UriTemplateError::Unclosed { at: 1 })
    );
    assert!(matches!(
        UriTemplate::parse("{}"),
        Err(UriTemplateError::BadVariable { .. })
    ));
    assert!(matches!(
        UriTemplate::parse("{a b}"),
        Err(UriTemplateError::BadVariable { .. })
    ));
    assert!(matches!(
        UriTemplate::parse("{x:0}"),
        Err(UriTemplateError::BadVariable { .. })
    ));
}

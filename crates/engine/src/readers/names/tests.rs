use std::collections::BTreeMap;

use super::*;
use crate::vocabulary::findings::Severity;

fn shown(raw: &str) -> String {
    Shown::of(raw).text()
}

fn kinds(raw: &str) -> Vec<HiddenKind> {
    Shown::of(raw).marked().map(|c| c.kind).collect()
}

/// The warnings a lone name earns (no list to collide with).
fn warnings(raw: &str) -> Vec<NameWarning> {
    NameBook::new("tool", [raw]).marks(raw, None).warnings
}

fn rules(warnings: &[NameWarning]) -> Vec<Rule> {
    warnings.iter().map(NameWarning::rule).collect()
}

#[test]
fn rules_have_their_ids_and_are_warnings_for_people() {
    assert_eq!(Rule::NameInvisibleChars.id(), "name-invisible-chars");
    assert_eq!(Rule::NameLookAlike.id(), "name-look-alike");
    assert_eq!(Rule::NameInvisibleChars.severity(), Severity::Info);
    assert_eq!(Rule::NameLookAlike.severity(), Severity::Info);
}

#[test]
fn zero_width_characters_are_drawn_as_markers() {
    assert_eq!(shown("ok_\u{200B}echo"), "ok_⟨U+200B⟩echo");
    assert_eq!(shown("ok_echo\u{200D}"), "ok_echo⟨U+200D⟩");
    assert_eq!(shown("ok\u{200C}echo"), "ok⟨U+200C⟩echo");
    assert_eq!(shown("\u{FEFF}ok"), "⟨U+FEFF⟩ok");
    assert_eq!(shown("o\u{2060}k"), "o⟨U+2060⟩k");
    assert_eq!(kinds("ok_\u{200B}echo"), [HiddenKind::ZeroWidth]);
}

#[test]
fn every_bidi_control_is_drawn_as_a_marker() {
    assert_eq!(shown("\u{202E}evil_tool"), "⟨U+202E⟩evil_tool");
    let controls = [
        0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F,
        0x061C,
    ];
    for code in controls {
        let c = char::from_u32(code).expect("a character");
        let name = format!("a{c}b");
        assert_eq!(kinds(&name), [HiddenKind::Bidi], "U+{code:04X}");
        assert_eq!(shown(&name), format!("a⟨U+{code:04X}⟩b"));
    }
}

#[test]
fn format_and_control_characters_are_drawn_as_markers() {
    let cases = [
        ("soft\u{00AD}hyphen", HiddenKind::Format, "U+00AD"),
        ("mongolian\u{180E}vs", HiddenKind::Format, "U+180E"),
        ("invisible\u{2062}times", HiddenKind::Format, "U+2062"),
        ("arabic\u{0600}sign", HiddenKind::Format, "U+0600"),
        ("tab\there", HiddenKind::Control, "U+0009"),
        ("line\nfeed", HiddenKind::Control, "U+000A"),
        ("esc\u{1B}[31m", HiddenKind::Control, "U+001B"),
        ("c1\u{85}next", HiddenKind::Control, "U+0085"),
        ("nul\0", HiddenKind::Control, "U+0000"),
        ("noncharacter\u{FFFF}", HiddenKind::Format, "U+FFFF"),
    ];
    for (name, kind, code) in cases {
        assert_eq!(kinds(name), [kind], "{code}");
        assert!(shown(name).contains(&format!("⟨{code}⟩")), "{code}");
    }
}

#[test]
fn variation_selectors_and_tags_are_drawn_as_markers() {
    assert_eq!(shown("ok\u{FE00}"), "ok⟨U+FE00⟩");
    assert_eq!(shown("ok\u{E0100}"), "ok⟨U+E0100⟩");
    // U+FE0F after a letter selects nothing: it only hides.
    assert_eq!(kinds("ok\u{FE0F}"), [HiddenKind::VariationSelector]);
    // Tags spell hidden text ("ASCII smuggling"): "hi" in tags after a name.
    assert_eq!(shown("ok\u{E0068}\u{E0069}"), "ok⟨U+E0068⟩⟨U+E0069⟩");
    assert_eq!(kinds("ok\u{E0001}"), [HiddenKind::Tag]);
}

#[test]
fn fillers_and_unusual_spaces_are_drawn_as_markers() {
    for (name, kind) in [
        ("hangul\u{3164}filler", HiddenKind::Filler),
        ("choseong\u{115F}", HiddenKind::Filler),
        ("halfwidth\u{FFA0}", HiddenKind::Filler),
        ("braille\u{2800}blank", HiddenKind::Filler),
        ("grapheme\u{034F}joiner", HiddenKind::Filler),
        ("no\u{00A0}break", HiddenKind::Space),
        ("ideographic\u{3000}space", HiddenKind::Space),
        ("em\u{2003}space", HiddenKind::Space),
        ("line\u{2028}separator", HiddenKind::Space),
    ] {
        assert_eq!(kinds(name), [kind], "{name:?}");
    }
}

#[test]
fn a_space_the_page_would_swallow_is_drawn_as_a_marker() {
    assert_eq!(shown("ok_echo "), "ok_echo⟨U+0020⟩");
    assert_eq!(shown(" ok_echo"), "⟨U+0020⟩ok_echo");
    assert_eq!(shown("ok  echo"), "ok ⟨U+0020⟩echo");
    // One space between words shows: titles are written with them.
    assert_eq!(shown("Echo a message"), "Echo a message");
    assert!(Shown::of("Echo a message").is_plain());
}

#[test]
fn the_marker_brackets_are_markers_themselves_so_no_marker_is_forged() {
    let forged = "ok_⟨U+200B⟩echo";
    let real = "ok_\u{200B}echo";
    assert_eq!(shown(forged), "ok_⟨U+27E8⟩U+200B⟨U+27E9⟩echo");
    assert_ne!(shown(forged), shown(real));
    assert_eq!(
        rules(&warnings(forged)),
        [Rule::NameLookAlike],
        "brackets are no hidden characters"
    );
}

#[test]
fn different_names_never_share_a_shown_form() {
    let names = [
        "ok_echo",
        "ok_\u{200B}echo",
        "ok_echo\u{200D}",
        "ok_echo ",
        "ok_echo\u{00A0}",
        "\u{202E}evil_tool",
        "ok_⟨U+200B⟩echo",
        "ok_⟨U+27E8⟩echo",
    ];
    let mut seen = BTreeMap::new();
    for name in names {
        if let Some(other) = seen.insert(shown(name), name) {
            panic!("{name:?} and {other:?} are shown alike");
        }
    }
}

#[test]
fn emoji_names_show_as_written_and_are_not_flagged() {
    let names = [
        "🚀_launch",
        "👩\u{200D}💻_coder",     // woman technologist: a ZWJ sequence
        "❤\u{FE0F}_like",         // the emoji presentation selector
        "1\u{FE0F}\u{20E3}_step", // a keycap
        "👍🏽_approve",             // a skin tone modifier
        "🏳\u{FE0F}\u{200D}🌈_flag",
        "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}_scotland",
    ];
    for name in names {
        assert_eq!(shown(name), name, "{name}");
        assert_eq!(warnings(name), [], "{name}");
    }
}

#[test]
fn tags_outside_a_flag_are_hidden_even_after_the_black_flag() {
    // Uppercase tags spell no subdivision; and a flag may not hide a message.
    assert_eq!(kinds("🏴\u{E0048}\u{E0049}\u{E007F}").len(), 3);
    assert_eq!(
        kinds(
            "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E0061}\u{E0062}\u{E0063}\u{E007F}"
        )
        .len(),
        9,
        "eight tags are no subdivision"
    );
    // A ZWJ between a letter and an emoji joins nothing.
    assert_eq!(kinds("a\u{200D}🚀"), [HiddenKind::ZeroWidth]);
}

#[test]
fn joiners_inside_words_of_scripts_written_with_them_show() {
    // Persian "mikhaham" with its zero-width non-joiner; Hindi "kshatriya" with a ZWJ.
    let persian = "می\u{200C}خواهم";
    let hindi = "क्\u{200D}ष";
    assert_eq!(shown(persian), persian);
    assert_eq!(shown(hindi), hindi);
    assert_eq!(warnings(persian), []);
}

#[test]
fn single_script_names_are_not_flagged() {
    for name in [
        "ok_echo",
        "get-weather.v2",
        "日本語",
        "検索ツール_ひらがな",
        "кириллица",
        "погода_сейчас",
        "ελληνικά",
        "שלום",
        "مرحبا",
        "天气预报",
        "날씨_조회",
        "café_crème",
        "Straße",
    ] {
        assert_eq!(warnings(name), [], "{name}");
        assert!(Shown::of(name).is_plain(), "{name}");
    }
}

#[test]
fn latin_beside_a_script_without_latin_look_alikes_is_not_flagged() {
    for name in [
        "search_日本語",
        "translate_עברית",
        "hangul_한글",
        "thai_ไทย",
        "zhuyin_ㄅㄆ漢",
    ] {
        assert_eq!(warnings(name), [], "{name}");
    }
}

#[test]
fn latin_mixed_with_cyrillic_is_flagged() {
    let spoof = "ok_\u{0435}cho"; // Cyrillic е
    let found = warnings(spoof);
    assert_eq!(rules(&found), [Rule::NameLookAlike]);
    let NameWarning::MixedScripts {
        field,
        scripts,
        strays,
    } = &found[0]
    else {
        panic!("a script mix: {found:?}");
    };
    assert_eq!(*field, NameField::Name);
    assert_eq!(scripts, &[Script::Latin, Script::Cyrillic]);
    assert_eq!(strays, &[('\u{0435}', Script::Cyrillic)]);
    assert_eq!(found[0].badge(), "mixes Latin and Cyrillic");
    assert_eq!(
        found[0].explain("tool", spoof),
        "tool \"ok_\u{0435}cho\" mixes Latin and Cyrillic letters in its name, which can pass \
         for one another (\u{0435} is Cyrillic U+0435)"
    );
}

#[test]
fn latin_mixed_with_greek_armenian_or_cherokee_is_flagged() {
    for (name, other) in [
        ("t\u{03BF}ol", Script::Greek),    // Greek omicron
        ("t\u{0585}ol", Script::Armenian), // Armenian oh
        ("\u{13AA}pi", Script::Cherokee),  // Cherokee go, drawn like A
    ] {
        let found = warnings(name);
        assert!(
            matches!(&found[..], [NameWarning::MixedScripts { scripts, .. }] if scripts.contains(&other)),
            "{name}: {found:?}"
        );
    }
}

#[test]
fn two_non_latin_scripts_mixed_are_flagged() {
    // Cyrillic with a Greek omicron.
    assert_eq!(rules(&warnings("п\u{03BF}года")), [Rule::NameLookAlike]);
}

#[test]
fn the_script_table_is_sorted_and_classifies_the_usual_letters() {
    let ranges = scripts::ranges();
    for pair in ranges.windows(2) {
        assert!(pair[0].0 <= pair[0].1, "{:X}", pair[0].0);
        assert!(
            pair[0].1 < pair[1].0,
            "{:X} overlaps {:X}",
            pair[0].0,
            pair[1].0
        );
    }
    assert_eq!(script_of('a'), Some(Script::Latin));
    assert_eq!(script_of('é'), Some(Script::Latin));
    assert_eq!(script_of('\u{0430}'), Some(Script::Cyrillic));
    assert_eq!(script_of('\u{03BF}'), Some(Script::Greek));
    assert_eq!(script_of('日'), Some(Script::Han));
    assert_eq!(script_of('\u{20000}'), Some(Script::Han));
    assert_eq!(script_of('ひ'), Some(Script::Hiragana));
    for common in ['_', '-', '.', '7', ' ', '🚀', '\u{0301}', '\u{30FC}'] {
        assert_eq!(script_of(common), None, "{common:?}");
    }
}

#[test]
fn skeletons_drop_hidden_characters_and_fold_look_alikes() {
    for spoof in [
        "ok_\u{200B}echo",
        "ok_echo\u{200D}",
        "ok_\u{0435}cho",
        "\u{043E}k_echo",
        "ok_echo ",
        " ok_echo",
        "ok_e\u{00AD}cho",
        "ｏｋ_ｅｃｈｏ",
        "\u{1D428}\u{1D424}_echo", // mathematical bold o, k
    ] {
        assert_eq!(skeleton(spoof), skeleton("ok_echo"), "{spoof:?}");
    }
    assert_eq!(skeleton("tool_v1"), skeleton("tool_vl"));
    assert_eq!(skeleton("tool_vI"), skeleton("tool_vl"));
    assert_eq!(skeleton("Echo  a\u{00A0}message"), "Echo a message");
    assert_ne!(skeleton("ok_echo"), skeleton("ok_Echo"), "case is seen");
    assert_ne!(skeleton("café"), skeleton("cafe"), "accents are seen");
    assert_ne!(skeleton("ok_echo"), skeleton("ok_ech"));
}

#[test]
fn the_look_alike_table_is_sorted_and_reads_as_latin() {
    let table = skeleton::look_alikes();
    for pair in table.windows(2) {
        assert!(
            pair[0].0 < pair[1].0,
            "{:?} before {:?}",
            pair[0].0,
            pair[1].0
        );
    }
    for &(from, to) in table {
        assert_ne!(from, to);
        // What a look-alike reads as is never itself read as something else.
        assert_eq!(
            skeleton(&to.to_string()),
            to.to_string(),
            "{from:?} → {to:?}"
        );
    }
}

#[test]
fn a_book_flags_both_names_of_a_colliding_pair() {
    let book = NameBook::new("tool", ["ok_echo", "ok_\u{200B}echo", "other"]);
    let real = book.marks("ok_echo", None);
    let spoof = book.marks("ok_\u{200B}echo", None);
    assert_eq!(
        real.warnings,
        [NameWarning::LooksLike {
            others: vec!["ok_\u{200B}echo".to_owned()]
        }]
    );
    assert_eq!(
        rules(&spoof.warnings),
        [Rule::NameInvisibleChars, Rule::NameLookAlike]
    );
    assert_eq!(real.warnings[0].badge(), "looks like \"ok_⟨U+200B⟩echo\"");
    assert_eq!(spoof.name.text(), "ok_⟨U+200B⟩echo");
    assert!(!book.marks("other", None).is_flagged());
}

#[test]
fn a_book_flags_every_name_of_a_group_that_reads_alike() {
    let names = [
        "ok_echo",
        "ok_\u{200B}echo",
        "ok_echo\u{200D}",
        "ok_\u{0435}cho",
    ];
    let book = NameBook::new("tool", names);
    for name in names {
        let marks = book.marks(name, None);
        let others: Vec<&String> = marks
            .warnings
            .iter()
            .find_map(|w| match w {
                NameWarning::LooksLike { others } => Some(others.iter().collect()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{name:?} is not flagged as a look-alike"));
        assert_eq!(others.len(), 3, "{name:?}");
        assert!(others.iter().all(|o| o.as_str() != name));
    }
    let badge = book.marks("ok_echo", None).warnings[0].badge();
    // The others in the order of their names (U+0065 `e`, then U+0435, then U+200B).
    assert_eq!(badge, "looks like \"ok_echo⟨U+200D⟩\" and 2 more");
}

#[test]
fn a_tally_fed_page_by_page_gives_the_book_of_all_its_names() {
    // A look-alike pair split across pages, a name repeated on a later page, a trio.
    let pages: [&[&str]; 3] = [
        &["ok_echo", "weather", "tool_1500", "a"],
        &["zeta", "ok_\u{200B}echo", "weather", "tooI_1500"],
        &["ok_\u{0435}cho", "b", "A"],
    ];
    let mut tally = NameTally::new("tool");
    let mut so_far: Vec<&str> = Vec::new();
    for page in pages {
        tally.add(page.iter().copied());
        so_far.extend(page);
        assert_eq!(tally.book(), NameBook::new("tool", so_far.iter().copied()));
    }
    let book = tally.book();
    assert!(book.marks("tool_1500", None).is_flagged());
    assert!(book.marks("ok_echo", None).is_flagged());
    assert!(!book.marks("weather", None).is_flagged());
}

#[test]
fn the_same_name_twice_is_no_look_alike() {
    // Two resources may share a name (README in two folders): nothing is hidden.
    let book = NameBook::new("resource", ["README", "README"]);
    assert!(!book.marks("README", None).is_flagged());
}

#[test]
fn a_title_is_shown_and_checked_too() {
    let book = NameBook::new("prompt", ["draft"]);
    let marks = book.marks("draft", Some("Draft\u{202E}txt.exe"));
    assert_eq!(
        marks.title.as_ref().map(Shown::text).as_deref(),
        Some("Draft⟨U+202E⟩txt.exe")
    );
    assert!(matches!(
        &marks.warnings[..],
        [NameWarning::Hidden { field: NameField::Title, chars }] if chars[0].kind == HiddenKind::Bidi
    ));
    assert_eq!(marks.warnings[0].badge(), "hidden characters in the title");
}

#[test]
fn findings_name_each_flagged_item_by_its_shown_form() {
    let items = [
        ("ok_echo", None),
        ("ok_\u{200B}echo", None),
        ("\u{202E}evil_tool", None),
        ("plain", Some("Plain")),
        ("ok_echo", None),
    ];
    let book = NameBook::new("tool", items.iter().map(|(n, _)| *n));
    let findings = book.findings(items);
    let lines: Vec<String> = findings.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "[name-look-alike info] tool \"ok_echo\" looks like tool \"ok_⟨U+200B⟩echo\": with \
             hidden characters left out and look-alike letters read as one, they read the same",
            "[name-invisible-chars info] tool \"ok_⟨U+200B⟩echo\" has characters in its name \
             that do not show as themselves: U+200B (zero-width); Holdbay draws each as ⟨U+…⟩",
            "[name-look-alike info] tool \"ok_⟨U+200B⟩echo\" looks like tool \"ok_echo\": with \
             hidden characters left out and look-alike letters read as one, they read the same",
            "[name-invisible-chars info] tool \"⟨U+202E⟩evil_tool\" has characters in its name \
             that do not show as themselves: U+202E (a bidi control); Holdbay draws each as \
             ⟨U+…⟩",
            // Listed twice, found twice: the app counts the repeat.
            "[name-look-alike info] tool \"ok_echo\" looks like tool \"ok_⟨U+200B⟩echo\": with \
             hidden characters left out and look-alike letters read as one, they read the same",
        ]
    );
    // No message quotes a name as written: none carries an invisible character.
    for line in &lines {
        assert!(
            line.chars()
                .all(|c| hidden::always_hidden(c).is_none() || c == '⟨' || c == '⟩')
        );
    }
}

#[test]
fn the_servers_own_name_is_shown_and_checked() {
    let discover: DiscoverResult = serde_json::from_value(serde_json::json!({
        "resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {},
        "ttlMs": 0, "cacheScope": "private",
        "_meta": {"io.modelcontextprotocol/serverInfo":
            {"name": "acme\u{200B}", "title": "Acme", "version": "1"}}
    }))
    .expect("a discover result");
    let marks = server_name_marks(&discover).expect("the server named itself");
    assert_eq!(marks.name.text(), "acme⟨U+200B⟩");
    let findings = server_name_findings(&discover);
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].rule, Rule::NameInvisibleChars);
    assert!(
        findings[0]
            .explanation
            .starts_with("server \"acme⟨U+200B⟩\"")
    );
}

#[test]
fn long_names_are_cut_in_messages() {
    let name = "\u{200B}".repeat(1000);
    let found = warnings(&name);
    let explanation = found[0].explain("tool", &name);
    assert!(explanation.len() < 400, "{} bytes", explanation.len());
}

//! Property tests: JSON round trips of the meta types, the wire format of
//! `Time` and `MicroTime`, the name validators against their regexes and
//! against an independent character-level oracle, name generation, and
//! the absence of panics on arbitrary input.

use std::collections::BTreeMap;

use api_core::validation::names;
use api_core::validation::object_meta::{
    METADATA_PATH, is_go_printable, parse_group_version, validate_field_manager,
    validate_object_meta, validate_object_meta_update,
};
use api_core::{ListMeta, ManagedFieldsEntry, MicroTime, ObjectMeta, OwnerReference, Time};
use proptest::prelude::*;
use serde_json::Value;

// ------------------------------------------------------------- strategies

/// First and last second that the wire format (`YYYY-MM-DDThh:mm:ssZ`,
/// years 0000 to 9999) can carry.
const MIN_WIRE_SECS: i64 = -62_167_219_200; // 0000-01-01T00:00:00Z
const MAX_WIRE_SECS: i64 = 253_402_300_799; // 9999-12-31T23:59:59Z

fn arb_time() -> impl Strategy<Value = Time> {
    prop_oneof![
        // The whole range the wire format carries...
        4 => MIN_WIRE_SECS..=MAX_WIRE_SECS,
        // ...and around today and the epoch, where most values are.
        1 => -100_000_000i64..4_000_000_000,
        1 => prop::sample::select(vec![MIN_WIRE_SECS, -1, 0, 1, MAX_WIRE_SECS]),
    ]
    .prop_map(|s| Time::from_unix_seconds(s).expect("in chrono's range"))
}

/// Any characters, control and unassigned ones included (`any::<String>()`
/// leaves control characters out).
fn any_chars(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..max).prop_map(|v| v.into_iter().collect())
}

fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => "[a-z0-9./-]{0,12}",
        1 => any_chars(16),
        1 => Just(String::new()),
    ]
}

fn arb_map() -> impl Strategy<Value = BTreeMap<String, String>> {
    prop::collection::btree_map(arb_text(), arb_text(), 0..4)
}

fn arb_owner_reference() -> impl Strategy<Value = OwnerReference> {
    (
        arb_text(),
        arb_text(),
        arb_text(),
        arb_text(),
        any::<Option<bool>>(),
        any::<Option<bool>>(),
    )
        .prop_map(
            |(api_version, kind, name, uid, controller, block_owner_deletion)| OwnerReference {
                api_version,
                kind,
                name,
                uid,
                controller,
                block_owner_deletion,
            },
        )
}

/// A `fieldsV1` set: nested objects keyed by `f:`, `k:`, `v:`, `i:` and `.`.
fn arb_fields_v1() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        "f:[a-zA-Z]{1,8}",
        "k:\\{\"name\":\"[a-z]{1,5}\"\\}",
        "v:\"[a-z]{1,5}\"",
        "i:[0-9]{1,2}",
        Just(".".to_string()),
    ];
    Just(Value::Object(Default::default())).prop_recursive(3, 24, 4, move |inner| {
        prop::collection::btree_map(key.clone(), inner, 0..4)
            .prop_map(|m| Value::Object(m.into_iter().collect()))
    })
}

fn arb_managed_fields_entry() -> impl Strategy<Value = ManagedFieldsEntry> {
    (
        arb_text(),
        prop_oneof![
            Just("Apply".to_string()),
            Just("Update".to_string()),
            arb_text()
        ],
        arb_text(),
        proptest::option::of(arb_time()),
        prop_oneof![Just("FieldsV1".to_string()), arb_text()],
        proptest::option::of(arb_fields_v1()),
        arb_text(),
    )
        .prop_map(
            |(manager, operation, api_version, time, fields_type, fields_v1, subresource)| {
                ManagedFieldsEntry {
                    manager,
                    operation,
                    api_version,
                    time,
                    fields_type,
                    fields_v1,
                    subresource,
                }
            },
        )
}

fn arb_object_meta() -> impl Strategy<Value = ObjectMeta> {
    let identity = (
        arb_text(),
        arb_text(),
        arb_text(),
        arb_text(),
        arb_text(),
        arb_text(),
        any::<i64>(),
    );
    let lifecycle = (
        proptest::option::of(arb_time()),
        proptest::option::of(arb_time()),
        any::<Option<i64>>(),
        arb_map(),
        arb_map(),
        prop::collection::vec(arb_owner_reference(), 0..3),
        prop::collection::vec(arb_text(), 0..3),
        prop::collection::vec(arb_managed_fields_entry(), 0..3),
    );
    (identity, lifecycle).prop_map(
        |(
            (name, generate_name, namespace, self_link, uid, resource_version, generation),
            (
                creation_timestamp,
                deletion_timestamp,
                deletion_grace_period_seconds,
                labels,
                annotations,
                owner_references,
                finalizers,
                managed_fields,
            ),
        )| ObjectMeta {
            name,
            generate_name,
            namespace,
            self_link,
            uid,
            resource_version,
            generation,
            creation_timestamp,
            deletion_timestamp,
            deletion_grace_period_seconds,
            labels,
            annotations,
            owner_references,
            finalizers,
            managed_fields,
        },
    )
}

fn arb_list_meta() -> impl Strategy<Value = ListMeta> {
    (arb_text(), arb_text(), arb_text(), any::<Option<i64>>()).prop_map(
        |(self_link, resource_version, continue_, remaining_item_count)| ListMeta {
            self_link,
            resource_version,
            continue_,
            remaining_item_count,
        },
    )
}

// Strings from apimachinery's regexes, bounded by the length limits.

fn dns1123_label() -> impl Strategy<Value = String> {
    "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"
}

fn dns1123_subdomain() -> impl Strategy<Value = String> {
    prop_oneof![
        // Up to 5 labels of up to 49 bytes: at most 249 bytes.
        prop::collection::vec("[a-z0-9]([-a-z0-9]{0,47}[a-z0-9])?", 1..=5)
            .prop_map(|labels| labels.join(".")),
        // One label may be as long as the whole subdomain.
        "[a-z0-9]([-a-z0-9]{0,251}[a-z0-9])?",
    ]
}

fn dns1035_label() -> impl Strategy<Value = String> {
    "[a-z]([-a-z0-9]{0,61}[a-z0-9])?"
}

fn qualified_name_part() -> impl Strategy<Value = String> {
    "([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]"
}

fn qualified_name() -> impl Strategy<Value = String> {
    (
        proptest::option::of(dns1123_subdomain()),
        qualified_name_part(),
    )
        .prop_map(|(prefix, name)| match prefix {
            Some(prefix) => format!("{prefix}/{name}"),
            None => name,
        })
}

fn label_value() -> impl Strategy<Value = String> {
    "(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?"
}

/// Strings that look like names: mostly name characters, some characters
/// that are never allowed, short ones and long ones, and valid names with
/// one character replaced or one appended.
fn name_like() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        8 => prop::sample::select(vec!['a', 'b', 'z', '0', '9', '-', '.']),
        3 => prop::sample::select(vec!['A', 'Z', '_', '/', ' ', 'é']),
        1 => any::<char>(),
    ];
    let valid = prop_oneof![
        dns1123_label(),
        dns1123_subdomain(),
        dns1035_label(),
        qualified_name(),
        label_value(),
        "[a-z0-9][-a-z0-9]{61,63}[a-z0-9]",
        "[a-z0-9][-a-z0-9.]{250,253}[a-z0-9]",
    ];
    prop_oneof![
        4 => prop::collection::vec(ch.clone(), 0..12).prop_map(|v| v.into_iter().collect()),
        1 => prop::collection::vec(ch.clone(), 0..300).prop_map(|v| v.into_iter().collect()),
        2 => (valid.clone(), any::<prop::sample::Index>(), ch.clone()).prop_map(|(s, at, c)| {
            let mut chars: Vec<char> = s.chars().collect();
            if !chars.is_empty() {
                let i = at.index(chars.len());
                chars[i] = c;
            }
            chars.into_iter().collect()
        }),
        1 => (valid.clone(), ch).prop_map(|(s, c)| format!("{s}{c}")),
        2 => valid,
    ]
}

// ------------------------------------------------ hand-written name oracle

fn lower_alnum(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, any length.
fn label_shape(s: &str) -> bool {
    let (Some(first), Some(last)) = (s.chars().next(), s.chars().last()) else {
        return false;
    };
    lower_alnum(first) && lower_alnum(last) && s.chars().all(|c| lower_alnum(c) || c == '-')
}

/// Dot-separated label shapes, any length.
fn subdomain_shape(s: &str) -> bool {
    s.split('.').all(label_shape)
}

fn oracle_dns1123_label(s: &str) -> bool {
    s.len() <= 63 && label_shape(s)
}

fn oracle_dns1123_subdomain(s: &str) -> bool {
    s.len() <= 253 && subdomain_shape(s)
}

fn oracle_dns1035_label(s: &str) -> bool {
    s.len() <= 63 && label_shape(s) && s.starts_with(|c: char| c.is_ascii_lowercase())
}

fn oracle_name_part(s: &str) -> bool {
    let (Some(first), Some(last)) = (s.chars().next(), s.chars().last()) else {
        return false;
    };
    s.len() <= 63
        && first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn oracle_qualified_name(s: &str) -> bool {
    let parts: Vec<&str> = s.split('/').collect();
    match parts.as_slice() {
        [name] => oracle_name_part(name),
        [prefix, name] => oracle_dns1123_subdomain(prefix) && oracle_name_part(name),
        _ => false,
    }
}

fn oracle_label_value(s: &str) -> bool {
    s.is_empty() || oracle_name_part(s)
}

fn oracle_mask_trailing_dash(s: &str) -> Option<String> {
    // Go drops the last two bytes and appends "a"; `None` when that cuts a
    // character in half (never a DNS name).
    if s.len() > 1 && s.ends_with('-') {
        s.get(..s.len() - 2).map(|head| format!("{head}a"))
    } else {
        Some(s.to_string())
    }
}

fn ok(errs: Vec<String>) -> bool {
    errs.is_empty()
}

/// Replaces the trailing `Z` of a `Time` string.
fn with_zone(t: &Time, zone: &str) -> String {
    let s = t.to_string();
    format!("{}{zone}", s.strip_suffix('Z').expect("UTC"))
}

// ------------------------------------------------------------- properties

proptest! {
    // ---- JSON round trips

    #[test]
    fn object_meta_json_round_trip(meta in arb_object_meta()) {
        let json = serde_json::to_string(&meta).unwrap();
        let back: ObjectMeta = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &meta);
        let value = serde_json::to_value(&meta).unwrap();
        let back: ObjectMeta = serde_json::from_value(value.clone()).unwrap();
        prop_assert_eq!(&back, &meta);
        // Unset fields are left out, as Go leaves them out.
        for (key, v) in value.as_object().unwrap() {
            let empty = match v {
                Value::String(s) => s.is_empty(),
                Value::Array(a) => a.is_empty(),
                Value::Object(o) => o.is_empty(),
                Value::Null => true,
                Value::Number(n) => key == "generation" && n.as_i64() == Some(0),
                Value::Bool(_) => false,
            };
            prop_assert!(!empty, "{key} = {v}");
        }
    }

    #[test]
    fn list_meta_json_round_trip(meta in arb_list_meta()) {
        let json = serde_json::to_string(&meta).unwrap();
        prop_assert_eq!(serde_json::from_str::<ListMeta>(&json).unwrap(), meta);
    }

    // ---- Time and MicroTime

    #[test]
    fn time_string_round_trip(t in arb_time()) {
        let s = t.to_string();
        prop_assert_eq!(s.len(), 20, "{}", s);
        prop_assert!(s.ends_with('Z'));
        prop_assert_eq!(Time::parse(&s), Ok(t));
        prop_assert_eq!(s.parse::<Time>(), Ok(t));
        let json = serde_json::to_string(&t).unwrap();
        prop_assert_eq!(&json, &format!("\"{s}\""));
        prop_assert_eq!(serde_json::from_str::<Time>(&json).unwrap(), t);
        prop_assert_eq!(Time::from_unix_seconds(t.unix_seconds()), Some(t));
    }

    #[test]
    fn time_strings_sort_like_times(a in arb_time(), b in arb_time()) {
        prop_assert_eq!(a.cmp(&b), a.to_string().cmp(&b.to_string()));
    }

    #[test]
    fn time_offsets_convert_to_utc(
        secs in (MIN_WIRE_SECS + 86_400)..(MAX_WIRE_SECS - 86_400),
        minutes in -(23 * 60 + 59)..=(23 * 60 + 59i64),
    ) {
        let t = Time::from_unix_seconds(secs).unwrap();
        let local = t.checked_add_seconds(minutes * 60).unwrap();
        let sign = if minutes < 0 { '-' } else { '+' };
        let zone = format!("{sign}{:02}:{:02}", minutes.abs() / 60, minutes.abs() % 60);
        let s = with_zone(&local, &zone);
        prop_assert_eq!(Time::parse(&s), Ok(t), "{}", s);
    }

    #[test]
    fn time_drops_fractions(t in arb_time(), digits in "[0-9]{1,12}") {
        let s = with_zone(&t, &format!(".{digits}Z"));
        prop_assert_eq!(Time::parse(&s), Ok(t));
    }

    #[test]
    fn micro_time_round_trip(t in arb_time(), micros in 0u32..1_000_000, extra in "[0-9]{0,3}") {
        let s = with_zone(&t, &format!(".{micros:06}Z"));
        let m = MicroTime::parse(&s).unwrap();
        prop_assert_eq!(m.to_string(), s.clone());
        prop_assert_eq!(MicroTime::parse(&m.to_string()), Ok(m));
        let json = serde_json::to_string(&m).unwrap();
        prop_assert_eq!(serde_json::from_str::<MicroTime>(&json).unwrap(), m);
        // Finer digits are cut, not rounded.
        let finer = with_zone(&t, &format!(".{micros:06}{extra}Z"));
        prop_assert_eq!(MicroTime::parse(&finer), Ok(m));
        // To and from Time.
        prop_assert_eq!(Time::from(m), t);
        prop_assert_eq!(MicroTime::from(t).to_string(), with_zone(&t, ".000000Z"));
        prop_assert_eq!(m.unix_seconds(), t.unix_seconds());
    }

    #[test]
    fn out_of_wire_range_times_do_not_panic(secs in any::<i64>()) {
        // Outside years 0000-9999 the text is not RFC 3339 and does not parse
        // back; it must not panic, and whatever parses back is the same time.
        if let Some(t) = Time::from_unix_seconds(secs) {
            if let Ok(back) = Time::parse(&t.to_string()) {
                prop_assert_eq!(back, t);
            }
            let _ = t.checked_add_seconds(secs);
        }
    }

    // ---- generated names are accepted

    #[test]
    fn regex_strings_are_accepted(
        label in dns1123_label(),
        subdomain in dns1123_subdomain(),
        l1035 in dns1035_label(),
        qualified in qualified_name(),
        value in label_value(),
    ) {
        prop_assert!(ok(names::is_dns1123_label(&label)), "{}", label);
        prop_assert!(oracle_dns1123_label(&label));
        prop_assert!(ok(names::is_dns1123_subdomain(&subdomain)), "{}", subdomain);
        prop_assert!(oracle_dns1123_subdomain(&subdomain));
        prop_assert!(ok(names::is_dns1035_label(&l1035)), "{}", l1035);
        prop_assert!(oracle_dns1035_label(&l1035));
        prop_assert!(ok(names::is_qualified_name(&qualified)), "{}", qualified);
        prop_assert!(oracle_qualified_name(&qualified));
        prop_assert!(ok(names::is_valid_label_value(&value)), "{}", value);
        prop_assert!(oracle_label_value(&value));
        // Names are also names, and label values, and prefixes.
        prop_assert!(ok(names::name_is_dns_label(&label, false)));
        prop_assert!(ok(names::name_is_dns_subdomain(&subdomain, false)));
        prop_assert!(ok(names::name_is_dns1035_label(&l1035, false)));
        prop_assert!(ok(names::validate_namespace_name(&label, false)));
        prop_assert!(ok(names::is_valid_path_segment_name(&subdomain)));
    }

    // ---- validators agree with the oracle, both ways

    #[test]
    fn validators_match_the_oracle(s in name_like()) {
        prop_assert_eq!(ok(names::is_dns1123_label(&s)), oracle_dns1123_label(&s), "label {:?}", s);
        prop_assert_eq!(
            ok(names::is_dns1123_subdomain(&s)),
            oracle_dns1123_subdomain(&s),
            "subdomain {:?}", s
        );
        prop_assert_eq!(ok(names::is_dns1035_label(&s)), oracle_dns1035_label(&s), "1035 {:?}", s);
        prop_assert_eq!(ok(names::is_qualified_name(&s)), oracle_qualified_name(&s), "qualified {:?}", s);
        prop_assert_eq!(ok(names::is_valid_label_value(&s)), oracle_label_value(&s), "value {:?}", s);
        // Prefix mode is the check of the masked name.
        let masked_ok = oracle_mask_trailing_dash(&s).is_some_and(|m| oracle_dns1123_subdomain(&m));
        prop_assert_eq!(ok(names::name_is_dns_subdomain(&s, true)), masked_ok, "prefix {:?}", s);
        // "must not contain dots" exactly when only the dots are wrong.
        let dots = names::is_dns1123_label(&s).iter().any(|m| m == "must not contain dots");
        prop_assert_eq!(dots, !label_shape(&s) && subdomain_shape(&s), "dots {:?}", s);
    }

    #[test]
    fn validators_match_the_oracle_on_any_text(s in any_chars(80)) {
        prop_assert_eq!(ok(names::is_dns1123_label(&s)), oracle_dns1123_label(&s));
        prop_assert_eq!(ok(names::is_dns1123_subdomain(&s)), oracle_dns1123_subdomain(&s));
        prop_assert_eq!(ok(names::is_dns1035_label(&s)), oracle_dns1035_label(&s));
        prop_assert_eq!(ok(names::is_qualified_name(&s)), oracle_qualified_name(&s));
        prop_assert_eq!(ok(names::is_valid_label_value(&s)), oracle_label_value(&s));
    }

    #[test]
    fn name_rules_nest(s in name_like()) {
        let l1035 = ok(names::is_dns1035_label(&s));
        let label = ok(names::is_dns1123_label(&s));
        let subdomain = ok(names::is_dns1123_subdomain(&s));
        prop_assert!(!l1035 || label, "{:?}", s);
        prop_assert!(!label || subdomain, "{:?}", s);
        // A DNS label is also a label key and a label value.
        prop_assert!(!label || ok(names::is_qualified_name(&s)), "{:?}", s);
        prop_assert!(!label || ok(names::is_valid_label_value(&s)), "{:?}", s);
        // A subdomain is always a usable path segment.
        prop_assert!(!subdomain || ok(names::is_valid_path_segment_name(&s)), "{:?}", s);
        // Every rejection says why.
        prop_assert_eq!(names::is_dns1123_subdomain(&s).is_empty(), subdomain);
    }

    // ---- generateName

    #[test]
    fn generated_names_from_accepted_prefixes(
        prefix in prop_oneof![
            // Realistic prefixes: a name and a dash.
            (dns1123_subdomain(), any::<bool>()).prop_map(|(mut s, dash)| {
                s.truncate(57);
                while s.ends_with(['.', '-']) {
                    s.pop();
                }
                if dash {
                    s.push('-');
                }
                s
            }),
            // Anything made of name characters, to find the odd accepted ones.
            "[a-z0-9.-]{1,8}",
            "[a-z0-9][-a-z0-9.]{0,57}",
        ]
    ) {
        // Only prefixes the apiserver accepts, of at most 58 bytes, are kept whole.
        if prefix.len() <= names::MAX_GENERATED_NAME_PREFIX_LENGTH
            && ok(names::name_is_dns_subdomain(&prefix, true))
        {
            let name = names::generate_name(&prefix);
            prop_assert_eq!(name.len(), prefix.len() + names::GENERATED_NAME_RANDOM_LENGTH);
            prop_assert!(name.len() <= 63);
            prop_assert!(name.starts_with(&prefix));
            prop_assert!(
                name[prefix.len()..].chars().all(|c| names::GENERATED_NAME_ALPHABET.contains(c))
            );
            let valid = ok(names::is_dns1123_subdomain(&name));
            // The suffix is lowercase alphanumeric, so the name is valid
            // exactly when the prefix followed by any such letter is.
            prop_assert_eq!(valid, oracle_dns1123_subdomain(&format!("{prefix}a")), "{:?}", name);
            // Go's maskTrailingDash checks `prefix[..len-2] + "a"`, so it
            // vouches for the name only when the prefix ends in a name
            // character and a dash, or in no dash at all; `a.-` and `--`
            // are accepted prefixes whose names are not (see below).
            let before_dash = prefix.strip_suffix('-').map(|head| head.chars().last());
            match before_dash {
                None => prop_assert!(valid, "{:?}", name),
                Some(Some(c)) if lower_alnum(c) => prop_assert!(valid, "{:?}", name),
                _ => {}
            }
        }
    }

    // ---- no panics on arbitrary input

    #[test]
    fn validators_never_panic(s in prop_oneof![any_chars(300), name_like()]) {
        let _ = names::is_dns1123_label(&s);
        let _ = names::is_dns1123_subdomain(&s);
        let _ = names::is_dns1035_label(&s);
        let _ = names::is_qualified_name(&s);
        let _ = names::is_valid_label_value(&s);
        let _ = names::is_valid_path_segment_name(&s);
        let _ = names::is_valid_path_segment_prefix(&s);
        let _ = names::mask_trailing_dash(&s);
        for prefix in [false, true] {
            let _ = names::name_is_dns_subdomain(&s, prefix);
            let _ = names::name_is_dns_label(&s, prefix);
            let _ = names::name_is_dns1035_label(&s, prefix);
            let _ = names::validate_path_segment_name(&s, prefix);
            let _ = names::validate_namespace_name(&s, prefix);
        }
        let _ = names::generate_name(&s);
        let _ = parse_group_version(&s);
        let errs = validate_field_manager(&s, &METADATA_PATH);
        let bad_chars = s.chars().filter(|&c| !is_go_printable(c)).count();
        let too_long = usize::from(s.len() > 128);
        prop_assert_eq!(errs.len(), bad_chars + too_long);
    }

    #[test]
    fn time_parsing_never_panics(
        s in prop_oneof![
            any_chars(40),
            // Near misses of the format: any digits, any separators, odd zones.
            "[0-9+-]{4,6}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,12})?(Z|z|[+-][0-9]{2}:?[0-9]{2}|)",
            "[0-9T:Z.+-]{0,30}",
        ]
    ) {
        let t = Time::parse(&s);
        let m = MicroTime::parse(&s);
        // Whatever parses is printed back in the canonical form, which parses
        // to the same value.
        if let Ok(t) = t {
            prop_assert_eq!(Time::parse(&t.to_string()), Ok(t));
        }
        if let Ok(m) = m {
            prop_assert_eq!(MicroTime::parse(&m.to_string()), Ok(m));
        }
        // Time and MicroTime accept the same strings.
        prop_assert_eq!(t.is_ok(), m.is_ok());
        let _ = serde_json::from_value::<Time>(Value::String(s.clone()));
        if let Err(e) = Time::parse(&s) {
            prop_assert!(e.to_string().starts_with("invalid timestamp"));
        }
    }

    #[test]
    fn object_meta_validation_never_panics(new in arb_object_meta(), old in arb_object_meta()) {
        for namespaced in [false, true] {
            let errs = validate_object_meta(&new, namespaced, names::name_is_dns_subdomain, &METADATA_PATH);
            prop_assert!(errs.iter().all(|e| e.field.starts_with("metadata")));
            prop_assert!(errs.iter().all(|e| !e.to_string().is_empty()));
        }
        let errs = validate_object_meta_update(&new, &old, &METADATA_PATH);
        prop_assert!(errs.iter().all(|e| e.field.starts_with("metadata")));
        prop_assert!(validate_object_meta_update(&old, &old, &METADATA_PATH)
            .iter()
            .all(|e| !e.detail.contains("immutable") && e.field != "metadata.generation"));
    }

    #[test]
    fn valid_metadata_has_no_errors(
        name in dns1123_subdomain(),
        namespace in dns1123_label(),
        generation in 0i64..,
        labels in prop::collection::btree_map(qualified_name(), label_value(), 0..4),
        annotations in prop::collection::btree_map(qualified_name(), any_chars(20), 0..4),
        finalizers in prop::collection::vec(qualified_name(), 0..3),
    ) {
        let meta = ObjectMeta {
            name,
            namespace,
            generation,
            labels,
            annotations,
            finalizers,
            resource_version: "1".into(),
            ..Default::default()
        };
        let errs = validate_object_meta(&meta, true, names::name_is_dns_subdomain, &METADATA_PATH);
        prop_assert!(errs.is_empty(), "{}", errs);
        let errs = validate_object_meta_update(&meta, &meta, &METADATA_PATH);
        prop_assert!(errs.is_empty(), "{}", errs);
    }
}

// ------------------------------------------------- examples the properties describe

#[test]
fn accepted_prefixes_whose_generated_names_are_not_names() {
    // Go's maskTrailingDash drops two bytes, so these prefixes pass the
    // generateName check while every name generated from them fails the
    // name check (the apiserver then reports metadata.name).
    for prefix in ["a.-", "--", "a.--", "x.y.-"] {
        assert!(
            names::name_is_dns_subdomain(prefix, true).is_empty(),
            "{prefix}"
        );
        let name = names::generate_name(prefix);
        assert!(!names::is_dns1123_subdomain(&name).is_empty(), "{name}");
    }
    // The usual shape is fine.
    let name = names::generate_name("web-");
    assert!(names::is_dns1123_subdomain(&name).is_empty(), "{name}");
}

#[test]
fn oracle_sanity() {
    assert!(oracle_dns1123_label("a-1"));
    assert!(!oracle_dns1123_label("a.b"));
    assert!(oracle_dns1123_subdomain("a.b"));
    assert!(!oracle_dns1123_subdomain("a..b"));
    assert!(!oracle_dns1035_label("1a"));
    assert!(oracle_qualified_name("example.com/My_Name"));
    assert!(!oracle_qualified_name("/a"));
    assert!(!oracle_qualified_name("a/b/c"));
    assert!(oracle_label_value(""));
    assert!(!oracle_label_value("-"));
    assert_eq!(oracle_mask_trailing_dash("abc-").as_deref(), Some("aba"));
    assert_eq!(oracle_mask_trailing_dash("é-"), None);
}

//! Checking that a `pattern` compiles as a Go (RE2) regular expression with
//! the `regex` crate, which has the same syntax family.
//!
//! The crate is built without Unicode tables for general categories,
//! scripts and case folding, so the pattern is first rewritten into one
//! that compiles exactly when Go's would: `\Q…\E` is turned into escaped
//! literals, `\p{…}` classes Go knows become `\d`, and the `i` flag is
//! dropped. Go's limit of 1000 on repetition counts is enforced here, and a
//! compiled program that is merely too big is accepted.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use regex::Regex;

/// Go's `syntax.maxRepeat`.
const MAX_REPEAT: u32 = 1000;

/// Unicode general categories and scripts Go's `regexp/syntax` knows.
const GO_UNICODE_CLASSES: &[&str] = &[
    "Any",
    "C",
    "Cc",
    "Cf",
    "Co",
    "Cs",
    "L",
    "Ll",
    "Lm",
    "Lo",
    "Lt",
    "Lu",
    "M",
    "Mc",
    "Me",
    "Mn",
    "N",
    "Nd",
    "Nl",
    "No",
    "P",
    "Pc",
    "Pd",
    "Pe",
    "Pf",
    "Pi",
    "Po",
    "Ps",
    "S",
    "Sc",
    "Sk",
    "Sm",
    "So",
    "Z",
    "Zl",
    "Zp",
    "Zs",
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Kawi",
    "Katakana",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Toto",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];

/// `Ok(())` if `pattern` compiles as a Go regular expression, else the
/// error in Go's words (`error parsing regexp: …`).
pub(super) fn check(pattern: &str) -> Result<(), String> {
    let rewritten = rewrite(pattern)?;
    match Regex::new(&rewritten) {
        Ok(_) | Err(regex::Error::CompiledTooBig(_)) => Ok(()),
        Err(e) => {
            let text = e.to_string();
            let reason = text
                .lines()
                .find_map(|l| l.strip_prefix("error: "))
                .unwrap_or(text.as_str());
            Err(format!("error parsing regexp: {reason}: `{pattern}`"))
        }
    }
}

/// Compiles `pattern` for matching, if it can be compiled with this build
/// of the `regex` crate (used to validate values and defaults). Compiled
/// patterns are cached: values are validated against the same schemas
/// over and over, and compiling costs far more than matching. The cache
/// holds at most [`CACHED_PATTERNS`] patterns; others compile every time.
pub(super) fn compile(pattern: &str) -> Option<Arc<Regex>> {
    if let Some(found) = CACHE.read().unwrap_or_else(|e| e.into_inner()).get(pattern) {
        return found.clone();
    }
    let compiled = Regex::new(&rewrite_for_matching(pattern))
        .ok()
        .map(Arc::new);
    let mut cache = CACHE.write().unwrap_or_else(|e| e.into_inner());
    if cache.len() < CACHED_PATTERNS {
        cache.insert(pattern.to_string(), compiled.clone());
    }
    compiled
}

/// How many compiled patterns [`compile`] keeps.
const CACHED_PATTERNS: usize = 4096;

static CACHE: LazyLock<RwLock<HashMap<String, Option<Arc<Regex>>>>> =
    LazyLock::new(Default::default);

fn rewrite_for_matching(pattern: &str) -> String {
    // Only `\Q…\E` needs rewriting to match; patterns that need Unicode
    // tables fail to compile and are then not checked.
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' && chars.get(i + 1) == Some(&'Q') {
            let (lit, next) = quoted(&chars, i + 2);
            out.push_str(&regex::escape(&lit));
            i = next;
        } else if chars[i] == '\\' && i + 1 < chars.len() {
            out.push(chars[i]);
            out.push(chars[i + 1]);
            i += 2;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The literal of `\Q…\E` starting at `start` (after `\Q`), and the index
/// after the closing `\E` (or the end).
fn quoted(chars: &[char], start: usize) -> (String, usize) {
    let mut j = start;
    while j < chars.len() {
        if chars[j] == '\\' && chars.get(j + 1) == Some(&'E') {
            return (chars[start..j].iter().collect(), j + 2);
        }
        j += 1;
    }
    (chars[start..].iter().collect(), chars.len())
}

fn rewrite(pattern: &str) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    let mut in_class = false;
    // Where the previous repetition operator started, if the last token
    // was one (Go rejects stacked operators such as `a**`).
    let mut last_repeat: Option<usize> = None;
    while i < chars.len() {
        let c = chars[i];
        if !in_class {
            let op_end = match c {
                '*' | '+' | '?' => Some(i),
                '{' => repeat(&chars, i + 1).map(|(end, _)| end),
                _ => None,
            };
            if let Some(end) = op_end {
                if let Some(start) = last_repeat {
                    let text: String = chars[start..=end].iter().collect();
                    return Err(format!(
                        "error parsing regexp: invalid nested repetition operator: `{text}`"
                    ));
                }
                if c == '{'
                    && let Some((_, counts)) = repeat(&chars, i + 1)
                    && counts.iter().any(|&n| n > MAX_REPEAT)
                {
                    let text: String = chars[i..=end].iter().collect();
                    return Err(format!(
                        "error parsing regexp: invalid repeat count: `{text}`"
                    ));
                }
                let mut next = end + 1;
                if chars.get(next) == Some(&'?') {
                    next += 1; // non-greedy
                }
                out.extend(&chars[i..next]);
                last_repeat = Some(i);
                i = next;
                continue;
            }
            last_repeat = None;
            if c == '{' {
                // not a repetition in Go: a literal brace
                out.push_str("\\{");
                i += 1;
                continue;
            }
        }
        if c == '\\' {
            match chars.get(i + 1) {
                None => {
                    out.push('\\');
                    i += 1;
                }
                Some('Q') if !in_class => {
                    let (lit, next) = quoted(&chars, i + 2);
                    out.push_str(&regex::escape(&lit));
                    i = next;
                }
                Some(&p @ ('p' | 'P')) => {
                    let (name, next) = if chars.get(i + 2) == Some(&'{') {
                        match chars[i + 3..].iter().position(|&c| c == '}') {
                            Some(end) => (
                                chars[i + 3..i + 3 + end].iter().collect::<String>(),
                                i + 4 + end,
                            ),
                            None => (String::new(), chars.len()),
                        }
                    } else {
                        (
                            chars.get(i + 2).map(|c| c.to_string()).unwrap_or_default(),
                            i + 3,
                        )
                    };
                    let bare = name.strip_prefix('^').unwrap_or(&name);
                    if GO_UNICODE_CLASSES.contains(&bare) {
                        out.push_str(if p == 'p' { "\\d" } else { "\\D" });
                    } else {
                        out.extend(&chars[i..next.min(chars.len())]);
                    }
                    i = next;
                }
                Some(&n) => {
                    out.push('\\');
                    out.push(n);
                    i += 2;
                }
            }
        } else if in_class {
            if c == '[' && chars.get(i + 1) == Some(&':') {
                // a POSIX class `[:alpha:]`
                if let Some(end) = find(&chars, i + 2, ":]") {
                    out.extend(&chars[i..end + 2]);
                    i = end + 2;
                    continue;
                }
            }
            if c == ']' {
                in_class = false;
            }
            out.push(c);
            i += 1;
        } else if c == '[' {
            in_class = true;
            out.push('[');
            i += 1;
            if chars.get(i) == Some(&'^') {
                out.push('^');
                i += 1;
            }
            if chars.get(i) == Some(&']') {
                out.push(']');
                i += 1;
            }
        } else if c == '(' && chars.get(i + 1) == Some(&'?') {
            let mut j = i + 2;
            while j < chars.len() && (chars[j].is_ascii_alphabetic() || chars[j] == '-') {
                j += 1;
            }
            let flags: String = chars[i + 2..j].iter().collect();
            match chars.get(j) {
                Some(&end @ (')' | ':')) if !flags.contains('P') => {
                    let kept: String = flags.chars().filter(|&f| f != 'i').collect();
                    let kept = kept.trim_end_matches('-');
                    if end == ')' {
                        if !kept.is_empty() {
                            out.push_str("(?");
                            out.push_str(kept);
                            out.push(')');
                        }
                    } else if kept.is_empty() {
                        out.push_str("(?:");
                    } else {
                        out.push_str("(?");
                        out.push_str(kept);
                        out.push(':');
                    }
                    i = j + 1;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    Ok(out)
}

fn find(chars: &[char], from: usize, needle: &str) -> Option<usize> {
    let n: Vec<char> = needle.chars().collect();
    (from..chars.len().saturating_sub(n.len() - 1)).find(|&k| chars[k..].starts_with(&n))
}

/// Parses `n}`, `n,}` or `n,m}` starting at `start`; returns the index of
/// `}` and the counts.
fn repeat(chars: &[char], start: usize) -> Option<(usize, Vec<u32>)> {
    let mut counts = Vec::new();
    let mut j = start;
    let mut digits = String::new();
    while j < chars.len() {
        let c = chars[j];
        if c.is_ascii_digit() {
            digits.push(c);
        } else if c == ',' && counts.is_empty() && !digits.is_empty() {
            counts.push(digits.parse().unwrap_or(u32::MAX));
            digits.clear();
        } else if c == '}' {
            if !digits.is_empty() {
                counts.push(digits.parse().unwrap_or(u32::MAX));
            }
            return (!counts.is_empty()).then_some((j, counts));
        } else {
            return None;
        }
        j += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_patterns() {
        for ok in [
            "^[a-z]+$",
            r"\p{L}+",
            r"\pL",
            r"[\p{Greek}\d]",
            r"(?i)abc",
            r"(?i:abc)",
            r"(?im)^a$",
            r"(?P<name>a)",
            r"\Qa.b(\E",
            r"[[:alpha:]]",
            r"^[\w]{1,1000}$",
            r"[]a]",
            "a*?b+?c??d{2}?",
            "(a*)*",
            "a{,2}",
            "a{x}",
            "",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
        for bad in [
            "(",
            "[a-",
            r"\p{Nope}",
            "a{1001}",
            "a**",
            "a+?+",
            "a{2}{3}",
            "a???",
            r"\8",
        ] {
            assert!(check(bad).is_err(), "{bad}");
        }
        assert_eq!(
            check("a{2,1001}").unwrap_err(),
            "error parsing regexp: invalid repeat count: `{2,1001}`"
        );
        assert!(
            check("(")
                .unwrap_err()
                .starts_with("error parsing regexp: ")
        );
    }
}

//! The value keywords of the `#[kube(...)]` attributes (`minimum`,
//! `max_length`, `pattern`, ...) in one table: the attribute names, the
//! OpenAPI keywords they write, the bit that records them in a type's
//! compile-time facts, the run-time check that enforces them, and their
//! documentation.
//!
//! Internal: api-derive (which parses the attributes and writes the bits
//! into generated code by name) and api-core (which defines the bits, writes
//! the schema and checks values) both read this table, so that the two
//! crates cannot disagree. Use `api_core`; nothing here is a public API.
//!
//! Adding a keyword: a row here, its field in api-derive's
//! `model::attrs::Validations` and `check::keywords::CheckedKeywords`, and
//! its field in api-core's `__private::Keywords` with the check. Tests on
//! both sides fail until every column of the row is backed by code.
#![no_std]

/// Where api-core enforces a keyword when a value is validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// By `checks::number` (integers and numbers).
    Number,
    /// By `checks::string`.
    String,
    /// By `checks::items` (the length of a list).
    Items,
    /// By `checks::properties` (the size of a map).
    Properties,
    /// Not at run time: the keyword documents (`example`) or is left to
    /// consumers of the schema (`format`, as the apiserver's CRD validation
    /// only checks some formats).
    None,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Keyword {
    /// The attribute names that declare it (`#[kube(min_length = 1)]`).
    pub attrs: &'static [&'static str],
    /// The OpenAPI v3 keywords it writes into the schema.
    pub schema: &'static [&'static str],
    /// The name of its bit in `api_core::__private::facts` (`KW_*`).
    pub fact: &'static str,
    /// The bit, also the value of [`bits`]`::<fact>`.
    pub bit: u32,
    /// Where the value is checked at run time.
    pub check: Check,
    /// What it means, for docs and error messages.
    pub doc: &'static str,
}

impl Keyword {
    /// The row whose [`fact`](Keyword::fact) is `name`.
    pub fn by_fact(name: &str) -> Option<&'static Keyword> {
        TABLE.iter().find(|k| k.fact == name)
    }
}

macro_rules! table {
    ($(
        $row:ident / $fact:ident = 1 << $shift:literal,
        attrs [$($attr:literal),+], schema [$($kw:literal),+], $check:ident,
        $doc:literal;
    )+) => {
        $(
            #[doc = $doc]
            pub const $row: Keyword = Keyword {
                attrs: &[$($attr),+],
                schema: &[$($kw),+],
                fact: stringify!($fact),
                bit: 1 << $shift,
                check: Check::$check,
                doc: $doc,
            };
        )+

        /// Every keyword, in bit order.
        pub const TABLE: &[Keyword] = &[$($row),+];

        /// The bits, named as api-core's facts name them (re-exported there).
        pub mod bits {
            $(
                #[doc = $doc]
                pub const $fact: u32 = 1 << $shift;
            )+
        }
    };
}

table! {
    MINIMUM / KW_MINIMUM = 1 << 0,
        attrs ["minimum", "exclusive_minimum"], schema ["minimum", "exclusiveMinimum"], Number,
        "The lower bound of a number (`minimum` / `exclusive_minimum`).";
    MAXIMUM / KW_MAXIMUM = 1 << 1,
        attrs ["maximum", "exclusive_maximum"], schema ["maximum", "exclusiveMaximum"], Number,
        "The upper bound of a number (`maximum` / `exclusive_maximum`).";
    MULTIPLE_OF / KW_MULTIPLE_OF = 1 << 2,
        attrs ["multiple_of"], schema ["multipleOf"], Number,
        "A number must be a multiple of this (`multiple_of`).";
    MIN_LENGTH / KW_MIN_LENGTH = 1 << 3,
        attrs ["min_length"], schema ["minLength"], String,
        "The least number of characters of a string (`min_length`).";
    MAX_LENGTH / KW_MAX_LENGTH = 1 << 4,
        attrs ["max_length"], schema ["maxLength"], String,
        "The most characters of a string (`max_length`).";
    PATTERN / KW_PATTERN = 1 << 5,
        attrs ["pattern"], schema ["pattern"], String,
        "A regular expression a string must match (`pattern`).";
    FORMAT / KW_FORMAT = 1 << 6,
        attrs ["format"], schema ["format"], None,
        "The format of a string or number (`format`).";
    MIN_ITEMS / KW_MIN_ITEMS = 1 << 7,
        attrs ["min_items"], schema ["minItems"], Items,
        "The least number of items of a list (`min_items`).";
    MAX_ITEMS / KW_MAX_ITEMS = 1 << 8,
        attrs ["max_items"], schema ["maxItems"], Items,
        "The most items of a list (`max_items`).";
    MIN_PROPERTIES / KW_MIN_PROPERTIES = 1 << 9,
        attrs ["min_properties"], schema ["minProperties"], Properties,
        "The least number of entries of a map (`min_properties`).";
    MAX_PROPERTIES / KW_MAX_PROPERTIES = 1 << 10,
        attrs ["max_properties"], schema ["maxProperties"], Properties,
        "The most entries of a map (`max_properties`).";
    ENUM / KW_ENUM = 1 << 11,
        attrs ["enum"], schema ["enum"], String,
        "The values a string may take (`enum = [...]`).";
    EXAMPLE / KW_EXAMPLE = 1 << 12,
        attrs ["example"], schema ["example"], None,
        "An example value (`example = ...`).";
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::collections::BTreeSet;

    /// Bits are distinct single bits; attribute and schema names are unique.
    #[test]
    fn rows_are_distinct() {
        let mut all = 0u32;
        for k in TABLE {
            assert_eq!(k.bit.count_ones(), 1, "{}", k.fact);
            assert_eq!(all & k.bit, 0, "{} reuses a bit", k.fact);
            all |= k.bit;
            assert!(k.fact.starts_with("KW_"), "{}", k.fact);
            assert_eq!(Keyword::by_fact(k.fact).map(|r| r.bit), Some(k.bit));
        }
        let attrs: BTreeSet<_> = TABLE.iter().flat_map(|k| k.attrs).collect();
        let schema: BTreeSet<_> = TABLE.iter().flat_map(|k| k.schema).collect();
        let n = |f: fn(&Keyword) -> usize| TABLE.iter().map(f).sum::<usize>();
        assert_eq!(attrs.len(), n(|k| k.attrs.len()));
        assert_eq!(schema.len(), n(|k| k.schema.len()));
    }

    /// Every attribute of the table is documented in the README's list of
    /// field attributes.
    #[test]
    fn readme_documents_every_attribute() {
        let readme = include_str!("../../README.md");
        let section = readme
            .split("On fields (of `KubeResource` and `ApiType` types)")
            .nth(1)
            .and_then(|s| s.split("\n\n").next())
            .expect("the README lists the field attributes");
        for attr in TABLE.iter().flat_map(|k| k.attrs) {
            assert!(
                section.contains(&std::format!("`{attr}`")),
                "README does not document `{attr}`"
            );
        }
    }
}

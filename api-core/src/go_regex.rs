//! Go's regular expressions (RE2, as Go's `regexp` reads them) matched with
//! the `regex` crate: one translator and one cache for every pattern this
//! crate compiles — schema `pattern`s (when values are validated and when
//! the structural checker checks a schema), the typed `pattern` checks
//! derived code runs ([`crate::checks`]), and CEL's `matches`, `find` and
//! `findAll`.
//!
//! A pattern is read the way Go's `regexp/syntax` parser reads it (Perl
//! flags), with Go's errors (`error parsing regexp: missing closing ): ...`),
//! then rewritten for the `regex` crate with Go's meaning where the two
//! dialects differ:
//!
//! * `\d`, `\s`, `\w` and `\b` are ASCII, as in Go (`\s` without `\v`);
//! * `[`, `&`, `-` and `~` are plain characters in a class (the `regex`
//!   crate nests classes and has set operations);
//! * `\Q...\E`, octal escapes and `\p{^Name}` are Go's;
//! * `\p{...}` takes the names Go 1.25 knows (its categories, their aliases,
//!   `Cn`, `LC`, `Any`, `ASCII`, `Assigned` and its scripts, looked up
//!   ignoring case, spaces, `_` and `-`), and a script is the script, not
//!   its extensions;
//! * a `{` that does not start a repetition is a literal;
//! * stacked repetitions (`a**`, `x++`, `a{2}{3}`), repetitions of more
//!   than 1000 copies and Perl syntax Go lacks (`(?=`, `(?x)`) are errors.
//!
//! Left as they are: the Unicode version of the tables (the `regex`
//! crate's against Go's); the `regex` crate refuses patterns nested more
//! than 250 deep (Go: 1000), reported as Go's `expression nests too
//! deeply`, and compiled patterns over its size limit (reported as
//! `expression too large`, but not an error for [`check`], since Go's
//! limit is higher).
//!
//! # Without the Unicode tables
//!
//! `\p{...}` (but for `Any` and `ASCII`) and case folding (`(?i)`) need the
//! `regex` crate's Unicode tables for general categories, scripts and case
//! folding. Feature `cel` turns them on; without it, api-core does not (to
//! keep them out of binaries that do not need them), though another crate
//! in the build may. When they are missing, such a pattern is read and
//! checked as with the tables — [`check`] accepts exactly the same patterns,
//! with the same errors — but it cannot be matched: [`compile`] says
//! [`Error::Unsupported`], and the schema `pattern` and typed `pattern`
//! checks then do not check values against it (as before this module;
//! Go checks them).

mod names;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, PoisonError, RwLock};

use regex::Regex;

/// Why a pattern has no compiled regex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Error {
    /// Go's `regexp` refuses it (or it nests deeper than the `regex` crate
    /// reads): Go's message (`error parsing regexp: ...`).
    Invalid(String),
    /// Go's `regexp` takes it, but this build cannot match it: it needs
    /// Unicode tables the build lacks, or it is over the `regex` crate's
    /// size limit.
    Unsupported(String),
}

impl Error {
    /// The message, in Go's words when Go has one.
    #[cfg_attr(not(feature = "cel"), allow(dead_code))]
    pub(crate) fn message(&self) -> &str {
        match self {
            Error::Invalid(m) | Error::Unsupported(m) => m,
        }
    }
}

/// A compiled pattern, or why there is none.
pub(crate) type Compiled = Result<Arc<Regex>, Error>;

/// `Ok(())` if Go's `regexp` compiles `pattern`, else Go's error
/// (`error parsing regexp: ...`). A pattern this build cannot match
/// (see [`Error::Unsupported`]) is accepted.
pub(crate) fn check(pattern: &str) -> Result<(), String> {
    match compile(pattern) {
        Ok(_) | Err(Error::Unsupported(_)) => Ok(()),
        Err(Error::Invalid(e)) => Err(e),
    }
}

/// `pattern` compiled with Go's syntax and meaning, from the cache.
pub(crate) fn compile(pattern: &str) -> Compiled {
    CACHE.get(pattern, |p| build(p, *TABLES))
}

/// Whether the `regex` crate has the Unicode tables `\p{...}` and `(?i)`
/// need (general categories, scripts, case folding).
static TABLES: LazyLock<bool> = LazyLock::new(|| Regex::new(r"(?i)[\p{gc=L}\p{sc=Greek}]").is_ok());

/// How many patterns each generation of the cache holds: it keeps at most
/// twice as many.
const GENERATION: usize = 256;

/// The compiled patterns, shared by all threads: compiling costs far more
/// than matching, and the same schemas and rules see value after value.
/// Bounded, since patterns may come from the values CEL rules read: of
/// two generations, the current one takes new patterns and those of the
/// previous one that are used again; when it is full, it becomes the
/// previous one (and the previous one is dropped): a pattern not used
/// while a generation fills is dropped, and hostile patterns cannot push
/// out those in use for long. A pattern is compiled outside the lock.
static CACHE: LazyLock<Cache> = LazyLock::new(Cache::default);

/// See [`CACHE`].
#[derive(Default)]
struct Cache(RwLock<Generations>);

#[derive(Default)]
struct Generations {
    current: HashMap<String, Compiled>,
    previous: HashMap<String, Compiled>,
}

impl Cache {
    /// The entry of `pattern`, made by `build` when there is none.
    fn get(&self, pattern: &str, build: impl FnOnce(&str) -> Compiled) -> Compiled {
        if let Some(found) = self.read().current.get(pattern) {
            return found.clone();
        }
        {
            let mut cache = self.write();
            if let Some(found) = cache.current.get(pattern) {
                return found.clone();
            }
            if let Some((key, found)) = cache.previous.remove_entry(pattern) {
                cache.insert(key, found.clone());
                return found;
            }
        }
        let compiled = build(pattern);
        self.write().insert(pattern.to_owned(), compiled.clone());
        compiled
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Generations> {
        self.0.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Generations> {
        self.0.write().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Generations {
    fn insert(&mut self, pattern: String, compiled: Compiled) {
        if self.current.len() >= GENERATION {
            self.previous = std::mem::take(&mut self.current);
        }
        self.current.insert(pattern, compiled);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.current.len() + self.previous.len()
    }
}

/// `pattern` as Go's `regexp.Compile` reads it, compiled for the `regex`
/// crate; `tables` says whether the crate has its Unicode tables.
fn build(pattern: &str, tables: bool) -> Compiled {
    let mut translator = Translator::new(pattern);
    let translated = translator.run().map_err(Error::Invalid)?;
    if translator.needs_tables && !tables {
        return Err(Error::Unsupported(go_error(
            "Unicode classes and case folding need Unicode tables this build lacks",
            pattern,
        )));
    }
    regex::RegexBuilder::new(&translated)
        .build()
        .map(Arc::new)
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => {
                Error::Unsupported(go_error("expression too large", pattern))
            }
            regex::Error::Syntax(s) if s.contains("nested") => {
                Error::Invalid(go_error("expression nests too deeply", pattern))
            }
            other => {
                let detail = other.to_string();
                let last = detail.lines().last().unwrap_or_default();
                let last = last.strip_prefix("error: ").unwrap_or(last);
                Error::Invalid(go_error(last, pattern))
            }
        })
}

/// A `regexp/syntax.Error` as Go prints it.
fn go_error(code: &str, expr: &str) -> String {
    format!("error parsing regexp: {code}: `{expr}`")
}

const INVALID_CHAR_CLASS_RANGE: &str = "invalid character class range";
const INVALID_ESCAPE: &str = "invalid escape sequence";
const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const MISSING_BRACKET: &str = "missing closing ]";
const MISSING_PAREN: &str = "missing closing )";
const MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const UNEXPECTED_PAREN: &str = "unexpected )";

/// The most copies of a sub-expression nested repetitions may make
/// (`repeatIsValid(re, 1000)`).
const MAX_REPEAT: u64 = 1000;

/// The ASCII classes of `[[:name:]]`, which both dialects know.
const POSIX_CLASSES: [&str; 14] = [
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "word", "xdigit",
];

/// What a repetition would apply to: the last thing parsed.
#[derive(Clone, Copy)]
struct Operand {
    /// The fewest copies a repetition of it must be allowed (Go's
    /// `repeatIsValid`, as a number).
    need: u64,
    /// Where it ends in the output: a repetition goes there (after it, and
    /// before any flag group that followed it).
    end: usize,
}

/// Reads a pattern as Go's `regexp/syntax` does (Perl flags) and writes it
/// for the `regex` crate.
struct Translator<'a> {
    whole: &'a str,
    out: String,
    /// The largest `need` of what each open group holds so far; the first
    /// is the pattern itself.
    groups: Vec<u64>,
    /// What a repetition would apply to; `None` at the start of a group or
    /// of an alternative.
    last: Option<Operand>,
    /// Whether the pattern has `\p{...}` classes or case folding, which
    /// need the `regex` crate's Unicode tables.
    needs_tables: bool,
}

/// The `\d \s \w` classes and their negations, as the `regex` crate's
/// class items.
fn perl_class(c: char) -> Option<(&'static str, bool)> {
    match c {
        'd' => Some(("0-9", false)),
        'D' => Some(("0-9", true)),
        's' => Some((r"\x{9}\x{A}\x{C}\x{D}\x{20}", false)),
        'S' => Some((r"\x{9}\x{A}\x{C}\x{D}\x{20}", true)),
        'w' => Some(("0-9A-Za-z_", false)),
        'W' => Some(("0-9A-Za-z_", true)),
        _ => None,
    }
}

/// `c` written so that it means itself anywhere in a `regex` pattern.
fn push_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        out.push_str(&format!(r"\x{{{:X}}}", u32::from(c)));
    }
}

/// A rune of a Go escape: a surrogate is a rune no string holds.
fn push_rune(out: &mut String, r: u32) {
    match char::from_u32(r) {
        Some(c) => push_char(out, c),
        // Matches nothing, as a surrogate literal does in Go.
        None => out.push_str(r"[^\x{0}-\x{10FFFF}]"),
    }
}

fn is_octal(b: Option<&u8>) -> bool {
    matches!(b, Some(b'0'..=b'7'))
}

fn hex_value(c: char) -> Option<u32> {
    c.to_digit(16)
}

/// Go's `parseInt` of a repetition count: digits without a leading zero,
/// `-1` when too large.
fn parse_count(s: &str) -> Option<(i64, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits >= 2 && s.starts_with('0')) {
        return None;
    }
    let mut n: i64 = 0;
    for b in s[..digits].bytes() {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(b - b'0');
    }
    Some((n, &s[digits..]))
}

/// Go's `parseRepeat` of `{n}`, `{n,}` or `{n,m}` at the start of `s`:
/// `(min, max, rest)`, `max` being `-1` for no maximum.
fn parse_repeat(s: &str) -> Option<(i64, i64, &str)> {
    let s = s.strip_prefix('{')?;
    let (mut min, s) = parse_count(s)?;
    let (max, s) = match s.strip_prefix(',') {
        None => (min, s),
        Some(rest) if rest.starts_with('}') => (-1, rest),
        Some(rest) => {
            let (max, rest) = parse_count(rest)?;
            if max < 0 {
                min = -1;
            }
            (max, rest)
        }
    };
    let rest = s.strip_prefix('}')?;
    Some((min, max, rest))
}

/// The needs of a repetition `{min,max}` of something that needs `sub`
/// (Go's `repeatIsValid`, solved for `n`).
fn repeat_need(min: i64, max: i64, sub: u64) -> u64 {
    if max == 0 {
        return 1;
    }
    let m = if max < 0 { min } else { max };
    match u64::try_from(m) {
        Ok(0) | Err(_) => sub,
        Ok(m) => m.saturating_mul(sub.max(1)),
    }
}

impl<'a> Translator<'a> {
    fn new(whole: &'a str) -> Self {
        Translator {
            whole,
            out: String::with_capacity(whole.len() * 2),
            groups: vec![0],
            last: None,
            needs_tables: false,
        }
    }

    /// Closes the last operand: nothing can repeat it any more.
    fn settle(&mut self) {
        if let Some(op) = self.last.take()
            && let Some(need) = self.groups.last_mut()
        {
            *need = (*need).max(op.need);
        }
    }

    /// Starts a new operand of one copy, written by `write`.
    fn atom(&mut self, write: impl FnOnce(&mut String)) {
        self.settle();
        write(&mut self.out);
        self.last = Some(Operand {
            need: 1,
            end: self.out.len(),
        });
    }

    /// The pattern for the `regex` crate, or Go's error.
    fn run(&mut self) -> Result<String, String> {
        let mut t = self.whole;
        // Where the repetition just read started: a repetition right after
        // it is stacked.
        let mut last_repeat: Option<&'a str> = None;
        while let Some(c) = t.chars().next() {
            let before = t;
            let mut repeat = None;
            match c {
                '(' => t = self.open_group(t)?,
                '|' => {
                    self.settle();
                    self.out.push('|');
                    t = &t[1..];
                }
                ')' => {
                    self.settle();
                    if self.groups.len() < 2 {
                        return Err(go_error(UNEXPECTED_PAREN, self.whole));
                    }
                    let need = self.groups.pop().unwrap_or(1).max(1);
                    self.out.push(')');
                    self.last = Some(Operand {
                        need,
                        end: self.out.len(),
                    });
                    t = &t[1..];
                }
                '^' | '$' | '.' => {
                    self.atom(|out| out.push(c));
                    t = &t[1..];
                }
                '[' => t = self.class(t)?,
                '*' | '+' | '?' => {
                    t = self.repeat(before, &t[1..], None, last_repeat)?;
                    repeat = Some(before);
                }
                '{' => match parse_repeat(t) {
                    None => {
                        // Not a repetition: a literal `{`.
                        self.atom(|out| push_char(out, '{'));
                        t = &t[1..];
                    }
                    Some((min, max, after)) => {
                        if !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max) {
                            let text = &t[..t.len() - after.len()];
                            return Err(go_error(INVALID_REPEAT_SIZE, text));
                        }
                        t = self.repeat(before, after, Some((min, max)), last_repeat)?;
                        repeat = Some(before);
                    }
                },
                '\\' => t = self.escape(t)?,
                c => {
                    self.atom(|out| push_char(out, c));
                    t = &t[c.len_utf8()..];
                }
            }
            last_repeat = repeat;
        }
        self.settle();
        if self.groups.len() != 1 {
            return Err(go_error(MISSING_PAREN, self.whole));
        }
        Ok(std::mem::take(&mut self.out))
    }

    /// A repetition operator at the start of `before`, whose text ends
    /// where `after` starts (but for a trailing `?`); `counts` for `{}`.
    fn repeat(
        &mut self,
        before: &'a str,
        after: &'a str,
        counts: Option<(i64, i64)>,
        last_repeat: Option<&'a str>,
    ) -> Result<&'a str, String> {
        let after = after.strip_prefix('?').unwrap_or(after);
        let text = &before[..before.len() - after.len()];
        if let Some(previous) = last_repeat {
            // Perl does not stack repetitions: `a**` is an error.
            return Err(go_error(
                INVALID_REPEAT_OP,
                &previous[..previous.len() - after.len()],
            ));
        }
        let Some(mut operand) = self.last else {
            return Err(go_error(MISSING_REPEAT_ARGUMENT, text));
        };
        if let Some((min, max)) = counts {
            operand.need = repeat_need(min, max, operand.need);
            if (min >= 2 || max >= 2) && operand.need > MAX_REPEAT {
                return Err(go_error(INVALID_REPEAT_SIZE, text));
            }
        }
        self.out.insert_str(operand.end, text);
        operand.end += text.len();
        self.last = Some(operand);
        Ok(after)
    }

    /// `(`: a group, a named group, or Perl flags, at the start of `t`.
    fn open_group(&mut self, t: &'a str) -> Result<&'a str, String> {
        if !t.starts_with("(?") {
            self.open();
            return Ok(&t[1..]);
        }
        let bytes = t.as_bytes();
        let named_p = bytes.len() > 4 && bytes[2] == b'P' && bytes[3] == b'<';
        let named = bytes.len() > 3 && bytes[2] == b'<';
        if named_p || named {
            let start = if named_p { 4 } else { 3 };
            let Some(end) = t.find('>') else {
                return Err(go_error(INVALID_NAMED_CAPTURE, t));
            };
            let name = &t[start..end];
            if name.is_empty() || !name.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric()) {
                return Err(go_error(INVALID_NAMED_CAPTURE, &t[..=end]));
            }
            // The name is of no use to find and findAll.
            self.open();
            return Ok(&t[end + 1..]);
        }
        // Flags: `(?flags)` or `(?flags:re)`.
        let mut rest = &t[2..];
        let mut on = String::new();
        let mut off = String::new();
        let mut negated = false;
        let mut saw_flag = false;
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            match c {
                'i' | 'm' | 's' | 'U' => {
                    let (set, other) = if negated {
                        (&mut off, &mut on)
                    } else {
                        (&mut on, &mut off)
                    };
                    other.retain(|f| f != c);
                    if !set.contains(c) {
                        set.push(c);
                    }
                    saw_flag = true;
                }
                '-' if !negated => {
                    negated = true;
                    saw_flag = false;
                }
                ':' | ')' if !negated || saw_flag => {
                    self.needs_tables |= on.contains('i');
                    let flags = if off.is_empty() {
                        on
                    } else {
                        format!("{on}-{off}")
                    };
                    if c == ':' {
                        self.settle();
                        self.groups.push(0);
                        self.out.push_str(&format!("(?{flags}:"));
                    } else if !flags.is_empty() {
                        // Flags for the rest of the group: nothing to
                        // repeat, so the last operand stays the last.
                        self.out.push_str(&format!("(?{flags})"));
                    }
                    return Ok(rest);
                }
                _ => break,
            }
        }
        Err(go_error(INVALID_PERL_OP, &t[..t.len() - rest.len()]))
    }

    /// Opens a group that repeats as a whole (written without capturing).
    fn open(&mut self) {
        self.settle();
        self.groups.push(0);
        self.out.push_str("(?:");
    }

    /// A backslash outside a class, at the start of `t`.
    fn escape(&mut self, t: &'a str) -> Result<&'a str, String> {
        let next = t[1..].chars().next();
        match next {
            Some('A') => {
                self.atom(|out| out.push_str(r"\A"));
                return Ok(&t[2..]);
            }
            Some('z') => {
                self.atom(|out| out.push_str(r"\z"));
                return Ok(&t[2..]);
            }
            Some('b') => {
                self.atom(|out| out.push_str(r"(?-u:\b)"));
                return Ok(&t[2..]);
            }
            Some('B') => {
                self.atom(|out| out.push_str(r"(?-u:\B)"));
                return Ok(&t[2..]);
            }
            Some('C') => return Err(go_error(INVALID_ESCAPE, &t[..2])),
            Some('Q') => {
                // Literal text up to `\E`, or to the end.
                let (literal, rest) = match t[2..].find(r"\E") {
                    Some(i) => (&t[2..2 + i], &t[2 + i + 2..]),
                    None => (&t[2..], ""),
                };
                for c in literal.chars() {
                    self.atom(|out| push_char(out, c));
                }
                return Ok(rest);
            }
            Some('p' | 'P') => {
                let (class, rest) = self.unicode_class(t)?;
                self.atom(|out| out.push_str(&class));
                return Ok(rest);
            }
            Some(c) => {
                if let Some((items, negated)) = perl_class(c) {
                    let caret = if negated { "^" } else { "" };
                    self.atom(|out| out.push_str(&format!("[{caret}{items}]")));
                    return Ok(&t[2..]);
                }
            }
            None => {}
        }
        let (r, rest) = parse_escape(t)?;
        self.atom(|out| push_rune(out, r));
        Ok(rest)
    }

    /// `\pX`, `\p{Name}`, `\PX`, `\P{Name}` (and `\p{^Name}`) at the start
    /// of `s`, as a `regex` class (which may be nested in a class).
    fn unicode_class(&mut self, s: &'a str) -> Result<(String, &'a str), String> {
        let mut negated = s[1..].starts_with('P');
        let t = &s[2..];
        let (seq, name, rest) = match t.chars().next() {
            Some('{') => {
                let Some(end) = s.find('}') else {
                    return Err(go_error(INVALID_CHAR_CLASS_RANGE, s));
                };
                (&s[..=end], &s[3..end], &s[end + 1..])
            }
            Some(c) => {
                let n = 2 + c.len_utf8();
                (&s[..n], &s[2..n], &s[n..])
            }
            None => (s, "", ""),
        };
        let name = match name.strip_prefix('^') {
            Some(n) => {
                negated = !negated;
                n
            }
            None => name,
        };
        let Some(class) = go_class(name) else {
            return Err(go_error(INVALID_CHAR_CLASS_RANGE, seq));
        };
        let (caret, letter) = if negated { ("^", 'P') } else { ("", 'p') };
        let class = match class {
            GoClass::Any => format!(r"[{caret}\x{{0}}-\x{{10FFFF}}]"),
            GoClass::Ascii => format!(r"[{caret}\x{{0}}-\x{{7F}}]"),
            GoClass::Assigned => {
                self.needs_tables = true;
                let letter = if negated { 'p' } else { 'P' };
                format!(r"\{letter}{{gc=Cn}}")
            }
            // Surrogates: no string holds one (and the `regex` crate has
            // no such category).
            GoClass::Category("Cs") => {
                let caret = if negated { "" } else { "^" };
                format!(r"[{caret}\x{{0}}-\x{{10FFFF}}]")
            }
            GoClass::Category(name) => {
                self.needs_tables = true;
                format!(r"\{letter}{{gc={name}}}")
            }
            GoClass::Script(name) => {
                self.needs_tables = true;
                format!(r"\{letter}{{sc={name}}}")
            }
        };
        Ok((class, rest))
    }

    /// A class `[...]` at the start of `s`.
    fn class(&mut self, s: &'a str) -> Result<&'a str, String> {
        let mut out = String::from("[");
        let mut t = &s[1..];
        if let Some(rest) = t.strip_prefix('^') {
            out.push('^');
            t = rest;
        }
        let mut first = true;
        while t.is_empty() || !t.starts_with(']') || first {
            first = false;
            // `[:alpha:]`: Go looks for `:]` anywhere after it.
            if t.len() > 2
                && t.starts_with("[:")
                && let Some(i) = t[2..].find(":]")
            {
                let name = &t[..i + 4];
                let inner = &name[2..name.len() - 2];
                let plain = inner.strip_prefix('^').unwrap_or(inner);
                if !POSIX_CLASSES.contains(&plain) {
                    return Err(go_error(INVALID_CHAR_CLASS_RANGE, name));
                }
                out.push_str(name);
                t = &t[name.len()..];
                continue;
            }
            if t.starts_with(r"\p") || t.starts_with(r"\P") {
                let (class, rest) = self.unicode_class(t)?;
                out.push_str(&class);
                t = rest;
                continue;
            }
            if let Some(c) = t.strip_prefix('\\').and_then(|r| r.chars().next())
                && let Some((items, negated)) = perl_class(c)
            {
                if negated {
                    out.push_str(&format!("[^{items}]"));
                } else {
                    out.push_str(items);
                }
                t = &t[2..];
                continue;
            }
            // A character, or a range.
            let range_start = t;
            let (lo, rest) = class_char(t, s)?;
            t = rest;
            let mut hi = lo;
            if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
                let (h, rest) = class_char(&t[1..], s)?;
                t = rest;
                if h < lo {
                    let text = &range_start[..range_start.len() - t.len()];
                    return Err(go_error(INVALID_CHAR_CLASS_RANGE, text));
                }
                hi = h;
            }
            push_class_range(&mut out, lo, hi);
        }
        out.push(']');
        self.atom(|o| o.push_str(&out));
        Ok(&t[1..])
    }
}

/// The range `lo-hi` of runes in a class, leaving out surrogates.
fn push_class_range(out: &mut String, lo: u32, hi: u32) {
    let pieces = [(lo, hi.min(0xD7FF)), (lo.max(0xE000), hi)];
    let mut any = false;
    for (a, b) in pieces {
        if let (Some(a), Some(b)) = (char::from_u32(a), char::from_u32(b))
            && a <= b
        {
            push_char(out, a);
            if a != b {
                out.push('-');
                push_char(out, b);
            }
            any = true;
        }
    }
    if !any {
        // Only surrogates: a range of nothing (the class still parses).
        out.push_str(r"[^\x{0}-\x{10FFFF}]");
    }
}

/// A character of a class at the start of `t` (`class` being the whole
/// class, for the error).
fn class_char<'s>(t: &'s str, class: &str) -> Result<(u32, &'s str), String> {
    match t.chars().next() {
        None => Err(go_error(MISSING_BRACKET, class)),
        Some('\\') => parse_escape(t),
        Some(c) => Ok((u32::from(c), &t[c.len_utf8()..])),
    }
}

/// A class `\p{...}` names, as Go reads the name.
enum GoClass {
    Any,
    Ascii,
    Assigned,
    /// A general category, by its short name.
    Category(&'static str),
    /// A script (not its extensions), by its name.
    Script(&'static str),
}

/// The class Go's `regexp/syntax` (1.25) gives `name`: names are looked up
/// ignoring case, spaces, `_` and `-` (Unicode TR18).
fn go_class(name: &str) -> Option<GoClass> {
    let loose = |n: &str| -> String {
        n.chars()
            .filter(|c| !matches!(c, ' ' | '_' | '-'))
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let key = loose(name);
    if key.is_empty() {
        return None;
    }
    let same = |n: &str| loose(n) == key;
    match key.as_str() {
        "any" => return Some(GoClass::Any),
        "ascii" => return Some(GoClass::Ascii),
        "assigned" => return Some(GoClass::Assigned),
        _ => {}
    }
    if let Some(&c) = names::CATEGORIES.iter().find(|c| same(c)) {
        return Some(GoClass::Category(c));
    }
    if let Some(&(_, c)) = names::CATEGORY_ALIASES.iter().find(|(a, _)| same(a)) {
        return Some(GoClass::Category(c));
    }
    let script = names::SCRIPTS.iter().find(|s| same(s));
    script.map(|&s| GoClass::Script(s))
}

/// Go's `parseEscape`: the rune of the escape at the start of `s` (a
/// backslash), and what follows it.
fn parse_escape(s: &str) -> Result<(u32, &str), String> {
    let t = &s[1..];
    let Some(c) = t.chars().next() else {
        return Err(go_error(TRAILING_BACKSLASH, ""));
    };
    let mut t = &t[c.len_utf8()..];
    let invalid = |t: &str| go_error(INVALID_ESCAPE, &s[..s.len() - t.len()]);
    match c {
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((u32::from(c), t)),
        '1'..='7' if !is_octal(t.as_bytes().first()) => Err(invalid(t)),
        '0'..='7' => {
            // Up to two more octal digits.
            let mut r = u32::from(c) - u32::from('0');
            for _ in 0..2 {
                if !is_octal(t.as_bytes().first()) {
                    break;
                }
                r = r * 8 + u32::from(t.as_bytes()[0] - b'0');
                t = &t[1..];
            }
            Ok((r, t))
        }
        'x' => {
            let Some(c) = t.chars().next() else {
                return Err(invalid(t));
            };
            t = &t[c.len_utf8()..];
            if c == '{' {
                let mut digits = 0;
                let mut r: u32 = 0;
                loop {
                    let Some(c) = t.chars().next() else {
                        return Err(invalid(t));
                    };
                    t = &t[c.len_utf8()..];
                    if c == '}' {
                        break;
                    }
                    let Some(v) = hex_value(c) else {
                        return Err(invalid(t));
                    };
                    r = r * 16 + v;
                    if r > 0x10FFFF {
                        return Err(invalid(t));
                    }
                    digits += 1;
                }
                if digits == 0 {
                    return Err(invalid(t));
                }
                return Ok((r, t));
            }
            let x = hex_value(c);
            let y = match t.chars().next() {
                Some(d) => {
                    t = &t[d.len_utf8()..];
                    hex_value(d)
                }
                None => None,
            };
            match (x, y) {
                (Some(x), Some(y)) => Ok((x * 16 + y, t)),
                _ => Err(invalid(t)),
            }
        }
        'a' => Ok((0x07, t)),
        'f' => Ok((0x0C, t)),
        'n' => Ok((0x0A, t)),
        'r' => Ok((0x0D, t)),
        't' => Ok((0x09, t)),
        'v' => Ok((0x0B, t)),
        _ => Err(invalid(t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `pattern` compiles as Go's, translated for a `regex` crate
    /// with or without its Unicode tables.
    fn check_with(pattern: &str, tables: bool) -> Result<(), String> {
        match build(pattern, tables) {
            Ok(_) | Err(Error::Unsupported(_)) => Ok(()),
            Err(Error::Invalid(e)) => Err(e),
        }
    }

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
            for tables in [false, true] {
                assert_eq!(check_with(ok, tables), Ok(()), "{ok} {tables}");
            }
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
            for tables in [false, true] {
                assert!(check_with(bad, tables).is_err(), "{bad} {tables}");
            }
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

    /// The Perl classes and word boundaries are ASCII, as Go's (issue 28).
    #[test]
    fn perl_classes_are_ascii() {
        let re = compile(r"^\d+$").unwrap();
        assert!(re.is_match("123"));
        assert!(!re.is_match("١٢٣"));
        assert!(!re.is_match("１２"));
        let re = compile(r"^[\w\s]+$").unwrap();
        assert!(re.is_match("a_1 \t"));
        assert!(!re.is_match("é"));
        assert!(!re.is_match("\u{a0}"));
        assert!(!re.is_match("\u{b}"));
        let re = compile(r"\bx\b").unwrap();
        assert!(re.is_match("éxé"));
        assert!(!re.is_match("axb"));
        assert!(matches!(compile("("), Err(Error::Invalid(_))));
    }

    /// `\p{...}` takes Go's names, looked up loosely, with Go's meaning.
    #[test]
    fn unicode_names_are_go_s() {
        let class = |p: &str| build(p, true).unwrap();
        for (pattern, yes, no) in [
            (r"^\p{L}$", "é", "1"),
            (r"^\p{Letter}$", "é", "1"),
            (r"^\p{lowercase letter}$", "é", "É"),
            (r"^\p{decimal-number}$", "٣", "a"),
            (r"^\p{digit}$", "٣", "a"),
            (r"^\p{LC}$", "é", "ª"),
            (r"^\p{Cn}$", "\u{378}", "a"),
            (r"^\p{Assigned}$", "a", "\u{378}"),
            (r"^\P{Assigned}$", "\u{378}", "a"),
            (r"^\p{Any}$", "\u{10FFFF}", ""),
            (r"^\P{ASCII}$", "é", "a"),
            (r"^[\p{ascii}]$", "a", "é"),
            (r"^\p{greek}$", "α", "a"),
            // Script=Greek, not its extensions: U+0342 is Inherited.
            (r"^\p{Greek}$", "α", "\u{342}"),
            (r"^\p{^Greek}$", "a", "α"),
            (r"^\p{Cs}?$", "", "a"),
        ] {
            let re = class(pattern);
            assert!(re.is_match(yes), "{pattern} {yes:?}");
            assert!(!re.is_match(no), "{pattern} {no:?}");
        }
        for name in [
            "Alphabetic",
            "scx=Greek",
            "sc=Greek",
            "Greek_And_Coptic",
            "Emoji",
        ] {
            let pattern = format!(r"\p{{{name}}}");
            assert_eq!(
                build(&pattern, true).unwrap_err(),
                Error::Invalid(format!(
                    "error parsing regexp: invalid character class range: `{pattern}`"
                )),
            );
        }
    }

    /// Without the Unicode tables, patterns are checked the same, and
    /// those that need them are not compiled.
    #[test]
    fn without_tables() {
        assert!(build(r"\p{Any}\P{ascii}\d", false).is_ok());
        for pattern in [r"\pL", r"[\p{Greek}]", r"\p{Assigned}", "(?i)a", "(?i:a)"] {
            assert!(
                matches!(build(pattern, false), Err(Error::Unsupported(_))),
                "{pattern}"
            );
            assert!(build(pattern, true).is_ok(), "{pattern}");
        }
        // `(?-i)` and `(?i)` turned off again need no folding.
        assert!(build("(?-i)a", false).is_ok());
    }

    /// The cache keeps at most two generations, the patterns used last.
    #[test]
    fn cache_is_bounded() {
        let cache = Cache::default();
        let built = |p: &str| build(p, false);
        for i in 0..3 * GENERATION {
            cache.get(&format!("^a{{{}}}$", i % 1000), built).unwrap();
            assert!(cache.read().len() <= 2 * GENERATION);
        }
        // A pattern used again and again stays: it is compiled once.
        let mut compiled = 0;
        for i in 0..3 * GENERATION {
            let count = |p: &str| {
                compiled += 1;
                build(p, false)
            };
            cache.get("^kept$", count).unwrap();
            cache.get(&format!("^b{{{}}}$", i % 1000), built).unwrap();
        }
        assert_eq!(compiled, 1);
        // Errors are kept too.
        assert!(matches!(cache.get("(", built), Err(Error::Invalid(_))));
    }
}

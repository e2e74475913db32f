//! The regex library of k8s.io/apiserver (`pkg/cel/library/regex.go`):
//! `<string>.find(<string>)`, `<string>.findAll(<string>)` and
//! `<string>.findAll(<string>, <int>)`.
//!
//! Patterns are RE2's, as Go's `regexp` reads them: a pattern is first read
//! the way Go's `regexp/syntax` parser reads it, with Go's errors
//! (`error parsing regexp: missing closing ): ...`), then rewritten for the
//! `regex` crate with Go's meaning where the two dialects differ:
//!
//! * `\d`, `\s`, `\w` and `\b` are ASCII, as in Go (`\s` without `\v`);
//! * `[`, `&`, `-` and `~` are plain characters in a class (the `regex`
//!   crate nests classes and has set operations);
//! * `\Q...\E`, octal escapes and `\p{^Name}` are Go's;
//! * a `{` that does not start a repetition is a literal;
//! * stacked repetitions (`a**`, `x++`, `a{2}{3}`), repetitions of more
//!   than 1000 copies and Perl syntax Go lacks (`(?=`, `(?x)`) are errors.
//!
//! Left as they are: the `regex` crate knows a few more `\p{...}` names than
//! Go; it refuses patterns nested more than 250 deep (Go: 1000), reported as
//! Go's `expression nests too deeply`, and compiled patterns over its size
//! limit, reported as `expression too large`.
//!
//! Errors are Go's runtime ones (`Illegal regex: error parsing regexp: ...`).
//! A constant pattern that does not compile fails the rule's compilation,
//! as in cel-go: `invalid matches argument: ...` from the checker (cel-go's
//! `ValidateRegexLiterals`), `program instantiation failed: ...` for `find`
//! and `findAll` (`tree::constant_patterns`).

use std::cell::RefCell;
use std::rc::Rc;

use ::cel::common::types::{CelBool, CelInt, CelList, CelString};
use ::cel::common::value::Val;
use ::cel::{DeclarationError, Env, ExecutionError};
use regex::Regex;

/// Declares the library's functions on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    // The standard library's `matches` (the `cel` crate's `regex` feature
    // is off): Go's syntax and meaning, and compiled patterns kept.
    ::cel::add_member_overload!(env,
        fn matches: (CelString<'_>, CelString<'_>) -> Result<CelBool>,
        id = "matches_string")?;
    ::cel::add_overload!(env,
        fn matches: (CelString<'_>, CelString<'_>) -> Result<CelBool>,
        id = "matches")?;
    ::cel::add_member_overload!(env,
        fn find: (CelString<'_>, CelString<'_>) -> Result<CelString<'_>>,
        id = "string_find_string")?;
    ::cel::add_member_overload!(env,
        fn find_all: (CelString<'_>, CelString<'_>) -> Result<CelList<'_>>,
        id = "string_find_all_string")?;
    ::cel::add_member_overload!(env,
        fn find_all_limit: (CelString<'_>, CelString<'_>, CelInt) -> Result<CelList<'_>>,
        name = "findAll", id = "string_find_all_string_int")?;
    Ok(())
}

/// `s.find(pattern)`: the leftmost match, or `''`.
fn matches(s: &CelString<'_>, pattern: &CelString<'_>) -> Result<CelBool, ExecutionError> {
    let re = compile("matches", pattern.inner())?;
    Ok(CelBool::from(re.is_match(s.inner())))
}

fn find(s: &CelString<'_>, pattern: &CelString<'_>) -> Result<CelString<'static>, ExecutionError> {
    let re = compile("find", pattern.inner())?;
    let found = re.find(s.inner()).map_or("", |m| m.as_str());
    Ok(CelString::from(found.to_owned()))
}

/// `s.findAll(pattern)`: every match, left to right.
fn find_all(
    s: &CelString<'_>,
    pattern: &CelString<'_>,
) -> Result<CelList<'static>, ExecutionError> {
    find_n("findAll", s, pattern, -1)
}

/// `s.findAll(pattern, n)`: at most `n` matches when `n` is not negative.
fn find_all_limit(
    s: &CelString<'_>,
    pattern: &CelString<'_>,
    n: &CelInt,
) -> Result<CelList<'static>, ExecutionError> {
    find_n("findAll", s, pattern, *n.inner())
}

fn find_n(
    function: &str,
    s: &CelString<'_>,
    pattern: &CelString<'_>,
    n: i64,
) -> Result<CelList<'static>, ExecutionError> {
    let re = compile(function, pattern.inner())?;
    // Go's FindAllString: a negative limit is no limit. Both skip an empty
    // match right after a match, and never split a character.
    let limit = usize::try_from(n).unwrap_or(usize::MAX);
    let matches: Vec<Box<dyn Val>> = re
        .find_iter(s.inner())
        .take(limit)
        .map(|m| Box::new(CelString::from(m.as_str().to_owned())) as Box<dyn Val>)
        .collect();
    Ok(CelList::from(matches))
}

/// How many compiled patterns each thread keeps.
const CACHE_SIZE: usize = 16;

thread_local! {
    /// The patterns compiled last on this thread, most recent first, with
    /// their translation or Go's error.
    // Shared (`Rc`), not cloned: a cloned `Regex` starts a new search cache.
    static CACHE: RefCell<Vec<(String, Compiled)>> = const { RefCell::new(Vec::new()) };
}

/// `pattern` compiled with Go's syntax and meaning, or the `Illegal regex`
/// error of `function`.
/// A pattern compiled, or Go's error for it.
type Compiled = Result<Rc<Regex>, String>;

fn compile(function: &str, pattern: &str) -> Result<Rc<Regex>, ExecutionError> {
    let compiled = CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(i) = cache.iter().position(|(p, _)| p == pattern) {
            let entry = cache.remove(i);
            let result = entry.1.clone();
            cache.insert(0, entry);
            return result;
        }
        let result = go_regex(pattern).map(Rc::new);
        cache.insert(0, (pattern.to_owned(), result.clone()));
        cache.truncate(CACHE_SIZE);
        result
    });
    compiled.map_err(|e| ExecutionError::function_error(function, format!("Illegal regex: {e}")))
}

/// `pattern` as Go's `regexp.Compile` reads it, for the `regex` crate; the
/// error is Go's message.
pub(in crate::schema::structural::cel) fn go_regex(pattern: &str) -> Result<Regex, String> {
    let translated = Translator::new(pattern).run()?;
    regex::RegexBuilder::new(&translated)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => go_error("expression too large", pattern),
            regex::Error::Syntax(s) if s.contains("nested") => {
                go_error("expression nests too deeply", pattern)
            }
            other => {
                let detail = other.to_string();
                let last = detail.lines().last().unwrap_or_default();
                let last = last.strip_prefix("error: ").unwrap_or(last);
                go_error(last, pattern)
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

    fn run(mut self) -> Result<String, String> {
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
        Ok(self.out)
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
                let (class, rest) = unicode_class(t)?;
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
                let (class, rest) = unicode_class(t)?;
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

/// `\pX`, `\p{Name}`, `\PX`, `\P{Name}` (and `\p{^Name}`) at the start of
/// `s`, as a `regex` class.
fn unicode_class(s: &str) -> Result<(String, &str), String> {
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
    let letter = if negated { 'P' } else { 'p' };
    let class = format!(r"\{letter}{{{name}}}");
    if !known_property(name) {
        return Err(go_error(INVALID_CHAR_CLASS_RANGE, seq));
    }
    Ok((class, rest))
}

/// How many `\p{...}` names each thread remembers.
const PROPERTY_CACHE_SIZE: usize = 64;

thread_local! {
    /// The `\p{...}` names checked last on this thread, and whether the
    /// `regex` crate knows them.
    static PROPERTIES: RefCell<Vec<(String, bool)>> = const { RefCell::new(Vec::new()) };
}

/// Whether `name` names a Unicode class: the `regex` crate's names are
/// Unicode's, looked up loosely, as Go does since 1.25.
fn known_property(name: &str) -> bool {
    if name.is_empty() || name.contains(['{', '}', '\\', '[', ']']) {
        return false;
    }
    PROPERTIES.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((_, known)) = cache.iter().find(|(n, _)| n == name) {
            return *known;
        }
        let known = Regex::new(&format!(r"\p{{{name}}}")).is_ok();
        if cache.len() >= PROPERTY_CACHE_SIZE {
            cache.clear();
        }
        cache.push((name.to_owned(), known));
        known
    })
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

    use super::super::testing::assert_true;

    use super::super::testing::function_error as error;

    /// The examples of `regex.go`'s documentation, and the regex cases of
    /// apiextensions-apiserver's `TestValidationExpressions` ("stdlib regex
    /// functions", with `self.str` spelled out).
    #[test]
    fn find_and_find_all() {
        assert_true("'abc 123'.find('[0-9]*') == ''");
        assert_true("'abc 123'.find('[0-9]+') == '123'");
        assert_true("'abc 123'.find('xyz') == ''");
        assert_true("'123 abc 456'.findAll('[0-9]+') == ['123', '456']");
        assert_true("'123 abc 456'.findAll('[0-9]+', 1) == ['123']");
        assert_true("'123 abc 456'.findAll('xyz') == []");
        let s = "'this is a 123 string 456'";
        for rule in [
            "S.find('[0-9]+') == '123'",
            "S.find('[0-9]+') != '456'",
            "S.find('xyz') == ''",
            "S.findAll('[0-9]+') == ['123', '456']",
            "S.findAll('[0-9]+', 0) == []",
            "S.findAll('[0-9]+', 1) == ['123']",
            "S.findAll('[0-9]+', 2) == ['123', '456']",
            "S.findAll('[0-9]+', 3) == ['123', '456']",
            "S.findAll('[0-9]+', -1) == ['123', '456']",
            "S.findAll('xyz') == []",
            "S.findAll('xyz', 1) == []",
        ] {
            assert_true(&rule.replace('S', s));
        }
        for rule in ["S.find(')')", "S.findAll(')')", "S.findAll(')', 1)"] {
            assert_eq!(
                error(&rule.replace('S', s)),
                "Illegal regex: error parsing regexp: unexpected ): `)`"
            );
        }
    }

    /// Empty matches: Go's `FindAllString` semantics.
    #[test]
    fn empty_matches_are_go_s() {
        assert_true("'baaab'.findAll('a*') == ['', 'aaa', '']");
        assert_true("'héé'.findAll('') == ['', '', '', '']");
        assert_true("'abc'.find('') == ''");
    }

    /// Where RE2 and the `regex` crate read a pattern differently.
    #[test]
    fn go_s_meaning() {
        // ASCII classes and word boundaries.
        assert_true("'٣3'.find('\\\\d+') == '3'");
        assert_true("'é_a1'.find('\\\\w+') == '_a1'");
        assert_true("'a\\u000bb'.findAll('\\\\s') == []");
        assert_true("'éa'.findAll('\\\\b') == ['', '']");
        // Class members the regex crate would read as syntax.
        assert_true("'a[b&&c'.findAll('[[&]') == ['[', '&', '&']");
        assert_true("'a-~b'.findAll('[a-b~-]') == ['a', '-', '~', 'b']");
        assert_true("'x[:y'.find('[[:]+') == '[:'");
        assert_true("'ab0'.findAll('[^\\\\D]') == ['0']");
        assert_true("'aB1'.findAll('[[:upper:]\\\\d]') == ['B', '1']");
        // Literal braces, \\Q...\\E, octal and hex escapes.
        assert_true("'a{,3}'.find('a{,3}') == 'a{,3}'");
        assert_true("'x{'.find('x{') == 'x{'");
        assert_true("'a.b*'.find('\\\\Q.b*\\\\E') == '.b*'");
        assert_true("'a.b*'.find('\\\\Q.b*') == '.b*'");
        assert_true("'A'.find('\\\\101') == 'A'");
        assert_true("'A'.find('\\\\x41') == 'A'");
        assert_true("'é'.find('\\\\x{e9}') == 'é'");
        // Unicode classes, negated Go's way.
        assert_true("'aé1'.findAll('\\\\p{^L}') == ['1']");
        assert_true("'aé1'.findAll('\\\\pL') == ['a', 'é']");
        assert_true("'aé1'.findAll('[\\\\P{^L}]') == ['a', 'é']");
        // Flags, named groups, lazy repetitions.
        assert_true("'ABC'.find('(?i)b') == 'B'");
        assert_true("'aaa'.find('a+?') == 'a'");
        assert_true("'aaa'.find('(?U)a+') == 'a'");
        assert_true("'ab'.find('(?P<x>a)(?<y>b)') == 'ab'");
        assert_true("'ab'.find('(?i-s:A)') == 'a'");
        assert_true("'aaa'.find('a(?i)*') == 'aaa'");
        assert_true("'aaaa'.find('(a{2}){2}') == 'aaaa'");
    }

    /// Go's `regexp/syntax` errors.
    #[test]
    fn go_s_errors() {
        for (pattern, message) in [
            ("x++", "invalid nested repetition operator: `++`"),
            ("a**", "invalid nested repetition operator: `**`"),
            ("a*?*", "invalid nested repetition operator: `*?*`"),
            ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
            ("*a", "missing argument to repetition operator: `*`"),
            ("(*)", "missing argument to repetition operator: `*`"),
            ("a|+", "missing argument to repetition operator: `+`"),
            ("a{1001}", "invalid repeat count: `{1001}`"),
            ("a{2,1}", "invalid repeat count: `{2,1}`"),
            ("(a{500}){3}", "invalid repeat count: `{3}`"),
            ("(abc", "missing closing ): `(abc`"),
            ("a)", "unexpected ): `a)`"),
            ("[a", "missing closing ]: `[a`"),
            ("[]", "missing closing ]: `[]`"),
            ("[z-a]", "invalid character class range: `z-a`"),
            ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
            (r"\pX", r"invalid character class range: `\pX`"),
            (r"\p{Foo}", r"invalid character class range: `\p{Foo}`"),
            (r"\8", r"invalid escape sequence: `\8`"),
            (r"\1", r"invalid escape sequence: `\1`"),
            (r"\C", r"invalid escape sequence: `\C`"),
            (r"\Z", r"invalid escape sequence: `\Z`"),
            (r"\x{zz}", r"invalid escape sequence: `\x{z`"),
            (r"\xg1", r"invalid escape sequence: `\xg1`"),
            (r"\x{110000}", r"invalid escape sequence: `\x{110000`"),
            (r"[\b]", r"invalid escape sequence: `\b`"),
            (r"a\", "trailing backslash at end of expression: ``"),
            ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
            ("(?x)a", "invalid or unsupported Perl syntax: `(?x`"),
            ("(?i-)a", "invalid or unsupported Perl syntax: `(?i-)`"),
            ("(?P<a-b>x)", "invalid named capture: `(?P<a-b>`"),
            ("(?P<a", "invalid named capture: `(?P<a`"),
        ] {
            let expr = format!("'x'.find('{}')", pattern.replace('\\', "\\\\"));
            assert_eq!(
                error(&expr),
                format!("Illegal regex: error parsing regexp: {message}"),
                "{expr}"
            );
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}a{}", "(".repeat(600), ")*".repeat(600));
        let message = error(&format!("'a'.find('{deep}')"));
        assert!(
            message.starts_with("Illegal regex: error parsing regexp: expression nests too deeply"),
            "{message}"
        );
    }
}

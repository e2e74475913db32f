import re, json, glob, os, collections
import os as _os
D = _os.path.dirname(_os.path.abspath(__file__))
K = _os.path.dirname(D)
cases = json.load(open(_os.path.join(D, "cases.json")))
refs = {tuple(k.split("|")): v for k, v in json.load(open(_os.path.join(D, "refs.json"))).items()}

COMMIT = {
 "integers": "a.go 09cd5f8, b.go 7fd5702", "nofloats": "a.go 09cd5f8, b.go 7fd5702",
 "nodurations": "a.go 396f2c2, b.go 65a570b", "nobools": "a.go 20a53e8, b.go 09cd5f8",
 "nomaps": "a/a.go 396f2c2, c/c.go 396f2c2", "jsontags": "a/a.go 7b5248f",
 "optionalfields": "a/a.go 34e3071", "requiredfields": "a/strings.go 48643eb",
 "optionalorrequired": "a/a.go 2c83ed3", "defaultorrequired": "a/a.go 93c9b6e",
 "defaults": "a/a.go 0633930", "nophase": "a/a.go 502783c", "notimestamp": "a/a.go 013a77c",
 "noreferences": "a/a.go, b/b.go 941b474", "conditions": "a/a.go 024a848",
 "statusoptional": "a/a.go 37102c8, a/b.go 77bd396", "ssatags": "a/a.go 0660253, a/aa.go b3326bf",
 "maxlength": "a/a.go 396f2c2, a/b.go 7fd5702", "commentstart": "a/a.go 9f2d4d8",
 "arrayofstruct": "a/a.go 4776c99", "nonpointerstructs": "a/a.go 0c24cd7", "nonullable": "a/a.go a23c109",
 "statussubresource": "a/a.go 537690d", "duplicatemarkers": "a/a.go, a/b.go 37102c8",
 "uniquemarkers": "a/a.go 174c645",
}
REL = {
 "integers": {"integer_width"}, "nofloats": {"no_floats"}, "nodurations": {"no_durations"},
 "nobools": {"no_bools"}, "nomaps": {"no_maps", "E0277"}, "jsontags": {"json_field_names"},
 "optionalfields": {"optional_field"}, "requiredfields": {"required_field"},
 "optionalorrequired": {"attr"}, "defaultorrequired": {"default_or_required"},
 "defaults": {"default_or_required", "optional_field", "required_field", "attr"},
 "nophase": {"no_phase"}, "notimestamp": {"timestamp_naming"}, "noreferences": {"reference_naming"},
 "conditions": {"conditions", "optional_field", "json_field_names"}, "statusoptional": {"status_optional"},
 "ssatags": {"list_type", "attr"}, "maxlength": {"max_length"}, "commentstart": {"field_docs"},
 "arrayofstruct": set(), "nonpointerstructs": {"optional_field", "required_field"}, "nonullable": {"attr"},
 "statussubresource": {"status_subresource"}, "duplicatemarkers": {"attr", "duplicate_keywords"}, "uniquemarkers": {"attr", "duplicate_keywords"},
}

# ---- not applicable (no Rust meaning): (linter, file, regex on name) -> reason
SPELL = "Marker spelling variant: Rust has one spelling per marker"
NA = [
 ("arrayofstruct", "a/a.go", r"InvalidStructNoMarkers\.Items$", "By construction: an unmarked Rust field that is not an `Option` is required, so this item type (`name`, `description` unmarked) has required fields."),
 ("conditions", "a/a.go", r"MissingPatchMarkers\.", "`patchStrategy`/`patchMergeKey` (strategic merge patch, protobuf tags) have no Rust meaning; with the list markers present the Rust form is `Conditions`, which is valid."),
 ("defaultorrequired", "a/a.go", r"Test\.(KALConflictedField|K8sConflictedField)$", SPELL + " (`#[kube(required)]` + `#[default(..)]`); translated once, as ConflictedField (a/a.go:7)."),
 ("defaults", "a/a.go", r"A\.(K8sDefaultOnlyField|KubebuilderDefaultField|BothDefaultAndKubebuilderMarkers)$", SPELL + " (`#[default(..)]`)."),
 ("defaults", "a/a.go", r"A\.(StructFieldWithOmitEmpty|StructFieldWithOmitZero|DefinedTypeField|TypeAliasField)$", "Go `omitempty` vs `omitzero` on a struct value: no Rust meaning (an optional struct is `Option<T>`, skipped when `None`)."),
 ("duplicatemarkers", "a/a.go", r"^type Enum$", "A Go string type with `Enum` markers is a Rust string enum whose values are its variants: there is no key to repeat."),
 ("duplicatemarkers", "a/a.go", r"^type DuplicateMarkerSpec$", "`+kubebuilder:object:root` is never written in Rust: `KubeResource` generates the root."),
 ("jsontags", "a/a.go", r"\.NonTerminatedJSONTag$", "A malformed struct tag: Rust attributes are checked by the parser (an unterminated string does not tokenize)."),
 ("jsontags", "a/a.go", r"\.XMLTag$", "Go struct-tag mechanics (a tag for another encoder); the Rust field without a JSON name of its own is the NoJSONTag case (a/a.go:8)."),
 ("jsontags", "a/a.go", r"JSONTagTestStruct\.C$", "A Go embedded struct without a tag is inlined; Rust has no embedding (`#[serde(flatten)]` is explicit)."),
 ("jsontags", "a/a.go", r"^(InvalidList\w*|ResourceList|ListWithPascalCaseTag)\.(Items|metav1\.ListMeta)$", "List kinds are generated (`List<K>`: `apiVersion`, `kind`, `metadata`, `items`); a user never writes them."),
 ("maxlength", "a/a.go", r"\.ByteSlice(Alias)?$", "Go `[]byte` is a base64 string; `api_core` has no bytes type (`Vec<u8>` is a list of unsigned integers)."),
 ("ssatags", "a/a.go", r"\.ByteArrayWithMarker$", "Go `[]byte` is a base64 string; `api_core` has no bytes type."),
 ("nomaps", ".*", r"NoMapsTestStructWithGenerics\.", "Generic API types are a compile error by design (DESIGN §2, 'Generic API types are not supported')."),
 ("nonpointerstructs", "a/a.go", r"A\.(WithRequired|WithRequiredAndOptional|WithOptionalAndMinProperties)$", "By construction: a Rust struct field that is not an `Option` is required (inferred from the type), which is what KAL asks to mark."),
 ("noreferences", "b/b.go", r".*", "Config variant (policy NoReferences, strict; not the default)."),
 ("optionalorrequired", "a/a.go", r"\.(NoMarkers|NoOptionalOrRequiredMarker|B)$", "By construction: a Rust field is never unmarked; `Option`/serde default make it optional, anything else is required (DESIGN 'Optionality')."),
 ("optionalorrequired", "a/a.go", r"\.(MarkedOptionalAndKubeBuilderOptional|MarkedRequiredAndKubeBuilderRequired|KubebuilderOptionalMarker|KubebuilderRequiredMarker|MarkedWithKubeBuilderOptionalTwice|MarkedWithKubeBuilderOptionalTwiceAndOptional|MarkedWithK8sRequiredAndKubeBuilderRequired|MarkedWithK8sOptionalAndKubeBuilderOptional)$", SPELL + " (`#[kube(optional)]`, `#[kube(required)]`)."),
 ("optionalorrequired", "a/a.go", r"\.(MarkedWithK8sOptionalAndRequired|MarkedWithK8sRequiredAndOptional|MarkedWithK8sRequiredAndK8sOptional)$", SPELL + "; 'both optional and required' is translated once (a/a.go:13)."),
 ("requiredfields", "a/strings.go", r".*", "Only Go-specific diagnostics here (`omitempty` on a required field; 'valid zero value, should be a pointer'): they exist because an unset Go field equals its zero value. A Rust required field must be given and is always written (DESIGN `required_field`)."),
 ("statussubresource", "a/a.go", r"^type (Baz|NotAList|BadList|IncompleteList|NonSliceItemsList|BlankLineTest|SingleLineMarkerTest|TooFarAwayTest)$", "By construction: `status = \"..\"` turns the status subresource on, so a root with a status and no subresource cannot come from a forgotten marker (marker placement across blank lines is Go-comment-specific)."),
 ("uniquemarkers", "a/a.go", r"OnlyFromAlias", "The duplicate sits on the type: in Rust a newtype whose field (or container) repeats a key, which fails where the newtype is defined (its `type NonUnique..Alias` case); the field using it has nothing of its own."),
 ("uniquemarkers", "a/a.go", r"KubebuilderDefault", "Same Rust spelling as `+default` (`#[default(..)]`): translated in the BasicDefault group."),
 ("uniquemarkers", "a/a.go", r"(BasicDefaultFromAlias|type NonUniqueBasicDefaultAlias)", "Rust has no type-level default (`#[default(..)]` is a field attribute)."),
 ("uniquemarkers", "a/a.go", r"(TypeValidation|UniqueItems|ItemsType)", "No Rust key: a `type` override is `schema_with`; `uniqueItems` is not offered."),
]
def na_reason(linter, f, name):
    for l, fp, rx, why in NA:
        if l == linter and re.fullmatch(fp, f) and re.search(rx, name):
            return why
    return None

# ---- notes on translated cases: (linter, regex on "file:name") -> note
GAPNOTE = {}
NOTES = [
 ("integers", r"type .*", "Go type declaration: a newtype, checked where it is defined."),
 ("integers", r"Alias", "Go defined type used by a field: a Rust alias, checked through the type layer."),
 ("nofloats", r"MapFloat", "A float map key is also not `Ord`, so serde's derive fails too (E0277 at the derive)."),
 ("nofloats", r"type .*", "An `ApiType` newtype: a float warns there (error under `deny(deprecated)`); the spec struct denies."),
 ("nodurations", r"DurationsWithMetaV1Package\.Invalid(Duration(Ptr)?(Slice)?Alias|DurationAliasFromAnotherFile)$", "Was a gap (the alias hid the name, leaving a plain string); now matches: the type layer reads the alias's facts, and meta/v1 `Duration`'s say `DURATION`."),
 ("nomaps", r"MapIntString", "Error is E0277 (no `ApiType` for a map whose keys are not `String`)."),
 ("nomaps", r"MapWithStringBasedKey", "Deliberate (DESIGN `no_maps`: maps are `BTreeMap<String, String>`), though the difference is small: only `String` map keys have an `ApiType` impl (E0277), though a string newtype key serializes as a string."),
 ("nomaps", r"NoMapsTestStructWithEmbedded", "Flattened: the embedded types already failed where they are defined; not reported again."),
 ("optionalfields", r"A\.(PointerSlice|PointerMap|DoublePointerString)$", "Difference: `Option<Vec<_>>`, `Option<BTreeMap<_,_>>` and `Option<Option<_>>` are accepted. DESIGN `optional_field` asks for `Option<T>` or a list/map and does not forbid wrapping a list/map (or an `Option`) in an `Option`."),
 ("optionalfields", r"A\.(Int|NonOmittedInt)$", "Go `int` is `i32` here (widths are the integers linter's business)."),
 ("requiredfields", r"(StringPtrWithOmitEmpty|StringPtrWithMinLength0WithOmitEmpty|EnumValidEmptyStringPtrWithOmitEmpty)$", "Deliberate (DESIGN `required_field`: required fields are not `Option`): KAL allows a pointer when the zero value is valid because Go cannot send it otherwise; Rust writes `\"\"` explicitly."),
 ("defaultorrequired", r"Test\.(DefaultOnlyField|ValidField3)$", "Deliberate: an unmarked Rust field that is not an `Option` is required, so a default on it is `default_or_required`. KAL's `defaults` linter (on by default) reports the Go field too ('has a default value but is not marked as optional')."),
 ("defaults", r"A\.InlineField$", "Difference: a default on a flattened field is an attribute error ('a flattened field has no value of its own to default'); KAL accepts `+default={}` on an inline embed."),
 ("defaults", r"A\.IgnoredField$", "Was a false report (`default_or_required` on a field not in the schema); now matches: `#[serde(skip)]` fields are not linted."),
 ("noreferences", r"CrossReference", "Deliberate (DESIGN `reference_naming`: `fooRef`, never `Reference`, wherever it stands); KAL's default policy only looks at the start and end of the name."),
 ("noreferences", r"Preference", "`preference` is not a reference (the JSON name is matched on `Reference` as a word)."),
 ("conditions", r"ConditionsNotFirst\.Conditions$", "Difference: DESIGN `conditions` does not ask for conditions to be the first field (a Go/protobuf ordering convention)."),
 ("conditions", r"MissingOptionalMarker\.Conditions$", "Our translation makes the Go struct the status of a root (`// ANCHOR missingoptional`): optional conditions are asked of a resource's status, at `status = \"..\"`, not of nested condition lists, which may be required by design (Gateway API)."),
 ("conditions", r"MissingFieldTag", "Go field without a json tag: its JSON name is `Conditions` (`json_field_names`)."),
 ("statusoptional", r"(StatusWithEmbeddings\.(NonInline|\*Pointer)|StatusMarkedRequired\.)", "Reported once, at the root's `status = \"..\"` (our case names that line; the field's line follows): `KubeResource` checks the facts of its declared status type (one warning for all its required top-level fields)."),
 ("statusoptional", r"SecondLevelStatus\.NestedField$", "Was a false report (the `ApiType` derive took any `*Status` type for a top-level status); now matches: `status_optional` is checked only on the status a `KubeResource` declares."),
 ("statusoptional", r"InlineEmbed\.InlineField$", "Reported at `status = \"StatusWithInlineOnly\"` (our case names that line) of a root whose status only flattens `InlineEmbed` (the facts see through the flatten)."),
 ("ssatags", r"\.(SetObjectList|ObjectSetList|PointerToObject|ObjectAliasSetList|PointerToObjectAlias)$", "Was a gap (compiled; the apiserver rejects the CRD); now matches: `list_type = \"set\"` on a list of non-atomic objects is a type-layer error."),
 ("ssatags", r"\.(PrimitiveArrayNoMarker|StringNoMarker|StringAliasNoMarker|StringArrayNoMarker|StringArrayAliasNoMarker)$", "Deliberate (DESIGN `list_type`: only lists of structs must declare a list type)."),
 ("ssatags", r"\.MapObjectListNoKey$", "Attribute error: `list_type = \"map\"` needs `list_map_keys`."),
 ("ssatags", r"\.InvalidListType$", "Attribute error: the value must be atomic, set or map."),
 ("maxlength", r"\.(StringAliasFromAnotherFile|StringAliasWithoutMaxLength|StringAliasArrayWithMaxItemsWithoutMaxElementLength)$", "Was a gap (syntax-only `max_length` missed a `String` behind an alias); now matches: the type layer sees through aliases."),
 ("maxlength", r"\.(DurationFormat|DateTimeFormat|DateFormat)$", "Difference: a string with a `format` (date, date-time, duration) is bounded by it; KAL exempts it, `max_length` does not."),
 ("maxlength", r"WithMaxItemsAndMaxElementLengthOnAlias$|WithoutMaxItemsWithMaxElementLengthOnAlias$", "Was a bug (a false '`MaxLength` contains itself' error on `Vec<StringAliasWithMaxLength>`); fixed. The newtype with `max_length` counts as bounded (type layer)."),
 ("maxlength", r"MaxLength\.Struct", "Go anonymous struct: a named struct here."),
 ("commentstart", r"\.Incorrect(Start|StartOptional|MultiLine)?Comment$", "Difference: `field_docs` asks for a doc comment, not that it start with the JSON name (a Go godoc convention)."),
 ("commentstart", r"Anonymous", "Go anonymous struct: a named struct here."),
 ("commentstart", r"\.pkg\.Embedded$", "Deliberate (DESIGN `field_docs`): no doc comment of its own, but its type's doc comment becomes its description in the schema, as controller-gen does."),
 ("nodurations", r"DurationsWithMetaV1Package\.InvalidDuration(Ptr)?(Slice)?$", "`metav1.Duration` is api-core's meta/v1 `Duration`: a duration by its facts (`DURATION`), not by its name (a string newtype named `Duration` is not one)."),
 ("arrayofstruct", r"Invalid", "Difference: no lint for a list whose item type has no required field (not in the DESIGN catalogue)."),
 ("nonpointerstructs", r"A\.(WithOptional|WithOptionalFieldIncorrect)$", "Difference: a required struct field whose type has no required field is accepted (not in DESIGN)."),
 ("nonpointerstructs", r"A\.WithOptionalFieldCorrect$", "Deliberate (DESIGN `optional_field`: an optional field is an `Option`, structs included); KAL (with `omitzero`) allows a non-pointer optional struct."),
 ("nonpointerstructs", r"Incorrect$", "Reported as `optional_field` (an optional struct must be an `Option`), not for the marker."),
 ("nonullable", r"NullableMarkerFieldTypeAlias$", "Reported once, at the type: a newtype cannot carry `nullable` at all."),
 ("nonullable", r"(type NullableMarkerType|NullableMarkerField)$", "There is no `nullable` key ('Unknown field')."),
 ("statussubresource", r"type (Bar|FooBarBaz)$", "Was a difference; now matches: the `status_subresource` lint (beyond DESIGN.md's catalogue) warns on `status_subresource = true` without `status`."),
 ("duplicatemarkers", r"(type MaxLength|\.Maxlength)$", "Rust rejects any repeated key, equal values or not (KAL's `uniquemarkers`, on by default, reports these)."),
 ("duplicatemarkers", r"(IncludingTypeMarker|StringFromAnotherFileWithMaxLength)$", "Difference: a field keyword replaces its newtype's in the schema, silently."),
 ("duplicatemarkers", r"Duplicated(Unordered)?(Validation)?Replicas$", "Difference: a repeated `validation(..)` rule is accepted (emitted twice)."),
 ("uniquemarkers", r"FromAliasWith", "Difference: a keyword on both the field and its newtype: the field's replaces the newtype's in the schema, silently."),
 ("uniquemarkers", r"^a/a.go:type A$", "Error, but another reason: there is no type-level `min_properties` ('Unknown field')."),
]
def note_for(linter, f, name):
    out = []
    for l, rx, n in NOTES:
        if l == linter and re.search(rx, f"{f}:{name}"):
            out.append(n)
    return " ".join(out)
MISMATCH_OVERRIDE = set()

# ---- stderr parsing
def parse_stderr(path):
    diags = []
    if not os.path.exists(path):
        return diags
    blocks, cur = [], []
    for l in open(path).read().split("\n"):
        if re.match(r"^(error|warning)", l):
            if cur: blocks.append(cur)
            cur = [l]
        elif cur:
            cur.append(l)
    if cur: blocks.append(cur)
    for b in blocks:
        h = b[0]
        locs = [(i, m) for i, l in enumerate(b) for m in [re.search(r"--> (tests/ui/kal/\S+?):(\d+):(\d+)", l)] if m]
        if not locs: continue
        loc = locs[0][1]
        if "E0080" in h:
            for i, l in enumerate(b):
                if "erroneous constant encountered" in l:
                    for l2 in b[i:]:
                        m = re.search(r"--> (tests/ui/kal/\S+?):(\d+):(\d+)", l2)
                        if m: loc = m; break
                    break
        ms = re.findall(r"\[([a-z_]+)\]", h)
        if "E0277" in h: kind, lint = "error", "E0277"
        elif h.startswith("warning"): kind, lint = "rustc-warning", "rustc"
        elif "use of deprecated" in h: kind, lint = "warning", (ms[-1] if ms else "?")
        elif ms: kind, lint = "error", ms[-1]
        else: kind, lint = "error", "attr"
        text = re.sub(r"^error(\[E\d+\])?: ", "", h)
        diags.append(dict(file=loc.group(1).replace("tests/ui/kal/", ""), line=int(loc.group(2)), kind=kind, lint=lint, text=text))
    return diags

DIAGS = collections.defaultdict(list)
for p in glob.glob(K + "/fail/*.stderr"):
    for d in parse_stderr(p):
        DIAGS[(d["file"], d["line"])].append(d)

def rust_range(relpath, line):
    lines = open(os.path.join(K, relpath)).read().split("\n")
    start = line
    i = line - 1  # 1-based -> previous line index is line-2
    while i - 1 >= 0:
        prev = lines[i - 1].strip()
        if prev.startswith("#[") or prev.startswith("///") or prev.endswith(")]") and not prev.endswith(";"):
            i -= 1
            start = i + 1
        else:
            break
    return start, line

ANCHORS = {}
for p in glob.glob(K + "/*/*.rs"):
    for no, l in enumerate(open(p), 1):
        m = re.search(r"// ANCHOR (\S+)", l)
        if m: ANCHORS[m.group(1)] = (os.path.relpath(p, K), no)

def describe(ds):
    out = []
    for d in ds:
        if d["lint"] == "E0277": out.append("error (E0277: no `ApiType`)")
        elif d["lint"] == "attr": out.append("error (" + d["text"].split("\n")[0][:70] + ")")
        elif d["kind"] == "warning": out.append(f"warning [{d['lint']}]")
        elif d["kind"] == "rustc-warning": out.append("rustc warning")
        else: out.append(f"error [{d['lint']}]")
    return ", ".join(dict.fromkeys(out))

rows = collections.defaultdict(list)
stats = collections.Counter()
per = collections.defaultdict(collections.Counter)
mismatches = []
for key, cs in sorted(cases.items()):
    linter, f = key.split("|")
    for c in cs:
        name = c["name"]
        r = refs.get((linter, f, name))
        kal = "want" + (" ×2" if c["want"] == 2 else "") if c["want"] else "none"
        kline = c.get("want_line") or c["line"]
        kcase = f"{f}:{kline} `{name}`"
        if not r:
            if not c["want"]:
                continue  # passing case not translated
            why = na_reason(linter, f, name)
            if why is None:
                why = "NOT TRANSLATED (missing reason)"
            rows[linter].append((kcase, kal, "—", "—", "n/a", why))
            stats["want"] += 1; stats["na"] += 1; per[linter]["want"] += 1; per[linter]["na"] += 1
            continue
        rel = REL[linter]
        ours, match, where, found_rel, found_all = [], None, [], [], []
        for (relpath, line, elsewhere) in r:
            where.append(f"{relpath}:{line}")
            if relpath.startswith("pass/"):
                continue
            s, e = rust_range(relpath, line)
            for ln in range(s, e + 1):
                for d in DIAGS.get((relpath, ln), []):
                    found_all.append(d)
                    if d["lint"] in rel or (d["lint"] == "attr" and "attr" in rel):
                        found_rel.append(d)
            if elsewhere and not found_rel:
                af, al = ANCHORS[elsewhere]
                for d in DIAGS.get((af, al), []):
                    if d["lint"] in rel:
                        found_rel.append(dict(d, elsewhere=f"{af}:{al}"))
                        found_all.append(dict(d, elsewhere=f"{af}:{al}"))
        if found_all:
            verdict = describe(found_all)
            if any("elsewhere" in d for d in found_all):
                verdict += " at " + ", ".join(sorted({d["elsewhere"] for d in found_all if "elsewhere" in d}))
        else:
            verdict = "none" + (" (compiles)" if all(x[0].startswith("pass/") for x in r) else "")
        ok = bool(found_rel) == bool(c["want"])
        if (linter, f, name) in MISMATCH_OVERRIDE:
            ok = False
        if found_rel and any("elsewhere" in d for d in found_rel):
            m = "yes (elsewhere)"
        else:
            m = "yes" if ok else "**no**"
        note = note_for(linter, f, name)
        if found_rel and all("elsewhere" in d for d in found_rel):
            at = sorted({d["elsewhere"] for d in found_rel})
            where = [", ".join(at) + " (field: " + ", ".join(where) + ")"]
        rows[linter].append((kcase, kal, ", ".join(where), verdict, m, note))
        bucket = "want" if c["want"] else "pass"
        stats[bucket] += 1; per[linter][bucket] += 1
        stats["translated"] += 1; per[linter]["translated"] += 1
        if ok:
            stats["same"] += 1; per[linter]["same"] += 1
            stats[bucket + "_same"] += 1; per[linter][bucket + "_same"] += 1
            if m.startswith("yes (elsewhere)"): stats["elsewhere"] += 1
        else:
            mismatches.append((linter, kcase, kal, verdict, note))

json.dump(dict(stats=stats, per={k: dict(v) for k, v in per.items()}, mismatches=mismatches), open(_os.path.join(D, "stats.json"), "w"), indent=1)
out = open(_os.path.join(D, "table.md"), "w")
for linter in sorted(rows):
    out.write(f"\n### {linter}\n\nKAL testdata `pkg/analysis/{linter}/testdata/src/` ({COMMIT.get(linter,'')}); our cases `fail/{linter}.rs`, `pass/{linter}.rs`.\n\n")
    out.write("| KAL linter | KAL case (file:line, field) | KAL verdict | our case (file:line) | our verdict | match? | note |\n|---|---|---|---|---|---|---|\n")
    for (kc, kal, ours, verdict, m, note) in rows[linter]:
        out.write(f"| {linter} | {kc} | {kal} | {ours} | {verdict} | {m} | {note} |\n")
print(dict(stats))
for l in sorted(per): print(l, dict(per[l]))
print(len(mismatches), "mismatches")
for m in mismatches: print(" ", m[0], m[1], m[2], "|", m[3])

import os as _os
D = _os.path.dirname(_os.path.abspath(__file__))
K = _os.path.dirname(D)
"""Lists every field / type declaration of the transcribed KAL testdata with
its line and whether it carries a `// want` (count of expectations)."""
import re, os, json, sys

def cases(path):
    out = []
    struct = None          # current struct name
    inner = None           # anonymous inner struct field name
    typeblock = False
    pending = None         # (line, count) of a want written in a comment line
    depth = 0
    for no, raw in enumerate(open(path), 1):
        line = raw.rstrip("\n")
        want = 0
        m = re.search(r"//\s?want(2?)", line)
        if m:
            want = 2 if m.group(1) else 1
        s = line.strip()
        if s.startswith("//"):
            if want:
                pending = (no, want)
            continue
        if line.startswith("type ("):
            typeblock = True
            continue
        if typeblock and s == ")":
            typeblock = False
            continue
        mt = re.match(r"^type (\w+)(\[[^\]]*\])? (struct|interface)\s*\{", line) or \
             (typeblock and re.match(r"^\t(\w+)(\[[^\]]*\])? (struct)\s*\{", line))
        if mt:
            struct = mt.group(1)
            out.append(dict(line=no, name="type " + struct, want=want))
            continue
        if typeblock and not struct:
            md = re.match(r"^\t(\w+)", line)
            if md:
                out.append(dict(line=no, name="type " + md.group(1), want=want))
            continue
        md = re.match(r"^type (\w+)", line)
        if md:
            out.append(dict(line=no, name="type " + md.group(1), want=want))
            continue
        if struct is None:
            continue
        if s.startswith("}"):
            if inner:
                inner = None
            else:
                struct = None
            continue
        mf = re.match(r"^(\t+)(\*?[\w.]+)(.*)$", line)
        if mf:
            indent = len(mf.group(1))
            name = mf.group(2)
            rest = mf.group(3)
            qual = f"{struct}.{name}" if not inner or indent == 1 else f"{struct}.{inner}.{name}"
            w = want
            wl = no
            if pending:
                wl, w = pending
                pending = None
            out.append(dict(line=no, want_line=wl if w else None, name=qual, want=w))
            if re.search(r"struct \{", rest):
                inner = name
    return out

if __name__ == "__main__":
    root = D
    allc = {}
    for linter in sorted(os.listdir(root)):
        d = os.path.join(root, linter)
        if not os.path.isdir(d): continue
        for dp, _, fs in os.walk(d):
            for f in sorted(fs):
                if f.endswith(".go"):
                    rel = os.path.relpath(os.path.join(dp, f), d)
                    allc[(linter, rel)] = cases(os.path.join(dp, f))
    json.dump({f"{k[0]}|{k[1]}": v for k, v in allc.items()}, open(_os.path.join(D, "cases.json"), "w"), indent=0)
    tot = sum(1 for v in allc.values() for c in v if c["want"])
    print("want cases:", tot)
    for k, v in allc.items():
        print(k, sum(1 for c in v if c["want"]), "wants,", len(v), "items")

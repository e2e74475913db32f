import json, re, collections
import os as _os
D = _os.path.dirname(_os.path.abspath(__file__))
K = _os.path.dirname(D)
S = json.load(open(_os.path.join(D, "stats.json")))
st = S["stats"]; per = S["per"]; mm = S["mismatches"]
def cls(note):
    n = note
    if re.search(r"\b(GAP|BUG)\b", n): return "G"
    if n.startswith("Deliberate") or "Reported once" in n or n.startswith("Rust rejects") or "Deliberate" in n: return "D"
    if "Difference" in n: return "N"
    return "?"
C = collections.Counter(cls(m[4]) for m in mm)
want = st["want"]; na = st["na"]; app = want - na
wt = st["translated"] - st["pass"]
ws = st["want_same"]; ps = st["pass_same"]; pt = st["pass"]
pct = lambda a, b: f"{100*a/b:.1f}%"
uniq_fromalias = sum(1 for m in mm if m[0] == "uniquemarkers" and "FromAlias" in m[1])
rows = []
for l in sorted(per):
    v = per[l]
    w = v.get("want", 0); n = v.get("na", 0); a = w - n
    rows.append(f"| {l} | {w} | {n} | {a} | {v.get('want_same',0)} | {v.get('pass',0)} | {v.get('pass_same',0)} |")
table = open(_os.path.join(D, "table.md")).read()
head = open(_os.path.join(D, "readme_head.md")).read()
vals = dict(
    want=want, na=na, app=app, wt=wt, ws=ws, wpct=pct(ws, app), pt=pt, ps=ps, ppct=pct(ps, pt),
    tot=st["translated"], tots=st["same"], totpct=pct(st["same"], st["translated"]),
    elsewhere=st["elsewhere"], mm=len(mm), D=C["D"], G=C["G"], N=C["N"], Q=C["?"],
    ufa=uniq_fromalias, wpct2=pct(ws, app - uniq_fromalias), app2=app - uniq_fromalias,
    perlinter="\n".join(rows))
for k, v in vals.items():
    head = head.replace("{" + k + "}", str(v))
open(_os.path.join(K, "README.md"), "w").write(head + table)
print(C, len(mm), pct(ws, app), pct(st["same"], st["translated"]))
for m in mm:
    if cls(m[4]) == "?": print("UNCLASSIFIED", m)

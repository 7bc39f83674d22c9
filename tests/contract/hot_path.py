#!/usr/bin/env python3
"""The queries' contract with a GPU backend, read off the compiled library.

The README ("The result contract") promises that every query runs with fixed-size
scratch on the stack and calls nothing but libm and memcpy: no heap, no
threads, no printing, no recursion, no globals. This test checks
that promise on the object files as built, so that a change which breaks it
fails here rather than on a device:

1. No object file of the library defines writable data (a global or static
   variable, .data/.bss): queries share nothing between calls.
2. From every public function except shape creation and the batch calls
   (EXEMPT below), the direct calls the compiler emitted reach only
   functions of the library, libm, and the compiler's own block copies
   (memcpy, memset, memmove); the CPU check of the vectorised support scan
   (scan.c) is the one allowed use of the compiler's runtime.
3. Those calls form no cycle: no query recurses.
4. Where the compiler wrote its stack-usage files (-fstack-usage, next to
   each object), no function's frame is unbounded (alloca, a VLA), and the
   deepest chain of frames from each public query, which no recursion makes
   finite, stays within STACK_BUDGET in an uninstrumented build; the worst
   query's figure is printed (README, "The result contract", quotes it).

Calls through pointers are the user's (a custom shape's support function,
a trace callback) and are not followed. Direct calls are read from
`objdump -dr` (x86-64 relocatable objects); elsewhere the test is skipped.

usage: hot_path.py SOURCE_DIR NM OBJDUMP OBJECT...
"""
import re
import subprocess
import sys

SKIP = 77

# The most stack a query may need, over the deepest chain of its frames
# (user callbacks excluded): EPA's polytope and its step's scratch are most
# of it (epa_hull.h). Sanitizers' frames are larger and are not held to it.
STACK_BUDGET = 128 * 1024

# Public functions that may allocate, start threads or call what queries
# may not: shape creation from point clouds (hulls) and the batch calls,
# which spread queries over threads (the queries they run are checked as
# roots of their own).
EXEMPT = {
    "gjk_hull_create", "gjk_hull_destroy",
    "gjk_batch_intersect", "gjk_batch_distance", "gjk_batch_penetration",
    "gjk2_batch_intersect", "gjk2_batch_distance", "gjk2_batch_penetration",
}

LIBM_BASE = """acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh erf erfc exp exp2 expm1
fabs fdim floor fma fmax fmin fmod frexp hypot ilogb ldexp lgamma llrint llround log log10 log1p log2 logb
lrint lround modf nan nearbyint nextafter nexttoward pow remainder remquo rint round scalbln scalbn sin
sincos sinh sqrt tan tanh tgamma trunc""".split()
ALLOWED = {n + s for n in LIBM_BASE for s in ("", "f", "l")}
ALLOWED |= {"memcpy", "memset", "memmove"}
# The compiler's runtime: stack protector checks where the toolchain turns
# them on, and sanitizer hooks in instrumented builds.
RUNTIME_PREFIXES = ("__asan", "__ubsan", "__sanitizer", "__msan", "__tsan")
RUNTIME = {"__stack_chk_fail"}
# __builtin_cpu_supports (the support scan's AVX2 dispatch, scan.c only).
CPU_CHECK = {"__cpu_model", "__cpu_indicator_init"}


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def public_functions(source_dir):
    import glob
    names = set()
    for h in glob.glob(source_dir + "/include/gjk/*.h"):
        text = open(h, encoding="utf-8").read()
        for m in re.finditer(r"^GJK_API\b[^(;]*?\b(\w+)\s*\(", text, re.M):
            names.add(m.group(1))
    return names


def base_name(name):
    # GCC's split-off cold parts belong to their function.
    return name[:-5] if name.endswith(".cold") else name


def main(argv):
    if len(argv) < 5:
        print(__doc__)
        return 2
    source_dir, nm, objdump, objects = argv[1], argv[2], argv[3], argv[4:]
    errors = []

    # 1. Writable data, and which symbols each object defines (local ones
    # are keyed by their object: static functions share names across files).
    # Sections from the symbol table: .data.rel.ro is read-only once loaded
    # (a table of pointers in position-independent code).
    defined_global = set()
    local = {}  # object -> local symbols it defines
    for obj in objects:
        local[obj] = set()
        table = run([objdump, "-t", obj]).splitlines()
        instrumented = any(RUNTIME_PREFIXES[0] in l or RUNTIME_PREFIXES[1] in l for l in table)
        for line in table:
            m = re.match(r"^[0-9a-f]+ (.{7}) (\S+)\s+[0-9a-f]+\s+(?:\.hidden\s+|\.protected\s+|\.internal\s+)?(\S+)$", line)
            if not m:
                continue
            flags, section, name = m.groups()
            if section in ("*UND*", "*ABS*") or name.startswith("."):
                continue
            if "g" in flags[0]:
                defined_global.add(name)
            else:
                local[obj].add(name)
            writable = section == "*COM*" or (section.startswith((".data", ".bss", ".tbss", ".tdata")) and
                                               not section.startswith(".data.rel.ro"))
            # (A sanitizer's own records in an instrumented build.)
            if instrumented and re.match(r"^(__unnamed_\d+|___asan_gen_.*|__asan_.*|__odr_asan.*)$", name):
                continue
            if writable and "O" in flags:
                errors.append(f"{obj}: writable data '{name}' (section {section})")

    # 2. The direct-call graph. A call whose target the linker fills in
    # shows a placeholder target and, on the next line, the relocation that
    # names the real one.
    head = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
    direct = re.compile(r"\s(call|jmp)\s+[0-9a-f]+ <([^>]+)>$")
    reloc = re.compile(r"^\s+[0-9a-f]+: R_X86_64_(?:PLT32|PC32|GOTPCREL\w*)\s+([^\s+-]+)")
    calls = {}  # node -> set of nodes; a node is (object or None, name)
    arch_seen = False

    def node_of(obj, name):
        return (obj, name) if name in local[obj] else (None, name)

    for obj in objects:
        text = run([objdump, "-dr", "--no-show-raw-insn", obj])
        if "x86-64" in text:
            arch_seen = True
        fn, pending = None, None

        def add(target):
            target = base_name(target)
            if target.startswith(".") or target == fn:
                return
            calls.setdefault(node_of(obj, fn), set()).add(node_of(obj, target))

        for line in text.splitlines():
            m = reloc.match(line)
            if m:
                if fn is not None:
                    add(m.group(1))  # (replaces a pending placeholder)
                pending = None
                continue
            if pending is not None:
                kind, target = pending
                pending = None
                # A call to its own start is recursion; a jump there, a loop.
                if base_name(target) == fn and kind == "call":
                    errors.append(f"{obj}: {fn} calls itself")
                elif "+0x" not in target:
                    add(target)
            m = head.match(line)
            if m:
                fn = base_name(m.group(1))
                continue
            m = direct.search(line)
            if m and fn is not None:
                pending = (m.group(1), m.group(2))
        if pending is not None and "+0x" not in pending[1]:
            add(pending[1])
    if not arch_seen:
        print("hot_path: not x86-64 objects; skipped")
        return SKIP

    roots = sorted(public_functions(source_dir) - EXEMPT)
    missing = [r for r in roots if r not in defined_global]
    if missing:
        errors.append("public functions not found in the objects: " + ", ".join(missing))

    def is_library(node):
        obj, name = node
        return obj is not None or name in defined_global

    # Reachable functions, with one path back to a root for the report.
    parent = {}
    stack = [(None, r) for r in roots if r in defined_global]
    for r in stack:
        parent[r] = None
    while stack:
        node = stack.pop()
        for nxt in calls.get(node, ()):
            if nxt not in parent:
                parent[nxt] = node
                if is_library(nxt):
                    stack.append(nxt)

    def path(node):
        out = []
        while node is not None:
            out.append(node[1])
            node = parent[node]
        return " <- ".join(out)

    scan_objects = {o for o in objects if o.endswith(("scan.c.o", "scan.c.obj"))}
    scan_functions = {n for n in defined_global if n.startswith("gjk_scan")}
    for node in sorted(parent, key=lambda n: (n[0] or "", n[1])):
        if is_library(node):
            continue
        name = node[1]
        if name in ALLOWED or name in RUNTIME or name.startswith(RUNTIME_PREFIXES):
            continue
        up = parent[node]
        if name in CPU_CHECK and up is not None and (up[0] in scan_objects or up[1] in scan_functions):
            continue
        errors.append(f"a query reaches '{name}': {path(node)}")

    # 3. Cycles among the reachable library functions (iterative DFS).
    colour = {}
    for start in [n for n in parent if is_library(n)]:
        if start in colour:
            continue
        colour[start] = 1
        work = [(start, iter(sorted(calls.get(start, ()), key=str)))]
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                work.pop()
                continue
            if not is_library(nxt):
                continue
            c = colour.get(nxt, 0)
            if c == 1:
                cycle = [n[1] for n, _ in work[[w[0] for w in work].index(nxt):]] + [nxt[1]]
                errors.append("recursion: " + " -> ".join(cycle))
            elif c == 0:
                colour[nxt] = 1
                work.append((nxt, iter(sorted(calls.get(nxt, ()), key=str))))

    # 4. Stack: frame sizes from the .su files, summed along the deepest
    # chain (the graph is acyclic once step 3 passes).
    frames = {}  # node -> bytes
    have_su = False
    # (An instrumented build's frames grow at run time: AddressSanitizer's
    # fake stacks. Its figures are printed, not held to anything.)
    sanitized = any(n[1].startswith(RUNTIME_PREFIXES) for n in parent if n[0] is None)
    for obj in objects:
        su = re.sub(r"\.o(bj)?$", ".su", obj)
        try:
            lines = open(su, encoding="utf-8").read().splitlines()
        except OSError:
            continue
        have_su = True
        for line in lines:
            fields = line.split("\t")
            if len(fields) != 3:
                continue
            name = re.sub(r"\.(isra|constprop|part|cold)$", "", fields[0].rsplit(":", 1)[-1])
            size, kind = int(fields[1]), fields[2]
            if "dynamic" in kind and "bounded" not in kind and not sanitized:
                errors.append(f"{su}: {name} has an unbounded stack frame ({kind})")
            key = node_of(obj, name)
            frames[key] = max(frames.get(key, 0), size)

    def frame(node):
        obj, name = node
        plain = re.sub(r"(\.(isra|constprop|part)(\.\d+)?)+$", "", name)
        for key in ((obj, name), (obj, plain), (None, name), (None, plain)):
            if key in frames:
                return frames[key]
        return 0

    depth = {}

    def deepest(start):
        # Iterative post-order: depth[n] = frame(n) + max over callees.
        todo = [(start, False)]
        while todo:
            node, done = todo.pop()
            if node in depth:
                continue
            callees = [c for c in calls.get(node, ()) if is_library(c)]
            if done:
                depth[node] = frame(node) + max((depth.get(c, 0) for c in callees), default=0)
                continue
            todo.append((node, True))
            todo.extend((c, False) for c in callees if c not in depth)
        return depth[start]

    stack_note = ""
    if have_su and not any(e.startswith("recursion") for e in errors):
        worst = sorted(((deepest((None, r)), r) for r in roots if r in defined_global), reverse=True)
        if worst:
            size, name = worst[0]
            stack_note = f"; deepest stack {size} bytes ({name})"
            if not sanitized:
                for s, n in worst:
                    if s > STACK_BUDGET:
                        errors.append(f"{n} may need {s} bytes of stack, over the budget of {STACK_BUDGET}")
            chain, node = [], (None, worst[0][1])
            while node is not None:
                chain.append(f"{node[1]} {frame(node)}")
                callees = [c for c in calls.get(node, ()) if is_library(c)]
                node = max(callees, key=lambda c: depth[c], default=None)
            print("hot_path: the deepest chain: " + " -> ".join(chain))
            print("hot_path: stack per query (bytes, deepest chain of frames): " +
                  ", ".join(f"{n} {s}" for s, n in worst[:8]) + (", ..." if len(worst) > 8 else ""))

    reachable = sum(1 for n in parent if is_library(n))
    if errors:
        for e in errors:
            print("hot_path: " + e)
        print(f"hot_path: FAILED ({len(errors)} problems; {len(roots)} public query functions, "
              f"{reachable} library functions reached)")
        return 1
    print(f"hot_path: ok: {len(roots)} public query functions reach {reachable} library functions; "
          "no writable data, no calls beyond libm and memcpy/memset, no recursion" + stack_note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

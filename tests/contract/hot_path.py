#!/usr/bin/env python3
"""The queries' contract with a GPU backend, read off the compiled library.

The README ("The result contract") promises that every query runs with
fixed-size scratch on the stack and calls nothing but libm and memcpy: no
heap, no threads, no printing, no recursion, no globals. This test checks
that promise on the object files as built, so that a change which breaks it
fails here rather than on a device:

1. No object file of the library holds writable data: no symbol (a global,
   a static, a thread-local) in a section that is allocated and neither
   code nor read-only (.data.rel.ro counts as read-only: a table of
   pointers in position-independent code), and no such section with bytes
   and no symbol. Queries share nothing between calls.
2. From every public function except shape creation and the batch calls
   (EXEMPT below), the code reaches only functions of the library, libm, and
   the compiler's own block copies (memcpy, memset, memmove); the CPU check
   of the vectorised support scans (scan.c) is the one allowed use of the
   compiler's runtime. Every reference from code counts: calls, jumps
   (conditional ones too: tail calls), and references through relocations
   of any type, a static function in another section resolved by its
   offset. Any other reference to a function takes its address (also
   through a table of function pointers in data), which a query may not
   do: the indirect call could not be followed.
3. Those calls form no cycle: no query recurses.
4. Where the compiler wrote its stack-usage files (-fstack-usage, next to
   each object), no function's frame is unbounded (alloca, a VLA), every
   reached function has a frame on record, and the deepest chain of frames
   from each public query, which no recursion makes finite, stays within
   STACK_BUDGET in an uninstrumented build; the worst query's figure is
   printed (README, "The result contract", quotes it). Tail calls count as
   nested frames (an over-estimate); a leaf's red zone (up to 128 bytes)
   and libm's frames are not counted.

Calls through pointers are the user's (a custom shape's support function,
a trace callback) and are not followed. The code is read with `objdump`
(x86-64 relocatable objects); elsewhere, and for objects that hold only LTO
bytecode, the test is skipped.

usage: hot_path.py SOURCE_DIR OBJDUMP OBJECT...
"""
import glob
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
fabs fdim floor fma fmax fmin fmod frexp hypot ilogb ldexp llrint llround log log10 log1p log2 logb
lrint lround modf nan nearbyint nextafter nexttoward pow remainder remquo rint round scalbln scalbn sin
sincos sinh sqrt tan tanh tgamma trunc""".split()
# (Not lgamma: it writes the global signgam.)
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
    if len(argv) < 4:
        print(__doc__)
        return 2
    source_dir, objdump, objects = argv[1], argv[2], argv[3:]
    errors = []

    # 1. Writable data, and which symbols each object defines (local ones
    # are keyed by their object: static functions share names across files).
    # Writable sections from the section headers (allocated, neither code nor
    # read-only, whatever their name); .data.rel.ro is read-only once loaded
    # (a table of pointers in position-independent code).
    defined_global = set()
    local = {}      # object -> local symbols it defines
    home = {}       # global symbol -> the object that defines it
    functions = {}  # object -> section -> [(start, end, name)] of its function symbols
    symbol_section = {}  # (object, name) -> section
    is_function = set()  # nodes that are functions
    code_sections = {}   # object -> names of its code sections
    sections = {}        # object -> names of all its sections
    for obj in objects:
        local[obj], functions[obj], code_sections[obj], sections[obj] = set(), {}, set(), set()
        table = run([objdump, "-t", obj]).splitlines()
        if any(l.endswith(" __gnu_lto_slim") for l in table):
            print(f"hot_path: {obj} holds only LTO bytecode (-flto without -ffat-lto-objects); skipped")
            return SKIP
        instrumented = any(RUNTIME_PREFIXES[0] in l or RUNTIME_PREFIXES[1] in l for l in table)
        writable_sections = {}
        for m in re.finditer(r"^\s*\d+\s+(\S+)\s+([0-9a-f]+)\s.*\n\s+(.*)$", run([objdump, "-h", obj]), re.M):
            sec, size, sflags = m.group(1), int(m.group(2), 16), m.group(3)
            sections[obj].add(sec)
            if "CODE" in sflags:
                code_sections[obj].add(sec)
            elif "ALLOC" in sflags and "READONLY" not in sflags and not sec.startswith(".data.rel.ro"):
                writable_sections[sec] = size
        with_symbols = set()
        for line in table:
            m = re.match(r"^([0-9a-f]+) (.{7}) (\S+)\s+([0-9a-f]+)\s+(?:\.hidden\s+|\.protected\s+|\.internal\s+)?(\S+)$", line)
            if not m:
                continue
            value, flags, section, size, name = m.groups()
            if section in ("*UND*", "*ABS*") or name.startswith(".") or flags[5] == "d":
                continue
            if "g" in flags[0]:
                defined_global.add(name)
                home[name] = obj
            else:
                local[obj].add(name)
            symbol_section[(obj, name)] = section
            if flags[6] == "F":
                start = int(value, 16)
                functions[obj].setdefault(section, []).append((start, start + int(size, 16), name))
                is_function.add((obj, name) if "g" not in flags[0] else (None, name))
            # Objects, thread-locals (no type letter) and bare labels alike.
            writable = section == "*COM*" or section in writable_sections or section.startswith((".tbss", ".tdata"))
            # (A sanitizer's own records in an instrumented build.)
            if instrumented and re.match(r"^(__unnamed_\d+|___asan_gen_.*|__asan_.*|__odr_asan.*)$", name):
                continue
            if writable and flags[6] != "F":
                with_symbols.add(section)
                errors.append(f"{obj}: writable data '{name}' (section {section})")
        if not instrumented:  # (sanitizers keep their records in .data, unnamed)
            for sec, size in sorted(writable_sections.items()):
                if size and sec not in with_symbols:
                    errors.append(f"{obj}: writable section {sec} ({size} bytes)")

    # 2. The call graph. objdump shows a branch's target as <symbol> or
    # <symbol+0xN>; where the linker fills the target in, the instruction
    # shows a placeholder and the next line the relocation that names the
    # real one (a symbol, or a section and offset for a static function in
    # another section). Every reference from code counts, of every
    # relocation type: a call or jump (conditional ones too: tail calls) is
    # an edge; any other reference to a function takes its address, which
    # a query may not do (the test could not follow the indirect call).
    head = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
    insn = re.compile(r"^\s+[0-9a-f]+:\s+(?:(?:bnd|notrack|lock|rep\w*|data16|addr32|[c-gs]s|rex\S*)\s+)*(\S+)(.*)$")
    shown = re.compile(r"<([^<>+]+)(?:\+0x[0-9a-f]+)?>\s*$")
    reloc = re.compile(r"^\s+[0-9a-f]+: (R_X86_64_\w+)\s+([^\s+-]+)([+-]0x[0-9a-f]+)?")
    calls = {}  # node -> set of nodes; a node is (object or None, name)
    taken = {}  # node -> functions whose address it takes
    arch_seen = False

    def node_of(obj, name):
        return (obj, name) if name in local[obj] else (None, name)

    def function_at(obj, section, offset):
        # The function of `section` that holds `offset`.
        best = None
        for start, stop, name in functions[obj].get(section, ()):
            if start <= offset < max(stop, start + 1) and (best is None or start >= best[0]):
                best = (start, name)
        return best and best[1]

    def absolute(rtype):
        return rtype in ("R_X86_64_64", "R_X86_64_32", "R_X86_64_32S")

    # Tables of function pointers in data (a jump table's PC-relative
    # entries into its own function are not pointers to functions).
    tables = {}  # (object, data section) -> functions its relocations name
    for obj in objects:
        section = None
        for line in run([objdump, "-r", obj]).splitlines():
            m = re.match(r"^RELOCATION RECORDS FOR \[(.*)\]:", line)
            if m:
                section = m.group(1)
                continue
            f = line.split()
            if (len(f) != 3 or section is None or section in code_sections[obj] or
                    section.startswith((".eh_frame", ".debug", ".rela"))):
                continue
            sym, off = re.match(r"([^+-]+)([+-]0x[0-9a-f]+)?$", f[2]).groups()
            off = int(off, 16) if off else 0
            if sym in code_sections[obj] and absolute(f[1]):
                sym = function_at(obj, sym, off)
            if sym and node_of(obj, sym) in is_function:
                tables.setdefault((obj, section), set()).add(node_of(obj, base_name(sym)))

    for obj in objects:
        text = run([objdump, "-dr", "--no-show-raw-insn", obj])
        if "x86-64" in text:
            arch_seen = True
        fn, kind, pending = None, None, None

        def add(kind, target):
            target = base_name(target)
            if target.startswith("."):
                return
            node, to = node_of(obj, fn), node_of(obj, target)
            if target == fn:
                # A call to its own start is recursion; a jump there, a loop.
                if kind == "call":
                    calls.setdefault(node, set()).add(to)
                return
            calls.setdefault(node, set()).add(to)
            if kind == "address" and to in is_function:
                taken.setdefault(node, set()).add(target)

        for line in text.splitlines():
            m = reloc.match(line)
            if m:
                pending = None  # (the placeholder)
                rtype, sym, addend = m.group(1), m.group(2), int(m.group(3) or "0", 16)
                if fn is None:
                    continue
                if sym in code_sections[obj]:
                    # A static function in another section: PC-relative
                    # references point 4 bytes before the next instruction.
                    sym = function_at(obj, sym, addend if absolute(rtype) else addend + 4) or sym
                else:
                    for f in tables.get((obj, sym if sym in sections[obj] else symbol_section.get((obj, sym))), ()):
                        add("address", f[1])
                    if sym in sections[obj]:
                        continue  # (data, or a label in another section)
                add(kind, sym)
                continue
            if pending is not None:
                add(kind, pending)
                pending = None
            m = head.match(line)
            if m:
                fn = base_name(m.group(1))
                continue
            m = insn.match(line)
            if m and fn is not None:
                mnemonic, operands = m.group(1), m.group(2)
                kind = "call" if mnemonic.startswith("call") else "jump" if mnemonic.startswith("j") else "address"
                t = shown.search(operands)
                if t and "*" not in operands.split("#")[0]:
                    pending = t.group(1)
                    # (A branch inside the function, or to its start.)
                    if base_name(pending) == fn and (kind != "call" or "+0x" in t.group(0)):
                        pending = None
        if pending is not None:
            add(kind, pending)
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
    scan_functions = {n for n in defined_global if n.startswith(("gjk_scan", "gjk2_scan"))}
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
    for node in sorted((n for n in parent if n in taken), key=lambda n: (n[0] or "", n[1])):
        errors.append(f"a query takes the address of {', '.join(sorted(taken[node]))} "
                      f"(an indirect call the test cannot follow): {path(node)}")

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
    frames = {}  # (object, name as the .su file writes it) -> bytes
    frames_base = {}  # (object, name without clone suffixes) -> largest of them
    have_su, su_missing, no_frame = False, [], set()
    clone = re.compile(r"(\.(isra|constprop|part|cold|lto_priv)(\.\d+)?)+$")
    # (An instrumented build's frames grow at run time: AddressSanitizer's
    # fake stacks. Its figures are printed, not held to anything.)
    sanitized = any(n[1].startswith(RUNTIME_PREFIXES) for n in parent if n[0] is None)
    for obj in objects:
        su = re.sub(r"\.o(bj)?$", ".su", obj)
        try:
            lines = open(su, encoding="utf-8").read().splitlines()
        except OSError:
            su_missing.append(su)
            continue
        have_su = True
        for line in lines:
            fields = line.split("\t")
            if len(fields) != 3:
                continue
            name = fields[0].rsplit(":", 1)[-1]
            size, kind = int(fields[1]), fields[2]
            if "dynamic" in kind and "bounded" not in kind and not sanitized:
                errors.append(f"{su}: {name} has an unbounded stack frame ({kind})")
            frames[(obj, name)] = max(frames.get((obj, name), 0), size)
            # (By the function's name without clone suffixes: the largest.)
            base = (obj, clone.sub("", name))
            frames_base[base] = max(frames_base.get(base, 0), size)
    if have_su:
        errors.extend(f"no stack-usage file {su}" for su in su_missing)

    def frame(node):
        # GCC writes a clone's name with or without its last number
        # (f.part.0, f.isra); failing both, the largest frame of that name.
        obj, name = node
        obj = obj or home.get(name)
        for key in ((obj, name), (obj, re.sub(r"\.\d+$", "", name))):
            if key in frames:
                return frames[key]
        if (obj, clone.sub("", name)) in frames_base:
            return frames_base[(obj, clone.sub("", name))]
        if have_su and node in is_function:
            no_frame.add(f"no stack-usage entry for {name} ({obj})")
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

    errors.extend(sorted(no_frame))
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

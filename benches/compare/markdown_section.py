"""Replaces (or appends) a marked section of a markdown file: the comparison scripts' --write."""
import os


def write_section(root, rel_path, name, text):
    """Puts `text` between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in ROOT/REL_PATH."""
    path = os.path.join(root, rel_path)
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    old = open(path).read() if os.path.exists(path) else ""
    block = f"{begin}\n{text}\n{end}"
    if begin in old and end in old:
        new = old[: old.index(begin)] + block + old[old.index(end) + len(end):]
    else:
        new = old + ("\n" if old else "") + block + "\n"
    open(path, "w").write(new)

"""Where the classes a stored snapshot names live now.

Snapshots name dataclasses by module path (``tools/runtime/state/snapshots.py``). Sessions written
before ``ooxml/`` moved into folders (issue 19) name the flat paths (``ooxml.ids``); Redis may
still hold them after an upgrade, so those paths are mapped to the folders that hold them now.
Likewise sessions written before ``tools/runtime`` moved into wings (issue 30) name its flat paths
(``tools.runtime.sessions:Cursor``). Classes moved between modules since are in ``_MOVED``.
"""
from __future__ import annotations

_FOLDERS = {
    "xml": "namespaces errors numbers units clock budget order safexml unlink minting ids wordids",
    "opc": "package parts savefile tempfiles filekinds strict template outfile link_policy external_refs office_copy",
    "text": "body build ranges marks doc_order format_args formatting alt_content replace images notes copies",
    "lists": "numbering numbering_defs numbering_formats lists_edit list_copies",
    "stylesheet": "styles styles_props styles_builtin styles_write",
    "layout": "sections page_setup headers section_merge",
    "refs": "fields toc toc_fields toc_switches links link_rels",
    "review": "review_ops revisions tracked_text comments",
    "tabular": "grid",  # the flat ooxml.tables held no dataclass a snapshot could name (now split by job)
    "model": "document history history_codec integrity positions",
    "markdown": "markdown_in mdlists",
}
FLAT_OOXML = {f"ooxml.{m}": f"ooxml.{folder}.{m}" for folder, ms in _FOLDERS.items() for m in ms.split()}
_WINGS = {
    "call": "dispatch arguments plain_schema progress audit history registry listed_schema toolsets",
    "protocol": "protocol structured instructions prompts resources subscriptions notices object_resources tasks",
    "sessions": "sessions element_ids lifetime limits overrun quotas recovery sandbox roots memory",
    "state": "durable statestore snapshots snapshot_aliases stopping",
}
FLAT_RUNTIME = {f"tools.runtime.{m}": f"tools.runtime.{wing}.{m}" for wing, ms in _WINGS.items() for m in ms.split()}


_MOVED = {"ooxml.xml.ids:Predeclared": "ooxml.xml.id_bytes"}  # class -> its module now


def current(module: str, name: str = "") -> str:
    """The module path today for a path a snapshot names (of class ``name``)."""
    module = FLAT_OOXML.get(module) or FLAT_RUNTIME.get(module, module)
    return _MOVED.get(f"{module}:{name}", module)

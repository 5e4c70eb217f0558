"""What a document may be made to point to outside itself: link schemes, and field kinds that read
files or fetch addresses when Word updates them (a prompt-injected agent could plant them against
whoever opens the file). Refused unless the operator allows them by name (config key ``allow``).

The one allow list for hyperlinks (docx_insert_hyperlink, HYPERLINK fields, Markdown links) and
fields (docx_insert_field); ooxml/opc/external_refs.py cuts the same field kinds from LibreOffice's copy.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from ooxml.xml.errors import OoxmlError

DEFAULT_SCHEMES = frozenset({"http", "https", "mailto"})
KNOWN_SCHEMES = frozenset({"http", "https", "mailto", "ftp", "tel", "file"})  # what a Word link can hold
# Fields whose update reads a file, fetches an address or talks to another program.
FETCHING_FIELDS = frozenset({"INCLUDETEXT", "INCLUDEPICTURE", "INCLUDE", "LINK", "DDE", "DDEAUTO", "IMPORT"})
_FIRST_ARG = re.compile(r'^\s*\S+\s+(?:"([^"]*)"|([^\s\\"]+))')


class NotAllowed(OoxmlError):
    error_type = "PermissionDenied"


def field_kind(instruction: str) -> str:
    """The field's name (its instruction's first word), upper case."""
    words = instruction.split()
    return words[0].upper() if words else ""


@dataclass(frozen=True)
class LinkPolicy:
    schemes: frozenset = DEFAULT_SCHEMES
    fields: frozenset = frozenset()  # FETCHING_FIELDS kinds the operator allows

    def check_url(self, url: str) -> str:
        """``url`` unless its scheme is not allowed; an address without one is a path Word opens from
        the document's folder, so it counts as ``file``. A ``#bookmark`` always passes."""
        if url.strip().startswith("#"):
            return url
        scheme = urlsplit(url.strip()).scheme.lower() or "file"
        if scheme not in self.schemes:
            raise NotAllowed(f"Links with the '{scheme}:' scheme are refused: '{url[:100]}'.",
                             hint=f"Allowed schemes: {', '.join(sorted(self.schemes))}. An operator can allow "
                                  f"'{scheme}' in the server's config: allow: {{url_schemes: [{scheme}]}}.")
        return url

    def check_field(self, instruction: str) -> str:
        """``instruction`` unless it is a field kind that reads or fetches outside the document, or a
        HYPERLINK to a scheme not allowed."""
        kind = field_kind(instruction)
        if kind in FETCHING_FIELDS and kind not in self.fields:
            raise NotAllowed(f"{kind} fields are refused: Word would read or fetch what they name when it "
                             "updates fields.",
                             hint=f"Insert the content itself instead (text, or docx_insert_image). An operator can "
                                  f"allow them in the server's config: allow: {{field_kinds: [{kind}]}}.")
        if kind == "HYPERLINK":
            m = _FIRST_ARG.match(instruction)
            if m:
                self.check_url(m.group(1) if m.group(1) is not None else m.group(2))
        return instruction


DEFAULT = LinkPolicy()


def policy_of(config) -> LinkPolicy:
    """The policy of a server config (tools.config.model.Config), or the default one."""
    return getattr(config, "link_policy", None) or DEFAULT

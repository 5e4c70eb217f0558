"""docx_check (SPEC §12, toolset core): will Word open the file, is it accessible; repairs that change no text."""
from __future__ import annotations

from ooxml.check import repair as RP
from ooxml.check import run as CK
from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from render import check_view as V
from render.answer import success_answer
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool


@tool(toolset="core", title="Check validity and accessibility", operation="Repair Document", open_on_use=True)
def docx_check(ctx: CallContext, e: Edit, session_id: str | None, rules: list[str] | None = None, repair: bool = False,
               title: str | None = None, language: str | None = None) -> None:
    """What makes Word refuse the file or fails accessibility, by element ID; repair=True fixes what changes no
    text.

    Args:
        rules: "word", "accessibility"; default both.
        title: With repair: the title to set.
        language: With repair: the language to set (en-US).
    """
    chosen = CK.checked_rules(rules)
    RP.check_arguments(title, language)
    if not repair:
        if title is not None or language is not None:
            raise ValidationError("title and language are set by a repair.",
                                  hint="Call docx_check with repair=True and the title or language.")
        findings = CK.check(e.doc, chosen)
        e.plain(success_answer("Check Document", fields={"Session ID": e.session.id, "Found": V.summary(findings)},
                               content="\n".join(V.lines(findings, chosen))))
        return
    done = RP.repair(e.doc, CK.check(e.doc, chosen), e.change, title, language)
    e.report()  # the fixes are in the tree before the check that follows reads it
    after = CK.check(e.doc, chosen)
    fields = {"Repaired": len(done.fixed), "Found": V.summary(after),
              **e.not_tracked("repairs change markup, not text")}
    content = "\n".join(V.repaired(done) + ["After the repair:"] + V.lines(after, chosen))
    e.done(next(B.iter_blocks(e.doc.body), None), fields=fields, content=content, head_id=False)
